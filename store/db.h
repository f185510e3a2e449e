/*
 * One statement interface over the two engines (internal to store/).
 *
 * The repositories (*-repo.c) write their SQL once, with numbered
 * parameters (?1, ?2, ...) and the subset both engines share: RETURNING
 * for new ids, ON CONFLICT for upserts, no engine functions.  An engine
 * (db-sqlite.c, db-pg.c) prepares, binds, steps and reads columns, and
 * classifies its errors into the few kinds callers act on (busy, unique
 * violation, permission, lost connection), so nothing above this file
 * knows which engine answered.  Statements are cached per store by the
 * address of their SQL text, so every query is a string literal.
 */
#ifndef SECTEAM_STORE_DB_H
#define SECTEAM_STORE_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

/* What went wrong in the last failed call, engine-independent. */
enum db_fault {
	DB_FAULT_NONE,
	DB_FAULT_OTHER,
	DB_FAULT_BUSY, /* another writer holds the lock past the timeout,
			     * or a serialization failure: try again */
	DB_FAULT_UNIQUE, /* a UNIQUE or PRIMARY KEY constraint */
	DB_FAULT_CHECK, /* another constraint, or a trigger's refusal */
	DB_FAULT_FULL, /* disk full */
	DB_FAULT_PERM, /* the login role lacks a grant */
	DB_FAULT_CONN, /* the server is unreachable or went away */
};

/* A prepared statement; each engine's own statement struct begins with
 * this. */
struct stmt {
	struct store *s;
};

/* An engine: one table of functions per file (db-sqlite.c, db-pg.c). */
struct engine {
	const char *name; /* "sqlite", "postgresql" */
	int (*open)(struct store *s, const char *where,
		    const struct store_opts *o, struct err *err);
	void (*close)(struct store *s);
	/* Runs SQL without parameters (several statements allowed). */
	int (*exec)(struct store *s, const char *sql);
	struct stmt *(*prepare)(struct store *s, const char *sql);
	void (*finalize)(struct stmt *st);
	void (*reset)(struct stmt *st);
	void (*bind_int)(struct stmt *st, int i, int64_t v);
	void (*bind_text)(struct stmt *st, int i, const char *v);
	void (*bind_blob)(struct stmt *st, int i, const void *p, size_t n);
	void (*bind_null)(struct stmt *st, int i);
	/* 1 with a row, 0 when done, -1 on error (see db_fault). */
	int (*step)(struct stmt *st);
	bool (*col_null)(struct stmt *st, int i);
	int64_t (*col_int)(struct stmt *st, int i);
	const char *(*col_text)(struct stmt *st, int i);
	/* Borrowed until the next step or reset; *n its length. */
	const void *(*col_blob)(struct stmt *st, int i, size_t *n);
	/* Rows changed by the last INSERT/UPDATE/DELETE run by st. */
	int64_t (*changes)(struct stmt *st);
	/* Transactions: begin takes the team's write lock (SQLite: BEGIN
	 * IMMEDIATE; PostgreSQL: an advisory lock), so writers are serial
	 * on both engines. */
	int (*begin)(struct store *s);
	int (*commit)(struct store *s);
	void (*rollback)(struct store *s);
	/* The last error: its kind and the engine's message. */
	enum db_fault (*fault)(struct store *s);
	const char *(*errmsg)(struct store *s);
	/* Brings the schema up to date; 0 or negative with err set. */
	int (*migrate)(struct store *s, struct err *err);
	int (*schema_version)(struct store *s);
	int (*check)(struct store *s, struct err *err);
	/* Who this connection acts as (caller frees), or NULL. */
	char *(*whoami)(struct store *s);
	/* Change notification: see store_watch() in store.h. */
	int (*watch_fd)(struct store *s);
	bool (*poll_changed)(struct store *s);
	/* The connection: whether it is up, and one try to bring it back
	 * (0 when up again); NULL for an engine that cannot lose it. */
	bool (*connected)(struct store *s);
	int (*reconnect)(struct store *s);
	/* A login password's verifier (SCRAM), made here so the password
	 * never reaches the server (caller frees), or NULL; NULL for an
	 * engine without logins. */
	char *(*password_verifier)(struct store *s, const char *role,
				   const char *password);
	/* Sends st (a write in a transaction) without waiting for its
	 * result: an error is the next statement's, or the commit's (0, or
	 * -1 when it cannot be sent); NULL for an engine without a
	 * network round trip to save.  Anything else run after it waits
	 * for what was sent first. */
	int (*send)(struct stmt *st);
	/* The same for a statement without parameters (a savepoint), what
	 * naming it should it fail; NULL: exec. */
	int (*send_sql)(struct store *s, const char *sql, const char *what);
	/* How many times the connection has waited on the server; NULL
	 * for an engine without a network. */
	unsigned long (*round_trips)(struct store *s);
};

