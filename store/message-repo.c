/*
 * The messages of a report's thread.  A message is known by the hash of
 * its content, which is UNIQUE, so a re-import can never store a message
 * twice, even when two officers import the same mailbox at the same
 * moment: the second insert finds the row there and is told so
 * (ERR_DUPLICATE), whichever engine.  A Message-ID is only what the
 * sender claims: several messages may carry the same one, and each is
 * marked message_id_reused.
 */
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"

void message_release(struct message *m)
{
	free(m->message_id);
	free(m->content_hash);
	free(m->in_reply_to);
	free(m->from_name);
	free(m->from_email);
	free(m->subject);
	free(m->fingerprint);
	free(m->blob);
	free(m->blob_kind);
	free(m->plain_sha256);
	free(m->ids_sealed);
	memset(m, 0, sizeof(*m));
}

static void read_id(struct stmt *st, void *elem)
{
	*(int64_t *)elem = db_col_int(st, 0);
}

/* The oldest message with a Message-ID or content hash: ?1-?4 as
 * find_bind binds them (its report, then its row). */
#define FIND_OLDEST                                                 \
	"SELECT report_id, id FROM messages"                        \
	" WHERE (CAST(?1 AS TEXT) IS NOT NULL AND message_id = ?1)" \
	" OR (CAST(?2 AS TEXT) IS NOT NULL AND content_hash = ?2)"  \
	" OR (CAST(?3 AS TEXT) IS NOT NULL AND message_id = ?3)"    \
	" OR (CAST(?4 AS TEXT) IS NOT NULL AND content_hash = ?4)"  \
	" ORDER BY id LIMIT 1"

/*
 * The lookup's parameters (find_bind binds them, or with no statement
 * only frees them).  Keyed: the server sees neither value.
 * Messages stored before keyed lookups are found by the clear ones (?3,
 * ?4) until a roster reseal has keyed them.  All of it before the statement: making
 * the keyed values may read the store (the team key's wrapped copies),
 * and a failure there then leaves no statement half bound.
 */
struct find_keys {
	char *kid, *khash;
	bool clear;
};

static int find_keys(struct store *s, const char *message_id,
		     const char *content_hash, struct find_keys *k,
		     struct err *err)
{
	bool failed;

	memset(k, 0, sizeof(*k));
	if (!(k->kid =
		      store_keyed(s, "message-id", message_id, &failed, err)) &&
	    failed)
		return ERR_CRYPTO;
	if (!(k->khash =
		      store_keyed(s, "content", content_hash, &failed, err)) &&
	    failed) {
		free(k->kid);
		return ERR_CRYPTO;
	}
	k->clear = s->sealer && store_has_clear_ids(s);
	return 0;
}

static void find_bind(struct stmt *st, struct find_keys *k,
		      const char *message_id, const char *content_hash)
{
	if (st) {
		db_text(st, 1, k->kid);
		db_text(st, 2, k->khash);
		db_text(st, 3, k->clear ? message_id : NULL);
		db_text(st, 4, k->clear ? content_hash : NULL);
	}
	free(k->kid);
	free(k->khash);
	k->kid = k->khash = NULL;
}

struct found {
	int64_t report_id, row;
};

static void read_found(struct stmt *st, void *elem)
{
	struct found *f = elem;

	f->report_id = db_col_int(st, 0);
	f->row = db_col_int(st, 1);
}

/* The keyed values as the generation `back` before the newest made them
 * (find_keys' for back 0); ERR_NOTFOUND when there is no such
 * generation. */
static int find_keys_older(struct store *s, const char *message_id,
			   const char *content_hash, unsigned back,
			   struct find_keys *k, struct err *err)
{
	bool failed;

	memset(k, 0, sizeof(*k));
	k->kid = store_keyed_older(s, "message-id", message_id, back, &failed,
				   err);
	if (!failed)
		k->khash = store_keyed_older(s, "content", content_hash, back,
					     &failed, err);
	if (failed) {
		find_bind(NULL, k, NULL, NULL);
		return ERR_CRYPTO;
	}
	return k->kid || k->khash ? 0 : ERR_NOTFOUND;
}

/*
 * The oldest message stored under an older generation's keyed values
 * than the newest (rows stored before a rotation), or *f untouched when
 * none: one lookup a generation, from the newest back.  A team that
 * never rotated has no older generation and this asks nothing.
 */
