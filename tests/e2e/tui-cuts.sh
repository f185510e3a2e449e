#!/bin/sh
# Nothing the officer needs is cut, at 80x24, 120x40 and 200x50: every
# view of the demo (the list, reports with each kind of signature bar,
# their timeline, participants, vendors and disclosure panels, help,
# the calendar, the numbers, a long question) is opened at each size
# with the trace on, where draw_text writes each word it leaves out
# ("cut ROW: TEXT"); by design only a list row's subject and claimer and
# a calendar row's subject are cut (shown whole in the report).  Every
# screen is also read back: no line is wider than the window.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup tuicuts
e2e_tmux_setup
DEMO=$T/demo
SECTEAM_DEMO_DIR=$DEMO "$SECTEAM_TOP/scripts/demo.sh" "$SECTEAM_BIN" >"$T/demo.out" 2>&1 ||
	{ echo "Bail out! scripts/demo.sh failed"; sed 's/^/# /' "$T/demo.out"; exit 1; }
_cuts_agents() { gpgconf --homedir "$DEMO/keys/home" --kill all 2>/dev/null; }
e2e_on_exit _cuts_agents
DB=$DEMO/secteam.db
H=$DEMO/keys/home
cp "$DEMO/config" "$T/config"

# visit TITLE KEYS...: each key, then the view it opened drawn
visit() {
	_what=$1; shift
	for _k in "$@"; do keys "$_k"; sleep 0.3; done
	wait_re "." 2 >/dev/null
	_w=$(screen | LC_ALL=C.UTF-8 wc -L)
	[ "$_w" -le "$cols" ] || echo "$_what: a line $_w wide" >>"$T/wide"
}
for size in "80 24" "120 40" "200 50"; do
	set -- $size
	cols=$1
	: >"$T/trace"; : >"$T/wide"
	tui_start "$1" "$2" "SECTEAM_TUI_TRACE='$T/trace'"
	wait_for "secteam-tui: reports" 10 >/dev/null
	visit list j k
	visit calendar c; keys q
	visit stats '#'; keys q
	visit help '?'; keys q
	for r in 1 13 14 16 17; do
		keys "$(echo $r | cut -c1)"
		[ ${#r} -gt 1 ] && keys "$(echo $r | cut -c2)"
		visit "report $r" Enter
		wait_for "SIGNATURE" 5 >/dev/null
		visit "report $r help" '?'; keys q
		visit "report $r timeline" t; keys q
		visit "report $r participants" p; keys q
		visit "report $r vendors" v
		visit "report $r notify question" M; keys n; keys q
		visit "report $r disclosure" d; keys q
		keys q
		wait_for "secteam-tui: reports" 5 >/dev/null
	done
	tui_kill
	cuts=$(grep '^cut ' "$T/trace" | sort -u)
	tap_is "$cuts" "" "$1x$2: no word cut in any view"
	tap_is "$(cat "$T/wide")" "" "$1x$2: no line wider than the window"
	tap_like "$(cat "$T/trace")" "first-screen" "$1x$2: (the trace was written)"
done
tap_done
