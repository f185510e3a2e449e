/* Internals shared by the store/ files; not part of the public interface. */
#ifndef SECTEAM_STORE_INT_H
#define SECTEAM_STORE_INT_H

#include <sqlite3.h>

#include "store/store.h"

#define STMT_CACHE 64

struct store {
	sqlite3 *db;
	char *path;
	struct {
		const char *sql;
		sqlite3_stmt *stmt;
	} cache[STMT_CACHE];
	size_t ncache;
	bool in_tx;
};

/* A prepared statement for sql (a string literal: cached by address),
 * reset and with bindings cleared.  NULL with err set on failure. */
sqlite3_stmt *store_stmt(struct store *s, const char *sql, struct err *err);
/* Fills err from the database's last error; returns ERR_IO (or ERR_BUSY). */
int store_dberr(struct store *s, struct err *err, const char *what);
/* Binds text or NULL. */
void store_bind_text(sqlite3_stmt *st, int i, const char *v);
/* Copies column i as a string, NULL for SQL NULL. */
char *store_col_text(sqlite3_stmt *st, int i);
int store_migrate(struct store *s, struct err *err);

#endif
