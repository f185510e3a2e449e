#!/bin/sh
# The parts of the man page that come from tables in the code, each
# written between its markers in secteam-tui.1 (`.\" NAME-begin` and
# `.\" NAME-end`):
#   keys      the UI's key table      secteam-tui --keys-roff    (tui/keys.c)
#   formats   the export formats      secteam-tui --formats-roff (export/export.c)
#   options   each command's options  secteam-tui --options-roff (cmd/*.c)
#   marks     the list's signature marks  secteam-tui --marks-roff (tui/view-reports.c)
#   scripts/man-page.sh [BIN]          update the page (make man)
#   scripts/man-page.sh --check BIN    fail (TAP) when the page is stale
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
check=0
[ "${1:-}" = "--check" ] && { check=1; shift; }
BIN=${1:-$top/build/secteam-tui}
page=$top/secteam-tui.1
new=$(mktemp)
tmp=$(mktemp)
trap 'rm -f "$new" "$tmp"' EXIT
cp "$page" "$new"
for part in keys formats options marks; do
	# The text goes through the environment: awk -v would read its
	# backslashes as escapes.
	MAN_PART=$part MAN_TEXT=$("$BIN" --$part-roff) awk '
		index($0, ".\\\" " ENVIRON["MAN_PART"] "-begin") == 1 {
			print; print ENVIRON["MAN_TEXT"]; skip = 1; found++; next
		}
		index($0, ".\\\" " ENVIRON["MAN_PART"] "-end") == 1 { skip = 0; found++ }
		!skip { print }
		END { if (found != 2) exit 1 }' "$new" >"$tmp" ||
		{ echo "man-page.sh: no $part-begin/$part-end markers in secteam-tui.1" >&2; exit 1; }
	cp "$tmp" "$new"
done
if [ $check = 1 ]; then
	echo "1..1"
	if cmp -s "$new" "$page"; then
		echo "ok 1 - secteam-tui.1 lists the key table, the export formats, the options and the signature marks as they are"
	else
		echo "not ok 1 - secteam-tui.1 is stale: run make man"
		diff "$page" "$new" | sed 's/^/# /' | head -20
		exit 1
	fi
else
	cp "$new" "$page"
fi
