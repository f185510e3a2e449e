/*
 * One message, from raw bytes to what an officer is shown and how far it
 * can be trusted.
 *
 * The verdict describes what is shown, not what the message contains: a
 * good signature over one part of a multipart/mixed, or over an inline
 * block with text around it, gives `partial`, never `valid` or `good`.
 * Encryption without any signature shows as `not-signed` (or `partial`
 * when only part of what is shown was encrypted).  What is shown but not
 * covered (text beside an inline block, an attachment of an inline-signed
 * mail, a part beside the multipart/signed or the multipart/encrypted,
 * shown where it stands) is recorded as ranges of the body and flags on
 * the attachments, never as marks inside the text, which the sender
 * could write too; displays mark it line by line, and the files it
 * touches are kept apart as unsigned.
 */
#include <stdlib.h>
#include <string.h>

#include "core/pipeline.h"
#include "touched/touched.h"

static void take_sigs(struct pipeline_out *out, const struct crypto_result *res)
{
	for (size_t i = 0; i < res->nsigs; i++) {
		out->sigs = xrealloc(out->sigs,
				     (out->nsigs + 1) * sizeof(*out->sigs));
		crypto_sig_copy(&out->sigs[out->nsigs++], &res->sigs[i]);
	}
}

/* Signature and protocol parts are structure, not attachments. */
static bool is_pgp_part(const struct mail_attachment *a)
{
	return a->content_type &&
		(!strcmp(a->content_type, "application/pgp-signature") ||
		 !strcmp(a->content_type, "application/pgp-encrypted") ||
		 !strcmp(a->content_type, "application/pgp-keys"));
}

/* Records [start, end) of out->body as not covered. */
static void add_unsigned(struct pipeline_out *out, size_t start, size_t end)
{
	if (end <= start)
		return;
	out->unsigned_spans =
		xrealloc(out->unsigned_spans,
			 (out->nunsigned + 1) * sizeof(*out->unsigned_spans));
	out->unsigned_spans[out->nunsigned].start = start;
	out->unsigned_spans[out->nunsigned++].end = end;
}

/* Appends n bytes of text on lines of their own; unprotected text is
 * recorded as such (never marked inside the text, where the sender could
 * write the same marks). */
static void add_lines(struct pipeline_out *out, const char *s, size_t n,
		      bool unprotected)
{
	size_t start;

	if (out->body.len && out->body.buf[out->body.len - 1] != '\n')
		sbuf_addch(&out->body, '\n');
	start = out->body.len;
	/* Kept with LF line ends, as mail.c keeps text parts: a CR before
	 * LF (a decrypted CRLF text) is no character to show. */
	sbuf_grow(&out->body, n);
	for (size_t i = 0; i < n; i++)
		if (!(s[i] == '\r' && i + 1 < n && s[i + 1] == '\n'))
			out->body.buf[out->body.len++] = s[i];
	out->body.buf[out->body.len] = '\0';
	if (n && s[n - 1] != '\n')
		sbuf_addch(&out->body, '\n');
	if (unprotected)
		add_unsigned(out, start, out->body.len);
}

static void use_content(struct pipeline_out *out, const struct mail_msg *m)
{
	size_t base = out->body.len;

	if (m->body_text)
		sbuf_add(&out->body, m->body_text, m->body_len);
	for (size_t i = 0; i < m->noutside; i++)
		add_unsigned(out, base + m->outside[i].start,
			     base + m->outside[i].end);
	out->att = m->attachments;
	out->natt = m->nattachments;
}

/* The outer message's text spans [from, to), each on lines of its own,
 * as not covered. */
static void add_outer_spans(struct pipeline_out *out, size_t from, size_t to)
{
	const struct mail_msg *m = &out->msg;

	for (size_t i = from; i < to; i++)
		add_lines(out, m->body_text + m->outside[i].start,
			  m->outside[i].end - m->outside[i].start, true);
}

/* The outer message's attachments, not covered, around the decrypted
 * entity's, in the order of their parts. */
