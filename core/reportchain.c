/*
 * The reports' chains' verification and digests (see reportchain.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/reportchain.h"
#include "core/triage.h"
#include "store/store.h"

void report_chain_init(struct report_chain *c, int64_t report)
{
	memset(c, 0, sizeof(*c));
	c->report = report;
}

void report_chain_release(struct report_chain *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->e[i].files);
		free(c->e[i].event_kind);
	}
	free(c->e);
	for (size_t i = 0; i < c->nnotes; i++)
		free(c->notes[i]);
	free(c->notes);
	free(c->broken);
	memset(c, 0, sizeof(*c));
}

const struct report_chain_entry *
report_chain_message(const struct report_chain *c, uint64_t id)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->e[i].kind != REPORT_EV_CHANGE && c->e[i].message == id)
			return &c->e[i];
	return NULL;
}

const struct report_chain_entry *
report_chain_change(const struct report_chain *c, uint64_t id)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->e[i].kind == REPORT_EV_CHANGE && c->e[i].event == id)
			return &c->e[i];
	return NULL;
}

static void not_used(struct report_chain *c, int64_t row, const char *fmt, ...)
{
	va_list ap;
	char *why;

	va_start(ap, fmt);
	why = xvasprintf(fmt, ap);
	va_end(ap);
	c->notes = xrealloc(c->notes, (c->nnotes + 1) * sizeof(*c->notes));
	c->notes[c->nnotes++] =
		xasprintf("report %lld: event %lld is not used: %s",
			  (long long)c->report, (long long)row, why);
	free(why);
}

/* Whether sig is one of fpr's certified signing keys' signature over
 * body (an officer who moved to a new keyring has signed with both). */
static bool signed_by(const struct report_chain *c,
		      const struct team_chain *team, const char *fpr,
		      const struct report_event_row *row,
		      const unsigned char h[SIGN_HASH_BYTES], bool *known)
{
	const struct report_chain_cache *k = c->cache;

	*known = false;
	if (row->siglen != SIGN_SIG_BYTES)
		return false;
	for (size_t i = 0; i < team->nkeys; i++) {
		unsigned char
			in[SIGN_PUB_BYTES + SIGN_SIG_BYTES + SIGN_HASH_BYTES],
			key[SIGN_HASH_BYTES];

		if (strcmp(team->keys[i].fpr, fpr))
			continue;
		*known = true;
		memcpy(in, team->keys[i].pub, SIGN_PUB_BYTES);
		memcpy(in + SIGN_PUB_BYTES, row->sig, SIGN_SIG_BYTES);
		memcpy(in + SIGN_PUB_BYTES + SIGN_SIG_BYTES, h,
		       SIGN_HASH_BYTES);
		sign_hash(in, sizeof(in), key);
		if (k && k->known(k->data, key))
			return true;
		if (sign_verify(team->keys[i].pub, row->body, row->len,
				row->sig)) {
			if (k)
				k->learned(k->data, key);
			return true;
		}
	}
	return false;
}

