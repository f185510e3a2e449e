/*
 * The officers of a team server.  Each change is stored and logged as a
 * team-wide event in one transaction; the database records who made it
 * (the administrator's login), and grants decide who may.
 */
#include <ctype.h>
#include <errno.h>
#include <sys/random.h>
#include <stdlib.h>
#include <string.h>

#include "core/team.h"
#include "crypto/crypto.h"
#include "store/store.h"

int team_check_key(struct session *sess, const char *fpr, char **out,
		   struct err *err)
{
	struct crypto *c;
	struct crypto_keydesc d;
	struct sbuf sb = SBUF_INIT;
	int r;

	*out = NULL;
	for (const char *p = fpr ? fpr : ""; *p; p++) {
		if (*p == ' ')
			continue;
		if (!isxdigit((unsigned char)*p)) {
			sbuf_release(&sb);
			return err_setc(
				err, ERR_INVALID,
				"'%s' is not a key fingerprint (40 hexadecimal digits)",
				fpr);
		}
		sbuf_addch(&sb, toupper((unsigned char)*p));
	}
	if (sb.len != 40) {
		sbuf_release(&sb);
		return err_setc(
			err, ERR_INVALID,
			"'%s' is not a full key fingerprint (40 hexadecimal digits)",
			fpr ? fpr : "");
	}
	if (!(c = session_crypto(sess, err))) {
		sbuf_release(&sb);
		return ERR_CRYPTO;
	}
	if ((r = crypto_key_describe(c, sb.buf, &d, err)) < 0) {
		err_prefix(err, "import the officer's public key first");
		sbuf_release(&sb);
		return r;
	}
	if (!d.can_encrypt) {
		r = err_setc(err, ERR_INVALID,
			     "key %s cannot be encrypted to (%s)", sb.buf,
			     d.revoked ? "revoked"
				     : d.expired
				     ? "expired"
				     : "no usable encryption subkey");
		crypto_keydesc_release(&d);
		sbuf_release(&sb);
		return r;
	}
	crypto_keydesc_release(&d);
	*out = sbuf_detach(&sb, NULL);
	return 0;
}

struct officer_req {
	struct officer o;
	bool grant; /* team init: roles and grants too */
	bool remove;
	bool server_only; /* the server's side alone, not the chain */
};

static int apply(struct session *sess, void *data, struct err *err)
{
	struct officer_req *q = data;
	char *detail;
	int r;

	if (q->grant && (r = store_team_grant(sess->store, err)) < 0)
		return r;
	if (q->remove) {
		if ((r = store_officer_remove(sess->store, q->o.role, err)) < 0)
			return r;
		detail = xasprintf("%s removed from the team", q->o.role);
	} else {
		if ((r = store_officer_add(sess->store, &q->o, err)) < 0)
			return r;
		detail = xasprintf("%s%s%s%s joins the team, key %s", q->o.role,
				   q->o.name ? " (" : "",
				   q->o.name ? q->o.name : "",
				   q->o.name ? ")" : "", q->o.key_fpr);
	}
	r = store_event_add(sess->store, 0, sess->officer,
			    q->remove ? "officer-remove" : "officer-add",
			    detail, err);
	free(detail);
	/* The team chain, signed: what every officer's client believes of
	 * the roster (team init founds it). */
	if (r == 0 && q->grant)
		r = session_team_found(sess, err);
	if (r == 0 && !q->grant && !q->server_only)
		r = session_team_member(sess, q->o.role,
					q->remove ? NULL : q->o.key_fpr, err);
	return r;
}

static int change(struct session *sess, struct officer_req *q, const char *key,
		  struct err *err)
{
	char *fpr = NULL;
	int r;

