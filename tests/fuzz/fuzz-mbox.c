/*
 * fuzz-mbox: the input as an mbox file, read message by message with
 * mbox_next() in each format (mboxo, mboxrd, auto); and the input as one file of a Maildir's new/ folder,
 * listed with maildir_list(), opened with open_beneath() and parsed
 * with mail_parse() as `import` does.  Files live in a private temporary folder
 * made once per process.
 *
 * sources: util mail
 * pkgs: gmime-3.0
 * options: -max_len=16384
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mail/mail.h"
#include "util/util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];
static char mbox_path[128];
static char md_file[128];

static void cleanup(void)
{
	unlink(mbox_path);
	unlink(md_file);
	for (const char *const *s =
		     (const char *const[]){ "/md/new", "/md/cur", "/md/tmp",
					    "/md", "", NULL };
	     *s; s++) {
		char p[160];
		snprintf(p, sizeof(p), "%s%s", dir, *s);
		rmdir(p);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *t = getenv("TMPDIR");
	char p[160];

	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "%s/fuzz-mbox.XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(dir))
		abort();
	snprintf(mbox_path, sizeof(mbox_path), "%s/in.mbox", dir);
	snprintf(p, sizeof(p), "%s/md", dir);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/md/new", dir);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/md/cur", dir);
	mkdir(p, 0700);
	snprintf(md_file, sizeof(md_file), "%s/md/new/1.fuzz", dir);
	atexit(cleanup);
	return 0;
}

static void put(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		abort();
	while (size) {
		ssize_t w = write(fd, data, size);
		if (w <= 0)
			abort();
		data += w;
		size -= (size_t)w;
	}
	close(fd);
}

static void read_mbox(enum mbox_format fmt, size_t size)
{
	struct mbox_reader *r;
	struct err err = { 0, "" };
	char *buf;
	size_t len, total = 0;
	int rc;

	if (mbox_open(mbox_path, fmt, &r, &err) < 0)
		return;
	while ((rc = mbox_next(r, &buf, &len, &err)) != 0) {
		if (rc < 0) {
			/* An oversized message is skipped; anything else stops. */
			if (rc != ERR_INVALID)
				break;
			continue;
		}
		total += len;
		/* Unquoting only removes bytes. */
		if (total > size)
			abort();
		free(buf);
	}
	mbox_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err err = { 0, "" };

	put(mbox_path, data, size);
	read_mbox(MBOX_AUTO, size);
	read_mbox(MBOX_O, size);
	read_mbox(MBOX_RD, size);

	put(md_file, data, size);
	{
		struct mail_folder f;
		if (maildir_list(mbox_path, &f, &err) == 0)
			abort(); /* a plain file is not a Maildir */
	}
	{
		char md[160];
		struct mail_folder f;
		snprintf(md, sizeof(md), "%s/md", dir);
		if (maildir_list(md, &f, &err) < 0 || f.n != 1)
			abort();
		for (size_t i = 0; i < f.n; i++) {
			char *buf;
			size_t len;
			int fd = open_beneath(md, f.names[i], &err);
			if (fd >= 0 &&
			    read_fd(fd, f.names[i], MAIL_MAX_SIZE, &buf, &len,
				    &err) == 0) {
				struct mail_msg m;
				memset(&m, 0, sizeof(m));
				mail_parse(buf, len, &m, &err);
				mail_msg_release(&m);
				free(buf);
			}
			if (fd >= 0)
				close(fd);
		}
		mail_folder_release(&f);
	}
	return 0;
}
