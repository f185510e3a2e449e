#!/bin/sh
# E (a note in the officer's editor) leaves a clean screen behind: when
# the editor returns, the bottom line holds the status message alone,
# nothing the note command printed lands on the screen behind curses
# (which used to write over the key hints until C-l), the next key brings
# the hints back, and the note is recorded.  From the list and from the
# report view, with an editor that draws on the terminal's alternate
# screen as vi does, and with one that fails.  TAP output.
. "$SECTEAM_TOP/tests/e2e/lib-tmux.sh"

tap_plan 9
fixture_setup
mail_pgp m1 "UAF in tcp" "the body of the report"
import "$WORK/mail/m1.eml" || { echo "Bail out! import failed"; exit 1; }
# An editor as a terminal sees one: it switches to the alternate screen,
# draws, writes the note and switches back.
cat >"$WORK/editor" <<'EOF'
#!/bin/sh
printf '\033[?1049h\033[2J\033[HEDITOR SCREEN\n'
sleep 0.2
printf 'NOTE-%s from the editor\n' "$$" >"$1"
printf '\033[?1049l'
EOF
printf '#!/bin/sh\nexit 3\n' >"$WORK/bad-editor"
chmod +x "$WORK/editor" "$WORK/bad-editor"
HINTS="?:help  q:back  :command"
bottom() { screen | tail -n 1 | sed 's/ *$//'; }
# clean TEXT: the bottom line is TEXT, and nothing else on the screen
# speaks of the note (what a command prints behind curses would).
clean() {
	[ "$(bottom)" = "$1" ] &&
		! screen | grep -qE 'EDITOR SCREEN|from the editor'
}
notes() { sectui show 1 --json | jq -r '[.events[] | select(.kind == "note")] | length'; }

tui_start 100 30 "EDITOR='$WORK/editor'"
wait_for "UAF in tcp"
check "before E the bottom line holds the key hints" test "$(bottom)" = "$HINTS"
keys E
if wait_for "note added to report 1" 10 && clean "note added to report 1"; then
	ok "E from the list: the bottom line says 'note added to report 1' and nothing else is drawn over the screen"
else not_ok "E from the list: the bottom line says 'note added to report 1' and nothing else is drawn over the screen"; fi
keys j
if wait_for "$HINTS" && clean "$HINTS"; then ok "the next key brings the key hints back, without C-l"
else not_ok "the next key brings the key hints back, without C-l"; fi
check "the note is recorded" test "$(notes)" = 1

keys Enter
wait_for "the body of the report"
keys E
if wait_gone "EDITOR SCREEN" 10 && wait_for "note added to report 1" 10 &&
	clean "note added to report 1" && screen | grep -qF "the body of the report"; then
	ok "E from the report view: the report is drawn again, the status alone at the bottom"
else not_ok "E from the report view: the report is drawn again, the status alone at the bottom"; fi
keys j
if wait_for "$HINTS" && clean "$HINTS"; then ok "and the next key brings the hints back"
else not_ok "and the next key brings the hints back"; fi
check "the second note is recorded" test "$(notes)" = 2
tui_stop

tui_start 100 30 "EDITOR='$WORK/bad-editor'"
wait_for "UAF in tcp"
keys E
if wait_for "nothing recorded" 10 &&
	[ "$(bottom)" = "error: the editor '$WORK/bad-editor' failed: nothing recorded" ]; then
	ok "an editor that fails: the bottom line says so, alone"
else not_ok "an editor that fails: the bottom line says so, alone"; fi
check "and no note is recorded" test "$(notes)" = 2
tap_done
