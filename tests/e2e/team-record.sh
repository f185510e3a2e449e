#!/bin/sh
# engines: sqlite pg
# The team record, played as the attacker: a
# second officer (bob) with psql on the team server, or anyone with the
# sqlite3 shell on a lone officer's file, tries to change what the record
# says without the program:
#  - flip consent, skip the lifecycle, add a report already disclosed
#    and claimed by a colleague, swap a participant's key (the server
#    refuses a change no event of its kind records, in the same
#    transaction: with one, the change is in the timeline, bob's);
#  - backdate an event, give it the largest id ("the latest" for ever),
#    take the next 1000 ids ahead of colleagues, sign as a colleague
#    (ids, times and the officer are the server's);
#  - rewrite a message's verdict, put another body in a signed
#    message's place, or insert a message of his own whose row says
#    "valid": the verdict shown is computed from the bytes shown
#    (tampered, never the reporter's signed text), and a message kept as
#    its content alone (a verdict nothing can check) is refused.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup teamrecord
# The officer's cache (what the client verified and remembers), this
# test's own.
SECTEAM_CACHE=$T/cache
export SECTEAM_CACHE
mkdir -p "$T/mail"
mail_pgp r1 "signed report one" "the reporter's own words about tcp"
mail_pgp r2 "another report" "text of another report altogether"
e2e_import "$T/mail/r1.eml" "$T/mail/r2.eml" || { echo "Bail out! import failed"; exit 1; }
st maintainers 1 --add "Dev One <dev@example.org>" >"$T/m.out" 2>&1 || { cat "$T/m.out"; false; } ||
	{ echo "Bail out! cannot add a participant"; exit 1; }
j() { st show "$1" --json | jq -r "$2"; }
tap_is "$(j 1 '.signature.verdict + " " + .signature.trust')" "valid trusted" \
	"control: report 1 is Rita's signed text"

