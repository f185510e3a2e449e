#!/bin/sh
# bench/reportchain.sh [BINARY]: a new officer's first verification of
# the reports' chains, and the same again from the officer's cache of
# what was verified, beside one thread's first verification measured in
# the same run (bench/chainverify.c; `make bench` builds it).  The
# issue's figure: 1,000,000 events in <= 60 s on 2 cores.  No figure
# passes or fails.
#   BENCH_EVENTS (default 1000000), BENCH_REPORTS (default 100000)
cd "$(dirname "$0")/.." || exit 2
BIN=$(dirname "${1:-build/secteam-tui}")/bench/chainverify
[ -x "$BIN" ] || { echo "reportchain.sh: no $BIN (make $BIN)" >&2; exit 2; }
echo "reports' chains: ${BENCH_EVENTS:-1000000} events over ${BENCH_REPORTS:-100000} reports, $(nproc) processor(s)"
exec "$BIN" "${BENCH_EVENTS:-1000000}" "${BENCH_REPORTS:-100000}"
