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

#endif
