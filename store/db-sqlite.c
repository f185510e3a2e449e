/*
 * The SQLite engine: one file, WAL mode, the embedded default for one
 * officer (or officers sharing a host through a Unix group) and the demo.
 *
 * Permissions are set before SQLite touches the file: the directory is
 * created 0700 and the file 0600 (02770/0660 for a shared group) whatever
 * the umask; SQLite gives the -wal and -shm files the database file's
 * mode.  An existing database, -wal, -shm or -journal file that others
 * can read or that is not ours is refused rather than "fixed", because
 * the leak may already have happened, and so is a folder where others
 * could plant such files (store_check_files).
 *
 * synchronous=FULL: an officer's triage decision must survive a power cut
 * the moment the command returns; the cost is one extra fsync per commit,
 * which is nothing next to a gpg invocation.  Writers are serialised by
 * BEGIN IMMEDIATE; who acts is the Unix user (the effective uid).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <libgen.h>
#include <pwd.h>
#include "store/sqlite.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/schema.h"
#include "store/store-int.h"

struct lite {
	sqlite3 *db;
	int64_t data_version; /* for poll_changed */
	int fault_rc; /* extended code of the last failure */
};

struct lite_stmt {
	struct stmt base;
	sqlite3_stmt *st;
};

#define LITE(s) ((struct lite *)(s)->conn)
#define LST(x) ((struct lite_stmt *)(x))

