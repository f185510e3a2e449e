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

e2e_setup() {
	_e2e_name=${1:?e2e_setup needs a name}
	T=$(mktemp -d "${TMPDIR:-/tmp}/secteam-$_e2e_name.XXXXXX") ||
		{ echo "Bail out! mktemp failed"; exit 1; }
	trap _e2e_exit EXIT
	gpg_env_setup "$T/keys" >/dev/null || { echo "Bail out! gpg_env_setup failed"; exit 1; }
	S=$T/keys/senders
	H=$T/keys/home
	DB=$T/db/secteam.db
}

e2e_on_exit() {
	_e2e_on_exit="$_e2e_on_exit$1
"
}

_e2e_exit() {
	eval "$_e2e_on_exit"
	db_write_unlock
	gpg_env_teardown "$T/keys" >/dev/null 2>&1
	rm -rf "$T"
}

st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" "$@"; }
mk() { /usr/bin/python3 "$SECTEAM_TOP/tests/lib/mkpgp.py" --gnupghome "$S" "$@"; }

db_write_lock() {
	_e2e_ready=$T/.db-write-lock.ready
	rm -f "$_e2e_ready"
	/usr/bin/python3 -c '
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN EXCLUSIVE")
open(sys.argv[2], "w").close()
time.sleep(float(sys.argv[3]))
' "${1:?db_write_lock needs a database}" "$_e2e_ready" "${2:-60}" &
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
