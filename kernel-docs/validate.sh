#!/bin/bash
# kernel-docs/validate.sh BUILD_DIR: `make kernel-check` (part of `make check`).
#
# Checks the kernel patch series in kernel-docs/patches against Debian's
# linux-source-6.1, then boots a kernel built from the patched tree in QEMU
# (software emulation) and checks, inside the guest, only what the series
# changes; the same guest check on a kernel built from the pristine tree is
# the negative control and must fail.  Run from the repository root;
# BUILD_DIR holds the built secteam-tui.  One line per stage with its time:
#   deps        the tools it needs (apt-get install when root and missing)
#   tree        the pristine tree, partly unpacked (scripts/kernel-tree.sh --partial)
#   series      kernel-docs/patches is what `make kernel-series` makes
#   apply       git am of the committed patches on the pristine tree
#   checkpatch  scripts/checkpatch.pl --strict: no error, no warning
#   maintainers get_maintainer.pl before and after the series on the security
#               documents and the files the series touches or adds to MAINTAINERS
#   kernel      tinyconfig + qemu/kernel.config, built once from the patched
#               tree and once more (only what changed) from the pristine one;
#               each image embeds MAINTAINERS and the documents of the tree
#               it was built from
#   sphinx      make SPHINXDIRS=... htmldocs of the touched folders: no new
#               warning, and the new text is in the HTML (runs beside the
#               kernel build)
#   initramfs   busybox, secteam-tui and its libraries, the expected answers
#   boot        both kernels, the same initrd, side by side
#   guest patched / guest pristine   one line each
# Everything it builds lives in the cache, never in the repository:
#   ${SECTEAM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/secteam-tui}/kernel-check
# and is keyed by what it was made from, so a rerun takes seconds.
# Environment: SECTEAM_CACHE, KERNEL_TARBALL (see scripts/kernel-tree.sh),
# KERNEL_CHECK_JOBS (make -j, default 2), KERNEL_CHECK_BOOT_TIMEOUT
# (default 180 s), KERNEL_CHECK_SPHINX=0 to skip the Sphinx stage.
set -u
umask 022

BUILD=${1:?usage: kernel-docs/validate.sh BUILD_DIR}
[ -f kernel-docs/validate.sh ] || { echo "kernel-check: run from the repository root" >&2; exit 2; }
REPO=$(pwd)
BUILD=$(cd "$BUILD" 2>/dev/null && pwd) || { echo "kernel-check: no build directory $1" >&2; exit 1; }
KC_TOP=$REPO
. "$REPO/scripts/kernel-lib.sh"
KD=$REPO/kernel-docs
PATCHES=$KD/patches
FRAGMENT=$KD/qemu/kernel.config
INIT=$KD/qemu/init
BOOT_TIMEOUT=${KERNEL_CHECK_BOOT_TIMEOUT:-180}
kc_check_settings
mkdir -p "$KC"
RUN=$KC/run

kc_stages kernel-check 1
log_tail() { [ -f "$1" ] && tail -n "${2:-15}" "$1" | sed 's/^/    /'; }
# The kernel and Sphinx stages run in the background; on an early exit
# they are stopped, with every process they started.
LANES=
kill_tree() { local c; for c in $(pgrep -P "$1"); do kill_tree "$c"; done; kill "$1" 2>/dev/null; }
cleanup() { local p; for p in $LANES; do kill_tree "$p"; done; }
trap cleanup EXIT

kc_lock "$KC/lock"
export KC_LOCKED=1 # for scripts/kernel-series.sh --check
rm -rf "$RUN" && mkdir -p "$RUN"

# --- deps --------------------------------------------------------------------
t=$(now)
PKGS="linux-source-6.1 qemu-system-x86 busybox-static python3-sphinx
python3-sphinx-rtd-theme flex bison bc libelf-dev libssl-dev cpio gcc make
perl git xz-utils python3"
missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
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
ok tree "$t" "linux $KV, partial tree $cached"

