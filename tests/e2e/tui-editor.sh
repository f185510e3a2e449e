#!/bin/sh
# E (a note in the officer's editor) leaves a clean screen behind: when
# the editor returns, the bottom line holds the status message alone,
# nothing the note command printed lands on the screen behind curses
# (which used to write over the key hints until C-l), the next key brings
# the hints back, and the note is recorded.  From the list and from the
# report view, with an editor that draws on the terminal's alternate
# screen as vi does, and with one that fails.  TAP output.
export SECTEAM_TEST_NOW=${SECTEAM_TEST_NOW:-2026-12-02T12:00:00Z}
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup tuieditor
e2e_tmux_setup
mail_pgp m1 "UAF in tcp" "the body of the report"
e2e_import "$T/mail/m1.eml" || { echo "Bail out! import failed"; exit 1; }
# An editor as a terminal sees one: it switches to the alternate screen,
# draws, writes the note and switches back.
cat >"$T/editor" <<'EOF'
#!/bin/sh
printf '\033[?1049h\033[2J\033[HEDITOR SCREEN\n'
sleep 0.2
printf 'NOTE-%s from the editor\n' "$$" >"$1"
printf '\033[?1049l'
EOF
printf '#!/bin/sh\nexit 3\n' >"$T/bad-editor"
chmod +x "$T/editor" "$T/bad-editor"
HINTS="?:help  q:back  :command"
bottom() { screen | tail -n 1 | sed 's/ *$//'; }
# clean TEXT: the bottom line is TEXT, and nothing else on the screen
# speaks of the note (what a command prints behind curses would).
clean() {
	[ "$(bottom)" = "$1" ] &&
		! screen | grep -qE 'EDITOR SCREEN|from the editor'
}
notes() { sectui show 1 --json | jq -r '[.events[] | select(.kind == "note")] | length'; }

tui_start 100 30 "EDITOR='$T/editor'"
wait_for "UAF in tcp"
tui_check "before E the bottom line holds the key hints" test "$(bottom)" = "$HINTS"
keys E
if wait_for "note added to report 1" 10 && clean "note added to report 1"; then
	tui_ok 0 "E from the list: the bottom line says 'note added to report 1' and nothing else is drawn over the screen"
else tui_ok 1 "E from the list: the bottom line says 'note added to report 1' and nothing else is drawn over the screen"; fi
keys j
if wait_for "$HINTS" && clean "$HINTS"; then tui_ok 0 "the next key brings the key hints back, without C-l"
else tui_ok 1 "the next key brings the key hints back, without C-l"; fi
tui_check "the note is recorded" test "$(notes)" = 1

keys Enter
wait_for "the body of the report"
keys E
if wait_gone "EDITOR SCREEN" 10 && wait_for "note added to report 1" 10 &&
	clean "note added to report 1" && screen | grep -qF "the body of the report"; then
	tui_ok 0 "E from the report view: the report is drawn again, the status alone at the bottom"
else tui_ok 1 "E from the report view: the report is drawn again, the status alone at the bottom"; fi
keys j
if wait_for "$HINTS" && clean "$HINTS"; then tui_ok 0 "and the next key brings the hints back"
else tui_ok 1 "and the next key brings the hints back"; fi
tui_check "the second note is recorded" test "$(notes)" = 2
tui_stop

tui_start 100 30 "EDITOR='$T/bad-editor'"
wait_for "UAF in tcp"
keys E
if wait_for "nothing recorded" 10 &&
	[ "$(bottom)" = "error: nothing recorded: the editor '$T/bad-editor' failed" ]; then
	tui_ok 0 "an editor that fails: the bottom line says so, alone"
else tui_ok 1 "an editor that fails: the bottom line says so, alone"; fi
tui_check "and no note is recorded" test "$(notes)" = 2
tap_done
