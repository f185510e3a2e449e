/*
 * The team key (the sealed record): 32 random bytes per
 * generation, wrapped (OpenPGP-encrypted) to every officer's key and
 * stored beside the record; an officer unwraps it once per session
 * through gpg-agent into memory that is locked (never swapped), kept out
 * of core dumps and wiped when freed (libsodium's guarded allocations).
 *
 * A field is sealed with XChaCha20-Poly1305 (IETF) under a random nonce;
 * the associated data names the table, the column, the row and the key
 * generation, so a sealed value copied into another row or column, or
 * presented under another generation, does not open.  Lookups that must
 * match without the clear value (a duplicate's Message-ID, a content
 * hash) use a keyed hash: team_key_mac, under a subkey of its own.
 *
 * A sealed value, as bytes: "SK1" | generation (4, big-endian) | nonce
 * (24) | ciphertext and tag.  Only crypto/ includes <sodium.h>.
 */
#ifndef SECTEAM_TEAMKEY_H
#define SECTEAM_TEAMKEY_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/crypto.h"
#include "util/util.h"

#define TEAM_KEY_BYTES 32
#define TEAM_MAC_BYTES 32

struct team_key;

/* A new random key of generation gen (>= 1).  0, or ERR_CRYPTO when
 * locked memory cannot be had. */
int team_key_new(uint32_t gen, struct team_key **out, struct err *err);
/* Wipes and frees k (NULL is fine). */
void team_key_free(struct team_key *k);
uint32_t team_key_generation(const struct team_key *k);

/* k wrapped to the keys fprs (OpenPGP, as crypto_encrypt: each must be a
 * usable key); *blob is the caller's. */
int team_key_wrap(struct crypto *c, const struct team_key *k,
		  const char *const *fprs, size_t n, unsigned char **blob,
		  size_t *len, struct err *err);
/* The key a wrapped blob holds, decrypted through the officer's
 * gpg-agent, and (keyid not NULL) the key ID of the subkey the copy was
 * wrapped to (NULL if not just one).  ERR_CRYPTO naming what is missing
 * when no secret key of this keyring opens it; ERR_INVALID for a blob
 * that is no team key. */
int team_key_unwrap(struct crypto *c, const void *blob, size_t len,
		    struct team_key **out, char **keyid, struct err *err);

/*
 * The unwrapped key kept a while in the kernel's keyring (keyrings(7),
 * through libkeyutils; team.key-cache), so that the officer's next commands need
 * no gpg-agent: named by a hash of the wrapped copy it came from and of
 * the keyring (GnuPG home) that opened it, so that another home, or
 * another copy (a new generation, another team), never finds it.
 */
#define TEAM_KEY_CACHE_NAME 64
void team_key_cache_name(const char *home, const void *blob, size_t len,
			 char name[TEAM_KEY_CACHE_NAME]);
/* Kept with a note of at most this many bytes (the caller's: what
 * decides whether the key may still be used, core/session.c). */
#define TEAM_KEY_CACHE_NOTE 256
/* 0, or -1 with errno (the kernel refused: no keyring here). */
int team_key_cache_put(const struct team_key *k, const char *name,
		       unsigned seconds, const char *note);
/* The key kept under name, or NULL; its note in *note (note not NULL:
 * a new string, "" when none). */
struct team_key *team_key_cache_get(const char *name, char **note);
/* Whether this process has a keyring to keep keys in (a container's
 * seccomp filter, for one, refuses keyctl). */
bool team_key_cache_usable(void);
/* An officer's signing key's seed kept the same way (crypto/signkey.h),
 * under name (team_key_cache_name of the home and the kept file's
 * bytes), with its note; get: 0 with seed and *note (the caller's), or
 * -1. */
int sign_seed_cache_put(const unsigned char seed[32], const char *name,
			unsigned seconds, const char *note);
int sign_seed_cache_get(const char *name, unsigned char seed[32], char **note);
/* The key kept under name, if any, forgotten now. */
void team_key_cache_drop(const char *name);

/* plain (len bytes) sealed for table.column of row; *out is the
 * caller's.  Never fails but for memory. */
void team_key_seal(const struct team_key *k, const char *table,
		   const char *column, int64_t row, const void *plain,
		   size_t len, unsigned char **out, size_t *outlen);
/* The clear value of a sealed one (*out NUL-terminated, wiped by the
 * caller: wipe_free).  ERR_CRYPTO naming the place when it does not open
 * there (moved from another row or column, another generation, altered),
 * ERR_INVALID when it is no sealed value. */
int team_key_open(const struct team_key *k, const char *table,
		  const char *column, int64_t row, const void *sealed,
		  size_t len, unsigned char **out, size_t *outlen,
		  struct err *err);
/* What every sealed value starts with (then its generation). */
#define TEAM_KEY_SEALED_MAGIC "SK1"
#define TEAM_KEY_SEALED_MAGIC_LEN 3
/* The generation a sealed value says it is under, or 0 when it is no
 * sealed value (which key to open it with). */
uint32_t team_key_sealed_generation(const void *sealed, size_t len);

/* A keyed hash of data for purpose ("message-id", "content"), the same
 * for the same key, purpose and data: an equality lookup that tells the
 * server nothing. */
void team_key_mac(const struct team_key *k, const char *purpose,
		  const void *data, size_t len,
		  unsigned char mac[TEAM_MAC_BYTES]);

/* Each generation keeps the one before it, sealed under its own key
 * (team_keys' "chain" row of the older generation): whoever holds the
 * latest opens every older value, also those never resealed (the events,
 * which are append-only), while a key of an older generation opens
 * nothing sealed after it.  *out is the caller's. */
void team_key_chain(const struct team_key *next, const struct team_key *prev,
		    unsigned char **out, size_t *outlen);
/* Generation gen's key from its chained copy under next.  ERR_CRYPTO when
 * it does not open (altered, or under another key), ERR_INVALID when it
 * is no chained key. */
int team_key_unchain(const struct team_key *next, uint32_t gen,
		     const void *chained, size_t len, struct team_key **out,
		     struct err *err);

#endif
