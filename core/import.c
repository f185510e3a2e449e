/*
 * Importing: each message is taken whole or not at all.  A duplicate is
 * the same content (its hash), spotted before any decryption; the
 * store's UNIQUE constraint catches the race where two officers import
 * the same message at once.  A Message-ID alone proves nothing (a
 * squatter can send one first): other content under a known Message-ID
 * is imported, and both messages are marked and noted in the timeline
 * (message-id-reused).  A reply (In-Reply-To or References naming a
 * stored message) joins that message's report, unless that Message-ID is
 * on messages of several reports: then it joins none, and says so.  The
 * body is kept as received, sealed under the team key, with the session
 * keys of what was encrypted (seal.h): every officer opens it and
 * verifies it again.
 */
#include <stdlib.h>
#include <string.h>

#include "core/pipeline.h"
#include "core/reportlog.h"
#include "core/search.h"
#include "core/seal.h"
#include "store/store.h"

void import_result_release(struct import_result *r)
{
	free(r->subject);
	free(r->error);
	memset(r, 0, sizeof(*r));
}

#define HOLDERS_MAX 4 /* messages named in a message-id-reused event */
#define SHOWN_ID_MAX 200 /* of a Message-ID quoted in an event */

/*
 * The report a reply joins: the one holding the message its In-Reply-To
 * names, else the newest of its References that one report holds.  A
 * Message-ID on messages of several reports (reused: anyone can send
 * mail with a known Message-ID) points at none of them; the first such
 * one is described in *ambiguous (caller frees) for the timeline.
 * Returns 0 when the message joins no report.
 */
static int64_t find_thread(struct store *s, const struct mail_msg *m,
			   char **ambiguous)
{
	struct message_ref refs[HOLDERS_MAX];
	size_t n;

	*ambiguous = NULL;
	for (size_t i = 0; i <= m->nreferences; i++) {
		const char *id = i == 0 ? m->in_reply_to
					: m->references[m->nreferences - i];
		bool one = true;

		if (!id ||
		    store_message_id_holders(s, id, 0, refs, HOLDERS_MAX, &n,
					     NULL) < 0 ||
		    n == 0)
			continue;
		for (size_t k = 1; k < n && k < HOLDERS_MAX; k++)
			if (refs[k].report_id != refs[0].report_id)
				one = false;
		if (one && n <= HOLDERS_MAX)
			return refs[0].report_id;
		if (!*ambiguous) {
			struct sbuf sb = SBUF_INIT;
			sbuf_addf(
				&sb,
				"replies to <%.*s>, which messages of reports",
				SHOWN_ID_MAX, id);
			for (size_t k = 0; k < n && k < HOLDERS_MAX; k++) {
				bool seen = false;
				for (size_t j = 0; j < k; j++)
					seen |= refs[j].report_id ==
						refs[k].report_id;
				if (!seen)
					sbuf_addf(&sb, " #%lld",
						  (long long)refs[k].report_id);
			}
			sbuf_adds(
				&sb,
				" all carry (a reused Message-ID): joined to none");
			*ambiguous = sbuf_detach(&sb, NULL);
		}
	}
	return 0;
}

/*
 * The timeline entries for a Message-ID that messages with other content
 * already carry: one on this message's report naming them, one on each of
 * their reports naming this one.  A squatter's mail sent first no longer
 * makes the genuine one a duplicate; both are imported and both marked.
 */