static void note(struct store *s)
{
	LITE(s)->fault_rc = sqlite3_extended_errcode(LITE(s)->db);
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
	static const char *const suffixes[] = { "", "-wal", "-shm",
						"-journal" };
	uid_t me = geteuid();
	gid_t gid = (gid_t)-1;
	unsigned allowed = 0600;
	struct stat st;
	char *copy, *dir;
	int r = 0;

	if (shared_group && *shared_group) {
		struct group *g = getgrnam(shared_group);
		if (!g)
			return err_setc(
				err, ERR_INVALID,
				"store.shared_group '%s' is not a group on this system",
				shared_group);
		gid = g->gr_gid;
		allowed = 0660;
	}
	copy = xstrdup(path);
	dir = dirname(copy);
	if (stat(dir, &st) < 0)
		r = err_setc(err, ERR_IO,
			     "cannot open database '%s': its folder '%s': %s",
			     path, dir, strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		r = err_setc(err, ERR_INVALID,
			     "cannot open database '%s': '%s' is not a folder",
			     path, dir);
	else if (st.st_uid != me && st.st_uid != 0 &&
		 !(gid != (gid_t)-1 && st.st_gid == gid))
		r = err_setc(
			err, ERR_REFUSED,
			"refusing database '%s': its folder '%s' belongs to another user (uid %lu)",
			path, dir, (unsigned long)st.st_uid);
	else if ((st.st_mode & S_IWOTH) &&
		 !((st.st_mode & S_ISVTX) && st.st_uid == me))
		r = err_setc(
			err, ERR_REFUSED,
			"refusing database '%s': other users can create files in its folder '%s' (mode %04o); use a private folder",
			path, dir, (unsigned)(st.st_mode & 07777));
	else if ((st.st_mode & S_IWGRP) &&
		 !((st.st_mode & S_ISVTX) && st.st_uid == me) &&
		 !(gid != (gid_t)-1 && st.st_gid == gid))
		r = err_setc(
			err, ERR_REFUSED,
			"refusing database '%s': its group can create files in its folder '%s' (mode %04o; run: chmod g-w '%s', or set store.shared_group)",
			path, dir, (unsigned)(st.st_mode & 07777), dir);
	free(copy);
	for (size_t i = 0; !r && i < ARRAY_SIZE(suffixes); i++) {
		char *f = xasprintf("%s%s", path, suffixes[i]);

		if (lstat(f, &st) < 0) {
			if (errno != ENOENT)
				r = err_setc(
					err, ERR_IO,
					"cannot open database file '%s': %s", f,
					strerror(errno));
		} else if (S_ISLNK(st.st_mode)) {
			r = err_setc(
				err, ERR_REFUSED,
				"refusing database file '%s': it is a symbolic link",
				f);
		} else if (!S_ISREG(st.st_mode)) {
			r = err_setc(
				err, ERR_REFUSED,
				"refusing database file '%s': it is not a regular file",
				f);
		} else if (st.st_uid != me &&
			   !(gid != (gid_t)-1 && st.st_gid == gid)) {
			r = err_setc(
				err, ERR_REFUSED,
				"refusing database file '%s': it belongs to another user (uid %lu)",
				f, (unsigned long)st.st_uid);
		} else if (st.st_mode & 07777 & ~allowed) {
			r = err_setc(
				err, ERR_REFUSED,
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
	const char *group = o && o->shared_group && *o->shared_group
		? o->shared_group
		: NULL;
	char *dir = xstrdup(path), *d;
	struct stat st;
	gid_t gid = (gid_t)-1;
	int dmode = 0700, fmode = 0600, fd, r = 0;

	if (group) {
		struct group *g = getgrnam(group);
		if (!g) {
			free(dir);
			return err_setc(
				err, ERR_INVALID,
				"store.shared_group '%s' is not a group on this system",
				group);
		}
		gid = g->gr_gid;
		dmode = 02770;
		fmode = 0660;
	}
	d = dirname(dir);
	if (lstat(path, &st) < 0 && errno == ENOENT && stat(d, &st) < 0) {
		if (!o || !o->make_folder) {
			r = err_setc(
				err, ERR_NOTFOUND,
				"cannot open database '%s': its folder '%s' does "
				"not exist (only the default location is created)",
				path, d);
			free(dir);
			return r;
		}
		if (mkdir_p(d, dmode, err) < 0) {
			free(dir);
			return ERR_IO;
		}
		chmod(d, (mode_t)dmode);
		if (gid != (gid_t)-1 && chown(d, (uid_t)-1, gid) < 0)
			r = err_setc(err, ERR_IO,
				     "cannot give '%s' to group '%s': %s", d,
				     group, strerror(errno));
	}
	free(dir);
	if (r || (r = store_check_files(path, group, err)) < 0)
		return r;
	if (lstat(path, &st) == 0)
		return 0;
	fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0 && errno == EEXIST)
		/* Another command made it a moment ago: checked as any file. */
		return store_check_files(path, group, err);
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

static int lite_exec(struct store *s, const char *sql)
{
	if (sqlite3_exec(LITE(s)->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
		note(s);
		return -1;
	}
	return 0;
}

static int lite_open(struct store *s, const char *path,
		     const struct store_opts *o, struct err *err)
{
	struct lite *l;
	int r, flag = 0;

	if ((r = prepare_file(path, o, err)) < 0)
		return r;
	l = xcalloc(1, sizeof(*l));
	s->conn = l;
	s->where = xasprintf("database '%s'", path);
	/* NOMUTEX: the connection takes no lock of its own around each call
	 * (a column read took two: 8% of a search at 100k reports).  One
	 * thread uses it at a time: the only other threads are
	 * store_parallel's and the search's workers, which open sealed
	 * values and reach the store only to unwrap a key, under the
	 * session's seal lock (core/session.c key_shared), while the
	 * thread that started them runs a share of the same work. */
	if (sqlite3_open_v2(path, &l->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW |
				    SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK)
		return err_setc(
			err, ERR_IO, "cannot open database '%s': %s", path,
			l->db ? sqlite3_errmsg(l->db) : "out of memory");
	sqlite3_extended_result_codes(l->db, 1);
	sqlite3_db_config(l->db, SQLITE_DBCONFIG_DEFENSIVE, 1, &flag);
	sqlite3_db_config(l->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &flag);
	sqlite3_db_config(l->db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0,
			  &flag);
	sqlite3_busy_timeout(l->db, s->busy_timeout_ms);
	if (lite_exec(s,
		      "PRAGMA journal_mode=WAL;"
		      "PRAGMA synchronous=FULL;"
		      "PRAGMA trusted_schema=OFF;"
		      "PRAGMA secure_delete=ON;") < 0)
		return store_dberr(s, err, "cannot set up the database");
	/* Again now that WAL mode has made the -wal and -shm files: one
	 * planted since the first look is refused before anything is
	 * written to it.  Foreign keys go on once migrations have run. */
	return store_check_files(path, o ? o->shared_group : NULL, err);
}

static void lite_close(struct store *s)
{
	struct lite *l = LITE(s);

	if (!l)
		return;
	if (l->db)
		sqlite3_close(l->db);
	free(l);
	s->conn = NULL;
}

static struct stmt *lite_prepare(struct store *s, const char *sql)
{
	sqlite3_stmt *st;
	struct lite_stmt *ls;

	if (sqlite3_prepare_v3(LITE(s)->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
			       &st, NULL) != SQLITE_OK) {
		note(s);
		return NULL;
	}
	ls = xcalloc(1, sizeof(*ls));
	ls->base.s = s;
	ls->st = st;
	return &ls->base;
}

static void lite_finalize(struct stmt *x)
{
	sqlite3_finalize(LST(x)->st);
	free(x);
}

static void lite_reset(struct stmt *x)
{
	sqlite3_reset(LST(x)->st);
	sqlite3_clear_bindings(LST(x)->st);
}

static void lite_bind_int(struct stmt *x, int i, int64_t v)
{
	sqlite3_bind_int64(LST(x)->st, i, (sqlite3_int64)v);
}

static void lite_bind_text(struct stmt *x, int i, const char *v)
{
	sqlite3_bind_text(LST(x)->st, i, v, -1, SQLITE_TRANSIENT);
}

static void lite_bind_blob(struct stmt *x, int i, const void *p, size_t n)
{
	sqlite3_bind_blob64(LST(x)->st, i, p ? p : "", (sqlite3_uint64)n,
			    SQLITE_STATIC);
}

static void lite_bind_null(struct stmt *x, int i)
{
	sqlite3_bind_null(LST(x)->st, i);
}

static int lite_step(struct stmt *x)
{
	int rc = sqlite3_step(LST(x)->st);

	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	note(x->s);
	return -1;
}

static bool lite_col_null(struct stmt *x, int i)
{
	return sqlite3_column_type(LST(x)->st, i) == SQLITE_NULL;
}

static int64_t lite_col_int(struct stmt *x, int i)
{
	return sqlite3_column_int64(LST(x)->st, i);
}

static const char *lite_col_text(struct stmt *x, int i)
{
	return (const char *)sqlite3_column_text(LST(x)->st, i);
}

static const void *lite_col_blob(struct stmt *x, int i, size_t *n)
{
	const void *p = sqlite3_column_blob(LST(x)->st, i);

	*n = (size_t)sqlite3_column_bytes(LST(x)->st, i);
	return p;
}

static int64_t lite_changes(struct stmt *x)
{
	return sqlite3_changes(LITE(x->s)->db);
}

static int lite_begin(struct store *s)
{
	int tries = 0, r;

	/* The busy handler waits inside BEGIN IMMEDIATE; retry a few times
	 * more for the rare SQLITE_BUSY_SNAPSHOT-like races. */
	while ((r = lite_exec(s, "BEGIN IMMEDIATE")) < 0 &&
	       (LITE(s)->fault_rc & 0xff) == SQLITE_BUSY && ++tries < 5)
		usleep(50000);
	return r;
}

static int lite_commit(struct store *s)
{
	return lite_exec(s, "COMMIT");
}

static void lite_rollback(struct store *s)
{
	if (!sqlite3_get_autocommit(LITE(s)->db))
		sqlite3_exec(LITE(s)->db, "ROLLBACK", NULL, NULL, NULL);
}

static enum db_fault lite_fault(struct store *s)
{
	int rc = LITE(s)->fault_rc;

	switch (rc & 0xff) {
	case SQLITE_OK:
		return DB_FAULT_NONE;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return DB_FAULT_BUSY;
	case SQLITE_FULL:
		return DB_FAULT_FULL;
	case SQLITE_PERM:
	case SQLITE_READONLY:
		return DB_FAULT_PERM;
	case SQLITE_CONSTRAINT:
		return rc == SQLITE_CONSTRAINT_UNIQUE ||
				rc == SQLITE_CONSTRAINT_PRIMARYKEY
			? DB_FAULT_UNIQUE
			: DB_FAULT_CHECK;
	default:
		return DB_FAULT_OTHER;
	}
}

static const char *lite_errmsg(struct store *s)
{
	return sqlite3_errmsg(LITE(s)->db);
}

static int lite_schema_version(struct store *s)
{
	sqlite3_stmt *st;
	int v = -1;

	if (sqlite3_prepare_v2(LITE(s)->db, "PRAGMA user_version", -1, &st,
			       NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	return v;
}

/* Migrations (schema.h) on PRAGMA user_version, each in the same
 * transaction as its version bump. */
static int lite_migrate(struct store *s, struct err *err)
{
	size_t n = schema_sqlite_count;
	sqlite3_stmt *st;
	int v, r;

	/* Up to date, the common case: no write lock, so opening the
	 * database does not wait for another officer's long import. */
	if (lite_schema_version(s) == (int)n)
		goto keys;
	if ((r = store_begin(s, err)) < 0)
		return r;
	v = lite_schema_version(s);
	if (v < 0) {
		store_rollback(s);
		return store_dberr(s, err, "cannot read the schema version");
	}
	if ((size_t)v > n) {
		store_rollback(s);
		return err_setc(
			err, ERR_INVALID,
			"%s has schema version %d, newer than this secteam-tui (%zu); upgrade secteam-tui",
			s->where, v, n);
	}
	for (size_t i = (size_t)v; i < n; i++) {
		char pragma[64];

		snprintf(pragma, sizeof(pragma), "PRAGMA user_version=%zu",
			 i + 1);
		if (lite_exec(s, schema_sqlite[i]) < 0 ||
		    lite_exec(s, pragma) < 0) {
			r = store_dberr(s, err, "cannot upgrade the schema");
			store_rollback(s);
			return r;
		}
	}
	/* Foreign keys are off while migrations run, so a rebuilt table
	 * must be checked before it counts. */
	if (sqlite3_prepare_v2(LITE(s)->db, "PRAGMA foreign_key_check", -1, &st,
			       NULL) != SQLITE_OK) {
		note(s);
		r = store_dberr(s, err, "cannot check the upgraded schema");
		store_rollback(s);
		return r;
	}
	r = sqlite3_step(st);
	sqlite3_finalize(st);
	if (r != SQLITE_DONE) {
		store_rollback(s);
		return err_setc(
			err, ERR_IO,
			"cannot upgrade the schema of %s: a foreign key no longer holds",
			s->where);
	}
	if ((r = store_commit(s, err)) < 0)
		return r;
keys:
	if (lite_exec(s, "PRAGMA foreign_keys=ON") < 0)
		return store_dberr(s, err, "cannot set up the database");
	return 0;
}

static int lite_check(struct store *s, struct err *err)
{
	sqlite3_stmt *st;
	const char *t;
	int r = 0;

	if (sqlite3_prepare_v2(LITE(s)->db, "PRAGMA integrity_check", -1, &st,
			       NULL) != SQLITE_OK) {
		note(s);
		return store_dberr(s, err, "cannot check integrity");
	}
	if (sqlite3_step(st) != SQLITE_ROW ||
	    !(t = (const char *)sqlite3_column_text(st, 0)) || strcmp(t, "ok"))
		r = err_setc(err, ERR_IO, "%s is damaged: %s", s->where,
			     sqlite3_column_text(st, 0)
				     ? (const char *)sqlite3_column_text(st, 0)
				     : "no answer");
	sqlite3_finalize(st);
	return r;
}

/* The Unix user this process runs as: on one host, that is the officer. */
static char *lite_whoami(struct store *s)
{
	struct passwd *pw = getpwuid(geteuid());

	(void)s;
	if (pw && pw->pw_name && *pw->pw_name)
		return xstrdup(pw->pw_name);
	return xasprintf("uid%lu", (unsigned long)geteuid());
}

static int lite_watch_fd(struct store *s)
{
	(void)s;
	return -1;
}

/* PRAGMA data_version changes when another connection commits. */
static bool lite_poll_changed(struct store *s)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	if (sqlite3_prepare_v2(LITE(s)->db, "PRAGMA data_version", -1, &st,
			       NULL) != SQLITE_OK)
		return false;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (v == LITE(s)->data_version)
		return false;
	LITE(s)->data_version = v;
	return true;
}

const struct engine db_sqlite_engine = {
	.name = "sqlite",
	.open = lite_open,
	.close = lite_close,
	.exec = lite_exec,
	.prepare = lite_prepare,
	.finalize = lite_finalize,
	.reset = lite_reset,
	.bind_int = lite_bind_int,
	.bind_text = lite_bind_text,
	.bind_blob = lite_bind_blob,
	.bind_null = lite_bind_null,
	.step = lite_step,
	.col_null = lite_col_null,
	.col_int = lite_col_int,
	.col_text = lite_col_text,
	.col_blob = lite_col_blob,
	.changes = lite_changes,
	.begin = lite_begin,
	.commit = lite_commit,
	.rollback = lite_rollback,
	.fault = lite_fault,
	.errmsg = lite_errmsg,
	.migrate = lite_migrate,
	.schema_version = lite_schema_version,
	.check = lite_check,
	.whoami = lite_whoami,
	.watch_fd = lite_watch_fd,
	.poll_changed = lite_poll_changed,
};
