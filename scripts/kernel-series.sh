#!/bin/bash
# kernel-series.sh [--check|--example]: `make kernel-series`, the kernel
# patch series made from its sources.
#
# Each kernel-docs/series/NN-*.in is one commit on the branch kernel-series
# of the cached tree (scripts/kernel-lib.sh), made on top of the pristine
# tree.  Then git format-patch writes kernel-docs/patches/ (and
# patches/series, the patches in order), with a cover letter only when
# kernel-docs/series/cover exists (its branch description).  The mails
# are addressed as a stable tree ($STABLE) takes them: To: the stable list;
# Cc: whom scripts/get_maintainer.pl of the pristine tree (never the
# patched one: a series must not address itself) names for the series, the
# security contact among them, and a source's Cc: headers (the upstream
# author of a backport).
#
# Who sends the series signs it off: the author of the commits and their
# Signed-off-by are `git config user.name` and `user.email` (this
# repository's, else the global ones) of whoever runs it; a placeholder or
# an address at a reserved domain is refused (kc_sender_problem).  A
# backported patch keeps its author and author date (Author:,
# Author-Date:, also written in the mail's body, which git send-email
# would otherwise re-date); the sender's sign-off is added after the
# original ones, as stable backports do.  Otherwise the date is now.
# --example: signed with the example identity of kernel-lib.sh instead, and
# marked so in every mail: the series committed in the repository.
#
# A source file holds mail-like headers, a blank line, the commit message,
# a line "---" and the diff (as `git diff` prints it):
#   Subject: the summary line
#   Author: Name <address>        only for a backport: its original author
#   Author-Date: RFC 2822 date    the same
#   Command: CMD                  the check whose output the message quotes
#   Cc: Name <address>            also Cc'ed on the mails (repeatable)
#   Upstream: SHA                 the upstream commit (its full id) of a
#                                 backport: the message's line "commit SHA
#                                 upstream." must name it
#   Pre-Image: PATH BLOB          the blob of PATH before the series, and
#   Post-Image: PATH BLOB         after it, as upstream's commit has them
#                                 (make kernel-check verifies both)
# and "#" lines, comments (where the pinned values come from).
# In the message, a line "@BEFORE@" or "@AFTER@" (with leading blanks) is
# replaced by the output of CMD, run with bash at the top of the tree
# before and after the change, each line indented as the placeholder;
# "@SIGNOFF@" is where the sender's Signed-off-by goes (else it is added at
# the end).  CMD must print something different after the change.  A
# message without placeholders quotes output recorded elsewhere (the full
# `make htmldocs`, which `make kernel-check-full` checks).
#
# --check: make the series again, with the sender and the date of the
# committed first mail, into a temporary directory and compare it with
# kernel-docs/patches byte for byte; exits 1 and shows the difference when
# they drift apart.  Part of `make kernel-check`.
set -u
umask 022
. "$(dirname "$0")/kernel-lib.sh"
SRC=$KC_TOP/kernel-docs/series
PATCHES=$KC_TOP/kernel-docs/patches
SUBJECT_PREFIX="PATCH 6.1"
# 6.1 is a stable tree: its patches go to the stable list
# (Documentation/process/stable-kernel-rules.rst), each with a line
# "commit <sha> upstream." (checked below).
STABLE=stable@vger.kernel.org
check=
example=
case ${1:-} in
--check) check=1 ;;
--example) example=1 ;;
'') ;;
*) echo "usage: kernel-series.sh [--check|--example]" >&2; exit 2 ;;
esac
die() { echo "kernel-series: $*" >&2; exit 1; }
export LC_ALL=C PERL_HASH_SEED=0 PYTHONDONTWRITEBYTECODE=1

