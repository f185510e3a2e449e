#!/bin/sh
# engines: pg
# The reports' chains against their attackers: psql as an officer and as
# the database administrator (who holds no officer's key) planting,
# moving or rewriting a report's rows.  Each message, each report's
# subject and reporter and each touched file is shown only when a
# verified event of that report's signed chain accounts for it; what
# none does is not shown, and named once ("report 7: message 12 has no
# signed import: not shown").
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup reportchain
e2e_tmux_setup
# The officer's cache of what they verified, this test's own.
SECTEAM_CACHE=$T/cache
export SECTEAM_CACHE
A=$E2E_OFFICER
sta() { PGUSER=$A "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" "$@"; }
offsql() { PGUSER=$A psql -X -q -At -v ON_ERROR_STOP=1 -d "$E2E_PGDB" -c "SET search_path = secteam" -c "$1" 2>&1; }
# The administrator, past every trigger (as the table's owner may).
admsql() { PGUSER=$E2E_ADMIN psql -X -q -At -v ON_ERROR_STOP=1 -d "$E2E_PGDB" \
	-c "SET search_path = secteam" -c "SET session_replication_role = replica" -c "$1" 2>&1; }
imp() { # N SUBJECT [IN-REPLY-TO]: a message from rita
	{ printf 'From: Rita <rita@example.net>\nSubject: %s\nMessage-ID: <rc%s@example.net>\n' "$2" "$1"
	  [ -n "${3:-}" ] && printf 'In-Reply-To: <%s>\n' "$3"
	  printf '\nbody %s\n\n--- a/drivers/net/ok%s.c\n+++ b/drivers/net/ok%s.c\n' "$1" "$1" "$1"; } >"$T/$1.eml"
	sta import "$T/$1.eml" >"$T/imp.out" 2>&1
}
showit() { sta show "$1" >"$T/show.out" 2>"$T/show.err"; }

imp 1 "secret one" && imp 2 "secret two" && imp 3 "re: secret one" rc1@example.net ||
	{ echo "Bail out! import failed"; cat "$T/imp.out"; exit 1; }
# An event's kind is its encoding's fifth byte (crypto/reportevent.h).
tap_is "$(db_sql "SELECT count(*) FROM report_events WHERE get_byte(body, 4) = 1" 2>&1)" 3 "each import is a signed event of its report's chain"
# Each new report's timeline is taken in as it starts (a
# changes-taken-in), then each of its rows is a signed change: the two
# reports' "import" rows and the reply's.
tap_is "$(db_sql "SELECT string_agg(report_id || ':' || get_byte(body, 4), ' ' ORDER BY id) FROM report_events" 2>&1)" \
	"1:1 1:5 1:4 2:1 2:5 2:4 1:1 1:4" "  with the timeline's rows, each a signed change"
showit 1
tap_like "$(cat "$T/show.out")" "secret one" "report 1 shows its subject"
tap_like "$(cat "$T/show.out")" "body 3" "  and its signed reply" "$(cat "$T/show.err")"
tap_like "$(cat "$T/show.out")" "drivers/net/ok1.c" "  and its files"
tap_unlike "$(cat "$T/show.err")" "not shown" "  and hides nothing"
# What was verified is kept in the officer's own cache, for them alone.
vc=$(find "$T/cache" -name 'report-verified*' -type f 2>/dev/null | head -n 1)
tap_is "$(stat -c %a "$vc" 2>/dev/null)" 600 "the events verified are kept in the officer's cache, 0600"
tap_is "$(( $(stat -c %s "$vc" 2>/dev/null || echo 0) % 32 ))$( [ -s "$vc" ] && echo ' kept')" "0 kept" "  one 32-byte key each"

# An officer plants a reply into report 1 with psql: clear values, the
# reporter's address, "valid", and another message's blob.
out=$(offsql "INSERT INTO messages (report_id, content_hash, from_name, from_email, subject,
	date, imported, encrypted, verdict, blob_kind, blob, blob_content, plain_sha256)
	SELECT 1, 'k1:planted', 'Rita', 'rita@example.net', 'PLANTED-REPLY', date, imported,
	0, 'valid', blob_kind, blob, blob_content, plain_sha256 FROM messages WHERE id = 3"); rc=$?
tap_is "$rc" 0 "an officer plants a reply in report 1 with psql" "$out"
planted=$(db_sql "SELECT max(id) FROM messages")
showit 1
tap_is "$(grep -c '^--- message' "$T/show.out")" 2 "  it is not in the thread (messages 1 and 3 are)"
tap_like "$(cat "$T/show.err")" "report 1: message $planted has no signed import: not shown" "  and is named once"
tap_is "$(grep -c "message $planted has no" "$T/show.err")" 1 "  once"

