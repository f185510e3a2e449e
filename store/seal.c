/*
 * Sealed fields (store.h): the store calls the sealer core gave it, and
 * keeps the result as text (STORE_SEALED_PREFIX and base64).
 */
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"
#include "store/db.h"

void store_set_sealer(struct store *s, const struct store_sealer *z)
{
	s->sealer = z;
}

char *store_seal_field(struct store *s, const char *table, const char *column,
		       int64_t row, const char *text, bool *failed,
		       struct err *err)
{
	unsigned char *b;
	char *why = NULL, *b64, *out;
	size_t n;

	*failed = false;
	if (!text)
		return NULL;
	if (!s->sealer)
		return xstrdup(text);
	if (!(b = s->sealer->seal(s->sealer->data, table, column, row, text,
				  strlen(text), &n, &why))) {
		err_setc(err, ERR_CRYPTO, "cannot seal %s.%s: %s", table,
			 column, why ? why : "no team key");
		free(why);
		*failed = true;
		return NULL;
	}
	b64 = base64_encode(b, n);
	free(b);
	out = xasprintf("%s%s", STORE_SEALED_PREFIX, b64);
	free(b64);
	return out;
}

char *store_open_text(struct store *s, const char *table, const char *column,
		      int64_t row, const char *stored)
{
	/* Most sealed fields are short: decoded on the stack, as a search
	 * opens 100,000 of them. */
	unsigned char small[512], *b = NULL;
	const char *b64;
	size_t n;
	char *why = NULL, *clear;
	int d;

	if (!stored || !str_starts(stored, STORE_SEALED_PREFIX))
		return stored ? xstrdup(stored) : NULL;
	b64 = stored + strlen(STORE_SEALED_PREFIX);
	if (!s->sealer)
		why = xstrdup("no team key in this session");
	else if ((d = base64_decode_buf(b64, small, sizeof(small), &n)) < 0 ||
		 (d > 0 && base64_decode(b64, &b, &n) < 0))
		why = xstrdup("not a sealed value");
	else {
		clear = s->sealer->open(s->sealer->data, table, column, row,
					b ? b : small, n, &why);
		free(b);
		if (clear)
			return clear;
	}
	clear = xasprintf("%s%s]", STORE_UNOPENED, why ? why : "unknown");
	free(why);
	return clear;
}

void store_open_field(struct store *s, const char *table, const char *column,
		      int64_t row, char **field)
{
	char *clear;

	if (!*field || !str_starts(*field, STORE_SEALED_PREFIX))
		return;
	clear = store_open_text(s, table, column, row, *field);
	free(*field);
	*field = clear;
}

/* Below this, one thread: starting others costs more than it saves. */
#define SHARE_MIN 4096

void store_parallel(struct store *s, size_t n,
		    void (*fn)(size_t from, size_t to, void *data), void *data)
{
	/* Without a sealer there is nothing to open: one thread. */
	util_parallel(n, s->sealer ? SHARE_MIN : SIZE_MAX, fn, data);
}

static char *keyed(struct store *s, const char *purpose, const char *value,
		   unsigned back, bool *failed, struct err *err)
{
	char *why = NULL, *hex, *out;

	if (!(hex = s->sealer->mac(s->sealer->data, purpose, value, back,
				   &why))) {
		if (back && !why)
			return NULL; /* no generation that old */
		err_setc(err, ERR_CRYPTO, "cannot make the keyed %s: %s",
			 purpose, why ? why : "no team key");
		free(why);
		*failed = true;
		return NULL;
	}
	out = xasprintf("%s%s", STORE_KEYED_PREFIX, hex);
	free(hex);
	return out;
}

char *store_keyed(struct store *s, const char *purpose, const char *value,
		  bool *failed, struct err *err)
{
	*failed = false;
	if (!value)
		return NULL;
	if (!s->sealer)
		return xstrdup(value);
	return keyed(s, purpose, value, 0, failed, err);
}

char *store_keyed_older(struct store *s, const char *purpose, const char *value,
			unsigned back, bool *failed, struct err *err)
{
	*failed = false;
	if (!value || !s->sealer || !back)
		return NULL;
	return keyed(s, purpose, value, back, failed, err);
}

