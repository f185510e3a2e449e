/*
 * The embargo policy (policy.c): one rule for every date change, from
 * the kernel's security-bugs.rst (7 days by default, 14 at most).
 */
#ifndef SECTEAM_CORE_POLICY_H
#define SECTEAM_CORE_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/session.h"
#include "store/types.h"
#include "util/util.h"

struct config;

struct policy {
	long default_days; /* policy.default_days, 7 */
	long max_days; /* policy.max_days, 14 */
};
void policy_from_config(const struct config *cfg, struct policy *p);

enum policy_verdict {
	POLICY_OK, /* within the default */
	POLICY_NEEDS_REASON, /* past the default: needs a reason */
	POLICY_REFUSED, /* past the maximum: needs override + reason */
	POLICY_PUBLIC, /* already public: the policy date is now */
};
struct policy_answer {
	enum policy_verdict verdict;
	bool allowed; /* with the reason/override given */
	time_t clock_start; /* release_started, else received */
	time_t default_limit; /* last second of the default's last day */
	time_t max_limit; /* last second of the maximum's last day */
	time_t policy_date; /* latest date allowed without a reason
				 * (now for a public report) */
	long days; /* calendar days from the clock start */
	char msg[512]; /* why, naming the report: for errors and
				 * notes */
};
/* The one policy function: classifies `proposed` for report r and says in
 * out whether it is allowed given has_reason/override.  Never fails. */
enum policy_verdict policy_check(const struct policy *p, const struct report *r,
				 time_t proposed, bool has_reason,
				 bool override, time_t now,
				 struct policy_answer *out);
const char *policy_verdict_name(enum policy_verdict v);
/* The clock start: the release process's start, else the receipt. */
time_t policy_clock_start(const struct report *r);
/* The last second of the default's last day from clock_start (what
 * policy_check calls default_limit), without the rest of its answer. */
time_t policy_default_limit(const struct policy *p, time_t clock_start);
/* The policy's answer to a vendor's NDA request (static text). */
const char *policy_nda_answer(void);
/* Counts Monday..Friday days (UTC) after a's day up to b's day. */
long working_days_between(time_t a, time_t b);

#endif
