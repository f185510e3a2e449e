/*
 * Parties outside the team: the vendor directory (vendors, distributions,
 * hardware makers, with a contact and a key) and each vendor's status on
 * a report (report_vendors).  A vendor never notified about a report has
 * no row: it reads as "not-notified".  Also the one participants query
 * `due` needs (who was brought in and has not acknowledged).
 */
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"

void vendor_release(struct vendor *v)
{
	free(v->name);
	free(v->contact);
	free(v->key_fpr);
	free(v->kind);
	memset(v, 0, sizeof(*v));
}

void report_vendor_release(struct report_vendor *rv)
{
	free(rv->name);
	free(rv->kind);
	free(rv->contact);
	free(rv->key_fpr);
	free(rv->status);
	free(rv->note);
	free(rv->statement);
	memset(rv, 0, sizeof(*rv));
}

static void read_vendor(sqlite3_stmt *st, struct vendor *v)
{
	v->id = sqlite3_column_int64(st, 0);
	v->name = store_col_text(st, 1);
	v->contact = store_col_text(st, 2);
	v->key_fpr = store_col_text(st, 3);
	v->kind = store_col_text(st, 4);
}

int store_vendor_add(struct store *s, const struct vendor *v, int64_t *id,
		     struct err *err)
{
	sqlite3_stmt *st = store_stmt(s,
		"INSERT INTO vendors (name, contact, key_fpr, kind)"
		" VALUES (?1, ?2, ?3, coalesce(?4, 'vendor'))", err);
	int rc;

	if (!st)
		return ERR_IO;
	store_bind_text(st, 1, v->name);
	store_bind_text(st, 2, v->contact);
	store_bind_text(st, 3, v->key_fpr);
	store_bind_text(st, 4, v->kind);
	rc = sqlite3_step(st);
	if ((rc & 0xff) == SQLITE_CONSTRAINT &&
	    sqlite3_extended_errcode(s->db) == SQLITE_CONSTRAINT_UNIQUE) {
		sqlite3_reset(st);
		return err_setc(err, ERR_DUPLICATE,
				"vendor '%s' is already in the directory", v->name);
	}
	if (rc != SQLITE_DONE)
		return store_dberr(s, err, "cannot store the vendor");
	if (id)
		*id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

int store_vendor_get(struct store *s, const char *name, struct vendor *v,
		     struct err *err)
{
	sqlite3_stmt *st = store_stmt(s,
		"SELECT id, name, contact, key_fpr, kind FROM vendors"
		" WHERE name = ?1 COLLATE NOCASE", err);
	int rc;

	memset(v, 0, sizeof(*v));
	if (!st)
		return ERR_IO;
	store_bind_text(st, 1, name);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		read_vendor(st, v);
		sqlite3_reset(st);
		return 0;
	}
	if (rc == SQLITE_DONE)
		return err_setc(err, ERR_NOTFOUND,
				"no vendor '%s' in the directory (see vendor add)", name);
	return store_dberr(s, err, "cannot read the vendor");
}

int store_vendor_update(struct store *s, int64_t id, const struct vendor *v,
			struct err *err)
{
	sqlite3_stmt *st = store_stmt(s,
		"UPDATE vendors SET contact = coalesce(?2, contact),"
		" key_fpr = coalesce(?3, key_fpr), kind = coalesce(?4, kind)"
		" WHERE id = ?1", err);

	if (!st)
		return ERR_IO;
	sqlite3_bind_int64(st, 1, id);
	store_bind_text(st, 2, v->contact);
	store_bind_text(st, 3, v->key_fpr);
	store_bind_text(st, 4, v->kind);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store_dberr(s, err, "cannot update the vendor");
	if (sqlite3_changes(s->db) == 0)
		return err_setc(err, ERR_NOTFOUND, "no vendor %lld", (long long)id);
	return 0;
}

int store_vendors_list(struct store *s, struct vendor **out, size_t *n,
		       struct err *err)
{
	sqlite3_stmt *st = store_stmt(s,
		"SELECT id, name, contact, key_fpr, kind FROM vendors"
		" ORDER BY name COLLATE NOCASE", err);
	int rc;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = xrealloc(*out, (*n + 1) * sizeof(**out));
		read_vendor(st, &(*out)[(*n)++]);
	}
	if (rc != SQLITE_DONE)
		return store_dberr(s, err, "cannot list vendors");
	return 0;
}

#define RV_COLS                                                              \
	"SELECT rv.report_id, v.id, v.name, v.kind, v.contact, v.key_fpr,"   \
	" rv.status, coalesce(rv.notified_at, 0), coalesce(rv.updated_at, 0),"\
	" rv.nda_requested, rv.note, rv.statement"                          \
	" FROM report_vendors rv JOIN vendors v ON v.id = rv.vendor_id "

