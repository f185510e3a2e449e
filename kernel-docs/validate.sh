#!/bin/bash
# kernel-docs/validate.sh BUILD_DIR: `make kernel-check` (part of `make check`).
#
# Checks the kernel patch series in kernel-docs/patches against Debian's
# linux-source-6.1, then boots a kernel in QEMU (software emulation) with
# the patched tree's files in its initrd, and checks inside the guest what
# kernel-docs/expectations.txt says the documents must say and who reports
# must reach: facts written independently of the series.  The same checks
# on the pristine tree, in the same guest, are the control: they must fail
# somewhere (the expectations see what the series changes).  Run from the
# repository root; BUILD_DIR holds the built secteam-tui.  One line per
# stage with its time:
#   deps        the tools it needs (apt-get install when root and missing)
#   tree        the pristine tree, partly unpacked (scripts/kernel-tree.sh
#               --partial), and the list of every file of the whole tree
#   series      kernel-docs/patches is what `make kernel-series` makes
#   apply       git am of the committed patches on the pristine tree; a
#               patch that does not apply is named with git's reason, the
#               am aborted and the cached tree left as it was
#   pin         the pristine and the patched files are upstream's blobs
#               before and after its commit (the sources' Pre-Image:,
#               Post-Image:)
#   mail        the mails as stable reads them (kernel-docs/mailcheck.py)
#   checkpatch  scripts/checkpatch.pl --strict: no error, no warning
#   maintainers get_maintainer.pl before and after the series on the security
#               documents and the files the series touches: nobody is lost
#   kernel      tinyconfig + qemu/kernel.config, built once (the series may
#               change only documentation, so one kernel serves every series)
#   sphinx      make SPHINXDIRS=... htmldocs of the touched folders: no new
#               warning, and the new text is in the HTML (runs beside the
#               kernel build)
#   initramfs   busybox, secteam-tui and its libraries, the checks, the
#               expectations, the patched and the pristine tree's files
#   boot        the kernel with that initrd
#   guest       every check passes on the patched tree
#   upstream    the expectations of the files that upstream has (their
#               "upstream" lines) hold for upstream's own files, from
#               linux-source-6.12
#   control     the same checks on the pristine tree: some fail, and it
#               says none of the rules the series brings ("rule" lines)
# Everything it builds lives in the cache, never in the repository:
#   ${SECTEAM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/secteam-tui}/kernel-check
# and is keyed by what it was made from, so a rerun takes seconds.
# Environment: SECTEAM_CACHE, KERNEL_TARBALL (see scripts/kernel-tree.sh),
# KERNEL_CHECK_JOBS (make -j, default 2), KERNEL_CHECK_BOOT_TIMEOUT
# (default 180 s), KERNEL_CHECK_PATCHES (the series to check, default
# kernel-docs/patches), and, each =0 to switch a stage off:
# KERNEL_CHECK_SERIES, KERNEL_CHECK_PIN, KERNEL_CHECK_MAIL,
# KERNEL_CHECK_CHECKPATCH, KERNEL_CHECK_MAINTAINERS, KERNEL_CHECK_SPHINX,
# KERNEL_CHECK_CONTROL; KERNEL_CHECK_RUN, where the run's logs and console
# go (default $KC/run, emptied first).  The guest cannot be switched off;
# tests/kernel/mutations.sh runs it alone on wrong series, and stops after
# the host stages (KERNEL_CHECK_HOST_ONLY=1) for wrong mails.
set -u
umask 022

BUILD=${1:?usage: kernel-docs/validate.sh BUILD_DIR}
[ -f kernel-docs/validate.sh ] || { echo "kernel-check: run from the repository root" >&2; exit 2; }
REPO=$(pwd)
BUILD=$(cd "$BUILD" 2>/dev/null && pwd) || { echo "kernel-check: no build directory $1" >&2; exit 1; }
KC_TOP=$REPO
. "$REPO/scripts/kernel-lib.sh"
KD=$REPO/kernel-docs
PATCHES=${KERNEL_CHECK_PATCHES:-$KD/patches}
PATCHES=$(cd "$PATCHES" 2>/dev/null && pwd) || { echo "kernel-check: no patch directory ${KERNEL_CHECK_PATCHES:-}" >&2; exit 1; }
FRAGMENT=$KD/qemu/kernel.config
EXPECTATIONS=$KD/expectations.txt
BOOT_TIMEOUT=${KERNEL_CHECK_BOOT_TIMEOUT:-180}
on() { [ "$(eval echo "\${KERNEL_CHECK_$1:-1}")" != 0 ]; }
kc_check_settings
mkdir -p "$KC"
RUN=${KERNEL_CHECK_RUN:-$KC/run}

kc_stages kernel-check 1
log_tail() { [ -f "$1" ] && tail -n "${2:-15}" "$1" | sed 's/^/    /'; }
# The kernel, Sphinx and file-list lanes run in the background; on an early
# exit they are stopped, with every process they started.
LANES=
kill_tree() { local c; for c in $(pgrep -P "$1"); do kill_tree "$c"; done; kill "$1" 2>/dev/null; }
cleanup() { local p; for p in $LANES; do kill_tree "$p"; done; }
trap cleanup EXIT

kc_lock "$KC/lock"
export KC_LOCKED=1 # for scripts/kernel-series.sh --check
rm -rf "$RUN" && mkdir -p "$RUN"

