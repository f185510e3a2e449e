/*
 * Mailboxes: mbox files read one message at a time, and Maildir folders.
 *
 * An mbox message starts at a "From " line that opens the file or follows
 * an empty line; that separator line is dropped, as is the empty line that
 * precedes the next separator.  Body lines that were quoted when written
 * are unquoted: mboxrd (and MBOX_AUTO) removes one '>' from ">+From ",
 * mboxo turns ">From " back into "From ".  Lines are read in bounded chunks,
 * so neither a huge mailbox nor a huge line is ever held whole; a message
 * over MAIL_MAX_SIZE is skipped with an error and reading can go on.
 *
 * Listing a Maildir (new/ and cur/) or a folder of message files follows
 * no symbolic link: a link where new/ should be, or among the messages,
 * is set aside and named, so a planted link cannot turn ~/private or a
 * GnuPG home into reports.  The caller opens the names it gets with
 * open_beneath(), which follows no link either.
 *
 * Maildir delivery follows the usual protocol: a unique name in tmp/,
 * written 0600 and fsync'd, then renamed into new/.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "mail/mail.h"

#define CHUNK 65536

struct mbox_reader {
	FILE *f;
	char *path;
	enum mbox_format fmt;
	char *chunk; /* current piece of a line */
	size_t chunk_len;
	bool chunk_at_bol; /* the piece starts a line */
	bool have_chunk; /* chunk holds an unconsumed piece */
	bool prev_blank; /* the last complete line was empty */
	bool at_bol; /* the next piece starts a line */
	bool eof;
	unsigned long count;
	long long size; /* of a regular file, when opened */
};

/* Reads the next piece (a whole line or up to CHUNK-1 bytes of one). */
static int read_piece(struct mbox_reader *r, struct err *err)
{
	if (r->have_chunk)
		return 1;
	if (r->eof)
		return 0;
	/* Byte by byte, so NUL bytes in a line are kept and counted. */
	size_t n = 0;
	int c = EOF;
	while (n < CHUNK && (c = getc_unlocked(r->f)) != EOF) {
		r->chunk[n++] = (char)c;
		if (c == '\n')
			break;
	}
	if (n == 0) {
		r->eof = true;
		if (ferror(r->f))
			return err_setc(err, ERR_IO, "cannot read '%s': %s",
					r->path, strerror(errno));
		return 0;
	}
	r->chunk_len = n;
	r->chunk_at_bol = r->at_bol;
	r->at_bol = n && r->chunk[n - 1] == '\n';
	r->have_chunk = true;
	return 1;
}

static bool piece_is_from(const struct mbox_reader *r)
{
	return r->chunk_at_bol && r->chunk_len >= 5 &&
		!memcmp(r->chunk, "From ", 5);
}

static bool piece_is_blank_line(const struct mbox_reader *r)
{
	return r->chunk_at_bol &&
		((r->chunk_len == 1 && r->chunk[0] == '\n') ||
		 (r->chunk_len == 2 && r->chunk[0] == '\r' &&
		  r->chunk[1] == '\n'));
}

/* Returns 0 with *out set, or negative (ERR_NOTFOUND, ERR_IO, ERR_INVALID
 * when the file does not start with a "From " line) with err naming path. */
int mbox_open(const char *path, enum mbox_format fmt, struct mbox_reader **out,
	      struct err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	*out = NULL;
	if (fd < 0)
		return err_setc(err, errno == ENOENT ? ERR_NOTFOUND : ERR_IO,
				"cannot open mailbox '%s': %s", path,
				strerror(errno));
	return mbox_open_fd(fd, path, fmt, out, err);
}

/* mbox_open on an open file (which it takes, also on error), read from
 * its current offset; path names it in messages. */
int mbox_open_fd(int fd, const char *path, enum mbox_format fmt,
		 struct mbox_reader **out, struct err *err)
{
	struct mbox_reader *r;
	FILE *f = fdopen(fd, "rb");
	struct stat st;
	int ret;

	*out = NULL;
	if (!f) {
		int e = errno;
		close(fd);
		return err_setc(err, ERR_IO, "cannot open mailbox '%s': %s",
				path, strerror(e));
	}
	r = xcalloc(1, sizeof(*r));
	r->f = f;
	r->path = xstrdup(path);
	r->fmt = fmt;
	r->chunk = xmalloc(CHUNK);
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode))
		r->size = (long long)st.st_size;
	r->at_bol = true;
	r->prev_blank = true;
	/* Skip leading empty lines; then a "From " line must open it. */
	while ((ret = read_piece(r, err)) > 0 && piece_is_blank_line(r))
		r->have_chunk = false;
	if (ret < 0) {
		mbox_close(r);
		return ret;
	}
	if (ret > 0 && !piece_is_from(r)) {
		mbox_close(r);
		return err_setc(
			err, ERR_INVALID,
			"'%s' is not an mbox file (it does not start with a \"From \" line)",
			path);
	}
	*out = r;
	return 0;
}