static void feed_one(struct report_chain *c, const struct team_chain *team,
		     const struct report_event_row *row)
{
	struct report_event ev;
	struct report_chain_entry *e;
	struct err err = { 0, "" };
	unsigned char h[SIGN_HASH_BYTES];
	bool known;

	if (report_event_decode(row->body, row->len, &ev, &err) < 0) {
		not_used(c, row->id, "%s", err.msg);
		return;
	}
	if (ev.report != c->report || row->report_id != c->report) {
		not_used(c, row->id, "it is report %lld's event",
			 (long long)ev.report);
		goto out;
	}
	sign_hash(row->body, row->len, h);
	if (!signed_by(c, team, ev.author, row, h, &known)) {
		not_used(c, row->id, "%s",
			 known ? "its signature is bad"
			       : "signed by a key no officer certified");
		goto out;
	}
	if (ev.team_seq > team->seq) {
		not_used(c, row->id,
			 "it names team event %llu, past the verified chain",
			 (unsigned long long)ev.team_seq);
		goto out;
	}
	if (ev.seq != c->seq + 1 || memcmp(ev.prev, c->head, SIGN_HASH_BYTES)) {
		/* An officer signed it, for this report: the server left
		 * out or reordered what came before. */
		if (ev.seq <= c->seq) {
			/* An earlier event again (the chain holds its
			 * place already): a replay, never a gap. */
			not_used(c, row->id, "%s",
				 !memcmp(h, c->head, SIGN_HASH_BYTES)
					 ? "a copy of the one before"
					 : "its place in the chain is taken "
					   "(an earlier event again)");
			goto out;
		}
		c->broken = xasprintf(
			"report %lld: its chain stops at event %llu: the "
			"server holds event %llu of %s, which does not follow "
			"it (one left out or reordered)",
			(long long)c->report, (unsigned long long)c->seq,
			(unsigned long long)ev.seq, ev.author);
		goto out;
	}
	if (ev.kind == REPORT_EV_CHECKPOINT && c->seq) {
		not_used(c, row->id, "%s",
			 "a checkpoint only starts a report's chain");
		goto out;
	}
	if (ev.kind == REPORT_EV_TAKEN_IN && !c->checkpoint[0]) {
		not_used(c, row->id, "%s",
			 "a message taken in with no checkpoint before it");
		goto out;
	}
	if (ev.kind == REPORT_EV_CHANGES_TAKEN_IN && c->changes_from[0]) {
		not_used(c, row->id, "%s",
			 "the report's timeline was taken in already");
		goto out;
	}
	if (ev.kind == REPORT_EV_CHANGE && !c->changes_from[0]) {
		not_used(c, row->id, "%s",
			 "a change before the report's timeline was taken in");
		goto out;
	}
	if (ev.kind == REPORT_EV_CHANGE &&
	    (ev.event <= c->changes_mark || report_chain_change(c, ev.event))) {
		not_used(c, row->id, "events row %llu is already accounted for",
			 (unsigned long long)ev.event);
		goto out;
	}
	if ((ev.kind == REPORT_EV_IMPORT || ev.kind == REPORT_EV_TAKEN_IN) &&
	    report_chain_message(c, ev.message)) {
		not_used(c, row->id, "message %llu is already accounted for",
			 (unsigned long long)ev.message);
		goto out;
	}
	c->seq = ev.seq;
	c->head_row = row->id;
	memcpy(c->head, h, SIGN_HASH_BYTES);
	if (ev.kind == REPORT_EV_CHECKPOINT) {
		memcpy(c->checkpoint, ev.author, sizeof(c->checkpoint));
		goto out;
	}
	if (ev.kind == REPORT_EV_CHANGES_TAKEN_IN) {
		struct report_scalars *t = &c->taken;

		memcpy(c->changes_from, ev.author, sizeof(c->changes_from));
		c->changes_mark = ev.event;
		c->changes_gen = ev.generation;
		memcpy(c->changes_rows, ev.row, SIGN_HASH_BYTES);
		c->dates_decisions = ev.decisions;
		c->dates_proposals = ev.proposals;
		memcpy(c->dates, ev.dates, SIGN_HASH_BYTES);
		snprintf(t->state, sizeof(t->state), "%s", ev.state);
		snprintf(t->severity, sizeof(t->severity), "%s", ev.severity);
		snprintf(t->claimed, sizeof(t->claimed), "%s",
			 ev.claimed ? ev.claimed : "");
		t->credit = ev.flags & REPORT_FLAG_CREDIT;
		t->exploit = ev.flags & REPORT_FLAG_EXPLOIT;
		t->public = ev.flags & REPORT_FLAG_PUBLIC;
		t->release = (int64_t)ev.release;
		goto out;
	}
	c->e = xrealloc(c->e, (c->n + 1) * sizeof(*c->e));
	e = &c->e[c->n++];
	memset(e, 0, sizeof(*e));
	e->kind = ev.kind;
	e->message = ev.message;
	e->generation = ev.generation;
	memcpy(e->digest, ev.digest, SIGN_HASH_BYTES);
	memcpy(e->values, ev.values, SIGN_HASH_BYTES);
	memcpy(e->signatures, ev.signatures, SIGN_HASH_BYTES);
	memcpy(e->report, ev.report_values, SIGN_HASH_BYTES);
	memcpy(e->author, ev.author, sizeof(e->author));
	e->files = ev.files;
	e->nfiles = ev.nfiles;
	ev.files = NULL;
	ev.nfiles = 0;
	e->event = ev.event;
	e->event_kind = ev.event_kind;
	ev.event_kind = NULL;
	e->ref = ev.ref;
	memcpy(e->value, ev.value, SIGN_HASH_BYTES);
	memcpy(e->detail, ev.detail, SIGN_HASH_BYTES);
	memcpy(e->row, ev.row, SIGN_HASH_BYTES);
	e->at = ev.at;
out:
	report_event_release(&ev);
}

