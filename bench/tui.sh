#!/bin/sh
# bench/tui.sh [BUILD_DIR | BINARY]: the UI with 100,000 reports and 1,000,000
# events, side by side with neomutt on an mbox of the same 100,000
# messages, in the same tmux harness (120x40).  For each figure: ours,
# the peer's, and the ratio (median of $BENCH_RUNS runs, default 5).
#
#   first screen   exec to the first complete screen.  Ours from the UI's
#                  own trace (SECTEAM_TUI_TRACE: it writes the time of its
#                  first full refresh and of each key handled); both also
#                  "seen": the time a tmux capture-pane poll first shows
#                  the full screen (polling adds a few ms to both).
#   page down      ours: key read to refresh done (trace); both "seen":
#                  send-keys to the screen changing, by polling.
#   peak RSS       VmHWM of the process, after the page downs.
# Targets (ours): first screen <= 100 ms, page down <= 10 ms, RSS <= 50 MB.
# The fixtures are cached in $BENCH_CACHE (default $TMPDIR/secteam-bench).
# Timing on a loaded machine is noisy: the CPU time column is honest.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-build}
if [ -f "$B" ] && [ -x "$B" ]; then
	bin=$B   # bench/run.sh passes the binary itself
else
	case $B in /*) bin=$B/secteam-tui ;; *) bin=$top/$B/secteam-tui ;; esac
fi
runs=${BENCH_RUNS:-5}
cache=${BENCH_CACHE:-${TMPDIR:-/tmp}/secteam-bench}
W=$(mktemp -d "${TMPDIR:-/tmp}/secteam-benchrun.XXXXXX")
sock=bench$$
. "$top/bench/lib.sh"
trap 'tmx_gone; rm -rf "$W"' EXIT
trap 'exit 1' INT TERM

[ -x "$bin" ] || { echo "bench/tui.sh: no $bin (make first)" >&2; exit 2; }
mkdir -p "$cache"
if [ ! -s "$cache/bench.db" ]; then
	echo "making $cache/bench.db (100,000 reports, 1,000,000 events)..."
	sh "$top/bench/mkbench.sh" "$bin" "$cache/bench.db" 100000 1000000 || exit 1
fi
if [ ! -s "$cache/bench.mbox" ]; then
	/usr/bin/python3 "$top/bench/mkbench-mbox.py" "$cache/bench.mbox" 100000 || exit 1
fi
if ! command -v neomutt >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ]; then apt-get install -y neomutt >/dev/null 2>&1; fi
fi
have_peer=1
command -v neomutt >/dev/null 2>&1 || { have_peer=0; echo "neomutt not installed: peer figures skipped"; }

now_ns() { date +%s%N; }
median() { sort -n | awk '{v[NR]=$1} END {if (NR) printf "%.1f", (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2); else printf "nan"}'; }
# poll_until CMD TIMEOUT_S: runs CMD until it succeeds; prints the time.
poll_until() {
	_end=$(( $(date +%s) + $2 ))
	while ! eval "$1"; do
		[ "$(date +%s)" -gt "$_end" ] && { echo 0; return 1; }
	done
	now_ns
}
cap() { tmx capture-pane -p -t b; }
rss_mb() { awk '/VmHWM/ {printf "%.1f", $2/1024}' "/proc/$1/status" 2>/dev/null; }

# start NAME COMMAND: a session whose command records its exec time.
start() {
	rm -f "$W/t0"
	tmx -f /dev/null new-session -d -s b -x 120 -y 40 \
		"sh -c 'date +%s%N >$W/t0; exec $1'"
}

# Ten PgDn presses; for each, the ms until the screen's third row
# changed, appended to $1.
pgdn_seen() {
	for k in 1 2 3 4 5 6 7 8 9 10; do
		before=$(cap | sed -n 3p)
		ts=$(now_ns)
		tmx send-keys -t b PgDn
		te=$(poll_until '[ "$(cap | sed -n 3p)" != "$before" ]' 5)
		echo "$te $ts" | awk '{printf "%.2f\n", ($1 - $2) / 1e6}' >>"$1"
	done
}

ours_run() {
	rm -f "$W/trace"
	start "env LANG=C.UTF-8 TERM=screen-256color SECTEAM_TUI_TRACE=$W/trace '$bin' --db '$cache/bench.db' --config /dev/null"
	seen=$(poll_until 'cap | sed -n 38p | grep -q "bench report"' 20)
	# wait until every key is loaded (the trace says so), then page down
	poll_until 'grep -q keys-sorted "$W/trace" 2>/dev/null' 20 >/dev/null
	t0=$(cat "$W/t0")
	awk -v t0="$t0" '$1 == "first-screen" {printf "%.2f\n", ($2 - t0) / 1e6}' "$W/trace" >>"$W/o.first"
	awk -v t0="$t0" '$1 == "keys-sorted" {printf "%.2f\n", ($2 - t0) / 1e6}' "$W/trace" >>"$W/o.full"
	echo "$seen $t0" | awk '{printf "%.2f\n", ($1 - $2) / 1e6}' >>"$W/o.seen"
	pgdn_seen "$W/o.pgseen"
	awk '$1 == "PgDn" {printf "%.3f\n", ($3 - $2) / 1e6}' "$W/trace" >>"$W/o.pgdn"
	pid=$(tmx display -p -t b '#{pane_pid}')
	rss_mb "$pid" >>"$W/o.rss"; echo >>"$W/o.rss"
	awk '{print $14 + $15}' "/proc/$pid/stat" >>"$W/o.cpu" 2>/dev/null
	tmx kill-server 2>/dev/null
}

peer_run() {
	mkdir -p "$W/home/Mail"
	start "env HOME=$W/home LANG=C.UTF-8 TERM=screen-256color neomutt -n -F /dev/null -f '$cache/bench.mbox'"
	seen=$(poll_until 'cap | grep -q "Msgs:" && cap | sed -n 38p | grep -q "bench report"' 120)
	t0=$(cat "$W/t0")
	echo "$seen $t0" | awk '{printf "%.2f\n", ($1 - $2) / 1e6}' >>"$W/p.seen"
	pgdn_seen "$W/p.pgseen"
	pid=$(tmx display -p -t b '#{pane_pid}')
	rss_mb "$pid" >>"$W/p.rss"; echo >>"$W/p.rss"
	tmx kill-server 2>/dev/null
}

echo "runs: $runs; reports: 100000; events: 1000000; load: $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ $i -lt "$runs" ]; do
	ours_run
	[ $have_peer = 1 ] && peer_run
	i=$((i + 1))
done

o_first=$(median <"$W/o.first"); o_seen=$(median <"$W/o.seen")
o_full=$(median <"$W/o.full"); o_pg=$(median <"$W/o.pgdn")
o_pgseen=$(median <"$W/o.pgseen"); o_rss=$(grep . "$W/o.rss" | median)
if [ $have_peer = 1 ]; then
	p_seen=$(median <"$W/p.seen"); p_pgseen=$(median <"$W/p.pgseen")
	p_rss=$(grep . "$W/p.rss" | median)
else
	p_seen=nan p_pgseen=nan p_rss=nan
fi
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 > 0 && a != "nan") printf "%.2f", a / b; else printf "-" }'; }
printf '\n%-34s %12s %12s %8s\n' "figure (median)" "secteam-tui" "neomutt" "ratio"
printf '%-34s %12s %12s %8s\n' "first screen, trace (ms)" "$o_first" "-" "-"
printf '%-34s %12s %12s %8s\n' "first screen, seen by tmux (ms)" "$o_seen" "$p_seen" "$(ratio "$o_seen" "$p_seen")"
printf '%-34s %12s %12s %8s\n' "all 100,000 keys loaded (ms)" "$o_full" "-" "-"
printf '%-34s %12s %12s %8s\n' "page down, trace (ms)" "$o_pg" "-" "-"
printf '%-34s %12s %12s %8s\n' "page down, seen by tmux (ms)" "$o_pgseen" "$p_pgseen" "$(ratio "$o_pgseen" "$p_pgseen")"
printf '%-34s %12s %12s %8s\n' "peak RSS (MB)" "$o_rss" "$p_rss" "$(ratio "$o_rss" "$p_rss")"
printf '%-34s %12s\n' "our CPU ticks per run (user+sys)" "$(median <"$W/o.cpu")"
printf '\ntargets: first screen <= 100 ms, page down <= 10 ms, RSS <= 50 MB\n'
