/*
 * The SQLite schema, as numbered migrations (newsboat's schemaPatches):
 * entry i brings PRAGMA user_version from i to i+1, inside one
 * transaction (db-sqlite.c runs them).  Never edit a migration that has
 * shipped; add the next one, and its PostgreSQL twin in schema-pg.c.
 *
 * Migrations run with foreign keys off (the engine turns them on after),
 * as SQLite's procedure for rebuilding a table needs; a foreign key
 * check ends them.
 *
 * The events table is append-only: triggers refuse UPDATE and DELETE, so
 * the timeline an advisory is built from cannot be rewritten.
 * Proposals and decisions are likewise only ever added.
 */
#include "store/schema.h"
#include "util/util.h"

/* The columns of messages after message_id, as migration 1 made them and
 * migration 3's rebuild keeps them (part of both migrations' text: never
 * edit). */
#define MESSAGES_AFTER_MESSAGE_ID                                               \
	"  content_hash TEXT NOT NULL UNIQUE,"                                  \
	"  in_reply_to TEXT,"                                                   \
	"  from_name TEXT,"                                                     \
	"  from_email TEXT,"                                                    \
	"  subject TEXT,"                                                       \
	"  date INTEGER,"                                                       \
	"  imported INTEGER NOT NULL,"                                          \
	"  encrypted INTEGER NOT NULL DEFAULT 0,"                               \
	"  verdict TEXT NOT NULL,"                                              \
	"  fingerprint TEXT,"                                                   \
	"  signer_matches_from INTEGER NOT NULL DEFAULT 0,"                     \
	"  blob_kind TEXT NOT NULL CHECK (blob_kind IN ('original','sealed'))," \
	"  blob BLOB NOT NULL"                                                  \
	");"

/* n is o, or o clear and n its sealed form: "s1:", then the base64 of
 * the text and 47 bytes (store/seal.c, crypto/teamkey.c). */
#define SEALED_FROM_CLEAR(o, n)                                       \
	"(" n " IS " o " OR (" o " IS NOT NULL AND " n " IS NOT NULL" \
	" AND " o " NOT LIKE 's1:%' AND " n " LIKE 's1:%'"            \
	" AND (length(" n ") - 3) / 4 * 3 - (CASE WHEN " n            \
	" LIKE '%==' THEN 2"                                          \
	" WHEN " n " LIKE '%=' THEN 1 ELSE 0 END) - 47"               \
	" = length(CAST(" o " AS BLOB))))"

