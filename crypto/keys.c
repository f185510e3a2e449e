/*
 * keys.c: finding the one key meant, in the local keyring only.
 *
 * A person is named by a fingerprint, a long key ID or an e-mail address.
 * gpg's own matching is only used to narrow the listing; every candidate
 * is then checked here: a fingerprint or key ID must equal the key's (or
 * one of its subkeys'), an e-mail address must equal one user ID's address
 * (ignoring case), never a substring.  Of the keys that match, exactly one
 * must be usable (not revoked, expired, disabled or invalid, with a
 * usable subkey for the job); otherwise the error names the person and the
 * reason: "no key", "key expired", "key revoked", "ambiguous: 2 keys".
 * Matching an address says nothing of who owns the key: anyone can put
 * any address on their key.  crypto_encryption_keys_for lists every
 * candidate so the caller can keep the ones the keyring vouches for
 * (crypto_key_uid_valid).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto-int.h"

enum who_kind { WHO_FPR, WHO_KEYID, WHO_EMAIL, WHO_BAD };

static enum who_kind classify(const char *who, const char **id)
{
	const char *s = who;
	size_t n;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	n = strlen(s);
	if (n == 16 || n == 40 || n == 64) {
		size_t i = 0;
		while (i < n && isxdigit((unsigned char)s[i]))
			i++;
		if (i == n) {
			*id = s;
			return n == 16 ? WHO_KEYID : WHO_FPR;
		}
	}
	*id = who;
	if (strchr(who, '@') && !strpbrk(who, " <>\t\r\n"))
		return WHO_EMAIL;
	return WHO_BAD;
}

/* Whether k is the key named; *uid_revoked is set when only a revoked or
 * invalid user ID carries the address. */
static bool key_matches(gpgme_key_t k, enum who_kind kind, const char *id,
			bool *uid_revoked)
{
	*uid_revoked = false;
	if (kind == WHO_EMAIL) {
		bool any = false;
		for (gpgme_user_id_t u = k->uids; u; u = u->next) {
			if (!u->email || str_cmp_ci(u->email, id))
				continue;
			if (!u->revoked && !u->invalid)
				return true;
			any = true;
		}
		*uid_revoked = any;
		return any;
	}
	for (gpgme_subkey_t sk = k->subkeys; sk; sk = sk->next) {
		const char *mine = kind == WHO_FPR ? sk->fpr : sk->keyid;
		if (mine && !str_cmp_ci(mine, id))
			return true;
	}
	return false;
}

/* NULL when k can do the job (encrypt, or sign with a secret key), else
 * the reason it cannot. */
static const char *key_problem(gpgme_key_t k, bool secret, bool uid_revoked)
{
	if (k->revoked)
		return "key revoked";
	if (k->expired)
		return "key expired";
	if (k->disabled)
		return "key disabled";
	if (k->invalid)
		return "key invalid";
	if (uid_revoked)
		return "user id revoked";
	for (gpgme_subkey_t sk = k->subkeys; sk; sk = sk->next) {
		if (sk->revoked || sk->expired || sk->disabled || sk->invalid)
			continue;
		if (secret ? sk->can_sign && sk->secret : sk->can_encrypt)
			return NULL;
	}
	return secret ? "no usable signing subkey"
		      : "no usable encryption subkey";
}

/* Starts a key listing on the shared context for pattern (freed here;
 * NULL: every key), secret keys when secret.  0, or ERR_CRYPTO with err
 * naming the GnuPG home. */
static int keylist_start(struct crypto *c, char *pattern, int secret,
			 struct err *err)
{
	gpgme_error_t e;

	crypto_ctx_reset(c);
	e = gpgme_op_keylist_start(c->ctx, pattern, secret);
	free(pattern);
	if (e)
		return crypto_gpg_err(
			err, e, "cannot list keys in gnupg home '%s'", c->home);
	return 0;
}