static void join_attachments(struct pipeline_out *out)
{
	const struct mail_msg *m = &out->msg, *in = &out->inner;
	size_t at = m->pgp_att_at, n = 0;
	struct mail_attachment *a;

	if (!m->nattachments)
		return;
	a = xcalloc(m->nattachments + in->nattachments + 1, sizeof(*a));
	for (size_t i = 0; i < m->nattachments; i++) {
		if (i == at)
			for (size_t k = 0; k < in->nattachments; k++)
				a[n++] = in->attachments[k];
		a[n] = m->attachments[i];
		a[n++].outside = true;
	}
	if (at >= m->nattachments)
		for (size_t k = 0; k < in->nattachments; k++)
			a[n++] = in->attachments[k];
	out->att_joined = a;
	out->att = a;
	out->natt = n;
}

/*
 * What was decrypted, shown where the multipart/encrypted stands among
 * the parts next to it: those are outside the encryption and whatever
 * it signs (mail.h), so every one of them is shown as not covered.
 */
static void use_decrypted(struct pipeline_out *out)
{
	const struct mail_msg *m = &out->msg;
	size_t before = 0;

	while (before < m->noutside &&
	       m->outside[before].start < m->pgp_text_at)
		before++;
	add_outer_spans(out, 0, before);
	use_content(out, &out->inner);
	add_outer_spans(out, before, m->noutside);
	join_attachments(out);
}

/* The session key of a decryption, kept (NULL: gpg gave none). */
static void keep_key(struct pipeline_out *out, const struct crypto_result *res)
{
	out->session_keys =
		xrealloc(out->session_keys,
			 (out->nsession_keys + 1) * sizeof(*out->session_keys));
	out->session_keys[out->nsession_keys++] =
		res->session_key ? xstrdup(res->session_key) : NULL;
}

/*
 * The message's next decryption: with its session key when the caller
 * gave one for it (pipeline_run_keys), else with a secret key; the
 * session key it used is collected either way.
 */
static int decrypt_next(struct crypto *c, struct pipeline_out *out,
			const void *data, size_t len, struct crypto_result *res,
			struct err *err)
{
	size_t k = out->nsession_keys;
	/* None kept for it (a signed-only block, a key gpg did not give):
	 * this officer's secret key, or the signature alone. */
	int r = crypto_decrypt_verify_key(
		c, data, len, k < out->nuse_keys ? out->use_keys[k] : NULL, res,
		err);

	keep_key(out, res);
	return r;
}

static int run_encrypted(struct session *sess, struct crypto *c,
			 struct pipeline_out *out, bool *partial,
			 struct err *err)
{
	struct crypto_result res;
	int r;

	(void)sess;
	memset(&res, 0, sizeof(res));
	if (out->job) {
		r = crypto_decrypt_finish(c, out->job, &res, err);
		out->job = NULL;
		keep_key(out, &res);
	} else {
		r = decrypt_next(c, out, out->msg.ciphertext,
				 out->msg.ciphertext_len, &res, err);
	}
	if (r < 0 || res.no_mdc || !res.plain) {
		if (res.no_mdc && r >= 0)
			r = err_setc(
				err, ERR_CRYPTO,
				"message is not integrity protected (no MDC); refused");
		crypto_result_release(&res);
		return r < 0 ? r : ERR_CRYPTO;
	}
	out->encrypted = true;
	out->verdict = res.verdict;
	take_sigs(out, &res);
	for (size_t i = 0; i < res.nrecipients; i++) {
		out->recipients =
			xrealloc(out->recipients,
				 (out->nrecipients + 1) * sizeof(char *));
		out->recipients[out->nrecipients++] =
			xstrdup(res.recipients[i]);
	}
	r = mail_parse((const char *)res.plain, res.plain_len, &out->inner,
		       err);
	crypto_result_release(&res);
	if (r < 0)
		return err_prefix(err, "decrypted content");
	if (out->inner.partial)
		*partial = true;
	/* Header protection: the real subject is inside, "..." outside. */
	if (out->inner.protected_headers && out->inner.subject) {
		free(out->msg.subject);
		out->msg.subject = xstrdup(out->inner.subject);
	}
	if (out->inner.kind == MAIL_PGP_SIGNED) {
		/* Encrypted, then signed in its own MIME layer (RFC 3156 5). */
		struct crypto_result vres;
		memset(&vres, 0, sizeof(vres));
		r = crypto_verify_detached(c, out->inner.signed_data,
					   out->inner.signed_len,
					   out->inner.signature,
					   out->inner.signature_len, &vres,
					   err);
		/* Both layers count: a good inner signature does not excuse a
		 * bad or revoked one-pass signature around it. */
		enum sig_verdict inner = r < 0 ? SIG_ERROR : vres.verdict;
		out->verdict = out->nsigs
			? sig_verdict_worse(out->verdict, inner)
			: inner;
		take_sigs(out, &vres);
		crypto_result_release(&vres);
	} else if (out->inner.kind == MAIL_PGP_ENCRYPTED ||
		   out->inner.kind == MAIL_INLINE_PGP) {
		/* Nested OpenPGP inside the decrypted part: not unwrapped; what
		 * is shown is not covered by what was checked. */
		*partial = true;
	}
	use_decrypted(out);
	return 0;
}

