#!/bin/sh
# fuzz.sh: builds and runs the libFuzzer targets tests/fuzz/fuzz-*.c.
#
#   scripts/fuzz.sh replay          each target over its committed corpus
#                                   (tests/fuzz/corpus/<target>/) once;
#                                   one line per target, then a total;
#                                   exit 1 on any crash, leak or timeout
#   scripts/fuzz.sh run [SECONDS]   each target for SECONDS (default 60),
#                                   one at a time, with its dictionary
#                                   (tests/fuzz/<target>.dict); new inputs
#                                   go to a scratch copy of the corpus in
#                                   build-fuzz/run/<target>/, never into
#                                   the committed one; prints executions
#                                   and coverage (libFuzzer's cov:)
#   scripts/fuzz.sh build           only builds
# FUZZ_TARGETS="mail date" limits the run to those targets; FUZZ_OPTS adds
# libFuzzer options to `run` (e.g. -detect_leaks=0 to look past a known leak).
#
# Each target says in its top comment what it links:
#    * sources: util mail touched/touched.c (a folder means all its .c)
#    * pkgs: gmime-3.0                      (pkg-config names)
#    * options: -max_len=65536              (extra libFuzzer options)
# Objects are compiled with clang -fsanitize=fuzzer-no-link,address,undefined
# into build-fuzz/obj/ and rebuilt when a source or a header is newer.
set -u
cd "$(dirname "$0")/.." || exit 2
top=$(pwd)
OUT=$top/build-fuzz
CC=${FUZZ_CC:-clang}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
COMMON="-std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer -I$top"
mode=${1:-replay}
seconds=${2:-60}
[ -n "$seconds" ] || seconds=60

die() { echo "fuzz.sh: $*" >&2; exit 2; }

# On a fresh Debian machine, as root: clang and its libFuzzer runtime.
if ! command -v "$CC" >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "fuzz.sh: installing clang and libclang-rt-dev" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q clang libclang-rt-dev >/dev/null ||
		{ apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q clang libclang-rt-dev >/dev/null; }
fi
command -v "$CC" >/dev/null 2>&1 || die "$CC not found (apt-get install clang libclang-rt-dev)"
probe=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-probe.XXXXXX") || exit 2
trap 'rm -rf "$probe"' EXIT
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n);\nint LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$probe/p.c"
if ! "$CC" -fsanitize=fuzzer,address,undefined -o "$probe/p" "$probe/p.c" 2>/dev/null &&
	[ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "fuzz.sh: installing libclang-rt-dev (libFuzzer)" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q libclang-rt-dev >/dev/null 2>&1
fi
if ! "$CC" -fsanitize=fuzzer,address,undefined -o "$probe/p" "$probe/p.c" 2>"$probe/err"; then
	cat "$probe/err" >&2
	die "$CC cannot build libFuzzer targets (apt-get install clang libclang-rt-dev)"
fi

targets() {
	for f in tests/fuzz/fuzz-*.c; do
		[ -f "$f" ] || continue
		t=$(basename "$f" .c)
		if [ -n "${FUZZ_TARGETS:-}" ]; then
			case " $FUZZ_TARGETS " in
			*" ${t#fuzz-} "* | *" $t "*) ;;
			*) continue ;;
			esac
		fi
		echo "$t"
	done
}

# field FILE NAME: the value of a " * NAME: value" line of the top comment.
field() { sed -n "s/^ \* $2: *//p" "$1" | head -n 1; }

