#!/bin/bash
# kernel-docs/validate.sh BUILD_DIR: `make kernel-check`.
#
# Checks the kernel patch series in kernel-docs/patches against Debian's
# linux-source-6.1 and runs secteam-tui in a QEMU guest booted on a kernel
# built from the patched tree.  Run from the repository root; BUILD_DIR
# holds the built secteam-tui.  One line per step, then the total time:
#   deps        the tools it needs (apt-get install when root and missing)
#   apply       pristine tree unpacked, git init + commit, git am the series
#   checkpatch  scripts/checkpatch.pl --strict: 0 errors, 0 warnings a patch
#   maintainers scripts/get_maintainer.pl names the security contact for
#               every document the series touches or covers
#   sphinx      the touched documents build with no new warning and the
#               HTML holds the new text
#   kernel      tinyconfig + kernel-docs/qemu/kernel.config, make -j2
#   initramfs   busybox, secteam-tui, gpg and their libraries, MAINTAINERS
#   boot        qemu-system-x86_64 (TCG), serial console read back
#   guest ...   one line per step the guest's /init reports
# Nothing touches this machine's kernel; the kernel tree and every build
# output live in the cache, never in the repository:
#   ${SECTEAM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/secteam-tui}/kernel-check
# The patched tree, the Sphinx results (patched and unpatched) and the
# kernel are cached, keyed by the hashes of the tarball, the series and the
# config fragment, so a rerun takes seconds.
# Environment: SECTEAM_CACHE, KERNEL_TARBALL (see scripts/kernel-tree.sh),
# KERNEL_CHECK_JOBS (default 2), KERNEL_CHECK_BOOT_TIMEOUT (default 300 s),
# KERNEL_CHECK_SPHINX=0 to skip the Sphinx step (reported as skipped).
set -u
umask 022

BUILD=${1:?usage: kernel-docs/validate.sh BUILD_DIR}
[ -f kernel-docs/validate.sh ] || { echo "kernel-check: run from the repository root" >&2; exit 2; }
REPO=$(pwd)
BUILD=$(cd "$BUILD" 2>/dev/null && pwd) || { echo "kernel-check: no build directory $1" >&2; exit 1; }
KD=$REPO/kernel-docs
PATCHES=$KD/patches
FRAGMENT=$KD/qemu/kernel.config
INIT=$KD/qemu/init
HELPERS=$REPO/tests/kernel
JOBS=${KERNEL_CHECK_JOBS:-2}
BOOT_TIMEOUT=${KERNEL_CHECK_BOOT_TIMEOUT:-300}
CACHE=${SECTEAM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/secteam-tui}
KC=$CACHE/kernel-check
LOCALVERSION_BASE=-secteam-docs
export PYTHONDONTWRITEBYTECODE=1 LC_ALL=C.UTF-8
mkdir -p "$KC"

T0=$(date +%s.%N)
FAILED=0
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1fs", b - a }'; }
ok() { echo "kernel-check: $1 ok ($(since "$2"))${3:+ $3}"; }
fail() { echo "kernel-check: $1 FAIL ($(since "$2"))${3:+ $3}"; FAILED=1; }
die() {
	fail "$@"
	echo "kernel-check: total FAIL ($(since "$T0"))"
	exit 1
}
hash16() { sha256sum | cut -c1-16; }
log_tail() { [ -f "$1" ] && tail -n "${2:-20}" "$1" | sed 's/^/    /'; }

# --- deps --------------------------------------------------------------------
t=$(now)
PKGS="linux-source-6.1 qemu-system-x86 busybox-static python3-sphinx
python3-sphinx-rtd-theme flex bison bc libelf-dev libssl-dev cpio gcc make
perl git xz-utils gnupg gpg-agent python3"
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

# --- apply -------------------------------------------------------------------
t=$(now)
PRISTINE=$("$REPO/scripts/kernel-tree.sh" 2>"$KC/kernel-tree.log") ||
	{ log_tail "$KC/kernel-tree.log"; die apply "$t" "scripts/kernel-tree.sh failed"; }
