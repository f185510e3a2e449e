/*
 * The engine-independent half of the statement interface (db.h): the
 * per-store statement cache, the bind/step/column wrappers, the row
 * helpers every repository uses instead of its own step loop, and the
 * one place a database error becomes a message.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"

int store_dberr(struct store *s, struct err *err, const char *what)
{
	const char *msg = s->eng->errmsg(s);

	if (s->sent_failed) {
		what = s->sent_failed;
		s->sent_failed = NULL;
	}

	switch (s->eng->fault(s)) {
	case DB_FAULT_BUSY:
		return err_setc(
			err, ERR_BUSY,
			"%s is busy (another officer is writing); try again",
			s->where);
	case DB_FAULT_FULL:
		return err_setc(err, ERR_IO, "%s in %s: disk full", what,
				s->where);
	case DB_FAULT_PERM:
		return err_setc(
			err, ERR_REFUSED,
			"%s in %s: permission denied (%s); ask the team's administrator for the grant",
			what, s->where, msg);
	case DB_FAULT_CONN:
		return err_setc(err, ERR_IO, "%s: %s unreachable: %s", what,
				s->where, msg);
	case DB_FAULT_UNIQUE:
		return err_setc(err, ERR_DUPLICATE, "%s in %s: already stored",
				what, s->where);
	default:
		return err_setc(err, ERR_IO, "%s in %s: %s", what, s->where,
				msg);
	}
}

struct stmt *db_stmt(struct store *s, const char *sql, struct err *err)
{
	struct stmt *st;

	for (size_t i = 0; i < s->ncache; i++) {
		if (s->cache[i].sql == sql) {
			st = s->cache[i].st;
			s->eng->reset(st);
			return st;
		}
	}
	if (!(st = s->eng->prepare(s, sql))) {
		store_dberr(s, err, "cannot prepare a query");
		return NULL;
	}
	/* The cache is sized above the number of distinct queries in
	 * store/; a miss past it is a programming error. */
	assert(s->ncache < STMT_CACHE);
	s->cache[s->ncache].sql = sql;
	s->cache[s->ncache].st = st;
	s->ncache++;
	return st;
}

void db_int(struct stmt *st, int i, int64_t v)
{
	st->s->eng->bind_int(st, i, v);
}

void db_text(struct stmt *st, int i, const char *v)
{
	if (v)
		st->s->eng->bind_text(st, i, v);
	else
		st->s->eng->bind_null(st, i);
}

void db_blob(struct stmt *st, int i, const void *p, size_t n)
{
	st->s->eng->bind_blob(st, i, p, n);
}

void db_null(struct stmt *st, int i)
{
	st->s->eng->bind_null(st, i);
}

int db_step(struct stmt *st)
{
	return st->s->eng->step(st);
}

void db_reset(struct stmt *st)
{
	st->s->eng->reset(st);
}

int64_t db_changes(struct stmt *st)
{
	return st->s->eng->changes(st);
}

int64_t db_col_int(struct stmt *st, int i)
{
	return st->s->eng->col_int(st, i);
}

bool db_col_null(struct stmt *st, int i)
{
	return st->s->eng->col_null(st, i);
}

char *db_col_str(struct stmt *st, int i)
{
	const char *t;

	if (st->s->eng->col_null(st, i))
		return NULL;
	t = st->s->eng->col_text(st, i);
	return xstrdup(t ? t : "");
}

const char *db_col_text(struct stmt *st, int i)
{
	const char *t;

	if (st->s->eng->col_null(st, i))
		return NULL;
	t = st->s->eng->col_text(st, i);
	return t ? t : "";
}

enum sig_verdict db_col_verdict(struct stmt *st, int i)
{
	if (st->s->eng->col_null(st, i))
		return SIG_NONE;
	return sig_verdict_from_name(st->s->eng->col_text(st, i));
}

