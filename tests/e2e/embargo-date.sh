#!/bin/sh
# engines: sqlite pg
# The embargo is kept by the date, not only by the state:
#  - a report disclosed before its decided date needs --early --reason,
#    and that is an event; without them nothing changes;
#  - public records and the announcement carry when the report was
#    disclosed, never a decided date still ahead;
#  - a rejected or duplicate report gets no public record (cve, osv,
#    csaf, dyad) and no announcement, and its CVE ID is not published;
#  - dyad waits for disclosure like the other records;
#  - distros: no notice for a rejected report, nor once its date passed
#    (announce instead).
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup embargo-date
printf '[team]\n\taddress = security@example.org\n[cve]\n\torg_id = 6c8b7f1e-2a3d-4c5b-9e8f-0a1b2c3d4e5f\n' > "$T/config"
st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config" "$@"; }
export SECTEAM_TEST_NOW=2026-12-01T10:00:00Z
for i in 1 2 3; do
	mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
	   --to "$OFFICER_FPR" --subject "frobnicator overflow $i" --body "overflow in net/core/frob.c" \
	   --message-id "e$i@example.net" > "$T/r$i.eml"
	st import "$T/r$i.eml" >/dev/null
	st triage $i --state triaged >/dev/null
	st fix $i --commit 1a2b3c4d5e6f1a2b3c4d5e6f1a2b3c4d5e6f1a2$i >/dev/null
	st cve $i --assign CVE-2026-1000$i >/dev/null
	st date set $i 2026-12-11 --reason "a distro release" >/dev/null    # ten days ahead
done
nev() { st show "$1" --json | jq '.events | length'; }
records() { # ID WHAT: every public text refused, nothing written
	for f in cve osv csaf dyad; do
		out=$(st export "$1" --format $f -o "$T/x.$1.$f" 2>&1); rc=$?
		tap_is "$rc" 1 "$2: export --format $f exits 1"
		tap_like "$out" "$3" "$2: export --format $f says why"
		[ ! -e "$T/x.$1.$f" ]; tap_ok $? "$2: no $f file"
	done
	out=$(st announce "$1" --yes --outbox "$T/o.$1" 2>&1); rc=$?
	tap_is "$rc" 1 "$2: announce exits 1"
	tap_like "$out" "$3" "$2: announce says why"
	tap_is "$(st show "$1" --json | jq -r .cve.state)" reserved "$2: the CVE ID stays reserved"
}

# Under embargo: dyad waits too.
records 1 "under embargo" "report 1 is under embargo until 2026-12-11T12:00:00Z"

# Rejected and duplicate reports: no public record, whatever their date.
st triage 2 --state rejected >/dev/null
records 2 "rejected" "report 2 is rejected: a rejected report gets no"
st triage 3 --state duplicate --of 1 >/dev/null
records 3 "duplicate" "report 3 is a duplicate of report 1: it gets no .* of its own; export report 1's instead"
st triage 2 --state closed >/dev/null
records 2 "rejected, then closed" "report 2 was closed without being disclosed"
out=$(st distros 3 --yes --outbox "$T/d3" 2>&1); rc=$?
tap_is "$rc" 1 "distros for a duplicate exits 1"
tap_like "$out" "rule 'an open issue': the report is duplicate" "naming the rule"

# Disclosed ten days early: refused without --early --reason.
st triage 1 --state accepted >/dev/null
st triage 1 --state fix-ready >/dev/null
before=$(nev 1)
out=$(st triage 1 --state disclosed 2>&1); rc=$?
tap_is "$rc" 1 "disclosed before the decided date: exit 1"
tap_like "$out" "report 1: its decided disclosure date 2026-12-11T12:00:00Z is in 10 days; disclosing before it needs --early --reason TEXT" "says what it needs"
# One date ahead, one wording: the refusal, show, due and the UI count
# it alike (10 days and 2 hours is "in 10 days", as the list's +10d).
tap_like "$(st show 1)" "the disclosure date 2026-12-11T12:00:00Z, in 10 days; still under embargo" \
	"  show words the same date the same way"
