/*
 * Files: bounded whole-file reads (a 50 MB report must not become a 5 GB
 * allocation), directory creation with explicit modes, private
 * temporary folders for $EDITOR and the like, and files replaced whole
 * (exports), which must never write through a link or into a file
 * somebody else created for us.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

int read_fd(int fd, const char *name, size_t max, char **out, size_t *len,
	    struct err *err)
{
	struct sbuf sb = SBUF_INIT;
	char tmp[65536];
	ssize_t r;

	for (;;) {
		r = read(fd, tmp, sizeof(tmp));
		if (r < 0) {
			if (errno == EINTR)
				continue;
			sbuf_wipe(&sb);
			return err_setc(err, ERR_IO, "cannot read '%s': %s",
					name, strerror(errno));
		}
		if (r == 0)
			break;
		if (sb.len + (size_t)r > max) {
			sbuf_wipe(&sb);
			return err_setc(
				err, ERR_INVALID,
				"'%s' is larger than the limit of %zu bytes",
				name, max);
		}
		sbuf_add(&sb, tmp, (size_t)r);
	}
	wipe(tmp, sizeof(tmp));
	*out = sbuf_detach(&sb, len);
	return 0;
}

int open_read(const char *path, struct err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return err_setc(err, errno == ENOENT ? ERR_NOTFOUND : ERR_IO,
				"cannot open '%s': %s", path, strerror(errno));
	return fd;
}

int read_file(const char *path, size_t max, char **out, size_t *len,
	      struct err *err)
{
	int fd, r;

	if (!strcmp(path, "-"))
		return read_fd(0, "standard input", max, out, len, err);
	if ((fd = open_read(path, err)) < 0)
		return fd;
	r = read_fd(fd, path, max, out, len, err);
	close(fd);
	return r;
}

int open_beneath(const char *dir, const char *rel, struct err *err)
{
	char *copy = xstrdup(rel), *save = NULL, *c, *next;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), e = 0;
	bool leaf = false;
	struct stat st;

	if (fd < 0)
		e = errno;
	for (c = strtok_r(copy, "/", &save); fd >= 0 && c; c = next) {
		int nfd;

		next = strtok_r(NULL, "/", &save);
		if (!strcmp(c, "..")) {
			e = EINVAL;
			break;
		}
		if (!strcmp(c, ".") && next)
			continue;
		nfd = openat(fd, c,
			     next ? O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					     O_CLOEXEC
				  : O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
					     O_NOCTTY | O_CLOEXEC);
		e = errno;
		if (nfd < 0 && fstatat(fd, c, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISLNK(st.st_mode))
			e = ELOOP;
		close(fd);
		fd = nfd;
		leaf = !next;
	}
	free(copy);
	if (fd >= 0 && !leaf) {
		close(fd);
		fd = -1;
		if (!e)
			e = EINVAL;
	}
	if (fd < 0) {
		if (e == ELOOP)
			return err_setc(
				err, ERR_REFUSED,
				"'%s/%s' is a symbolic link: not followed", dir,
				rel);
		if (e == EINVAL)
			return err_setc(
				err, ERR_INVALID,
				"cannot open '%s/%s': not a file inside '%s'",
				dir, rel, dir);
		return err_setc(err, e == ENOENT ? ERR_NOTFOUND : ERR_IO,
				"cannot open '%s/%s': %s", dir, rel,
				strerror(e));
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return err_setc(err, ERR_REFUSED,
				"'%s/%s' is not a regular file", dir, rel);
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

char *cache_dir(void)
{
	const char *sc = getenv("SECTEAM_CACHE"),
		   *xc = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (sc && *sc)
		return xstrdup(sc);
	if (xc && *xc)
		return xasprintf("%s/secteam-tui", xc);
	if (home && *home)
		return xasprintf("%s/.cache/secteam-tui", home);
	return NULL;
}

char *cache_file(const char *kind, const char *where, const char *suffix)
{
	char *dir = cache_dir(), *path;
	struct err err = { 0, "" };
	uint64_t h = 14695981039346656037ULL; /* FNV-1a */

	/* The folder made for the officer alone (an existing one is
	 * checked by each file's own reader: this user's, 0600). */
	if (!dir || mkdir_p(dir, 0700, &err) < 0) {
		free(dir);
		return NULL;
	}
	for (const char *c = where ? where : ""; *c; c++) {
		h ^= (unsigned char)*c;
		h *= 1099511628211ULL;
	}
	path = xasprintf("%s/%s-%016llx.%s", dir, kind, (unsigned long long)h,
			 suffix);
	free(dir);
	return path;
}

int open_own_file(const char *path, int flags, const char *what,
		  struct stat *st, struct err *err)
{
	struct stat sb;
	int fd;

