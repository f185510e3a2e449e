/*
 * Trusted files: the ones whose content decides what secteam-tui runs or
 * sends in its user's name (the config names commands and keys, a
 * template becomes signed mail).  As ssh does with its own files, such a
 * file is read only when nobody but its user and root can have chosen
 * what it says: the file, every folder from the root down to it and
 * every symbolic link followed on the way belong to the user or root,
 * and no other user can write them (a group counts as another user
 * unless nobody else is in it).
 *
 * A folder others can write may be passed through when it is sticky
 * (/tmp): they cannot rename or remove what is the user's in it.  It may
 * not hold the file itself, nor a symbolic link that is followed.
 *
 * The path is walked one name at a time, each opened without following
 * a link relative to the folder opened before, and each check is made
 * on what was opened (fstat), so that nothing is swapped between the
 * check and the read.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

#define TRUSTED_MAX_LINKS 40

/* Where the walk is: an O_PATH descriptor of a checked folder, its stat,
 * its path (for messages) and the names still to walk; the path asked
 * for. */
struct walk {
	const char *path;
	int dir;
	struct stat st;
	struct sbuf where;
	char *rest;
	int links;
};

/* True when nobody but uid is in group gid: no other user has it as
 * primary group nor is listed as its member (Debian's user private
 * groups, where umask 002 makes every new file group-writable). */
static bool group_private(gid_t gid, uid_t uid)
{
	struct passwd *pw = getpwuid(uid);
	char *me = pw ? xstrdup(pw->pw_name) : NULL;
	struct group *gr = getgrgid(gid);
	bool alone = gr != NULL;

	for (char **m = gr ? gr->gr_mem : NULL; alone && m && *m; m++)
		alone = me && !strcmp(*m, me);
	free(me);
	/* A user whose primary group it is can write what it may write,
	 * listed among its members or not. */
	setpwent();
	while (alone && (pw = getpwent()))
		alone = pw->pw_gid != gid || pw->pw_uid == uid;
	endpwent();
	return alone;
}

/* Who but its owner can write st: NULL when nobody, else "others" or
 * "group 'NAME'" (in buf). */
static const char *other_writer(const struct stat *st, char *buf, size_t size)
{
	struct group *gr;

	if (st->st_mode & S_IWOTH)
		return "others";
	if (!(st->st_mode & S_IWGRP) || group_private(st->st_gid, geteuid()))
		return NULL;
	if ((gr = getgrgid(st->st_gid)))
		snprintf(buf, size, "group '%s'", gr->gr_name);
	else
		snprintf(buf, size, "group %lu", (unsigned long)st->st_gid);
	return buf;
}

/*
 * 0 when st (a kind "file", "folder" or "symbolic link" at path; NULL
 * kind: the file asked for, "it") is its user's or root's and, for a
 * file or folder, nobody else can write it; a sticky folder passes when
 * sticky_ok.  Else ERR_REFUSED with err saying why.  A device or FIFO is
 * checked for its owner only (root's /dev/null is writable by all and
 * reads empty).
 */
static int trusted_stat(const struct stat *st, const char *kind,
			const char *path, bool sticky_ok, struct err *err)
{
	unsigned mode = (unsigned)(st->st_mode & 07777);
	bool sticky = S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX);
	char *what = kind ? xasprintf("%s '%s'", kind, path) : xstrdup("it"),
	     buf[300];
	const char *who = NULL;
	int r = 0;

	if (st->st_uid != geteuid() && st->st_uid != 0)
		r = err_setc(err, ERR_REFUSED,
			     "%s belongs to another user (uid %lu)", what,
			     (unsigned long)st->st_uid);
	else if (!S_ISREG(st->st_mode) && !S_ISDIR(st->st_mode))
		;
	else if (!(who = other_writer(st, buf, sizeof(buf))) ||
		 (sticky && sticky_ok))
		;
	else if (sticky)
		r = err_setc(
			err, ERR_REFUSED,
			"%s is writable by %s (mode %04o); use a private folder",
			what, who, mode);
	else
		r = err_setc(
			err, ERR_REFUSED,
			"%s is writable by %s (mode %04o; run: chmod go-w '%s')",
			what, who, mode, path);
	free(what);
	return r;
}

/* The path of the entry name in the folder the walk is at (caller frees). */
static char *walk_path(const struct walk *w, const char *name)
{
	return xasprintf("%s%s%s", w->where.buf,
			 strcmp(w->where.buf, "/") ? "/" : "", name);
}

/* Moves the walk into folder fd (its stat st), reached as name: ".." or
 * an entry; "/" for the root. */
static int walk_enter(struct walk *w, int fd, const struct stat *st,
		      const char *name, struct err *err)
{
	char *path, *slash;
	int r;

	if (!strcmp(name, "/")) {
		path = xstrdup("/");
	} else if (!strcmp(name, "..")) {
		path = xstrdup(w->where.buf);
		slash = strrchr(path, '/');
		*(slash == path ? slash + 1 : slash) = '\0';
	} else {
		path = walk_path(w, name);
	}
	if ((r = trusted_stat(st, "folder", path, true, err)) < 0) {
		close(fd);
		free(path);
		return r;
	}
	if (w->dir >= 0)
		close(w->dir);
	w->dir = fd;
	w->st = *st;
	sbuf_reset(&w->where);
	sbuf_adds(&w->where, path);
	free(path);
	return 0;
}