TK=${PRISTINE##*/linux-}
[ -f "$PATCHES/series" ] || die apply "$t" "no $PATCHES/series"
SERIES=$(grep -v '^[[:space:]]*\(#\|$\)' "$PATCHES/series")
[ -n "$SERIES" ] || die apply "$t" "empty series"
for p in $SERIES; do
	[ -f "$PATCHES/$p" ] || die apply "$t" "series names a missing patch: $p"
done
SK=$( (cd "$PATCHES" && cat series $SERIES) | hash16)
CK=$(cat "$FRAGMENT" | hash16)
LOCALVERSION=$LOCALVERSION_BASE-${SK:0:8}
TREE=$KC/tree-$TK-$SK
GITC="git -c user.name=kernel-check -c user.email=kernel-check@localhost -c core.autocrlf=false -c advice.detachedHead=false"
cached=
if [ -f "$TREE.complete" ]; then
	cached="(cached)"
else
	rm -rf "$TREE" "$TREE.tmp"
	# Hard links: git replaces the files it patches instead of writing
	# through them, so the pristine tree is never changed.
	cp -al "$PRISTINE" "$TREE.tmp" || die apply "$t" "cp -al failed"
	(
		cd "$TREE.tmp" && $GITC init -q && $GITC add -A -f &&
		$GITC commit -q -m "Linux $(make -s kernelversion) from $(basename "$PRISTINE")" &&
		$GITC tag pristine &&
		for p in $SERIES; do $GITC am -q --whitespace=error-all "$PATCHES/$p" || exit 1; done
	) >"$KC/apply.log" 2>&1 ||
		{ log_tail "$KC/apply.log"; rm -rf "$TREE.tmp"; die apply "$t" "git am failed"; }
	mv "$TREE.tmp" "$TREE" && touch "$TREE.complete"
fi
# The series touched the patched tree's files, not the pristine ones.
for f in $(cd "$TREE" && git diff --name-only pristine HEAD); do
	[ "$f" -ef "$PRISTINE/$f" ] && die apply "$t" "$f is shared with the pristine tree"
	cmp -s "$TREE/$f" "$PRISTINE/$f" && die apply "$t" "$f unchanged by the series"
done
TOUCHED=$(cd "$TREE" && git diff --name-only pristine HEAD)
ok apply "$t" "$(echo "$SERIES" | wc -l) patches on linux-$TK $cached"

# --- checkpatch --------------------------------------------------------------
t=$(now)
cp_bad=0
cp_sum=
for p in $SERIES; do
	out=$(cd "$TREE" && perl scripts/checkpatch.pl --strict --no-color "$PATCHES/$p" 2>&1)
	tot=$(printf '%s\n' "$out" | grep -E '^total: ' | tail -n 1)
	e=$(printf '%s\n' "$tot" | sed -n 's/^total: \([0-9]*\) errors, \([0-9]*\) warnings.*/\1/p')
	w=$(printf '%s\n' "$tot" | sed -n 's/^total: \([0-9]*\) errors, \([0-9]*\) warnings.*/\2/p')
	c=$(printf '%s\n' "$tot" | sed -n 's/.* \([0-9]*\) checks.*/\1/p')
	cp_sum="$cp_sum ${p%%-*}:${e:-?}e/${w:-?}w/${c:-0}c"
	if [ "${e:-1}" != 0 ] || [ "${w:-1}" != 0 ]; then
		cp_bad=1
		printf '%s\n' "$out" | grep -E '^(ERROR|WARNING)' | sed "s|^|    $p: |"
	fi
done
if [ "$cp_bad" = 0 ]; then ok checkpatch "$t" "$cp_sum"; else fail checkpatch "$t" "$cp_sum"; fi

# --- maintainers -------------------------------------------------------------
t=$(now)
# The documents the SECURITY CONTACT entry covers after the series, and the
# contacts it lists; plus every document the series touches.
entry=$(awk '/^SECURITY CONTACT$/ { on = 1; next } on && /^$/ { exit } on' "$TREE/MAINTAINERS")
COVERED=$(printf '%s\n' "$entry" | sed -n 's/^F:[[:space:]]*\(.*\)$/\1/p' |
	while read -r f; do [ -f "$TREE/$f" ] && echo "$f"; done)
CONTACTS=$(printf '%s\n' "$entry" | sed -n 's/^M:[[:space:]]*//p')
printf '%s\n' "$CONTACTS" | grep -qxF 'Security Officers <security@kernel.org>' ||
	die maintainers "$t" "SECURITY CONTACT does not list Security Officers <security@kernel.org>"
DOCS=$( { printf '%s\n' "$COVERED"; printf '%s\n' "$TOUCHED" | grep '^Documentation/'; } |
	grep . | sort -u)
gm_bad=0
for d in $DOCS; do
	after=$(cd "$TREE" && perl scripts/get_maintainer.pl --nogit --nogit-fallback -f "$d" 2>&1)
	before=$(cd "$PRISTINE" && perl scripts/get_maintainer.pl --nogit --nogit-fallback -f "$d" 2>&1)
	miss=
	while IFS= read -r c; do
		printf '%s\n' "$after" | grep -qF "$c" || miss="$miss [$c]"
	done <<<"$CONTACTS"
	if printf '%s\n' "$before" | grep -qF 'security@kernel.org'; then was="named"; else was="not named"; fi
	if [ -z "$miss" ]; then
		echo "    $d: security@kernel.org named (before the series: $was)"
	else
		echo "    $d: MISSING$miss (before the series: $was)"
		gm_bad=1
	fi
done
if [ "$gm_bad" = 0 ]; then
	ok maintainers "$t" "$(echo "$DOCS" | wc -l) documents name $(echo "$CONTACTS" | tr '\n' ' ')"
else
	fail maintainers "$t"
fi

# --- sphinx ------------------------------------------------------------------
t=$(now)
# The Sphinx directories of the touched documents; MAINTAINERS is rendered
# by Documentation/process/maintainers.rst.
SPHINXDIRS=$( { printf '%s\n' "$TOUCHED" | sed -n 's|^Documentation/\([^/]*\)/.*|\1|p'
	printf '%s\n' "$TOUCHED" | grep -qx MAINTAINERS && echo process; } | sort -u | tr '\n' ' ')
SPHINXDIRS=${SPHINXDIRS% }
SV=$(sphinx-build --version 2>&1 | hash16)
DK=$(printf '%s %s' "$SPHINXDIRS" "$SV" | hash16)
sphinx_build() {
	# sphinx_build TREE OUT: make htmldocs into OUT, warnings in OUT.warnings
	# (paths and line numbers dropped, so the two trees compare).
	local src=$1 out=$2
	[ -f "$out.complete" ] && return 0
	rm -rf "$out" && mkdir -p "$out"
	(cd "$src" && make O="$out" SPHINXDIRS="$SPHINXDIRS" htmldocs) >"$out.log" 2>&1 ||
		return 1
	grep -E 'WARNING|ERROR|CRITICAL' "$out.log" |
		sed -e "s|$src/||g" -e "s|$out/||g" -e 's|:[0-9][0-9]*:|:|g' | sort -u >"$out.warnings"
	touch "$out.complete"
}
if [ "${KERNEL_CHECK_SPHINX:-1}" = 0 ]; then
	echo "kernel-check: sphinx skipped (KERNEL_CHECK_SPHINX=0)"
elif [ -z "$SPHINXDIRS" ]; then
	echo "kernel-check: sphinx skipped (no documentation touched)"
else
	SB=$KC/sphinx-$TK-base-$DK
	SP=$KC/sphinx-$TK-$SK-$DK
	cached=
	[ -f "$SB.complete" ] && [ -f "$SP.complete" ] && cached="(cached)"
	sphinx_build "$PRISTINE" "$SB" || { log_tail "$SB.log"; die sphinx "$t" "unpatched tree: htmldocs failed"; }
	sphinx_build "$TREE" "$SP" || { log_tail "$SP.log"; die sphinx "$t" "patched tree: htmldocs failed"; }
	# A SPHINXDIRS build is one Sphinx project per directory, so a :doc:
	# reference into another directory (or back into its own through
	# "../dir/") is "unknown" there even when it resolves in a full build.
	# Such a new warning is accepted when the document exists.
	new='' accepted=''
	while IFS= read -r w; do
		[ -n "$w" ] || continue
		ref=$(printf '%s\n' "$w" | sed -n "s|.*WARNING: unknown document: '\.\./\([^']*\)'.*|\1|p")
		if [ -n "$ref" ] && [ -f "$TREE/Documentation/$ref.rst" ]; then
			accepted="$accepted$w"$'\n'
		else
			new="$new$w"$'\n'
		fi
	done < <(comm -13 "$SB.warnings" "$SP.warnings")
	new=${new%$'\n'} accepted=${accepted%$'\n'}
	[ -z "$accepted" ] || printf '%s\n' "$accepted" |
		sed 's/^/    accepted (cross-directory reference, resolves in a full build): /'
	# shellcheck disable=SC2046 # patch file names have no spaces
	if ! "$HELPERS/htmlcheck.py" "$TREE" "$SP/Documentation/output" \
		$(for p in $SERIES; do echo "$PATCHES/$p"; done) >"$SP.htmlcheck" 2>&1; then
		sed 's/^/    /' "$SP.htmlcheck"
		fail sphinx "$t" "new text missing from the HTML"
	elif [ -n "$new" ]; then
		printf '%s\n' "$new" | sed 's/^/    new warning: /'
		fail sphinx "$t" "$(printf '%s\n' "$new" | wc -l) new warnings"
	else
		ok sphinx "$t" "SPHINXDIRS=\"$SPHINXDIRS\": 0 new warnings (unpatched $(wc -l <"$SB.warnings"), patched $(wc -l <"$SP.warnings")${accepted:+, $(printf '%s\n' "$accepted" | wc -l) accepted}), $(grep -c '^found' "$SP.htmlcheck") new lines found in the HTML $cached"
	fi
fi

# --- kernel ------------------------------------------------------------------
t=$(now)
KERNEL=$KC/bzImage-$TK-$SK-$CK
cached=
if [ -f "$KERNEL" ]; then
	cached="(cached)"
else
	O=$KC/kbuild-$TK-$SK-$CK
	rm -rf "$O" && mkdir -p "$O"
	printf 'CONFIG_LOCALVERSION="%s"\n' "$LOCALVERSION" >"$O/lv-fragment.config"
	(
		set -e
		cd "$TREE"
		make O="$O" ARCH=x86_64 tinyconfig
		scripts/kconfig/merge_config.sh -m -O "$O" "$O/.config" "$FRAGMENT" "$O/lv-fragment.config"
		make O="$O" ARCH=x86_64 olddefconfig
	) >"$O/config.log" 2>&1 || { log_tail "$O/config.log"; die kernel "$t" "configuration failed"; }
	for l in $(grep -hE '^(CONFIG_|# CONFIG_)' "$FRAGMENT" "$O/lv-fragment.config" |
		grep -v '^CONFIG_LOCALVERSION=' | tr ' ' '~') "$(cat "$O/lv-fragment.config")"; do
		l=${l//\~/ }
		grep -qxF "$l" "$O/.config" || die kernel "$t" "not in .config: $l"
	done
	tb=$(now)
	(cd "$TREE" && make O="$O" ARCH=x86_64 LOCALVERSION= -j"$JOBS" bzImage) >"$O/build.log" 2>&1 ||
		{ log_tail "$O/build.log"; die kernel "$t" "make bzImage failed (log: $O/build.log)"; }
	release=$(cd "$TREE" && make -s O="$O" ARCH=x86_64 LOCALVERSION= kernelrelease 2>/dev/null)
	case $release in *"$LOCALVERSION") ;; *) die kernel "$t" "kernelrelease $release lacks $LOCALVERSION";; esac
	cp "$O/arch/x86/boot/bzImage" "$KERNEL.tmp" && mv "$KERNEL.tmp" "$KERNEL"
	echo "$release" >"$KERNEL.release"
	echo "make -j$JOBS bzImage took $(since "$tb")" >"$KERNEL.time"
	# Keep the configuration and the log; the objects are not needed again.
	cp "$O/.config" "$KERNEL.config"; cp "$O/build.log" "$KERNEL.log"
	rm -rf "$O"
