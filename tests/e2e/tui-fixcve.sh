#!/bin/sh
# The UI's report list shows the FIX/CVE cell (the fix's first tag or
# short SHA, the CVE ID and its state) on a screen 130 columns wide or
# more, and hides it on narrower ones or with config list.fix_cve = false.
# The data come from the shell's `fix` and `cve`.  TAP output.
. "$SECTEAM_TOP/tests/e2e/lib-tmux.sh"

tap_plan 5
fixture_setup
mail_pgp f1 "UAF in tcp" "a use-after-free in net/ipv4/tcp_input.c"
mail_pgp f2 "Race in af_packet" "a race"
import "$WORK/mail/f1.eml" "$WORK/mail/f2.eml" || { echo "Bail out! import failed"; exit 1; }
sectui fix 1 --commit 0123456789abcdef0123456789abcdef01234567 >/dev/null &&
	sectui cve 1 --assign CVE-2026-12345 >/dev/null || { echo "Bail out! fix/cve failed"; exit 1; }

tui_start 140 30
check "the header has the FIX/CVE column" wait_for "CLAIMED    FIX/CVE"
if wait_for "UAF in tcp" && line_of "UAF in tcp" | grep -qF "0123456789ab/CVE-2026-12345:reserved"; then
	ok "report 1: short SHA (no tree), CVE ID and state"
else not_ok "report 1: short SHA (no tree), CVE ID and state"; fi
if line_of "Race in af_packet" | grep -qF -- " -/- "; then ok "report 2: nothing recorded"
else not_ok "report 2: nothing recorded"; fi
tui_stop

tui_start 120 30
if wait_for "UAF in tcp" && ! screen | grep -qF "FIX/CVE"; then ok "hidden under 130 columns"
else not_ok "hidden under 130 columns"; fi
tui_stop

printf '[list]\n\tfix_cve = false\n' >"$WORK/config"
tui_start 140 30
if wait_for "UAF in tcp" && ! screen | grep -qF "CVE-2026-12345"; then ok "list.fix_cve = false hides it"
else not_ok "list.fix_cve = false hides it"; fi
tui_stop
tap_done
