/*
 * An officer's signing key: an Ed25519 key (libsodium) that signs every
 * event the officer's client writes, so that each signature costs tens
 * of microseconds instead of a gpg process.  It speaks for the officer
 * only through its certification: the public key, in a fixed statement
 * naming the officer's OpenPGP fingerprint, signed (detached) by that
 * OpenPGP key, which every client checks against the fingerprint the
 * team's roster names.
 *
 * The secret half lives in locked memory (libsodium's guarded
 * allocations, wiped when freed) and, between sessions, in the officer's
 * GnuPG home as "secteam-signing-<FPR>" (0600), encrypted to the
 * officer's own OpenPGP key: a copy of the file without the OpenPGP
 * secret key signs nothing, it follows the keyring it belongs to (an
 * officer with two keyrings has two signing keys, each certified), and
 * gpg-agent guards it as it guards the team key.  Only crypto/ includes
 * <sodium.h> and GPGME.
 */
#ifndef SECTEAM_SIGNKEY_H
#define SECTEAM_SIGNKEY_H

#include <stdbool.h>
#include <stddef.h>

#include "crypto/crypto.h"
#include "util/util.h"

#define SIGN_PUB_BYTES 32
#define SIGN_SIG_BYTES 64
#define SIGN_HASH_BYTES 32

struct sign_key;

/* The signing key of officer fpr (a full OpenPGP fingerprint) kept in c's
 * GnuPG home, opened through gpg-agent.  ERR_NOTFOUND when there is none
 * yet; ERR_CRYPTO or ERR_INVALID naming the file when it does not open
 * or is no signing key of fpr. */
int sign_key_load(struct crypto *c, const char *fpr, struct sign_key **out,
		  char **keyid, struct err *err);
/* Where fpr's signing key is kept in GnuPG home `home` (a new string). */
char *sign_key_path(const char *home, const char *fpr);
/* k's 32-byte seed (what sign_key_from_seed makes it from). */
void sign_key_seed(const struct sign_key *k, unsigned char seed[32]);
/* A new signing key for fpr, kept (encrypted to fpr) in c's GnuPG home;
 * one already there is an error (ERR_DUPLICATE): load it instead. */
int sign_key_create(struct crypto *c, const char *fpr, struct sign_key **out,
		    struct err *err);
/* A key from a 32-byte seed, kept nowhere (the unit tests' keys). */
int sign_key_from_seed(const unsigned char seed[32], struct sign_key **out,
		       struct err *err);
/* Wipes and frees k (NULL is fine). */
void sign_key_free(struct sign_key *k);
const unsigned char *sign_key_public(const struct sign_key *k);
/* An Ed25519 signature over msg. */
void sign_key_sign(const struct sign_key *k, const void *msg, size_t len,
		   unsigned char sig[SIGN_SIG_BYTES]);
/* Whether sig is pub's signature over msg (libsodium's strict check). */
bool sign_verify(const unsigned char pub[SIGN_PUB_BYTES], const void *msg,
		 size_t len, const unsigned char sig[SIGN_SIG_BYTES]);
/* BLAKE2b-256 of data: the chains' hash. */
void sign_hash(const void *data, size_t len,
	       unsigned char out[SIGN_HASH_BYTES]);

/* The certification of pub by officer fpr's OpenPGP key (a detached
 * signature, *cert the caller's), through gpg-agent. */
int sign_key_certify(struct crypto *c, const char *fpr,
		     const unsigned char pub[SIGN_PUB_BYTES],
		     unsigned char **cert, size_t *len, struct err *err);
/* 0 when cert is a good signature over pub's statement by the OpenPGP
 * key whose primary fingerprint is fpr (in c's keyring, not revoked);
 * ERR_CRYPTO naming what is wrong otherwise. */
int sign_cert_check(struct crypto *c, const char *fpr,
		    const unsigned char pub[SIGN_PUB_BYTES], const void *cert,
		    size_t len, struct err *err);

/* 0 when the OpenPGP message blob is encrypted to at least one key and
 * every key it is encrypted to is an encryption subkey of the key fpr
 * (its recipients, as GPGME lists them: nothing is decrypted for anyone
 * else); ERR_CRYPTO naming a stranger's key ID otherwise; ERR_NOTFOUND
 * (err untouched) when c's keyring has no key fpr to tell by. */
int crypto_wrapped_to(struct crypto *c, const void *blob, size_t len,
		      const char *fpr, struct err *err);

#endif
