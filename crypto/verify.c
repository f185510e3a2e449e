/*
 * verify.c: decryption, signature checks, and the verdict rules.
 *
 * Each operation is one gpg run through the shared context, or, for
 * background decryptions, through a context of the job pool.  Every
 * signature GPGME reports becomes one struct crypto_sig whose verdict
 * follows the GPGME manual's reading of summary, status and validity
 * (sig_verdict_of below); the message's verdict is the worst of them, in
 * this order, worst first:
 *     bad > revoked-key > expired-key > unknown-key > error > good > valid
 * (an error, a signature we could not check at all, is worse than any good
 * one but better than positive evidence of forgery or a dead key).
 * Messages without integrity protection (no MDC) are refused and their
 * plaintext wiped, whatever gpg says about them.  "partial" is for mail/
 * to decide (only part of a message signed); nothing here produces it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto-int.h"

/* The names, order and classes of verdicts are in util/verdict.c. */

/*
 * One signature's verdict.  GPGME's summary bits say what gpg concluded;
 * status is the error for this signature.  Key problems come before RED
 * because gpg also marks a good signature by a revoked key RED.
 */
static enum sig_verdict sig_verdict_of(gpgme_signature_t s)
{
	gpgme_err_code_t st = gpgme_err_code(s->status);
	gpgme_sigsum_t sum = s->summary;

	if (st == GPG_ERR_BAD_SIGNATURE)
		return SIG_BAD;
	if (st == GPG_ERR_NO_PUBKEY || (sum & GPGME_SIGSUM_KEY_MISSING))
		return SIG_UNKNOWN_KEY;
	if ((sum & GPGME_SIGSUM_KEY_REVOKED) || st == GPG_ERR_CERT_REVOKED)
		return SIG_REVOKED_KEY;
	if ((sum & GPGME_SIGSUM_KEY_EXPIRED) || st == GPG_ERR_KEY_EXPIRED)
		return SIG_EXPIRED_KEY;
	if (sum & GPGME_SIGSUM_RED)
		return SIG_BAD;
	if (st != GPG_ERR_NO_ERROR)
		return SIG_ERROR;
	if ((sum & GPGME_SIGSUM_VALID) || s->validity == GPGME_VALIDITY_FULL ||
	    s->validity == GPGME_VALIDITY_ULTIMATE)
		return SIG_VALID;
	return SIG_GOOD;
}

static struct crypto_uid *uids_dup(const struct crypto_uid *u, size_t n)
{
	struct crypto_uid *d = xcalloc(n + 1, sizeof(*d));

	for (size_t i = 0; i < n; i++) {
		d[i].uid = xstrdup(u[i].uid);
		d[i].name = u[i].name ? xstrdup(u[i].name) : NULL;
		d[i].email = u[i].email ? xstrdup(u[i].email) : NULL;
		d[i].valid = u[i].valid;
	}
	return d;
}

/*
 * The signatures of the operation that just ended on ctx (c->ctx or a
 * job's).  Copies them out of the verify result first: a key listing on
 * the shared context (crypto_keyinfo_get) frees the previous result.
 */
static void fill_sigs(struct crypto *c, gpgme_ctx_t ctx,
		      struct crypto_result *res)
{
	gpgme_verify_result_t vr = gpgme_op_verify_result(ctx);
	gpgme_signature_t s;
	size_t n = 0;

	res->verdict = SIG_NOT_SIGNED;
	if (!vr)
		return;
	for (s = vr->signatures; s; s = s->next)
		n++;
	if (!n)
		return;
	res->sigs = xcalloc(n, sizeof(*res->sigs));
	for (s = vr->signatures; s; s = s->next) {
		struct crypto_sig *out = &res->sigs[res->nsigs++];

		out->verdict = sig_verdict_of(s);
		out->created = (time_t)s->timestamp;
		out->fingerprint = s->fpr ? xstrdup(s->fpr) : NULL;
		res->verdict = res->nsigs == 1
			? out->verdict
			: sig_verdict_worse(res->verdict, out->verdict);
	}
	vr = NULL;

	for (size_t i = 0; i < res->nsigs; i++) {
		struct crypto_sig *out = &res->sigs[i];
		const struct crypto_keyinfo *k;

		/* No point asking the keyring for a key gpg did not find. */
		if (!out->fingerprint || out->verdict == SIG_UNKNOWN_KEY)
			continue;
		k = crypto_keyinfo_get(c, out->fingerprint);
		if (!k)
			continue;
		free(out->fingerprint);
		out->fingerprint = xstrdup(k->fpr);
		out->uids = uids_dup(k->uids, k->nuids);
		out->nuids = k->nuids;
	}
}