	if (key && (r = team_check_key(sess, key, &fpr, err)) < 0)
		return r;
	if (!session_store(sess, err)) {
		free(fpr);
		return ERR_IO;
	}
	if (!store_has_team(sess->store)) {
		free(fpr);
		return err_setc(
			err, ERR_INVALID,
			"%s is a SQLite file: a team needs a team server (--db postgresql://HOST/DB, or store.url in the config); on SQLite the officer is the Unix user and the roster is team.roster",
			store_where(sess->store));
	}
	if (!q->o.role)
		q->o.role = sess->officer;
	q->o.key_fpr = fpr;
	r = core_write(sess, apply, q, err);
	free(fpr);
	return r;
}

int team_init(struct session *sess, const char *role, const char *name,
	      const char *key, struct err *err)
{
	struct officer_req q = { .o = { .role = (char *)role,
					.name = (char *)name },
				 .grant = true };

	sess->store_create = true;
	return change(sess, &q, key, err);
}

int team_add_officer(struct session *sess, const char *role, const char *name,
		     const char *key, struct err *err)
{
	struct officer_req q = { .o = { .role = (char *)role,
					.name = (char *)name } };

	return change(sess, &q, key, err);
}

static int chain_remove(struct session *sess, void *data, struct err *err)
{
	return session_team_member(sess, data, NULL, err);
}

/*
 * A removal in two steps, so that signing never stands between a
 * removed officer and the door: first the server's side (the role can no
 * longer log in, its sessions end), which the administrator can do
 * alone; then the roster in the team chain, which only an officer on it
 * can sign.  When the second step cannot be signed here, the first
 * holds and the error says who must sign.  Run again by an officer for
 * a role the server already removed, it signs the chain's removal.
 */
int team_remove_officer(struct session *sess, const char *role, struct err *err)
{
	struct officer_req q = { .o = { .role = (char *)role },
				 .remove = true,
				 .server_only = true };
	struct err serr = { 0, "" };
	bool listed = false;
	int64_t ended;
	int r = change(sess, &q, NULL, err);

	/* Committed: the role cannot log in; now its sessions end. */
	if (r == 0)
		r = store_officer_disconnect(sess->store, q.o.role, &ended,
					     err);
	if (r < 0 && r != ERR_NOTFOUND)
		return r;
	if (session_team_listed(sess, q.o.role, &listed, &serr) < 0)
		return r < 0 ? r : err_setc(err, serr.code, "%s", serr.msg);
	if (!listed)
		return r;
	if (core_write(sess, chain_remove, q.o.role, &serr) < 0)
		return err_setc(
			err, serr.code,
			"%s can no longer log in and its sessions ended, but "
			"the team chain still lists them (%s): an officer on "
			"the roster signs the removal by running 'team "
			"remove-officer %s' with their own keyring",
			q.o.role, serr.msg, q.o.role);
	return 0;
}

/* 24 characters from an alphabet without look-alikes (about 120 bits). */
static int random_password(char **out, struct err *err)
{
	static const char abc[] =
		"abcdefghijkmnpqrstuvwxyzACDEFGHJKLMNPQRTUVWXY3479";
	unsigned char raw[24];
	char *p = xmalloc(sizeof(raw) + 1);

	if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw)) {
		free(p);
		return err_setc(err, ERR_IO,
				"cannot read random bytes for a password: %s",
				strerror(errno));
	}
	for (size_t i = 0; i < sizeof(raw); i++)
		p[i] = abc[raw[i] % (sizeof(abc) - 1)];
	p[sizeof(raw)] = '\0';
	explicit_bzero(raw, sizeof(raw));
	*out = p;
	return 0;
}

int team_set_password(struct session *sess, const char *role, char **password,
		      struct err *err)
{
	int r;

	*password = NULL;
	if (!session_store(sess, err))
		return ERR_IO;
	if ((r = random_password(password, err)) < 0)
		return r;
	if ((r = store_officer_password(sess->store, role, *password, err)) <
	    0) {
		wipe_free(*password, strlen(*password));
		*password = NULL;
	}
	return r;
}
