# lib-tmux.sh: end-to-end tests of the UI through a detached tmux (sourced,
# POSIX sh).  The real binary runs in a private tmux server; keys are typed
# with send-keys and the screen read back with capture-pane.
#
#   . "$SECTEAM_TOP/tests/e2e/lib-tmux.sh"
#   tap_plan 5
#   fixture_setup            # keys, messages, a database (fixture_* below)
#   tui_start 100 30         # the UI on $DB, pinned at $SECTEAM_NOW
#   wait_for "UAF in tcp" && ok "list shows the report" || not_ok "..."
#   keys Enter; ... ; tui_stop
#
# Everything lives in $WORK (removed at exit with the tmux server and the
# gpg agents).  Waits poll the screen with a timeout, never a fixed sleep.
set -u
: "${SECTEAM_BIN:?SECTEAM_BIN must name the built secteam-tui}"
: "${SECTEAM_TOP:?SECTEAM_TOP must name the repository}"
PY=/usr/bin/python3
TMUX_SOCK="test$$"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/secteam-e2e.XXXXXX")
DB="$WORK/t.db"
export SECTEAM_NOW="${SECTEAM_NOW:-2026-12-02T12:00:00Z}"
_tap_n=0
_tap_fail=0

tmx() { tmux -L "$TMUX_SOCK" "$@"; }

_cleanup() {
	tmx kill-server 2>/dev/null
	if [ -d "$WORK/gpg" ]; then
		gpg_env_teardown "$WORK/gpg" >/dev/null 2>&1
	fi
	rm -rf "$WORK"
}
trap _cleanup EXIT
trap 'exit 1' INT TERM HUP

tap_plan() { echo "1..$1"; }
ok() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $*"; }
not_ok() {
	_tap_n=$((_tap_n + 1)); _tap_fail=1
	echo "not ok $_tap_n - $*"
	# the screen as it was, for the diagnosis
	screen 2>/dev/null | sed 's/^/# | /'
}
skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n # SKIP $*"; }
diag() { echo "# $*"; }
tap_done() { exit $_tap_fail; }
# check DESCRIPTION COMMAND...: ok when the command succeeds.
check() { _d=$1; shift; if "$@"; then ok "$_d"; else not_ok "$_d"; fi; }

# --- the OpenPGP world and the database ---------------------------------
fixture_setup() {
	. "$SECTEAM_TOP/tests/lib/gpg-env.sh"
	gpg_env_setup "$WORK/gpg" || { echo "Bail out! cannot set up gpg"; exit 1; }
	GHOME="$WORK/gpg/home"
	SENDERS="$WORK/gpg/senders"
	mkdir -p "$WORK/mail"
	: >"$WORK/config"
}

# mail_pgp NAME SUBJECT BODY [KIND]: an encrypted and signed report from Rita.
mail_pgp() {
	$PY "$SECTEAM_TOP/tests/lib/mkpgp.py" --gnupghome "$SENDERS" \
		--kind "${4:-encrypted-signed}" --from "Rita Reporter <rita@example.net>" \
		--sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" --subject "$2" --body "$3" \
		--message-id "$1@example.net" --date "Wed, 02 Dec 2026 09:00:00 +0000" \
		>"$WORK/mail/$1.eml"
}

# import FILES...: through the product's own command.
import() {
	"$SECTEAM_BIN" --db "$DB" --gnupghome "$GHOME" import "$@" >"$WORK/import.out" 2>&1 ||
		{ echo "# import failed:"; sed 's/^/# /' "$WORK/import.out"; return 1; }
}

# sectui ARGS...: run a command on the test database.
sectui() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$GHOME" --config "$WORK/config" "$@"; }

# --- the UI ---------------------------------------------------------------
# tui_start COLS LINES [ENV...]: the UI in a fresh detached session.
tui_start() {
	_w=$1; _h=$2; shift 2
	: >>"$WORK/config"
	tmx -f /dev/null new-session -d -s t -x "$_w" -y "$_h" \
		"env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color SECTEAM_NOW=$SECTEAM_NOW EDITOR=true VISUAL= $* \
		 '$SECTEAM_BIN' --db '$DB' --gnupghome '$GHOME' --config '$WORK/config'; echo EXITED:\$?; sleep 30"
	tmx set-option -g remain-on-exit on >/dev/null 2>&1
	tmx resize-window -t t -x "$_w" -y "$_h" >/dev/null 2>&1
}
# tui_stop: ends the UI and its tmux server, waiting until it is gone so
# the next tui_start does not reach a server on its way out.
tui_stop() {
	tmx kill-server 2>/dev/null
	_t=100
	while [ $_t -gt 0 ] && tmx ls >/dev/null 2>&1; do sleep 0.05; _t=$((_t - 1)); done
}

screen() { tmx capture-pane -p -t t; }
screen_e() { tmx capture-pane -p -e -t t; }
keys() { tmx send-keys -t t "$@"; }
# type TEXT: literal text, no key names.
type_text() { tmx send-keys -t t -l "$1"; }

# wait_for TEXT [SECONDS]: until the screen shows TEXT (fixed string).
wait_for() {
	_t=$(( ${2:-5} * 20 ))
	while [ $_t -gt 0 ]; do
		screen | grep -qF -- "$1" && return 0
		sleep 0.05
		_t=$((_t - 1))
	done
	return 1
}
# wait_gone TEXT [SECONDS]
wait_gone() {
	_t=$(( ${2:-5} * 20 ))
	while [ $_t -gt 0 ]; do
		screen | grep -qF -- "$1" || return 0
		sleep 0.05
		_t=$((_t - 1))
	done
	return 1
}
# line_of TEXT: the first screen line holding TEXT.
line_of() { screen | grep -F -- "$1" | head -n 1; }
# wait_re REGEX [SECONDS]: until a screen line matches the extended regex.
wait_re() {
	_t=$(( ${2:-5} * 20 ))
	while [ $_t -gt 0 ]; do
		screen | grep -qE -- "$1" && return 0
		sleep 0.05
		_t=$((_t - 1))
	done
	return 1
}
