/*
 * Sealing in place what a database from before the sealed record holds
 * in clear (roster reseal, store_reseal_reports): event details, proposal
 * and decision reasons, touched files, vendor notes and statements, and
 * participants.  Each value is sealed exactly as a new one would be (the
 * same table, column and report), so it opens the same way.
 *
 * The record refuses any other change to these rows: the schema lets a
 * clear value become a sealed one of the same length (a sealed value is
 * its text and a fixed 47 bytes, so the server checks that without the
 * key), and nothing else, and on the team server only with the reseal
 * event of that report in the same transaction.  A value already sealed
 * is never rewritten: events, proposals and decisions stay under the
 * generation they were written in (README: the sealed record).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"
#include "store/db.h"

/* One table's clear values for a report. */
struct legacy {
	const char *table; /* the sealed value's table */
	const char *any; /* whether any row of the table holds one */
	const char *select; /* ?1 report: key (int), value, aux */
	const char *update; /* ?1 key, ?2 sealed, ?3 report, ?4 old value */
	const char *pg_update; /* the same on the team server (db_write_sql) */
	const char *
		column; /* the sealed value's column, as its writer names it: */
	enum {
		COL_AS_IS, /* column */
		COL_KIND, /* an event's (event_detail_column), aux its kind */
		COL_VENDOR, /* "note:VENDOR" (rv_column), the key the vendor */
	} how;
};

struct legacy_rows {
	int64_t *key;
	char **value, **aux;
	size_t n;
};

static int legacy_row(struct stmt *st, void *data)
{
	struct legacy_rows *q = data;

	q->key = xrealloc(q->key, (q->n + 1) * sizeof(*q->key));
	q->value = xrealloc(q->value, (q->n + 1) * sizeof(*q->value));
	q->aux = xrealloc(q->aux, (q->n + 1) * sizeof(*q->aux));
	q->key[q->n] = db_col_int(st, 0);
	q->value[q->n] = db_col_str(st, 1);
	q->aux[q->n] = db_col_str(st, 2);
	q->n++;
	return 0;
}

/* The column row's value is sealed under, as its writer seals a new
 * one; false when this row's value stays clear (an event kind the
 * server reads). */
static bool column_of(const struct legacy *t, int64_t key, const char *aux,
		      char *buf, size_t n)
{
	switch (t->how) {
	case COL_KIND:
		if (!aux || store_event_detail_clear(aux))
			return false;
		event_detail_column(buf, n, aux);
		return true;
	case COL_VENDOR:
		rv_column(buf, n, t->column, key);
		return true;
	case COL_AS_IS:
		break;
	}
	snprintf(buf, n, "%s", t->column);
	return true;
}

#define CLEAR(col) \
	" " col " IS NOT NULL AND " col " <> '' AND " col " NOT LIKE 's1:%'"
#define ANY(table, where)                                            \
	"SELECT count(*) FROM (SELECT 1 FROM " table " WHERE " where \
	" LIMIT 1) x"
#define EVENT_SEALED_KINDS \
	" report_id IS NOT NULL AND kind NOT IN " EVENT_CLEAR_KINDS " AND"

#define SEAL_CLEAR(table, column) \
	"SELECT secteam.seal_clear('" table "', '" column "', ?1, ?2, ?3, ?4)"