extern const struct engine db_sqlite_engine;
extern const struct engine db_pg_engine;

/*
 * A page of ids in one statement: "... IN (" DB_IDS ")" takes up to
 * DB_IDS_MAX ids as parameters ?1..?64, and db_ids() binds a chunk of
 * them (the unused ones to 0, which no row's id is).  Callers loop over
 * chunks of DB_IDS_MAX.
 */
enum { DB_IDS_MAX = 64 };
#define DB_IDS                                     \
	"?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "         \
	"?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, "  \
	"?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, " \
	"?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, " \
	"?33, ?34, ?35, ?36, ?37, ?38, ?39, ?40, " \
	"?41, ?42, ?43, ?44, ?45, ?46, ?47, ?48, " \
	"?49, ?50, ?51, ?52, ?53, ?54, ?55, ?56, " \
	"?57, ?58, ?59, ?60, ?61, ?62, ?63, ?64"
void db_ids(struct stmt *st, const int64_t *ids, size_t n);
/* db_rows() of sql (its "IN (" DB_IDS ")" taking the ids) for all of
 * ids, a statement per DB_IDS_MAX of them, the rows in one array in the
 * order they came. */
int db_rows_ids(struct store *s, const char *sql, const int64_t *ids, size_t n,
		void **arr, size_t *nout, size_t elsize,
		void (*read)(struct stmt *st, void *elem),
		void (*release)(void *elem), const char *what, struct err *err);

/* db_run for a write whose result nothing reads (no id, no count of
 * rows changed): in a transaction, on an engine that can, it is sent
 * without waiting for the server (an error then fails what comes next,
 * at the latest the commit, named as the write's own); otherwise it is
 * db_run. */
int db_send(struct store *s, struct stmt *st, const char *what,
	    struct err *err);

/* The cached statement for sql (a string literal), reset, bindings
 * cleared; NULL with err set when it cannot be prepared. */
struct stmt *db_stmt(struct store *s, const char *sql, struct err *err);
void db_int(struct stmt *st, int i, int64_t v);
void db_text(struct stmt *st, int i, const char *v); /* NULL binds NULL */
void db_blob(struct stmt *st, int i, const void *p, size_t n);
void db_null(struct stmt *st, int i);
/* 1 row, 0 done, -1 error: then store_dberr() says what. */
int db_step(struct stmt *st);
void db_reset(struct stmt *st);
int64_t db_changes(struct stmt *st);
int64_t db_col_int(struct stmt *st, int i);
bool db_col_null(struct stmt *st, int i);
/* Column i as a new string, NULL for SQL NULL. */
char *db_col_str(struct stmt *st, int i);
/* Column i's text as the engine holds it, until the next step or reset;
 * NULL for SQL NULL. */
const char *db_col_text(struct stmt *st, int i);
/* Column i, a verdict's stored name: SIG_NONE for SQL NULL, SIG_ERROR
 * for a name this program does not know. */