# --- deps --------------------------------------------------------------------
t=$(now)
PKGS="linux-source-6.1 linux-source-6.12 qemu-system-x86 busybox-static python3-sphinx
python3-sphinx-rtd-theme flex bison bc libelf-dev libssl-dev cpio gcc make
perl git xz-utils python3"
# shellcheck disable=SC2086 # one query for all of them
missing=$(dpkg-query -W -f='${Package} ${Status}\n' $PKGS 2>/dev/null | awk '/ ok installed$/ { print $1 }' |
	awk 'NR == FNR { have[$1]; next } !($1 in have) { printf " %s", $1 }' - <(printf '%s\n' $PKGS))
if [ -n "$missing" ]; then
	if [ "$(id -u)" = 0 ]; then
		export DEBIAN_FRONTEND=noninteractive
		# shellcheck disable=SC2086
		apt-get install -y -qq $missing >"$KC/apt.log" 2>&1 ||
			{ apt-get update -qq >>"$KC/apt.log" 2>&1 &&
			  apt-get install -y -qq $missing >>"$KC/apt.log" 2>&1; } ||
			{ log_tail "$KC/apt.log"; die deps "$t" "apt-get install$missing failed"; }
	else
		die deps "$t" "missing:$missing (run as root or apt-get install them)"
	fi
fi
BUSYBOX=/bin/busybox
ldd "$BUSYBOX" >/dev/null 2>&1 && die deps "$t" "$BUSYBOX is not static (busybox-static)"
[ -x "$BUILD/secteam-tui" ] || die deps "$t" "no $BUILD/secteam-tui (make all)"
ok deps "$t" "${missing:+installed$missing}"

# --- tree --------------------------------------------------------------------
t=$(now)
cached=1
PRISTINE=$("$REPO/scripts/kernel-tree.sh" --partial 2>"$RUN/tree.log") ||
	{ log_tail "$RUN/tree.log"; die tree "$t" "scripts/kernel-tree.sh --partial failed"; }