void report_chain_feed(struct report_chain *c, const struct team_chain *team,
		       const struct report_event_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].seq > c->last_place)
			c->last_place = rows[i].seq;
	for (size_t i = 0; i < n && !c->broken; i++)
		feed_one(c, team, &rows[i]);
}

int report_chain_sign(const struct report_chain *c,
		      const struct team_chain *team, struct report_event *ev,
		      const char *fpr, const struct sign_key *key,
		      unsigned char **body, size_t *len,
		      unsigned char sig[SIGN_SIG_BYTES], struct err *err)
{
	int r;

	ev->report = c->report;
	ev->seq = c->seq + 1;
	memcpy(ev->prev, c->head, SIGN_HASH_BYTES);
	ev->team_seq = team->seq;
	memcpy(ev->team_head, team->head, SIGN_HASH_BYTES);
	snprintf(ev->author, sizeof(ev->author), "%s", fpr);
	report_event_sort(ev);
	if ((r = report_event_encode(ev, body, len, err)) < 0)
		return r;
	sign_key_sign(key, *body, *len, sig);
	return 0;
}

/* --- digests ---------------------------------------------------------- */

bool report_digest_message(const struct message *m,
			   unsigned char out[SIGN_HASH_BYTES])
{
	const char *h = m->plain_sha256;

	if (!h || strlen(h) != 2 * SIGN_HASH_BYTES)
		return false;
	for (size_t i = 0; i < SIGN_HASH_BYTES; i++) {
		unsigned v = 0;
		for (int j = 0; j < 2; j++) {
			char ch = h[2 * i + (size_t)j];
			v <<= 4;
			if (ch >= '0' && ch <= '9')
				v |= (unsigned)(ch - '0');
			else if (ch >= 'a' && ch <= 'f')
				v |= (unsigned)(ch - 'a' + 10);
			else if (ch >= 'A' && ch <= 'F')
				v |= (unsigned)(ch - 'A' + 10);
			else
				return false;
		}
		out[i] = (unsigned char)v;
	}
	return true;
}

/* Each value length-prefixed (NULL apart from ""), so that no two lists
 * of values encode alike. */
static void put_str(struct sbuf *b, const char *s)
{
	if (!s) {
		sbuf_add(b, "N", 1);
		return;
	}
	sbuf_addf(b, "S%zu:", strlen(s));
	sbuf_add(b, s, strlen(s));
}

static void put_int(struct sbuf *b, long long v)
{
	sbuf_addf(b, "I%lld;", v);
}

static int mac_of(struct sbuf *b, report_mac_fn mac, void *data, uint32_t gen,
		  const char *purpose, unsigned char out[SIGN_HASH_BYTES],
		  struct err *err)
{
	int r = mac(data, gen, purpose, b->buf ? b->buf : "", b->len, out, err);
	sbuf_release(b);
	return r;
}

int report_digest_values(const struct message *m, report_mac_fn mac, void *data,
			 uint32_t gen, unsigned char out[SIGN_HASH_BYTES],
			 struct err *err)
{
	struct sbuf b = SBUF_INIT;

	put_str(&b, m->subject);
	put_str(&b, m->from_name);
	put_str(&b, m->from_email);
	put_int(&b, (long long)m->date);
	put_int(&b, m->encrypted);
	put_str(&b, sig_verdict_name(m->verdict));
	put_str(&b, m->fingerprint);
	put_int(&b, m->signer_matches_from);
	return mac_of(&b, mac, data, gen, "report-event-values", out, err);
}

int report_digest_report(const char *subject, const char *name,
			 const char *email, report_mac_fn mac, void *data,
			 uint32_t gen, unsigned char out[SIGN_HASH_BYTES],
			 struct err *err)
{
	struct sbuf b = SBUF_INIT;

