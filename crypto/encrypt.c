/*
 * encrypt.c: encrypting (and signing) to keys we resolved ourselves.
 *
 * Every recipient is resolved by keys.c to exactly one usable key before
 * gpg runs; gpg is then given those keys, never names it could resolve
 * differently.  Sign-and-encrypt is one gpg run.
 */
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto-int.h"

static void release_keys(gpgme_key_t *keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (keys[i])
			gpgme_key_unref(keys[i]);
	free(keys);
}

/*
 * Returns 0 with *out (caller frees) and *outlen the OpenPGP message, or a
 * negative code with err: ERR_NOTFOUND naming a recipient (or the signer)
 * without a usable key and why, ERR_INVALID without recipients,
 * ERR_CRYPTO when gpg fails.
 */
int crypto_encrypt(struct crypto *c, const char *const *keys, size_t nkeys,
		   const char *sign_as, bool armor, const void *data,
		   size_t len, unsigned char **out, size_t *outlen,
		   struct err *err)
{
	gpgme_key_t *rcpt, signer = NULL;
	gpgme_data_t in = NULL, cipher = NULL;
	struct crypto_sink sink;
	gpgme_error_t e;
	int r;

	*out = NULL;
	*outlen = 0;
	if (!nkeys)
		return err_setc(err, ERR_INVALID,
				"cannot encrypt: no recipients");
	rcpt = xcalloc(nkeys + 1, sizeof(*rcpt));
	for (size_t i = 0; i < nkeys; i++) {
		r = crypto_resolve_encryption_key(c, keys[i], &rcpt[i], err);
		if (r < 0) {
			release_keys(rcpt, nkeys);
			return r;
		}
	}
	if (sign_as) {
		r = crypto_resolve_secret_key(c, sign_as, &signer, err);
		if (r < 0) {
			release_keys(rcpt, nkeys);
			return r;
		}
	}

	crypto_ctx_reset(c);
	gpgme_set_armor(c->ctx, armor);
	e = signer ? gpgme_signers_add(c->ctx, signer) : 0;
	if (!e)
		e = gpgme_data_new_from_mem(&in, data, len, 0);
	if (e) {
		r = crypto_gpg_err(err, e, "cannot prepare encryption");
		goto out;
	}
	if ((r = crypto_sink_data(&sink, &cipher, err)) < 0)
		goto out;
	/*
	 * ALWAYS_TRUST only skips gpg's web-of-trust check.  It is safe
	 * here because gpg gets key objects, not names: each was resolved
	 * above to exactly one key that is not expired, revoked, disabled or
	 * invalid, and the caller vouches for each: the team roster, the
	 * officer's own keys, and forward recipients the caller resolved to
	 * a key the officer confirmed or whose user ID for the address is
	 * certified (crypto_key_uid_valid), never a key found by address
	 * alone.
	 */
	if (signer)
		e = gpgme_op_encrypt_sign(
			c->ctx, rcpt, GPGME_ENCRYPT_ALWAYS_TRUST, in, cipher);
	else
		e = gpgme_op_encrypt(c->ctx, rcpt, GPGME_ENCRYPT_ALWAYS_TRUST,
				     in, cipher);
	gpgme_data_release(cipher);
	cipher = NULL;
	if (e) {
		gpgme_encrypt_result_t er = gpgme_op_encrypt_result(c->ctx);
		if (er && er->invalid_recipients)
			r = crypto_gpg_err(err, er->invalid_recipients->reason,
					   "cannot encrypt to key %s",
					   er->invalid_recipients->fpr
						   ? er->invalid_recipients->fpr
						   : "?");
		else if (signer)
			r = crypto_gpg_err(err, e,
					   "cannot sign and encrypt as '%s'",
					   sign_as);
		else
			r = crypto_gpg_err(err, e, "cannot encrypt");
		crypto_sink_wipe(&sink);
		goto out;
	}
	crypto_sink_take(&sink, out, outlen);
	r = 0;
out:
	gpgme_data_release(in);
	crypto_ctx_reset(c);
	if (signer)
		gpgme_key_unref(signer);
	release_keys(rcpt, nkeys);
	return r;
}

/* "pgp-sha256" for RFC 3156's micalg, from the signature gpg made. */
static char *micalg_of(gpgme_ctx_t ctx)
{
	gpgme_sign_result_t sr = gpgme_op_sign_result(ctx);
	const char *name = sr && sr->signatures
		? gpgme_hash_algo_name(sr->signatures->hash_algo)
		: NULL;
	char *m = xasprintf("pgp-%s", name ? name : "sha256");

	for (char *p = m; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return m;
}

/*
 * Returns 0 with *sig (caller frees) the armored detached signature over
 * data by sign_as and *micalg (caller frees) its hash for RFC 3156, or a
 * negative code with err: ERR_NOTFOUND when sign_as has no usable secret
 * key, ERR_CRYPTO when gpg fails.
 */
int crypto_pgp_sign_detached(struct crypto *c, const char *sign_as,
			     const void *data, size_t len, unsigned char **sig,
			     size_t *siglen, char **micalg, struct err *err)
{
	gpgme_key_t signer = NULL;
	gpgme_data_t in = NULL, out = NULL;
	struct crypto_sink sink;
	gpgme_error_t e;
	int r;

	*sig = NULL;
	*siglen = 0;
	*micalg = NULL;
	if ((r = crypto_resolve_secret_key(c, sign_as, &signer, err)) < 0)
		return r;
	crypto_ctx_reset(c);
	gpgme_set_armor(c->ctx, 1);
	e = gpgme_signers_add(c->ctx, signer);
	if (!e)
		e = gpgme_data_new_from_mem(&in, data, len, 0);
	if (e) {
		r = crypto_gpg_err(err, e, "cannot prepare signing");
		goto out;
	}
	if ((r = crypto_sink_data(&sink, &out, err)) < 0)
		goto out;
	e = gpgme_op_sign(c->ctx, in, out, GPGME_SIG_MODE_DETACH);
	gpgme_data_release(out);
	if (e) {
		r = crypto_gpg_err(err, e, "cannot sign as '%s'", sign_as);
		crypto_sink_wipe(&sink);
		goto out;
	}
	*micalg = micalg_of(c->ctx);
	crypto_sink_take(&sink, sig, siglen);
	r = 0;
out:
	gpgme_data_release(in);
	crypto_ctx_reset(c);
	gpgme_key_unref(signer);
	return r;
}
