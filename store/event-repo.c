/*
 * The event log: who did what, when, to which report.  Only ever appended
 * (triggers in schema.c refuse UPDATE and DELETE); every change elsewhere
 * in store/ is paired with an event in the same transaction by core/.
 */
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"

void event_release(struct event *e)
{
	free(e->officer);
	free(e->kind);
	free(e->detail);
	memset(e, 0, sizeof(*e));
}

int store_event_add(struct store *s, int64_t report_id, const char *officer,
		    const char *kind, const char *detail, struct err *err)
{
	sqlite3_stmt *st = store_stmt(s,
		"INSERT INTO events (report_id, at, officer, kind, detail)"
		" VALUES (?1, ?2, ?3, ?4, ?5)", err);

	if (!st)
		return ERR_IO;
	if (report_id)
		sqlite3_bind_int64(st, 1, report_id);
	else
		sqlite3_bind_null(st, 1);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)util_now());
	store_bind_text(st, 3, officer ? officer : "unknown");
	store_bind_text(st, 4, kind);
	store_bind_text(st, 5, detail ? detail : "");
	if (sqlite3_step(st) != SQLITE_DONE)
		return store_dberr(s, err, "cannot record the event");
	return 0;
}

int store_events_get(struct store *s, int64_t report_id, struct event **out,
		     size_t *n, struct err *err)
{
	sqlite3_stmt *st = store_stmt(s,
		"SELECT id, coalesce(report_id, 0), at, officer, kind, detail FROM events"
		" WHERE ?1 = 0 OR report_id = ?1 ORDER BY id", err);
	int rc;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	sqlite3_bind_int64(st, 1, report_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct event *e;
		*out = xrealloc(*out, (*n + 1) * sizeof(**out));
		e = &(*out)[(*n)++];
		e->id = sqlite3_column_int64(st, 0);
		e->report_id = sqlite3_column_int64(st, 1);
		e->at = (time_t)sqlite3_column_int64(st, 2);
		e->officer = store_col_text(st, 3);
		e->kind = store_col_text(st, 4);
		e->detail = store_col_text(st, 5);
	}
	if (rc != SQLITE_DONE)
		return store_dberr(s, err, "cannot read events");
	return 0;
}

int64_t store_event_count(struct store *s, int64_t report_id)
{
	sqlite3_stmt *st = store_stmt(s,
		"SELECT count(*) FROM events WHERE ?1 = 0 OR report_id = ?1", NULL);
	int64_t n = -1;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, report_id);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return n;
}