# --- series ------------------------------------------------------------------
t=$(now)
if "$REPO/scripts/kernel-series.sh" --check >"$RUN/series.log" 2>&1; then
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
{
	kgit checkout -q -f -B checked pristine &&
	for p in $SERIES; do kgit am -q --whitespace=error-all "$PATCHES/$p" || exit 1; done
} >"$RUN/apply.log" 2>&1 ||
	{ log_tail "$RUN/apply.log"; kgit am --abort >/dev/null 2>&1; die apply "$t" "git am failed"; }
TOUCHED=$(kgit diff --name-only pristine checked)
same=
kgit rev-parse -q --verify kernel-series >/dev/null &&
	kgit diff --quiet kernel-series checked && same=", the same tree as branch kernel-series"
for f in $TOUCHED; do
	# git replaced the files it patched: the pristine tree is unchanged.
	[ "$R/$f" -ef "$PRISTINE/$f" ] && die apply "$t" "$f is shared with the pristine tree"
	case $f in
	MAINTAINERS | Documentation/*) ;;
	*) die apply "$t" "$f is not documentation: the kernel the guest runs would differ" ;;
	esac
done
ok apply "$t" "$(echo "$SERIES" | wc -l) patches on linux $KV (git am; branch checked$same); touched: $(echo $TOUCHED)"

# The files of the tree that the guest reads, as each kernel embeds them
# (see "kernel" below): MAINTAINERS and .mailmap for the lookups, the
# touched files, and every candidate of the lookups.  A directory is
# embedded with its files.
ADDED_F=$(kgit diff pristine checked -- MAINTAINERS | sed -n 's/^+F:[[:space:]]*//p' |
	grep -v '[*?]' | while read -r f; do [ -e "$R/$f" ] && echo "$f"; done)
CANDIDATES=$( { printf '%s\n' "$SECURITY_DOCS"; printf '%s\n' "$TOUCHED" | grep -vx MAINTAINERS
	printf '%s\n' "$ADDED_F"; } | grep . | awk '!seen[$0]++')
EMBED=$( { echo MAINTAINERS; echo .mailmap; printf '%s\n' "$TOUCHED"
	for c in $CANDIDATES; do
		if [ -d "$R/$c" ]; then (cd "$R" && find "${c%/}" -type f); else echo "$c"; fi
	done; } | sort -u)

# --- kernel (background) -------------------------------------------------------
# One build directory per pristine tree, its source tree the cached tree.
# The image built with the cached tree at branch checked embeds the patched
# files; the tree is then switched to pristine (git replaces only the
# touched files) and make rebuilds the built-in initramfs and relinks: that
# image embeds the pristine files.  CONFIG_INITRAMFS_SOURCE names
# tree.list, whose lines say "${srctree}/PATH": the kernel build itself
# reads each file from the tree it builds, so the guest sees the files of
# that tree and nothing the host copied.
CK=$(kc_hash <"$FRAGMENT")
O=$KC/kbuild-$TK
LIST=$( { echo "dir /dev 0755 0 0"; echo "nod /dev/console 0600 0 0 c 5 1"; echo "dir /tree 0755 0 0"
	printf '%s\n' "$EMBED" | while read -r f; do
		d=$(dirname "$f")
		while [ "$d" != . ]; do echo "dir /tree/$d 0755 0 0"; d=$(dirname "$d"); done
	done | sort -u
	# shellcheck disable=SC2016 # ${srctree} is for gen_init_cpio, not the shell
	printf '%s\n' "$EMBED" | awk '{ print "file /tree/" $0 " ${srctree}/" $0 " 0644 0 0" }'; })
