/*
 * Participants: the people (area maintainers, reviewers, others) an
 * officer brought into a report.  A row is never deleted: removing
 * someone stamps removed_at/removed_by, so the record of who knew about
 * an embargoed report survives.  At most one active row per (report,
 * address) is enforced by the partial unique index of schema.c;
 * addresses are stored lowercase.  key_fpr is the key the officer
 * confirmed for that person (`maintainers ID --add ADDR --key FPR`).
 * (`due`'s query for participants who have not acknowledged lives in
 * party-repo.c.)
 */
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"

#define PARTICIPANT_COLS                                                     \
	"SELECT id, report_id, name, email, role, section, added_by,"       \
	" added_at, coalesce(removed_at, 0), removed_by,"                    \
	" coalesce(acknowledged_at, 0), key_fpr FROM participants "

void participant_release(struct participant *p)
{
	free(p->name);
	free(p->email);
	free(p->role);
	free(p->section);
	free(p->added_by);
	free(p->removed_by);
	free(p->key_fpr);
	memset(p, 0, sizeof(*p));
}

void participants_free(struct participant *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		participant_release(&v[i]);
	free(v);
}

static void read_participant(struct stmt *st, void *elem)
{
	struct participant *p = elem;

	memset(p, 0, sizeof(*p));
	p->id = db_col_int(st, 0);
	p->report_id = db_col_int(st, 1);
	p->name = db_col_str(st, 2);
	p->email = db_col_str(st, 3);
	p->role = db_col_str(st, 4);
	p->section = db_col_str(st, 5);
	p->added_by = db_col_str(st, 6);
	p->added_at = (time_t)db_col_int(st, 7);
	p->removed_at = (time_t)db_col_int(st, 8);
	p->removed_by = db_col_str(st, 9);
	p->acknowledged_at = (time_t)db_col_int(st, 10);
	p->key_fpr = db_col_str(st, 11);
}

static void release_participant(void *elem)
{
	participant_release(elem);
}

static int not_participant(struct err *err, const char *email,
			   int64_t report_id)
{
	return err_setc(err, ERR_NOTFOUND,
			"'%s' is not a participant of report %lld", email,
			(long long)report_id);
}

/* Runs an UPDATE of a current participant (?1 report, ?2 address: bound
 * here; the caller binds the rest): ERR_NOTFOUND naming them when no
 * such participant is there. */
static int update_current(struct store *s, struct stmt *st, int64_t report_id,
			  const char *email, const char *what, struct err *err)
{
	int r;

	db_int(st, 1, report_id);
	db_text(st, 2, email);
	if ((r = db_run(s, st, NULL, what, NULL, err)) < 0)
		return r;
	if (db_changes(st) == 0)
		return not_participant(err, email, report_id);
	return 0;
}

int store_participant_add(struct store *s, const struct participant *p,
			  int64_t *id, struct err *err)
{
	struct stmt *st = db_stmt(s,
		"INSERT INTO participants (report_id, name, email, role, section,"
		"  added_by, added_at, key_fpr) VALUES (?1, nullif(?2, ''),"
		"  lower(?3), nullif(?4, ''), nullif(?5, ''), ?6, ?7,"
		"  nullif(?8, '')) ON CONFLICT DO NOTHING RETURNING id", err);
	int64_t got = 0;
	int r;

	if (!st)
		return ERR_IO;
	if (!p->email || !*p->email)
		return err_setc(err, ERR_INVALID,
				"cannot add a participant to report %lld: no address",
				(long long)p->report_id);
	db_int(st, 1, p->report_id);
	db_text(st, 2, p->name);
	db_text(st, 3, p->email);
	db_text(st, 4, p->role);
	db_text(st, 5, p->section);
	db_text(st, 6, p->added_by ? p->added_by : "unknown");
	db_int(st, 7, (int64_t)(p->added_at ? p->added_at : util_now()));
	db_text(st, 8, p->key_fpr);
	if ((r = db_run(s, st, &got, "cannot store the participant", NULL,
			err)) < 0)
		return r;
	if (!got)
		return err_setc(err, ERR_DUPLICATE,
				"'%s' is already a participant of report %lld",
				p->email, (long long)p->report_id);
	if (id)
		*id = got;
	return 0;
}

int store_participant_remove(struct store *s, int64_t report_id,
			     const char *email, const char *officer, time_t at,
			     struct err *err)
{
	struct stmt *st = db_stmt(s,
		"UPDATE participants SET removed_at = ?3, removed_by = ?4"
		" WHERE report_id = ?1 AND email = lower(?2)"
		" AND removed_at IS NULL", err);

	if (!st)
		return ERR_IO;
	db_int(st, 3, (int64_t)(at ? at : util_now()));
	db_text(st, 4, officer ? officer : "unknown");
	return update_current(s, st, report_id, email,
			      "cannot remove the participant", err);
}

int store_participant_set_key(struct store *s, int64_t report_id,
			      const char *email, const char *key_fpr,
			      struct err *err)
{
	struct stmt *st = db_stmt(s,
		"UPDATE participants SET key_fpr = nullif(?3, '')"
		" WHERE report_id = ?1 AND email = lower(?2)"
		" AND removed_at IS NULL", err);

	if (!st)
		return ERR_IO;
	db_text(st, 3, key_fpr);
	return update_current(s, st, report_id, email,
			      "cannot record the participant's key", err);
}

int store_participant_ack(struct store *s, int64_t report_id,
			  const char *email, time_t at, struct err *err)
{
	struct stmt *st = db_stmt(s,
		"UPDATE participants SET acknowledged_at ="
		"  coalesce(acknowledged_at, ?3)"
		" WHERE report_id = ?1 AND email = lower(?2)"
		" AND removed_at IS NULL", err);

	if (!st)
		return ERR_IO;
	db_int(st, 3, (int64_t)(at ? at : util_now()));
	return update_current(s, st, report_id, email,
			      "cannot record the acknowledgement", err);
}

int store_participant_get(struct store *s, int64_t report_id,
			  const char *email, struct participant *p,
			  struct err *err)
{
	struct stmt *st = db_stmt(s, PARTICIPANT_COLS
		"WHERE report_id = ?1 AND email = lower(?2)"
		" AND removed_at IS NULL", err);
	int rc;

	memset(p, 0, sizeof(*p));
	if (!st)
		return ERR_IO;
	db_int(st, 1, report_id);
	db_text(st, 2, email);
	rc = db_row(s, st, p, read_participant, "cannot read the participant",
		    err);
	if (rc == ERR_NOTFOUND)
		return not_participant(err, email, report_id);
	return rc;
}

int store_participants_get(struct store *s, int64_t report_id,
			   bool with_removed, struct participant **out,
			   size_t *n, struct err *err)
{
	struct stmt *st = db_stmt(s, PARTICIPANT_COLS
		"WHERE report_id = ?1 AND (?2 <> 0 OR removed_at IS NULL)"
		" ORDER BY added_at, id", err);

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	db_int(st, 1, report_id);
	db_int(st, 2, with_removed);
	return db_rows(s, st, (void **)out, n, sizeof(**out),
		       read_participant, release_participant,
		       "cannot read participants", err);
}