bool store_has_clear_ids(struct store *s)
{
	struct stmt *st;

	if (!s->sealer)
		return true;
	if (s->clear_ids < 0 &&
	    (st = db_stmt(
		     s,
		     "SELECT count(*) FROM (SELECT 1 FROM messages"
		     " WHERE message_id NOT LIKE 'k1:%' OR content_hash NOT LIKE 'k1:%'"
		     " OR in_reply_to NOT LIKE 'k1:%' LIMIT 1) x",
		     NULL)))
		s->clear_ids = db_count(st) != 0;
	return s->clear_ids != 0;
}

int store_next_id(struct store *s, const char *table, int64_t *id,
		  struct err *err)
{
	static const char pg_reports[] =
		"SELECT nextval(pg_get_serial_sequence('secteam.reports', 'id'))";
	static const char pg_messages[] =
		"SELECT nextval(pg_get_serial_sequence('secteam.messages', 'id'))";
	static const char lite_reports[] =
		"SELECT coalesce(max(id), 0) + 1 FROM reports";
	static const char lite_messages[] =
		"SELECT coalesce(max(id), 0) + 1 FROM messages";
	bool pg = s->kind == STORE_POSTGRESQL, rep = !strcmp(table, "reports");
	struct stmt *st = db_stmt(s,
				  pg ? (rep ? pg_reports : pg_messages)
				     : (rep ? lite_reports : lite_messages),
				  err);
	int64_t v = db_count(st);

	if (v < 1)
		return store_dberr(s, err, "cannot draw the next id");
	*id = v;
	return 0;
}

/* *field (raw, as stored) sealed again under the sealer's generation
 * when it is sealed under an older one, or sealed when it was stored
 * clear (before sealing began: a database from before the team key);
 * *changed then. */
static int reseal_text(struct store *s, const char *table, const char *column,
		       int64_t row, char **field, bool *changed,
		       struct err *err)
{
	unsigned char *b;
	size_t n;
	char *why = NULL, *clear, *again;
	bool failed;

	if (s->sealer && *field && **field &&
	    !str_starts(*field, STORE_SEALED_PREFIX)) {
		if (!(again = store_seal_field(s, table, column, row, *field,
					       &failed, err)))
			return ERR_CRYPTO;
		free(*field);
		*field = again;
		*changed = true;
		return 0;
	}
	if (!*field || !str_starts(*field, STORE_SEALED_PREFIX) || !s->sealer ||
	    base64_decode(*field + strlen(STORE_SEALED_PREFIX), &b, &n) < 0)
		return 0;
	if (!s->sealer->stale(s->sealer->data, b, n)) {
		free(b);
		return 0;
	}
	clear = s->sealer->open(s->sealer->data, table, column, row, b, n,
				&why);
	free(b);
	if (!clear) {
		err_setc(err, ERR_CRYPTO,
			 "cannot seal %s.%s of row %lld again: %s", table,
			 column, (long long)row,
			 why ? why : "it does not open");
		free(why);
		return ERR_CRYPTO;
	}
	again = store_seal_field(s, table, column, row, clear, &failed, err);
	wipe_free(clear, strlen(clear));
	if (failed)
		return ERR_CRYPTO;
	free(*field);
	*field = again;
	*changed = true;
	return 0;
}

/* Bytes the team key sealed (teamkey.h's "SK1" and a generation). */
static bool team_sealed_blob(const unsigned char *b, size_t n)
{
	return b && n > 3 + 4 + 24 + 16 && !memcmp(b, "SK1", 3);
}

/* A message's blob sealed again, as reseal_text (bytes, not text). */
static int reseal_blob(struct store *s, int64_t row, unsigned char **blob,
		       size_t *len, bool *changed, struct err *err)
{
	char *why = NULL, *clear;
	unsigned char *again;
	size_t n, clen;

	if (!s->sealer || !*blob ||
	    !s->sealer->stale(s->sealer->data, *blob, *len))
		return 0;
	clear = s->sealer->open(s->sealer->data, "messages", "blob", row, *blob,
				*len, &why);
	if (!clear) {
		err_setc(err, ERR_CRYPTO, "cannot seal message %lld again: %s",
			 (long long)row, why ? why : "it does not open");
		free(why);
		return ERR_CRYPTO;
	}
	/* The clear bytes may hold NULs: open gives them NUL-terminated,
	 * of the length the sealed bytes say. */
	clen = *len - (3 + 4 + 24 + 16);
	again = s->sealer->seal(s->sealer->data, "messages", "blob", row, clear,
				clen, &n, &why);
	wipe_free(clear, clen);
	if (!again) {
		err_setc(err, ERR_CRYPTO, "cannot seal message %lld again: %s",
			 (long long)row, why ? why : "no team key");
		free(why);
		return ERR_CRYPTO;
	}
	free(*blob);
	*blob = again;
	*len = n;
	*changed = true;
	return 0;
}