static void read_rv(sqlite3_stmt *st, struct report_vendor *rv)
{
	rv->report_id = sqlite3_column_int64(st, 0);
	rv->vendor_id = sqlite3_column_int64(st, 1);
	rv->name = store_col_text(st, 2);
	rv->kind = store_col_text(st, 3);
	rv->contact = store_col_text(st, 4);
	rv->key_fpr = store_col_text(st, 5);
	rv->status = store_col_text(st, 6);
	rv->notified_at = (time_t)sqlite3_column_int64(st, 7);
	rv->updated_at = (time_t)sqlite3_column_int64(st, 8);
	rv->nda_requested = sqlite3_column_int(st, 9);
	rv->note = store_col_text(st, 10);
	rv->statement = store_col_text(st, 11);
}

int store_report_vendor_get(struct store *s, int64_t report_id,
			    int64_t vendor_id, struct report_vendor *rv,
			    struct err *err)
{
	sqlite3_stmt *st = store_stmt(s, RV_COLS
		"WHERE rv.report_id = ?1 AND rv.vendor_id = ?2", err);
	int rc;

	memset(rv, 0, sizeof(*rv));
	if (!st)
		return ERR_IO;
	sqlite3_bind_int64(st, 1, report_id);
	sqlite3_bind_int64(st, 2, vendor_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		read_rv(st, rv);
		sqlite3_reset(st);
		return 0;
	}
	if (rc == SQLITE_DONE)
		return err_setc(err, ERR_NOTFOUND,
				"report %lld: vendor %lld was never notified",
				(long long)report_id, (long long)vendor_id);
	return store_dberr(s, err, "cannot read the vendor status");
}

int store_report_vendor_set(struct store *s, int64_t report_id,
			    int64_t vendor_id, const struct report_vendor_set *u,
			    struct err *err)
{
	sqlite3_stmt *st = store_stmt(s,
		"INSERT INTO report_vendors (report_id, vendor_id, status,"
		"  notified_at, updated_at, nda_requested, note, statement)"
		" VALUES (?1, ?2, coalesce(?3, 'not-notified'), nullif(?4, 0), ?5,"
		"  max(?6, 0), ?7, ?8)"
		" ON CONFLICT (report_id, vendor_id) DO UPDATE SET"
		"  status = coalesce(?3, status),"
		"  notified_at = coalesce(nullif(?4, 0), notified_at),"
		"  updated_at = ?5,"
		"  nda_requested = CASE WHEN ?6 < 0 THEN nda_requested ELSE ?6 END,"
		"  note = coalesce(?7, note),"
		"  statement = coalesce(?8, statement)", err);

	if (!st)
		return ERR_IO;
	sqlite3_bind_int64(st, 1, report_id);
	sqlite3_bind_int64(st, 2, vendor_id);
	store_bind_text(st, 3, u->status);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)u->notified_at);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)u->updated_at);
	sqlite3_bind_int(st, 6, u->nda_requested);
	store_bind_text(st, 7, u->note);
	store_bind_text(st, 8, u->statement);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store_dberr(s, err, "cannot store the vendor status");
	return 0;
}

int store_report_vendors_get(struct store *s, int64_t report_id,
			     struct report_vendor **out, size_t *n,
			     struct err *err)
{
	sqlite3_stmt *st = store_stmt(s, RV_COLS
		"WHERE ?1 = 0 OR rv.report_id = ?1"
		" ORDER BY rv.report_id, v.name COLLATE NOCASE", err);
	int rc;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	sqlite3_bind_int64(st, 1, report_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = xrealloc(*out, (*n + 1) * sizeof(**out));
		memset(&(*out)[*n], 0, sizeof(**out));
		read_rv(st, &(*out)[(*n)++]);
	}
	if (rc != SQLITE_DONE)
		return store_dberr(s, err, "cannot read vendor statuses");
	return 0;
}

void pending_participant_release(struct pending_participant *p)
{
	free(p->name);
	free(p->email);
	memset(p, 0, sizeof(*p));
}

int store_participants_unacked(struct store *s, int64_t report_id,
			       struct pending_participant **out, size_t *n,
			       struct err *err)
{
	sqlite3_stmt *st = store_stmt(s,
		"SELECT report_id, name, email, added_at FROM participants"
		" WHERE (?1 = 0 OR report_id = ?1) AND removed_at IS NULL"
		" AND acknowledged_at IS NULL ORDER BY report_id, added_at, id", err);
	int rc;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	sqlite3_bind_int64(st, 1, report_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct pending_participant *p;
		*out = xrealloc(*out, (*n + 1) * sizeof(**out));
		p = &(*out)[(*n)++];
		p->report_id = sqlite3_column_int64(st, 0);
		p->name = store_col_text(st, 1);
		p->email = store_col_text(st, 2);
		p->added_at = (time_t)sqlite3_column_int64(st, 3);
	}
	if (rc != SQLITE_DONE)
		return store_dberr(s, err, "cannot read participants");
	return 0;
}
