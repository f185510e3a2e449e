/*
 * What is due (due.c): the one rule behind `due`, its reminders (`due
 * --mail`) and anything else that asks what needs an officer now.
 *
 * For every open report: its deadline (embargo.c: the decided date, else
 * the policy's default) when it passed or falls within the window; a
 * reporter with no reply after DUE_REPORTER_DAYS working days; each
 * vendor notified and silent for DUE_VENDOR_SILENT_DAYS working days;
 * each participant brought in and not acknowledged after
 * DUE_PARTICIPANT_DAYS working days.  And every disclosed report whose
 * CVE ID is reserved with no record published.  Working days are Monday
 * to Friday, UTC (policy.h).
 */
#ifndef SECTEAM_CORE_DUE_H
#define SECTEAM_CORE_DUE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/session.h"
#include "store/types.h"
#include "util/util.h"

#define DUE_VENDOR_SILENT_DAYS 5
#define DUE_PARTICIPANT_DAYS 2
#define DUE_REPORTER_DAYS 2
#define DUE_WITHIN_DEFAULT (2 * 86400L)

enum due_kind {
	DUE_OVERDUE, /* the decided date passed */
	DUE_SOON, /* the decided date is within the window */
	DUE_UNDATED_OVERDUE, /* no date decided, the policy's passed */
	DUE_UNDATED_SOON, /* no date decided, the policy's is near */
	DUE_REPORTER_WAITING,
	DUE_VENDOR_SILENT,
	DUE_PARTICIPANT_UNACKED,
	DUE_CVE_UNPUBLISHED,
};

struct due_item {
	enum due_kind kind;
	const struct report *report;
	size_t report_index; /* the same, as an index into d->reports */
	time_t date; /* the deadline; when notified, brought in, received;
		       * the disclosure date for a CVE */
	long days; /* a deadline's days from now (negative: past); the
		       * working days since, for the others */
	const struct report_vendor *vendor; /* VENDOR_SILENT */
	const struct pending_participant *participant; /* PARTICIPANT_UNACKED */
	char *cves; /* CVE_UNPUBLISHED: the IDs reserved, ", " between */
};

struct due {
	time_t now;
	long within;
	struct due_item *v; /* each report's items together, the reports
			       * in deadline order (report_each) */
	size_t n;
	/* What the items point into. */
	struct report *reports;
	size_t nreports;
	struct report_vendor *vendors;
	size_t nvendors;
	struct pending_participant *parts;
	size_t nparts;
};

/* What is due at now with a window of within seconds ahead, into *d
 * (release it either way).  Negative, with err, when the store fails. */
int due_compute(struct session *sess, time_t now, long within, struct due *d,
		struct err *err);
void due_release(struct due *d);
/* "overdue", "due", "undated-overdue", "undated-due", "reporter-waiting",
 * "vendor-silent", "participant-unacknowledged", "cve-unpublished". */
const char *due_kind_name(enum due_kind k);
/* True for the four deadline kinds. */
bool due_is_deadline(enum due_kind k);

#endif
