#!/bin/sh
# The : line asks what the key asks, for the same command:
# one question per command, from the command table (cmd_entry.ask).
# Rejecting, accepting, disclosing, marking public and forwarding ask
# first on the : line as their keys do; n does nothing (the state and
# the timeline are unchanged); the key R asks the very same question.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup tuiasks
e2e_tmux_setup
for i in 1 2; do
	printf 'From: Rita <rita@example.net>\nSubject: ask report %s\nMessage-ID: <ask%s@example.net>\nDate: %s\n\nbody %s\n' \
		"$i" "$i" "$(date -R)" "$i" >"$T/$i.eml"
done
st import "$T/1.eml" "$T/2.eml" >/dev/null || { echo "Bail out! import failed"; exit 1; }
st triage 1 --state triaged >/dev/null
nev() { st show 1 --json | jq '.events | length'; }
tui_start 100 24
wait_re "ask report 2" 10
cmd() { tmx send-keys -t t ":"; tmx send-keys -t t -l "$1"; tmx send-keys -t t Enter; }
before=$(nev)
asks() { # LINE QUESTION
	cmd "$1"
	wait_re "$2 \[y/N\]" 5
	tui_ok $? ":$1 asks: $2"
	tmx send-keys -t t n
	wait_re "nothing done: $1" 5
	tui_ok $? "  n: nothing done"
}
asks "triage 1 --state rejected" "reject report 1\?"
asks "triage 1 --state accepted" "accept report 1\?"
asks "triage 1 --public" "mark report 1 already public\? \(cannot be undone\)"
asks "forward 1 --participants" "forward report 1, encrypted, to all its participants\?"
tap_is "$(nev)" "$before" "nothing was recorded"
tap_is "$(st show 1 --json | jq -r .state)" triaged "the report is still triaged"
# The key asks the same question as the : line.
tmx send-keys -t t R
wait_re "reject report 1\? \[y/N\]" 5
tui_ok $? "R asks the : line's question"
tmx send-keys -t t y
wait_re "report 1: triaged -> rejected" 5
tui_ok $? "  y: rejected"
tui_stop
tap_done
