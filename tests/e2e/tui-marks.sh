#!/bin/sh
# End to end: the report list gives each signature verdict a mark of its
# own, and the help screen (`?`) explains them (`!` stood for
# both a revoked and an expired key, and no screen said what a mark
# meant).  Messages clear-signed by the test keys while they could
# still sign (tests/lib/gpg-env.sh), imported as plain mail.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup tuimarks
e2e_tmux_setup
for k in expired revoked; do
	{ printf 'From: %s <%s@%s.example>\nSubject: %s key report\nMessage-ID: <%s@example.net>\nDate: %s\n\n' \
		"$k" "$k" "$k" "$k" "$k" "$(date -R)"
	  cat "$T/keys/$k-signed.asc"; } >"$T/$k.eml"
done
printf 'From: Nora <nora@example.net>\nSubject: unsigned report\nMessage-ID: <n@example.net>\nDate: %s\n\nplain\n' \
	"$(date -R)" >"$T/none.eml"
tap_is "$(st import "$T/expired.eml" "$T/revoked.eml" "$T/none.eml" | cut -f2 | tr '\n' ' ')" \
	"expired-key revoked-key not-signed " "the reports carry an expired, a revoked key and none"

tui_start 80 24
wait_re "unsigned report" 10
tap_ok $? "the list shows the reports"
mark() { line_of "$1" | awk '{ print $4 }'; }
tap_is "$(mark "expired key report")" e "an expired key has its mark"
tap_is "$(mark "revoked key report")" ! "a revoked key another"
tap_is "$(mark "unsigned report")" - "no signature a third"
keys '?'
# Until the legend's last line is drawn (the heading alone raced it).
wait_re "Signature marks in the V column" && wait_re "tampered: the stored body is not what the import verified"
tap_ok $? "? opens on a legend of the marks" "$(screen)"
tap_like "$(screen)" "  e +expired-key: signed by a key that has expired" "e: expired key"
tap_like "$(screen)" "  ! +revoked-key: signed by a key that was revoked" "!: revoked key"
tap_like "$(screen)" "  ✓ +valid: " "the valid mark as drawn"
tap_like "$(screen)" "  # +error: the signature could not be checked" "every mark on the first page at 80x24"
# The DUE column's marks, from the table the column is drawn with.
tap_like "$(screen)" "Marks in the DUE column" "? has a legend of the DUE column too"
tap_like "$(screen)" "  ! +overdue: the deadline" "!: overdue"
tap_like "$(screen)" "  [?] +no date decided" "?: no date decided"
tap_like "$(screen)" "  [*] +due within a day" "*: due within a day"
tui_stop
man_marks=$(sed -n '/^\.\\" marks-begin/,/^\.\\" marks-end/p' "$SECTEAM_TOP/secteam-tui.1")
tap_like "$man_marks" "expired.-key: signed by a key that has expired" "the man page has the legend too"
tap_done
