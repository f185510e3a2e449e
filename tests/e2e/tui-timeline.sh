#!/bin/sh
# The UI's timeline view as a table: the header's
# WHEN is as wide as the dates below it, a long kind (participant-add)
# widens KIND instead of running into DETAIL, and every detail starts
# under the DETAIL header.  Driven through tmux; TAP output.
export SECTEAM_TEST_NOW=${SECTEAM_TEST_NOW:-2026-12-02T12:00:00Z}
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup tuitimeline
e2e_tmux_setup
mail_pgp t1 "UAF in tcp" "a use-after-free in net/ipv4/tcp_input.c"
e2e_import "$T/mail/t1.eml" || { echo "Bail out! import failed"; exit 1; }
sectui triage 1 --state triaged >/dev/null 2>&1
sectui maintainers 1 --add 'Dev Eloper <dev@example.org>' >/dev/null 2>&1 ||
	{ echo "Bail out! maintainers --add failed"; exit 1; }

# The column (0-based, in characters) where fixed text $2 starts in $1.
col() { python3 -c 'import sys; print(sys.argv[1].find(sys.argv[2]))' "$1" "$2"; }

tui_start 120 30
wait_for "UAF in tcp" || tap_diag "the list did not show"
keys t
if wait_for "timeline of report 1" && wait_for "participant-add"; then tui_ok 0 "t opens the timeline with the participant-add event"
else tui_ok 1 "t opens the timeline with the participant-add event"; fi
head=$(line_of "DETAIL")
row=$(line_of "participant-add")
imp=$(line_of "report from")
tap_diag "header: $head"
tap_diag "row:    $row"
# A row starts with the date ("2026-12-02 09:00 UTC"): OFFICER begins
# two columns after its end.
date_end=$(printf '%s\n' "$row" | python3 -c 'import re, sys; m = re.match(r"\s*\S+ \S+ \S+", sys.stdin.read()); print(m.end() if m else -1)')
if [ "$(col "$head" OFFICER)" -eq $((date_end + 2)) ]; then tui_ok 0 "the WHEN header is as wide as the dates"
else tui_ok 1 "the WHEN header is as wide as the dates" "OFFICER at $(col "$head" OFFICER), dates end at $date_end"; fi
if printf '%s' "$row" | grep -q "participant-add  Dev Eloper"; then tui_ok 0 "participant-add is whole, two spaces before its detail"
else tui_ok 1 "participant-add is whole, two spaces before its detail"; fi
if [ "$(col "$row" "Dev Eloper")" = "$(col "$head" DETAIL)" ]; then tui_ok 0 "the detail of participant-add is under DETAIL"
else tui_ok 1 "the detail of participant-add is under DETAIL"; fi
if [ "$(col "$imp" "report from")" = "$(col "$head" DETAIL)" ]; then tui_ok 0 "the import's detail is under DETAIL too"
else tui_ok 1 "the import's detail is under DETAIL too"; fi
# The timeline, the help screen and the pager search the same way
# (keys.c): the line found, or "not found".
tmx send-keys -t t / ; tmx send-keys -t t -l "Dev Eloper"; tmx send-keys -t t Enter
wait_re "/Dev Eloper: line [0-9]+"
tap_ok $? "/ in the timeline names the line it found" "$(screen | tail -n 2)"
tmx send-keys -t t / ; tmx send-keys -t t -l "no such words"; tmx send-keys -t t Enter
wait_re "not found: no such words"
tap_ok $? "/ in the timeline says what it did not find" "$(screen | tail -n 2)"
keys '?'
wait_for "help: timeline view" || tap_diag "no help screen"
tmx send-keys -t t / ; tmx send-keys -t t -l "quit at once"; tmx send-keys -t t Enter
wait_re "/quit at once: line [0-9]+"
tap_ok $? "/ in the help screen names the line it found" "$(screen | tail -n 2)"
keys q q q
# The UI has ended before the stray check (checking while it quits
# raced it: the check's C-l reached the shell), as tui-basic.sh waits.
wait_for "EXITED:0" 10 || tap_diag "the UI did not end"
tui_stop
tap_done