image_key() { { printf '%s\n' "$CK" "$LIST"; kgit ls-tree -r "$1"; } | kc_hash; }
IMG_PATCHED=$KC/bzImage-$TK-$(image_key checked)
IMG_PRISTINE=$KC/bzImage-$TK-$(image_key pristine)
kernel_make() { # kernel_make NAME IMAGE: make bzImage at the tree's current state
	local tb
	tb=$(now)
	(cd "$R" && make O="$O" ARCH=x86_64 LOCALVERSION= -j"$JOBS" bzImage) >"$RUN/kernel-$1.log" 2>&1 ||
		{ log_tail "$RUN/kernel-$1.log"; echo "make bzImage failed for the $1 tree (log: $RUN/kernel-$1.log)" >"$RUN/kernel.err"; return 1; }
	cp "$O/arch/x86/boot/bzImage" "$2.tmp" && mv "$2.tmp" "$2"
	echo "$1 $(du -k "$2" | cut -f1) KiB in $(since "$tb")" >>"$RUN/kernel.info"
}
kernel_lane() {
	if [ "$(cat "$O/.fragment" 2>/dev/null)" != "$CK" ]; then
		rm -rf "$O" && mkdir -p "$O"
		(
			set -e
			cd "$R"
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
	# Rewritten only when it changes, so that make sees what changed.
	printf '%s\n' "$LIST" | cmp -s - "$O/tree.list" || printf '%s\n' "$LIST" >"$O/tree.list"
	if [ ! -f "$IMG_PATCHED" ]; then
		kernel_make patched "$IMG_PATCHED" || return 1
	fi
	# The other stages read the patched tree until they are done.
	while [ ! -f "$RUN/tree-free" ]; do sleep 1; done
	if [ ! -f "$IMG_PRISTINE" ]; then
		kgit checkout -q -f pristine || { echo "git checkout pristine failed" >"$RUN/kernel.err"; return 1; }
		kernel_make pristine "$IMG_PRISTINE"
		local rc=$?
		kgit checkout -q -f checked
		return $rc
	fi
}
tk=$(now)
: >"$RUN/kernel.info"
if [ ! -f "$IMG_PATCHED" ] || [ ! -f "$IMG_PRISTINE" ]; then
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
DK=$( { sphinx-build --version 2>&1; echo "$SPHINXDIRS"; kgit ls-tree -r checked; cat "$REPO/tests/kernel/htmlcheck.py"; } | kc_hash)
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
	"$REPO/tests/kernel/htmlcheck.py" "$D" "$SP/out/Documentation/output" \
		$(for p in $SERIES; do echo "$PATCHES/$p"; done) >"$SP/htmlcheck" 2>&1
	echo $? >"$SP/htmlcheck.rc"
	rm -rf "$D"
	touch "$SP.complete"
}
ts=$(now)
if [ "${KERNEL_CHECK_SPHINX:-1}" != 0 ] && [ -n "$SPHINXDIRS" ] && [ ! -f "$SP.complete" ]; then
	( sphinx_lane; echo $? >"$RUN/sphinx.rc"; since "$ts" >"$RUN/sphinx.time" ) &
	LANES="$LANES $!"
fi

# --- checkpatch --------------------------------------------------------------
t=$(now)
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

# --- maintainers -------------------------------------------------------------
t=$(now)
# get_maintainer.pl on the pristine tree and on the patched one.  The files
# whose answer the series changes are the guest's lookups; the answers on
# the patched tree are what the guest must print.
EXPECT=$RUN/expect
mkdir -p "$EXPECT"
: >"$EXPECT/files"
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
gm_bad=0
for c in $CANDIDATES; do
	n=$((n + 1))
	if [ ! -s "$GM/$n.after" ]; then
		echo "    $c: get_maintainer.pl printed nothing: $(head -c 200 "$GM/$n.after.err")"
		gm_bad=1
	elif cmp -s "$GM/$n.before" "$GM/$n.after"; then
		echo "    $c: unchanged ($(wc -l <"$GM/$n.after") lines)"
	else
		changed=$((changed + 1))
		# who is new, who is gone (by address; a changed role is neither)
		addrs() { sed -e 's/ (.*//' -e 's/.*<\(.*\)>.*/\1/' "$1" | sort -u; }
		add=$(comm -13 <(addrs "$GM/$n.before") <(addrs "$GM/$n.after") | paste -sd' ')
		gone=$(comm -23 <(addrs "$GM/$n.before") <(addrs "$GM/$n.after") | paste -sd' ')
		echo "    $c: changed${add:+; added: $add}${gone:+; removed: $gone}"
		echo "$c" >>"$EXPECT/files"
		cp "$GM/$n.after" "$EXPECT/$changed"
	fi