static int find_older(struct store *s, const char *message_id,
		      const char *content_hash, struct found *f,
		      struct err *err)
{
	struct find_keys k;
	struct found g;
	struct stmt *st;
	int r;

	if (!s->sealer || (!message_id && !content_hash))
		return 0;
	for (unsigned back = 1;; back++) {
		if ((r = find_keys_older(s, message_id, content_hash, back, &k,
					 err)) == ERR_NOTFOUND)
			return 0;
		if (r < 0)
			return r;
		if (!(st = db_stmt(s, FIND_OLDEST, err))) {
			find_bind(NULL, &k, NULL, NULL);
			return ERR_IO;
		}
		find_bind(st, &k, NULL, NULL);
		r = db_row(s, st, &g, read_found, "cannot look up a message",
			   err);
		if (r == 0 && (!f->row || g.row < f->row))
			*f = g;
		else if (r < 0 && r != ERR_NOTFOUND)
			return r;
	}
}

int store_message_find(struct store *s, const char *message_id,
		       const char *content_hash, int64_t *report_id,
		       struct err *err)
{
	struct find_keys k;
	struct found f = { 0, 0 };
	struct stmt *st;
	int r;

	if ((r = find_keys(s, message_id, content_hash, &k, err)) < 0)
		return r;
	if (!(st = db_stmt(s, FIND_OLDEST, err))) {
		find_bind(NULL, &k, NULL, NULL);
		return ERR_IO;
	}
	find_bind(st, &k, message_id, content_hash);
	r = db_row(s, st, &f, read_found, "cannot look up a message", err);
	if (r < 0 && r != ERR_NOTFOUND)
		return r;
	if ((r = find_older(s, message_id, content_hash, &f, err)) < 0)
		return r;
	if (!f.row)
		return ERR_NOTFOUND;
	*report_id = f.report_id;
	return 0;
}

struct claim {
	int64_t dup, report_row, message_row;
};

static void read_claim(struct stmt *st, void *elem)
{
	struct claim *c = elem;

	c->dup = db_col_int(st, 0);
	c->report_row = db_col_int(st, 1);
	c->message_row = db_col_int(st, 2);
}

int store_import_claim(struct store *s, const char *content_hash,
		       bool new_report, int64_t *dup_report,
		       int64_t *report_row, int64_t *message_row,
		       struct err *err)
{
	struct claim c = { 0, 0, 0 };
	struct find_keys k;
	struct stmt *st;
	int r;

	*dup_report = *report_row = *message_row = 0;
	if (s->kind != STORE_POSTGRESQL || !s->sealer) {
		/* No wait to save: the lookup, then the ids. */
		r = store_message_find(s, NULL, content_hash, dup_report, err);
		if (r != ERR_NOTFOUND || !s->sealer)
			return r == ERR_NOTFOUND ? 0 : r;
		if (new_report &&
		    (r = store_next_id(s, "reports", report_row, err)) < 0)
			return r;
		return store_next_id(s, "messages", message_row, err);
	}
	/* Under an older generation's keyed hash (stored before a
	 * rotation): a lookup a generation, none when the team never
	 * rotated. */
	{
		struct found f = { 0, 0 };

		if ((r = find_older(s, NULL, content_hash, &f, err)) < 0)
			return r;
		if (f.row) {
			*dup_report = f.report_id;
			return 0;
		}
	}
	/* One statement: the ids are drawn (CASE runs nextval only when
	 * its condition holds) only when the content is not stored. */
	if ((r = find_keys(s, NULL, content_hash, &k, err)) < 0)
		return r;
	if (!(st = db_stmt(
		      s,
		      "WITH f AS (" FIND_OLDEST ")"
		      " SELECT coalesce((SELECT report_id FROM f), 0),"
		      " CASE WHEN NOT EXISTS (SELECT FROM f) AND ?5 = 1"
		      " THEN nextval(pg_get_serial_sequence('secteam.reports', 'id'))"
		      " ELSE 0 END,"
		      " CASE WHEN NOT EXISTS (SELECT FROM f)"
		      " THEN nextval(pg_get_serial_sequence('secteam.messages', 'id'))"
		      " ELSE 0 END",
		      err))) {
		find_bind(NULL, &k, NULL, NULL);
		return ERR_IO;
	}
	find_bind(st, &k, NULL, content_hash);
	db_int(st, 5, new_report);
	/* One row, always: none is a failure of the server. */
	if ((r = db_row(s, st, &c, read_claim, "cannot look up a message",
			err)) < 0)
		return r == ERR_NOTFOUND
			? err_setc(err, ERR_IO,
				   "cannot look up a message in %s", s->where)
			: r;
	if (!c.dup && (c.message_row < 1 || (new_report && c.report_row < 1)))
		return err_setc(err, ERR_IO, "cannot draw the next id in %s",
				s->where);
	*dup_report = c.dup;
	*report_row = c.report_row;
	*message_row = c.message_row;
	return 0;
}