const char *const schema_sqlite[] = {
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
	"  message_id TEXT UNIQUE," MESSAGES_AFTER_MESSAGE_ID
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
	"  message_id TEXT," MESSAGES_AFTER_MESSAGE_ID
	"INSERT INTO messages_v2 SELECT id, report_id, message_id, content_hash,"
	"  in_reply_to, from_name, from_email, subject, date, imported, encrypted,"
	"  verdict, fingerprint, signer_matches_from, blob_kind, blob FROM messages;"
	"DROP TABLE messages;"
	"ALTER TABLE messages_v2 RENAME TO messages;"
	"CREATE INDEX messages_report ON messages(report_id);"
	"CREATE INDEX messages_message_id ON messages(message_id);",

	/* 4: a sealed body may hold the decrypted content (a MIME entity
	 * of what was shown) rather than the message as received, so every
	 * officer of the roster can read it */
	"ALTER TABLE messages ADD COLUMN blob_content INTEGER NOT NULL DEFAULT 0;",

	/* 5: when each recipient was last reminded about each report (due
	 * --mail sends at most one per 2 working days, however often cron
	 * runs it); IF NOT EXISTS: a database whose version was set back by
	 * hand keeps its table */
	"CREATE TABLE IF NOT EXISTS reminders ("
	"  report_id INTEGER NOT NULL REFERENCES reports(id),"
	"  recipient TEXT NOT NULL,"
	"  kind TEXT NOT NULL,"
	"  sent_at INTEGER NOT NULL,"
	"  PRIMARY KEY (report_id, recipient, kind)"
	");",

	/* 6: the events `stats` and `due` read for every report at once
	 * (store_report_milestones), in a covering index of their own */
	"CREATE INDEX IF NOT EXISTS events_milestones"
	"  ON events(report_id, kind, at, detail)"
	"  WHERE kind IN ('state', 'fix', 'reply-sent', 'reply-plaintext');",
	/* 7: what the import verified never changes, and ids are the
	 * store's (see schema-pg.c's migration 5 for the team server):
	 * - each message keeps the SHA-256 of what its blob opens to, which
	 *   every opening checks (a body put in its place shows as
	 *   tampered); only the blob itself may change (roster reseal), and
	 *   the digest with it only when a message kept as received becomes
	 *   its content;
	 * - events, proposals and decisions refuse an id an INSERT names
	 *   (one chosen ahead would be "the latest" for ever). */
	"ALTER TABLE messages ADD COLUMN plain_sha256 TEXT;"
	"CREATE TRIGGER messages_recorded BEFORE UPDATE OF id, report_id,"
	"  message_id, content_hash, in_reply_to, date, imported, encrypted,"
	"  verdict, fingerprint, signer_matches_from ON messages"
	"  BEGIN SELECT RAISE(ABORT, 'what the import verified and recorded never changes'); END;"
	"CREATE TRIGGER messages_digest BEFORE UPDATE OF plain_sha256 ON messages"
	"  WHEN NEW.plain_sha256 IS NOT OLD.plain_sha256"
	"    AND NOT (OLD.blob_content = 0 AND NEW.blob_content = 1)"
	"  BEGIN SELECT RAISE(ABORT, 'what the import verified and recorded never changes'); END;"
	"CREATE TRIGGER events_server_id BEFORE INSERT ON events"
	"  WHEN NEW.id IS NOT NULL AND NEW.id <> -1"
	"  BEGIN SELECT RAISE(ABORT, 'event ids are the store''s'); END;"
	"CREATE TRIGGER proposals_server_id BEFORE INSERT ON proposals"
	"  WHEN NEW.id IS NOT NULL AND NEW.id <> -1"
	"  BEGIN SELECT RAISE(ABORT, 'proposal ids are the store''s'); END;"
	"CREATE TRIGGER decisions_server_id BEFORE INSERT ON decisions"
	"  WHEN NEW.id IS NOT NULL AND NEW.id <> -1"
	"  BEGIN SELECT RAISE(ABORT, 'decision ids are the store''s'); END;",

	/* 8: the links between reports (core's duplicate-of events), found
	 * from the report they name (store_events_linked) */
	"CREATE INDEX IF NOT EXISTS events_links ON events(detail, report_id)"
	"  WHERE kind = 'duplicate-of';",

	/* 9: the team key, wrapped to each roster key: the
	 * wrapped copies of each generation, never edited */
	"CREATE TABLE team_keys ("
	"  generation INTEGER NOT NULL,"
	"  fingerprint TEXT NOT NULL,"
	"  wrapped BLOB NOT NULL,"
	"  at INTEGER NOT NULL,"
	"  PRIMARY KEY (generation, fingerprint)"
	");"
	"CREATE TRIGGER team_keys_no_update BEFORE UPDATE ON team_keys"
	"  BEGIN SELECT RAISE(ABORT, 'a wrapped team key is never edited'); END;",

	/* 10: Message-IDs and content hashes are kept keyed (the team key's
	 * keyed hash, "k1:"), for lookups, and the clear Message-IDs sealed
	 * (ids_sealed).  A message stored before keeps its clear ones until
	 * roster reseal keys them: that change, clear to keyed, is the only
	 * one the import's record allows. */
	"ALTER TABLE messages ADD COLUMN ids_sealed TEXT;"
	/* and only an older generation's wrapped copies, whose key the
	 * next keeps (its chain row), ever go from team_keys (roster
	 * reseal drops them) */
	"CREATE TRIGGER team_keys_drop BEFORE DELETE ON team_keys"
	"  WHEN OLD.fingerprint = 'chain'"
	"    OR OLD.generation >= (SELECT max(generation) FROM team_keys)"
	"    OR NOT EXISTS (SELECT 1 FROM team_keys k WHERE k.generation = OLD.generation"
	"      AND k.fingerprint = 'chain')"
	"  BEGIN SELECT RAISE(ABORT, 'only an older generation''s wrapped team keys go'); END;"
	"DROP TRIGGER messages_recorded;"
	"CREATE TRIGGER messages_recorded BEFORE UPDATE OF id, report_id,"
	"  date, imported, encrypted, verdict, fingerprint, signer_matches_from ON messages"
	"  BEGIN SELECT RAISE(ABORT, 'what the import verified and recorded never changes'); END;"
	"CREATE TRIGGER messages_keyed BEFORE UPDATE OF message_id, content_hash,"
	"  in_reply_to, ids_sealed ON messages"
	"  WHEN NOT ((NEW.message_id IS OLD.message_id OR (OLD.message_id NOT LIKE 'k1:%'"
	"      AND NEW.message_id LIKE 'k1:%'))"
	"    AND (NEW.content_hash IS OLD.content_hash OR (OLD.content_hash NOT LIKE 'k1:%'"
	"      AND NEW.content_hash LIKE 'k1:%'))"
	"    AND (NEW.in_reply_to IS OLD.in_reply_to OR (OLD.in_reply_to NOT LIKE 'k1:%'"
	"      AND NEW.in_reply_to LIKE 'k1:%'))"
	"    AND (NEW.ids_sealed IS OLD.ids_sealed OR NEW.ids_sealed LIKE 's1:%'))"
	"  BEGIN SELECT RAISE(ABORT, 'what the import verified and recorded never changes'); END;",

	/* 11: what a database from before the sealed record keeps clear
	 * (event details, proposal and decision reasons and who proposed)
	 * is sealed in place by roster reseal (store/seal-legacy.c): the
	 * one change these rows allow is a clear value becoming a sealed
	 * one of the same length (a sealed value is "s1:" and the base64 of
	 * its text and 47 bytes), of a kind whose detail is sealed */
	"DROP TRIGGER events_no_update;"
	"CREATE TRIGGER events_no_update BEFORE UPDATE ON events"
	"  WHEN NOT (NEW.id IS OLD.id AND NEW.report_id IS OLD.report_id"
	"    AND NEW.at IS OLD.at AND NEW.officer IS OLD.officer AND NEW.kind IS OLD.kind"
	"    AND OLD.report_id IS NOT NULL"
	"    AND OLD.kind NOT IN ('state', 'severity', 'consent', 'duplicate-of', 'reseal')"
	"    AND " SEALED_FROM_CLEAR(
		"OLD.detail",
		"NEW.detail") ")"
			      "  BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;"
			      "DROP TRIGGER proposals_no_update;"
			      "CREATE TRIGGER proposals_no_update BEFORE UPDATE ON proposals"
			      "  WHEN NOT (NEW.id IS OLD.id AND NEW.report_id IS OLD.report_id"
			      "    AND NEW.date IS OLD.date AND NEW.officer IS OLD.officer AND NEW.at IS OLD.at"
			      "    AND " SEALED_FROM_CLEAR("OLD.by", "NEW.by") "    AND " SEALED_FROM_CLEAR(
				      "OLD.reason",
				      "NEW.reason") ")"
						    "  BEGIN SELECT RAISE(ABORT, 'proposals are never edited'); END;"
						    "DROP TRIGGER decisions_no_update;"
						    "CREATE TRIGGER decisions_no_update BEFORE UPDATE ON decisions"
						    "  WHEN NOT (NEW.id IS OLD.id AND NEW.report_id IS OLD.report_id"
						    "    AND NEW.date IS OLD.date AND NEW.verdict IS OLD.verdict"
						    "    AND NEW.override IS OLD.override AND NEW.officer IS OLD.officer"
						    "    AND NEW.at IS OLD.at"
						    "    AND " SEALED_FROM_CLEAR(
							    "OLD.reason",
							    "NEW.reason") ")"
									  "  BEGIN SELECT RAISE(ABORT, 'decisions are never edited'); END;",

	/* 12: a report's state, severity, claim, consent, "public" and
	 * release start are what its events say (schema-pg.c's migration 10,
	 * the same rules): an event of those kinds is applied to the
	 * report's row as it is stored, or refused; a report starts new,
	 * unclaimed, without consent; and its row changes by nothing else
	 * (an UPDATE of those columns that is not the newest event's, as one
	 * with the sqlite3 shell, is refused). */
	"CREATE TABLE transitions ("
	"  from_state TEXT NOT NULL,"
	"  to_state TEXT NOT NULL,"
	"  PRIMARY KEY (from_state, to_state)"
	") WITHOUT ROWID;"
	"INSERT INTO transitions VALUES " TRANSITIONS ";"
	"CREATE TRIGGER transitions_fixed_insert BEFORE INSERT ON transitions"
	"  BEGIN SELECT RAISE(ABORT, 'the lifecycle is the schema''s'); END;"
	"CREATE TRIGGER transitions_fixed_update BEFORE UPDATE ON transitions"
	"  BEGIN SELECT RAISE(ABORT, 'the lifecycle is the schema''s'); END;"
	"CREATE TRIGGER transitions_fixed_delete BEFORE DELETE ON transitions"
	"  BEGIN SELECT RAISE(ABORT, 'the lifecycle is the schema''s'); END;"
	"CREATE TRIGGER reports_start_new BEFORE INSERT ON reports"
	"  WHEN NEW.state IS NOT 'new' OR NEW.severity IS NOT 'none'"
	"    OR NEW.claimed_by IS NOT NULL OR NEW.public IS NOT 0"
	"    OR NEW.consent_credit IS NOT 0 OR NEW.consent_exploit IS NOT 0"
	"    OR NEW.release_started IS NOT NULL"
	"  BEGIN SELECT RAISE(ABORT, 'a report starts new, unclaimed, without consent:"
	" its events change it'); END;"
	"CREATE TRIGGER reports_by_events BEFORE UPDATE OF state, severity, claimed_by,"
	"  public, consent_credit, consent_exploit, release_started ON reports"
	"  WHEN NOT EXISTS (SELECT 1 FROM events e"
	"    WHERE e.id = (SELECT max(id) FROM events) AND e.report_id = OLD.id"
	"      AND e.kind IN " APPLIED_KINDS ")"
	"  BEGIN SELECT RAISE(ABORT, 'a report changes only by its events'); END;"
	"CREATE TRIGGER events_apply_state AFTER INSERT ON events"
	"  WHEN NEW.kind = 'state' AND NEW.report_id IS NOT NULL BEGIN"
	"  SELECT RAISE(ABORT, 'the state change is not a step of the lifecycle from"
	" the report''s state')"
	"    WHERE NOT EXISTS (SELECT 1 FROM reports r JOIN transitions t"
	"      ON t.from_state = r.state WHERE r.id = NEW.report_id"
	"      AND NEW.detail = t.from_state || ' -> ' || t.to_state);"
	"  UPDATE reports SET state = substr(NEW.detail, length(state) + 5)"
	"    WHERE id = NEW.report_id;"
	"  END;"
	"CREATE TRIGGER events_apply_severity AFTER INSERT ON events"
	"  WHEN NEW.kind = 'severity' AND NEW.report_id IS NOT NULL BEGIN"
	"  SELECT RAISE(ABORT, 'the severity change does not start from the report''s"
	" severity or names none of " SEVERITY_NAMES "')"
	"    WHERE NOT EXISTS (SELECT 1 FROM reports r WHERE r.id = NEW.report_id"
	"      AND substr(NEW.detail, 1, length(r.severity) + 4) = r.severity || ' -> '"
	"      AND substr(NEW.detail, length(r.severity) + 5) IN (" SEVERITIES
	")"
	"      AND substr(NEW.detail, length(r.severity) + 5) <> r.severity);"
	"  UPDATE reports SET severity = substr(NEW.detail, length(severity) + 5)"
	"    WHERE id = NEW.report_id;"
	"  END;"
	"CREATE TRIGGER events_apply_consent AFTER INSERT ON events"
	"  WHEN NEW.kind = 'consent' AND NEW.report_id IS NOT NULL BEGIN"
	"  SELECT RAISE(ABORT, 'a consent is one of its two sentences')"
	"    WHERE NEW.detail NOT IN (" CONSENT_CREDIT ", " CONSENT_EXPLOIT ");"
	"  UPDATE reports SET"
	"    consent_credit = CASE WHEN NEW.detail = " CONSENT_CREDIT " THEN 1"
	"      ELSE consent_credit END,"
	"    consent_exploit = CASE WHEN NEW.detail = " CONSENT_EXPLOIT
	" THEN 1"
	"      ELSE consent_exploit END"
	"    WHERE id = NEW.report_id;"
	"  END;"
	"CREATE TRIGGER events_apply_claim AFTER INSERT ON events"
	"  WHEN NEW.kind = 'claim' AND NEW.report_id IS NOT NULL BEGIN"
	"  SELECT RAISE(ABORT, 'a claim is \"claimed by OFFICER\" (\", taken over"
	" from HOLDER\" when another officer holds it) or \"released by OFFICER\","
	" made by that officer')"
	"    WHERE NOT (NEW.detail = 'released by ' || NEW.officer"
	"      OR NEW.detail = (SELECT 'claimed by ' || NEW.officer"
	"        || CASE WHEN nullif(claimed_by, '') IS NULL OR claimed_by = NEW.officer"
	"        THEN '' ELSE ', taken over from ' || claimed_by END"
	"        FROM reports WHERE id = NEW.report_id));"
	"  UPDATE reports SET claimed_by = CASE WHEN NEW.detail = 'released by '"
	"    || NEW.officer THEN NULL ELSE NEW.officer END WHERE id = NEW.report_id;"
	"  END;"
	"CREATE TRIGGER events_apply_public AFTER INSERT ON events"
	"  WHEN NEW.kind = 'public' AND NEW.report_id IS NOT NULL BEGIN"
	"  UPDATE reports SET public = 1 WHERE id = NEW.report_id;"
	"  END;"
	"CREATE TRIGGER events_apply_release_start AFTER INSERT ON events"
	"  WHEN NEW.kind = 'release-start' AND NEW.report_id IS NOT NULL BEGIN"
	"  SELECT RAISE(ABORT, 'the report''s release process started already')"
	"    WHERE (SELECT release_started FROM reports WHERE id = NEW.report_id)"
	"      IS NOT NULL;"
	"  UPDATE reports SET release_started = NEW.at WHERE id = NEW.report_id;"
	"  END;",

	/* 13: a participant's key, acknowledgement and removal are what
	 * their events say (schema-pg.c's migration 11, the same rules):
	 * each event names the participant's row (ref) and, for a key, the
	 * key (value); it is applied as it is stored, or refused. */
	"ALTER TABLE events ADD COLUMN ref INTEGER;"
	"ALTER TABLE events ADD COLUMN value TEXT;"
	"CREATE TRIGGER events_ref_fixed BEFORE UPDATE OF ref, value ON events"
	"  BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;"
	"CREATE TRIGGER participants_start_bare BEFORE INSERT ON participants"
	"  WHEN NEW.key_fpr IS NOT NULL OR NEW.acknowledged_at IS NOT NULL"
	"    OR NEW.removed_at IS NOT NULL OR NEW.removed_by IS NOT NULL"
	"  BEGIN SELECT RAISE(ABORT, 'a participant starts without a key,"
	" acknowledgement or removal: their events record them'); END;"
	"CREATE TRIGGER participants_by_events BEFORE UPDATE OF key_fpr,"
	"  acknowledged_at, removed_at, removed_by ON participants"
	"  WHEN NOT EXISTS (SELECT 1 FROM events e"
	"    WHERE e.id = (SELECT max(id) FROM events) AND e.ref = OLD.id"
	"      AND e.kind IN " PARTICIPANT_KINDS ")"
	"  BEGIN SELECT RAISE(ABORT, 'a participant changes only by their events'); END;"
	"CREATE TRIGGER events_apply_participant AFTER INSERT ON events"
	"  WHEN NEW.ref IS NOT NULL AND NEW.kind IN " PARTICIPANT_KINDS " BEGIN"
	"  SELECT RAISE(ABORT, 'the event names a participant who is not one of the"
	" report''s (or was removed)')"
	"    WHERE NOT EXISTS (SELECT 1 FROM participants WHERE id = NEW.ref"
	"      AND report_id = NEW.report_id AND removed_at IS NULL);"
	"  SELECT RAISE(ABORT, 'a participant-key event names the key')"
	"    WHERE NEW.kind = 'participant-key' AND coalesce(NEW.value, '') = '';"
	"  SELECT RAISE(ABORT, 'the participant acknowledged already')"
	"    WHERE NEW.kind = 'participant-ack'"
	"      AND (SELECT acknowledged_at FROM participants WHERE id = NEW.ref) IS NOT NULL;"
	"  UPDATE participants SET"
	"    key_fpr = CASE WHEN NEW.kind IN ('participant-add', 'participant-key')"
	"      THEN nullif(NEW.value, '') ELSE key_fpr END,"
	"    acknowledged_at = CASE WHEN NEW.kind = 'participant-ack' THEN NEW.at"
	"      ELSE acknowledged_at END,"
	"    removed_at = CASE WHEN NEW.kind = 'participant-remove' THEN NEW.at"
	"      ELSE removed_at END,"
	"    removed_by = CASE WHEN NEW.kind = 'participant-remove' THEN NEW.officer"
	"      ELSE removed_by END"
	"    WHERE id = NEW.ref;"
	"  END;",

	/* 14: a vendor's status on a report (and its note, statement, NDA
	 * request) is what its events say (schema-pg.c's migration 12, the
	 * same rules): applied as each is stored, or refused; the row
	 * changes by nothing else but a clear note or statement sealed in
	 * place. */
	"CREATE TRIGGER report_vendors_by_events_insert BEFORE INSERT ON report_vendors"
	"  WHEN NOT EXISTS (SELECT 1 FROM events e"
	"    WHERE e.id = (SELECT max(id) FROM events) AND e.ref = NEW.vendor_id"
	"      AND e.report_id = NEW.report_id AND e.kind IN " VENDOR_KINDS ")"
	"    OR NEW.status IS NOT 'not-notified' OR NEW.notified_at IS NOT NULL"
	"    OR NEW.nda_requested IS NOT 0 OR NEW.note IS NOT NULL"
	"    OR NEW.statement IS NOT NULL"
	"  BEGIN SELECT RAISE(ABORT, 'a vendor''s status changes only by its events'); END;"
	"CREATE TRIGGER report_vendors_by_events BEFORE UPDATE ON report_vendors"
	"  WHEN NOT EXISTS (SELECT 1 FROM events e"
	"    WHERE e.id = (SELECT max(id) FROM events) AND e.ref = OLD.vendor_id"
	"      AND e.report_id = OLD.report_id AND e.kind IN " VENDOR_KINDS ")"
	"    AND NOT (NEW.report_id IS OLD.report_id AND NEW.vendor_id IS OLD.vendor_id"
	"      AND NEW.status IS OLD.status AND NEW.notified_at IS OLD.notified_at"
	"      AND NEW.updated_at IS OLD.updated_at"
	"      AND NEW.nda_requested IS OLD.nda_requested"
	"      AND " SEALED_FROM_CLEAR("OLD.note", "NEW.note") "      AND " SEALED_FROM_CLEAR(
		"OLD.statement",
		"NEW.statement") ")"
				 "  BEGIN SELECT RAISE(ABORT, 'a vendor''s status changes only by its events'); END;"
				 "CREATE TRIGGER events_apply_vendor AFTER INSERT ON events"
				 "  WHEN NEW.ref IS NOT NULL AND NEW.report_id IS NOT NULL"
				 "    AND NEW.kind IN " VENDOR_KINDS " BEGIN"
				 "  INSERT OR IGNORE INTO report_vendors (report_id, vendor_id, updated_at)"
				 "    VALUES (NEW.report_id, NEW.ref, NEW.at);"
				 "  SELECT RAISE(ABORT, 'the vendor status does not follow from the vendor''s"
				 " status on the report')"
				 "    FROM report_vendors v WHERE v.report_id = NEW.report_id AND v.vendor_id = NEW.ref"
				 "      AND NEW.kind IN ('vendor-notify', 'vendor-status', 'vendor-status-correction')"
				 "      AND " VENDOR_REFUSED ";"
				 "  UPDATE report_vendors SET" VENDOR_APPLY_SET
				 "  END;",

	/* 15: a body is kept as received, to be verified again on every
	 * opening, with the session keys of what was encrypted
	 * (blob_content 2); never again as its decrypted content alone
	 * (1), whose verdict nothing could check.  The digest of what the
	 * import verified never changes; a message kept as received only
	 * gets its session keys (schema-pg.c's migration 14). */
	"DROP TRIGGER messages_digest;"
	"CREATE TRIGGER messages_digest BEFORE UPDATE OF plain_sha256, blob_content"
	"  ON messages"
	"  WHEN NEW.plain_sha256 IS NOT OLD.plain_sha256"
	"    OR NOT (NEW.blob_content IS OLD.blob_content"
	"      OR (OLD.blob_content = 0 AND NEW.blob_content = 2))"
	"  BEGIN SELECT RAISE(ABORT, 'what the import verified and recorded never changes'); END;"
	"CREATE TRIGGER messages_as_received BEFORE INSERT ON messages"
	"  WHEN NEW.blob_content NOT IN (0, 2)"
	"  BEGIN SELECT RAISE(ABORT, 'a message is kept as received, to be verified again,"
	" never as its content alone'); END;",

	/* 16: the team chain (schema-pg.c's migration 16): signed events
	 * kept in the order they came, never changed. */
	"CREATE TABLE team_events ("
	"  seq INTEGER PRIMARY KEY AUTOINCREMENT,"
	"  body BLOB NOT NULL,"
	"  sig BLOB NOT NULL CHECK (length(sig) = 64),"
	"  login TEXT NOT NULL DEFAULT '',"
	"  at INTEGER NOT NULL DEFAULT (strftime('%s', 'now'))"
	");"
	"CREATE TRIGGER team_events_no_update BEFORE UPDATE ON team_events"
	"  BEGIN SELECT RAISE(ABORT, 'team_events are append-only'); END;"
	"CREATE TRIGGER team_events_no_delete BEFORE DELETE ON team_events"
	"  BEGIN SELECT RAISE(ABORT, 'team_events are append-only'); END;",

	/* 17: the reports' chains (schema-pg.c's migration 17): signed
	 * events kept in the order they came, never changed, one place per
	 * report and seq. */
	"CREATE TABLE report_events ("
	"  id INTEGER PRIMARY KEY AUTOINCREMENT,"
	"  report_id INTEGER NOT NULL,"
	"  seq INTEGER NOT NULL,"
	"  body BLOB NOT NULL,"
	"  sig BLOB NOT NULL CHECK (length(sig) = 64),"
	"  login TEXT NOT NULL DEFAULT '',"
	"  at INTEGER NOT NULL DEFAULT (strftime('%s', 'now')),"
	"  UNIQUE (report_id, seq)"
	");"
	"CREATE TRIGGER report_events_no_update BEFORE UPDATE ON report_events"
	"  BEGIN SELECT RAISE(ABORT, 'report_events are append-only'); END;"
	"CREATE TRIGGER report_events_no_delete BEFORE DELETE ON report_events"
	"  BEGIN SELECT RAISE(ABORT, 'report_events are append-only'); END;",
};

const size_t schema_sqlite_count = ARRAY_SIZE(schema_sqlite);