static void fill_recipients(gpgme_ctx_t ctx, struct crypto_result *res)
{
	gpgme_decrypt_result_t dr = gpgme_op_decrypt_result(ctx);
	size_t n = 0;

	if (!dr)
		return;
	for (gpgme_recipient_t r = dr->recipients; r; r = r->next)
		n++;
	if (!n)
		return;
	res->recipients = xcalloc(n, sizeof(*res->recipients));
	for (gpgme_recipient_t r = dr->recipients; r; r = r->next)
		if (r->keyid)
			res->recipients[res->nrecipients++] = xstrdup(r->keyid);
}

/* Base64 of an ASCII-armored message into sb; false if data is not
 * armored.  Stops at the checksum or the end line; only the packet
 * headers are needed, so no checksum check. */
static bool dearmor(const char *p, size_t len, struct sbuf *sb)
{
	static const char marker[] = "-----BEGIN PGP MESSAGE-----";
	const char *end = p + len, *q;
	unsigned acc = 0;
	int bits = 0;

	q = memmem(p, len, marker, strlen(marker));
	if (!q)
		return false;
	/* Skip the armor headers: up to the first empty line. */
	q = memchr(q, '\n', (size_t)(end - q));
	while (q && q < end) {
		const char *eol = memchr(q + 1, '\n', (size_t)(end - q - 1));
		const char *l = q + 1;
		while (l < end && (*l == '\r' || *l == ' ' || *l == '\t'))
			l++;
		q = eol;
		if (l == end || *l == '\n')
			break;
	}
	for (; q && q < end && *q != '=' && *q != '-'; q++) {
		const char *digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				     "abcdefghijklmnopqrstuvwxyz0123456789+/";
		const char *d = *q ? strchr(digits, *q) : NULL;
		if (!d)
			continue;
		acc = (acc << 6) | (unsigned)(d - digits);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			sbuf_addch(sb, (int)((acc >> bits) & 0xff));
		}
	}
	return true;
}

/*
 * True when the first packet after the session-key packets is a
 * Symmetrically Encrypted Data packet (tag 9), the kind without MDC.
 * RFC 4880 section 4.2 packet headers, old and new format.
 */
static bool is_sed_message(const void *data, size_t len)
{
	struct sbuf sb = SBUF_INIT;
	const unsigned char *p, *end;
	bool sed = false;

	if (dearmor(data, len, &sb)) {
		p = (const unsigned char *)sb.buf;
		end = p + sb.len;
	} else {
		p = data;
		end = p + len;
	}
	while (p && p < end && (*p & 0x80)) {
		unsigned tag;
		size_t body, hlen;

		if (*p & 0x40) {
			tag = *p & 0x3f;
			if (end - p < 2)
				break;
			if (p[1] < 192) {
				body = p[1];
				hlen = 2;
			} else if (p[1] < 224) {
				if (end - p < 3)
					break;
				body = ((size_t)(p[1] - 192) << 8) + p[2] + 192;
				hlen = 3;
			} else if (p[1] == 255) {
				if (end - p < 6)
					break;
				body = (size_t)p[2] << 24 | (size_t)p[3] << 16 |
					(size_t)p[4] << 8 | p[5];
				hlen = 6;
			} else {
				body = SIZE_MAX; /* partial: a data packet */
				hlen = 2;
			}
		} else {
			static const size_t lenlen[4] = { 1, 2, 4, 0 };
			size_t ll = lenlen[*p & 3];
			tag = (*p >> 2) & 0x0f;
			if ((size_t)(end - p) < 1 + ll)
				break;
			body = ll ? 0 : SIZE_MAX;
			for (size_t i = 0; i < ll; i++)
				body = body << 8 | p[1 + i];
			hlen = 1 + ll;
		}
		if (tag != 1 && tag != 3 && tag != 10) {
			sed = tag == 9;
			break;
		}
		if (body > (size_t)(end - p) - hlen)
			break;
		p += hlen + body;
	}
	sbuf_release(&sb);
	return sed;
}

static void result_init(struct crypto_result *res)
{
	memset(res, 0, sizeof(*res));
	res->verdict = SIG_ERROR;
}

/* Moves the sink's bytes into res->plain (NUL-terminated for callers that
 * treat text as a string; the NUL is not counted). */
