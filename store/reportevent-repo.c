/*
 * The reports' chains as the server keeps them (store.h): signed events,
 * appended and read in the server's order, never changed.  What they say
 * is core's to verify (core/reportchain.c); here they are bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"
#include "store/db.h"

void report_event_row_release(struct report_event_row *r)
{
	free(r->body);
	free(r->sig);
	memset(r, 0, sizeof(*r));
}

static void read_row(struct stmt *st, void *elem)
{
	struct report_event_row *r = elem;

	r->id = db_col_int(st, 0);
	r->report_id = db_col_int(st, 1);
	r->seq = db_col_int(st, 2);
	r->body = db_col_bytes(st, 3, &r->len);
	r->sig = db_col_bytes(st, 4, &r->siglen);
}

static void release_row(void *elem)
{
	report_event_row_release(elem);
}

int store_report_events(struct store *s, int64_t report_id,
			struct report_event_row **out, size_t *n,
			struct err *err)
{
	struct stmt *st = db_stmt(s,
				  "SELECT id, report_id, seq, body, sig"
				  " FROM report_events WHERE report_id = ?1"
				  " ORDER BY id",
				  err);

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	db_int(st, 1, report_id);
	return db_rows(s, st, (void **)out, n, sizeof(**out), read_row,
		       release_row, "cannot read a report's chain", err);
}

int store_report_events_from(struct store *s, int64_t report_id, int64_t from,
			     struct report_event_row **out, size_t *n,
			     struct err *err)
{
	struct stmt *st = db_stmt(s,
				  "SELECT id, report_id, seq, body, sig"
				  " FROM report_events WHERE report_id = ?1"
				  " AND id >= ?2 ORDER BY id",
				  err);

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	db_int(st, 1, report_id);
	db_int(st, 2, from);
	return db_rows(s, st, (void **)out, n, sizeof(**out), read_row,
		       release_row, "cannot read a report's chain", err);
}

int store_report_event_add(struct store *s, int64_t report_id, int64_t after,
			   const unsigned char *body, size_t len,
			   const unsigned char *sig, size_t siglen,
			   struct err *err)
{
	/* Only at the place after the chain's last as its writer read it:
	 * a row anyone slipped in meanwhile (a colleague's, or junk that
	 * no reader uses) makes the writer read the chain again, and a
	 * junk row never holds a place a genuine event needs. */
	struct stmt *st = db_stmt(s,
				  "INSERT INTO report_events"
				  " (report_id, seq, body, sig)"
				  " SELECT ?1, ?2 + 1, ?3, ?4 WHERE coalesce(("
				  "  SELECT max(seq) FROM report_events"
				  "  WHERE report_id = ?1), 0) = ?2"
				  " RETURNING id",
				  err);
	int64_t id = 0;
	int r;

	if (!st)
		return ERR_IO;
	db_int(st, 1, report_id);
	db_int(st, 2, after);
	db_blob(st, 3, body, len);
	db_blob(st, 4, sig, siglen);
	r = db_run(s, st, &id, "cannot append to a report's chain",
		   "a colleague wrote to this report's chain at the same "
		   "time: try again",
		   err);
	if (r == 0 && !id)
		r = err_setc(err, ERR_DUPLICATE,
			     "a colleague wrote to this report's chain at the "
			     "same time: try again");
	return r;
}

static void read_id(struct stmt *st, void *elem)
{
	*(int64_t *)elem = db_col_int(st, 0);
}

int store_report_chain_lock(struct store *s, int64_t report_id, struct err *err)
{
	struct stmt *st;
	int64_t got = 0;

	/* SQLite's one writer holds the whole file already. */
	if (s->kind != STORE_POSTGRESQL)
		return 0;
	/* An advisory lock (any role may take one), in the key space of
	 * the reports' chains (the first key: "SRE" as a number), released
	 * with the transaction. */
	if (!(st = db_stmt(s,
			   "SELECT 1 FROM (SELECT pg_advisory_xact_lock(5460549,"
			   " (?1 % 2147483647)::integer)) AS l",
			   err)))
		return ERR_IO;
	db_int(st, 1, report_id);
	return db_run(s, st, &got, "cannot lock a report's chain", NULL, err);
}

int store_report_chains_any(struct store *s, bool *any, struct err *err)
{
	struct stmt *st =
		db_stmt(s, "SELECT 1 FROM report_events LIMIT 1", err);
	int64_t *v = NULL;
	size_t k = 0;
	int r;

	*any = false;
	if (!st)
		return ERR_IO;
	r = db_rows(s, st, (void **)&v, &k, sizeof(*v), read_id, NULL,
		    "cannot read the reports' chains", err);
	*any = r == 0 && k;
	free(v);
	return r;
}

int store_reports_with_messages(struct store *s, int64_t **ids, size_t *n,
				struct err *err)
{
	struct stmt *st = db_stmt(
		s, "SELECT DISTINCT report_id FROM messages ORDER BY report_id",
		err);

	*ids = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	return db_rows(s, st, (void **)ids, n, sizeof(**ids), read_id, NULL,
		       "cannot list the reports' messages", err);
}
