# e2e.sh: the common setup of the end-to-end tests (sourced, POSIX sh).
#
#   . "$SECTEAM_TOP/tests/lib/e2e.sh"   # also sources tap.sh and gpg-env.sh
#   e2e_setup NAME              # a work dir, the test keys, the names below
#   e2e_on_exit 'kill "$pid"'   # more cleanup at exit (optional, repeatable)
#   st import "$T/m.eml"; mk --kind signed ... >"$T/m.eml"; ...
#   db_write_lock "$DB" 20      # another writer holds the database...
#   ...                         # ...while this runs
#   db_write_unlock
#   tap_done
#
# e2e_setup NAME makes T=$(mktemp -d ${TMPDIR:-/tmp}/secteam-NAME.XXXXXX),
# runs gpg_env_setup "$T/keys" (printing "Bail out! gpg_env_setup failed"
# and exiting 1 when it fails) and sets an EXIT trap that runs what was
# given to e2e_on_exit (in that order), ends a db_write_lock still held,
# kills the gpg agents and removes $T.  Do not set another EXIT trap: use
# e2e_on_exit.  It sets:
#   T     the work directory (removed at exit)
#   S     the senders' GnuPG home ($T/keys/senders), for mk
#   H     the officer's GnuPG home ($T/keys/home), for st
#   DB    $T/db/secteam.db, for st
# and two commands that read S, H and DB when called (so a test may set
# DB after e2e_setup, or redefine st: another --config, a timeout...):
#   st ARGS...   secteam-tui --db "$DB" --gnupghome "$H" ARGS...
#   mk ARGS...   tests/lib/mkpgp.py --gnupghome "$S" ARGS... (a mail on stdout)
# Engines.  SECTEAM_TEST_ENGINE=pg (scripts/run-tests.sh sets it for a
# test's PostgreSQL run, with PGHOST/PGUSER of the server it started)
# puts the test on a new database of that server instead of a file:
#   DB           "dbname=e2e_NAME_PID": st and "$SECTEAM_BIN" --db "$DB"
#                work unchanged; team init has made the officer's role
#   E2E_OFFICER  who the events record: the officer's login role on
#                PostgreSQL (exported as PGUSER, so commands run as it,
#                not as a superuser), the Unix user on SQLite
#   e2e_engine   prints sqlite or pg
#   e2e_sqlite   true on SQLite (for the file checks only SQLite has)
#   db_sql SQL   runs SQL on DB as its owner; rows as sqlite3 prints them
#   db_ok        prints "ok" when DB answers (and passes integrity_check)
#   e2e_admin ARGS...  secteam-tui as the team's administrator (pg)
#   e2e_new_db NAME    DB becomes a fresh database of its own, the same
#                officer's: $T/NAME.db on SQLite, another database of
#                the run's server (dropped at exit) on PostgreSQL
# db_write_lock DB SECONDS: another connection holds DB's write lock
# (BEGIN EXCLUSIVE, in the background) for at most SECONDS; returns once
# the lock is held, non-zero (with a message on stderr) if it was not
# within 10 s.
# db_write_unlock: ends it (the EXIT trap does, if the test stops before).
# Schemas (all inside the repository or its packages, never beside it):
#   SCHEMAS      tests/schemas: the CVE 5 and OSV schemas (SOURCE.md)
#   CSAF_SCHEMA  the CSAF 2.0 schema as csaf-validator-lib publishes it,
#                with first/ beside it (scripts/npm-validators.sh)
# e2e_run WANT DESC ARGS...: st ARGS, its output in $T/out and $T/err;
# one check "DESC (exit RC)" that it exited WANT.
# e2e_ok STATUS DESC: tap_ok showing $T/err (the last e2e_run's
# stderr) as the diagnostic when STATUS is not 0.
# e2e_mbox OUT FILE...: an mbox of the message files, in that order
# (Python's mailbox module: "From " quoting done the standard way).
#
# The UI through tmux.  e2e_tmux_setup (after e2e_setup) gives the test a
# private tmux server (killed at exit) and an empty config file $T/config
# (sectui and the UI read it); the real binary runs in it on $DB, $H and
# that config file, is typed
# at with send-keys and read back with capture-pane:
#   tui_start COLS LINES [VAR=VALUE...]  the UI in a fresh session "t";
#                the environment is LANG/LC_ALL C.UTF-8, TERM
#                screen-256color, EDITOR=true, VISUAL empty, PGUSER and
#                SECTEAM_TEST_NOW as the test has them, then VAR=VALUE...
#   tui_cmd [VAR=VALUE...]  that command line (for tmx split-window)
#   tui_stop     asserts tui_no_stray (one TAP check), then ends the
#                server and waits until it is gone
#   tui_kill     the same without the check
#   tmx ARGS...  tmux on the test's server
#   keys KEYS... send-keys to the pane; type_text TEXT: literal text
#   screen, screen_e     capture-pane -p (-e: with attributes)
#   wait_for TEXT [S], wait_gone TEXT [S], wait_re REGEX [S]: poll the
#                screen (default 5 s), never a fixed sleep
#   line_of TEXT the first screen line holding TEXT
#   tui_ok STATUS DESC [DIAG...]  tap_ok; a failure also shows the screen
#   tui_check DESC CMD...         tui_ok on the command's status
#   tui_no_stray [PANE]  one TAP check that the UI wrote nothing outside
#                curses (tui_stray_check below)
#   tui_stray_check [PANE]  non-zero, naming what it found, when a byte
#                reached the terminal outside curses: lines in the pane's
#                scrollback (capture-pane -S -), text on the normal screen
#                hidden behind the UI's alternate screen (capture-pane -a),
#                or a screen that differs from what curses itself draws
#                (C-l makes the UI repaint every cell; every row but the
#                status line must stay as it was).  When the test has
#                quit the UI: the terminal must hold nothing but EXITED:0.
# Fixtures: mail_pgp NAME SUBJECT BODY [KIND] writes $T/mail/NAME.eml, an
# encrypted and signed (or KIND) report from Rita to the officer;
# e2e_import FILES... imports them (shows the output when it fails);
# sectui ARGS... is st with --config "$T/config".
# The clock.  The program reads the real clock only; a test pins "now"
# with SECTEAM_TEST_NOW=2026-12-02T12:00:00Z (RFC 3339, UTC), which the
# build's tests/clock-shim.so (preloaded here, for every command the
# test runs) answers for the secteam-tui process alone.
. "$SECTEAM_TOP/tests/lib/tap.sh"
. "$SECTEAM_TOP/tests/lib/gpg-env.sh"
_e2e_shim=$(dirname "$SECTEAM_BIN")/tests/clock-shim.so
[ -r "$_e2e_shim" ] || { echo "Bail out! no $_e2e_shim (make units builds it)"; exit 1; }
LD_PRELOAD=$_e2e_shim${LD_PRELOAD:+ $LD_PRELOAD}
export LD_PRELOAD