static void read_ref(struct stmt *st, void *elem)
{
	struct message_ref *r = elem;

	r->row = db_col_int(st, 0);
	r->report_id = db_col_int(st, 1);
}

static int ref_cmp(const void *a, const void *b)
{
	const struct message_ref *x = a, *y = b;

	return (x->row > y->row) - (x->row < y->row);
}

/* The rows holding kid (and clear, when not NULL) but except_row,
 * appended to *all. */
static int holders_of(struct store *s, const char *kid, const char *clear,
		      int64_t except_row, struct message_ref **all, size_t *n,
		      struct err *err)
{
	struct message_ref *got;
	size_t k;
	struct stmt *st;
	int r;

	if (!(st = db_stmt(
		      s,
		      "SELECT id, report_id FROM messages WHERE (message_id = ?1"
		      " OR message_id = ?3) AND id <> ?2 ORDER BY id",
		      err)))
		return ERR_IO;
	db_text(st, 1, kid);
	db_int(st, 2, except_row);
	db_text(st, 3, clear);
	if ((r = db_rows(s, st, (void **)&got, &k, sizeof(*got), read_ref, NULL,
			 "cannot look up a Message-ID", err)) < 0)
		return r;
	if (k) {
		*all = xrealloc(*all, (*n + k) * sizeof(**all));
		memcpy(*all + *n, got, k * sizeof(*got));
		*n += k;
	}
	free(got);
	return 0;
}

int store_message_id_holders(struct store *s, const char *message_id,
			     int64_t except_row, struct message_ref *out,
			     size_t max, size_t *n, struct err *err)
{
	struct message_ref *all = NULL;
	size_t k = 0;
	char *kid;
	bool failed, clear;
	int r;

	*n = 0;
	if (!message_id)
		return 0;
	/* Before the statement, as store_message_find. */
	if (!(kid = store_keyed(s, "message-id", message_id, &failed, err)))
		return ERR_CRYPTO;
	clear = s->sealer && store_has_clear_ids(s);
	r = holders_of(s, kid, clear ? message_id : NULL, except_row, &all, &k,
		       err);
	free(kid);
	/* Then under each older generation, as find_older. */
	for (unsigned back = 1; r == 0; back++) {
		if (!(kid = store_keyed_older(s, "message-id", message_id, back,
					      &failed, err))) {
			r = failed ? ERR_CRYPTO : 0;
			break;
		}
		r = holders_of(s, kid, NULL, except_row, &all, &k, err);
		free(kid);
	}
	if (r < 0) {
		free(all);
		return r;
	}
	if (k > 1)
		qsort(all, k, sizeof(*all), ref_cmp);
	for (size_t i = 0; i < k && i < max; i++)
		out[i] = all[i];
	*n = k;
	free(all);
	return 0;
}

/*
 * A message's Message-ID and In-Reply-To are stored keyed, for lookups,
 * and sealed together (ids_sealed) for what needs them clear (a reply's
 * References, the JSON): "+ID" or "-" for none, a line each.
 */
char *message_ids_text(const char *message_id, const char *in_reply_to)
{
	return xasprintf("%s%s\n%s%s", message_id ? "+" : "-",
			 message_id ? message_id : "", in_reply_to ? "+" : "-",
			 in_reply_to ? in_reply_to : "");
}

static void ids_from_text(struct message *m, const char *text)
{
	const char *nl = strchr(text, '\n');

	free(m->message_id);
	free(m->in_reply_to);
	m->message_id = m->in_reply_to = NULL;
	if (!nl)
		return;
	if (text[0] == '+')
		m->message_id = xstrndup(text + 1, (size_t)(nl - text - 1));
	if (nl[1] == '+')
		m->in_reply_to = xstrdup(nl + 2);
}

