/*
 * The event log: who did what, when, to which report.  Only ever appended
 * (the schema refuses UPDATE and DELETE); every change elsewhere in
 * store/ is paired with an event in the same transaction by core/.  On
 * the team server the officer column is set by the server to the login
 * role, whatever the client sends.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"

void event_release(struct event *e)
{
	free(e->officer);
	free(e->kind);
	free(e->detail);
	free(e->value);
	memset(e, 0, sizeof(*e));
}

void events_free(struct event *ev, size_t n)
{
	for (size_t i = 0; i < n; i++)
		event_release(&ev[i]);
	free(ev);
}

/*
 * An event's detail is sealed, under the report and the kind
 * (an event's id is the server's, drawn as it is stored), except for the
 * kinds whose detail the store itself reads: a state or severity change
 * ("FROM -> TO"), consent and a claim ("claimed by OFFICER"), which the
 * schema applies to the report's row (the row is what its events say),
 * and a duplicate link (a report id), which events_links finds; and a
 * reseal, whose detail is the program's own sentence.  None of these
 * names what the report is about: a claim names only team members.
 * The team's own events (no report: officers and vendors added, keys
 * shared) stay clear: they name no embargo, and `team init` writes them
 * before any officer holds a team key.
 */
bool store_event_detail_clear(const char *kind)
{
	char quoted[64];

	snprintf(quoted, sizeof(quoted), "'%s'", kind);
	return strlen(kind) < sizeof(quoted) - 2 &&
		strstr(EVENT_CLEAR_KINDS, quoted) != NULL;
}

void event_detail_column(char *buf, size_t n, const char *kind)
{
	snprintf(buf, n, "detail:%s", kind);
}

int store_event_add(struct store *s, int64_t report_id, const char *officer,
		    const char *kind, const char *detail, struct err *err)
{
	return store_event_add_ref(s, report_id, officer, kind, detail, 0, NULL,
				   err);
}

/* An event's detail about report_id as stored: *sealed (the caller's)
 * when its kind's details are sealed, else NULL (detail goes as it is).
 * ERR_CRYPTO when it cannot be sealed. */
static int detail_sealed(struct store *s, int64_t report_id, const char *kind,
			 const char *detail, char **sealed, struct err *err)
{
	char col[96];
	bool failed = false;

	*sealed = NULL;
	if (!report_id || !detail || !*detail || store_event_detail_clear(kind))
		return 0;
	event_detail_column(col, sizeof(col), kind);
	*sealed = store_seal_field(s, "events", col, report_id, detail, &failed,
				   err);
	return failed ? ERR_CRYPTO : 0;
}

int store_event_add_ref(struct store *s, int64_t report_id, const char *officer,
			const char *kind, const char *detail, int64_t ref,
			const char *value, struct err *err)
{
	return store_event_add_row(s, report_id, officer, kind, detail, ref,
				   value, NULL, err);
}

void store_set_event_hook(struct store *s, const struct store_event_hook *h)
{
	s->hook = h;
}

/* The event hook's after for the row just written as id. */
static int hook_after(struct store *s, int64_t id, int64_t report_id,
		      const char *kind, const char *detail, int64_t ref,
		      const char *value, const char *row, struct err *err)
{
	struct store_event_written w = { id,  report_id, kind, detail,
					 ref, value,	 row };

	return s->hook->after(s->hook->data, &w, err);
}