static bool blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\n' && s[i] != '\r' && s[i] != '\t')
			return false;
	return true;
}

/*
 * Inline PGP: an armored block covers its own text only.  Non-blank text
 * around the blocks is shown as unprotected, and so is every attachment:
 * either makes the message partial.
 */
static int run_inline(struct crypto *c, struct pipeline_out *out, bool *partial,
		      struct err *err)
{
	const char *text = out->msg.body_text ? out->msg.body_text : "";
	struct pgp_block *blocks = NULL;
	bool outside = false;
	size_t n = pgp_find_blocks(text, out->msg.body_len, &blocks, &outside);
	size_t pos = 0;
	enum sig_verdict v = SIG_VALID;
	bool any_signed = false;

	for (size_t i = 0; i < n; i++) {
		struct crypto_result res;
		const char *b = text + blocks[i].start;
		size_t blen = blocks[i].end - blocks[i].start;
		int r;

		if (!blank(text + pos, blocks[i].start - pos))
			add_lines(out, text + pos, blocks[i].start - pos, true);
		memset(&res, 0, sizeof(res));
		if (blocks[i].kind == PGP_BLOCK_MESSAGE) {
			r = decrypt_next(c, out, b, blen, &res, err);
			if (r < 0 || res.no_mdc) {
				if (r >= 0)
					err_setc(
						err, ERR_CRYPTO,
						"inline block is not integrity protected (no MDC); refused");
				crypto_result_release(&res);
				free(blocks);
				return r < 0 ? r : ERR_CRYPTO;
			}
			out->encrypted = true;
		} else {
			r = crypto_verify_opaque(c, b, blen, &res, err);
			if (r < 0) {
				res.verdict = SIG_ERROR;
				err_clear(err);
			}
		}
		if (res.verdict != SIG_NOT_SIGNED)
			any_signed = true;
		v = sig_verdict_worse(v, res.verdict);
		take_sigs(out, &res);
		if (res.plain)
			add_lines(out, (const char *)res.plain, res.plain_len,
				  false);
		crypto_result_release(&res);
		pos = blocks[i].end;
	}
	if (pos < out->msg.body_len &&
	    !blank(text + pos, out->msg.body_len - pos))
		add_lines(out, text + pos, out->msg.body_len - pos, true);
	free(blocks);
	out->verdict = any_signed ? v : SIG_NOT_SIGNED;
	if (outside)
		*partial = true;
	out->att = out->msg.attachments;
	out->natt = out->msg.nattachments;
	for (size_t i = 0; i < out->natt; i++) {
		out->att[i].outside = true;
		if (!is_pgp_part(&out->att[i]))
			*partial = true;
	}
	return 0;
}

/*
 * A From mailbox is the signer's when a user ID the keyring vouches for
 * has its address and a name its display name may stand for, and the
 * display name claims no other address and hides nothing behind
 * invisible spacing: the signer does not vouch for what a name says.
 */
static bool mailbox_matches(const struct crypto_sig *sig,
			    const struct mail_mailbox *f)
{
	if (!f->email || sender_flags(f->name, f->email))
		return false;
	for (size_t i = 0; i < sig->nuids; i++) {
		const struct crypto_uid *u = &sig->uids[i];

		if (u->valid && u->email && !str_cmp_ci(u->email, f->email) &&
		    sender_name_fits(f->name, u->name))
			return true;
	}
	return false;
}

int pipeline_parse(const char *raw, size_t len, struct pipeline_out *out,
		   struct err *err)
{
	memset(out, 0, sizeof(*out));
	sbuf_init(&out->body);
	mail_init();
	return mail_parse(raw, len, &out->msg, err);
}

