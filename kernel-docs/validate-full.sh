#!/bin/bash
# kernel-docs/validate-full.sh: `make kernel-check-full` (not part of
# `make check`: it takes an hour or more on 2 cores).
#
# Runs the 6.1 tree's own documentation checks on the whole tree, before
# and after the series, and records the results in kernel-docs/README.md
# (between the "kernel-check-full" markers):
#   scripts/documentation-file-ref-check, make refcheckdocs,
#   scripts/get_maintainer.pl --self-test,
#   scripts/get_maintainer.pl on each security document,
#   a full `make htmldocs` (no SPHINXDIRS: cross-folder references resolve),
#     its warning and error lines counted.
# It fails when a check gets worse with the series, and when a patch whose
# message quotes `make htmldocs` quotes a line that the full build before
# the series does not print, or that the build after it still prints.
# Everything lives in the cache (kernel-check/full-*), never in the
# repository; the pristine results are kept, so a rerun after a change of
# the series builds the documents once.
# Environment: SECTEAM_CACHE, KERNEL_TARBALL, KERNEL_CHECK_JOBS (default 2).
set -u
umask 022
[ -f kernel-docs/validate-full.sh ] || { echo "kernel-check-full: run from the repository root" >&2; exit 2; }
REPO=$(pwd)
KC_TOP=$REPO
. "$REPO/scripts/kernel-lib.sh"
KD=$REPO/kernel-docs
PATCHES=$KD/patches
README=$KD/README.md
kc_check_settings
mkdir -p "$KC"

kc_stages kernel-check-full 0
kc_lock "$KC/lock-full"

