#!/bin/sh
# engines: pg
# End to end, a team on a team server: two officers, each with their own
# GnuPG home, config and login role, on one PostgreSQL database.
#   - a report encrypted to officer A only is read by officer B;
#   - both import the same mailbox at once: every report stored once;
#   - who did it is the login role, whatever the config or environment
#     says; officers cannot edit or delete events;
#   - a removed officer's key opens no stored body after `roster reseal`,
#     a new officer's key opens them all, and a reseal killed midway then
#     run again leaves every body readable by the roster;
#   - the server holds no report plaintext (pg_dump, its data directory);
#   - a server that is down, a wrong password, a role without the grants:
#     one clear line naming the server, exit 1, nothing written;
#   - an import killed with -9, then re-run: every message stored once.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup team
CANARY="team-canary-$$-QWERTY"

# Officer B: a key of their own, in a home of their own; the officers
# have each other's public keys (as a team's officers do).
newofficer() { # NAME HOME: prints the new key's fingerprint
	mkdir -m 700 "$2"
	cp "$H/gpg.conf" "$H/gpg-agent.conf" "$2/"
	gpg --homedir "$2" --batch --passphrase '' --quick-gen-key \
		"$1 <$1@team.example>" ed25519 sign never >/dev/null 2>&1 || return 1
	_f=$(gpg --homedir "$2" --list-keys --with-colons 2>/dev/null | awk -F: '/^fpr/ {print $10; exit}')
	gpg --homedir "$2" --batch --passphrase '' --quick-add-key "$_f" cv25519 encr never >/dev/null 2>&1 || return 1
	gpg --homedir "$2" --export "$_f" | gpg --homedir "$H" --batch --import >/dev/null 2>&1
	gpg --homedir "$H" --export "$OFFICER_FPR" | gpg --homedir "$2" --batch --import >/dev/null 2>&1
	# and the officers' before them, whose signed events (an import
	# is one) each client verifies
	for _o in ${BOB:-} ${CAROL:-}; do
		gpg --homedir "$H" --export "$_o" | gpg --homedir "$2" --batch --import >/dev/null 2>&1
	done
	# Senders know the officers too (they encrypt to them).
	gpg --homedir "$2" --export "$_f" | gpg --homedir "$S" --batch --import >/dev/null 2>&1
	echo "$_f"
}
e2e_on_exit 'gpgconf --homedir "$T/bob" --kill all 2>/dev/null; gpgconf --homedir "$T/carol" --kill all 2>/dev/null'
A=$E2E_OFFICER
BR=bob_$$
CR=carol_$$
e2e_on_exit 'PGUSER=$E2E_ADMIN psql -X -q -d postgres -c "DROP ROLE IF EXISTS $BR" -c "DROP ROLE IF EXISTS $CR" -c "DROP ROLE IF EXISTS nogrant_$$" -c "DROP ROLE IF EXISTS pw_$$" >/dev/null 2>&1'
BOB=$(newofficer bob "$T/bob") || { echo "Bail out! no key for bob"; exit 1; }
printf '[officer]\n\tname = Bob\n' >"$T/bob.conf"
printf '[officer]\n\tname = Alice\n' >"$T/alice.conf"
sta() { PGUSER=$A "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/alice.conf" "$@"; }
stb() { PGUSER=$BR "$SECTEAM_BIN" --db "$DB" --gnupghome "$T/bob" --config "$T/bob.conf" "$@"; }

out=$(e2e_admin team add-officer "$BR" --name Bob --key "$BOB" 2>&1); rc=$?
tap_is "$rc" 0 "team add-officer: exit 0"
tap_like "$out" "roster reseal" "add-officer says to reseal"
tap_is "$(sta team list --json | jq -r '[.[] | .role] | sort | join(" ")')" "$(printf '%s\n' "$A" "$BR" | sort | tr '\n' ' ' | sed 's/ $//')" "team list names both officers"
tap_is "$(stb roster --json | jq -r 'length')" 2 "the roster has both keys"
tap_is "$(stb roster --json | jq -r --arg f "$BOB" '.[] | select(.fingerprint == $f) | .secret')" true "roster: bob holds his own secret key"
tap_is "$(stb roster --json | jq -r --arg f "$OFFICER_FPR" '.[] | select(.fingerprint == $f) | .secret')" false "roster: not alice's"

# 1. Encrypted to officer A only; B reads it.
mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
	--to "$OFFICER_FPR" --subject "Overflow in tcp" --message-id "<a1@example.net>" \
	--body "$CANARY in net/ipv4/tcp_input.c" >"$T/a1.eml"