	put_str(&b, subject);
	put_str(&b, name);
	put_str(&b, email);
	return mac_of(&b, mac, data, gen, "report-event-report", out, err);
}

int report_digest_signatures(const enum sig_verdict *verdicts,
			     const char *const *fprs, const time_t *created,
			     size_t n, report_mac_fn mac, void *data,
			     uint32_t gen, unsigned char out[SIGN_HASH_BYTES],
			     struct err *err)
{
	struct sbuf b = SBUF_INIT;

	put_int(&b, (long long)n);
	for (size_t i = 0; i < n; i++) {
		put_str(&b, sig_verdict_name(verdicts[i]));
		put_str(&b, fprs[i]);
		put_int(&b, (long long)created[i]);
	}
	return mac_of(&b, mac, data, gen, "report-event-signatures", out, err);
}

int report_digest_file(const char *path, report_mac_fn mac, void *data,
		       uint32_t gen, unsigned char out[SIGN_HASH_BYTES],
		       struct err *err)
{
	struct sbuf b = SBUF_INIT;

	put_str(&b, path);
	return mac_of(&b, mac, data, gen, "report-event-file", out, err);
}

int report_digest_text(const char *purpose, const char *text, report_mac_fn mac,
		       void *data, uint32_t gen,
		       unsigned char out[SIGN_HASH_BYTES], struct err *err)
{
	struct sbuf b = SBUF_INIT;

	put_str(&b, text);
	return mac_of(&b, mac, data, gen, purpose, out, err);
}

int report_digest_timeline(const struct event *rows, size_t n, uint64_t mark,
			   report_mac_fn mac, void *data, uint32_t gen,
			   unsigned char out[SIGN_HASH_BYTES], struct err *err)
{
	struct sbuf b = SBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		if (rows[i].id < 1 || (uint64_t)rows[i].id > mark)
			continue;
		put_int(&b, rows[i].id);
		put_str(&b, rows[i].kind);
		put_str(&b, rows[i].detail ? rows[i].detail : "");
		put_int(&b, rows[i].ref);
		put_str(&b, rows[i].value);
	}
	return mac_of(&b, mac, data, gen, "report-event-timeline", out, err);
}

static void put_row(struct sbuf *b, char *text)
{
	put_str(b, text);
	free(text);
}

int report_digest_dates(const struct decision *dc, size_t nd, uint64_t dmax,
			const struct proposal *p, size_t np, uint64_t pmax,
			report_mac_fn mac, void *data, uint32_t gen,
			unsigned char out[SIGN_HASH_BYTES], struct err *err)
{
	struct sbuf b = SBUF_INIT;

	for (size_t i = 0; i < nd; i++)
		if (dc[i].id > 0 && (uint64_t)dc[i].id <= dmax)
			put_row(&b, report_row_decision(&dc[i]));
	sbuf_add(&b, "|", 1);
	for (size_t i = 0; i < np; i++)
		if (p[i].id > 0 && (uint64_t)p[i].id <= pmax)
			put_row(&b, report_row_proposal(&p[i]));
	return mac_of(&b, mac, data, gen, "report-event-dates", out, err);
}

char *report_row_decision(const struct decision *d)
{
	struct sbuf b = SBUF_INIT;

	sbuf_add(&b, "decision", 8);
	put_int(&b, d->id);
	put_int(&b, d->report_id);
	put_int(&b, (long long)d->date);
	put_str(&b, d->verdict);
	put_str(&b, d->reason);
	put_int(&b, d->override);
	return sbuf_detach(&b, NULL);
}

char *report_row_proposal(const struct proposal *p)
{
	struct sbuf b = SBUF_INIT;

	sbuf_add(&b, "proposal", 8);
	put_int(&b, p->id);
	put_int(&b, p->report_id);
	put_str(&b, p->by);
	put_int(&b, (long long)p->date);
	put_str(&b, p->reason);
	return sbuf_detach(&b, NULL);
}

/* Whether text's keyed hash under gen is h (an error is a mismatch). */
static bool text_is(const char *purpose, const char *text,
		    const unsigned char h[SIGN_HASH_BYTES], report_mac_fn mac,
		    void *data, uint32_t gen)
{
	unsigned char got[SIGN_HASH_BYTES];
	struct err err = { 0, "" };

	return report_digest_text(purpose, text, mac, data, gen, got, &err) ==
		0 &&
		!memcmp(got, h, SIGN_HASH_BYTES);
}