done
if [ "$gm_bad" = 1 ]; then
	fail maintainers "$t" "get_maintainer.pl failed"
elif printf '%s\n' "$TOUCHED" | grep -qx MAINTAINERS && [ "$changed" = 0 ]; then
	fail maintainers "$t" "the series changes MAINTAINERS but no lookup of $(echo $CANDIDATES)"
else
	ok maintainers "$t" "$changed of $(echo "$CANDIDATES" | wc -l) lookups changed by the series$cached"
fi


# Nothing else reads the patched tree any more: the kernel lane may switch it.
touch "$RUN/tree-free"

# --- initramfs -----------------------------------------------------------------
t=$(now)
ROOT=$RUN/root
GEN=$KC/gen_init_cpio-$TK
if [ ! -x "$GEN" ]; then
	cc -O2 -o "$GEN.tmp" "$PRISTINE/usr/gen_init_cpio.c" >"$RUN/gen.log" 2>&1 &&
		mv "$GEN.tmp" "$GEN" || { log_tail "$RUN/gen.log"; die initramfs "$t" "gen_init_cpio build failed"; }
fi
# The expected files: SHA-256 of each touched file as the patched tree (the
# git objects of branch checked) has it.
for f in $TOUCHED; do
	if kgit cat-file -e "checked:$f" 2>/dev/null; then
		echo "$(kgit show "checked:$f" | sha256sum | cut -d' ' -f1)  $f"
	fi
done >"$EXPECT/docs"
mkdir -p "$ROOT"/{bin,usr/bin,dev}
cp "$BUSYBOX" "$ROOT/bin/busybox"
install -m 755 "$INIT" "$ROOT/init"
cp -r "$EXPECT" "$ROOT/expect"
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
# The tree the guest checks comes from the kernel image only.
grep -q ' /tree' "$RUN/initrd.list" && die initramfs "$t" "the initrd holds /tree"
"$GEN" "$RUN/initrd.list" >"$RUN/initrd.cpio" 2>"$RUN/gen.log" ||
	{ log_tail "$RUN/gen.log"; die initramfs "$t" "gen_init_cpio failed"; }
ok initramfs "$t" "$(du -k "$RUN/initrd.cpio" | cut -f1) KiB, $(grep -c '^file' "$RUN/initrd.list") files; expects $(wc -l <"$EXPECT/docs") files and $(wc -l <"$EXPECT/files") lookups"

# --- waiting for the kernel and the documents ----------------------------------
# Each lane wrote its time; the stage lines print them.
# shellcheck disable=SC2086
[ -z "$LANES" ] || wait $LANES
LANES=
lane_time() { if [ -f "$RUN/$1.time" ]; then cat "$RUN/$1.time"; else echo 0.0s; fi; }
if [ ! -f "$RUN/kernel.rc" ]; then
	echo "kernel-check: kernel ok (cached) both images: $(du -k "$IMG_PATCHED" | cut -f1) KiB and $(du -k "$IMG_PRISTINE" | cut -f1) KiB"
elif [ "$(cat "$RUN/kernel.rc")" = 0 ]; then
	echo "kernel-check: kernel ok ($(lane_time kernel)) $(paste -sd';' "$RUN/kernel.info" | sed 's/;/; /g')"
else
	echo "kernel-check: kernel FAIL ($(lane_time kernel)) $(cat "$RUN/kernel.err" 2>/dev/null)"
	FAILED=1
fi
if [ "${KERNEL_CHECK_SPHINX:-1}" = 0 ]; then
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
[ -f "$IMG_PATCHED" ] && [ -f "$IMG_PRISTINE" ] || { echo "kernel-check: total FAIL ($(since "$T0"))"; exit 1; }