tap_like "$(sta import "$T/a1.eml")" "^1	valid	" "alice imports a report encrypted to her only"
out=$(stb show 1 2>&1); rc=$?
tap_is "$rc" 0 "bob: show exits 0"
tap_like "$out" "$CANARY" "bob reads the body of a report encrypted to alice only"
# Verified again on bob's side, from the bytes and the session key kept
# with them: until his keyring has Rita's key, he cannot tell her
# signature good, whatever the import recorded.
tap_is "$(stb show 1 --json | jq -r '.signature.verdict + " " + (.messages_detail[0].verified | tostring)')" \
	"unknown-key true" "bob verifies it again, with its session key: without Rita's key, unknown-key"
gpg --homedir "$S" --export "$REPORTER_FPR" | gpg --homedir "$T/bob" --batch --import >/dev/null 2>&1
gpg --homedir "$T/bob" --batch --yes --quick-lsign-key "$REPORTER_FPR" >/dev/null 2>&1
tap_is "$(stb show 1 --json | jq -r '.signature.verdict + " " + (.messages_detail[0].verified | tostring)')" \
	"valid true" "  with her key certified in his keyring, valid"

# 2. Who did it.
SECTEAM_OFFICER=mallory USER=mallory stb triage 1 --state triaged --claim --note "bob looked" >/dev/null
j=$(sta show 1 --json)
tap_is "$(printf '%s' "$j" | jq -r '.events[] | select(.kind == "note") | .officer')" "$BR" "the note is recorded as bob's role, not the environment's name"
tap_is "$(printf '%s' "$j" | jq -r '.claimed_by')" "$BR" "claimed by bob's role"
out=$(sta triage 1 --claim 2>&1); rc=$?
tap_is "$rc" 1 "alice's --claim on bob's report exits 1" "$out"
tap_like "$out" "report 1 is claimed by $BR: --claim --take takes it over" "naming bob"
tap_is "$(sta show 1 --json | jq -r '.claimed_by')" "$BR" "bob keeps it"
tap_is "$(printf '%s' "$j" | jq -r '.events[0].officer')" "$A" "the import is alice's"
err=$(PGUSER=$BR psql -X -q -d "$E2E_PGDB" -c "UPDATE secteam.events SET officer = 'alice'" 2>&1); rc=$?
tap_ok $((rc == 0)) "an officer cannot UPDATE events" "$err"
tap_like "$err" "permission denied" "UPDATE events: permission denied"
err=$(PGUSER=$BR psql -X -q -d "$E2E_PGDB" -c "DELETE FROM secteam.events" 2>&1); rc=$?
tap_ok $((rc == 0)) "an officer cannot DELETE events" "$err"
err=$(PGUSER=$BR psql -X -q -d "$E2E_PGDB" -c "INSERT INTO secteam.events (report_id, at, officer, kind) VALUES (1, 0, 'alice', 'forged')" 2>&1)
tap_is "$(db_sql "SELECT officer FROM events WHERE kind = 'forged'")" "$BR" "an event inserted by hand still records the login"
err=$(db_sql "UPDATE events SET detail = 'x'" 2>&1); rc=$?
tap_ok $((rc == 0)) "not even the owner edits events (trigger)" "$err"
tap_like "$err" "append-only" "the trigger says why"

# 3. Both import the same 200-message mailbox at the same time.
i=0
: >"$T/list"
while [ "$i" -lt 200 ]; do
	mk_line "$T/b$i.eml" --kind encrypted-signed --from "Rita Reporter <rita@example.net>" \
		--sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" --to "$BOB" --subject "bulk $i" \
		--message-id "<bulk$i@example.net>" --body "report $i"
	echo "$T/b$i.eml" >>"$T/list"
	i=$((i + 1))
done | mk_batch || { echo "Bail out! cannot make the test mails"; exit 1; }
e2e_mbox "$T/bulk.mbox" $(cat "$T/list")
before=$(db_sql "SELECT coalesce(max(id), 0) FROM messages")   # (Message-IDs are keyed)
sta import --mbox "$T/bulk.mbox" >"$T/ia" 2>"$T/iae" &
pa=$!
stb import --mbox "$T/bulk.mbox" >"$T/ib" 2>"$T/ibe" &
pb=$!
wait $pa; ra=$?
wait $pb; rb=$?
tap_is "$ra $rb" "0 0" "both imports exit 0"
tap_is "$(db_sql "SELECT count(*) FROM messages WHERE id > $before")" 200 "200 messages stored, each once"
tap_is "$(db_sql "SELECT count(DISTINCT report_id) FROM messages WHERE id > $before")" 200 "200 reports"
tap_is "$(cat "$T/ia" "$T/ib" | grep -c '^duplicate')" 200 "every message is a duplicate for one of the two"
tap_is "$(cat "$T/ia" "$T/ib" | grep -cE '^[0-9]+	[a-z-]+	bulk [0-9]+$')" 200 "and new for the other"

