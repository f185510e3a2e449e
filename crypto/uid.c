/*
 * uid.c: which user IDs of a key the officer's keyring vouches for.
 *
 * Anyone can add a user ID carrying any address to their own key; only a
 * certification (the officer's own, or through the web of trust) makes
 * gpg compute full or ultimate validity for it.  So a user ID counts for
 * "this key belongs to ADDRESS" only when its validity is full or
 * ultimate and neither it nor the key is revoked, expired, disabled or
 * invalid.  Addresses are compared whole, ignoring ASCII case only: a
 * look-alike (a Cyrillic letter for a Latin one) is another address.
 */
#include <string.h>

#include "crypto/crypto-int.h"

bool crypto_uid_counts(gpgme_key_t key, gpgme_user_id_t uid)
{
	if (key->revoked || key->expired || key->disabled || key->invalid)
		return false;
	if (uid->revoked || uid->invalid)
		return false;
	return uid->validity == GPGME_VALIDITY_FULL ||
		uid->validity == GPGME_VALIDITY_ULTIMATE;
}

/* True when s is a full fingerprint (40 or 64 hex digits, no 0x). */
static bool is_fpr(const char *s)
{
	size_t n = strspn(s, "0123456789abcdefABCDEF");

	return (n == 40 || n == 64) && !s[n];
}

int crypto_key_uid_valid(struct crypto *c, const char *fpr, const char *email,
			 bool *ok, struct err *err)
{
	gpgme_key_t key = NULL;
	gpgme_error_t e;
	bool same = false;

	*ok = false;
	if (!fpr || !is_fpr(fpr))
		return err_setc(err, ERR_INVALID,
				"'%s' is not a key fingerprint",
				fpr ? fpr : "");
	if (!email || !*email)
		return err_setc(err, ERR_INVALID,
				"no address to check on key %s", fpr);
	crypto_ctx_reset(c);
	e = gpgme_get_key(c->ctx, fpr, &key, 0);
	if (gpgme_err_code(e) == GPG_ERR_EOF || (!e && !key))
		return err_setc(err, ERR_NOTFOUND,
				"no key %s in gnupg home '%s'", fpr, c->home);
	if (e)
		return crypto_gpg_err(err, e,
				      "cannot look up key %s in gnupg "
				      "home '%s'",
				      fpr, c->home);
	/* gpg matches a fingerprint against subkeys too: the primary key is
	 * what was named. */
	same = key->subkeys && key->subkeys->fpr &&
		!str_cmp_ci(key->subkeys->fpr, fpr);
	if (!same) {
		gpgme_key_unref(key);
		return err_setc(err, ERR_NOTFOUND,
				"no key %s in gnupg home '%s' (only a subkey "
				"with that fingerprint)",
				fpr, c->home);
	}
	for (gpgme_user_id_t u = key->uids; u && !*ok; u = u->next)
		if (u->email && !str_cmp_ci(u->email, email) &&
		    crypto_uid_counts(key, u))
			*ok = true;
	gpgme_key_unref(key);
	return 0;
}
