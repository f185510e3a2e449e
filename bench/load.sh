#!/bin/sh
# bench/load.sh [BINARY]: a team of 8 officers under load on a team server
# of its own (tests/lib/pg.sh: a throwaway PostgreSQL on a Unix socket in
# a temporary folder, no TCP port, stopped and removed at the end).
#
# The officers are 8 login roles (team init, then team add-officer), each
# with a GnuPG home of their own holding the one test key (gpg-env.sh's
# officer key, as tests/e2e/concurrency.sh does): 8 homes, 8 agents.
#   officers 1-4  import; officers 1-3 also have the UI open (tmux)
#   officers 5-8  loop over commands on existing reports, each timed:
#                 triage --note, --claim/--unclaim, --severity, date
#                 propose, vendor status
# Two phases of the same command load: first without imports (LOAD_SECONDS),
# then with officers 1-4 importing overlapping copies of the same mail at
# once (LOAD_REPORTS encrypted, signed reports and LOAD_REPLIES replies;
# each officer ~3/4 of them, in its own order, each copy with its own
# Delivered-To and Received prepended); the phase ends when the imports
# end (at most LOAD_MAX_SECONDS, then they are stopped).
# Live update: officer 5's commands include, now and then, a severity
# change on report 1; the time from that command's start until each of
# the 3 open UIs shows it (tmux capture-pane polling) is one sample.
# Prints, per phase: throughput, p50/p95/max of command latency and of
# live-update latency, failures by class; then an integrity check.
# No timing assertion: exits non-zero only when the integrity check fails
# or a command failed other than by a documented refusal.
#
# Knobs (environment): LOAD_SEED=40 reports there before the phases,
# LOAD_REPORTS=200, LOAD_REPLIES=100, LOAD_SECONDS=30, LOAD_MAX_SECONDS=150,
# LOAD_UIS=3 (0: no live-update figures), LOAD_IMPORT_JOBS (import --jobs;
# empty: the program's default), LOAD_IMPORT_NICE=0 (nice level of the
# importing officers: on one small machine their decryption competes with
# the other officers' commands for the CPU, which a real team's separate
# machines would not), LOAD_IMPORT_IDLE=0 (1: the importing officers run
# at idle priority, chrt --idle, getting only the processor the others
# leave, as on machines of their own), LOAD_KEY_CACHE (each officer's
# team.key-cache; unset: the default, auto; 0: off; or seconds).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$top/build/secteam-tui}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
[ -x "$BIN" ] || { echo "load: no $BIN (make all)" >&2; exit 1; }
W=$(mktemp -d "${TMPDIR:-/tmp}/secteam-bench-load.XXXXXX") || exit 1
chmod 755 "$W"
LOAD_TMUX=benchload$$
. "$top/tests/lib/gpg-env.sh"
. "$top/tests/lib/pg.sh"
driver=
cleanup() {
	[ -n "$driver" ] && kill "$driver" 2>/dev/null
	tmux -L "$LOAD_TMUX" kill-server 2>/dev/null
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$LOAD_TMUX"
	pg_stop
	for h in "$W"/o*; do
		[ -d "$h" ] && gpgconf --homedir "$h" --kill all 2>/dev/null
	done
	gpg_env_teardown "$W/keys" >/dev/null 2>&1
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
gpg_env_setup "$W/keys" >/dev/null || exit 1
pg_start || exit 1
H=$W/keys/home
# Each officer's home: the officer key and its public keys, trust
# database and configs (not the agent's sockets).
k=1
while [ $k -le 8 ]; do
	mkdir -m 700 "$W/o$k"
	cp -R "$H/pubring.kbx" "$H/trustdb.gpg" "$H/private-keys-v1.d" \
		"$H/gpg.conf" "$H/gpg-agent.conf" "$W/o$k/" || exit 1
	k=$((k + 1))
done
createdb load || exit 1
"$BIN" --db dbname=load --gnupghome "$H" --config /dev/null team init \
	--officer off1 --key "$OFFICER_FPR" >/dev/null || exit 1
k=2
while [ $k -le 8 ]; do
	"$BIN" --db dbname=load --gnupghome "$H" --config /dev/null team \
		add-officer "off$k" --key "$OFFICER_FPR" >/dev/null || exit 1
	k=$((k + 1))
done
LOAD_BIN=$BIN LOAD_DIR=$W LOAD_TOP=$top
export LOAD_BIN LOAD_DIR LOAD_TOP LOAD_TMUX
# In the background, so that a signal ends the run (and its cleanup) now.
/usr/bin/python3 "$top/bench/load.py" &
driver=$!
wait "$driver"
rc=$?
driver=
exit $rc
