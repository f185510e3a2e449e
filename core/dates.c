/*
 * Disclosure dates, the use cases: propose, set, start the release
 * process.  A date before the report's receipt is refused, one in the
 * past needs --override (check_when).  Every change asks policy_check()
 * (policy.c) and is added,
 * never edited: a proposal records who suggested which date and why (the
 * policy's verdict noted, never refused); a decision records the date an
 * officer set with the verdict, the reason and whether the policy was
 * overridden (refused when the policy does not allow it); the latest
 * decision is the report's date.  The `date` command and the UI's keys
 * both call these.
 */
#include <stdlib.h>
#include <string.h>

#include "core/dates.h"
#include "core/reportchain.h"
#include "store/store.h"

struct date_req {
	int64_t id;
	time_t date, now;
	const char *by, *reason;
	bool override;
	bool past; /* the date is a UTC day before today */
	struct policy pol;
	struct policy_answer ans;
	char *detail;
	int64_t row_id; /* the proposal or decision recorded, or 0 */
	char *row; /* its canonical text (report_row_decision), or NULL */
};

/* A disclosure date before the report's receipt is never right; one in
 * the past (a UTC day before today's) only with --override, which the
 * decision and the event record.  Calendar days, as the policy counts:
 * a bare date (12:00 UTC) on the day of receipt is fine. */
static int check_when(struct date_req *d, const struct report *r,
		      struct err *err)
{
	char a[32], b[32];

	if (days_between(0, d->date) < days_between(0, r->received))
		return err_setc(
			err, ERR_REFUSED,
			"report %lld: the date %s is before the report was received (%s)",
			(long long)d->id, fmt_rfc3339(d->date, a),
			fmt_rfc3339(r->received, b));
	d->past = days_between(0, d->date) < days_between(0, d->now);
	if (d->past && !d->override)
		return err_setc(
			err, ERR_REFUSED,
			"report %lld: the date %s is in the past (now %s); --override records it anyway",
			(long long)d->id, fmt_rfc3339(d->date, a),
			fmt_rfc3339(d->now, b));
	return 0;
}

/* Each step reads the report, checks and records its change, and says
 * in d->detail what the event logs. */
typedef int (*date_step)(struct session *sess, struct date_req *d,
			 struct report *r, struct err *err);

static int propose_step(struct session *sess, struct date_req *d,
			struct report *r, struct err *err)
{
	struct proposal p = { 0,
			      d->id,
			      (char *)d->by,
			      d->date,
			      (char *)d->reason,
			      sess->officer,
			      d->now };
	char when[32];
	int rc;

	if ((rc = check_when(d, r, err)) < 0)
		return rc;
	if (str_starts(d->by, "vendor:")) {
		struct vendor v;
		if ((rc = store_vendor_get(sess->store, d->by + 7, &v, err)) <
		    0)
			return rc;
		vendor_release(&v);
	}
	policy_check(&d->pol, r, d->date, true, false, d->now, &d->ans);
	if ((rc = store_proposal_add(sess->store, &p, &p.id, err)) < 0)
		return rc;
	d->row_id = p.id;
	free(d->row);
	d->row = report_row_proposal(&p);
	d->detail = xasprintf("%s proposed %s (policy: %s%s): %s", d->by,
			      fmt_rfc3339(d->date, when),
			      policy_verdict_name(d->ans.verdict),
			      d->past ? "; in the past, overridden" : "",
			      d->reason);
	return 0;
}

static int set_step(struct session *sess, struct date_req *d, struct report *r,
		    struct err *err)
{
	struct decision dc;
	char when[32];
	int rc;

	if ((rc = check_when(d, r, err)) < 0)
		return rc;
	policy_check(&d->pol, r, d->date, d->reason != NULL, d->override,
		     d->now, &d->ans);
	if (!d->ans.allowed)
		return err_setc(err, ERR_REFUSED, "%s", d->ans.msg);
	dc = (struct decision){ 0,
				d->id,
				d->date,
				(char *)policy_verdict_name(d->ans.verdict),
				(char *)d->reason,
				d->override,
				sess->officer,
				d->now };
	if ((rc = store_decision_add(sess->store, &dc, &dc.id, err)) < 0)
		return rc;
	d->row_id = dc.id;
	free(d->row);
	d->row = report_row_decision(&dc);
	d->detail = xasprintf("disclosure date set to %s (policy: %s%s%s)%s%s",
			      fmt_rfc3339(d->date, when),
			      policy_verdict_name(d->ans.verdict),
			      d->override ? ", overridden" : "",
			      d->past ? "; in the past" : "",
			      d->reason ? ": " : "",
			      d->reason ? d->reason : "");
	return 0;
}