int store_event_add_row(struct store *s, int64_t report_id, const char *officer,
			const char *kind, const char *detail, int64_t ref,
			const char *value, const char *row, struct err *err)
{
	bool hooked = s->hook && report_id;
	struct stmt *st;
	int64_t id = 0;
	char *sealed;
	int r;

	if (hooked && (r = s->hook->before(s->hook->data, report_id, err)) < 0)
		return r;
	if ((r = detail_sealed(s, report_id, kind, detail, &sealed, err)) < 0)
		return r;
	if (!(st = db_stmt(
		      s,
		      hooked ? "INSERT INTO events (report_id, at, officer, kind,"
			       " detail, ref, value) VALUES (nullif(?1, 0), ?2,"
			       " ?3, ?4, ?5, nullif(?6, 0), ?7) RETURNING id"
			     : "INSERT INTO events (report_id, at, officer, kind,"
			       " detail, ref, value) VALUES (nullif(?1, 0), ?2,"
			       " ?3, ?4, ?5, nullif(?6, 0), ?7)",
		      err))) {
		free(sealed);
		return ERR_IO;
	}
	db_int(st, 1, report_id);
	db_int(st, 2, (int64_t)util_now());
	db_text(st, 3, officer ? officer : "unknown");
	db_text(st, 4, kind);
	db_text(st, 5, sealed ? sealed : detail ? detail : "");
	db_int(st, 6, ref);
	db_text(st, 7, value);
	r = hooked ? db_run(s, st, &id, "cannot record the event", NULL, err)
		   : db_send(s, st, "cannot record the event", err);
	free(sealed);
	if (r == 0 && hooked)
		r = hook_after(s, id, report_id, kind, detail, ref, value, row,
			       err);
	return r;
}

int store_events_add(struct store *s, const int64_t *report_ids, size_t n,
		     const char *officer, const char *kind, const char *detail,
		     struct err *err)
{
	struct sbuf ids = SBUF_INIT, details = SBUF_INIT;
	struct stmt *st;
	int r = 0;

	/* With the hook, each signed as it is written. */
	if (s->kind != STORE_POSTGRESQL || s->hook) {
		for (size_t i = 0; i < n && r == 0; i++)
			r = store_event_add(s, report_ids[i], officer, kind,
					    detail, err);
		return r;
	}
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char *sealed;

		if ((r = detail_sealed(s, report_ids[i], kind, detail, &sealed,
				       err)) < 0)
			break;
		db_array_int(&ids, report_ids[i]);
		db_array_text(&details, sealed ? sealed : detail ? detail : "");
		free(sealed);
	}
	if (r == 0 &&
	    !(st = db_stmt(s,
			   "INSERT INTO events (report_id, at, officer,"
			   " kind, detail) SELECT u.r, ?3, ?4, ?5, u.d"
			   " FROM unnest(?1::bigint[], ?2::text[])"
			   " AS u(r, d)",
			   err)))
		r = ERR_IO;
	if (r == 0) {
		db_text(st, 1, db_array_end(&ids));
		db_text(st, 2, db_array_end(&details));
		db_int(st, 3, (int64_t)util_now());
		db_text(st, 4, officer ? officer : "unknown");
		db_text(st, 5, kind);
		r = db_send(s, st, "cannot record the events", err);
	}
	sbuf_release(&ids);
	sbuf_release(&details);
	return r;
}

/* The sealed details of events read, opened in place. */
static void open_details(struct store *s, struct event *ev, size_t n)
{
	char col[96];

	for (size_t i = 0; i < n; i++) {
		/* A claim's detail was sealed before the store applied
		 * it: whatever the kind, only a sealed value opens. */
		if (!ev[i].kind)
			continue;
		event_detail_column(col, sizeof(col), ev[i].kind);
		store_open_field(s, "events", col, ev[i].report_id,
				 &ev[i].detail);
	}
}

static void read_id_col(struct stmt *st, void *elem)
{
	*(int64_t *)elem = db_col_int(st, 0);
}

static void read_event(struct stmt *st, void *elem)
{
	struct event *e = elem;

	e->id = db_col_int(st, 0);
	e->report_id = db_col_int(st, 1);
	e->at = (time_t)db_col_int(st, 2);
	e->officer = db_col_str(st, 3);
	e->kind = db_col_str(st, 4);
	e->detail = db_col_str(st, 5);
	e->ref = db_col_int(st, 6);
	e->value = db_col_str(st, 7);
}

static void release_event(void *elem)
{
	event_release(elem);
}

