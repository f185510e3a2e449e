/*
 * The roster: the keys every stored body is encrypted to.  `roster`
 * shows them with what this officer's keyring knows of each; `roster
 * reseal` encrypts every stored body again to the roster as it is now,
 * after an officer joins or leaves, and gives encrypted messages an
 * older version kept as received the session keys that open them for
 * every officer.
 *
 * Reseal takes one body at a time, each in its own transaction: a kill
 * at any moment leaves every body either as it was or resealed, and a
 * re-run leaves the resealed ones alone (sealed under the team key, with
 * their session keys).
 */
#include <stdlib.h>
#include <string.h>

#include "core/seal.h"
#include "core/team.h"
#include "crypto/teamkey.h"
#include "store/store.h"

void roster_entry_release(struct roster_entry *e)
{
	free(e->fpr);
	free(e->officer);
	free(e->uid);
	memset(e, 0, sizeof(*e));
}

int roster_list(struct session *sess, struct roster_entry **out, size_t *n,
		struct err *err)
{
	struct crypto *c;
	struct store *s;
	struct officer *o = NULL;
	size_t nroster, no = 0;
	const char *const *roster;
	int r;

	*out = NULL;
	*n = 0;
	if (!(s = session_store(sess, err)) ||
	    !(c = session_crypto(sess, err)) ||
	    !(roster = session_roster(sess, &nroster, err))) {
		return ERR_IO;
	}
	if ((r = store_officers_list(s, false, &o, &no, err)) < 0)
		return r;
	*out = xcalloc(nroster + 1, sizeof(**out));
	for (size_t i = 0; i < nroster; i++) {
		struct roster_entry *e = &(*out)[i];
		struct crypto_keydesc d;
		struct err kerr;

		e->fpr = xstrdup(roster[i]);
		for (size_t j = 0; j < no; j++)
			if (o[j].key_fpr &&
			    !str_cmp_ci(o[j].key_fpr, roster[i]))
				e->officer = xstrdup(o[j].role);
		if (crypto_key_describe(c, roster[i], &d, &kerr) == 0) {
			free(e->fpr);
			e->fpr = xstrdup(d.fpr);
			e->uid = d.uid ? xstrdup(d.uid) : NULL;
			e->expires = d.enc_expires &&
					(!d.expires ||
					 d.enc_expires < d.expires)
				? d.enc_expires
				: d.expires;
			e->in_keyring = true;
			e->can_encrypt = d.can_encrypt;
			e->secret = d.secret;
			crypto_keydesc_release(&d);
		}
	}
	*n = nroster;
	for (size_t j = 0; j < no; j++)
		officer_release(&o[j]);
	free(o);
	return 0;
}

void reseal_result_release(struct reseal_result *r)
{
	free(r->unopened);
	free(r->unopened_reports);
	memset(r, 0, sizeof(*r));
}

struct reseal_one {
	int64_t row, report_id;
	const unsigned char *plain; /* what the new blob opens to */
	size_t len;
	enum blob_form form;
	bool keyed; /* a message as received gets its keys */
};

/* The new body and its event: a body changes only with one (the team
 * server refuses it otherwise). */
static int store_one(struct session *sess, void *data, struct err *err)
{
	struct reseal_one *o = data;
	char *detail = xasprintf(
		"message %lld sealed again under the team key%s",
		(long long)o->row, o->keyed ? ", with its session keys" : "");
	int r = store_event_add(sess->store, o->report_id, sess->officer,
				"reseal", detail, err);

	free(detail);
	return r < 0
		? r
		: store_message_set_blob_plain(sess->store, o->row, o->plain,
					       o->len, o->form, err);
}

enum reseal_outcome { RESEAL_DONE, RESEAL_KEPT, RESEAL_UNOPENED };

/*
 * One body stored before the team key (OpenPGP-sealed, or kept as
 * received), or an encrypted message kept as received without its
 * session keys: opened (its seal, then the message inside when that is
 * encrypted too) and stored again sealed under the team key, with the
 * session keys of what is encrypted, as import stores it now: from then
 * on every officer opens it, whatever the roster becomes.  A body the
 * team key seals already with its keys, or as its content, is left alone
 * here (a new generation is store_reseal_reports').  Negative only when
 * the store fails; a body we cannot open is an outcome.
 */