static const struct legacy tables[] = {
	{ "events", ANY("events", EVENT_SEALED_KINDS CLEAR("detail")),
	  "SELECT id, detail, kind FROM events WHERE report_id = ?1 AND" CLEAR(
		  "detail"),
	  "UPDATE events SET detail = ?2 WHERE id = ?1 AND report_id = ?3 AND detail = ?4",
	  SEAL_CLEAR("events", "detail"), "detail", COL_KIND },
	{ "proposals", ANY("proposals", CLEAR("by")),
	  "SELECT id, by, NULL FROM proposals WHERE report_id = ?1 AND" CLEAR(
		  "by"),
	  "UPDATE proposals SET by = ?2 WHERE id = ?1 AND report_id = ?3 AND by = ?4",
	  SEAL_CLEAR("proposals", "by"), "by", COL_AS_IS },
	{ "proposals", ANY("proposals", CLEAR("reason")),
	  "SELECT id, reason, NULL FROM proposals WHERE report_id = ?1 AND" CLEAR(
		  "reason"),
	  "UPDATE proposals SET reason = ?2 WHERE id = ?1 AND report_id = ?3 AND reason = ?4",
	  SEAL_CLEAR("proposals", "reason"), "reason", COL_AS_IS },
	{ "decisions", ANY("decisions", CLEAR("reason")),
	  "SELECT id, reason, NULL FROM decisions WHERE report_id = ?1 AND" CLEAR(
		  "reason"),
	  "UPDATE decisions SET reason = ?2 WHERE id = ?1 AND report_id = ?3 AND reason = ?4",
	  SEAL_CLEAR("decisions", "reason"), "reason", COL_AS_IS },
	{ "report_files", ANY("report_files", CLEAR("path")),
	  "SELECT 0, path, NULL FROM report_files WHERE report_id = ?1 AND" CLEAR(
		  "path"),
	  "UPDATE report_files SET path = ?2 WHERE ?1 = 0 AND report_id = ?3 AND path = ?4",
	  SEAL_CLEAR("report_files", "path"), "path", COL_AS_IS },
	{ "report_vendors", ANY("report_vendors", CLEAR("note")),
	  "SELECT vendor_id, note, NULL FROM report_vendors WHERE report_id = ?1 AND" CLEAR(
		  "note"),
	  "UPDATE report_vendors SET note = ?2 WHERE vendor_id = ?1 AND report_id = ?3"
	  " AND note = ?4",
	  SEAL_CLEAR("report_vendors", "note"), "note", COL_VENDOR },
	{ "report_vendors", ANY("report_vendors", CLEAR("statement")),
	  "SELECT vendor_id, statement, NULL FROM report_vendors WHERE report_id = ?1 AND" CLEAR(
		  "statement"),
	  "UPDATE report_vendors SET statement = ?2 WHERE vendor_id = ?1 AND report_id = ?3"
	  " AND statement = ?4",
	  SEAL_CLEAR("report_vendors", "statement"), "statement", COL_VENDOR },
};

static int seal_table(struct store *s, const struct legacy *t,
		      int64_t report_id, bool *changed, struct err *err)
{
	struct legacy_rows q = { NULL, NULL, NULL, 0 };
	struct stmt *st = db_stmt(s, t->select, err);
	char col[96], *sealed;
	bool failed;
	int r;

	if (!st)
		return ERR_IO;
	db_int(st, 1, report_id);
	r = db_each(s, st, legacy_row, &q, "cannot read what to seal", err);
	for (size_t i = 0; r == 0 && i < q.n; i++) {
		if (!column_of(t, q.key[i], q.aux[i], col, sizeof(col)))
			continue;
		if (!(sealed = store_seal_field(s, t->table, col, report_id,
						q.value[i], &failed, err))) {
			r = ERR_CRYPTO;
			break;
		}
		if (!(st = db_stmt(s, db_write_sql(s, t->update, t->pg_update),
				   err))) {
			free(sealed);
			r = ERR_IO;
			break;
		}
		db_int(st, 1, q.key[i]);
		db_text(st, 2, sealed);
		db_int(st, 3, report_id);
		db_text(st, 4, q.value[i]);
		r = db_write(s, st, NULL, "cannot seal a value stored clear",
			     err);
		free(sealed);
		*changed = true;
	}
	for (size_t i = 0; i < q.n; i++) {
		if (q.value[i])
			wipe_free(q.value[i], strlen(q.value[i]));
		free(q.aux[i]);
	}
	free(q.key);
	free(q.value);
	free(q.aux);
	return r;
}

int store_seal_legacy(struct store *s, int64_t report_id, bool *changed,
		      struct err *err)
{
	int r = 0;

	if (!s->sealer)
		return 0;
	/* Asked once a store, a table at a time: a database sealed from
	 * the start (every one made since) then costs a reseal nothing
	 * here.  A row stored clear meanwhile (an older build writing) is
	 * found by the next run. */
	if (s->legacy < 0) {
		s->legacy = 0;
		for (size_t i = 0; i < ARRAY_SIZE(tables); i++) {
			struct stmt *st = db_stmt(s, tables[i].any, err);
			int64_t n = st ? db_count(st) : -1;

			if (n < 0) {
				s->legacy = -1;
				return st
					? store_dberr(
						  s, err,
						  "cannot look for values stored clear")
					: ERR_IO;
			}
			if (n)
				s->legacy |= 1 << i;
		}
	}
	for (size_t i = 0; r == 0 && i < ARRAY_SIZE(tables); i++)
		if (s->legacy & (1 << i))
			r = seal_table(s, &tables[i], report_id, changed, err);
	if (r == 0)
		r = store_participants_seal_legacy(s, report_id, changed, err);
	return r;
}