/* A message's lookups (ids: message_id, in_reply_to, content_hash, as
 * stored, and ids_sealed) keyed when stored before keyed lookups, with
 * the clear Message-IDs sealed; the sealed ones sealed again when under
 * an older generation.  *changed then. */
static int key_ids(struct store *s, int64_t row, char *ids[4], bool *changed,
		   struct err *err)
{
	static const char *const purpose[3] = { "message-id", "message-id",
						"content" };
	bool clear = false, failed = false;
	char *text, *k[3] = { NULL, NULL, NULL };

	for (int i = 0; i < 3; i++)
		clear |= ids[i] && !str_starts(ids[i], STORE_KEYED_PREFIX);
	if (!clear || !s->sealer)
		return reseal_text(s, "messages", "ids", row, &ids[3], changed,
				   err);
	for (int i = 0; i < 3 && !failed; i++)
		k[i] = ids[i] && !str_starts(ids[i], STORE_KEYED_PREFIX)
			? store_keyed(s, purpose[i], ids[i], &failed, err)
			: ids[i] ? xstrdup(ids[i])
				 : NULL;
	if (!failed) {
		text = message_ids_text(ids[0], ids[1]);
		free(ids[3]);
		ids[3] = store_seal_field(s, "messages", "ids", row, text,
					  &failed, err);
		free(text);
	}
	for (int i = 0; i < 3; i++) {
		if (failed) {
			free(k[i]);
			continue;
		}
		free(ids[i]);
		ids[i] = k[i];
	}
	if (failed)
		return ERR_CRYPTO;
	*changed = true;
	return 0;
}

/*
 * store_reseal_reports: the rows of DB_IDS_MAX reports at a time, read in
 * two queries (theirs, then all their messages), then each sealed again
 * and what changed written back: on SQLite a row at a time, on a team
 * server in one call for DB_IDS_MAX reports and one for their messages
 * (arrays, migration 15).  A reseal of 100k reports on a team server was
 * six round trips a report, then two function calls a report, each
 * costing the server more than its update.
 */
struct reseal_msg {
	int64_t id, report;
	char *f[3]; /* subject, from_name, from_email */
	unsigned char *blob;
	size_t blen;
	char *ids[4]; /* message_id, in_reply_to, content_hash, ids_sealed */
	bool changed;
};

struct reseal_chunk {
	const int64_t *ids;
	size_t n;
	char *(*f)[3]; /* per report: subject, reporter_name, _email */
	bool *found;
	bool *mine; /* the report's own fields changed */
	struct reseal_msg *m;
	size_t nm;
};

static void reseal_chunk_release(struct reseal_chunk *c)
{
	for (size_t i = 0; i < c->n; i++)
		for (int k = 0; k < 3; k++)
			free(c->f[i][k]);
	for (size_t j = 0; j < c->nm; j++) {
		for (int k = 0; k < 3; k++)
			free(c->m[j].f[k]);
		for (int k = 0; k < 4; k++)
			free(c->m[j].ids[k]);
		free(c->m[j].blob);
	}
	free(c->f);
	free(c->found);
	free(c->mine);
	free(c->m);
}

static int reseal_read_report(struct stmt *st, void *data)
{
	struct reseal_chunk *c = data;
	int64_t id = db_col_int(st, 0);

	for (size_t i = 0; i < c->n; i++)
		if (c->ids[i] == id && !c->found[i]) {
			c->found[i] = true;
			for (int k = 0; k < 3; k++)
				c->f[i][k] = db_col_str(st, 1 + k);
			break;
		}
	return 0;
}

static int reseal_read_message(struct stmt *st, void *data)
{
	struct reseal_chunk *c = data;
	struct reseal_msg *m;

	if (!(c->nm & (c->nm + 1))) /* 0, 1, 3, 7, ...: grow */
		c->m = xrealloc(c->m, (2 * c->nm + 2) * sizeof(*c->m));
	m = &c->m[c->nm++];
	memset(m, 0, sizeof(*m));
	m->id = db_col_int(st, 0);
	m->report = db_col_int(st, 1);
	for (int k = 0; k < 3; k++)
		m->f[k] = db_col_str(st, 2 + k);
	m->blob = db_col_bytes(st, 5, &m->blen);
	for (int k = 0; k < 4; k++)
		m->ids[k] = db_col_str(st, 6 + k);
	return 0;
}

