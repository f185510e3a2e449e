#!/bin/sh
# bench/team.sh [BINARY]: the team server against the embedded store, side
# by side in one run, on a throwaway PostgreSQL server (tests/lib/pg.sh:
# a Unix socket in a temporary folder, stopped at the end).
#
#   import        200 encrypted, signed reports imported into PostgreSQL
#                 over the Unix socket, and the same 200 into SQLite
#                 (median of RUNS, default 3).  Target: PG/SQLite <= 1.3.
#   first screen  the UI on 100,000 reports and 1,000,000 events, exec to
#                 the first complete screen, from the UI's own trace, on
#                 PostgreSQL and on SQLite (median of BENCH_RUNS, default
#                 5).  Target: <= 100 ms on PostgreSQL.
#   live update   one officer's triage in one UI, seen in another UI (tmux
#                 capture-pane polling) on PostgreSQL (LISTEN/NOTIFY) and
#                 SQLite (data_version polling).  Target: <= 1 s.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$top/build/secteam-tui}
N=${N:-200}
RUNS=${RUNS:-3}
UIRUNS=${BENCH_RUNS:-5}
W=$(mktemp -d "${TMPDIR:-/tmp}/secteam-bench-team.XXXXXX")
sock=benchteam$$
. "$top/tests/lib/gpg-env.sh"
. "$top/tests/lib/pg.sh"
. "$top/bench/lib.sh"
trap 'tmx_gone; pg_stop; gpg_env_teardown "$W/keys" >/dev/null 2>&1; rm -rf "$W"' EXIT
trap 'exit 1' INT TERM
gpg_env_setup "$W/keys" >/dev/null || exit 1
pg_start || exit 1
H=$W/keys/home
now() { date +%s.%N; }
now_ns() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "nan"}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 > 0 && a != "nan") printf "%.2f", a / b; else printf "-" }'; }
poll_until() { # CMD TIMEOUT_S: prints the time CMD first succeeds
	_end=$(( $(date +%s) + $2 ))
	while ! eval "$1"; do
		[ "$(date +%s)" -gt "$_end" ] && { echo 0; return 1; }
	done
	now_ns
}
newdb() { # NAME: a fresh team database, the officer as its administrator
	dropdb --if-exists "$1" >/dev/null 2>&1
	createdb "$1" && "$BIN" --db "dbname=$1" --gnupghome "$H" team init \
		--key "$OFFICER_FPR" >/dev/null
}
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"

# --- import ------------------------------------------------------------
mkdir -p "$W/md/new" "$W/md/cur"
bench_reports "$W/md/new" "$N" "net/core/skbuff.c" || exit 1
: >"$W/pg"; : >"$W/lite"
r=0
while [ $r -lt "$RUNS" ]; do
	r=$((r + 1))
	newdb imp || exit 1
	t0=$(now)
	"$BIN" --db "dbname=imp" --gnupghome "$H" import "$W/md" >"$W/out.pg"
	echo "$(now) - $t0" | bc >>"$W/pg"
	rm -f "$W/db"*
	t0=$(now)
	"$BIN" --db "$W/db" --gnupghome "$H" import "$W/md" >"$W/out.lite"
	echo "$(now) - $t0" | bc >>"$W/lite"
done
[ "$(grep -c '	valid	' "$W/out.pg")" = "$N" ] || echo "warning: not every message imported into PostgreSQL as valid"
ip=$(median <"$W/pg"); il=$(median <"$W/lite")

# --- first screen --------------------------------------------------------
# The fixture: the same rows on both engines (see bench/mkbench.sh), put
# in directly; placeholders for bodies.
cache=${BENCH_CACHE:-${TMPDIR:-/tmp}/secteam-bench}
mkdir -p "$cache"
if [ ! -s "$cache/bench.db" ]; then
	echo "making $cache/bench.db (100,000 reports, 1,000,000 events)..."
	sh "$top/bench/mkbench.sh" "$BIN" "$cache/bench.db" 100000 1000000 || exit 1
