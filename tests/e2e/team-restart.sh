#!/bin/sh
# End to end, the team server restarts in the middle of an import.  The
# import stops with one line naming the server and the cause, exit 1,
# and run again it stores every message exactly once: what was committed
# before the restart comes back as duplicates, nothing half-written.
#
# A server of its own (tests/lib/pg.sh), not the run's: restarting the
# shared one would cut the other tests' connections.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
. "$SECTEAM_TOP/tests/lib/pg.sh"
e2e_on_exit 'pg_stop'
pg_start || { echo "Bail out! no PostgreSQL server of its own (tests/lib/pg.sh)"; exit 1; }
E2E_ADMIN=$PGUSER
SECTEAM_TEST_ENGINE=pg
export SECTEAM_TEST_ENGINE
e2e_setup team_restart

N=80
i=0
: >"$T/list"
while [ "$i" -lt "$N" ]; do
	mk_line "$T/r$i.eml" --kind encrypted-signed --from "Rita Reporter <rita@example.net>" \
		--sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" --subject "restart $i" \
		--message-id "<restart$i@example.net>" --body "report $i"
	echo "$T/r$i.eml" >>"$T/list"
	i=$((i + 1))
done | mk_batch || { echo "Bail out! cannot make the test mails"; exit 1; }
e2e_mbox "$T/all.mbox" $(cat "$T/list")
stored() { db_sql "SELECT count(*) FROM messages"; }   # (Message-IDs are keyed: all of them)

st import --jobs 1 --mbox "$T/all.mbox" >"$T/first" 2>"$T/first.err" &
ip=$!
i=0
while [ "$i" -lt 400 ] && [ "$(stored)" -lt 3 ]; do
	sleep 0.05
	i=$((i + 1))
done
_pg_as "$(pg_bin pg_ctl)" -D "$PG_DIR/data" -m fast -w restart >/dev/null 2>&1
tap_ok $? "the server restarts while the import runs"
wait "$ip"; rc=$?
mid=$(stored)
err=$(cat "$T/first.err")
tap_ok "$((mid >= N))" "the restart came before the import ended (stored $mid of $N)"
tap_is "$rc" 1 "the interrupted import exits 1"
tap_like "$err" "team server '$PG_DIR:5432/$E2E_PGDB'" "its error names the server"
tap_is "$(printf '%s\n' "$err" | grep -c 'team server')" 1 "in one line"
tap_is "$(db_ok)" ok "the database answers after the restart"

st import --mbox "$T/all.mbox" >"$T/again" 2>&1; rc=$?
tap_is "$rc" 0 "the import run again: exit 0"
tap_is "$(stored)" "$N" "every message stored once (interrupted after $mid)"
tap_is "$(db_sql "SELECT count(DISTINCT message_id) FROM messages")" "$N" "no message twice"
tap_is "$(grep -c '^duplicate' "$T/again")" "$mid" "the ones stored before the restart are duplicates"
tap_is "$(db_sql "SELECT count(*) FROM reports r WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.report_id = r.id)")" 0 \
	"no report without its message"
tap_done
