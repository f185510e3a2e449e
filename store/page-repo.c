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
#define KEY_SELECT                                                        \
	"SELECT r.id, r.received, coalesce(r.release_started, 0),"        \
	" r.state, r.severity, coalesce(d.date, 0), r.public"             \
	" FROM reports r"                                                 \
	" LEFT JOIN decisions d ON d.id = (SELECT max(id) FROM decisions" \
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
		return err_setc(err, ERR_NOTFOUND, "no report %lld",
				(long long)id);
	return rc;
}

int store_report_keys_of(struct store *s, const int64_t *ids, size_t n,
			 struct report_key **out, size_t *nout, struct err *err)
{
	return db_rows_ids(s,
			   KEY_SELECT "WHERE r.id IN (" DB_IDS
				      ") ORDER BY r.id",
			   ids, n, (void **)out, nout, sizeof(**out), read_key,
			   NULL, "cannot read reports", err);
}

/*
 * Sealed subjects and reporters are read here for the client to match
 * and sort, after opening: the server holds nothing to match them
 * against.  The rows are read first, as stored, into one pool (a string
 * each would be 300,000 allocations freed again), then opened on every
 * processor (store_parallel), each thread allocating and freeing only
 * its own.
 */
#define NO_TEXT SIZE_MAX
struct sealed_rows {
	int64_t *ids;
	size_t *off; /* per row, ncol offsets into pool */
	int ncol;
	char *pool;
	size_t plen, pcap;
	size_t n, cap;
};

static int sealed_row(struct stmt *st, void *data)
{
	struct sealed_rows *q = data;

	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 4096;
		q->ids = xrealloc(q->ids, q->cap * sizeof(*q->ids));
		q->off = xrealloc(q->off,
				  q->cap * (size_t)q->ncol * sizeof(*q->off));
	}
	q->ids[q->n] = db_col_int(st, 0);
	for (int c = 0; c < q->ncol; c++) {
		const char *t = db_col_text(st, 1 + c);
		size_t len = t ? strlen(t) + 1 : 0;

		q->off[q->n * (size_t)q->ncol + (size_t)c] = t ? q->plen
							       : NO_TEXT;
		if (!t)
			continue;
		if (q->plen + len > q->pcap) {
			q->pcap = (q->plen + len) * 2;
			q->pool = xrealloc(q->pool, q->pcap);
		}
		memcpy(q->pool + q->plen, t, len);
		q->plen += len;
	}
	q->n++;
	return 0;
}

static const char *row_text(const struct sealed_rows *q, size_t k, int c)
{
	size_t o = q->off[k * (size_t)q->ncol + (size_t)c];

	return o == NO_TEXT ? NULL : q->pool + o;
}

static void sealed_rows_free(struct sealed_rows *q)
{
	free(q->ids);
	free(q->off);
	free(q->pool);
}

/*
 * store_report_basics: the clear columns a search sifts by into each
 * report, the sealed ones asked for into the pool as stored (no string
 * each), then opened on every processor straight into the reports.
 */
#define BASICS_SQL(subject, reporter)                                \
	"SELECT id, " subject ", " reporter ", received, state FROM" \
	" reports ORDER BY id"
/* By the fields asked for (db_stmt caches by literal): a sealed column
 * not asked for is not read, NULL in its place. */
static const char *const sql_basics[4] = {
	BASICS_SQL("NULL", "NULL, NULL"),
	BASICS_SQL("subject", "NULL, NULL"),
	BASICS_SQL("NULL", "reporter_name, reporter_email"),
	BASICS_SQL("subject", "reporter_name, reporter_email"),
};

struct basics {
	struct store *s;
	struct sealed_rows q; /* id, subject, reporter_name, reporter_email */
	struct report *v;
	size_t n, cap;
};

static int basic_row(struct stmt *st, void *data)
{
	struct basics *b = data;
	struct report *r;

	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 4096;
		b->v = xrealloc(b->v, b->cap * sizeof(*b->v));
	}
	r = &b->v[b->n++];
	memset(r, 0, sizeof(*r));
	db_cols(st, "I...ts", &r->id, &r->received, &r->state);
	return sealed_row(st, &b->q);
}

static void open_basics(size_t from, size_t to, void *data)
{
	static const char *const col[3] = { "subject", "reporter_name",
					    "reporter_email" };
	struct basics *b = data;

	for (size_t i = from; i < to; i++) {
		char **f[3] = { &b->v[i].subject, &b->v[i].reporter_name,
				&b->v[i].reporter_email };

		for (int c = 0; c < 3; c++) {
			const char *t = row_text(&b->q, i, c);

			*f[c] = t ? store_open_text(b->s, "reports", col[c],
						    b->v[i].id, t)
				  : NULL;
		}
	}
}

