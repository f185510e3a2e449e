# gpg-env.sh: a throwaway OpenPGP world for tests (sourced, POSIX sh).
#
#   . tests/lib/gpg-env.sh
#   gpg_env_setup "$dir"      # creates the keys below, exports the variables
#   ...
#   gpg_env_teardown "$dir"   # kills the agents and removes $dir
#
# With SECTEAM_GPG_FIXTURE set (scripts/run-tests.sh sets it), the keys
# are not made again but copied from that folder, which gpg_env_fixture
# made once for the whole test run (see there).
#
# Two GnuPG homes (both 0700, offline, no passphrases):
#   $dir/home     the officer's home (GNUPG_OFFICER_HOME): the officer's secret
#                 key plus the public keys the officer would have
#   $dir/senders  everybody else's secret keys (GNUPG_SENDERS_HOME): use it with
#                 tests/lib/mkpgp.py to build mails as the reporter, etc.
# Keys (ed25519 sign + cv25519 encryption subkey), fingerprints exported as:
#   OFFICER_FPR   Security Officer <security@example.org>  ultimately trusted
#   REPORTER_FPR  Rita Reporter <rita@example.net>  certified by the officer
#                                                  (validity full: "valid")
#   STRANGER_FPR  Sam Stranger <sam@example.com>    imported, not certified
#                                                  ("good")
#   MAINTAINER_FPR Mia Maintainer <mia@example.org> certified by the officer
#   VENDOR_FPR    Vic Vendor <vic@vendor.example>   certified by the officer
#   EXPIRED_FPR   Eve Expired <eve@expired.example> made 3 days ago with a
#                 1-day lifetime (gpg --faked-system-time)
#   REVOKED_FPR   Rob Revoked <rob@revoked.example> its revocation certificate
#                 is imported into the officer's home only
#   UNKNOWN_FPR   Uma Unknown <uma@unknown.example> public key never imported
#                 into the officer's home
# Files made while the keys could still sign (gpg can no longer make them):
#   $dir/expired-signed.asc   clear-signed by EXPIRED_FPR while it was valid
#   $dir/revoked-signed.asc   clear-signed by REVOKED_FPR before revocation
# Returns non-zero (and prints gpg's output to stderr) when a step fails.

_gpg_env_gpg() {
	# _gpg_env_gpg HOME ARGS...: gpg in batch mode, quiet unless it fails.
	_h=$1; shift
	if ! _out=$(gpg --homedir "$_h" --batch --no-tty --yes "$@" 2>&1); then
		printf 'gpg_env: gpg %s failed:\n%s\n' "$*" "$_out" >&2
		return 1
	fi
}

_gpg_env_home() {
	mkdir -p "$1" && chmod 700 "$1" || return 1
	cat >"$1/gpg.conf" <<'EOF'
# Offline test home: never fetch or locate keys anywhere.
no-auto-key-retrieve
auto-key-locate local
keyserver-options no-auto-key-retrieve no-honor-keyserver-url
no-greeting
EOF
	cat >"$1/gpg-agent.conf" <<'EOF'
disable-scdaemon
allow-loopback-pinentry
EOF
	cat >"$1/dirmngr.conf" <<'EOF'
disable-http
disable-ldap
EOF
}

_gpg_env_fpr() {
	# _gpg_env_fpr HOME UID: the primary key's fingerprint.
	gpg --homedir "$1" --batch --with-colons --list-keys "=$2" 2>/dev/null |
		awk -F: '$1 == "fpr" { print $10; exit }'
}

_gpg_env_genkey() {
	# _gpg_env_genkey HOME UID EXPIRE [faked-time]: ed25519 + cv25519.
	_t=""
	[ -n "${4:-}" ] && _t="--faked-system-time $4"
	# shellcheck disable=SC2086
	_gpg_env_gpg "$1" $_t --passphrase '' --pinentry-mode loopback \
		--quick-gen-key "$2" future-default default "$3"
}

