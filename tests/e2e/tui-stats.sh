#!/bin/sh
# engines: sqlite pg
# The UI's side of the team's numbers: `#` opens the team's numbers as bar charts,
# readable at 80x24 (and `:stats` opens the same view); in a report `s`
# asks for an attachment's number and a file on the prompt line and
# saves it (0600), an error (the file exists) in the status line.
export SECTEAM_TEST_NOW=${SECTEAM_TEST_NOW:-2026-12-02T12:00:00Z}
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup tuistats
e2e_tmux_setup
mkdir "$T/a" "$T/o"
printf 'int main(void) { return 1; }\n' >"$T/a/poc.c"
mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
	--to "$OFFICER_FPR" --subject "UAF in tcp" --body "see net/ipv4/tcp_input.c" \
	--attach "$T/a/poc.c" --message-id "u1@example.net" --date "Wed, 02 Dec 2026 09:00:00 +0000" >"$T/m1.eml"
mail_pgp m2 "Overflow in ext4" "ext4: a heap overflow in fs/ext4/xattr.c"
e2e_import "$T/m1.eml" "$T/mail/m2.eml" || { echo "Bail out! import failed"; exit 1; }
st triage 2 --state triaged >/dev/null

mkdir "$T/home"
tui_start 80 24 HOME="$T/home"
wait_for "UAF in tcp" >/dev/null
keys '#'
if wait_for "Reports per month received" && line_of "2026-12" | grep -qE '^  2026-12 +2 █+' &&
   line_of "triaged" | grep -qE '^  triaged +1 █+' && line_of "  net " | grep -qE '^  net +1 █+'; then
	tui_ok 0 "# draws the numbers as bar charts at 80x24"
else tui_ok 1 "# draws the numbers as bar charts at 80x24"; fi
w=$(screen | sed 's/█/#/g' | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')
tui_ok "$([ "$w" -le 80 ] && echo 0 || echo 1)" "no line is wider than the window" "widest: $w"
keys G
tui_check "the days to triage are there, below" wait_for "to triage"
keys q
wait_for "UAF in tcp" >/dev/null
keys : ; type_text "stats"; keys Enter
tui_check ":stats opens the same view" wait_for "Reports per month received"
keys q

# saved FILE: the attachment's bytes are in FILE within 5 s (the file
# itself, not the message: a message of the save before may still be on
# the screen while the UI takes the next one).
saved() {
	_n=100
	while [ $_n -gt 0 ] && ! cmp -s "$T/a/poc.c" "$1"; do
		sleep 0.05
		_n=$((_n - 1))
	done
	[ $_n -gt 0 ]
}
keys Enter
wait_for "attachment 1: poc.c" >/dev/null
keys s
tui_check "s asks for the attachment's number" wait_for "save attachment number:"
type_text 1; keys Enter
tui_check "then for the file, offering its own name in ~/ (as mutt does)" \
	wait_for "save it to the file: ~/poc.c"
keys Enter
if wait_for "attachment 1 saved to" && saved "$T/home/poc.c"; then
	tui_ok 0 "Enter takes the offer: ~ is the home folder"
else tui_ok 1 "Enter takes the offer: ~ is the home folder"; fi
keys s; wait_for "save attachment number:" >/dev/null
type_text 1; keys Enter; wait_for "save it to the file:" >/dev/null
keys C-u; type_text "rel.c"; keys Enter
if saved "$T/home/rel.c"; then
	tui_ok 0 "a relative name goes under the save folder, not where the UI started"
else tui_ok 1 "a relative name goes under the save folder, not where the UI started"; fi
keys s; wait_for "save attachment number:" >/dev/null
type_text 1; keys Enter; wait_for "save it to the file:" >/dev/null
keys C-u; type_text "$T/o/poc.c"; keys Enter
if saved "$T/o/poc.c" && wait_for "attachment 1 saved to" &&
   [ "$(stat -c %a "$T/o/poc.c")" = 600 ]; then
	tui_ok 0 "s saves the attachment, 0600, and says so"
else tui_ok 1 "s saves the attachment, 0600, and says so"; fi
keys s; wait_for "save attachment number:" >/dev/null
type_text 1; keys Enter; wait_for "save it to the file:" >/dev/null
keys C-u; type_text "$T/o/poc.c"; keys Enter
tui_check "a second save to the same file: the error in the status line" wait_for "it exists"
tap_is "$(st show 1 --json | jq '[.events[] | select(.kind == "attachment-saved")] | length')" 3 \
	"each save of the exploit code is an event"
keys Q
wait_for "EXITED:0" || tap_diag "the UI did not end"
tui_stop
# attach.save_dir names the folder offered and the one relative names go to.
mkdir "$T/dl"
printf '[attach]\n\tsave_dir = %s\n' "$T/dl" >"$T/config"
tui_start 80 24 HOME="$T/home"
wait_for "UAF in tcp" >/dev/null
keys Enter; wait_for "attachment 1: poc.c" >/dev/null
keys s; wait_for "save attachment number:" >/dev/null
type_text 1; keys Enter
tui_check "attach.save_dir: the offer is in that folder" wait_for "save it to the file: $T/dl/poc.c"
keys C-u; type_text "sub-rel.c"; keys Enter
if saved "$T/dl/sub-rel.c"; then
	tui_ok 0 "attach.save_dir: a relative name goes there"
else tui_ok 1 "attach.save_dir: a relative name goes there"; fi
keys Q
wait_for "EXITED:0" || tap_diag "the UI did not end"
tui_stop
tap_done