fi
ok kernel "$t" "$(cat "$KERNEL.release") $(du -k "$KERNEL" | cut -f1) KiB $cached${cached:+ }$(cat "$KERNEL.time" 2>/dev/null)"

# --- initramfs ---------------------------------------------------------------
t=$(now)
RUN=$KC/run
rm -rf "$RUN" && mkdir -p "$RUN"
ROOT=$RUN/root
GEN=$KC/gen_init_cpio-$TK
if [ ! -x "$GEN" ]; then
	cc -O2 -o "$GEN.tmp" "$PRISTINE/usr/gen_init_cpio.c" >"$RUN/gen.log" 2>&1 &&
		mv "$GEN.tmp" "$GEN" || { log_tail "$RUN/gen.log"; die initramfs "$t" "gen_init_cpio build failed"; }
fi
mkdir -p "$ROOT"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,run,root,tree}
cp "$BUSYBOX" "$ROOT/bin/busybox"
cp "$INIT" "$ROOT/init"
chmod 755 "$ROOT/init"
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
for b in gpg gpg-agent gpgconf; do
	p=$(command -v "$b") || die initramfs "$t" "no $b"
	copy_elf "$p" "$p" || die initramfs "$t" "$b: libraries"
done
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$ROOT/etc/passwd"
printf 'root:x:0:\n' >"$ROOT/etc/group"
# The officer's keys and the report, made fresh on the host.
"$HELPERS/mkgnupg.sh" "$RUN/gnupg" >"$RUN/gnupg.log" 2>&1 ||
	{ log_tail "$RUN/gnupg.log"; die initramfs "$t" "key generation failed"; }
