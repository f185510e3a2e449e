/*
 * The PostgreSQL schema of the team server, as numbered migrations: entry
 * i brings secteam.schema_info from version i to i+1 (db-pg.c runs each
 * in one transaction).  The same tables as schema-sqlite.c, in schema
 * `secteam`, plus what only a server with several logins needs:
 *
 * - officers: the login roles of the team, each with a display name and
 *   the fingerprint of the key report bodies are encrypted to;
 * - who did it: triggers set every "officer" column (events, proposals,
 *   decisions, participants' added_by/removed_by, reports' claimed_by)
 *   to session_user, so a client cannot record an action as someone else;
 * - append-only: events, proposals, decisions and signatures refuse
 *   UPDATE and DELETE (triggers, on top of the grants team init gives);
 * - live: each new event notifies channel `secteam` with its report id.
 *
 * Text that is sorted uses the "C" collation, so listings sort as on
 * SQLite whatever the server's locale.  Roles and grants are made by
 * `team init` (store_team_init), not here: they name roles.
 */
#include "store/schema.h"
#include "util/util.h"

/* The end of secteam.team_grant() since migration 3 (only officers may
 * connect to the team's database), and the call that gives an existing
 * team the grants a migration changed.  Part of those migrations' text:
 * never edit. */
#define TEAM_GRANT_END                                                             \
	"  EXECUTE format('REVOKE CONNECT, TEMPORARY ON DATABASE %I FROM PUBLIC'," \
	"    current_database());"                                                 \
	"  EXECUTE format('GRANT CONNECT ON DATABASE %I TO secteam_officers',"     \
	"    current_database());"                                                 \
	"  END $$;"
#define TEAM_GRANT_NOW                                                   \
	"SELECT secteam.team_grant() WHERE EXISTS (SELECT FROM pg_roles" \
	"  WHERE rolname = 'secteam_officers');"

/* secteam.message_guard() as migrations 10 and 14 make it, around the
 * test of how the body may change: what the import verified and recorded
 * never changes, and a change is refused at commit unless a reseal event
 * records it.  Part of both migrations' text: never edit. */
#define MESSAGE_GUARD_HEAD                                                                       \
	"CREATE OR REPLACE FUNCTION secteam.message_guard() RETURNS trigger"                     \
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp"              \
	"  AS $$ BEGIN"                                                                          \
	"  IF NEW.id <> OLD.id OR NEW.report_id <> OLD.report_id"                                \
	"     OR NOT secteam.keyed_ok(OLD.content_hash, NEW.content_hash)"                       \
	"     OR NOT secteam.keyed_ok(OLD.message_id, NEW.message_id)"                           \
	"     OR NOT secteam.keyed_ok(OLD.in_reply_to, NEW.in_reply_to)"                         \
	"     OR NEW.date IS DISTINCT FROM OLD.date"                                             \
	"     OR NEW.imported <> OLD.imported OR NEW.encrypted <> OLD.encrypted"                 \
	"     OR NEW.verdict <> OLD.verdict OR NEW.fingerprint IS DISTINCT FROM OLD.fingerprint" \
	"     OR NEW.signer_matches_from <> OLD.signer_matches_from"
#define MESSAGE_GUARD_TAIL                                                                      \
	"    RAISE EXCEPTION 'message %: what the import verified and recorded never changes'," \
	"      OLD.id USING ERRCODE = '42501';"                                                 \
	"  END IF;"                                                                             \
	"  IF NOT secteam.has_event(OLD.report_id, 'reseal', NULL) THEN"                        \
	"    PERFORM secteam.unrecorded('message', OLD.id, 'reseal'); END IF;"                  \
	"  RETURN NULL; END $$;"

/* The opening of secteam.team_grant(), up to the tables officers may add
 * rows to, as migration 1 made it and migration 2 remade it with one more
 * table.  Part of both migrations' text: never edit. */
#define TEAM_GRANT_BEGIN                                                           \
	"  LANGUAGE plpgsql AS $$ BEGIN"                                           \
	"  BEGIN CREATE ROLE secteam_officers NOLOGIN;"                            \
	"  EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END;"    \
	"  GRANT USAGE ON SCHEMA secteam TO secteam_officers;"                     \
	"  GRANT SELECT ON ALL TABLES IN SCHEMA secteam TO secteam_officers;"      \
	"  GRANT INSERT ON secteam.reports, secteam.messages, secteam.signatures," \
	"    secteam.report_files, secteam.participants, secteam.vendors,"         \
	"    secteam.report_vendors, secteam.proposals, secteam.decisions,"

/* The opening of participant_guard as migration 9 made it (who was
 * brought in, and when, never changes) and migration 11 remade it: part
 * of both migrations' text, never edit. */
#define PARTICIPANT_GUARD_WHO                                                                  \
	"CREATE OR REPLACE FUNCTION secteam.participant_guard() RETURNS trigger"               \
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp"            \
	"  AS $$ BEGIN"                                                                        \
	"  IF TG_OP = 'INSERT' THEN"                                                           \
	"    IF NOT secteam.has_event(NEW.report_id, 'participant-add', NULL) THEN"            \
	"      PERFORM secteam.unrecorded('participant of report', NEW.report_id,"             \
	"        'participant-add'); END IF;"                                                  \
	"    RETURN NULL;"                                                                     \
	"  END IF;"                                                                            \
	"  IF NEW.id <> OLD.id OR NEW.report_id <> OLD.report_id"                              \
	"     OR NEW.role IS DISTINCT FROM OLD.role"                                           \
	"     OR NEW.added_at IS DISTINCT FROM OLD.added_at"                                   \
	"     OR ((NEW.email IS DISTINCT FROM OLD.email OR NEW.name IS DISTINCT FROM OLD.name" \
	"          OR NEW.section IS DISTINCT FROM OLD.section)"                               \
	"         AND NOT (OLD.email NOT LIKE 'k1:%' AND NEW.email LIKE 'k1:%'"                \
	"                  AND NEW.name LIKE 's1:%' AND NEW.section IS NULL"                   \
	"                  AND (OLD.name IS NULL OR OLD.name NOT LIKE 's1:%')"                 \
	"                  AND secteam.has_event(OLD.report_id, 'reseal', NULL))) THEN"        \
	"    RAISE EXCEPTION 'participant %: who was brought in, and when, never changes',"    \
	"      OLD.id USING ERRCODE = '42501';"                                                \
	"  END IF;"

