#!/bin/sh
# engines: pg
# The team chain against its attackers, with psql as an officer about to
# be removed and as the database administrator (who holds no officer's
# key), and a UI left open across a colleague's rotation.  The team key
# that seals is the newest generation of the signed chain that counts
# (signed by an officer on the roster at that point, wrapped to exactly
# that roster); anything else in the store is not used, blocks nothing,
# and is named.  Events are made by hand with tests/lib/teamchain.py and
# openssl (Ed25519), never with the program.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup teamchain
e2e_tmux_setup
TC=$SECTEAM_TOP/tests/lib/teamchain.py

newofficer() { # NAME HOME: prints the new key's fingerprint
	mkdir -m 700 "$2"
	cp "$H/gpg.conf" "$H/gpg-agent.conf" "$2/"
	gpg --homedir "$2" --batch --passphrase '' --quick-gen-key \
		"$1 <$1@team.example>" ed25519 sign never >/dev/null 2>&1 || return 1
	_f=$(gpg --homedir "$2" --list-keys --with-colons 2>/dev/null | awk -F: '/^fpr/ {print $10; exit}')
	gpg --homedir "$2" --batch --passphrase '' --quick-add-key "$_f" cv25519 encr never >/dev/null 2>&1 || return 1
	gpg --homedir "$2" --export "$_f" | gpg --homedir "$H" --batch --import >/dev/null 2>&1
	gpg --homedir "$H" --export | gpg --homedir "$2" --batch --import >/dev/null 2>&1
	gpg --homedir "$2" --export "$_f" | gpg --homedir "$S" --batch --import >/dev/null 2>&1
	echo "$_f"
}
A=$E2E_OFFICER
BR=bob_$$
CR=carol_$$
DR=dave_$$
e2e_on_exit 'for h in bob carol dave; do gpgconf --homedir "$T/$h" --kill all 2>/dev/null; done'
e2e_on_exit 'PGUSER=$E2E_ADMIN psql -X -q -d postgres -c "DROP ROLE IF EXISTS $BR" -c "DROP ROLE IF EXISTS $CR" -c "DROP ROLE IF EXISTS $DR" >/dev/null 2>&1'
sta() { PGUSER=$A "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" "$@"; }
as() { # ROLE HOME ARGS...: the program as that login with that keyring
	_r=$1 _h=$2; shift 2
	PGUSER=$_r "$SECTEAM_BIN" --db "$DB" --gnupghome "$_h" "$@"
}
adm() { PGUSER=$E2E_ADMIN psql -X -q -At -v ON_ERROR_STOP=1 -d "$E2E_PGDB" -c "SET search_path = secteam" -c "$1" 2>&1; }
bobsql() { PGUSER=$BR psql -X -q -At -v ON_ERROR_STOP=1 -d "$E2E_PGDB" -c "SET search_path = secteam" -c "$1" 2>&1; }
gen_of() { # ID: the generation report ID's subject is sealed under
	"$TC" gen-of "$(db_sql "SELECT subject FROM reports WHERE id = $1")"
}
imp() { # N: report "secret N" imported by alice
	printf 'From: Rita <rita@example.net>\nSubject: secret %s\nMessage-ID: <chain%s@example.net>\n\nbody %s\n' \
		"$1" "$1" "$1" >"$T/$1.eml"
	sta import "$T/$1.eml" >"$T/imp.out" 2>&1
}
opens() { # HOME ID: whether that keyring opens report ID's subject (as
	# alice's login: what a dump gives someone who left)
	PGUSER=$A "$SECTEAM_BIN" --db "$DB" --gnupghome "$1" show "$2" 2>/dev/null |
		grep -q "secret $2"
}
yes_no() { if "$@"; then echo yes; else echo no; fi; }
head_of() { # the next place and hash of the chain, as an attacker reads it
	"$TC" head $(db_sql "SELECT encode(body, 'hex') FROM team_events ORDER BY seq")
}
# An officer's signing key, as their keyring keeps it (they hold it).
pem_of() { # HOME FPR OUT
	gpg --homedir "$1" --batch --decrypt "$1/secteam-signing-$2" >"$T/seed" 2>/dev/null &&
		"$TC" pem "$T/seed" >"$3"
}
sign() { # PEM BODYHEX: the signature's hex
	printf '%s' "$2" | xxd -r -p >"$T/body.bin"
	openssl pkeyutl -sign -inkey "$1" -rawin -in "$T/body.bin" -out "$T/sig.bin" &&
		xxd -p "$T/sig.bin" | tr -d '\n'
}
wrap() { # OUT GEN RECIPIENT...: a team key copy ("STK1", generation,
	# key 0x11...) encrypted with the senders' keyring to the recipients
	_o=$1 _g=$2; shift 2
	_r=""; for k in "$@"; do _r="$_r -r $k"; done
	python3 -c 'import sys,struct; sys.stdout.buffer.write(b"STK1"+struct.pack(">I",int(sys.argv[1]))+b"\x11"*32)' "$_g" |
		gpg --homedir "$S" --batch --trust-model always $_r --encrypt >"$_o" 2>/dev/null
}

