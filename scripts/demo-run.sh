#!/bin/sh
# make run: set up the demo team if needed, then open the UI on it.
# The UI's gpg calls start a gpg-agent in the demo's GnuPG home; the demo
# stops it again when the UI ends, however it ends (quit, a crash, ^C, a
# closed terminal), so `make run` leaves nothing running behind it.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
BIN=${DEMO_BIN:-$top/${B:-build}/secteam-tui}
D=$("$top/scripts/demo.sh" ${DEMO_RESET:+--reset} "$BIN")
# Without a terminal (a pipe, a script, a CI job) the UI cannot open: the
# demo is ready all the same, and this says how to open it.
if ! [ -t 0 ] || ! [ -t 1 ]; then
	cat >&2 <<EOS
make run: the demo team is ready, but the UI needs a terminal and this is
not one.  From a terminal, run 'make run' again, or:
  $BIN --db '$D/secteam.db' --gnupghome '$D/keys/home' --config '$D/config'
EOS
	exit 0
fi
# Whether an agent serves the demo's home: gpg-connect-agent exits 0
# even when none runs (it says "no gpg-agent running"), so its answer to
# GETINFO pid is read instead.
agent_up() {
	gpg-connect-agent --homedir "$D/keys/home" --no-autostart 'GETINFO pid' /bye \
		2>/dev/null | grep -q '^D '
}
# Stops the demo's agent, and again while one answers (for up to 10 s,
# until none has answered for half a second): a gpg the UI started (the team
# key's unwrapping, a body's decryption) may still be finishing when the
# terminal goes (SIGHUP) and start it again.  A closed terminal sends
# more than one signal (tmux: SIGHUP, then SIGTERM to the pane's group);
# each would run its trap's exit inside this one and cut the loop short,
# leaving the agent, so they are ignored while it runs.
stop_agent() {
	trap '' HUP INT TERM
	_quiet=0
	_i=0
	while [ "$_i" -lt 60 ]; do
		_i=$((_i + 1))
		if agent_up; then
			_quiet=0
			GNUPGHOME="$D/keys/home" gpgconf --kill gpg-agent 2>/dev/null || true
		else
			_quiet=$((_quiet + 1))
			[ "$_quiet" -ge 3 ] && break
		fi
		sleep 0.17
	done
}
trap stop_agent EXIT
# A signal ends the script through exit, which runs the EXIT trap; the
# status tells the caller which signal it was.
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
rc=0
"$BIN" --db "$D/secteam.db" --gnupghome "$D/keys/home" --config "$D/config" || rc=$?
exit $rc
