#!/bin/sh
# Installs the Debian packages secteam-tui needs to build, run and test.
# As root it runs apt-get; otherwise sudo; when neither works it prints the
# exact command to run.  --quiet: only act when something is missing.
#   scripts/deps.sh [--quiet] [run|check]
# run: what building and the demo team need (make run); check (the
# default): also the test peers, fuzzing, memory checkers and the kernel,
# then the npm validators into the cache (scripts/npm-validators.sh).
set -u
quiet=""
[ "${1:-}" = "--quiet" ] && { quiet=1; shift; }
level=${1:-check}
# build, and the demo (python3 builds its mails)
PKGS="build-essential pkg-config libgpgme-dev libgmime-3.0-dev libjansson-dev
libical-dev libpcre2-dev libncurses-dev libsqlite3-dev libpq-dev libcmocka-dev libgit2-dev
libsodium-dev libkeyutils-dev libassuan-dev
gnupg gpg-agent python3"
if [ "$level" = check ]; then
# tests: peers and parsers that check our output, fuzzing, memory checkers
PKGS="$PKGS clang-format tmux jq sqop calcurse sqlite3 clang libclang-rt-14-dev valgrind bc
python3 python3-icalendar python3-jsonschema perl"
# the CSAF validator (npm, installed into the cache by npm-validators.sh)
PKGS="$PKGS nodejs npm"
# the team server's tests start a throwaway PostgreSQL of their own
PKGS="$PKGS postgresql"
# the kernel series: the tree, its build, its docs, and QEMU to boot it
# (linux-source-6.12: upstream's own security-bugs.rst, which the expectations
# of the 6.1 series must hold for)
PKGS="$PKGS linux-source-6.1 linux-source-6.12 flex bison libelf-dev libssl-dev cpio
qemu-system-x86 busybox-static python3-sphinx python3-sphinx-rtd-theme"
fi
[ -n "${SECTEAM_EXTRA_PKGS:-}" ] && PKGS="$PKGS $SECTEAM_EXTRA_PKGS"

# After the packages, at the check level: the npm validators.
npm_validators() {
	[ "$level" = check ] || return 0
	sh "$(dirname "$0")/npm-validators.sh" ${quiet:+--quiet}
}

missing=""
for p in $PKGS; do
	# NodeSource's nodejs provides npm (and conflicts with Debian's).
	[ "$p" = npm ] && command -v npm >/dev/null 2>&1 && continue
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
if [ -z "$missing" ]; then
	[ -n "$quiet" ] || echo "deps: all packages present"
	npm_validators
	exit
fi
cmd="apt-get install -y --no-install-recommends$missing"
# The tests start PostgreSQL servers of their own and stop them: a first
# install must not create and start Debian's default cluster on port 5432
# (postgresql-common reads this file before making it).
nocluster() {
	case " $missing " in *" postgresql "*) ;; *) return 0 ;; esac
	[ -e /etc/postgresql-common/createcluster.conf ] && return 0
	$1 mkdir -p /etc/postgresql-common &&
		echo "create_main_cluster = false" | $1 tee /etc/postgresql-common/createcluster.conf >/dev/null
}
if [ "$(id -u)" = 0 ]; then
	echo "deps: installing$missing" >&2
	nocluster ""
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends -o Dpkg::Options::=--force-confold $missing >&2 &&
		{ npm_validators; exit; }
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	echo "deps: installing$missing (sudo)" >&2
	nocluster sudo
	sudo DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 &&
		sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends -o Dpkg::Options::=--force-confold $missing >&2 &&
		{ npm_validators; exit; }
fi
echo "deps: missing packages:$missing" >&2
echo "deps: run as root:  apt-get update && $cmd" >&2
exit 1
