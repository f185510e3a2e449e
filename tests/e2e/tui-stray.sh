#!/bin/sh
# engines: sqlite pg
# The harness's own check that the UI writes nothing outside curses
# (tui_no_stray, which tui_stop asserts in every tui test) catches a
# stray write, wherever it lands:
#   - a clean session passes (the control);
#   - a line written to the pane's terminal behind curses' back while
#     the UI owns the screen: the screen differs from curses' repaint;
#   - lines printed while the UI is suspended (an $EDITOR for the note
#     key E that writes to the terminal, as a command printing to stdout
#     would): they scroll into the pane's scrollback, and the screen the
#     UI redraws shows none of them, so only the scrollback check sees it;
#   - one short line printed then: it stays on the normal screen hidden
#     behind the UI's alternate screen, and is all that is left on the
#     terminal once the UI quits; a UI that quits leaving nothing passes.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup tuistray
e2e_tmux_setup
printf 'From: Rita <rita@example.net>\nSubject: stray report 1\nMessage-ID: <stray1@example.net>\nDate: %s\n\nbody 1\n' \
	"$(date -R)" >"$T/1.eml"
st import "$T/1.eml" >/dev/null || { echo "Bail out! import failed"; exit 1; }
# editor N: a note editor that first prints N lines to the terminal.
editor() {
	cat >"$T/editor$1" <<EOS
#!/bin/sh
i=0
while [ \$i -lt $1 ]; do i=\$((i + 1)); echo "STRAY-FROM-THE-EDITOR \$i"; done
printf 'a note\n' >"\$1"
EOS
	chmod +x "$T/editor$1"
}
editor 40
editor 1

tui_start 100 30
wait_for "stray report 1" 10
why=$(tui_stray_check); rc=$?
tap_ok $rc "a clean session passes" "$why"
printf 'STRAY-BEHIND-CURSES\r\n' >"$(tmx display -p -t t '#{pane_tty}')"
wait_for "STRAY-BEHIND-CURSES"
why=$(tui_stray_check); rc=$?
[ $rc -ne 0 ]
tap_ok $? "a line written to the terminal while curses owns it is caught" "$why"
tap_like "$why" "differs from what curses redraws" "by the repaint comparison"
tui_kill

tui_start 100 30 "EDITOR=$T/editor40"
wait_for "stray report 1" 10
keys E
wait_for "note added" 10
tui_ok $? "E records the note (the editor ran)"
tap_unlike "$(screen)" "STRAY-FROM-THE-EDITOR" "the screen shows nothing of the 40 lines"
why=$(tui_stray_check); rc=$?
[ $rc -ne 0 ]
tap_ok $? "lines printed while the UI was suspended are caught" "$why"
tap_like "$(printf '%s' "$why" | tr '\n' ' ')" "^in the scrollback: STRAY-FROM-THE-EDITOR 1( |$)" \
	"in the pane's scrollback"
tui_kill

tui_start 100 30 "EDITOR=$T/editor1"
wait_for "stray report 1" 10
keys E
wait_for "note added" 10
why=$(tui_stray_check); rc=$?
[ $rc -ne 0 ]
tap_ok $? "one short line printed while suspended is caught" "$why"
tap_like "$(printf '%s' "$why" | tr '\n' ' ')" "^on the normal screen behind the UI: STRAY-FROM-THE-EDITOR 1( |$)" \
	"on the normal screen behind the alternate one"
# Once the UI has ended, that line is all that is left on the terminal.
keys Q
wait_for "EXITED:0" 10   # the UI has ended (checking before raced it)
why=$(tui_stray_check); rc=$?
[ $rc -ne 0 ]
tap_ok $? "after the UI quits, the line left on the terminal is caught" "$why"
tap_like "$(printf '%s' "$why" | tr '\n' ' ')" "^the UI ended, leaving on the terminal: STRAY-FROM-THE-EDITOR 1 EXITED:0" \
	"as what the UI left behind"
tui_kill

# A UI that quits leaving nothing passes.
tui_start 100 30
wait_for "stray report 1" 10
keys Q
wait_for "EXITED:0" 10
why=$(tui_stray_check); rc=$?
tap_ok $rc "a UI that quits and leaves nothing passes" "$why"
tui_kill

# Curses on a pipe or a file would write its escape sequences there: the
# UI refuses to start, names the stream that is not a terminal, and
# writes nothing to standard output.
out=$(sectui </dev/null 2>"$T/err"); rc=$?
[ $rc -eq 1 ] && [ -z "$out" ]
tap_ok $? "standard input not a terminal: the UI exits 1, nothing on stdout" "rc=$rc, stdout: $out"
tap_like "$(cat "$T/err")" "needs a terminal, and standard input is not one" "the message names standard input"
cat >"$T/to-file.sh" <<EOS
"$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config" >"$T/to-file.out" 2>"$T/to-file.err"
echo \$? >"$T/to-file.rc"
EOS
tmx -f /dev/null new-session -d -s f -x 80 -y 24 "sh '$T/to-file.sh'"
i=0
while [ ! -s "$T/to-file.rc" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ "$(cat "$T/to-file.rc" 2>/dev/null)" = 1 ] && [ ! -s "$T/to-file.out" ]
tap_ok $? "standard output a file: the UI exits 1 and the file stays empty" \
	"rc=$(cat "$T/to-file.rc" 2>/dev/null), $(wc -c <"$T/to-file.out") bytes written"
tap_like "$(cat "$T/to-file.err")" "needs a terminal, and standard output is not one" "the message names standard output"
tmx kill-server 2>/dev/null
tap_done
