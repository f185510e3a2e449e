/*
 * The thread headers of mail we send about a report (References, and
 * In-Reply-To taken from them): the report's first message, then the
 * newest messages the reporter or the team signed.  Anyone can reply
 * into a thread, so a message counts only when its signature is valid
 * or good and made by a team key (the roster, an officer's key: this is
 * also every copy of mail the team sent) or by the reporter's key (the
 * one that signed the report, the one confirmed for the reporter's
 * address, or a certified one for that address whose user ID matches
 * From).  A stranger's replies are never named, so a flood of them
 * neither grows the header nor becomes what we answer; and the header
 * is bounded in count and bytes (RFC 5322 3.6.4 lets References be
 * trimmed), keeping the first message and the newest ones.  A message
 * counts as its opening verifies it, never as its row says.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/core.h"
#include "outgoing/send.h"
#include "store/store.h"

/* The keys whose signatures count. */
struct trust {
	char **keys;
	size_t nkeys;
	const char *reporter_email;
};

static void trust_add(struct trust *t, const char *fpr)
{
	if (!fpr || !*fpr)
		return;
	t->keys = xrealloc(t->keys, (t->nkeys + 1) * sizeof(*t->keys));
	t->keys[t->nkeys++] = xstrdup(fpr);
}

static void trust_release(struct trust *t)
{
	for (size_t i = 0; i < t->nkeys; i++)
		free(t->keys[i]);
	free(t->keys);
	memset(t, 0, sizeof(*t));
}

static bool signed_ok(const struct message *m)
{
	return (m->verdict == SIG_VALID || m->verdict == SIG_GOOD) &&
		m->fingerprint && *m->fingerprint;
}

/*
 * Message i of the thread as this opening verifies it: *v is the row
 * with the verdict, signer and signer-matches-From of the opening (the
 * row's are only what whoever stored it said); *fpr (the caller's) holds
 * the signer.  False when it does not open.
 */
static bool opened(struct session *sess, const struct dossier *dos, size_t i,
		   struct message *v, char **fpr)
{
	struct opened_message om;
	struct err e = { 0, "" };
	bool ok = report_open_thread(sess, &dos->f, i, &om, &e) == 0;

	*v = dos->f.msgs[i];
	*fpr = NULL;
	if (ok) {
		v->verdict = om.verdict;
		v->signer_matches_from = om.signer_matches_from;
		*fpr = om.fingerprint;
		om.fingerprint = NULL;
		v->fingerprint = *fpr;
	}
	opened_message_release(&om);
	return ok;
}

/* The team's keys (roster, officers past and present) and the
 * reporter's (the report's signer, the confirmed one) into t. */
static void trust_init(struct session *sess, const struct dossier *dos,
		       struct trust *t)
{
	const char *const *roster;
	struct officer *o = NULL;
	struct participant p;
	struct err e = { 0, "" };
	struct store *s = session_store(sess, &e);
	size_t n = 0;

	memset(t, 0, sizeof(*t));
	t->reporter_email = dos->f.r.reporter_email;
	if ((roster = session_roster(sess, &n, &e)))
		for (size_t i = 0; i < n; i++)
			trust_add(t, roster[i]);
	if (s && store_officers_list(s, true, &o, &n, &e) == 0) {
		for (size_t i = 0; i < n; i++) {
			trust_add(t, o[i].key_fpr);
			officer_release(&o[i]);
		}
		free(o);
	}
	if (dos->f.nmsgs && signed_ok(&dos->f.msgs[0])) {
		struct message v;
		char *fpr;

		if (opened(sess, dos, 0, &v, &fpr) && signed_ok(&v))
			trust_add(t, v.fingerprint);
		free(fpr);
	}
	if (s && t->reporter_email &&
	    store_participant_get(s, dos->f.r.id, t->reporter_email, &p, &e) ==
		    0) {
		char *key = NULL;

		/* Only a key their timeline confirms. */
		if (participant_key(sess, dos->f.r.id, &p, &key, &e) == 0)
			trust_add(t, key);
		free(key);
		participant_release(&p);
	}
}

/* True when the reporter or the team signed m. */
static bool trusted(const struct trust *t, const struct message *m)
{
	if (!signed_ok(m))
		return false;
	for (size_t i = 0; i < t->nkeys; i++)
		if (fpr_same_key(t->keys[i], m->fingerprint))
			return true;
	return m->verdict == SIG_VALID && m->signer_matches_from &&
		t->reporter_email && m->from_email &&
		!str_cmp_ci(t->reporter_email, m->from_email);
}

/* Whether message i may be named at all (a Message-ID fit for the
 * header, not the reporter's when hidden, not named already). */
static bool nameable(const struct dossier *dos, size_t i, bool hide_reporter,
		     const char **refs, size_t n)
{
	const struct message *m = &dos->f.msgs[i];

	if (!outgoing_msgid_ok(m->message_id))
		return false;
	if (hide_reporter && !dos->f.r.consent_credit &&
	    dossier_from_reporter(dos, m))
		return false;
	for (size_t k = 0; k < n; k++)
		if (!strcmp(refs[k], m->message_id))
			return false;
	return true;
}

/* Bytes a Message-ID takes in the header: "<id>" and a space. */
static size_t ref_bytes(const char *id)
{
	return strlen(id) + 3;
}

size_t outgoing_thread_refs(struct session *sess, const struct dossier *dos,
			    bool hide_reporter, const char ***out)
{
	struct trust t;
	const char **refs = xcalloc(OUTGOING_REFS_MAX + 1, sizeof(*refs));
	const char **newest = xcalloc(OUTGOING_REFS_MAX + 1, sizeof(*newest));
	size_t n = 0, nnew = 0, bytes = 0;

	*out = refs;
	if (!dos->f.nmsgs) {
		free(newest);
		return 0;
	}
	trust_init(sess, dos, &t);
	if (nameable(dos, 0, hide_reporter, refs, 0)) {
		refs[n++] = dos->f.msgs[0].message_id;
		bytes = ref_bytes(refs[0]);
	}
	/* The newest trusted ones, newest first; the newest always fits
	 * (two Message-IDs fit in OUTGOING_REFS_BYTES). */
	for (size_t i = dos->f.nmsgs;
	     i-- > 1 && n + nnew < OUTGOING_REFS_MAX;) {
		const struct message *m = &dos->f.msgs[i];

		struct message v;
		char *fpr;
		bool ok;

		if (!trusted(&t, m) ||
		    !nameable(dos, i, hide_reporter, refs, n) ||
		    !nameable(dos, i, hide_reporter, newest, nnew))
			continue;
		/* What its row says, verified again: only a message whose
		 * row already claims trust costs an opening. */
		ok = opened(sess, dos, i, &v, &fpr) && trusted(&t, &v);
		free(fpr);
		if (!ok)
			continue;
		if (nnew &&
		    bytes + ref_bytes(m->message_id) > OUTGOING_REFS_BYTES)
			break;
		newest[nnew++] = m->message_id;
		bytes += ref_bytes(m->message_id);
	}
	while (nnew)
		refs[n++] = newest[--nnew];
	free(newest);
	trust_release(&t);
	return n;
}

size_t outgoing_thread_refs_copy(struct session *sess,
				 const struct dossier *dos, bool hide_reporter,
				 char ***refs)
{
	const char **v;
	size_t n = outgoing_thread_refs(sess, dos, hide_reporter, &v);

	*refs = xcalloc(n + 1, sizeof(**refs));
	for (size_t i = 0; i < n; i++)
		(*refs)[i] = xstrdup(v[i]);
	free(v);
	return n;
}
