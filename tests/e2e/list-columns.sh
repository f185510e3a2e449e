#!/bin/sh
# End to end: `list` and show's events are tables:
# a header row, columns as wide as their values, every row's SUBJECT
# (DETAIL) where the header's is; a long officer name is cut with a
# visible "…" and a long event kind (participant-add) widens its column
# instead of pushing the detail out of line.
# engines: sqlite pg
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup list-columns
SECTEAM_TEST_NOW=2026-12-02T12:00:00Z
export SECTEAM_TEST_NOW
mkmsg() { # id subject
	printf 'From: Rita Reporter <rita@example.net>\nTo: security@example.org\nSubject: %s\nDate: Mon, 30 Nov 2026 10:00:00 +0000\nMessage-ID: <%s>\n\nThe bug is in drivers/net/tun.c.\n' "$2" "$1"
}
# The display column (0-based) where regex $2 first matches in line $1
# ("none" when it does not).
col_of() {
	python3 -c 'import re, sys; m = re.search(sys.argv[2], sys.argv[1]); print(m.start() if m else "none")' "$1" "$2"
}

mkmsg c1@example.net "First report" >"$T/c1.eml"
mkmsg c2@example.net "Second report" >"$T/c2.eml"
st import "$T/c1.eml" "$T/c2.eml" >/dev/null 2>&1
st triage 1 --claim --state triaged >/dev/null
st maintainers 1 --add 'Dev Eloper <dev@example.org>' >/dev/null
LONG=an-officer-with-a-rather-long-login-name
# An officer with a long name: on PostgreSQL a trigger records the login
# role as the claimer, so the table's owner sets it with triggers off.
if e2e_sqlite; then
	db_sql "INSERT INTO events (report_id, at, officer, kind, detail)
		VALUES (2, 1, '$LONG', 'claim', 'claimed by $LONG')" >/dev/null
else
	db_sql "ALTER TABLE reports DISABLE TRIGGER USER; UPDATE reports SET claimed_by = '$LONG' WHERE id = 2; ALTER TABLE reports ENABLE TRIGGER USER" >/dev/null
fi

st list >"$T/list" 2>"$T/err"; rc=$?
tap_is "$rc $(cat "$T/err")" "0 " "list exits 0, nothing on stderr"
head=$(sed -n 1p "$T/list")
tap_like "$head" "^ID +STATE +SEVERITY +VERDICT +DUE +CLAIMED +FIX/CVE +SUBJECT$" "list starts with a header row"
tap_is "$(wc -l <"$T/list" | tr -d ' ')" 3 "list: the header and one row per report"
want=$(col_of "$head" SUBJECT)
tap_like "$want" "^[0-9]+$" "the header names SUBJECT"
[ "$want" = none ] && want="no SUBJECT in the header"
tap_is "$(col_of "$(sed -n 2p "$T/list")" 'First report')" "$want" "row 1's subject is under SUBJECT"
tap_is "$(col_of "$(sed -n 3p "$T/list")" 'Second report')" "$want" "row 2's subject (long officer) is under SUBJECT"
tap_unlike "$(cat "$T/list")" "$LONG" "the long officer name is not printed whole"
tap_like "$(sed -n 3p "$T/list")" "an-officer-with…  -/- +Second report" "it is cut with a visible …"
printf '[list]\n\tfix_cve = false\n' >"$T/nofix.conf"
tap_like "$(st --config "$T/nofix.conf" list | sed -n 1p)" "^ID +STATE +SEVERITY +VERDICT +DUE +CLAIMED +SUBJECT$" \
	"list.fix_cve = false: no FIX/CVE column"
st list --json >"$T/json"
tap_like "$(cat "$T/json")" "\"claimed_by\": *\"$LONG\"" "list --json keeps the whole name"

st show 1 | sed -n '/^--- events ---$/,$p' | sed 1d >"$T/events"
ehead=$(sed -n 1p "$T/events")
tap_like "$ehead" "^WHEN +OFFICER +KIND +DETAIL$" "show's events have a header row"
when=$(sed -n 2p "$T/events" | cut -c1-20)
tap_like "$when" "^2026-[0-9-]{5}T[0-9:]{8}Z$" "WHEN holds the event's time"
tap_is "$(col_of "$ehead" OFFICER)" 22 "OFFICER starts two columns after the 20 of the time"
line=$(grep 'participant-add' "$T/events")
tap_like "$line" "participant-add  Dev Eloper <dev@example.org>" "participant-add whole, the detail after two spaces"
tap_is "$(col_of "$line" 'Dev Eloper')" "$(col_of "$ehead" DETAIL)" "the detail of participant-add is under DETAIL"
tap_is "$(col_of "$(grep ' import ' "$T/events")" 'report from')" "$(col_of "$ehead" DETAIL)" \
	"every detail starts in the same column"
tap_done
