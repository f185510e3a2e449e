#!/bin/sh
# engines: sqlite pg
# End to end: whose key a forward is encrypted to.  Anyone can put any
# address on a key: an attacker's key carries Mia's address in a user ID
# nobody certified, next to Mia's own key, which the officer certified.
# The copy goes to Mia's key only (Sequoia's sqop decrypts it with her
# key, not with the attacker's).  Max's only key is not certified: the
# forward is refused, naming his address and the key, even with
# --allow-plaintext, and nothing is sent; once the officer confirms that
# key (maintainers ID --add ADDR --key FPR, an event) it goes there.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup forward-keys
command -v sqop >/dev/null || { echo "Bail out! sqop (Debian package sqop) is not installed"; exit 1; }
export SECTEAM_OFFICER=alice
count() { find "$1" -type f 2>/dev/null | wc -l | tr -d ' '; }
events() { st show 1 --json | jq -r ".events[] | select(.kind == \"$1\") | .detail"; }

# The attacker's keys, made in a home of their own, imported by the
# officer without certifying them.
A=$T/keys/attacker
mkdir -p "$A" && chmod 700 "$A"
g() { gpg --homedir "$A" --batch --no-tty --yes --passphrase '' --pinentry-mode loopback "$@" 2>/dev/null; }
fpr() { gpg --homedir "$A" --batch --with-colons --list-keys "=$1" 2>/dev/null | awk -F: '$1 == "fpr" { print $10; exit }'; }
g --quick-gen-key "Mia Maintainer <mia@example.org>" future-default default never
g --quick-gen-key "Max Newcomer <max@example.org>" future-default default never
EVIL=$(fpr "Mia Maintainer <mia@example.org>")
MAX=$(fpr "Max Newcomer <max@example.org>")
[ -n "$EVIL" ] && [ -n "$MAX" ] || { echo "Bail out! cannot make the attacker's keys"; exit 1; }
gpg --homedir "$A" --batch --export "$EVIL" "$MAX" >"$T/attacker.pub"
gpg --homedir "$H" --batch --import "$T/attacker.pub" 2>/dev/null
gpg --homedir "$A" --batch --export-secret-keys "$EVIL" >"$T/evil.key"
gpg --homedir "$A" --batch --export-secret-keys "$MAX" >"$T/max.key"
gpg --homedir "$S" --batch --export-secret-keys "$MAINTAINER_FPR" >"$T/mia.key"
tap_is "$(gpg --homedir "$H" --batch --with-colons --list-keys '<mia@example.org>' 2>/dev/null | grep -c '^pub')" 2 \
	"the officer's keyring has two keys with Mia's address"

mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
	--to "$OFFICER_FPR" --subject "UAF in net/core" --body "KEY-CANARY in net/core/dev.c" \
	--message-id "k1@example.net" >"$T/r1.eml"
st import "$T/r1.eml" >/dev/null
st maintainers 1 --add 'Mia Maintainer <mia@example.org>' --add 'Max Newcomer <max@example.org>' >/dev/null

# armor N: the armored OpenPGP message of the forward in $T/oN.
armor() {
	/usr/bin/python3 "$SECTEAM_TOP/tests/lib/check-forward.py" encrypted \
		"$(find "$T/o$1/new" -type f)" "$T/a$1.asc" >/dev/null
}

# Mia: her certified key, never the attacker's.
out=$(st forward 1 --to mia@example.org --outbox "$T/o1" 2>&1); rc=$?
tap_is "$rc" 0 "forward to Mia exits 0" "$out"
armor 1
sqop decrypt "$T/mia.key" <"$T/a1.asc" >"$T/p1" 2>/dev/null
tap_ok $? "Mia's certified key decrypts it (sqop)"
grep -q KEY-CANARY "$T/p1"
tap_ok $? "and it holds the report"
sqop decrypt "$T/evil.key" <"$T/a1.asc" >/dev/null 2>&1; rc=$?
tap_ok $((rc == 0)) "the attacker's key with Mia's address cannot decrypt it"

# Max: only an uncertified key carries his address.
for extra in "" --allow-plaintext; do
	out=$(st forward 1 --to max@example.org $extra --outbox "$T/o2" 2>&1); rc=$?
	tap_is "$rc" 1 "forward to Max ${extra:+($extra) }is refused"
	tap_like "$out" "key $MAX carries 'max@example.org' in a user ID nobody certified" \
		"naming the key and the address${extra:+ ($extra)}"
	tap_like "$out" "maintainers 1 --add max@example.org --key FPR" "saying how to confirm it${extra:+ ($extra)}"
done
tap_is "$(count "$T/o2")" 0 "nothing was sent"
out=$(st forward 1 --to mia@example.org --to max@example.org --outbox "$T/o2" 2>&1); rc=$?
tap_is "$rc:$(count "$T/o2")" "1:0" "one refused recipient stops the whole forward"

# --key: checked, then recorded, then used.
out=$(st maintainers 1 --add 'Max Newcomer <max@example.org>' --key 1234 2>&1); rc=$?
tap_is "$rc" 1 "--key that is no fingerprint: refused"
tap_like "$out" "--key '1234' is not a full key fingerprint" "saying so"
out=$(st maintainers 1 --add 'Max Newcomer <max@example.org>' --key "$UNKNOWN_FPR" 2>&1); rc=$?
tap_is "$rc" 1 "--key of a key not in the keyring: refused"
tap_like "$out" "no usable encryption key for '$UNKNOWN_FPR': no key" "naming it"
out=$(st maintainers 1 --add 'Max Newcomer <max@example.org>' --add 'Mia Maintainer <mia@example.org>' --key "$MAX" 2>&1); rc=$?
tap_is "$rc" 2 "--key with two --add: usage error"
out=$(st maintainers 1 --add 'Max Newcomer <max@example.org>' --key "$MAX" 2>&1); rc=$?
tap_is "$rc" 0 "the officer confirms Max's key" "$out"
tap_is "$out" "report 1: key $MAX confirmed for max@example.org" "saying so"
tap_is "$(events participant-key)" "max@example.org: key $MAX confirmed" "as an event"
tap_is "$(st show 1 --json | jq -r '.participants[] | select(.email == "max@example.org") | .key')" "$MAX" \
	"show --json has the participant's key"
