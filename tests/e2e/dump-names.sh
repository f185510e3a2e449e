#!/bin/sh
# engines: sqlite pg
# A dump of the team's database names no person: after a realistic
# scenario (a signed report imported, participants brought in, reminders
# sent), neither the SQLite file nor pg_dump holds the address or name
# of the reporter or of a participant.  The people are this test's own
# fixtures (the mail it makes, the participants it adds), never a list
# of what the program stores.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup dump-names
st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config" "$@"; }
at() { SECTEAM_TEST_NOW=$1; export SECTEAM_TEST_NOW; }
cat > "$T/config" <<EOF2
[team]
	address = security@example.org
[officers]
	$E2E_OFFICER = security@example.org
EOF2
REPORTER="Rita Reporter <rita@example.net>"
PARTICIPANTS="Mia Maintainer <mia@example.org>|Sam Stranger <sam@example.com>"

at 2026-11-30T10:00:00Z
mk --kind encrypted-signed --from "$REPORTER" --sign-as "$REPORTER_FPR" \
	--to "$OFFICER_FPR" --subject "tcp overflow" --body "a heap overflow" \
	--message-id "m1@example.net" --date "Mon, 30 Nov 2026 09:00:00 +0000" >"$T/r1.eml"
out=$(st import "$T/r1.eml" 2>&1) || { echo "Bail out! import failed: $out"; exit 1; }
tap_is "$(st show 1 --json | jq -r '.signature.verdict')" valid "control: the report is signed by its reporter"
# Each brought in with a key the officer confirmed (reminders are never
# sent in the clear).
IFS='|'
set -- $PARTICIPANTS
unset IFS
for fpr in "$MAINTAINER_FPR" "$STRANGER_FPR"; do
	out=$(st maintainers 1 --add "$1" --key "$fpr" 2>&1) ||
		{ echo "Bail out! cannot add $1: $out"; exit 1; }
	shift
done
# Two working days later nobody has acknowledged: reminders go out.
at 2026-12-03T09:00:00Z
out=$(st due --mail --outbox "$T/out" 2>&1)
tap_ok $? "due --mail sends the participants' reminders" "$out"
tap_ok "$([ "$(db_sql "SELECT count(*) FROM reminders")" -gt 0 ]; echo $?)" \
	"  and records them (the reminders table is not empty)"

# The dump: every byte the database holds, as its administrator gets it.
if e2e_sqlite; then
	sqlite3 "$DB" .dump >"$T/dump"
	cat "$DB" >>"$T/dump"
	for f in "$DB-wal" "$DB-journal"; do [ -f "$f" ] && cat "$f" >>"$T/dump"; done
else
	PGUSER=$E2E_ADMIN pg_dump -d "$E2E_PGDB" >"$T/dump" 2>/dev/null
fi
tap_ok "$(grep -a -q reminders "$T/dump"; echo $?)" "(the dump is made: it has the reminders table)"
# The people: each one's address, and their name, from the fixtures.
printf '%s|%s\n' "$REPORTER" "$PARTICIPANTS" | tr '|' '\n' >"$T/people"
while IFS= read -r who; do
	[ -n "$who" ] || continue
	addr=$(printf '%s' "$who" | sed 's/.*<\(.*\)>.*/\1/')
	name=$(printf '%s' "$who" | sed 's/ *<.*//')
	n=$(grep -a -c -i -F -- "$addr" "$T/dump")
	tap_is "$n" 0 "the dump does not hold $addr"
	n=$(grep -a -c -i -F -- "$name" "$T/dump")
	tap_is "$n" 0 "  nor the name $name"
done <"$T/people"
# (a control: the dump does hold what the README says stays clear)
tap_ok "$(grep -a -q -F "$E2E_OFFICER" "$T/dump"; echo $?)" \
	"(control: the dump names the officers, as the README says)"
tap_done