/* One report of the chunk, its messages being c->m[from, to): sealed
 * again in memory, c->mine[i] and each message's changed saying what to
 * write. */
static int reseal_one(struct store *s, struct reseal_chunk *c, size_t i,
		      size_t from, size_t to, bool *changed, struct err *err)
{
	static const char *const rcol[3] = { "subject", "reporter_name",
					     "reporter_email" };
	static const char *const mcol[3] = { "subject", "from_name",
					     "from_email" };
	int64_t id = c->ids[i];
	bool mine = false;
	int r = 0;

	for (int k = 0; k < 3 && r == 0; k++)
		r = reseal_text(s, "reports", rcol[k], id, &c->f[i][k], &mine,
				err);
	c->mine[i] = mine;
	/* What a database from before the sealed record holds clear about
	 * it elsewhere. */
	if (r == 0)
		r = store_seal_legacy(s, id, &mine, err);
	changed[i] = mine;
	for (size_t j = from; j < to && r == 0; j++) {
		struct reseal_msg *m = &c->m[j];
		bool ch = false;

		for (int k = 0; k < 3 && r == 0; k++)
			r = reseal_text(s, "messages", mcol[k], m->id, &m->f[k],
					&ch, err);
		if (r == 0 && team_sealed_blob(m->blob, m->blen))
			r = reseal_blob(s, m->id, &m->blob, &m->blen, &ch, err);
		if (r == 0)
			r = key_ids(s, m->id, m->ids, &ch, err);
		m->changed = r == 0 && ch;
		changed[i] |= m->changed;
	}
	return r;
}

/* SQLite: the changed rows not yet written, an UPDATE each. */
static int reseal_write_rows(struct store *s, struct reseal_chunk *c,
			     struct err *err)
{
	static const char rsql[] = "UPDATE reports SET subject = ?2,"
				   " reporter_name = ?3, reporter_email = ?4"
				   " WHERE id = ?1";
	static const char msql[] =
		"UPDATE messages SET subject = ?2, from_name = ?3,"
		" from_email = ?4, blob = ?5, message_id = ?6, in_reply_to = ?7,"
		" content_hash = ?8, ids_sealed = ?9 WHERE id = ?1";
	struct stmt *st;
	int r = 0;

	for (size_t i = 0; i < c->n && r == 0; i++) {
		if (!c->mine[i])
			continue;
		if (!(st = db_stmt(s, rsql, err)))
			return ERR_IO;
		db_int(st, 1, c->ids[i]);
		for (int k = 0; k < 3; k++)
			db_text(st, 2 + k, c->f[i][k]);
		r = db_send(s, st, "cannot seal a report again", err);
		c->mine[i] = false;
	}
	for (size_t j = 0; j < c->nm && r == 0; j++) {
		struct reseal_msg *m = &c->m[j];

		if (!m->changed)
			continue;
		if (!(st = db_stmt(s, msql, err)))
			return ERR_IO;
		db_int(st, 1, m->id);
		for (int k = 0; k < 3; k++)
			db_text(st, 2 + k, m->f[k]);
		db_blob(st, 5, m->blob, m->blen);
		for (int k = 0; k < 4; k++)
			db_text(st, 6 + k, m->ids[k]);
		r = db_send(s, st, "cannot seal a message again", err);
		m->changed = false;
	}
	return r;
}

/* The team server: the changed reports not yet written in one call,
 * their changed messages in another, each column an array. */
static int reseal_write_arrays(struct store *s, struct reseal_chunk *c,
			       struct err *err)
{
	static const char rsql[] =
		"SELECT secteam.reseal_reports(?1, ?2, ?3, ?4)";
	static const char msql[] = "SELECT secteam.reseal_messages(?1, ?2, ?3,"
				   " ?4, ?5, ?6, ?7, ?8, ?9)";
	struct sbuf a[9];
	struct stmt *st;
	size_t rows = 0;
	int r = 0;

