#!/bin/bash
# kernel-upstream-blobs.sh: where the blob ids that kernel-docs/series
# pins (Pre-Image:, Post-Image:) come from, computed again from Debian's
# trees (not part of make kernel-check; it reads both tarballs, about a
# minute).
#
# Upstream's commit 0217f3944aeb changed the Coordination section of
# security-bugs.rst; its posting shows "index 5a6993795bd2..692a3ba56cca".
#   pre-image:  6.1's admin-guide/security-bugs.rst as it is (6.1 has the
#               text mainline had before the commit)
#   post-image: 6.12's process/security-bugs.rst (6.12 has the commit) with
#               its "CVE assignment" section as the pre-image has it: the
#               later 5928d411557e rewrote that section, nothing else
# Prints both full ids and whether their first 12 digits are the
# posting's; exits 1 when they are not.
set -eu
T61=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
T612=${KERNEL_UPSTREAM_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
W=$(mktemp -d "${TMPDIR:-/tmp}/kernel-blobs.XXXXXX")
trap 'rm -rf "$W"' EXIT
for t in "$T61" "$T612"; do
	[ -r "$t" ] || { echo "kernel-upstream-blobs: no $t (apt-get install linux-source-6.1 linux-source-6.12)" >&2; exit 1; }
done
mkdir -p "$W/61" "$W/612"
tar -xJf "$T61" -C "$W/61" --strip-components=1 --wildcards '*/Documentation/admin-guide/security-bugs.rst' &
tar -xJf "$T612" -C "$W/612" --strip-components=1 --wildcards '*/Documentation/process/security-bugs.rst' &
wait
A=$W/61/Documentation/admin-guide/security-bugs.rst
B=$W/612/Documentation/process/security-bugs.rst
# the post-image: 6.12's file up to its CVE section, then the pre-image's
# from its CVE section on
{ sed -n '/^CVE assignment$/q; p' "$B"; sed -n '/^CVE assignment$/,$p' "$A"; } >"$W/post"
pre=$(git hash-object --no-filters "$A")
post=$(git hash-object --no-filters "$W/post")
bad=0
for x in "pre-image $pre 5a6993795bd2" "post-image $post 692a3ba56cca"; do
	set -- $x
	if [ "${2:0:12}" = "$3" ]; then
		echo "$1 $2 (the posting's $3)"
	else
		echo "$1 $2: NOT the posting's $3"
		bad=1
	fi
done
exit $bad
