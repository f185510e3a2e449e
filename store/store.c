/*
 * Opening the database and running transactions.
 *
 * Permissions are set before SQLite touches the file: the directory is
 * created 0700 and the file 0600 (0770/0660 for a shared group) whatever
 * the umask; SQLite gives the -wal and -shm files the database file's
 * mode.  An existing database, -wal, -shm or -journal file that others
 * can read or that is not ours is refused rather than "fixed", because
 * the leak may already have happened, and so is a folder where others
 * could plant such files (store_check_files).
 *
 * synchronous=FULL: an officer's triage decision must survive a power cut
 * the moment the command returns; the cost is one extra fsync per commit,
 * which is nothing next to a gpg invocation.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/store-int.h"

char *store_default_path(void)
{
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");

	if (xdg && *xdg == '/')
		return xasprintf("%s/secteam/secteam.db", xdg);
	return xasprintf("%s/.local/share/secteam/secteam.db",
			 home && *home ? home : ".");
}

int store_dberr(struct store *s, struct err *err, const char *what)
{
	int rc = sqlite3_extended_errcode(s->db);

	if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED)
		return err_setc(err, ERR_BUSY,
				"database '%s' is busy (another officer is writing); try again",
				s->path);
	if ((rc & 0xff) == SQLITE_FULL)
		return err_setc(err, ERR_IO, "%s in '%s': disk full", what,
				s->path);
	return err_setc(err, ERR_IO, "%s in '%s': %s", what, s->path,
			sqlite3_errmsg(s->db));
}

sqlite3_stmt *store_stmt(struct store *s, const char *sql, struct err *err)
{
	sqlite3_stmt *st;
	size_t i;

	for (i = 0; i < s->ncache; i++) {
		if (s->cache[i].sql == sql) {
			st = s->cache[i].stmt;
			sqlite3_reset(st);
			sqlite3_clear_bindings(st);
			return st;
		}
	}
	if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st,
			       NULL) != SQLITE_OK) {
		store_dberr(s, err, "cannot prepare a query");
		return NULL;
	}
	if (s->ncache < STMT_CACHE) {
		s->cache[s->ncache].sql = sql;
		s->cache[s->ncache].stmt = st;
		s->ncache++;
	}
	/* Past the cache size the statement leaks until close; the cache is
	 * sized above the number of distinct queries in store/. */
	return st;
}

void store_bind_text(sqlite3_stmt *st, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

char *store_col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? xstrdup((const char *)t) : NULL;
}

/*
 * Whether the database at path may be used: its folder lets nobody else
 * create or swap files there (ours or root's, not writable by others
 * unless sticky and ours, group-writable only for the shared group), and
 * the database, -wal, -shm and -journal files, when they exist, are
 * regular files of ours (or, shared, of the group) that nobody else can
 * read: 0600, or 0660 with shared_group.  A -wal or -shm file planted by
 * someone else would receive every page written, and one that others can
 * read leaks them.  Returns 0, or ERR_REFUSED (ERR_INVALID for an unknown
 * group, ERR_IO when the folder cannot be examined) with err naming the
 * file and what is wrong.  Self-contained, to serve every file engine.
 */
int store_check_files(const char *path, const char *shared_group,
		      struct err *err)
{
	static const char *const suffixes[] = { "", "-wal", "-shm", "-journal" };
	uid_t me = geteuid();
	gid_t gid = (gid_t)-1;
	unsigned allowed = 0600;
	struct stat st;
	char *copy, *dir;
	int r = 0;

