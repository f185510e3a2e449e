/*
 * Officers' signing keys (see signkey.h): Ed25519 through libsodium,
 * certified and kept through GPGME.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "crypto/crypto-int.h"
#include "crypto/signkey.h"

#define KEPT_MAGIC "SSK1"
#define KEPT_LEN (4 + crypto_sign_SEEDBYTES)
#define KEPT_MAX 65536

struct sign_key {
	unsigned char *sk; /* sodium_malloc: locked, guarded */
	unsigned char pk[crypto_sign_PUBLICKEYBYTES];
};

static int ready(struct err *err)
{
	if (sodium_init() < 0)
		return err_setc(err, ERR_CRYPTO, "libsodium cannot start");
	return 0;
}

int sign_key_from_seed(const unsigned char seed[32], struct sign_key **out,
		       struct err *err)
{
	struct sign_key *k;

	*out = NULL;
	if (ready(err) < 0)
		return ERR_CRYPTO;
	k = xcalloc(1, sizeof(*k));
	if (!(k->sk = sodium_malloc(crypto_sign_SECRETKEYBYTES))) {
		free(k);
		return err_setc(
			err, ERR_CRYPTO,
			"cannot lock memory for the signing key (RLIMIT_MEMLOCK?)");
	}
	crypto_sign_seed_keypair(k->pk, k->sk, seed);
	*out = k;
	return 0;
}

void sign_key_free(struct sign_key *k)
{
	if (!k)
		return;
	sodium_free(k->sk);
	free(k);
}

const unsigned char *sign_key_public(const struct sign_key *k)
{
	return k->pk;
}

void sign_key_sign(const struct sign_key *k, const void *msg, size_t len,
		   unsigned char sig[SIGN_SIG_BYTES])
{
	crypto_sign_detached(sig, NULL, msg, len, k->sk);
}

bool sign_verify(const unsigned char pub[SIGN_PUB_BYTES], const void *msg,
		 size_t len, const unsigned char sig[SIGN_SIG_BYTES])
{
	struct err e = { 0, "" };

	if (ready(&e) < 0)
		return false;
	return crypto_sign_verify_detached(sig, msg, len, pub) == 0;
}

void sign_hash(const void *data, size_t len, unsigned char out[SIGN_HASH_BYTES])
{
	struct err e = { 0, "" };

	ready(&e); /* (a hash needs no more than sodium_init) */
	crypto_generichash(out, SIGN_HASH_BYTES, data, len, NULL, 0);
}

/* Where fpr's signing key is kept: in the GnuPG home it belongs to. */
static char *kept_path(struct crypto *c, const char *fpr)
{
	return xasprintf("%s/secteam-signing-%s", c->home ? c->home : ".", fpr);
}

char *sign_key_path(const char *home, const char *fpr)
{
	return xasprintf("%s/secteam-signing-%s", home ? home : ".", fpr);
}

void sign_key_seed(const struct sign_key *k, unsigned char seed[32])
{
	crypto_sign_ed25519_sk_to_seed(seed, k->sk);
}

int sign_key_load(struct crypto *c, const char *fpr, struct sign_key **out,
		  char **keyid, struct err *err)
{
	char *path = kept_path(c, fpr);
	unsigned char *buf = xmalloc(KEPT_MAX);
	struct crypto_result res;
	ssize_t n;
	int fd, r;

	*out = NULL;
	memset(&res, 0, sizeof(res));
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		r = errno == ENOENT
			? err_setc(err, ERR_NOTFOUND,
				   "no signing key for %s in '%s'", fpr, path)
			: err_setc(err, ERR_IO, "cannot open '%s': %s", path,
				   strerror(errno));
		goto out;
	}
	n = read(fd, buf, KEPT_MAX);
	close(fd);
	if (n <= 0 || n >= KEPT_MAX) {
		r = err_setc(err, ERR_INVALID, "'%s' is no signing key", path);
		goto out;
	}
	if ((r = crypto_decrypt_verify(c, buf, (size_t)n, &res, err)) < 0) {
		err_prefix(err, "cannot open the signing key '%s'", path);
		goto out;
	}
	if (!res.encrypted || res.plain_len != KEPT_LEN ||
	    memcmp(res.plain, KEPT_MAGIC, 4)) {
		r = err_setc(err, ERR_INVALID, "'%s' is no signing key", path);
		goto out;
	}
	r = sign_key_from_seed(res.plain + 4, out, err);
	if (r == 0 && keyid)
		*keyid = res.nrecipients == 1 ? xstrdup(res.recipients[0])
					      : NULL;
out:
	crypto_result_release(&res); /* wipes the seed */
	free(buf);
	free(path);
	return r;
}

int sign_key_create(struct crypto *c, const char *fpr, struct sign_key **out,
		    struct err *err)
{
	char *path = kept_path(c, fpr);
	unsigned char *plain = NULL, *blob = NULL;
	size_t bl = 0;
	int fd = -1, r;