# --- who and when ------------------------------------------------------------
if [ -n "$check" ]; then
	first=$(ls "$PATCHES"/0*.patch 2>/dev/null | head -n 1)
	[ -n "$first" ] || die "no committed patches in kernel-docs/patches (run make kernel-series)"
	# The headers as Python's email package reads them (folded lines).
	hdr=$(python3 -c '
import email, email.policy, sys
with open(sys.argv[1], encoding="utf-8") as f:
    m = email.message_from_file(f, policy=email.policy.default)
a = m["From"].addresses[0]
print(a.display_name); print(a.addr_spec); print(str(m["Date"]))
print("example" if m["X-Example-Sender"] else "")' "$first") || die "cannot read $first"
	KC_NAME=$(sed -n 1p <<<"$hdr")
	KC_EMAIL=$(sed -n 2p <<<"$hdr")
	KC_DATE=$(sed -n 3p <<<"$hdr")
	[ "$(sed -n 4p <<<"$hdr")" = example ] && example=1
	[ -n "$KC_NAME" ] && [ -n "$KC_EMAIL" ] && [ -n "$KC_DATE" ] ||
		die "$first: no From: or Date: header"
elif [ -n "$example" ]; then
	KC_NAME=$KC_EXAMPLE_NAME
	KC_EMAIL=$KC_EXAMPLE_EMAIL
	KC_DATE=$(date -R)
else
	KC_NAME=$(git -C "$KC_TOP" config user.name) ||
		die "no git config user.name: the sender signs the series off (git config user.name 'Your Name')"
	KC_EMAIL=$(git -C "$KC_TOP" config user.email) ||
		die "no git config user.email: the sender signs the series off (git config user.email you@your.domain)"
	why=$(kc_sender_problem "$KC_NAME" "$KC_EMAIL")
	[ -z "$why" ] || die "the sender, $KC_NAME <$KC_EMAIL> (git config user.name and user.email), cannot sign the series off: $why; set your own with git config user.name and git config user.email (or make the repository's example with scripts/kernel-series.sh --example)"
	KC_DATE=$(date -R)
fi
SIGNOFF="Signed-off-by: $KC_NAME <$KC_EMAIL>"

# --- the cached tree -----------------------------------------------------------
# One user of the cached tree at a time (make kernel-check holds the lock
# already when it runs --check).
if [ -z "${KC_LOCKED:-}" ]; then
	mkdir -p "$KC"
	exec 9>"$KC/lock"
	flock -n 9 || { echo "kernel-series: waiting for the kernel-check using $KC" >&2; flock 9; }
fi
ls "$SRC"/*.in >/dev/null 2>&1 || die "no sources in kernel-docs/series"
PRISTINE=$("$KC_TOP/scripts/kernel-tree.sh" --partial) || die "scripts/kernel-tree.sh --partial failed"
# shellcheck disable=SC2046
kc_repo "$PRISTINE" $(kc_series_paths "$PATCHES" "$SRC") || die "cannot make the cached tree"
export KC_NAME KC_EMAIL

WORK=$(mktemp -d "${TMPDIR:-/tmp}/kernel-series.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
kgit checkout -q -f -B kernel-series pristine || die "git checkout failed in $KC_REPO"

# field NAME FILE: the value of header NAME in the source FILE.
field() { sed -n "1,/^\$/s/^$1: //p" "$2" | head -n 1; }

# run_cmd CMD OUT: CMD at the top of the cached tree, stdout in OUT.
run_cmd() {
	(cd "$KC_REPO" && bash -c "$1") >"$2" 2>"$2.err" ||
		die "'$1' failed in $KC_REPO: $(head -c 300 "$2.err")"
}

# fill MSG BEFORE AFTER: MSG with the placeholders replaced.
fill() {
	awk -v before="$2" -v after="$3" -v signoff="$SIGNOFF" '
	function quote(file, indent,   line, n) {
		n = 0
		while ((getline line < file) > 0) { print (line == "" ? "" : indent line); n++ }
		close(file)
		if (!n) print indent "(no output)"
	}
	/^[ \t]*@BEFORE@[ \t]*$/ { match($0, /^[ \t]*/); quote(before, substr($0, 1, RLENGTH)); next }
	/^[ \t]*@AFTER@[ \t]*$/ { match($0, /^[ \t]*/); quote(after, substr($0, 1, RLENGTH)); next }
	/^@SIGNOFF@$/ { print signoff; signed = 1; next }
	{ print }
	END { if (!signed) { print ""; print signoff } }' "$1"
}

