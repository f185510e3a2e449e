#!/bin/sh
# engines: sqlite pg
# Where am I, and what happened: the title bar names the officer and the
# database (or team server) beside each view's own title, as mutt names
# its folder; F's "attachments withheld (see the warnings)" finds its
# warning in the pager below the mails it lists; and `vendor notify
# --forward` says the mail it wrote and where it went, in the status line.
export SECTEAM_TEST_NOW=2026-12-02T12:00:00Z
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup tuiwhere
e2e_tmux_setup
printf 'int main(void) { return 1; }\n' >"$T/poc.c"
mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
	--to "$OFFICER_FPR" --subject "tcp overflow" --body "overflow in net/ipv4/tcp_input.c" \
	--attach "$T/poc.c" --message-id "w1@example.net" \
	--date "Wed, 02 Dec 2026 09:00:00 +0000" >"$T/m1.eml"
e2e_import "$T/m1.eml" || { echo "Bail out! import failed"; exit 1; }
printf '[forward]\n\toutbox = %s\n[team]\n\taddress = security@example.org\n' "$T/outbox" >"$T/config"
sectui maintainers 1 --add "Mia Maintainer <mia@example.org>" >/dev/null 2>&1 ||
	{ echo "Bail out! maintainers --add failed"; exit 1; }
sectui vendor add Vic --contact vic@vendor.example --key "$VENDOR_FPR" >/dev/null ||
	{ echo "Bail out! vendor add failed"; exit 1; }
who=$E2E_OFFICER
# A file by its folder and name; a team server by its database (its
# host and port too when the title has room).
if e2e_sqlite; then place="db/secteam.db"; else place=${DB#dbname=}; fi

for size in "80 24" "120 40"; do
	set -- $size
	tui_start "$1" "$2"
	wait_for "tcp overflow" >/dev/null
	if line=$(screen | head -n 1) && printf '%s' "$line" | grep -qF "secteam-tui: reports" &&
	   printf '%s' "$line" | grep -qF "$who @ " && printf '%s' "$line" | grep -qF "$place"; then
		tui_ok 0 "$1x$2: the title names the officer and the database"
	else tui_ok 1 "$1x$2: the title names the officer and the database" "title: $line"; fi
	tui_kill
done

tui_start 120 40
wait_for "tcp overflow" >/dev/null
keys Enter; wait_for "SIGNATURE" >/dev/null
keys p; wait_for "participants of report 1" >/dev/null
keys F
wait_for "[y/N]" >/dev/null
keys y
if wait_for "attachment withheld" 10 && screen | grep -qF "warnings:" &&
   screen | grep -qE "^encrypted +mia@example.org +.*/outbox/new/"; then
	tui_ok 0 "F: the pager lists the mail and where it went, the withheld attachment's warning below"
else tui_ok 1 "F: the pager lists the mail and where it went, the withheld attachment's warning below"; fi
keys q
wait_gone "attachment withheld" >/dev/null
keys q; keys q
wait_for "secteam-tui: reports" >/dev/null
keys :; type_text "vendor notify 1 Vic --forward"; keys Enter
# A status line longer than the row goes on upwards, whole.
if wait_re "vendor Vic notified.*; an encrypted mail to vic@vendor\.example:" 10 &&
   screen | tr -d '\n ' | grep -q "outbox/new/"; then
	tui_ok 0 ":vendor notify --forward says the mail it wrote and where"
else tui_ok 1 ":vendor notify --forward says the mail it wrote and where"; fi
# (the long status is gone at the next key, as vim's long messages are)
keys j
wait_gone "an encrypted mail to" >/dev/null
tui_stop
tap_done
