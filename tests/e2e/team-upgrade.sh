#!/bin/sh
# engines: pg
# A team database from before the team chain upgrades in place: its
# state is made here as such a database is (everything of migration 16,
# no team event yet, the team key's generation wrapped in team_keys,
# reports sealed under it), and the first officer's first write starts
# the chain with a signed checkpoint that says what it takes in on its
# author's word.  Nothing stored before is lost.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup teamupgrade
# The officer's cache of its own: what the client remembers of the chain.
SECTEAM_CACHE=$T/cache; export SECTEAM_CACHE
mkdir -m 700 "$SECTEAM_CACHE"
TC=$SECTEAM_TOP/tests/lib/teamchain.py
adm() { PGUSER=$E2E_ADMIN psql -X -q -At -v ON_ERROR_STOP=1 -d "$E2E_PGDB" -c "SET search_path = secteam" -c "$1" 2>&1; }
imp() { # N: report "secret N"
	printf 'From: Rita <rita@example.net>\nSubject: secret %s\nMessage-ID: <up%s@example.net>\n\nbody %s\n' \
		"$1" "$1" "$1" >"$T/$1.eml"
	st import "$T/$1.eml" >"$T/imp.out" 2>&1
}
kinds() { # the kind of each team event, in the server's order
	for b in $(db_sql "SELECT encode(body, 'hex') FROM team_events ORDER BY seq"); do
		printf '%d ' "0x$(printf '%s' "$b" | cut -c9-10)"
	done
}

# Reports as the team kept them, under generation 1.
imp 1 && imp 2 || { echo "Bail out! import failed"; cat "$T/imp.out"; exit 1; }
st triage 1 --note "before the chain" >/dev/null 2>&1 || { echo "Bail out! no note"; exit 1; }
# The state from before the chain: generation 1's copy for the officer
# in team_keys, where the team kept it, and no team event (nor any of
# the reports' chains, which came after the team's).
copy=$("$TC" copy-of "$OFFICER_FPR" $(db_sql "SELECT encode(body, 'hex') FROM team_events ORDER BY seq"))
[ -n "$copy" ] || { echo "Bail out! no copy of generation 1"; exit 1; }
out=$(adm "INSERT INTO team_keys (generation, fingerprint, wrapped, at)
		VALUES (1, '$OFFICER_FPR', decode('$copy', 'hex'), 1);
	ALTER TABLE team_events DISABLE TRIGGER ALL;
	DELETE FROM team_events;
	ALTER TABLE team_events ENABLE TRIGGER ALL;
	ALTER TABLE report_events DISABLE TRIGGER ALL;
	DELETE FROM report_events;
	ALTER TABLE report_events ENABLE TRIGGER ALL") ||
	{ echo "Bail out! cannot make the state from before the chain: $out"; exit 1; }
# (a client of then had seen no chain: none of it is in its cache)
rm -f "$T"/cache/team-root-* "$T"/cache/team-head-* "$T"/cache/report-*
nev=$(db_sql "SELECT count(*) FROM events")
tap_is "$(db_sql "SELECT count(*) FROM team_events")" 0 "(the database has no team chain yet)"
tap_like "$(st show 1 2>&1)" "secret 1" "before the upgrade, the officer reads report 1 with the key from team_keys"

# The first write: the chain starts with a signed checkpoint.
out=$(st triage 2 --note "after the upgrade" 2>&1)
tap_ok $? "the officer's first write after the upgrade" "$out"
tap_like "$(kinds)" "^6 " "  starts the team chain with a checkpoint"
out=$(st roster 2>&1)
tap_like "$out" "team chain: team event [0-9]+ \(checkpoint\), signed by $OFFICER_FPR, starts the chain: the $nev events recorded before it are taken in on its author's word" \
	"roster says what the checkpoint takes in, and on whose word"
tap_unlike "$out" "broken|not used" "  and nothing else about the chain"
tap_like "$(st show 1 2>&1)" "before the chain" "what was sealed before opens after it"
tap_like "$(st show 2 2>&1)" "after the upgrade" "  and what was sealed after"
imp 3
tap_ok $? "a report is imported after the upgrade" "$(cat "$T/imp.out")"
tap_is "$(db_sql "SELECT count(*) FROM reports")" 3 "  no report lost or added"
tap_done
