/*
 * Compact listings for screens that page through every report: one small
 * fixed-size key per report (id, dates, state, severity, public) instead
 * of the full rows, so 100,000 reports fit in a few megabytes and load in one
 * quick scan; the visible rows are then read one by one with
 * store_report_get().  Also the id set of a text search.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"

/* A report's key: the latest decision joined by id. */
#define KEY_SELECT                                                           \
	"SELECT r.id, r.received, coalesce(r.release_started, 0),"           \
	" r.state, r.severity, coalesce(d.date, 0), r.public"               \
	" FROM reports r"                                                    \
	" LEFT JOIN decisions d ON d.id = (SELECT max(id) FROM decisions"     \
	"  WHERE report_id = r.id) "

static void read_key(struct stmt *st, void *elem)
{
	struct report_key *k = elem;

	k->id = db_col_int(st, 0);
	k->received = (time_t)db_col_int(st, 1);
	k->release_started = (time_t)db_col_int(st, 2);
	db_col_copy(st, 3, k->state, sizeof(k->state));
	db_col_copy(st, 4, k->severity, sizeof(k->severity));
	k->disclosure = (time_t)db_col_int(st, 5);
	k->public = db_col_int(st, 6) != 0;
}

int store_report_keys(struct store *s, struct report_key **out, size_t *n,
		      struct err *err)
{
	struct stmt *st = db_stmt(s, KEY_SELECT "ORDER BY r.id", err);

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	return db_rows(s, st, (void **)out, n, sizeof(**out), read_key, NULL,
		       "cannot list reports", err);
}

int store_report_key(struct store *s, int64_t id, struct report_key *k,
		     struct err *err)
{
	struct stmt *st = db_stmt(s, KEY_SELECT "WHERE r.id = ?1", err);
	int rc;

	memset(k, 0, sizeof(*k));
	if (!st)
		return ERR_IO;
	db_int(st, 1, id);
	rc = db_row(s, st, k, read_key, "cannot read a report", err);
	if (rc == ERR_NOTFOUND)
		return err_setc(err, ERR_NOTFOUND, "no report %lld", (long long)id);
	return rc;
}

static void read_id(struct stmt *st, void *elem)
{
	*(int64_t *)elem = db_col_int(st, 0);
}

/* Sealed subjects and reporters are searched here, after opening: the
 * server holds nothing to match them against. */
struct sealed_search {
	struct store *s;
	char *needle;           /* lowercase */
	int64_t *ids;
	size_t n;
};

static bool has_ci(char *field, const char *needle)
{
	bool hit = field && strstr(str_lower(field), needle);

	return hit;
}

static int search_row(struct stmt *st, void *data)
{
	struct sealed_search *q = data;
	int64_t id = db_col_int(st, 0);
	char *f[3] = { db_col_str(st, 1), db_col_str(st, 2), db_col_str(st, 3) };
	static const char *const col[3] = { "subject", "reporter_name", "reporter_email" };
	bool hit = false;

	for (int i = 0; i < 3; i++) {
		store_open_field(q->s, "reports", col[i], id, &f[i]);
		hit = hit || has_ci(f[i], q->needle);
	}
	for (int i = 0; i < 3; i++)
		wipe_free(f[i], f[i] ? strlen(f[i]) : 0);
	if (hit) {
		q->ids = xrealloc(q->ids, (q->n + 1) * sizeof(*q->ids));
		q->ids[q->n++] = id;
	}
	return 0;
}

int store_report_search(struct store *s, const char *needle, int64_t **ids,
			size_t *n, struct err *err)
{
	struct stmt *st;

	if (s->sealer) {
		struct sealed_search q = { s, str_lower(xstrdup(needle)), NULL, 0 };
		int rc;

		*ids = NULL;
		*n = 0;
		st = db_stmt(s, "SELECT id, subject, reporter_name, reporter_email"
			     " FROM reports ORDER BY id", err);
		rc = st ? db_each(s, st, search_row, &q, "cannot search reports", err)
			: ERR_IO;
		free(q.needle);
		if (rc < 0) {
			free(q.ids);
			return rc;
		}
		*ids = q.ids;
		*n = q.n;
		return 0;
	}
	st = db_stmt(s,
		"SELECT id FROM reports WHERE instr(lower(subject), lower(?1)) > 0"
		" OR instr(lower(coalesce(reporter_name, '')), lower(?1)) > 0"
		" OR instr(lower(coalesce(reporter_email, '')), lower(?1)) > 0"
		" ORDER BY id", err);

	*ids = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	db_text(st, 1, needle);
	return db_rows(s, st, (void **)ids, n, sizeof(**ids), read_id, NULL,
		       "cannot search reports", err);
}

/* collect_ids's array: room for limit ids. */
struct id_page {
	int64_t *ids;
	size_t *n, limit;
};

static int page_row(struct stmt *st, void *data)
{
	struct id_page *pg = data;

	pg->ids[(*pg->n)++] = db_col_int(st, 0);
	return *pg->n >= pg->limit;
}

static int collect_ids(struct store *s, struct stmt *st, int64_t **ids,
		       size_t *n, size_t limit, struct err *err)
{
	struct id_page pg = { *ids, n, limit };

	if (*n >= limit) {
		db_reset(st);
		return 0;
	}
	return db_each(s, st, page_row, &pg, "cannot list reports", err);
}

int store_report_first_ids(struct store *s, const char *order, size_t limit,
			   int64_t **ids, size_t *n, struct err *err)
{
	struct stmt *st;
	int r;

	*ids = xcalloc(limit + 1, sizeof(**ids));
	*n = 0;
	if (!strcmp(order, "deadline")) {
		/* The reports with a decided date come first, by that date;
		 * then the others by id. */
		st = db_stmt(s,
			"SELECT d.report_id FROM decisions d WHERE NOT EXISTS"
			" (SELECT 1 FROM decisions e WHERE e.report_id = d.report_id"
			" AND e.id > d.id) ORDER BY d.date, d.report_id LIMIT ?1", err);
		if (!st)
			return ERR_IO;
		db_int(st, 1, (int64_t)limit);
		if ((r = collect_ids(s, st, ids, n, limit, err)) < 0)
			return r;
		st = db_stmt(s,
			"SELECT id FROM reports WHERE id NOT IN"
			" (SELECT report_id FROM decisions) ORDER BY id LIMIT ?1", err);
	} else if (!strcmp(order, "received")) {
		st = db_stmt(s,
			"SELECT id FROM reports ORDER BY received DESC, id DESC LIMIT ?1", err);
	} else {
		st = db_stmt(s, "SELECT id FROM reports ORDER BY id LIMIT ?1", err);
	}
	if (!st)
		return ERR_IO;
	db_int(st, 1, (int64_t)(limit - *n));
	return collect_ids(s, st, ids, n, limit, err);
}