/* A descriptor (O_PATH) of the root, entered. */
static int walk_root(struct walk *w, struct err *err)
{
	int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		return err_setc(err, ERR_IO, "cannot open '/': %s",
				strerror(e));
	}
	return walk_enter(w, fd, &st, "/", err);
}

/* The next name of w->rest into *name (caller frees); false at the end. */
static bool walk_next(struct walk *w, char **name)
{
	char *p = w->rest, *end;

	while (*p == '/')
		p++;
	if (!*p)
		return false;
	end = strchrnul(p, '/');
	*name = xstrndup(p, (size_t)(end - p));
	memmove(w->rest, end, strlen(end) + 1);
	return true;
}

/* The symbolic link fd (O_PATH, stat st), entry name of the folder:
 * checked, then its target put before the names still to walk. */
static int walk_link(struct walk *w, int fd, const struct stat *st,
		     const char *name, struct err *err)
{
	char *path = walk_path(w, name), target[PATH_MAX], *rest, buf[300];
	const char *who;
	ssize_t n = 0;
	int r = 0;

	if (++w->links > TRUSTED_MAX_LINKS)
		r = err_setc(err, ERR_REFUSED, "'%s': too many symbolic links",
			     path);
	else if ((r = trusted_stat(st, "symbolic link", path, false, err)) < 0)
		;
	else if ((who = other_writer(&w->st, buf, sizeof(buf))))
		r = err_setc(
			err, ERR_REFUSED,
			"symbolic link '%s' is in folder '%s', which %s can write",
			path, w->where.buf, who);
	else if ((n = readlinkat(fd, "", target, sizeof(target) - 1)) <= 0)
		r = err_setc(err, ERR_IO,
			     "cannot read the symbolic link '%s': %s", path,
			     n < 0 ? strerror(errno) : "it is empty");
	free(path);
	close(fd);
	if (r < 0)
		return r;
	target[n] = '\0';
	rest = xasprintf("%s/%s", target, w->rest);
	free(w->rest);
	w->rest = rest;
	return target[0] == '/' ? walk_root(w, err) : 0;
}

/* The last name, the file: its folder may not be one others can write,
 * sticky or not; the file is checked on the descriptor it is read from,
 * into *out. */
static int walk_file(struct walk *w, const char *name, int *out,
		     struct err *err)
{
	char *path = walk_path(w, name);
	struct stat st;
	int fd = -1, r;

	if ((r = trusted_stat(&w->st, "folder", w->where.buf, false, err)) < 0)
		;
	else if ((fd = openat(w->dir, name,
			      O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
				      O_CLOEXEC)) < 0 ||
		 fstat(fd, &st) < 0)
		r = err_setc(err, errno == ENOENT ? ERR_NOTFOUND : ERR_IO,
			     "cannot open '%s': %s", w->path, strerror(errno));
	else if (S_ISDIR(st.st_mode))
		r = err_setc(err, ERR_INVALID, "'%s' is a folder, not a file",
			     path);
	else
		r = trusted_stat(&st, strcmp(path, w->path) ? "file" : NULL,
				 path, false, err);
	free(path);
	if (r < 0) {
		if (fd >= 0)
			close(fd);
		return r;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	*out = fd;
	return 0;
}

/* One step: the entry name of the folder the walk is at.  Returns 0
 * (with *out the file's descriptor when name was the last), or negative
 * with err set. */
static int walk_step(struct walk *w, const char *name, int *out,
		     struct err *err)
{
	bool last = w->rest[strspn(w->rest, "/")] == '\0';
	char *path;
	struct stat st;
	int fd, e;

	if (!strcmp(name, "."))
		return 0;
	fd = openat(w->dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && fstat(fd, &st) == 0) {
		if (S_ISLNK(st.st_mode))
			return walk_link(w, fd, &st, name, err);
		if (S_ISDIR(st.st_mode))
			return walk_enter(w, fd, &st, name, err);
		close(fd);
		if (last)
			return walk_file(w, name, out, err);
		path = walk_path(w, name);
		fd = err_setc(err, ERR_INVALID,
			      "cannot open '%s': '%s' is not a folder", w->path,
			      path);
		free(path);
		return fd;
	}
	e = errno;
	if (fd >= 0)
		close(fd);
	path = walk_path(w, name);
	if (e == ENOENT)
		fd = err_setc(err, ERR_NOTFOUND, "cannot open '%s': %s",
			      w->path, strerror(e));
	else
		fd = err_setc(err, ERR_IO, "cannot open '%s': '%s': %s",
			      w->path, path, strerror(e));
	free(path);
	return fd;
}

int open_trusted(const char *path, struct err *err)
{
	struct walk w = { .path = path, .dir = -1, .where = SBUF_INIT };
	char *cwd = NULL, *name;
	int fd = -1, r;

	if (path[0] != '/' && !(cwd = getcwd(NULL, 0)))
		return err_setc(err, ERR_IO,
				"cannot open '%s': the current folder: %s",
				path, strerror(errno));
	w.rest = cwd ? xasprintf("%s/%s", cwd, path) : xstrdup(path);
	free(cwd);
	r = walk_root(&w, err);
	while (r == 0 && fd < 0) {
		if (!walk_next(&w, &name)) {
			r = err_setc(err, ERR_INVALID,
				     "'%s' is a folder, not a file", path);
			break;
		}
		r = walk_step(&w, name, &fd, err);
		free(name);
	}
	if (w.dir >= 0)
		close(w.dir);
	sbuf_release(&w.where);
	free(w.rest);
	return r < 0 ? r : fd;
}