void db_cols(struct stmt *st, const char *spec, ...)
{
	va_list ap;

	va_start(ap, spec);
	for (int i = 0; spec[i]; i++) {
		switch (spec[i]) {
		case 'I':
			*va_arg(ap, int64_t *) = db_col_int(st, i);
			break;
		case 't':
			*va_arg(ap, time_t *) = (time_t)db_col_int(st, i);
			break;
		case 'b':
			*va_arg(ap, bool *) = db_col_int(st, i) != 0;
			break;
		case 's':
			*va_arg(ap, char **) = db_col_str(st, i);
			break;
		case 'v':
			*va_arg(ap, enum sig_verdict *) = db_col_verdict(st, i);
			break;
		case '.':
			break; /* read by the caller some other way */
		default:
			assert(!"db_cols: unknown column letter");
		}
	}
	va_end(ap);
}

void db_col_copy(struct stmt *st, int i, char *dst, size_t size)
{
	const char *t = st->s->eng->col_null(st, i)
		? NULL
		: st->s->eng->col_text(st, i);
	size_t n = t ? strlen(t) : 0;

	if (!size)
		return;
	if (n >= size)
		n = size - 1;
	if (n)
		memcpy(dst, t, n);
	dst[n] = '\0';
}

unsigned char *db_col_bytes(struct stmt *st, int i, size_t *n)
{
	const void *p = st->s->eng->col_blob(st, i, n);

	return xmemdup(p ? p : "", p ? *n : (*n = 0));
}

int db_each(struct store *s, struct stmt *st,
	    int (*fn)(struct stmt *st, void *data), void *data,
	    const char *what, struct err *err)
{
	int rc;

	while ((rc = db_step(st)) == 1)
		if (fn(st, data))
			break;
	if (rc < 0)
		rc = store_dberr(s, err, what);
	db_reset(st);
	return rc < 0 ? rc : 0;
}

/* db_rows's array as it grows, one row a call (db_each). */
struct rows {
	unsigned char *v;
	size_t len, alloc, elsize;
	void (*read)(struct stmt *st, void *elem);
};

static int add_row(struct stmt *st, void *data)
{
	struct rows *r = data;

	if (r->len == r->alloc) {
		r->alloc = r->alloc ? r->alloc * 2 : 16;
		r->v = xrealloc(r->v, r->alloc * r->elsize);
	}
	memset(r->v + r->len * r->elsize, 0, r->elsize);
	r->read(st, r->v + r->len * r->elsize);
	r->len++;
	return 0;
}

int db_rows(struct store *s, struct stmt *st, void **arr, size_t *n,
	    size_t elsize, void (*read)(struct stmt *st, void *elem),
	    void (*release)(void *elem), const char *what, struct err *err)
{
	struct rows r = { NULL, 0, 0, elsize, read };
	int rc = db_each(s, st, add_row, &r, what, err);

	if (rc < 0) {
		for (size_t i = 0; release && i < r.len; i++)
			release(r.v + i * elsize);
		free(r.v);
		r.v = NULL;
		r.len = 0;
	}
	*arr = r.v;
	*n = r.len;
	return rc;
}

int db_rows_ids(struct store *s, const char *sql, const int64_t *ids, size_t n,
		void **arr, size_t *nout, size_t elsize,
		void (*read)(struct stmt *st, void *elem),
		void (*release)(void *elem), const char *what, struct err *err)
{
	char *all = NULL;
	size_t len = 0;
	int rc = 0;

	for (size_t at = 0; at < n && rc == 0; at += DB_IDS_MAX) {
		size_t k = n - at < DB_IDS_MAX ? n - at : DB_IDS_MAX, m = 0;
		void *got = NULL;
		struct stmt *st = db_stmt(s, sql, err);

		if (!st) {
			rc = ERR_IO;
			break;
		}
		db_ids(st, ids + at, k);
		rc = db_rows(s, st, &got, &m, elsize, read, release, what, err);
		if (rc == 0 && m) {
			all = xrealloc(all, (len + m) * elsize);
			memcpy(all + len * elsize, got, m * elsize);
			len += m;
		}
		free(got);
	}
	if (rc < 0) {
		for (size_t i = 0; release && i < len; i++)
			release(all + i * elsize);
		free(all);
		all = NULL;
		len = 0;
	}
	*arr = all;
	*nout = len;
	return rc;
}

