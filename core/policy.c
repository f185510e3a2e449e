/*
 * The embargo policy: one function, policy_check(), answers every
 * disclosure date change (date set, date propose, show --json, due, the
 * UI, exports).  The rule, from the kernel's security-bugs.rst:
 *
 *   The clock starts at the report's receipt, or at the start of the
 *   release process once that is recorded.  Days are calendar days in
 *   UTC: day N is the UTC calendar day N days after the clock start's UTC
 *   day, whatever the time of day.  So a local-time DST change never
 *   moves a limit, and 29 February is a day like any other.
 *     day <= policy.default_days (7)   ok
 *     day <= policy.max_days (14)      needs a recorded reason
 *     later                            refused unless --override --reason
 *   An already public report's policy date is now: today (UTC) or earlier
 *   is fine, a later date needs --override --reason like one past the
 *   maximum.
 *
 * Proposals are classified with the same function but never refused.
 */
#include <stdio.h>
#include <string.h>

#include "core/core.h"

#define DAY 86400L

void policy_from_config(const struct config *cfg, struct policy *p)
{
	p->default_days = config_get_long(cfg, "policy.default_days", 7);
	p->max_days = config_get_long(cfg, "policy.max_days", 14);
	if (p->default_days < 0)
		p->default_days = 0;
	if (p->max_days < p->default_days)
		p->max_days = p->default_days;
}

const char *policy_verdict_name(enum policy_verdict v)
{
	switch (v) {
	case POLICY_OK:
		return "ok";
	case POLICY_NEEDS_REASON:
		return "needs-reason";
	case POLICY_REFUSED:
		return "refused";
	case POLICY_PUBLIC:
		return "public";
	}
	return "ok";
}

const char *policy_nda_answer(void)
{
	return "the security team cannot enter non-disclosure agreements; "
	       "the vendor may take part under the embargo policy only";
}

/* The UTC calendar day number of t (day 0 = 1970-01-01). */
static long utc_day(time_t t)
{
	return days_between(0, t);
}

static char *ymd(time_t t, char buf[static 32])
{
	fmt_rfc3339(t, buf);
	buf[10] = '\0';
	return buf;
}

time_t policy_clock_start(const struct report *r)
{
	return r->release_started ? r->release_started : r->received;
}

time_t policy_default_limit(const struct policy *p, time_t clock_start)
{
	return (time_t)((utc_day(clock_start) + p->default_days + 1) * DAY - 1);
}

enum policy_verdict policy_check(const struct policy *p, const struct report *r,
				 time_t proposed, bool has_reason,
				 bool override, time_t now,
				 struct policy_answer *out)
{
	time_t start = policy_clock_start(r);
	long start_day = utc_day(start);
	long days = utc_day(proposed) - start_day;
	char d[32], s[32], n[32];
	const char *clock = r->release_started ? "release started" : "received";

	memset(out, 0, sizeof(*out));
	out->clock_start = start;
	out->default_limit = policy_default_limit(p, start);
	out->max_limit = (time_t)((start_day + p->max_days + 1) * DAY - 1);
	out->policy_date = out->default_limit;
	out->days = days;
	ymd(proposed, d);
	ymd(start, s);

	if (r->public) {
		out->verdict = POLICY_PUBLIC;
		out->policy_date = now;
		out->allowed = utc_day(proposed) <= utc_day(now) ||
			(override && has_reason);
		snprintf(
			out->msg, sizeof(out->msg),
			"report %lld is already public: the policy date is now (%s)%s",
			(long long)r->id, ymd(now, n),
			utc_day(proposed) <= utc_day(now) ? ""
				: override && has_reason
				? "; later date overridden"
				: "; a later date needs --override --reason");
	} else if (days <= p->default_days) {
		out->verdict = POLICY_OK;
		out->allowed = true;
		snprintf(
			out->msg, sizeof(out->msg),
			"report %lld: date %s is %ld days after the clock start (%s %s), within the default of %ld",
			(long long)r->id, d, days, clock, s, p->default_days);
	} else if (days <= p->max_days) {
		out->verdict = POLICY_NEEDS_REASON;
		out->allowed = has_reason;
		snprintf(
			out->msg, sizeof(out->msg),
			"report %lld: date %s is %ld days after the clock start (%s %s), past the default of %ld%s",
			(long long)r->id, d, days, clock, s, p->default_days,
			has_reason ? "" : "; give --reason");
	} else {
		out->verdict = POLICY_REFUSED;
		out->allowed = override && has_reason;
		snprintf(
			out->msg, sizeof(out->msg),
			"report %lld: date %s is %ld days after the clock start (%s %s), past the maximum of %ld%s",
			(long long)r->id, d, days, clock, s, p->max_days,
			out->allowed ? "; overridden"
				     : "; use --override --reason");
	}
	return out->verdict;
}

long working_days_between(time_t a, time_t b)
{
	long from = utc_day(a), to = utc_day(b), n = 0;

	if (to - from > 100000)
		to = from + 100000;
	for (long day = from + 1; day <= to; day++) {
		long wd = ((day % 7) + 7 + 4) %
			7; /* 0 = Sunday; day 0 was a Thursday */
		if (wd != 0 && wd != 6)
			n++;
	}
	return n;
}