static int start_step(struct session *sess, struct date_req *d,
		      struct report *r, struct err *err)
{
	char when[32];

	(void)sess;
	if (r->release_started)
		return err_setc(
			err, ERR_REFUSED,
			"report %lld: the release process started already, at %s",
			(long long)d->id,
			fmt_rfc3339(r->release_started, when));
	/* Its event (apply_step) starts it: the store applies it. */
	r->release_started = d->now;
	policy_check(&d->pol, r, d->now, false, false, d->now, &d->ans);
	d->detail = xasprintf(
		"release process started: the policy clock now runs from %s",
		fmt_rfc3339(d->now, when));
	return 0;
}

/* The step on report d->id, then its event of kind (in core_write's
 * transaction: all or nothing). */
static int apply_step(struct session *sess, struct date_req *d, date_step step,
		      const char *kind, struct err *err)
{
	struct report r;
	int rc;

	if ((rc = store_report_brief(sess->store, d->id, &r, err)) < 0)
		return rc;
	if ((rc = step(sess, d, &r, err)) >= 0)
		rc = store_event_add_row(sess->store, d->id, sess->officer,
					 kind, d->detail, d->row_id, NULL,
					 d->row, err);
	report_release(&r);
	return rc;
}

static int apply_propose(struct session *sess, void *data, struct err *err)
{
	return apply_step(sess, data, propose_step, "date-propose", err);
}

static int apply_set(struct session *sess, void *data, struct err *err)
{
	return apply_step(sess, data, set_step, "date-set", err);
}

static int apply_start(struct session *sess, void *data, struct err *err)
{
	return apply_step(sess, data, start_step, "release-start", err);
}

static bool valid_by(const char *by)
{
	if (!strcmp(by, "reporter") || !strcmp(by, "officer"))
		return true;
	if (str_starts(by, "vendor:"))
		return by[7] != '\0';
	if (str_starts(by, "maintainer:"))
		return strchr(by + 11, '@') != NULL && !strchr(by, ' ');
	return false;
}

/* Runs fn on a request made from the arguments; fills out. */
static int run(struct session *sess, struct date_req *d,
	       int (*fn)(struct session *, void *, struct err *),
	       struct date_outcome *out, struct err *err)
{
	int r;

	d->now = util_now();
	policy_from_config(sess->cfg, &d->pol);
	r = core_write(sess, fn, d, err);
	free(d->row);
	d->row = NULL;
	out->ans = d->ans;
	out->date = d->date;
	out->detail = d->detail;
	return r;
}

int date_propose(struct session *sess, int64_t id, time_t date, const char *by,
		 const char *reason, bool override, struct date_outcome *out,
		 struct err *err)
{
	struct date_req d = { .id = id,
			      .date = date,
			      .by = by,
			      .reason = reason,
			      .override = override };

	memset(out, 0, sizeof(*out));
	if (!by || !valid_by(by))
		return err_setc(
			err, ERR_INVALID,
			"report %lld: --by must be reporter, officer, vendor:NAME or maintainer:EMAIL",
			(long long)id);
	if (!reason || !*reason)
		return err_setc(err, ERR_INVALID,
				"report %lld: a proposal needs a reason",
				(long long)id);
	return run(sess, &d, apply_propose, out, err);
}

int date_set(struct session *sess, int64_t id, time_t date, const char *reason,
	     bool override, struct date_outcome *out, struct err *err)
{
	struct date_req d = {
		.id = id, .date = date, .reason = reason, .override = override
	};

	memset(out, 0, sizeof(*out));
	if (reason && !*reason)
		return err_setc(err, ERR_INVALID, "report %lld: empty reason",
				(long long)id);
	return run(sess, &d, apply_set, out, err);
}

int date_start_release(struct session *sess, int64_t id,
		       struct date_outcome *out, struct err *err)
{
	struct date_req d = { .id = id };

	memset(out, 0, sizeof(*out));
	return run(sess, &d, apply_start, out, err);
}

void date_outcome_release(struct date_outcome *out)
{
	free(out->detail);
	memset(out, 0, sizeof(*out));
}