bool report_change_matches(const struct report_chain_entry *e,
			   const struct event *ev, report_mac_fn mac,
			   void *data)
{
	return e->kind == REPORT_EV_CHANGE && ev->id > 0 &&
		e->event == (uint64_t)ev->id && e->event_kind && ev->kind &&
		!strcmp(e->event_kind, ev->kind) &&
		e->ref == (uint64_t)ev->ref &&
		text_is(REPORT_DIGEST_VALUE, ev->value, e->value, mac, data,
			e->generation) &&
		text_is(REPORT_DIGEST_DETAIL, ev->detail ? ev->detail : "",
			e->detail, mac, data, e->generation);
}

static void derive_note(char ***notes, size_t *nnotes, const char *fmt, ...)
{
	va_list ap;

	*notes = xrealloc(*notes, (*nnotes + 1) * sizeof(**notes));
	va_start(ap, fmt);
	(*notes)[(*nnotes)++] = xvasprintf(fmt, ap);
	va_end(ap);
}

/* Applies one verified change (its row rw) to out; false when it does
 * not follow, with *why set. */
static bool apply_change(struct report_scalars *out,
			 const struct report_chain_entry *e,
			 const struct event *rw, const char *author,
			 const char **why)
{
	const char *v = rw->value;
	struct err err = { 0, "" };

	if (!strcmp(rw->kind, "state")) {
		if (!v || triage_check_transition(out->state, v, &err) < 0) {
			*why = "its state is not a step of the lifecycle from "
			       "the one before";
			return false;
		}
		snprintf(out->state, sizeof(out->state), "%s", v);
	} else if (!strcmp(rw->kind, "severity")) {
		if (!v || !triage_severity_valid(v)) {
			*why = "it names no severity";
			return false;
		}
		snprintf(out->severity, sizeof(out->severity), "%s", v);
	} else if (!strcmp(rw->kind, "claim")) {
		/* An officer claims for themselves, and releases their own
		 * claim: nobody signs a claim in a colleague's name. */
		if (!v || !author ||
		    (*v ? strcmp(v, author) : strcmp(out->claimed, author))) {
			*why = "a claim is made or released only by its own "
			       "officer";
			return false;
		}
		snprintf(out->claimed, sizeof(out->claimed), "%s", v);
	} else if (!strcmp(rw->kind, "consent")) {
		if (v && !strcmp(v, "credit"))
			out->credit = true;
		else if (v && !strcmp(v, "exploit"))
			out->exploit = true;
		else {
			*why = "a consent is to credit or to exploit code";
			return false;
		}
	} else if (!strcmp(rw->kind, "public")) {
		out->public = true;
	} else if (!strcmp(rw->kind, "release-start")) {
		if (out->release) {
			*why = "the release process started already";
			return false;
		}
		out->release = e->at;
	}
	return true;
}

void report_chain_derive(const struct report_chain *c, const struct event *rows,
			 const bool *accounted, size_t n,
			 const char *(*who)(void *, const char *), void *data,
			 struct report_scalars *out, char ***notes,
			 size_t *nnotes)
{
	*out = c->taken;
	if (!out->state[0])
		snprintf(out->state, sizeof(out->state), "%s", "new");
	if (!out->severity[0])
		snprintf(out->severity, sizeof(out->severity), "%s", "none");
	for (size_t i = 0; i < c->n; i++) {
		const struct report_chain_entry *e = &c->e[i];
		const struct event *rw = NULL;
		const char *why = NULL;

		if (e->kind != REPORT_EV_CHANGE)
			continue;
		for (size_t j = 0; j < n && !rw; j++)
			if (accounted[j] && rows[j].id == (int64_t)e->event)
				rw = &rows[j];
		if (!rw)
			continue;
		if (!apply_change(out, e, rw, who ? who(data, e->author) : NULL,
				  &why))
			derive_note(notes, nnotes,
				    "report %lld: event %lld (%s) is not "
				    "applied: %s",
				    (long long)c->report, (long long)rw->id,
				    rw->kind, why);
	}
}
