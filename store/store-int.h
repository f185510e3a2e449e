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
	const struct store_sealer *sealer; /* NULL: fields stored clear */
	struct {
		const char *sql;
		struct stmt *st;
	} cache[STMT_CACHE];
	size_t ncache;
};

/* Fills err from the engine's last error, naming the database; returns
 * ERR_BUSY, ERR_REFUSED (a missing grant), ERR_DUPLICATE or ERR_IO. */
int store_dberr(struct store *s, struct err *err, const char *what);

/* seal.c: the sealed fields (store.h).  store_seal_field gives the text
 * to store (a new string: the sealed value, or a copy of text without a
 * sealer; NULL text stays NULL), or NULL with err set;
 * store_open_field replaces *field, read from the row, by its clear
 * text.  store_next_id draws the id the next row of table will have (so
 * the row is in what its fields are sealed to). */
char *store_seal_field(struct store *s, const char *table, const char *column,
		       int64_t row, const char *text, bool *failed,
		       struct err *err);
void store_open_field(struct store *s, const char *table, const char *column,
		      int64_t row, char **field);
int store_next_id(struct store *s, const char *table, int64_t *id,
		  struct err *err);

#endif
