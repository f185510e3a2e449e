#!/bin/sh
# The team server restarts under an open UI.  While it is
# away the UI says so in its status line ("team server unreachable,
# retrying in N s") and spends no CPU (its CPU time stays flat over a few
# seconds); an action taken then is refused with a clear message and not
# stored later; once the server is back the UI reconnects by itself and
# a colleague's change shows within 5 s, no key pressed, and actions
# work again.  A server of its own (tests/lib/pg.sh): restarting the
# run's shared one would cut the other tests' connections.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
. "$SECTEAM_TOP/tests/lib/pg.sh"
e2e_on_exit 'pg_stop'
pg_start || { echo "Bail out! no PostgreSQL server of its own (tests/lib/pg.sh)"; exit 1; }
E2E_ADMIN=$PGUSER
SECTEAM_TEST_ENGINE=pg
export SECTEAM_TEST_ENGINE
e2e_setup tui_reconnect
e2e_tmux_setup
for i in 1 2 3; do
	printf 'From: Rita <rita@example.net>\nSubject: reconnect report %s\nMessage-ID: <rc%s@example.net>\nDate: %s\n\nbody %s\n' \
		"$i" "$i" "$(date -R)" "$i" >"$T/$i.eml"
done
st import "$T/1.eml" "$T/2.eml" >/dev/null || { echo "Bail out! import failed"; exit 1; }
tui_start 110 30
wait_re "reconnect report 2" 10
tap_ok $? "the UI shows the reports"
ui=$(pgrep -P "$(tmx display -p -t t '#{pane_pid}')" secteam-tui | head -n 1)
cpu() { awk '{ print $14 + $15 }' "/proc/$ui/stat"; }   # utime + stime, in ticks
pgctl() { _pg_as "$(pg_bin pg_ctl)" -D "$PG_DIR/data" -m fast -w "$@" >/dev/null 2>&1; }

pgctl stop
tap_ok $? "the server stops"
wait_re "team server unreachable, retrying" 10
tui_ok $? "the status line says the server is unreachable and retried"
c0=$(cpu); sleep 3; c1=$(cpu)
tap_ok "$([ $((c1 - c0)) -le 30 ]; echo $?)" "no CPU spent while it waits ($((c1 - c0)) ticks in 3 s)"
tmx send-keys -t t ":"; tmx send-keys -t t -l "triage 1 --note while-away"; tmx send-keys -t t Enter
wait_re "nothing was changed" 10
tui_ok $? "an action while away is refused, saying nothing was changed" "$(screen | tail -n 1)"
# A long error opens whole in a pager: back to the list.
screen | grep -q "the whole error" && tmx send-keys -t t q

pgctl start
tap_ok $? "the server starts again"
back=$(date +%s%N)
st import "$T/3.eml" >/dev/null
tap_ok $? "a colleague imports a report once it is back"
wait_re "reconnect report 3" 5
tui_ok $? "the UI shows it within 5 s of the server's return ($(( ($(date +%s%N) - back) / 1000000 )) ms), no key pressed"
tmx send-keys -t t ":"; tmx send-keys -t t -l "triage 1 --note after-return"; tmx send-keys -t t Enter
wait_re "report 1: after-return" 10
tui_ok $? "an action after the return is stored"
notes=$(st show 1 --json | jq -r '[.events[] | select(.kind == "note") | .detail] | join(",")')
tap_is "$notes" "after-return" "the refused note was not stored later, the new one was"
tui_stop
tap_done
