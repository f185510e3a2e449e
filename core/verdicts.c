/*
 * A message's verdict against the officer's keyring now.
 *
 * Verifying means opening the message (decrypting it with its session
 * keys, verifying its signatures): a gpg process or two.  So the result
 * is kept in the officer's own cache (store/verdict-cache.c), keyed to
 * the body's key, the keyring's stamp and the signing key's state
 * (crypto/stamp.c).  While the keyring's stamp is the same the cached
 * verdict stands; when it changed, a key whose state is the same (most
 * of them: a key imported for someone else) keeps it, and only messages
 * whose signing key changed are verified again.
 */
#include <stdlib.h>
#include <string.h>

#include "core/verdicts.h"
#include "crypto/crypto.h"
#include "store/store.h"

void verdict_now_free(struct verdict_now *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].fingerprint);
	free(v);
}

/* The session's cache, opened on first use; NULL when it cannot be (the
 * verdicts are then verified every time). */
static struct verdict_cache *cache_of(struct session *sess)
{
	struct err err = { 0, "" };
	char *path;

	if (sess->verdicts || sess->verdicts_tried)
		return sess->verdicts;
	sess->verdicts_tried = true;
	if (!sess->store ||
	    !(path = cache_file("verdicts", store_where(sess->store), "db")))
		return NULL;
	if (store_verdict_cache_open(path, &sess->verdicts, &err) < 0)
		sess->verdicts = NULL;
	free(path);
	return sess->verdicts;
}

/* Key states looked up in one call, by fingerprint. */
struct states {
	char **fpr, **state;
	size_t n;
};

static const char *state_of(struct crypto *c, struct states *s, const char *fpr)
{
	const char *f = fpr ? fpr : "";

	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->fpr[i], f))
			return s->state[i];
	s->fpr = xrealloc(s->fpr, (s->n + 1) * sizeof(*s->fpr));
	s->state = xrealloc(s->state, (s->n + 1) * sizeof(*s->state));
	s->fpr[s->n] = xstrdup(f);
	s->state[s->n] = crypto_key_state(c, fpr);
	return s->state[s->n++];
}

static void states_release(struct states *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->fpr[i]);
		free(s->state[i]);
	}
	free(s->fpr);
	free(s->state);
}

/* Message k's verdict now into *v: the cache's when it still holds,
 * else the message opened and verified again (and cached). */
static void verdict_one(struct session *sess, struct crypto *c,
			struct verdict_cache *vc, const char *stamp,
			struct states *st, const struct message_key *k,
			bool force, struct verdict_now *v)
{
	struct err err = { 0, "" };
	struct verdict_row row;
	struct opened_message om;
	int have = vc ? store_verdict_cache_get(vc, k->id, &row, &err) : 0;

	v->report_id = k->report_id;
	v->message_id = k->id;
	if (have > 0 && !force && !strcmp(row.key, k->key) &&
	    (!strcmp(row.keyring, stamp) ||
	     !strcmp(row.keystate, state_of(c, st, row.fingerprint)))) {
		v->verdict = row.verdict;
		v->signer_matches_from = row.matches;
		v->fingerprint = row.fingerprint;
		row.fingerprint = NULL;
		if (strcmp(row.keyring, stamp)) {
			/* The keyring changed, this key did not. */
			free(row.keyring);
			row.keyring = xstrdup(stamp);
			store_verdict_cache_put(vc, &row, &err);
		}
		verdict_row_release(&row);
		return;
	}
	if (have > 0)
		verdict_row_release(&row);
	if (report_open_message(sess, k->id, &om, &err) < 0) {
		/* Checked by nobody: an error, not the verdict a row claims. */
		opened_message_release(&om);
		v->verdict = SIG_ERROR;
		return;
	}
	v->verdict = om.verdict;
	v->signer_matches_from = om.signer_matches_from;
	v->fingerprint = om.fingerprint;
	om.fingerprint = NULL;
	opened_message_release(&om);
	if (vc) {
		struct verdict_row put = {
			.message_id = k->id,
			.key = (char *)k->key,
			.keyring = (char *)stamp,
			.keystate = (char *)state_of(c, st, v->fingerprint),
			.verdict = v->verdict,
			.matches = v->signer_matches_from,
			.fingerprint = v->fingerprint,
		};
		store_verdict_cache_put(vc, &put, &err);
	}
}

int verdicts_of(struct session *sess, const int64_t *ids, size_t n,
		bool first_only, bool force, struct verdict_now **out,
		size_t *nout, struct err *err)
{
	struct store *s = session_store(sess, err);
	struct crypto *c;
	struct message_key *keys = NULL;
	struct states st = { NULL, NULL, 0 };
	size_t nkeys = 0;
	char *stamp;
	int r;

	*out = NULL;
	*nout = 0;
	if (!s || !(c = session_crypto(sess, err)))
		return ERR_IO;
	if ((r = store_message_keys_of(s, ids, n, first_only, &keys, &nkeys,
				       err)) < 0)
		return r;
	/* Taken before verifying: a keyring that changes meanwhile makes
	 * the next read look again. */
	stamp = crypto_keyring_stamp(c);
	*out = xcalloc(nkeys + 1, sizeof(**out));
	for (size_t i = 0; i < nkeys; i++)
		verdict_one(sess, c, cache_of(sess), stamp, &st, &keys[i],
			    force, &(*out)[i]);
	*nout = nkeys;
	states_release(&st);
	free(stamp);
	free(keys);
	return 0;
}