/* Appends a body piece, unquoting a ">From " line as the format says. */
static void add_piece(struct mbox_reader *r, struct sbuf *sb)
{
	const char *p = r->chunk;
	size_t n = r->chunk_len;

	if (r->chunk_at_bol && n && p[0] == '>') {
		size_t k = 0;

		while (k < n && p[k] == '>')
			k++;
		if (n - k >= 5 && !memcmp(p + k, "From ", 5) &&
		    (r->fmt != MBOX_O || k == 1)) {
			p++;
			n--;
		}
	}
	sbuf_add(sb, p, n);
}

/*
 * Returns 1 with a message (NUL-terminated), 0 at the end, or negative with
 * err set: ERR_IO on a read error, ERR_INVALID for a message larger than
 * MAIL_MAX_SIZE, which is skipped so the next call reads the one after it.
 */
int mbox_next(struct mbox_reader *r, char **buf, size_t *len, struct err *err)
{
	struct sbuf sb = SBUF_INIT;
	bool too_big = false;
	size_t total = 0;
	int ret;

	*buf = NULL;
	*len = 0;
	ret = read_piece(r, err);
	if (ret <= 0)
		return ret;
	/* The separator line (possibly longer than one piece). */
	if (piece_is_from(r)) {
		do {
			r->have_chunk = false;
		} while (!r->at_bol && (ret = read_piece(r, err)) > 0);
		if (ret < 0)
			return ret;
	}
	r->count++;
	r->prev_blank = false;
	while ((ret = read_piece(r, err)) > 0) {
		if (r->prev_blank && piece_is_from(r))
			break;
		total += r->chunk_len;
		if (total > MAIL_MAX_SIZE) {
			too_big = true;
			sbuf_wipe(&sb);
		} else {
			add_piece(r, &sb);
		}
		if (r->chunk_at_bol || r->at_bol)
			r->prev_blank = piece_is_blank_line(r);
		r->have_chunk = false;
	}
	if (ret < 0) {
		sbuf_wipe(&sb);
		return ret;
	}
	if (too_big) {
		sbuf_wipe(&sb);
		return err_setc(
			err, ERR_INVALID,
			"message %lu in '%s' too large (more than %zu bytes)",
			r->count, r->path, MAIL_MAX_SIZE);
	}
	/* Drop the empty line that separates messages. */
	if (sb.len >= 2 && sb.buf[sb.len - 1] == '\n' &&
	    sb.buf[sb.len - 2] == '\n')
		sb.len--;
	else if (sb.len >= 3 && !memcmp(sb.buf + sb.len - 3, "\n\r\n", 3))
		sb.len -= 2;
	else if (sb.len == 1 && sb.buf[0] == '\n')
		sb.len = 0;
	if (sb.buf)
		sb.buf[sb.len] = '\0';
	*buf = sbuf_detach(&sb, len);
	return 1;
}

/* Closes the file and frees r; NULL is fine. */
void mbox_position(const struct mbox_reader *r, long long *done,
		   long long *size)
{
	off_t pos = ftello(r->f);

	*done = pos < 0 ? 0 : (long long)pos;
	*size = r->size;
}

void mbox_close(struct mbox_reader *r)
{
	if (!r)
		return;
	if (r->f)
		fclose(r->f);
	wipe_free(r->chunk, CHUNK);
	free(r->path);
	free(r);
}

/* ---- Maildir and folders of message files ---------------------------------*/

/* Entries by base name (Maildir's time-based names sort by delivery),
 * then by the whole name. */
static int cmp_names(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	const char *bx = strrchr(x, '/'), *by = strrchr(y, '/');
	int c = strcmp(bx ? bx + 1 : x, by ? by + 1 : y);

	return c ? c : strcmp(x, y);
}

static void add_name(char ***v, size_t *n, char *name)
{
	*v = xrealloc(*v, (*n + 2) * sizeof(**v));
	(*v)[(*n)++] = name;
	(*v)[*n] = NULL;
}