_e2e_on_exit=""
_e2e_pgdbs=""
_e2e_locker=""

e2e_engine() { echo "${SECTEAM_TEST_ENGINE:-sqlite}"; }
e2e_sqlite() { [ "$(e2e_engine)" = sqlite ]; }

SCHEMAS=$SECTEAM_TOP/tests/schemas
CSAF_SCHEMA=${SECTEAM_NPM:-${SECTEAM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/secteam-tui}/npm}/schemas/csaf_json_schema.json

e2e_setup() {
	# Files the tests write (configs among them) are nobody else's to
	# write, whatever umask the test runner has.
	umask 022
	_e2e_name=${1:?e2e_setup needs a name}
	T=$(mktemp -d "${TMPDIR:-/tmp}/secteam-$_e2e_name.XXXXXX") ||
		{ echo "Bail out! mktemp failed"; exit 1; }
	trap _e2e_exit EXIT
	gpg_env_setup "$T/keys" >/dev/null || { echo "Bail out! gpg_env_setup failed"; exit 1; }
	S=$T/keys/senders
	H=$T/keys/home
	if e2e_sqlite; then
		DB=$T/db/secteam.db
		mkdir -m 700 "$T/db"
		E2E_OFFICER=$(id -un)
		return 0
	fi
	_e2e_pg_setup || { echo "Bail out! no team server database"; exit 1; }
}

# The test's database on the run's server, and its first officer.
_e2e_pg_setup() {
	[ -n "${PGHOST:-}" ] || { echo "e2e: SECTEAM_TEST_ENGINE=pg without PGHOST" >&2; return 1; }
	E2E_ADMIN=${E2E_ADMIN:-${PGUSER:-postgres}}
	E2E_PGDB=e2e_$(printf '%s' "$_e2e_name" | tr -c 'a-z0-9\n' _)_$$
	E2E_OFFICER=officer_$$
	PGUSER=$E2E_ADMIN createdb "$E2E_PGDB" || return 1
	DB="dbname=$E2E_PGDB"
	e2e_admin team init --officer "$E2E_OFFICER" --key "$OFFICER_FPR" >/dev/null ||
		return 1
	e2e_client_clock "$E2E_PGDB" || return 1
	PGUSER=$E2E_OFFICER
	export PGUSER
}

