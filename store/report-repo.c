/*
 * Reports and the files they touch.  The listing derives what it shows
 * (verdict of the first message, the decided disclosure date, the number
 * of messages) from the other tables instead of storing it twice.
 */
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"

#define REPORT_COLS                                                   \
	"SELECT r.id, r.subject, r.reporter_name, r.reporter_email,"  \
	" r.received, r.state, r.severity, r.claimed_by, r.public,"   \
	" r.consent_credit, r.consent_exploit, r.release_started,"    \
	" (SELECT verdict FROM messages m WHERE m.report_id = r.id"   \
	"   ORDER BY m.id LIMIT 1),"                                  \
	" (SELECT encrypted FROM messages m WHERE m.report_id = r.id" \
	"   ORDER BY m.id LIMIT 1),"                                  \
	" (SELECT signer_matches_from FROM messages m"                \
	"   WHERE m.report_id = r.id ORDER BY m.id LIMIT 1),"         \
	" (SELECT date FROM decisions d WHERE d.report_id = r.id"     \
	"   ORDER BY d.id DESC LIMIT 1) AS disclosure,"               \
	" (SELECT count(*) FROM messages m WHERE m.report_id = r.id)" \
	" FROM reports r "

/* ?3..?10: the finished states (struct report_filter), '' when unused. */
#define FINISHED_MAX 8
#define REPORT_WHERE                                                      \
	"WHERE (CAST(?1 AS TEXT) IS NULL OR r.state = ?1) AND (?2 = 0 OR" \
	" r.state NOT IN (?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)) "
/* ?11..?22: the values of an order, first first (struct report_filter). */
#define RANK_MAX 12
#define RANK_OF(col)                                                       \
	"ORDER BY CASE " col " WHEN ?11 THEN 0 WHEN ?12 THEN 1 WHEN ?13"   \
	" THEN 2 WHEN ?14 THEN 3 WHEN ?15 THEN 4 WHEN ?16 THEN 5 WHEN ?17" \
	" THEN 6 WHEN ?18 THEN 7 WHEN ?19 THEN 8 WHEN ?20 THEN 9 WHEN ?21" \
	" THEN 10 WHEN ?22 THEN 11 ELSE 12 END, r.id"

static const char sql_get[] = REPORT_COLS "WHERE r.id = ?1";
static const char sql_page[] = REPORT_COLS "WHERE r.id IN (" DB_IDS ")";
/* store_report_brief: the row's own fields and the disclosure date. */
static const char sql_brief[] =
	"SELECT r.id, r.received, r.state, r.severity, r.claimed_by,"
	" r.public, r.consent_credit, r.consent_exploit, r.release_started,"
	" (SELECT date FROM decisions d WHERE d.report_id = r.id"
	"  ORDER BY d.id DESC LIMIT 1)"
	" FROM reports r WHERE r.id = ?1";
static const char sql_by_id[] = REPORT_COLS REPORT_WHERE "ORDER BY r.id";
static const char sql_by_received[] = REPORT_COLS REPORT_WHERE
	"ORDER BY r.received DESC, r.id DESC";
static const char sql_by_state[] = REPORT_COLS REPORT_WHERE RANK_OF("r.state");
static const char sql_by_severity[] =
	REPORT_COLS REPORT_WHERE RANK_OF("r.severity");

void report_release(struct report *r)
{
	free(r->subject);
	free(r->reporter_name);
	free(r->reporter_email);
	free(r->state);
	free(r->severity);
	free(r->claimed_by);
	memset(r, 0, sizeof(*r));
}

static void read_report(struct stmt *st, void *elem)
{
	struct report *r = elem;

	memset(r, 0, sizeof(*r));
	db_cols(st, "IssstsssbbbtvbbtI", &r->id, &r->subject, &r->reporter_name,
		&r->reporter_email, &r->received, &r->state, &r->severity,
		&r->claimed_by, &r->public, &r->consent_credit,
		&r->consent_exploit, &r->release_started, &r->verdict,
		&r->encrypted, &r->signer_matches_from, &r->disclosure,
		&r->nmessages);
}

