#!/bin/sh
# engines: sqlite pg
# End to end, two officers' UIs side by side (two tmux panes on the same
# database): a change made in one UI shows in the other within a second,
# without a key pressed there, and the other keeps its cursor on the
# report it was on.  Also a report imported meanwhile from the command
# line, and a change to the report open in the other UI.  On the team
# server the news comes by LISTEN/NOTIFY, on SQLite by data_version.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup tuilive
e2e_tmux_setup
for i in 1 2 3; do
	printf 'From: Rita <rita@example.net>\nSubject: live report %s\nMessage-ID: <live%s@example.net>\nDate: %s\n\nbody %s\n' \
		"$i" "$i" "$(date -R)" "$i" >"$T/$i.eml"
done
st import "$T/1.eml" "$T/2.eml" "$T/3.eml" >/dev/null || { echo "Bail out! import failed"; exit 1; }
tui_start 110 50
tmx split-window -v -t t "$(tui_cmd)"
pane() { tmx capture-pane -p -t "t.$1"; }
wait_pane() { # PANE REGEX SECONDS: until the pane shows it; prints ms taken
	_s=$(date +%s%N)
	_t=$(( $3 * 50 ))
	while [ $_t -gt 0 ]; do
		if pane "$1" | grep -qE -- "$2"; then
			echo $(( ($(date +%s%N) - _s) / 1000000 ))
			return 0
		fi
		sleep 0.02
		_t=$((_t - 1))
	done
	echo never
	return 1
}
row() { pane "$1" | grep -E "^ +$2 " | head -n 1; }
wait_pane 0 "live report 3" 10 >/dev/null && wait_pane 1 "live report 3" 10 >/dev/null
tap_ok $? "both UIs show the three reports"
# The lower UI moves to report 2 (the list is by deadline, then id).
tmx send-keys -t t.1 j
wait_pane 1 "reports 2/3" 5 >/dev/null
tap_ok $? "the lower UI's cursor is on the second report"
before=$(row 1 2)

# A change in the upper UI, through its command line.
tmx send-keys -t t.0 ":" 
tmx send-keys -t t.0 -l "triage 2 --severity critical --note from-the-other-ui"
tmx send-keys -t t.0 Enter
ms=$(wait_pane 1 "^ +2 +new +critical" 3); rc=$?
tap_ok $rc "the lower UI shows report 2 critical (after $ms ms), no key pressed" "before: $before" "now: $(row 1 2)"
[ "$ms" != never ] && [ "$ms" -le 1000 ]
tap_ok $? "within a second ($ms ms)"
tap_like "$(pane 1 | head -n 1)" "reports 2/3" "the lower UI's cursor stayed on report 2"

# A report imported from the command line appears in both.
printf 'From: Rita <rita@example.net>\nSubject: live report 4\nMessage-ID: <live4@example.net>\nDate: %s\n\nbody 4\n' \
	"$(date -R)" >"$T/4.eml"
st import "$T/4.eml" >/dev/null
ms=$(wait_pane 1 "live report 4" 3); rc=$?
tap_ok $rc "a new report shows in the lower UI ($ms ms)"
ms=$(wait_pane 0 "live report 4" 3); rc=$?
tap_ok $rc "and in the upper one ($ms ms)"
tap_like "$(pane 1 | head -n 1)" "reports 2/4" "still on report 2, of 4 now"

# The lower UI opens report 2; the upper one changes its state.
tmx send-keys -t t.1 Enter
wait_pane 1 "State +new" 5 >/dev/null
tap_ok $? "the lower UI opens report 2"
tmx send-keys -t t.0 ":"
tmx send-keys -t t.0 -l "triage 2 --state triaged"
tmx send-keys -t t.0 Enter
ms=$(wait_pane 1 "State +triaged" 3); rc=$?
tap_ok $rc "the open report shows its new state ($ms ms)"

# Nothing was written outside curses: the command's own output (its
# summary names the note) is in neither pane's scrollback.
sb=$(tmx capture-pane -p -S -500 -E -1 -t t.0; tmx capture-pane -p -S -500 -E -1 -t t.1)
tap_unlike "$sb" "from-the-other-ui" "no command output leaked outside curses"
tui_no_stray t.0
tui_no_stray t.1
tui_kill

# A burst of colleagues' changes (a team server: a notice per commit) is
# looked for at most once per 200 ms (tui.c, LIVE_MIN_MS), not once per
# notice; the last of them still shows within a second.
if [ "$(e2e_engine)" = pg ]; then
	: >"$T/trace"
	tui_start 110 50 "SECTEAM_TUI_TRACE='$T/trace'"
	wait_pane 0 "live report 4" 10 >/dev/null
	tap_ok $? "a UI with a trace shows the reports"
	before=$(grep -c '^live ' "$T/trace")
	s0=$(date +%s%N)
	n=0
	while [ $n -lt 30 ]; do
		n=$((n + 1))
		st triage 3 --note "burst $n" >/dev/null || break
	done
	st triage 3 --severity low >/dev/null
	burst=$(( ($(date +%s%N) - s0) / 1000000 ))
	ms=$(wait_pane 0 "^ +3 +new +low" 3); rc=$?
	tap_ok $rc "the burst's last change shows ($ms ms after it)"
	looks=$(( $(grep -c '^live ' "$T/trace") - before ))
	most=$(( burst / 200 + 3 ))
	[ "$looks" -le "$most" ]
	tap_ok $? "31 changes in $burst ms: looked for $looks times (at most $most)"
	tui_kill
fi
tap_done