_gpg_env_move_pub() {
	# _gpg_env_move_pub FROM TO FPR: copies a public key.
	gpg --homedir "$1" --batch --export "$3" >"$1/.export.tmp" &&
		_gpg_env_gpg "$2" --import "$1/.export.tmp" &&
		rm -f "$1/.export.tmp"
}

gpg_env_setup() {
	_d=${1:?gpg_env_setup needs a directory}
	if [ -n "${SECTEAM_GPG_FIXTURE:-}" ]; then
		_gpg_env_copy "$SECTEAM_GPG_FIXTURE" "$_d"
		return
	fi
	mkdir -p "$_d" && chmod 700 "$_d" || return 1
	_o=$_d/home
	_s=$_d/senders
	_gpg_env_home "$_o" || return 1
	_gpg_env_home "$_s" || return 1

	_gpg_env_genkey "$_o" "Security Officer <security@example.org>" never || return 1
	OFFICER_FPR=$(_gpg_env_fpr "$_o" "Security Officer <security@example.org>")

	_gpg_env_genkey "$_s" "Rita Reporter <rita@example.net>" never || return 1
	_gpg_env_genkey "$_s" "Sam Stranger <sam@example.com>" never || return 1
	_gpg_env_genkey "$_s" "Mia Maintainer <mia@example.org>" never || return 1
	_gpg_env_genkey "$_s" "Vic Vendor <vic@vendor.example>" never || return 1
	_gpg_env_genkey "$_s" "Rob Revoked <rob@revoked.example>" never || return 1
	_gpg_env_genkey "$_s" "Uma Unknown <uma@unknown.example>" never || return 1
	_past=$(( $(date +%s) - 3 * 86400 ))
	_gpg_env_genkey "$_s" "Eve Expired <eve@expired.example>" 1d "$_past" || return 1

	REPORTER_FPR=$(_gpg_env_fpr "$_s" "Rita Reporter <rita@example.net>")
	STRANGER_FPR=$(_gpg_env_fpr "$_s" "Sam Stranger <sam@example.com>")
	MAINTAINER_FPR=$(_gpg_env_fpr "$_s" "Mia Maintainer <mia@example.org>")
	VENDOR_FPR=$(_gpg_env_fpr "$_s" "Vic Vendor <vic@vendor.example>")
	REVOKED_FPR=$(_gpg_env_fpr "$_s" "Rob Revoked <rob@revoked.example>")
	UNKNOWN_FPR=$(_gpg_env_fpr "$_s" "Uma Unknown <uma@unknown.example>")
	EXPIRED_FPR=$(_gpg_env_fpr "$_s" "Eve Expired <eve@expired.example>")

	# Signatures that can only be made while the key was still usable.
	printf 'Signed by Eve while her key was valid.\n' >"$_d/expired.txt"
	_gpg_env_gpg "$_s" --faked-system-time "$(( _past + 3600 ))" \
		--local-user "$EXPIRED_FPR" --output "$_d/expired-signed.asc" \
		--clearsign "$_d/expired.txt" || return 1
	printf 'Signed by Rob before his key was revoked.\n' >"$_d/revoked.txt"
	_gpg_env_gpg "$_s" --local-user "$REVOKED_FPR" \
		--output "$_d/revoked-signed.asc" --clearsign "$_d/revoked.txt" ||
		return 1

	# What the officer has: everybody's public key but Uma's.
	for _f in "$REPORTER_FPR" "$STRANGER_FPR" "$MAINTAINER_FPR" "$VENDOR_FPR" \
		"$REVOKED_FPR" "$EXPIRED_FPR"; do
		_gpg_env_move_pub "$_s" "$_o" "$_f" || return 1
	done
	_gpg_env_move_pub "$_o" "$_s" "$OFFICER_FPR" || return 1
	# The revocation certificate gpg wrote at generation time, armed by
	# removing the ":" that guards its armor header.
	sed 's/^:-----BEGIN/-----BEGIN/' "$_s/openpgp-revocs.d/$REVOKED_FPR.rev" \
		>"$_d/revoked.rev" || return 1
	_gpg_env_gpg "$_o" --import "$_d/revoked.rev" || return 1

	# The officer certifies the people whose keys were checked (not Sam).
	printf '%s:6:\n' "$OFFICER_FPR" >"$_d/ownertrust.txt"
	_gpg_env_gpg "$_o" --import-ownertrust "$_d/ownertrust.txt" || return 1
	for _f in "$REPORTER_FPR" "$MAINTAINER_FPR" "$VENDOR_FPR"; do
		_gpg_env_gpg "$_o" --default-key "$OFFICER_FPR" \
			--quick-sign-key "$_f" || return 1
	done
	_gpg_env_gpg "$_o" --check-trustdb || return 1

	_gpg_env_export "$_d"
}

