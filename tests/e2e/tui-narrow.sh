#!/bin/sh
# At 80x24 and narrower, what the officer must read is whole:
# the signature bar's trust fields (verdict, "From DOES NOT MATCH",
# "encrypted: NO") are never cut (the signer goes to a second row); a
# question keeps its "[y/N]" however narrow; an error longer than the
# status line opens whole in a pager.  Checked at 80x24 and 200x50.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup tuinarrow
e2e_tmux_setup
mk --kind signed --from "Mallory Impostor-With-A-Long-Name <mallory@example.org>" --sign-as "$REPORTER_FPR" \
   --subject "signed by one, From another" --body "overflow in net/core/frob.c" \
   --message-id "n1@example.net" > "$T/n1.eml"
st import "$T/n1.eml" >/dev/null || { echo "Bail out! import failed"; exit 1; }
for size in 80x24 200x50; do
	tui_start "${size%x*}" "${size#*x}"
	wait_re "signed by one" 10
	keys Enter
	wait_re "SIGNATURE" 5
	bar=$(screen | grep -A1 "SIGNATURE")
	tap_like "$bar" "From DOES NOT MATCH" "$size: the bar says From does not match"
	tap_like "$bar" "encrypted: NO" "$size: and that it was not encrypted"
	tap_like "$bar" "signed by" "$size: and names the signer"
	tui_kill
done

tui_start 44 24
wait_re "signed by" 10
tmx send-keys -t t ":"; tmx send-keys -t t -l "triage 1 --state rejected"; tmx send-keys -t t Enter
wait_re "\[y/N\]" 5
tui_ok $? "at 44 columns a question keeps its [y/N]" "$(screen | tail -n 1)"
tmx send-keys -t t n
tui_kill

tui_start 80 24
wait_re "signed by" 10
long=$T/a-folder-with-a-rather-long-name/and-another-one-below-it/no-such-mailbox.mbox
tmx send-keys -t t ":"; tmx send-keys -t t -l "import --mbox $long"; tmx send-keys -t t Enter
wait_re "the whole error" 10
tui_ok $? "an error longer than the status line opens whole in a pager"
tap_like "$(screen | tr -d '\n')" "no-such-mailbox" "  holding all of it"
tmx send-keys -t t q
wait_re "signed by one" 5
tui_ok $? "  q goes back"
tui_stop
tap_done
