/*
 * The officer's own cache of terms filters (store.h), a small SQLite
 * file beside nothing else: one row per message, the filter sealed by the
 * caller under the team key, with the key of the message it was made
 * from (so a message stored again is not answered by an old filter).
 * It holds nothing in clear; a file that is not the officer's alone is
 * not used.
 */
#include <errno.h>
#include <fcntl.h>
#include "store/sqlite.h"
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/store-int.h"

struct terms_cache {
	sqlite3 *db;
	char *path;
};

static int cache_err(struct terms_cache *tc, struct err *err, const char *what)
{
	return err_setc(err, ERR_IO, "%s in the search cache '%s': %s", what,
			tc->path, sqlite3_errmsg(tc->db));
}

int store_terms_cache_open(const char *path, struct terms_cache **out,
			   struct err *err)
{
	struct terms_cache *tc;
	int fd, flag = 0;

	*out = NULL;
	fd = open_own_file(path, O_RDWR | O_CREAT, "the search cache", NULL,
			   err);
	if (fd < 0)
		return fd;
	close(fd);
	tc = xcalloc(1, sizeof(*tc));
	tc->path = xstrdup(path);
	if (sqlite3_open_v2(path, &tc->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW |
				    SQLITE_OPEN_FULLMUTEX,
			    NULL) != SQLITE_OK ||
	    (sqlite3_db_config(tc->db, SQLITE_DBCONFIG_DEFENSIVE, 1, &flag),
	     sqlite3_exec(tc->db,
			  "PRAGMA trusted_schema=OFF;"
			  "PRAGMA secure_delete=ON;"
			  "CREATE TABLE IF NOT EXISTS terms ("
			  "  message_id INTEGER PRIMARY KEY,"
			  "  key TEXT NOT NULL,"
			  "  filter BLOB NOT NULL)",
			  NULL, NULL, NULL) != SQLITE_OK)) {
		int r = tc->db ? cache_err(tc, err, "cannot set up")
			       : err_setc(err, ERR_IO, "out of memory");

		store_terms_cache_close(tc);
		return r;
	}
	sqlite3_busy_timeout(tc->db, 2000);
	*out = tc;
	return 0;
}

void store_terms_cache_close(struct terms_cache *tc)
{
	if (!tc)
		return;
	if (tc->db)
		sqlite3_close(tc->db);
	free(tc->path);
	free(tc);
}

int store_terms_cache_all(struct terms_cache *tc, struct terms_row **rows,
			  size_t *n, struct err *err)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	*rows = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(tc->db,
			       "SELECT message_id, key, filter FROM terms"
			       " ORDER BY message_id",
			       -1, &st, NULL) != SQLITE_OK)
		return cache_err(tc, err, "cannot read");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct terms_row *r;
		const void *b = sqlite3_column_blob(st, 2);
		size_t len = (size_t)sqlite3_column_bytes(st, 2);

		if (*n == cap) {
			cap = cap ? 2 * cap : 1024;
			*rows = xrealloc(*rows, cap * sizeof(**rows));
		}
		r = &(*rows)[(*n)++];
		r->message_id = sqlite3_column_int64(st, 0);
		r->key = xstrdup((const char *)sqlite3_column_text(st, 1));
		r->sealed = xmalloc(len + 1);
		if (len)
			memcpy(r->sealed, b, len);
		r->len = len;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		terms_rows_free(*rows, *n);
		*rows = NULL;
		*n = 0;
		return cache_err(tc, err, "cannot read");
	}
	return 0;
}

void terms_rows_free(struct terms_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].key);
		free(rows[i].sealed);
	}
	free(rows);
}

int store_terms_cache_put(struct terms_cache *tc, const struct terms_row *rows,
			  size_t n, struct err *err)
{
	sqlite3_stmt *st;
	int rc = SQLITE_DONE;

	if (!n)
		return 0;
	if (sqlite3_exec(tc->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) !=
	    SQLITE_OK)
		return cache_err(tc, err, "cannot write");
	if (sqlite3_prepare_v2(tc->db,
			       "INSERT OR REPLACE INTO terms (message_id, key,"
			       " filter) VALUES (?1, ?2, ?3)",
			       -1, &st, NULL) != SQLITE_OK) {
		sqlite3_exec(tc->db, "ROLLBACK", NULL, NULL, NULL);
		return cache_err(tc, err, "cannot write");
	}
	for (size_t i = 0; i < n && rc == SQLITE_DONE; i++) {
		sqlite3_bind_int64(st, 1, rows[i].message_id);
		sqlite3_bind_text(st, 2, rows[i].key, -1, SQLITE_STATIC);
		sqlite3_bind_blob(st, 3, rows[i].sealed, (int)rows[i].len,
				  SQLITE_STATIC);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE ||
	    sqlite3_exec(tc->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		int r = cache_err(tc, err, "cannot write");

		sqlite3_exec(tc->db, "ROLLBACK", NULL, NULL, NULL);
		return r;
	}
	return 0;
}