	if (shared_group && *shared_group) {
		struct group *g = getgrnam(shared_group);
		if (!g)
			return err_setc(err, ERR_INVALID,
					"store.shared_group '%s' is not a group on this system",
					shared_group);
		gid = g->gr_gid;
		allowed = 0660;
	}
	copy = xstrdup(path);
	dir = dirname(copy);
	if (stat(dir, &st) < 0)
		r = err_setc(err, ERR_IO, "cannot open database '%s': its folder '%s': %s",
			     path, dir, strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		r = err_setc(err, ERR_INVALID,
			     "cannot open database '%s': '%s' is not a folder", path, dir);
	else if (st.st_uid != me && st.st_uid != 0 &&
		 !(gid != (gid_t)-1 && st.st_gid == gid))
		r = err_setc(err, ERR_REFUSED,
			     "refusing database '%s': its folder '%s' belongs to another user (uid %lu)",
			     path, dir, (unsigned long)st.st_uid);
	else if ((st.st_mode & S_IWOTH) &&
		 !((st.st_mode & S_ISVTX) && st.st_uid == me))
		r = err_setc(err, ERR_REFUSED,
			     "refusing database '%s': other users can create files in its folder '%s' (mode %04o); use a private folder",
			     path, dir, (unsigned)(st.st_mode & 07777));
	else if ((st.st_mode & S_IWGRP) &&
		 !((st.st_mode & S_ISVTX) && st.st_uid == me) &&
		 !(gid != (gid_t)-1 && st.st_gid == gid))
		r = err_setc(err, ERR_REFUSED,
			     "refusing database '%s': its group can create files in its folder '%s' (mode %04o; run: chmod g-w '%s', or set store.shared_group)",
			     path, dir, (unsigned)(st.st_mode & 07777), dir);
	free(copy);
	for (size_t i = 0; !r && i < ARRAY_SIZE(suffixes); i++) {
		char *f = xasprintf("%s%s", path, suffixes[i]);

		if (lstat(f, &st) < 0) {
			if (errno != ENOENT)
				r = err_setc(err, ERR_IO, "cannot open database file '%s': %s",
					     f, strerror(errno));
		} else if (S_ISLNK(st.st_mode)) {
			r = err_setc(err, ERR_REFUSED,
				     "refusing database file '%s': it is a symbolic link", f);
		} else if (!S_ISREG(st.st_mode)) {
			r = err_setc(err, ERR_REFUSED,
				     "refusing database file '%s': it is not a regular file", f);
		} else if (st.st_uid != me &&
			   !(gid != (gid_t)-1 && st.st_gid == gid)) {
			r = err_setc(err, ERR_REFUSED,
				     "refusing database file '%s': it belongs to another user (uid %lu)",
				     f, (unsigned long)st.st_uid);
		} else if (st.st_mode & 07777 & ~allowed) {
			r = err_setc(err, ERR_REFUSED,
				     "refusing database file '%s': its mode %04o lets others read it (run: chmod %o '%s')",
				     f, (unsigned)(st.st_mode & 07777), allowed, f);
		}
		free(f);
	}
	return r;
}

static int prepare_file(const char *path, const struct store_opts *o,
			struct err *err)
{
	const char *group = o && o->shared_group && *o->shared_group ?
			    o->shared_group : NULL;
	char *dir = xstrdup(path), *d;
	struct stat st;
	gid_t gid = (gid_t)-1;
	int dmode = 0700, fmode = 0600, fd, r = 0;

	if (group) {
		struct group *g = getgrnam(group);
		if (!g) {
			free(dir);
			return err_setc(err, ERR_INVALID,
					"store.shared_group '%s' is not a group on this system",
					group);
		}
		gid = g->gr_gid;
		dmode = 02770;
		fmode = 0660;
	}
	d = dirname(dir);
	if (lstat(path, &st) < 0 && errno == ENOENT && stat(d, &st) < 0) {
		if (mkdir_p(d, dmode, err) < 0) {
			free(dir);
			return ERR_IO;
		}
		chmod(d, (mode_t)dmode);
		if (gid != (gid_t)-1 && chown(d, (uid_t)-1, gid) < 0)
			r = err_setc(err, ERR_IO, "cannot give '%s' to group '%s': %s",
				     d, group, strerror(errno));
	}
	free(dir);
	if (r || (r = store_check_files(path, group, err)) < 0)
		return r;
	if (lstat(path, &st) == 0)
		return 0;
	fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return err_setc(err, ERR_IO, "cannot create database '%s': %s",
				path, strerror(errno));
	if (gid != (gid_t)-1 && fchown(fd, (uid_t)-1, gid) < 0)
		r = err_setc(err, ERR_IO, "cannot give '%s' to group '%s': %s",
			     path, group, strerror(errno));
	if (!r && fchmod(fd, (mode_t)fmode) < 0)
		r = err_setc(err, ERR_IO, "cannot set the mode of '%s': %s",
			     path, strerror(errno));
	close(fd);
	return r;
}

static int exec_sql(struct store *s, const char *sql, struct err *err)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return store_dberr(s, err, "cannot set up the database");
	return 0;
}

int store_open(const char *path, const struct store_opts *opts,
	       struct store **out, struct err *err)
{
	struct store *s;
	int r, flag = 0;