# 4. The server holds no plaintext.
tap_is "$(PGUSER=$E2E_ADMIN pg_dump "$E2E_PGDB" | grep -c "$CANARY")" 0 "pg_dump holds no report plaintext"
PGUSER=$E2E_ADMIN psql -X -q -d "$E2E_PGDB" -c CHECKPOINT >/dev/null 2>&1
tap_is "$(grep -rl -a "$CANARY" "$PGHOST/data" 2>/dev/null | wc -l)" 0 "the server's data directory holds no report plaintext"

# 5. Roster changes and reseal.
blobs() { # DIR: writes each stored body as DIR/ID.gpg (one query)
	mkdir -p "$1"
	db_sql "SELECT id || ' ' || translate(encode(blob, 'base64'), E'\\n', '') FROM messages ORDER BY id" |
		while read -r _id _b; do
			printf '%s' "$_b" | base64 -d >"$1/$_id.gpg"
		done
}
# Bodies are sealed under the team key, wrapped to each officer's key: a
# keyring opens a body when it unwraps the key of the body's generation.
# opens HOME: how many stored bodies the program opens with that
# keyring (a search for a word no body holds opens every body; it counts
# those it could not open), as alice's login (a dump, for a removed one).
opens() {
	_u=$(PGUSER=$A "$SECTEAM_BIN" --db "$DB" --gnupghome "$1" search zzqxnomatchxzz 2>&1 |
		sed -n 's/^warning: \([0-9]*\) message(s) could not be opened.*/\1/p')
	echo $((total - ${_u:-0}))
}
CAROL=$(newofficer carol "$T/carol") || { echo "Bail out! no key for carol"; exit 1; }
e2e_admin team add-officer "$CR" --key "$CAROL" >/dev/null
total=$(db_sql "SELECT count(*) FROM messages")
tap_is "$(opens "$T/carol")" 0 "before the reseal, carol's key opens no body"
out=$(sta roster reseal 2>&1); rc=$?
tap_is "$rc" 0 "roster reseal: exit 0"
tap_like "$out" "new team key generation, wrapped to exactly the roster" "a new team key generation is wrapped for carol (the roster grew)"
tap_like "$out" "resealed: [0-9]+" "  and says how many bodies it sealed again"
tap_is "$(opens "$T/carol")" "$total" "after it, carol's key opens every body"
tap_is "$(opens "$T/bob")" "$total" "and bob's"
out=$(sta roster reseal 2>&1)
tap_like "$out" "left alone: $total" "a second reseal leaves them alone"
# A note written under this generation of the team key (events are
# append-only: never sealed again).
sta triage 1 --note "CHAINNOTE written before bob left" >/dev/null
# Bob leaves.
e2e_admin team remove-officer "$BR" >/dev/null
tap_is "$(sta roster --json | jq -r 'length')" 2 "the roster no longer has bob's key"
# The plain listings: a header row, each column as wide as its widest
# cell, the removed officer marked.
out=$(sta team list)
hd=$(printf '%s\n' "$out" | sed -n 1p)
row=$(printf '%s\n' "$out" | grep -F "$BOB")
tap_like "$hd" "^OFFICER +KEY +SINCE +NAME$" "team list: a header row"
tap_like "$row" "^$BR +$BOB  [0-9]{4}-[0-9]{2}-[0-9]{2}  Bob \\(removed\\)$" "team list: bob is there, marked removed"
tap_is "$(awk -v s="$row" -v k="$BOB" 'BEGIN { print index(s, k) }')" \
	"$(awk -v s="$hd" 'BEGIN { print index(s, "KEY") }')" "team list: the key is under KEY"
