#!/bin/sh
# engines: sqlite pg
# End to end, the UI's `:` line and moving between reports, in tmux:
#   - `:show 3` opens a pager with the whole report (j/k, / search, q
#     back), not one line in the status line; `:list --open` too;
#   - a command that acts (`:triage ... --note`) says its result in the
#     status line, and nothing it prints reaches the terminal outside
#     curses: neither the pane's scrollback nor its screen shows the
#     summary line a shell would print (the bug: the `E` note key ran the
#     command without capturing it);
#   - `E` (a note through $EDITOR) records the note and prints nothing;
#   - `:open 3` opens report 3 whatever is selected; typing 2 then Enter
#     in the list opens report 2; J and K step through the list's reports;
#     q from a report `:open` opened returns to the list;
#   - Tab completes an option's value (`--severity h` gives high), and
#     an option's name from the command's row (`--sev` gives --severity).
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup tuicmd
e2e_tmux_setup
for i in 1 2 3; do
	printf 'From: Rita <rita@example.net>\nSubject: cmd report %s\nMessage-ID: <cmd%s@example.net>\nDate: %s\n\nbody of report %s\nline two of %s\n' \
		"$i" "$i" "$(date -R)" "$i" "$i" >"$T/$i.eml"
done
st import "$T/1.eml" "$T/2.eml" "$T/3.eml" >/dev/null || { echo "Bail out! import failed"; exit 1; }
# An editor that writes a note without a terminal.
cat >"$T/editor" <<'EOF'
#!/bin/sh
printf 'note-from-the-editor-XYZ\n' >"$1"
EOF
chmod +x "$T/editor"
tui_start 110 30 "EDITOR=$T/editor"
cmd() { tmx send-keys -t t ":"; tmx send-keys -t t -l "$1"; tmx send-keys -t t Enter; }
wait_re "cmd report 3" 10
tap_ok $? "the list shows the reports"

cmd "show 3"
wait_re "^ :show 3 +\(.* lines; q goes back\)"
tap_ok $? ":show 3 opens a pager titled with the command" "$(screen)"
tap_like "$(screen)" "body of report 3" "the pager holds the report's body"
tap_like "$(screen)" "Subject +cmd report 3" "and its headers"
tmx send-keys -t t / ; tmx send-keys -t t -l "line two"; tmx send-keys -t t Enter
wait_re "/line two: line [0-9]+"
tap_ok $? "/ searches the pager" "$(screen | tail -n 2)"
tmx send-keys -t t q
wait_re "secteam-tui: reports"
tap_ok $? "q goes back to the list"
cmd "list --open"
wait_re "^ :list --open"
tap_ok $? ":list --open opens a pager too" "$(screen)"
tmx send-keys -t t q

# An action: one line in the status line, nothing outside curses.
wait_re "secteam-tui: reports"
cmd "triage 2 --note from-the-colon-line"
wait_re "report 2: from-the-colon-line"
tap_ok $? "an action says its result in the status line" "$(screen | tail -n 1)"
tap_unlike "$(screen | sed -n '2,28p')" "from-the-colon-line" "and draws no pager"

# E: a note through the editor.
tmx send-keys -t t j
tmx send-keys -t t E
wait_re "note added to report"
tap_ok $? "E records the editor's note" "$(screen | tail -n 1)"
tap_like "$(st show 2 --json | jq -r '[.events[] | select(.kind == "note") | .detail] | join(" ")')" \
	"note-from-the-editor-XYZ" "the note is in the timeline"
sb=$(tmx capture-pane -p -S -1000 -E -1 -t t)
tap_unlike "$sb" "report [0-9]+: note-from-the-editor|report [0-9]+: from-the-colon-line" \
	"no command output in the pane's scrollback"

# Moving: :open, a number then Enter, J and K.
cmd "open 3"
wait_re "Subject +cmd report 3|report 3:"
tap_ok $? ":open 3 opens report 3" "$(screen | head -n 3)"
tmx send-keys -t t q
wait_re "secteam-tui: reports"
tmx send-keys -t t 2
wait_re "^:open 2"
tap_ok $? "a digit in the list begins :open with it" "$(screen | tail -n 1)"
tmx send-keys -t t Enter
wait_re "^ report 2" 3
tap_like "$(screen | head -n 1)" "^ report 2" "Enter opens report 2"
tmx send-keys -t t J
wait_re "^ report 3" 3
tap_like "$(screen | head -n 1)" "^ report 3" "J opens the next report of the list"
tmx send-keys -t t K
wait_re "^ report 2" 3
tap_like "$(screen | head -n 1)" "^ report 2" "K the previous one"
# :open from deep in the views, then q: back to the list, as
# mutt and tig return to the index, not through every view before.
tmx send-keys -t t t
wait_re "^ timeline" 3
tap_ok $? "t opens report 2's timeline" "$(screen | head -n 1)"
cmd "open 1"
wait_re "^ report 1" 3
tap_ok $? ":open 1 from the timeline opens report 1" "$(screen | head -n 1)"
tmx send-keys -t t q
wait_re "secteam-tui: reports" 3
tap_ok $? "q from it returns to the list" "$(screen | head -n 1)"
# A on a new report: the move is not allowed, said at once, no question.
tmx send-keys -t t A
wait_re "cannot go from new to accepted" 3
tap_ok $? "A on a new report says the move is not allowed" "$(screen | tail -n 1)"
tap_unlike "$(screen | tail -n 1)" "y/N" "without asking first"
# Tab completes an option's value from the command's row: the words are
# the severities the command takes, and the completed line runs.
tmx send-keys -t t ":"; tmx send-keys -t t -l "triage 2 --severity h"; tmx send-keys -t t Tab
wait_re "^:triage 2 --severity high ?$" 3
tap_ok $? "Tab completes --severity h to high" "$(screen | tail -n 1)"
tmx send-keys -t t Enter
wait_re "report 2: .*none -> high" 5
tap_ok $? "  and the completed line runs" "$(screen | tail -n 1)"
tap_is "$(st show 2 --json | jq -r .severity)" high "report 2 is high"
tmx send-keys -t t ":"; tmx send-keys -t t -l "triage 2 --state "; tmx send-keys -t t Tab
wait_re "new triaged accepted rejected duplicate fixing fix-ready disclosed closed" 3
tap_ok $? "Tab after --state lists the states" "$(screen | tail -n 2)"
tmx send-keys -t t -l "fix"; tmx send-keys -t t Tab
wait_re "^:triage 2 --state fix" 3
tap_like "$(screen | tail -n 1)" "^:triage 2 --state fix\$" "  fix<Tab>: as far as fixing and fix-ready agree"
tmx send-keys -t t Escape
# Tab completes an option's name from the same row: of the command, or
# of the sub-command the line names.
tmx send-keys -t t ":"; tmx send-keys -t t -l "triage 2 --sev"; tmx send-keys -t t Tab
wait_re "^:triage 2 --severity ?$" 3
tap_ok $? "Tab completes --sev to --severity" "$(screen | tail -n 1)"
tmx send-keys -t t Escape
tmx send-keys -t t ":"; tmx send-keys -t t -l "vendor status 2 acme --n"; tmx send-keys -t t Tab
wait_re "note nda-requested" 3
tap_ok $? "Tab after vendor status --n lists the status options that start so" "$(screen | tail -n 2)"
tap_unlike "$(screen | tail -n 2)" "contact" "  and none of another sub-command's"
tmx send-keys -t t Escape
tui_stop
tap_done