e2e_new_db() {
	if e2e_sqlite; then
		DB=$T/${1:?e2e_new_db needs a name}.db
		return 0
	fi
	_e2e_db=${E2E_PGDB}_$(printf '%s' "${1:?e2e_new_db needs a name}" | tr -c 'a-z0-9\n' _)
	PGUSER=$E2E_ADMIN createdb "$_e2e_db" || return 1
	_e2e_pgdbs="$_e2e_pgdbs $_e2e_db"
	DB="dbname=$_e2e_db"
	e2e_admin team init --officer "$E2E_OFFICER" --key "$OFFICER_FPR" >/dev/null &&
		e2e_client_clock "$_e2e_db"
}

# The team server times events itself; a test's database takes the
# time the program gives (the test's pinned clock) instead: a setting
# only the administrator can make (secteam.settings, migration 5).
e2e_client_clock() {
	PGUSER=$E2E_ADMIN psql -X -q -v ON_ERROR_STOP=1 -d "$1" \
		-c "UPDATE secteam.settings SET client_clock = 1" >/dev/null
}

e2e_admin() {
	PGUSER=$E2E_ADMIN "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" "$@"
}

db_sql() {
	if e2e_sqlite; then
		sqlite3 "$DB" "$1"
	else
		PGUSER=$E2E_ADMIN psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB" \
			-c "SET search_path = secteam" -c "$1"
	fi
}

db_ok() {
	if e2e_sqlite; then
		sqlite3 "$DB" 'PRAGMA integrity_check'
	else
		db_sql 'SELECT count(*) FROM reports, (SELECT count(*) FROM events) e' \
			>/dev/null && echo ok
	fi
}

e2e_on_exit() {
	_e2e_on_exit="$_e2e_on_exit$1
"
}

_e2e_exit() {
	eval "$_e2e_on_exit"
	db_write_unlock
	if [ -n "${E2E_PGDB:-}" ]; then
		for _e2e_db in $_e2e_pgdbs; do
			PGUSER=$E2E_ADMIN dropdb --if-exists "$_e2e_db" >/dev/null 2>&1
		done
		PGUSER=$E2E_ADMIN dropdb --if-exists "$E2E_PGDB" >/dev/null 2>&1
		PGUSER=$E2E_ADMIN psql -X -q -d postgres -c "DROP ROLE IF EXISTS $E2E_OFFICER" >/dev/null 2>&1
	fi
	gpg_env_teardown "$T/keys" >/dev/null 2>&1
	rm -rf "$T"
}

st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" "$@"; }
mk() { /usr/bin/python3 "$SECTEAM_TOP/tests/lib/mkpgp.py" --gnupghome "$S" "$@"; }
# mk_line OUT ARGS...: one line for mk_batch (the file OUT, mk's options).
mk_line() { printf '%s\t' "$@"; echo; }
# mk_batch: the messages of mk_line's lines on stdin, in one process.
mk_batch() { /usr/bin/python3 "$SECTEAM_TOP/tests/lib/mkpgp.py" --gnupghome "$S" --batch; }

db_write_lock() {
	_e2e_ready=$T/.db-write-lock.ready
	rm -f "$_e2e_ready"
	if e2e_sqlite; then
		/usr/bin/python3 -c '
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN EXCLUSIVE")
open(sys.argv[2], "w").close()
time.sleep(float(sys.argv[3]))
' "${1:?db_write_lock needs a database}" "$_e2e_ready" "${2:-60}" &
	else
		# The team server's writers take one advisory lock (store/db-pg.c):
		# hold it in a transaction of another session.
		# (client_connection_check_interval: the server lets go as soon
		# as db_write_unlock kills psql, not when the sleep ends.)
		{ printf 'SET client_connection_check_interval = 100;\n'
		  printf 'BEGIN;\nSELECT pg_advisory_xact_lock(5363746561);\n'
		  printf '\\! touch %s\n' "$_e2e_ready"
		  printf 'SELECT pg_sleep(%s);\n' "${2:-60}"; } |
			PGUSER=$E2E_ADMIN psql -X -q -d "$DB" >/dev/null 2>&1 &
	fi
	_e2e_locker=$!
	_e2e_i=0
	while [ ! -e "$_e2e_ready" ]; do
		if [ "$_e2e_i" -ge 100 ] || ! kill -0 "$_e2e_locker" 2>/dev/null; then
			echo "db_write_lock: could not lock $1" >&2
			return 1
		fi
		sleep 0.1
		_e2e_i=$((_e2e_i + 1))
	done
}