/* A message's sealed fields (the report's are in report-repo.c). */
static void open_message(struct store *s, struct message *m, char *ids)
{
	store_open_field(s, "messages", "subject", m->id, &m->subject);
	store_open_field(s, "messages", "from_name", m->id, &m->from_name);
	store_open_field(s, "messages", "from_email", m->id, &m->from_email);
	if (ids) {
		store_open_field(s, "messages", "ids", m->id, &ids);
		if (str_starts(ids, STORE_UNOPENED)) {
			free(m->message_id);
			m->message_id = xstrdup(ids);
			free(m->in_reply_to);
			m->in_reply_to = NULL;
		} else {
			ids_from_text(m, ids);
		}
		free(ids);
	}
}

/* A message row's columns and values (the caller closes both lists). */
#define MESSAGE_INSERT                                                      \
	"INSERT INTO messages (report_id, message_id, content_hash,"        \
	" in_reply_to, from_name, from_email, subject, date, imported,"     \
	" encrypted, verdict, fingerprint, signer_matches_from, blob_kind," \
	" blob, blob_content, plain_sha256"
#define MESSAGE_VALUES                                                          \
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14," \
	" ?15, ?16, ?17"

int store_message_insert(struct store *s, const struct message *m, int64_t *id,
			 struct err *err)
{
	struct stmt *st;
	int64_t got = 0, row = 0;
	char *subj = NULL, *name = NULL, *email = NULL, *why = NULL;
	char *kid = NULL, *khash = NULL, *kirt = NULL, *ids = NULL, *clear_ids;
	unsigned char *blob = NULL;
	size_t blob_len = m->blob_len;
	bool f1 = false, f2 = false, f3 = false, claimed;
	int r;

	if (m->blob_plain && !s->sealer)
		return err_setc(err, ERR_CRYPTO,
				"cannot seal a message without a team key");
	row = m->drawn_id;
	claimed = row && s->sealer;
	if (s->sealer && !row &&
	    (r = store_next_id(s, "messages", &row, err)) < 0)
		return r;
	if (m->blob_plain &&
	    !(blob = s->sealer->seal(s->sealer->data, "messages", "blob", row,
				     m->blob_plain, m->blob_plain_len,
				     &blob_len, &why))) {
		r = err_setc(err, ERR_CRYPTO, "cannot seal the message: %s",
			     why ? why : "no team key");
		free(why);
		return r;
	}
	subj = store_seal_field(s, "messages", "subject", row, m->subject, &f1,
				err);
	name = f1 ? NULL
		  : store_seal_field(s, "messages", "from_name", row,
				     m->from_name, &f2, err);
	email = f1 || f2 ? NULL
			 : store_seal_field(s, "messages", "from_email", row,
					    m->from_email, &f3, err);
	if (f1 || f2 || f3) {
		r = ERR_CRYPTO;
		goto out;
	}
	/* Lookups keyed, the clear Message-IDs sealed. */
	if (s->sealer) {
		clear_ids = message_ids_text(m->message_id, m->in_reply_to);
		ids = store_seal_field(s, "messages", "ids", row, clear_ids,
				       &f1, err);
		free(clear_ids);
		if (!f1)
			kid = store_keyed(s, "message-id", m->message_id, &f1,
					  err);
		if (!f1)
			kirt = store_keyed(s, "message-id", m->in_reply_to, &f1,
					   err);
		if (!f1)
			khash = store_keyed(s, "content", m->content_hash, &f1,
					    err);
		if (f1) {
			r = ERR_CRYPTO;
			goto out;
		}
	}
	if (claimed)
		st = db_stmt(s,
			     MESSAGE_INSERT ", id, ids_sealed)" MESSAGE_VALUES
					    ", ?18, ?19)",
			     err);
	else if (row)
		st = db_stmt(s,
			     MESSAGE_INSERT
			     ", id, ids_sealed)" MESSAGE_VALUES
			     ", ?18, ?19) ON CONFLICT DO NOTHING RETURNING id",
			     err);
	else
		st = db_stmt(s,
			     MESSAGE_INSERT
			     ")" MESSAGE_VALUES
			     ") ON CONFLICT DO NOTHING RETURNING id",
			     err);
	if (!st) {
		r = ERR_IO;
		goto out;
	}
	db_int(st, 1, m->report_id);
	db_text(st, 2, s->sealer ? kid : m->message_id);
	db_text(st, 3, s->sealer ? khash : m->content_hash);
	db_text(st, 4, s->sealer ? kirt : m->in_reply_to);
	db_text(st, 5, name);
	db_text(st, 6, email);
	db_text(st, 7, subj);
	db_int(st, 8, (int64_t)m->date);
	db_int(st, 9, (int64_t)m->imported);
	db_int(st, 10, m->encrypted);
	db_text(st, 11, sig_verdict_name(m->verdict));
	db_text(st, 12, m->fingerprint);
	db_int(st, 13, m->signer_matches_from);
	db_text(st, 14, blob ? "sealed" : m->blob_kind);
	db_blob(st, 15, blob ? blob : m->blob, blob_len);
	db_int(st, 16, m->blob_form);
	db_text(st, 17, m->plain_sha256);
	if (row) {
		db_int(st, 18, row);
		db_text(st, 19, ids);
	}
	/* Claimed under the write lock (store_import_claim found no such
	 * content), nothing is read back: on a team server the row goes
	 * with the next statement that waits.  A conflict, which the lock
	 * rules out, then fails the transaction (there is no ON CONFLICT:
	 * never a report left without its message). */
	if (claimed) {
		if ((r = db_send(s, st, "cannot store the message", err)) == 0)
			*id = row;
		goto out;
	}
	/* A conflict returns no row (and leaves a PostgreSQL transaction
	 * usable, which an error would not). */
	if ((r = db_run(s, st, &got, "cannot store the message",
			"message already stored", err)) < 0)
		goto out;
	if (!got) {
		r = err_setc(err, ERR_DUPLICATE, "message already stored");
		goto out;
	}
	*id = got;
	r = 0;
out:
	free(subj);
	free(name);
	free(email);
	free(kid);
	free(kirt);
	free(khash);
	free(ids);
	free(blob);
	return r;
}

