/*
 * Parties outside the team: the vendor directory (vendors, distributions,
 * hardware makers, with a contact and a key) and each vendor's status on
 * a report (report_vendors).  A vendor never notified about a report has
 * no row: it reads as "not-notified".  Also the one participants query
 * `due` needs (who was brought in and has not acknowledged).  Vendor
 * names are matched without regard to ASCII case.
 */
#include <stdio.h>
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

static void read_vendor(struct stmt *st, void *elem)
{
	struct vendor *v = elem;

	v->id = db_col_int(st, 0);
	v->name = db_col_str(st, 1);
	v->contact = db_col_str(st, 2);
	v->key_fpr = db_col_str(st, 3);
	v->kind = db_col_str(st, 4);
}

static void release_vendor(void *elem)
{
	vendor_release(elem);
}

int store_vendor_add(struct store *s, const struct vendor *v, int64_t *id,
		     struct err *err)
{
	struct stmt *st =
		db_stmt(s,
			"INSERT INTO vendors (name, contact, key_fpr, kind)"
			" VALUES (?1, ?2, ?3, coalesce(?4, 'vendor'))"
			" ON CONFLICT DO NOTHING RETURNING id",
			err);
	int64_t got = 0;
	int r;

	if (!st)
		return ERR_IO;
	db_text(st, 1, v->name);
	db_text(st, 2, v->contact);
	db_text(st, 3, v->key_fpr);
	db_text(st, 4, v->kind);
	if ((r = db_run(s, st, &got, "cannot store the vendor", NULL, err)) < 0)
		return r;
	if (!got)
		return err_setc(err, ERR_DUPLICATE,
				"vendor '%s' is already in the directory",
				v->name);
	if (id)
		*id = got;
	return 0;
}

int store_vendor_get(struct store *s, const char *name, struct vendor *v,
		     struct err *err)
{
	struct stmt *st = db_stmt(
		s,
		"SELECT id, name, contact, key_fpr, kind FROM vendors"
		" WHERE lower(name) = lower(?1) ORDER BY name = ?1 DESC, id LIMIT 1",
		err);
	int rc;

	memset(v, 0, sizeof(*v));
	if (!st)
		return ERR_IO;
	db_text(st, 1, name);
	rc = db_row(s, st, v, read_vendor, "cannot read the vendor", err);
	if (rc == ERR_NOTFOUND)
		return err_setc(
			err, ERR_NOTFOUND,
			"no vendor '%s' in the directory (see vendor add)",
			name);
	return rc;
}

int store_vendor_update(struct store *s, int64_t id, const struct vendor *v,
			struct err *err)
{
	static const char lite[] =
		"UPDATE vendors SET contact = coalesce(?2, contact),"
		" key_fpr = coalesce(?3, key_fpr), kind = coalesce(?4, kind)"
		" WHERE id = ?1";
	static const char pg[] = "SELECT secteam.vendor_edit(?1, ?2, ?3, ?4)";
	struct stmt *st = db_stmt(s, db_write_sql(s, lite, pg), err);
	int64_t changed = 0;
	int r;

	if (!st)
		return ERR_IO;
	db_int(st, 1, id);
	db_text(st, 2, v->contact);
	db_text(st, 3, v->key_fpr);
	db_text(st, 4, v->kind);
	if ((r = db_write(s, st, &changed, "cannot update the vendor", err)) <
	    0)
		return r;
	if (changed == 0)
		return err_setc(err, ERR_NOTFOUND, "no vendor %lld",
				(long long)id);
	return 0;
}

int store_vendors_list(struct store *s, struct vendor **out, size_t *n,
		       struct err *err)
{
	struct stmt *st =
		db_stmt(s,
			"SELECT id, name, contact, key_fpr, kind FROM vendors"
			" ORDER BY lower(name), name",
			err);

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	return db_rows(s, st, (void **)out, n, sizeof(**out), read_vendor,
		       release_vendor, "cannot list vendors", err);
}

#define RV_COLS                                                                \
	"SELECT rv.report_id, v.id, v.name, v.kind, v.contact, v.key_fpr,"     \
	" rv.status, coalesce(rv.notified_at, 0), coalesce(rv.updated_at, 0)," \
	" rv.nda_requested, rv.note, rv.statement"                             \
	" FROM report_vendors rv JOIN vendors v ON v.id = rv.vendor_id "

static void read_rv(struct stmt *st, void *elem)
{
	struct report_vendor *rv = elem;

	rv->report_id = db_col_int(st, 0);
	rv->vendor_id = db_col_int(st, 1);
	rv->name = db_col_str(st, 2);
	rv->kind = db_col_str(st, 3);
	rv->contact = db_col_str(st, 4);
	rv->key_fpr = db_col_str(st, 5);
	rv->status = db_col_str(st, 6);
	rv->notified_at = (time_t)db_col_int(st, 7);
	rv->updated_at = (time_t)db_col_int(st, 8);
	rv->nda_requested = db_col_int(st, 9);
	rv->note = db_col_str(st, 10);
	rv->statement = db_col_str(st, 11);
}

