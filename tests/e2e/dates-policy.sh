#!/bin/sh
# engines: sqlite pg
# dates-policy.sh: vendors, disclosure dates under the embargo policy and
# `due`, end to end with the real binary (TAP).  Data is made with real
# commands: keys from tests/lib/gpg-env.sh, a mail from mkpgp.py, then
# import, vendor, date, triage.  Time is pinned with SECTEAM_TEST_NOW.
set -u
top=${SECTEAM_TOP:?SECTEAM_TOP is not set}
bin=${SECTEAM_BIN:?SECTEAM_BIN is not set}
. "$top/tests/lib/e2e.sh"
e2e_setup dates
tmp=$T
export XDG_CONFIG_HOME="$tmp/cfg" XDG_DATA_HOME="$tmp/data" TZ=UTC
export SECTEAM_TEST_NOW=2026-12-01T10:00:00Z
printf '[officer]\n\tname = olga\n' >"$tmp/config"

st() { "$bin" --db "$DB" --gnupghome "$H" --config "$tmp/config" "$@"; }
has() { grep -qF -- "$2" "$tmp/$1"; e2e_ok $? "$3"; }
jqt() { # jqt DESCRIPTION FILTER: the filter is true on $tmp/out
	jq -e "$2" "$tmp/out" >/dev/null 2>&1; e2e_ok $? "$1"
}
mail() { # mail ID SUBJECT DATE
	/usr/bin/python3 "$top/tests/lib/mkpgp.py" --gnupghome "$S" \
		--kind encrypted-signed --from "Rita Reporter <rita@example.net>" \
		--sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" --subject "$2" \
		--body "A use-after-free in net/sched/sch_api.c" \
		--message-id "<$1@example.net>" --date "$3" >"$tmp/$1.eml"
}

mail r1 "UAF in net/sched" "Tue, 01 Dec 2026 10:00:00 +0000"
e2e_run 0 "import report 1" import "$tmp/r1.eml"
has out "1	valid	UAF in net/sched" "import prints the verdict"

# --- vendors --------------------------------------------------------------
e2e_run 0 "vendor add" vendor add Acme --contact sec@acme.example --kind distro
e2e_run 1 "vendor add refuses a duplicate name" vendor add acme --contact x@acme.example
has err "already in the directory" "duplicate message names the vendor"
e2e_run 2 "vendor add refuses an unknown kind" vendor add Bad --contact a@b.example --kind shop
e2e_run 2 "vendor add refuses a contact without @" vendor add Bad --contact nobody
e2e_run 0 "vendor edit" vendor edit Acme --contact security@acme.example --key "$VENDOR_FPR"
has out "contact sec@acme.example -> security@acme.example" "vendor edit says what changed"
e2e_run 0 "vendor list" vendor list
has out "security@acme.example" "vendor list shows the new contact"
e2e_run 0 "vendor list --json" vendor list --json
jqt "vendor list --json has kind and key" '.[0].kind == "distro" and (.[0].key | length) == 40'
e2e_run 0 "vendor notify" vendor notify 1 Acme
e2e_run 1 "vendor notify twice is refused" vendor notify 1 Acme
e2e_run 0 "vendor status acknowledged with an NDA request" vendor status 1 Acme acknowledged --nda-requested --note "asked for an NDA"
has out "cannot enter non-disclosure agreements" "the NDA request gets the policy's answer"
e2e_run 1 "vendor status cannot go back" vendor status 1 Acme notified
has err "cannot go from acknowledged to notified" "the refusal names both states"
e2e_run 2 "vendor status refuses an unknown status" vendor status 1 Acme happy
e2e_run 0 "vendor status affected with a statement" vendor status 1 Acme affected --statement "kernels 6.1 and later"
e2e_run 0 "show --json" show 1 --json
jqt "show --json vendors" '.vendors[0] | .name == "Acme" and .kind == "distro" and .status == "affected" and .notified_at == "2026-12-01T10:00:00Z" and .updated_at == "2026-12-01T10:00:00Z" and .nda_requested == true'
jqt "vendor changes are events" '[.events[].kind] | index("vendor-notify") and index("vendor-status") and index("nda-request")'

