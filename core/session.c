/*
 * The session: the config, the store, the keyring and the roster, each
 * opened once (core/session.h).
 */
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "core/session.h"
#include "crypto/crypto.h"
#include "store/store.h"

int session_open(struct session *sess, struct err *err)
{
	char *path = sess->config_path ? NULL : config_default_path();
	const char *who;
	int r;

	sess->cfg = xcalloc(1, sizeof(*sess->cfg));
	r = config_load(sess->cfg, sess->config_path ? sess->config_path : path,
			sess->config_path != NULL, err);
	free(path);
	if (r < 0)
		return r;
	/* Only a display name (mail From, the UI): who an action is
	 * recorded as is the store's to say (session_store). */
	who = config_get(sess->cfg, "officer.name", NULL);
	if (!who) {
		struct passwd *pw = getpwuid(geteuid());
		who = pw ? pw->pw_name : "officer";
	}
	sess->officer_name = xstrdup(who);
	return 0;
}

void session_close(struct session *sess)
{
	if (!sess)
		return;
	store_close(sess->store);
	crypto_close(sess->crypto);
	if (sess->cfg) {
		config_release(sess->cfg);
		free(sess->cfg);
	}
	for (size_t i = 0; i < sess->nroster; i++) {
		free(sess->roster[i]);
		if (sess->roster_subkeys) {
			for (size_t j = 0; j < sess->roster_nsubkeys[i]; j++)
				free(sess->roster_subkeys[i][j]);
			free(sess->roster_subkeys[i]);
		}
	}
	free(sess->roster_subkeys);
	free(sess->roster_nsubkeys);
	sess->roster_subkeys = NULL;
	sess->roster_nsubkeys = NULL;
	free(sess->roster);
	sess->nroster = 0;
	free(sess->officer);
	free(sess->officer_name);
	sess->officer_name = NULL;
	sess->store = NULL;
	sess->crypto = NULL;
	sess->cfg = NULL;
	sess->officer = NULL;
	sess->roster = NULL;
}

struct store *session_store(struct session *sess, struct err *err)
{
	struct store_opts o = { 0 };
	char *def = NULL;
	const char *path = sess->db_path;

	if (sess->store)
		return sess->store;
	if (!path)
		path = config_get(sess->cfg, "store.url", NULL);
	if (!path)
		path = config_get(sess->cfg, "store.path", NULL);
	def = store_default_path();
	if (!path)
		path = def;
	o.shared_group = config_get(sess->cfg, "store.shared_group", NULL);
	/* 1 to 3600 when set: config_parse checks the range. */
	o.busy_timeout_ms = (int)config_get_long(sess->cfg, "store.busy_timeout", 0) * 1000;
	o.create = sess->store_create;
	/* Only the default location's folder is made: a mistyped --db
	 * or store.path is refused, not created. */
	o.make_folder = !strcmp(path, def);
	if (store_open(path, &o, &sess->store, err) == 0) {
		/* The login role on a team server, the Unix user on SQLite:
		 * never a name from the environment or the config. */
		free(sess->officer);
		sess->officer = store_whoami(sess->store);
		if (!sess->officer) {
			err_setc(err, ERR_IO, "cannot tell who is logged in to %s",
				 store_where(sess->store));
			store_close(sess->store);
			sess->store = NULL;
		}
	}
	free(def);
	return sess->store;
}

struct crypto *session_crypto(struct session *sess, struct err *err)
{
	const char *home = sess->gnupghome;

	if (sess->crypto)
		return sess->crypto;
	if (!home)
		home = config_get(sess->cfg, "gnupg.home", NULL);
	crypto_open(home, &sess->crypto, err);
	return sess->crypto;
}

const char *const *session_roster(struct session *sess, size_t *n,
				  struct err *err)
{
	const char *v;

	if (!sess->roster) {
		struct store *s = session_store(sess, err);

		if (!s)
			return NULL;
		if (store_has_team(s)) {
			/* A team server: the active officers' keys. */
			struct officer *o;
			size_t no;

			if (store_officers_list(s, false, &o, &no, err) < 0)
				return NULL;
			for (size_t i = 0; i < no; i++) {
				bool dup = false;

				for (size_t j = 0; j < sess->nroster && o[i].key_fpr; j++)
					dup |= !str_cmp_ci(sess->roster[j], o[i].key_fpr);
				if (o[i].key_fpr && *o[i].key_fpr && !dup) {
					sess->roster = xrealloc(sess->roster,
							       (sess->nroster + 1) * sizeof(char *));
					sess->roster[sess->nroster++] = xstrdup(o[i].key_fpr);
				}
				officer_release(&o[i]);
			}
			free(o);
			if (!sess->nroster) {
				err_setc(err, ERR_NOTFOUND,
					 "%s has no officer with a key: the team's administrator runs 'secteam-tui team add-officer ROLE --key FPR'",
					 store_where(s));
				return NULL;
			}
			*n = sess->nroster;
			return (const char *const *)sess->roster;
		}
		v = config_get(sess->cfg, "team.roster", NULL);
		if (v) {
			char *copy = xstrdup(v), *save = NULL;
			for (char *t = strtok_r(copy, " ,\t", &save); t;
			     t = strtok_r(NULL, " ,\t", &save)) {
				sess->roster = xrealloc(sess->roster,
						       (sess->nroster + 1) * sizeof(char *));
				sess->roster[sess->nroster++] = xstrdup(t);
			}
			free(copy);
		}
		if (!sess->nroster) {
			struct crypto *c = session_crypto(sess, err);
			char *fpr;
			if (!c)
				return NULL;
			if (crypto_default_secret_key(c, &fpr, err) < 0) {
				err_prefix(err,
					   "no team.roster in the config and no secret key to seal reports to");
				return NULL;
			}
			sess->roster = xcalloc(1, sizeof(char *));
			sess->roster[sess->nroster++] = fpr;
		}
	}
	*n = sess->nroster;
	return (const char *const *)sess->roster;
}
