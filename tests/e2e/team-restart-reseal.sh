#!/bin/sh
# End to end, the team server restarts in the middle of a `roster
# reseal` (issue 32): the reseal stops with one line naming the server
# and how far it got, exit 1, and run again it finishes the rest: every
# body opens with the new roster's keys, none is sealed twice, and the
# ones done before the restart are left alone.
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
e2e_setup team_restart_reseal

N=80
i=0
: >"$T/list"
while [ "$i" -lt "$N" ]; do
	mk_line "$T/r$i.eml" --kind encrypted-signed --from "Rita Reporter <rita@example.net>" \
		--sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" --subject "reseal $i" \
		--message-id "<reseal$i@example.net>" --body "report $i"
	echo "$T/r$i.eml" >>"$T/list"
	i=$((i + 1))
done | mk_batch || { echo "Bail out! cannot make the test mails"; exit 1; }
e2e_mbox "$T/all.mbox" $(cat "$T/list")
st import --mbox "$T/all.mbox" >/dev/null 2>&1 || { echo "Bail out! import failed"; exit 1; }
# A second officer: every body must now open with their key too.
CR=carol_$$
e2e_on_exit 'PGUSER=$E2E_ADMIN psql -X -q -d postgres -c "DROP OWNED BY $CR" -c "DROP ROLE IF EXISTS $CR" >/dev/null 2>&1'
e2e_admin team add-officer "$CR" --key "$REPORTER_FPR" >/dev/null 2>&1 ||
	{ echo "Bail out! cannot add carol"; exit 1; }
resealed() { db_sql "SELECT count(*) FROM events WHERE kind = 'reseal'"; }

st roster reseal >"$T/first" 2>"$T/first.err" &
rp=$!
i=0
while [ "$i" -lt 400 ] && [ "$(resealed)" -lt 3 ]; do
	sleep 0.05
	i=$((i + 1))
done
_pg_as "$(pg_bin pg_ctl)" -D "$PG_DIR/data" -m fast -w restart >/dev/null 2>&1
tap_ok $? "the server restarts while the reseal runs"
wait "$rp"; rc=$?
mid=$(resealed)
err=$(cat "$T/first.err")
tap_ok "$((mid >= N))" "the restart came before the reseal ended ($mid of $N resealed)"
tap_is "$rc" 1 "the interrupted reseal exits 1"
tap_like "$err" "roster reseal stopped after [0-9]+ resealed \\(run it again to finish\\)" \
	"it says how far it got and what to do"
tap_like "$err" "team server '$PG_DIR:5432/$E2E_PGDB'" "  naming the server"
tap_is "$(printf '%s\n' "$err" | grep -c .)" 1 "  in one line"

st roster reseal >"$T/again" 2>&1; rc=$?
tap_is "$rc" 0 "the reseal run again: exit 0" "$(cat "$T/again")"
tap_like "$(cat "$T/again")" "left alone: $mid" "the bodies done before the restart are left alone"
tap_like "$(cat "$T/again")" "resealed: $((N - mid))" "and the rest resealed"
tap_is "$(resealed)" "$N" "every body resealed exactly once"
# Every body now opens with carol's key (the reporter's keyring holds its
# secret half): gpg with nothing but that key decrypts each blob.
n=0
for id in $(db_sql "SELECT id FROM messages ORDER BY id"); do
	db_sql "SELECT encode(blob, 'base64') FROM messages WHERE id = $id" |
		base64 -d >"$T/blob" 2>/dev/null
	gpg --homedir "$S" --batch --quiet --decrypt "$T/blob" >/dev/null 2>&1 && n=$((n + 1))
done
tap_is "$n" "$N" "carol's key opens every body"
tap_done