# The administrator moves report 2's genuine message into report 1's
# thread, and replays report 2's signed import into report 1's chain.
out=$(admsql "UPDATE messages SET report_id = 1 WHERE id = 2"); rc=$?
tap_is "$rc" 0 "the administrator moves report 2's message into report 1" "$out"
out=$(offsql "INSERT INTO report_events (report_id, seq, body, sig)
	SELECT 1, 9, body, sig FROM report_events WHERE report_id = 2 AND seq = 1"); rc=$?
tap_is "$rc" 0 "an officer replays report 2's import into report 1's chain" "$out"
showit 1
tap_unlike "$(cat "$T/show.out")" "body 2" "  report 2's message is not shown in report 1"
tap_like "$(cat "$T/show.err")" "report 1: message 2 has no signed import: not shown" "  and is named"
tap_like "$(cat "$T/show.err")" "report 1: event [0-9]* is not used: it is report 2's event" "  the replayed event is not used, and named"
tap_like "$(cat "$T/show.out")" "body 3" "  report 1's own reply is still shown"

# An officer plants a touched file (what maintainers suggestions follow).
out=$(offsql "INSERT INTO report_files (report_id, path) VALUES (1, 'mm/planted.c')"); rc=$?
tap_is "$rc" 0 "an officer plants a touched file in report 1" "$out"
showit 1
tap_unlike "$(cat "$T/show.out")" "mm/planted.c" "  it is not shown"
tap_like "$(cat "$T/show.err")" "report 1: file mm/planted.c has no signed import: not shown" "  and is named"
tap_like "$(cat "$T/show.out")" "drivers/net/ok1.c" "  the report's own file is"

# The administrator rewrites report 1's reporter (a reply would go to
# them).
out=$(admsql "UPDATE reports SET reporter_email = 'mallory@evil.example' WHERE id = 1"); rc=$?
tap_is "$rc" 0 "the administrator rewrites report 1's reporter" "$out"
showit 1
tap_unlike "$(sta show 1 --json 2>/dev/null)" "mallory" "  the rewritten reporter is not shown (nor replied to)"
tap_like "$(cat "$T/show.err")" "report 1: its subject and reporter have no signed import: not shown" "  and is named"

# The administrator plants a whole report "from" rita, signed valid.
out=$(admsql "INSERT INTO reports (id, subject, reporter_name, reporter_email, received)
	VALUES (50, 'PLANTED-REPORT', 'Rita', 'rita@example.net', 1700000000);
	INSERT INTO messages (id, report_id, content_hash, from_name, from_email, subject,
	date, imported, encrypted, verdict, fingerprint, blob_kind, blob, blob_content, plain_sha256)
	SELECT 50, 50, 'k1:planted50', 'Rita', 'rita@example.net', 'PLANTED-REPORT', date, imported,
	0, 'valid', '$OFFICER_FPR', blob_kind, blob, blob_content, plain_sha256 FROM messages WHERE id = 1"); rc=$?
tap_is "$rc" 0 "the administrator plants report 50 from rita" "$out"
showit 50
tap_unlike "$(cat "$T/show.out")" "PLANTED-REPORT" "  neither its subject nor its message is shown"
tap_like "$(cat "$T/show.err")" "report 50: message 50 has no signed import: not shown" "  its message is named"
tap_like "$(cat "$T/show.err")" "report 50: its subject and reporter have no signed import" "  and its subject"

# The UI says it too, when a report is opened.
tui_start 140 30 "PGUSER=$A"
wait_for "secteam-tui: reports"
tui_ok $? "the UI lists the reports"
keys Enter
wait_re "report [0-9]*: .*not shown" 10
tui_ok $? "  opening a report says what of it is not shown"
tui_kill

# A team database from before the reports' chains: its rows (here a
# report an older version stored clear, as the administrator writes it)
# are taken in by a checkpoint at the first import after the upgrade,
# on that officer's word; rows planted after it are not.
e2e_new_db old || { echo "Bail out! no second database"; exit 1; }
OLDDB=${DB#dbname=}
oldsql() { PGUSER=$E2E_ADMIN psql -X -q -At -v ON_ERROR_STOP=1 -d "$OLDDB" \
	-c "SET search_path = secteam" -c "SET session_replication_role = replica" -c "$1" 2>&1; }
out=$(oldsql "INSERT INTO reports (id, subject, reporter_name, reporter_email, received)
	VALUES (101, 'older report', 'Rita', 'rita@example.net', 1700000000);
	INSERT INTO messages (id, report_id, content_hash, from_name, from_email, subject,
	date, imported, encrypted, verdict, blob_kind, blob, blob_content)
	VALUES (101, 101, 'k1:old', 'Rita', 'rita@example.net', 'older report', 1700000000,
	1700000000, 0, 'not-signed', 'sealed', '\\x00', 0);
	INSERT INTO report_files VALUES (101, 'fs/old.c')"); rc=$?
tap_is "$rc" 0 "a database from before the chains holds report 101" "$out"
imp 9 "after the upgrade" || { echo "Bail out! import failed"; cat "$T/imp.out"; exit 1; }
tap_is "$(oldsql "SELECT report_id || ':' || seq FROM report_events ORDER BY id" | tr '\n' ' ')" \
	"101:1 101:2 101:3 1:1 1:2 1:3 " "the first import after the upgrade takes report 101 in (a checkpoint, a taken-in event, its timeline), then signs its own"
showit 101
tap_like "$(cat "$T/show.out")" "older report" "  report 101 is shown as it was"
tap_like "$(cat "$T/show.out")" "fs/old.c" "  with its file"
tap_unlike "$(cat "$T/show.err")" "not shown" "  hiding nothing"
out=$(oldsql "INSERT INTO reports (id, subject, reporter_name, reporter_email, received)
	VALUES (103, 'late plant', 'Rita', 'rita@example.net', 1700000000)"); rc=$?
imp 10 "once more" || { echo "Bail out! import failed"; cat "$T/imp.out"; exit 1; }
showit 103
tap_unlike "$(cat "$T/show.out")" "late plant" "a report planted after the checkpoint is not taken in"

tap_done
