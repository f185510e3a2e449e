#!/bin/sh
# engines: sqlite pg
# The officers' UI end to end, driven through tmux: the list, a report and
# its pager, search, a state change through the `:` line and its event in
# the timeline, resizing from 120x40 to 80x24, the help screen listing
# every key of the key table, a config binding, and the embargo calendar
# moving when a date changes, and :import's summary in the status line
# after its progress (which core reports through a callback).
# TAP output.
export SECTEAM_TEST_NOW=${SECTEAM_TEST_NOW:-2026-12-02T12:00:00Z}
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup tuibasic
e2e_tmux_setup
body=$(printf 'Hello,\n\nThere is a use-after-free in net/ipv4/tcp_input.c.\n'
       i=1; while [ $i -le 60 ]; do printf 'line %02d of the analysis\n' $i; i=$((i + 1)); done
       printf 'the end of the report\n')
mail_pgp m1 "UAF in tcp" "$body"
mail_pgp m2 "Overflow in ext4 xattr 漢字" "ext4: a heap overflow in fs/ext4/xattr.c"
mail_pgp m3 "Race in af_packet" "a race"
e2e_import "$T/mail/m1.eml" "$T/mail/m2.eml" "$T/mail/m3.eml" || { echo "Bail out! import failed"; exit 1; }
echo 'bind reports K :triage %i --state triaged' >"$T/config"

tui_start 120 40
if wait_for "UAF in tcp" && wait_for "Race in af_packet" && line_of "UAF in tcp" | grep -q "new .*none .*✓"; then
	tui_ok 0 "the list shows every report with its verdict mark"
else tui_ok 1 "the list shows every report with its verdict mark"; fi

# 2: open the report: headers, trusted bar, decrypted body
keys Enter
# The signature bar names the signer by her certified user ID and is
# green (background 42) for a valid signature whose key speaks for From.
if wait_for "SIGNATURE valid" && wait_for "use-after-free" &&
   screen | grep -qF " ✔ SIGNATURE valid | signed by Rita Reporter <rita@example.net> (valid) | From matches | encrypted: yes" &&
   screen_e | grep -F "SIGNATURE valid" | grep -q '\[42m'; then
	tui_ok 0 "Enter opens the report: the signature bar names the signer, green, and the decrypted body"
else tui_ok 1 "Enter opens the report: the signature bar names the signer, green, and the decrypted body"; fi

# 3: scroll the pager
keys G
if wait_for "the end of the report" && ! screen | grep -q "line 01 of"; then tui_ok 0 "G scrolls to the end"
else tui_ok 1 "G scrolls to the end"; fi
keys g
tui_check "g goes back to the top" wait_for "line 01 of the analysis"
keys PgDn
if wait_for "line 3" && ! screen | grep -q "line 01 of"; then tui_ok 0 "PgDn pages down"; else tui_ok 1 "PgDn pages down"; fi

# 6: search in the pager
keys g / ; type_text "line 55"; keys Enter
tui_check "/ finds text in the body" wait_for "/line 55: line"

# 7: change the state through the : line (the open report's id is implied)
keys : ; type_text "triage --state triaged"; keys Enter
if wait_re "^State +triaged"; then tui_ok 0 ":triage --state triaged acts on the open report"
else tui_ok 1 ":triage --state triaged acts on the open report"; fi

# 8: the event in the timeline
keys t
if wait_for "timeline of report 1" && wait_for "new -> triaged"; then tui_ok 0 "the timeline shows the state change, newest first"
else tui_ok 1 "the timeline shows the state change, newest first"; fi

# 9: resize keeps the place
keys q
wait_for "SIGNATURE valid"
keys g PgDn
wait_gone "line 01 of"
# The first body line below the signature bar (one row wide, two at 80
# columns: the signer below).
body1() { screen | sed -n '/SIGNATURE valid/,$p' | grep -m1 -E '^[|!] '; }
first=$(body1)
tmx resize-window -t t -x 80 -y 24
sleep 0.3
if wait_for "SIGNATURE valid" && [ "$(body1)" = "$first" ] &&
   [ "$(tmx display -p -t t '#{window_width}x#{window_height}')" = 80x24 ]; then
	tui_ok 0 "resizing from 120x40 to 80x24 keeps the place"
else tui_ok 1 "resizing from 120x40 to 80x24 keeps the place"; fi

# 10: back to the list, search it
keys q
wait_for "secteam-tui: reports"
keys / ; type_text "af_packet"; keys Enter
if wait_for "/af_packet: report 3"; then tui_ok 0 "/ searches the list"; else tui_ok 1 "/ searches the list"; fi
keys g n
tui_check "n finds the next match" wait_for "/af_packet: report 3"