# --- the whole tree, as a git repository (the checks use git grep) -------------
t=$(now)
FULL=$("$REPO/scripts/kernel-tree.sh") || die tree "$t" "scripts/kernel-tree.sh failed"
TK=$(basename "$FULL"); TK=${TK#linux-}
W=$KC/full-$TK
KC_REPO=$W/tree
if [ ! -f "$W/tree.complete" ]; then
	rm -rf "$W" && mkdir -p "$W"
	cp -al "$FULL" "$KC_REPO" || die tree "$t" "cp -al failed"
	(
		export GIT_AUTHOR_DATE='1970-01-01T00:00:00Z' GIT_COMMITTER_DATE='1970-01-01T00:00:00Z'
		kgit init -q && kgit add -A -f && kgit commit -q -m "pristine: linux-$TK" && kgit tag pristine
	) >"$W/tree.log" 2>&1 || { tail "$W/tree.log"; die tree "$t" "git init failed"; }
	touch "$W/tree.complete"
fi
SERIES=$(grep -v '^[[:space:]]*\(#\|$\)' "$PATCHES/series")
SK=$( (cd "$PATCHES" && cat series $SERIES) | kc_hash)
{
	kgit checkout -q -f -B checked pristine &&
	for p in $SERIES; do kgit am -q --whitespace=error-all "$PATCHES/$p" || exit 1; done
} >"$W/apply.log" 2>&1 || { tail "$W/apply.log"; kgit am --abort >/dev/null 2>&1; die tree "$t" "git am failed"; }
TOUCHED=$(kgit diff --name-only pristine checked)
KV=$(sed -n -e 's/^VERSION = //p' -e 's/^PATCHLEVEL = //p' -e 's/^SUBLEVEL = //p' "$FULL/Makefile" | paste -sd.)
ok tree "$t" "the whole tree of linux $KV in git, $(echo "$SERIES" | wc -l) patches applied"

# --- the quick checks, at each state --------------------------------------------
# out/STATE.NAME holds each check's output (stdout and stderr), paths made
# relative to the tree.
quick() { # quick STATE: every check but htmldocs, with the tree at STATE
	local s=$1 o=$W/out
	mkdir -p "$o"
	kgit checkout -q -f "$s" || return 1
	(cd "$KC_REPO" && perl scripts/documentation-file-ref-check) >"$o/$s.ref-check" 2>&1
	(cd "$KC_REPO" && make -s refcheckdocs) >"$o/$s.refcheckdocs" 2>&1
	(cd "$KC_REPO" && perl scripts/get_maintainer.pl --self-test) >"$o/$s.self-test" 2>&1
	local d
	for d in $SECURITY_DOCS $TOUCHED; do
		echo "== $d"
		(cd "$KC_REPO" && perl scripts/get_maintainer.pl --nogit --nogit-fallback -f "$d" 2>&1)
	done >"$o/$s.get_maintainer"
}
t=$(now)
QK=$( { kgit ls-tree -r checked -- MAINTAINERS $TOUCHED; echo "$SECURITY_DOCS"; } | kc_hash)
if [ ! -f "$W/quick-$QK.complete" ]; then
	quick pristine && quick checked || die checks "$t" "git checkout failed"
	touch "$W/quick-$QK.complete"
fi
count() { grep -c "$2" "$W/out/$1" 2>/dev/null || true; }
TABLE="| check | lines before the series | after |
|---|---|---|
| \`scripts/documentation-file-ref-check\` | $(count pristine.ref-check .) | $(count checked.ref-check .) |
| \`make refcheckdocs\` | $(count pristine.refcheckdocs .) | $(count checked.refcheckdocs .) |
| \`scripts/get_maintainer.pl --self-test\` | $(count pristine.self-test .) | $(count checked.self-test .) |"
worse=
# Compared without line numbers: the series moves lines of MAINTAINERS.
nolines() { sed 's/:[0-9][0-9]*:/:/g' "$1" | sort; }
for c in ref-check refcheckdocs self-test; do
	new=$(comm -13 <(nolines "$W/out/pristine.$c") <(nolines "$W/out/checked.$c"))
	[ -z "$new" ] || { worse="$worse $c"; printf '%s\n' "$new" | sed "s/^/    new in $c: /"; }
done
diff "$W/out/pristine.get_maintainer" "$W/out/checked.get_maintainer" | sed 's/^/    get_maintainer.pl: /'
if [ -n "$worse" ]; then fail checks "$t" "new output from:$worse"; else ok checks "$t" "nothing new after the series"; fi

# --- the full make htmldocs, before and after ----------------------------------
htmldocs() { # htmldocs STATE OUT: a full make htmldocs with the tree at STATE
	[ -f "$2.complete" ] && return 0
	rm -rf "$2" && mkdir -p "$2"
	kgit checkout -q -f "$1" || return 1
	(cd "$KC_REPO" && make O="$2" -j"$JOBS" htmldocs) >"$2.log" 2>&1 || return 1
	# The warning lines, paths relative to the tree.
	grep -E 'WARNING|ERROR|CRITICAL|: warning: |: error: ' "$2.log" |
		sed -e "s|$KC_REPO/||g" -e "s|$2/||g" >"$2.warnings"
	touch "$2.complete"
}
t=$(now)
SV=$(sphinx-build --version 2>&1)
HB=$W/htmldocs-pristine-$(echo "$SV" | kc_hash)
HP=$W/htmldocs-$SK-$(echo "$SV" | kc_hash)
htmldocs pristine "$HB" || { tail "$HB.log"; die htmldocs "$t" "make htmldocs failed on the pristine tree"; }
htmldocs checked "$HP" || { tail "$HP.log"; die htmldocs "$t" "make htmldocs failed on the patched tree"; }
kgit checkout -q -f checked
nb=$(grep -c . "$HB.warnings"); np=$(grep -c . "$HP.warnings")
sb=$(grep -cE 'WARNING|ERROR|CRITICAL' "$HB.warnings"); sp=$(grep -cE 'WARNING|ERROR|CRITICAL' "$HP.warnings")
gone=$(comm -23 <(nolines "$HB.warnings") <(nolines "$HP.warnings"))
new=$(comm -13 <(nolines "$HB.warnings") <(nolines "$HP.warnings"))
[ -z "$gone" ] || printf '%s\n' "$gone" | sed 's/^/    gone: /'
[ -z "$new" ] || printf '%s\n' "$new" | sed 's/^/    new: /'
TABLE="$TABLE
| full \`make htmldocs\`: warning and error lines | $nb | $np |
| of which Sphinx (WARNING, ERROR) | $sb | $sp |
| of which kernel-doc (\`warning:\`) | $((nb - sb)) | $((np - sp)) |"
if [ -n "$new" ]; then fail htmldocs "$t" "$(printf '%s\n' "$new" | wc -l) new lines"; else ok htmldocs "$t" "$nb warning lines before the series, $np after"; fi

# --- the quotes of make htmldocs in the patches ---------------------------------
t=$(now)
qbad=0
nq=0
for p in $SERIES; do
	while IFS= read -r q; do
		nq=$((nq + 1))
		grep -qxF -- "$q" "$HB.warnings" || { echo "    $p quotes a line the build before does not print: $q"; qbad=1; }
		grep -qxF -- "$q" "$HP.warnings" && { echo "    $p quotes a line the build after still prints: $q"; qbad=1; }
	done < <(sed -n 's/^  \(Documentation\/[^ ]*:[0-9]*: \(WARNING\|ERROR\): .*\)$/\1/p' "$PATCHES/$p")
done
if [ "$qbad" = 0 ]; then ok quotes "$t" "$nq quoted make htmldocs lines: printed before the series, not after"; else fail quotes "$t"; fi

# --- the README ----------------------------------------------------------------
{
	echo "<!-- kernel-check-full: begin (written by make kernel-check-full) -->"
	echo "Measured by \`make kernel-check-full\` on linux $KV, $(date -u +%Y-%m-%d), $SV:"
	echo
	printf '%s\n' "$TABLE"
	echo
	if [ -n "$gone" ]; then
		echo "Lines of the full \`make htmldocs\` that the series removes:"
		echo
		printf '%s\n' "$gone" | sed 's/^/    /'
		echo
	fi
	echo "<!-- kernel-check-full: end -->"
} >"$W/readme-part"
if grep -q '^<!-- kernel-check-full: begin' "$README"; then
	awk -v part="$W/readme-part" '
		/^<!-- kernel-check-full: begin/ { while ((getline l < part) > 0) print l; skip = 1; next }
		/^<!-- kernel-check-full: end/ { skip = 0; next }
		!skip' "$README" >"$W/readme.new" && cat "$W/readme.new" >"$README"
	echo "kernel-check-full: README.md updated"
else
	echo "kernel-check-full: no markers in kernel-docs/README.md; the results:"
	cat "$W/readme-part"
fi
if [ "$FAILED" = 0 ]; then echo "kernel-check-full: total ok ($(since "$T0"))"; exit 0; fi
echo "kernel-check-full: total FAIL ($(since "$T0"))"
exit 1