# _gpg_env_export DIR: the variables for DIR's homes (the fingerprints
# set), exported and written to DIR/env.
_gpg_env_export() {
	GNUPG_OFFICER_HOME=$1/home
	GNUPG_SENDERS_HOME=$1/senders
	export OFFICER_FPR REPORTER_FPR STRANGER_FPR MAINTAINER_FPR VENDOR_FPR \
		REVOKED_FPR UNKNOWN_FPR EXPIRED_FPR GNUPG_OFFICER_HOME \
		GNUPG_SENDERS_HOME
	# A file other languages can read: NAME=value lines.
	{
		for _v in OFFICER_FPR REPORTER_FPR STRANGER_FPR MAINTAINER_FPR \
			VENDOR_FPR REVOKED_FPR UNKNOWN_FPR EXPIRED_FPR \
			GNUPG_OFFICER_HOME GNUPG_SENDERS_HOME; do
			eval "printf '%s=%s\n' $_v \"\$$_v\""
		done
	} >"$1/env"
}

# The same world, copied.  A test run makes the keys once
# (gpg_env_fixture) and every test gets its own copy of them: its own
# homes and agents, the same keys and the same files.  Making them costs
# some 25 gpg processes and an agent per home; a copy, a few files.
# gpg_env_fixture DIR: makes DIR as gpg_env_setup does, its agents
# stopped; SECTEAM_GPG_FIXTURE=DIR then makes gpg_env_setup copy it.
gpg_env_fixture() {
	gpg_env_setup "$1" || return 1
	for _h in "$1/home" "$1/senders"; do
		gpgconf --homedir "$_h" --kill all 2>/dev/null
	done
	return 0
}

_gpg_env_copy() { # FIXTURE DIR
	[ -r "$1/env" ] ||
		{ echo "gpg_env: no keys in $1 (gpg_env_fixture makes them)" >&2; return 1; }
	mkdir -p "$2" && chmod 700 "$2" || return 1
	# Everything but the agents' sockets: each copy starts its own.
	(cd "$1" && tar -cf - --exclude='S.*' .) | (cd "$2" && tar -xpf -) ||
		return 1
	for _v in OFFICER_FPR REPORTER_FPR STRANGER_FPR MAINTAINER_FPR \
		VENDOR_FPR REVOKED_FPR UNKNOWN_FPR EXPIRED_FPR; do
		eval "$_v=\$(sed -n 's/^$_v=//p' \"\$1/env\")"
	done
	_gpg_env_export "$2" || return 1
	# Their agents running, as making the keys leaves them: a test that
	# traces a command (strace -f) must not find the agent started, and
	# then followed, inside it.
	for _h in "$2/home" "$2/senders"; do
		gpgconf --homedir "$_h" --launch gpg-agent || return 1
	done
}

gpg_env_teardown() {
	_d=${1:?gpg_env_teardown needs a directory}
	for _h in "$_d/home" "$_d/senders"; do
		[ -d "$_h" ] && gpgconf --homedir "$_h" --kill all 2>/dev/null
	done
	rm -rf "$_d"
}
