/*
 * The team: who its officers are and which keys report bodies are
 * encrypted to (the roster).
 *
 * On a team server the officers live in the database (team init,
 * add-officer, remove-officer, run by the team's administrator) and the
 * roster is their keys; on SQLite the officer is the Unix user and the
 * roster is the config's team.roster (or the officer's own key).  Files:
 *   team.c        team init / add-officer / remove-officer / listing
 *   roster.c      the roster listing and `roster reseal`
 *   cmd/team.c, cmd/roster.c   the commands over them
 */
#ifndef SECTEAM_TEAM_H
#define SECTEAM_TEAM_H

#include "core/core.h"

/* Checks fpr is a full fingerprint (40 hex digits, spaces allowed) of a
 * key in the officer's keyring with a usable encryption subkey; *out gets
 * it normalised (uppercase, no spaces; caller frees).  ERR_INVALID or
 * ERR_NOTFOUND naming fpr. */
int team_check_key(struct session *sess, const char *fpr, char **out,
		   struct err *err);

/* team init: creates the schema (when missing), the officers' role and
 * grants, and the first officer (role; default: the login running it),
 * with its key.  Idempotent.  Negative with err naming the server. */
int team_init(struct session *sess, const char *role, const char *name,
	      const char *key, struct err *err);
/* Adds officer role (creating the login role when missing) or updates
 * its name and key; logs "officer-add". */
int team_add_officer(struct session *sess, const char *role, const char *name,
		     const char *key, struct err *err);
/* Gives role, an active officer, a new random login password (set from
 * its SCRAM verifier: the server never sees it) into *password (caller
 * wipes and frees), to hand to the officer once; they change it with
 * psql's \password.  0 or negative with err. */
int team_set_password(struct session *sess, const char *role, char **password,
		      struct err *err);
/* Removes officer role (the row is kept, marked removed); logs
 * "officer-remove".  Their key leaves the roster: run `roster reseal`. */
int team_remove_officer(struct session *sess, const char *role,
			struct err *err);

/* One roster key as `roster` shows it. */
struct roster_entry {
	char *fpr;
	char *officer; /* the officer's role, or NULL (SQLite) */
	char *uid; /* primary user ID (untrusted), or NULL */
	time_t expires; /* 0: never */
	bool in_keyring; /* this officer has the public key */
	bool can_encrypt; /* ... and it can be encrypted to */
	bool secret; /* this officer holds the secret key */
};
void roster_entry_release(struct roster_entry *e);
/* The roster with what this officer's keyring says of each key. */
int roster_list(struct session *sess, struct roster_entry **out, size_t *n,
		struct err *err);

struct reseal_result {
	size_t total; /* stored bodies looked at */
	size_t resealed; /* encrypted again, to the roster as it is */
	size_t kept; /* already encrypted to exactly the roster */
	int64_t *unopened; /* message rows no key of ours opens */
	size_t nunopened;
	int64_t *unopened_reports; /* their reports, same order */
	bool rotated; /* a new team key generation was made (an
				 * officer left the roster) */
	size_t shared; /* wrapped copies of the team key added for
				 * officers who joined */
	size_t rekeyed; /* reports sealed again under the new
				 * generation */
	size_t dropped; /* older generations' wrapped copies dropped
				 * (the chain keeps those keys) */
	size_t batch; /* in: reports sealed again per transaction (0:
			 * the default, 256) */
};
void reseal_result_release(struct reseal_result *r);
/*
 * Encrypts every stored body again to the roster as it is now: bodies
 * kept as received or sealed to an older roster become the decrypted
 * content sealed to the roster, so a removed officer's key opens none
 * and a new officer's key opens all.  Each body is replaced in its own
 * transaction (a kill loses nothing; a re-run finishes the rest and
 * leaves the done ones alone).  progress (may be NULL) is called after
 * each body.  Returns 0 with *res filled (bodies no key of ours opens
 * are listed, not an error), negative when the store or the roster
 * fails.
 */
int roster_reseal(struct session *sess, struct reseal_result *res,
		  void (*progress)(size_t done, size_t total, void *data),
		  void *data, struct err *err);

#endif
