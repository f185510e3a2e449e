/*
 * What the roster listing and a message kept as its content know of a
 * key, from the local keyring.
 */
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto-int.h"

void crypto_keydesc_release(struct crypto_keydesc *d)
{
	free(d->fpr);
	free(d->uid);
	memset(d, 0, sizeof(*d));
}

/* Fills d for the key fpr names: one public listing, one secret one. */
int crypto_key_describe(struct crypto *c, const char *fpr,
			struct crypto_keydesc *d, struct err *err)
{
	gpgme_key_t key = NULL;
	gpgme_error_t e;

	memset(d, 0, sizeof(*d));
	crypto_ctx_reset(c);
	e = gpgme_get_key(c->ctx, fpr, &key, 0);
	if (e || !key) {
		if (key)
			gpgme_key_unref(key);
		return err_setc(err, ERR_NOTFOUND,
				"key %s is not in the keyring", fpr);
	}
	d->fpr = xstrdup(key->fpr ? key->fpr : fpr);
	if (key->uids && key->uids->uid)
		d->uid = xstrdup(key->uids->uid);
	if (key->subkeys)
		d->expires = (time_t)key->subkeys->expires;
	d->revoked = key->revoked;
	d->expired = key->expired;
	for (gpgme_subkey_t sk = key->subkeys; sk; sk = sk->next) {
		if (sk->can_encrypt && !sk->revoked && !sk->expired &&
		    !sk->disabled && !sk->invalid) {
			d->can_encrypt = true;
			if (sk->expires &&
			    (!d->enc_expires ||
			     (time_t)sk->expires < d->enc_expires))
				d->enc_expires = (time_t)sk->expires;
		}
	}
	gpgme_key_unref(key);
	key = NULL;
	e = gpgme_get_key(c->ctx, fpr, &key, 1);
	if (!e && key)
		d->secret = true;
	if (key)
		gpgme_key_unref(key);
	return 0;
}

/* The signer as the keyring knows it now: uids from the key cache. */
void crypto_sig_from_key(struct crypto *c, const char *fpr,
			 enum sig_verdict verdict, struct crypto_sig *out)
{
	const struct crypto_keyinfo *k = fpr ? crypto_keyinfo_get(c, fpr)
					     : NULL;
	struct crypto_sig tmp;

	memset(out, 0, sizeof(*out));
	memset(&tmp, 0, sizeof(tmp));
	tmp.verdict = verdict;
	tmp.fingerprint = (char *)fpr;
	if (k) {
		tmp.uids = k->uids;
		tmp.nuids = k->nuids;
	}
	crypto_sig_copy(out, &tmp);
}