/* What a report's sealed fields are sealed to: the row, drawn first. */
static void open_report(struct store *s, struct report *r)
{
	store_open_field(s, "reports", "subject", r->id, &r->subject);
	store_open_field(s, "reports", "reporter_name", r->id,
			 &r->reporter_name);
	store_open_field(s, "reports", "reporter_email", r->id,
			 &r->reporter_email);
}

int store_report_insert(struct store *s, const struct report_new *r,
			int64_t *id, struct err *err)
{
	struct stmt *st;
	char *subj = NULL, *name = NULL, *email = NULL;
	int64_t row = 0;
	bool f1 = false, f2 = false, f3 = false;
	int rc;

	/* Sealed, the fields name their row: its id is drawn first. */
	row = r->id;
	if (s->sealer && !row &&
	    (rc = store_next_id(s, "reports", &row, err)) < 0)
		return rc;
	subj = store_seal_field(s, "reports", "subject", row,
				r->subject ? r->subject : "", &f1, err);
	name = f1 ? NULL
		  : store_seal_field(s, "reports", "reporter_name", row,
				     r->reporter_name, &f2, err);
	email = f1 || f2 ? NULL
			 : store_seal_field(s, "reports", "reporter_email", row,
					    r->reporter_email, &f3, err);
	if (f1 || f2 || f3) {
		rc = ERR_CRYPTO;
		goto out;
	}
	st = row
		? db_stmt(s,
			  "INSERT INTO reports (subject, reporter_name,"
			  " reporter_email, received, id) VALUES (?1, ?2, ?3, ?4, ?5)"
			  " RETURNING id",
			  err)
		: db_stmt(s,
			  "INSERT INTO reports (subject, reporter_name,"
			  " reporter_email, received) VALUES (?1, ?2, ?3, ?4)"
			  " RETURNING id",
			  err);
	if (!st) {
		rc = ERR_IO;
		goto out;
	}
	db_text(st, 1, subj);
	db_text(st, 2, name);
	db_text(st, 3, email);
	db_int(st, 4, (int64_t)r->received);
	/* With its id drawn, nothing is read back: on a team server the
	 * row goes with the next statement that waits (db_send). */
	if (row) {
		db_int(st, 5, row);
		if ((rc = db_send(s, st, "cannot store the report", err)) == 0)
			*id = row;
	} else {
		rc = db_run(s, st, id, "cannot store the report", NULL, err);
	}
out:
	free(subj);
	free(name);
	free(email);
	return rc;
}

/* Report id's row by sql (?1 the id) through read: ERR_NOTFOUND saying
 * "no report ID". */
static int report_row(struct store *s, const char *sql, int64_t id,
		      struct report *r,
		      void (*read)(struct stmt *st, void *elem),
		      struct err *err)
{
	struct stmt *st = db_stmt(s, sql, err);
	int rc;

	if (!st)
		return ERR_IO;
	db_int(st, 1, id);
	rc = db_row(s, st, r, read, "cannot read report", err);
	if (rc == ERR_NOTFOUND)
		return err_setc(err, ERR_NOTFOUND, "no report %lld",
				(long long)id);
	return rc;
}

int store_report_get(struct store *s, int64_t id, struct report *r,
		     struct err *err)
{
	int rc = report_row(s, sql_get, id, r, read_report, err);

	if (rc == 0)
		open_report(s, r);
	return rc;
}

static void read_brief(struct stmt *st, void *elem)
{
	struct report *r = elem;

	memset(r, 0, sizeof(*r));
	db_cols(st, "Itsssbbbtt", &r->id, &r->received, &r->state, &r->severity,
		&r->claimed_by, &r->public, &r->consent_credit,
		&r->consent_exploit, &r->release_started, &r->disclosure);
}

int store_report_brief(struct store *s, int64_t id, struct report *r,
		       struct err *err)
{
	return report_row(s, sql_brief, id, r, read_brief, err);
}

/* store_report_page's callback: each row to the slot of its id. */
struct page {
	struct store *s;
	const int64_t *ids;
	size_t n;
	struct report *out;
};