int pipeline_run(struct session *sess, const char *raw, size_t len,
		 struct pipeline_out *out, struct err *err)
{
	return pipeline_run_keys(sess, raw, len, NULL, 0, out, err);
}

int pipeline_run_keys(struct session *sess, const char *raw, size_t len,
		      char *const *keys, size_t nkeys, struct pipeline_out *out,
		      struct err *err)
{
	int r = pipeline_parse(raw, len, out, err);

	if (r < 0)
		return r;
	out->use_keys = keys;
	out->nuse_keys = nkeys;
	return pipeline_process(sess, out, err);
}

void pipeline_start(struct session *sess, struct pipeline_out *out)
{
	struct crypto *c;

	if (out->job || out->use_keys || out->msg.kind != MAIL_PGP_ENCRYPTED ||
	    !out->msg.ciphertext || !(c = session_crypto(sess, NULL)))
		return;
	out->job = crypto_decrypt_start(c, out->msg.ciphertext,
					out->msg.ciphertext_len);
	out->job_crypto = c;
}

int pipeline_process(struct session *sess, struct pipeline_out *out,
		     struct err *err)
{
	struct crypto *c = NULL;
	bool partial;
	int r = 0;

	partial = out->msg.partial;
	if (out->msg.kind != MAIL_PLAIN && !(c = session_crypto(sess, err))) {
		return ERR_CRYPTO;
	}
	switch (out->msg.kind) {
	case MAIL_PLAIN:
		out->verdict = SIG_NOT_SIGNED;
		use_content(out, &out->msg);
		break;
	case MAIL_PGP_ENCRYPTED:
		r = run_encrypted(sess, c, out, &partial, err);
		break;
	case MAIL_PGP_SIGNED: {
		struct crypto_result res;
		memset(&res, 0, sizeof(res));
		if (crypto_verify_detached(
			    c, out->msg.signed_data, out->msg.signed_len,
			    out->msg.signature, out->msg.signature_len, &res,
			    err) < 0) {
			res.verdict = SIG_ERROR;
			err_clear(err);
		}
		out->verdict = res.verdict;
		take_sigs(out, &res);
		crypto_result_release(&res);
		use_content(out, &out->msg);
		break;
	}
	case MAIL_INLINE_PGP:
		r = run_inline(c, out, &partial, err);
		break;
	}
	if (r < 0)
		return r;
	if (partial &&
	    (out->verdict == SIG_VALID || out->verdict == SIG_GOOD ||
	     (out->verdict == SIG_NOT_SIGNED && out->encrypted)))
		out->verdict = SIG_PARTIAL;
	if (out->nsigs) {
		out->fingerprint = out->sigs[0].fingerprint
			? xstrdup(out->sigs[0].fingerprint)
			: NULL;
		out->signer_matches_from = out->msg.nfrom > 0;
		for (size_t i = 0; i < out->msg.nfrom; i++)
			if (!mailbox_matches(&out->sigs[0], &out->msg.from[i]))
				out->signer_matches_from = false;
	}
	/* Drop protocol parts from what is listed as attachments. */
	if (out->natt) {
		struct mail_attachment *a = out->att;
		size_t keep = 0;
		for (size_t i = 0; i < out->natt; i++)
			if (!is_pgp_part(&a[i]))
				keep++;
		if (keep != out->natt) {
			out->att_filtered = xcalloc(keep + 1, sizeof(*a));
			keep = 0;
			for (size_t i = 0; i < out->natt; i++)
				if (!is_pgp_part(&a[i]))
					out->att_filtered[keep++] = a[i];
			out->att = out->att_filtered;
			out->natt = keep;
		}
	}
	return 0;
}

int pipeline_load_content(struct session *sess, const char *buf, size_t len,
			  const struct message *m, struct pipeline_out *out,
			  struct err *err)
{
	struct crypto *c;
	int r;

	memset(out, 0, sizeof(*out));
	sbuf_init(&out->body);
	if ((r = mail_parse_content(buf, len, &out->msg, err)) < 0)
		return err_prefix(err, "stored content of message %lld",
				  (long long)m->id);
	use_content(out, &out->msg);
	/* A message without one (SIG_NONE) cannot come from the store, but
	 * would be nothing to trust. */
	out->verdict = m->verdict == SIG_NONE ? SIG_ERROR : m->verdict;
	out->encrypted = m->encrypted;
	out->signer_matches_from = m->signer_matches_from;
	if (m->fingerprint) {
		out->fingerprint = xstrdup(m->fingerprint);
		if ((c = session_crypto(sess, err))) {
			out->sigs = xcalloc(1, sizeof(*out->sigs));
			crypto_sig_from_key(c, m->fingerprint, out->verdict,
					    &out->sigs[0]);
			out->nsigs = 1;
		}
	}
	return 0;
}

