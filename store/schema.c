/*
 * The schema, as numbered migrations (newsboat's schemaPatches): entry i
 * brings PRAGMA user_version from i to i+1, inside one transaction.  Never
 * edit a migration that has shipped; add the next one.
 *
 * Migrations run with foreign keys off (store_open turns them on after),
 * as SQLite's procedure for rebuilding a table needs; a foreign key
 * check ends them.
 *
 * The events table is append-only: triggers refuse UPDATE and DELETE, so
 * the timeline an advisory is built from cannot be rewritten.
 * Proposals and decisions are likewise only ever added.
 */
#include <stdio.h>

#include "store/store-int.h"

static const char *const migrations[] = {
	/* 1: the whole first schema */
	"CREATE TABLE reports ("
	"  id INTEGER PRIMARY KEY,"
	"  subject TEXT NOT NULL DEFAULT '',"
	"  reporter_name TEXT,"
	"  reporter_email TEXT,"
	"  received INTEGER NOT NULL,"
	"  state TEXT NOT NULL DEFAULT 'new',"
	"  severity TEXT NOT NULL DEFAULT 'none',"
	"  claimed_by TEXT,"
	"  public INTEGER NOT NULL DEFAULT 0,"
	"  consent_credit INTEGER NOT NULL DEFAULT 0,"
	"  consent_exploit INTEGER NOT NULL DEFAULT 0,"
	"  release_started INTEGER"
	");"
	"CREATE INDEX reports_state ON reports(state);"
	"CREATE INDEX reports_received ON reports(received);"
	"CREATE TABLE messages ("
	"  id INTEGER PRIMARY KEY,"
	"  report_id INTEGER NOT NULL REFERENCES reports(id),"
	"  message_id TEXT UNIQUE,"
	"  content_hash TEXT NOT NULL UNIQUE,"
	"  in_reply_to TEXT,"
	"  from_name TEXT,"
	"  from_email TEXT,"
	"  subject TEXT,"
	"  date INTEGER,"
	"  imported INTEGER NOT NULL,"
	"  encrypted INTEGER NOT NULL DEFAULT 0,"
	"  verdict TEXT NOT NULL,"
	"  fingerprint TEXT,"
	"  signer_matches_from INTEGER NOT NULL DEFAULT 0,"
	"  blob_kind TEXT NOT NULL CHECK (blob_kind IN ('original','sealed')),"
	"  blob BLOB NOT NULL"
	");"
	"CREATE INDEX messages_report ON messages(report_id);"
	"CREATE TABLE signatures ("
	"  id INTEGER PRIMARY KEY,"
	"  message_id INTEGER NOT NULL REFERENCES messages(id),"
	"  verdict TEXT NOT NULL,"
	"  fingerprint TEXT,"
	"  created INTEGER"
	");"
	"CREATE INDEX signatures_message ON signatures(message_id);"
	"CREATE TABLE report_files ("
	"  report_id INTEGER NOT NULL REFERENCES reports(id),"
	"  path TEXT NOT NULL,"
	"  PRIMARY KEY (report_id, path)"
	") WITHOUT ROWID;"
	"CREATE TABLE participants ("
	"  id INTEGER PRIMARY KEY,"
	"  report_id INTEGER NOT NULL REFERENCES reports(id),"
	"  name TEXT,"
	"  email TEXT NOT NULL,"
	"  role TEXT,"
	"  section TEXT,"
	"  added_by TEXT NOT NULL,"
	"  added_at INTEGER NOT NULL,"
	"  removed_at INTEGER,"
	"  removed_by TEXT,"
	"  acknowledged_at INTEGER"
	");"
	"CREATE UNIQUE INDEX participants_active ON participants(report_id, email)"
	"  WHERE removed_at IS NULL;"
	"CREATE TABLE vendors ("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL UNIQUE,"
	"  contact TEXT NOT NULL,"
	"  key_fpr TEXT,"
	"  kind TEXT NOT NULL DEFAULT 'vendor'"
	"    CHECK (kind IN ('vendor','distro','hardware'))"
	");"
	"CREATE TABLE report_vendors ("
	"  report_id INTEGER NOT NULL REFERENCES reports(id),"
	"  vendor_id INTEGER NOT NULL REFERENCES vendors(id),"
	"  status TEXT NOT NULL DEFAULT 'not-notified',"
	"  notified_at INTEGER,"
	"  updated_at INTEGER,"
	"  nda_requested INTEGER NOT NULL DEFAULT 0,"
	"  note TEXT,"
	"  statement TEXT,"
	"  PRIMARY KEY (report_id, vendor_id)"
	");"
	"CREATE TABLE proposals ("
	"  id INTEGER PRIMARY KEY,"
	"  report_id INTEGER NOT NULL REFERENCES reports(id),"
	"  by TEXT NOT NULL,"
	"  date INTEGER NOT NULL,"
	"  reason TEXT,"
	"  officer TEXT NOT NULL,"
	"  at INTEGER NOT NULL"
	");"
	"CREATE INDEX proposals_report ON proposals(report_id);"
	"CREATE TABLE decisions ("
	"  id INTEGER PRIMARY KEY,"
	"  report_id INTEGER NOT NULL REFERENCES reports(id),"
	"  date INTEGER NOT NULL,"
	"  verdict TEXT NOT NULL,"
	"  reason TEXT,"
	"  override INTEGER NOT NULL DEFAULT 0,"
	"  officer TEXT NOT NULL,"
	"  at INTEGER NOT NULL"
	");"
	"CREATE INDEX decisions_report ON decisions(report_id, id);"
	"CREATE TABLE events ("
	"  id INTEGER PRIMARY KEY,"
	"  report_id INTEGER REFERENCES reports(id),"
	"  at INTEGER NOT NULL,"
	"  officer TEXT NOT NULL,"
	"  kind TEXT NOT NULL,"
	"  detail TEXT NOT NULL DEFAULT ''"
	");"
	"CREATE INDEX events_report ON events(report_id, id);"
	"CREATE TRIGGER events_no_update BEFORE UPDATE ON events"
	"  BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;"
	"CREATE TRIGGER events_no_delete BEFORE DELETE ON events"
	"  BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;"
	"CREATE TRIGGER proposals_no_update BEFORE UPDATE ON proposals"
	"  BEGIN SELECT RAISE(ABORT, 'proposals are never edited'); END;"
	"CREATE TRIGGER decisions_no_update BEFORE UPDATE ON decisions"
	"  BEGIN SELECT RAISE(ABORT, 'decisions are never edited'); END;",
	/* 2: the key an officer confirmed for a participant (forward
	 * encrypts to it, never to a key found by address alone) */
	"ALTER TABLE participants ADD COLUMN key_fpr TEXT;",

	/* 3: a Message-ID no longer identifies a message (anyone can send
	 * mail with a genuine report's Message-ID first); the content hash
	 * does.  SQLite cannot drop a column's UNIQUE, so the table is
	 * rebuilt (foreign keys are off while migrations run). */
	"CREATE TABLE messages_v2 ("
	"  id INTEGER PRIMARY KEY,"
	"  report_id INTEGER NOT NULL REFERENCES reports(id),"
	"  message_id TEXT,"
	"  content_hash TEXT NOT NULL UNIQUE,"
	"  in_reply_to TEXT,"
	"  from_name TEXT,"
	"  from_email TEXT,"
	"  subject TEXT,"
	"  date INTEGER,"
	"  imported INTEGER NOT NULL,"
	"  encrypted INTEGER NOT NULL DEFAULT 0,"
	"  verdict TEXT NOT NULL,"
	"  fingerprint TEXT,"
	"  signer_matches_from INTEGER NOT NULL DEFAULT 0,"
	"  blob_kind TEXT NOT NULL CHECK (blob_kind IN ('original','sealed')),"
	"  blob BLOB NOT NULL"
	");"
	"INSERT INTO messages_v2 SELECT id, report_id, message_id, content_hash,"
	"  in_reply_to, from_name, from_email, subject, date, imported, encrypted,"
	"  verdict, fingerprint, signer_matches_from, blob_kind, blob FROM messages;"
	"DROP TABLE messages;"
	"ALTER TABLE messages_v2 RENAME TO messages;"
	"CREATE INDEX messages_report ON messages(report_id);"
	"CREATE INDEX messages_message_id ON messages(message_id);",
};

