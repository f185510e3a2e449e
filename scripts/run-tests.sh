#!/bin/sh
# Runs every test under prove (TAP): the cmocka unit binaries of build dir
# $1, then the shell end-to-end tests against $1/secteam-tui.  prove's
# closing "Result: PASS|FAIL" line is the summary CI reads.
#
# Both engines: the run starts its own PostgreSQL server (tests/lib/pg.sh:
# initdb in a temporary folder, a Unix socket only, stopped and removed
# at the end whatever happens).  The unit binaries test the store on it
# too (SECTEAM_TEST_PG=1), and an end-to-end test's "# engines: ..."
# line says where it runs: sqlite (the default: as itself), pg (as
# pg-e2e/NAME.sh, with SECTEAM_TEST_ENGINE=pg on a database of that
# server), or both.  A server that
# cannot start is a failure, not a skip.
#
# SECTEAM_SAN=DIR (a build made with the sanitizers, as make check makes
# build-asan) runs the unit binaries of DIR instead of $1's, and the
# end-to-end tests' SQLite runs against DIR's program, but for those
# SECTEAM_SAN_EXCLUDE names (they run $1's): each test then runs once
# per engine, under ASan and UBSan on SQLite and optimised as shipped on
# PostgreSQL.
#
# SECTEAM_TESTS_ONLY="NAME..." runs only those tests: unit binaries by
# their name (test-store) and end-to-end scripts by theirs (team.sh), on
# the engines each names, e.g.
#   SECTEAM_TESTS_ONLY="test-store team.sh" scripts/run-tests.sh build
set -u
B=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
export SECTEAM_BIN="$top/$B/secteam-tui"
export SECTEAM_TOP="$top"
export CMOCKA_MESSAGE_OUTPUT=TAP
. "$top/tests/lib/pg.sh"
. "$top/tests/lib/gpg-env.sh"
PG_DIR=""
keys=""
trap 'pg_stop; [ -z "$keys" ] || { gpg_env_teardown "$keys/k"; rm -rf "$keys"; }' EXIT
trap 'exit 130' INT TERM
pgtests="$top/$B/pg-e2e"
santests="$top/$B/san-e2e"
rm -rf "$pgtests" "$santests"
mkdir -p "$pgtests" "$santests"
units=$B
[ -n "${SECTEAM_SAN:-}" ] && units=$SECTEAM_SAN
if pg_start; then
	export SECTEAM_TEST_PG=1
else
	# Every PostgreSQL run then fails with this reason.
	export SECTEAM_TEST_PG=unavailable
fi
# The tests' OpenPGP keys (tests/lib/gpg-env.sh), made once for the
# run: each test copies them into a folder of its own.
unset SECTEAM_GPG_FIXTURE
keys=$(mktemp -d "${TMPDIR:-/tmp}/secteam-keys.XXXXXX") &&
	gpg_env_fixture "$keys/k" >/dev/null ||
	{ echo "run-tests: cannot make the test keys" >&2; exit 1; }
export SECTEAM_GPG_FIXTURE="$keys/k"
tests=""
# sanitized SCRIPT: the SQLite run of SCRIPT, against SECTEAM_SAN's
# program when that is set and SECTEAM_SAN_EXCLUDE does not name it.
sanitized() {
	case " ${SECTEAM_SAN_EXCLUDE:-} " in *" $(basename "$1") "*) ;; *)
		if [ -n "${SECTEAM_SAN:-}" ]; then
			w="$santests/$(basename "$1")"
			cat >"$w" <<-WRAP
			#!/bin/sh
			# $(basename "$1") against the sanitized build $SECTEAM_SAN.
			SECTEAM_BIN="$top/$SECTEAM_SAN/secteam-tui" exec sh "$1"
			WRAP
			echo "$w"
			return
		fi ;;
	esac
	echo "$1"
}
# only NAME: true when SECTEAM_TESTS_ONLY is unset or names NAME.
only() {
	[ -z "${SECTEAM_TESTS_ONLY:-}" ] && return 0
	case " $SECTEAM_TESTS_ONLY " in *" $1 "*) return 0 ;; esac
	return 1
}
for t in "$top/$units"/tests/test-*; do
	[ -x "$t" ] && only "$(basename "$t")" && tests="$tests $t"
done
for t in "$top"/tests/e2e/*.bats "$top"/tests/e2e/*.sh; do
	case "$(basename "$t")" in lib-*) continue ;; esac  # sourced helpers
	case " ${SECTEAM_E2E_EXCLUDE:-} " in *" $(basename "$t") "*) continue ;; esac
	only "$(basename "$t")" || continue
	[ -f "$t" ] || continue
	engines=$(sed -n 's/^# engines: *//p' "$t" | head -n 1)
	want=" ${SECTEAM_E2E_ENGINES:-sqlite pg} "
	case " ${engines:-sqlite} " in *" sqlite "*)
		case $want in *" sqlite "*) tests="$tests $(sanitized "$t")" ;; esac ;;
	esac
	if case " $engines " in *" pg "*) true ;; *) false ;; esac &&
		case $want in *" pg "*) true ;; *) false ;; esac; then
		w="$pgtests/$(basename "$t")"
		cat >"$w" <<-WRAP
		#!/bin/sh
		# $(basename "$t") on the run's PostgreSQL server.
		[ "\$SECTEAM_TEST_PG" = 1 ] || { echo "Bail out! no PostgreSQL test server (see tests/lib/pg.sh)"; exit 1; }
		SECTEAM_TEST_ENGINE=pg exec sh "$t"
		WRAP
		tests="$tests $w"
	fi
done
[ -n "${SECTEAM_TESTS_EXTRA:-}" ] && tests="$tests $SECTEAM_TESTS_EXTRA"
# The longest tests first, so that prove's parallel runs end together
# instead of one of them starting a long test near the end.
long=""
short=""
for t in $tests; do
	case " team.sh concurrency.sh hostile.sh valgrind.sh maintainers-oracle.sh " in
	*" $(basename "$t") "*) long="$long $t" ;;
	*) short="$short $t" ;;
	esac
done
tests="$long$short"
prove --timer -j"${TEST_JOBS:-2}" --exec "$top/scripts/tap-exec" $tests
