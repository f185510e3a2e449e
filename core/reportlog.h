/*
 * The reports' chains as this client writes and reads them on a team
 * server (core/reportchain.h verifies; this is where the session, the
 * store and the team key meet it).  Nothing on SQLite, whose one officer
 * is the only writer of their own file.
 */
#ifndef SECTEAM_REPORTLOG_H
#define SECTEAM_REPORTLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/report.h"
#include "core/session.h"
#include "store/store.h"

/* What an import brings in, for its signed event. */
struct report_log_import {
	int64_t report;
	bool made; /* the message made the report */
	const struct message *m; /* its row as stored (id set) */
	const enum sig_verdict *sig_verdicts;
	const char *const *sig_fprs;
	const time_t *sig_created;
	size_t nsigs;
	char *const *files; /* the paths it counts for the report */
	size_t nfiles;
};

/* The importing officer's signed event for in, appended inside the
 * import's transaction (after a checkpoint taking in what a team
 * database from before the reports' chains held, on this officer's
 * word, the first time). */
int report_log_import(struct session *sess, const struct report_log_import *in,
		      struct err *err);

/* Drops from rf every row no verified event of its report accounts for
 * (its messages, its subject and reporter, its files), each named once
 * in rf->hidden.  0, or negative with err when the chains cannot be
 * read. */
int report_log_account(struct session *sess, struct report_full *rf,
		       struct err *err);

/* The event hook (store_set_event_hook; data is the session): before
 * an events row about report, its chain takes in the timeline from
 * before its changes were signed, once (and, on a team database from
 * before the reports' chains, every report's rows, as an import
 * would); after it, the officer's signed change binding the row. */
int report_log_before(void *data, int64_t report, struct err *err);
int report_log_after(void *data, const struct store_event_written *w,
		     struct err *err);

/* Whether the row of another table that rf's report names (a decision
 * or a proposal: its id, its canonical text, reportchain.h) is recorded
 * by a verified change of kind ("date-set", "date-propose"); true where
 * rf has no verified chain (SQLite). */
bool report_log_row_signed(struct session *sess, const struct report_full *rf,
			   const char *kind, int64_t id, const char *text);

/* Drops from *dc and *p (rf's report's decisions and proposals, as
 * read) those its verified chain does not record: a change of kind
 * "date-set" or "date-propose" naming the row (report_log_row_signed),
 * or the taking in of those from before its changes were signed, as
 * they were then.  rf->r.disclosure becomes the latest kept decision's
 * date.  Each dropped row is named in rf->hidden when say.  Nothing
 * where rf has no verified chain. */
void report_log_dates(struct session *sess, struct report_full *rf,
		      struct decision **dc, size_t *nd, struct proposal **p,
		      size_t *np, bool say);
/* The same filter, naming nothing and leaving rf as it is. */
void report_log_dates_quiet(struct session *sess, const struct report_full *rf,
			    struct decision *dc, size_t *nd, struct proposal *p,
			    size_t *np);
/* Report report's events rows, oldest first, that its verified chain
 * accounts for (on a team server; elsewhere, or before its timeline
 * was taken in, all of them as stored): what a rule reading the
 * timeline (a participant's key, acknowledgement, removal) believes.
 * *held (when not NULL): whether they were held to its signed changes. */
int report_log_events(struct session *sess, int64_t report, struct event **out,
		      size_t *n, bool *held, struct err *err);

#endif
