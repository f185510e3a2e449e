#!/bin/sh
# engines: sqlite pg
# Duplicates linked: `triage ID --state duplicate
# --of N` records which report a duplicate repeats, as an event only;
# show and show --json say it both ways (the duplicate names its
# original, the original lists its duplicates); the refusals name the
# ids (itself, no such report, a report that is itself a duplicate);
# moving a duplicate back to triaged ends the link, closing keeps it; a
# duplicate marked before links were recorded stays readable and gets
# its link with --of alone; a duplicate's exports point to its original
# (the public records are refused naming the one to export, the
# timelines and the JSON name it); the report view shows the link.
export SECTEAM_TEST_NOW=2026-12-02T12:00:00Z
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup duplicates
e2e_tmux_setup
printf '[cve]\n\torg_id = 6c8b7f1e-2a3d-4c5b-9e8f-0a1b2c3d4e5f\n' >"$T/config"
for i in 1 2 3 4 5; do
	mail_pgp "r$i" "frobnicator overflow $i" "overflow in net/core/frob.c, take $i"
done
e2e_import "$T/mail/r1.eml" "$T/mail/r2.eml" "$T/mail/r3.eml" "$T/mail/r4.eml" \
	"$T/mail/r5.eml" || { echo "Bail out! import failed"; exit 1; }
nev() { db_sql "SELECT count(*) FROM events"; }
field() { sectui show "$1" | sed -n "s/^$2  *//p"; }

# The refusals: nothing is recorded by any of them.
before=$(nev)
e2e_run 2 "--state duplicate without --of: a usage error" triage 2 --state duplicate
tap_like "$(cat "$T/err")" "report 2: --state duplicate needs --of N, the report it duplicates" \
	"it says what it needs"
e2e_run 1 "a duplicate of itself is refused" triage 2 --state duplicate --of 2
tap_like "$(cat "$T/err")" "report 2 cannot be a duplicate of itself" "naming the report"
e2e_run 1 "a duplicate of no report is refused" triage 2 --state duplicate --of 99
tap_like "$(cat "$T/err")" "report 2 cannot be a duplicate of report 99: there is no report 99" \
	"naming both ids"
e2e_run 2 "--of with another state: a usage error" triage 2 --state triaged --of 1
e2e_run 1 "--of alone on a report that is no duplicate is refused" triage 2 --of 1
tap_like "$(cat "$T/err")" "report 2 is new, not a duplicate: --state duplicate --of 1 marks it one" \
	"saying how to mark it"
tap_is "$(nev)" "$before" "the refusals recorded nothing"
tap_is "$(sectui show 2 --json | jq -r .state)" new "report 2 is still new"

# Linked both ways.
e2e_run 0 "triage 2 --state duplicate --of 1" triage 2 --state duplicate --of 1
tap_like "$(cat "$T/out")" "report 2: new -> duplicate; duplicate of report 1" "the summary says it"
e2e_run 0 "triage 3 --state duplicate --of 1" triage 3 --state duplicate --of 1
tap_is "$(field 2 'Duplicate of')" 1 "show 2: Duplicate of 1"
tap_is "$(field 1 'Duplicates')" "2, 3" "show 1: Duplicates 2, 3"
tap_is "$(sectui show 2 --json | jq -c '[.duplicate_of, .duplicates]')" '[1,[]]' \
	"show 2 --json: duplicate_of 1, no duplicates"
tap_is "$(sectui show 1 --json | jq -c '[.duplicate_of, .duplicates]')" '[null,[2,3]]' \
	"show 1 --json: duplicate_of null, duplicates [2, 3]"
tap_is "$(sectui show 2 --json | jq -r '.events[] | select(.kind == "duplicate-of") | .detail')" \
	"duplicate of report 1" "the link is an event"
case $(e2e_engine) in
sqlite) cols=$(db_sql "SELECT group_concat(name) FROM pragma_table_info('reports')") ;;
*) cols=$(db_sql "SELECT string_agg(column_name, ',') FROM information_schema.columns WHERE table_schema = 'secteam' AND table_name = 'reports'") ;;
esac
case $cols in *dup*|*orig*) tap_ok 1 "no column holds the link ($cols)" ;;
*) tap_ok 0 "no column holds the link" ;; esac
e2e_run 0 "the same link again changes nothing" triage 2 --of 1
tap_like "$(cat "$T/out")" "already a duplicate of report 1" "and says so"

# No cycles, no duplicate of a duplicate.
before=$(nev)
e2e_run 1 "the original cannot become its duplicate's duplicate" triage 1 --state duplicate --of 2
tap_like "$(cat "$T/err")" "report 1 cannot be a duplicate of report 2: report 2 is itself a duplicate of report 1" \
	"naming both ids"