static void take_plain(struct crypto_result *res, struct crypto_sink *sink)
{
	res->plain = xmalloc(sink->len + 1);
	if (sink->len)
		memcpy(res->plain, sink->buf, sink->len);
	res->plain[sink->len] = '\0';
	res->plain_len = sink->len;
	crypto_sink_wipe(sink);
}

/* The input (data, not copied) and output (a wiping sink) of one
 * operation; what names the input in an error. */
static int io_new(const void *data, size_t len, gpgme_data_t *in,
		  gpgme_data_t *out, struct crypto_sink *sink, const char *what,
		  struct err *err)
{
	gpgme_error_t e = gpgme_data_new_from_mem(in, data, len, 0);

	if (e) {
		*in = NULL;
		return crypto_gpg_err(err, e, "cannot read the %s", what);
	}
	if (crypto_sink_data(sink, out, err) < 0) {
		gpgme_data_release(*in);
		*in = NULL;
		return ERR_CRYPTO;
	}
	sink->max = CRYPTO_MAX_PLAIN;
	return 0;
}

/* The error for output stopped at CRYPTO_MAX_PLAIN (ERR_INVALID). */
static int too_large(struct crypto_sink *sink, struct crypto_result *res,
		     struct err *err)
{
	crypto_sink_wipe(sink);
	res->verdict = SIG_ERROR;
	return err_setc(err, ERR_INVALID,
			"decrypted content too large (over %zu MiB)",
			CRYPTO_MAX_PLAIN >> 20);
}

enum gpg_op { OP_DECRYPT_VERIFY, OP_VERIFY };

/*
 * The one sequence of a decryption and an opaque verification on the
 * shared context: res emptied, the context reset, the input and a
 * wiping sink for the output set up, the operation run and its data
 * released.  Returns 0 with *e the operation's error (the caller reads
 * the result), or ERR_CRYPTO with err set when the data could not be set
 * up.
 */
static int op_run(struct crypto *c, enum gpg_op op, const void *data,
		  size_t len, struct crypto_sink *sink, gpgme_error_t *e,
		  struct crypto_result *res, struct err *err)
{
	gpgme_data_t in, out;

	result_init(res);
	crypto_ctx_reset(c);
	if (io_new(data, len, &in, &out, sink,
		   op == OP_VERIFY ? "signed message" : "encrypted message",
		   err) < 0)
		return ERR_CRYPTO;
	*e = op == OP_VERIFY ? gpgme_op_verify(c->ctx, in, NULL, out)
			     : gpgme_op_decrypt_verify(c->ctx, in, out);
	gpgme_data_release(in);
	gpgme_data_release(out);
	return 0;
}

/*
 * gpg --quiet (secteam-gpg) does not say why a decryption failed: gpg
 * 2.2 writes NO_SECKEY and pkdecrypt_failed with the "encrypted with"
 * lines that --quiet leaves out, and GPGME then reports "decryption
 * failed" for a message to somebody else's key.  So a decryption that
 * failed (but not for want of OpenPGP data, nor past the size limit) is
 * done once more by gpg itself, and its error and results are the ones
 * used: what a failure says never depends on secteam-gpg.  *ctx becomes
 * that context; sink holds its output.
 */
static gpgme_error_t loud_again(struct crypto *c, const void *data, size_t len,
				const char *session_key, gpgme_ctx_t *ctx,
				struct crypto_sink *sink, gpgme_error_t e)
{
	gpgme_data_t in, out;
	struct err err;

	if (!e || !crypto_quiet() || sink->over ||
	    gpgme_err_code(e) == GPG_ERR_NO_DATA)
		return e;
	if (!c->loud && crypto_ctx_new_loud(c->home, &c->loud)) {
		c->loud = NULL;
		return e;
	}
	if (session_key &&
	    gpgme_set_ctx_flag(c->loud, "override-session-key", session_key))
		return e;
	crypto_sink_wipe(sink);
	if (io_new(data, len, &in, &out, sink, "encrypted message", &err) ==
	    0) {
		e = gpgme_op_decrypt_verify(c->loud, in, out);
		gpgme_data_release(in);
		gpgme_data_release(out);
		*ctx = c->loud;
	}
	if (session_key)
		gpgme_set_ctx_flag(c->loud, "override-session-key", "");
	return e;
}

/*
 * What a decryption that ended on ctx (c->ctx, or a job's) with error e
 * gives: res filled and the sink's plaintext moved into it, or wiped when
 * the message is refused.
 */