static int page_row(struct stmt *st, void *data)
{
	struct page *pg = data;
	struct report r;

	read_report(st, &r);
	open_report(pg->s, &r);
	for (size_t i = 0; i < pg->n; i++)
		if (pg->ids[i] == r.id && !pg->out[i].id) {
			pg->out[i] = r;
			return 0;
		}
	report_release(&r);
	return 0;
}

int store_report_page(struct store *s, const int64_t *ids, size_t n,
		      struct report *out, struct err *err)
{
	int rc = 0;

	memset(out, 0, n * sizeof(*out));
	for (size_t at = 0; at < n && rc == 0; at += DB_IDS_MAX) {
		size_t m = n - at < DB_IDS_MAX ? n - at : DB_IDS_MAX;
		struct page pg = { s, ids + at, m, out + at };
		struct stmt *st = db_stmt(s, sql_page, err);

		if (!st) {
			rc = ERR_IO;
			break;
		}
		db_ids(st, ids + at, m);
		rc = db_each(s, st, page_row, &pg, "cannot read reports", err);
	}
	if (rc < 0)
		for (size_t i = 0; i < n; i++)
			report_release(&out[i]);
	return rc < 0 ? rc : 0;
}

/* store_report_each's callback, over db_each. */
struct each {
	struct store *s;
	int (*fn)(const struct report *r, void *data);
	void *data;
};

static size_t list_len(const char *const *v)
{
	size_t n = 0;

	while (v && v[n])
		n++;
	return n;
}

static int each_row(struct stmt *st, void *data)
{
	struct each *e = data;
	struct report r;
	int stop;

	read_report(st, &r);
	open_report(e->s, &r);
	stop = e->fn(&r, e->data);
	report_release(&r);
	return stop;
}

int store_report_each(struct store *s, const struct report_filter *f,
		      int (*fn)(const struct report *r, void *data), void *data,
		      struct err *err)
{
	const char *sql = sql_by_id;
	const char *order = f && f->order ? f->order : "id";
	const char *const *fin = f ? f->finished : NULL;
	const char *const *rank = f ? f->rank : NULL;
	bool ranked = false;
	struct each e = { s, fn, data };
	struct stmt *st;
	size_t i;

	if (!strcmp(order, "received"))
		sql = sql_by_received;
	else if ((ranked = !strcmp(order, "state")))
		sql = sql_by_state;
	else if ((ranked = !strcmp(order, "severity")))
		sql = sql_by_severity;
	else if (strcmp(order, "id"))
		return err_setc(
			err, ERR_INVALID,
			"unknown order '%s' (id, received, state, severity)",
			order);
	if (ranked && !rank)
		return err_setc(err, ERR_INVALID, "order '%s' needs its values",
				order);
	if (f && f->open_only && !fin)
		return err_setc(err, ERR_INVALID,
				"open_only needs the finished states");
	if (list_len(fin) > FINISHED_MAX ||
	    (ranked && list_len(rank) > RANK_MAX))
		return err_setc(err, ERR_INVALID,
				"too many states or values to bind");
	if (!(st = db_stmt(s, sql, err)))
		return ERR_IO;
	db_text(st, 1, f ? f->state : NULL);
	db_int(st, 2, f && f->open_only);
	/* '' matches no state: the slots a shorter list leaves. */
	for (i = 0; i < FINISHED_MAX; i++)
		db_text(st, 3 + (int)i, fin && *fin ? *fin++ : "");
	for (i = 0; ranked && i < RANK_MAX; i++)
		db_text(st, 11 + (int)i, rank && *rank ? *rank++ : "");
	return db_each(s, st, each_row, &e, "cannot list reports", err);
}

int64_t store_report_count(struct store *s)
{
	return db_count(db_stmt(s, "SELECT count(*) FROM reports", NULL));
}

/*
 * Touched files are sealed under the report: each path under a
 * nonce of its own, so the table's key no longer makes them unique; the
 * store keeps one of each by reading the report's files first, and sorts
 * them once opened.
 */