static int note_reused_id(struct store *s, const char *officer, int64_t rid,
			  int64_t mrow, const char *message_id, struct err *err)
{
	struct message_ref refs[HOLDERS_MAX];
	struct sbuf sb = SBUF_INIT;
	size_t n;
	int r;

	if (!message_id)
		return 0;
	if ((r = store_message_id_holders(s, message_id, mrow, refs,
					  HOLDERS_MAX, &n, err)) < 0 ||
	    n == 0)
		return r;
	sbuf_addf(&sb, "Message-ID <%.*s> of message %lld is already on",
		  SHOWN_ID_MAX, message_id, (long long)mrow);
	for (size_t k = 0; k < n && k < HOLDERS_MAX; k++)
		sbuf_addf(&sb, "%s message %lld of report #%lld", k ? "," : "",
			  (long long)refs[k].row, (long long)refs[k].report_id);
	if (n > HOLDERS_MAX)
		sbuf_addf(&sb, " and %zu more", n - HOLDERS_MAX);
	sbuf_adds(&sb, ", with other content");
	r = store_event_add(s, rid, officer, "message-id-reused", sb.buf, err);
	for (size_t k = 0; r == 0 && k < n && k < HOLDERS_MAX; k++) {
		bool seen = refs[k].report_id == rid;
		for (size_t j = 0; j < k; j++)
			if (refs[j].report_id == refs[k].report_id)
				seen = true;
		if (seen)
			continue;
		sbuf_reset(&sb);
		sbuf_addf(
			&sb,
			"Message-ID <%.*s> of message %lld is used again by message %lld of report #%lld, with other content",
			SHOWN_ID_MAX, message_id, (long long)refs[k].row,
			(long long)mrow, (long long)rid);
		r = store_event_add(s, refs[k].report_id, officer,
				    "message-id-reused", sb.buf, err);
	}
	sbuf_release(&sb);
	return r;
}

/*
 * The body at rest: sealed by the store under the team key for its row
 * (crypto/teamkey.h), so an import costs no second OpenPGP run.  What is
 * sealed is always the message as received, so that every opening
 * verifies it again from its bytes (core/report.c); one that was
 * encrypted comes after the session keys its decryptions gave, which
 * open it for every officer, whoever it was encrypted to (seal.h).
 * *plain (the caller's, wiped) is that, *digest the SHA-256 of the
 * message.
 */
static int seal(const struct pipeline_out *po, const char *raw, size_t len,
		unsigned char **plain, size_t *plain_len, enum blob_form *form,
		char **digest, struct err *err)
{
	bool any = false;

	*form = BLOB_RECEIVED;
	*digest = mail_raw_hash(raw, len);
	for (size_t i = 0; i < po->nsession_keys; i++)
		any = any || po->session_keys[i];
	if (po->encrypted && !any) {
		free(*digest);
		*digest = NULL;
		*plain = NULL;
		return err_setc(
			err, ERR_CRYPTO,
			"gpg gave no session key for the encrypted message: it could not be opened again");
	}
	if (po->encrypted) {
		*form = BLOB_KEYED;
		*plain = (unsigned char *)seal_keyed(po->session_keys,
						     po->nsession_keys, raw,
						     len, plain_len);
	} else {
		*plain = xmemdup(raw, len);
		*plain_len = len;
	}
	return 0;
}

static void undo(struct store *s, bool batched)
{
	if (batched)
		store_savepoint_rollback(s);
	else
		store_rollback(s);
}

int import_batch_begin(struct session *sess, struct err *err)
{
	struct store *s = session_store(sess, err);

	if (!s)
		return ERR_IO;
	return store_begin(s, err);
}

int import_batch_commit(struct session *sess, struct err *err)
{
	return store_commit(sess->store, err);
}

void import_batch_abort(struct session *sess)
{
	if (sess->store)
		store_rollback(sess->store);
}

/* What seal() made of a message: the bytes stored and what they are. */
struct sealed {
	unsigned char *plain; /* what the store seals (wiped) */
	size_t len;
	enum blob_form form;
	char *digest; /* SHA-256 of the message as received */
};

struct import_pending {
	char *raw; /* the bytes (the job reads its ciphertext) */
	size_t len;
	bool own; /* raw is our copy */
	struct pipeline_out po;
	bool parsed; /* pipeline_parse succeeded */
	struct err perr; /* why it did not */
	char *hash;
	bool duplicate; /* already stored when started */
	int64_t dup_report;
	int64_t into; /* joins this report whatever it references
				 * (mail this program sent), or 0 */
	/* import_prepare: what goes into the store, made before it is held */
	bool prepared, bad; /* bad: not to be stored, perr says why */
	struct sealed b;
	char **files, **ufiles;
	size_t nfiles, nufiles;
};

/* A message stored before transport fields were left out of the hash
 * carries the hash of all its bytes. */
static bool legacy_duplicate(struct store *s, struct import_pending *p)
{
	char *raw = mail_raw_hash(p->raw, p->len);
	bool dup = strcmp(raw, p->hash) &&
		store_message_find(s, NULL, raw, &p->dup_report, NULL) == 0;

	free(raw);
	return dup;
}

