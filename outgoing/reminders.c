/*
 * `due --mail`: the reminders behind what `due` lists (core/due.h says
 * what is due, once, for both):
 *
 *   - every silent vendor gets a signed, encrypted reminder (to its
 *     confirmed key, else its certified one);
 *   - every unacknowledged participant gets one;
 *   - every officer gets one digest of the reports they claimed that are
 *     overdue or due within 2 days (their address: config
 *     officers.NAME);
 *   - the officer who claimed a report whose reporter waits for a reply
 *     gets a reminder of it.
 *
 * Each recipient gets at most one reminder per report per 2 working
 * days: the last one sent is stored (table reminders) after delivery, so
 * running it every hour from cron sends nothing new.  A recipient
 * without a usable key gets nothing (reminders are never sent in the
 * clear): a warning names them.  Working days are Monday to Friday, UTC
 * (working_days_between).
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "outgoing/send.h"
#include "store/store.h"

/* A recipient is reminded of a report at most once in this many working
 * days; the digest looks this far ahead. */
#define REMIND_EVERY_DAYS 2
#define DIGEST_WITHIN (2 * 86400L)

struct remind_run {
	struct session *sess;
	const struct due_mail_opts *o;
	time_t now;
	struct digest {
		char *officer;
		struct sbuf text;
		int64_t *ids;
		size_t nids;
	} * dg;
	size_t ndg;
	struct due_mail_result *res;
};

/* One line of the result (takes the strings). */
static void say(struct remind_run *m, enum due_mail_what what, char *text)
{
	struct due_mail_result *res = m->res;

	res->v = xrealloc(res->v, (res->n + 1) * sizeof(*res->v));
	res->v[res->n].what = what;
	res->v[res->n++].text = text;
	if (what == DUE_MAIL_SKIPPED)
		res->skipped++;
	else if (what != DUE_MAIL_WARNING)
		res->sent++;
}

void due_mail_result_release(struct due_mail_result *res)
{
	for (size_t i = 0; i < res->n; i++)
		free(res->v[i].text);
	free(res->v);
	memset(res, 0, sizeof(*res));
}

/* True when recipient may be reminded about report id now. */
static bool may_remind(struct remind_run *m, int64_t id, const char *recipient,
		       const char *kind)
{
	struct err e = { 0, "" };
	time_t last = 0;

	if (store_reminder_last(m->sess->store, id, recipient, kind, &last,
				&e) < 0) {
		say(m, DUE_MAIL_SKIPPED, safe_str(e.msg));
		return false;
	}
	return !last || working_days_between(last, m->now) >= REMIND_EVERY_DAYS;
}

struct record_req {
	const int64_t *ids;
	size_t n;
	const char *recipient, *kind;
	time_t at;
};

static int record(struct session *sess, void *data, struct err *err)
{
	struct record_req *q = data;
	int r = 0;

	for (size_t i = 0; i < q->n && r == 0; i++)
		r = store_reminder_record(sess->store, q->ids[i], q->recipient,
					  q->kind, q->at, err);
	return r;
}

/* Sends text to email about the reports ids (the first one's thread),
 * records it; a line of output either way. */
static void send_one(struct remind_run *m, const char *kind, const char *email,
		     const char *confirmed, const int64_t *ids, size_t nids,
		     const char *subject, const char *text)
{
	struct session *sess = m->sess;
	struct outgoing_mail om;
	struct reply_sent res;
	struct record_req q = { ids, nids, email, kind, m->now };
	struct err e = { 0, "" };
	char *fpr = NULL, *why = NULL, *what, *detail, *to = safe_str(email);
	int r;

	/* The key first, even for --dry-run: the dry run lists what the
	 * real run would do, skips included. */
	struct crypto *c = session_crypto(sess, &e);

	r = c ? outgoing_key(c, "remind about", ids[0], email, confirmed, &fpr,
			     &why, &e)
	      : e.code;
	if (r < 0) {
		char *w = safe_str(r == ERR_NOTFOUND ? why : e.msg);
		say(m, DUE_MAIL_SKIPPED,
		    xasprintf(
			    "report %lld: no %s reminder to %s: %s (reminders are "
			    "never sent in the clear)",
			    (long long)ids[0], kind, to, w));
		free(w);
		free(why);
		free(to);
		return;
	}
	if (m->o->dry_run) {
		say(m, DUE_MAIL_WOULD_SEND,
		    xasprintf("%s\t%s\treport %lld%s", kind, to,
			      (long long)ids[0], nids > 1 ? " and more" : ""));
		free(fpr);
		free(to);
		return;
	}
	memset(&om, 0, sizeof(om));
	what = xasprintf("cannot remind %s about report %lld", email,
			 (long long)ids[0]);
	detail =
		xasprintf("%s reminder to %s (encrypted, signed)", kind, email);
	om.id = ids[0];
	om.also = ids + 1;
	om.nalso = nids - 1;
	om.no_copy = nids > 1;
	om.what = what;
	om.to_email = email;
	om.no_cc = true;
	om.fpr = fpr;
	om.subject = subject;
	om.text = text;
	om.outbox = m->o->outbox;
	om.sendmail = m->o->sendmail;
	om.event_kind = "reminder";
	om.event_detail = detail;
	if (outgoing_send(sess, &om, &res, &e) < 0 ||
	    core_write(sess, record, &q, &e) < 0) {
		say(m, DUE_MAIL_SKIPPED, safe_str(e.msg));
	} else {
		char *mid = safe_str(res.message_id);
		say(m, DUE_MAIL_SENT,
		    xasprintf("%s\t%s\treport %lld%s\t<%s>", kind, to,
			      (long long)ids[0], nids > 1 ? " and more" : "",
			      mid));
		free(mid);
	}
	reply_sent_release(&res);
	free(what);
	free(detail);
	free(fpr);
	free(to);
}

