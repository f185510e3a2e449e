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

static void read_participant(sqlite3_stmt *st, struct participant *p)
{
	memset(p, 0, sizeof(*p));
	p->id = sqlite3_column_int64(st, 0);
	p->report_id = sqlite3_column_int64(st, 1);
	p->name = store_col_text(st, 2);
	p->email = store_col_text(st, 3);
	p->role = store_col_text(st, 4);
	p->section = store_col_text(st, 5);
	p->added_by = store_col_text(st, 6);
	p->added_at = (time_t)sqlite3_column_int64(st, 7);
	p->removed_at = (time_t)sqlite3_column_int64(st, 8);
	p->removed_by = store_col_text(st, 9);
	p->acknowledged_at = (time_t)sqlite3_column_int64(st, 10);
	p->key_fpr = store_col_text(st, 11);
}

int store_participant_add(struct store *s, const struct participant *p,
			  int64_t *id, struct err *err)
{
	sqlite3_stmt *st = store_stmt(s,
		"INSERT INTO participants (report_id, name, email, role, section,"
		"  added_by, added_at, key_fpr) VALUES (?1, nullif(?2, ''),"
		"  lower(?3), nullif(?4, ''), nullif(?5, ''), ?6, ?7,"
		"  nullif(?8, ''))", err);
	int rc;

	if (!st)
		return ERR_IO;
	if (!p->email || !*p->email)
		return err_setc(err, ERR_INVALID,
				"cannot add a participant to report %lld: no address",
				(long long)p->report_id);
	sqlite3_bind_int64(st, 1, p->report_id);
	store_bind_text(st, 2, p->name);
	store_bind_text(st, 3, p->email);
	store_bind_text(st, 4, p->role);
	store_bind_text(st, 5, p->section);
	store_bind_text(st, 6, p->added_by ? p->added_by : "unknown");
	sqlite3_bind_int64(st, 7, (sqlite3_int64)(p->added_at ? p->added_at
							      : util_now()));
	store_bind_text(st, 8, p->key_fpr);
	rc = sqlite3_step(st);
	if ((rc & 0xff) == SQLITE_CONSTRAINT &&
	    sqlite3_extended_errcode(s->db) == SQLITE_CONSTRAINT_UNIQUE) {
		sqlite3_reset(st);
		return err_setc(err, ERR_DUPLICATE,
				"'%s' is already a participant of report %lld",
				p->email, (long long)p->report_id);
	}
	if (rc != SQLITE_DONE)
		return store_dberr(s, err, "cannot store the participant");
	if (id)
		*id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

int store_participant_remove(struct store *s, int64_t report_id,
			     const char *email, const char *officer, time_t at,
			     struct err *err)
{
	sqlite3_stmt *st = store_stmt(s,
		"UPDATE participants SET removed_at = ?3, removed_by = ?4"
		" WHERE report_id = ?1 AND email = lower(?2)"
		" AND removed_at IS NULL", err);

	if (!st)
		return ERR_IO;
	sqlite3_bind_int64(st, 1, report_id);
	store_bind_text(st, 2, email);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)(at ? at : util_now()));
	store_bind_text(st, 4, officer ? officer : "unknown");
	if (sqlite3_step(st) != SQLITE_DONE)
		return store_dberr(s, err, "cannot remove the participant");
	if (sqlite3_changes(s->db) == 0)
		return err_setc(err, ERR_NOTFOUND,
				"'%s' is not a participant of report %lld",
				email, (long long)report_id);
	return 0;
}

int store_participant_set_key(struct store *s, int64_t report_id,
			      const char *email, const char *key_fpr,
			      struct err *err)
{
	sqlite3_stmt *st = store_stmt(s,
		"UPDATE participants SET key_fpr = nullif(?3, '')"
		" WHERE report_id = ?1 AND email = lower(?2)"
		" AND removed_at IS NULL", err);

	if (!st)
		return ERR_IO;
	sqlite3_bind_int64(st, 1, report_id);
	store_bind_text(st, 2, email);
	store_bind_text(st, 3, key_fpr);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store_dberr(s, err, "cannot record the participant's key");
	if (sqlite3_changes(s->db) == 0)
		return err_setc(err, ERR_NOTFOUND,
				"'%s' is not a participant of report %lld",
				email, (long long)report_id);
	return 0;
}

int store_participant_ack(struct store *s, int64_t report_id,
			  const char *email, time_t at, struct err *err)
{
	sqlite3_stmt *st = store_stmt(s,
		"UPDATE participants SET acknowledged_at ="
		"  coalesce(acknowledged_at, ?3)"
		" WHERE report_id = ?1 AND email = lower(?2)"
		" AND removed_at IS NULL", err);

	if (!st)
		return ERR_IO;
	sqlite3_bind_int64(st, 1, report_id);
	store_bind_text(st, 2, email);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)(at ? at : util_now()));
	if (sqlite3_step(st) != SQLITE_DONE)
		return store_dberr(s, err, "cannot record the acknowledgement");
	if (sqlite3_changes(s->db) == 0)
		return err_setc(err, ERR_NOTFOUND,
				"'%s' is not a participant of report %lld",
				email, (long long)report_id);
	return 0;
}

int store_participant_get(struct store *s, int64_t report_id,
			  const char *email, struct participant *p,
			  struct err *err)
{
	sqlite3_stmt *st = store_stmt(s, PARTICIPANT_COLS
		"WHERE report_id = ?1 AND email = lower(?2)"
		" AND removed_at IS NULL", err);
	int rc;

	memset(p, 0, sizeof(*p));
	if (!st)
		return ERR_IO;
	sqlite3_bind_int64(st, 1, report_id);
	store_bind_text(st, 2, email);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		read_participant(st, p);
		sqlite3_reset(st);
		return 0;
	}
	if (rc == SQLITE_DONE)
		return err_setc(err, ERR_NOTFOUND,
				"'%s' is not a participant of report %lld",
				email, (long long)report_id);
	return store_dberr(s, err, "cannot read the participant");
}

int store_participants_get(struct store *s, int64_t report_id,
			   bool with_removed, struct participant **out,
			   size_t *n, struct err *err)
{
	sqlite3_stmt *st = store_stmt(s, PARTICIPANT_COLS
		"WHERE report_id = ?1 AND (?2 OR removed_at IS NULL)"
		" ORDER BY added_at, id", err);
	int rc;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	sqlite3_bind_int64(st, 1, report_id);
	sqlite3_bind_int(st, 2, with_removed);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = xrealloc(*out, (*n + 1) * sizeof(**out));
		read_participant(st, &(*out)[(*n)++]);
	}
	if (rc != SQLITE_DONE) {
		participants_free(*out, *n);
		*out = NULL;
		*n = 0;
		return store_dberr(s, err, "cannot read participants");
	}
	return 0;
}
