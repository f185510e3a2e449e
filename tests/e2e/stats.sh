#!/bin/sh
# engines: sqlite pg
# End to end: `stats` on four reports whose history is made
# with commands at pinned times (SECTEAM_TEST_NOW), so every figure is
# known: reports per month and by state, by subsystem (the top folder
# of the touched files, once per report), the median and 90th percentile
# of days to triage, to fix and to disclose, decided embargoes longer
# than 7 and 14 days, and what is overdue now; as text and as JSON.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup stats
at() { SECTEAM_TEST_NOW=$1; export SECTEAM_TEST_NOW; }
# report N DATE BODY: a plain report sent at DATE (its received time),
# imported then.
report() {
	at "$2"
	mk --kind plain --from "Rita Reporter <rita@example.net>" --subject "report $1" \
		--body "$3" --message-id "s$1@example.net" \
		--date "$(date -u -d "$2" '+%a, %d %b %Y %H:%M:%S +0000')" >"$T/r$1.eml"
	out=$(st import "$T/r$1.eml" 2>&1) || echo "import $1: $out" >&2
}
run() { st "$@" >/dev/null 2>"$T/err" || { echo "failed: $* at $SECTEAM_TEST_NOW: $(cat "$T/err")" >&2; return 1; }; }

# 1: net, triaged after 2 days, fix-ready after 5, disclosed after 8;
# its date 7.5 days after receipt (longer than 7).
report 1 2026-11-02T12:00:00Z "a bug in net/ipv4/tcp_input.c and net/core/dev.c"
at 2026-11-04T12:00:00Z; run triage 1 --state triaged
at 2026-11-05T12:00:00Z; run triage 1 --state accepted
run date set 1 2026-11-10T00:00:00Z --reason "the fix needs a week"
at 2026-11-06T12:00:00Z; run triage 1 --state fixing
at 2026-11-07T12:00:00Z; run triage 1 --state fix-ready
at 2026-11-10T12:00:00Z; run triage 1 --state disclosed
# 2: fs, triaged after half a day, a fix after 4 days; its date 20 days
# after receipt (longer than 14).
report 2 2026-11-20T12:00:00Z "a bug in fs/ext4/inode.c"
at 2026-11-21T00:00:00Z; run triage 2 --state triaged
run date set 2 2026-12-10T12:00:00Z --override --reason "the distros need time"
at 2026-11-24T12:00:00Z; run fix 2 --commit 1a2b3c4d5e6f
# 3: drivers and net, triaged after 6 hours, no date yet (not overdue).
report 3 2026-12-01T12:00:00Z "see drivers/net/loopback.c and net/ipv4/route.c"
at 2026-12-01T18:00:00Z; run triage 3 --state triaged
# 4: mm, never triaged, its policy default long passed: overdue.
report 4 2026-10-15T12:00:00Z "mm/slub.c"

at 2026-12-02T12:00:00Z
e2e_run 0 "stats --json" stats --json
j=$(cat "$T/out")
tap_is "$(echo "$j" | jq -c '[.reports, .now]')" '[4,"2026-12-02T12:00:00Z"]' "four reports, at the pinned time"
tap_is "$(echo "$j" | jq -c '[.months[] | [.name, .reports]]')" '[["2026-10",1],["2026-11",2],["2026-12",1]]' \
	"reports per month received"
tap_is "$(echo "$j" | jq -c '[.states[] | select(.reports > 0) | [.name, .reports]]')" \
	'[["new",1],["triaged",2],["disclosed",1]]' "reports by state"
tap_is "$(echo "$j" | jq -c '.states | length')" 9 "every state is listed"
tap_is "$(echo "$j" | jq -c '[.subsystems[] | [.name, .reports]]')" \
	'[["net",2],["drivers",1],["fs",1],["mm",1]]' "by subsystem: net counts once per report"
tap_is "$(echo "$j" | jq -c '.days.triage')" '{"reports":3,"median":0.5,"p90":2}' \
	"days to triage: 2, 0.5, 0.25"
tap_is "$(echo "$j" | jq -c '.days.fix')" '{"reports":2,"median":4.5,"p90":5}' \
	"days to fix: fix-ready after 5, a fix event after 4"
tap_is "$(echo "$j" | jq -c '.days.disclose')" '{"reports":1,"median":8,"p90":8}' \
	"days to disclose: 8"
tap_is "$(echo "$j" | jq -c '.embargoes')" '{"decided":2,"over_7_days":2,"over_14_days":1}' \
	"embargoes: two decided, both past 7 days, one past 14"
tap_is "$(echo "$j" | jq -c '.overdue')" '[4]' "overdue now: report 4 (embargo.c's rule)"

e2e_run 0 "stats" stats
tap_like "$(cat "$T/out")" '^Reports +4 ' "text: the total"
tap_like "$(grep -A1 '^By subsystem' "$T/out" | tail -1)" '^  net +2$' "text: net first"
tap_like "$(cat "$T/out")" 'to triage +median 0\.5, 90th percentile 2\.0 \(3 reports\)' "text: days to triage"
tap_like "$(cat "$T/out")" 'Embargoes +2 decided, 2 longer than 7 days, 1 longer than 14' "text: embargoes"
tap_like "$(cat "$T/out")" 'Overdue now +1: #4$' "text: overdue"

# A week on, report 3's default has passed too.
at 2026-12-10T00:00:00Z
tap_is "$(st stats --json | jq -c '.overdue')" '[3,4]' "a week later, report 3 is overdue too"
tap_done