out=$(sta roster)
tap_like "$(printf '%s\n' "$out" | sed -n 1p)" "^FINGERPRINT +OFFICER +SECRET +EXPIRES +USER ID$" "roster: a header row"
tap_like "$(printf '%s\n' "$out" | grep -F "$CAROL")" "^$CAROL  $CR +no +never +carol <carol@team.example>$" "roster: carol's key, not this officer's secret"
# A reseal killed midway, then run again.
PGUSER=$A "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" roster reseal >/dev/null 2>&1 &
rp=$!
sleep 1
kill -9 "$rp" 2>/dev/null
wait "$rp" 2>/dev/null
tap_is "$(opens "$H")" "$total" "after a kill -9 mid-reseal, alice's key still opens every body"
out=$(sta roster reseal 2>&1); rc=$?
tap_is "$rc" 0 "the reseal run again finishes: exit 0"
blobs "$T/gone"
tap_is "$(opens "$T/bob")" 0 "the removed officer's key opens no stored body (a new team key generation)"
tap_is "$(opens "$T/carol")" "$total" "the roster's keys open all of them"
tap_is "$(opens "$H")" "$total" "(alice's too)"
tap_is "$(db_sql "SELECT count(*) FROM team_keys WHERE fingerprint = '$BOB'")" 0 \
	"the reseal dropped the old generation's wrapped copies: none is bob's"
# The generations are signed events of the team chain, which nobody
# changes or deletes, not even with psql.
err=$(PGUSER=$A psql -X -q -d "$E2E_PGDB" -c "DELETE FROM secteam.team_events" 2>&1); rc=$?
tap_ok "$([ $rc -ne 0 ] && [ "$(db_sql "SELECT count(*) FROM team_events")" -ge 4 ]; echo $?)" \
	"an officer cannot delete the team chain (its generations) with psql" "$err"
err=$(PGUSER=$A psql -X -q -d "$E2E_PGDB" -c "UPDATE secteam.team_events SET sig = sig" 2>&1); rc=$?
tap_ok "$([ $rc -ne 0 ]; echo $?)" "  nor change an event of it" "$err"
# Dave joins after the rotation: his copy is of the new generation only,
# and he reads the note sealed under the old one through the chain.
DR=dave_$$
e2e_on_exit 'PGUSER=$E2E_ADMIN psql -X -q -d postgres -c "DROP ROLE IF EXISTS $DR" >/dev/null 2>&1'
e2e_on_exit 'gpgconf --homedir "$T/dave" --kill all 2>/dev/null'
DAVE=$(newofficer dave "$T/dave") || { echo "Bail out! no key for dave"; exit 1; }
e2e_admin team add-officer "$DR" --key "$DAVE" >/dev/null
sta roster reseal >/dev/null 2>&1
tap_is "$(db_sql "SELECT count(*) FROM team_keys WHERE fingerprint = '$DAVE' AND generation = 1")" 0 \
	"dave has no copy of the first generation"
out=$(PGUSER=$DR "$SECTEAM_BIN" --db "$DB" --gnupghome "$T/dave" show 1 2>&1)
tap_like "$out" "CHAINNOTE written before bob left" \
	"a note sealed before the rotation opens for an officer who joined after it (the chain)"
tap_unlike "$out" "does not open" "  and nothing shows as unopened"
if command -v sqop >/dev/null; then
	gpg --homedir "$T/bob" --batch --pinentry-mode loopback --passphrase '' \
		--export-secret-keys "$BOB" | sqop dearmor >"$T/bob.key" 2>/dev/null
	n=0
	for f in "$T"/gone/*.gpg; do
		sqop decrypt "$T/bob.key" <"$f" >/dev/null 2>&1 && n=$((n + 1))
	done
	tap_is "$n" 0 "sqop with the removed officer's key decrypts none either"
fi
out=$(stb list 2>&1); rc=$?
tap_is "$rc" 1 "the removed officer's role can no longer read the team's database"
tap_like "$out" "role \"bob_[0-9]*\" is not permitted to log in" "and is told so: the role cannot log in any more"

# 6. A bad server.
out=$("$SECTEAM_BIN" --db "host=$T/nowhere dbname=x" --gnupghome "$H" list 2>&1); rc=$?
tap_is "$rc" 1 "server down: exit 1"
tap_like "$out" "^secteam-tui: cannot reach the team server '$T/nowhere:5432/x': " "server down: one line naming the server"
tap_is "$(printf '%s\n' "$out" | wc -l)" 1 "server down: one line"
tap_like "$out" "No such file or directory \\(is the server running locally" "server down: the cause, and libpq's hint on the same line"
out=$("$SECTEAM_BIN" --db "dbname=nosuch_$$" --gnupghome "$H" list 2>&1); rc=$?
tap_like "$rc $out" "^1 secteam-tui: cannot reach the team server '.*/nosuch_$$': .*database \"nosuch_$$\" does not exist$" "no such database: exit 1, named"
tap_unlike "$out" "FATAL" "no such database: without the server's FATAL prefix"
# libpq is loaded when a team server is opened (store/db-pg.c), not at
# start: an officer on SQLite never maps it; a libpq.so.5 that is not
# libpq is refused, named, and nothing is written.
tap_unlike "$(ldd "$SECTEAM_BIN")" "libpq" "the program is not linked to libpq"
mkdir -p "$T/fakepq"
echo 'int not_libpq(void) { return 0; }' >"$T/fakepq/f.c"
cc -shared -fPIC -o "$T/fakepq/libpq.so.5" "$T/fakepq/f.c"
before=$(db_sql "SELECT count(*) FROM events")
out=$(LD_LIBRARY_PATH=$T/fakepq "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" triage 1 --note x 2>&1); rc=$?
tap_is "$rc" 1 "a libpq.so.5 that is not libpq: exit 1" "$out"
tap_like "$out" "libpq.so.5 has no PQ[a-zA-Z]*: not the libpq 14 or later" "  naming the library and what it lacks"
tap_is "$(db_sql "SELECT count(*) FROM events")" "$before" "  and writing nothing"
out=$(LD_LIBRARY_PATH=$T/fakepq "$SECTEAM_BIN" --db "$T/solo.db" --gnupghome "$H" list 2>&1); rc=$?
tap_is "$rc" 0 "an officer on SQLite does not need it" "$out"
PGUSER=$E2E_ADMIN psql -X -q -d postgres -c "CREATE ROLE nogrant_$$ LOGIN" >/dev/null
before=$(db_sql "SELECT count(*) FROM events")
out=$(PGUSER=nogrant_$$ "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" triage 1 --note x 2>&1); rc=$?
tap_is "$rc" 1 "a role without the grants: exit 1"
tap_like "$out" "team server '.*/$E2E_PGDB'.*permission denied" "a role without the grants: the server and the cause"
tap_is "$(db_sql "SELECT count(*) FROM events")" "$before" "nothing written"
# Wrong password: a role that must give one (scram-sha-256), before trust.
PGUSER=$E2E_ADMIN psql -X -q -d postgres -c "SET password_encryption = 'scram-sha-256'" \
	-c "CREATE ROLE pw_$$ LOGIN PASSWORD 'right-one'" >/dev/null