/* The report's subject as others may see it (redacted unless credit). */
static char *shown_subject(struct session *sess, const struct report *r)
{
	struct dossier d;
	struct err e = { 0, "" };
	char *s, *l;

	if (dossier_load(sess, r->id, &d, &e) < 0) {
		dossier_release(&d);
		return xstrdup("(subject withheld)");
	}
	s = dossier_redact(&d, r->subject ? r->subject : "");
	l = outgoing_one_line(s);
	free(s);
	dossier_release(&d);
	return l;
}

static void remind_vendor(struct remind_run *m, const struct due_item *it,
			  const char *subj)
{
	const struct report *r = it->report;
	const struct report_vendor *v = it->vendor;
	char when[32], *text, *subject;

	if (!v->contact || !may_remind(m, r->id, v->contact, "vendor"))
		return;
	subject = xasprintf("[SECURITY] Reminder: report %lld: %s",
			    (long long)r->id, subj);
	text = xasprintf(
		"Hello,\n\nThe security team told %s about report %lld "
		"(\"%s\") on %s\nand has heard nothing for %ld working "
		"days. Please acknowledge it and tell us\nwhether you "
		"are affected, by replying to this mail.\n\n%s\n%s\n",
		v->name, (long long)r->id, subj,
		fmt_rfc3339(v->notified_at, when), it->days,
		m->sess->officer_name,
		config_get(m->sess->cfg, "team.address",
			   "security@kernel.org"));
	send_one(m, "vendor", v->contact, v->key_fpr, &r->id, 1, subject, text);
	free(subject);
	wipe_free(text, strlen(text));
}

static void remind_participant(struct remind_run *m, const struct due_item *it,
			       const char *subj)
{
	const struct report *r = it->report;
	const struct pending_participant *p = it->participant;
	struct participant pp;
	struct err e = { 0, "" };
	char when[32], *text, *subject, *key = NULL;

	if (!may_remind(m, r->id, p->email, "participant"))
		return;
	if (store_participant_get(m->sess->store, r->id, p->email, &pp, &e) ==
	    0) {
		int kr = participant_key(m->sess, r->id, &pp, &key, &e);

		participant_release(&pp);
		/* A key the timeline does not confirm: nothing sent to
		 * them, and the reason said. */
		if (kr < 0) {
			char *w = safe_str(e.msg);

			say(m, DUE_MAIL_SKIPPED,
			    xasprintf("report %lld: no participant reminder: %s",
				      (long long)r->id, w));
			free(w);
			return;
		}
	}
	subject = xasprintf("[SECURITY] Reminder: report %lld: %s",
			    (long long)r->id, subj);
	text = xasprintf("Hello,\n\nYou were brought into report %lld (\"%s\") "
			 "on %s\nand have not acknowledged it yet. Please "
			 "confirm that you have it\nand are looking at it, by "
			 "replying to this mail.\n\n%s\n%s\n",
			 (long long)r->id, subj, fmt_rfc3339(p->added_at, when),
			 m->sess->officer_name,
			 config_get(m->sess->cfg, "team.address",
				    "security@kernel.org"));
	send_one(m, "participant", p->email, key, &r->id, 1, subject, text);
	free(key);
	free(subject);
	wipe_free(text, strlen(text));
}

/* The officer who claimed the report whose reporter waits for a reply. */
static void remind_waiting(struct remind_run *m, const struct due_item *it,
			   const char *subj)
{
	const struct report *r = it->report;
	char *key, *subject, *text, when[32];
	const char *addr;

	if (!r->claimed_by || !*r->claimed_by)
		return;
	key = xasprintf("officers.%s", r->claimed_by);
	addr = config_get(m->sess->cfg, key, NULL);
	free(key);
	if (!addr || !participant_email_valid(addr)) {
		char *o = safe_str(r->claimed_by);
		say(m, DUE_MAIL_WARNING,
		    xasprintf("no reporter-waiting reminder for officer %s: set "
			      "officers.%s to their address in the config",
			      o, o));
		free(o);
		return;
	}
	if (!may_remind(m, r->id, addr, "reporter-waiting"))
		return;
	subject = xasprintf("[SECURITY] Reporter waiting: report %lld",
			    (long long)r->id);
	text = xasprintf(
		"Hello %s,\n\nThe reporter of report %lld (\"%s\"),\n"
		"which you claimed, sent it on %s\nand has had no reply "
		"for %ld working days.\nSend one: secteam-tui reply %lld "
		"(the ack template).\n\n-- \nsecteam-tui due --mail\n",
		r->claimed_by, (long long)r->id, subj,
		fmt_rfc3339(it->date, when), it->days, (long long)r->id);
	send_one(m, "reporter-waiting", addr, NULL, &r->id, 1, subject, text);
	free(subject);
	wipe_free(text, strlen(text));
}