/* The blob column comes last: read only when asked for. */
static void read_message(struct stmt *st, void *elem)
{
	struct message *m = elem;

	m->id = db_col_int(st, 0);
	m->report_id = db_col_int(st, 1);
	m->message_id = db_col_str(st, 2);
	m->content_hash = db_col_str(st, 3);
	m->in_reply_to = db_col_str(st, 4);
	m->from_name = db_col_str(st, 5);
	m->from_email = db_col_str(st, 6);
	m->subject = db_col_str(st, 7);
	m->date = (time_t)db_col_int(st, 8);
	m->imported = (time_t)db_col_int(st, 9);
	m->encrypted = db_col_int(st, 10);
	m->verdict = db_col_verdict(st, 11);
	m->fingerprint = db_col_str(st, 12);
	m->signer_matches_from = db_col_int(st, 13);
	m->blob_kind = db_col_str(st, 14);
	m->blob_form = (enum blob_form)db_col_int(st, 15);
	m->message_id_reused = db_col_int(st, 16);
	m->plain_sha256 = db_col_str(st, 17);
	m->ids_sealed = db_col_str(st, 18);
	if (!db_col_null(st, 19))
		m->blob = db_col_bytes(st, 19, &m->blob_len);
}

/* Whether another message carries m's Message-ID (read_message's 16;
 * 1 or 0 on both engines). */
#define REUSED                                        \
	" CASE WHEN EXISTS (SELECT 1 FROM messages o" \
	"  WHERE o.message_id = m.message_id AND o.id <> m.id) THEN 1 ELSE 0 END,"

static void release_message(void *elem)
{
	message_release(elem);
}

int store_messages_get(struct store *s, int64_t report_id, bool with_blob,
		       struct message **out, size_t *n, struct err *err)
{
	struct stmt *st = db_stmt(
		s,
		"SELECT id, report_id, message_id, content_hash, in_reply_to,"
		" from_name, from_email, subject, date, imported, encrypted, verdict,"
		" fingerprint, signer_matches_from, blob_kind, blob_content," REUSED
		" plain_sha256, ids_sealed, CASE WHEN ?2 <> 0 THEN blob END"
		" FROM messages m WHERE report_id = ?1 ORDER BY id",
		err);

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	db_int(st, 1, report_id);
	db_int(st, 2, with_blob);
	int rc = db_rows(s, st, (void **)out, n, sizeof(**out), read_message,
			 release_message, "cannot read messages", err);

	for (size_t i = 0; rc == 0 && i < *n; i++) {
		open_message(s, &(*out)[i], (*out)[i].ids_sealed);
		(*out)[i].ids_sealed = NULL;
	}
	return rc;
}