hba=$PGHOST/data/pg_hba.conf
if [ -w "$hba" ] || [ "$(id -u)" = 0 ]; then
	cp "$hba" "$T/hba.orig"
	{ echo "local all pw_$$ scram-sha-256"; cat "$T/hba.orig"; } >"$hba"
	PGUSER=$E2E_ADMIN psql -X -q -d postgres -c "SELECT pg_reload_conf()" >/dev/null
	out=$(PGUSER=pw_$$ PGPASSWORD=wrong "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" list 2>&1); rc=$?
	cat "$T/hba.orig" >"$hba"
	PGUSER=$E2E_ADMIN psql -X -q -d postgres -c "SELECT pg_reload_conf()" >/dev/null
	tap_is "$rc" 1 "wrong password: exit 1"
	tap_like "$out" "cannot reach the team server '.*/$E2E_PGDB': .*password authentication failed" "wrong password: named"
	tap_is "$(printf '%s\n' "$out" | wc -l)" 1 "wrong password: one line"
fi

# 7. An import killed with -9 once some of it is committed, then run
# again: each message stored once.
i=0
: >"$T/list"
while [ "$i" -lt 60 ]; do
	mk_line "$T/k$i.eml" --kind encrypted-signed --from "Rita Reporter <rita@example.net>" \
		--sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" --subject "killed $i" \
		--message-id "<killed$i@example.net>" --body "report $i"
	echo "$T/k$i.eml" >>"$T/list"
	i=$((i + 1))
done | mk_batch || { echo "Bail out! cannot make the test mails"; exit 1; }
e2e_mbox "$T/killed.mbox" $(cat "$T/list")
kbase=$(db_sql "SELECT count(*) FROM messages")
killed() { echo $(( $(db_sql "SELECT count(*) FROM messages") - kbase )); }
PGUSER=$A "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" import --jobs 1 --mbox "$T/killed.mbox" >/dev/null 2>&1 &
ip=$!
i=0
while [ "$i" -lt 200 ] && [ "$(killed)" = 0 ]; do
	sleep 0.05
	i=$((i + 1))
done
kill -9 "$ip" 2>/dev/null
wait "$ip" 2>/dev/null
mid=$(killed)
sta import --mbox "$T/killed.mbox" >"$T/again" 2>&1; rc=$?
tap_is "$rc" 0 "the import run again: exit 0"
tap_is "$(killed)" 60 "every message stored once (killed after $mid)"
tap_is "$(grep -c '^duplicate' "$T/again")" "$mid" "the ones stored before the kill are duplicates"
tap_is "$(db_ok)" ok "the database answers"
tap_done
