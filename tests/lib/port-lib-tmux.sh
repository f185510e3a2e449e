#!/bin/sh
# port-lib-tmux.sh FILE...: rewrites tmux tests written for the old
# tests/e2e/lib-tmux.sh (gone: its helpers are in tests/lib/e2e.sh) in
# place, the way the tests of this tree were: the e2e.sh setup instead of
# lib-tmux's, $T/$H/$S instead of $WORK/$GHOME/$SENDERS, TAP through
# tap.sh (ok -> tui_ok 0, not_ok -> tui_ok 1, check -> tui_check, diag ->
# tap_diag, skip -> tap_skip), e2e_import for import.  The checks stay
# the same; tui_stop adds one per UI session (nothing written outside
# curses).  A test that sets its own EXIT trap or uses lib-tmux's
# internals (_cleanup, TMUX_SOCK) still needs a hand: the script names it.
# (demo-run.sh on main: its "tap_plan 7" has no fixture_setup after it,
# so write "e2e_setup demorun" and "e2e_tmux_setup" there, drop the
# _cleanup call from _demo_cleanup, and replace "trap _demo_cleanup EXIT"
# by "e2e_on_exit _demo_cleanup"; then it passes, 9 checks.)
# Read the diff before committing.
for f in "$@"; do
	name=$(basename "$f" .sh | tr -cd 'a-z0-9')
	perl -0pi -e '
s{\. "\$SECTEAM_TOP/tests/e2e/lib-tmux.sh"\n\ntap_plan \d+\nfixture_setup\n}{export SECTEAM_NOW=\${SECTEAM_NOW:-2026-12-02T12:00:00Z}\n. "\$SECTEAM_TOP/tests/lib/e2e.sh"\ne2e_setup '"$name"'\ne2e_tmux_setup\n};
s{\$WORK\b}{\$T}g; s{\$GHOME\b}{\$H}g; s{\$SENDERS\b}{\$S}g; s{\$PY\b}{/usr/bin/python3}g;
s{^import "}{e2e_import "}mg;
s{(?<![\w-])not_ok }{tui_ok 1 }g;
s{(?<![\w-])ok "}{tui_ok 0 "}g;
s{(?<![\w-])check "}{tui_check "}g;
s{(?<![\w-])diag }{tap_diag }g;
s{(?<![\w-])skip ("[^"]*")}{tap_skip $1 "skipped"}g;
' "$f"
	if grep -nE 'lib-tmux|tap_plan|fixture_setup|(^|[^A-Za-z_])_cleanup|TMUX_SOCK|trap ' "$f"; then
		echo "$f: needs a hand at the lines above" >&2
	fi
done
