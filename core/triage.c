/*
 * The report lifecycle, in one place:
 *
 *   new -> triaged -> accepted | rejected | duplicate
 *   accepted -> fixing -> fix-ready -> disclosed -> closed
 *
 * plus the moves an officer needs in practice: rejecting or marking a
 * duplicate straight from new, a fix that turns out not ready
 * (fix-ready -> fixing), a fix that arrives with the report
 * (accepted -> fix-ready), and closing rejected or duplicate reports.
 * Nothing moves backwards past acceptance or out of closed.
 *
 * triage_apply() is the one use case that changes these fields, for the
 * `triage` command and the UI's keys alike: every change is checked,
 * stored and logged as an event in one transaction.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "store/store.h"

const char *const report_states[] = {
	"new",	  "triaged",   "accepted",  "rejected", "duplicate",
	"fixing", "fix-ready", "disclosed", "closed",	NULL,
};

/* Each state's class, in report_states' order: the one place that says
 * which states are finished. */
static const enum state_class state_classes[] = {
	STATE_OPEN, STATE_OPEN, STATE_OPEN,	STATE_DROPPED,	STATE_DROPPED,
	STATE_OPEN, STATE_OPEN, STATE_RELEASED, STATE_RELEASED,
};

/* The finished states (state_classes), for the store's open_only. */
const char *const report_finished_states[] = {
	"rejected", "duplicate", "disclosed", "closed", NULL,
};

const char *const report_severities[] = {
	"none", "low", "medium", "high", "critical", NULL,
};

/* The severities as listings order them: highest first. */
const char *const report_severity_order[] = {
	"critical", "high", "medium", "low", "none", NULL,
};

static size_t index_in(const char *const *list, const char *s)
{
	size_t i = 0;

	for (; list[i]; i++)
		if (s && !strcmp(list[i], s))
			return i;
	return i;
}

unsigned report_state_rank(const char *state)
{
	return (unsigned)index_in(report_states, state);
}

unsigned report_severity_rank(const char *severity)
{
	return (unsigned)index_in(report_severity_order, severity);
}

enum state_class report_state_class(const char *state)
{
	size_t i = index_in(report_states, state);

	return report_states[i] ? state_classes[i] : STATE_OPEN;
}

bool report_finished(const char *state)
{
	return report_state_class(state) != STATE_OPEN;
}

time_t report_deadline_key(const struct embargo *e)
{
	return embargo_active(e) ? e->deadline : (time_t)INT64_MAX;
}

int report_deadline_cmp(time_t key_a, int64_t id_a, time_t key_b, int64_t id_b)
{
	if (key_a != key_b)
		return key_a < key_b ? -1 : 1;
	return id_a < id_b ? -1 : id_a > id_b;
}

static const struct {
	const char *from;
	const char *to[4];
} transitions[] = {
	{ "new", { "triaged", "rejected", "duplicate", NULL } },
	{ "triaged", { "accepted", "rejected", "duplicate", NULL } },
	{ "accepted", { "fixing", "fix-ready", "rejected", NULL } },
	{ "fixing", { "fix-ready", NULL } },
	{ "fix-ready", { "disclosed", "fixing", NULL } },
	{ "disclosed", { "closed", NULL } },
	{ "rejected", { "closed", "triaged", NULL } },
	{ "duplicate", { "closed", "triaged", NULL } },
	{ "closed", { NULL } },
};

static bool in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

char *triage_moves_text(void)
{
	struct sbuf sb = SBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(transitions); i++) {
		sbuf_addf(&sb, "%s%s ->", i ? "\n" : "", transitions[i].from);
		for (size_t j = 0; transitions[i].to[j]; j++)
			sbuf_addf(&sb, "%s %s", j ? "," : "",
				  transitions[i].to[j]);
		if (!transitions[i].to[0])
			sbuf_adds(&sb, " (none: the end)");
	}
	return sbuf_detach(&sb, NULL);
}

bool triage_state_valid(const char *state)
{
	return state && in_list(report_states, state);
}

char *triage_state_names(const char *sep)
{
	struct sbuf sb = SBUF_INIT;

	for (const char *const *s = report_states; *s; s++) {
		if (s != report_states)
			sbuf_adds(&sb, sep);
		sbuf_adds(&sb, *s);
	}
	return sbuf_detach(&sb, NULL);
}

bool triage_severity_valid(const char *severity)
{
	return severity && in_list(report_severities, severity);
}

