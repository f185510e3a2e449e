/*
 * The embargo state: one function, embargo_of(), for the report list's
 * DUE column and its deadline sort, the report screen, the calendar,
 * `list`, `due` and the md/txt/json exports, so none of them can say
 * "over" while another says "OVERDUE".
 *
 * The deadline is the decided disclosure date, or, with none decided,
 * the policy's default limit from the clock start (policy.c); for an
 * already public report with no date, now.  Past the deadline and not
 * disclosed, not public, not closed, a report is overdue: it is still
 * under embargo (nobody published it), and late.
 */
#include <stdio.h>
#include <string.h>

#include "core/core.h"

#define DAY 86400L

static void embargo_of(const struct policy *p, const struct report *r,
		       const char *state, time_t now, struct embargo *out)
{
	memset(out, 0, sizeof(*out));
	out->decided = r->disclosure != 0;
	if (out->decided)
		out->deadline = r->disclosure;
	else if (r->public)
		out->deadline = now;
	else
		out->deadline = policy_default_limit(p, policy_clock_start(r));
	out->days = days_between(now, out->deadline);
	out->soon = out->deadline >= now && out->deadline - now < DAY;
	if (report_state_class(state) == STATE_RELEASED)
		out->state = EMBARGO_DISCLOSED;
	else if (report_state_class(state) == STATE_DROPPED)
		out->state = EMBARGO_CLOSED;
	else if (r->public)
		out->state = EMBARGO_PUBLIC;
	else if (out->deadline < now)
		out->state = EMBARGO_OVERDUE;
	else
		out->state = out->decided ? EMBARGO_EMBARGOED
					  : EMBARGO_UNDECIDED;
}

void embargo_of_report(const struct policy *p, const struct report *r,
		       time_t now, struct embargo *out)
{
	embargo_of(p, r, r->state ? r->state : "new", now, out);
}

void embargo_of_key(const struct policy *p, const struct report_key *k,
		    time_t now, struct embargo *out)
{
	struct report r;

	memset(&r, 0, sizeof(r));
	r.id = k->id;
	r.received = k->received;
	r.release_started = k->release_started;
	r.disclosure = k->disclosure;
	r.public = k->public;
	embargo_of(p, &r, k->state, now, out);
}

const char *embargo_state_name(enum embargo_state s)
{
	switch (s) {
	case EMBARGO_UNDECIDED:
		return "undecided";
	case EMBARGO_EMBARGOED:
		return "embargoed";
	case EMBARGO_OVERDUE:
		return "overdue";
	case EMBARGO_PUBLIC:
		return "public";
	case EMBARGO_DISCLOSED:
		return "disclosed";
	case EMBARGO_CLOSED:
		return "closed";
	}
	return "undecided";
}

bool embargo_active(const struct embargo *e)
{
	return e->state == EMBARGO_UNDECIDED || e->state == EMBARGO_EMBARGOED ||
		e->state == EMBARGO_OVERDUE;
}

char *embargo_describe(const struct embargo *e, char buf[static 160])
{
	char d[32], in[32];
	const char *what = e->decided ? "the disclosure date"
				      : "the policy default";
	const char *undated = e->decided ? "" : " (no date decided)";
	long n = e->days < 0 ? -e->days : e->days;

	fmt_rfc3339(e->deadline, d);
	switch (e->state) {
	case EMBARGO_OVERDUE:
		snprintf(
			buf, 160,
			"overdue: %s %s passed %ld day%s ago%s; still under embargo",
			what, d, n, n == 1 ? "" : "s", undated);
		break;
	case EMBARGO_EMBARGOED:
	case EMBARGO_UNDECIDED:
		snprintf(buf, 160, "%s: %s %s, %s%s; still under embargo",
			 embargo_state_name(e->state), what, d,
			 fmt_in_days(e->days, in), undated);
		break;
	case EMBARGO_PUBLIC:
		snprintf(buf, 160,
			 "public: already public, the embargo is over");
		break;
	case EMBARGO_DISCLOSED:
		snprintf(buf, 160, "disclosed: the embargo is over");
		break;
	case EMBARGO_CLOSED:
		snprintf(buf, 160, "closed: no embargo to keep");
		break;
	}
	return buf;
}

const struct embargo_due_mark embargo_due_marks[] = {
	[DUE_MARK_OVERDUE] = { "!",
			       "overdue: the deadline (decided, or the policy's default) has passed" },
	[DUE_MARK_UNDECIDED] = { "?",
				 "no date decided: the days count to the policy's default" },
	[DUE_MARK_SOON] = { "*", "due within a day" },
	{ NULL, NULL },
};

char *embargo_due(const struct embargo *e, char buf[static 24])
{
	if (!embargo_active(e))
		snprintf(buf, 24, "-");
	else
		snprintf(buf, 24, "%+ldd%s", e->days,
			 e->state == EMBARGO_OVERDUE
				 ? embargo_due_marks[DUE_MARK_OVERDUE].mark
				 : !e->decided
				 ? embargo_due_marks[DUE_MARK_UNDECIDED].mark
				 : e->soon
				 ? embargo_due_marks[DUE_MARK_SOON].mark
				 : "");
	return buf;
}
