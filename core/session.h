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

#include "util/util.h"

struct config;
struct store;
struct crypto;

struct session {
	const char *db_path;     /* --db, or NULL for the default */
	const char *gnupghome;   /* --gnupghome, or NULL */
	const char *config_path; /* --config, or NULL for the default */
	bool store_create;       /* team init: create the team schema */
	struct config *cfg;      /* loaded by session_open */
	struct store *store;     /* opened on first use (session_store) */
	struct crypto *crypto;   /* opened on first use (session_crypto) */
	char *officer;           /* who acts, as the store records it (the
				  * login role, or the Unix user); set when
				  * the store opens */
	char *officer_name;      /* display name: config officer.name, or
				  * the Unix user */
	char **roster;           /* team.roster fingerprints, or the
				  * officer's own key; see session_roster */
	size_t nroster;
	char ***roster_subkeys;  /* per roster key, its encryption subkey
				  * IDs (filled once by seal.c) */
	size_t *roster_nsubkeys;
};

/* Loads the config (sess->config_path, else the default). */
int session_open(struct session *sess, struct err *err);
void session_close(struct session *sess);
/* The database / the keyring, opened on first use; NULL with err set. */
struct store *session_store(struct session *sess, struct err *err);
struct crypto *session_crypto(struct session *sess, struct err *err);
/* The keys report bodies are sealed to; NULL with err set. */
const char *const *session_roster(struct session *sess, size_t *n,
				  struct err *err);

#endif