grep -q unpacking "$RUN/tree.log" && cached=
KV=$(sed -n -e 's/^VERSION = //p' -e 's/^PATCHLEVEL = //p' -e 's/^SUBLEVEL = //p' "$PRISTINE/Makefile" | paste -sd.)
BASE=$(basename "$PRISTINE")
TK=${BASE#src-}
if [ -n "$cached" ]; then cached="(cached)"; else cached="($(du -sm "$PRISTINE" | cut -f1) MB unpacked)"; fi
# The list of every file of the whole tree, for the guest's MAINTAINERS
# pattern check: the tarball read once more (beside the kernel build).
( "$REPO/scripts/kernel-tree.sh" --files >"$RUN/files.path" 2>"$RUN/files.log"; echo $? >"$RUN/files.rc" ) &
FILES_LANE=$!
LANES="$LANES $FILES_LANE"
# Upstream's own files, for the expectations' "upstream" lines: each file
# out of the tarball of the Debian package named (linux-source-6.12, which
# has upstream's change), cached by the tarball and the path (a tarball
# read once, beside the kernel build).
: >"$RUN/upstream.map"
upstream_lane() {
	local f pkg path tb key dir
	while read -r f pkg path; do
		tb=/usr/src/$pkg.tar.xz
		[ -r "$tb" ] || { echo "no $tb (apt-get install $pkg)" >"$RUN/upstream.err"; return 1; }
		key=$(echo "$tb $(stat -c '%s %Y' "$tb") $path" | kc_hash)
		dir=$KC/upstream-$key
		if [ ! -f "$dir.complete" ]; then
			rm -rf "$dir" && mkdir -p "$dir" &&
				tar -xJf "$tb" -C "$dir" --strip-components=1 --wildcards "*/$path" 2>"$RUN/upstream.err" &&
				[ -f "$dir/$path" ] || { echo "$path is not in $tb: $(head -c 200 "$RUN/upstream.err")" >"$RUN/upstream.err"; return 1; }
			touch "$dir.complete"
		fi
		echo "$f $dir/$path $pkg $(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) $path" >>"$RUN/upstream.map"
	done <<<"$(awk '$1 == "file" { f = $2 } $1 == "upstream" && NF == 3 { print f, $2, $3 }' "$EXPECTATIONS")"
}
( upstream_lane; echo $? >"$RUN/upstream.rc" ) &
UPSTREAM_LANE=$!
LANES="$LANES $UPSTREAM_LANE"
ok tree "$t" "linux $KV, partial tree $cached"

# --- series ------------------------------------------------------------------
t=$(now)
if ! on SERIES; then
	echo "kernel-check: series skipped (KERNEL_CHECK_SERIES=0)"
elif [ "$PATCHES" != "$KD/patches" ]; then
	echo "kernel-check: series skipped (KERNEL_CHECK_PATCHES: not the generated series)"
elif "$REPO/scripts/kernel-series.sh" --check >"$RUN/series.log" 2>&1; then
	ok series "$t" "$(tail -n 1 "$RUN/series.log")"
else
	sed 's/^/    /' "$RUN/series.log" | head -n 45
	fail series "$t" "the committed patches are not what make kernel-series makes"
fi

# --- apply -------------------------------------------------------------------
t=$(now)
[ -f "$PATCHES/series" ] || die apply "$t" "no $PATCHES/series"
SERIES=$(grep -v '^[[:space:]]*\(#\|$\)' "$PATCHES/series")
[ -n "$SERIES" ] || die apply "$t" "empty series"
for p in $SERIES; do
	[ -f "$PATCHES/$p" ] || die apply "$t" "series names a missing patch: $p"
done
# shellcheck disable=SC2046
kc_repo "$PRISTINE" $(kc_series_paths "$PATCHES" "$KD/series") 2>"$RUN/repo.log" ||
	{ log_tail "$RUN/repo.log"; die apply "$t" "cannot make the cached tree"; }
R=$KC_REPO
# A run stopped in the middle of git am (killed, or before am was aborted
# on failure) leaves the am behind: every later am would refuse to start.
[ ! -d "$R/.git/rebase-apply" ] || kgit am --abort >>"$RUN/apply.log" 2>&1 ||
	{ log_tail "$RUN/apply.log"; die apply "$t" "an earlier git am in $R cannot be aborted"; }
# The branch checked as it was, put back when a patch does not apply: the
# cached tree is left as this run found it.
prev=$(kgit rev-parse -q --verify refs/heads/checked)
kgit checkout -q -f -B checked pristine >>"$RUN/apply.log" 2>&1 ||
	{ log_tail "$RUN/apply.log"; die apply "$t" "git checkout of the pristine tree failed in $R"; }
for p in $SERIES; do
	kgit am -q --whitespace=error-all "$PATCHES/$p" >"$RUN/apply.log" 2>&1 && continue
	# git's reason: its error lines, not its advice on how to go on
	reason=$(grep -v -e '^hint:' -e '^Patch failed at' -e '^The copy of the patch' -e '^When you have resolved' \
		-e '^If you prefer to skip' -e '^To restore the original' -e '^Use .git am --show' "$RUN/apply.log" |
		grep . | head -n 3 | paste -sd';' | sed 's/;/; /g')
	kgit am --abort >>"$RUN/apply.log" 2>&1
	if [ -n "$prev" ]; then kgit checkout -q -f -B checked "$prev"; else kgit checkout -q -f --detach pristine && kgit branch -q -D checked; fi >>"$RUN/apply.log" 2>&1
	state="am aborted, cached tree as before"
	{ [ -d "$R/.git/rebase-apply" ] || [ -n "$(kgit status --porcelain --untracked-files=no)" ]; } &&
		state="the cached tree could NOT be put back ($R)"
	die apply "$t" "$p does not apply: ${reason:-git am failed}; $state"
done
TOUCHED=$(kgit diff --name-only pristine checked)
same=
kgit rev-parse -q --verify kernel-series >/dev/null &&
	kgit diff --quiet kernel-series checked && same=", the same tree as branch kernel-series"
for f in $TOUCHED; do
	# git replaced the files it patched: the pristine tree is unchanged.
	[ "$R/$f" -ef "$PRISTINE/$f" ] && die apply "$t" "$f is shared with the pristine tree"
	case $f in
	MAINTAINERS | Documentation/*) ;;
	*) die apply "$t" "$f is not documentation: the kernel would differ from the one built once" ;;
	esac
done
ok apply "$t" "$(echo "$SERIES" | wc -l) patches on linux $KV (git am; branch checked$same); touched: $(echo $TOUCHED)"

# --- pin ---------------------------------------------------------------------
# The backport's text is upstream's: the sources pin the blob of each file
# before upstream's commit (Pre-Image:) and after it (Post-Image:), with
# where the ids come from.  The pristine file must be upstream's pre-image
# (else the series is for another text) and the patched one its
# post-image: a change of meaning, spacing or wording fails here.
t=$(now)
if on PIN; then
	pins=$(sed -n '1,/^$/s/^\(Pre\|Post\)-Image: /\1 /p' "$KD/series"/*.in)
	if [ -z "$pins" ]; then
		fail pin "$t" "no Pre-Image:/Post-Image: in kernel-docs/series"
	else
		pin_bad=
		pin_ok=
		while read -r kind path blob; do
			if [ "$kind" = Pre ]; then
				got=$(git hash-object --no-filters "$PRISTINE/$path" 2>/dev/null)
				what="the pristine $path"
			else
				got=$(kgit rev-parse -q --verify "checked:$path")
				what="$path after the series"
			fi
			if [ "$got" = "$blob" ]; then
				pin_ok="$pin_ok ${kind,,}-image ${blob:0:12}"
			else
				pin_bad="$pin_bad; $what is blob ${got:-(none)}, not upstream's ${kind,,}-image $blob"
			fi
		done <<<"$pins"
		if [ -n "$pin_bad" ]; then
			fail pin "$t" "not upstream's text:${pin_bad#;} (kernel-docs/series: Pre-Image:, Post-Image:)"
		else
			ok pin "$t" "upstream's blobs:$pin_ok"
		fi
	fi
else
	echo "kernel-check: pin skipped (KERNEL_CHECK_PIN=0)"
fi

# --- mail ----------------------------------------------------------------------
# The mails as stable reads them (kernel-docs/mailcheck.py): addressed to
# the stable list with the security contact in Cc, signed off last by the
# sender, who is a person (or the repository's marked example identity);
# a backport names the pinned upstream commit and keeps upstream's author,
# author date (as git am records them) and tags.
t=$(now)
if on MAIL; then
	kgit log --reverse --format='%an <%ae>%x09%aD' pristine..checked >"$RUN/am-authors" 2>>"$RUN/apply.log"
	# shellcheck disable=SC2046 # patch file names have no spaces
	if "$KD/mailcheck.py" "$KD/series" "$REPO/scripts/kernel-lib.sh" "$RUN/am-authors" \
		$(for p in $SERIES; do echo "$PATCHES/$p"; done) >"$RUN/mail.log" 2>&1; then
		ok mail "$t" "$(sed 's/^ok //' "$RUN/mail.log" | paste -sd' ')"
	else
		grep -v '^\(ok\|FAIL\) ' "$RUN/mail.log" | head -n 5 | sed 's/^/    /'
		fail mail "$t" "$(grep -c '^FAIL' "$RUN/mail.log") of $(echo "$SERIES" | wc -l) mails are not as stable takes them: $(grep '^FAIL' "$RUN/mail.log" | sed 's/^FAIL //' | cut -c1-600 | paste -sd' ')"
	fi
else
	echo "kernel-check: mail skipped (KERNEL_CHECK_MAIL=0)"
fi

# tests/kernel/mutations.sh, for wrong series that only these stages can
# catch (the mails, the pinned text): no kernel, no guest.
if [ "${KERNEL_CHECK_HOST_ONLY:-0}" = 1 ]; then
	if [ "$FAILED" = 0 ]; then echo "kernel-check: total ok ($(since "$T0"), host stages only)"; exit 0; fi
	echo "kernel-check: total FAIL ($(since "$T0"), host stages only)"
	exit 1
fi

# The files of the tree that the guest reads: MAINTAINERS and .mailmap for
# the lookups, every file the expectations name (documents and the files
# of the sample reports), and the touched files.
EMBED=$( { echo MAINTAINERS; echo .mailmap; printf '%s\n' "$TOUCHED"
	awk '$1 == "file" { print $2 }
	     $1 == "route" { for (i = 2; i <= NF && $i != "->"; i++) print $i }' "$EXPECTATIONS"; } |
	grep . | sort -u)

# --- kernel (background) -------------------------------------------------------
# Built once per pristine tree and configuration, from the pristine tree:
# the series may change only MAINTAINERS and Documentation/ (see apply),
# which no kernel build reads, so the kernel is the same for every series.
CK=$( { cat "$FRAGMENT"; echo "$TK"; } | kc_hash)
O=$KC/kbuild-$TK
IMG=$KC/bzImage-$TK-$CK
kernel_lane() {
	local tb
	if [ "$(cat "$O/.fragment" 2>/dev/null)" != "$CK" ]; then
		rm -rf "$O" && mkdir -p "$O"
		(
			set -e
			cd "$PRISTINE"
			make O="$O" ARCH=x86_64 tinyconfig
			scripts/kconfig/merge_config.sh -m -O "$O" "$O/.config" "$FRAGMENT"
			make O="$O" ARCH=x86_64 olddefconfig
		) >"$RUN/kernel-config.log" 2>&1 ||
			{ log_tail "$RUN/kernel-config.log"; echo "configuration failed" >"$RUN/kernel.err"; return 1; }
		local l
		for l in $(grep -hE '^(CONFIG_|# CONFIG_)' "$FRAGMENT" | tr ' ' '~'); do
			l=${l//\~/ }
			grep -qxF "$l" "$O/.config" || { echo "not in .config: $l" >"$RUN/kernel.err"; return 1; }
		done
		echo "$CK" >"$O/.fragment"
	fi
	tb=$(now)
	(cd "$PRISTINE" && make O="$O" ARCH=x86_64 LOCALVERSION= -j"$JOBS" bzImage) >"$RUN/kernel.log" 2>&1 ||
		{ log_tail "$RUN/kernel.log"; echo "make bzImage failed (log: $RUN/kernel.log)" >"$RUN/kernel.err"; return 1; }
	cp "$O/arch/x86/boot/bzImage" "$IMG.tmp" && mv "$IMG.tmp" "$IMG"
	echo "$(du -k "$IMG" | cut -f1) KiB in $(since "$tb")" >>"$RUN/kernel.info"
}
tk=$(now)
: >"$RUN/kernel.info"
if [ ! -f "$IMG" ]; then
	( kernel_lane; echo $? >"$RUN/kernel.rc"; since "$tk" >"$RUN/kernel.time" ) &
	LANES="$LANES $!"
fi
# --- sphinx (background) -------------------------------------------------------
# make htmldocs of the folders of the touched documents: for each, the
# deepest folder above it with an index.rst (process/ for MAINTAINERS,
# which process/maintainers.rst renders).  First on a hard-linked copy of
# the pristine tree, then on the same copy with the touched files replaced
# by the patched ones: that second build is incremental (Sphinx reads again
# only the changed documents and those depending on them), and its
# warnings are compared with the first build's, file paths and line
# numbers left out.  The full build is make kernel-check-full's.
sphinx_dir() { # the SPHINXDIRS entry for a touched file
	case $1 in
	MAINTAINERS) echo process; return ;;
	Documentation/*) ;;
	*) return ;;
	esac
	local d=${1%/*}
	while [ "$d" != Documentation ] && [ ! -f "$R/$d/index.rst" ]; do d=${d%/*}; done
	if [ "$d" = Documentation ]; then echo .; else echo "${d#Documentation/}"; fi
}
SPHINXDIRS=$(for f in $TOUCHED; do sphinx_dir "$f"; done | sort -u | tr '\n' ' ')
SPHINXDIRS=${SPHINXDIRS% }
DK=$( { sphinx-build --version 2>&1; echo "$SPHINXDIRS"; kgit ls-tree -r checked; cat "$REPO/tests/kernel/htmlcheck.py" "$EXPECTATIONS"; } | kc_hash)
SP=$KC/sphinx-$TK-$DK
norm_warnings() { # norm_warnings LOG DOCS OUT
	grep -E 'WARNING|ERROR|CRITICAL' "$1" |
		sed -e "s|$2/||g" -e "s|$3/||g" -e 's|:[0-9][0-9]*:|:|g' | sort -u
}
sphinx_lane() {
	local D=$KC/docs-$TK tb
	rm -rf "$SP" "$SP.complete" "$D" && mkdir -p "$SP"
	cp -al "$PRISTINE" "$D" || { echo "cp -al failed" >"$SP/err"; return 1; }
	tb=$(now)
	(cd "$D" && make O="$SP/out" SPHINXDIRS="$SPHINXDIRS" htmldocs) >"$SP/base.log" 2>&1 ||
		{ echo "htmldocs failed on the pristine tree (log: $SP/base.log)" >"$SP/err"; return 1; }
	since "$tb" >"$SP/base.time"
	local f
	for f in $TOUCHED; do
		rm -f "$D/$f"
		if kgit cat-file -e "checked:$f" 2>/dev/null; then
			kgit show "checked:$f" >"$D/$f" || return 1
		fi
	done
	tb=$(now)
	(cd "$D" && make O="$SP/out" SPHINXDIRS="$SPHINXDIRS" htmldocs) >"$SP/patched.log" 2>&1 ||
		{ echo "htmldocs failed on the patched tree (log: $SP/patched.log)" >"$SP/err"; return 1; }
	since "$tb" >"$SP/patched.time"
	norm_warnings "$SP/base.log" "$D" "$SP/out" >"$SP/base.warnings"
	norm_warnings "$SP/patched.log" "$D" "$SP/out" >"$SP/patched.warnings"
	# shellcheck disable=SC2046 # patch file names have no spaces
	"$REPO/tests/kernel/htmlcheck.py" --rules "$EXPECTATIONS" "$D" "$SP/out/Documentation/output" \
		$(for p in $SERIES; do echo "$PATCHES/$p"; done) >"$SP/htmlcheck" 2>&1
	echo $? >"$SP/htmlcheck.rc"
	rm -rf "$D"
	touch "$SP.complete"
}
ts=$(now)
if on SPHINX && [ -n "$SPHINXDIRS" ] && [ ! -f "$SP.complete" ]; then
	( sphinx_lane; echo $? >"$RUN/sphinx.rc"; since "$ts" >"$RUN/sphinx.time" ) &
	LANES="$LANES $!"
fi

# --- checkpatch --------------------------------------------------------------
t=$(now)
if on CHECKPATCH; then
cp_bad=0
cp_sum=
for p in $SERIES; do
	# The cached tree has no upstream history, so checkpatch cannot look up
	# the "commit ... upstream." line of a backport (UNKNOWN_COMMIT_ID).
	out=$(cd "$R" && perl scripts/checkpatch.pl --strict --no-color --ignore UNKNOWN_COMMIT_ID "$PATCHES/$p" 2>&1)
	tot=$(printf '%s\n' "$out" | grep -E '^total: ' | tail -n 1)
	e=$(printf '%s\n' "$tot" | sed -n 's/^total: \([0-9]*\) errors, \([0-9]*\) warnings.*/\1/p')
	w=$(printf '%s\n' "$tot" | sed -n 's/^total: \([0-9]*\) errors, \([0-9]*\) warnings.*/\2/p')
	c=$(printf '%s\n' "$tot" | sed -n 's/.* \([0-9]*\) checks.*/\1/p')
	cp_sum="$cp_sum ${p%%-*}:${e:-?}e/${w:-?}w/${c:-0}c"
	if [ "${e:-1}" != 0 ] || [ "${w:-1}" != 0 ]; then
		cp_bad=1
		printf '%s\n' "$out" | grep -E -A3 '^(ERROR|WARNING)' | sed "s|^|    $p: |"
	fi
done
if [ "$cp_bad" = 0 ]; then ok checkpatch "$t" "--strict:$cp_sum"; else fail checkpatch "$t" "--strict:$cp_sum"; fi
else
	echo "kernel-check: checkpatch skipped (KERNEL_CHECK_CHECKPATCH=0)"
fi

# --- maintainers -------------------------------------------------------------
t=$(now)
# get_maintainer.pl on the pristine tree and on the patched one, for the
# security documents and the files the series touches or names in F: lines
# it adds.  A series about how reports reach the right people must not
# make anyone unreachable: an address that a lookup loses fails the stage.
ADDED_F=$(kgit diff pristine checked -- MAINTAINERS | sed -n 's/^+F:[[:space:]]*//p' |
	grep -v '[*?]' | while read -r f; do [ -e "$R/$f" ] && echo "$f"; done)
CANDIDATES=$( { printf '%s\n' "$SECURITY_DOCS"; printf '%s\n' "$TOUCHED" | grep -vx MAINTAINERS
	printf '%s\n' "$ADDED_F"; } | grep . | awk '!seen[$0]++')
if ! on MAINTAINERS; then
	echo "kernel-check: maintainers skipped (KERNEL_CHECK_MAINTAINERS=0)"
else
	GK=$( { cat "$R/scripts/get_maintainer.pl"; kgit ls-tree -r checked; printf '%s\n' "$CANDIDATES"; } | kc_hash)
	GM=$KC/gm-$TK-$GK
	if [ ! -f "$GM.complete" ]; then
		rm -rf "$GM" && mkdir -p "$GM"
		n=0
		for c in $CANDIDATES; do
			n=$((n + 1))
			(cd "$PRISTINE" && perl scripts/get_maintainer.pl --nogit --nogit-fallback -f "$c") >"$GM/$n.before" 2>"$GM/$n.before.err"
			(cd "$R" && perl scripts/get_maintainer.pl --nogit --nogit-fallback -f "$c") >"$GM/$n.after" 2>"$GM/$n.after.err"
		done
		touch "$GM.complete"
		cached=
	else
		cached=" (cached)"
	fi
	n=0
	changed=0
	gm_bad=
	addrs() { sed -e 's/ (.*//' -e 's/.*<\(.*\)>.*/\1/' "$1" | sort -u; }
	for c in $CANDIDATES; do
		n=$((n + 1))
		if [ ! -s "$GM/$n.after" ]; then
			echo "    $c: get_maintainer.pl printed nothing: $(head -c 200 "$GM/$n.after.err")"
			gm_bad="$gm_bad $c"
		elif cmp -s "$GM/$n.before" "$GM/$n.after"; then
			echo "    $c: unchanged ($(wc -l <"$GM/$n.after") lines)"
		else
			changed=$((changed + 1))
			# who is new, who is gone (by address; a changed role is neither)
			add=$(comm -13 <(addrs "$GM/$n.before") <(addrs "$GM/$n.after") | paste -sd' ')
			gone=$(comm -23 <(addrs "$GM/$n.before") <(addrs "$GM/$n.after") | paste -sd' ')
			echo "    $c: changed${add:+; added: $add}${gone:+; removed: $gone}"
			[ -z "$gone" ] || gm_bad="$gm_bad $c"
		fi
	done
	if [ -n "$gm_bad" ]; then
		fail maintainers "$t" "a lookup failed or lost an address:$gm_bad"
	else
		ok maintainers "$t" "$changed of $(echo "$CANDIDATES" | wc -l) lookups changed by the series, nobody lost$cached"
	fi
fi

# --- initramfs -----------------------------------------------------------------
t=$(now)
ROOT=$RUN/root
GEN=$KC/gen_init_cpio-$TK
if [ ! -x "$GEN" ]; then
	cc -O2 -o "$GEN.tmp" "$PRISTINE/usr/gen_init_cpio.c" >"$RUN/gen.log" 2>&1 &&
		mv "$GEN.tmp" "$GEN" || { log_tail "$RUN/gen.log"; die initramfs "$t" "gen_init_cpio build failed"; }
fi
wait "$FILES_LANE" "$UPSTREAM_LANE"
[ "$(cat "$RUN/upstream.rc")" = 0 ] || die initramfs "$t" "upstream's files: $(cat "$RUN/upstream.err" 2>/dev/null)"
[ "$(cat "$RUN/files.rc")" = 0 ] || { log_tail "$RUN/files.log"; die initramfs "$t" "scripts/kernel-tree.sh --files failed"; }
ALLFILES=$(cat "$RUN/files.path")
mkdir -p "$ROOT"/{bin,usr/bin,dev,check,tree,pristine}
cp "$BUSYBOX" "$ROOT/bin/busybox"
install -m 755 "$KD/qemu/init" "$ROOT/init"
install -m 755 "$KD/qemu/check.sh" "$ROOT/check/check.sh"
cp "$KD/qemu/"*.awk "$EXPECTATIONS" "$ROOT/check/"
# upstream's files at the paths of the file blocks they stand for
while read -r f up _; do
	[ -n "$f" ] || continue
	mkdir -p "$ROOT/upstream/$(dirname "$f")" && cp "$up" "$ROOT/upstream/$f"
done <"$RUN/upstream.map"
# tree FROM DEST: the files the guest reads, from the patched tree (git's
# branch checked: its objects, and the pristine files it does not track)
# or from the pristine one
missing=
while read -r f; do
	if kgit cat-file -e "checked:$f" 2>/dev/null; then
		mkdir -p "$ROOT/tree/$(dirname "$f")" && kgit show "checked:$f" >"$ROOT/tree/$f"
	elif [ -f "$PRISTINE/$f" ] && ! printf '%s\n' "$TOUCHED" | grep -qxF -- "$f"; then
		mkdir -p "$ROOT/tree/$(dirname "$f")" && cp "$PRISTINE/$f" "$ROOT/tree/$f"
	else
		missing="$missing $f"
	fi
	if [ -f "$PRISTINE/$f" ]; then
		mkdir -p "$ROOT/pristine/$(dirname "$f")" && cp "$PRISTINE/$f" "$ROOT/pristine/$f"
	fi
done <<<"$EMBED"
# Every file of each tree: the whole pristine tree's, and for the patched
# one with the files the series adds or deletes.
cp "$ALLFILES" "$ROOT/check/files.pristine"
{ grep -vxF -f <(kgit diff --name-only --diff-filter=D pristine checked; echo /) "$ALLFILES"
	kgit diff --name-only --diff-filter=A pristine checked; } | LC_ALL=C sort -u >"$ROOT/check/files"
# the .rst files the series changes: each is linted in the guest
printf '%s\n' "$TOUCHED" | grep '\.rst$' >"$ROOT/check/rsts"
: >"$ROOT/check/control"
on CONTROL && echo 1 >"$ROOT/check/control"
copy_elf() {
	# copy_elf FILE DEST: the binary at DEST, and every library ldd lists
	# (and the dynamic loader) at the path ldd gives.
	install -D -m 755 "$1" "$ROOT$2" || return 1
	local l
	for l in $(ldd "$1" | sed -n -e 's/.*=> \(\/[^ ]*\) .*/\1/p' -e 's/^[[:space:]]*\(\/[^ ]*\) (0x.*/\1/p'); do
		[ -e "$ROOT$l" ] || install -D -m 755 "$(readlink -f "$l")" "$ROOT$l" || return 1
	done
	ldd "$1" | grep -q 'not found' && return 1
	return 0
}
copy_elf "$BUILD/secteam-tui" /usr/bin/secteam-tui || die initramfs "$t" "secteam-tui: libraries"
{
	echo "nod /dev/console 0600 0 0 c 5 1"
	(cd "$ROOT" && find . -mindepth 1 | sort) | while read -r f; do
		p=${f#.}
		m=$(stat -c %a "$ROOT$p")
		if [ -L "$ROOT$p" ]; then echo "slink $p $(readlink "$ROOT$p") $m 0 0"
		elif [ -d "$ROOT$p" ]; then echo "dir $p $m 0 0"
		else echo "file $p $ROOT$p $m 0 0"; fi
	done
} >"$RUN/initrd.list"
"$GEN" "$RUN/initrd.list" >"$RUN/initrd.cpio" 2>"$RUN/gen.log" ||
	{ log_tail "$RUN/gen.log"; die initramfs "$t" "gen_init_cpio failed"; }
[ -z "$missing" ] || echo "    not in the patched tree:$missing"
ok initramfs "$t" "$(du -k "$RUN/initrd.cpio" | cut -f1) KiB, $(grep -c '^file' "$RUN/initrd.list") files; the patched and the pristine tree's $(echo "$EMBED" | wc -l) files, $(grep -vc '^#\|^$' "$EXPECTATIONS") expectation lines"

# --- waiting for the kernel and the documents ----------------------------------
# Each lane wrote its time; the stage lines print them.
# shellcheck disable=SC2086
[ -z "$LANES" ] || wait $LANES 2>/dev/null
LANES=
lane_time() { if [ -f "$RUN/$1.time" ]; then cat "$RUN/$1.time"; else echo 0.0s; fi; }
if [ ! -f "$RUN/kernel.rc" ]; then
	echo "kernel-check: kernel ok (cached) $(du -k "$IMG" | cut -f1) KiB"
elif [ "$(cat "$RUN/kernel.rc")" = 0 ]; then
	echo "kernel-check: kernel ok ($(lane_time kernel)) $(cat "$RUN/kernel.info")"
else
	echo "kernel-check: kernel FAIL ($(lane_time kernel)) $(cat "$RUN/kernel.err" 2>/dev/null)"
	FAILED=1
fi
if ! on SPHINX; then
	echo "kernel-check: sphinx skipped (KERNEL_CHECK_SPHINX=0)"
elif [ -z "$SPHINXDIRS" ]; then
	echo "kernel-check: sphinx skipped (no documentation touched)"
elif [ ! -f "$SP.complete" ]; then
	echo "kernel-check: sphinx FAIL ($(lane_time sphinx)) $(cat "$SP/err" 2>/dev/null)"
	FAILED=1
else
	stime="$(lane_time sphinx)"
	[ -f "$RUN/sphinx.rc" ] || stime="cached"
	new=$(comm -13 "$SP/base.warnings" "$SP/patched.warnings")
	fixed=$(comm -23 "$SP/base.warnings" "$SP/patched.warnings" | grep -F -f <(printf '%s\n' "$TOUCHED") || true)
	[ -z "$fixed" ] || printf '%s\n' "$fixed" | sed 's/^/    fixed: /'
	if [ "$(cat "$SP/htmlcheck.rc")" != 0 ]; then
		sed 's/^/    /' "$SP/htmlcheck"
		echo "kernel-check: sphinx FAIL ($stime) the change is not in the HTML"
		FAILED=1
	elif [ -n "$new" ]; then
		printf '%s\n' "$new" | sed 's/^/    new warning: /'
		echo "kernel-check: sphinx FAIL ($stime) $(printf '%s\n' "$new" | wc -l) new warnings"
		FAILED=1
	else
		echo "kernel-check: sphinx ok ($stime) SPHINXDIRS=\"$SPHINXDIRS\": make htmldocs on the pristine tree $(cat "$SP/base.time"), then on the patched one (incremental) $(cat "$SP/patched.time"); 0 new warnings, $(printf '%s' "$fixed" | grep -c .) fixed; $(grep -c '^found' "$SP/htmlcheck") changes found in the HTML"
	fi
fi
[ -f "$IMG" ] || { echo "kernel-check: total FAIL ($(since "$T0"))"; exit 1; }

# --- boot ----------------------------------------------------------------------
t=$(now)
C=$RUN/console
qemu-system-x86_64 -m 512 -cpu max -smp 1 -nographic -no-reboot -net none \
	-kernel "$IMG" -initrd "$RUN/initrd.cpio" \
	-append "console=ttyS0 panic=-1 quiet" </dev/null >"$C.log" 2>"$C.err" &
qpid=$!
end=$(( $(date +%s) + BOOT_TIMEOUT ))
how=timeout
while [ "$(date +%s)" -lt "$end" ]; do
	if ! kill -0 "$qpid" 2>/dev/null; then how=exited; break; fi
	if grep -q 'SECTEAM-DONE' "$C.log" 2>/dev/null; then
		for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$qpid" 2>/dev/null || break; sleep 1; done
		how=finished
		break
	fi
	sleep 0.3
done
if kill -0 "$qpid" 2>/dev/null; then
	kill "$qpid" 2>/dev/null; sleep 1; kill -9 "$qpid" 2>/dev/null
fi
wait "$qpid" 2>/dev/null
tr -d '\r' <"$C.log" >"$C.txt"
if ! grep -q 'SECTEAM-DONE' "$C.txt"; then
	log_tail "$C.txt" 10
	die boot "$t" "no SECTEAM-DONE ($how; console: $C.txt)"
fi
ok boot "$t" "$(sed -n 's/.*SECTEAM-BEGIN //p' "$C.txt" | head -n 1); guest times: $(sed -n 's/.*SECTEAM-TIME //p' "$C.txt" | paste -sd' ')"

# --- the guest's verdicts --------------------------------------------------------
# The checks the guest must have run, from the expectations (one per file,
# section, patterns and route line) and the touched .rst files that no
# "file" block lints.
STEPS=$(awk '
	$1 == "file" { f = $2; print "file:" f }
	$1 == "rst" && f != "" { linted[f] }
	$1 == "section" { sub(/^section /, ""); print "section:" $0; f = "" }
	$1 == "patterns" { print "patterns"; f = "" }
	$1 == "route" { r = ""; for (i = 2; i <= NF && $i != "->"; i++) r = r (r == "" ? "" : ",") $i; print "route:" r; f = "" }
	END { while ((getline l < rsts) > 0) if (l != "" && !(l in linted)) print "rst:" l }
' rsts="$ROOT/check/rsts" "$EXPECTATIONS")
nsteps=$(printf '%s\n' "$STEPS" | grep -c .)
# the checks of upstream's files (file blocks with an "upstream" line) and
# the control's rules (file blocks with "rule" lines)
UP_STEPS=$(awk '$1 == "file" { f = $2 } $1 == "upstream" { print "file:" f }' "$EXPECTATIONS" | uniq)
RULE_STEPS=$(awk '$1 == "file" { f = $2 } $1 == "rule" { print "rules:" f }' "$EXPECTATIONS" | uniq)
verdicts() { # verdicts TAG [STEPS]: "STEP PASS|FAIL|MISSING detail" per expected step
	local s line list=$STEPS
	[ $# -lt 2 ] || list=$2
	printf '%s\n' "$list" | grep . | while IFS= read -r s; do
		line=$(grep -F "SECTEAM-STEP $1 $s " "$C.txt" | tail -n 1 | sed "s/.*SECTEAM-STEP $1 //")
		if [ -z "$line" ]; then echo "$s MISSING (no line on the console)"; else echo "$line"; fi
	done
}
verdicts tree >"$RUN/verdicts-patched"
bad=$(grep -v ' PASS ' "$RUN/verdicts-patched")
if [ -z "$bad" ]; then
	ok guest "$t" "all $nsteps checks pass on the patched tree: $(sed 's/ PASS .*//' "$RUN/verdicts-patched" | paste -sd' ')"
else
	printf '%s\n' "$bad" | cut -c1-300 | sed 's/^/    /'
	fail guest "$t" "$(printf '%s\n' "$bad" | grep -c .) of $nsteps checks fail on the patched tree: $(printf '%s\n' "$bad" | sed 's/ \(FAIL\|MISSING\) .*//' | paste -sd' ')"
fi
# Upstream's own files: the expectations of the file blocks with an
# "upstream" line hold for upstream's file too (linux-source-6.12's, which
# has upstream's change), so they are upstream's rules, not the series'.
if [ -n "$UP_STEPS" ]; then
	verdicts upstream "$UP_STEPS" >"$RUN/verdicts-upstream"
	bad=$(grep -v ' PASS ' "$RUN/verdicts-upstream")
	ups=$(awk '{ printf "%s%s %s %s", (NR > 1 ? ", " : ""), $3, $4, $5 }' "$RUN/upstream.map")
	if [ -z "$bad" ]; then
		ok upstream "$t" "the expectations of $(echo "$UP_STEPS" | wc -l) files hold for upstream's own: $ups"
	else
		printf '%s\n' "$bad" | cut -c1-400 | sed 's/^/    /'
		fail upstream "$t" "the expectations do not hold for upstream's own files ($ups): $(printf '%s\n' "$bad" | sed 's/ \(FAIL\|MISSING\) .*//' | paste -sd' ')"
	fi
fi
# The control: the same checks on the pristine tree.  The expectations
# describe the documents after the series; if they hold on the pristine
# tree too, they do not see what the series changes.  And the tree
# without the series says none of the rules the series brings ("rule").
if on CONTROL; then
	verdicts pristine >"$RUN/verdicts-pristine"
	verdicts pristine "$RULE_STEPS" >"$RUN/verdicts-rules"
	cfail=$(grep -v ' PASS ' "$RUN/verdicts-pristine" | sed 's/ \(FAIL\|MISSING\) .*//' | paste -sd' ')
	rbad=$(grep -v ' PASS ' "$RUN/verdicts-rules")
	rsum=$(sed 's/ PASS says none of the / none of /' "$RUN/verdicts-rules" | paste -sd' ')
	if [ -n "$rbad" ]; then
		printf '%s\n' "$rbad" | cut -c1-400 | sed 's/^/    /'
		fail control "$t" "the pristine tree already says rules the series brings: $(printf '%s\n' "$rbad" | sed 's/ \(FAIL\|MISSING\) .*//' | paste -sd' ')"
	elif [ -n "$cfail" ]; then
		ok control "$t" "on the pristine tree $(echo $cfail | wc -w) of $nsteps checks fail, as the series is needed for them: $cfail${rsum:+; rules: $rsum}"
	else
		fail control "$t" "every check passes on the pristine tree too: the expectations do not see what the series changes"
	fi
else
	echo "kernel-check: control skipped (KERNEL_CHECK_CONTROL=0)"
fi

if [ "$FAILED" = 0 ]; then
	echo "kernel-check: total ok ($(since "$T0"))"
	exit 0
fi
echo "kernel-check: total FAIL ($(since "$T0"))"
exit 1
