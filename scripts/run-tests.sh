#!/bin/sh
# Runs every test under prove (TAP): the cmocka unit binaries of build dir
# $1, then the bats and shell end-to-end tests against $1/secteam-tui.
# prove's closing "Result: PASS|FAIL" line is the summary CI reads.
set -u
B=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
export SECTEAM_BIN="$top/$B/secteam-tui"
export SECTEAM_TOP="$top"
export CMOCKA_MESSAGE_OUTPUT=TAP
tests=""
for t in "$top/$B"/tests/test-*; do [ -x "$t" ] && tests="$tests $t"; done
for t in "$top"/tests/e2e/*.bats "$top"/tests/e2e/*.sh; do
	case "$(basename "$t")" in lib-*) continue ;; esac  # sourced helpers
	[ -f "$t" ] && tests="$tests $t"
done
[ -n "${SECTEAM_TESTS_EXTRA:-}" ] && tests="$tests $SECTEAM_TESTS_EXTRA"
exec prove --timer -j"${TEST_JOBS:-2}" --exec "$top/scripts/tap-exec" $tests
