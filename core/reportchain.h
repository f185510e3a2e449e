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
	/* a change: the events row it signs, what it binds, and when */
	uint64_t event;
	char *event_kind;
	uint64_t ref;
	unsigned char value[SIGN_HASH_BYTES];
	unsigned char detail[SIGN_HASH_BYTES];
	unsigned char row[SIGN_HASH_BYTES];
	int64_t at;
};

/* A report's scalar state as its verified events derive it. */
struct report_scalars {
	char state[24];
	char severity[16];
	char claimed[64]; /* "" when none */
	bool credit, exploit, public;
	int64_t release; /* 0: not started */
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
	int64_t head_row; /* the server's row id of the verified head
			   * (0: none, or this client's own, unread) */
	int64_t last_place; /* the server's last place read (rows' seq):
			     * where the next event goes after */
	unsigned char head[SIGN_HASH_BYTES];
	struct report_chain_entry *e;
	size_t n;
	char checkpoint[REPORT_FPR_LEN + 1]; /* who took in the rows from
					       * before the chain, or "" */
	/* Who took in its timeline from before changes were signed ("":
	 * nobody yet: no change is accepted), up to which events row,
	 * and the scalars as they then stood. */
	char changes_from[REPORT_FPR_LEN + 1];
	uint64_t changes_mark;
	uint32_t changes_gen; /* ... under which generation's key */
	unsigned char changes_rows[SIGN_HASH_BYTES]; /* those rows' hash */
	uint64_t dates_decisions, dates_proposals; /* the decisions and
						    * proposals taken in */
	unsigned char dates[SIGN_HASH_BYTES]; /* ... their hash */
	struct report_scalars taken;
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

/* A change's value, text (detail) and the row it records, each as a
 * keyed hash (NULL apart from ""). */
int report_digest_text(const char *purpose, const char *text, report_mac_fn mac,
		       void *data, uint32_t gen,
		       unsigned char out[SIGN_HASH_BYTES], struct err *err);
#define REPORT_DIGEST_VALUE "report-event-value"
#define REPORT_DIGEST_DETAIL "report-event-detail"
#define REPORT_DIGEST_ROW "report-event-row"
/* The report's timeline rows (rows[0..n), in id order, details opened)
 * with ids up to mark, as one keyed hash: what a changes-taken-in binds. */
int report_digest_timeline(const struct event *rows, size_t n, uint64_t mark,
			   report_mac_fn mac, void *data, uint32_t gen,
			   unsigned char out[SIGN_HASH_BYTES], struct err *err);
/* The decisions and proposals with ids up to dmax and pmax, as one
 * keyed hash: what a changes-taken-in binds of them. */
int report_digest_dates(const struct decision *dc, size_t nd, uint64_t dmax,
			const struct proposal *p, size_t np, uint64_t pmax,
			report_mac_fn mac, void *data, uint32_t gen,
			unsigned char out[SIGN_HASH_BYTES], struct err *err);
/* The canonical text of a decision or a proposal row (every value of it
 * an officer chose, none the server sets): a new string. */
char *report_row_decision(const struct decision *d);
char *report_row_proposal(const struct proposal *p);

/* The verified change that signs events row id, or NULL. */
const struct report_chain_entry *
report_chain_change(const struct report_chain *c, uint64_t id);
/* Whether events row ev (its detail opened) is as change e signed it. */
bool report_change_matches(const struct report_chain_entry *e,
			   const struct event *ev, report_mac_fn mac,
			   void *data);

/*
 * The scalars (state, severity, claim, consents, publicity, release
 * start) that c's verified changes derive: from what its
 * changes-taken-in event says, then each change of rows[0..n) (the
 * report's events rows; accounted[i] says which are as signed) in
 * chain order, read from the row's typed value, never its text.  A
 * change that does not follow (a state step not in the lifecycle, a
 * claim by another than its author's officer, an unknown value) is not
 * applied and is named in *notes (each a new string; *nnotes counts).
 * who(data, fpr) names the officer of a roster fingerprint (NULL:
 * unknown), to hold a claim to its author.
 */
void report_chain_derive(const struct report_chain *c, const struct event *rows,
			 const bool *accounted, size_t n,
			 const char *(*who)(void *, const char *), void *data,
			 struct report_scalars *out, char ***notes,
			 size_t *nnotes);

#endif