tap_like "$(st list)" "^1 .* \+10d " "  as the list's DUE column counts it"
out=$(st triage 1 --state disclosed --early 2>&1); rc=$?
tap_is "$rc" 2 "--early without --reason: usage error"
out=$(st triage 1 --reason "x" --note y 2>&1); rc=$?
tap_is "$rc" 2 "--reason without --early --state disclosed: usage error"
tap_is "$(nev 1)" "$before" "nothing recorded by the refusals"
tap_is "$(st show 1 --json | jq -r .state)" fix-ready "still fix-ready"
out=$(st triage 1 --state disclosed --early --reason "exploited in the wild" 2>&1); rc=$?
tap_is "$rc" 0 "--early --reason: disclosed" "$out"
tap_is "$(st show 1 --json | jq -r '.events[] | select(.kind == "early-disclosure") | .detail')" \
	"disclosed before the decided date 2026-12-11T12:00:00Z (in 10 days): exploited in the wild" \
	"the early disclosure is an event, with its reason"

# The records and the announcement carry the real time, not the date.
st export 1 --format cve -o "$T/1.cve.json" 2>/dev/null
tap_is "$(jq -r .containers.cna.datePublic "$T/1.cve.json")" 2026-12-01T10:00:00Z "CVE datePublic: when it was disclosed"
st export 1 --format osv -o "$T/1.osv.json" 2>/dev/null
tap_is "$(jq -r .published "$T/1.osv.json")" 2026-12-01T10:00:00Z "OSV published: when it was disclosed"
st export 1 --format csaf -o "$T/1.csaf.json" 2>/dev/null
tap_is "$(jq -r .document.tracking.initial_release_date "$T/1.csaf.json")" 2026-12-01T10:00:00Z "CSAF initial release: when it was disclosed"
out=$(st export 1 --format dyad 2>&1); rc=$?
tap_is "$rc" 0 "dyad once disclosed" "$out"
out=$(st announce 1 --yes --outbox "$T/a1" 2>&1); rc=$?
tap_is "$rc" 0 "announce once disclosed" "$out"
tap_like "$(cat "$T"/a1/new/*)" "Disclosed: 2026-12-01" "the announcement says when it was disclosed"
tap_unlike "$(cat "$T"/a1/new/*)" "2026-12-11" "never the decided date ahead"

# distros once the date passed: announce instead.
mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
   --to "$OFFICER_FPR" --subject "late one" --body "overflow in net/core/frob.c" \
   --message-id "e4@example.net" > "$T/r4.eml"
st import "$T/r4.eml" >/dev/null
st triage 4 --state triaged >/dev/null; st triage 4 --state accepted >/dev/null
st triage 4 --state fix-ready >/dev/null
st date set 4 2026-12-03 >/dev/null
st vendor add linux-distros --contact linux-distros@vs.openwall.org --key "$VENDOR_FPR" --kind distro >/dev/null
export SECTEAM_TEST_NOW=2026-12-06T10:00:00Z
out=$(st distros 4 --yes --outbox "$T/d4" 2>&1); rc=$?
tap_is "$rc" 1 "distros for an overdue report exits 1"
tap_like "$out" "rule 'a date ahead': its public date 2026-12-03T12:00:00Z passed 2 days ago.*announce 4" "pointing to announce"
[ ! -e "$T/d4/new" ] || [ -z "$(ls "$T/d4/new")" ]; tap_ok $? "nothing sent"

# The UI's : line asks before an early disclosure; n keeps the state.
mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
   --to "$OFFICER_FPR" --subject "ui early" --body "overflow in net/core/frob.c" \
   --message-id "e5@example.net" > "$T/r5.eml"
st import "$T/r5.eml" >/dev/null
st triage 5 --state triaged >/dev/null; st triage 5 --state accepted >/dev/null
st triage 5 --state fix-ready >/dev/null
st date set 5 +5d >/dev/null
e2e_tmux_setup
printf '[team]\n\taddress = security@example.org\n[cve]\n\torg_id = 6c8b7f1e-2a3d-4c5b-9e8f-0a1b2c3d4e5f\n' > "$T/config"
tui_start 110 30
wait_re "ui early" 10
cmd() { tmx send-keys -t t ":"; tmx send-keys -t t -l "$1"; tmx send-keys -t t Enter; }
cmd "triage 5 --state disclosed --early --reason leaked"
wait_re "before its decided date\\? \\(cannot be undone\\)"
tui_ok $? "the : line asks before an early disclosure"
tmx send-keys -t t n
wait_re "nothing done: triage 5"
tui_ok $? "n: nothing done"
tap_is "$(st show 5 --json | jq -r .state)" fix-ready "the report stays fix-ready"
cmd "triage 5 --state disclosed --early --reason leaked"
wait_re "cannot be undone"
tmx send-keys -t t y
wait_re "report 5: .*fix-ready -> disclosed"
tui_ok $? "y: disclosed early"
tap_is "$(st show 5 --json | jq -r .state)" disclosed "the report is disclosed"
tui_stop
tap_done
