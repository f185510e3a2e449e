#!/bin/sh
# The UI shows the distros notice before sending it: :distros
# opens the draft in the editor (the rules are checked first), then asks,
# naming the list; n sends nothing, y sends it.  (In the shell the same
# command needs --yes or an editor.)
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup tuinotice
e2e_tmux_setup
export SECTEAM_TEST_NOW=2026-12-02T12:00:00Z
st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config" "$@"; }
mkdir -p "$T/out"
printf '[team]\n\taddress = security@example.org\n[forward]\n\toutbox = %s/out\n' "$T" > "$T/config"
mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
   --subject "tcp overflow" --body "heap overflow in net/ipv4/tcp_input.c" --message-id "m1@example.net" > "$T/r1.eml"
st import "$T/r1.eml" >/dev/null
st vendor add linux-distros --contact linux-distros@vs.openwall.org --key "$VENDOR_FPR" --kind distro >/dev/null
for s in triaged accepted fixing fix-ready; do st triage 1 --state $s >/dev/null; done
st fix 1 --commit 1a2b3c4d5e6f >/dev/null
st date set 1 +5d >/dev/null
cat > "$T/ed.sh" <<'ED'
#!/bin/sh
cp "$1" "$ED_SEEN"
printf '\nA line the officer added.\n' >> "$1"
ED
chmod +x "$T/ed.sh"
count() { find "$T/out" -type f | wc -l | tr -d ' '; }
tui_start 110 30 "VISUAL=$T/ed.sh" "ED_SEEN=$T/seen"
wait_re "tcp overflow" 10
tmx send-keys -t t ":"; tmx send-keys -t t -l "distros"; tmx send-keys -t t Enter
wait_re "send the notice of report 1 to linux-distros@vs.openwall.org, signed and encrypted\? \[y/N\]" 10
tui_ok $? ":distros shows the draft, then asks, naming the list"
tap_like "$(cat "$T/seen" 2>/dev/null)" "Proposed date: 2026-12-07" "the editor held the notice's draft"
tmx send-keys -t t n
wait_re "nothing sent" 5
tui_ok $? "n: nothing sent"
tap_is "$(count)" 0 "the outbox is empty"
tmx send-keys -t t ":"; tmx send-keys -t t -l "distros"; tmx send-keys -t t Enter
wait_re "\[y/N\]" 10
tmx send-keys -t t y
wait_re "report 1: the notice sent to linux-distros" 10
tui_ok $? "y: the notice is sent"
tap_is "$(count)" 1 "one message in the outbox"
tap_like "$(st show 1 --json | jq -r '.events[] | select(.kind == "distros-notice") | .detail')" "linux-distros@vs.openwall.org" "an event records it"
# The message runs over the view's last rows until the next key (as
# vim's long messages do); a key puts the view back before the check
# that curses alone drew the screen.
keys j
wait_re '\?:help' 5
tui_stop
tap_done
