#!/bin/sh
# The `r` key end to end through tmux: in a report, `r` opens
# $VISUAL on the filled `ack` template with the report quoted; what the
# officer saves is sent after a question naming the recipient, lands in
# the outbox encrypted, and shows in the report's thread; answering no
# sends nothing.  TAP output.
export SECTEAM_TEST_NOW=${SECTEAM_TEST_NOW:-2026-12-02T12:00:00Z}
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup tuireply
e2e_tmux_setup
mail_pgp m1 "UAF in tcp" "There is a use-after-free in net/ipv4/tcp_input.c."
e2e_import "$T/mail/m1.eml" || { echo "Bail out! import failed"; exit 1; }
printf '[team]\n\taddress = security@example.org\n[forward]\n\toutbox = %s\n' "$T/outbox" >"$T/config"
count() { find "$T/outbox" -type f 2>/dev/null | wc -l | tr -d ' '; }

cat >"$T/ed.sh" <<'EDEOF'
#!/bin/sh
cp "$1" "$ED_SEEN"
printf 'TMUX-EDIT-CANARY-4f7e from the editor\n' >>"$1"
EDEOF
chmod +x "$T/ed.sh"
mkdir -p "$T/tmp"
tui_start 110 40 "VISUAL=$T/ed.sh" "ED_SEEN=$T/seen" "TMPDIR=$T/tmp"
wait_for "UAF in tcp"
keys Enter
wait_for "use-after-free"
keys r
if wait_for "send the reply to rita@example.net, signed and encrypted? [y/N]"; then
	tui_ok 0 "r asks before sending, naming the reporter"
else tui_ok 1 "r asks before sending, naming the reporter"; fi
if grep -q "track it as report 1;" "$T/seen" 2>/dev/null &&
   grep -q "^> There is a use-after-free" "$T/seen"; then
	tui_ok 0 "the editor opened on the ack template, the report quoted"
else tap_diag "$(cat "$T/seen" 2>/dev/null)"; tui_ok 1 "the editor opened on the ack template, the report quoted"; fi
if sed -n 1p "$T/seen" | grep -q "^To: .*<rita@example.net>$" &&
   [ "$(sed -n '2p;4p' "$T/seen" 2>/dev/null)" = "$(printf 'Cc: security@example.org\n')" ] &&
   sed -n 3p "$T/seen" | grep -q "^Subject: .*UAF in tcp"; then
	tui_ok 0 "the draft shows To, Cc and Subject above a blank line (mutt's edit_headers)"
else tap_diag "$(head -n 5 "$T/seen" 2>/dev/null)"; tui_ok 1 "the draft shows To, Cc and Subject above a blank line (mutt's edit_headers)"; fi
keys y
if wait_for "reply sent to rita@example.net, in the thread"; then tui_ok 0 "the status line says it was sent, into the thread"
else tui_ok 1 "the status line says it was sent, into the thread"; fi
keys G
if wait_for "TMUX-EDIT-CANARY-4f7e from the editor"; then tui_ok 0 "the report view shows the reply in the thread"
else tui_ok 1 "the report view shows the reply in the thread"; fi
tui_check "one message in the outbox" test "$(count)" = 1
tui_check "it is encrypted (no canary in clear)" sh -c "! grep -rq TMUX-EDIT-CANARY '$T/outbox'"
tui_check "the thread holds two messages" test "$(sectui show 1 --json | jq -r .messages)" = 2

keys r
wait_for "send the reply to rita@example.net"
keys n
if wait_for "report 1: nothing sent"; then tui_ok 0 "answering no sends nothing, and says so"
else tui_ok 1 "answering no sends nothing, and says so"; fi
tui_check "the outbox still holds one message" test "$(count)" = 1
tui_stop

# An editor that leaves the draft as it was: the UI refuses it as the
# shell does (the key runs the same command), without asking to send.
printf '#!/bin/sh\ncp "$1" "$ED_SEEN"\n' >"$T/same.sh"
chmod +x "$T/same.sh"
rm -f "$T/seen"
tui_start 110 40 "VISUAL=$T/same.sh" "ED_SEEN=$T/seen" "TMPDIR=$T/tmp"
wait_for "UAF in tcp"
keys Enter
wait_for "use-after-free"
keys r
if wait_for "nothing sent: the draft was not changed"; then
	tui_ok 0 "r with the draft left unchanged: nothing sent, said as the shell says it"
else tui_ok 1 "r with the draft left unchanged: nothing sent, said as the shell says it"; fi
tui_check "the editor did open on the draft" grep -q "track it as report 1;" "$T/seen"
tap_unlike "$(screen)" "y/N" "no question to send was asked"
tui_check "the outbox still holds one message" test "$(count)" = 1
tui_stop
out=$(VISUAL= EDITOR="$T/same.sh" ED_SEEN="$T/seen" sectui reply 1 2>&1 </dev/null)
tap_like "$out" "nothing sent: the draft was not changed" "the shell says the same words"
tap_done
