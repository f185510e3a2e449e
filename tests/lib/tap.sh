# tap.sh: minimal TAP for shell end-to-end tests (sourced).
#   tap_ok COND_STATUS "description" [diagnostic...]
#   tap_is GOT WANT "description"
#   tap_like GOT REGEX "description"
#   tap_skip "description" "reason"; tap_diag TEXT (a "# " line)
#   tap_done       prints the plan; exit status = number of failures (max 1)
# Tests run with SECTEAM_BIN (the binary) and SECTEAM_TOP (the repo root).
_tap_n=0
_tap_fail=0
SECTEAM_TOP=${SECTEAM_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
SECTEAM_BIN=${SECTEAM_BIN:-$SECTEAM_TOP/build/secteam-tui}
export SECTEAM_TOP SECTEAM_BIN

tap_ok() { # status description [diag...]
	_st=$1; shift
	_tap_n=$((_tap_n + 1))
	if [ "$_st" -eq 0 ]; then
		echo "ok $_tap_n - $1"
	else
		echo "not ok $_tap_n - $1"
		_tap_fail=$((_tap_fail + 1))
		shift
		for _d in "$@"; do printf '%s\n' "$_d" | sed 's/^/# /'; done
	fi
}

tap_is() { # got want description
	[ "$1" = "$2" ]
	tap_ok $? "$3" "got:  $1" "want: $2"
}

tap_like() { # got regex description
	printf '%s' "$1" | grep -qE -- "$2"
	tap_ok $? "$3" "got: $1" "want match: $2"
}

tap_unlike() { # got regex description
	! printf '%s' "$1" | grep -qE -- "$2"
	tap_ok $? "$3" "got: $1" "must not match: $2"
}

tap_skip() { # description reason
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n - $1 # SKIP $2"
}

tap_done() {
	echo "1..$_tap_n"
	[ "$_tap_fail" -eq 0 ]
}

tap_diag() { # text...: a diagnostic line
	printf '%s\n' "$*" | sed 's/^/# /'
}
