/*
 * Disclosure dates: proposals (who suggested which date, and why) and
 * decisions (the date an officer set, with the policy's verdict and the
 * reason).  Both are only ever added (triggers in schema.c refuse
 * UPDATE); the current disclosure date is the latest decision.
 */
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"

void proposal_release(struct proposal *p)
{
	free(p->by);
	free(p->reason);
	free(p->officer);
	memset(p, 0, sizeof(*p));
}

void decision_release(struct decision *d)
{
	free(d->verdict);
	free(d->reason);
	free(d->officer);
	memset(d, 0, sizeof(*d));
}

int store_proposal_add(struct store *s, const struct proposal *p,
		       struct err *err)
{
	sqlite3_stmt *st = store_stmt(s,
		"INSERT INTO proposals (report_id, by, date, reason, officer, at)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6)", err);

	if (!st)
		return ERR_IO;
	sqlite3_bind_int64(st, 1, p->report_id);
	store_bind_text(st, 2, p->by);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)p->date);
	store_bind_text(st, 4, p->reason);
	store_bind_text(st, 5, p->officer ? p->officer : "unknown");
	sqlite3_bind_int64(st, 6, (sqlite3_int64)p->at);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store_dberr(s, err, "cannot store the proposal");
	return 0;
}

int store_proposals_get(struct store *s, int64_t report_id,
			struct proposal **out, size_t *n, struct err *err)
{
	sqlite3_stmt *st = store_stmt(s,
		"SELECT id, report_id, by, date, reason, officer, at FROM proposals"
		" WHERE report_id = ?1 ORDER BY id", err);
	int rc;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	sqlite3_bind_int64(st, 1, report_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct proposal *p;
		*out = xrealloc(*out, (*n + 1) * sizeof(**out));
		p = &(*out)[(*n)++];
		p->id = sqlite3_column_int64(st, 0);
		p->report_id = sqlite3_column_int64(st, 1);
		p->by = store_col_text(st, 2);
		p->date = (time_t)sqlite3_column_int64(st, 3);
		p->reason = store_col_text(st, 4);
		p->officer = store_col_text(st, 5);
		p->at = (time_t)sqlite3_column_int64(st, 6);
	}
	if (rc != SQLITE_DONE)
		return store_dberr(s, err, "cannot read proposals");
	return 0;
}

int store_decision_add(struct store *s, const struct decision *d,
		       struct err *err)
{
	sqlite3_stmt *st = store_stmt(s,
		"INSERT INTO decisions (report_id, date, verdict, reason, override,"
		" officer, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", err);

	if (!st)
		return ERR_IO;
	sqlite3_bind_int64(st, 1, d->report_id);
	sqlite3_bind_int64(st, 2, (sqlite3_int64)d->date);
	store_bind_text(st, 3, d->verdict);
	store_bind_text(st, 4, d->reason);
	sqlite3_bind_int(st, 5, d->override);
	store_bind_text(st, 6, d->officer ? d->officer : "unknown");
	sqlite3_bind_int64(st, 7, (sqlite3_int64)d->at);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store_dberr(s, err, "cannot store the decision");
	return 0;
}

int store_decisions_get(struct store *s, int64_t report_id,
			struct decision **out, size_t *n, struct err *err)
{
	sqlite3_stmt *st = store_stmt(s,
		"SELECT id, report_id, date, verdict, reason, override, officer, at"
		" FROM decisions WHERE report_id = ?1 ORDER BY id", err);
	int rc;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	sqlite3_bind_int64(st, 1, report_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct decision *d;
		*out = xrealloc(*out, (*n + 1) * sizeof(**out));
		d = &(*out)[(*n)++];
		d->id = sqlite3_column_int64(st, 0);
		d->report_id = sqlite3_column_int64(st, 1);
		d->date = (time_t)sqlite3_column_int64(st, 2);
		d->verdict = store_col_text(st, 3);
		d->reason = store_col_text(st, 4);
		d->override = sqlite3_column_int(st, 5);
		d->officer = store_col_text(st, 6);
		d->at = (time_t)sqlite3_column_int64(st, 7);
	}
	if (rc != SQLITE_DONE)
		return store_dberr(s, err, "cannot read decisions");
	return 0;
}