struct import_pending *import_start(struct session *sess, const char *raw,
				    size_t len, bool copy)
{
	struct import_pending *p = xcalloc(1, sizeof(*p));
	struct store *s = session_store(sess, NULL);

	p->raw = copy ? xmemdup(raw, len) : (char *)raw;
	p->own = copy;
	p->len = len;
	if (pipeline_parse(p->raw, len, &p->po, &p->perr) < 0)
		return p;
	p->parsed = true;
	p->hash = mail_content_hash(p->raw, len);
	/* The same content is a duplicate, however it was delivered; the
	 * same Message-ID alone is not. */
	if (s &&
	    (store_message_find(s, NULL, p->hash, &p->dup_report, NULL) == 0 ||
	     legacy_duplicate(s, p))) {
		p->duplicate = true;
		return p;
	}
	pipeline_start(sess, &p->po);
	return p;
}

struct import_pending *import_start_into(struct session *sess, const char *raw,
					 size_t len, int64_t report_id)
{
	struct import_pending *p = import_start(sess, raw, len, true);

	p->into = report_id;
	return p;
}

void import_pending_free(struct import_pending *p)
{
	if (!p)
		return;
	pipeline_out_release(&p->po);
	free(p->hash);
	wipe_free(p->b.plain, p->b.len);
	free(p->b.digest);
	for (size_t i = 0; i < p->nfiles; i++)
		free(p->files[i]);
	free(p->files);
	for (size_t i = 0; i < p->nufiles; i++)
		free(p->ufiles[i]);
	free(p->ufiles);
	if (p->own)
		wipe_free(p->raw, p->len);
	free(p);
}

/* The message row of p, in report rid, with its sealed body. */
static void message_row(const struct import_pending *p, int64_t rid,
			enum sig_verdict verdict, const struct sealed *b,
			time_t now, struct message *m)
{
	const struct pipeline_out *po = &p->po;

	memset(m, 0, sizeof(*m));
	m->report_id = rid;
	m->message_id = po->msg.message_id;
	m->content_hash = p->hash;
	m->in_reply_to = po->msg.in_reply_to;
	m->from_name = po->msg.from_name;
	m->from_email = po->msg.from_email;
	m->subject = po->msg.subject;
	m->date = po->msg.date;
	m->imported = now;
	m->encrypted = po->encrypted;
	m->verdict = verdict;
	m->fingerprint = po->fingerprint;
	m->signer_matches_from = po->signer_matches_from;
	m->blob_plain = b->plain;
	m->blob_plain_len = b->len;
	m->blob_kind = (char *)"sealed";
	m->blob_form = b->form;
	m->plain_sha256 = b->digest;
}

/* A new report for p, with the id store_import_claim drew (row). */
static int new_report(struct store *s, const struct import_pending *p,
		      time_t now, int64_t row, int64_t *rid, struct err *err)
{
	const struct pipeline_out *po = &p->po;
	struct report_new rn = {
		.subject = po->msg.subject,
		.reporter_name = po->msg.from_name,
		.reporter_email = po->msg.from_email,
		.received = po->msg.date > 0 && po->msg.date <= now
			? po->msg.date
			: now,
		.id = row,
	};

	return store_report_insert(s, &rn, rid, err);
}

/* The message's signatures, the report's files and the timeline. */
static int record(struct session *sess, struct store *s,
		  const struct import_pending *p,
		  const struct import_result *res, int64_t rid, int64_t mrow,
		  char **files, size_t nfiles, const char *ambiguous,
		  struct err *err)
{
	const struct pipeline_out *po = &p->po;
	char *detail;
	int r;

	for (size_t i = 0; i < po->nsigs; i++)
		if ((r = store_signature_add(s, mrow, po->sigs[i].verdict,
					     po->sigs[i].fingerprint,
					     po->sigs[i].created, err)) < 0)
			return r;
	if ((r = store_files_add(s, rid, files, nfiles,
				 res->status == IMPORT_NEW, err)) < 0)
		return r;
	detail = xasprintf("%s from %s, %s%s",
			   res->status == IMPORT_NEW ? "report" : "reply",
			   po->msg.from_email ? po->msg.from_email
					      : "(no address)",
			   sig_verdict_name(res->verdict),
			   po->encrypted ? ", encrypted" : "");
	/* A copy of mail this program sent (p->into) is already in the
	 * timeline as its reply-sent/notice event: one message, one entry. */
	r = 0;
	if ((!p->into &&
	     (r = store_event_add(s, rid, sess->officer,
				  res->status == IMPORT_NEW ? "import" : "reply",
				  detail, err)) < 0) ||
	    (ambiguous &&
	     (r = store_event_add(s, rid, sess->officer, "message-id-reused",
				  ambiguous, err)) < 0))
		goto out;
	r = note_reused_id(s, sess->officer, rid, mrow, po->msg.message_id,
			   err);
out:
	free(detail);
	return r < 0 ? r : 0;
}

