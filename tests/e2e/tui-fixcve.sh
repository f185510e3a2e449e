#!/bin/sh
# The UI's report list shows the FIX/CVE cell (the fix's first tag or
# short SHA, the CVE ID and its state) on a screen 130 columns wide or
# more, and hides it on narrower ones or with config list.fix_cve = false.
# The data come from the shell's `fix` and `cve`.  TAP output.
export SECTEAM_NOW=${SECTEAM_NOW:-2026-12-02T12:00:00Z}
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
tap_done