out=$(st forward 1 --to max@example.org --outbox "$T/o3" 2>&1); rc=$?
tap_is "$rc" 0 "now the forward to Max goes" "$out"
armor 3
sqop decrypt "$T/max.key" <"$T/a3.asc" 2>/dev/null | grep -q KEY-CANARY
tap_ok $? "to the confirmed key (sqop decrypts it with Max's key)"

# A confirmed key wins over the certified one: the officer's word.
st maintainers 1 --add 'Rex Reviewer <rex@example.org>' --key "$MAINTAINER_FPR" >/dev/null 2>&1
tap_is "$(st show 1 --json | jq -r '.participants[] | select(.email == "rex@example.org") | .key')" \
	"$MAINTAINER_FPR" "a new participant added with --key has it"
out=$(st forward 1 --to rex@example.org --outbox "$T/o4" 2>&1); rc=$?
tap_is "$rc" 0 "a participant whose confirmed key names another address: sent" "$out"
armor 4
sqop decrypt "$T/mia.key" <"$T/a4.asc" >/dev/null 2>&1
tap_ok $? "to that key"

# Two certified keys for one address: which is meant is the officer's
# call, so it is refused until one is confirmed.
gpg --homedir "$H" --batch --yes --default-key "$OFFICER_FPR" --quick-sign-key "$EVIL" >/dev/null 2>&1
out=$(st forward 1 --to mia@example.org --outbox "$T/o5" 2>&1); rc=$?
tap_is "$rc:$(count "$T/o5")" "1:0" "two certified keys for Mia's address: refused, nothing sent"
tap_like "$out" "2 keys carry a certified user ID for 'mia@example.org' \((${EVIL} and ${MAINTAINER_FPR}|${MAINTAINER_FPR} and ${EVIL})\)" \
	"naming both keys"
st maintainers 1 --add 'Mia Maintainer <mia@example.org>' --key "$MAINTAINER_FPR" >/dev/null
out=$(st forward 1 --to mia@example.org --outbox "$T/o5" 2>&1); rc=$?
tap_is "$rc" 0 "once the officer confirms Mia's key, it goes" "$out"
armor 5
sqop decrypt "$T/evil.key" <"$T/a5.asc" >/dev/null 2>&1; rc=$?
tap_ok $((rc == 0)) "and the other key cannot decrypt it"

# A key swapped in the record behind the program (an officer with psql or
# the sqlite3 shell; on the team server with an event of the kind, which
# says Max's own key was confirmed): the key a forward uses is the one the
# timeline confirms, so it is refused, naming both, and nothing is sent.
# (The sqlite3 shell's user owns the file: they drop the trigger that
# refuses a participant's change without its event first.)
e2e_sqlite && db_sql "DROP TRIGGER participants_by_events" >/dev/null
db_sql "BEGIN; INSERT INTO events (report_id, at, officer, kind, detail)
	VALUES (1, 1, 'x', 'participant-key', 'max@example.org: key $MAX confirmed');
	UPDATE participants SET key_fpr = '$EVIL' WHERE report_id = 1 AND key_fpr = '$MAX';
	COMMIT" >/dev/null
if e2e_sqlite; then
	tap_is "$(st show 1 --json | jq -r '.participants[] | select(.email == "max@example.org") | .key')" "$EVIL" \
		"the record now holds the attacker's key for Max"
	tap_is "$(st show 1 --json | jq -r '.participants[] | select(.email == "max@example.org") | "\(.key_confirmed) \(.key_mismatch)"')" \
		"$MAX true" "show --json: the timeline confirms Max's own key, and says they differ"
else
	# On the team server the participants are what the signed changes
	# say (report-changes.sh): the swapped row is not believed at all.
	tap_is "$(db_sql "SELECT key_fpr FROM participants WHERE report_id = 1 AND key_fpr = '$EVIL'")" "$EVIL" \
		"the server's row now holds the attacker's key for Max"
	tap_is "$(st show 1 --json | jq -r '.participants[] | select(.email == "max@example.org") | "\(.key) \(.key_confirmed) \(.key_mismatch)"')" \
		"$MAX $MAX false" "show --json: Max's key is the one the signed changes confirm"
fi
out=$(st forward 1 --to max@example.org --outbox "$T/o6" 2>&1); rc=$?
tap_is "$rc:$(count "$T/o6")" "1:0" "a forward to Max is refused, nothing sent" "$out"
tap_like "$out" "the key the record holds for max@example.org \\($EVIL\\) is not the one its timeline confirms \\($MAX\\)" \
	"naming the record's key and the timeline's"
out=$(st maintainers 1 --add 'Max Newcomer <max@example.org>' --key "$MAX" 2>&1); rc=$?
tap_is "$rc" 0 "the officer confirms Max's key again" "$out"
out=$(st forward 1 --to max@example.org --outbox "$T/o6" 2>&1); rc=$?
tap_is "$rc" 0 "then the forward goes" "$out"
armor 6
sqop decrypt "$T/max.key" <"$T/a6.asc" 2>/dev/null | grep -q KEY-CANARY
tap_ok $? "to Max's own key"
tap_done