	*out = NULL;
	if ((r = ready(err)) < 0)
		goto out;
	if (!(plain = sodium_malloc(KEPT_LEN))) {
		r = err_setc(err, ERR_CRYPTO,
			     "cannot lock memory for the signing key");
		goto out;
	}
	memcpy(plain, KEPT_MAGIC, 4);
	randombytes_buf(plain + 4, crypto_sign_SEEDBYTES);
	if ((r = crypto_encrypt(c, &fpr, 1, NULL, false, plain, KEPT_LEN, &blob,
				&bl, err)) < 0) {
		err_prefix(err, "cannot keep a signing key for %s", fpr);
		goto out;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0) {
		r = err_setc(err, errno == EEXIST ? ERR_DUPLICATE : ERR_IO,
			     "cannot create '%s': %s", path, strerror(errno));
		goto out;
	}
	if (write(fd, blob, bl) != (ssize_t)bl || fsync(fd) < 0) {
		r = err_setc(err, ERR_IO, "cannot write '%s': %s", path,
			     strerror(errno));
		close(fd);
		unlink(path);
		goto out;
	}
	if (close(fd) < 0) {
		r = err_setc(err, ERR_IO, "cannot write '%s': %s", path,
			     strerror(errno));
		unlink(path);
		goto out;
	}
	r = sign_key_from_seed(plain + 4, out, err);
out:
	sodium_free(plain);
	free(blob);
	free(path);
	return r;
}

/* What the officer's OpenPGP key signs: the key, for whom, for what. */
static char *statement(const char *fpr, const unsigned char pub[SIGN_PUB_BYTES])
{
	char hex[2 * SIGN_PUB_BYTES + 1];

	sodium_bin2hex(hex, sizeof(hex), pub, SIGN_PUB_BYTES);
	return xasprintf("secteam-tui officer signing key/1\n"
			 "officer %s\nkey %s\n",
			 fpr, hex);
}

int sign_key_certify(struct crypto *c, const char *fpr,
		     const unsigned char pub[SIGN_PUB_BYTES],
		     unsigned char **cert, size_t *len, struct err *err)
{
	char *text = statement(fpr, pub), *micalg = NULL;
	int r = crypto_pgp_sign_detached(c, fpr, text, strlen(text), cert, len,
					 &micalg, err);

	free(micalg);
	free(text);
	if (r < 0)
		err_prefix(err, "cannot certify the signing key of %s", fpr);
	return r;
}

int sign_cert_check(struct crypto *c, const char *fpr,
		    const unsigned char pub[SIGN_PUB_BYTES], const void *cert,
		    size_t len, struct err *err)
{
	char *text = statement(fpr, pub);
	struct crypto_result res;
	const struct crypto_keyinfo *k;
	int r;

	memset(&res, 0, sizeof(res));
	r = crypto_verify_detached(c, text, strlen(text), cert, len, &res, err);
	free(text);
	if (r < 0) {
		crypto_result_release(&res);
		return err_prefix(err, "the certification of %s's signing key",
				  fpr);
	}
	if (res.nsigs != 1 ||
	    (res.sigs[0].verdict != SIG_VALID &&
	     res.sigs[0].verdict != SIG_GOOD) ||
	    !res.sigs[0].fingerprint ||
	    !(k = crypto_keyinfo_get(c, res.sigs[0].fingerprint)) ||
	    str_cmp_ci(k->fpr, fpr))
		r = err_setc(err, ERR_CRYPTO,
			     "the certification of %s's signing key is no good "
			     "signature by that key (%s)",
			     fpr,
			     res.nsigs != 1 ? "not one signature"
				     : res.sigs[0].verdict != SIG_VALID &&
					     res.sigs[0].verdict != SIG_GOOD
				     ? sig_verdict_name(res.sigs[0].verdict)
				     : "made by another key");
	crypto_result_release(&res);
	return r;
}

int crypto_wrapped_to(struct crypto *c, const void *blob, size_t len,
		      const char *fpr, struct err *err)
{
	struct crypto_result res;
	struct err ignored = { 0, "" };
	gpgme_key_t key = NULL;
	gpgme_error_t e;
	int r = 0;

	memset(&res, 0, sizeof(res));
	/* Decrypts only what is for this keyring's own keys (then wiped):
	 * the recipients come with the attempt, whatever its outcome. */
	crypto_decrypt_verify(c, blob, len, &res, &ignored);
	crypto_ctx_reset(c);
	e = gpgme_get_key(c->ctx, fpr, &key, 0);
	if (e || !key) {
		/* Nothing to tell its subkeys by: whose the copy is, only
		 * a keyring with the key can say (the generation's author
		 * vouches for it meanwhile). */
		r = ERR_NOTFOUND;
		goto out;
	}
	if (!res.nrecipients) {
		r = err_setc(err, ERR_CRYPTO, "it is encrypted to no key");
		goto out;
	}
	for (size_t i = 0; i < res.nrecipients && r == 0; i++) {
		bool ours = false;

		for (gpgme_subkey_t sk = key->subkeys; sk && !ours;
		     sk = sk->next)
			ours = sk->keyid && sk->can_encrypt &&
				!str_cmp_ci(sk->keyid, res.recipients[i]);
		if (!ours)
			r = err_setc(err, ERR_CRYPTO,
				     "it is encrypted to key %s, which is not "
				     "%s's",
				     res.recipients[i], fpr);
	}
out:
	if (key)
		gpgme_key_unref(key);
	crypto_result_release(&res);
	return r;
}
