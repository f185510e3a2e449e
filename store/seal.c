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
		err_setc(err, ERR_CRYPTO, "cannot seal %s.%s: %s", table, column,
			 why ? why : "no team key");
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
	unsigned char *b;
	size_t n;
	char *why = NULL, *clear;

	if (!stored || !str_starts(stored, STORE_SEALED_PREFIX))
		return stored ? xstrdup(stored) : NULL;
	if (!s->sealer)
		why = xstrdup("no team key in this session");
	else if (base64_decode(stored + strlen(STORE_SEALED_PREFIX), &b, &n) < 0)
		why = xstrdup("not a sealed value");
	else {
		clear = s->sealer->open(s->sealer->data, table, column, row, b, n, &why);
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

char *store_keyed(struct store *s, const char *purpose, const char *value,
		  bool *failed, struct err *err)
{
	char *why = NULL, *hex, *out;

	*failed = false;
	if (!value)
		return NULL;
	if (!s->sealer)
		return xstrdup(value);
	if (!(hex = s->sealer->mac(s->sealer->data, purpose, value, &why))) {
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
	static const char lite_reports[] = "SELECT coalesce(max(id), 0) + 1 FROM reports";
	static const char lite_messages[] = "SELECT coalesce(max(id), 0) + 1 FROM messages";
	bool pg = s->kind == STORE_POSTGRESQL, rep = !strcmp(table, "reports");
	struct stmt *st = db_stmt(s, pg ? (rep ? pg_reports : pg_messages)
					: (rep ? lite_reports : lite_messages), err);
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
		       int64_t row, char **field, bool *changed, struct err *err)
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
	clear = s->sealer->open(s->sealer->data, table, column, row, b, n, &why);
	free(b);
	if (!clear) {
		err_setc(err, ERR_CRYPTO, "cannot seal %s.%s of row %lld again: %s",
			 table, column, (long long)row, why ? why : "it does not open");
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

	if (!s->sealer || !*blob || !s->sealer->stale(s->sealer->data, *blob, *len))
		return 0;
	clear = s->sealer->open(s->sealer->data, "messages", "blob", row, *blob, *len, &why);
	if (!clear) {
		err_setc(err, ERR_CRYPTO, "cannot seal message %lld again: %s",
			 (long long)row, why ? why : "it does not open");
		free(why);
		return ERR_CRYPTO;
	}
	/* The clear bytes may hold NULs: open gives them NUL-terminated,
	 * of the length the sealed bytes say. */
	clen = *len - (3 + 4 + 24 + 16);
	again = s->sealer->seal(s->sealer->data, "messages", "blob", row, clear, clen,
				&n, &why);
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

int store_reseal_report(struct store *s, int64_t id, bool *changed,
			struct err *err)
{
	struct stmt *st = db_stmt(s, "SELECT subject, reporter_name, reporter_email"
				  " FROM reports WHERE id = ?1", err);
	char *f[3] = { NULL, NULL, NULL };
	static const char *const rcol[3] = { "subject", "reporter_name", "reporter_email" };
	static const char *const mcol[3] = { "subject", "from_name", "from_email" };
	bool mine = false;
	int64_t *mids = NULL;
	size_t nm = 0;
	int r = 0;

	*changed = false;
	if (!st)
		return ERR_IO;
	db_int(st, 1, id);
	if ((r = db_step(st)) != 1) {
		db_reset(st);
		/* A lost connection is said as such, not as no report. */
		return r < 0 ? store_dberr(s, err, "cannot read a report to seal again")
			     : err_setc(err, ERR_NOTFOUND, "no report %lld", (long long)id);
	}
	r = 0;
	for (int i = 0; i < 3; i++)
		f[i] = db_col_str(st, i);
	db_reset(st);
	for (int i = 0; i < 3 && r == 0; i++)
		r = reseal_text(s, "reports", rcol[i], id, &f[i], &mine, err);
	if (r == 0 && mine) {
		st = db_stmt(s, "UPDATE reports SET subject = ?2, reporter_name = ?3,"
			     " reporter_email = ?4 WHERE id = ?1", err);
		if (!st)
			r = ERR_IO;
		else {
			db_int(st, 1, id);
			db_text(st, 2, f[0]);
			db_text(st, 3, f[1]);
			db_text(st, 4, f[2]);
			r = db_run(s, st, NULL, "cannot seal a report again", NULL, err);
		}
	}
	for (int i = 0; i < 3; i++)
		free(f[i]);
	/* What a database from before the sealed record holds clear about
	 * it elsewhere. */
	if (r == 0)
		r = store_seal_legacy(s, id, &mine, err);
	*changed = mine;
	if (r < 0)
		return r;
	/* Its messages. */
	st = db_stmt(s, "SELECT id FROM messages WHERE report_id = ?1 ORDER BY id", err);
	if (!st)
		return ERR_IO;
	db_int(st, 1, id);
	while ((r = db_step(st)) == 1) {
		mids = xrealloc(mids, (nm + 1) * sizeof(*mids));
		mids[nm++] = db_col_int(st, 0);
	}
	db_reset(st);
	if (r < 0) {
		free(mids);
		return store_dberr(s, err, "cannot list a report's messages to seal again");
	}
	r = 0;
	for (size_t k = 0; k < nm && r == 0; k++) {
		unsigned char *blob = NULL;
		size_t blen = 0;
		bool ch = false;
		char *ids[4] = { NULL, NULL, NULL, NULL };

		st = db_stmt(
			s,
			"SELECT subject, from_name, from_email, blob, message_id,"
			" in_reply_to, content_hash, ids_sealed FROM messages"
			" WHERE id = ?1",
			err);
		if (!st) {
			r = ERR_IO;
			break;
		}
		db_int(st, 1, mids[k]);
		if ((r = db_step(st)) != 1) {
			db_reset(st);
			if (r < 0) {
				r = store_dberr(s, err, "cannot read a message to seal again");
				break;
			}
			r = 0;
			continue;
		}
		r = 0;
		for (int i = 0; i < 3; i++)
			f[i] = db_col_str(st, i);
		blob = db_col_bytes(st, 3, &blen);
		for (int i = 0; i < 4; i++)
			ids[i] = db_col_str(st, 4 + i);
		db_reset(st);
		for (int i = 0; i < 3 && r == 0; i++)
			r = reseal_text(s, "messages", mcol[i], mids[k], &f[i], &ch, err);
		if (r == 0 && team_sealed_blob(blob, blen))
			r = reseal_blob(s, mids[k], &blob, &blen, &ch, err);
		if (r == 0)
			r = key_ids(s, mids[k], ids, &ch, err);
		if (r == 0 && ch) {
			st = db_stmt(
				s,
				"UPDATE messages SET subject = ?2, from_name = ?3,"
				" from_email = ?4, blob = ?5, message_id = ?6,"
				" in_reply_to = ?7, content_hash = ?8, ids_sealed = ?9"
				" WHERE id = ?1",
				err);
			if (!st)
				r = ERR_IO;
			else {
				db_int(st, 1, mids[k]);
				db_text(st, 2, f[0]);
				db_text(st, 3, f[1]);
				db_text(st, 4, f[2]);
				db_blob(st, 5, blob, blen);
				for (int i = 0; i < 4; i++)
					db_text(st, 6 + i, ids[i]);
				r = db_run(s, st, NULL, "cannot seal a message again", NULL, err);
			}
			*changed = true;
		}
		for (int i = 0; i < 3; i++) {
			free(f[i]);
			f[i] = NULL;
		}
		for (int i = 0; i < 4; i++) {
			free(ids[i]);
			ids[i] = NULL;
		}
		free(blob);
	}
	free(mids);
	return r;
}
