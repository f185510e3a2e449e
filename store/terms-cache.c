/*
 * The officer's own search index (store.h), a small SQLite file beside
 * nothing else: posting lists under keyed terms, each list sealed by the
 * caller under the team key; the messages indexed, with the key of the
 * body each was indexed from (so a message stored again is indexed
 * again); the team key generation the terms are keyed under.  It holds
 * nothing in clear; a file that is not the officer's alone is not used.
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
	sqlite3_stmt *get, *put, *putm; /* prepared on first use */
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
			  "DROP TABLE IF EXISTS terms;" /* Bloom filters */
			  "CREATE TABLE IF NOT EXISTS meta ("
			  "  name TEXT PRIMARY KEY, value INTEGER NOT NULL);"
			  "CREATE TABLE IF NOT EXISTS indexed ("
			  "  message_id INTEGER PRIMARY KEY,"
			  "  key TEXT NOT NULL);"
			  "CREATE TABLE IF NOT EXISTS postings ("
			  "  term BLOB PRIMARY KEY,"
			  "  list BLOB NOT NULL) WITHOUT ROWID",
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
	sqlite3_finalize(tc->get);
	sqlite3_finalize(tc->put);
	sqlite3_finalize(tc->putm);
	if (tc->db)
		sqlite3_close(tc->db);
	free(tc->path);
	free(tc);
}

void terms_rows_free(struct terms_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].key);
	}
	free(rows);
}

int store_index_generation(struct terms_cache *tc, uint64_t *gen,
			   struct err *err)
{
	sqlite3_stmt *st;
	int rc;

	*gen = 0;
	if (sqlite3_prepare_v2(
		    tc->db, "SELECT value FROM meta WHERE name = 'generation'",
		    -1, &st, NULL) != SQLITE_OK)
		return cache_err(tc, err, "cannot read");
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		*gen = (uint64_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE
		? 0
		: cache_err(tc, err, "cannot read");
}

int store_index_reset(struct terms_cache *tc, uint64_t gen, struct err *err)
{
	char sql[200];

	snprintf(sql, sizeof(sql),
		 "BEGIN IMMEDIATE; DELETE FROM postings; DELETE FROM indexed;"
		 " INSERT OR REPLACE INTO meta VALUES ('generation', %lld);"
		 " COMMIT",
		 (long long)gen);
	if (sqlite3_exec(tc->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
		int r = cache_err(tc, err, "cannot write");
		sqlite3_exec(tc->db, "ROLLBACK", NULL, NULL, NULL);
		return r;
	}
	return 0;
}

int store_index_messages(struct terms_cache *tc, struct terms_row **rows,
			 size_t *n, struct err *err)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	*rows = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(tc->db,
			       "SELECT message_id FROM indexed"
			       " ORDER BY message_id",
			       -1, &st, NULL) != SQLITE_OK)
		return cache_err(tc, err, "cannot read");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 1024;
			*rows = xrealloc(*rows, cap * sizeof(**rows));
		}
		(*rows)[(*n)++] =
			(struct terms_row){ sqlite3_column_int64(st, 0), NULL };
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

int store_index_list(struct terms_cache *tc, const unsigned char *term,
		     size_t tlen, unsigned char **list, size_t *len,
		     struct err *err)
{
	int rc;

	*list = NULL;
	*len = 0;
	if (!tc->get &&
	    sqlite3_prepare_v2(tc->db,
			       "SELECT list FROM postings WHERE term = ?1", -1,
			       &tc->get, NULL) != SQLITE_OK)
		return cache_err(tc, err, "cannot read");
	sqlite3_bind_blob(tc->get, 1, term, (int)tlen, SQLITE_STATIC);
	rc = sqlite3_step(tc->get);
	if (rc == SQLITE_ROW) {
		const void *b = sqlite3_column_blob(tc->get, 0);
		*len = (size_t)sqlite3_column_bytes(tc->get, 0);
		*list = xmalloc(*len + 1);
		if (*len)
			memcpy(*list, b, *len);
	}
	sqlite3_reset(tc->get);
	if (rc == SQLITE_ROW)
		return 1;
	return rc == SQLITE_DONE ? 0 : cache_err(tc, err, "cannot read");
}

int store_index_begin(struct terms_cache *tc, struct err *err)
{
	if (sqlite3_exec(tc->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) !=
	    SQLITE_OK)
		return cache_err(tc, err, "cannot write");
	return 0;
}

int store_index_put_list(struct terms_cache *tc, const unsigned char *term,
			 size_t tlen, const unsigned char *list, size_t len,
			 struct err *err)
{
	int rc;

	if (!tc->put &&
	    sqlite3_prepare_v2(tc->db,
			       "INSERT OR REPLACE INTO postings (term, list)"
			       " VALUES (?1, ?2)",
			       -1, &tc->put, NULL) != SQLITE_OK)
		return cache_err(tc, err, "cannot write");
	sqlite3_bind_blob(tc->put, 1, term, (int)tlen, SQLITE_STATIC);
	sqlite3_bind_blob(tc->put, 2, list, (int)len, SQLITE_STATIC);
	rc = sqlite3_step(tc->put);
	sqlite3_reset(tc->put);
	return rc == SQLITE_DONE ? 0 : cache_err(tc, err, "cannot write");
}

int store_index_put_message(struct terms_cache *tc, int64_t message_id,
			    const char *key, struct err *err)
{
	int rc;

	if (!tc->putm &&
	    sqlite3_prepare_v2(tc->db,
			       "INSERT OR REPLACE INTO indexed (message_id, key)"
			       " VALUES (?1, ?2)",
			       -1, &tc->putm, NULL) != SQLITE_OK)
		return cache_err(tc, err, "cannot write");
	sqlite3_bind_int64(tc->putm, 1, message_id);
	sqlite3_bind_text(tc->putm, 2, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(tc->putm);
	sqlite3_reset(tc->putm);
	return rc == SQLITE_DONE ? 0 : cache_err(tc, err, "cannot write");
}

int store_index_commit(struct terms_cache *tc, struct err *err)
{
	if (sqlite3_exec(tc->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		int r = cache_err(tc, err, "cannot write");
		sqlite3_exec(tc->db, "ROLLBACK", NULL, NULL, NULL);
		return r;
	}
	return 0;
}

void store_index_rollback(struct terms_cache *tc)
{
	sqlite3_exec(tc->db, "ROLLBACK", NULL, NULL, NULL);
}
