#!/bin/sh
# engines: sqlite pg
# End to end, deadlines must be seen: a report with no decided
# date has a deadline, the policy's default from its receipt, and once it
# passed the report is overdue in `list` (-3d!), in the md/txt/json
# exports and in `due`, with the same words as the UI (embargo.c); an
# overdue decided date is "overdue; still under embargo", not "over"; the
# timeline shows when the mail was received apart from when it was
# imported; `date set`/`date propose` refuse a date before the receipt,
# a date in the past unless --override (recorded), and name a bad date.
# Time is pinned with SECTEAM_TEST_NOW.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup deadlines
export TZ=UTC XDG_CONFIG_HOME="$T/cfg" XDG_DATA_HOME="$T/data"

mail() { # mail ID SUBJECT DATE
	mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" \
		--sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" --subject "$2" \
		--body "A use-after-free in net/sched/sch_api.c" \
		--message-id "<$1@example.net>" --date "$3" >"$T/$1.eml"
}
# run WANT DESCRIPTION ARGS...: st ARGS, output in $T/out and $T/err.
run() {
	_want=$1 _desc=$2; shift 2
	st "$@" >"$T/out" 2>"$T/err"; _rc=$?
	tap_is "$_rc" "$_want" "$_desc (exit status)"
}
has() { # has FILE TEXT DESCRIPTION: FILE holds TEXT (fixed string)
	grep -qF -- "$2" "$T/$1"
	tap_ok $? "$3" "$(cat "$T/$1")"
}
hasnt() {
	! grep -qF -- "$2" "$T/$1"
	tap_ok $? "$3" "$(cat "$T/$1")"
}
jqt() { # jqt DESCRIPTION FILTER: the filter is true on $T/out
	jq -e "$2" "$T/out" >/dev/null 2>&1
	tap_ok $? "$1" "$(head -c 600 "$T/out")"
}

# Report 1: mailed 24 November, imported 1 December (the mail sat in a
# queue): received 2026-11-24, its 7-day default ends 2026-12-01.
# Report 2: received and imported 1 December.  Report 3: mailed
# 20 November.
export SECTEAM_TEST_NOW=2026-12-01T10:00:00Z
mail r1 "UAF in net/sched" "Tue, 24 Nov 2026 09:00:00 +0000"
mail r2 "Overflow in fs/ext4" "Tue, 01 Dec 2026 09:00:00 +0000"
mail r3 "Leak in mm/slub" "Fri, 20 Nov 2026 09:00:00 +0000"
for r in r1 r2 r3; do
	run 0 "import $r" import "$T/$r.eml"
done

# --- date refusals ------------------------------------------------------------
run 1 "date set before the receipt is refused, even with a reason" \
	date set 1 2026-11-01 --reason past
has err "report 1: the date 2026-11-01T12:00:00Z is before the report was received (2026-11-24T09:00:00Z)" \
	"the refusal names both dates"
run 1 "date set before the receipt is refused with --override too" \
	date set 1 2026-11-01 --override --reason past
run 1 "date propose before the receipt is refused" \
	date propose 1 2026-11-20 --by reporter --reason "old date"
has err "the date 2026-11-20T12:00:00Z is before the report was received (2026-11-24T09:00:00Z)" \
	"the proposal's refusal names both dates"
run 1 "date set in the past is refused" date set 1 2026-11-28
has err "report 1: the date 2026-11-28T12:00:00Z is in the past (now 2026-12-01T10:00:00Z); --override records it anyway" \
	"the refusal names the date and now, and the way out"
run 1 "date propose in the past is refused" \
	date propose 1 2026-11-28 --by reporter --reason "as agreed"
run 2 "date set 1 -3d is a usage error" date set 1 -3d
tap_like "$(head -n 1 "$T/err")" \
	"^secteam-tui: invalid date '-3d' \(expected 2026-12-09, 2026-12-09T12:00Z, \+7d or now" \
	"date set -3d: the first line names the bad date, not the bare usage line"
run 2 "date propose 1 -3d is a usage error" date propose 1 -3d --by reporter --reason x
has err "invalid date '-3d'" "date propose -3d names the bad date"
run 2 "date set 1 2026-13-01 is a usage error" date set 1 2026-13-01
has err "invalid date '2026-13-01'" "a malformed date is named"
run 0 "show --json after the refusals" show 1 --json
jqt "nothing was stored by the refusals" \
	'.disclosure.date == null and (.disclosure.proposals | length) == 0 and (.disclosure.history | length) == 0'
run 0 "date set in the past with --override" \
	date set 3 2026-11-25 --override --reason "agreed with the reporter last week"
run 0 "show --json of report 3" show 3 --json
jqt "the override is recorded in the decision" \
	'.disclosure.date == "2026-11-25T12:00:00Z" and .disclosure.override == true'