. "$RUN/gnupg/env"
SUBJECT="[SECURITY] foo: use-after-free in FOO_IOCTL"
"$HELPERS/mkreport.py" --gnupghome "$RUN/gnupg/reporter" --sign-as "$REPORTER_FPR" \
	--to "$OFFICER_FPR" --from "Rita Reporter <rita@example.net>" \
	--subject "$SUBJECT" >"$ROOT/report.eml" 2>"$RUN/report.log" ||
	{ log_tail "$RUN/report.log"; die initramfs "$t" "report mail failed"; }
gpgconf --homedir "$RUN/gnupg/reporter" --kill all 2>/dev/null
mkdir -p "$ROOT/gnupg" && chmod 700 "$ROOT/gnupg"
(cd "$RUN/gnupg/officer" && find . ! -name 'S.*' ! -name '*.lock' ! -name '.#*' -type f |
	cpio -pdm --quiet "$ROOT/gnupg") || die initramfs "$t" "GNUPGHOME copy failed"
chmod -R go-rwx "$ROOT/gnupg"
# A minimal tree: the patched MAINTAINERS and the documents it is asked about.
cp "$TREE/MAINTAINERS" "$ROOT/tree/MAINTAINERS"
for d in $DOCS; do install -D -m 644 "$TREE/$d" "$ROOT/tree/$d"; done
GUEST_DOCS=$(echo $DOCS)
cat >"$ROOT/etc/kernel-check.conf" <<EOF
LOCALVERSION='$LOCALVERSION'
SUBJECT='$SUBJECT'
DOCS='$GUEST_DOCS'
EOF
# gen_init_cpio list: root-owned, with /dev/console for the first output.
{
	echo "nod /dev/console 0600 0 0 c 5 1"
	(cd "$ROOT" && find . -mindepth 1 | sort) | while read -r f; do
		p=${f#.}
		m=$(stat -c %a "$ROOT$p")
		if [ -L "$ROOT$p" ]; then echo "slink $p $(readlink "$ROOT$p") $m 0 0"
		elif [ -d "$ROOT$p" ]; then echo "dir $p $m 0 0"
		else echo "file $p $ROOT$p $m 0 0"; fi
	done
} >"$RUN/initramfs.list"
"$GEN" "$RUN/initramfs.list" 2>"$RUN/gen.log" | gzip -1 >"$RUN/initramfs.cpio.gz" ||
	{ log_tail "$RUN/gen.log"; die initramfs "$t" "gen_init_cpio failed"; }
ok initramfs "$t" "$(du -k "$RUN/initramfs.cpio.gz" | cut -f1) KiB, $(grep -c '^file' "$RUN/initramfs.list") files"

# --- boot --------------------------------------------------------------------
t=$(now)
CONSOLE=$RUN/console.log
qemu-system-x86_64 -m 512 -cpu max -smp 1 -nographic -no-reboot -net none \
	-kernel "$KERNEL" -initrd "$RUN/initramfs.cpio.gz" \
	-append "console=ttyS0 panic=-1 quiet" </dev/null >"$CONSOLE" 2>"$RUN/qemu.err" &
QPID=$!
end=$(( $(date +%s) + BOOT_TIMEOUT ))
how=timeout
while [ "$(date +%s)" -lt "$end" ]; do
	if ! kill -0 "$QPID" 2>/dev/null; then how=exited; break; fi
	if grep -q 'SECTEAM-DONE' "$CONSOLE" 2>/dev/null; then
		# Let poweroff finish; stop QEMU if it does not.
		for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$QPID" 2>/dev/null || break; sleep 1; done
		how=finished
		break
	fi
	sleep 1
done
if kill -0 "$QPID" 2>/dev/null; then
	kill "$QPID" 2>/dev/null; sleep 1; kill -9 "$QPID" 2>/dev/null
	[ "$how" = finished ] && how="finished, QEMU stopped"
fi
wait "$QPID" 2>/dev/null
tr -d '\r' <"$CONSOLE" >"$CONSOLE.txt"
if [ "$how" = timeout ]; then
	log_tail "$CONSOLE.txt"
	fail boot "$t" "no SECTEAM-DONE within ${BOOT_TIMEOUT}s (console: $CONSOLE.txt)"
elif ! grep -q 'SECTEAM-DONE' "$CONSOLE.txt"; then
	log_tail "$CONSOLE.txt"; log_tail "$RUN/qemu.err" 5
	fail boot "$t" "QEMU ended without SECTEAM-DONE (console: $CONSOLE.txt)"
else
	ok boot "$t" "$(sed -n 's/.*SECTEAM-BEGIN //p' "$CONSOLE.txt" | head -n 1), $how"
fi

# --- guest steps -------------------------------------------------------------
STEPS="localversion version gnupg import"
for d in $DOCS; do STEPS="$STEPS maintainers:$d"; done
STEPS="$STEPS date export"
for s in $STEPS; do
	line=$(grep -F "SECTEAM-STEP $s " "$CONSOLE.txt" | tail -n 1 | sed 's/.*SECTEAM-STEP /SECTEAM-STEP /')
	res=$(printf '%s\n' "$line" | cut -d' ' -f3)
	detail=$(printf '%s\n' "$line" | cut -d' ' -f4- | cut -c1-160)
	case $res in
	PASS) echo "kernel-check: guest $s ok $detail" ;;
	FAIL) echo "kernel-check: guest $s FAIL $detail"; FAILED=1 ;;
	*) echo "kernel-check: guest $s FAIL (no line on the console)"; FAILED=1 ;;
	esac
done

if [ "$FAILED" = 0 ]; then
	echo "kernel-check: total ok ($(since "$T0"))"
	exit 0
fi
echo "kernel-check: total FAIL ($(since "$T0"))"
exit 1