static int decrypt_collect(struct crypto *c, gpgme_ctx_t ctx, gpgme_error_t e,
			   const void *data, size_t len,
			   struct crypto_sink *sink, struct crypto_result *res,
			   struct err *err)
{
	gpgme_err_code_t code = gpgme_err_code(e);
	gpgme_decrypt_result_t dr = gpgme_op_decrypt_result(ctx);

	fill_recipients(ctx, res);
	res->encrypted = res->nrecipients > 0 || (!e && dr);
	if (sink->over)
		return too_large(sink, res, err);
	if (dr && dr->legacy_cipher_nomdc) {
		res->no_mdc = true;
	} else if (e &&
		   (code == GPG_ERR_BAD_DATA ||
		    code == GPG_ERR_DECRYPT_FAILED) &&
		   dr && !dr->unsupported_algorithm) {
		/* gpg 2.2 fails a message without MDC ("decryption forced to
		 * fail") the same way as a modified one; only the packet
		 * type tells them apart, and GPGME's result does not carry
		 * it.  Look at the data ourselves. */
		res->no_mdc = is_sed_message(data, len);
	}
	if (res->no_mdc) {
		crypto_sink_wipe(sink);
		res->verdict = SIG_ERROR;
		return err_setc(err, ERR_CRYPTO,
				"message is not integrity protected (no MDC)");
	}
	if (e) {
		crypto_sink_wipe(sink);
		if (code == GPG_ERR_NO_DATA && !res->nrecipients) {
			/* Not encrypted: perhaps signed only (gpg --sign).
			 * Costs a second gpg run, for such input only. */
			struct err verr;
			int vr;
			crypto_result_release(res);
			if ((vr = crypto_verify_opaque(c, data, len, res,
						       &verr)) == 0)
				return 0;
			crypto_result_release(res);
			if (vr == ERR_INVALID) {
				*err = verr;
				return vr;
			}
			return err_setc(err, ERR_CRYPTO,
					"cannot read message: no openpgp "
					"encrypted or signed data found");
		}
		if (code == GPG_ERR_NO_SECKEY)
			return err_setc(
				err, ERR_CRYPTO,
				"cannot decrypt message: no secret key "
				"for any of its %zu recipients in gnupg "
				"home '%s'",
				res->nrecipients, c->home);
		if (code == GPG_ERR_BAD_DATA || code == GPG_ERR_DECRYPT_FAILED)
			return crypto_gpg_err(err, e,
					      "cannot decrypt message: it is "
					      "damaged or was modified");
		return crypto_gpg_err(err, e, "cannot decrypt message");
	}
	take_plain(res, sink);
	if (dr && dr->session_key && *dr->session_key)
		res->session_key = xstrdup(dr->session_key);
	fill_sigs(c, ctx, res);
	return 0;
}

/*
 * Returns 0 with res filled (verdict not-signed when nothing was signed;
 * input that is signed but not encrypted is verified as by
 * crypto_verify_opaque, with res->encrypted false), or a negative code
 * with err set: no OpenPGP data, no secret key, a message without MDC
 * (res->no_mdc, no plaintext), a damaged or modified message.
 */
int crypto_decrypt_verify(struct crypto *c, const void *data, size_t len,
			  struct crypto_result *res, struct err *err)
{
	struct crypto_sink sink;
	gpgme_error_t e;
	gpgme_ctx_t ctx = c->ctx;

	if (op_run(c, OP_DECRYPT_VERIFY, data, len, &sink, &e, res, err) < 0)
		return ERR_CRYPTO;
	e = loud_again(c, data, len, NULL, &ctx, &sink, e);
	return decrypt_collect(c, ctx, e, data, len, &sink, res, err);
}

int crypto_decrypt_verify_key(struct crypto *c, const void *data, size_t len,
			      const char *session_key,
			      struct crypto_result *res, struct err *err)
{
	struct crypto_sink sink;
	gpgme_data_t in, out;
	gpgme_error_t e;
	gpgme_ctx_t ctx = c->ctx;

	if (!session_key)
		return crypto_decrypt_verify(c, data, len, res, err);
	result_init(res);
	crypto_ctx_reset(c);
	/* GPGME hands it to gpg on a pipe (--override-session-key-fd),
	 * never on the command line; crypto_ctx_reset clears it again. */
	if ((e = gpgme_set_ctx_flag(c->ctx, "override-session-key",
				    session_key)))
		return crypto_gpg_err(err, e, "cannot use a session key");
	if (io_new(data, len, &in, &out, &sink, "encrypted message", err) < 0) {
		crypto_ctx_reset(c);
		return ERR_CRYPTO;
	}
	e = gpgme_op_decrypt_verify(c->ctx, in, out);
	gpgme_data_release(in);
	gpgme_data_release(out);
	crypto_ctx_reset(c);
	e = loud_again(c, data, len, session_key, &ctx, &sink, e);
	return decrypt_collect(c, ctx, e, data, len, &sink, res, err);
}

