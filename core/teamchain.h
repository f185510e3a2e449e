/*
 * The team chain, verified by this client: from the root the officer
 * pins (the founding roster's OpenPGP fingerprints, as SSH's known_hosts
 * pins a host key), each event signed by an officer on the roster at
 * that point with a signing key their OpenPGP key certified, each
 * naming the hash of the one before.  What it derives: the roster, the
 * officers' signing keys, and the team key generations that count (each
 * signed by an officer on the roster at that point and wrapped to
 * exactly that roster).
 *
 * An event nobody on the roster signed (a forgery, the administrator's,
 * a removed officer's) is not used and said once; it blocks nothing.  So
 * is a genuinely signed event that does not follow the verified chain
 * (the first at each place, in the server's order, that names the
 * verified head wins): an officer writing on a head of their own stops
 * no one.  What this client verified before is remembered (its newest
 * place and hash, in the officer's cache): a server that later shows a
 * shorter chain, or another event at a place already verified, dropped
 * or reordered events, and the chain stops there; the session seals
 * nothing until it is whole (broken).
 */
#ifndef SECTEAM_TEAMCHAIN_H
#define SECTEAM_TEAMCHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/teamevent.h"

struct team_event_row;

/* The checks that need the keyring (GPGME), as callbacks: the unit tests
 * play them without one. */
struct team_chain_check {
	void *data;
	/* 0 when cert certifies pub as fpr's signing key */
	int (*cert)(void *data, const char *fpr, const unsigned char *pub,
		    const void *cert, size_t len, struct err *err);
	/* 0 when blob is encrypted to fpr's key and nobody else's */
	int (*wrapped)(void *data, const char *fpr, const void *blob,
		       size_t len, struct err *err);
};

/* A team key generation that counts. */
struct team_gen {
	uint32_t gen, prev_gen;
	unsigned char *chained; /* gen prev_gen's key, sealed under this */
	size_t chainedlen;
	struct team_wrap *wraps; /* one per roster key, as verified */
	size_t nwraps;
	char author[TEAM_FPR_LEN + 1];
};

struct team_chain_key {
	char fpr[TEAM_FPR_LEN + 1];
	unsigned char pub[SIGN_PUB_BYTES];
};

struct team_chain {
	/* in: the pinned root (the founding roster's fingerprints, upper
	 * case); none: the first founding seen is taken (and recorded by
	 * the caller) */
	char **pin;
	size_t npin;

	bool started; /* a founding or checkpoint verified */
	bool checkpoint; /* ... it was a checkpoint */
	struct team_member *members;
	size_t nmembers;
	struct team_chain_key *keys;
	size_t nkeys;
	struct team_gen *gens;
	size_t ngens;
	uint64_t seq; /* the verified head's place */
	unsigned char head[SIGN_HASH_BYTES];
	int64_t last_row; /* the server's place of the last row read */
	/* in: the newest head this client verified before (its place and
	 * hash; seen_seq 0: none), which the chain must still hold */
	uint64_t seen_seq;
	unsigned char seen_head[SIGN_HASH_BYTES];
	/* in: the hash of the founding (or checkpoint) that chain started
	 * with: another one, signed by the pinned root, is another team
	 * founded there (a database made again), not events dropped */
	unsigned char seen_first[SIGN_HASH_BYTES];
	unsigned char first[SIGN_HASH_BYTES]; /* this chain's */
	char **notes; /* events not used, and why, and the
				   * checkpoint that started the chain (new ones at
				   * the end: nnotes_said of them said) */
	size_t nnotes, nnotes_said;
	char *broken; /* why the chain stops, or NULL */
};

void team_chain_init(struct team_chain *c);
void team_chain_release(struct team_chain *c);
/* Verifies rows (the server's, after c->last_row, in its order) on top of
 * what c holds.  Never fails: what does not verify is in c->notes, or
 * stops the chain (c->broken). */
void team_chain_feed(struct team_chain *c, const struct team_event_row *rows,
		     size_t n, const struct team_chain_check *chk);
/* After feeding every row the server holds: a chain that ends before
 * seen_seq lost an event this client verified, and stops (broken). */
void team_chain_check_seen(struct team_chain *c);
/* The newest generation that counts, or NULL. */
const struct team_gen *team_chain_current(const struct team_chain *c);
/* The generation gen, or NULL. */
const struct team_gen *team_chain_gen(const struct team_chain *c, uint32_t gen);
/* Whether g is wrapped to exactly the roster as it is now (else the next
 * write rotates: an officer joined or left since). */
bool team_chain_gen_current(const struct team_chain *c,
			    const struct team_gen *g);
/* Whether fpr is the key of an officer on the roster now. */
bool team_chain_on_roster(const struct team_chain *c, const char *fpr);
/* fpr's certified signing key, or NULL. */
const unsigned char *team_chain_key(const struct team_chain *c,
				    const char *fpr);
/* The roster's keys now, distinct, ascending (*out the caller's: free
 * each and the array). */
size_t team_chain_roster(const struct team_chain *c, char ***out);

/* The next event of the chain: ev's place, previous hash and author set
 * (author: fpr), encoded and signed with key.  *body and *sig are the
 * caller's. */
int team_chain_sign(const struct team_chain *c, struct team_event *ev,
		    const char *fpr, const struct sign_key *key,
		    unsigned char **body, size_t *len,
		    unsigned char sig[SIGN_SIG_BYTES], struct err *err);

#endif
