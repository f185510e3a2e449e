#!/bin/sh
# `make run` leaves nothing running: scripts/demo.sh stops the agents its
# set-up started, and scripts/demo-run.sh stops the gpg-agent the UI
# started in the demo's GnuPG home when the UI ends, whether the officer
# quits (q) or the terminal goes away (tmux kill-server: SIGHUP).  The
# checks that an agent is up while the UI runs show the later checks can
# see one.  TAP output.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup demorun
e2e_tmux_setup
DEMO="$T/demo"
export SECTEAM_DEMO_DIR="$DEMO"
H="$DEMO/keys/home"
# agent_pid HOME: the pid of the gpg-agent serving HOME, empty when none
# (gpg-connect-agent exits 0 either way, so its answer is read instead).
agent_pid() {
	gpg-connect-agent --homedir "$1" --no-autostart 'getinfo pid' /bye 2>/dev/null |
		awk '$1 == "D" { print $2 }'
}
_demo_cleanup() { # the agents a failing check may have left
	for _h in "$DEMO/keys/home" "$DEMO/keys/senders"; do
		[ -d "$_h" ] && gpgconf --homedir "$_h" --kill all 2>/dev/null
	done
}
e2e_on_exit _demo_cleanup

"$SECTEAM_TOP/scripts/demo.sh" "$SECTEAM_BIN" >"$T/demo.out" 2>&1 ||
	{ echo "Bail out! scripts/demo.sh failed"; sed 's/^/# /' "$T/demo.out"; exit 1; }
tui_check "the demo's set-up leaves no agent in the officer's home" test -z "$(agent_pid "$H")"
tui_check "nor in the senders' home" test -z "$(agent_pid "$DEMO/keys/senders")"

# run_ui: scripts/demo-run.sh (what `make run` runs) in a tmux pane.
run_ui() {
	tmx -f /dev/null new-session -d -s t -x 120 -y 40 \
		"env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color EDITOR=true VISUAL= \
		 SECTEAM_DEMO_DIR='$DEMO' DEMO_BIN='$SECTEAM_BIN' \
		 sh '$SECTEAM_TOP/scripts/demo-run.sh'; echo EXITED:\$?; sleep 30"
}
# open_report: opening the first report decrypts it, which starts the agent.
open_report() {
	wait_for "Heap overflow in net/ipv4" 10 && keys Enter && wait_for "SIGNATURE" 10
}
# wait_no_agent: the agent is gone within a few seconds (15 at most: on
# a loaded machine gpgconf --kill takes its time).
wait_no_agent() {
	_t=300
	while [ $_t -gt 0 ]; do
		[ -z "$(agent_pid "$H")" ] && return 0
		sleep 0.05; _t=$((_t - 1))
	done
	return 1
}

run_ui
if open_report && [ -n "$(agent_pid "$H")" ]; then
	tui_ok 0 "while the UI runs, a gpg-agent serves the demo's home"
else tui_ok 1 "while the UI runs, a gpg-agent serves the demo's home"; fi
keys q
wait_for "Heap overflow in net/ipv4" 10
# The terminal is the officer's again soon after the last q: the
# script's wait for the agent to stay gone ends once none answers
# (gpg-connect-agent exits 0 even when none runs: its answer counts).
t0=$(date +%s%N)
keys q
wait_for "EXITED:0" 10; t1=$(date +%s%N)
tui_check "q, q: the UI quits and make run's script ends with 0" wait_for "EXITED:0" 1
ms=$(( (t1 - t0) / 1000000 ))
tap_ok "$([ "$ms" -lt 2000 ] && echo 0 || echo 1)" "the terminal is back within 2 s of the last q (${ms} ms)"
tui_check "after quitting no gpg-agent is left in the demo's home" wait_no_agent
tui_stop

# The terminal goes away under the UI: tmux sends SIGHUP.
run_ui
if open_report && [ -n "$(agent_pid "$H")" ]; then
	tui_ok 0 "the UI again, its agent up"
else tui_ok 1 "the UI again, its agent up"; fi
tui_stop
tui_check "after the terminal closed no gpg-agent is left either" wait_no_agent

# C-z under make: make waits in the foreground, so the UI
# stops its whole process group; the shell gets the terminal back and
# fg brings the UI back.  A Makefile whose run target is `make run`'s,
# in an interactive bash with job control.
printf 'run:\n\t@SECTEAM_DEMO_DIR=%s DEMO_BIN=%s sh %s/scripts/demo-run.sh\n' \
	"$DEMO" "$SECTEAM_BIN" "$SECTEAM_TOP" >"$T/Makefile"
tmx -f /dev/null new-session -d -s t -x 120 -y 40 \
	"env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color EDITOR=true VISUAL= \
	 PS1='PROMPT> ' bash --norc --noprofile -i"
wait_for "PROMPT>" 10
type_text "make -s -f '$T/Makefile' run"; keys Enter
tui_check "make run opens the UI" wait_for "Heap overflow in net/ipv4" 10
keys C-z
tui_check "C-z: the shell has the terminal again, make stopped" wait_re "Stopped +make -s -f" 10
type_text "jobs"; keys Enter
tui_check "the job is make, stopped (jobs)" wait_re "^\[1\]\+ +Stopped +make" 5
type_text "fg"; keys Enter
tui_check "fg: the UI is back" wait_for "secteam-tui: reports" 10
keys q
wait_gone "secteam-tui: reports" 10
type_text "echo MAKE-EXITED:\$?"; keys Enter
tui_check "q: the UI quits and make ends with 0" wait_for "MAKE-EXITED:0" 10
tui_check "and no gpg-agent is left" wait_no_agent
tui_kill

# Without a terminal (a pipe, a CI job) the demo is still set up, the UI
# does not start, and the script says how to open it from a terminal.
SECTEAM_DEMO_DIR=$DEMO DEMO_BIN=$SECTEAM_BIN sh "$SECTEAM_TOP/scripts/demo-run.sh" \
	</dev/null >"$T/notty.out" 2>"$T/notty.err"
rc=$?
[ $rc -eq 0 ] && [ ! -s "$T/notty.out" ]
tap_ok $? "make run without a terminal: exit 0, nothing on stdout (no escape sequences)" \
	"rc=$rc, stdout: $(head -c 100 "$T/notty.out" | od -c | head -2)"
tap_like "$(cat "$T/notty.err")" "the UI needs a terminal" "it says the UI needs a terminal"
tap_like "$(cat "$T/notty.err")" "--db '$DEMO/secteam.db'" "and gives the command that opens the demo"
tui_check "and leaves no gpg-agent" wait_no_agent
tap_done