# 12: help lists every key of the reports view, from the key table
tmx resize-window -t t -x 120 -y 60
keys '?'
wait_for "Keys in the reports view"
wait_for "UI commands for the : line"
help=$(screen)
keys_missing=""
nk=0
for k in $(sed -n 's/^	{ "\([a-z-]*\)", "\([^"]*\)", \([A-Z_|() ]*\),.*/\2@\3/p' "$SECTEAM_TOP/tui/keys.c" |
	   grep -E '@.*(V_ALL|LIST|SEL)' | sed 's/@.*//' | tr ' ' '\n' | grep -v '^$' | sort -u); do
	nk=$((nk + 1))
	pat=$(printf '%s' "$k" | sed 's/[?]/[?]/')
	printf '%s\n' "$help" | grep -qE "^  ([^ ]+, )*$pat(,| )" || keys_missing="$keys_missing $k"
done
tap_diag "$nk keys of the reports view in the key table"
if [ -z "$keys_missing" ] && [ $nk -ge 20 ]; then tui_ok 0 "help shows every key bound in the reports view"
else tap_diag "missing:$keys_missing"; tui_ok 1 "help shows every key bound in the reports view"; fi
keys g
tui_check "help shows the config binding" wait_for "(config)"

# 14: the config binding works
keys q
wait_for "secteam-tui: reports"
keys g j j K
sleep 0.5
if line_of "Race in af_packet" | grep -q " triaged "; then
	tui_ok 0 "bind reports K runs its command on the selected report"
else tui_ok 1 "bind reports K runs its command on the selected report"; fi

# 15-16: the calendar
keys c
if wait_for "embargo calendar" && wait_for "UAF in tcp" && screen | sed -n 3p | grep -q "T"; then
	tui_ok 0 "the calendar shows open embargoes and today"
else tui_ok 1 "the calendar shows open embargoes and today"; fi
if "$SECTEAM_BIN" --help | grep -q '^  date'; then
	before=$(line_of "UAF in tcp")
	keys : ; type_text "date set 1 2026-12-09"; keys Enter
	sleep 0.3
	wait_for "12-09" 3
	after=$(line_of "UAF in tcp")
	if [ "$before" != "$after" ] && printf '%s' "$after" | grep -q "12-09"; then
		tui_ok 0 "the calendar bar moves when the date changes"
	else
		tap_diag "before: $before"; tap_diag "after:  $after"
		tui_ok 1 "the calendar bar moves when the date changes"
	fi
else
	tap_skip "date command not available" "skipped"
fi

# 17-19: the panels of the open report
keys Enter
wait_for "SIGNATURE valid"
keys d
if wait_for "disclosure of report" && { ! "$SECTEAM_BIN" --help | grep -q '^  date' || wait_for "Decided date: 2026-12-09"; } &&
   wait_for "Decisions, oldest first"; then tui_ok 0 "the disclosure panel shows the decided date and the policy"
else tui_ok 1 "the disclosure panel shows the decided date and the policy"; fi
keys q v
if wait_for "vendors of report" && wait_for "VENDOR"; then tui_ok 0 "the vendors panel opens"
else tui_ok 1 "the vendors panel opens"; fi
keys q p
if wait_for "participants of report" && wait_for "no participants yet" && wait_for "net/ipv4/tcp_input.c"; then
	tui_ok 0 "the participants panel shows the touched files"
else tui_ok 1 "the participants panel shows the touched files"; fi
tui_stop

# 20: Tab completes verbs on the : line (from the command table)
tui_start 100 30
wait_for "UAF in tcp"
keys : ; type_text "tri"; keys Tab
if wait_re "^:triage ?$"; then tui_ok 0 "Tab completes a verb on the : line"; else tui_ok 1 "Tab completes a verb on the : line"; fi
keys Escape

# 21-24: sort, filter, confirmation, history
keys s
if wait_for "sort: received"; then tui_ok 0 "s cycles the sort"; else tui_ok 1 "s cycles the sort"; fi
# By subject: the subjects are sealed, so the UI opens them to sort (the
# order is neither by id, 1 2 3, nor received).
keys : ; type_text "sort subject"; keys Enter
if wait_for "sort: subject" &&
   [ "$(screen | grep -oE 'Overflow in ext4|Race in af_packet|UAF in tcp' | tr '\n' ,)" = \
     "Overflow in ext4,Race in af_packet,UAF in tcp," ]; then
	tui_ok 0 ":sort subject orders the list by the opened subjects"
else tui_ok 1 ":sort subject orders the list by the opened subjects"; fi
# Filtered, the rows left keep the subject order (not their ids', 1 3).
keys : ; type_text "filter state=triaged"; keys Enter
if wait_for "filter: state=triaged" && ! screen | grep -q "Overflow in ext4" &&
   [ "$(screen | grep -oE 'UAF in tcp|Race in af_packet' | tr '\n' ,)" = \
     "Race in af_packet,UAF in tcp," ]; then
	tui_ok 0 "  filtered, the rows left keep that order"