e2e_run 1 "a duplicate of a duplicate is refused" triage 4 --state duplicate --of 3
tap_like "$(cat "$T/err")" "report 4 cannot be a duplicate of report 3: report 3 is itself a duplicate of report 1 \(--of 1 names the original\)" \
	"naming the original to link to instead"
tap_is "$(nev)" "$before" "nothing recorded"

# Back to triaged ends the link; closing keeps it.
e2e_run 0 "report 3 back to triaged" triage 3 --state triaged
tap_is "$(field 1 'Duplicates')" "2" "show 1: only 2 is left"
tap_is "$(sectui show 3 --json | jq -r '[.events[] | select(.kind == "duplicate-of") | .detail] | last')" \
	"no longer a duplicate of report 1" "the end of the link is an event"
tap_is "$(sectui show 3 --json | jq -c .duplicate_of)" null "report 3 duplicates nothing now"
e2e_run 0 "report 2 closed" triage 2 --state closed
tap_is "$(field 2 'Duplicate of')" 1 "a closed duplicate keeps its link"

# A duplicate from before the links: readable, and linked with --of.
# (as the program did then: the move and its event, without a link)
if e2e_sqlite; then
	db_sql "INSERT INTO events (report_id, at, officer, kind, detail) VALUES (4, 1796212800, 'old', 'state', 'new -> duplicate')"
	tap_like "$(field 4 'Duplicate of')" "not recorded \(triage 4 --of N records it\)" \
		"an old duplicate: show says the link is not recorded"
	tap_is "$(sectui show 4 --json | jq -c .duplicate_of)" null "and --json has null"
	out=$(sectui export 4 --format cve -o "$T/x4.json" 2>&1)
	tap_like "$out" "report 4 is a duplicate: it gets no .* of its own .*triage 4 --of N records it" \
		"its export says how to record the link"
	e2e_run 0 "triage 4 --of 1 links the old duplicate" triage 4 --of 1
else
	# On the team server a move planted with psql is no signed change
	# (report-changes.sh plays it): there is no old duplicate to link.
	e2e_run 0 "report 4 marked a duplicate of report 1" triage 4 --state duplicate --of 1
fi
tap_is "$(field 4 'Duplicate of')" 1 "show 4: Duplicate of 1"

# Exports point to the original.
for f in cve osv csaf dyad; do
	out=$(sectui export 4 --format $f -o "$T/x4.$f" 2>&1); rc=$?
	tap_is "$rc" 1 "export 4 --format $f exits 1"
	tap_like "$out" "report 4 is a duplicate of report 1: it gets no .* of its own; export report 1's instead" \
		"export --format $f names the original"
done
{ sectui export 4 --format md -o "$T/4.md" && sectui export 4 --format txt -o "$T/4.txt" &&
	sectui export 4 --format json -o "$T/4.json" && sectui export 1 --format md -o "$T/1.md"; } 2>/dev/null
tap_ok $? "the md, txt and json exports of a duplicate are written"
tap_like "$(cat "$T/4.md")" "Duplicate of:\*\* report 1: the record is report 1's" "md: the original named"
tap_like "$(cat "$T/4.txt")" "Duplicate of report 1: the record is report 1's" "txt: the original named"
tap_is "$(jq -c '.[0] | [.duplicate_of, .original]' "$T/4.json")" '[1,1]' "json: duplicate_of and original"
tap_like "$(cat "$T/1.md")" "Duplicates:\*\* reports 2, 4" "the original's md lists its duplicates"

# The original becomes a duplicate later: the record is at the end.
e2e_run 0 "report 1 a duplicate of report 5" triage 1 --state duplicate --of 5
out=$(sectui export 4 --format cve -o "$T/x4.cve" 2>&1)
tap_like "$out" "report 4 is a duplicate of report 1, itself a duplicate of report 5: .*export report 5's instead" \
	"a chain: the refusal names the report at its end"
sectui export 4 --format json -o "$T/4b.json"
tap_is "$(jq -c '.[0] | [.duplicate_of, .original]' "$T/4b.json")" '[1,5]' "json: original is the end of the links"
e2e_run 1 "the end of a chain cannot close it into a cycle" triage 5 --state duplicate --of 4
tap_like "$(cat "$T/err")" "report 4 is itself a duplicate of report 1" "naming the link"

# The report view: the State row shows the links.
tui_start 140 30
wait_for "secteam-tui: reports"
keys :; type_text "open 1"; keys Enter
wait_re "^ +report 1:"
tui_check "the report view of report 1: duplicate of #5, duplicates #2, #4" \
	sh -c "tmux -L '$E2E_TMUX' capture-pane -p -t t | grep -q 'duplicate of #5   duplicates: #2, #4'"
tui_stop

tap_done
