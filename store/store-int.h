/* Internals shared by the store/ files; not part of the public interface. */
#ifndef SECTEAM_STORE_INT_H
#define SECTEAM_STORE_INT_H

#include "store/db.h"
#include "store/store.h"

#define STMT_CACHE 96

enum store_engine { STORE_SQLITE, STORE_POSTGRESQL };

struct store {
	const struct engine *eng;
	void *conn;             /* the engine's connection */
	char *where;            /* the database as messages name it: a file
				 * path, or "team server 'host/db'" */
	enum store_engine kind;
	bool in_tx;
	int busy_timeout_ms;
	int found_version;      /* the schema version store_open found */
	struct {
		const char *sql;
		struct stmt *st;
	} cache[STMT_CACHE];
	size_t ncache;
};

/* Fills err from the engine's last error, naming the database; returns
 * ERR_BUSY, ERR_REFUSED (a missing grant), ERR_DUPLICATE or ERR_IO. */
int store_dberr(struct store *s, struct err *err, const char *what);

#endif
