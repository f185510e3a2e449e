#!/bin/sh
# End to end, the team server restarts in the middle of a `roster
# reseal` that seals every report again under a new team key
# generation (an officer left the roster): the reseal stops
# with one line naming the server and how far it got, exit 1, and run
# again it finishes the rest: every report sealed again exactly once,
# the remaining officer's keyring opens every body, the one who left
# opens none.
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

N=250
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
# A second officer (the reporter's key, whose secret half $S holds) gets
# the team key, then leaves.
CR=carol_$$
e2e_on_exit 'PGUSER=$E2E_ADMIN psql -X -q -d postgres -c "DROP OWNED BY $CR" -c "DROP ROLE IF EXISTS $CR" >/dev/null 2>&1'
e2e_admin team add-officer "$CR" --key "$REPORTER_FPR" >/dev/null 2>&1 ||
	{ echo "Bail out! cannot add carol"; exit 1; }
st roster reseal >"$T/share" 2>&1 || { echo "Bail out! first reseal failed"; cat "$T/share"; exit 1; }
unopened() { # HOME: bodies that keyring cannot open (search opens each)
	"$SECTEAM_BIN" --db "$DB" --gnupghome "$1" search zzqxnomatchxzz 2>&1 |
		sed -n 's/^warning: \([0-9]*\) message(s) could not be opened.*/\1/p'
}
tap_is "$(unopened "$S")" "" "carol's keyring opens every body while she is an officer"
e2e_admin team remove-officer "$CR" >/dev/null 2>&1 || { echo "Bail out! cannot remove carol"; exit 1; }
resealed() { # the reports sealed again under the new generation
	db_sql "SELECT count(*) FROM events WHERE kind = 'reseal' AND detail LIKE 'sealed again%'"
}

# One report per transaction (--batch 1), so that the restart lands
# between commits, as it would amid a large team's default batches.
st roster reseal --batch 1 >"$T/first" 2>"$T/first.err" &
rp=$!
i=0
while [ "$i" -lt 400 ] && [ "$(resealed)" -lt 1 ]; do
	sleep 0.01
	i=$((i + 1))
done
_pg_as "$(pg_bin pg_ctl)" -D "$PG_DIR/data" -m fast -w restart >/dev/null 2>&1
tap_ok $? "the server restarts while the reseal runs"
wait "$rp"; rc=$?
mid=$(resealed)
err=$(cat "$T/first.err")
tap_ok "$((mid >= N))" "the restart came before the reseal ended ($mid of $N reports)"
tap_is "$rc" 1 "the interrupted reseal exits 1"
tap_like "$err" "roster reseal stopped after [0-9]+ resealed \\(run it again to finish\\)" \
	"it says how far it got and what to do"
tap_like "$err" "team server '$PG_DIR:5432/$E2E_PGDB'" "  naming the server"
tap_is "$(printf '%s\n' "$err" | grep -c 'team server')" 1 "  in one line"

st roster reseal >"$T/again" 2>&1; rc=$?
tap_is "$rc" 0 "the reseal run again: exit 0" "$(cat "$T/again")"
tap_like "$(cat "$T/again")" "sealed under the latest team key .*: $((N - mid)) report" \
	"it seals the rest again, and only the rest"
tap_is "$(resealed)" "$N" "every report sealed again exactly once"
tap_is "$(unopened "$H")" "" "the remaining officer's keyring opens every body"
tap_is "$(unopened "$S")" "$N" "the one who left opens none"

# The reseal's writes go to the server without waiting for each result
# (libpq's pipeline): one the server refuses still fails its batch as a
# whole, named, and the batches before it stay done.  Another officer
# joins and leaves; the administrator's trigger refuses report 150.
DV=dave_$$
e2e_on_exit 'PGUSER=$E2E_ADMIN psql -X -q -d postgres -c "DROP OWNED BY $DV" -c "DROP ROLE IF EXISTS $DV" >/dev/null 2>&1'
e2e_admin team add-officer "$DV" --key "$MAINTAINER_FPR" >/dev/null 2>&1 &&
	st roster reseal >/dev/null 2>&1 &&
	e2e_admin team remove-officer "$DV" >/dev/null 2>&1 ||
	{ echo "Bail out! cannot add and remove dave"; exit 1; }
before=$(resealed)
PGUSER=$E2E_ADMIN psql -X -q -d "$E2E_PGDB" \
	-c "CREATE FUNCTION secteam.test_refuse() RETURNS trigger LANGUAGE plpgsql AS
	    \$\$ BEGIN RAISE EXCEPTION 'refused by the test for report %', OLD.id; END \$\$" \
	-c "CREATE TRIGGER zz_test_refuse BEFORE UPDATE ON secteam.reports
	    FOR EACH ROW WHEN (OLD.id = 150) EXECUTE FUNCTION secteam.test_refuse()" >/dev/null ||
	{ echo "Bail out! cannot make the refusing trigger"; exit 1; }
out=$(st roster reseal --batch 100 2>&1); rc=$?
tap_is "$rc" 1 "a write the server refuses mid-batch: exit 1" "$out"
tap_like "$out" "refused by the test for report 150" "  the server's refusal is said"
tap_like "$out" "roster reseal stopped after 100 resealed" "  the batch before it stays done, the failed one is undone"
tap_is "$(($(resealed) - before))" 100 "  one reseal event per report of the batch that committed"
PGUSER=$E2E_ADMIN psql -X -q -d "$E2E_PGDB" -c "DROP TRIGGER zz_test_refuse ON secteam.reports" \
	-c "DROP FUNCTION secteam.test_refuse()" >/dev/null
out=$(st roster reseal 2>&1); rc=$?
tap_is "$rc" 0 "run again without the refusal: exit 0" "$out"
tap_is "$(($(resealed) - before))" "$N" "  every report sealed again exactly once"
tap_is "$(unopened "$H")" "" "  the remaining officer's keyring opens every body"
tap_done
