/*
 * Files: bounded whole-file reads (a 50 MB report must not become a 5 GB
 * allocation), directory creation with explicit modes, and private
 * temporary files for $EDITOR and the like.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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
			return err_setc(err, ERR_IO, "cannot read '%s': %s", name,
					strerror(errno));
		}
		if (r == 0)
			break;
		if (sb.len + (size_t)r > max) {
			sbuf_wipe(&sb);
			return err_setc(err, ERR_INVALID,
					"'%s' is larger than the limit of %zu bytes",
					name, max);
		}
		sbuf_add(&sb, tmp, (size_t)r);
	}
	wipe(tmp, sizeof(tmp));
	*out = sbuf_detach(&sb, len);
	return 0;
}

int read_file(const char *path, size_t max, char **out, size_t *len,
	      struct err *err)
{
	int fd, r;

	if (!strcmp(path, "-"))
		return read_fd(0, "standard input", max, out, len, err);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return err_setc(err, errno == ENOENT ? ERR_NOTFOUND : ERR_IO,
				"cannot open '%s': %s", path, strerror(errno));
	r = read_fd(fd, path, max, out, len, err);
	close(fd);
	return r;
}

int mkdir_p(const char *path, int mode, struct err *err)
{
	char *p = xstrdup(path), *s;
	int r = 0;

	for (s = p + 1; ; s++) {
		if (*s == '/' || *s == '\0') {
			char c = *s;
			*s = '\0';
			if (mkdir(p, (mode_t)mode) < 0 && errno != EEXIST) {
				r = err_setc(err, ERR_IO,
					     "cannot create directory '%s': %s", p,
					     strerror(errno));
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

int tmpfile_private(const char *prefix, char **path, struct err *err)
{
	const char *dir = getenv("TMPDIR");
	char *tmpl;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	tmpl = xasprintf("%s/%s-XXXXXX", dir, prefix);
	fd = mkstemp(tmpl);
	if (fd < 0) {
		err_setc(err, ERR_IO, "cannot create a temporary file in '%s': %s",
			 dir, strerror(errno));
		free(tmpl);
		return ERR_IO;
	}
	fchmod(fd, 0600);
	*path = tmpl;
	return fd;
}
