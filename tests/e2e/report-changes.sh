#!/bin/sh
# engines: pg
# A report's changes against their attackers: each row of its timeline
# (a state, a claim, a note, a decided date) is a change signed by the
# officer who made it, in the report's chain; its state, severity,
# claim and consents and its decided date are what the verified changes
# derive, whatever the report's row on the server says.  psql as an
# officer and as the database administrator (past every trigger) plants
# rows, rewrites them, or replays another report's: none of it is
# shown, each is named once.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup reportchanges
SECTEAM_CACHE=$T/cache
export SECTEAM_CACHE
A=$E2E_OFFICER
offsql() { PGUSER=$A psql -X -q -At -v ON_ERROR_STOP=1 -d "$E2E_PGDB" -c "SET search_path = secteam" -c "$1" 2>&1; }
admsql() { PGUSER=$E2E_ADMIN psql -X -q -At -v ON_ERROR_STOP=1 -d "$E2E_PGDB" \
	-c "SET search_path = secteam" -c "SET session_replication_role = replica" -c "$1" 2>&1; }
imp() { # N SUBJECT
	printf 'From: Rita <rita@example.net>\nSubject: %s\nMessage-ID: <ch%s@example.net>\n\nbody %s\n' \
		"$2" "$1" "$1" >"$T/$1.eml"
	st import "$T/$1.eml" >"$T/imp.out" 2>&1
}
showit() { st show "$1" >"$T/show.out" 2>"$T/show.err"; }
field() { sed -n "s/^$1  *//p" "$T/show.out" | head -n 1; }
kinds() { # the kinds of report N's chain, in order (an event's kind is
	# its encoding's fifth byte: crypto/reportevent.h)
	db_sql "SELECT string_agg(get_byte(body, 4)::text, ' ' ORDER BY seq) FROM report_events WHERE report_id = $1"
}

imp 1 "first report" && imp 2 "second report" ||
	{ echo "Bail out! import failed"; cat "$T/imp.out"; exit 1; }
e2e_run 0 "the officer triages, claims and rates report 1" \
	triage 1 --state triaged --claim --severity high --note "looked at it"
e2e_run 0 "and decides its date" date set 1 "$(date -u -d '+5 days' +%Y-%m-%d)"
# import (1), the timeline taken in (5), then a change (4) per row:
# the import, the state, the claim, the severity, the note, the date.
tap_is "$(kinds 1)" "1 5 4 4 4 4 4 4" "each row of report 1's timeline is a signed change in its chain"
showit 1
tap_is "$(cat "$T/show.err")" "" "  nothing is hidden: every row is signed"
tap_is "$(field State)" "triaged" "  its state, as signed"
tap_is "$(field Severity)" "high" "  its severity"
tap_is "$(field 'Claimed by')" "$A" "  its claim"
signed_date=$(field Disclosure)
tap_like "$signed_date" "^20" "  its date"