static int reseal_message(struct session *sess, struct crypto *c,
			  const struct message *m, enum reseal_outcome *out,
			  struct err *err)
{
	struct crypto_result res;
	struct pipeline_out po;
	struct reseal_one one = { .row = m->id,
				  .report_id = m->report_id,
				  .form = m->blob_form };
	const char *raw = (const char *)m->blob;
	size_t len = m->blob_len;
	char *keyed = NULL;
	size_t klen = 0;
	unsigned char *team_plain = NULL;
	size_t team_len = 0;
	struct err perr;
	bool sealed = !strcmp(m->blob_kind, "sealed");
	int r = 0;

	memset(&res, 0, sizeof(res));
	memset(&po, 0, sizeof(po));
	*out = RESEAL_UNOPENED;
	if (sealed && session_is_team_sealed(m->blob, m->blob_len)) {
		if (m->blob_form != BLOB_RECEIVED) {
			*out = RESEAL_KEPT;
			return 0;
		}
		if (session_open_sealed(sess, "messages", "blob", m->id,
					m->blob, m->blob_len, &team_plain,
					&team_len, &perr) < 0)
			goto done;
		raw = (const char *)team_plain;
		len = team_len;
	} else if (sealed) {
		if (crypto_decrypt_verify(c, m->blob, m->blob_len, &res,
					  &perr) < 0)
			goto done;
		raw = (const char *)res.plain;
		len = res.plain_len;
	}
	if (m->blob_form == BLOB_RECEIVED) {
		/* The message as received: read it the way import did. */
		if (pipeline_run(sess, raw, len, &po, &perr) < 0)
			goto done;
		if (po.encrypted) {
			one.keyed = true;
			one.form = BLOB_KEYED;
			keyed = seal_keyed(po.session_keys, po.nsession_keys,
					   raw, len, &klen);
			raw = keyed;
			len = klen;
		} else if (team_plain) {
			*out = RESEAL_KEPT;
			goto done;
		}
	}
	one.plain = (const unsigned char *)raw;
	one.len = len;
	if ((r = core_write(sess, store_one, &one, err)) == 0)
		*out = RESEAL_DONE;
done:
	pipeline_out_release(&po);
	crypto_result_release(&res);
	if (keyed)
		wipe_free(keyed, klen);
	if (team_plain)
		wipe_free(team_plain, team_len);
	return r;
}

/* A batch of reports' fields and team-sealed bodies under the latest
 * generation, each with the reseal event the team server asks for, in
 * one transaction (one commit per report made a reseal of 100k reports
 * wait on 100k commits).  A run stopped midway loses at most the batch
 * it was in; run again, it finds those reports still to do. */
#define RESEAL_BATCH 256
#define LOOK_READ 64 /* bodies read at once to look at, */
#define LOOK_BYTES (8 << 20) /* and their bytes, a body more at most */

struct reseal_batch {
	const struct report_key *keys;
	size_t n;
	size_t changed; /* reports sealed again in this batch */
};

struct reseal_sent {
	struct session *sess;
	int64_t *ids; /* room for a part's */
	size_t *changed;
};

/* The team server checks at commit that an event records each report
 * sealed again: those of a part, once it is written. */
static int reseal_events(const int64_t *ids, const bool *changed, size_t n,
			 void *data, struct err *err)
{
	struct reseal_sent *e = data;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (changed[i])
			e->ids[k++] = ids[i];
	*e->changed += k;
	return store_events_add(
		e->sess->store, e->ids, k, e->sess->officer, "reseal",
		"sealed again under the team key's latest generation", err);
}

static int reseal_batch(struct session *sess, void *data, struct err *err)
{
	struct reseal_batch *q = data;
	int64_t *ids = xmalloc((q->n + 1) * sizeof(*ids));
	bool *changed = xcalloc(q->n + 1, sizeof(*changed));
	struct reseal_sent e = { sess, xmalloc((q->n + 1) * sizeof(int64_t)),
				 &q->changed };
	int r;

	q->changed = 0;
	for (size_t i = 0; i < q->n; i++)
		ids[i] = q->keys[i].id;
	/* Hundreds of writes a batch, none read back: on a team server,
	 * sent without a round trip each (db_send). */
	r = store_reseal_reports(sess->store, ids, q->n, changed, reseal_events,
				 &e, err);
	free(e.ids);
	free(ids);
	free(changed);
	return r;
}

struct reseal_log {
	const char *detail;
	size_t dropped;
};

/* The run's event, and (every report now sealed under the latest
 * generation) the older generations' wrapped copies dropped: the chain
 * keeps them for the roster. */
