/*
 * The reports' chains, verified by this client (crypto/reportevent.h):
 * each report's events, each signed by an officer whose signing key the
 * verified team chain certifies, each naming the hash of the one before
 * in that report's chain and the report it belongs to.  What it derives:
 * which message rows, report values and files of the report a verified
 * event accounts for, by their digests.
 *
 * One module for every reader and both engines (report_load uses it):
 * a row no verified event accounts for (planted with psql, moved or
 * replayed from another report, rewritten by a reseal) is not shown and
 * is named once, as "report 7: message 12 has no signed import: not
 * shown".  An event that does not verify is not used and named; a
 * genuinely signed one that does not follow the verified chain means
 * the server dropped or reordered one: the chain stops there (broken).
 */
#ifndef SECTEAM_REPORTCHAIN_H
#define SECTEAM_REPORTCHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/teamchain.h"
#include "crypto/reportevent.h"
#include "store/types.h"

struct report_event_row;

/* What one verified import (or taken-in) event accounts for. */
struct report_chain_entry {
	enum report_event_kind kind;
	uint64_t message;
	uint32_t generation;
	unsigned char digest[SIGN_HASH_BYTES];
	unsigned char values[SIGN_HASH_BYTES];
	unsigned char signatures[SIGN_HASH_BYTES];
	unsigned char report[SIGN_HASH_BYTES];
	unsigned char (*files)[SIGN_HASH_BYTES];
	size_t nfiles;
	char author[REPORT_FPR_LEN + 1];
};

/* What this officer verified before (its own cache, reportlog.c): an
 * event's signature is checked once, then known by its key (the hash
 * of the signing key, the signature and the event). */
struct report_chain_cache {
	void *data;
	bool (*known)(void *data, const unsigned char key[SIGN_HASH_BYTES]);
	void (*learned)(void *data, const unsigned char key[SIGN_HASH_BYTES]);
};

struct report_chain {
	const struct report_chain_cache *cache; /* in: or NULL */
	int64_t report;
	uint64_t seq; /* the verified head's place (0: none yet) */
	unsigned char head[SIGN_HASH_BYTES];
	struct report_chain_entry *e;
	size_t n;
	char checkpoint[REPORT_FPR_LEN + 1]; /* who took in the rows from
					       * before the chain, or "" */
	char **notes; /* events not used, and why */
	size_t nnotes;
	char *broken; /* why the chain stops, or NULL */
};

/* c, empty, for report (c->cache may be set after). */
void report_chain_init(struct report_chain *c, int64_t report);
void report_chain_release(struct report_chain *c);
/* Verifies rows (report c->report's, in the server's order) against the
 * verified team chain.  Never fails: what does not verify is in
 * c->notes, or stops the chain (c->broken). */
void report_chain_feed(struct report_chain *c, const struct team_chain *team,
		       const struct report_event_row *rows, size_t n);
/* The verified event that accounts for message row id, or NULL. */
const struct report_chain_entry *
report_chain_message(const struct report_chain *c, uint64_t id);
/* The next event of c: its report, place, previous hash, team head and
 * author set, encoded and signed with key.  *body and *sig are the
 * caller's. */
int report_chain_sign(const struct report_chain *c,
		      const struct team_chain *team, struct report_event *ev,
		      const char *fpr, const struct sign_key *key,
		      unsigned char **body, size_t *len,
		      unsigned char sig[SIGN_SIG_BYTES], struct err *err);

/*
 * The digests an event binds, the same for its writer and every reader.
 * mac is the team key generation gen's keyed hash (session_team_mac):
 * what is sealed or names a person goes to the server only through it.
 */
typedef int (*report_mac_fn)(void *data, uint32_t gen, const char *purpose,
			     const void *p, size_t len,
			     unsigned char mac[SIGN_HASH_BYTES],
			     struct err *err);
/* The message's SHA-256 (m->plain_sha256, hex) as 32 bytes: false when
 * it has none. */
bool report_digest_message(const struct message *m,
			   unsigned char out[SIGN_HASH_BYTES]);
/* The message row's values: subject, sender, date, encryption, signer. */
int report_digest_values(const struct message *m, report_mac_fn mac, void *data,
			 uint32_t gen, unsigned char out[SIGN_HASH_BYTES],
			 struct err *err);
/* The report row's subject and reporter, as its first message set them. */
int report_digest_report(const char *subject, const char *name,
			 const char *email, report_mac_fn mac, void *data,
			 uint32_t gen, unsigned char out[SIGN_HASH_BYTES],
			 struct err *err);
/* The signatures found on a message: verdict, signer and time each. */
int report_digest_signatures(const enum sig_verdict *verdicts,
			     const char *const *fprs, const time_t *created,
			     size_t n, report_mac_fn mac, void *data,
			     uint32_t gen, unsigned char out[SIGN_HASH_BYTES],
			     struct err *err);
/* One path the message counts for the report. */
int report_digest_file(const char *path, report_mac_fn mac, void *data,
		       uint32_t gen, unsigned char out[SIGN_HASH_BYTES],
		       struct err *err);

#endif
