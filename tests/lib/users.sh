# users.sh: other local users, for permission and symlink tests (sourced
# after tests/lib/e2e.sh, POSIX sh).  Needs root, to create the users.
#
#   users_setup                 # or: "1..0 # SKIP" and exit when not root
#   as_officer CMD...           # CMD as the officer, environment kept
#   as_attacker CMD...          # CMD as the attacker
#   sto ARGS...                 # secteam-tui as the officer (OH, ODB below)
#
# users_setup creates two users for this run (useradd, no home, no login
# shell): the officer who runs secteam-tui and the attacker who plants
# files; both are removed at exit (userdel, also when the test fails;
# the officer's gpg-agent is stopped first).
# It also makes U, a folder both can enter (0755, removed at exit)
# holding:
#   U/bin/secteam-tui   a copy of SECTEAM_BIN the users can run (the
#                       checkout may sit in a folder only root enters)
#   U/off/              the officer's home (0700), HOME for as_officer,
#                       with U/off/gnupg (a copy of the officer's keys, H)
#   ODB=U/off/db/secteam.db  the officer's database, for sto
# and sets OFFICER_USER, ATTACKER_USER, OFFICER_UID, ATTACKER_UID.

users_setup() {
	if [ "$(id -u)" != 0 ]; then
		echo "1..0 # SKIP needs root to create the test users (useradd)"
		exit 0
	fi
	OFFICER_USER=stoff$$
	ATTACKER_USER=statk$$
	_users_made=""
	e2e_on_exit '_users_teardown'
	for _u in "$OFFICER_USER" "$ATTACKER_USER"; do
		useradd -M -s /usr/sbin/nologin "$_u" ||
			{ echo "Bail out! useradd $_u failed"; exit 1; }
		_users_made="${_users_made:-} $_u"
	done
	OFFICER_UID=$(id -u "$OFFICER_USER")
	ATTACKER_UID=$(id -u "$ATTACKER_USER")
	U=$(mktemp -d "${TMPDIR:-/tmp}/secteam-users.XXXXXX") ||
		{ echo "Bail out! mktemp failed"; exit 1; }
	chmod 755 "$U"
	mkdir -p "$U/bin" "$U/off/db"
	cp "$SECTEAM_BIN" "$U/bin/secteam-tui"
	chmod 755 "$U/bin/secteam-tui"
	cp -r "$H" "$U/off/gnupg"
	rm -f "$U/off/gnupg"/S.* "$U/off/gnupg"/*.lock
	chown -R "$OFFICER_USER:" "$U/off"
	chmod 700 "$U/off" "$U/off/gnupg" "$U/off/db"
	ODB=$U/off/db/secteam.db
}

_users_teardown() {
	if [ -n "${U:-}" ] && [ -d "$U/off/gnupg" ]; then
		as_officer gpgconf --homedir "$U/off/gnupg" --kill all >/dev/null 2>&1
	fi
	for _u in ${_users_made:-}; do
		userdel -f "$_u" 2>/dev/null
	done
	[ -n "${U:-}" ] && rm -rf "$U"
}

_users_run() { # USER CMD...
	_ru=$1; shift
	# Without the tests' clock (the build may sit where this user cannot read).
	env -u LD_PRELOAD setpriv --reuid="$_ru" --regid="$_ru" --init-groups -- "$@"
}

as_officer() {
	HOME=$U/off USER=$OFFICER_USER LOGNAME=$OFFICER_USER \
		_users_run "$OFFICER_USER" "$@"
}

as_attacker() {
	HOME=/nonexistent USER=$ATTACKER_USER LOGNAME=$ATTACKER_USER \
		_users_run "$ATTACKER_USER" "$@"
}

sto() {
	as_officer "$U/bin/secteam-tui" --db "$ODB" --gnupghome "$U/off/gnupg" "$@"
}