: >"$WORK/cc-extra"
n=0
for src in "$SRC"/*.in; do
	n=$((n + 1))
	name=$(basename "$src")
	subject=$(field Subject "$src")
	[ -n "$subject" ] || die "$name: no Subject: header"
	cmd=$(field Command "$src")
	author=$(field Author "$src")
	adate=$(field Author-Date "$src")
	upstream=$(field Upstream "$src")
	# The message: after the headers, up to the line "---"; the diff after it.
	awk 'h && /^---$/ { exit } h { print } /^$/ { h = 1 }' "$src" >"$WORK/msg"
	awk 'd { print } /^---$/ { d = 1 }' "$src" >"$WORK/diff"
	[ -s "$WORK/diff" ] || die "$name: no diff after the line ---"
	if [ -n "$STABLE" ]; then
		grep -Eq '^commit [0-9a-f]{12,40} upstream\.$' "$WORK/msg" ||
			die "$name: a patch for a stable tree needs a line 'commit <sha> upstream.'"
	fi
	if [ -n "$upstream" ]; then
		[[ $upstream =~ ^[0-9a-f]{40}$ ]] || die "$name: Upstream: '$upstream' is not a full commit id"
		grep -qx "commit $upstream upstream\." "$WORK/msg" ||
			die "$name: the message's line 'commit <sha> upstream.' does not name Upstream: $upstream"
		[ -n "$author" ] && [ -n "$adate" ] || die "$name: a backport (Upstream:) needs Author: and Author-Date:"
	fi
	sed -n '1,/^$/s/^Cc: //p' "$src" >>"$WORK/cc-extra"
	live=
	grep -Eq '^[[:space:]]*@(BEFORE|AFTER)@[[:space:]]*$' "$WORK/msg" && live=1
	if [ -n "$live" ]; then
		[ -n "$cmd" ] || die "$name: @BEFORE@/@AFTER@ but no Command: header"
		run_cmd "$cmd" "$WORK/before"
	fi
	kgit apply --index --whitespace=error-all "$WORK/diff" 2>"$WORK/apply.err" ||
		die "$name: the diff does not apply: $(head -c 300 "$WORK/apply.err")"
	if [ -n "$live" ]; then
		run_cmd "$cmd" "$WORK/after"
		cmp -s "$WORK/before" "$WORK/after" &&
			die "$name: '$cmd' prints the same before and after the change"
	else
		: >"$WORK/before"; : >"$WORK/after"
	fi
	{ printf '%s\n\n' "$subject"; fill "$WORK/msg" "$WORK/before" "$WORK/after"; } >"$WORK/commit-msg"
	(
		export GIT_COMMITTER_DATE="$KC_DATE"
		export GIT_AUTHOR_DATE="${adate:-$KC_DATE}"
		if [ -n "$author" ]; then
			export GIT_AUTHOR_NAME="${author% <*}"
			a=${author##*<}; export GIT_AUTHOR_EMAIL="${a%>}"
		fi
		kgit commit -q --no-verify --cleanup=whitespace -F "$WORK/commit-msg"
	) || die "$name: git commit failed"
done

# --- the mails -------------------------------------------------------------------
cover=()
if [ -f "$SRC/cover" ]; then
	kgit config branch.kernel-series.description "$(cat "$SRC/cover")"
	cover=(--cover-letter --cover-from-description=subject)
fi
marked=()
[ -z "$example" ] || marked=("--add-header=$KC_EXAMPLE_HEADER")
fp() {
	kgit format-patch -q "${cover[@]}" "${marked[@]}" \
		--zero-commit --no-signature --subject-prefix="$SUBJECT_PREFIX" \
		--from="$KC_NAME <$KC_EMAIL>" "$@" pristine..kernel-series
}
mkdir -p "$WORK/draft" "$WORK/out"
GIT_COMMITTER_DATE="$KC_DATE" fp -o "$WORK/draft" || die "git format-patch failed"
# get_maintainer.pl of the pristine tree, where the patches would be applied
gm() { (cd "$PRISTINE" && perl scripts/get_maintainer.pl --nogit --nogit-fallback --norolestats "$@" \
	"$WORK"/draft/0*.patch 2>"$WORK/gm.err") || die "get_maintainer.pl failed: $(head -c 300 "$WORK/gm.err")"; }
# a stable patch goes to the stable list, everyone else in Cc (the
# security contact's private list among them: it is told, not asked);
# without a stable list the maintainers are in To
if [ -n "$STABLE" ]; then
	to=$STABLE
	cc=$( { sort -u "$WORK/cc-extra"; gm --nol; gm --nom --nor; } | awk '!seen[$0]++')
else
	to=$(gm --nol)
	cc=$( { sort -u "$WORK/cc-extra"; gm --nom --nor; } | awk '!seen[$0]++')
fi
[ -n "$(gm --nol)" ] || die "get_maintainer.pl names nobody for the series"
args=()
while IFS= read -r a; do [ -n "$a" ] && args+=("--to=$a"); done <<<"$to"
while IFS= read -r a; do [ -n "$a" ] && args+=("--cc=$a"); done <<<"$cc"
GIT_COMMITTER_DATE="$KC_DATE" fp "${args[@]}" -o "$WORK/out" || die "git format-patch failed"
# A backport's author date in its body too, after the in-body From: (git am
# takes both from there; git send-email re-dates the mail's own Date:).
n=0
for src in "$SRC"/*.in; do
	n=$((n + 1))
	adate=$(field Author-Date "$src")
	[ -n "$adate" ] || continue
	f=$(ls "$WORK"/out/"$(printf '%04d' "$n")"-*.patch) || die "no mail for $(basename "$src")"
	awk -v d="$adate" '!done && /^From: / && hdr_done { print; print "Date: " d; done = 1; next }
		/^$/ { hdr_done = 1 } { print }' "$f" >"$f.new" && mv "$f.new" "$f"
	grep -qx "Date: $adate" "$f" || die "$(basename "$src"): no in-body From: to date"
done
n=$(ls "$SRC"/*.in | wc -l)
for f in "$WORK"/out/0*.patch; do
	case ${f##*/} in 0000-cover-letter.patch) ;; *) echo "${f##*/}" ;; esac
done >"$WORK/out/series"

if [ -n "$check" ]; then
	if diff -r "$PATCHES" "$WORK/out" >"$WORK/drift" 2>&1; then
		echo "kernel-docs/patches is what make kernel-series makes ($n patches, sent by $KC_NAME <$KC_EMAIL>${example:+, the example identity})"
		exit 0
	fi
	echo "kernel-docs/patches drifted from what make kernel-series makes:" >&2
	head -n 40 "$WORK/drift" | sed 's/^/  /' >&2
	echo "run make kernel-series and commit kernel-docs/patches" >&2
	exit 1
fi
rm -f "$PATCHES"/*.patch "$PATCHES/series"
mkdir -p "$PATCHES"
cp "$WORK"/out/* "$PATCHES"/
echo "kernel-docs/patches: $n patches${cover:+ and a cover letter}, from $KC_NAME <$KC_EMAIL>${example:+ (the example identity)}, branch kernel-series of $KC_REPO"
