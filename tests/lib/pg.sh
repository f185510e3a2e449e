# pg.sh: a throwaway PostgreSQL server for one test run (sourced, POSIX sh).
#
#   . "$SECTEAM_TOP/tests/lib/pg.sh"
#   pg_start           # a new server; PG_DIR is its folder
#   ...                # PGHOST=$PG_DIR, PGPORT, PGUSER (a superuser) set
#   pg_stop            # stop it and remove PG_DIR
#
# PG_DIR is made by mktemp under ${TMPDIR:-/tmp} (which the server's user
# must be able to reach), holding the cluster (data/), its socket and
# its logs.
# The server listens on no TCP port at all (listen_addresses = ''), only
# on its socket in DIR, with trust authentication for local connections:
# a test server, gone when the test ends.  As root it runs as the
# `postgres` system user the Debian package creates (initdb refuses root);
# otherwise as the current user.  pg_bin NAME prints the path of a server
# program (initdb, pg_ctl, postgres) of the newest installed version.
pg_bin() {
	for _d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
		[ -x "$_d/$1" ] && { echo "$_d/$1"; return 0; }
	done
	command -v "$1"
}

_pg_as() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

pg_start() {
	_initdb=$(pg_bin initdb) && _pgctl=$(pg_bin pg_ctl) ||
		{ echo "pg_start: no PostgreSQL server programs (apt-get install postgresql)" >&2; return 1; }
	PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/secteam-pg.XXXXXX") || return 1
	_pgd=$PG_DIR
	[ "$(id -u)" = 0 ] && chown postgres "$_pgd"
	chmod 0700 "$_pgd"
	_pg_as "$_initdb" -D "$_pgd/data" -U postgres -A trust -E UTF8 \
		--locale=C.UTF-8 >"$_pgd/initdb.log" 2>&1 ||
		{ echo "pg_start: initdb failed:" >&2; tail -5 "$_pgd/initdb.log" >&2; return 1; }
	cat >>"$_pgd/data/postgresql.conf" <<-CONF
	listen_addresses = ''
	unix_socket_directories = '$_pgd'
	unix_socket_permissions = 0777
	fsync = off
	full_page_writes = off
	synchronous_commit = off
	max_connections = 60
	shared_preload_libraries = 'plpgsql'
	CONF
	_pg_as "$_pgctl" -D "$_pgd/data" -l "$_pgd/server.log" -w -t 60 start \
		>/dev/null 2>&1 ||
		{ echo "pg_start: the server did not start:" >&2; tail -5 "$_pgd/server.log" >&2; return 1; }
	# The socket directory must be reachable by every test user.
	chmod 0755 "$_pgd"
	PGHOST=$_pgd
	PGPORT=5432
	PGUSER=postgres
	export PGHOST PGPORT PGUSER
}

pg_stop() {
	[ -n "${PG_DIR:-}" ] || return 0
	if [ -f "$PG_DIR/data/postmaster.pid" ]; then
		_pg_as "$(pg_bin pg_ctl)" -D "$PG_DIR/data" -m immediate -w stop \
			>/dev/null 2>&1
	fi
	rm -rf "$PG_DIR"
	PG_DIR=""
}
