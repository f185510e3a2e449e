#!/bin/sh
# Deadlines in the UI, driven through tmux.  Report 1 has no
# decided date and its 7-day default passed 3 days ago: the list shows
# DUE -3d! and sorts it first under "sort: deadline" (before a decided
# date and an undecided report whose default is still ahead, +4d?); its
# screen and its disclosure panel say OVERDUE in the same words as the
# md export; its timeline
# shows when the mail was received apart from when it was imported; the
# calendar marks it overdue ("!") and draws its bar on to today instead
# of leaving it blank, and draws a date on day 7 as within the default,
# as the policy counts.  Time is pinned with SECTEAM_TEST_NOW.  TAP output.
export SECTEAM_TEST_NOW=${SECTEAM_TEST_NOW:-2026-12-02T12:00:00Z}
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup tuideadlines
e2e_tmux_setup
export TZ=UTC
mail_at() { # mail_at NAME SUBJECT DATE
	/usr/bin/python3 "$SECTEAM_TOP/tests/lib/mkpgp.py" --gnupghome "$S" \
		--kind encrypted-signed --from "Rita Reporter <rita@example.net>" \
		--sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" --subject "$2" \
		--body "A bug in net/ipv4/tcp_input.c" --message-id "$1@example.net" \
		--date "$3" >"$T/mail/$1.eml"
}

# Imported on 1 December; report 1 was mailed on 24 November.
SECTEAM_TEST_NOW=2026-12-01T10:00:00Z
mail_at m1 "undated overdue" "Tue, 24 Nov 2026 09:00:00 +0000"
mail_at m2 "decided date" "Tue, 01 Dec 2026 09:00:00 +0000"
mail_at m3 "undated fresh" "Tue, 01 Dec 2026 09:30:00 +0000"
e2e_import "$T/mail/m1.eml" "$T/mail/m2.eml" "$T/mail/m3.eml" ||
	{ echo "Bail out! import failed"; exit 1; }
sectui date set 2 2026-12-08 >/dev/null 2>&1 || { echo "Bail out! date set failed"; exit 1; }

# Three and a half days later.
SECTEAM_TEST_NOW=2026-12-04T12:00:00Z
sectui export 1 --format md -o "$T/r1.md" 2>/dev/null
embargo=$(sed -n 's/^- \*\*Embargo:\*\* //p' "$T/r1.md")

tui_start 160 30
wait_for "undated fresh"
wait_gone "(counting)"
# The rows under the header, in order: "ID ... DUE".
rows=$(screen | sed -n '3,5p')
first=$(printf '%s\n' "$rows" | sed -n 1p)
tui_check "sort: deadline is the start order" wait_for "sort: deadline"
tui_check "the undated report past its default is first, DUE -3d!" \
	sh -c 'printf "%s\n" "$1" | grep -Eq "^ +1 new .* -3d! .*undated overdue"' - "$first"
tui_check "then the decided date (+4d, no mark), then the undated one ahead (+4d?)" \
	sh -c 'printf "%s\n" "$1" | sed -n 2p | grep -Eq "^ +2 .* \+4d  .*decided date" &&
	       printf "%s\n" "$1" | sed -n 3p | grep -Eq "^ +3 .* \+4d\? .*undated fresh"' - "$rows"

# The report's screen says what the md export says.
keys Enter
tui_check "the report screen marks it OVERDUE" \
	wait_for "! OVERDUE overdue: the policy default 2026-12-01T23:59:59Z passed 3 days ago"
tui_check "the report screen and the md export give the same embargo state" \
	wait_for "$embargo"
case $embargo in overdue:*) tui_ok 0 "the md export says overdue ($embargo)" ;;
	*) tui_ok 1 "the md export says overdue (got: $embargo)" ;; esac

# The timeline: received (the mail's Date) apart from imported.
keys t
tui_check "the timeline shows when the mail was received" \
	wait_re "^2026-11-24 09:00 .* received +the report's mail, at its Date header's time"
tui_check "the timeline shows the import apart, at the import time" \
	wait_re "^2026-12-01 10:00 .* import +report from rita@example.net"
keys q
wait_for "! OVERDUE overdue"
keys d
tui_check "the disclosure panel says overdue in the same words" \
	wait_for "! OVERDUE  Embargo: $embargo"
keys q
wait_for "! OVERDUE overdue"
keys q
wait_for "sort: deadline"

# The calendar: marked overdue, its bar runs on to today.
keys c
wait_for "embargo calendar"
tui_check "the calendar marks the undated overdue report with !" \
	wait_re "^ +1 12-01! undated overd"
tui_check "the calendar draws its overdue days up to today" \
	wait_re "^ +1 12-01! .*!!!!"
full=$(printf '\342\226\210') mid=$(printf '\342\226\223')
line2=$(line_of "     2 12-08 ")
case $line2 in
*"$mid"*) tui_ok 1 "a date on day 7 is drawn within the default, as the policy counts" ;;
*"$full"*) tui_ok 0 "a date on day 7 is drawn within the default, as the policy counts" ;;
*) tui_ok 1 "a date on day 7 is drawn within the default (no bar: $line2)" ;;
esac
# An already public report is under no embargo: it leaves the calendar
# (it was drawn as an undecided embargo).
tui_check "the calendar shows the undated fresh report" wait_for "undated fresh"
sectui triage 3 --public >/dev/null
tui_check "marked public, it leaves the calendar" wait_gone "undated fresh"
tui_stop
tap_done
