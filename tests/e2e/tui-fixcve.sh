#!/bin/sh
# The UI's report list shows the FIX/CVE cell (each fix's first tag or
# short SHA, each CVE ID and its state) on a screen 130 columns wide or
# more, and hides it on narrower ones or with config list.fix_cve = false.
# The data come from the shell's `fix` and `cve`.  TAP output.
export SECTEAM_TEST_NOW=${SECTEAM_TEST_NOW:-2026-12-02T12:00:00Z}
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup tuifixcve
e2e_tmux_setup
mail_pgp f1 "UAF in tcp" "a use-after-free in net/ipv4/tcp_input.c"
mail_pgp f2 "Race in af_packet" "a race"
e2e_import "$T/mail/f1.eml" "$T/mail/f2.eml" || { echo "Bail out! import failed"; exit 1; }
sectui fix 1 --commit 0123456789abcdef0123456789abcdef01234567 >/dev/null &&
	sectui cve 1 --assign CVE-2026-12345 >/dev/null || { echo "Bail out! fix/cve failed"; exit 1; }

tui_start 140 30
tui_check "the header has the FIX/CVE column" wait_for "CLAIMED    FIX/CVE"
if wait_for "UAF in tcp" && line_of "UAF in tcp" | grep -qF "0123456789ab/CVE-2026-12345:reserved"; then
	tui_ok 0 "report 1: short SHA (no tree), CVE ID and state"
else tui_ok 1 "report 1: short SHA (no tree), CVE ID and state"; fi
if line_of "Race in af_packet" | grep -qF -- " -/- "; then tui_ok 0 "report 2: nothing recorded"
else tui_ok 1 "report 2: nothing recorded"; fi
# The column is as wide as its widest cell: SUBJECT starts one column
# after "0123456789ab/CVE-2026-12345:reserved" (36), in the header too.
col() { # FILE TEXT: the column (in characters) where TEXT first starts
	/usr/bin/python3 -c 'import sys
for l in open(sys.argv[1], encoding="utf-8"):
    if sys.argv[2] in l:
        print(l.index(sys.argv[2])); break' "$1" "$2"
}
screen >"$T/s1"
h=$(col "$T/s1" "SUBJECT"); f=$(col "$T/s1" "FIX/CVE"); r=$(col "$T/s1" "Race in af_packet")
tui_check "SUBJECT in the header is over the subjects ($h = $r)" test "$h" = "$r"
tui_check "the column is the widest cell plus one ($((h - f)) = 37)" test "$((h - f))" = 37
tui_stop

tui_start 120 30
if wait_for "UAF in tcp" && ! screen | grep -qF "FIX/CVE"; then tui_ok 0 "hidden under 130 columns"
else tui_ok 1 "hidden under 130 columns"; fi
tui_stop

printf '[list]\n\tfix_cve = false\n' >"$T/config"
tui_start 140 30
if wait_for "UAF in tcp" && ! screen | grep -qF "CVE-2026-12345"; then tui_ok 0 "list.fix_cve = false hides it"
else tui_ok 1 "list.fix_cve = false hides it"; fi
tui_stop
# A published CVE (37 columns with the short SHA) is not cut on a wide
# screen (the column stopped at 36, "CVE-2026-12345:publishe").
printf '[cve]\n\torg_id = 6c8b7f1e-2a3d-4c5b-9e8f-0a1b2c3d4e5f\n' >"$T/config"
for s in triaged accepted fixing fix-ready disclosed; do
	sectui triage 1 --state $s >/dev/null || { echo "Bail out! triage failed"; exit 1; }
done
sectui cve 1 --publish >/dev/null 2>"$T/export.err" ||
	{ echo "Bail out! cve --publish failed: $(cat "$T/export.err")"; exit 1; }
tui_start 200 30
if wait_for "UAF in tcp" && line_of "UAF in tcp" | grep -qF "0123456789ab/CVE-2026-12345:published "; then
	tui_ok 0 "200 columns: the published CVE's cell whole"
else tui_ok 1 "200 columns: the published CVE's cell whole"; fi
tui_stop

# Several fixes and CVE IDs: the cell names them all.
sectui fix 1 --commit 89abcdef0123456789abcdef0123456789abcdef --add >/dev/null &&
	sectui cve 1 --assign CVE-2026-12346 >/dev/null || { echo "Bail out! fix/cve --add failed"; exit 1; }
tui_start 200 30
if wait_for "UAF in tcp" && line_of "UAF in tcp" |
	grep -qF "0123456789ab,89abcdef0123/CVE-2026-12345:published,CVE-2026-12346:reserved "; then
	tui_ok 0 "two fixes and two CVE IDs: the cell names each"
else tui_ok 1 "two fixes and two CVE IDs: the cell names each"; fi
tui_stop

# The report view gives the CVSS score `cve --cvss` recorded, whole at
# 80 columns (wrapped, never cut).
sectui cve 1 --cvss CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H \
	--rationale "a local user overwrites kernel memory" >/dev/null || { echo "Bail out! cve --cvss failed"; exit 1; }
tui_start 80 24
wait_for "UAF in tcp" >/dev/null
keys 1 Enter
if wait_for "CVSS 3.1 base score 7.8 (HIGH)" && screen | grep -qF "CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H" &&
	screen | grep -qF "user overwrites kernel memory"; then
	tui_ok 0 "the report view shows the CVSS score, vector and rationale at 80 columns"
else tui_ok 1 "the report view shows the CVSS score, vector and rationale at 80 columns"; fi
tui_stop

# With nothing recorded the column is only as wide as its title.
: >"$T/config"
e2e_new_db nofix
e2e_import "$T/mail/f2.eml" || { echo "Bail out! import failed"; exit 1; }
tui_start 140 30
wait_for "Race in af_packet" >/dev/null
screen >"$T/s2"
h=$(col "$T/s2" "SUBJECT"); f=$(col "$T/s2" "FIX/CVE"); r=$(col "$T/s2" "Race in af_packet")
tui_check "no fix or CVE: the column is 'FIX/CVE' plus one ($((h - f)) = 8)" test "$((h - f))" = 8
tui_check "and SUBJECT is still over the subjects ($h = $r)" test "$h" = "$r"
tui_stop


tap_done