else tui_ok 1 "  filtered, the rows left keep that order"; fi
keys : ; type_text "filter"; keys Enter
keys : ; type_text "sort received"; keys Enter
wait_for "sort: received"
keys : ; type_text "filter state=new"; keys Enter
if wait_for "filter: state=new" && wait_for "Overflow in ext4" && ! screen | grep -q "UAF in tcp"; then
	tui_ok 0 ":filter state=new filters the list"
else tui_ok 1 ":filter state=new filters the list"; fi
keys : ; type_text "filter"; keys Enter
wait_for "UAF in tcp"
keys g R
if wait_re "reject report [0-9]+\? \[y/N\]"; then keys n; wait_for "cancelled"; tui_ok 0 "R asks before rejecting"
else tui_ok 1 "R asks before rejecting"; fi
keys : Up
if wait_re "^:filter$"; then tui_ok 0 "Up recalls the : history"; else tui_ok 1 "Up recalls the : history"; fi
keys Escape

# 25: a verb with a subcommand gets the open report's id
if "$SECTEAM_BIN" --help | grep -q '^  date'; then
	keys : ; type_text "filter"; keys Enter
	keys g / ; type_text "UAF"; keys Enter
	wait_for "/UAF: report 1"
	keys Enter
	wait_for "SIGNATURE valid"
	keys : ; type_text "date set 2026-12-08"; keys Enter
	if wait_re "^Embargo +embargoed: the disclosure date 2026-12-08"; then tui_ok 0 ":date set DATE acts on the open report"
	else tui_ok 1 ":date set DATE acts on the open report"; fi
else
	tap_skip "date command not available" "skipped"
fi
tui_stop

# 26-27: a note through $VISUAL on a private temporary file
cat >"$T/ed.sh" <<'EDEOF'
#!/bin/sh
stat -c %a "$1" >"$ED_MODE"
echo "$1" >"$ED_PATH"
printf 'a note from the editor\n' >"$1"
EDEOF
chmod +x "$T/ed.sh"
mkdir -p "$T/tmp"
tui_start 100 30 "VISUAL=$T/ed.sh" "ED_MODE=$T/mode" "ED_PATH=$T/path" "TMPDIR=$T/tmp"
wait_for "UAF in tcp"
keys g E
wait_for "note added" 5
keys t
if wait_for "a note from the editor"; then tui_ok 0 "E opens \$VISUAL and the note lands in the timeline"
else tui_ok 1 "E opens \$VISUAL and the note lands in the timeline"; fi
mode=$(cat "$T/mode" 2>/dev/null)
path=$(cat "$T/path" 2>/dev/null)
if [ "$mode" = 600 ] && [ -n "$path" ] && [ ! -e "$path" ]; then tui_ok 0 "the note's file was 0600 and is gone"
else tap_diag "mode '$mode' path '$path'"; tui_ok 1 "the note's file was 0600 and is gone"; fi
tui_stop

# 28-30: :import ends with a summary in the status line, after its
# progress went to the status line (the trace keeps what it said, no
# delay before it shows); a failure names the first input that could not
# be imported.
mail_pgp m4 "Leak in af_unix" "a leak in net/unix/af_unix.c"
tui_start 200 40 SECTEAM_PROGRESS_DELAY=0 "SECTEAM_TUI_TRACE='$T/trace'"
wait_for "UAF in tcp"
keys : ; type_text "import $T/mail/m4.eml"; keys Enter
tui_check ":import: a summary in the status line" \
	wait_for "imported: 1 new, 0 replies, 0 duplicate(s), 0 error(s)"
if grep -q '^importing: 1 message(s)' "$T/trace" 2>/dev/null; then
	tui_ok 0 ":import: its progress reached the status line"
else tap_diag "$(cat "$T/trace" 2>/dev/null | grep -v '^[a-z-]* [0-9]*$' | head -3)"
	tui_ok 1 ":import: its progress reached the status line"; fi
keys : ; type_text "import $T/mail/m4.eml $T/mail/none.eml"; keys Enter
tui_check ":import with a missing file: the status line names it" \
	wait_for "1 input(s) could not be imported; the first: $T/mail/none.eml: no such file or directory"
tui_stop

# 35-36: the trace file is made 0600, and a trace path that is a symbolic
# link is not followed (the UI says so before it starts, and runs).
mode=$(stat -c %a "$T/trace")
[ "$mode" = 600 ]
tap_ok $? "the trace file is 0600" "mode $mode"
ln -s "$T/trace-target" "$T/trace-link"
tui_start 100 30 "SECTEAM_TUI_TRACE='$T/trace-link'"
wait_for "UAF in tcp" || tap_diag "the list did not show"
keys Q
wait_for "EXITED:0" || tap_diag "the UI did not end"
[ ! -e "$T/trace-target" ] && screen | grep -q "cannot open trace file '$T/trace-link'"
tap_ok $? "a trace path that is a symbolic link is refused, not followed" "$(screen | head -3)"
tui_kill
tap_done