# Alice founds the team (team init, in e2e_setup) and imports; carol
# and dave join, and a reseal gives them the key.
imp 1 || { echo "Bail out! import failed"; cat "$T/imp.out"; exit 1; }
BOB=$(newofficer bob "$T/bob") && CAROL=$(newofficer carol "$T/carol") &&
	DAVE=$(newofficer dave "$T/dave") || { echo "Bail out! no keys"; exit 1; }
for h in bob carol dave; do
	for k in "$BOB" "$CAROL" "$DAVE"; do
		gpg --homedir "$H" --export "$k" | gpg --homedir "$T/$h" --batch --import >/dev/null 2>&1
	done
done
e2e_admin team add-officer "$CR" --key "$CAROL" >/dev/null 2>&1 &&
	e2e_admin team add-officer "$DR" --key "$DAVE" >/dev/null 2>&1 &&
	sta roster reseal >/dev/null 2>&1 || { echo "Bail out! cannot add carol and dave"; exit 1; }
tap_is "$(yes_no opens "$T/dave" 1)" yes "dave, an officer, opens report 1"
tap_is "$(db_sql "SELECT count(*) FROM team_keys")" 0 "the team key's generations are in the chain, not in team_keys"

# Hole 4: alice's UI open across a colleague's rotation (dave leaves;
# carol's reseal rotates while the UI is open), then a note from it.
tui_start 120 30 "PGUSER=$A"
wait_re "secret 1" 15
tui_ok $? "alice's UI is open"
e2e_admin team remove-officer "$DR" >/dev/null 2>&1 &&
	as "$CR" "$T/carol" roster reseal >/dev/null 2>&1
tap_ok $? "dave leaves; carol's reseal rotates the team key"
tmx send-keys -t t ":"; tmx send-keys -t t -l "triage 1 --note UINOTE-after-rotation"; tmx send-keys -t t Enter
i=0; while [ $i -lt 100 ] && [ "$(db_sql "SELECT count(*) FROM events WHERE kind = 'note' AND officer = '$A'")" -lt 1 ]; do
	sleep 0.1; i=$((i + 1)); done
tui_kill
ng=$("$TC" gen-of "$(db_sql "SELECT detail FROM events WHERE kind = 'note' AND officer = '$A' ORDER BY id DESC LIMIT 1")")
imp 2
tap_is "$ng" "$(gen_of 2)" "the UI's note is sealed under the generation carol's reseal made ($ng)"
out=$(PGUSER=$A "$SECTEAM_BIN" --db "$DB" --gnupghome "$T/dave" show 1 2>&1)
tap_unlike "$out" "UINOTE-after-rotation" "  dave, who left, does not read it"

# Hole 1: before his removal, bob plants a generation of his own: with
# psql in team_keys (a key he chose, wrapped to alice and himself), and
# with his own client (dave comes back; bob's next write rotates, so
# the newest generation is one bob made).
e2e_admin team add-officer "$BR" --key "$BOB" >/dev/null 2>&1 &&
	sta roster reseal >/dev/null 2>&1 || { echo "Bail out! cannot add bob"; exit 1; }