static void add_skipped(struct mail_folder *f, char *name, const char *why)
{
	f->skipped =
		xrealloc(f->skipped, (f->nskipped + 1) * sizeof(*f->skipped));
	f->skipped[f->nskipped].name = name;
	f->skipped[f->nskipped].why = why;
	f->nskipped++;
}

#define WHY_LINK "a symbolic link: not followed"
#define WHY_SPECIAL "not a regular file: skipped"

/*
 * Adds the regular files of the folder open as dfd, named prefix + name
 * ("" or "new/"); symbolic links and special files go to f->skipped,
 * folders are passed over.  Takes dfd.  Returns 0, or ERR_IO naming
 * shown (the folder as the user knows it).
 */
static int list_fd(int dfd, const char *shown, const char *prefix,
		   struct mail_folder *f, struct err *err)
{
	DIR *dh = fdopendir(dfd);
	struct dirent *de;

	if (!dh) {
		int e = errno;
		close(dfd);
		return err_setc(err, ERR_IO, "cannot read folder '%s': %s",
				shown, strerror(e));
	}
	while ((de = readdir(dh))) {
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		if (fstatat(dirfd(dh), de->d_name, &st, AT_SYMLINK_NOFOLLOW) <
		    0)
			continue; /* gone meanwhile */
		if (S_ISREG(st.st_mode))
			add_name(&f->names, &f->n,
				 xasprintf("%s%s", prefix, de->d_name));
		else if (S_ISLNK(st.st_mode))
			add_skipped(f, xasprintf("%s%s", prefix, de->d_name),
				    WHY_LINK);
		else if (!S_ISDIR(st.st_mode))
			add_skipped(f, xasprintf("%s%s", prefix, de->d_name),
				    WHY_SPECIAL);
	}
	closedir(dh);
	return 0;
}

/* Lists dir/sub (sub not followed when a link); 1 if it is there, 0 if
 * not, negative on error. */
static int list_sub(int top, const char *dir, const char *sub,
		    struct mail_folder *f, struct err *err)
{
	int dfd = openat(top, sub,
			 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	char *prefix, *shown;
	struct stat st;
	int r;

	if (dfd < 0) {
		int e = errno;

		if (fstatat(top, sub, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISLNK(st.st_mode)) {
			add_skipped(f, xstrdup(sub), WHY_LINK);
			return 1;
		}
		if (e == ENOENT || e == ENOTDIR)
			return 0;
		return err_setc(err, ERR_IO, "cannot read maildir '%s/%s': %s",
				dir, sub, strerror(e));
	}
	prefix = xasprintf("%s/", sub);
	shown = xasprintf("%s/%s", dir, sub);
	r = list_fd(dfd, shown, prefix, f, err);
	free(prefix);
	free(shown);
	return r < 0 ? r : 1;
}

static void sort_folder(struct mail_folder *f)
{
	if (f->n)
		qsort(f->names, f->n, sizeof(*f->names), cmp_names);
	if (!f->names)
		f->names = xcalloc(1, sizeof(*f->names));
}

int maildir_list(const char *dir, struct mail_folder *f, struct err *err)
{
	int top, a, b;

	memset(f, 0, sizeof(*f));
	top = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (top < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return err_setc(
				err, ERR_NOTFOUND,
				"'%s' is not a maildir (it has neither new/ nor cur/)",
				dir);
		return err_setc(err, ERR_IO, "cannot read maildir '%s': %s",
				dir, strerror(errno));
	}
	a = list_sub(top, dir, "new", f, err);
	b = a < 0 ? a : list_sub(top, dir, "cur", f, err);
	close(top);
	if (a < 0 || b < 0 || (a == 0 && b == 0)) {
		mail_folder_release(f);
		if (a < 0 || b < 0)
			return a < 0 ? a : b;
		return err_setc(
			err, ERR_NOTFOUND,
			"'%s' is not a maildir (it has neither new/ nor cur/)",
			dir);
	}
	sort_folder(f);
	return 0;
}

int mail_folder_list(const char *dir, struct mail_folder *f, struct err *err)
{
	int dfd, r;

	memset(f, 0, sizeof(*f));
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return err_setc(err, ERR_IO, "cannot read directory '%s': %s",
				dir, strerror(errno));
	if ((r = list_fd(dfd, dir, "", f, err)) < 0) {
		mail_folder_release(f);
		return r;
	}
	sort_folder(f);
	return 0;
}

void mail_folder_release(struct mail_folder *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->names[i]);
	free(f->names);
	for (size_t i = 0; i < f->nskipped; i++)
		free(f->skipped[i].name);
	free(f->skipped);
	memset(f, 0, sizeof(*f));
}

static int ensure_dir(const char *path, struct err *err)
{
	if (mkdir(path, 0700) && errno != EEXIST)
		return err_setc(err, ERR_IO, "cannot create folder '%s': %s",
				path, strerror(errno));
	return 0;
}

/* A hostname fit for a maildir file name ('/' and ':' escaped). */
static void add_host(struct sbuf *sb)
{
	char host[256] = "localhost";

	if (gethostname(host, sizeof(host) - 1))
		strcpy(host, "localhost");
	host[sizeof(host) - 1] = '\0';
	for (const char *p = host; *p; p++) {
		if (*p == '/')
			sbuf_adds(sb, "\\057");
		else if (*p == ':')
			sbuf_adds(sb, "\\072");
		else
			sbuf_addch(sb, *p);
	}
}

/* dir with its tmp, new and cur folders, made 0700 where missing. */
static int maildir_make(const char *dir, struct err *err)
{
	static const char *const subs[] = { "tmp", "new", "cur" };
	int ret;

	if ((ret = mkdir_p(dir, 0700, err)) < 0)
		return ret;
	for (size_t i = 0; i < ARRAY_SIZE(subs) && ret == 0; i++) {
		char *sub = xasprintf("%s/%s", dir, subs[i]);
		ret = ensure_dir(sub, err);
		free(sub);
	}
	return ret;
}

/* A new file in dir/tmp with a name unique to this delivery (time,
 * process, a counter, the host): its descriptor, the name in *name and
 * the path in *tmp; or negative with err set. */
static int maildir_tmp_file(const char *dir, struct sbuf *name, char **tmp,
			    struct err *err)
{
	static unsigned long seq;
	struct timeval tv;
	int fd = -1;

