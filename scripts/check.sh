#!/bin/sh
# make check: everything that proves the project works, in one run.
#   build (as shipped, and with ASan/UBSan), layering rules, house rules,
#   unit + end-to-end tests on both engines, the fuzz corpora, the kernel
#   series in QEMU.
# Each stage's tests are counted; the last line is
#   check: N passed, M failed
# and the exit status is non-zero when anything failed.
set -u
cd "$(dirname "$0")/.." || exit 2
passed=0
failed=0
skipped=0
log=$(mktemp -d "${TMPDIR:-/tmp}/secteam-check.XXXXXX")
trap 'rm -rf "$log"' EXIT

stage() { printf '\n=== %s ===\n' "$1"; }

# A stage that is one test.
single() { # name command...
	name=$1; shift
	stage "$name"
	if "$@"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "check: stage '$name' FAILED"
	fi
}

# A stage run under prove: count its tests from prove's summary.
proved() { # name command...
	name=$1; shift
	stage "$name"
	: >"$log/skips"
	SECTEAM_SKIP_LOG=$log/skips "$@" 2>&1 | tee "$log/out"
	tests=$(sed -n 's/^Files=[0-9]*, Tests=\([0-9]*\),.*/\1/p' "$log/out" | tail -n 1)
	# Each file in prove's summary report: its failed subtests, or one
	# failure when it died (a signal, an exit status, no plan).
	bad=$(awk '/^Test Summary Report/ {on = 1}
		on && /\(Wstat: / {
			f = $0; sub(/.*Failed: /, "", f); sub(/\).*/, "", f)
			n += (f > 0) ? f : 1
		} END {print n + 0}' "$log/out")
	dead=0
	tests=${tests:-0}
	if ! grep -q '^Result: PASS' "$log/out" && [ "$bad" -eq 0 ]; then
		dead=1
	fi
	skips=$(awk '{ n += $1 } END { print n + 0 }' "$log/skips")
	failed=$((failed + bad + dead))
	skipped=$((skipped + skips))
	passed=$((passed + tests - bad - skips))
}

# The builds use every core (SECTEAM_JOBS, else nproc): make's output is
# the same, only sooner.
SECTEAM_JOBS=${SECTEAM_JOBS:-$(nproc 2>/dev/null || echo 2)}
export SECTEAM_JOBS
single build make -s -j"$SECTEAM_JOBS" DEVELOPER=1 all units
single check-layers scripts/check-layers.sh
# The house rules: clang-format, the user's CFLAGS (make CFLAGS=-O0, V=1),
# -Werror only with DEVELOPER=1 (scripts/check-house.sh).
single house-rules scripts/check-house.sh
single asan-build make -s -j"$SECTEAM_JOBS" DEVELOPER=1 B=build-asan OPT="-O1 -g -fno-omit-frame-pointer" \
	SANFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all" all units
# Every test once per engine: the unit binaries under the sanitizers
# (ASan and UBSan) on both engines, the end-to-end tests' SQLite runs
# against the sanitized program, and their PostgreSQL runs against the
# program as shipped (-O2).  Under the sanitizers, but for six that
# run the shipped program instead: valgrind.sh (valgrind and ASan do
# not mix), the README's tour, the demo's set-up and its 2-second quit,
# every view's layout on the demo, our maintainers against
# get_maintainer.pl over a kernel tree, and four officers' 400 changes
# at once on one file (the code these reach is in the other tests and
# the units: concurrency.sh's triage with a note and a severity is
# cli.sh's, its date proposals deadlines.sh's, and the wait for another
# writer's lock is import-ahead.sh's and msgid-reuse.sh's, all under
# the sanitizers; what it adds is many processes at once, which the
# sanitizers slow five-fold and do not look at).
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:verify_asan_link_order=0:${ASAN_OPTIONS:-} \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
SECTEAM_SAN=build-asan \
SECTEAM_SAN_EXCLUDE="valgrind.sh maintainers-oracle.sh tour.sh demo-run.sh tui-cuts.sh concurrency.sh" \
	proved tests scripts/run-tests.sh build
if [ -x scripts/fuzz.sh ]; then
	single fuzz-replay scripts/fuzz.sh replay
fi
if [ -x kernel-docs/validate.sh ] && [ "${SECTEAM_SKIP_KERNEL:-}" != 1 ]; then
	single kernel-check kernel-docs/validate.sh build
	single kernel-mutations tests/kernel/mutations.sh build
fi

echo
echo "check: $passed passed, $skipped skipped, $failed failed"
[ "$failed" -eq 0 ]
