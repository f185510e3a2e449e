/*
 * What is due, computed once (due.h) for `due` and its reminders: the
 * open reports in deadline order, each with what needs an officer now.
 * The reports, vendors and participants are read first; the items point
 * into them, so a caller may send mail or print after the reads are
 * done, with no query open.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/fixcve.h"
#include "store/store.h"

struct due_run {
	struct due *d;
	struct policy pol;
	struct report_milestones *ms;
	size_t nms;
};

static const char *const kind_names[] = {
	[DUE_OVERDUE] = "overdue",
	[DUE_SOON] = "due",
	[DUE_UNDATED_OVERDUE] = "undated-overdue",
	[DUE_UNDATED_SOON] = "undated-due",
	[DUE_REPORTER_WAITING] = "reporter-waiting",
	[DUE_VENDOR_SILENT] = "vendor-silent",
	[DUE_PARTICIPANT_UNACKED] = "participant-unacknowledged",
	[DUE_CVE_UNPUBLISHED] = "cve-unpublished",
};

const char *due_kind_name(enum due_kind k)
{
	return kind_names[k];
}

bool due_is_deadline(enum due_kind k)
{
	return k == DUE_OVERDUE || k == DUE_SOON || k == DUE_UNDATED_OVERDUE ||
		k == DUE_UNDATED_SOON;
}

/* An item of report index ri (its pointer is set once the reports stop
 * moving: due_compute). */
static struct due_item *add(struct due *d, enum due_kind kind, size_t ri,
			    time_t date, long days)
{
	struct due_item *it;

	d->v = xrealloc(d->v, (d->n + 1) * sizeof(*d->v));
	it = &d->v[d->n++];
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	it->report_index = ri;
	it->date = date;
	it->days = days;
	return it;
}

static int by_report(const void *key, const void *elem)
{
	int64_t a = *(const int64_t *)key;
	int64_t b = ((const struct report_milestones *)elem)->report_id;

	return a < b ? -1 : a > b;
}

/* When r's reporter has waited DUE_REPORTER_DAYS working days for a
 * first reply: since when (the receipt), else 0. */
static time_t reporter_waiting(const struct due_run *run,
			       const struct report *r)
{
	const struct report_milestones *m = run->nms
		? bsearch(&r->id, run->ms, run->nms, sizeof(*run->ms),
			  by_report)
		: NULL;

	if ((m && m->replied) || !r->received ||
	    working_days_between(r->received, run->d->now) < DUE_REPORTER_DAYS)
		return 0;
	return r->received;
}

static void deadline(struct due_run *run, size_t ri)
{
	struct due *d = run->d;
	const struct report *r = &d->reports[ri];
	struct embargo e;

	embargo_of_report(&run->pol, r, d->now, &e);
	if (e.decided) {
		if (e.deadline < d->now)
			add(d, DUE_OVERDUE, ri, e.deadline, e.days);
		else if (e.deadline <= d->now + d->within)
			add(d, DUE_SOON, ri, e.deadline, e.days);
	} else if (e.deadline < d->now + d->within) {
		add(d,
		    e.deadline < d->now ? DUE_UNDATED_OVERDUE
					: DUE_UNDATED_SOON,
		    ri, e.deadline, e.days);
	}
}

