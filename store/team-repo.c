/*
 * The team on a team server: its officers (login role, display name, the
 * key report bodies are encrypted to) and the roles and grants that let
 * them work without being superusers.  The SQL that creates roles lives
 * in functions of schema-pg.c (identifiers quoted there with format
 * %I); here they are only called.  On SQLite there is no team table: the
 * officer is the Unix user and the roster comes from the config, so
 * listing officers gives none and changing them is refused.
 */
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"

void officer_release(struct officer *o)
{
	free(o->role);
	free(o->name);
	free(o->key_fpr);
	memset(o, 0, sizeof(*o));
}

static int need_server(struct store *s, const char *what, struct err *err)
{
	if (s->kind == STORE_POSTGRESQL)
		return 0;
	return err_setc(
		err, ERR_INVALID,
		"%s needs a team server: %s is a SQLite file (use --db postgresql://... or store.url)",
		what, s->where);
}

int store_team_grant(struct store *s, struct err *err)
{
	struct stmt *st;
	int r;

	if ((r = need_server(s, "team init", err)) < 0)
		return r;
	if (!(st = db_stmt(s, "SELECT secteam.team_grant()", err)))
		return ERR_IO;
	return db_run(s, st, NULL,
		      "cannot create the officers' role and grants", NULL, err);
}

int store_officer_add(struct store *s, const struct officer *o, struct err *err)
{
	struct stmt *st;
	int r;

	if ((r = need_server(s, "adding an officer", err)) < 0)
		return r;
	if (!(st = db_stmt(s, "SELECT secteam.officer_add(?1, ?2, ?3)", err)))
		return ERR_IO;
	db_text(st, 1, o->role);
	db_text(st, 2, o->name);
	db_text(st, 3, o->key_fpr);
	return db_run(s, st, NULL, "cannot add the officer", NULL, err);
}

int store_officer_remove(struct store *s, const char *role, struct err *err)
{
	struct stmt *st;
	int64_t n = 0;
	int r;

	if ((r = need_server(s, "removing an officer", err)) < 0)
		return r;
	if (!(st = db_stmt(s, "SELECT secteam.officer_remove(?1)", err)))
		return ERR_IO;
	db_text(st, 1, role);
	if ((r = db_run(s, st, &n, "cannot remove the officer", NULL, err)) < 0)
		return r;
	if (!n)
		return err_setc(err, ERR_NOTFOUND,
				"'%s' is not an officer of the team on %s",
				role, s->where);
	return 0;
}

int store_officer_disconnect(struct store *s, const char *role, int64_t *ended,
			     struct err *err)
{
	struct stmt *st;
	int r;

	*ended = 0;
	if ((r = need_server(s, "ending an officer's sessions", err)) < 0)
		return r;
	if (!(st = db_stmt(s, "SELECT secteam.officer_disconnect(?1)", err)))
		return ERR_IO;
	db_text(st, 1, role);
	return db_run(s, st, ended, "cannot end the removed officer's sessions",
		      NULL, err);
}

static void read_officer(struct stmt *st, void *elem)
{
	struct officer *o = elem;

	db_cols(st, "ssstb", &o->role, &o->name, &o->key_fpr, &o->added_at,
		&o->active);
}

static void release_officer(void *elem)
{
	officer_release(elem);
}

int store_officers_list(struct store *s, bool with_inactive,
			struct officer **out, size_t *n, struct err *err)
{
	struct stmt *st;

	*out = NULL;
	*n = 0;
	if (s->kind != STORE_POSTGRESQL)
		return 0;
	if (!(st = db_stmt(
		      s,
		      "SELECT role, name, key_fpr, added_at, active FROM officers"
		      " WHERE active = 1 OR ?1 <> 0 ORDER BY role",
		      err)))
		return ERR_IO;
	db_int(st, 1, with_inactive);
	return db_rows(s, st, (void **)out, n, sizeof(**out), read_officer,
		       release_officer, "cannot list the officers", err);
}

bool store_has_team(const struct store *s)
{
	return s->kind == STORE_POSTGRESQL;
}

int store_officer_password(struct store *s, const char *role,
			   const char *password, struct err *err)
{
	struct stmt *st;
	char *v;
	int r;

	if ((r = need_server(s, "setting an officer's password", err)) < 0)
		return r;
	if (!(v = s->eng->password_verifier(s, role, password)))
		return store_dberr(s, err,
				   "cannot make the password's verifier");
	if (!(st = db_stmt(s, "SELECT secteam.officer_password(?1, ?2)",
			   err))) {
		free(v);
		return ERR_IO;
	}
	db_text(st, 1, role);
	db_text(st, 2, v);
	r = db_run(s, st, NULL, "cannot set the officer's password", NULL, err);
	wipe_free(v, strlen(v));
	return r;
}
