/*
 * Compact listings for screens that page through every report: one small
 * fixed-size key per report (id, dates, state, severity) instead of the
 * full rows, so 100,000 reports fit in a few megabytes and load in one
 * quick scan; the visible rows are then read one by one with
 * store_report_get().  Also the id set of a text search.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"

static int key_cmp_id(const void *a, const void *b)
{
	const struct report_key *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static void copy_field(char *dst, size_t size, sqlite3_stmt *st, int col)
{
	const unsigned char *v = sqlite3_column_text(st, col);

	snprintf(dst, size, "%s", v ? (const char *)v : "");
}

int store_report_keys(struct store *s, struct report_key **out, size_t *n,
		      struct err *err)
{
	sqlite3_stmt *st = store_stmt(s,
		"SELECT id, received, coalesce(release_started, 0), state,"
		" severity FROM reports ORDER BY id", err);
	struct report_key *v = NULL;
	size_t len = 0, alloc = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct report_key *k;
		if (len == alloc) {
			alloc = alloc ? alloc * 2 : 1024;
			v = xrealloc(v, alloc * sizeof(*v));
		}
		k = &v[len++];
		memset(k, 0, sizeof(*k));
		k->id = sqlite3_column_int64(st, 0);
		k->received = (time_t)sqlite3_column_int64(st, 1);
		k->release_started = (time_t)sqlite3_column_int64(st, 2);
		copy_field(k->state, sizeof(k->state), st, 3);
		copy_field(k->severity, sizeof(k->severity), st, 4);
	}
	if (rc != SQLITE_DONE) {
		free(v);
		return store_dberr(s, err, "cannot list reports");
	}
	/* The latest decision of each report, merged by id. */
	st = store_stmt(s,
		"SELECT report_id, date FROM decisions WHERE id IN"
		" (SELECT max(id) FROM decisions GROUP BY report_id)", err);
	if (!st) {
		free(v);
		return ERR_IO;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct report_key key, *k;
		key.id = sqlite3_column_int64(st, 0);
		k = len ? bsearch(&key, v, len, sizeof(*v), key_cmp_id) : NULL;
		if (k)
			k->disclosure = (time_t)sqlite3_column_int64(st, 1);
	}
	if (rc != SQLITE_DONE) {
		free(v);
		return store_dberr(s, err, "cannot read disclosure dates");
	}
	*out = v;
	*n = len;
	return 0;
}

int store_report_search(struct store *s, const char *needle, int64_t **ids,
			size_t *n, struct err *err)
{
	sqlite3_stmt *st = store_stmt(s,
		"SELECT id FROM reports WHERE instr(lower(subject), lower(?1)) > 0"
		" OR instr(lower(coalesce(reporter_name, '')), lower(?1)) > 0"
		" OR instr(lower(coalesce(reporter_email, '')), lower(?1)) > 0"
		" ORDER BY id", err);
	size_t alloc = 0;
	int rc;

	*ids = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	store_bind_text(st, 1, needle);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == alloc) {
			alloc = alloc ? alloc * 2 : 256;
			*ids = xrealloc(*ids, alloc * sizeof(**ids));
		}
		(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
	}
	if (rc != SQLITE_DONE) {
		free(*ids);
		*ids = NULL;
		*n = 0;
		return store_dberr(s, err, "cannot search reports");
	}
	return 0;
}

static int collect_ids(struct store *s, sqlite3_stmt *st, int64_t **ids,
		       size_t *n, size_t limit, struct err *err)
{
	int rc = SQLITE_DONE;

	while (*n < limit && (rc = sqlite3_step(st)) == SQLITE_ROW)
		(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
	if (*n < limit && rc != SQLITE_DONE)
		return store_dberr(s, err, "cannot list reports");
	sqlite3_reset(st);
	return 0;
}

int store_report_first_ids(struct store *s, const char *order, size_t limit,
			   int64_t **ids, size_t *n, struct err *err)
{
	sqlite3_stmt *st;
	int r;

	*ids = xcalloc(limit + 1, sizeof(**ids));
	*n = 0;
	if (!strcmp(order, "deadline")) {
		/* The reports with a decided date come first, by that date;
		 * then the others by id. */
		st = store_stmt(s,
			"SELECT d.report_id FROM decisions d WHERE d.id IN"
			" (SELECT max(id) FROM decisions GROUP BY report_id)"
			" ORDER BY d.date, d.report_id LIMIT ?1", err);
		if (!st)
			return ERR_IO;
		sqlite3_bind_int64(st, 1, (sqlite3_int64)limit);
		if ((r = collect_ids(s, st, ids, n, limit, err)) < 0)
			return r;
		st = store_stmt(s,
			"SELECT id FROM reports WHERE id NOT IN"
			" (SELECT report_id FROM decisions) ORDER BY id LIMIT ?1", err);
	} else if (!strcmp(order, "received")) {
		st = store_stmt(s,
			"SELECT id FROM reports ORDER BY received DESC, id DESC LIMIT ?1", err);
	} else {
		st = store_stmt(s, "SELECT id FROM reports ORDER BY id LIMIT ?1", err);
	}
	if (!st)
		return ERR_IO;
	sqlite3_bind_int64(st, 1, (sqlite3_int64)(limit - *n));
	return collect_ids(s, st, ids, n, limit, err);
}
