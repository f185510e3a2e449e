/*
 * The messages of a report's thread.  A message is known by the hash of
 * its content, which is UNIQUE, so a re-import can never store a message
 * twice, even when two officers import the same mailbox at the same
 * moment.  A Message-ID is only what the sender claims: several messages
 * may carry the same one, and each is marked message_id_reused.
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
	free(m->verdict);
	free(m->fingerprint);
	free(m->blob);
	free(m->blob_kind);
	memset(m, 0, sizeof(*m));
}

int store_message_find(struct store *s, const char *message_id,
		       const char *content_hash, int64_t *report_id,
		       struct err *err)
{
	sqlite3_stmt *st = store_stmt(s,
		"SELECT report_id FROM messages WHERE (?1 IS NOT NULL AND message_id = ?1)"
		" OR (?2 IS NOT NULL AND content_hash = ?2) ORDER BY id LIMIT 1", err);
	int rc;

	if (!st)
		return ERR_IO;
	store_bind_text(st, 1, message_id);
	store_bind_text(st, 2, content_hash);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*report_id = sqlite3_column_int64(st, 0);
		sqlite3_reset(st);
		return 0;
	}
	if (rc == SQLITE_DONE)
		return ERR_NOTFOUND;
	return store_dberr(s, err, "cannot look up a message");
}

int store_message_id_holders(struct store *s, const char *message_id,
			     int64_t except_row, struct message_ref *out,
			     size_t max, size_t *n, struct err *err)
{
	sqlite3_stmt *st = store_stmt(s,
		"SELECT id, report_id FROM messages WHERE message_id = ?1"
		" AND id <> ?2 ORDER BY id", err);
	int rc;

	*n = 0;
	if (!st)
		return ERR_IO;
	if (!message_id)
		return 0;
	store_bind_text(st, 1, message_id);
	sqlite3_bind_int64(st, 2, except_row);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n < max) {
			out[*n].row = sqlite3_column_int64(st, 0);
			out[*n].report_id = sqlite3_column_int64(st, 1);
		}
		(*n)++;
	}
	if (rc != SQLITE_DONE)
		return store_dberr(s, err, "cannot look up a Message-ID");
	return 0;
}

int store_message_insert(struct store *s, const struct message *m,
			 int64_t *id, struct err *err)
{
	sqlite3_stmt *st = store_stmt(s,
		"INSERT INTO messages (report_id, message_id, content_hash,"
		" in_reply_to, from_name, from_email, subject, date, imported,"
		" encrypted, verdict, fingerprint, signer_matches_from, blob_kind, blob)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
		err);

	if (!st)
		return ERR_IO;
	sqlite3_bind_int64(st, 1, m->report_id);
	store_bind_text(st, 2, m->message_id);
	store_bind_text(st, 3, m->content_hash);
	store_bind_text(st, 4, m->in_reply_to);
	store_bind_text(st, 5, m->from_name);
	store_bind_text(st, 6, m->from_email);
	store_bind_text(st, 7, m->subject);
	sqlite3_bind_int64(st, 8, (sqlite3_int64)m->date);
	sqlite3_bind_int64(st, 9, (sqlite3_int64)m->imported);
	sqlite3_bind_int(st, 10, m->encrypted);
	store_bind_text(st, 11, m->verdict);
	store_bind_text(st, 12, m->fingerprint);
	sqlite3_bind_int(st, 13, m->signer_matches_from);
	store_bind_text(st, 14, m->blob_kind);
	sqlite3_bind_blob64(st, 15, m->blob, m->blob_len, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE) {
		if ((sqlite3_extended_errcode(s->db)) == SQLITE_CONSTRAINT_UNIQUE) {
			sqlite3_reset(st);
			return err_setc(err, ERR_DUPLICATE, "message already stored");
		}
		return store_dberr(s, err, "cannot store the message");
	}
	*id = sqlite3_last_insert_rowid(s->db);
	sqlite3_reset(st);
	return 0;
}

int store_messages_get(struct store *s, int64_t report_id, bool with_blob,
		       struct message **out, size_t *n, struct err *err)
{
	sqlite3_stmt *st = store_stmt(s,
		"SELECT id, report_id, message_id, content_hash, in_reply_to,"
		" from_name, from_email, subject, date, imported, encrypted, verdict,"
		" fingerprint, signer_matches_from, blob_kind,"
		" CASE WHEN ?2 THEN blob END,"
		" EXISTS (SELECT 1 FROM messages o WHERE o.message_id = m.message_id"
		"         AND o.id <> m.id)"
		" FROM messages m WHERE report_id = ?1 ORDER BY id", err);
	int rc;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	sqlite3_bind_int64(st, 1, report_id);
	sqlite3_bind_int(st, 2, with_blob);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct message *m;
		*out = xrealloc(*out, (*n + 1) * sizeof(**out));
		m = &(*out)[(*n)++];
		memset(m, 0, sizeof(*m));
		m->id = sqlite3_column_int64(st, 0);
		m->report_id = sqlite3_column_int64(st, 1);
		m->message_id = store_col_text(st, 2);
		m->content_hash = store_col_text(st, 3);
		m->in_reply_to = store_col_text(st, 4);
		m->from_name = store_col_text(st, 5);
		m->from_email = store_col_text(st, 6);
		m->subject = store_col_text(st, 7);
		m->date = (time_t)sqlite3_column_int64(st, 8);
		m->imported = (time_t)sqlite3_column_int64(st, 9);
		m->encrypted = sqlite3_column_int(st, 10);
		m->verdict = store_col_text(st, 11);
		m->fingerprint = store_col_text(st, 12);
		m->signer_matches_from = sqlite3_column_int(st, 13);
		m->blob_kind = store_col_text(st, 14);
		m->message_id_reused = sqlite3_column_int(st, 16);
		if (with_blob) {
			m->blob_len = (size_t)sqlite3_column_bytes(st, 15);
			m->blob = xmemdup(sqlite3_column_blob(st, 15) ?
						  sqlite3_column_blob(st, 15) : "",
					  m->blob_len);
		}
	}
	if (rc != SQLITE_DONE)
		return store_dberr(s, err, "cannot read messages");
	return 0;
}

int store_signature_add(struct store *s, int64_t message_row,
			const char *verdict, const char *fingerprint,
			time_t created, struct err *err)
{
	sqlite3_stmt *st = store_stmt(s,
		"INSERT INTO signatures (message_id, verdict, fingerprint, created)"
		" VALUES (?1, ?2, ?3, ?4)", err);

	if (!st)
		return ERR_IO;
	sqlite3_bind_int64(st, 1, message_row);
	store_bind_text(st, 2, verdict);
	store_bind_text(st, 3, fingerprint);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)created);
	if (sqlite3_step(st) != SQLITE_DONE)
		return store_dberr(s, err, "cannot store a signature");
	return 0;
}

int store_message_report(struct store *s, int64_t message_row,
			 int64_t *report_id, struct err *err)
{
	sqlite3_stmt *st = store_stmt(s,
		"SELECT report_id FROM messages WHERE id = ?1", err);
	int rc;

	if (!st)
		return ERR_IO;
	sqlite3_bind_int64(st, 1, message_row);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*report_id = sqlite3_column_int64(st, 0);
		sqlite3_reset(st);
		return 0;
	}
	if (rc == SQLITE_DONE)
		return err_setc(err, ERR_NOTFOUND, "no message %lld",
				(long long)message_row);
	return store_dberr(s, err, "cannot look up a message");
}