# --- boot ----------------------------------------------------------------------
t=$(now)
boot() { # boot NAME IMAGE: QEMU until SECTEAM-DONE, its exit or the timeout
	local c=$RUN/console-$1 pid end how=timeout
	qemu-system-x86_64 -m 512 -cpu max -smp 1 -nographic -no-reboot -net none \
		-kernel "$2" -initrd "$RUN/initrd.cpio" \
		-append "console=ttyS0 panic=-1 quiet" </dev/null >"$c.log" 2>"$c.err" &
	pid=$!
	end=$(( $(date +%s) + BOOT_TIMEOUT ))
	while [ "$(date +%s)" -lt "$end" ]; do
		if ! kill -0 "$pid" 2>/dev/null; then how=exited; break; fi
		if grep -q 'SECTEAM-DONE' "$c.log" 2>/dev/null; then
			for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
			how=finished
			break
		fi
		sleep 0.5
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill "$pid" 2>/dev/null; sleep 1; kill -9 "$pid" 2>/dev/null
	fi
	wait "$pid" 2>/dev/null
	tr -d '\r' <"$c.log" >"$c.txt"
	echo "$how" >"$c.how"
}
tb0=$(now)
boot patched "$IMG_PATCHED" &
b1=$!
boot pristine "$IMG_PRISTINE" &
b2=$!
wait "$b1" "$b2"
bad_boot=
for k in patched pristine; do
	grep -q 'SECTEAM-DONE' "$RUN/console-$k.txt" || bad_boot="$bad_boot $k ($(cat "$RUN/console-$k.how"))"
done
if [ -n "$bad_boot" ]; then
	for k in patched pristine; do log_tail "$RUN/console-$k.txt" 8; done
	fail boot "$t" "no SECTEAM-DONE from:$bad_boot (consoles: $RUN/console-*.txt)"
else
	ok boot "$t" "both guests ran: $(sed -n 's/.*SECTEAM-BEGIN //p' "$RUN/console-patched.txt" | head -n 1)"
fi

# --- the guests' verdicts ------------------------------------------------------
STEPS=$( { sed 's/^[^ ]*  /doc:/' "$EXPECT/docs"; sed 's/^/maintainers:/' "$EXPECT/files"; } )
nsteps=$(printf '%s\n' "$STEPS" | grep -c .)
[ "$nsteps" -gt 0 ] || die guest "$t" "nothing to check in the guest: the series changes no file"
verdicts() { # verdicts NAME: "STEP PASS|FAIL|MISSING detail" per expected step
	local s line
	printf '%s\n' "$STEPS" | while read -r s; do
		line=$(grep -F "SECTEAM-STEP $s " "$RUN/console-$1.txt" | tail -n 1 | sed 's/.*SECTEAM-STEP //')
		if [ -z "$line" ]; then echo "$s MISSING (no line on the console)"; else echo "$line"; fi
	done
}
verdicts patched >"$RUN/verdicts-patched"
verdicts pristine >"$RUN/verdicts-pristine"
names=$(cut -d' ' -f1 "$RUN/verdicts-patched" | paste -sd' ')
# expect_all NAME FILE WORD LEAD OK WHY: every check in FILE says WORD;
# the line says how many do ("LEAD<n> of <m> checks OK"), and on failure
# the checks that do not, and why that matters (WHY).
expect_all() {
	_n=$(grep -c "^[^ ]* $3" "$2")
	if [ "$_n" = "$nsteps" ]; then
		ok "$1" "$tb0" "$4$_n of $nsteps checks $5"
	else
		grep -v "^[^ ]* $3" "$2" | cut -c1-220 | sed 's/^/    /'
		fail "$1" "$tb0" "$4only $_n of $nsteps checks say $3; $6"
	fi
}
expect_all "guest patched" "$RUN/verdicts-patched" PASS "" "pass: $names" \
	"the series does not do what it says"
# The negative control: the same checks on the kernel built from the
# pristine tree.  Each check is about something the series changes, so
# each must fail there; one that passes does not tell the two apart.
expect_all "guest pristine" "$RUN/verdicts-pristine" FAIL "negative control: " \
	"fail, as they must" "the others do not tell the patched tree from the pristine one"

if [ "$FAILED" = 0 ]; then
	echo "kernel-check: total ok ($(since "$T0"))"
	exit 0
fi
echo "kernel-check: total FAIL ($(since "$T0"))"
exit 1