static void add_to_digest(struct remind_run *m, const struct due_item *it,
			  const char *subj)
{
	const struct report *r = it->report;
	struct digest *d = NULL;
	char buf[32];

	if (!r->claimed_by || !*r->claimed_by)
		return;
	for (size_t i = 0; i < m->ndg && !d; i++)
		if (!strcmp(m->dg[i].officer, r->claimed_by))
			d = &m->dg[i];
	if (!d) {
		m->dg = xrealloc(m->dg, (m->ndg + 1) * sizeof(*m->dg));
		d = &m->dg[m->ndg++];
		memset(d, 0, sizeof(*d));
		d->officer = xstrdup(r->claimed_by);
	}
	d->ids = xrealloc(d->ids, (d->nids + 1) * sizeof(*d->ids));
	d->ids[d->nids++] = r->id;
	sbuf_addf(&d->text, "  #%lld %s\n      %s %s%s\n", (long long)r->id,
		  subj, it->date < m->now ? "overdue since" : "due",
		  fmt_rfc3339(it->date, buf),
		  r->disclosure ? ""
				: " (no date decided: the policy's default)");
}

/* Each report's items (they come together) with its subject as others
 * may see it, opened once. */
static void remind_all(struct remind_run *m, const struct due *due)
{
	char *subj = NULL;

	for (size_t i = 0; i < due->n; i++) {
		const struct due_item *it = &due->v[i];

		if (!i || it->report != due->v[i - 1].report) {
			free(subj);
			subj = shown_subject(m->sess, it->report);
		}
		switch (it->kind) {
		case DUE_VENDOR_SILENT:
			remind_vendor(m, it, subj);
			break;
		case DUE_PARTICIPANT_UNACKED:
			remind_participant(m, it, subj);
			break;
		case DUE_REPORTER_WAITING:
			remind_waiting(m, it, subj);
			break;
		case DUE_OVERDUE:
		case DUE_SOON:
		case DUE_UNDATED_OVERDUE:
		case DUE_UNDATED_SOON:
			add_to_digest(m, it, subj);
			break;
		case DUE_CVE_UNPUBLISHED:
			break;
		}
	}
	free(subj);
}

/* One digest per officer, of the reports not in one of the last 2
 * working days. */
static void send_digests(struct remind_run *m)
{
	for (size_t i = 0; i < m->ndg; i++) {
		struct digest *d = &m->dg[i];
		char *key = xasprintf("officers.%s", d->officer), *subject,
		     *text;
		const char *addr = config_get(m->sess->cfg, key, NULL);
		int64_t *ids = xcalloc(d->nids + 1, sizeof(*ids));
		size_t n = 0;

		if (!addr || !participant_email_valid(addr)) {
			char *o = safe_str(d->officer);
			say(m, DUE_MAIL_SKIPPED,
			    xasprintf(
				    "no digest for officer %s: set officers.%s to "
				    "their address in the config",
				    o, o));
			free(o);
		} else {
			for (size_t k = 0; k < d->nids; k++)
				if (may_remind(m, d->ids[k], addr, "digest"))
					ids[n++] = d->ids[k];
		}
		if (n) {
			subject = xasprintf("[SECURITY] Your reports due: %zu",
					    n);
			text = xasprintf(
				"Hello %s,\n\nReports you claimed that are overdue "
				"or due within 2 days:\n\n%s\n-- \nsecteam-tui due "
				"--mail\n",
				d->officer, d->text.buf);
			send_one(m, "digest", addr, NULL, ids, n, subject,
				 text);
			free(subject);
			wipe_free(text, strlen(text));
		}
		free(ids);
		free(key);
	}
}

static void run_release(struct remind_run *m)
{
	for (size_t i = 0; i < m->ndg; i++) {
		free(m->dg[i].officer);
		sbuf_wipe(&m->dg[i].text);
		free(m->dg[i].ids);
	}
	free(m->dg);
}

int due_mail(struct session *sess, const struct due_mail_opts *o,
	     struct due_mail_result *res, struct err *err)
{
	struct remind_run m;
	struct due due;
	int r;

	memset(&m, 0, sizeof(m));
	memset(res, 0, sizeof(*res));
	m.sess = sess;
	m.res = res;
	m.o = o;
	m.now = util_now();
	/* Everything is read before the first mail goes. */
	if ((r = due_compute(sess, m.now, DIGEST_WITHIN, &due, err)) == 0) {
		remind_all(&m, &due);
		send_digests(&m);
	}
	due_release(&due);
	run_release(&m);
	return r;
}