int triage_check_transition(const char *from, const char *to, struct err *err)
{
	if (!triage_state_valid(to))
		return err_setc(
			err, ERR_INVALID,
			"unknown state '%s' (new, triaged, accepted, rejected, duplicate, fixing, fix-ready, disclosed, closed)",
			to);
	if (!strcmp(from, to))
		return err_setc(err, ERR_REFUSED, "the report is already %s",
				to);
	for (size_t i = 0; i < ARRAY_SIZE(transitions); i++) {
		struct sbuf sb = SBUF_INIT;
		if (strcmp(transitions[i].from, from))
			continue;
		for (size_t j = 0; transitions[i].to[j]; j++) {
			if (!strcmp(transitions[i].to[j], to)) {
				sbuf_release(&sb);
				return 0;
			}
			sbuf_addf(&sb, "%s%s", j ? ", " : "",
				  transitions[i].to[j]);
		}
		err_setc(err, ERR_REFUSED,
			 "cannot go from %s to %s (from %s: %s)", from, to,
			 from, sb.len ? sb.buf : "no further state");
		sbuf_release(&sb);
		return ERR_REFUSED;
	}
	return err_setc(err, ERR_INVALID, "unknown current state '%s'", from);
}

struct triage_run {
	const struct triage_change *c;
	struct sbuf summary;
};

/* Logs one event and adds its detail to the summary.  The event is the
 * change: the store applies a state, severity, claim, consent or public
 * event to the report's row (or refuses it), nothing else writes it.
 * value is what it sets, typed (the state, the severity, the claimer or
 * "" for a release, "credit" or "exploit", "1" for public): what every
 * client derives the report from (core/reportlog.c); the detail is only
 * shown. */
static int note_value(struct session *sess, struct triage_run *t,
		      const char *kind, char *detail, const char *value,
		      struct err *err)
{
	int rc = store_event_add_ref(sess->store, t->c->id, sess->officer, kind,
				     detail, 0, value, err);

	if (rc == 0)
		sbuf_addf(&t->summary, "%s%s", t->summary.len ? "; " : "",
			  detail);
	free(detail);
	return rc;
}

static int note_event(struct session *sess, struct triage_run *t,
		      const char *kind, char *detail, struct err *err)
{
	return note_value(sess, t, kind, detail, NULL, err);
}

/* A move to disclosed while the decided date is ahead: only with early
 * and a reason, recorded as an "early-disclosure" event.  The date is
 * the team's word to the reporter and the vendors; breaking it is said. */
static int check_early(struct session *sess, struct triage_run *t,
		       const struct report *r, struct err *err)
{
	const struct triage_change *c = t->c;
	time_t now = util_now();
	long long id = (long long)c->id;
	char when[32], in[32];

	if (strcmp(c->state, "disclosed") || !r->disclosure ||
	    r->disclosure <= now)
		return 0;
	fmt_rfc3339(r->disclosure, when);
	/* The date ahead in the one wording every view gives it. */
	fmt_in_days(days_between(now, r->disclosure), in);
	if (!c->early)
		return err_setc(
			err, ERR_REFUSED,
			"report %lld: its decided disclosure date %s is %s; "
			"disclosing before it needs --early --reason TEXT",
			id, when, in);
	return note_event(
		sess, t, "early-disclosure",
		xasprintf("disclosed before the decided date %s (%s): %s", when,
			  in, c->reason),
		err);
}

/* A claim: none when the officer holds the report already; another
 * officer's report only with take, the event naming whom it was taken
 * from. */
static int claim(struct session *sess, struct triage_run *t,
		 const struct report *r, struct err *err)
{
	const char *held = r->claimed_by ? r->claimed_by : "";

	if (!strcmp(held, sess->officer)) {
		sbuf_addf(&t->summary, "%salready claimed by %s",
			  t->summary.len ? "; " : "", held);
		return 0;
	}
	if (*held && !t->c->take)
		return err_setc(
			err, ERR_REFUSED,
			"report %lld is claimed by %s: --claim --take takes "
			"it over",
			(long long)t->c->id, held);
	if (*held)
		return note_value(sess, t, "claim",
				  xasprintf("claimed by %s, taken over from %s",
					    sess->officer, held),
				  sess->officer, err);
	return note_value(sess, t, "claim",
			  xasprintf("claimed by %s", sess->officer),
			  sess->officer, err);
}

/* --- duplicates -------------------------------------------------------*/

#define DUP_KIND \
	"duplicate-of" /* the store's events_links index names it too */

/* The report a duplicate-of event's detail links to ("duplicate of
 * report N", exactly), else 0 (an unlink, or another text). */
static int64_t link_target(const char *detail)
{
	char buf[64];
	long long v;

	if (!detail || sscanf(detail, "duplicate of report %lld", &v) != 1 ||
	    v <= 0)
		return 0;
	snprintf(buf, sizeof(buf), "duplicate of report %lld", v);
	return strcmp(buf, detail) ? 0 : (int64_t)v;
}

int64_t triage_duplicate_of(const struct event *ev, size_t n)
{
	int64_t of = 0;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(ev[i].kind, DUP_KIND))
			of = link_target(ev[i].detail);
	return of;
}

