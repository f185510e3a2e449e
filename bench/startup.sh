#!/bin/sh
# bench/startup.sh [BUILD_DIR | BINARY]: what loading libraries on demand
# saves at a command's start.  The peer is the same objects linked to
# every library the build loads on demand (GMime, SQLite, ncurses,
# libical, libgit2, libpq: as a packaged build would link them), linked
# here from BUILD_DIR's main.o and libsecteam.a, so both run the same
# code.  Timed, interleaved, $BENCH_RUNS runs each (default 100): the
# median wall time and the mean CPU time of
#   --version        no library beyond the common ones
#   triage           a change on SQLite (maps SQLite)
#   show             a report read back (maps SQLite and GMime)
# and the UI's first screen on the same one-report database (exec to the
# UI's own trace of its first full refresh, in tmux, $BENCH_UI_RUNS runs,
# default 20), with ld.so's own count of its start-up time for
# `--version` (LD_DEBUG=statistics); then the same count for peers
# linked to one of those libraries each, to tell which ones a start
# pays for.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-$top/build}
case $B in */secteam-tui) B=$(dirname "$B") ;; esac
runs=${BENCH_RUNS:-100}
uiruns=${BENCH_UI_RUNS:-20}
W=$(mktemp -d "${TMPDIR:-/tmp}/secteam-startup.XXXXXX")
sock=startup$$
. "$top/tests/lib/gpg-env.sh"
. "$top/bench/lib.sh"
# The clean-up runs every step whatever the one before gave (set -e
# would stop it at the first: a tmux server already gone).
trap 'set +e; tmx_gone; gpg_env_teardown "$W/keys" >/dev/null 2>&1; rm -rf "$W"' EXIT

[ -f "$B/main.o" ] && [ -f "$B/libsecteam.a" ] ||
	{ echo "bench/startup.sh: no $B/main.o (make first)" >&2; exit 2; }
ours=$B/secteam-tui
peer=$W/secteam-tui-linked
# The program's own link line, plus every library it loads on demand.
libs=$(make -s -C "$top" -n B="$B" V=1 "$B/secteam-tui" 2>/dev/null |
	sed -n "s|.*-o $B/secteam-tui $B/main.o $B/libsecteam.a||p" | tail -1)
[ -n "$libs" ] || libs="-lgpgme -lassuan -ljansson -lkeyutils -lpcre2-8 -lsodium -lm"
# shellcheck disable=SC2086
cc -o "$peer" "$B/main.o" "$B/libsecteam.a" $libs -Wl,--no-as-needed \
	$(pkg-config --libs gmime-3.0 sqlite3 ncursesw libical libgit2 libpq) \
	-Wl,--as-needed
cp "$B/secteam-gpg" "$W/" 2>/dev/null || true

gpg_env_setup "$W/keys" >/dev/null
H=$W/keys/home
DB=$W/bench.db
printf 'From: Rita <rita@example.net>\nSubject: startup bench\nMessage-ID: <startup1@example.net>\nDate: %s\n\nA report touching net/core/dev.c.\n' \
	"$(date -R)" >"$W/1.eml"
"$ours" --db "$DB" --gnupghome "$H" --config /dev/null import "$W/1.eml" >/dev/null

echo "libraries mapped at start: on demand $(readelf -d "$ours" | grep -c NEEDED) linked," \
	"peer $(readelf -d "$peer" | grep -c NEEDED) linked"
/usr/bin/python3 "$top/bench/startup.py" "$runs" \
	"--version=--version" \
	"triage=triage 1 --severity low" \
	"show=show 1" \
	-- "$ours" "$peer" --db "$DB" --gnupghome "$H" --config /dev/null

# ld.so's start-up, in cycles (the median of 21 runs each).
ldstat() {
	for _i in $(seq 21); do
		LD_DEBUG=statistics "$1" --version 2>&1 >/dev/null |
			sed -n 's/.*total startup time in dynamic loader: *\([0-9]*\).*/\1/p'
	done | sort -n | sed -n 11p
}
o_ld=$(ldstat "$ours")
p=$(ldstat "$peer")
printf '%-28s %16s %16s %7s\n' "ld.so start-up (cycles)" "$o_ld" "$p" \
	"$(echo "$o_ld $p" | awk '{printf "%.2f", $1 / $2}')"

# The UI's first screen, exec to the trace's first-screen line.
ui() {
	rm -f "$W/trace" "$W/t0"
	tmx -f /dev/null new-session -d -s b -x 120 -y 40 \
		"sh -c 'date +%s%N >$W/t0; exec env LANG=C.UTF-8 TERM=screen-256color SECTEAM_TUI_TRACE=$W/trace $1 --db $DB --gnupghome $H --config /dev/null'"
	_i=0
	while ! grep -q first-screen "$W/trace" 2>/dev/null && [ $_i -lt 200 ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
	awk -v t0="$(cat "$W/t0")" '$1 == "first-screen" {printf "%.2f\n", ($2 - t0) / 1e6}' "$W/trace"
	tmx_stop
}
median() { sort -n | awk '{v[NR]=$1} END {if (NR) printf "%.2f", (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2); else printf "nan"}'; }
: >"$W/ui.ours"
: >"$W/ui.peer"
for _r in $(seq "$uiruns"); do
	ui "$ours" >>"$W/ui.ours"
	ui "$peer" >>"$W/ui.peer"
done
o=$(median <"$W/ui.ours")
p=$(median <"$W/ui.peer")
printf '%-28s %16s %16s %7s\n' "UI first screen (ms)" "$o" "$p" \
	"$(echo "$o $p" | awk '{printf "%.2f", $1 / $2}')"

# Each library alone: ld.so's start-up with it linked, over ours.
for pkg in gmime-3.0 sqlite3 ncursesw libical libgit2 libpq; do
	# shellcheck disable=SC2086
	cc -o "$W/one" "$B/main.o" "$B/libsecteam.a" $libs -Wl,--no-as-needed \
		$(pkg-config --libs "$pkg") -Wl,--as-needed
	p=$(ldstat "$W/one")
	printf '%-28s %16s %16s %7s\n' "ld.so, $pkg linked" "$o_ld" "$p" \
		"$(echo "$o_ld $p" | awk '{printf "%.2f", $1 / $2}')"
done
