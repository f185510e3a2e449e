# kernel-lib.sh: shell functions shared by scripts/kernel-series.sh,
# kernel-docs/validate.sh and kernel-docs/validate-full.sh (sourced, bash).
#
# The kernel work lives in the cache, never in the repository:
#   $KC = ${SECTEAM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/secteam-tui}/kernel-check
#   $KC/src-T-P    the pristine partial tree (scripts/kernel-tree.sh --partial)
#   $KC/repo-T-P   "the cached tree": a hard-linked copy of it with a git
#                  repository.  It tracks MAINTAINERS and every file the series
#                  touches (commit "pristine", tag pristine); the rest of the
#                  working tree is untracked and only read.  The series is
#                  built on its branch kernel-series; kernel-check applies the
#                  committed patches on its branch checked.
# git never writes through the hard links: it replaces the files it changes.

KC_TOP=${KC_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
KC_CACHE=${SECTEAM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/secteam-tui}
KC=$KC_CACHE/kernel-check

# kgit ARGS...: git in the cached tree with no user or system configuration
# (so that nobody's format.* or diff.* settings change the series) and the
# identity in $KC_NAME/$KC_EMAIL.
kgit() {
	GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 git -C "$KC_REPO" \
		-c user.name="${KC_NAME:-kernel-check}" -c user.email="${KC_EMAIL:-kernel-check@localhost}" \
		-c core.abbrev=12 -c advice.detachedHead=false -c core.autocrlf=false \
		-c init.defaultBranch=master "$@"
}

# kc_check_settings: what both kernel checks (validate.sh, validate-full.sh)
# share: make's -j ($JOBS), an environment that gives the same output on
# every machine, and the security documents whose get_maintainer.pl answer
# the series may change ($SECURITY_DOCS, a line each; part of the cache
# keys).
kc_check_settings() {
	JOBS=${KERNEL_CHECK_JOBS:-2}
	export PYTHONDONTWRITEBYTECODE=1 LC_ALL=C.UTF-8 PERL_HASH_SEED=0
	SECURITY_DOCS="Documentation/admin-guide/security-bugs.rst
Documentation/process/embargoed-hardware-issues.rst
Documentation/admin-guide/reporting-issues.rst
Documentation/admin-guide/hw-vuln/"
}

# kc_stages NAME DIGITS: the stage reporting of a check called NAME:
# ok/fail STAGE START [DETAIL] print "NAME: STAGE ok (1.2s) DETAIL" with
# the time since START (a `now`), DIGITS decimals; fail sets FAILED=1;
# die is fail, then the total, then exit 1.  T0 is the check's start.
kc_stages() {
	KC_NAME=$1
	KC_DIGITS=$2
	T0=$(now)
	FAILED=0
}
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" -v d="$KC_DIGITS" 'BEGIN { printf "%.*fs", d, b - a }'; }
ok() { echo "$KC_NAME: $1 ok ($(since "$2"))${3:+ $3}"; }
fail() { echo "$KC_NAME: $1 FAIL ($(since "$2"))${3:+ $3}"; FAILED=1; }
die() {
	fail "$@"
	echo "$KC_NAME: total FAIL ($(since "$T0"))"
	exit 1
}

# kc_lock FILE: one run at a time per cache (the cached tree is switched
# between states); waits, saying so, while another run holds FILE.
kc_lock() {
	exec 9>"$1"
	if ! flock -n 9; then
		echo "$KC_NAME: waiting for another $KC_NAME using $KC"
		flock 9
	fi
}

# kc_hash: the first 16 hex digits of the SHA-256 of stdin.
kc_hash() { sha256sum | cut -c1-16; }

# kc_series_paths PATCHDIR SRCDIR: every path the committed patches and the
# series sources touch, one a line, sorted.
kc_series_paths() {
	cat "$1"/*.patch "$2"/*.in 2>/dev/null |
		sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' | sort -u
}

# kc_repo PRISTINE PATH...: sets KC_REPO to the cached tree made from the
# pristine tree PRISTINE, tracking MAINTAINERS and the PATHs; made (or its
# repository made again) when missing or tracking other paths.  Returns 1
# with a message on stderr on failure.
kc_repo() {
	local pristine=$1 base
	shift
	base=$(basename "$pristine")
	KC_REPO=$KC/repo-${base#src-}
	local want
	want=$(printf '%s\n' MAINTAINERS "$@" | sort -u)
	if [ -f "$KC_REPO.complete" ] && [ -d "$KC_REPO/.git" ] &&
		[ "$(cat "$KC_REPO.tracked" 2>/dev/null)" = "$want" ]; then
		return 0
	fi
	if [ -d "$KC_REPO/.git" ]; then
		# Put the tracked files back as they were, then start again.
		kgit checkout -q -f pristine 2>/dev/null
		rm -rf "$KC_REPO/.git"
	fi
	rm -f "$KC_REPO.complete"
	if [ ! -d "$KC_REPO" ]; then
		rm -rf "$KC_REPO.tmp"
		cp -al "$pristine" "$KC_REPO.tmp" || { echo "cp -al $pristine failed" >&2; return 1; }
		mv "$KC_REPO.tmp" "$KC_REPO"
	fi
	# A file that a patch creates is not in the pristine tree.
	local p track=
	for p in $want; do [ -e "$KC_REPO/$p" ] && track="$track $p"; done
	# shellcheck disable=SC2086 # paths have no spaces
	(
		export GIT_AUTHOR_DATE='1970-01-01T00:00:00Z' GIT_COMMITTER_DATE='1970-01-01T00:00:00Z'
		kgit init -q && kgit add -f --$track &&
			kgit commit -q -m "pristine: $(basename "$pristine")" && kgit tag pristine
	) >"$KC_REPO.log" 2>&1 || { cat "$KC_REPO.log" >&2; return 1; }
	printf '%s\n' "$want" >"$KC_REPO.tracked"
	touch "$KC_REPO.complete"
}

# The identity the committed series carries: make kernel-series signs the
# series with the git identity of whoever runs it, and refuses this one
# (a reserved domain) but with --example, which makes the series a
# reader of the repository sees.  The mails say so in a header of their own.
KC_EXAMPLE_NAME="Example Sender"
KC_EXAMPLE_EMAIL="example-sender@example.org"
KC_EXAMPLE_HEADER="X-Example-Sender: an example identity, not for sending: make kernel-series signs the series with your git identity"

# kc_sender_problem NAME EMAIL: why NAME <EMAIL> cannot send and sign off a
# series (one line), nothing when it can.  Refused: no name or address, a
# placeholder, and an address at a reserved domain (RFC 2606, RFC 6761:
# example.com/.org/.net, .example, .invalid, .test, localhost), where
# replies bounce and a Signed-off-by names nobody.
kc_sender_problem() {
	local name=$1 email=$2 domain lname
	[ -n "$name" ] || { echo "no name"; return; }
	case $email in
	?*@?*.?* | ?*@localhost) ;;
	*) echo "'$email' is not an e-mail address"; return ;;
	esac
	case $email in *[[:space:]\<\>]*) echo "'$email' is not an e-mail address"; return ;; esac
	domain=$(printf '%s' "${email##*@}" | tr '[:upper:]' '[:lower:]')
	domain=${domain%.}
	case $domain in
	example.com | example.org | example.net | *.example.com | *.example.org | *.example.net | \
		example | *.example | invalid | *.invalid | test | *.test | localhost | *.localhost)
		echo "'$email' is at a reserved domain ($domain): replies would bounce and the sign-off names nobody"
		return ;;
	esac
	lname=$(printf '%s' "$name" | tr '[:upper:]' '[:lower:]')
	case $lname in
	"your name" | "first last" | "firstname lastname" | "john doe" | "jane doe" | "name" | "user" | "root" | \
		"example" | "example sender" | "kernel-check" | "mutation")
		echo "'$name' is a placeholder, not a person's name"; return ;;
	esac
	case $(printf '%s' "${email%@*}" | tr '[:upper:]' '[:lower:]') in
	you | your.name | yourname | user | username | root | nobody | noreply | no-reply | example)
		echo "'$email' is a placeholder address"; return ;;
	esac
}