int store_signature_add(struct store *s, int64_t message_row,
			enum sig_verdict verdict, const char *fingerprint,
			time_t created, struct err *err)
{
	struct stmt *st = db_stmt(
		s,
		"INSERT INTO signatures (message_id, verdict, fingerprint, created)"
		" VALUES (?1, ?2, ?3, ?4)",
		err);

	if (!st)
		return ERR_IO;
	db_int(st, 1, message_row);
	db_text(st, 2, sig_verdict_name(verdict));
	db_text(st, 3, fingerprint);
	db_int(st, 4, (int64_t)created);
	return db_send(s, st, "cannot store a signature", err);
}

int store_message_report(struct store *s, int64_t message_row,
			 int64_t *report_id, struct err *err)
{
	struct stmt *st =
		db_stmt(s, "SELECT report_id FROM messages WHERE id = ?1", err);
	int rc;

	if (!st)
		return ERR_IO;
	db_int(st, 1, message_row);
	rc = db_row(s, st, report_id, read_id, "cannot look up a message", err);
	if (rc == ERR_NOTFOUND)
		return err_setc(err, ERR_NOTFOUND, "no message %lld",
				(long long)message_row);
	return rc;
}

static void read_look(struct stmt *st, void *elem)
{
	struct message_look *l = elem;

	l->id = db_col_int(st, 0);
	l->look = db_col_int(st, 1) != 0;
	l->size = db_col_int(st, 2);
}

int store_message_reseal_list(struct store *s, const void *sealed_prefix,
			      size_t prefix_len, struct message_look **out,
			      size_t *n, struct err *err)
{
	/* (substr counts bytes of a blob on both engines; the length is a
	 * parameter of its own, as PostgreSQL would take length(?1) for
	 * text's) */
	struct stmt *st = db_stmt(
		s,
		"SELECT id, CASE WHEN blob_kind = 'sealed'"
		" AND substr(blob, 1, ?2) = ?1"
		" AND (blob_content <> 0 OR encrypted = 0) THEN 0 ELSE 1 END,"
		" coalesce(length(blob), 0) FROM messages ORDER BY id",
		err);

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	db_blob(st, 1, sealed_prefix, prefix_len);
	db_int(st, 2, (int64_t)prefix_len);
	return db_rows(s, st, (void **)out, n, sizeof(**out), read_look, NULL,
		       "cannot list messages", err);
}

static void read_message_key(struct stmt *st, void *elem)
{
	struct message_key *k = elem;

	k->report_id = db_col_int(st, 0);
	k->id = db_col_int(st, 1);
	db_col_copy(st, 2, k->key, sizeof(k->key));
}

int store_message_keys(struct store *s, struct message_key **out, size_t *n,
		       struct err *err)
{
	/* What the message opens to (the import's digest), how it is kept
	 * and its size: another body stored in its place changes the size
	 * or the kind, and a filter made from the old one is not used. */
	struct stmt *st = db_stmt(
		s,
		"SELECT report_id, id, coalesce(plain_sha256, '-') || ':' || blob_kind"
		" || ':' || CAST(length(blob) AS TEXT) FROM messages ORDER BY report_id, id",
		err);

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	return db_rows(s, st, (void **)out, n, sizeof(**out), read_message_key,
		       NULL, "cannot list messages", err);
}

static void read_message_id(struct stmt *st, void *elem)
{
	struct message_key *k = elem;

	k->report_id = db_col_int(st, 0);
	k->id = db_col_int(st, 1);
	k->key[0] = '\0';
}

int store_message_ids(struct store *s, struct message_key **out, size_t *n,
		      struct err *err)
{
	/* Both in the index on report_id (its rows hold the row id): no
	 * message row, and so no blob, is read. */
	struct stmt *st = db_stmt(
		s, "SELECT report_id, id FROM messages ORDER BY report_id, id",
		err);

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	return db_rows(s, st, (void **)out, n, sizeof(**out), read_message_id,
		       NULL, "cannot list messages", err);
}

/* The messages of reports ids (the first of each alone when first_only),
 * by report then id, each with the key of its body (store_message_keys's). */
#define MESSAGE_KEY_COLS                                                        \
	"SELECT report_id, id, coalesce(plain_sha256, '-') || ':' || blob_kind" \
	" || ':' || CAST(length(blob) AS TEXT) FROM messages m"                 \
	" WHERE m.report_id IN (" DB_IDS ")"