if e2e_sqlite; then
	# The file's own triggers, whoever opens it with the sqlite3 shell.
	sq() { sqlite3 "$DB" "$1" 2>&1; }
	out=$(sq "UPDATE events SET detail = 'rewritten' WHERE id = 1"); rc=$?
	tap_ok "$([ $rc -ne 0 ]; echo $?)" "sqlite3: an UPDATE of an event is refused" "$out"
	out=$(sq "DELETE FROM events"); rc=$?
	tap_ok "$([ $rc -ne 0 ]; echo $?)" "sqlite3: a DELETE of events is refused" "$out"
	out=$(sq "INSERT INTO events (id, report_id, at, officer, kind, detail)
		VALUES (9223372036854775807, 1, 1577836800, 'bob', 'note', 'latest')"); rc=$?
	tap_ok "$([ $rc -ne 0 ]; echo $?)" "sqlite3: an event with a chosen id is refused" "$out"
	tap_like "$out" "ids are the store's" "  saying whose ids they are"
	# A report's row: what its events say, nothing else.
	out=$(sq "UPDATE reports SET consent_credit = 1 WHERE id = 1"); rc=$?
	tap_ok "$([ $rc -ne 0 ]; echo $?)" "sqlite3: flipping consent without an event is refused" "$out"
	tap_like "$out" "a report changes only by its events" "  saying why"
	out=$(sq "UPDATE reports SET state = 'disclosed' WHERE id = 1"); rc=$?
	tap_ok "$([ $rc -ne 0 ]; echo $?)" "sqlite3: a state set without an event is refused" "$out"
	out=$(sq "INSERT INTO events (report_id, at, officer, kind, detail)
		VALUES (1, 1, 'bob', 'state', 'new -> disclosed')"); rc=$?
	tap_ok "$([ $rc -ne 0 ]; echo $?)" "sqlite3: a state event that skips the lifecycle is refused" "$out"
	out=$(sq "INSERT INTO reports (subject, received, state, claimed_by)
		VALUES ('made up', 1, 'disclosed', 'alice')"); rc=$?
	tap_ok "$([ $rc -ne 0 ]; echo $?)" "sqlite3: a report cannot start disclosed and claimed" "$out"
	out=$(sq "INSERT INTO events (report_id, at, officer, kind, detail)
		VALUES (1, 1, 'bob', 'consent', 'reporter consents to be credited')"); rc=$?
	tap_is "$rc" 0 "sqlite3: a consent event is the change" "$out"
	tap_is "$(j 1 '.consent.credit')" "true" "  and the report says so"
	tap_is "$(j 1 '[.events[] | select(.kind == "consent") | .officer] | join(" ")')" "bob" \
		"  with bob's event in its timeline"
	out=$(sq "UPDATE participants SET key_fpr = 'EVE0000000000000000000000000000000000000'"); rc=$?
	tap_ok "$([ $rc -ne 0 ]; echo $?)" "sqlite3: a participant's key swapped without an event is refused" "$out"
	tap_like "$out" "a participant changes only by their events" "  saying why"
	out=$(sq "INSERT INTO events (report_id, at, officer, kind, detail, ref, value)
		VALUES (2, 1, 'bob', 'participant-key', 'x', (SELECT id FROM participants LIMIT 1),
		'EVE0000000000000000000000000000000000000')"); rc=$?
	tap_ok "$([ $rc -ne 0 ]; echo $?)" "sqlite3: a key event naming another report's participant is refused" "$out"
	out=$(sq "UPDATE messages SET verdict = 'valid' WHERE id = 2"); rc=$?
	tap_ok "$([ $rc -ne 0 ]; echo $?)" "sqlite3: a message's verdict cannot be rewritten" "$out"
	out=$(sq "UPDATE messages SET plain_sha256 = 'x' WHERE id = 1"); rc=$?
	tap_ok "$([ $rc -ne 0 ]; echo $?)" "sqlite3: nor its digest" "$out"
	out=$(sq "UPDATE messages SET blob_content = 1 WHERE id = 1"); rc=$?
	tap_ok "$([ $rc -ne 0 ]; echo $?)" "sqlite3: nor can a message become its content alone" "$out"
	out=$(sq "INSERT INTO messages (report_id, content_hash, imported, encrypted, verdict,
		blob_kind, blob, blob_content) VALUES (2, 'forged', 0, 1, 'valid', 'sealed', 'x', 1)"); rc=$?
	tap_ok "$([ $rc -ne 0 ]; echo $?)" "sqlite3: a message kept as its content alone is refused" "$out"
	tap_like "$out" "kept as received" "  saying how a message is kept"
	sq "UPDATE messages SET blob = (SELECT blob FROM messages WHERE id = 2) WHERE id = 1" >/dev/null
	# Sealed under the team key for its own row, it does not open in
	# another (a body sealed for the row but not the import's would
	# open as tampered: the digest).
	tap_like "$(j 1 '.signature.verdict + " " + (.messages_detail[0].open_error // .messages_detail[0].verdict)')" \
		"^(tampered tampered|error .*does not open)" \
		"sqlite3: another body in report 1's place is not shown as it"
	out=$(st show 1)
	tap_like "$out" "Verdict +(tampered|error)" "  show: Verdict tampered or error, never valid"
	tap_like "$out" "Trust +bad" "  show: Trust bad"
	tap_unlike "$out" "Signer +Rita" "  and no signer is named for it"
	tap_done
	exit
fi

BR=bob_$$
e2e_on_exit 'PGUSER=$E2E_ADMIN psql -X -q -d postgres -c "DROP OWNED BY $BR" -c "DROP ROLE IF EXISTS $BR" >/dev/null 2>&1'
e2e_admin team add-officer "$BR" --name Bob --key "$OFFICER_FPR" >/dev/null 2>&1 ||
	{ echo "Bail out! cannot add bob"; exit 1; }
adm() { PGUSER=$E2E_ADMIN psql -X -q -At -d "$DB" -c "SET search_path = secteam" -c "$1"; }
bob() { PGUSER=$BR psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB" -c "SET search_path = secteam" -c "$1" 2>&1; }
# This database takes the server's clock, as a real team's does (the
# tests' databases take the pinned one: e2e_client_clock).
adm "UPDATE settings SET client_clock = 0"
out=$(bob "UPDATE settings SET client_clock = 1"); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "bob cannot give the server his clock" "$out"

# 1. Consent, without an event: officers cannot UPDATE a report at all
# (its row is what its events say; only a reseal rewrites its subject).
out=$(bob "UPDATE reports SET consent_credit = 1 WHERE id = 1"); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "1: flipping consent without an event is refused" "$out"
tap_like "$out" "permission denied for table reports" "  officers hold no UPDATE of reports"
out=$(bob "INSERT INTO events (report_id, at, officer, kind, detail)
	VALUES (1, 0, 'x', 'consent', 'not a sentence of consent')"); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "  a consent event that is not one of its sentences is refused" "$out"
tap_is "$(adm "SELECT consent_credit FROM reports WHERE id = 1")" 0 "  consent is as it was"
# The event is the change: the server applies it, and it is in the record.
out=$(bob "INSERT INTO events (report_id, at, officer, kind, detail)
	VALUES (1, 0, 'x', 'consent', 'reporter consents to be credited')"); rc=$?
tap_is "$rc" 0 "  a consent event is the change" "$out"
tap_is "$(adm "SELECT consent_credit FROM reports WHERE id = 1")" 1 "  the server applied it"
tap_is "$(adm "SELECT officer FROM events WHERE kind = 'consent' ORDER BY id DESC LIMIT 1")" \
	"$BR" "  and the timeline names bob, whatever he wrote"

# 2. The lifecycle, a made-up report, a participant's key.
out=$(bob "UPDATE reports SET state = 'disclosed' WHERE id = 1"); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "2: a state set without an event is refused" "$out"
out=$(bob "INSERT INTO events (report_id, at, officer, kind, detail)
	VALUES (1, 0, 'x', 'state', 'new -> disclosed')"); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "  a state event that skips the lifecycle is refused" "$out"
tap_like "$out" "not a step of the lifecycle from its state, new" "  naming the lifecycle"
out=$(bob "INSERT INTO events (report_id, at, officer, kind, detail)
	VALUES (1, 0, 'x', 'state', 'fix-ready -> disclosed')"); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "  one that starts from another state than the report's too" "$out"
tap_is "$(adm "SELECT state FROM reports WHERE id = 1")" "new" "  the report is still new"
out=$(bob "INSERT INTO events (report_id, at, officer, kind, detail)
	VALUES (1, 0, '$E2E_OFFICER', 'claim', 'claimed by $E2E_OFFICER')"); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "  bob cannot claim a report in a colleague's name" "$out"
tap_is "$(adm "SELECT coalesce(claimed_by, '-') FROM reports WHERE id = 1")" "-" \
	"  the report is unclaimed"
out=$(st triage 1 --state triaged --severity high --claim 2>&1); rc=$?
tap_is "$rc" 0 "  the program's triage goes through (its events are the change)" "$out"
tap_is "$(adm "SELECT state || ' ' || severity || ' ' || claimed_by FROM reports WHERE id = 1")" \
	"triaged high $E2E_OFFICER" "  and the report's row is what they say"
out=$(bob "INSERT INTO events (report_id, at, officer, kind, detail)
	VALUES (1, 0, 'x', 'claim', 'claimed by $BR')"); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "  bob's plain claim of a colleague's report is refused" "$out"
tap_like "$out" "claimed by $BR, taken over from $E2E_OFFICER" "  a takeover names the holder"
out=$(bob "INSERT INTO reports (subject, received, state, claimed_by, consent_exploit)
	VALUES ('made up', 1, 'disclosed', '$E2E_OFFICER', 1) RETURNING state, coalesce(claimed_by, '-'), consent_exploit")
tap_is "$out" "new|-|0" "  a report bob inserts starts new, unclaimed, without consent"
out=$(bob "UPDATE participants SET key_fpr = 'EVE0000000000000000000000000000000000000' WHERE report_id = 1"); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "  a participant's key swapped without an event is refused" "$out"
tap_like "$out" "permission denied for table participants" "  officers hold no UPDATE of a participant's key"
out=$(bob "INSERT INTO events (report_id, at, officer, kind, detail, ref, value)
	VALUES (2, 0, 'x', 'participant-key', 'x',
	  (SELECT id FROM participants WHERE report_id = 1), 'EVE0000000000000000000000000000000000000')"); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "  a key event naming another report's participant is refused" "$out"
out=$(bob "INSERT INTO events (report_id, at, officer, kind, detail, ref)
	VALUES (1, 0, 'x', 'participant-key', 'x', (SELECT id FROM participants WHERE report_id = 1))"); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "  a key event without a key is refused" "$out"
tap_is "$(adm "SELECT coalesce(key_fpr, '-') FROM participants WHERE report_id = 1")" "-" \
	"  the participant's key is as it was"
out=$(bob "UPDATE participants SET email = 'eve@evil.example' WHERE report_id = 1"); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "  nor can the address of someone brought in change" "$out"
out=$(bob "BEGIN; INSERT INTO participants (report_id, email, added_by, added_at, key_fpr, acknowledged_at)
	VALUES (1, 'k1:bobs-friend', 'x', 1, 'EVE0000000000000000000000000000000000000', 5);
	INSERT INTO events (report_id, at, officer, kind, detail) VALUES (1, 0, 'x', 'participant-add', 'x');
	COMMIT; SELECT coalesce(key_fpr, '-') || ' ' || coalesce(acknowledged_at, 0) FROM participants
	WHERE email = 'k1:bobs-friend'"); rc=$?
tap_is "$out" "- 0" "  a participant bob inserts starts without a key or acknowledgement"

# A vendor's status on a report: only by its events, up the statuses.
st vendor add Acme --contact sec@acme.example >/dev/null 2>&1
st vendor status 1 Acme notified >/dev/null 2>&1
out=$(bob "UPDATE report_vendors SET status = 'fixed'"); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "  a vendor's status set without an event is refused" "$out"
tap_like "$out" "permission denied for table report_vendors" "  officers hold no UPDATE of it"
out=$(bob "INSERT INTO events (report_id, at, officer, kind, detail, ref, value)
	VALUES (1, 0, 'x', 'vendor-status', 'x', (SELECT id FROM vendors WHERE name = 'Acme'),
	'not-notified')"); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "  a status event that steps down is refused" "$out"
tap_is "$(adm "SELECT status FROM report_vendors WHERE report_id = 1")" "notified" \
	"  the vendor is still notified"

# No UPDATE or DELETE of any table: what officers change in place goes
# through the administrator's functions, behind the same guards.
tap_is "$(adm "SELECT count(*) FROM information_schema.role_table_grants
	WHERE grantee = 'secteam_officers' AND privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')")" 0 \
	"officers hold no UPDATE, DELETE or TRUNCATE of any table"
tap_is "$(adm "SELECT count(*) FROM information_schema.column_privileges
	WHERE grantee = 'secteam_officers' AND privilege_type = 'UPDATE'")" 0 \
	"  nor of any column"
out=$(bob "SELECT secteam.reseal_report(1, 'x', 'y', 'z')"); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "  a report's subject rewritten through the reseal function, without a reseal, is refused" "$out"
tap_is "$(adm "SELECT count(*) FROM pg_proc WHERE proname IN ('reseal_report', 'reseal_message')")" 0 \
	"  the one-row reseal functions are gone (nothing calls them)"
subj=$(adm "SELECT subject FROM reports WHERE id = 1")
out=$(bob "SELECT secteam.reseal_reports(ARRAY[1], ARRAY['x'], ARRAY['y'], ARRAY['z'])"); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "  nor through the function for many reports at once" "$out"
tap_like "$out" "report 1: its subject and reporter are the import's" "  which says why"
out=$(bob "SELECT secteam.reseal_reports(ARRAY[1, 2], ARRAY['x'], ARRAY['y'], ARRAY['z'])"); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "  arrays of different lengths are refused" "$out"
tap_is "$(adm "SELECT subject FROM reports WHERE id = 1")" "$subj" "  the subject is as the import stored it"
out=$(bob "SELECT secteam.reseal_messages(ARRAY[1], ARRAY['x'], ARRAY['y'], ARRAY['z'],
	ARRAY['\\x00'::bytea], ARRAY['m'], ARRAY[NULL], ARRAY['c'], ARRAY['i'])"); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "  a message rewritten through the function for many, without a reseal, is refused" "$out"
out=$(bob "SELECT secteam.seal_clear('reports', 'state', 1, 'disclosed', 1, 'new')"); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "  the sealing function writes only its own few columns" "$out"
out=$(bob "SELECT secteam.set_blob(1, 'x', 'sealed', 1, NULL)"); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "  a body replaced through the blob function, without a reseal, is refused" "$out"

# 3. Time, ids and the officer are the server's.
now=$(date +%s)
out=$(bob "INSERT INTO events (id, report_id, at, officer, kind, detail)
	VALUES (9223372036854775807, 1, 1577836800, '$E2E_OFFICER', 'note', 'backdated')
	RETURNING id, at, officer")
id=${out%%|*}; rest=${out#*|}; at=${rest%%|*}; who=${rest#*|}
tap_ok "$([ "$id" -lt 1000000 ]; echo $?)" "3: an event's id is the server's, not 2^63-1" "$out"
tap_ok "$([ "$at" -ge "$((now - 60))" ] && [ "$at" -le "$((now + 60))" ]; echo $?)" \
	"  its time is the server's clock, not 2020" "$out"
tap_is "$who" "$BR" "  its officer is bob's login, not the colleague he named"
out=$(bob "INSERT INTO decisions (id, report_id, date, verdict, officer, at)
	VALUES (9223372036854775806, 2, 1577836800, 'ok', 'x', 0) RETURNING id")
tap_ok "$([ "${out:-0}" -lt 1000000 ]; echo $?)" "  a decision's id too" "$out"

# 4. Ids taken ahead block nobody.
out=$(bob "INSERT INTO events (id, report_id, at, officer, kind, detail)
	SELECT g, 2, 0, 'x', 'note', 'ahead' FROM generate_series(
	  (SELECT max(id) FROM events WHERE id < 1000000000) + 1,
	  (SELECT max(id) FROM events WHERE id < 1000000000) + 1000) g")
out=$(st triage 2 --note "still writing" 2>&1); rc=$?
tap_is "$rc" 0 "4: after 1000 ids taken ahead, a colleague's write goes through" "$out"

# 5. A message: its verdict never changes, another body shows as tampered.
out=$(bob "UPDATE messages SET verdict = 'valid', signer_matches_from = 1 WHERE id = 2"); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "5: a message's verdict cannot be rewritten" "$out"
out=$(bob "UPDATE messages SET blob = (SELECT blob FROM messages WHERE id = 2) WHERE id = 1"); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "  a body replaced without a reseal event is refused" "$out"
out=$(bob "BEGIN; INSERT INTO events (report_id, at, officer, kind, detail)
	VALUES (1, 0, 'x', 'reseal', 'nothing to see');
	SELECT secteam.set_blob(1, (SELECT blob FROM messages WHERE id = 2), 'sealed',
	  (SELECT blob_content FROM messages WHERE id = 1), NULL); COMMIT;"); rc=$?
tap_is "$rc" 0 "  with a reseal event of his own, bob replaces it (the blob function, as a reseal)" "$out"
out=$(st show 1)
tap_like "$out" "Verdict +(tampered|error)" "  show says tampered (or that it does not open), never valid"
tap_like "$out" "Trust +bad" "  and Trust bad"
tap_unlike "$out" "Signer +Rita" "  naming no signer for it"
if e2e_sqlite; then
	tap_is "$(j 1 '[.events[] | select(.kind == "reseal") | .officer] | join(" ")')" "$BR" \
		"  the reseal is in the timeline, bob's"
else
	# Written with psql, it is no signed change of report 1's chain:
	# named, not shown (report-changes.sh).
	tap_like "$(st show 1 2>&1 >/dev/null)" "report 1: event [0-9]* \(reseal\) has no signed change: not shown" \
		"  bob's hand-written reseal is no signed change: named, not shown"
fi
tap_is "$(j 2 '.signature.verdict + " " + .signature.trust')" "valid trusted" \
	"  the message it came from is untouched"
# A message of bob's own making: the row's verdict is only what he says.
# One kept as its content alone (nothing to verify) is refused; one kept
# as received is verified when opened, and shows what its bytes are.
RFPR=$(j 2 '.signature.fingerprint')
forge() { # FORM: bob's INSERT of a message claiming Rita's valid signature
	bob "INSERT INTO messages (report_id, content_hash, imported, encrypted, verdict,
	  fingerprint, signer_matches_from, from_email, blob_kind, blob, blob_content, plain_sha256)
	  VALUES (2, 'k1:forged$1', 0, 1, 'valid', '$RFPR', 1, NULL, 'sealed',
	  convert_to('From: rita@example.net', 'UTF8'), $1, NULL)"
}
out=$(forge 1); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "  a message kept as its content alone (a recorded verdict only) is refused" "$out"
tap_like "$out" "kept as received" "  saying how a message is kept"
out=$(bob "BEGIN; INSERT INTO events (report_id, at, officer, kind, detail)
	VALUES (2, 0, 'x', 'reseal', 'as content');
	SELECT secteam.set_blob(2, (SELECT blob FROM messages WHERE id = 2), 'sealed', 1, NULL);
	COMMIT;"); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "  nor can a reseal make a message its content" "$out"
out=$(forge 0); rc=$?
tap_is "$rc" 0 "  bob inserts a message kept as received, its row saying valid" "$out"
tap_unlike "$(j 2 '[.messages_detail[] | .verdict // "error"] | join(" ")')" "valid valid" \
	"  it is not shown valid: its verdict is computed from its bytes"
tap_is "$(j 2 '.signature.verdict')" "valid" "  and report 2's own message still is"

# An existing team database (schema 4, before the server kept the
# record) migrates with every event kept, and team init says what it did.
DB1=$DB
e2e_new_db old || { echo "Bail out! no second database"; exit 1; }
e2e_import "$T/mail/r1.eml" || { echo "Bail out! import failed"; exit 1; }
st triage 1 --note "before the upgrade" >/dev/null
# (Its team key and team chain kept aside: schema 4 had neither; put
# back after the upgrade, so that what was stored opens as before.)
adm "CREATE TABLE tk_saved AS SELECT * FROM team_keys;
	CREATE TABLE te_saved AS SELECT * FROM team_events;
	DROP TABLE settings; DROP TABLE team_keys;
	ALTER TABLE events DROP COLUMN xact;
	ALTER TABLE messages DROP COLUMN plain_sha256;
	ALTER TABLE messages DROP COLUMN ids_sealed;
	DROP FUNCTION server_id, server_time, has_event, unrecorded, report_new,
	  report_guard, participant_guard, vendor_guard, message_guard, keyed_ok,
	  team_key_drop, sealed_from_clear, seal_in_place, sealed_recorded,
	  apply_event, refused, participant_start, apply_participant, apply_vendor,
	  reseal_reports, reseal_messages, set_blob, seal_clear, seal_participant,
	  vendor_edit, reminded, team_keys_drop_old, message_as_received,
	  team_event_order, report_event_order CASCADE;
	DROP TABLE transitions, team_events, report_events;
	DROP SEQUENCE team_events_seq, report_events_seq;
	ALTER TABLE events DROP COLUMN ref, DROP COLUMN value;
	DROP TRIGGER report_files_append_only ON report_files;
	DROP INDEX events_links;
	DELETE FROM schema_info WHERE version >= 5" >/dev/null 2>&1
tap_is "$(adm "SELECT max(version) FROM schema_info")" 4 "an old team database, at schema 4"
# Its officer never saw it with the reports' chains (it had none): a
# client that verified some of it before would rightly refuse a server
# that dropped them all.
SECTEAM_CACHE=$T/cache-upgrade
before=$(adm "SELECT count(*) || ':' || max(id) FROM events")
last=${before#*:}
out=$(e2e_admin team init --officer "$E2E_OFFICER" --key "$OFFICER_FPR" 2>&1); rc=$?
tap_is "$rc" 0 "team init upgrades it" "$out"
tap_like "$out" "upgraded from version 4 to [0-9]+, every event kept" "  and says so"
tap_like "$out" "sealed in place by 'secteam-tui roster reseal'" "  and how what is clear gets sealed"
adm "INSERT INTO team_keys SELECT * FROM tk_saved; DROP TABLE tk_saved;
	ALTER TABLE team_events DISABLE TRIGGER ALL; DELETE FROM team_events;
	INSERT INTO team_events SELECT * FROM te_saved; DROP TABLE te_saved;
	ALTER TABLE team_events ENABLE TRIGGER ALL" >/dev/null
tap_is "$(adm "SELECT count(*) || ':' || max(id) FROM events WHERE id <= $last")" "$before" \
	"  every event is kept"
out=$(PGUSER=$E2E_OFFICER psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB" \
	-c "UPDATE secteam.reports SET consent_credit = 1 WHERE id = 1" 2>&1); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "  and from now on refuses a change without its event" "$out"
tap_like "$(st show 1)" "Verdict +valid" "  its old message (no digest kept) still opens as it was"
DB=$DB1
tap_done