	for (int k = 0; k < 9; k++)
		sbuf_init(&a[k]);
	for (size_t i = 0; i < c->n; i++) {
		if (!c->mine[i])
			continue;
		db_array_int(&a[0], c->ids[i]);
		for (int k = 0; k < 3; k++)
			db_array_text(&a[1 + k], c->f[i][k]);
		c->mine[i] = false;
		rows++;
	}
	if (rows) {
		if (!(st = db_stmt(s, rsql, err))) {
			r = ERR_IO;
			goto out;
		}
		for (int k = 0; k < 4; k++)
			db_text(st, 1 + k, db_array_end(&a[k]));
		if ((r = db_send(s, st, "cannot seal reports again", err)) < 0)
			goto out;
	}
	for (int k = 0; k < 9; k++)
		sbuf_reset(&a[k]);
	rows = 0;
	for (size_t j = 0; j < c->nm; j++) {
		struct reseal_msg *m = &c->m[j];

		if (!m->changed)
			continue;
		db_array_int(&a[0], m->id);
		for (int k = 0; k < 3; k++)
			db_array_text(&a[1 + k], m->f[k]);
		db_array_bytes(&a[4], m->blob, m->blen);
		for (int k = 0; k < 4; k++)
			db_array_text(&a[5 + k], m->ids[k]);
		m->changed = false;
		rows++;
	}
	if (rows) {
		if (!(st = db_stmt(s, msql, err))) {
			r = ERR_IO;
			goto out;
		}
		for (int k = 0; k < 9; k++)
			db_text(st, 1 + k, db_array_end(&a[k]));
		r = db_send(s, st, "cannot seal messages again", err);
	}
out:
	for (int k = 0; k < 9; k++)
		sbuf_release(&a[k]);
	return r;
}

static int reseal_read(struct store *s, struct reseal_chunk *c, size_t at,
		       size_t n, struct err *err)
{
	struct stmt *st;
	int r;

	st = db_stmt(s,
		     "SELECT id, subject, reporter_name, reporter_email"
		     " FROM reports WHERE id IN (" DB_IDS ")",
		     err);
	if (!st)
		return ERR_IO;
	db_ids(st, c->ids + at, n);
	if ((r = db_each(s, st, reseal_read_report, c,
			 "cannot read reports to seal again", err)) < 0)
		return r;
	/* By report, then id: each report's messages one run. */
	st = db_stmt(s,
		     "SELECT id, report_id, subject, from_name, from_email,"
		     " blob, message_id, in_reply_to, content_hash, ids_sealed"
		     " FROM messages WHERE report_id IN (" DB_IDS ")"
		     " ORDER BY report_id, id",
		     err);
	if (!st)
		return ERR_IO;
	db_ids(st, c->ids + at, n);
	return db_each(s, st, reseal_read_message, c,
		       "cannot read messages to seal again", err);
}

/*
 * Everything read first, then sealed and written DB_IDS_MAX reports at a
 * time: on a team server the writes go without waiting (db_send),
 * so it updates one part while this one seals the next; a read between
 * them would wait for every write sent before it.
 */
int store_reseal_reports(struct store *s, const int64_t *ids, size_t n,
			 bool *changed,
			 int (*sent)(const int64_t *ids, const bool *changed,
				     size_t n, void *data, struct err *err),
			 void *data, struct err *err)
{
	struct reseal_chunk c = { ids,
				  n,
				  xcalloc(n, sizeof(*c.f)),
				  xcalloc(n, sizeof(bool)),
				  xcalloc(n, sizeof(bool)),
				  NULL,
				  0 };
	int r = 0;

	for (size_t at = 0; at < n && r == 0; at += DB_IDS_MAX)
		r = reseal_read(s, &c, at,
				n - at < DB_IDS_MAX ? n - at : DB_IDS_MAX, err);
	for (size_t at = 0; at < n && r == 0; at += DB_IDS_MAX) {
		size_t end = n - at < DB_IDS_MAX ? n : at + DB_IDS_MAX;

		for (size_t i = at; i < end && r == 0; i++) {
			size_t from = 0, to;

			changed[i] = false;
			if (!c.found[i])
				continue; /* no such report: nothing to do */
			while (from < c.nm && c.m[from].report != ids[i])
				from++;
			for (to = from; to < c.nm && c.m[to].report == ids[i];
			     to++)
				;
			r = reseal_one(s, &c, i, from, to, changed, err);
		}
		if (r == 0)
			r = s->kind == STORE_POSTGRESQL
				? reseal_write_arrays(s, &c, err)
				: reseal_write_rows(s, &c, err);
		if (r == 0 && sent)
			r = sent(ids + at, changed + at, end - at, data, err);
	}
	reseal_chunk_release(&c);
	return r;
}