fi
newdb big || exit 1
psql -X -q -d big -c "SET client_min_messages = warning" -c "TRUNCATE secteam.reports, secteam.messages, secteam.decisions, secteam.events CASCADE" >/dev/null
for t in reports messages decisions events; do
	cols=$(sqlite3 "$cache/bench.db" "SELECT group_concat(name, ',') FROM pragma_table_info('$t')")
	# bytea goes in as hex text
	sel=$(echo "$cols" | sed "s/\bblob\b/'\\\\x' || hex(blob)/")
	sqlite3 -csv "$cache/bench.db" "SELECT $sel FROM $t" |
		psql -X -q -d big -c "SET search_path = secteam" \
			-c "ALTER TABLE $t DISABLE TRIGGER USER" \
			-c "\\copy $t ($cols) FROM STDIN WITH (FORMAT csv)" \
			-c "ALTER TABLE $t ENABLE TRIGGER USER" || exit 1
done
for t in reports messages decisions events; do
	psql -X -q -d big -c "SELECT setval(pg_get_serial_sequence('secteam.$t', 'id'), (SELECT max(id) FROM secteam.$t))" >/dev/null
done
# A team server in use has been vacuumed by autovacuum; right after a
# bulk load the first reads would measure the server setting hint bits
# and autovacuum running beside them, not the UI.
psql -X -q -d big -c "SET search_path = secteam" -c "VACUUM ANALYZE" >/dev/null
ui_first() { # DB: ms from exec to the first full screen, by the trace
	rm -f "$W/trace" "$W/t0"
	tmx -f /dev/null new-session -d -s b -x 120 -y 40 \
		"sh -c 'date +%s%N >$W/t0; exec env LANG=C.UTF-8 TERM=screen-256color SECTEAM_TUI_TRACE=$W/trace \"$BIN\" --db \"$1\" --gnupghome \"$H\" --config /dev/null'"
	poll_until 'grep -q keys-sorted "$W/trace" 2>/dev/null' 30 >/dev/null
	awk -v t0="$(cat "$W/t0")" '$1 == "first-screen" {printf "%.2f\n", ($2 - t0) / 1e6}' "$W/trace"
	tmx_stop
}
: >"$W/fpg"; : >"$W/flite"
r=0
while [ $r -lt "$UIRUNS" ]; do
	r=$((r + 1))
	ui_first "dbname=big" >>"$W/fpg"
	ui_first "$cache/bench.db" >>"$W/flite"
done
fp=$(median <"$W/fpg"); fl=$(median <"$W/flite")

# --- live update ---------------------------------------------------------
live() { # DB: ms from a triage in one process to the other UI showing it
	tmx -f /dev/null new-session -d -s b -x 120 -y 40 \
		"env LANG=C.UTF-8 TERM=screen-256color \"$BIN\" --db \"$1\" --gnupghome \"$H\" --config /dev/null"
	poll_until 'tmx capture-pane -p -t b | grep -q "Report 1:"' 20 >/dev/null
	sleep 0.5
	sev=$(tmx capture-pane -p -t b | grep -c critical)
	t0=$(now_ns)
	"$BIN" --db "$1" --gnupghome "$H" triage 1 --severity critical --note live >/dev/null
	t1=$(poll_until '[ "$(tmx capture-pane -p -t b | grep -c critical)" -gt "$sev" ]' 10)
	tmx_stop
	echo "$t1 $t0" | awk '{ if ($1 > 0) printf "%.1f\n", ($1 - $2) / 1e6; else print "nan" }'
}
: >"$W/lpg"; : >"$W/llite"
r=0
while [ $r -lt "$RUNS" ]; do
	r=$((r + 1))
	"$BIN" --db "dbname=imp" --gnupghome "$H" triage 1 --severity none >/dev/null 2>&1
	live "dbname=imp" >>"$W/lpg"
	"$BIN" --db "$W/db" --gnupghome "$H" triage 1 --severity none >/dev/null 2>&1
	live "$W/db" >>"$W/llite"
done
lp=$(median <"$W/lpg"); ll=$(median <"$W/llite")

printf '\n%-44s %12s %12s %8s\n' "figure (median)" "PostgreSQL" "SQLite" "ratio"
printf '%-44s %12s %12s %8s\n' "import $N encrypted reports (s)" "$ip" "$il" "$(ratio "$ip" "$il")"
printf '%-44s %12s %12s %8s\n' "first screen, 100k reports, 1M events (ms)" "$fp" "$fl" "$(ratio "$fp" "$fl")"
printf '%-44s %12s %12s %8s\n' "live update seen in another UI (ms)" "$lp" "$ll" "$(ratio "$lp" "$ll")"
printf '\ntargets: import PG/SQLite <= 1.3; first screen <= 100 ms on PostgreSQL; live update <= 1000 ms\n'