const char *const schema_pg[] = {
	/* 1: the first team schema */
	"CREATE SCHEMA IF NOT EXISTS secteam;"
	"CREATE TABLE secteam.schema_info ("
	"  version integer NOT NULL,"
	"  at timestamptz NOT NULL DEFAULT now()"
	");"
	"CREATE TABLE secteam.officers ("
	"  role text COLLATE \"C\" PRIMARY KEY,"
	"  name text,"
	"  key_fpr text,"
	"  added_at bigint NOT NULL DEFAULT extract(epoch FROM now())::bigint,"
	"  active integer NOT NULL DEFAULT 1"
	");"
	"CREATE TABLE secteam.reports ("
	"  id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
	"  subject text COLLATE \"C\" NOT NULL DEFAULT '',"
	"  reporter_name text COLLATE \"C\","
	"  reporter_email text COLLATE \"C\","
	"  received bigint NOT NULL,"
	"  state text NOT NULL DEFAULT 'new',"
	"  severity text NOT NULL DEFAULT 'none',"
	"  claimed_by text,"
	"  public integer NOT NULL DEFAULT 0,"
	"  consent_credit integer NOT NULL DEFAULT 0,"
	"  consent_exploit integer NOT NULL DEFAULT 0,"
	"  release_started bigint"
	");"
	"CREATE INDEX reports_state ON secteam.reports(state);"
	"CREATE INDEX reports_received ON secteam.reports(received);"
	"CREATE TABLE secteam.messages ("
	"  id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
	"  report_id bigint NOT NULL REFERENCES secteam.reports(id),"
	"  message_id text,"
	"  content_hash text NOT NULL UNIQUE,"
	"  in_reply_to text,"
	"  from_name text,"
	"  from_email text,"
	"  subject text,"
	"  date bigint,"
	"  imported bigint NOT NULL,"
	"  encrypted integer NOT NULL DEFAULT 0,"
	"  verdict text NOT NULL,"
	"  fingerprint text,"
	"  signer_matches_from integer NOT NULL DEFAULT 0,"
	"  blob_kind text NOT NULL CHECK (blob_kind IN ('original','sealed')),"
	"  blob bytea NOT NULL,"
	"  blob_content integer NOT NULL DEFAULT 0"
	");"
	"CREATE INDEX messages_report ON secteam.messages(report_id);"
	"CREATE INDEX messages_message_id ON secteam.messages(message_id);"
	"CREATE TABLE secteam.signatures ("
	"  id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
	"  message_id bigint NOT NULL REFERENCES secteam.messages(id),"
	"  verdict text NOT NULL,"
	"  fingerprint text,"
	"  created bigint"
	");"
	"CREATE INDEX signatures_message ON secteam.signatures(message_id);"
	"CREATE TABLE secteam.report_files ("
	"  report_id bigint NOT NULL REFERENCES secteam.reports(id),"
	"  path text COLLATE \"C\" NOT NULL,"
	"  PRIMARY KEY (report_id, path)"
	");"
	"CREATE TABLE secteam.participants ("
	"  id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
	"  report_id bigint NOT NULL REFERENCES secteam.reports(id),"
	"  name text,"
	"  email text COLLATE \"C\" NOT NULL,"
	"  role text,"
	"  section text,"
	"  added_by text NOT NULL,"
	"  added_at bigint NOT NULL,"
	"  removed_at bigint,"
	"  removed_by text,"
	"  acknowledged_at bigint,"
	"  key_fpr text"
	");"
	"CREATE UNIQUE INDEX participants_active ON secteam.participants(report_id, email)"
	"  WHERE removed_at IS NULL;"
	"CREATE TABLE secteam.vendors ("
	"  id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
	"  name text COLLATE \"C\" NOT NULL UNIQUE,"
	"  contact text NOT NULL,"
	"  key_fpr text,"
	"  kind text NOT NULL DEFAULT 'vendor'"
	"    CHECK (kind IN ('vendor','distro','hardware'))"
	");"
	"CREATE TABLE secteam.report_vendors ("
	"  report_id bigint NOT NULL REFERENCES secteam.reports(id),"
	"  vendor_id bigint NOT NULL REFERENCES secteam.vendors(id),"
	"  status text NOT NULL DEFAULT 'not-notified',"
	"  notified_at bigint,"
	"  updated_at bigint,"
	"  nda_requested integer NOT NULL DEFAULT 0,"
	"  note text,"
	"  statement text,"
	"  PRIMARY KEY (report_id, vendor_id)"
	");"
	"CREATE TABLE secteam.proposals ("
	"  id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
	"  report_id bigint NOT NULL REFERENCES secteam.reports(id),"
	"  by text NOT NULL,"
	"  date bigint NOT NULL,"
	"  reason text,"
	"  officer text NOT NULL,"
	"  at bigint NOT NULL"
	");"
	"CREATE INDEX proposals_report ON secteam.proposals(report_id);"
	"CREATE TABLE secteam.decisions ("
	"  id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
	"  report_id bigint NOT NULL REFERENCES secteam.reports(id),"
	"  date bigint NOT NULL,"
	"  verdict text NOT NULL,"
	"  reason text,"
	"  override integer NOT NULL DEFAULT 0,"
	"  officer text NOT NULL,"
	"  at bigint NOT NULL"
	");"
	"CREATE INDEX decisions_report ON secteam.decisions(report_id, id);"
	"CREATE TABLE secteam.events ("
	"  id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
	"  report_id bigint REFERENCES secteam.reports(id),"
	"  at bigint NOT NULL,"
	"  officer text NOT NULL,"
	"  kind text NOT NULL,"
	"  detail text NOT NULL DEFAULT ''"
	");"
	"CREATE INDEX events_report ON secteam.events(report_id, id);"
	/* Append-only, whoever asks (the grants already refuse officers). */
	"CREATE FUNCTION secteam.refuse_change() RETURNS trigger"
	"  LANGUAGE plpgsql AS $$ BEGIN"
	"  RAISE EXCEPTION '% are append-only', TG_TABLE_NAME"
	"    USING ERRCODE = 'integrity_constraint_violation';"
	"  END $$;"
	"CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON secteam.events"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.refuse_change();"
	"CREATE TRIGGER proposals_append_only BEFORE UPDATE OR DELETE ON secteam.proposals"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.refuse_change();"
	"CREATE TRIGGER decisions_append_only BEFORE UPDATE OR DELETE ON secteam.decisions"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.refuse_change();"
	"CREATE TRIGGER signatures_append_only BEFORE UPDATE OR DELETE ON secteam.signatures"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.refuse_change();"
	/* Who did it is the login role, never what the client says. */
	"CREATE FUNCTION secteam.set_officer() RETURNS trigger"
	"  LANGUAGE plpgsql AS $$ BEGIN"
	"  NEW.officer := session_user; RETURN NEW; END $$;"
	"CREATE TRIGGER events_officer BEFORE INSERT ON secteam.events"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.set_officer();"
	"CREATE TRIGGER proposals_officer BEFORE INSERT ON secteam.proposals"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.set_officer();"
	"CREATE TRIGGER decisions_officer BEFORE INSERT ON secteam.decisions"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.set_officer();"
	"CREATE FUNCTION secteam.participant_officer() RETURNS trigger"
	"  LANGUAGE plpgsql AS $$ BEGIN"
	"  IF TG_OP = 'INSERT' THEN NEW.added_by := session_user;"
	"  ELSE"
	"    NEW.added_by := OLD.added_by;"
	"    IF NEW.removed_at IS DISTINCT FROM OLD.removed_at THEN"
	"      NEW.removed_by := session_user;"
	"    ELSE NEW.removed_by := OLD.removed_by; END IF;"
	"  END IF;"
	"  RETURN NEW; END $$;"
	"CREATE TRIGGER participants_officer BEFORE INSERT OR UPDATE ON secteam.participants"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.participant_officer();"
	"CREATE FUNCTION secteam.claim_officer() RETURNS trigger"
	"  LANGUAGE plpgsql AS $$ BEGIN"
	"  IF NEW.claimed_by IS DISTINCT FROM OLD.claimed_by"
	"     AND coalesce(NEW.claimed_by, '') <> '' THEN"
	"    NEW.claimed_by := session_user;"
	"  END IF;"
	"  RETURN NEW; END $$;"
	"CREATE TRIGGER reports_claim BEFORE UPDATE ON secteam.reports"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.claim_officer();"
	/* An open UI hears about every change (delivered on commit). */
	"CREATE FUNCTION secteam.notify_event() RETURNS trigger"
	"  LANGUAGE plpgsql AS $$ BEGIN"
	"  PERFORM pg_notify('secteam', coalesce(NEW.report_id, 0)::text);"
	"  RETURN NULL; END $$;"
	"CREATE TRIGGER events_notify AFTER INSERT ON secteam.events"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.notify_event();"
	/*
	 * Roles and grants, for `team init` and `team add-officer`, run by
	 * the team's administrator (the database owner, with CREATEROLE;
	 * not a superuser).  Officers read everything, add rows, and change
	 * only the columns their work changes; never events, proposals,
	 * decisions, signatures or the officers table.
	 */
	"CREATE FUNCTION secteam.team_grant() RETURNS void" TEAM_GRANT_BEGIN
	"    secteam.events TO secteam_officers;"
	"  GRANT UPDATE ON secteam.reports, secteam.participants, secteam.vendors,"
	"    secteam.report_vendors TO secteam_officers;"
	"  GRANT UPDATE (blob, blob_kind, blob_content) ON secteam.messages"
	"    TO secteam_officers;"
	"  REVOKE UPDATE, DELETE, TRUNCATE ON secteam.events, secteam.proposals,"
	"    secteam.decisions, secteam.signatures FROM PUBLIC;"
	"  END $$;"
	"CREATE FUNCTION secteam.officer_add(r text, n text, k text) RETURNS void"
	"  LANGUAGE plpgsql AS $$ BEGIN"
	"  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = r) THEN"
	"    EXECUTE format('CREATE ROLE %I LOGIN', r);"
	"  END IF;"
	"  EXECUTE format('GRANT secteam_officers TO %I', r);"
	"  INSERT INTO secteam.officers (role, name, key_fpr) VALUES (r, n, k)"
	"    ON CONFLICT (role) DO UPDATE SET name = excluded.name,"
	"    key_fpr = excluded.key_fpr, active = 1;"
	"  END $$;"
	"CREATE FUNCTION secteam.officer_remove(r text) RETURNS integer"
	"  LANGUAGE plpgsql AS $$ DECLARE c integer; BEGIN"
	"  UPDATE secteam.officers SET active = 0 WHERE role = r AND active = 1;"
	"  GET DIAGNOSTICS c = ROW_COUNT;"
	"  IF c > 0 AND EXISTS (SELECT FROM pg_roles WHERE rolname = r) THEN"
	"    EXECUTE format('REVOKE secteam_officers FROM %I', r);"
	"  END IF;"
	"  RETURN c; END $$;"
	"REVOKE EXECUTE ON FUNCTION secteam.team_grant() FROM PUBLIC;"
	"REVOKE EXECUTE ON FUNCTION secteam.officer_add(text, text, text) FROM PUBLIC;"
	"REVOKE EXECUTE ON FUNCTION secteam.officer_remove(text) FROM PUBLIC;",

	/* 2: when each recipient was last reminded about each report (due
	 * --mail: at most one per 2 working days), and officers may record
	 * it (team_grant again, with the table; team init runs it) */
	"CREATE TABLE secteam.reminders ("
	"  report_id bigint NOT NULL REFERENCES secteam.reports(id),"
	"  recipient text COLLATE \"C\" NOT NULL,"
	"  kind text NOT NULL,"
	"  sent_at bigint NOT NULL,"
	"  PRIMARY KEY (report_id, recipient, kind)"
	");"
	"CREATE OR REPLACE FUNCTION secteam.team_grant() RETURNS void" TEAM_GRANT_BEGIN
	"    secteam.events, secteam.reminders TO secteam_officers;"
	"  GRANT UPDATE ON secteam.reports, secteam.participants, secteam.vendors,"
	"    secteam.report_vendors, secteam.reminders TO secteam_officers;"
	"  GRANT UPDATE (blob, blob_kind, blob_content) ON secteam.messages"
	"    TO secteam_officers;"
	"  REVOKE UPDATE, DELETE, TRUNCATE ON secteam.events, secteam.proposals,"
	"    secteam.decisions, secteam.signatures FROM PUBLIC;"
	"  END $$;",

	/* 3: who may reach the team's database at all, and what leaves it.
	 * - Only officers (and the owner) connect: no other role of the
	 *   server can LISTEN to the team's changes or read its catalogue.
	 * - A notification says only "something changed" (the UI asks the
	 *   store what), never a report's id.
	 * - Removing an officer cuts them off at once: their role can no
	 *   longer log in and their sessions end (a session that ran SET
	 *   ROLE secteam_officers too: it is still their login's).  The
	 *   administrator is made a member of the role for the moment it
	 *   takes to end them, as pg_terminate_backend asks. */
	"CREATE OR REPLACE FUNCTION secteam.notify_event() RETURNS trigger"
	"  LANGUAGE plpgsql AS $$ BEGIN"
	"  PERFORM pg_notify('secteam', '');"
	"  RETURN NULL; END $$;"
	"CREATE OR REPLACE FUNCTION secteam.team_grant() RETURNS void" TEAM_GRANT_BEGIN
	"    secteam.events, secteam.reminders TO secteam_officers;"
	"  GRANT UPDATE ON secteam.reports, secteam.participants, secteam.vendors,"
	"    secteam.report_vendors, secteam.reminders TO secteam_officers;"
	"  GRANT UPDATE (blob, blob_kind, blob_content) ON secteam.messages"
	"    TO secteam_officers;"
	"  REVOKE UPDATE, DELETE, TRUNCATE ON secteam.events, secteam.proposals,"
	"    secteam.decisions, secteam.signatures FROM PUBLIC;" TEAM_GRANT_END
	"CREATE OR REPLACE FUNCTION secteam.officer_add(r text, n text, k text) RETURNS void"
	"  LANGUAGE plpgsql AS $$ BEGIN"
	"  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = r) THEN"
	"    EXECUTE format('CREATE ROLE %I LOGIN', r);"
	"  ELSE"
	"    EXECUTE format('ALTER ROLE %I LOGIN', r);"
	"  END IF;"
	"  EXECUTE format('GRANT secteam_officers TO %I', r);"
	"  INSERT INTO secteam.officers (role, name, key_fpr) VALUES (r, n, k)"
	"    ON CONFLICT (role) DO UPDATE SET name = excluded.name,"
	"    key_fpr = excluded.key_fpr, active = 1;"
	"  END $$;"
	"CREATE OR REPLACE FUNCTION secteam.officer_remove(r text) RETURNS integer"
	"  LANGUAGE plpgsql AS $$ DECLARE c integer; BEGIN"
	"  UPDATE secteam.officers SET active = 0 WHERE role = r AND active = 1;"
	"  GET DIAGNOSTICS c = ROW_COUNT;"
	"  IF c > 0 AND EXISTS (SELECT FROM pg_roles WHERE rolname = r) THEN"
	"    EXECUTE format('REVOKE secteam_officers FROM %I', r);"
	"    EXECUTE format('ALTER ROLE %I NOLOGIN', r);"
	"  END IF;"
	"  RETURN c; END $$;"
	/* Run once the removal is committed, so that a session it ends
	 * cannot log in again in between. */
	"CREATE FUNCTION secteam.officer_disconnect(r text) RETURNS integer"
	"  LANGUAGE plpgsql AS $$ DECLARE c integer; member boolean; BEGIN"
	"  IF EXISTS (SELECT FROM secteam.officers WHERE role = r AND active = 1) THEN"
	"    RETURN 0;"
	"  END IF;"
	"  member := pg_has_role(current_user, r, 'MEMBER');"
	"  IF NOT member THEN EXECUTE format('GRANT %I TO %I', r, current_user); END IF;"
	"  SELECT count(pg_terminate_backend(pid)) INTO c FROM pg_stat_activity"
	"    WHERE usename = r AND pid <> pg_backend_pid();"
	"  IF NOT member THEN EXECUTE format('REVOKE %I FROM %I', r, current_user); END IF;"
	"  RETURN c; END $$;"
	"REVOKE EXECUTE ON FUNCTION secteam.officer_disconnect(text) FROM PUBLIC;"
	"REVOKE EXECUTE ON FUNCTION secteam.officer_add(text, text, text) FROM PUBLIC;"
	"REVOKE EXECUTE ON FUNCTION secteam.officer_remove(text) FROM PUBLIC;"
	/* Set a password from its SCRAM verifier, made by the client: the
	 * password itself never reaches the server or its log. */
	"CREATE FUNCTION secteam.officer_password(r text, v text) RETURNS void"
	"  LANGUAGE plpgsql AS $$ BEGIN"
	"  IF NOT EXISTS (SELECT FROM secteam.officers WHERE role = r AND active = 1) THEN"
	"    RAISE EXCEPTION 'no officer %', r USING ERRCODE = '23514';"
	"  END IF;"
	"  EXECUTE format('ALTER ROLE %I PASSWORD %L', r, v);"
	"  END $$;"
	"REVOKE EXECUTE ON FUNCTION secteam.officer_password(text, text) FROM PUBLIC;"
	/* An existing team gets the new grants now (only its administrator
	 * can run this migration: the functions are theirs). */
	TEAM_GRANT_NOW,

	/* 4: the events `stats` and `due` read for every report at once
	 * (store_report_milestones), in a covering index of their own */
	"CREATE INDEX events_milestones ON secteam.events(report_id, kind, at, detail)"
	"  WHERE kind IN ('state', 'fix', 'reply-sent', 'reply-plaintext');",

	/* 5: the team record changes only with an event the server timed
	 * and attributed:
	 * - ids are the server's: whatever id an INSERT names, the row gets
	 *   the next of its table's sequence (no chosen ids, no "latest" by
	 *   a client's id, no blocking colleagues by taking ids ahead);
	 * - events, proposals and decisions carry the server's time of the
	 *   transaction (unless secteam.settings.client_clock, which only the
	 *   administrator can set: the tests' pinned clock);
	 * - every event knows its transaction (xact), and a deferred check at
	 *   commit refuses a change of a report, a participant, a vendor, a
	 *   vendor's status or a stored body that no event of its kind in
	 *   the same transaction records; what the import set (subject,
	 *   reporter, receipt, a message's verdict and headers, a
	 *   participant's address) never changes;
	 * - a new report starts new, unclaimed, without consent.
	 * Functions run as their owner (the administrator) with a fixed
	 * search_path; officers can neither drop nor disable the triggers. */
	"CREATE TABLE secteam.settings ("
	"  one integer PRIMARY KEY DEFAULT 1 CHECK (one = 1),"
	"  client_clock integer NOT NULL DEFAULT 0"
	");"
	"INSERT INTO secteam.settings DEFAULT VALUES;"
	"ALTER TABLE secteam.events ADD COLUMN xact bigint;"
	/* The row's id is the one its identity default just drew (the
	 * sequence's currval in this session); any other, one the INSERT
	 * named, is replaced by the next. */
	"CREATE FUNCTION secteam.server_id() RETURNS trigger"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp"
	"  AS $$ DECLARE seq text; cur bigint; BEGIN"
	"  seq := pg_get_serial_sequence("
	"    quote_ident(TG_TABLE_SCHEMA) || '.' || quote_ident(TG_TABLE_NAME), 'id');"
	"  BEGIN cur := currval(seq);"
	"  EXCEPTION WHEN object_not_in_prerequisite_state THEN cur := NULL; END;"
	"  IF cur IS NULL OR NEW.id IS DISTINCT FROM cur THEN"
	"    NEW.id := nextval(seq);"
	"  END IF;"
	"  RETURN NEW; END $$;"
	"CREATE FUNCTION secteam.server_time() RETURNS trigger"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp"
	"  AS $$ BEGIN"
	"  IF NOT EXISTS (SELECT FROM secteam.settings WHERE client_clock = 1) THEN"
	"    NEW.at := extract(epoch FROM transaction_timestamp())::bigint;"
	"  END IF;"
	"  IF TG_TABLE_NAME = 'events' THEN NEW.xact := txid_current(); END IF;"
	"  RETURN NEW; END $$;"
	"CREATE TRIGGER a_reports_id BEFORE INSERT ON secteam.reports"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.server_id();"
	"CREATE TRIGGER a_messages_id BEFORE INSERT ON secteam.messages"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.server_id();"
	"CREATE TRIGGER a_signatures_id BEFORE INSERT ON secteam.signatures"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.server_id();"
	"CREATE TRIGGER a_participants_id BEFORE INSERT ON secteam.participants"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.server_id();"
	"CREATE TRIGGER a_vendors_id BEFORE INSERT ON secteam.vendors"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.server_id();"
	"CREATE TRIGGER a_proposals_id BEFORE INSERT ON secteam.proposals"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.server_id();"
	"CREATE TRIGGER a_decisions_id BEFORE INSERT ON secteam.decisions"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.server_id();"
	"CREATE TRIGGER a_events_id BEFORE INSERT ON secteam.events"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.server_id();"
	"CREATE TRIGGER b_events_time BEFORE INSERT ON secteam.events"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.server_time();"
	"CREATE TRIGGER b_proposals_time BEFORE INSERT ON secteam.proposals"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.server_time();"
	"CREATE TRIGGER b_decisions_time BEFORE INSERT ON secteam.decisions"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.server_time();"
	/* An event of kind k (with detail d, unless NULL) about report rid
	 * (NULL: the team's) in this transaction. */
	"CREATE FUNCTION secteam.has_event(rid bigint, k text, d text) RETURNS boolean"
	"  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp"
	"  AS $$ SELECT EXISTS (SELECT FROM secteam.events e"
	"    WHERE e.report_id IS NOT DISTINCT FROM rid AND e.xact = txid_current()"
	"    AND (e.kind = k OR (right(k, 1) = '%' AND e.kind LIKE k))"
	"    AND (d IS NULL OR e.detail = d)) $$;"
	"CREATE FUNCTION secteam.unrecorded(what text, id bigint, k text) RETURNS void"
	"  LANGUAGE plpgsql AS $$ BEGIN"
	"  RAISE EXCEPTION '% %: changed without an event (%) recording it', what, id, k"
	"    USING ERRCODE = '42501';"
	"  END $$;"
	"CREATE FUNCTION secteam.report_new() RETURNS trigger"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp"
	"  AS $$ BEGIN"
	"  NEW.state := 'new'; NEW.severity := 'none'; NEW.claimed_by := NULL;"
	"  NEW.public := 0; NEW.consent_credit := 0; NEW.consent_exploit := 0;"
	"  NEW.release_started := NULL;"
	"  RETURN NEW; END $$;"
	"CREATE TRIGGER a_reports_new BEFORE INSERT ON secteam.reports"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.report_new();"
	"CREATE FUNCTION secteam.report_guard() RETURNS trigger"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp"
	"  AS $$ BEGIN"
	"  IF NEW.id <> OLD.id OR NEW.received IS DISTINCT FROM OLD.received THEN"
	"    RAISE EXCEPTION 'report %: its receipt is the import''s',"
	"      OLD.id USING ERRCODE = '42501';"
	"  END IF;"
	/* Sealed again under a new team key generation (roster reseal),
	 * with its event; never otherwise. */
	"  IF (NEW.subject IS DISTINCT FROM OLD.subject"
	"      OR NEW.reporter_name IS DISTINCT FROM OLD.reporter_name"
	"      OR NEW.reporter_email IS DISTINCT FROM OLD.reporter_email)"
	"     AND NOT secteam.has_event(OLD.id, 'reseal', NULL) THEN"
	"    RAISE EXCEPTION 'report %: its subject and reporter are the import''s',"
	"      OLD.id USING ERRCODE = '42501';"
	"  END IF;"
	"  IF NEW.state IS DISTINCT FROM OLD.state AND NOT secteam.has_event(OLD.id,"
	"     'state', OLD.state || ' -> ' || NEW.state) THEN"
	"    PERFORM secteam.unrecorded('report', OLD.id, 'state'); END IF;"
	"  IF NEW.severity IS DISTINCT FROM OLD.severity AND NOT secteam.has_event(OLD.id,"
	"     'severity', OLD.severity || ' -> ' || NEW.severity) THEN"
	"    PERFORM secteam.unrecorded('report', OLD.id, 'severity'); END IF;"
	"  IF NEW.claimed_by IS DISTINCT FROM OLD.claimed_by"
	"     AND NOT secteam.has_event(OLD.id, 'claim', NULL) THEN"
	"    PERFORM secteam.unrecorded('report', OLD.id, 'claim'); END IF;"
	"  IF NEW.public IS DISTINCT FROM OLD.public"
	"     AND NOT secteam.has_event(OLD.id, 'public', NULL) THEN"
	"    PERFORM secteam.unrecorded('report', OLD.id, 'public'); END IF;"
	"  IF NEW.consent_credit IS DISTINCT FROM OLD.consent_credit AND NOT"
	"     secteam.has_event(OLD.id, 'consent', 'reporter consents to be credited') THEN"
	"    PERFORM secteam.unrecorded('report', OLD.id, 'consent'); END IF;"
	"  IF NEW.consent_exploit IS DISTINCT FROM OLD.consent_exploit AND NOT"
	"     secteam.has_event(OLD.id, 'consent',"
	"       'reporter consents to the release of exploit code') THEN"
	"    PERFORM secteam.unrecorded('report', OLD.id, 'consent'); END IF;"
	"  IF NEW.release_started IS DISTINCT FROM OLD.release_started"
	"     AND NOT secteam.has_event(OLD.id, 'release-start', NULL) THEN"
	"    PERFORM secteam.unrecorded('report', OLD.id, 'release-start'); END IF;"
	"  RETURN NULL; END $$;"
	"CREATE CONSTRAINT TRIGGER reports_recorded AFTER UPDATE ON secteam.reports"
	"  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION secteam.report_guard();"
	"CREATE FUNCTION secteam.participant_guard() RETURNS trigger"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp"
	"  AS $$ BEGIN"
	"  IF TG_OP = 'INSERT' THEN"
	"    IF NOT secteam.has_event(NEW.report_id, 'participant-add', NULL) THEN"
	"      PERFORM secteam.unrecorded('participant of report', NEW.report_id,"
	"        'participant-add'); END IF;"
	"    RETURN NULL;"
	"  END IF;"
	"  IF NEW.id <> OLD.id OR NEW.report_id <> OLD.report_id"
	"     OR NEW.email IS DISTINCT FROM OLD.email OR NEW.name IS DISTINCT FROM OLD.name"
	"     OR NEW.role IS DISTINCT FROM OLD.role OR NEW.section IS DISTINCT FROM OLD.section"
	"     OR NEW.added_at IS DISTINCT FROM OLD.added_at THEN"
	"    RAISE EXCEPTION 'participant %: who was brought in, and when, never changes',"
	"      OLD.id USING ERRCODE = '42501';"
	"  END IF;"
	"  IF NEW.key_fpr IS DISTINCT FROM OLD.key_fpr"
	"     AND NOT secteam.has_event(OLD.report_id, 'participant-key', NULL) THEN"
	"    PERFORM secteam.unrecorded('participant of report', OLD.report_id,"
	"      'participant-key'); END IF;"
	"  IF NEW.removed_at IS DISTINCT FROM OLD.removed_at"
	"     AND NOT secteam.has_event(OLD.report_id, 'participant-remove', NULL) THEN"
	"    PERFORM secteam.unrecorded('participant of report', OLD.report_id,"
	"      'participant-remove'); END IF;"
	"  IF NEW.acknowledged_at IS DISTINCT FROM OLD.acknowledged_at"
	"     AND NOT secteam.has_event(OLD.report_id, 'participant-ack', NULL) THEN"
	"    PERFORM secteam.unrecorded('participant of report', OLD.report_id,"
	"      'participant-ack'); END IF;"
	"  RETURN NULL; END $$;"
	"CREATE CONSTRAINT TRIGGER participants_recorded AFTER INSERT OR UPDATE"
	"  ON secteam.participants DEFERRABLE INITIALLY DEFERRED"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.participant_guard();"
	"CREATE FUNCTION secteam.vendor_guard() RETURNS trigger"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp"
	"  AS $$ BEGIN"
	"  IF TG_TABLE_NAME = 'vendors' THEN"
	"    IF NOT secteam.has_event(NULL, CASE TG_OP WHEN 'INSERT' THEN 'vendor-add'"
	"       ELSE 'vendor-edit' END, NULL) THEN"
	"      PERFORM secteam.unrecorded('vendor', NEW.id, 'vendor-add/vendor-edit'); END IF;"
	"  ELSIF NOT (secteam.has_event(NEW.report_id, 'vendor-%', NULL)"
	"             OR secteam.has_event(NEW.report_id, 'nda-request', NULL)) THEN"
	"    PERFORM secteam.unrecorded('vendor status of report', NEW.report_id,"
	"      'vendor-*, nda-request');"
	"  END IF;"
	"  RETURN NULL; END $$;"
	"CREATE CONSTRAINT TRIGGER vendors_recorded AFTER INSERT OR UPDATE"
	"  ON secteam.vendors DEFERRABLE INITIALLY DEFERRED"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.vendor_guard();"
	"CREATE CONSTRAINT TRIGGER report_vendors_recorded AFTER INSERT OR UPDATE"
	"  ON secteam.report_vendors DEFERRABLE INITIALLY DEFERRED"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.vendor_guard();"
	/* A stored message: only its sealed copy (and its sealed subject
	 * and sender, under a new team key generation) changes (roster
	 * reseal, an event); what the import verified and recorded never
	 * does.  Its
	 * digest changes only when a message kept as received becomes its
	 * content (a reseal for a new roster: the resealer vouches for that
	 * content; keeping the signed object instead is still to come). */
	"CREATE FUNCTION secteam.message_guard() RETURNS trigger"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp"
	"  AS $$ BEGIN"
	"  IF NEW.id <> OLD.id OR NEW.report_id <> OLD.report_id"
	"     OR NEW.content_hash <> OLD.content_hash"
	"     OR NEW.message_id IS DISTINCT FROM OLD.message_id"
	"     OR NEW.in_reply_to IS DISTINCT FROM OLD.in_reply_to"
	"     OR NEW.date IS DISTINCT FROM OLD.date"
	"     OR NEW.imported <> OLD.imported OR NEW.encrypted <> OLD.encrypted"
	"     OR NEW.verdict <> OLD.verdict OR NEW.fingerprint IS DISTINCT FROM OLD.fingerprint"
	"     OR NEW.signer_matches_from <> OLD.signer_matches_from"
	"     OR (NEW.plain_sha256 IS DISTINCT FROM OLD.plain_sha256"
	"         AND NOT (OLD.blob_content = 0 AND NEW.blob_content = 1)) THEN"
	"    RAISE EXCEPTION 'message %: what the import verified and recorded never changes',"
	"      OLD.id USING ERRCODE = '42501';"
	"  END IF;"
	"  IF NOT secteam.has_event(OLD.report_id, 'reseal', NULL) THEN"
	"    PERFORM secteam.unrecorded('message', OLD.id, 'reseal'); END IF;"
	"  RETURN NULL; END $$;"
	"ALTER TABLE secteam.messages ADD COLUMN plain_sha256 text;"
	"CREATE CONSTRAINT TRIGGER messages_recorded AFTER UPDATE ON secteam.messages"
	"  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION secteam.message_guard();"
	"REVOKE ALL ON secteam.settings FROM PUBLIC;"
	/* A reseal that makes a message its content records the content's
	 * digest (message_guard allows only that change). */
	"CREATE OR REPLACE FUNCTION secteam.team_grant() RETURNS void" TEAM_GRANT_BEGIN
	"    secteam.events, secteam.reminders TO secteam_officers;"
	"  GRANT UPDATE ON secteam.reports, secteam.participants, secteam.vendors,"
	"    secteam.report_vendors, secteam.reminders TO secteam_officers;"
	"  GRANT UPDATE (blob, blob_kind, blob_content, plain_sha256) ON secteam.messages"
	"    TO secteam_officers;"
	"  REVOKE UPDATE, DELETE, TRUNCATE ON secteam.events, secteam.proposals,"
	"    secteam.decisions, secteam.signatures FROM PUBLIC;" TEAM_GRANT_END
		TEAM_GRANT_NOW,

	/* 6: the links between reports (core's duplicate-of events), found
	 * from the report they name (store_events_linked) */
	"CREATE INDEX events_links ON secteam.events(detail, report_id)"
	"  WHERE kind = 'duplicate-of';",

	/* 7: the team key, wrapped to each roster key: the
	 * wrapped copies of each generation, never edited; officers add
	 * them (the first officer to write makes generation 1), and draw a
	 * row's id before its insert, so that its sealed fields name it */
	"CREATE TABLE secteam.team_keys ("
	"  generation integer NOT NULL,"
	"  fingerprint text NOT NULL,"
	"  wrapped bytea NOT NULL,"
	"  at bigint NOT NULL,"
	"  PRIMARY KEY (generation, fingerprint)"
	");"
	"CREATE TRIGGER team_keys_append_only BEFORE UPDATE OR DELETE ON secteam.team_keys"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.refuse_change();"
	"CREATE OR REPLACE FUNCTION secteam.team_grant() RETURNS void" TEAM_GRANT_BEGIN
	"    secteam.events, secteam.reminders, secteam.team_keys TO secteam_officers;"
	"  GRANT UPDATE ON secteam.reports, secteam.participants, secteam.vendors,"
	"    secteam.report_vendors, secteam.reminders TO secteam_officers;"
	"  GRANT UPDATE (blob, blob_kind, blob_content, plain_sha256, subject,"
	"    from_name, from_email) ON secteam.messages TO secteam_officers;"
	"  EXECUTE format('GRANT USAGE ON SEQUENCE %s, %s TO secteam_officers',"
	"    pg_get_serial_sequence('secteam.reports', 'id'),"
	"    pg_get_serial_sequence('secteam.messages', 'id'));"
	"  REVOKE UPDATE, DELETE, TRUNCATE ON secteam.events, secteam.proposals,"
	"    secteam.decisions, secteam.signatures, secteam.team_keys FROM PUBLIC;" TEAM_GRANT_END
		TEAM_GRANT_NOW,

	/* 8: Message-IDs and content hashes kept keyed (see schema-sqlite.c's
	 * migration 10): a message stored before keeps its clear ones until
	 * roster reseal keys them, clear to keyed only, with its event) */
	"ALTER TABLE secteam.messages ADD COLUMN ids_sealed text;"
	/* has_event looks for this transaction's events: an index on the
	 * transaction id finds them, where report_id IS NOT DISTINCT FROM
	 * scanned every event (96 ms a check at 1M events). */
	"CREATE INDEX events_xact ON secteam.events(xact) WHERE xact IS NOT NULL;"
	/* A wrapped copy of an older generation whose key the next keeps
	 * (its chain row) may go, with a roster reseal's event; nothing
	 * else in team_keys ever changes. */
	"DROP TRIGGER team_keys_append_only ON secteam.team_keys;"
	"CREATE TRIGGER team_keys_never_edited BEFORE UPDATE ON secteam.team_keys"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.refuse_change();"
	"CREATE FUNCTION secteam.team_key_drop() RETURNS trigger"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp"
	"  AS $$ BEGIN"
	"  IF OLD.fingerprint = 'chain'"
	"     OR OLD.generation >= (SELECT max(generation) FROM secteam.team_keys)"
	"     OR NOT EXISTS (SELECT FROM secteam.team_keys k"
	"       WHERE k.generation = OLD.generation AND k.fingerprint = 'chain')"
	"     OR NOT secteam.has_event(NULL, 'roster-reseal', NULL) THEN"
	"    RAISE EXCEPTION 'team key generation %: only an older generation''s"
	" wrapped copies go, by roster reseal', OLD.generation USING ERRCODE = '42501';"
	"  END IF;"
	"  RETURN OLD; END $$;"
	"CREATE TRIGGER team_keys_drop BEFORE DELETE ON secteam.team_keys"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.team_key_drop();"
	"CREATE OR REPLACE FUNCTION secteam.keyed_ok(o text, n text) RETURNS boolean"
	"  LANGUAGE sql IMMUTABLE AS $$ SELECT n IS NOT DISTINCT FROM o"
	"    OR (o NOT LIKE 'k1:%' AND n LIKE 'k1:%') $$;" MESSAGE_GUARD_HEAD
	"     OR (NEW.plain_sha256 IS DISTINCT FROM OLD.plain_sha256"
	"         AND NOT (OLD.blob_content = 0 AND NEW.blob_content = 1)) THEN" MESSAGE_GUARD_TAIL
	"CREATE OR REPLACE FUNCTION secteam.team_grant() RETURNS void" TEAM_GRANT_BEGIN
	"    secteam.events, secteam.reminders, secteam.team_keys TO secteam_officers;"
	"  GRANT UPDATE ON secteam.reports, secteam.participants, secteam.vendors,"
	"    secteam.report_vendors, secteam.reminders TO secteam_officers;"
	"  GRANT UPDATE (blob, blob_kind, blob_content, plain_sha256, subject,"
	"    from_name, from_email, message_id, content_hash, in_reply_to, ids_sealed)"
	"    ON secteam.messages TO secteam_officers;"
	"  GRANT DELETE ON secteam.team_keys TO secteam_officers;"
	"  EXECUTE format('GRANT USAGE ON SEQUENCE %s, %s TO secteam_officers',"
	"    pg_get_serial_sequence('secteam.reports', 'id'),"
	"    pg_get_serial_sequence('secteam.messages', 'id'));"
	"  REVOKE UPDATE, DELETE, TRUNCATE ON secteam.events, secteam.proposals,"
	"    secteam.decisions, secteam.signatures, secteam.team_keys FROM PUBLIC;" TEAM_GRANT_END
		TEAM_GRANT_NOW,

	/* 9: what a team database from before the sealed record keeps
	 * clear (event details, proposal and decision reasons and who
	 * proposed, touched files, vendor notes and statements,
	 * participants) is sealed in place by roster reseal
	 * (store/seal-legacy.c), with the report's reseal event in the same
	 * transaction.  The one change these rows allow: a clear value
	 * becoming a sealed one of the same length (a sealed value is "s1:"
	 * and the base64 of its text and 47 bytes), a participant's clear
	 * address its keyed one with who they are sealed; never a sealed
	 * value rewritten, never another column. */
	"CREATE FUNCTION secteam.sealed_from_clear(o text, n text) RETURNS boolean"
	"  LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp"
	"  AS $$ SELECT n IS NOT DISTINCT FROM o OR (o IS NOT NULL AND n IS NOT NULL"
	"    AND o NOT LIKE 's1:%' AND n LIKE 's1:%'"
	"    AND octet_length(decode(substr(n, 4), 'base64')) - 47 = octet_length(o)) $$;"
	"CREATE FUNCTION secteam.seal_in_place() RETURNS trigger"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp"
	"  AS $$ DECLARE ok boolean; BEGIN"
	"  IF TG_TABLE_NAME = 'events' THEN"
	"    ok := NEW.id = OLD.id AND NEW.report_id IS NOT DISTINCT FROM OLD.report_id"
	"      AND NEW.at = OLD.at AND NEW.officer = OLD.officer AND NEW.kind = OLD.kind"
	"      AND NEW.xact IS NOT DISTINCT FROM OLD.xact AND OLD.report_id IS NOT NULL"
	"      AND OLD.kind NOT IN ('state', 'severity', 'consent', 'duplicate-of', 'reseal')"
	"      AND secteam.sealed_from_clear(OLD.detail, NEW.detail);"
	"  ELSIF TG_TABLE_NAME = 'proposals' THEN"
	"    ok := NEW.id = OLD.id AND NEW.report_id = OLD.report_id AND NEW.date = OLD.date"
	"      AND NEW.officer = OLD.officer AND NEW.at = OLD.at"
	/* "by" quoted: PL/pgSQL takes OLD.by for no field at all */
	"      AND secteam.sealed_from_clear(OLD.\"by\", NEW.\"by\")"
	"      AND secteam.sealed_from_clear(OLD.reason, NEW.reason);"
	"  ELSIF TG_TABLE_NAME = 'decisions' THEN"
	"    ok := NEW.id = OLD.id AND NEW.report_id = OLD.report_id AND NEW.date = OLD.date"
	"      AND NEW.verdict = OLD.verdict AND NEW.override = OLD.override"
	"      AND NEW.officer = OLD.officer AND NEW.at = OLD.at"
	"      AND secteam.sealed_from_clear(OLD.reason, NEW.reason);"
	"  ELSE"
	"    ok := NEW.report_id = OLD.report_id"
	"      AND secteam.sealed_from_clear(OLD.path, NEW.path);"
	"  END IF;"
	"  IF ok IS NOT TRUE THEN"
	"    RAISE EXCEPTION '% are append-only: a value stored clear is only ever sealed, by"
	" roster reseal', TG_TABLE_NAME USING ERRCODE = 'integrity_constraint_violation';"
	"  END IF;"
	"  RETURN NEW; END $$;"
	"CREATE FUNCTION secteam.sealed_recorded() RETURNS trigger"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp"
	"  AS $$ BEGIN"
	"  IF NOT secteam.has_event(OLD.report_id, 'reseal', NULL) THEN"
	"    PERFORM secteam.unrecorded(TG_TABLE_NAME || ' of report', OLD.report_id, 'reseal');"
	"  END IF;"
	"  RETURN NULL; END $$;"
	"DROP TRIGGER events_append_only ON secteam.events;"
	"DROP TRIGGER proposals_append_only ON secteam.proposals;"
	"DROP TRIGGER decisions_append_only ON secteam.decisions;"
	"CREATE TRIGGER events_append_only BEFORE DELETE ON secteam.events"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.refuse_change();"
	"CREATE TRIGGER proposals_append_only BEFORE DELETE ON secteam.proposals"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.refuse_change();"
	"CREATE TRIGGER decisions_append_only BEFORE DELETE ON secteam.decisions"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.refuse_change();"
	"CREATE TRIGGER events_sealed_in_place BEFORE UPDATE ON secteam.events"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.seal_in_place();"
	"CREATE TRIGGER proposals_sealed_in_place BEFORE UPDATE ON secteam.proposals"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.seal_in_place();"
	"CREATE TRIGGER decisions_sealed_in_place BEFORE UPDATE ON secteam.decisions"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.seal_in_place();"
	"CREATE TRIGGER report_files_sealed_in_place BEFORE UPDATE ON secteam.report_files"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.seal_in_place();"
	"CREATE TRIGGER report_files_append_only BEFORE DELETE ON secteam.report_files"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.refuse_change();"
	"CREATE CONSTRAINT TRIGGER events_sealed_recorded AFTER UPDATE ON secteam.events"
	"  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION secteam.sealed_recorded();"
	"CREATE CONSTRAINT TRIGGER proposals_sealed_recorded AFTER UPDATE ON secteam.proposals"
	"  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION secteam.sealed_recorded();"
	"CREATE CONSTRAINT TRIGGER decisions_sealed_recorded AFTER UPDATE ON secteam.decisions"
	"  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION secteam.sealed_recorded();"
	"CREATE CONSTRAINT TRIGGER report_files_sealed_recorded AFTER UPDATE"
	"  ON secteam.report_files DEFERRABLE INITIALLY DEFERRED"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.sealed_recorded();"
	/* A vendor status's clear note and statement sealed, nothing else
	 * changed, with the reseal event, is the one change of it that no
	 * vendor event records. */
	"CREATE OR REPLACE FUNCTION secteam.vendor_guard() RETURNS trigger"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp"
	"  AS $$ BEGIN"
	"  IF TG_TABLE_NAME = 'vendors' THEN"
	"    IF NOT secteam.has_event(NULL, CASE TG_OP WHEN 'INSERT' THEN 'vendor-add'"
	"       ELSE 'vendor-edit' END, NULL) THEN"
	"      PERFORM secteam.unrecorded('vendor', NEW.id, 'vendor-add/vendor-edit'); END IF;"
	"  ELSIF NOT (secteam.has_event(NEW.report_id, 'vendor-%', NULL)"
	"             OR secteam.has_event(NEW.report_id, 'nda-request', NULL)"
	"             OR (TG_OP = 'UPDATE' AND NEW.report_id = OLD.report_id"
	"                 AND NEW.vendor_id = OLD.vendor_id AND NEW.status = OLD.status"
	"                 AND NEW.notified_at IS NOT DISTINCT FROM OLD.notified_at"
	"                 AND NEW.updated_at IS NOT DISTINCT FROM OLD.updated_at"
	"                 AND NEW.nda_requested = OLD.nda_requested"
	"                 AND secteam.sealed_from_clear(OLD.note, NEW.note)"
	"                 AND secteam.sealed_from_clear(OLD.statement, NEW.statement)"
	"                 AND secteam.has_event(NEW.report_id, 'reseal', NULL))) THEN"
	"    PERFORM secteam.unrecorded('vendor status of report', NEW.report_id,"
	"      'vendor-*, nda-request');"
	"  END IF;"
	"  RETURN NULL; END $$;"
	/* A participant stored clear: its address keyed (k1:), who they
	 * are (name, address, section) sealed in its name, with the reseal
	 * event; otherwise who was brought in, and when, never changes. */
	PARTICIPANT_GUARD_WHO "  IF NEW.key_fpr IS DISTINCT FROM OLD.key_fpr"
	"     AND NOT secteam.has_event(OLD.report_id, 'participant-key', NULL) THEN"
	"    PERFORM secteam.unrecorded('participant of report', OLD.report_id,"
	"      'participant-key'); END IF;"
	"  IF NEW.removed_at IS DISTINCT FROM OLD.removed_at"
	"     AND NOT secteam.has_event(OLD.report_id, 'participant-remove', NULL) THEN"
	"    PERFORM secteam.unrecorded('participant of report', OLD.report_id,"
	"      'participant-remove'); END IF;"
	"  IF NEW.acknowledged_at IS DISTINCT FROM OLD.acknowledged_at"
	"     AND NOT secteam.has_event(OLD.report_id, 'participant-ack', NULL) THEN"
	"    PERFORM secteam.unrecorded('participant of report', OLD.report_id,"
	"      'participant-ack'); END IF;"
	"  RETURN NULL; END $$;"
	"CREATE OR REPLACE FUNCTION secteam.team_grant() RETURNS void" TEAM_GRANT_BEGIN
	"    secteam.events, secteam.reminders, secteam.team_keys TO secteam_officers;"
	"  GRANT UPDATE ON secteam.reports, secteam.participants, secteam.vendors,"
	"    secteam.report_vendors, secteam.reminders TO secteam_officers;"
	"  GRANT UPDATE (blob, blob_kind, blob_content, plain_sha256, subject,"
	"    from_name, from_email, message_id, content_hash, in_reply_to, ids_sealed)"
	"    ON secteam.messages TO secteam_officers;"
	"  GRANT UPDATE (detail) ON secteam.events TO secteam_officers;"
	"  GRANT UPDATE (by, reason) ON secteam.proposals TO secteam_officers;"
	"  GRANT UPDATE (reason) ON secteam.decisions TO secteam_officers;"
	"  GRANT UPDATE (path) ON secteam.report_files TO secteam_officers;"
	"  GRANT DELETE ON secteam.team_keys TO secteam_officers;"
	"  EXECUTE format('GRANT USAGE ON SEQUENCE %s, %s TO secteam_officers',"
	"    pg_get_serial_sequence('secteam.reports', 'id'),"
	"    pg_get_serial_sequence('secteam.messages', 'id'));"
	"  REVOKE UPDATE, DELETE, TRUNCATE ON secteam.events, secteam.proposals,"
	"    secteam.decisions, secteam.signatures, secteam.team_keys FROM PUBLIC;" TEAM_GRANT_END
		TEAM_GRANT_NOW,

	/* 10: a report's state, severity, claim, consent, "public" and
	 * release start are what its events say: officers no
	 * longer UPDATE them (the grant goes); an event of those kinds is
	 * applied to the report's row by the server, in the statement that
	 * stores it, or refused:
	 * - state "FROM -> TO": FROM is the report's state and the step is
	 *   in the lifecycle (secteam.transitions, core/triage.c's table);
	 * - severity "FROM -> TO": FROM is the report's, TO a known one;
	 * - consent: one of its two sentences;
	 * - claim: "claimed by ME[, taken over from X]" or "released by ME",
	 *   ME the login role making it;
	 * - public; release-start (once: its time is the event's).
	 * Only a reseal (subject and reporter, sealed again) still updates a
	 * report's row, with its event.  (The grants: migration 13.) */
	"CREATE TABLE secteam.transitions ("
	"  from_state text COLLATE \"C\" NOT NULL,"
	"  to_state text COLLATE \"C\" NOT NULL,"
	"  PRIMARY KEY (from_state, to_state)"
	");"
	"INSERT INTO secteam.transitions VALUES " TRANSITIONS ";"
	"CREATE FUNCTION secteam.refused(rid bigint, what text) RETURNS void"
	"  LANGUAGE plpgsql AS $$ BEGIN"
	"  RAISE EXCEPTION 'report %: %', rid, what USING ERRCODE = '23514';"
	"  END $$;"
	"CREATE FUNCTION secteam.apply_event() RETURNS trigger"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp"
	"  AS $$ DECLARE r record; me text := NEW.officer; BEGIN"
	"  SELECT * INTO r FROM secteam.reports WHERE id = NEW.report_id FOR UPDATE;"
	"  IF NOT FOUND THEN RETURN NULL; END IF;"
	"  IF NEW.kind = 'state' THEN"
	"    IF NOT EXISTS (SELECT FROM secteam.transitions t WHERE t.from_state = r.state"
	"        AND NEW.detail = t.from_state || ' -> ' || t.to_state) THEN"
	"      PERFORM secteam.refused(r.id, format('the state change \"%s\" is not a step of"
	" the lifecycle from its state, %s', NEW.detail, r.state));"
	"    END IF;"
	"    UPDATE secteam.reports SET state = substr(NEW.detail, length(r.state) + 5)"
	"      WHERE id = r.id;"
	"  ELSIF NEW.kind = 'severity' THEN"
	"    IF NOT EXISTS (SELECT FROM unnest(ARRAY[" SEVERITIES "]) v"
	"        WHERE v <> r.severity AND NEW.detail = r.severity || ' -> ' || v) THEN"
	"      PERFORM secteam.refused(r.id, format('the severity change \"%s\" does not"
	" start from its severity, %s, or names none of " SEVERITY_NAMES "',"
	" NEW.detail, r.severity));"
	"    END IF;"
	"    UPDATE secteam.reports SET severity = substr(NEW.detail, length(r.severity) + 5)"
	"      WHERE id = r.id;"
	"  ELSIF NEW.kind = 'consent' THEN"
	"    IF NEW.detail = " CONSENT_CREDIT " THEN"
	"      UPDATE secteam.reports SET consent_credit = 1 WHERE id = r.id;"
	"    ELSIF NEW.detail = " CONSENT_EXPLOIT " THEN"
	"      UPDATE secteam.reports SET consent_exploit = 1 WHERE id = r.id;"
	"    ELSE PERFORM secteam.refused(r.id, 'a consent is one of its two sentences');"
	"    END IF;"
	"  ELSIF NEW.kind = 'claim' THEN"
	"    IF NEW.detail = 'released by ' || me THEN"
	"      UPDATE secteam.reports SET claimed_by = NULL WHERE id = r.id;"
	/* A colleague's claim is taken over only by naming them: two
	 * officers claiming at once, the second is refused. */
	"    ELSIF NEW.detail = 'claimed by ' || me || (CASE WHEN nullif(r.claimed_by, '')"
	"       IS NULL OR r.claimed_by = me THEN '' ELSE ', taken over from '"
	"       || r.claimed_by END) THEN"
	"      UPDATE secteam.reports SET claimed_by = me WHERE id = r.id;"
	"    ELSE PERFORM secteam.refused(r.id, format('a claim is \"claimed by %s%s\" or"
	" \"released by %s\", made by its officer', me, CASE WHEN nullif(r.claimed_by, '')"
	" IS NULL OR r.claimed_by = me THEN '' ELSE ', taken over from ' || r.claimed_by"
	" END, me));"
	"    END IF;"
	"  ELSIF NEW.kind = 'public' THEN"
	"    UPDATE secteam.reports SET public = 1 WHERE id = r.id;"
	"  ELSIF NEW.kind = 'release-start' THEN"
	"    IF r.release_started IS NOT NULL THEN"
	"      PERFORM secteam.refused(r.id, 'its release process started already');"
	"    END IF;"
	"    UPDATE secteam.reports SET release_started = NEW.at WHERE id = r.id;"
	"  END IF;"
	"  RETURN NULL; END $$;"
	"CREATE TRIGGER c_events_apply AFTER INSERT ON secteam.events FOR EACH ROW"
	"  WHEN (NEW.report_id IS NOT NULL AND NEW.kind IN " APPLIED_KINDS ")"
	"  EXECUTE FUNCTION secteam.apply_event();",

	/* 11: a participant's key, acknowledgement and removal are what
	 * their events say (as a report's row, migration 10): each event
	 * names the participant's row (ref) and, for a key, the key (value),
	 * both clear (the row's id and key_fpr are); the server applies it,
	 * or refuses it for a participant not of the report or removed, a
	 * second acknowledgement, a key event without a key.  A participant
	 * starts without a key, acknowledgement or removal; officers no
	 * longer UPDATE participants (migration 13: who they are is sealed
	 * in place by a reseal, with its event: participant_guard).  What the timeline
	 * shows (the sealed detail) is what forward encrypts to
	 * (core/participants.c): a value that says another key stops it. */
	"ALTER TABLE secteam.events ADD COLUMN ref bigint;"
	"ALTER TABLE secteam.events ADD COLUMN value text;"
	"CREATE FUNCTION secteam.participant_start() RETURNS trigger"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp"
	"  AS $$ BEGIN"
	"  NEW.key_fpr := NULL; NEW.acknowledged_at := NULL;"
	"  NEW.removed_at := NULL; NEW.removed_by := NULL;"
	"  RETURN NEW; END $$;"
	"CREATE TRIGGER a_participants_start BEFORE INSERT ON secteam.participants"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.participant_start();"
	"CREATE FUNCTION secteam.apply_participant() RETURNS trigger"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp"
	"  AS $$ DECLARE p record; BEGIN"
	"  SELECT * INTO p FROM secteam.participants"
	"    WHERE id = NEW.ref AND report_id = NEW.report_id FOR UPDATE;"
	"  IF NOT FOUND OR p.removed_at IS NOT NULL THEN"
	"    PERFORM secteam.refused(NEW.report_id, format('%s names participant %s,"
	" who is not one of the report''s (or was removed)', NEW.kind, NEW.ref));"
	"  END IF;"
	"  IF NEW.kind = 'participant-key' AND coalesce(NEW.value, '') = '' THEN"
	"    PERFORM secteam.refused(NEW.report_id, 'a participant-key event names the key');"
	"  ELSIF NEW.kind = 'participant-ack' AND p.acknowledged_at IS NOT NULL THEN"
	"    PERFORM secteam.refused(NEW.report_id, format('participant %s acknowledged"
	" already', p.id));"
	"  END IF;"
	"  IF NEW.kind IN ('participant-add', 'participant-key') THEN"
	"    UPDATE secteam.participants SET key_fpr = nullif(NEW.value, '') WHERE id = p.id;"
	"  ELSIF NEW.kind = 'participant-ack' THEN"
	"    UPDATE secteam.participants SET acknowledged_at = NEW.at WHERE id = p.id;"
	"  ELSE"
	"    UPDATE secteam.participants SET removed_at = NEW.at, removed_by = NEW.officer"
	"      WHERE id = p.id;"
	"  END IF;"
	"  RETURN NULL; END $$;"
	/* A participant's key, acknowledgement and removal are written by
	 * apply_participant alone (officers hold no UPDATE of them): the
	 * guard keeps who was brought in, and when. */
	PARTICIPANT_GUARD_WHO "  RETURN NULL; END $$;"
	"CREATE TRIGGER c_events_participant AFTER INSERT ON secteam.events FOR EACH ROW"
	"  WHEN (NEW.ref IS NOT NULL AND NEW.kind IN " PARTICIPANT_KINDS ")"
	"  EXECUTE FUNCTION secteam.apply_participant();",

	/* 12: a vendor's status on a report (and its note, statement, NDA
	 * request) is what its events say: each names the vendor (ref) and,
	 * for a status, the status, for a note or statement its sealed text
	 * (value, sealed as the row keeps it); the server applies it to the
	 * vendor's row of the report, made at the first, or refuses it: an
	 * unknown status, a step down the statuses but by a correction, a
	 * second notification.  Officers no longer add or update those rows
	 * (migration 13: a clear note or statement is sealed in place, with
	 * a reseal's event: vendor_guard). */
	"CREATE FUNCTION secteam.apply_vendor() RETURNS trigger"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp"
	"  AS $$ DECLARE v record; BEGIN"
	"  INSERT INTO secteam.report_vendors (report_id, vendor_id, updated_at)"
	"    VALUES (NEW.report_id, NEW.ref, NEW.at) ON CONFLICT DO NOTHING;"
	"  SELECT * INTO v FROM secteam.report_vendors"
	"    WHERE report_id = NEW.report_id AND vendor_id = NEW.ref FOR UPDATE;"
	"  IF NEW.kind IN ('vendor-notify', 'vendor-status', 'vendor-status-correction')"
	"     AND " VENDOR_REFUSED " THEN"
	"    PERFORM secteam.refused(NEW.report_id, format('vendor %s: %s to \"%s\" does"
	" not follow from its status, %s', NEW.ref, NEW.kind, NEW.value, v.status));"
	"  END IF;"
	"  UPDATE secteam.report_vendors SET" VENDOR_APPLY_SET
	"  RETURN NULL; END $$;"
	"CREATE TRIGGER c_events_vendor AFTER INSERT ON secteam.events FOR EACH ROW"
	"  WHEN (NEW.ref IS NOT NULL AND NEW.report_id IS NOT NULL"
	"        AND NEW.kind IN " VENDOR_KINDS ")"
	"  EXECUTE FUNCTION secteam.apply_vendor();",

	/* 13: officers hold no UPDATE or DELETE of any table.
	 * What they still change in place goes through the functions below,
	 * which run as the administrator: each writes one kind of row, and
	 * the tables' guards (report_guard, message_guard, participant_guard,
	 * vendor_guard, seal_in_place, team_key_drop: a reseal's or an
	 * edit's event in the same transaction, clear to sealed only) still
	 * decide whether it may.  Each returns the rows it changed. */
	"CREATE FUNCTION secteam.reseal_report(i bigint, subj text, n text, e text)"
	"  RETURNS integer LANGUAGE plpgsql SECURITY DEFINER"
	"  SET search_path = pg_catalog, pg_temp AS $$ DECLARE c integer; BEGIN"
	"  UPDATE secteam.reports SET subject = subj, reporter_name = n,"
	"    reporter_email = e WHERE id = i;"
	"  GET DIAGNOSTICS c = ROW_COUNT; RETURN c; END $$;"
	"CREATE FUNCTION secteam.reseal_message(i bigint, subj text, fn text, fe text,"
	"    b bytea, mid text, irt text, ch text, ids text)"
	"  RETURNS integer LANGUAGE plpgsql SECURITY DEFINER"
	"  SET search_path = pg_catalog, pg_temp AS $$ DECLARE c integer; BEGIN"
	"  UPDATE secteam.messages SET subject = subj, from_name = fn, from_email = fe,"
	"    blob = b, message_id = mid, in_reply_to = irt, content_hash = ch,"
	"    ids_sealed = ids WHERE id = i;"
	"  GET DIAGNOSTICS c = ROW_COUNT; RETURN c; END $$;"
	"CREATE FUNCTION secteam.set_blob(i bigint, b bytea, k text, content integer,"
	"    digest text)"
	"  RETURNS integer LANGUAGE plpgsql SECURITY DEFINER"
	"  SET search_path = pg_catalog, pg_temp AS $$ DECLARE c integer; BEGIN"
	"  UPDATE secteam.messages SET blob = b, blob_kind = k, blob_content = content,"
	"    plain_sha256 = coalesce(digest, plain_sha256) WHERE id = i;"
	"  GET DIAGNOSTICS c = ROW_COUNT; RETURN c; END $$;"
	/* A value an old version stored clear, sealed in place (store/
	 * seal-legacy.c): which table and column, of a fixed few. */
	"CREATE FUNCTION secteam.seal_clear(t text, col text, k bigint, v text,"
	"    rid bigint, old text)"
	"  RETURNS integer LANGUAGE plpgsql SECURITY DEFINER"
	"  SET search_path = pg_catalog, pg_temp AS $$ DECLARE c integer; BEGIN"
	"  IF t = 'events' AND col = 'detail' THEN"
	"    UPDATE secteam.events SET detail = v"
	"      WHERE id = k AND report_id = rid AND detail = old;"
	"  ELSIF t = 'proposals' AND col = 'by' THEN"
	"    UPDATE secteam.proposals SET \"by\" = v"
	"      WHERE id = k AND report_id = rid AND \"by\" = old;"
	"  ELSIF t = 'proposals' AND col = 'reason' THEN"
	"    UPDATE secteam.proposals SET reason = v"
	"      WHERE id = k AND report_id = rid AND reason = old;"
	"  ELSIF t = 'decisions' AND col = 'reason' THEN"
	"    UPDATE secteam.decisions SET reason = v"
	"      WHERE id = k AND report_id = rid AND reason = old;"
	"  ELSIF t = 'report_files' AND col = 'path' THEN"
	"    UPDATE secteam.report_files SET path = v"
	"      WHERE k = 0 AND report_id = rid AND path = old;"
	"  ELSIF t = 'report_vendors' AND col = 'note' THEN"
	"    UPDATE secteam.report_vendors SET note = v"
	"      WHERE vendor_id = k AND report_id = rid AND note = old;"
	"  ELSIF t = 'report_vendors' AND col = 'statement' THEN"
	"    UPDATE secteam.report_vendors SET statement = v"
	"      WHERE vendor_id = k AND report_id = rid AND statement = old;"
	"  ELSE"
	"    RAISE EXCEPTION 'no value of %.% is sealed in place', t, col"
	"      USING ERRCODE = '42501';"
	"  END IF;"
	"  GET DIAGNOSTICS c = ROW_COUNT; RETURN c; END $$;"
	"CREATE FUNCTION secteam.seal_participant(i bigint, n text, e text, old text)"
	"  RETURNS integer LANGUAGE plpgsql SECURITY DEFINER"
	"  SET search_path = pg_catalog, pg_temp AS $$ DECLARE c integer; BEGIN"
	"  UPDATE secteam.participants SET name = n, email = e, section = NULL"
	"    WHERE id = i AND email = old;"
	"  GET DIAGNOSTICS c = ROW_COUNT; RETURN c; END $$;"
	"CREATE FUNCTION secteam.vendor_edit(i bigint, ct text, k text, kd text)"
	"  RETURNS integer LANGUAGE plpgsql SECURITY DEFINER"
	"  SET search_path = pg_catalog, pg_temp AS $$ DECLARE c integer; BEGIN"
	"  UPDATE secteam.vendors SET contact = coalesce(ct, contact),"
	"    key_fpr = coalesce(k, key_fpr), kind = coalesce(kd, kind) WHERE id = i;"
	"  GET DIAGNOSTICS c = ROW_COUNT; RETURN c; END $$;"
	/* When a recipient was last reminded. */
	"CREATE FUNCTION secteam.reminded(rid bigint, who text, k text, at bigint)"
	"  RETURNS integer LANGUAGE plpgsql SECURITY DEFINER"
	"  SET search_path = pg_catalog, pg_temp AS $$ BEGIN"
	"  INSERT INTO secteam.reminders (report_id, recipient, kind, sent_at)"
	"    VALUES (rid, who, k, at) ON CONFLICT (report_id, recipient, kind)"
	"    DO UPDATE SET sent_at = excluded.sent_at;"
	"  RETURN 1; END $$;"
	"CREATE FUNCTION secteam.team_keys_drop_old() RETURNS integer"
	"  LANGUAGE plpgsql SECURITY DEFINER"
	"  SET search_path = pg_catalog, pg_temp AS $$ DECLARE c integer; BEGIN"
	"  DELETE FROM secteam.team_keys WHERE fingerprint <> 'chain'"
	"    AND generation < (SELECT max(generation) FROM secteam.team_keys)"
	"    AND generation IN (SELECT generation FROM secteam.team_keys"
	"      WHERE fingerprint = 'chain');"
	"  GET DIAGNOSTICS c = ROW_COUNT; RETURN c; END $$;"
	"REVOKE EXECUTE ON FUNCTION secteam.reseal_report(bigint, text, text, text),"
	"  secteam.reseal_message(bigint, text, text, text, bytea, text, text, text, text),"
	"  secteam.set_blob(bigint, bytea, text, integer, text),"
	"  secteam.seal_clear(text, text, bigint, text, bigint, text),"
	"  secteam.seal_participant(bigint, text, text, text),"
	"  secteam.vendor_edit(bigint, text, text, text),"
	"  secteam.reminded(bigint, text, text, bigint),"
	"  secteam.team_keys_drop_old() FROM PUBLIC;"
	"CREATE OR REPLACE FUNCTION secteam.team_grant() RETURNS void" TEAM_GRANT_BEGIN
	"    secteam.events, secteam.team_keys TO secteam_officers;"
	"  REVOKE UPDATE, DELETE, TRUNCATE ON ALL TABLES IN SCHEMA secteam"
	"    FROM secteam_officers;"
	"  REVOKE INSERT ON secteam.report_vendors, secteam.reminders"
	"    FROM secteam_officers;"
	"  GRANT EXECUTE ON FUNCTION"
	"    secteam.reseal_report(bigint, text, text, text),"
	"    secteam.reseal_message(bigint, text, text, text, bytea, text, text, text, text),"
	"    secteam.set_blob(bigint, bytea, text, integer, text),"
	"    secteam.seal_clear(text, text, bigint, text, bigint, text),"
	"    secteam.seal_participant(bigint, text, text, text),"
	"    secteam.vendor_edit(bigint, text, text, text),"
	"    secteam.reminded(bigint, text, text, bigint),"
	"    secteam.team_keys_drop_old() TO secteam_officers;"
	"  EXECUTE format('GRANT USAGE ON SEQUENCE %s, %s TO secteam_officers',"
	"    pg_get_serial_sequence('secteam.reports', 'id'),"
	"    pg_get_serial_sequence('secteam.messages', 'id'));"
	"  REVOKE UPDATE, DELETE, TRUNCATE ON secteam.events, secteam.proposals,"
	"    secteam.decisions, secteam.signatures, secteam.team_keys,"
	"    secteam.transitions FROM PUBLIC;" TEAM_GRANT_END TEAM_GRANT_NOW,

	/* 14: a body is kept as received, to be verified again on every
	 * opening, with the session keys of what was encrypted
	 * (blob_content 2); never again as its decrypted content alone
	 * (1), whose verdict nothing could check: the server refuses such a
	 * row, and a change to one.  What the import verified (its digest
	 * included) never changes; a message kept as received only gets
	 * its session keys. */
	MESSAGE_GUARD_HEAD
	"     OR NEW.plain_sha256 IS DISTINCT FROM OLD.plain_sha256"
	"     OR NOT (NEW.blob_content = OLD.blob_content"
	"       OR (OLD.blob_content = 0 AND NEW.blob_content = 2)) THEN" MESSAGE_GUARD_TAIL
	"CREATE FUNCTION secteam.message_as_received() RETURNS trigger"
	"  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$ BEGIN"
	"  IF NEW.blob_content NOT IN (0, 2) THEN"
	"    RAISE EXCEPTION 'a message is kept as received, to be verified again,"
	" never as its content alone' USING ERRCODE = '42501';"
	"  END IF;"
	"  RETURN NEW; END $$;"
	"CREATE TRIGGER messages_as_received BEFORE INSERT ON secteam.messages"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.message_as_received();",

	/* 15: a roster reseal's writes a chunk of rows at a time (at
	 * 100k reports were 200k calls of the functions of migration 13,
	 * one a row, and the server spent more time entering them than
	 * updating), as arrays of the same length, the nth element of each
	 * one row; the guards still check each row at commit.  The one-row
	 * functions go: nothing calls them any more.  And
	 * has_event finds the transaction's events of one report through an
	 * index on both, where it read all the transaction's events for
	 * each row a reseal changed. */
	"CREATE INDEX events_xact_report ON secteam.events(xact, report_id)"
	"  WHERE xact IS NOT NULL;"
	"DROP INDEX secteam.events_xact;"
	"CREATE OR REPLACE FUNCTION secteam.has_event(rid bigint, k text, d text)"
	"  RETURNS boolean LANGUAGE plpgsql STABLE SECURITY DEFINER"
	"  SET search_path = pg_catalog, pg_temp AS $$ BEGIN"
	"  IF rid IS NULL THEN"
	"    RETURN EXISTS (SELECT FROM secteam.events e"
	"      WHERE e.xact = txid_current() AND e.report_id IS NULL"
	"      AND (e.kind = k OR (right(k, 1) = '%' AND e.kind LIKE k))"
	"      AND (d IS NULL OR e.detail = d));"
	"  END IF;"
	"  RETURN EXISTS (SELECT FROM secteam.events e"
	"    WHERE e.xact = txid_current() AND e.report_id = rid"
	"    AND (e.kind = k OR (right(k, 1) = '%' AND e.kind LIKE k))"
	"    AND (d IS NULL OR e.detail = d));"
	"  END $$;"
	"CREATE FUNCTION secteam.reseal_reports(i bigint[], subj text[], n text[],"
	"    e text[])"
	"  RETURNS integer LANGUAGE plpgsql SECURITY DEFINER"
	"  SET search_path = pg_catalog, pg_temp AS $$ DECLARE c integer; BEGIN"
	"  IF cardinality(subj) <> cardinality(i) OR cardinality(n) <> cardinality(i)"
	"     OR cardinality(e) <> cardinality(i) THEN"
	"    RAISE EXCEPTION 'reseal_reports: arrays of different lengths'"
	"      USING ERRCODE = '22023';"
	"  END IF;"
	"  UPDATE secteam.reports r SET subject = u.s, reporter_name = u.n,"
	"    reporter_email = u.e FROM unnest(i, subj, n, e) AS u(id, s, n, e)"
	"    WHERE r.id = u.id;"
	"  GET DIAGNOSTICS c = ROW_COUNT; RETURN c; END $$;"
	"CREATE FUNCTION secteam.reseal_messages(i bigint[], subj text[], fn text[],"
	"    fe text[], b bytea[], mid text[], irt text[], ch text[], ids text[])"
	"  RETURNS integer LANGUAGE plpgsql SECURITY DEFINER"
	"  SET search_path = pg_catalog, pg_temp AS $$ DECLARE c integer; BEGIN"
	"  IF cardinality(subj) <> cardinality(i) OR cardinality(fn) <> cardinality(i)"
	"     OR cardinality(fe) <> cardinality(i) OR cardinality(b) <> cardinality(i)"
	"     OR cardinality(mid) <> cardinality(i) OR cardinality(irt) <> cardinality(i)"
	"     OR cardinality(ch) <> cardinality(i) OR cardinality(ids) <> cardinality(i) THEN"
	"    RAISE EXCEPTION 'reseal_messages: arrays of different lengths'"
	"      USING ERRCODE = '22023';"
	"  END IF;"
	"  UPDATE secteam.messages m SET subject = u.s, from_name = u.fn,"
	"    from_email = u.fe, blob = u.b, message_id = u.mid,"
	"    in_reply_to = u.irt, content_hash = u.ch, ids_sealed = u.ids"
	"    FROM unnest(i, subj, fn, fe, b, mid, irt, ch, ids)"
	"      AS u(id, s, fn, fe, b, mid, irt, ch, ids)"
	"    WHERE m.id = u.id;"
	"  GET DIAGNOSTICS c = ROW_COUNT; RETURN c; END $$;"
	"DROP FUNCTION secteam.reseal_report(bigint, text, text, text),"
	"  secteam.reseal_message(bigint, text, text, text, bytea, text, text, text, text);"
	"REVOKE EXECUTE ON FUNCTION secteam.reseal_reports(bigint[], text[], text[], text[]),"
	"  secteam.reseal_messages(bigint[], text[], text[], text[], bytea[], text[],"
	"    text[], text[], text[]) FROM PUBLIC;"
	"CREATE OR REPLACE FUNCTION secteam.team_grant() RETURNS void" TEAM_GRANT_BEGIN
	"    secteam.events, secteam.team_keys TO secteam_officers;"
	"  REVOKE UPDATE, DELETE, TRUNCATE ON ALL TABLES IN SCHEMA secteam"
	"    FROM secteam_officers;"
	"  REVOKE INSERT ON secteam.report_vendors, secteam.reminders"
	"    FROM secteam_officers;"
	"  GRANT EXECUTE ON FUNCTION"
	"    secteam.reseal_reports(bigint[], text[], text[], text[]),"
	"    secteam.reseal_messages(bigint[], text[], text[], text[], bytea[], text[],"
	"      text[], text[], text[]),"
	"    secteam.set_blob(bigint, bytea, text, integer, text),"
	"    secteam.seal_clear(text, text, bigint, text, bigint, text),"
	"    secteam.seal_participant(bigint, text, text, text),"
	"    secteam.vendor_edit(bigint, text, text, text),"
	"    secteam.reminded(bigint, text, text, bigint),"
	"    secteam.team_keys_drop_old() TO secteam_officers;"
	"  EXECUTE format('GRANT USAGE ON SEQUENCE %s, %s TO secteam_officers',"
	"    pg_get_serial_sequence('secteam.reports', 'id'),"
	"    pg_get_serial_sequence('secteam.messages', 'id'));"
	"  REVOKE UPDATE, DELETE, TRUNCATE ON secteam.events, secteam.proposals,"
	"    secteam.decisions, secteam.signatures, secteam.team_keys,"
	"    secteam.transitions FROM PUBLIC;" TEAM_GRANT_END TEAM_GRANT_NOW,
	/* 16: the team chain (crypto/teamevent.h): signed, hash-linked
	 * events of the team's membership, officers' signing keys and team
	 * key generations, which every officer's client verifies itself.
	 * The server only keeps and orders them: append-only, and the place
	 * of each (seq) is the server's to give, never the writer's; who
	 * wrote a row (login) is the server's word too, kept for the
	 * administrator (the chain names its author, signed). */
	"CREATE SEQUENCE secteam.team_events_seq;"
	"CREATE TABLE secteam.team_events ("
	"  seq bigint PRIMARY KEY,"
	"  body bytea NOT NULL,"
	"  sig bytea NOT NULL CHECK (length(sig) = 64),"
	"  login text NOT NULL DEFAULT session_user,"
	"  at bigint NOT NULL DEFAULT extract(epoch FROM now())::bigint"
	");"
	"CREATE TRIGGER team_events_append_only BEFORE UPDATE OR DELETE"
	"  ON secteam.team_events FOR EACH ROW EXECUTE FUNCTION secteam.refuse_change();"
	"CREATE TRIGGER team_events_no_truncate BEFORE TRUNCATE"
	"  ON secteam.team_events FOR EACH STATEMENT EXECUTE FUNCTION secteam.refuse_change();"
	"CREATE FUNCTION secteam.team_event_order() RETURNS trigger"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp"
	"  AS $$ BEGIN"
	"  NEW.seq := nextval('secteam.team_events_seq');"
	"  NEW.login := session_user;"
	"  NEW.at := extract(epoch FROM transaction_timestamp())::bigint;"
	"  RETURN NEW; END $$;"
	"CREATE TRIGGER team_events_order BEFORE INSERT ON secteam.team_events"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.team_event_order();"
	"CREATE OR REPLACE FUNCTION secteam.team_grant() RETURNS void" TEAM_GRANT_BEGIN
	"    secteam.events, secteam.team_keys TO secteam_officers;"
	"  REVOKE UPDATE, DELETE, TRUNCATE ON ALL TABLES IN SCHEMA secteam"
	"    FROM secteam_officers;"
	"  REVOKE INSERT ON secteam.report_vendors, secteam.reminders"
	"    FROM secteam_officers;"
	"  GRANT INSERT (body, sig) ON secteam.team_events TO secteam_officers;"
	"  GRANT EXECUTE ON FUNCTION"
	"    secteam.reseal_reports(bigint[], text[], text[], text[]),"
	"    secteam.reseal_messages(bigint[], text[], text[], text[], bytea[], text[],"
	"      text[], text[], text[]),"
	"    secteam.set_blob(bigint, bytea, text, integer, text),"
	"    secteam.seal_clear(text, text, bigint, text, bigint, text),"
	"    secteam.seal_participant(bigint, text, text, text),"
	"    secteam.vendor_edit(bigint, text, text, text),"
	"    secteam.reminded(bigint, text, text, bigint),"
	"    secteam.team_keys_drop_old() TO secteam_officers;"
	"  EXECUTE format('GRANT USAGE ON SEQUENCE %s, %s TO secteam_officers',"
	"    pg_get_serial_sequence('secteam.reports', 'id'),"
	"    pg_get_serial_sequence('secteam.messages', 'id'));"
	"  REVOKE UPDATE, DELETE, TRUNCATE ON secteam.events, secteam.proposals,"
	"    secteam.decisions, secteam.signatures, secteam.team_keys,"
	"    secteam.transitions, secteam.team_events FROM PUBLIC;" TEAM_GRANT_END
		TEAM_GRANT_NOW,
	/* 17: the reports' chains (crypto/reportevent.h): one signed,
	 * hash-linked chain of events per report, which every officer's
	 * client verifies itself, and without which no row of a report is
	 * shown.  The server keeps and orders them (id, its to give, as
	 * login and at); seq is the place its writer claims in its
	 * report's chain, unique so that two officers writing to one
	 * report at once do not fork it (the second tries again); the
	 * chain itself names it, signed. */
	"CREATE SEQUENCE secteam.report_events_seq;"
	"CREATE TABLE secteam.report_events ("
	"  id bigint PRIMARY KEY,"
	"  report_id bigint NOT NULL,"
	"  seq bigint NOT NULL,"
	"  body bytea NOT NULL,"
	"  sig bytea NOT NULL CHECK (length(sig) = 64),"
	"  login text NOT NULL DEFAULT session_user,"
	"  at bigint NOT NULL DEFAULT extract(epoch FROM now())::bigint,"
	"  UNIQUE (report_id, seq)"
	");"
	"CREATE TRIGGER report_events_append_only BEFORE UPDATE OR DELETE"
	"  ON secteam.report_events FOR EACH ROW EXECUTE FUNCTION secteam.refuse_change();"
	"CREATE TRIGGER report_events_no_truncate BEFORE TRUNCATE"
	"  ON secteam.report_events FOR EACH STATEMENT EXECUTE FUNCTION secteam.refuse_change();"
	"CREATE FUNCTION secteam.report_event_order() RETURNS trigger"
	"  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp"
	"  AS $$ BEGIN"
	"  NEW.id := nextval('secteam.report_events_seq');"
	"  NEW.login := session_user;"
	"  NEW.at := extract(epoch FROM transaction_timestamp())::bigint;"
	"  RETURN NEW; END $$;"
	"CREATE TRIGGER report_events_order BEFORE INSERT ON secteam.report_events"
	"  FOR EACH ROW EXECUTE FUNCTION secteam.report_event_order();"
	"CREATE OR REPLACE FUNCTION secteam.team_grant() RETURNS void" TEAM_GRANT_BEGIN
	"    secteam.events, secteam.team_keys TO secteam_officers;"
	"  REVOKE UPDATE, DELETE, TRUNCATE ON ALL TABLES IN SCHEMA secteam"
	"    FROM secteam_officers;"
	"  REVOKE INSERT ON secteam.report_vendors, secteam.reminders"
	"    FROM secteam_officers;"
	"  GRANT INSERT (body, sig) ON secteam.team_events TO secteam_officers;"
	"  GRANT INSERT (report_id, seq, body, sig) ON secteam.report_events"
	"    TO secteam_officers;"
	"  GRANT EXECUTE ON FUNCTION"
	"    secteam.reseal_reports(bigint[], text[], text[], text[]),"
	"    secteam.reseal_messages(bigint[], text[], text[], text[], bytea[], text[],"
	"      text[], text[], text[]),"
	"    secteam.set_blob(bigint, bytea, text, integer, text),"
	"    secteam.seal_clear(text, text, bigint, text, bigint, text),"
	"    secteam.seal_participant(bigint, text, text, text),"
	"    secteam.vendor_edit(bigint, text, text, text),"
	"    secteam.reminded(bigint, text, text, bigint),"
	"    secteam.team_keys_drop_old() TO secteam_officers;"
	"  EXECUTE format('GRANT USAGE ON SEQUENCE %s, %s TO secteam_officers',"
	"    pg_get_serial_sequence('secteam.reports', 'id'),"
	"    pg_get_serial_sequence('secteam.messages', 'id'));"
	"  REVOKE UPDATE, DELETE, TRUNCATE ON secteam.events, secteam.proposals,"
	"    secteam.decisions, secteam.signatures, secteam.team_keys,"
	"    secteam.transitions, secteam.team_events, secteam.report_events"
	"    FROM PUBLIC;" TEAM_GRANT_END TEAM_GRANT_NOW,
};

const size_t schema_pg_count = ARRAY_SIZE(schema_pg);