db_write_unlock() {
	[ -n "$_e2e_locker" ] || return 0
	kill "$_e2e_locker" 2>/dev/null
	wait "$_e2e_locker" 2>/dev/null
	_e2e_locker=""
}

e2e_ok() {
	if [ "$1" -ne 0 ] && [ -s "$T/err" ]; then
		tap_ok "$1" "$2" "$(cat "$T/err")"
	else
		tap_ok "$1" "$2"
	fi
}

e2e_run() {
	_e2e_want=$1 _e2e_d=$2; shift 2
	st "$@" >"$T/out" 2>"$T/err"
	_e2e_rc=$?
	[ "$_e2e_rc" -eq "$_e2e_want" ]
	e2e_ok $? "$_e2e_d (exit $_e2e_rc)"
}

e2e_mbox() {
	_e2e_out=${1:?e2e_mbox needs an output file}
	shift
	/usr/bin/python3 -c '
import mailbox, sys, email
box = mailbox.mbox(sys.argv[1])
for name in sys.argv[2:]:
    with open(name, "rb") as f:
        box.add(email.message_from_binary_file(f))
box.flush()
' "$_e2e_out" "$@"
}

# --- the UI through tmux ---------------------------------------------------
# tmux_gone NAME: the tmux server -L NAME ended, and its socket removed
# (tmux 3.3 leaves it in its folder under /tmp, a file a test each).
tmux_gone() {
	tmux -L "$1" kill-server 2>/dev/null
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$1"
}

e2e_tmux_setup() {
	E2E_TMUX=e2e$$
	mkdir -p "$T/mail"
	: >>"$T/config"
	e2e_on_exit 'tmux_gone "$E2E_TMUX"'
}

tmx() { tmux -L "$E2E_TMUX" "$@"; }

sectui() { st --config "$T/config" "$@"; }

mail_pgp() {
	mk --kind "${4:-encrypted-signed}" --from "Rita Reporter <rita@example.net>" \
		--sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" --subject "$2" --body "$3" \
		--message-id "$1@example.net" --date "Wed, 02 Dec 2026 09:00:00 +0000" \
		>"$T/mail/$1.eml"
}

e2e_import() {
	st import "$@" >"$T/import.out" 2>&1 ||
		{ echo "# import failed:"; sed 's/^/# /' "$T/import.out"; return 1; }
}

tui_cmd() {
	_e2e_now=
	[ -n "${SECTEAM_TEST_NOW:-}" ] && _e2e_now="SECTEAM_TEST_NOW=$SECTEAM_TEST_NOW LD_PRELOAD=${LD_PRELOAD:-}"
	printf "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color EDITOR=true VISUAL= PGUSER=%s %s %s '%s' --db '%s' --gnupghome '%s' --config '%s'" \
		"${PGUSER:-}" "$_e2e_now" "$*" "$SECTEAM_BIN" "$DB" "$H" "$T/config"
}

# The pane stays (remain-on-exit) with EXITED:STATUS after the UI, so a
# crash is on the screen, not a vanished session.
tui_start() {
	_w=$1; _h=$2; shift 2
	: >>"$T/config"
	# tmux's server has once died while starting ("server exited
	# unexpectedly", on a loaded machine): one more try.  What runs in
	# the pane cannot cause that; its crash shows as EXITED:STATUS.
	for _try in 1 2; do
		tmx -f /dev/null new-session -d -s t -x "$_w" -y "$_h" \
			"$(tui_cmd "$@"); echo EXITED:\$?; sleep 30" &&
			tmx has-session -t t 2>/dev/null && break
		tap_diag "tmux did not start (try $_try)"
		sleep 0.5
	done
	tmx set-option -g remain-on-exit on >/dev/null 2>&1
	tmx resize-window -t t -x "$_w" -y "$_h" >/dev/null 2>&1
}

tui_kill() {
	tmx kill-server 2>/dev/null
	_t=100
	while [ $_t -gt 0 ] && tmx ls >/dev/null 2>&1; do sleep 0.05; _t=$((_t - 1)); done
}

tui_stop() {
	tui_no_stray
	tui_kill
}

screen() { tmx capture-pane -p -t "${E2E_PANE:-t}"; }
screen_e() { tmx capture-pane -p -e -t "${E2E_PANE:-t}"; }
keys() { tmx send-keys -t "${E2E_PANE:-t}" "$@"; }
type_text() { tmx send-keys -t "${E2E_PANE:-t}" -l "$1"; }