	for (int attempt = 0; attempt < 100; attempt++) {
		gettimeofday(&tv, NULL);
		sbuf_reset(name);
		sbuf_addf(name, "%lld.M%ldP%ldQ%lu.", (long long)tv.tv_sec,
			  (long)tv.tv_usec, (long)getpid(), ++seq);
		add_host(name);
		free(*tmp);
		*tmp = xasprintf("%s/tmp/%s", dir, name->buf);
		fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0)
		return err_setc(err, ERR_IO, "cannot create '%s': %s", *tmp,
				strerror(errno));
	return fd;
}

/* All of buf written to fd, synced to disk; fd is closed in any case. */
static int write_synced(int fd, const char *buf, size_t len, const char *path,
			struct err *err)
{
	for (size_t off = 0; off < len;) {
		ssize_t w = write(fd, buf + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? errno : EIO;
			close(fd);
			return err_setc(err, ERR_IO, "cannot write '%s': %s",
					path, strerror(e));
		}
		off += (size_t)w;
	}
	if (fsync(fd)) {
		int e = errno;
		close(fd);
		return err_setc(err, ERR_IO, "cannot sync '%s': %s", path,
				strerror(e));
	}
	if (close(fd))
		return err_setc(err, ERR_IO, "cannot write '%s': %s", path,
				strerror(errno));
	return 0;
}

/* Returns 0, or negative (ERR_IO) with err naming the file or folder that
 * failed; a half-written file is removed from tmp/. */
int maildir_deliver(const char *dir, const char *buf, size_t len,
		    char **path_out, struct err *err)
{
	struct sbuf name = SBUF_INIT;
	char *tmp = NULL, *dst = NULL, *sub;
	int fd, ret;

	if (path_out)
		*path_out = NULL;
	if ((ret = maildir_make(dir, err)) < 0)
		return ret;
	if ((fd = maildir_tmp_file(dir, &name, &tmp, err)) < 0) {
		ret = fd;
		goto out;
	}
	if ((ret = write_synced(fd, buf, len, tmp, err)) < 0) {
		unlink(tmp);
		goto out;
	}
	dst = xasprintf("%s/new/%s", dir, name.buf);
	if (rename(tmp, dst)) {
		ret = err_setc(err, ERR_IO, "cannot move '%s' to '%s': %s", tmp,
			       dst, strerror(errno));
		unlink(tmp);
		goto out;
	}
	sub = xasprintf("%s/new", dir);
	fsync_dir(sub);
	free(sub);
	if (path_out) {
		*path_out = dst;
		dst = NULL;
	}
out:
	free(tmp);
	free(dst);
	sbuf_release(&name);
	return ret;
}