int verdicts_apply_reports(struct session *sess, struct report *r, size_t n,
			   struct err *err)
{
	int64_t *ids = xcalloc(n + 1, sizeof(*ids));
	struct verdict_now *v;
	size_t nv, m = 0;
	int rc;

	for (size_t i = 0; i < n; i++)
		if (r[i].id && r[i].nmessages)
			ids[m++] = r[i].id;
	rc = m ? verdicts_of(sess, ids, m, true, false, &v, &nv, err) : 0;
	free(ids);
	if (rc < 0 || !m)
		return rc;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < nv; k++)
			if (v[k].report_id == r[i].id) {
				r[i].verdict = v[k].verdict;
				r[i].signer_matches_from =
					v[k].signer_matches_from;
				break;
			}
	verdict_now_free(v, nv);
	return 0;
}

/* rf->files made again: the files of every message whose files count,
 * each message opened. */
static void files_again(struct session *sess, struct report_full *rf)
{
	char **files = xcalloc(1, sizeof(*files));
	size_t n = 0;

	for (size_t i = 0; i < rf->nmsgs; i++) {
		struct opened_message om;
		struct err err = { 0, "" };

		if (!report_files_count(&rf->r, &rf->msgs[i], i == 0))
			continue;
		if (report_open_message(sess, rf->msgs[i].id, &om, &err) == 0)
			for (size_t k = 0; k < om.nfiles; k++) {
				bool have = false;

				for (size_t j = 0; j < n && !have; j++)
					have = !strcmp(files[j], om.files[k]);
				if (have)
					continue;
				files = xrealloc(files,
						 (n + 2) * sizeof(*files));
				files[n++] = xstrdup(om.files[k]);
				files[n] = NULL;
			}
		opened_message_release(&om);
	}
	for (size_t i = 0; i < rf->nfiles; i++)
		free(rf->files[i]);
	free(rf->files);
	rf->files = files;
	rf->nfiles = n;
}

int verdicts_apply_full(struct session *sess, struct report_full *rf,
			bool force, struct err *err)
{
	struct verdict_now *v;
	size_t nv;
	bool counts_changed = false;
	int rc;

	if (!rf->nmsgs)
		return 0;
	if ((rc = verdicts_of(sess, &rf->r.id, 1, false, force, &v, &nv, err)) <
	    0)
		return rc;
	for (size_t i = 0; i < rf->nmsgs; i++) {
		struct message *m = &rf->msgs[i];
		bool before = report_files_count(&rf->r, m, i == 0);

		for (size_t k = 0; k < nv; k++) {
			if (v[k].message_id != m->id)
				continue;
			m->verdict = v[k].verdict;
			m->signer_matches_from = v[k].signer_matches_from;
			if (v[k].fingerprint) {
				free(m->fingerprint);
				m->fingerprint = xstrdup(v[k].fingerprint);
			}
			break;
		}
		counts_changed |= before !=
			report_files_count(&rf->r, m, i == 0);
	}
	verdict_now_free(v, nv);
	rf->r.verdict = rf->msgs[0].verdict;
	rf->r.signer_matches_from = rf->msgs[0].signer_matches_from;
	if (counts_changed)
		files_again(sess, rf);
	return 0;
}

int verdicts_verify(struct session *sess, int64_t id, struct verdict_now **out,
		    size_t *nout, struct err *err)
{
	struct store *s = session_store(sess, err);
	struct report_key *keys = NULL;
	int64_t *ids;
	size_t n = 0;
	int rc;

	*out = NULL;
	*nout = 0;
	if (!s)
		return ERR_IO;
	if (id) {
		struct report_key k;

		if ((rc = store_report_key(s, id, &k, err)) < 0)
			return rc;
		ids = xmalloc(sizeof(*ids));
		ids[n++] = id;
	} else {
		if ((rc = store_report_keys(s, &keys, &n, err)) < 0)
			return rc;
		ids = xcalloc(n + 1, sizeof(*ids));
		for (size_t i = 0; i < n; i++)
			ids[i] = keys[i].id;
		free(keys);
	}
	rc = n ? verdicts_of(sess, ids, n, false, true, out, nout, err) : 0;
	free(ids);
	/* What the record keeps, beside it. */
	for (size_t i = 0; rc == 0 && i < *nout;) {
		struct message *m = NULL;
		size_t nm = 0, j = i;

		if ((rc = store_messages_get(s, (*out)[i].report_id, false, &m,
					     &nm, err)) < 0)
			break;
		for (; j < *nout && (*out)[j].report_id == (*out)[i].report_id;
		     j++) {
			(*out)[j].was = SIG_NONE;
			for (size_t k = 0; k < nm; k++)
				if (m[k].id == (*out)[j].message_id)
					(*out)[j].was = m[k].verdict;
		}
		for (size_t k = 0; k < nm; k++)
			message_release(&m[k]);
		free(m);
		i = j;
	}
	if (rc < 0) {
		verdict_now_free(*out, *nout);
		*out = NULL;
		*nout = 0;
	}
	return rc;
}