static int each(const struct report *r, void *data)
{
	struct due_run *run = data;
	struct due *d = run->d;
	size_t ri = d->nreports;
	time_t since;

	d->reports = xrealloc(d->reports, (ri + 1) * sizeof(*d->reports));
	report_copy(&d->reports[ri], r);
	d->nreports++;
	deadline(run, ri);
	if ((since = reporter_waiting(run, r)))
		add(d, DUE_REPORTER_WAITING, ri, since,
		    working_days_between(since, d->now));
	for (size_t i = 0; i < d->nvendors; i++) {
		const struct report_vendor *v = &d->vendors[i];
		long wd;

		if (v->report_id != r->id || strcmp(v->status, "notified") ||
		    !v->notified_at)
			continue;
		wd = working_days_between(v->notified_at, d->now);
		if (wd >= DUE_VENDOR_SILENT_DAYS)
			add(d, DUE_VENDOR_SILENT, ri, v->notified_at, wd)
				->vendor = v;
	}
	for (size_t i = 0; i < d->nparts; i++) {
		const struct pending_participant *p = &d->parts[i];
		long wd;

		if (p->report_id != r->id)
			continue;
		wd = working_days_between(p->added_at, d->now);
		if (wd >= DUE_PARTICIPANT_DAYS)
			add(d, DUE_PARTICIPANT_UNACKED, ri, p->added_at, wd)
				->participant = p;
	}
	return 0;
}

static bool disclosed(const struct report *r, time_t now)
{
	return report_state_class(r->state) == STATE_RELEASED || r->public ||
		(r->disclosure && r->disclosure <= now);
}

/* Disclosed reports with a reserved CVE ID and no published record. */
static int unpublished(struct session *sess, struct due *d, struct err *err)
{
	struct fixcve_row *rows;
	size_t n;
	int rc = 0;

	if (fixcve_all(sess, &rows, &n, err) < 0)
		return -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		const struct fixcve *fc = &rows[i].fc;
		struct sbuf ids = SBUF_INIT;
		struct report r;

		for (size_t k = 0; k < fc->ncves; k++)
			if (!strcmp(fc->cves[k].state, "reserved"))
				sbuf_addf(&ids, "%s%s", ids.len ? ", " : "",
					  fc->cves[k].id);
		if (!ids.len)
			continue;
		if ((rc = report_get(sess, rows[i].report_id, &r, err)) < 0) {
			sbuf_release(&ids);
			break;
		}
		if (disclosed(&r, d->now)) {
			size_t ri = d->nreports;

			d->reports = xrealloc(d->reports,
					      (ri + 1) * sizeof(*d->reports));
			d->reports[d->nreports++] = r;
			add(d, DUE_CVE_UNPUBLISHED, ri, r.disclosure, 0)->cves =
				sbuf_detach(&ids, NULL);
		} else {
			report_release(&r);
		}
		sbuf_release(&ids);
	}
	fixcve_rows_free(rows, n);
	return rc < 0 ? -1 : 0;
}

int due_compute(struct session *sess, time_t now, long within, struct due *d,
		struct err *err)
{
	struct report_filter f = { NULL, true, "deadline", NULL, NULL };
	struct due_run run;
	struct store *s = session_store(sess, err);
	int r = -1;

	memset(d, 0, sizeof(*d));
	memset(&run, 0, sizeof(run));
	d->now = now;
	d->within = within;
	run.d = d;
	if (!s)
		return err->code;
	policy_from_config(sess->cfg, &run.pol);
	if (store_report_vendors_get(s, 0, &d->vendors, &d->nvendors, err) ==
		    0 &&
	    store_participants_unacked(s, 0, &d->parts, &d->nparts, err) == 0 &&
	    store_report_milestones(s, &run.ms, &run.nms, err) == 0 &&
	    report_each(sess, &f, each, &run, err) == 0 &&
	    unpublished(sess, d, err) == 0)
		r = 0;
	free(run.ms);
	/* The reports stopped moving: each item points to its own. */
	for (size_t i = 0; i < d->n; i++)
		d->v[i].report = &d->reports[d->v[i].report_index];
	return r;
}

void due_release(struct due *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i].cves);
	free(d->v);
	for (size_t i = 0; i < d->nreports; i++)
		report_release(&d->reports[i]);
	free(d->reports);
	for (size_t i = 0; i < d->nvendors; i++)
		report_vendor_release(&d->vendors[i]);
	free(d->vendors);
	for (size_t i = 0; i < d->nparts; i++)
		pending_participant_release(&d->parts[i]);
	free(d->parts);
	memset(d, 0, sizeof(*d));
}