jqt "the event says the date was in the past" \
	'[.events[] | select(.kind == "date-set") | .detail | test("overridden; in the past")] == [true]'
run 0 "date set for report 2, 5 days on" date set 2 2026-12-06

# --- three days later: the states --------------------------------------------
export SECTEAM_TEST_NOW=2026-12-04T12:00:00Z
run 0 "list" list
grep -E '^1 .* -3d! ' "$T/out" >/dev/null
tap_ok $? "list: report 1 (no date, default passed 3 days ago) is -3d!" "$(cat "$T/out")"
grep -E '^2 .* \+2d  ' "$T/out" >/dev/null
tap_ok $? "list: report 2 (decided, in 2 days) is +2d, no mark" "$(cat "$T/out")"
grep -E '^3 .* -9d! ' "$T/out" >/dev/null
tap_ok $? "list: report 3 (decided date passed) is -9d!" "$(cat "$T/out")"
mail r4 "Race in fs/proc" "Thu, 03 Dec 2026 09:00:00 +0000"
run 0 "import report 4" import "$T/r4.eml"
run 0 "list" list
grep -E '^4 .* \+6d\? ' "$T/out" >/dev/null
tap_ok $? "list: report 4 (no date, default in 6 days) is +6d?" "$(cat "$T/out")"

mail r5 "Bug in drivers/usb" "Fri, 04 Dec 2026 08:00:00 +0000"
run 0 "import report 5" import "$T/r5.eml"
run 0 "date set for report 5, 8 days on" date set 5 2026-12-12 --reason "vendor"
run 0 "list --sort deadline" list --sort deadline
tap_is "$(sed 1d "$T/out" | cut -d " " -f 1 | tr '\n' ' ')" "3 1 2 4 5 " \
	"list --sort deadline: overdue first, undated reports at their default (4 before 5)"
run 0 "export 1 --format md" export 1 --format md -o "$T/r1.md"
has err "warning: report 1 is still under embargo" "an overdue report is still under embargo (warning)"
cp "$T/r1.md" "$T/md"
has md "- **Embargo:** overdue: the policy default 2026-12-01T23:59:59Z passed 3 days ago (no date decided); still under embargo" \
	"md: an undated report past its default is overdue, still under embargo"
run 0 "show 1" show 1
has out "Embargo              overdue: the policy default 2026-12-01T23:59:59Z passed 3 days ago (no date decided); still under embargo" \
	"show: the same embargo state as the md export"
run 0 "show 1 --json" show 1 --json
jqt "show --json: the same state and deadline" \
	'.embargo_state == "overdue" and .deadline == "2026-12-01T23:59:59Z"'
run 0 "list --json" list --json
jqt "list --json: each report's state" \
	'[.[] | .embargo_state] == ["overdue", "embargoed", "overdue", "undecided", "embargoed"]'
run 0 "export 3 --format txt" export 3 --format txt -o "$T/r3.txt"
cp "$T/r3.txt" "$T/txt"
has txt "Embargo      overdue: the disclosure date 2026-11-25T12:00:00Z passed 9 days ago; still under embargo" \
	"txt: a decided date that passed is overdue, not 'over'"
! grep -qE "^  Embargo +over$" "$T/txt"
tap_ok $? "txt: no 'Embargo over' for an overdue report"
run 0 "export 1 3 4 --format json" export 1 3 4 --format json
jqt "json: embargo_state and deadline" \
	'[.[] | [.embargo_state, .embargoed, .deadline]] == [["overdue", true, "2026-12-01T23:59:59Z"], ["overdue", true, "2026-11-25T12:00:00Z"], ["undecided", true, "2026-12-10T23:59:59Z"]]'
run 0 "due" due --json; [ "$_rc" = 0 ] || sed "s/^/# /" "$T/err"
jqt "due: report 1 is undated-overdue at its default" \
	'[.items[] | select(.report == 1 and .kind == "undated-overdue" and .date == "2026-12-01T23:59:59Z")] | length == 1'
run 0 "triage 3 --public" triage 3 --state triaged --public
run 0 "export 3 --format md" export 3 --format md -o "$T/r3.md"
cp "$T/r3.md" "$T/md3"
has md3 "- **Embargo:** public: already public, the embargo is over" "md: a public report's embargo is over"
hasnt err "still under embargo" "no embargo warning for a public report"

# --- received and imported -------------------------------------------------------
has md "- 2026-11-24T09:00:00Z: **received**: the report's mail, at its Date header's time" \
	"md timeline: received at the mail's date"
has md "- 2026-12-01T10:00:00Z: **imported**: report from" \
	"md timeline: imported at the import time"
hasnt md "**reported**" "md timeline: no 'reported' at the import time"
has md "- **Received:** 2026-11-24T09:00:00Z" "md facts: Received is the mail's date"

tap_done