static int events_rows(struct store *s, struct stmt *st, struct event **out,
		       size_t *n, struct err *err)
{
	int r = db_rows(s, st, (void **)out, n, sizeof(**out), read_event,
			release_event, "cannot read events", err);

	if (r == 0)
		open_details(s, *out, *n);
	return r;
}

int store_events_get(struct store *s, int64_t report_id, struct event **out,
		     size_t *n, struct err *err)
{
	struct stmt *st = db_stmt(
		s,
		"SELECT id, coalesce(report_id, 0), at, officer, kind, detail,"
		" coalesce(ref, 0), value FROM events"
		" WHERE ?1 = 0 OR report_id = ?1 ORDER BY id",
		err);

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	db_int(st, 1, report_id);
	return events_rows(s, st, out, n, err);
}

int store_events_kind(struct store *s, int64_t report_id, const char *kind,
		      struct event **out, size_t *n, struct err *err)
{
	/* events_report finds the report's; the server keeps those of the
	 * kind, and only they are sent and opened. */
	struct stmt *st = db_stmt(
		s,
		"SELECT id, coalesce(report_id, 0), at, officer, kind, detail,"
		" coalesce(ref, 0), value FROM events"
		" WHERE report_id = ?1 AND kind = ?2 ORDER BY id",
		err);

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	db_int(st, 1, report_id);
	db_text(st, 2, kind);
	return events_rows(s, st, out, n, err);
}

int store_events_fixcve(struct store *s, int64_t report_id, struct event **out,
			size_t *n, struct err *err)
{
	struct stmt *st = db_stmt(
		s,
		"SELECT id, coalesce(report_id, 0), at, officer, kind, detail,"
		" coalesce(ref, 0), value FROM events"
		" WHERE report_id IS NOT NULL AND (?1 = 0 OR report_id = ?1)"
		" AND (kind = 'fix' OR kind LIKE 'fix-%' OR kind LIKE 'cve-%')"
		" ORDER BY report_id, id",
		err);

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	db_int(st, 1, report_id);
	return events_rows(s, st, out, n, err);
}

int store_events_fixcve_page(struct store *s, const int64_t *ids, size_t n,
			     struct event **out, size_t *nout, struct err *err)
{
	int rc = db_rows_ids(
		s,
		"SELECT id, coalesce(report_id, 0), at, officer, kind, detail,"
		" coalesce(ref, 0), value FROM events WHERE report_id IN (" DB_IDS
		")"
		" AND (kind = 'fix' OR kind LIKE 'fix-%' OR kind LIKE 'cve-%')"
		" ORDER BY report_id, id",
		ids, n, (void **)out, nout, sizeof(**out), read_event,
		release_event, "cannot read events", err);

	if (rc == 0)
		open_details(s, *out, *nout);
	return rc;
}

int store_events_linked(struct store *s, const char *detail, struct event **out,
			size_t *n, struct err *err)
{
	/* The kind is written out, not bound: so the partial index
	 * events_links (schema-*.c) finds the reports; events_report their
	 * events. */
	struct stmt *st = db_stmt(
		s,
		"SELECT id, coalesce(report_id, 0), at, officer, kind, detail,"
		" coalesce(ref, 0), value FROM events"
		" WHERE kind = 'duplicate-of' AND report_id IN (SELECT report_id FROM events"
		"  WHERE kind = 'duplicate-of' AND detail = ?1 AND report_id IS NOT NULL)"
		" ORDER BY report_id, id",
		err);

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	db_text(st, 1, detail);
	return events_rows(s, st, out, n, err);
}

static void read_milestones(struct stmt *st, void *elem)
{
	struct report_milestones *m = elem;

	m->report_id = db_col_int(st, 0);
	m->triaged = (time_t)db_col_int(st, 1);
	m->fixed = (time_t)db_col_int(st, 2);
	m->disclosed = (time_t)db_col_int(st, 3);
	m->replied = (time_t)db_col_int(st, 4);
}

