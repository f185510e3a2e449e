#!/bin/sh
# engines: sqlite
# End to end: a claim is never taken over silently.
#   - `triage ID --claim` on a report another officer holds is refused
#     (exit 1), naming the holder; `--claim --take` takes it over, the
#     event naming whom it was taken from;
#   - claiming a report one holds already changes nothing: no event;
#   - in the UI, `C` on another officer's report asks first, naming
#     them (n leaves it; y takes it over); `C` on one's own report
#     says so and logs nothing.  The key runs `triage --claim`: the
#     command asks, through the UI, as it asks on a terminal.
# A colleague's claim is written into the database by hand, as her claim
# event (the store applies it to the report): on SQLite the officer is
# the Unix user, and the test has only one.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup claim
e2e_tmux_setup
for i in 1 2; do
	printf 'From: Rita <rita@example.net>\nSubject: claim report %s\nMessage-ID: <claim%s@example.net>\nDate: %s\n\nbody %s\n' \
		"$i" "$i" "$(date -R)" "$i" >"$T/$i.eml"
done
st import "$T/1.eml" "$T/2.eml" >/dev/null || { echo "Bail out! import failed"; exit 1; }
claims() { st show "$1" --json | jq -r '[.events[] | select(.kind == "claim")] | length'; }
held() { st show "$1" --json | jq -r '.claimed_by'; }
db_sql "INSERT INTO events (report_id, at, officer, kind, detail)
	VALUES (1, 1, 'alice', 'claim', 'claimed by alice'),
	       (2, 1, 'alice', 'claim', 'claimed by alice')"

e2e_run 1 "--claim on alice's report is refused" triage 1 --claim
tap_like "$(cat "$T/err")" "report 1 is claimed by alice: --claim --take takes it over" \
	"naming the holder and the way to take it over"
tap_is "$(held 1)" alice "alice keeps it"
tap_is "$(claims 1)" 1 "no claim event (alice's alone)"
e2e_run 2 "--take alone is a usage error" triage 1 --take
e2e_run 0 "--claim --take takes it over" triage 1 --claim --take
tap_is "$(held 1)" "$E2E_OFFICER" "the report is the officer's"
tap_like "$(st show 1 --json | jq -r '[.events[] | select(.kind == "claim")] | last | .detail')" \
	"^claimed by $E2E_OFFICER, taken over from alice\$" "the event names whom it was taken from"
e2e_run 0 "claiming one's own report again exits 0" triage 1 --claim
tap_like "$(cat "$T/out")" "already claimed by $E2E_OFFICER" "saying it is already claimed"
tap_is "$(claims 1)" 2 "and logging no second claim of the officer's"

# The shell: the question is asked on a terminal; without one it is the
# error above (no silent yes), and --yes answers it.
db_sql "INSERT INTO events (report_id, at, officer, kind, detail)
	VALUES (1, 2, 'alice', 'claim', 'claimed by alice, taken over from $E2E_OFFICER')"
e2e_run 1 "without a terminal the question is an error" triage 1 --claim
tap_like "$(cat "$T/err")" "report 1 is claimed by alice: --claim --take takes it over \\(no terminal to ask on\\)" \
	"naming what was refused and why it was not asked"
tap_is "$(held 1)" alice "alice keeps it"
out=$(st --yes triage 1 --claim 2>&1 </dev/null); rc=$?
tap_is "$rc" 0 "--yes answers the question" "$out"
tap_is "$(held 1)" "$E2E_OFFICER" "and the report is taken over"

# The UI: report 2 is alice's.
tui_start 100 30
wait_re "claim report 2" 10
tap_ok $? "the list shows the reports"
keys j
keys C
wait_re "report 2 is claimed by alice: take it over\? \[y/N\]"
tap_ok $? "C on alice's report asks, naming her" "$(screen | tail -n 1)"
keys n
wait_re "nothing done"
tap_ok $? "n leaves it" "$(screen | tail -n 1)"
tap_is "$(held 2)" alice "alice keeps report 2"
keys C
wait_re "take it over\?"
keys y
wait_re "claimed by $E2E_OFFICER, taken over from alice"
tap_ok $? "y takes it over, saying so" "$(screen | tail -n 1)"
tap_is "$(held 2)" "$E2E_OFFICER" "report 2 is the officer's"
keys C
wait_re "report 2: already claimed by $E2E_OFFICER"
tap_ok $? "C again says the report is one's own already" "$(screen | tail -n 1)"
tap_is "$(claims 2)" 2 "and logs no second claim of the officer's"
tui_stop
tap_done