int triage_duplicates(struct session *sess, int64_t id, int64_t **ids,
		      size_t *n, struct err *err)
{
	struct store *s = session_store(sess, err);
	struct event *ev = NULL;
	size_t nev = 0;
	char *detail;
	int rc;

	*ids = xcalloc(1, sizeof(**ids));
	*n = 0;
	if (!s)
		return ERR_IO;
	detail = xasprintf("duplicate of report %lld", (long long)id);
	rc = store_events_linked(s, detail, &ev, &nev, err);
	free(detail);
	/* By report, oldest first: the last event of each report holds. */
	for (size_t i = 0; rc == 0 && i < nev; i++)
		if ((i + 1 == nev || ev[i + 1].report_id != ev[i].report_id) &&
		    link_target(ev[i].detail) == id) {
			*ids = xrealloc(*ids, (*n + 1) * sizeof(**ids));
			(*ids)[(*n)++] = ev[i].report_id;
		}
	events_free(ev, nev);
	return rc;
}

/* The link of report id now (0: none) into *of. */
static int link_of(struct store *s, int64_t id, int64_t *of, struct err *err)
{
	struct event *ev;
	size_t n;
	/* Its duplicate-of events alone: a report's events can be many,
	 * and each is opened. */
	int rc = store_events_kind(s, id, DUP_KIND, &ev, &n, err);

	*of = rc == 0 ? triage_duplicate_of(ev, n) : 0;
	events_free(ev, n);
	return rc;
}

int triage_original(struct session *sess, int64_t of, int64_t *original,
		    struct err *err)
{
	struct store *s = session_store(sess, err);
	int64_t next;
	int rc;

	*original = of;
	if (!s)
		return ERR_IO;
	for (int hops = 0; of && hops < 16; hops++) {
		if ((rc = link_of(s, of, &next, err)) < 0)
			return rc;
		if (!next || next == *original)
			break;
		*original = of = next;
	}
	return 0;
}

/* The move to duplicate, or a new link for a report already one: the
 * report it names exists, is not this one and is no duplicate itself
 * (so links never make a cycle).  Records the link as an event unless
 * it is the one already recorded. */
static int link_duplicate(struct session *sess, struct triage_run *t,
			  const struct report *r, int64_t linked,
			  struct err *err)
{
	const struct triage_change *c = t->c;
	long long id = (long long)c->id, of = (long long)c->of;
	struct report o;
	int64_t theirs;
	int rc;

	if (!c->state && strcmp(r->state, "duplicate"))
		return err_setc(
			err, ERR_REFUSED,
			"report %lld is %s, not a duplicate: --state duplicate "
			"--of %lld marks it one",
			id, r->state, of);
	if (c->of == c->id)
		return err_setc(err, ERR_REFUSED,
				"report %lld cannot be a duplicate of itself",
				id);
	if ((rc = store_report_get(sess->store, c->of, &o, err)) < 0) {
		if (rc == ERR_NOTFOUND)
			err_setc(
				err, ERR_NOTFOUND,
				"report %lld cannot be a duplicate of report %lld: "
				"there is no report %lld",
				id, of, of);
		return rc;
	}
	rc = link_of(sess->store, c->of, &theirs, err);
	if (rc == 0 && theirs == c->id)
		rc = err_setc(
			err, ERR_REFUSED,
			"report %lld cannot be a duplicate of report %lld: "
			"report %lld is itself a duplicate of report %lld",
			id, of, of, id);
	else if (rc == 0 && theirs)
		rc = err_setc(
			err, ERR_REFUSED,
			"report %lld cannot be a duplicate of report %lld: "
			"report %lld is itself a duplicate of report %lld "
			"(--of %lld names the original)",
			id, of, of, (long long)theirs, (long long)theirs);
	else if (rc == 0 && !strcmp(o.state, "duplicate"))
		rc = err_setc(
			err, ERR_REFUSED,
			"report %lld cannot be a duplicate of report %lld: "
			"report %lld is itself a duplicate (of a report not "
			"recorded; triage %lld --of N records it)",
			id, of, of, of);
	report_release(&o);
	if (rc < 0)
		return rc;
	if (linked == c->of) {
		sbuf_addf(&t->summary, "%salready a duplicate of report %lld",
			  t->summary.len ? "; " : "", of);
		return 0;
	}
	return note_event(sess, t, DUP_KIND,
			  xasprintf("duplicate of report %lld", of), err);
}

