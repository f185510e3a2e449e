#!/bin/sh
# engines: pg
# Who may reach the team's database, played as the attacker,
# with psql as the second officer would use it:
#  - a removed officer is cut off at once: their open session (one that
#    ran SET ROLE secteam_officers too) ends, their role can no longer
#    log in, and their open UI says so and exits;
#  - a database role that is no officer cannot connect at all (so it can
#    neither LISTEN to the team's changes nor read its catalogue);
#  - a notification carries no report data.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup teamaccess
e2e_tmux_setup
BR=bob_$$
ER=eve_$$
e2e_on_exit 'PGUSER=$E2E_ADMIN psql -X -q -d postgres -c "DROP ROLE IF EXISTS $BR" -c "DROP ROLE IF EXISTS $ER" >/dev/null 2>&1'
adm() { PGUSER=$E2E_ADMIN psql -X -q -At -d "$DB" "$@"; }
printf 'From: Rita <rita@example.net>\nSubject: access one\nMessage-ID: <acc1@example.net>\n\nbody\n' >"$T/1.eml"
st import "$T/1.eml" >/dev/null || { echo "Bail out! import failed"; exit 1; }
e2e_admin team add-officer "$BR" --name Bob --key "$OFFICER_FPR" >/dev/null 2>&1 ||
	{ echo "Bail out! cannot add bob"; exit 1; }

# A role of the same server that is no officer.
PGUSER=$E2E_ADMIN psql -X -q -d postgres -c "CREATE ROLE $ER LOGIN" >/dev/null
out=$(PGUSER=$ER psql -X -At -d "$DB" -c "LISTEN secteam" 2>&1); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "a role that is no officer cannot connect (LISTEN refused)"
tap_like "$out" "permission denied for database" "  the server says why"
out=$(PGUSER=$ER psql -X -At -d "$DB" -c "SELECT rolname FROM pg_roles" 2>&1)
tap_unlike "$out" "$BR" "  nor read the list of roles"

# A notification says that something changed, not what.
PGUSER=$E2E_OFFICER psql -X -d "$DB" -c "LISTEN secteam" -c "SELECT pg_sleep(3)" >"$T/listen.out" 2>&1 &
lp=$!
sleep 1
st triage 1 --note "notified" >/dev/null
wait "$lp"
tap_like "$(cat "$T/listen.out")" 'notification "secteam" received' "a notification came"
tap_unlike "$(cat "$T/listen.out")" 'with payload' "  with an empty payload (psql names a payload only when there is one)"

# Bob's own psql session, with SET ROLE, held open; and his UI.
mkfifo "$T/bob.in"
PGUSER=$BR psql -X -At -d "$DB" <"$T/bob.in" >"$T/bob.out" 2>&1 &
bp=$!
exec 3>"$T/bob.in"
echo "SET ROLE secteam_officers; SELECT 'alive-' || 1;" >&3
i=0; while [ $i -lt 50 ] && ! grep -q alive-1 "$T/bob.out"; do sleep 0.1; i=$((i + 1)); done
tap_like "$(cat "$T/bob.out")" "alive-1" "bob's session is open, as secteam_officers"
tui_start 100 24 "PGUSER=$BR"
wait_re "access one" 10
tui_ok $? "bob's UI is open"

e2e_admin team remove-officer "$BR" >/dev/null 2>&1
tap_ok $? "the administrator removes bob"
echo "SELECT 'alive-' || 2;" >&3
exec 3>&-
wait "$bp"
tap_unlike "$(cat "$T/bob.out")" "alive-2" "bob's open session ended at once (SET ROLE did not keep it)"
tap_is "$(adm -c "SELECT count(*) FROM pg_stat_activity WHERE usename = '$BR'")" 0 "no session of bob's is left"
out=$(PGUSER=$BR psql -X -At -d "$DB" -c "SELECT count(*) FROM secteam.reports" 2>&1); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "bob cannot log in again"
tap_like "$out" "not permitted to log in" "  the server says why"
wait_re "EXITED:1" 15
tui_ok $? "bob's UI exits by itself (status 1)"
tap_like "$(screen)" "no longer lets you in" "  saying that the team server no longer lets bob in"
tui_kill

# A new officer's way in: with --password a random one, shown once, of
# which the server holds only the SCRAM verifier; without, how they log
# in with none.
PR=pw_$$
e2e_on_exit 'PGUSER=$E2E_ADMIN psql -X -q -d postgres -c "DROP ROLE IF EXISTS $PR" >/dev/null 2>&1'
out=$(e2e_admin team add-officer "$PR" --key "$OFFICER_FPR" --password 2>&1); rc=$?
tap_is "$rc" 0 "add-officer --password: exit 0" "$out"
pw=$(printf '%s\n' "$out" | sed -n "s/^initial password of $PR: //p")
tap_like "$pw" '^[A-Za-z0-9]{24}$' "a 24-character password, shown once"
ver=$(adm -c "SELECT rolpassword FROM pg_authid WHERE rolname = '$PR'")
tap_like "$ver" '^SCRAM-SHA-256\$' "the server holds a SCRAM verifier"
ok=$(/usr/bin/python3 - "$pw" "$ver" <<'PY'
import base64, hashlib, hmac, sys
pw, ver = sys.argv[1], sys.argv[2]
head, keys = ver.split("$", 1)[1].split("$")
it, salt = head.split(":")
stored, server = keys.split(":")
salted = hashlib.pbkdf2_hmac("sha256", pw.encode(), base64.b64decode(salt), int(it))
print("ok" if hmac.new(salted, b"Server Key", hashlib.sha256).digest() == base64.b64decode(server) else "no")
PY
)
tap_is "$ok" ok "the verifier is the shown password's (checked apart, in Python)"
tap_unlike "$ver" "$pw" "  and does not hold the password itself"
out=$(e2e_admin team add-officer "$PR" --key "$OFFICER_FPR" 2>&1)
tap_like "$out" "peer authentication" "without --password: how the officer logs in with none"
tap_done
