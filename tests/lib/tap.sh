# tap.sh: minimal TAP for shell end-to-end tests (sourced).
#   tap_ok COND_STATUS "description" [diagnostic...]
#   tap_is GOT WANT "description"
#   tap_like GOT REGEX "description"
#   tap_skip "description" "reason"; tap_diag TEXT (a "# " line)
#   tap_done       prints the plan; exit status = number of failures (max 1)
# Tests run with SECTEAM_BIN (the binary) and SECTEAM_TOP (the repo root).
#
# One check alone, as git's test-lib does: `sh tests/e2e/NAME.sh --run 3`
# (or --run 2,5-7, or SECTEAM_RUN=3) reports only those checks; the
# others are "# SKIP not selected", and the script ends after the last
# one selected.  What runs before a check still runs: a script is one
# story, each check reading the state the steps before it left.
_tap_n=0
_tap_fail=0
_tap_run=${SECTEAM_RUN:-}
case "${1:-}" in
--run) _tap_run=${2:?--run needs a list of check numbers, e.g. --run 3 or 2,5-7} ;;
--run=*) _tap_run=${1#--run=} ;;
esac
_tap_last=0
if [ -n "$_tap_run" ]; then
	for _r in $(echo "$_tap_run" | tr ',' ' '); do
		case $_r in
		*[!0-9-]* | -* | *-*-* | *-)
			echo "Bail out! --run '$_tap_run': '$_r' is not a check number or a range N-M"; exit 2 ;;
		esac
		_r=${_r#*-}
		[ "$_r" -gt "$_tap_last" ] && _tap_last=$_r
	done
fi

# _tap_selected N: true when check N is to be reported.
_tap_selected() {
	[ -z "$_tap_run" ] && return 0
	for _r in $(echo "$_tap_run" | tr ',' ' '); do
		case $_r in
		*-*) [ "$1" -ge "${_r%-*}" ] && [ "$1" -le "${_r#*-}" ] && return 0 ;;
		*) [ "$1" -eq "$_r" ] && return 0 ;;
		esac
	done
	return 1
}

# After the last selected check, the script ends there.
_tap_maybe_end() {
	[ -n "$_tap_run" ] && [ "$_tap_n" -ge "$_tap_last" ] || return 0
	tap_done
	exit $?
}
SECTEAM_TOP=${SECTEAM_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
SECTEAM_BIN=${SECTEAM_BIN:-$SECTEAM_TOP/build/secteam-tui}
export SECTEAM_TOP SECTEAM_BIN

tap_ok() { # status description [diag...]
	_st=$1; shift
	_tap_n=$((_tap_n + 1))
	if ! _tap_selected "$_tap_n"; then
		echo "ok $_tap_n - $1 # SKIP not selected (--run $_tap_run)"
	elif [ "$_st" -eq 0 ]; then
		echo "ok $_tap_n - $1"
	else
		echo "not ok $_tap_n - $1"
		_tap_fail=$((_tap_fail + 1))
		shift
		for _d in "$@"; do printf '%s\n' "$_d" | sed 's/^/# /'; done
	fi
	_tap_maybe_end
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
	_tap_maybe_end
}

tap_done() {
	echo "1..$_tap_n"
	[ "$_tap_fail" -eq 0 ]
}

tap_diag() { # text...: a diagnostic line
	printf '%s\n' "$*" | sed 's/^/# /'
}