static int apply(struct session *sess, void *data, struct err *err)
{
	struct triage_run *t = data;
	const struct triage_change *c = t->c;
	struct store *s = sess->store;
	struct report r;
	int64_t linked = 0;
	int rc;

	if ((rc = store_report_brief(s, c->id, &r, err)) < 0)
		return rc;
	/* Only a state change or a link reads the link: a note, a severity
	 * or a claim waits on the server once less inside the write lock. */
	if ((c->state || c->of) && (rc = link_of(s, c->id, &linked, err)) < 0)
		goto out;
	if (c->state && c->checked_from && strcmp(c->checked_from, r.state)) {
		rc = err_setc(
			err, ERR_REFUSED,
			"report %lld moved from %s to %s meanwhile: nothing changed",
			(long long)c->id, c->checked_from, r.state);
		goto out;
	}
	if (c->state) {
		if ((!c->checked_from &&
		     (rc = triage_check_transition(r.state, c->state, err)) <
			     0) ||
		    (rc = check_early(sess, t, &r, err)) < 0 ||
		    (rc = note_value(sess, t, "state",
				     xasprintf("%s -> %s", r.state, c->state),
				     c->state, err)) < 0)
			goto out;
		/* Back to triaged: the link ends (closing keeps it). */
		if (linked && !strcmp(r.state, "duplicate") &&
		    strcmp(c->state, "closed") &&
		    (rc = note_event(
			     sess, t, DUP_KIND,
			     xasprintf("no longer a duplicate of report %lld",
				       (long long)linked),
			     err)) < 0)
			goto out;
	}
	if (c->of && (rc = link_duplicate(sess, t, &r, linked, err)) < 0)
		goto out;
	if (c->severity && strcmp(c->severity, r.severity)) {
		if ((rc = note_value(sess, t, "severity",
				     xasprintf("%s -> %s", r.severity,
					       c->severity),
				     c->severity, err)) < 0)
			goto out;
	}
	if (c->claim && (rc = claim(sess, t, &r, err)) < 0)
		goto out;
	if (c->unclaim) {
		if ((rc = note_value(sess, t, "claim",
				     xasprintf("released by %s", sess->officer),
				     "", err)) < 0)
			goto out;
	}
	if (c->public && !r.public) {
		if ((rc = note_value(
			     sess, t, "public",
			     xstrdup("marked already public: the policy date is now"),
			     "1", err)) < 0)
			goto out;
	}
	if (c->consent_credit && !r.consent_credit) {
		if ((rc = note_value(sess, t, "consent",
				     xstrdup("reporter consents to be credited"),
				     "credit", err)) < 0)
			goto out;
	}
	if (c->consent_exploit && !r.consent_exploit) {
		if ((rc = note_value(
			     sess, t, "consent",
			     xstrdup("reporter consents to the release of exploit code"),
			     "exploit", err)) < 0)
			goto out;
	}
	if (c->note)
		rc = note_event(sess, t, "note", xstrdup(c->note), err);
out:
	report_release(&r);
	return rc;
}

int triage_apply(struct session *sess, const struct triage_change *c,
		 char **summary, struct err *err)
{
	struct triage_run t = { c, SBUF_INIT };
	int r;

	*summary = NULL;
	if (c->severity && !triage_severity_valid(c->severity))
		return err_setc(
			err, ERR_INVALID,
			"unknown severity '%s' (none, low, medium, high, critical)",
			c->severity);
	if (c->state && !triage_state_valid(c->state)) {
		triage_check_transition("new", c->state, err);
		if (err)
			err->code = ERR_INVALID;
		return ERR_INVALID;
	}
	if (c->state && !strcmp(c->state, "duplicate") && !c->of)
		return err_setc(
			err, ERR_INVALID,
			"report %lld: --state duplicate needs --of N, the "
			"report it duplicates",
			(long long)c->id);
	if (c->of && c->state && strcmp(c->state, "duplicate"))
		return err_setc(
			err, ERR_INVALID,
			"report %lld: --of N goes with --state duplicate, not "
			"--state %s",
			(long long)c->id, c->state);
	if (c->note && !*c->note)
		return err_setc(err, ERR_INVALID, "report %lld: empty note",
				(long long)c->id);
	if (c->claim && c->unclaim)
		return err_setc(err, ERR_INVALID,
				"report %lld: claim or release, not both",
				(long long)c->id);
	if (c->take && !c->claim)
		return err_setc(err, ERR_INVALID,
				"report %lld: --take goes with --claim",
				(long long)c->id);
	if ((c->early || c->reason) &&
	    (!c->state || strcmp(c->state, "disclosed") || !c->early ||
	     !c->reason || !*c->reason))
		return err_setc(
			err, ERR_INVALID,
			"report %lld: --early and --reason TEXT go together, with "
			"--state disclosed",
			(long long)c->id);
	r = core_write(sess, apply, &t, err);
	if (r == 0) {
		char *safe = safe_str(t.summary.len ? t.summary.buf
						    : "nothing changed");
		*summary = xasprintf("report %lld: %s", (long long)c->id, safe);
		free(safe);
	}
	sbuf_release(&t.summary);
	return r;
}
