/*
 * Opening a store and running transactions, whichever the engine.
 *
 * A store is named by a path (SQLite, the embedded default) or by a
 * libpq connection string or URI (PostgreSQL, the team server):
 * "postgresql://...", "postgres://..." or "keyword=value ...".  The
 * engine is chosen here once; everything else goes through db.h.
 */
#include <stdlib.h>
#include <string.h>

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

/* A libpq keyword: letters and underscores, then '='. */
static bool is_conninfo(const char *s)
{
	const char *p = s;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!((*p >= 'a' && *p <= 'z') || *p == '_'))
		return false;
	while ((*p >= 'a' && *p <= 'z') || *p == '_')
		p++;
	while (*p == ' ')
		p++;
	return *p == '=';
}

bool store_is_server(const char *where)
{
	return where &&
		(str_starts(where, "postgresql://") ||
		 str_starts(where, "postgres://") || is_conninfo(where));
}

int store_open(const char *where, const struct store_opts *opts,
	       struct store **out, struct err *err)
{
	struct store *s;
	int r;

	*out = NULL;
	s = xcalloc(1, sizeof(*s));
	s->clear_ids = -1;
	s->clear_addrs = -1;
	s->legacy = -1;
	s->kind = store_is_server(where) ? STORE_POSTGRESQL : STORE_SQLITE;
	s->eng = s->kind == STORE_POSTGRESQL ? &db_pg_engine
					     : &db_sqlite_engine;
	s->busy_timeout_ms =
		opts && opts->busy_timeout_ms ? opts->busy_timeout_ms : 10000;
	if ((r = s->eng->open(s, where, opts, err)) < 0) {
		store_close(s);
		return r;
	}
	/* Read once: the migration starts from it. */
	s->found_version = s->eng->schema_version(s);
	if (s->kind == STORE_POSTGRESQL && !(opts && opts->create)) {
		int v = s->found_version;

		if (v < 0) {
			r = store_dberr(s, err,
					"cannot read the schema version");
			store_close(s);
			return r;
		}
		if (v == 0) {
			r = err_setc(
				err, ERR_NOTFOUND,
				"%s holds no secteam schema: the team's administrator runs 'secteam-tui --db URL team init' first",
				s->where);
			store_close(s);
			return r;
		}
	}
	if ((r = s->eng->migrate(s, err)) < 0) {
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
		s->eng->finalize(s->cache[i].st);
	if (s->conn)
		s->eng->close(s);
	free(s->where);
	free(s);
}

const char *store_where(const struct store *s)
{
	return s->where;
}

int store_begin(struct store *s, struct err *err)
{
	if (s->in_tx)
		return err_setc(err, ERR_GENERIC, "nested transaction in %s",
				s->where);
	/* A connection lost (a server restart): refused as such, never
	 * half-done; the UI reconnects on its own, and a command run again
	 * opens a new one. */
	if (!store_connected(s))
		return err_setc(err, ERR_IO,
				"nothing was changed: %s unreachable (the "
				"connection was lost)",
				s->where);
	if (s->sealer && s->sealer->ready)
		s->sealer->ready(s->sealer->data);
	if (s->eng->begin(s) < 0)
		return store_dberr(s, err, "cannot start a transaction");
	s->in_tx = true;
	return 0;
}

int store_commit(struct store *s, struct err *err)
{
	if (s->eng->commit(s) < 0) {
		int r = store_dberr(s, err, "cannot commit");
		store_rollback(s);
		return r;
	}
	s->in_tx = false;
	return 0;
}

void store_rollback(struct store *s)
{
	s->eng->rollback(s);
	s->in_tx = false;
}

unsigned long store_round_trips(struct store *s)
{
	return s->eng->round_trips ? s->eng->round_trips(s) : 0;
}

bool store_in_tx(const struct store *s)
{
	return s->in_tx;
}

/* A statement whose result nothing reads: sent without a wait where
 * the engine can (db.h's send_sql), else run. */
static int send_sql(struct store *s, const char *sql, const char *what)
{
	return s->eng->send_sql ? s->eng->send_sql(s, sql, what)
				: s->eng->exec(s, sql);
}

int store_savepoint(struct store *s, struct err *err)
{
	if (send_sql(s, "SAVEPOINT unit", "cannot start a savepoint") < 0)
		return store_dberr(s, err, "cannot start a savepoint");
	return 0;
}

int store_savepoint_release(struct store *s, struct err *err)
{
	if (send_sql(s, "RELEASE SAVEPOINT unit",
		     "cannot release a savepoint") < 0)
		return store_dberr(s, err, "cannot release a savepoint");
	return 0;
}

void store_savepoint_rollback(struct store *s)
{
	send_sql(s, "ROLLBACK TO SAVEPOINT unit",
		 "cannot roll back a savepoint");
	send_sql(s, "RELEASE SAVEPOINT unit", "cannot release a savepoint");
}

int store_check(struct store *s, struct err *err)
{
	return s->eng->check(s, err);
}

int store_schema_found(struct store *s)
{
	return s->found_version;
}

int store_schema_version(struct store *s)
{
	return s->eng->schema_version(s);
}

char *store_whoami(struct store *s)
{
	return s->eng->whoami(s);
}

int store_watch_fd(struct store *s)
{
	return s->eng->watch_fd(s);
}

bool store_poll_changed(struct store *s)
{
	return s->eng->poll_changed(s);
}

bool store_connected(struct store *s)
{
	return !s->eng->connected || s->eng->connected(s);
}

int store_reconnect(struct store *s, struct err *err)
{
	if (!s->eng->reconnect || s->eng->reconnect(s) == 0)
		return 0;
	return store_dberr(s, err, "cannot reconnect");
}
