/*
 * The session: what every use case works with, opened once per run.
 *
 * The shell (main.c) and the UI fill the paths from the command line,
 * call session_open (the config, the officer's display name), and the
 * store, the keyring and the roster open on first use.  Use cases take
 * a session and values and return results: they never print, and every
 * failure goes into the struct err the caller passes.
 */
#ifndef SECTEAM_SESSION_H
#define SECTEAM_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

struct config;
struct store;
struct crypto;
struct verdict_cache;

struct session {
	const char *db_path; /* --db, or NULL for the default */
	const char *gnupghome; /* --gnupghome, or NULL */
	const char *config_path; /* --config, or NULL for the default */
	bool store_create; /* team init: create the team schema */
	struct config *cfg; /* loaded by session_open */
	struct store *store; /* opened on first use (session_store) */
	struct crypto *crypto; /* opened on first use (session_crypto) */
	char *officer; /* who acts, as the store records it (the
				  * login role, or the Unix user); set when
				  * the store opens */
	char *officer_name; /* display name: config officer.name, or
				  * the Unix user */
	char **roster; /* team.roster fingerprints, or the
				  * officer's own key; see session_roster */
	size_t nroster;
	struct session_seal *seal; /* the team key and the store's sealer
				    * (session.c), unwrapped on first use */
	struct verdict_cache *verdicts; /* the officer's verdict cache
				    * (verdicts.c), opened on first use */
	bool verdicts_tried;
	struct sindex *sindex; /* the search index imports add to
				* (search_index_import), opened on first
				* use, written by search_index_done */
	bool sindex_tried;
};

/* Loads the config (sess->config_path, else the default). */
int session_open(struct session *sess, struct err *err);
void session_close(struct session *sess);
/* The database / the keyring, opened on first use; NULL with err set. */
struct store *session_store(struct session *sess, struct err *err);
struct crypto *session_crypto(struct session *sess, struct err *err);
/* Where the store is, in words ("database '/path/secteam.db'", "team
 * server 'host:5432/team'"), or NULL before it is open. */
const char *session_where(const struct session *sess);
/* The keys report bodies are sealed to; NULL with err set. */
const char *const *session_roster(struct session *sess, size_t *n,
				  struct err *err);
/* Opens a value the store sealed under the team key for table.column of
 * row (a message's blob); *out is the caller's to wipe. */
int session_open_sealed(struct session *sess, const char *table,
			const char *column, int64_t row, const void *sealed,
			size_t n, unsigned char **out, size_t *outlen,
			struct err *err);
/* Seals plain under the team key (it must exist: none is made here) for
 * table.column of row: what the officer keeps apart from the store (the
 * search cache).  *out is the caller's. */
int session_seal(struct session *sess, const char *table, const char *column,
		 int64_t row, const void *plain, size_t len,
		 unsigned char **out, size_t *outlen, struct err *err);
#define SESSION_MAC_BYTES 32
/* The keyed hash of data[0..len) for purpose under the team key's
 * current generation (it must exist: none is made here), and that
 * generation in *gen (when not NULL): what the officer's own search index
 * is keyed by, so that it follows a rotation.  0, or ERR_CRYPTO. */
int session_keyed_hash(struct session *sess, const char *purpose,
		       const void *data, size_t len,
		       unsigned char mac[SESSION_MAC_BYTES], uint32_t *gen,
		       struct err *err);
/* The team key, unwrapped (or made, for a team's first write) now: 0, or
 * ERR_CRYPTO naming what is missing. */
int session_team_key_ready(struct session *sess, struct err *err);
/* The team key unwrapped now, when the record has one (none yet: 0, as
 * nothing is sealed): 0, or ERR_CRYPTO naming what is missing.  For runs
 * that must not go on without it (due from cron). */
int session_team_key_open(struct session *sess, struct err *err);
/* On a team server: the team chain's roster made to say that role
 * holds key fpr (NULL: role is no officer any more), with events signed
 * by this keyring's officer, inside the caller's write transaction;
 * nothing when it says so already, when the chain has not started (its
 * checkpoint takes the officers as they are), or on SQLite.  Negative
 * with err naming why it cannot be signed (no officer's secret key
 * here, a broken chain). */
int session_team_member(struct session *sess, const char *role, const char *fpr,
			struct err *err);
/* Whether the verified team chain has role on its roster now (false on
 * SQLite, or before the chain starts); 0 or negative. */
int session_team_listed(struct session *sess, const char *role, bool *listed,
			struct err *err);
/* team init on a team server: the founding event (the officers now, the
 * root each officer pins), signed by the first officer, when this
 * keyring holds their secret key and the chain has none yet; otherwise
 * nothing (the first officer's first write makes a checkpoint). */
int session_team_found(struct session *sess, struct err *err);
/* What the team chain did not use, and why (one line each), and why it
 * stops (*broken, NULL when whole); none on SQLite. */
size_t session_team_notes(struct session *sess, const char *const **notes,
			  const char **broken);
/* The reports' chains (core/reportchain.h), on a team server. */
struct team_chain;
struct report_chain;
struct report_event;
/* The verified team chain, read to its newest event; NULL on SQLite
 * (err untouched) or with err. */
const struct team_chain *session_team_chain(struct session *sess,
					    struct err *err);
/* Team key generation gen's keyed hash of p for purpose (sess is a
 * struct session: a report_mac_fn). */
int session_team_mac(void *sess, uint32_t gen, const char *purpose,
		     const void *p, size_t len, unsigned char mac[32],
		     struct err *err);
/* The team key generation that seals now (a write's: it rotates when it
 * must). */
int session_team_generation(struct session *sess, uint32_t *gen,
			    struct err *err);
/* Signs ev as this officer's next event of c and appends it (inside the
 * caller's write transaction), then verifies it into c like any other:
 * error when c does not take it. */
int session_report_append(struct session *sess, struct report_chain *c,
			  struct report_event *ev, struct err *err);
/* True for bytes the team key sealed (not OpenPGP). */
bool session_is_team_sealed(const void *blob, size_t n);
/* When a wrapped copy of the team key belongs to a key no longer on the
 * roster (an officer removed): a new generation, wrapped to the roster,
 * from now on what seals (*rotated); what was sealed before is sealed
 * again by roster reseal.  0, or negative with err. */
int session_team_key_rotate(struct session *sess, bool *rotated,
			    struct err *err);
/* Wraps the team key for every roster key that has no copy of it yet
 * (a new officer); *added says how many.  0, or negative with err. */
int session_team_key_share(struct session *sess, size_t *added,
			   struct err *err);

#endif
