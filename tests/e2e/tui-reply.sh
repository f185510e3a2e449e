#!/bin/sh
# The `r` key end to end through tmux (issue 14): in a report, `r` opens
# $VISUAL on the filled `ack` template with the report quoted; what the
# officer saves is sent after a question naming the recipient, lands in
# the outbox encrypted, and shows in the report's thread; answering no
# sends nothing.  TAP output.
. "$SECTEAM_TOP/tests/e2e/lib-tmux.sh"

tap_plan 9
fixture_setup
mail_pgp m1 "UAF in tcp" "There is a use-after-free in net/ipv4/tcp_input.c."
import "$WORK/mail/m1.eml" || { echo "Bail out! import failed"; exit 1; }
printf '[team]\n\taddress = security@example.org\n[forward]\n\toutbox = %s\n' "$WORK/outbox" >"$WORK/config"
count() { find "$WORK/outbox" -type f 2>/dev/null | wc -l | tr -d ' '; }

cat >"$WORK/ed.sh" <<'EDEOF'
#!/bin/sh
cp "$1" "$ED_SEEN"
printf 'TMUX-EDIT-CANARY-4f7e from the editor\n' >>"$1"
EDEOF
chmod +x "$WORK/ed.sh"
mkdir -p "$WORK/tmp"
tui_start 110 40 "VISUAL=$WORK/ed.sh" "ED_SEEN=$WORK/seen" "TMPDIR=$WORK/tmp"
wait_for "UAF in tcp"
keys Enter
wait_for "use-after-free"
keys r
if wait_for "send the reply to rita@example.net, signed and encrypted? [y/N]"; then
	ok "r asks before sending, naming the reporter"
else not_ok "r asks before sending, naming the reporter"; fi
if grep -q "track it as report 1;" "$WORK/seen" 2>/dev/null &&
   grep -q "^> There is a use-after-free" "$WORK/seen"; then
	ok "the editor opened on the ack template, the report quoted"
else diag "$(cat "$WORK/seen" 2>/dev/null)"; not_ok "the editor opened on the ack template, the report quoted"; fi
keys y
if wait_for "reply sent to rita@example.net, in the thread"; then ok "the status line says it was sent, into the thread"
else not_ok "the status line says it was sent, into the thread"; fi
keys G
if wait_for "TMUX-EDIT-CANARY-4f7e from the editor"; then ok "the report view shows the reply in the thread"
else not_ok "the report view shows the reply in the thread"; fi
check "one message in the outbox" test "$(count)" = 1
check "it is encrypted (no canary in clear)" sh -c "! grep -rq TMUX-EDIT-CANARY '$WORK/outbox'"
check "the thread holds two messages" test "$(sectui show 1 --json | jq -r .messages)" = 2

keys r
wait_for "send the reply to rita@example.net"
keys n
if wait_for "reply not sent"; then ok "answering no sends nothing, and says so"
else not_ok "answering no sends nothing, and says so"; fi
check "the outbox still holds one message" test "$(count)" = 1
tui_stop
tap_done