void pipeline_out_release(struct pipeline_out *out)
{
	/* A job exists only when pipeline_start got a context. */
	if (out->job)
		crypto_job_discard(out->job_crypto, out->job);
	mail_msg_release(&out->msg);
	mail_msg_release(&out->inner);
	sbuf_wipe(&out->body);
	free(out->unsigned_spans);
	free(out->fingerprint);
	for (size_t i = 0; i < out->nsigs; i++)
		crypto_sig_release(&out->sigs[i]);
	free(out->sigs);
	for (size_t i = 0; i < out->nrecipients; i++)
		free(out->recipients[i]);
	free(out->recipients);
	for (size_t i = 0; i < out->nsession_keys; i++)
		if (out->session_keys[i])
			wipe_free(out->session_keys[i],
				  strlen(out->session_keys[i]));
	free(out->session_keys);
	free(out->att_filtered);
	free(out->att_joined);
	memset(out, 0, sizeof(*out));
}

const struct crypto_uid *pipeline_signer(const struct pipeline_out *out)
{
	return out->nsigs ? crypto_sig_uid(&out->sigs[0], out->msg.from_email)
			  : NULL;
}

/* The one test of what a patch is (core/report.c), as forward uses it. */
static bool looks_like_patch(const struct mail_attachment *a)
{
	return attachment_is_patch(a->filename, a->content_type, a->data,
				   a->len);
}

/* Appends the paths of text[0..len) to *v (de-duplicated). */
static void add_paths(char ***v, size_t *n, const char *text, size_t len)
{
	char **p = NULL;
	size_t k = touched_files(text, len, &p);

	size_t had = *n; /* touched_files' own paths are distinct */

	for (size_t i = 0; i < k; i++) {
		bool dup = false;
		for (size_t j = 0; j < had && !dup; j++)
			dup = !strcmp((*v)[j], p[i]);
		if (dup || *n >= TOUCHED_MAX_PATHS) {
			free(p[i]);
			continue;
		}
		*v = xrealloc(*v, (*n + 2) * sizeof(**v));
		(*v)[(*n)++] = p[i];
		(*v)[*n] = NULL;
	}
	free(p);
}

void pipeline_files(const struct pipeline_out *out, char ***files,
		    size_t *nfiles, char ***unsigned_files, size_t *nunsigned)
{
	const char *body = out->body.buf ? out->body.buf : "";
	char **cov = xcalloc(1, sizeof(*cov)), **unc = xcalloc(1, sizeof(*unc));
	size_t ncov = 0, nunc = 0, pos = 0;

	/* The body in order: covered stretches and unsigned spans. */
	for (size_t i = 0; i <= out->nunsigned; i++) {
		size_t s = i < out->nunsigned ? out->unsigned_spans[i].start
					      : out->body.len;
		if (s > pos)
			add_paths(&cov, &ncov, body + pos, s - pos);
		if (i == out->nunsigned)
			break;
		add_paths(&unc, &nunc, body + s,
			  out->unsigned_spans[i].end - s);
		pos = out->unsigned_spans[i].end;
	}
	for (size_t i = 0; i < out->natt; i++)
		if (looks_like_patch(&out->att[i])) {
			if (out->att[i].outside)
				add_paths(&unc, &nunc,
					  (const char *)out->att[i].data,
					  out->att[i].len);
			else
				add_paths(&cov, &ncov,
					  (const char *)out->att[i].data,
					  out->att[i].len);
		}
	/* A file the signed content touches too is not an unsigned one. */
	size_t keep = 0;
	for (size_t i = 0; i < nunc; i++) {
		bool also = false;
		for (size_t j = 0; j < ncov && !also; j++)
			also = !strcmp(unc[i], cov[j]);
		if (also)
			free(unc[i]);
		else
			unc[keep++] = unc[i];
	}
	unc[keep] = NULL;
	*files = cov;
	*nfiles = ncov;
	*unsigned_files = unc;
	*nunsigned = keep;
}