# _e2e_poll GREP-FLAGS PATTERN SECONDS: until grep FLAGS matches the screen.
_e2e_poll() {
	_t=$(( $3 * 20 ))
	while [ $_t -gt 0 ]; do
		screen | grep -q"$1" -- "$2" && return 0
		sleep 0.05
		_t=$((_t - 1))
	done
	return 1
}
wait_for() { _e2e_poll F "$1" "${2:-5}"; }
wait_re() { _e2e_poll E "$1" "${2:-5}"; }
wait_gone() {
	_t=$(( ${2:-5} * 20 ))
	while [ $_t -gt 0 ]; do
		screen | grep -qF -- "$1" || return 0
		sleep 0.05
		_t=$((_t - 1))
	done
	return 1
}
line_of() { screen | grep -F -- "$1" | head -n 1; }

tui_ok() { # status description [diag...]
	_e2e_st=$1; _e2e_d=$2; shift 2
	if [ "$_e2e_st" -eq 0 ]; then
		tap_ok 0 "$_e2e_d"
	else
		tap_ok 1 "$_e2e_d" "$@" "the screen:" "$(screen 2>/dev/null | sed 's/^/| /')"
	fi
}

tui_check() { # description command...
	_e2e_d=$1; shift
	"$@"
	tui_ok $? "$_e2e_d"
}

tui_no_stray() {
	_e2e_why=$(tui_stray_check "$@")
	tap_ok $? "nothing was written outside curses (${1:-t})" "$_e2e_why"
}

# Rows that are not blank, from stdin.
_e2e_inked() { grep -v '^[[:space:]]*$'; }

tui_stray_check() {
	_e2e_p=${1:-t}
	if [ "$(tmx display -p -t "$_e2e_p" '#{alternate_on}')" != 1 ]; then
		_tui_exited_check "$_e2e_p"
		return
	fi
	# (-E -1 on an empty history would capture the screen's first row.)
	_e2e_out=
	[ "$(tmx display -p -t "$_e2e_p" '#{history_size}')" -gt 0 ] &&
		_e2e_out=$(tmx capture-pane -p -S - -E -1 -t "$_e2e_p" | _e2e_inked)
	if [ -n "$_e2e_out" ]; then
		printf 'in the scrollback:\n%s\n' "$_e2e_out"
		return 1
	fi
	_e2e_out=$(tmx capture-pane -p -a -t "$_e2e_p" | _e2e_inked)
	if [ -n "$_e2e_out" ]; then
		printf 'on the normal screen behind the UI:\n%s\n' "$_e2e_out"
		return 1
	fi
	_tui_repaint_check "$_e2e_p"
}

# A UI that has ended (the test quit it): what curses drew went with its
# alternate screen, so the terminal holds nothing but tui_start's
# EXITED:0 (history included); anything else was written outside curses,
# or the UI failed.
_tui_exited_check() {
	_t=60
	while [ $_t -gt 0 ] && ! tmx capture-pane -p -t "$1" | grep -q '^EXITED:'; do
		sleep 0.05
		_t=$((_t - 1))
	done
	_e2e_out=$(tmx capture-pane -p -S - -t "$1" | _e2e_inked)
	[ "$_e2e_out" = EXITED:0 ] && return 0
	printf 'the UI ended, leaving on the terminal:\n%s\n' "$_e2e_out"
	return 1
}

# The screen but its last row (the status line, which C-l sets).
_e2e_rows() { tmx capture-pane -p -t "$1" | sed '$d'; }

# C-l: the UI repaints every cell from its own picture of the screen; a
# byte written behind curses' back shows as a difference.
_tui_repaint_check() {
	_e2e_before=$(_e2e_rows "$1")
	tmx send-keys -t "$1" C-l
	_t=60
	while [ $_t -gt 0 ]; do
		tmx capture-pane -p -t "$1" | tail -n 1 | grep -q '^reloaded' && break
		sleep 0.05
		_t=$((_t - 1))
	done
	if [ $_t -eq 0 ]; then
		# the test had just quit the UI
		if [ "$(tmx display -p -t "$1" '#{alternate_on}')" != 1 ]; then
			_tui_exited_check "$1"
			return
		fi
		echo "C-l did not redraw the screen (no \"reloaded\")"
		return 1
	fi
	_e2e_after=$(_e2e_rows "$1")
	[ "$_e2e_before" = "$_e2e_after" ] && return 0
	echo "the screen differs from what curses redraws (< before, > after C-l):"
	printf '%s\n' "$_e2e_before" >"$T/.stray-before"
	printf '%s\n' "$_e2e_after" >"$T/.stray-after"
	diff "$T/.stray-before" "$T/.stray-after" | grep '^[<>]'
	return 1
}
