/*
 * The reports' chains' verification and digests (see reportchain.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/reportchain.h"
#include "store/store.h"

void report_chain_init(struct report_chain *c, int64_t report)
{
	memset(c, 0, sizeof(*c));
	c->report = report;
}

void report_chain_release(struct report_chain *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->e[i].files);
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
		if (c->e[i].message == id)
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
		if (ev.seq <= c->seq && !memcmp(h, c->head, SIGN_HASH_BYTES)) {
			not_used(c, row->id, "%s", "a copy of the one before");
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
	if ((ev.kind == REPORT_EV_IMPORT || ev.kind == REPORT_EV_TAKEN_IN) &&
	    report_chain_message(c, ev.message)) {
		not_used(c, row->id, "message %llu is already accounted for",
			 (unsigned long long)ev.message);
		goto out;
	}
	c->seq = ev.seq;
	memcpy(c->head, h, SIGN_HASH_BYTES);
	if (ev.kind == REPORT_EV_CHECKPOINT) {
		memcpy(c->checkpoint, ev.author, sizeof(c->checkpoint));
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
out:
	report_event_release(&ev);
}

void report_chain_feed(struct report_chain *c, const struct team_chain *team,
		       const struct report_event_row *rows, size_t n)
{
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