static int path_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int store_files_add(struct store *s, int64_t report_id, char *const *paths,
		    size_t n, bool fresh, struct err *err)
{
	struct stmt *st;
	char **have = NULL, *sealed;
	size_t nh = 0;
	bool failed;
	int r = 0;

	if (!fresh && (r = store_files_get(s, report_id, &have, &nh, err)) < 0)
		return r;
	for (size_t i = 0; i < n && r == 0; i++) {
		bool dup = nh &&
			bsearch(&paths[i], have, nh, sizeof(*have), path_cmp);

		for (size_t j = 0; j < i && !dup; j++)
			dup = !strcmp(paths[i], paths[j]);
		if (dup)
			continue;
		if (!(sealed = store_seal_field(s, "report_files", "path",
						report_id, paths[i], &failed,
						err))) {
			r = failed ? ERR_CRYPTO : ERR_IO;
			break;
		}
		if (!(st = db_stmt(s,
				   "INSERT INTO report_files (report_id, path)"
				   " VALUES (?1, ?2) ON CONFLICT DO NOTHING",
				   err))) {
			free(sealed);
			r = ERR_IO;
			break;
		}
		db_int(st, 1, report_id);
		db_text(st, 2, sealed);
		r = db_send(s, st, "cannot store touched files", err);
		free(sealed);
	}
	for (size_t i = 0; i < nh; i++)
		free(have[i]);
	free(have);
	return r < 0 ? r : 0;
}

static void read_path(struct stmt *st, void *elem)
{
	*(char **)elem = db_col_str(st, 0);
}

static void release_path(void *elem)
{
	free(*(char **)elem);
}

int store_files_get(struct store *s, int64_t report_id, char ***paths,
		    size_t *n, struct err *err)
{
	struct stmt *st = db_stmt(
		s, "SELECT path FROM report_files WHERE report_id = ?1", err);
	int r;

	*paths = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	db_int(st, 1, report_id);
	if ((r = db_rows(s, st, (void **)paths, n, sizeof(**paths), read_path,
			 release_path, "cannot read touched files", err)) < 0)
		return r;
	for (size_t i = 0; i < *n; i++)
		store_open_field(s, "report_files", "path", report_id,
				 &(*paths)[i]);
	if (*n > 1)
		qsort(*paths, *n, sizeof(**paths), path_cmp);
	return 0;
}

struct files_each {
	struct store *s;
	int (*fn)(int64_t report_id, const char *path, void *data);
	void *data;
	int64_t report; /* the report whose paths are gathered */
	char **paths;
	size_t n;
	bool stop; /* fn asked to stop */
};

/* The gathered report's paths, opened and in order, to fn. */
static int files_flush(struct files_each *fe)
{
	if (fe->n > 1)
		qsort(fe->paths, fe->n, sizeof(*fe->paths), path_cmp);
	for (size_t i = 0; i < fe->n; i++) {
		if (!fe->stop && fe->fn(fe->report, fe->paths[i], fe->data))
			fe->stop = true;
		free(fe->paths[i]);
	}
	fe->n = 0;
	return fe->stop;
}

static int file_row(struct stmt *st, void *data)
{
	struct files_each *fe = data;
	int64_t id = db_col_int(st, 0);
	char *path = db_col_str(st, 1);
	int r = 0;

	if (id != fe->report && fe->n)
		r = files_flush(fe);
	fe->report = id;
	store_open_field(fe->s, "report_files", "path", id, &path);
	fe->paths = xrealloc(fe->paths, (fe->n + 1) * sizeof(*fe->paths));
	fe->paths[fe->n++] = path ? path : xstrdup("");
	return r;
}

int store_files_each(struct store *s,
		     int (*fn)(int64_t report_id, const char *path, void *data),
		     void *data, struct err *err)
{
	struct stmt *st = db_stmt(
		s,
		"SELECT report_id, path FROM report_files ORDER BY report_id",
		err);
	struct files_each fe = { s, fn, data, 0, NULL, 0, false };
	int r;

	if (!st)
		return ERR_IO;
	r = db_each(s, st, file_row, &fe, "cannot read touched files", err);
	files_flush(&fe);
	free(fe.paths);
	return r;
}