int store_message_keys_of(struct store *s, const int64_t *report_ids, size_t n,
			  bool first_only, struct message_key **out,
			  size_t *nout, struct err *err)
{
	static const char all[] = MESSAGE_KEY_COLS
		" ORDER BY m.report_id, m.id";
	static const char first[] = MESSAGE_KEY_COLS
		" AND m.id = (SELECT min(x.id) FROM messages x"
		" WHERE x.report_id = m.report_id) ORDER BY m.report_id, m.id";

	*out = NULL;
	*nout = 0;
	return db_rows_ids(s, first_only ? first : all, report_ids, n,
			   (void **)out, nout, sizeof(**out), read_message_key,
			   NULL, "cannot list messages", err);
}

/* One message's whole row, with its blob, as read_message reads it. */
#define MESSAGE_ROW                                                            \
	"SELECT id, report_id, message_id, content_hash, in_reply_to,"         \
	" from_name, from_email, subject, date, imported, encrypted, verdict," \
	" fingerprint, signer_matches_from, blob_kind, blob_content," REUSED   \
	" plain_sha256, ids_sealed, blob FROM messages m "

int store_message_get(struct store *s, int64_t row, struct message *m,
		      struct err *err)
{
	struct stmt *st = db_stmt(s, MESSAGE_ROW "WHERE id = ?1", err);
	int rc;

	memset(m, 0, sizeof(*m));
	if (!st)
		return ERR_IO;
	db_int(st, 1, row);
	rc = db_row(s, st, m, read_message, "cannot read a message", err);
	if (rc == ERR_NOTFOUND)
		return err_setc(err, ERR_NOTFOUND, "no message %lld",
				(long long)row);
	if (rc == 0) {
		open_message(s, m, m->ids_sealed);
		m->ids_sealed = NULL;
	}
	return rc;
}

int store_messages_get_ids(struct store *s, const int64_t *ids, size_t n,
			   struct message **out, size_t *nout, struct err *err)
{
	int rc = db_rows_ids(s,
			     MESSAGE_ROW "WHERE id IN (" DB_IDS ") ORDER BY id",
			     ids, n, (void **)out, nout, sizeof(**out),
			     read_message, release_message,
			     "cannot read messages", err);

	for (size_t i = 0; rc == 0 && i < *nout; i++) {
		open_message(s, &(*out)[i], (*out)[i].ids_sealed);
		(*out)[i].ids_sealed = NULL;
	}
	return rc;
}

int store_message_set_blob_plain(struct store *s, int64_t row,
				 const unsigned char *plain, size_t len,
				 enum blob_form form, struct err *err)
{
	char *why = NULL;
	unsigned char *blob;
	size_t n;
	int r;

	if (!s->sealer)
		return err_setc(err, ERR_CRYPTO,
				"cannot seal message %lld without a team key",
				(long long)row);
	if (!(blob = s->sealer->seal(s->sealer->data, "messages", "blob", row,
				     plain, len, &n, &why))) {
		r = err_setc(err, ERR_CRYPTO, "cannot seal message %lld: %s",
			     (long long)row, why ? why : "no team key");
		free(why);
		return r;
	}
	r = store_message_set_blob(s, row, blob, n, "sealed", form, err);
	free(blob);
	return r;
}

int store_message_set_blob(struct store *s, int64_t row,
			   const unsigned char *blob, size_t len,
			   const char *kind, enum blob_form form,
			   struct err *err)
{
	/* The digest of what the import verified stays (the store refuses
	 * another): a message only changes how it is kept. */
	static const char lite[] =
		"UPDATE messages SET blob = ?2, blob_kind = ?3, blob_content = ?4"
		" WHERE id = ?1";
	static const char pg[] =
		"SELECT secteam.set_blob(?1, ?2, ?3, ?4, NULL)";
	struct stmt *st = db_stmt(s, db_write_sql(s, lite, pg), err);
	int64_t changed = 0;
	int r;

	if (!st)
		return ERR_IO;
	db_int(st, 1, row);
	db_blob(st, 2, blob, len);
	db_text(st, 3, kind);
	db_int(st, 4, form);
	if ((r = db_write(s, st, &changed, "cannot replace a stored body",
			  err)) < 0)
		return r;
	if (changed == 0)
		return err_setc(err, ERR_NOTFOUND, "no message %lld",
				(long long)row);
	return 0;
}