# An officer with psql writes a state change the server applies to the
# report's row (a step of the lifecycle, in their own name): no signed
# change records it.
out=$(offsql "INSERT INTO events (report_id, at, officer, kind, detail, value)
	VALUES (1, 0, 'x', 'state', 'triaged -> accepted', 'accepted')"); rc=$?
tap_is "$rc" 0 "an officer plants a state change with psql (the server applies it)" "$out"
tap_is "$(db_sql "SELECT state FROM reports WHERE id = 1")" "accepted" "  the report's row on the server says accepted"
showit 1
tap_is "$(field State)" "triaged" "  the officer sees the state their signed changes derive"
tap_like "$(cat "$T/show.err")" "report 1: event [0-9]* \(state\) has no signed change: not shown" \
	"  the planted row is named, not shown"
tap_like "$(cat "$T/show.err")" "report 1: the server says its state is accepted, its signed changes triaged: shown as signed" \
	"  and the difference is said"
tap_unlike "$(cat "$T/show.out")" "triaged -> accepted" "  the planted row is not in the timeline"
tap_like "$(st list 2>&1)" "." "(the list still opens)"

# The administrator rewrites the claim (its row's value and text): the
# signed change's hashes no longer match.
out=$(admsql "UPDATE events SET detail = 'claimed by mallory', value = 'mallory'
	WHERE report_id = 1 AND kind = 'claim'; UPDATE reports SET claimed_by = 'mallory' WHERE id = 1"); rc=$?
tap_is "$rc" 0 "the administrator rewrites the claim, and the report's row" "$out"
showit 1
tap_is "$(field 'Claimed by')" "-" "  the rewritten claim is not believed: no signed claim stands"
tap_like "$(cat "$T/show.err")" "report 1: event [0-9]* \(claim\) is not as its signed change has it: not shown" \
	"  the rewritten row is named"
tap_unlike "$(cat "$T/show.out")" "mallory" "  mallory shows nowhere"

# A decision 60 days out, planted with its event: `date set` would
# refuse it (the policy), and no signed change records it.
far=$(date -u -d '+60 days' +%s)
out=$(offsql "INSERT INTO decisions (report_id, date, verdict, reason, override, officer, at)
	VALUES (1, $far, 'ok', NULL, 0, 'x', 0);
	INSERT INTO events (report_id, at, officer, kind, detail)
	VALUES (1, 0, 'x', 'date-set', 'disclosure date set far away')"); rc=$?
tap_is "$rc" 0 "an officer plants a decision 60 days out, with its event" "$out"
showit 1
tap_is "$(field Disclosure)" "$signed_date" "  show keeps the signed date"
tap_like "$(cat "$T/show.err")" "report 1: decision [0-9]* has no signed change: not shown" "  the planted decision is named"
dates=$(st date show 1 2>"$T/dates.err")
tap_unlike "$dates" "$(date -u -d "@$far" +%Y-%m-%d)" "  date show does not list it"
tap_like "$(cat "$T/dates.err")" "report 1: decision [0-9]* has no signed change: not shown" "  and names it"
tap_unlike "$(st date show 1 --json 2>/dev/null | jq -r '[.history[].date] | join(" ")')" \
	"$(date -u -d "@$far" +%Y-%m-%d)" "  nor does its JSON"
tap_unlike "$(st show 1 --json 2>/dev/null | jq -r '.disclosure.history | map(.date) | join(" ")')" \
	"$(date -u -d "@$far" +%Y-%m-%d)" "  nor show --json"

# Replays: report 2's genuine signed change (its import row's) into
# report 1's chain, and report 2's timeline row copied into report 1.
n=$(db_sql "SELECT count(*) FROM report_events WHERE report_id = 1")
out=$(offsql "INSERT INTO report_events (report_id, seq, body, sig)
	SELECT 1, $((n + 1)), body, sig FROM report_events WHERE report_id = 2 AND get_byte(body, 4) = 4
	ORDER BY seq LIMIT 1;
	INSERT INTO events (report_id, at, officer, kind, detail)
	SELECT 1, at, officer, kind, detail FROM events WHERE report_id = 2 AND kind = 'import'"); rc=$?
tap_is "$rc" 0 "an officer replays report 2's signed change and its row into report 1" "$out"
showit 1
tap_like "$(cat "$T/show.err")" "report 1: event [0-9]* is not used: it is report 2's event" "  the replayed change is not used"
tap_is "$(grep -c '  import  ' "$T/show.out")" 1 "  report 1's timeline has its own import row only"

# The timeline from before the changes were signed is taken in as it
# was: a row rewritten below the mark hides that part, named.
mark=$(db_sql "SELECT min(id) FROM events WHERE report_id = 2")
imp 3 "re: second report" || true
out=$(admsql "UPDATE events SET detail = 'REWRITTEN' WHERE id = $mark"); rc=$?
tap_is "$rc" 0 "the administrator rewrites report 2's first row" "$out"
showit 2
tap_like "$(cat "$T/show.err")" "report 2: event $mark \(import\) is not as its signed change has it: not shown" \
	"  its signed change no longer matches: named"
tap_unlike "$(cat "$T/show.out")" "REWRITTEN" "  and the rewritten text is not shown"

# A participant planted with psql, with a participant-add row naming
# the attacker's key (the server applies it to the row): forward would
# encrypt the report to it.  No signed change records it: it is no
# participant of the report.
out=$(offsql "WITH p AS (INSERT INTO participants (report_id, name, email, role, added_by, added_at)
	VALUES (1, 'Eve', 'eve@evil.example', 'maintainer', 'x', 0) RETURNING id)
	INSERT INTO events (report_id, at, officer, kind, detail, ref, value)
	SELECT 1, 0, 'x', 'participant-add', 'Eve <eve@evil.example> (maintainer), key $OFFICER_FPR confirmed',
	p.id, '$OFFICER_FPR' FROM p"); rc=$?
tap_is "$rc" 0 "an officer plants a participant and its event with psql" "$out"
pid=$(db_sql "SELECT max(id) FROM participants WHERE report_id = 1")
tap_is "$(db_sql "SELECT key_fpr FROM participants WHERE id = $pid")" "$OFFICER_FPR" "  the server's row holds the key"
tap_is "$(st show 1 --json 2>/dev/null | jq -r '[.participants[].email] | join(",")')" "" \
	"  no participant of report 1 is shown"
out=$(st forward 1 --to eve@evil.example --outbox "$T/eve-outbox" 2>&1); rc=$?
tap_is "$rc" 1 "  forward to the planted address is refused" "$out"
tap_is "$(find "$T/eve-outbox" -type f 2>/dev/null | wc -l)" 0 "  and nothing is written"
# The genuine participant, added by the officer, is one; the
# administrator's rewrite of its key is not believed.
e2e_run 0 "the officer adds Mia with her key" maintainers 1 --add 'Mia Maintainer <mia@example.org>' --key "$MAINTAINER_FPR"
tap_is "$(st show 1 --json 2>/dev/null | jq -r '[.participants[] | .email + " " + .key] | join(",")')" \
	"mia@example.org $MAINTAINER_FPR" "  she is the one participant, with her key"
out=$(admsql "UPDATE participants SET key_fpr = '$OFFICER_FPR' WHERE email IS NOT NULL AND report_id = 1 AND id <> $pid;
	UPDATE events SET value = '$OFFICER_FPR' WHERE report_id = 1 AND kind = 'participant-add' AND ref <> $pid"); rc=$?
tap_is "$rc" 0 "the administrator swaps her key in the row and in its event" "$out"
tap_is "$(st show 1 --json 2>/dev/null | jq -r '[.participants[] | .email + " " + (.key // "none")] | join(",")')" \
	"" "  her signed add no longer matches: she is not shown (named instead)"
tap_like "$(st show 1 2>&1 >/dev/null)" "event [0-9]* \(participant-add\) is not as its signed change has it" \
	"  the rewritten row is named"

# The officer's own next change still goes in, on top of the verified
# chain: the server's row and the signed changes do not have to agree.
e2e_run 0 "the officer adds a note to report 1" triage 1 --note "after the attacks"
showit 1
tap_like "$(cat "$T/show.out")" "after the attacks" "  it is shown (signed)"
tap_is "$(field State)" "triaged" "  and the state is still what was signed"

tap_done