/* A reply's files are the report's only when report_files_count says
 * so (the reporter's signed text); else *nfiles becomes 0 and they are
 * listed apart when the message is shown. */
static int reply_files(struct store *s, const struct import_result *res,
		       int64_t rid, const struct message *m, size_t *nfiles,
		       struct err *err)
{
	struct report rep;
	int r;

	if (res->status == IMPORT_NEW || !*nfiles)
		return 0;
	memset(&rep, 0, sizeof(rep));
	if ((r = store_report_get(s, rid, &rep, err)) < 0)
		return r;
	if (!report_files_count(&rep, m, false))
		*nfiles = 0;
	report_release(&rep);
	return 0;
}

/* On a team server, the importing officer's signed event binding the
 * message row to its report, with the digests of its values, its
 * signatures and the files it counts (core/reportlog.h). */
static int sign_import(struct session *sess, const struct import_pending *p,
		       const struct import_result *res, int64_t rid,
		       int64_t mrow, struct message *m, char **files,
		       size_t nfiles, struct err *err)
{
	const struct pipeline_out *po = &p->po;
	struct report_log_import in = {
		.report = rid,
		.made = res->status == IMPORT_NEW,
		.m = m,
		.nsigs = po->nsigs,
		.files = files,
		.nfiles = nfiles,
	};
	enum sig_verdict *sv = xcalloc(po->nsigs + 1, sizeof(*sv));
	const char **sf = xcalloc(po->nsigs + 1, sizeof(*sf));
	time_t *sc = xcalloc(po->nsigs + 1, sizeof(*sc));
	int r;

	for (size_t i = 0; i < po->nsigs; i++) {
		sv[i] = po->sigs[i].verdict;
		sf[i] = po->sigs[i].fingerprint;
		sc[i] = po->sigs[i].created;
	}
	in.sig_verdicts = sv;
	in.sig_fprs = sf;
	in.sig_created = sc;
	m->id = mrow;
	r = report_log_import(sess, &in, err);
	free(sv);
	free(sf);
	free(sc);
	return r;
}

/*
 * Stores p inside the open transaction or savepoint: 0 when stored
 * (res->report_id set), 1 when it is a duplicate (res says of what;
 * the caller undoes), < 0 on error (the caller rolls back).
 */
static int store_rows(struct session *sess, struct store *s,
		      struct import_pending *p, struct import_result *res,
		      const struct sealed *b, char **files, size_t nfiles,
		      struct err *err)
{
	struct message m;
	char *ambiguous = NULL;
	int64_t rid, mrow, dup, rrow, mdrawn;
	time_t now = util_now();
	int r;

	/* The report it joins, if any; then, in one wait on a team server,
	 * whether it was stored since it was read ahead (earlier in this
	 * import, or by a colleague), said before a report row is made
	 * (which would spend a report number for nothing), and if not, the
	 * ids of its rows.  Another officer's import racing this one is
	 * still caught by the unique key below. */
	rid = p->into ? p->into : find_thread(s, &p->po.msg, &ambiguous);
	if ((r = store_import_claim(s, p->hash, !rid, &dup, &rrow, &mdrawn,
				    err)) < 0)
		goto out;
	if (dup) {
		res->report_id = dup;
		r = 1;
		goto out;
	}
	res->status = rid ? IMPORT_REPLY : IMPORT_NEW;
	if (!rid && (r = new_report(s, p, now, rrow, &rid, err)) < 0)
		goto out;
	message_row(p, rid, res->verdict, b, now, &m);
	m.drawn_id = mdrawn;
	r = store_message_insert(s, &m, &mrow, err);
	if (r == ERR_DUPLICATE) {
		/* Stored a moment ago: by another officer, or earlier in
		 * this same import (started before that one was stored). */
		err_clear(err);
		store_message_find(s, NULL, p->hash, &res->report_id, NULL);
		r = 1;
		goto out;
	}
	/* The signed import first: the timeline's first change then
	 * follows it in the report's chain. */
	if (r < 0 || (r = reply_files(s, res, rid, &m, &nfiles, err)) < 0 ||
	    (r = sign_import(sess, p, res, rid, mrow, &m, files, nfiles, err)) <
		    0 ||
	    (r = record(sess, s, p, res, rid, mrow, files, nfiles, ambiguous,
			err)) < 0)
		goto out;
	res->report_id = rid;
	search_index_import(sess, rid, mrow, p->po.body.buf, p->po.body.len,
			    p->po.att, p->po.natt);
out:
	free(ambiguous);
	return r;
}

