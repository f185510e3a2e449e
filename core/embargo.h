/*
 * The embargo state of a report (embargo.c): the one answer every view
 * and export gives to "is this report still secret, and by when must it
 * be out?".  A report with no decided date still has a deadline: the
 * policy's default limit from its clock start (policy.c), so an undated
 * report whose default passed is overdue, not blank.
 */
#ifndef SECTEAM_EMBARGO_H
#define SECTEAM_EMBARGO_H

#include <stdbool.h>
#include <time.h>

#include "store/types.h"

struct policy;

enum embargo_state {
	EMBARGO_UNDECIDED, /* no date decided; the policy default not passed */
	EMBARGO_EMBARGOED, /* a decided date, not passed */
	EMBARGO_OVERDUE, /* the deadline (decided or the default) passed,
			      * and the report is neither disclosed nor public */
	EMBARGO_PUBLIC, /* already public: the embargo is moot */
	EMBARGO_DISCLOSED, /* disclosed or closed after disclosure */
	EMBARGO_CLOSED, /* rejected or a duplicate: no embargo to keep */
};

struct embargo {
	enum embargo_state state;
	bool decided; /* a disclosure date was decided */
	time_t deadline; /* the decided date, else the policy's default
			      * limit (now for a public report) */
	long days; /* whole days from now to the deadline, rounded
			      * down: -3 is three days overdue */
	bool soon; /* the deadline is less than a day away */
};

/* The embargo state of a report (or of its compact key, which carries
 * the same fields) at `now` under policy p.  Never fails. */
void embargo_of_report(const struct policy *p, const struct report *r,
		       time_t now, struct embargo *out);
void embargo_of_key(const struct policy *p, const struct report_key *k,
		    time_t now, struct embargo *out);
/* "undecided", "embargoed", "overdue", "public", "disclosed", "closed". */
const char *embargo_state_name(enum embargo_state s);
/* True while the report must be kept secret: undecided, embargoed or
 * overdue (an overdue report is still under embargo until disclosed). */
bool embargo_active(const struct embargo *e);
/* One line for exports and the report screen, e.g. "overdue: the policy
 * default 2026-12-08T23:59:59Z passed 3 days ago (no date decided);
 * still under embargo".  Written into buf; returns buf. */
char *embargo_describe(const struct embargo *e, char buf[static 160]);
/* The DUE column: "-3d!" overdue, "+2d?" no date decided (the policy
 * default), "+0d*" due within a day, "+5d" decided, "-" when the
 * embargo is over.  Written into buf; returns buf. */
char *embargo_due(const struct embargo *e, char buf[static 24]);
/* The marks embargo_due() puts after the days, with what each says, for
 * the legends (the UI's help, the man page): overdue, undecided, due
 * within a day, in that order; ends with { NULL, NULL }. */
struct embargo_due_mark {
	const char *mark, *meaning;
};
enum { DUE_MARK_OVERDUE, DUE_MARK_UNDECIDED, DUE_MARK_SOON };
extern const struct embargo_due_mark embargo_due_marks[];

#endif