int store_migrate(struct store *s, struct err *err)
{
	sqlite3_stmt *st;
	int v, r;

	/* Up to date, the common case: no write lock, so opening the
	 * database does not wait for another officer's long import. */
	if (store_schema_version(s) == (int)ARRAY_SIZE(migrations))
		return 0;
	if ((r = store_begin(s, err)) < 0)
		return r;
	v = store_schema_version(s);
	if (v < 0) {
		store_rollback(s);
		return store_dberr(s, err, "cannot read the schema version");
	}
	if ((size_t)v > ARRAY_SIZE(migrations)) {
		store_rollback(s);
		return err_setc(err, ERR_INVALID,
				"database '%s' has schema version %d, newer than this secteam-tui (%zu); upgrade secteam-tui",
				s->path, v, ARRAY_SIZE(migrations));
	}
	for (size_t i = (size_t)v; i < ARRAY_SIZE(migrations); i++) {
		char pragma[64];
		if (sqlite3_exec(s->db, migrations[i], NULL, NULL, NULL) !=
		    SQLITE_OK) {
			r = store_dberr(s, err, "cannot upgrade the schema");
			store_rollback(s);
			return r;
		}
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version=%zu", i + 1);
		if (sqlite3_exec(s->db, pragma, NULL, NULL, NULL) != SQLITE_OK) {
			r = store_dberr(s, err, "cannot upgrade the schema");
			store_rollback(s);
			return r;
		}
	}
	/* Foreign keys are off while migrations run (store_open turns them
	 * on after), so a rebuilt table must be checked before it counts. */
	if (sqlite3_prepare_v2(s->db, "PRAGMA foreign_key_check", -1, &st,
			       NULL) != SQLITE_OK) {
		r = store_dberr(s, err, "cannot check the upgraded schema");
		store_rollback(s);
		return r;
	}
	r = sqlite3_step(st);
	sqlite3_finalize(st);
	if (r != SQLITE_DONE) {
		store_rollback(s);
		return err_setc(err, ERR_IO,
				"cannot upgrade the schema of '%s': a foreign key no longer holds",
				s->path);
	}
	return store_commit(s, err);
}
