#!/bin/sh
# Prints the path of a pristine kernel tree unpacked from Debian's
# linux-source tarball into the cache (outside the repository), unpacking
# it the first time.  The cache key is the tarball's hash, so a new
# linux-source package gives a new tree.  Installs linux-source-6.1 when
# no tarball is there (root only).
#   SECTEAM_CACHE   cache directory (default $XDG_CACHE_HOME/secteam-tui)
#   KERNEL_TARBALL  tarball to use (default the newest /usr/src/linux-source-*.tar.xz)
set -eu
cache=${SECTEAM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/secteam-tui}
tarball=${KERNEL_TARBALL:-$(ls -1 /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)}
if [ -z "$tarball" ]; then
	if [ "$(id -u)" = 0 ]; then
		echo "kernel-tree: installing linux-source-6.1" >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq linux-source-6.1 >&2 ||
			{ apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq linux-source-6.1 >&2; }
		tarball=$(ls -1 /usr/src/linux-source-*.tar.xz | sort -V | tail -n 1)
	else
		echo "kernel-tree: no /usr/src/linux-source-*.tar.xz; run: apt-get install linux-source-6.1" >&2
		exit 1
	fi
fi
key=$(sha256sum "$tarball" | cut -c1-16)
dir="$cache/linux-$key"
if [ ! -f "$dir.complete" ]; then
	mkdir -p "$cache"
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	echo "kernel-tree: unpacking $(basename "$tarball") into $dir" >&2
	tar -xJf "$tarball" -C "$dir.tmp" --strip-components=1
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
	touch "$dir.complete"
fi
echo "$dir"