int store_report_basics(struct store *s, unsigned fields, struct report **out,
			size_t *n, struct err *err)
{
	struct stmt *st = db_stmt(s, sql_basics[fields & 3], err);
	struct basics b = { s, { .ncol = 3 }, NULL, 0, 0 };
	int rc;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	rc = db_each(s, st, basic_row, &b, "cannot list reports", err);
	if (rc == 0 && (fields & 3))
		store_parallel(s, b.n, open_basics, &b);
	sealed_rows_free(&b.q);
	if (rc < 0) {
		for (size_t i = 0; i < b.n; i++)
			report_release(&b.v[i]);
		free(b.v);
		return rc;
	}
	*out = b.v;
	*n = b.n;
	return 0;
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

/* store_report_subjects: every row read into a pool, as the search's,
 * then opened on every processor. */
struct subject_share {
	struct store *s;
	struct sealed_rows *q;
	struct report_subject *v;
};

static void open_subjects(size_t from, size_t to, void *data)
{
	struct subject_share *sh = data;

	for (size_t i = from; i < to; i++) {
		const char *t = row_text(sh->q, i, 0);

		sh->v[i].id = sh->q->ids[i];
		sh->v[i].subject = t
			? store_open_text(sh->s, "reports", "subject",
					  sh->q->ids[i], t)
			: xstrdup("");
	}
}

int store_report_subjects(struct store *s, int64_t after,
			  struct report_subject **out, size_t *n,
			  struct err *err)
{
	struct stmt *st = db_stmt(s,
				  "SELECT id, subject FROM reports"
				  " WHERE id > ?1 ORDER BY id",
				  err);
	struct sealed_rows q = { .ncol = 1 };
	struct subject_share sh = { s, &q, NULL };
	int rc;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	db_int(st, 1, after);
	if ((rc = db_each(s, st, sealed_row, &q, "cannot read subjects",
			  err)) == 0) {
		sh.v = xmalloc((q.n + 1) * sizeof(*sh.v));
		store_parallel(s, q.n, open_subjects, &sh);
		*out = sh.v;
		*n = q.n;
	}
	sealed_rows_free(&q);
	return rc;
}

void report_subjects_free(struct report_subject *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		wipe_free(v[i].subject, strlen(v[i].subject));
	free(v);
}

int store_report_first_ids(struct store *s, const char *order, size_t limit,
			   int64_t **ids, size_t *n, struct err *err)
{
	struct stmt *st;

	*ids = xcalloc(limit + 1, sizeof(**ids));
	*n = 0;
	if (!strcmp(order, "received"))
		st = db_stmt(
			s,
			"SELECT id FROM reports ORDER BY received DESC, id DESC LIMIT ?1",
			err);
	else if (!strcmp(order, "id"))
		st = db_stmt(s, "SELECT id FROM reports ORDER BY id LIMIT ?1",
			     err);
	else
		return err_setc(
			err, ERR_INVALID,
			"no first page by '%s' in the store (id, received)",
			order);
	if (!st)
		return ERR_IO;
	db_int(st, 1, (int64_t)limit);
	return collect_ids(s, st, ids, n, limit, err);
}

/* ?1: the limit; ?2..?9: the finished states, '' for a slot unused. */
#define FIRST_FINISHED "(?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
#define FIRST_ACTIVE "r.public = 0 AND r.state NOT IN " FIRST_FINISHED
#define FIRST_UNDATED \
	"NOT EXISTS (SELECT 1 FROM decisions d WHERE d.report_id = r.id)"
#define FIRST_COLS                                                   \
	"r.id, r.received, coalesce(r.release_started, 0), r.state," \
	" r.severity, "
static const char sql_deadline_candidates[] =
	/* Under embargo with a date: the latest decisions, by date. */
	"SELECT * FROM (SELECT " FIRST_COLS "d.date, r.public"
	" FROM decisions d JOIN reports r ON r.id = d.report_id"
	" WHERE NOT EXISTS (SELECT 1 FROM decisions e"
	"  WHERE e.report_id = d.report_id AND e.id > d.id)"
	" AND " FIRST_ACTIVE " ORDER BY d.date, r.id LIMIT ?1) AS dated"
	/* Under embargo with none: by receipt (the policy's clock, whose
	 * deadline is a day's end), every one up to the end of the day of
	 * the limit-th, so that those of one day are all there. */
	" UNION ALL SELECT * FROM (SELECT " FIRST_COLS "0, r.public"
	" FROM reports r WHERE " FIRST_ACTIVE " AND " FIRST_UNDATED
	" AND r.received < coalesce((SELECT (r.received / 86400 + 1) * 86400"
	"  FROM reports r WHERE " FIRST_ACTIVE " AND " FIRST_UNDATED
	"  ORDER BY r.received, r.id LIMIT 1 OFFSET ?1 - 1), r.received + 1)"
	" ORDER BY r.received, r.id) AS undated"
	/* The rest, by id. */
	" UNION ALL SELECT * FROM (SELECT " FIRST_COLS "coalesce((SELECT date"
	" FROM decisions d WHERE d.report_id = r.id ORDER BY d.id DESC"
	" LIMIT 1), 0), r.public FROM reports r"
	" WHERE r.public <> 0 OR r.state IN " FIRST_FINISHED
	" ORDER BY r.id LIMIT ?1) AS over";

int store_report_deadline_candidates(struct store *s,
				     const char *const *finished, size_t limit,
				     struct report_key **out, size_t *n,
				     struct err *err)
{
	struct stmt *st;
	size_t nfin = 0;

	*out = NULL;
	*n = 0;

	while (finished && finished[nfin])
		nfin++;
	if (nfin > 8)
		return err_setc(err, ERR_INVALID,
				"too many finished states to bind");
	if (!(st = db_stmt(s, sql_deadline_candidates, err)))
		return ERR_IO;
	db_int(st, 1, (int64_t)limit);
	for (int i = 0; i < 8; i++)
		db_text(st, 2 + i, finished && *finished ? *finished++ : "");
	return db_rows(s, st, (void **)out, n, sizeof(**out), read_key, NULL,
		       "cannot list reports", err);
}
