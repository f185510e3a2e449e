/*
 * The team key: wrapping, sealing, keyed hashes (see teamkey.h).
 */
#include <stdlib.h>
#include <string.h>

#include <keyutils.h>
#include <sodium.h>

#include "crypto/teamkey.h"

#define SEALED_HEAD                      \
	(TEAM_KEY_SEALED_MAGIC_LEN + 4 + \
	 crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
#define WRAP_MAGIC "STK1"
#define WRAP_LEN (4 + 4 + TEAM_KEY_BYTES)

struct team_key {
	unsigned char *k; /* sodium_malloc: locked, guarded */
	unsigned char *mac_key; /* the keyed hash's own subkey, the same */
	uint32_t gen;
};

static int ready(struct err *err)
{
	if (sodium_init() < 0)
		return err_setc(err, ERR_CRYPTO, "libsodium cannot start");
	return 0;
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		(uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* A key of generation gen over the bytes key (copied), with its subkey. */
static int make(uint32_t gen, const unsigned char *key, struct team_key **out,
		struct err *err)
{
	struct team_key *t;

	*out = NULL;
	if (ready(err) < 0)
		return ERR_CRYPTO;
	t = xcalloc(1, sizeof(*t));
	t->k = sodium_malloc(TEAM_KEY_BYTES);
	t->mac_key = sodium_malloc(TEAM_KEY_BYTES);
	if (!t->k || !t->mac_key) {
		team_key_free(t);
		return err_setc(
			err, ERR_CRYPTO,
			"cannot lock memory for the team key (RLIMIT_MEMLOCK?)");
	}
	if (key)
		memcpy(t->k, key, TEAM_KEY_BYTES);
	else
		randombytes_buf(t->k, TEAM_KEY_BYTES);
	crypto_kdf_derive_from_key(t->mac_key, TEAM_KEY_BYTES, 1, "secteam_",
				   t->k);
	t->gen = gen;
	*out = t;
	return 0;
}

int team_key_new(uint32_t gen, struct team_key **out, struct err *err)
{
	if (gen < 1)
		return err_setc(err, ERR_INVALID,
				"a team key generation starts at 1");
	return make(gen, NULL, out, err);
}

void team_key_free(struct team_key *k)
{
	if (!k)
		return;
	sodium_free(k->k); /* zeroes, unlocks, frees */
	sodium_free(k->mac_key);
	free(k);
}

uint32_t team_key_generation(const struct team_key *k)
{
	return k->gen;
}

int team_key_wrap(struct crypto *c, const struct team_key *k,
		  const char *const *fprs, size_t n, unsigned char **blob,
		  size_t *len, struct err *err)
{
	unsigned char *plain = sodium_malloc(WRAP_LEN);
	int r;

	*blob = NULL;
	*len = 0;
	if (!plain)
		return err_setc(err, ERR_CRYPTO,
				"cannot lock memory for the team key");
	memcpy(plain, WRAP_MAGIC, 4);
	put32(plain + 4, k->gen);
	memcpy(plain + 8, k->k, TEAM_KEY_BYTES);
	r = crypto_encrypt(c, fprs, n, NULL, false, plain, WRAP_LEN, blob, len,
			   err);
	sodium_free(plain);
	if (r < 0)
		return err_prefix(err, "cannot wrap the team key");
	return 0;
}

int team_key_unwrap(struct crypto *c, const void *blob, size_t len,
		    struct team_key **out, char **keyid, struct err *err)
{
	struct crypto_result res;
	int r;

	*out = NULL;
	memset(&res, 0, sizeof(res));
	if (crypto_decrypt_verify(c, blob, len, &res, err) < 0) {
		crypto_result_release(&res);
		return err_prefix(
			err,
			"cannot unwrap the team key (no secret key of "
			"this keyring opens it: is your key on the roster, "
			"and was the key resealed since?)");
	}
	if (!res.encrypted || res.plain_len != WRAP_LEN ||
	    memcmp(res.plain, WRAP_MAGIC, 4) || get32(res.plain + 4) < 1) {
		crypto_result_release(&res);
		return err_setc(err, ERR_INVALID,
				"the wrapped team key is no team key");
	}
	r = make(get32(res.plain + 4), res.plain + 8, out, err);
	if (r == 0 && keyid)
		*keyid = res.nrecipients == 1 ? xstrdup(res.recipients[0])
					      : NULL;
	crypto_result_release(&res); /* wipes the plaintext */
	return r;
}

void team_key_cache_name(const char *home, const void *blob, size_t len,
			 char name[TEAM_KEY_CACHE_NAME])
{
	unsigned char h[16];
	crypto_generichash_state st;
	struct err e = { 0, "" };

	ready(&e); /* (a hash needs no more than sodium_init) */
	crypto_generichash_init(&st, (const unsigned char *)"secteam-tui/cache",
				17, sizeof(h));
	crypto_generichash_update(&st,
				  (const unsigned char *)(home ? home : ""),
				  strlen(home ? home : "") + 1);
	crypto_generichash_update(&st, blob, len);
	crypto_generichash_final(&st, h, sizeof(h));
	memcpy(name, "secteam-tui:", 13);
	sodium_bin2hex(name + 12, TEAM_KEY_CACHE_NAME - 12, h, sizeof(h));
}

/* The kernel's key retention service (keyrings(7), through libkeyutils):
 * a "user" key in the user's keyring, readable by this user's processes
 * alone, destroyed (and wiped) by the kernel at its timeout. */
static int keyring_put(const char *name, const void *data, size_t len,
		       unsigned seconds)
{
	key_serial_t id =
		add_key("user", name, data, len, KEY_SPEC_USER_KEYRING);

	if (id < 0)
		return -1;
	if (keyctl_setperm(id,
			   KEY_POS_ALL | KEY_USR_VIEW | KEY_USR_READ |
				   KEY_USR_SEARCH) < 0 ||
	    keyctl_set_timeout(id, seconds) < 0) {
		keyctl_invalidate(id);
		return -1;
	}
	return 0;
}

/* Its bytes into buf (at most size), or -1: none, or longer. */
static long keyring_get(const char *name, void *buf, size_t size)
{
	key_serial_t id = keyctl_search(KEY_SPEC_USER_KEYRING, "user", name, 0);
	long n = id < 0 ? -1 : keyctl_read(id, buf, size);

	if (n >= 0 && (size_t)n > size) {
		sodium_memzero(buf, size);
		return -1;
	}
	return n;
}

/* As the wrapped plaintext (magic, generation, key), then the note. */
int team_key_cache_put(const struct team_key *k, const char *name,
		       unsigned seconds, const char *note)
{
	size_t nl = note ? strlen(note) : 0;
	unsigned char *p;
	int r;

	if (nl > TEAM_KEY_CACHE_NOTE || !(p = sodium_malloc(WRAP_LEN + nl)))
		return -1;
	memcpy(p, WRAP_MAGIC, 4);
	put32(p + 4, k->gen);
	memcpy(p + 8, k->k, TEAM_KEY_BYTES);
	if (nl)
		memcpy(p + WRAP_LEN, note, nl);
	r = keyring_put(name, p, WRAP_LEN + nl, seconds);
	sodium_free(p);
	return r;
}

struct team_key *team_key_cache_get(const char *name, char **note)
{
	struct team_key *k = NULL;
	struct err e = { 0, "" };
	size_t size = WRAP_LEN + TEAM_KEY_CACHE_NOTE;
	unsigned char *p;
	long n;

	if (note)
		*note = NULL;
	if (ready(&e) < 0 || !(p = sodium_malloc(size)))
		return NULL;
	n = keyring_get(name, p, size);
	if (n >= WRAP_LEN && !memcmp(p, WRAP_MAGIC, 4) && get32(p + 4) >= 1 &&
	    make(get32(p + 4), p + 8, &k, &e) == 0 && note) {
		*note = xmalloc((size_t)n - WRAP_LEN + 1);
		memcpy(*note, p + WRAP_LEN, (size_t)n - WRAP_LEN);
		(*note)[n - WRAP_LEN] = '\0';
	}
	sodium_free(p);
	return k;
}

/* A signing key's seed kept as a team key is (teamkey.h): its own
 * magic, so neither is ever taken for the other. */
#define SEED_MAGIC "SKS1"
#define SEED_LEN (4 + 32)

int sign_seed_cache_put(const unsigned char seed[32], const char *name,
			unsigned seconds, const char *note)
{
	size_t nl = note ? strlen(note) : 0;
	unsigned char *p;
	int r;

	if (nl > TEAM_KEY_CACHE_NOTE || !(p = sodium_malloc(SEED_LEN + nl)))
		return -1;
	memcpy(p, SEED_MAGIC, 4);
	memcpy(p + 4, seed, 32);
	if (nl)
		memcpy(p + SEED_LEN, note, nl);
	r = keyring_put(name, p, SEED_LEN + nl, seconds);
	sodium_free(p);
	return r;
}

int sign_seed_cache_get(const char *name, unsigned char seed[32], char **note)
{
	struct err e = { 0, "" };
	size_t size = SEED_LEN + TEAM_KEY_CACHE_NOTE;
	unsigned char *p;
	long n;
	int r = -1;

	*note = NULL;
	if (ready(&e) < 0 || !(p = sodium_malloc(size)))
		return -1;
	n = keyring_get(name, p, size);
	if (n >= SEED_LEN && !memcmp(p, SEED_MAGIC, 4)) {
		memcpy(seed, p + 4, 32);
		*note = xmalloc((size_t)n - SEED_LEN + 1);
		memcpy(*note, p + SEED_LEN, (size_t)n - SEED_LEN);
		(*note)[n - SEED_LEN] = '\0';
		r = 0;
	}
	sodium_free(p);
	return r;
}

bool team_key_cache_usable(void)
{
	return keyctl_get_keyring_ID(KEY_SPEC_USER_KEYRING, 1) >= 0;
}

void team_key_cache_drop(const char *name)
{
	key_serial_t id = keyctl_search(KEY_SPEC_USER_KEYRING, "user", name, 0);

	if (id >= 0)
		keyctl_invalidate(id);
}

/* The associated data: what a sealed value belongs to, into buf (cap
 * bytes) when it fits, else into a new buffer (the caller frees what is
 * not buf): a search opens 100,000 values with one of its own. */
#define AD_SMALL 192
static unsigned char *assoc(unsigned char *buf, size_t cap, const char *table,
			    const char *column, int64_t row, uint32_t gen,
			    size_t *n)
{
	size_t lt = strlen(table), lc = strlen(column);
	size_t need = 15 + lt + 1 + lc + 1 + 12;
	unsigned char *ad = need <= cap ? buf : xmalloc(need), *p = ad;

	memcpy(p, "secteam-seal/1", 15); /* with its NUL */
	p += 15;
	memcpy(p, table, lt + 1);
	p += lt + 1;
	memcpy(p, column, lc + 1);
	p += lc + 1;
	put32(p, (uint32_t)((uint64_t)row >> 32));
	put32(p + 4, (uint32_t)row);
	put32(p + 8, gen);
	p += 12;
	*n = (size_t)(p - ad);
	return ad;
}

void team_key_seal(const struct team_key *k, const char *table,
		   const char *column, int64_t row, const void *plain,
		   size_t len, unsigned char **out, size_t *outlen)
{
	unsigned char small[AD_SMALL];
	size_t adlen;
	unsigned char *ad =
		assoc(small, sizeof(small), table, column, row, k->gen, &adlen);
	unsigned char *o = xmalloc(SEALED_HEAD + len +
				   crypto_aead_xchacha20poly1305_ietf_ABYTES);
	unsigned long long clen;

	memcpy(o, TEAM_KEY_SEALED_MAGIC, TEAM_KEY_SEALED_MAGIC_LEN);
	put32(o + 3, k->gen);
	randombytes_buf(o + 7, crypto_aead_xchacha20poly1305_ietf_NPUBBYTES);
	crypto_aead_xchacha20poly1305_ietf_encrypt(o + SEALED_HEAD, &clen,
						   plain, len, ad, adlen, NULL,
						   o + 7, k->k);
	if (ad != small)
		free(ad);
	*out = o;
	*outlen = SEALED_HEAD + (size_t)clen;
}

uint32_t team_key_sealed_generation(const void *sealed, size_t len)
{
	const unsigned char *s = sealed;

	if (len < SEALED_HEAD + crypto_aead_xchacha20poly1305_ietf_ABYTES ||
	    memcmp(s, TEAM_KEY_SEALED_MAGIC, TEAM_KEY_SEALED_MAGIC_LEN))
		return 0;
	return get32(s + 3);
}

int team_key_open(const struct team_key *k, const char *table,
		  const char *column, int64_t row, const void *sealed,
		  size_t len, unsigned char **out, size_t *outlen,
		  struct err *err)
{
	const unsigned char *s = sealed;
	uint32_t gen = team_key_sealed_generation(sealed, len);
	unsigned char small[AD_SMALL], *ad, *p;
	size_t adlen, plen;
	unsigned long long got;
	int r;

	*out = NULL;
	*outlen = 0;
	if (!gen)
		return err_setc(err, ERR_INVALID,
				"%s.%s of row %lld is no sealed value", table,
				column, (long long)row);
	if (gen != k->gen)
		return err_setc(
			err, ERR_CRYPTO,
			"%s.%s of row %lld is sealed under team key generation %u; "
			"this session holds generation %u",
			table, column, (long long)row, gen, k->gen);
	plen = len - SEALED_HEAD - crypto_aead_xchacha20poly1305_ietf_ABYTES;
	p = xmalloc(plen + 1);
	ad = assoc(small, sizeof(small), table, column, row, gen, &adlen);
	r = crypto_aead_xchacha20poly1305_ietf_decrypt(p, &got, NULL,
						       s + SEALED_HEAD,
						       len - SEALED_HEAD, ad,
						       adlen, s + 7, k->k);
	if (ad != small)
		free(ad);
	if (r != 0) {
		free(p);
		return err_setc(
			err, ERR_CRYPTO,
			"%s.%s of row %lld does not open with the team key: "
			"it was altered, or moved there from another row or column",
			table, column, (long long)row);
	}
	p[got] = '\0';
	*out = p;
	*outlen = (size_t)got;
	return 0;
}

void team_key_mac(const struct team_key *k, const char *purpose,
		  const void *data, size_t len,
		  unsigned char mac[TEAM_MAC_BYTES])
{
	crypto_generichash_state st;

	crypto_generichash_init(&st, k->mac_key, TEAM_KEY_BYTES,
				TEAM_MAC_BYTES);
	crypto_generichash_update(&st, (const unsigned char *)purpose,
				  strlen(purpose) + 1);
	crypto_generichash_update(&st, data, len);
	crypto_generichash_final(&st, mac, TEAM_MAC_BYTES);
	sodium_memzero(&st, sizeof(st));
}

void team_key_chain(const struct team_key *next, const struct team_key *prev,
		    unsigned char **out, size_t *outlen)
{
	team_key_seal(next, "team_keys", "chain", prev->gen, prev->k,
		      TEAM_KEY_BYTES, out, outlen);
}

int team_key_unchain(const struct team_key *next, uint32_t gen,
		     const void *chained, size_t len, struct team_key **out,
		     struct err *err)
{
	const unsigned char *s = chained;
	unsigned char *k, *ad, small[AD_SMALL];
	unsigned long long got;
	size_t adlen;
	int r;

	*out = NULL;
	if (ready(err) < 0)
		return ERR_CRYPTO;
	if (team_key_sealed_generation(chained, len) != next->gen ||
	    len !=
		    SEALED_HEAD + TEAM_KEY_BYTES +
			    crypto_aead_xchacha20poly1305_ietf_ABYTES)
		return err_setc(
			err, ERR_INVALID,
			"the chained copy of team key generation %u is no "
			"key sealed under generation %u",
			gen, next->gen);
	/* Straight into locked memory: the key never sits in the heap. */
	if (!(k = sodium_malloc(TEAM_KEY_BYTES)))
		return err_setc(
			err, ERR_CRYPTO,
			"cannot lock memory for the team key (RLIMIT_MEMLOCK?)");
	ad = assoc(small, sizeof(small), "team_keys", "chain", gen, next->gen,
		   &adlen);
	r = crypto_aead_xchacha20poly1305_ietf_decrypt(k, &got, NULL,
						       s + SEALED_HEAD,
						       len - SEALED_HEAD, ad,
						       adlen, s + 7, next->k);
	if (ad != small)
		free(ad);
	if (r == 0 && got == TEAM_KEY_BYTES)
		r = make(gen, k, out, err);
	else
		r = err_setc(
			err, ERR_CRYPTO,
			"the chained copy of team key generation %u does not "
			"open with generation %u",
			gen, next->gen);
	sodium_free(k);
	return r;
}
