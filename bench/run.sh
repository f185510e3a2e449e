#!/bin/sh
# make bench: every bench/*.sh but this one and the fixture makers
# (mk*), each printing our time, the peer's time on the same work in the
# same run, and the ratio.
top=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-build}
rc=0
for b in "$top"/bench/*.sh; do
	case "$(basename "$b")" in run.sh|mk*) continue ;; esac
	echo "== $(basename "$b" .sh)"
	sh "$b" "$top/$B/secteam-tui" || rc=1
done
exit $rc
