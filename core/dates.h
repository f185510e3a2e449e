/*
 * Disclosure dates, the use cases (dates.c), for the `date` command and
 * the UI: propose a date, set it, start the release process.  Each checks
 * the policy (policy.c), stores the change and its event in one
 * transaction, and says how the policy answered.
 */
#ifndef SECTEAM_DATES_H
#define SECTEAM_DATES_H

#include "core/core.h"

struct date_outcome {
	struct policy_answer ans; /* the policy on the date, now */
	time_t date; /* the date proposed or set */
	char *detail; /* the event's text (untrusted parts) */
};
void date_outcome_release(struct date_outcome *out);

/*
 * Both refuse (ERR_REFUSED, naming the report and the dates; nothing
 * written) a date on a UTC day before the report's receipt, and one on
 * a day before today unless override (then recorded as overridden).
 */
/* Records that `by` (reporter, officer, vendor:NAME, maintainer:EMAIL)
 * proposes date for report id, for reason (required).  Never refused by
 * the policy (out->ans says what it thinks).  ERR_INVALID for a bad `by`
 * or no reason, ERR_NOTFOUND for no such report or vendor. */
int date_propose(struct session *sess, int64_t id, time_t date, const char *by,
		 const char *reason, bool override, struct date_outcome *out,
		 struct err *err);
/* Sets report id's disclosure date; ERR_REFUSED with the policy's words
 * when it needs a reason (past the default) or an override and a reason
 * (past the maximum) it was not given.  Nothing is written then. */
int date_set(struct session *sess, int64_t id, time_t date, const char *reason,
	     bool override, struct date_outcome *out, struct err *err);
/* Starts the release process now: the policy clock runs from here.
 * ERR_REFUSED when it was started already. */
int date_start_release(struct session *sess, int64_t id,
		       struct date_outcome *out, struct err *err);

#endif