void db_ids(struct stmt *st, const int64_t *ids, size_t n)
{
	for (size_t i = 0; i < DB_IDS_MAX; i++)
		db_int(st, (int)i + 1, i < n ? ids[i] : 0);
}

int64_t db_count(struct stmt *st)
{
	int64_t n = -1;

	if (!st)
		return -1;
	if (db_step(st) == 1)
		n = db_col_int(st, 0);
	db_reset(st);
	return n;
}

int db_row(struct store *s, struct stmt *st, void *elem,
	   void (*read)(struct stmt *st, void *elem), const char *what,
	   struct err *err)
{
	int rc = db_step(st);

	if (rc == 1) {
		read(st, elem);
		db_reset(st);
		return 0;
	}
	if (rc == 0) {
		db_reset(st);
		return ERR_NOTFOUND;
	}
	rc = store_dberr(s, err, what);
	db_reset(st);
	return rc;
}

int db_send(struct store *s, struct stmt *st, const char *what, struct err *err)
{
	int rc;

	if (!s->in_tx || !s->eng->send)
		return db_run(s, st, NULL, what, NULL, err);
	s->sending = what;
	rc = s->eng->send(st);
	s->sending = NULL;
	db_reset(st);
	return rc < 0 ? store_dberr(s, err, what) : 0;
}

static void array_next(struct sbuf *a)
{
	sbuf_addch(a, a->len ? ',' : '{');
}

void db_array_text(struct sbuf *a, const char *v)
{
	array_next(a);
	if (!v) {
		sbuf_adds(a, "NULL");
		return;
	}
	sbuf_addch(a, '"');
	for (; *v; v++) {
		if (*v == '"' || *v == '\\')
			sbuf_addch(a, '\\');
		sbuf_addch(a, *v);
	}
	sbuf_addch(a, '"');
}

void db_array_int(struct sbuf *a, int64_t v)
{
	array_next(a);
	sbuf_addf(a, "%lld", (long long)v);
}

void db_array_bytes(struct sbuf *a, const void *p, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *b = p;
	char *o;

	array_next(a);
	if (!p) {
		sbuf_adds(a, "NULL");
		return;
	}
	/* "\\x" and two digits a byte: the element's backslash escaped. */
	sbuf_grow(a, 5 + 2 * n + 1);
	sbuf_adds(a, "\"\\\\x");
	o = a->buf + a->len;
	for (size_t i = 0; i < n; i++) {
		*o++ = hex[b[i] >> 4];
		*o++ = hex[b[i] & 15];
	}
	a->len += 2 * n;
	a->buf[a->len] = '\0';
	sbuf_addch(a, '"');
}

const char *db_array_end(struct sbuf *a)
{
	if (!a->len)
		sbuf_addch(a, '{');
	sbuf_addch(a, '}');
	return a->buf;
}

const char *db_write_sql(struct store *s, const char *sqlite, const char *pg)
{
	return s->kind == STORE_POSTGRESQL ? pg : sqlite;
}

int db_write(struct store *s, struct stmt *st, int64_t *changed,
	     const char *what, struct err *err)
{
	int64_t got = 0;
	int rc = db_run(s, st, &got, what, NULL, err);

	if (rc == 0 && changed)
		*changed = s->kind == STORE_POSTGRESQL ? got : db_changes(st);
	return rc;
}

int db_run(struct store *s, struct stmt *st, int64_t *id, const char *what,
	   const char *dup_msg, struct err *err)
{
	int rc = db_step(st);

	if (rc == 1 && id)
		*id = db_col_int(st, 0);
	while (rc == 1)
		rc = db_step(st);
	if (rc < 0) {
		if (s->eng->fault(s) == DB_FAULT_UNIQUE && dup_msg)
			rc = err_setc(err, ERR_DUPLICATE, "%s", dup_msg);
		else
			rc = store_dberr(s, err, what);
		db_reset(st);
		return rc;
	}
	/* changes() stays readable until the next run of st. */
	return 0;
}
