/*
 * fuzz-maintainers: a MAINTAINERS file and a lookup.  The input is split
 * at its first line "%%": what comes before is written as MAINTAINERS into
 * a private tree (maint_db_load() only reads from a path), what follows is
 * used as a patch (maint_lookup() with patch text, maint_patch_files())
 * and, line by line, as file names (maint_lookup() with files).  Every
 * entry found is formatted and made safe for display.
 *
 * sources: util maint
 * pkgs: libpcre2-8
 * options: -max_len=8192
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "maint/maint.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];
static char path[128];

static void cleanup(void)
{
	unlink(path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *t = getenv("TMPDIR");

	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "%s/fuzz-maint.XXXXXX",
		 t && *t ? t : "/tmp");
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/MAINTAINERS", dir);
	atexit(cleanup);
	return 0;
}

static void use(struct maint_result *res)
{
	for (size_t i = 0; i < res->n; i++) {
		char *s = maint_entry_format(&res->v[i]);
		free(safe_str(s));
		free(s);
	}
	maint_result_release(res);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *sep = NULL;
	size_t mlen = size;
	struct maint_db *db;
	struct maint_result res;
	struct err err = { 0, "" };
	char *rest, **files = NULL, **pf = NULL;
	size_t nfiles = 0, npf;
	int fd;

	for (size_t i = 0; i + 3 <= size; i++)
		if ((i == 0 || data[i - 1] == '\n') && data[i] == '%' &&
		    data[i + 1] == '%' &&
		    (i + 2 == size || data[i + 2] == '\n')) {
			sep = (const char *)data + i;
			mlen = i;
			break;
		}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, data, mlen) != (ssize_t)mlen)
		abort();
	close(fd);

	if (sep) {
		size_t off = (size_t)(sep - (const char *)data) + 2;
		rest = strndup((const char *)data + off, size - off);
	} else {
		rest = strdup("");
	}
	if (!rest)
		abort();

	if (maint_db_load(path, &db, &err) < 0) {
		free(rest);
		return 0;
	}
	(void)maint_db_sections(db);

	memset(&res, 0, sizeof(res));
	if (maint_lookup(db, dir, NULL, 0, rest, &res, &err) == 0)
		use(&res);
	else
		maint_result_release(&res);

	npf = maint_patch_files(rest, &pf);
	for (size_t i = 0; i < npf; i++)
		free(pf[i]);
	free(pf);

	for (char *line = rest, *nl; line && *line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		if (!*line)
			continue;
		char **grown = realloc(files, (nfiles + 1) * sizeof(*files));
		if (!grown)
			abort();
		files = grown;
		files[nfiles++] = line;
		if (nfiles == 64)
			break;
	}
	memset(&res, 0, sizeof(res));
	if (maint_lookup(db, dir, (const char *const *)files, nfiles, NULL,
			 &res, &err) == 0)
		use(&res);
	else
		maint_result_release(&res);
	free(files);
	maint_db_free(db);
	free(rest);
	return 0;
}