/*
 * Background decryption.  A job takes a free context of the pool and
 * starts gpg through GPGME's global event loop, which gpgme_wait on any
 * job keeps running for all of them.  When no context is free or the
 * start fails, the job is only a note of its input: finish then
 * decrypts in line, which also reports any error the proper way.
 */
struct crypto_job *crypto_decrypt_start(struct crypto *c, const void *data,
					size_t len)
{
	struct crypto_job *j = xcalloc(1, sizeof(*j));
	struct err err;
	int slot = -1;

	j->slot = -1;
	j->data = data;
	j->len = len;
	for (int i = 0; i < CRYPTO_JOBS_MAX && slot < 0; i++)
		if (!c->jobbusy[i])
			slot = i;
	if (slot < 0 ||
	    (!c->jobctx[slot] && crypto_ctx_new(c->home, &c->jobctx[slot])) ||
	    io_new(data, len, &j->in, &j->out, &j->sink, "encrypted message",
		   &err) < 0)
		return j;
	if (gpgme_op_decrypt_verify_start(c->jobctx[slot], j->in, j->out)) {
		gpgme_data_release(j->in);
		gpgme_data_release(j->out);
		crypto_sink_wipe(&j->sink);
		j->in = j->out = NULL;
		return j;
	}
	c->jobbusy[slot] = true;
	j->slot = slot;
	return j;
}

/* Waits for the job's gpg to end; returns the operation's error. */
static gpgme_error_t job_wait(struct crypto *c, struct crypto_job *j)
{
	gpgme_ctx_t ctx = c->jobctx[j->slot];
	gpgme_error_t e = 0;

	if (gpgme_wait(ctx, &e, 1) != ctx) {
		/* The event loop itself failed (select): cancel the job, as
		 * the manual says, and collect it, so the context is free
		 * for the next one and GPGME keeps no stale entry. */
		gpgme_error_t ignored;
		if (!e)
			e = gpg_error(GPG_ERR_GENERAL);
		if (!gpgme_cancel(ctx))
			gpgme_wait(ctx, &ignored, 1);
	}
	gpgme_data_release(j->in);
	gpgme_data_release(j->out);
	j->in = j->out = NULL;
	return e;
}

int crypto_decrypt_finish(struct crypto *c, struct crypto_job *j,
			  struct crypto_result *res, struct err *err)
{
	gpgme_error_t e;
	gpgme_ctx_t ctx;
	int r;

	if (j->slot < 0) {
		r = crypto_decrypt_verify(c, j->data, j->len, res, err);
		free(j);
		return r;
	}
	result_init(res);
	e = job_wait(c, j);
	ctx = c->jobctx[j->slot];
	e = loud_again(c, j->data, j->len, NULL, &ctx, &j->sink, e);
	r = decrypt_collect(c, ctx, e, j->data, j->len, &j->sink, res, err);
	c->jobbusy[j->slot] = false;
	free(j);
	return r;
}

void crypto_job_discard(struct crypto *c, struct crypto_job *j)
{
	if (!j)
		return;
	if (j->slot >= 0) {
		job_wait(c, j);
		crypto_sink_wipe(&j->sink);
		c->jobbusy[j->slot] = false;
	}
	free(j);
}

/*
 * What a verification that ended on the shared context with error e
 * gives, detached or opaque (sink not NULL: the signed text, wiped on
 * failure).  what names the operation in errors ("signature",
 * "message"); nodata what was looked for ("signature", "signed data").
 * Returns 0 with the verdicts, or ERR_CRYPTO/ERR_INVALID with
 * res->verdict error.
 */
static int verify_collect(struct crypto *c, gpgme_error_t e,
			  struct crypto_sink *sink, const char *what,
			  const char *nodata, struct crypto_result *res,
			  struct err *err)
{
	int r;