tap_is "$(yes_no opens "$T/bob" 1)" yes "bob, an officer, opens report 1"
wrap "$T/ga" 70 "$OFFICER_FPR" && wrap "$T/gb" 70 "$BOB" || { echo "Bail out! cannot wrap"; exit 1; }
out=$(bobsql "INSERT INTO team_keys (generation, fingerprint, wrapped, at) VALUES
	(70, '$OFFICER_FPR', decode('$(xxd -p "$T/ga" | tr -d '\n')', 'hex'), 0),
	(70, '$BOB', decode('$(xxd -p "$T/gb" | tr -d '\n')', 'hex'), 0)"); rc=$?
tap_is "$rc" 0 "bob plants team key generation 70 with psql" "$out"
# Hole 2's rows: a bogus copy for alice of a newer generation, and chain
# rows where the next rotations would put theirs.
out=$(bobsql "INSERT INTO team_keys VALUES (71, '$OFFICER_FPR', '\\x00', 0)"); rc=$?
tap_is "$rc" 0 "  and a bogus generation 71" "$out"
for g in 1 2 3 4 5 6 7 8 9; do bobsql "INSERT INTO team_keys VALUES ($g, 'chain', '\\x00', 0)" >/dev/null 2>&1; done
e2e_admin team add-officer "$DR" --key "$DAVE" >/dev/null 2>&1 || { echo "Bail out! cannot add dave again"; exit 1; }
out=$(as "$BR" "$T/bob" triage 1 --note "bob writes" 2>&1); rc=$?
tap_is "$rc" 0 "bob writes while he is an officer" "$out"
bobgen=$(db_sql "SELECT count(*) FROM team_events")
e2e_admin team remove-officer "$BR" >/dev/null 2>&1
tap_ok $? "the administrator removes bob"
imp 3
tap_ok $? "alice imports report 3" "$(cat "$T/imp.out")"
g3=$(gen_of 3)
tap_ok "$([ "$g3" != 70 ] && [ "$(db_sql "SELECT count(*) FROM team_events")" -gt "$bobgen" ]; echo $?)" \
	"report 3 is sealed under a new generation alice's write made (generation $g3), not bob's"
tap_is "$(yes_no opens "$T/bob" 3)" no "bob's keyring opens nothing of report 3"
tap_is "$(yes_no opens "$T/carol" 3)" yes "  carol's does"

# Hole 2: bob's rows in team_keys block no rotation.
out=$(sta roster reseal 2>&1); rc=$?
tap_is "$rc" 0 "roster reseal after bob's removal: exit 0" "$out"
tap_is "$(yes_no opens "$T/bob" 1)" no "  report 1, sealed again, no longer opens for bob"
tap_is "$(yes_no opens "$H" 1)" yes "  it opens for alice"

# Hole 3: the administrator (no officer, no team key) inserts a
# generation wrapped to the officers' keys: in team_keys, and in the
# chain, under a signing key of their own (certified by the stranger's
# OpenPGP key), and one under alice's name with a signature that is not
# hers.
wrap "$T/da" 50 "$OFFICER_FPR" && wrap "$T/dc" 50 "$CAROL" || { echo "Bail out! cannot wrap"; exit 1; }
out=$(adm "INSERT INTO team_keys (generation, fingerprint, wrapped, at) VALUES
	(50, '$OFFICER_FPR', decode('$(xxd -p "$T/da" | tr -d '\n')', 'hex'), 0),
	(50, '$CAROL', decode('$(xxd -p "$T/dc" | tr -d '\n')', 'hex'), 0)")
tap_ok $? "the administrator plants generation 50 in team_keys" "$out"
openssl genpkey -algorithm ed25519 -out "$T/dba.pem" 2>/dev/null
dpub=$(openssl pkey -in "$T/dba.pem" -pubout -outform DER | tail -c 32 | xxd -p | tr -d '\n')
printf 'secteam-tui officer signing key/1\nofficer %s\nkey %s\n' "$STRANGER_FPR" "$dpub" |
	gpg --homedir "$S" --batch -u "$STRANGER_FPR" --detach-sign >"$T/dcert" 2>/dev/null
set -- $(head_of)
b=$("$TC" signing-key "$1" "$2" "$STRANGER_FPR" "$dpub" "$T/dcert")
out=$(adm "INSERT INTO team_events (body, sig) VALUES (decode('$b', 'hex'), decode('$(sign "$T/dba.pem" "$b")', 'hex'))")
tap_ok $? "  and, in the chain, a signing key of their own" "$out"
b=$("$TC" generation "$1" "$2" "$STRANGER_FPR" 51 0 "" "$OFFICER_FPR=$T/da" "$CAROL=$T/dc")
out=$(adm "INSERT INTO team_events (body, sig) VALUES (decode('$b', 'hex'), decode('$(sign "$T/dba.pem" "$b")', 'hex'))")
tap_ok $? "  and generation 51 signed with it" "$out"
b=$("$TC" generation "$1" "$2" "$OFFICER_FPR" 52 0 "" "$OFFICER_FPR=$T/da" "$CAROL=$T/dc")
out=$(adm "INSERT INTO team_events (body, sig) VALUES (decode('$b', 'hex'), decode('$(sign "$T/dba.pem" "$b")', 'hex'))")
tap_ok $? "  and generation 52 in alice's name (forged: not her signature)" "$out"
imp 4
tap_ok $? "alice imports report 4" "$(cat "$T/imp.out")"
tap_is "$(gen_of 4)" "$(gen_of 3)" "report 4 is sealed under the chain's generation, none of the administrator's"
out=$(sta roster 2>&1)
tap_like "$out" "team key generation 51: signed by $STRANGER_FPR, who is not on the roster: not used" \
	"roster names the administrator's generation and why it is not used"
tap_like "$out" "team key generation 52: its signature is bad: not used" "  and the forged one"

# A generation wrapped to a stranger: signed by alice (with her own
# signing key, taken from her keyring) but carol's copy is the
# stranger's.
pem_of "$H" "$OFFICER_FPR" "$T/alice.pem" || { echo "Bail out! cannot read alice's signing key"; exit 1; }
wrap "$T/sa" 60 "$OFFICER_FPR" && wrap "$T/sc" 60 "$STRANGER_FPR" &&
	wrap "$T/sd" 60 "$DAVE" || { echo "Bail out! cannot wrap"; exit 1; }
set -- $(head_of)
# (the events not used above are not the head: the verified chain's is)
hd=$(sta roster 2>/dev/null >/dev/null; "$TC" head $(db_sql "SELECT encode(body, 'hex') FROM team_events
	WHERE seq NOT IN (SELECT seq FROM team_events ORDER BY seq DESC LIMIT 3) ORDER BY seq"))
set -- $hd
b=$("$TC" generation "$1" "$2" "$OFFICER_FPR" "$(($(gen_of 4) + 1))" "$(gen_of 4)" 00 \
	"$OFFICER_FPR=$T/sa" "$CAROL=$T/sc" "$DAVE=$T/sd")
out=$(adm "INSERT INTO team_events (body, sig) VALUES (decode('$b', 'hex'), decode('$(sign "$T/alice.pem" "$b")', 'hex'))")
tap_ok $? "a generation signed by alice, carol's copy wrapped to a stranger, is in the chain" "$out"
imp 5
tap_ok $? "alice imports report 5" "$(cat "$T/imp.out")"
tap_is "$(gen_of 5)" "$(gen_of 4)" "  report 5 is not sealed under it"
tap_like "$(sta roster 2>&1)" "team key generation $(($(gen_of 4) + 1)): its copy for $CAROL: it is encrypted to key [0-9A-F]+, which is not $CAROL's: not used" \
	"  roster says why"

# The administrator alone (a keyring with the officers' public keys and
# none of their secret keys) removes dave: the server's side holds at
# once (dave can no longer log in), and the error says the chain's
# removal needs an officer's signature; an officer's keyring then signs
# it.  Signing never stands between a removed officer and the door.
mkdir -m 700 "$T/adm"
cp "$H/gpg.conf" "$H/gpg-agent.conf" "$T/adm/" 2>/dev/null
e2e_on_exit 'gpgconf --homedir "$T/adm" --kill all 2>/dev/null'
gpg --homedir "$H" --export | gpg --homedir "$T/adm" --batch --import >/dev/null 2>&1
nev=$(db_sql "SELECT count(*) FROM team_events")
out=$(PGUSER=$E2E_ADMIN "$SECTEAM_BIN" --db "$DB" --gnupghome "$T/adm" team remove-officer "$DR" 2>&1); rc=$?
tap_is "$rc" 1 "the administrator alone removes dave: exit 1" "$out"
tap_like "$out" "$DR can no longer log in and its sessions ended, but the team chain still lists them.*team remove-officer $DR" \
	"  saying who must sign the chain's removal"
out=$(PGUSER=$DR psql -X -q -At -d "$E2E_PGDB" -c "SELECT 1" 2>&1); rc=$?
tap_ok $((rc == 0)) "  dave can no longer log in" "$out"
tap_is "$(db_sql "SELECT count(*) FROM team_events")" "$nev" "  and nothing was added to the chain"
out=$(e2e_admin team remove-officer "$DR" 2>&1); rc=$?
tap_is "$rc" 0 "with an officer's keyring, dave's removal is signed into the chain" "$out"
tap_is "$(db_sql "SELECT count(*) FROM team_events")" "$((nev + 1))" "  as one more event"

# The newest event dropped by the administrator (triggers off): each
# client remembers the newest head it verified, and a server showing a
# shorter chain is refused, saying so.  Given back, the chain is whole.
sta roster >/dev/null 2>&1
last=$(db_sql "SELECT max(seq) FROM team_events")
adm "CREATE TABLE keep_last AS SELECT * FROM team_events WHERE seq = $last;
	ALTER TABLE team_events DISABLE TRIGGER ALL;
	DELETE FROM team_events WHERE seq = $last;
	ALTER TABLE team_events ENABLE TRIGGER ALL" >/dev/null
out=$(imp 6; cat "$T/imp.out")
tap_like "$out" "team chain .* is broken: the team server dropped or reordered team events: it no longer shows the chain's event [0-9]+, which this client verified" \
	"the newest team event dropped by the administrator: the import is refused, saying so"
tap_is "$(db_sql "SELECT count(*) FROM reports")" 5 "  nothing was stored"
tap_like "$(sta roster 2>&1)" "dropped or reordered" "  roster says it too"
adm "ALTER TABLE team_events DISABLE TRIGGER ALL;
	INSERT INTO team_events SELECT * FROM keep_last;
	ALTER TABLE team_events ENABLE TRIGGER ALL" >/dev/null
out=$(sta roster 2>&1)
tap_unlike "$out" "dropped or reordered" "given back, the chain is whole again"

# An officer on the roster (carol, with her own signing key) writes a
# signed event on a head of her own: it is named, with her, and
# skipped; it stops nobody's writes.
pem_of "$T/carol" "$CAROL" "$T/carol.pem" || { echo "Bail out! cannot read carol's signing key"; exit 1; }
set -- $(head_of)
b=$("$TC" generation "$1" "$(printf '%064d' 0)" "$CAROL" 90 "$(gen_of 5)" 00 \
	"$OFFICER_FPR=$T/sa" "$CAROL=$T/sc")
out=$(adm "INSERT INTO team_events (body, sig) VALUES (decode('$b', 'hex'), decode('$(sign "$T/carol.pem" "$b")', 'hex'))")
tap_ok $? "carol puts a signed event that does not follow the chain in it" "$out"
imp 6
tap_ok $? "alice still imports report 6" "$(cat "$T/imp.out")"
tap_like "$(sta roster 2>&1)" "team key generation 90: signed by $CAROL, it does not follow the verified chain" \
	"  roster names carol's event and why it is not used"
out=$(as "$CR" "$T/carol" triage 6 --note "carol writes on" 2>&1)
tap_ok $? "  carol's own client writes on the verified chain too" "$out"

# A dropped event, then a reordered one: the administrator, triggers
# off.  The chain stops there, and nothing is sealed until it is whole.
rm_seq=$(db_sql "SELECT min(seq) FROM team_events WHERE seq > 3")
adm "CREATE TABLE keep AS SELECT * FROM team_events WHERE seq = $rm_seq;
	ALTER TABLE team_events DISABLE TRIGGER ALL;
	DELETE FROM team_events WHERE seq = $rm_seq;
	ALTER TABLE team_events ENABLE TRIGGER ALL" >/dev/null
out=$(imp 7; cat "$T/imp.out")
tap_like "$out" "team chain .* is broken: the team server dropped or reordered team events" \
	"an event dropped: the import is refused, saying why"
tap_is "$(db_sql "SELECT count(*) FROM reports")" 6 "  nothing was stored"
adm "ALTER TABLE team_events DISABLE TRIGGER ALL;
	INSERT INTO team_events SELECT * FROM keep;
	UPDATE team_events SET seq = -seq WHERE seq IN ($rm_seq, $rm_seq + 1);
	UPDATE team_events SET seq = CASE WHEN seq = -$rm_seq THEN $rm_seq + 1 ELSE $rm_seq END WHERE seq < 0;
	ALTER TABLE team_events ENABLE TRIGGER ALL" >/dev/null
out=$(imp 7; cat "$T/imp.out")
tap_like "$out" "dropped or reordered" "two events swapped: refused too"
tap_done
