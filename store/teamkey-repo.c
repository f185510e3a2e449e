/*
 * The wrapped team keys (store.h): one row per generation and roster
 * key, never edited.
 */
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"
#include "store/db.h"

void wrapped_key_release(struct wrapped_key *k)
{
	free(k->fingerprint);
	free(k->wrapped);
	memset(k, 0, sizeof(*k));
}

static void read_wrapped(struct stmt *st, void *elem)
{
	struct wrapped_key *k = elem;

	k->generation = (int)db_col_int(st, 0);
	k->fingerprint = db_col_str(st, 1);
	k->wrapped = db_col_bytes(st, 2, &k->len);
}

static void release_wrapped(void *elem)
{
	wrapped_key_release(elem);
}

int store_team_keys(struct store *s, int generation, struct wrapped_key **out,
		    size_t *n, struct err *err)
{
	struct stmt *st =
		db_stmt(s,
			"SELECT generation, fingerprint, wrapped FROM team_keys"
			" WHERE generation = CASE WHEN ?1 > 0 THEN ?1 ELSE"
			" (SELECT max(generation) FROM team_keys) END"
			" ORDER BY fingerprint",
			err);

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	db_int(st, 1, generation);
	return db_rows(s, st, (void **)out, n, sizeof(**out), read_wrapped,
		       release_wrapped, "cannot read the team key", err);
}

int store_team_keys_drop_old(struct store *s, size_t *n, struct err *err)
{
	static const char lite[] =
		"DELETE FROM team_keys WHERE fingerprint <> 'chain'"
		" AND generation < (SELECT max(generation) FROM team_keys)"
		" AND generation IN (SELECT generation FROM team_keys"
		"  WHERE fingerprint = 'chain')";
	static const char pg[] = "SELECT secteam.team_keys_drop_old()";
	struct stmt *st = db_stmt(s, db_write_sql(s, lite, pg), err);
	int64_t changed = 0;
	int r;

	*n = 0;
	if (!st)
		return ERR_IO;
	if ((r = db_write(s, st, &changed,
			  "cannot drop the old wrapped team keys", err)) < 0)
		return r;
	*n = (size_t)changed;
	return 0;
}

int store_team_key_add(struct store *s, int generation, const char *fpr,
		       const unsigned char *wrapped, size_t len, time_t at,
		       struct err *err)
{
	struct stmt *st = db_stmt(
		s,
		"INSERT INTO team_keys (generation, fingerprint, wrapped, at)"
		" VALUES (?1, ?2, ?3, ?4)",
		err);

	if (!st)
		return ERR_IO;
	db_int(st, 1, generation);
	db_text(st, 2, fpr);
	db_blob(st, 3, wrapped, len);
	db_int(st, 4, (int64_t)at);
	return db_run(
		s, st, NULL, "cannot store the team key",
		"the team key is being made by a colleague at this moment: run it again",
		err);
}
