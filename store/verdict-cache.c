/*
 * The officer's own cache of message verdicts (store.h): what a message
 * verified to against this officer's keyring, one row per message, with
 * the key of the body it was made from, the keyring's state at the time
 * and the state of the signing key then.  A verdict is the officer's
 * keyring's, not the team's, so it lives beside the search cache, never
 * in the shared record; a file that is not this user's alone is not used.
 */
#include <errno.h>
#include <fcntl.h>
#include "store/sqlite.h"
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/store-int.h"

struct verdict_cache {
	sqlite3 *db;
	char *path;
};

static int vc_err(struct verdict_cache *vc, struct err *err, const char *what)
{
	return err_setc(err, ERR_IO, "%s in the verdict cache '%s': %s", what,
			vc->path, sqlite3_errmsg(vc->db));
}

int store_verdict_cache_open(const char *path, struct verdict_cache **out,
			     struct err *err)
{
	struct verdict_cache *vc;
	struct stat st;
	int fd, flag = 0;

	*out = NULL;
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return err_setc(err, ERR_IO,
				"cannot open the verdict cache '%s': %s", path,
				strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || (st.st_mode & 077)) {
		close(fd);
		return err_setc(
			err, ERR_IO,
			"the verdict cache '%s' is not this user's alone: not used",
			path);
	}
	close(fd);
	vc = xcalloc(1, sizeof(*vc));
	vc->path = xstrdup(path);
	if (sqlite3_open_v2(path, &vc->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW |
				    SQLITE_OPEN_FULLMUTEX,
			    NULL) != SQLITE_OK ||
	    (sqlite3_db_config(vc->db, SQLITE_DBCONFIG_DEFENSIVE, 1, &flag),
	     sqlite3_busy_timeout(vc->db, 2000),
	     sqlite3_exec(vc->db,
			  "PRAGMA trusted_schema=OFF;"
			  "CREATE TABLE IF NOT EXISTS verdicts ("
			  "  message_id INTEGER PRIMARY KEY,"
			  "  key TEXT NOT NULL,"
			  "  keyring TEXT NOT NULL,"
			  "  keystate TEXT NOT NULL,"
			  "  verdict TEXT NOT NULL,"
			  "  matches INTEGER NOT NULL,"
			  "  fingerprint TEXT)",
			  NULL, NULL, NULL) != SQLITE_OK)) {
		int r = vc->db ? vc_err(vc, err, "cannot set up")
			       : err_setc(err, ERR_IO, "out of memory");

		store_verdict_cache_close(vc);
		return r;
	}
	*out = vc;
	return 0;
}

void store_verdict_cache_close(struct verdict_cache *vc)
{
	if (!vc)
		return;
	if (vc->db)
		sqlite3_close(vc->db);
	free(vc->path);
	free(vc);
}

static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? xstrdup((const char *)t) : NULL;
}

int store_verdict_cache_get(struct verdict_cache *vc, int64_t message_id,
			    struct verdict_row *row, struct err *err)
{
	sqlite3_stmt *st;
	int rc;

	memset(row, 0, sizeof(*row));
	if (sqlite3_prepare_v2(vc->db,
			       "SELECT key, keyring, keystate, verdict,"
			       " matches, fingerprint FROM verdicts"
			       " WHERE message_id = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return vc_err(vc, err, "cannot read");
	sqlite3_bind_int64(st, 1, message_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		row->message_id = message_id;
		row->key = col_dup(st, 0);
		row->keyring = col_dup(st, 1);
		row->keystate = col_dup(st, 2);
		row->verdict = sig_verdict_from_name(
			(const char *)sqlite3_column_text(st, 3));
		row->matches = sqlite3_column_int64(st, 4) != 0;
		row->fingerprint = col_dup(st, 5);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return vc_err(vc, err, "cannot read");
	return rc == SQLITE_ROW ? 1 : 0;
}

int store_verdict_cache_put(struct verdict_cache *vc,
			    const struct verdict_row *row, struct err *err)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(
		    vc->db,
		    "INSERT OR REPLACE INTO verdicts (message_id,"
		    " key, keyring, keystate, verdict, matches, fingerprint)"
		    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
		    -1, &st, NULL) != SQLITE_OK)
		return vc_err(vc, err, "cannot write");
	sqlite3_bind_int64(st, 1, row->message_id);
	sqlite3_bind_text(st, 2, row->key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, row->keyring, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, row->keystate, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, sig_verdict_name(row->verdict), -1,
			  SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, row->matches);
	sqlite3_bind_text(st, 7, row->fingerprint, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : vc_err(vc, err, "cannot write");
}

void verdict_row_release(struct verdict_row *row)
{
	free(row->key);
	free(row->keyring);
	free(row->keystate);
	free(row->fingerprint);
	memset(row, 0, sizeof(*row));
}