enum sig_verdict db_col_verdict(struct stmt *st, int i);
/* The row's columns from 0 on into the pointers that follow spec, one
 * per letter: 'I' int64_t, 't' time_t, 'b' bool, 's' char * (new, NULL
 * for SQL NULL), 'v' enum sig_verdict, '.' none (a column the caller
 * reads some other way).  The readers of db_rows() name their fields once
 * this way. */
void db_cols(struct stmt *st, const char *spec, ...);
/* Column i copied into dst (size bytes, always terminated). */
void db_col_copy(struct stmt *st, int i, char *dst, size_t size);
/* Column i as new bytes (*n its length; never NULL). */
unsigned char *db_col_bytes(struct stmt *st, int i, size_t *n);

/*
 * The row helper: runs st (bound) and calls fn on each row until fn
 * returns non-zero (stop) or the rows end; st is reset either way.
 * Returns 0, or negative with err set ("WHAT in DATABASE").  The loops
 * below are built on it; a repository with its own per-row work (a
 * callback per report, ids without repeats) uses it directly.
 */
int db_each(struct store *s, struct stmt *st,
	    int (*fn)(struct stmt *st, void *data), void *data,
	    const char *what, struct err *err);
/*
 * Runs st (bound) and reads every row: each row is read by `read` into a
 * new zeroed element of *arr (elsize bytes each), growing it.  Returns 0
 * with *arr and *n the caller's, or negative with err set ("WHAT in
 * DATABASE"), the rows read so far given to release (when not NULL) and
 * nothing left allocated.
 */
int db_rows(struct store *s, struct stmt *st, void **arr, size_t *n,
	    size_t elsize, void (*read)(struct stmt *st, void *elem),
	    void (*release)(void *elem), const char *what, struct err *err);
/*
 * Runs st expecting at most one row, read by `read` into elem.  Returns
 * 0 with a row, ERR_NOTFOUND (err untouched) without one, or negative
 * with err set.
 */
int db_row(struct store *s, struct stmt *st, void *elem,
	   void (*read)(struct stmt *st, void *elem), const char *what,
	   struct err *err);
/* The first column of st's first row (a count), or -1 when st is NULL,
 * gives no row or fails; st is reset. */
int64_t db_count(struct stmt *st);
/* Runs a statement that returns no rows (or one id with RETURNING:
 * *id gets it when id is not NULL).  0 or negative with err set; a
 * unique violation is ERR_DUPLICATE with err set to dup_msg when given. */
int db_run(struct store *s, struct stmt *st, int64_t *id, const char *what,
	   const char *dup_msg, struct err *err);

/*
 * A write officers make in place (a reseal, a clear value sealed, a
 * vendor edited, a reminder, an old team key dropped): on SQLite the
 * UPDATE or DELETE itself; on the team server, where officers hold no
 * UPDATE or DELETE of any table, the administrator's function that makes
 * it (SELECT secteam.f(...), schema-pg.c's migration 13), whose result is
 * the rows it changed.  db_write_sql picks the text; db_write runs it,
 * *changed (optional) the rows changed.
 */
const char *db_write_sql(struct store *s, const char *sqlite, const char *pg);
int db_write(struct store *s, struct stmt *st, int64_t *changed,
	     const char *what, struct err *err);

/*
 * A PostgreSQL array literal ("{...}") built an element at a time, for
 * the team server's functions that take a column of many rows as an
 * array (one call for a chunk of rows, the nth element of each array
 * one row): bound with db_text.  Each element is quoted, so any text
 * goes; NULL is the element NULL; bytes go as bytea's hex.  The buffer
 * starts as SBUF_INIT; db_array_end closes it (an empty one is "{}").
 */
void db_array_text(struct sbuf *a, const char *v);
void db_array_int(struct sbuf *a, int64_t v);
void db_array_bytes(struct sbuf *a, const void *p, size_t n);
const char *db_array_end(struct sbuf *a);

#endif
