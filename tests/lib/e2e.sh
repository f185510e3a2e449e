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
# db_write_lock DB SECONDS: another connection holds DB's write lock
# (BEGIN EXCLUSIVE, in the background) for at most SECONDS; returns once
# the lock is held, non-zero (with a message on stderr) if it was not
# within 10 s.
# db_write_unlock: ends it (the EXIT trap does, if the test stops before).
# e2e_mbox OUT FILE...: an mbox of the message files, in that order
# (Python's mailbox module: "From " quoting done the standard way).
. "$SECTEAM_TOP/tests/lib/tap.sh"
. "$SECTEAM_TOP/tests/lib/gpg-env.sh"

_e2e_on_exit=""
_e2e_locker=""

e2e_engine() { echo "${SECTEAM_TEST_ENGINE:-sqlite}"; }
e2e_sqlite() { [ "$(e2e_engine)" = sqlite ]; }

e2e_setup() {
	_e2e_name=${1:?e2e_setup needs a name}
	T=$(mktemp -d "${TMPDIR:-/tmp}/secteam-$_e2e_name.XXXXXX") ||
		{ echo "Bail out! mktemp failed"; exit 1; }
	trap _e2e_exit EXIT
	gpg_env_setup "$T/keys" >/dev/null || { echo "Bail out! gpg_env_setup failed"; exit 1; }
	S=$T/keys/senders
	H=$T/keys/home
	if e2e_sqlite; then
		DB=$T/db/secteam.db
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
	PGUSER=$E2E_OFFICER
	export PGUSER
}

e2e_admin() {
	PGUSER=$E2E_ADMIN "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" "$@"
}

db_sql() {
	if e2e_sqlite; then
		sqlite3 "$DB" "$1"
	else
		PGUSER=$E2E_ADMIN psql -X -q -At -v ON_ERROR_STOP=1 -d "$E2E_PGDB" \
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
		PGUSER=$E2E_ADMIN dropdb --if-exists "$E2E_PGDB" >/dev/null 2>&1
		PGUSER=$E2E_ADMIN psql -X -q -d postgres -c "DROP ROLE IF EXISTS $E2E_OFFICER" >/dev/null 2>&1
	fi
	gpg_env_teardown "$T/keys" >/dev/null 2>&1
	rm -rf "$T"
}

st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" "$@"; }
mk() { /usr/bin/python3 "$SECTEAM_TOP/tests/lib/mkpgp.py" --gnupghome "$S" "$@"; }

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
			PGUSER=$E2E_ADMIN psql -X -q -d "$E2E_PGDB" >/dev/null 2>&1 &
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
