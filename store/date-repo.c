/*
 * Disclosure dates: proposals (who suggested which date, and why) and
 * decisions (the date an officer set, with the policy's verdict and the
 * reason).  Both are only ever added (the schema refuses UPDATE); the
 * current disclosure date is the latest decision.
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

int store_proposal_add(struct store *s, const struct proposal *p, int64_t *id,
		       struct err *err)
{
	struct stmt *st;
	char *by, *reason = NULL;
	bool failed;
	int r;

	/* Who proposed and why are sealed under the report. */
	if (!(by = store_seal_field(s, "proposals", "by", p->report_id, p->by,
				    &failed, err)) &&
	    failed)
		return ERR_CRYPTO;
	if (!(reason = store_seal_field(s, "proposals", "reason", p->report_id,
					p->reason, &failed, err)) &&
	    failed) {
		free(by);
		return ERR_CRYPTO;
	}
	if (!(st = db_stmt(s,
			   "INSERT INTO proposals (report_id, by, date, reason,"
			   " officer, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
			   " RETURNING id",
			   err))) {
		free(by);
		free(reason);
		return ERR_IO;
	}
	db_int(st, 1, p->report_id);
	db_text(st, 2, by);
	db_int(st, 3, (int64_t)p->date);
	db_text(st, 4, reason);
	db_text(st, 5, p->officer ? p->officer : "unknown");
	db_int(st, 6, (int64_t)p->at);
	r = db_run(s, st, id, "cannot store the proposal", NULL, err);
	free(by);
	free(reason);
	return r;
}

static void read_proposal(struct stmt *st, void *elem)
{
	struct proposal *p = elem;

	db_cols(st, "IIstsst", &p->id, &p->report_id, &p->by, &p->date,
		&p->reason, &p->officer, &p->at);
}

static void release_proposal(void *elem)
{
	proposal_release(elem);
}

int store_proposals_get(struct store *s, int64_t report_id,
			struct proposal **out, size_t *n, struct err *err)
{
	struct stmt *st = db_stmt(
		s,
		"SELECT id, report_id, by, date, reason, officer, at FROM proposals"
		" WHERE report_id = ?1 ORDER BY id",
		err);
	int r;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	db_int(st, 1, report_id);
	if ((r = db_rows(s, st, (void **)out, n, sizeof(**out), read_proposal,
			 release_proposal, "cannot read proposals", err)) < 0)
		return r;
	for (size_t i = 0; i < *n; i++) {
		store_open_field(s, "proposals", "by", report_id,
				 &(*out)[i].by);
		store_open_field(s, "proposals", "reason", report_id,
				 &(*out)[i].reason);
	}
	return 0;
}

int store_decision_add(struct store *s, const struct decision *d, int64_t *id,
		       struct err *err)
{
	struct stmt *st;
	char *reason;
	bool failed;
	int r;

	if (!(reason = store_seal_field(s, "decisions", "reason", d->report_id,
					d->reason, &failed, err)) &&
	    failed)
		return ERR_CRYPTO;
	if (!(st = db_stmt(
		      s,
		      "INSERT INTO decisions (report_id, date, verdict, reason,"
		      " override, officer, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
		      " RETURNING id",
		      err))) {
		free(reason);
		return ERR_IO;
	}
	db_int(st, 1, d->report_id);
	db_int(st, 2, (int64_t)d->date);
	db_text(st, 3, d->verdict);
	db_text(st, 4, reason);
	db_int(st, 5, d->override);
	db_text(st, 6, d->officer ? d->officer : "unknown");
	db_int(st, 7, (int64_t)d->at);
	r = db_run(s, st, id, "cannot store the decision", NULL, err);
	free(reason);
	return r;
}

static void read_decision(struct stmt *st, void *elem)
{
	struct decision *d = elem;

	d->id = db_col_int(st, 0);
	d->report_id = db_col_int(st, 1);
	d->date = (time_t)db_col_int(st, 2);
	d->verdict = db_col_str(st, 3);
	d->reason = db_col_str(st, 4);
	d->override = db_col_int(st, 5);
	d->officer = db_col_str(st, 6);
	d->at = (time_t)db_col_int(st, 7);
}

static void release_decision(void *elem)
{
	decision_release(elem);
}

int store_decisions_get(struct store *s, int64_t report_id,
			struct decision **out, size_t *n, struct err *err)
{
	struct stmt *st = db_stmt(
		s,
		"SELECT id, report_id, date, verdict, reason, override, officer, at"
		" FROM decisions WHERE report_id = ?1 ORDER BY id",
		err);
	int r;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	db_int(st, 1, report_id);
	if ((r = db_rows(s, st, (void **)out, n, sizeof(**out), read_decision,
			 release_decision, "cannot read decisions", err)) < 0)
		return r;
	for (size_t i = 0; i < *n; i++)
		store_open_field(s, "decisions", "reason", report_id,
				 &(*out)[i].reason);
	return 0;
}