# --- dates and the policy ---------------------------------------------------
e2e_run 2 "date propose needs --reason" date propose 1 +10d --by reporter
e2e_run 2 "date propose needs a valid --by" date propose 1 +10d --by somebody --reason x
e2e_run 1 "date propose by an unknown vendor" date propose 1 +10d --by vendor:Nope --reason x
e2e_run 0 "date propose past the default is recorded, not refused" date propose 1 +10d --by vendor:Acme --reason "needs backports"
has out "needs-reason" "the proposal shows the policy verdict"
e2e_run 0 "date propose by a maintainer" date propose 1 2026-12-05T08:00Z --by maintainer:mia@example.org --reason "fix is ready"
e2e_run 2 "date set refuses a bad date" date set 1 2026-13-01
e2e_run 0 "date set day 7 is ok" date set 1 2026-12-08
has out "policy: ok" "day 7: verdict ok"
has out "2026-12-08T12:00:00Z" "a bare date is 12:00 UTC"
e2e_run 1 "date set day 8 without a reason is refused" date set 1 2026-12-09
has err "report 1: date 2026-12-09 is 8 days after the clock start (received 2026-12-01), past the default of 7; give --reason" "day 8: the error says why"
e2e_run 0 "date set day 8 with a reason" date set 1 2026-12-09 --reason "vendor backports"
e2e_run 0 "date set day 14 with a reason" date set 1 2026-12-15T20:00Z --reason "vendor backports"
e2e_run 1 "date set day 15 with a reason only is refused" date set 1 2026-12-16 --reason "more time"
has err "past the maximum of 14; use --override --reason" "day 15: the error says how"
e2e_run 1 "date set day 15 with --override only is refused" date set 1 2026-12-16 --override
e2e_run 0 "date set day 15 with --override --reason" date set 1 2026-12-16 --override --reason "hardware vendor"
e2e_run 0 "show --json after the decisions" show 1 --json
jqt "disclosure date is the latest decision" '.disclosure_date == "2026-12-16T12:00:00Z" and .disclosure.date == "2026-12-16T12:00:00Z"'
jqt "disclosure verdict and reason" '.disclosure.policy_verdict == "refused" and .disclosure.override == true and .disclosure.reason == "hardware vendor"'
jqt "disclosure history keeps every decision" '[.disclosure.history[].policy_verdict] == ["ok", "needs-reason", "needs-reason", "refused"]'
jqt "disclosure proposals" '(.disclosure.proposals | length) == 2 and .disclosure.proposals[0].by == "vendor:Acme" and .disclosure.proposals[0].reason == "needs backports" and .disclosure.proposals[0].at == "2026-12-01T10:00:00Z"'
jqt "disclosure policy limits" '.disclosure.policy | .default_days == 7 and .max_days == 14 and .default_limit == "2026-12-08T23:59:59Z" and .max_limit == "2026-12-15T23:59:59Z"'
# SQLite's triggers say "never edited", the team server's "append-only".
e2e_sqlite && frozen="are never edited" || frozen="are append-only"
db_sql "UPDATE decisions SET date = 0" 2>&1 | grep -q "decisions $frozen"
e2e_ok $? "decisions cannot be edited"
db_sql "UPDATE proposals SET reason = 'x'" 2>&1 | grep -q "proposals $frozen"
e2e_ok $? "proposals cannot be edited"
TZ=Europe/Berlin st date show 1 >"$tmp/out" 2>"$tmp/err"
has out "2026-12-16T12:00:00Z (2026-12-16 13:00 CET)" "date show gives UTC and local time"
has out "vendor:Acme" "date show lists the proposals"

# --- the release process moves the clock ------------------------------------
export SECTEAM_TEST_NOW=2026-12-03T09:00:00Z
e2e_run 0 "date start-release" date start-release 1
e2e_run 1 "date start-release twice is refused" date start-release 1
e2e_run 0 "date set day 7 from the release start" date set 1 2026-12-10
e2e_run 0 "show --json" show 1 --json
jqt "the clock runs from the release start" '.release_started == "2026-12-03T09:00:00Z" and .disclosure.policy.clock == "release-started" and .disclosure.policy.default_limit == "2026-12-10T23:59:59Z" and .disclosure.policy_verdict == "ok"'

# --- already public -----------------------------------------------------------
e2e_run 0 "triage --public" triage 1 --public
e2e_run 1 "a public report's later date is refused" date set 1 2026-12-05
has err "already public: the policy date is now (2026-12-03)" "the error says the policy date is now"
e2e_run 1 "a past date is refused, public or not" date set 1 2026-12-02
has err "report 1: the date 2026-12-02T12:00:00Z is in the past (now 2026-12-03T09:00:00Z); --override records it anyway" "the refusal says how"
e2e_run 0 "a public report's date can be earlier with --override" date set 1 2026-12-02 --override
e2e_run 0 "a date earlier today is recorded" date set 1 2026-12-03T08:00Z
has err "warning: report 1: the date 2026-12-03T08:00:00Z (2026-12-03 08:00 UTC) is in the past" "a time earlier today is a warning"
e2e_run 0 "a public report's date can be now" date set 1 now
e2e_run 0 "show --json" show 1 --json
jqt "public verdict" '.disclosure.policy_verdict == "public" and .disclosure.date == "2026-12-03T09:00:00Z"'