/* Lists the keys matching who and keeps the one usable one. */
static int resolve(struct crypto *c, const char *who, bool secret,
		   gpgme_key_t *out, struct err *err)
{
	const char *what = secret ? "secret signing key" : "encryption key";
	const char *id, *why = NULL;
	enum who_kind kind;
	gpgme_key_t k, found = NULL;
	gpgme_error_t e;
	size_t usable = 0;
	char *pattern;
	int r;

	*out = NULL;
	kind = who ? classify(who, &id) : WHO_BAD;
	if (who && kind == WHO_BAD)
		return err_setc(err, ERR_INVALID,
				"no usable %s for '%s': not an e-mail address "
				"or fingerprint",
				what, who);
	pattern = !who		    ? NULL
		: kind == WHO_EMAIL ? xasprintf("<%s>", id)
				    : xstrdup(id);
	if ((r = keylist_start(c, pattern, secret, err)) < 0)
		return r;
	while (!(e = gpgme_op_keylist_next(c->ctx, &k))) {
		bool uid_revoked = false;
		const char *p;

		if (who && !key_matches(k, kind, id, &uid_revoked)) {
			gpgme_key_unref(k);
			continue;
		}
		p = key_problem(k, secret, uid_revoked);
		if (p) {
			if (!why)
				why = p;
			gpgme_key_unref(k);
			continue;
		}
		usable++;
		if (!found)
			found = k;
		else
			gpgme_key_unref(k);
		if (!who)
			break;
	}
	gpgme_op_keylist_end(c->ctx);
	if (e && gpgme_err_code(e) != GPG_ERR_EOF) {
		if (found)
			gpgme_key_unref(found);
		return crypto_gpg_err(
			err, e, "cannot list keys in gnupg home '%s'", c->home);
	}
	if (usable > 1) {
		gpgme_key_unref(found);
		return err_setc(err, ERR_NOTFOUND,
				"no usable %s for '%s': ambiguous: %zu keys",
				what, who, usable);
	}
	if (!found) {
		if (!who)
			return err_setc(err, ERR_NOTFOUND,
					"no usable %s in gnupg home '%s'%s%s",
					what, c->home, why ? ": " : "",
					why ? why : "");
		return err_setc(err, ERR_NOTFOUND, "no usable %s for '%s': %s",
				what, who, why ? why : "no key");
	}
	*out = found;
	return 0;
}

int crypto_resolve_encryption_key(struct crypto *c, const char *who,
				  gpgme_key_t *key, struct err *err)
{
	if (!who || !*who)
		return err_setc(err, ERR_INVALID,
				"no usable encryption key: no recipient named");
	return resolve(c, who, false, key, err);
}

int crypto_resolve_secret_key(struct crypto *c, const char *who,
			      gpgme_key_t *key, struct err *err)
{
	return resolve(c, who && *who ? who : NULL, true, key, err);
}

/* What a key lookup that returned r gives: 0 with *fpr (caller frees)
 * the key's primary fingerprint and the key released, or r. */
static int take_fpr(int r, gpgme_key_t k, char **fpr)
{
	*fpr = NULL;
	if (r < 0)
		return r;
	*fpr = xstrdup(k->subkeys->fpr);
	gpgme_key_unref(k);
	return 0;
}

/*
 * Returns 0 with *fpr the primary fingerprint of the one usable encryption
 * key for who (caller frees); ERR_NOTFOUND naming who and the reason, or
 * ERR_INVALID when who is neither an address nor a fingerprint.
 */
int crypto_find_encryption_key(struct crypto *c, const char *who, char **fpr,
			       struct err *err)
{
	gpgme_key_t k = NULL;
	int r = crypto_resolve_encryption_key(c, who, &k, err);

	return take_fpr(r, k, fpr);
}

/* Returns 0 with *fpr (caller frees) the first usable signing secret key,
 * or ERR_NOTFOUND naming the GnuPG home. */
int crypto_default_secret_key(struct crypto *c, char **fpr, struct err *err)
{
	gpgme_key_t k = NULL;
	int r = crypto_resolve_secret_key(c, NULL, &k, err);

	return take_fpr(r, k, fpr);
}

/*
 * Returns 0 with *fprs (caller frees each and the array; allocated even
 * when *n is 0) the primary fingerprints of every usable encryption key
 * with a user ID for email that is not revoked, whatever its validity;
 * ERR_INVALID when email is not an address, ERR_CRYPTO when gpg fails.
 */
int crypto_encryption_keys_for(struct crypto *c, const char *email,
			       char ***fprs, size_t *n, struct err *err)
{
	const char *id;
	gpgme_key_t k;
	gpgme_error_t e;
	char *pattern;
	int r;

	*fprs = xcalloc(1, sizeof(**fprs));
	*n = 0;
	if (!email || classify(email, &id) != WHO_EMAIL)
		return err_setc(err, ERR_INVALID,
				"'%s' is not an e-mail address",
				email ? email : "");
	pattern = xasprintf("<%s>", id);
	if ((r = keylist_start(c, pattern, 0, err)) < 0)
		return r;
	while (!(e = gpgme_op_keylist_next(c->ctx, &k))) {
		bool uid_revoked = false;
		if (key_matches(k, WHO_EMAIL, id, &uid_revoked) &&
		    !key_problem(k, false, uid_revoked)) {
			*fprs = xrealloc(*fprs, (*n + 2) * sizeof(**fprs));
			(*fprs)[(*n)++] = xstrdup(k->subkeys->fpr);
			(*fprs)[*n] = NULL;
		}
		gpgme_key_unref(k);
	}
	gpgme_op_keylist_end(c->ctx);
	if (gpgme_err_code(e) != GPG_ERR_EOF) {
		for (size_t i = 0; i < *n; i++)
			free((*fprs)[i]);
		(*fprs)[0] = NULL;
		*n = 0;
		return crypto_gpg_err(
			err, e, "cannot list keys in gnupg home '%s'", c->home);
	}
	return 0;
}
