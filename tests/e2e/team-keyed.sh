#!/bin/sh
# engines: pg
# Keyed hashes (participants' addresses, Message-IDs, content hashes)
# are made under the newest team key generation: an officer removed from
# the team, who kept the generation they held (and a dump), cannot test a
# list of addresses or Message-IDs against what the team stored after
# they left.  Lookups still find what was stored before the rotation
# (a participant brought in again, a message imported again).  The
# attacker's hash is made by tests/lib/teamchain.py, never the program.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup teamkeyed
TC=$SECTEAM_TOP/tests/lib/teamchain.py
A=$E2E_OFFICER
BR=bob_$$
e2e_on_exit 'gpgconf --homedir "$T/bob" --kill all 2>/dev/null'
e2e_on_exit 'PGUSER=$E2E_ADMIN psql -X -q -d postgres -c "DROP ROLE IF EXISTS $BR" >/dev/null 2>&1'
sta() { PGUSER=$A "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" "$@"; }
imp() { # N: report "secret N" imported by alice, Message-ID <keyedN@example.net>
	printf 'From: Rita <rita@example.net>\nSubject: secret %s\nMessage-ID: <keyed%s@example.net>\n\nbody %s\n' \
		"$1" "$1" "$1" >"$T/$1.eml"
	sta import "$T/$1.eml" >"$T/imp.out" 2>&1
}
# The people and Message-IDs of this test, each with the report it goes to.
BEFORE_ADDR="mia@example.org" # report 1, before bob leaves
AFTER_ADDRS="max@example.org mia@example.org" # report 2, after
AFTER_MSGID="keyed2@example.net"

# Bob joins before the team's first key: generation 1 is wrapped to him.
mkdir -m 700 "$T/bob"
cp "$H/gpg.conf" "$H/gpg-agent.conf" "$T/bob/"
gpg --homedir "$T/bob" --batch --passphrase '' --quick-gen-key "bob <bob@team.example>" \
	ed25519 sign never >/dev/null 2>&1
BOB=$(gpg --homedir "$T/bob" --list-keys --with-colons 2>/dev/null | awk -F: '/^fpr/ {print $10; exit}')
gpg --homedir "$T/bob" --batch --passphrase '' --quick-add-key "$BOB" cv25519 encr never >/dev/null 2>&1
gpg --homedir "$T/bob" --export "$BOB" | gpg --homedir "$H" --batch --import >/dev/null 2>&1
gpg --homedir "$H" --export | gpg --homedir "$T/bob" --batch --import >/dev/null 2>&1
e2e_admin team add-officer "$BR" --key "$BOB" >/dev/null 2>&1 ||
	{ echo "Bail out! cannot add bob"; exit 1; }
imp 1 || { echo "Bail out! import failed"; cat "$T/imp.out"; exit 1; }
sta maintainers 1 --add "Mia Maintainer <$BEFORE_ADDR>" >"$T/m.out" 2>&1 ||
	{ echo "Bail out! cannot add a participant"; cat "$T/m.out"; exit 1; }

# What bob keeps: the newest generation wrapped to him, decrypted.
bodies() { db_sql "SELECT encode(body, 'hex') FROM team_events ORDER BY seq"; }
"$TC" copy-of "$BOB" $(bodies) | xxd -r -p >"$T/bob.copy"
gpg --homedir "$T/bob" --batch --decrypt "$T/bob.copy" >"$T/bob.key" 2>/dev/null
tap_is "$(head -c 4 "$T/bob.key")" STK1 "bob holds the team key generation wrapped to him"
keyed() { "$TC" keyed "$T/bob.key" "$@"; }
rows() { db_sql "SELECT count(*) FROM $1"; }

# Control: while he is an officer, his hash finds what is stored.
tap_is "$(rows "participants WHERE report_id = 1 AND email = '$(keyed address "$BEFORE_ADDR")'")" 1 \
	"control: bob's keyed hash of $BEFORE_ADDR finds report 1's participant"
tap_is "$(rows "messages WHERE message_id = '$(keyed message-id keyed1@example.net)'")" 1 \
	"control: and report 1's Message-ID"

# Bob is removed; alice's next write rotates; report 2 comes in after.
e2e_admin team remove-officer "$BR" >/dev/null 2>&1
tap_ok $? "the administrator removes bob"
imp 2 || { echo "Bail out! import failed"; cat "$T/imp.out"; exit 1; }
for a in $AFTER_ADDRS; do
	sta maintainers 2 --add "Someone <$a>" >"$T/m.out" 2>&1 ||
		{ cat "$T/m.out"; echo "Bail out! cannot add $a"; exit 1; }
done

gen_of() { "$TC" gen-of "$(db_sql "SELECT subject FROM reports WHERE id = $1")"; }
tap_ok "$([ "$(gen_of 2)" -gt "$(gen_of 1)" ]; echo $?)" \
	"report 2 is sealed under a newer generation than report 1 (the rotation happened)"

# The attack: bob's list of addresses and Message-IDs against a dump.
for a in $AFTER_ADDRS; do
	tap_is "$(rows "participants WHERE email = '$(keyed address "$a")' AND report_id = 2")" 0 \
		"bob's keyed hash of $a finds no participant of report 2, brought in after he left"
done
tap_is "$(rows "messages WHERE message_id = '$(keyed message-id "$AFTER_MSGID")'")" 0 \
	"  nor report 2's Message-ID"
tap_is "$(rows "participants WHERE report_id = 2 AND email LIKE 'k1:%'")" 2 \
	"  (report 2's participants are keyed)"

# What was stored before the rotation is still found by the same value.
out=$(sta maintainers 1 --add "Mia Maintainer <$BEFORE_ADDR>" 2>&1)
tap_like "$out" "already in: Mia Maintainer <$BEFORE_ADDR>" \
	"$BEFORE_ADDR, brought into report 1 before the rotation, is found after it"
out=$(sta maintainers 1 --remove "$BEFORE_ADDR" 2>&1)
tap_ok $? "  and removed by the address alone (the store's keyed lookup)" "$out"
tap_is "$(rows "participants WHERE report_id = 1 AND removed_at IS NOT NULL")" 1 \
	"  its row says so"
sta import "$T/1.eml" >"$T/imp.out" 2>&1
tap_like "$(cat "$T/imp.out")" "already|duplicate" \
	"report 1's message, imported again after the rotation, is found as a duplicate"
tap_is "$(rows reports)" 2 "  and no report is added"
tap_done