static int log_reseal(struct session *sess, void *data, struct err *err)
{
	struct reseal_log *l = data;
	int r = store_event_add(sess->store, 0, sess->officer, "roster-reseal",
				l->detail, err);

	return r < 0 ? r
		     : store_team_keys_drop_old(sess->store, &l->dropped, err);
}

int roster_reseal(struct session *sess, struct reseal_result *res,
		  void (*progress)(size_t done, size_t total, void *data),
		  void *data, struct err *err)
{
	struct store *s;
	struct crypto *c;
	size_t nroster, n = 0, batch;
	struct message_look *looks = NULL;
	int r;

	batch = res->batch ? res->batch : RESEAL_BATCH;
	memset(res, 0, sizeof(*res));
	res->batch = batch;
	if (!(s = session_store(sess, err)) ||
	    !(c = session_crypto(sess, err)) ||
	    !session_roster(sess, &nroster, err)) {
		return ERR_IO;
	}
	/* The team key first: a new generation when an officer left the
	 * roster, a wrapped copy for each one who joined it. */
	if ((r = session_team_key_rotate(sess, &res->rotated, err)) < 0 ||
	    (r = session_team_key_share(sess, &res->shared, err)) < 0)
		return r;
	/* Read only the bodies there may be something to do for: the list
	 * says, from clear columns and the blob's first bytes, which of
	 * them reseal_message would leave alone unopened. */
	if ((r = store_message_reseal_list(s, TEAM_KEY_SEALED_MAGIC,
					   TEAM_KEY_SEALED_MAGIC_LEN, &looks,
					   &n, err)) < 0)
		return r;
	res->total = n;
	/* The bodies to look at are read LOOK_READ at a time, LOOK_BYTES
	 * (a query each was a round trip a body). */
	for (size_t i = 0; i < n && r == 0;) {
		int64_t ids[LOOK_READ];
		struct message *ms = NULL;
		size_t k = 0, end = i, nm = 0, at = 0;

		for (int64_t bytes = 0;
		     end < n && k < LOOK_READ && bytes < LOOK_BYTES; end++)
			if (looks[end].look) {
				ids[k++] = looks[end].id;
				bytes += looks[end].size;
			}
		if (k &&
		    (r = store_messages_get_ids(s, ids, k, &ms, &nm, err)) < 0)
			break;
		for (; i < end && r == 0; i++) {
			enum reseal_outcome o;

			/* Both by id; a row gone meanwhile is nothing to do. */
			while (at < nm && ms[at].id < looks[i].id)
				at++;
			if (!looks[i].look || at == nm ||
			    ms[at].id != looks[i].id) {
				res->kept++;
			} else if ((r = reseal_message(sess, c, &ms[at], &o,
						       err)) < 0) {
				break;
			} else if (o == RESEAL_DONE) {
				res->resealed++;
			} else if (o == RESEAL_KEPT) {
				res->kept++;
			} else {
				res->unopened = xrealloc(
					res->unopened,
					(res->nunopened + 1) * sizeof(int64_t));
				res->unopened_reports = xrealloc(
					res->unopened_reports,
					(res->nunopened + 1) * sizeof(int64_t));
				res->unopened[res->nunopened] = ms[at].id;
				res->unopened_reports[res->nunopened++] =
					ms[at].report_id;
			}
			if (progress)
				progress(i + 1, n, data);
		}
		for (size_t j = 0; j < nm; j++)
			message_release(&ms[j]);
		free(ms);
	}
	free(looks);
	/* Then everything sealed under an older generation, report by
	 * report (after a rotation, or to finish one a run left midway). */
	if (r == 0) {
		struct report_key *keys = NULL;
		size_t nk = 0;

		r = report_keys(sess, &keys, &nk, err);
		for (size_t i = 0; r == 0 && i < nk; i += batch) {
			struct reseal_batch q = {
				keys + i, nk - i < batch ? nk - i : batch, 0
			};

			if ((r = core_write(sess, reseal_batch, &q, err)) == 0)
				res->rekeyed += q.changed;
		}
		free(keys);
	}
	if (r == 0) {
		char *detail = xasprintf(
			"%zu resealed, %zu already sealed to the roster, %zu not opened",
			res->resealed, res->kept, res->nunopened);
		struct reseal_log l = { detail, 0 };

		r = core_write(sess, log_reseal, &l, err);
		res->dropped = l.dropped;
		free(detail);
	}
	return r;
}