# --- due --------------------------------------------------------------------
mail r2 "Overflow in fs/ext4" "Wed, 02 Dec 2026 10:00:00 +0000"
e2e_run 0 "import report 2" import "$tmp/r2.eml"
e2e_run 0 "vendor add Beta" vendor add Beta --contact psirt@beta.example
e2e_run 0 "vendor notify Beta on report 2 (a Thursday)" vendor notify 2 Beta
e2e_run 0 "date set report 2" date set 2 2026-12-04
! grep -q "in the past" "$tmp/err"; e2e_ok $? "no warning for a future date"
e2e_run 0 "due --within 1h" due --within 1h
! grep -q "^#2" "$tmp/out"; e2e_ok $? "report 2 is not due within the hour"
has out "#1 due 2026-12-03T09:00:00Z" "the public report is due now"
e2e_run 0 "due --within 2d" due --within 2d --json
jqt "report 2 is due" '[.items[] | select(.report == 2 and .kind == "due")] | length == 1'
export SECTEAM_TEST_NOW=2026-12-09T10:00:00Z
e2e_run 0 "due after 4 working days" due --json
jqt "report 2 is overdue" '[.items[] | select(.report == 2 and .kind == "overdue")] | length == 1'
jqt "Beta is not yet silent after 4 working days" '[.items[] | select(.kind == "vendor-silent")] | length == 0'
export SECTEAM_TEST_NOW=2026-12-10T10:00:00Z
e2e_run 0 "due after 5 working days" due
has out "#2 vendor Beta notified 2026-12-03T09:00:00Z, silent for 5 working days" "Beta is silent after 5 working days"
has out "#2 overdue since 2026-12-04T12:00:00Z" "due lists the overdue report"
# (with its event: the team server refuses a participant no event records)
db_sql "INSERT INTO events (report_id, at, officer, kind, detail) VALUES (2, 1796205600, 'olga', 'participant-add', 'Mia Maintainer <mia@example.org> brought in'); INSERT INTO participants (report_id, name, email, role, added_by, added_at) VALUES (2, 'Mia Maintainer', 'mia@example.org', 'maintainer', 'olga', 1796205600)"
e2e_run 0 "due with a participant brought in" due --json
jqt "an unacknowledged participant is listed" '[.items[] | select(.kind == "participant-unacknowledged" and .who == "mia@example.org" and .report == 2)] | length == 1'
db_sql "INSERT INTO events (report_id, at, officer, kind, detail, ref) VALUES (2, 1796292000, 'olga', 'participant-ack', 'mia@example.org acknowledged', (SELECT id FROM participants WHERE report_id = 2))"
e2e_run 0 "due after the participant acknowledged" due --json
jqt "an acknowledging participant is no longer listed" '[.items[] | select(.kind == "participant-unacknowledged")] | length == 0'
e2e_run 0 "vendor status Beta acknowledged" vendor status 2 Beta acknowledged
e2e_run 0 "due" due
! grep -q "vendor Beta" "$tmp/out"; e2e_ok $? "an acknowledging vendor is no longer listed"

# Config ranges: a huge or negative policy value is refused, naming the
# key, the value and the range (a huge one used to overflow the date
# arithmetic, and limits wrapped).
for v in 99999999999999999999 9223372036854775807 366 -1 7d; do
	printf '[policy]\n\tdefault_days = %s\n' "$v" >"$tmp/cfg-range"
	"$bin" --db "$DB" --gnupghome "$H" --config "$tmp/cfg-range" \
		date show 2 >"$tmp/out" 2>"$tmp/err"; rc=$?
	[ "$rc" -eq 1 ]; e2e_ok $? "policy.default_days = $v: refused (exit $rc)"
	has err "secteam-tui: $tmp/cfg-range:2: policy.default_days '$v': not a number of days from 0 to 365" \
		"policy.default_days = $v: names key, value and range"
done
printf '[policy]\n\tmax_days = 9223372036854775807\n' >"$tmp/cfg-range"
"$bin" --db "$DB" --gnupghome "$H" --config "$tmp/cfg-range" \
	date set 2 +3d --reason x >"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" -eq 1 ]; e2e_ok $? "policy.max_days = LONG_MAX: date set refused (exit $rc)"
has err "policy.max_days '9223372036854775807': not a number of days from 0 to 365" \
	"policy.max_days = LONG_MAX: names key, value and range"
printf '[policy]\n\tdefault_days = 365\n\tmax_days = 365\n' >"$tmp/cfg-range"
"$bin" --db "$DB" --gnupghome "$H" --config "$tmp/cfg-range" \
	date show 2 --json >"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" -eq 0 ]; e2e_ok $? "365 days, the top of the range, is accepted (exit $rc)"
jqt "365 days: the limits are a year on" '.policy.default_days == 365 and .policy.max_days == 365'

tap_done