void import_prepare(struct session *sess, struct import_pending *p)
{
	struct pipeline_out *po = &p->po;

	if (p->prepared)
		return;
	p->prepared = true;
	if (!p->parsed) {
		p->bad = true;
		return;
	}
	if (p->duplicate)
		return;
	/* Only files the verdict covers are the report's (and of a reply,
	 * only the reporter's signed text's: reply_files); those of unsigned
	 * parts are listed apart when the message is shown. */
	if (pipeline_process(sess, po, &p->perr) < 0 ||
	    session_team_key_ready(sess, &p->perr) < 0 ||
	    seal(po, p->raw, p->len, &p->b.plain, &p->b.len, &p->b.form,
		 &p->b.digest, &p->perr) < 0) {
		p->bad = true;
		return;
	}
	pipeline_files(po, &p->files, &p->nfiles, &p->ufiles, &p->nufiles);
}

int import_finish(struct session *sess, struct import_pending *p,
		  struct import_result *res, struct err *err)
{
	struct store *s = session_store(sess, err);
	struct pipeline_out *po = &p->po;
	bool batched = false;
	int r;

	memset(res, 0, sizeof(*res));
	res->verdict = SIG_NONE;
	if (!s) {
		import_pending_free(p);
		return ERR_IO;
	}
	import_prepare(sess, p);
	if (p->bad)
		goto bad;
	res->subject = safe_str(po->msg.subject ? po->msg.subject : "");
	if (p->duplicate) {
		res->status = IMPORT_DUPLICATE;
		res->report_id = p->dup_report;
		goto out;
	}
	res->verdict = po->verdict;

	/* Inside a batch (import_batch_begin) the message is a savepoint of
	 * the batch's transaction; alone it is its own transaction. */
	batched = store_in_tx(s);
	if ((r = batched ? store_savepoint(s, err) : store_begin(s, err)) < 0)
		goto fail;
	/* The writes whose results nothing reads (the savepoint, the
	 * signatures, files and timeline) go to a team server without a
	 * round trip each (db_send): the write lock is held for fewer waits
	 * on this process, which a busy machine may not run at once.  An
	 * error among them is found by the next statement, at the latest
	 * the commit, and named as its own (store_dberr);
	 * like any failure of the store, it ends the batch. */
	r = store_rows(sess, s, p, res, &p->b, p->files, p->nfiles, err);
	if (r == 1) {
		undo(s, batched);
		res->status = IMPORT_DUPLICATE;
		goto out;
	}
	if (r < 0)
		goto rollback;
	if ((r = batched ? store_savepoint_release(s, err)
			 : store_commit(s, err)) < 0)
		goto fail;
	/* Alone, the message is committed: the index can be written.  A
	 * batch's is written by its caller once the batches are done. */
	if (!batched)
		search_index_done(sess);
	goto out;

bad:
	free(res->subject);
	res->subject = p->parsed
		? safe_str(po->msg.subject ? po->msg.subject : "")
		: NULL;
	res->status = IMPORT_ERROR;
	res->error = xstrdup(p->perr.msg);
	res->verdict = SIG_ERROR;
	goto out;
rollback:
	undo(s, batched);
fail:
	res->status = IMPORT_ERROR;
	res->error = xstrdup(err->msg);
	res->report_id = 0;
	goto done;
out:
	r = 0;
done:
	import_pending_free(p);
	return r;
}