	if (sink && sink->over)
		return too_large(sink, res, err);
	if (gpgme_err_code(e) == GPG_ERR_NO_DATA) {
		r = err_setc(err, ERR_CRYPTO,
			     "cannot verify %s: no openpgp %s found", what,
			     nodata);
	} else if (e) {
		r = crypto_gpg_err(err, e, "cannot verify %s", what);
	} else {
		fill_sigs(c, c->ctx, res);
		if (res->verdict != SIG_NOT_SIGNED)
			return 0;
		res->verdict = SIG_ERROR;
		r = err_setc(err, ERR_CRYPTO,
			     "cannot verify %s: no openpgp signature found",
			     what);
	}
	if (sink)
		crypto_sink_wipe(sink);
	return r;
}

/* Returns 0 with the verdicts, or ERR_CRYPTO when nothing could be
 * checked (no signature data, gpg failing); then res->verdict is error. */
int crypto_verify_detached(struct crypto *c, const void *data, size_t len,
			   const void *sig, size_t siglen,
			   struct crypto_result *res, struct err *err)
{
	gpgme_data_t d = NULL, s = NULL;
	gpgme_error_t e;

	result_init(res);
	crypto_ctx_reset(c);
	e = gpgme_data_new_from_mem(&d, data, len, 0);
	if (!e)
		e = gpgme_data_new_from_mem(&s, sig, siglen, 0);
	if (e) {
		gpgme_data_release(d);
		return crypto_gpg_err(err, e, "cannot read the signed data");
	}
	e = gpgme_op_verify(c->ctx, s, d, NULL);
	gpgme_data_release(d);
	gpgme_data_release(s);
	return verify_collect(c, e, NULL, "signature", "signature", res, err);
}

/* Returns 0 with the verdicts and res->plain the signed text, or
 * ERR_CRYPTO (no signed data, gpg failing) with res->verdict error. */
int crypto_verify_opaque(struct crypto *c, const void *data, size_t len,
			 struct crypto_result *res, struct err *err)
{
	struct crypto_sink sink;
	gpgme_error_t e;
	int r;

	if (op_run(c, OP_VERIFY, data, len, &sink, &e, res, err) < 0)
		return ERR_CRYPTO;
	if ((r = verify_collect(c, e, &sink, "message", "signed data", res,
				err)) == 0)
		take_plain(res, &sink);
	return r;
}

void crypto_result_release(struct crypto_result *res)
{
	if (!res)
		return;
	for (size_t i = 0; i < res->nsigs; i++)
		crypto_sig_release(&res->sigs[i]);
	free(res->sigs);
	if (res->plain)
		wipe_free(res->plain, res->plain_len + 1);
	if (res->session_key)
		wipe_free(res->session_key, strlen(res->session_key));
	for (size_t i = 0; i < res->nrecipients; i++)
		free(res->recipients[i]);
	free(res->recipients);
	memset(res, 0, sizeof(*res));
	res->verdict = SIG_ERROR;
}

void crypto_sig_copy(struct crypto_sig *dst, const struct crypto_sig *src)
{
	*dst = *src;
	dst->fingerprint = src->fingerprint ? xstrdup(src->fingerprint) : NULL;
	dst->uids = uids_dup(src->uids, src->nuids);
}

/* Frees what sig holds and leaves it empty; NULL is fine. */
void crypto_sig_release(struct crypto_sig *sig)
{
	if (!sig)
		return;
	free(sig->fingerprint);
	for (size_t i = 0; i < sig->nuids; i++) {
		free(sig->uids[i].uid);
		free(sig->uids[i].name);
		free(sig->uids[i].email);
	}
	free(sig->uids);
	memset(sig, 0, sizeof(*sig));
}

const struct crypto_uid *crypto_sig_uid(const struct crypto_sig *sig,
					const char *prefer)
{
	if (!sig || !sig->nuids)
		return NULL;
	for (size_t i = 0; prefer && i < sig->nuids; i++)
		if (sig->uids[i].valid && sig->uids[i].email &&
		    !str_cmp_ci(sig->uids[i].email, prefer))
			return &sig->uids[i];
	for (size_t i = 0; i < sig->nuids; i++)
		if (sig->uids[i].valid)
			return &sig->uids[i];
	return &sig->uids[0];
}

/* True when email is the address of one of sig's valid user IDs,
 * ignoring ASCII case; false for NULL or empty arguments. */
bool crypto_sig_matches(const struct crypto_sig *sig, const char *email)
{
	if (!sig || !email || !*email)
		return false;
	for (size_t i = 0; i < sig->nuids; i++)
		if (sig->uids[i].valid && sig->uids[i].email &&
		    !str_cmp_ci(sig->uids[i].email, email))
			return true;
	return false;
}