static void release_rv(void *elem)
{
	report_vendor_release(elem);
}

void rv_column(char *buf, size_t n, const char *what, int64_t vendor_id)
{
	snprintf(buf, n, "%s:%lld", what, (long long)vendor_id);
}

/* A vendor status's sealed note and statement, opened in place. */
static void open_rv(struct store *s, struct report_vendor *rv)
{
	char col[48];

	rv_column(col, sizeof(col), "note", rv->vendor_id);
	store_open_field(s, "report_vendors", col, rv->report_id, &rv->note);
	rv_column(col, sizeof(col), "statement", rv->vendor_id);
	store_open_field(s, "report_vendors", col, rv->report_id,
			 &rv->statement);
}

int store_report_vendor_get(struct store *s, int64_t report_id,
			    int64_t vendor_id, struct report_vendor *rv,
			    struct err *err)
{
	struct stmt *st = db_stmt(
		s, RV_COLS "WHERE rv.report_id = ?1 AND rv.vendor_id = ?2",
		err);
	int rc;

	memset(rv, 0, sizeof(*rv));
	if (!st)
		return ERR_IO;
	db_int(st, 1, report_id);
	db_int(st, 2, vendor_id);
	rc = db_row(s, st, rv, read_rv, "cannot read the vendor status", err);
	if (rc == 0)
		open_rv(s, rv);
	if (rc == ERR_NOTFOUND)
		return err_setc(err, ERR_NOTFOUND,
				"report %lld: vendor %lld was never notified",
				(long long)report_id, (long long)vendor_id);
	return rc;
}

int store_report_vendor_event(struct store *s, int64_t report_id,
			      int64_t vendor_id, const char *officer,
			      const char *kind, const char *detail,
			      const char *value, struct err *err)
{
	const char *what = !strcmp(kind, "vendor-note") ? "note"
		: !strcmp(kind, "vendor-statement")	? "statement"
							: NULL;
	char col[48], *sealed = NULL;
	bool failed = false;
	int r;

	/* A note or statement goes in sealed as the row keeps it: under
	 * the report and the vendor (rv_column). */
	if (what && value) {
		rv_column(col, sizeof(col), what, vendor_id);
		if (!(sealed = store_seal_field(s, "report_vendors", col,
						report_id, value, &failed,
						err)))
			return failed ? ERR_CRYPTO : ERR_IO;
	}
	r = store_event_add_ref(s, report_id, officer, kind, detail, vendor_id,
				sealed ? sealed : value, err);
	free(sealed);
	return r;
}

int store_report_vendors_get(struct store *s, int64_t report_id,
			     struct report_vendor **out, size_t *n,
			     struct err *err)
{
	struct stmt *st =
		db_stmt(s,
			RV_COLS "WHERE ?1 = 0 OR rv.report_id = ?1"
				" ORDER BY rv.report_id, lower(v.name), v.name",
			err);
	int r;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	db_int(st, 1, report_id);
	if ((r = db_rows(s, st, (void **)out, n, sizeof(**out), read_rv,
			 release_rv, "cannot read vendor statuses", err)) < 0)
		return r;
	for (size_t i = 0; i < *n; i++)
		open_rv(s, &(*out)[i]);
	return 0;
}

void pending_participant_release(struct pending_participant *p)
{
	free(p->name);
	free(p->email);
	memset(p, 0, sizeof(*p));
}

static void read_pending(struct stmt *st, void *elem)
{
	struct pending_participant *p = elem;

	p->report_id = db_col_int(st, 0);
	p->name = db_col_str(st, 1);
	p->email = db_col_str(st, 2);
	p->added_at = (time_t)db_col_int(st, 3);
}

static void release_pending(void *elem)
{
	pending_participant_release(elem);
}

int store_participants_unacked(struct store *s, int64_t report_id,
			       struct pending_participant **out, size_t *n,
			       struct err *err)
{
	struct stmt *st = db_stmt(
		s,
		"SELECT report_id, name, email, added_at FROM participants"
		" WHERE (?1 = 0 OR report_id = ?1) AND removed_at IS NULL"
		" AND acknowledged_at IS NULL ORDER BY report_id, added_at, id",
		err);
	int r;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	db_int(st, 1, report_id);
	if ((r = db_rows(s, st, (void **)out, n, sizeof(**out), read_pending,
			 release_pending, "cannot read participants", err)) < 0)
		return r;
	for (size_t i = 0; i < *n; i++)
		participant_open_pending(s, &(*out)[i]);
	return 0;
}
