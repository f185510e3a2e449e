#!/bin/sh
# kernel-tree.sh [--partial|--files]: prints the path of a pristine kernel tree
# unpacked from Debian's linux-source tarball into the cache (outside the
# repository), unpacking it the first time.  The cache key is the tarball's
# hash, so a new linux-source package gives a new tree.  Installs
# linux-source-6.1 when no tarball is there (root only).
#
# Without an option: the whole tree, $cache/linux-KEY (the MAINTAINERS
# oracle, the benchmarks, `make kernel-check-full`).
# --partial: only what `make kernel-check` uses, $cache/kernel-check/src-KEY-P
# (P: hash of the list below): the x86 kernel build, Documentation/ for the
# Sphinx build, scripts/ for checkpatch and get_maintainer.pl, and every
# Kconfig, Makefile and Kbuild file so that Kconfig and the build's descent
# still find them.  Left out: the headers, assembly and device trees of the
# other architectures (their C files stay: kernel-doc directives of
# admin-guide/ name some), the sources of the biggest driver and subsystem
# folders that the guest's configuration never builds (GPU, networking,
# media, sound, ...), perf and the selftests.
# About a third of the tree; the tarball is still read once from end to end.
# --files: not a tree but a file, $cache/linux-KEY.files: every file of the
# whole tree (what `tar -t` lists but directories), one a line, sorted in C
# order; what `make kernel-check` matches MAINTAINERS patterns against.
#   SECTEAM_CACHE   cache directory (default $XDG_CACHE_HOME/secteam-tui)
#   KERNEL_TARBALL  tarball to use (default /usr/src/linux-source-6.1.tar.xz:
#                   the tree the series is for, whatever other linux-source
#                   packages are installed beside it; make kernel-check reads
#                   linux-source-6.12's tarball too, for upstream's file)
set -eu
partial=
files=
case ${1:-} in
--partial) partial=1 ;;
--files) files=1 ;;
'') ;;
*) echo "usage: kernel-tree.sh [--partial|--files]" >&2; exit 2 ;;
esac
cache=${SECTEAM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/secteam-tui}
DEFAULT=/usr/src/linux-source-6.1.tar.xz
tarball=${KERNEL_TARBALL:-}
if [ -z "$tarball" ] && [ ! -f "$DEFAULT" ]; then
	if [ "$(id -u)" = 0 ]; then
		echo "kernel-tree: installing linux-source-6.1" >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq linux-source-6.1 >&2 ||
			{ apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq linux-source-6.1 >&2; }
	else
		echo "kernel-tree: no $DEFAULT; run: apt-get install linux-source-6.1" >&2
		exit 1
	fi
fi
tarball=${tarball:-$DEFAULT}
[ -r "$tarball" ] || { echo "kernel-tree: cannot read tarball '$tarball'" >&2; exit 1; }
# The key: the tarball's hash, remembered for its path, size and time (a
# rerun does not read 150 MB again for it)
stamp="$tarball $(stat -c '%s %Y' "$tarball")"
key=
[ -f "$cache/tarball.keys" ] && key=$(awk -v s="$stamp" 'substr($0, 1, length(s) + 1) == s " " { k = $NF } END { print k }' "$cache/tarball.keys")
if [ -z "$key" ]; then
	key=$(sha256sum "$tarball" | cut -c1-16)
	mkdir -p "$cache" && echo "$stamp $key" >>"$cache/tarball.keys"
fi

if [ -n "$files" ]; then
	list="$cache/linux-$key.files"
	if [ ! -f "$list" ]; then
		mkdir -p "$cache"
		echo "kernel-tree: listing $(basename "$tarball") into $list" >&2
		# the top directory left out, as --strip-components=1 does
		tar -tJf "$tarball" | sed -n 's|^[^/]*/\(.*[^/]\)$|\1|p' | LC_ALL=C sort >"$list.tmp.$$" &&
			mv "$list.tmp.$$" "$list" || { rm -f "$list.tmp.$$"; exit 1; }
	fi
	echo "$list"
	exit 0
fi

# Patterns for tar --exclude, relative to the tree's top directory; a
# pattern matches at any depth below the folder it names.
EXCLUDE='arch/[a-w]*/*.[hS]
arch/[a-w]*/*.dts*
arch/xtensa/*.[hS]
arch/xtensa/*.dts*
LICENSES
tools/perf
tools/testing
tools/arch/[a-w]*
tools/arch/xtensa
drivers/gpu/*.[chS]
drivers/net/*.[chS]
drivers/media/*.[chS]
drivers/staging/*.[chS]
drivers/scsi/*.[chS]
drivers/infiniband/*.[chS]
drivers/usb/*.[chS]
sound/*.[chS]
net/*.[chS]'

if [ -n "$partial" ]; then
	pk=$(printf '%s\n' "$EXCLUDE" | sha256sum | cut -c1-8)
	dir="$cache/kernel-check/src-$key-$pk"
else
	dir="$cache/linux-$key"
fi
if [ ! -f "$dir.complete" ]; then
	mkdir -p "$(dirname "$dir")"
	# Two callers at once: the second waits, then finds the tree.
	exec 8>"$dir.lock"
	flock 8
fi
if [ ! -f "$dir.complete" ]; then
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	echo "kernel-tree: unpacking $(basename "$tarball") into $dir${partial:+ (partial)}" >&2
	if [ -n "$partial" ]; then
		# The tarball's top directory, for anchoring the patterns.
		top=$(tar -tJf "$tarball" 2>/dev/null | head -n 1 | cut -d/ -f1)
		[ -n "$top" ] || { echo "kernel-tree: '$tarball' lists no files" >&2; exit 1; }
		set -f # the patterns are for tar, not for the shell
		set --
		for p in $EXCLUDE; do set -- "$@" "--exclude=$top/$p"; done
		set +f
		tar -xJf "$tarball" -C "$dir.tmp" --strip-components=1 --anchored "$@"
	else
		tar -xJf "$tarball" -C "$dir.tmp" --strip-components=1
	fi
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
	touch "$dir.complete"
fi
echo "$dir"