	if (!st)
		st = &sb;
	fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return err_setc(err, errno == ENOENT ? ERR_NOTFOUND : ERR_IO,
				"cannot open %s '%s': %s", what, path,
				strerror(errno));
	/* Another user's file, or one others may read or change (a link
	 * is refused by O_NOFOLLOW), is not used. */
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode) ||
	    st->st_uid != geteuid() || (st->st_mode & 077)) {
		close(fd);
		return err_setc(err, ERR_REFUSED,
				"%s '%s' is not this user's alone: not used",
				what, path);
	}
	return fd;
}

int mkdir_p(const char *path, int mode, struct err *err)
{
	char *p = xstrdup(path), *s;
	int r = 0;

	for (s = p + 1;; s++) {
		if (*s == '/' || *s == '\0') {
			char c = *s;
			*s = '\0';
			if (mkdir(p, (mode_t)mode) < 0 && errno != EEXIST) {
				r = err_setc(err, ERR_IO,
					     "cannot create directory '%s': %s",
					     p, strerror(errno));
				break;
			}
			*s = c;
			if (!c)
				break;
		}
	}
	free(p);
	return r;
}

int tmpdir_private(const char *prefix, char **path, struct err *err)
{
	const char *dir = getenv("TMPDIR");
	char *tmpl;
	int fd;

	if (!dir || !*dir)
		dir = P_tmpdir;
	tmpl = xasprintf("%s/%s-XXXXXX", dir, prefix);
	if (!mkdtemp(tmpl)) {
		err_setc(err, ERR_IO,
			 "cannot create a private folder in '%s': %s", dir,
			 strerror(errno));
		free(tmpl);
		return ERR_IO;
	}
	fd = open(tmpl, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		err_setc(err, ERR_IO, "cannot open the private folder '%s': %s",
			 tmpl, strerror(errno));
		rmdir(tmpl);
		free(tmpl);
		return ERR_IO;
	}
	*path = tmpl;
	return fd;
}

static void atomic_file_release(struct atomic_file *af)
{
	free(af->path);
	free(af->tmp);
	memset(af, 0, sizeof(*af));
}

int atomic_file_open(struct atomic_file *af, const char *path, int mode,
		     struct err *err)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct stat st;
	char *copy;
	int fd;

	memset(af, 0, sizeof(*af));
	if (!*path)
		return err_setc(err, ERR_INVALID,
				"cannot write a file with an empty name");
	if (lstat(path, &st) == 0) {
		if (S_ISLNK(st.st_mode))
			return err_setc(
				err, ERR_REFUSED,
				"refusing to write '%s': it is a symbolic link",
				path);
		if (!S_ISREG(st.st_mode))
			return err_setc(
				err, ERR_REFUSED,
				"refusing to write '%s': it is not a regular file",
				path);
		if (st.st_uid != geteuid())
			return err_setc(
				err, ERR_REFUSED,
				"refusing to write '%s': it belongs to another user (uid %lu)",
				path, (unsigned long)st.st_uid);
	} else if (errno != ENOENT) {
		return err_setc(err, ERR_IO, "cannot write '%s': %s", path,
				strerror(errno));
	}
	copy = xstrdup(path);
	af->tmp = xasprintf("%s/.%s.XXXXXX", dirname(copy), base);
	free(copy);
	fd = mkostemp(af->tmp, O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		atomic_file_release(af);
		return err_setc(err, ERR_IO, "cannot write '%s': %s", path,
				strerror(e));
	}
	if (fchmod(fd, (mode_t)(mode & 0777)) < 0 ||
	    !(af->f = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		unlink(af->tmp);
		atomic_file_release(af);
		return err_setc(err, ERR_IO, "cannot write '%s': %s", path,
				strerror(e));
	}
	af->path = xstrdup(path);
	return 0;
}

int atomic_file_commit(struct atomic_file *af, struct err *err)
{
	int e = 0;
	char *copy;

	if (fflush(af->f) != 0 || fsync(fileno(af->f)) != 0)
		e = errno;
	if (fclose(af->f) != 0 && !e)
		e = errno;
	af->f = NULL;
	/* rename() replaces a link planted meanwhile; it never follows it. */
	if (!e && rename(af->tmp, af->path) != 0)
		e = errno;
	if (e) {
		unlink(af->tmp);
		err_setc(err, ERR_IO, "cannot write '%s': %s", af->path,
			 strerror(e));
		atomic_file_release(af);
		return ERR_IO;
	}
	copy = xstrdup(af->path);
	fsync_dir(dirname(copy));
	free(copy);
	atomic_file_release(af);
	return 0;
}

void fsync_dir(const char *dir)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->f) {
		fclose(af->f);
		unlink(af->tmp);
	}
	atomic_file_release(af);
}
