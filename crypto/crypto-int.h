/*
 * crypto-int.h: what the files of crypto/ share and nobody else sees.
 *
 * struct crypto holds the GPGME context every synchronous operation reuses,
 * the pool of contexts for background decryptions, and the cache of
 * signing-key user IDs.  The "sink" is the GPGME output buffer
 * that never leaves plaintext behind in freed memory.
 */
#ifndef SECTEAM_CRYPTO_INT_H
#define SECTEAM_CRYPTO_INT_H

#include <gpgme.h>

#include "crypto/crypto.h"

/* A growable output buffer whose old copies are wiped on every growth.
 * With max set (not 0), a write that would take it past max bytes fails
 * (GPGME then ends the operation with an error) and sets over. */
struct crypto_sink {
	unsigned char *buf;
	size_t len, alloc;
	size_t max; /* 0: no limit */
	bool over; /* a write went past max */
};

/* What we remember about a signing key, by the fingerprint a signature
 * names (which may be a subkey's). */
struct crypto_keyinfo {
	char *sigfpr; /* as the signature gave it, upper case */
	char *fpr; /* the primary key's fingerprint */
	struct crypto_uid *uids; /* not revoked or invalid, in key order */
	size_t nuids;
};

struct crypto {
	gpgme_ctx_t ctx;
	char *home; /* the GnuPG home in use, for messages */
	struct crypto_keyinfo *keys;
	size_t nkeys, akeys;
	/* Contexts for background decryptions (crypto_decrypt_start), made
	 * on first use and kept: each costs a "gpg --version" to set up. */
	gpgme_ctx_t jobctx[CRYPTO_JOBS_MAX];
	bool jobbusy[CRYPTO_JOBS_MAX];
	/* gpg itself, not secteam-gpg: a failed decryption done again to
	 * learn why (verify.c loud_again); made on first use. */
	gpgme_ctx_t loud;
	/* The keyring's stamp when last taken (stamp.c): a change makes
	 * the signing keys above forgotten. */
	char *stamp;
};

/* A decryption running in GPGME's global event loop. */
struct crypto_job {
	int slot; /* its context: c->jobctx[slot] */
	const void *data; /* the caller's ciphertext */
	size_t len;
	gpgme_data_t in, out;
	struct crypto_sink sink; /* the plaintext as it arrives */
};

/* Makes a GPGME data object writing into sink (empty, no limit: set
 * sink->max after).  Returns 0, or a negative code with err naming what
 * for. */
int crypto_sink_data(struct crypto_sink *sink, gpgme_data_t *dh,
		     struct err *err);
/* Wipes and frees the sink's buffer. */
void crypto_sink_wipe(struct crypto_sink *sink);
/* Hands the sink's bytes to the caller (*buf, caller frees; an empty
 * buffer when none came) and leaves the sink empty. */
void crypto_sink_take(struct crypto_sink *sink, unsigned char **buf,
		      size_t *len);

/* Sets err to "<what>: <gpgme's message, lowercase>" with code ERR_CRYPTO;
 * returns ERR_CRYPTO. */
int crypto_gpg_err(struct err *err, gpgme_error_t e, const char *fmt, ...)
	UTIL_PRINTF(3, 4);

/* Makes a context set up as every one of ours is (OpenPGP, home, local
 * key listing, offline, no auto-key-retrieve). */
gpgme_error_t crypto_ctx_new(const char *home, gpgme_ctx_t *ctx);
/* The same, running gpg itself when GPGME's contexts run secteam-gpg
 * (else it is crypto_ctx_new's). */
gpgme_error_t crypto_ctx_new_loud(const char *home, gpgme_ctx_t *ctx);
/* Whether GPGME runs secteam-gpg (gpg --quiet) in this process. */
bool crypto_quiet(void);

/* Resets the per-operation settings of the shared context (armor, signers,
 * text mode) so one operation cannot leak into the next. */
void crypto_ctx_reset(struct crypto *c);

/* The cached information about the key that made a signature with
 * fingerprint sigfpr, looking it up in the local keyring on the first call
 * (one gpg process).  NULL when the keyring has no such key.  The pointer
 * is valid until the next call; the listing also frees the context's
 * previous operation result, so copy out of it first. */
const struct crypto_keyinfo *crypto_keyinfo_get(struct crypto *c,
						const char *sigfpr);

/* uid.c: true when uid of key counts as vouched for: full or ultimate
 * validity, neither it nor the key revoked, expired, disabled, invalid. */
bool crypto_uid_counts(gpgme_key_t key, gpgme_user_id_t uid);

/* keys.c: resolves who (an e-mail address, fingerprint or long key ID) to
 * the one usable encryption key; *key gets a reference the caller
 * releases with gpgme_key_unref.  ERR_NOTFOUND with the reason named. */
int crypto_resolve_encryption_key(struct crypto *c, const char *who,
				  gpgme_key_t *key, struct err *err);
/* keys.c: the usable signing secret key for who (NULL: the first one). */
int crypto_resolve_secret_key(struct crypto *c, const char *who,
			      gpgme_key_t *key, struct err *err);

#endif