	*out = NULL;
	if ((r = prepare_file(path, opts, err)) < 0)
		return r;
	s = xcalloc(1, sizeof(*s));
	s->path = xstrdup(path);
	if (sqlite3_open_v2(path, &s->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW |
				    SQLITE_OPEN_FULLMUTEX,
			    NULL) != SQLITE_OK) {
		r = err_setc(err, ERR_IO, "cannot open database '%s': %s", path,
			     s->db ? sqlite3_errmsg(s->db) : "out of memory");
		store_close(s);
		return r;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_db_config(s->db, SQLITE_DBCONFIG_DEFENSIVE, 1, &flag);
	sqlite3_db_config(s->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &flag);
	sqlite3_db_config(s->db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, &flag);
	sqlite3_busy_timeout(s->db, opts && opts->busy_timeout_ms ?
					     opts->busy_timeout_ms : 10000);
	/* Again now that WAL mode has made the -wal and -shm files: one
	 * planted since the first look is refused before anything is
	 * written to it. */
	if ((r = exec_sql(s, "PRAGMA journal_mode=WAL;"
			     "PRAGMA synchronous=FULL;"
			     "PRAGMA trusted_schema=OFF;"
			     "PRAGMA secure_delete=ON;", err)) < 0 ||
	    (r = store_check_files(path, opts ? opts->shared_group : NULL, err)) < 0 ||
	    (r = store_migrate(s, err)) < 0 ||
	    (r = exec_sql(s, "PRAGMA foreign_keys=ON;", err)) < 0) {
		store_close(s);
		return r;
	}
	*out = s;
	return 0;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->ncache; i++)
		sqlite3_finalize(s->cache[i].stmt);
	if (s->db)
		sqlite3_close(s->db);
	free(s->path);
	free(s);
}

int store_begin(struct store *s, struct err *err)
{
	int rc, tries = 0;

	if (s->in_tx)
		return err_setc(err, ERR_GENERIC, "nested transaction in '%s'",
				s->path);
	/* The busy handler waits inside BEGIN IMMEDIATE; retry a few times
	 * more for the rare SQLITE_BUSY_SNAPSHOT-like races. */
	while ((rc = sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL,
				  NULL)) == SQLITE_BUSY && ++tries < 5)
		usleep(50000);
	if (rc != SQLITE_OK)
		return store_dberr(s, err, "cannot start a transaction");
	s->in_tx = true;
	return 0;
}

int store_commit(struct store *s, struct err *err)
{
	int rc = sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);

	if (rc != SQLITE_OK) {
		int r = store_dberr(s, err, "cannot commit");
		store_rollback(s);
		return r;
	}
	s->in_tx = false;
	return 0;
}

void store_rollback(struct store *s)
{
	if (!sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	s->in_tx = false;
}

bool store_in_tx(const struct store *s)
{
	return s->in_tx;
}

int store_savepoint(struct store *s, struct err *err)
{
	if (sqlite3_exec(s->db, "SAVEPOINT unit", NULL, NULL, NULL) != SQLITE_OK)
		return store_dberr(s, err, "cannot start a savepoint");
	return 0;
}

int store_savepoint_release(struct store *s, struct err *err)
{
	if (sqlite3_exec(s->db, "RELEASE unit", NULL, NULL, NULL) != SQLITE_OK)
		return store_dberr(s, err, "cannot release a savepoint");
	return 0;
}

void store_savepoint_rollback(struct store *s)
{
	sqlite3_exec(s->db, "ROLLBACK TO unit; RELEASE unit", NULL, NULL, NULL);
}

int store_check(struct store *s, struct err *err)
{
	sqlite3_stmt *st;
	int r = 0;

	if (sqlite3_prepare_v2(s->db, "PRAGMA integrity_check", -1, &st,
			       NULL) != SQLITE_OK)
		return store_dberr(s, err, "cannot check integrity");
	if (sqlite3_step(st) != SQLITE_ROW ||
	    strcmp((const char *)sqlite3_column_text(st, 0), "ok"))
		r = err_setc(err, ERR_IO, "database '%s' is damaged: %s", s->path,
			     sqlite3_column_text(st, 0) ?
				     (const char *)sqlite3_column_text(st, 0) :
				     "no answer");
	sqlite3_finalize(st);
	return r;
}

int store_schema_version(struct store *s)
{
	sqlite3_stmt *st;
	int v = -1;

	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL) ==
	    SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	return v;
}
