#!/bin/sh
# The man page's KEYS section comes from the UI's key table: this writes
# `secteam-tui --keys-roff` between the markers of secteam-tui.1.
#   scripts/man-keys.sh BIN           update the page
#   scripts/man-keys.sh --check BIN   fail (TAP) when the page is stale
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
check=0
[ "${1:-}" = "--check" ] && { check=1; shift; }
BIN=${1:-$top/build/secteam-tui}
page=$top/secteam-tui.1
new=$(mktemp)
trap 'rm -f "$new"' EXIT
awk -v keys="$("$BIN" --keys-roff)" '
	/^\.\\" keys-begin/ { print; print keys; skip = 1; next }
	/^\.\\" keys-end/ { skip = 0 }
	!skip { print }' "$page" > "$new"
if [ $check = 1 ]; then
	echo "1..1"
	if cmp -s "$new" "$page"; then
		echo "ok 1 - secteam-tui.1 lists the key table as it is"
	else
		echo "not ok 1 - secteam-tui.1 is stale: run scripts/man-keys.sh"
		diff "$page" "$new" | sed 's/^/# /' | head -20
		exit 1
	fi
else
	cp "$new" "$page"
fi