# The newest header: objects older than it are rebuilt.
newest_h=$(ls -t ./*/*.h 2>/dev/null | head -n 1)

# obj SRC: compiles SRC into build-fuzz/obj/SRC.o when out of date; prints it.
obj() {
	o=$OUT/obj/${1%.c}.o
	if [ ! -f "$o" ] || [ "$1" -nt "$o" ] || { [ -n "$newest_h" ] && [ "$newest_h" -nt "$o" ]; }; then
		mkdir -p "$(dirname "$o")"
		# shellcheck disable=SC2086
		"$CC" $COMMON $SAN -fsanitize=fuzzer-no-link -w $pkgflags -c -o "$o" "$1" || return 1
	fi
	echo "$o"
}

build_one() { # target
	src=tests/fuzz/$1.c
	pkgs=$(field "$src" pkgs)
	pkgflags=""
	pkglibs=""
	if [ -n "$pkgs" ]; then
		# shellcheck disable=SC2086
		pkgflags=$(pkg-config --cflags $pkgs) || return 1
		# shellcheck disable=SC2086
		pkglibs=$(pkg-config --libs $pkgs) || return 1
	fi
	objs=""
	for s in $(field "$src" sources); do
		if [ -d "$s" ]; then
			for c in "$s"/*.c; do
				o=$(obj "$c") || return 1
				objs="$objs $o"
			done
		else
			o=$(obj "$s") || return 1
			objs="$objs $o"
		fi
	done
	bin=$OUT/$1
	newer=0
	[ -f "$bin" ] || newer=1
	for o in $src $objs; do [ "$o" -nt "$bin" ] && newer=1; done
	[ "$newer" -eq 1 ] || return 0
	# shellcheck disable=SC2086
	"$CC" $COMMON $SAN -fsanitize=fuzzer -Wall -Wextra -Wpedantic -Werror \
		$pkgflags -o "$bin" "$src" $objs $pkglibs -lm
}

# prebuild: the objects every target needs, SECTEAM_JOBS (else 2)
# compilers at a time, each with the package flags of the first target
# that names it, as build_one would; build_one then finds them made and
# only links.  A failure here is left for build_one to meet and report.
prebuild() {
	tab=$(printf '\t')
	for t in $(targets); do
		src=tests/fuzz/$t.c
		pkgs=$(field "$src" pkgs)
		flags=""
		# shellcheck disable=SC2086
		[ -z "$pkgs" ] || flags=$(pkg-config --cflags $pkgs) || continue
		for s in $(field "$src" sources); do
			if [ -d "$s" ]; then
				for c in "$s"/*.c; do printf '%s\t%s\n' "$c" "$flags"; done
			else
				printf '%s\t%s\n' "$s" "$flags"
			fi
		done
	done | awk -F '\t' '!seen[$1]++' | {
		n=0
		while IFS=$tab read -r c pkgflags; do
			obj "$c" >/dev/null 2>&1 &
			n=$((n + 1))
			[ $((n % ${SECTEAM_JOBS:-2})) -ne 0 ] || wait
		done
		wait
	}
}

build_all() {
	mkdir -p "$OUT"
	prebuild
	bad=0
	for t in $(targets); do
		if ! build_one "$t"; then
			echo "fuzz.sh: cannot build $t" >&2
			bad=1
		fi
	done
	return $bad
}

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:allocator_may_return_null=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"

replay() {
	build_all || return 1
	n=0; failed=0; inputs=0
	for t in $(targets); do
		n=$((n + 1))
		c=tests/fuzz/corpus/$t
		if [ ! -d "$c" ] || [ -z "$(ls -A "$c")" ]; then
			echo "not ok $t: no corpus in $c"
			failed=$((failed + 1))
			continue
		fi
		k=$(ls -A "$c" | wc -l | tr -d ' ')
		inputs=$((inputs + k))
		log=$OUT/replay-$t.log
		# shellcheck disable=SC2046
		if "$OUT/$t" -runs=0 -timeout=25 -rss_limit_mb=2048 \
			$(field "tests/fuzz/$t.c" options) "$c" >"$log" 2>&1; then
			echo "ok     $t: $k inputs"
		else
			echo "FAILED $t: $k inputs, see $log"
			grep -E 'ERROR|SUMMARY|runtime error' "$log" | head -n 4 | sed 's/^/    /'
			# Name the inputs that fail, one run each.
			for f in "$c"/*; do
				# shellcheck disable=SC2046
				"$OUT/$t" -timeout=25 -rss_limit_mb=2048 \
					$(field "tests/fuzz/$t.c" options) "$f" >/dev/null 2>&1 ||
					echo "    failing input: $f"
			done | head -n 5
			failed=$((failed + 1))
		fi
	done
	echo "fuzz-replay: $n targets, $inputs inputs, $failed failed"
	[ "$failed" -eq 0 ]
}

run() {
	build_all || return 1
	n=0; failed=0
	for t in $(targets); do
		n=$((n + 1))
		d=$OUT/run/$t
		mkdir -p "$d/corpus"
		cp -n tests/fuzz/corpus/"$t"/* "$d/corpus/" 2>/dev/null
		dict=""
		[ -f "tests/fuzz/$t.dict" ] && dict="-dict=tests/fuzz/$t.dict"
		log=$d/log
		start=$(date +%s)
		# shellcheck disable=SC2086,SC2046
		"$OUT/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
			-print_final_stats=1 -artifact_prefix="$d/" $dict \
			$(field "tests/fuzz/$t.c" options) ${FUZZ_OPTS:-} "$d/corpus" >"$log" 2>&1
		rc=$?
		el=$(( $(date +%s) - start ))
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
		cov=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | sed -n 's/.*cov: \([0-9]*\).*ft: \([0-9]*\).*corp: \([0-9]*\).*/cov \1 ft \2 corpus \3/p')
		if [ "$rc" -eq 0 ]; then
			echo "ok     $t: ${el}s, ${execs:-?} execs, ${cov:-no stats}"
		else
			failed=$((failed + 1))
			echo "FAILED $t: ${el}s, ${execs:-?} execs, ${cov:-no stats}; see $log"
			grep -E '^==[0-9]+==ERROR|SUMMARY|runtime error|Test unit written' "$log" | head -n 6 | sed 's/^/    /'
		fi
	done
	echo "fuzz-run: $n targets, ${seconds}s each, $failed failed"
	[ "$failed" -eq 0 ]
}

case $mode in
build) build_all ;;
replay) replay ;;
run) run ;;
*) die "usage: scripts/fuzz.sh replay | run [SECONDS] | build" ;;
esac