int store_report_milestones(struct store *s, struct report_milestones **out,
			    size_t *n, struct err *err)
{
	/* triage.c writes a state change as "FROM -> TO"; reply.c a reply
	 * to the reporter as reply-sent (or reply-plaintext).  The kinds
	 * are those of the partial index events_milestones (schema-*.c),
	 * which covers the query. */
	struct stmt *st = db_stmt(
		s,
		"SELECT report_id,"
		" coalesce(min(CASE WHEN kind = 'state' AND detail LIKE 'new -> %'"
		"  THEN at END), 0),"
		" coalesce(min(CASE WHEN kind = 'fix' OR (kind = 'state'"
		"  AND detail LIKE '% -> fix-ready') THEN at END), 0),"
		" coalesce(min(CASE WHEN kind = 'state' AND detail LIKE '% -> disclosed'"
		"  THEN at END), 0),"
		" coalesce(min(CASE WHEN kind IN ('reply-sent', 'reply-plaintext')"
		"  THEN at END), 0)"
		" FROM events WHERE report_id IS NOT NULL"
		" AND kind IN ('state', 'fix', 'reply-sent', 'reply-plaintext')"
		" GROUP BY report_id ORDER BY report_id",
		err);

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	return db_rows(s, st, (void **)out, n, sizeof(**out), read_milestones,
		       NULL, "cannot read the reports' milestones", err);
}

int64_t store_event_count(struct store *s, int64_t report_id)
{
	struct stmt *st = db_stmt(
		s, "SELECT count(*) FROM events WHERE ?1 = 0 OR report_id = ?1",
		NULL);

	if (!st)
		return -1;
	db_int(st, 1, report_id);
	return db_count(st);
}

int store_event_max(struct store *s, int64_t report_id, int64_t *max,
		    struct err *err)
{
	struct stmt *st = db_stmt(
		s,
		"SELECT coalesce(max(id), 0) FROM events WHERE report_id = ?1",
		err);

	*max = 0;
	if (!st)
		return ERR_IO;
	db_int(st, 1, report_id);
	if ((*max = db_count(st)) < 0)
		return store_dberr(s, err, "cannot read the report's events");
	return 0;
}

/* store_events_since's result as it grows: each report once. */
struct since {
	int64_t last;
	int64_t *ids;
	size_t n, alloc;
};

static int since_row(struct stmt *st, void *data)
{
	struct since *sc = data;
	int64_t rid = db_col_int(st, 1);

	sc->last = db_col_int(st, 0);
	for (size_t i = 0; i < sc->n; i++)
		if (sc->ids[i] == rid)
			return 0;
	if (sc->n == sc->alloc) {
		sc->alloc = sc->alloc ? sc->alloc * 2 : 8;
		sc->ids = xrealloc(sc->ids, sc->alloc * sizeof(*sc->ids));
	}
	sc->ids[sc->n++] = rid;
	return 0;
}

int store_events_since(struct store *s, int64_t after, int64_t *last,
		       int64_t **report_ids, size_t *n, struct err *err)
{
	struct stmt *st = db_stmt(
		s,
		"SELECT id, coalesce(report_id, 0) FROM events WHERE id > ?1"
		" ORDER BY id",
		err);
	struct since sc = { after, NULL, 0, 0 };
	int rc;

	*report_ids = NULL;
	*n = 0;
	*last = after;
	if (!st)
		return ERR_IO;
	db_int(st, 1, after);
	if ((rc = db_each(s, st, since_row, &sc, "cannot read new events",
			  err)) < 0) {
		free(sc.ids);
		return rc;
	}
	*report_ids = sc.ids;
	*n = sc.n;
	*last = sc.last;
	return 0;
}

int store_event_last(struct store *s, int64_t *last, struct err *err)
{
	struct stmt *st =
		db_stmt(s, "SELECT coalesce(max(id), 0) FROM events", err);

	*last = 0;
	if (!st)
		return ERR_IO;
	return db_row(s, st, last, read_id_col, "cannot read the event log",
		      err);
}
