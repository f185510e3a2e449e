#!/bin/sh
# search over N encrypted and signed reports for a phrase only one body
# holds (so every body is opened), against a shell loop of `gpg
# --decrypt` over the same N messages, in the same run.  Prints both
# times (median of RUNS runs) and the ratio, for each N in SIZES.
# The bodies here are sealed under the team key, so this is a small
# cold search against the gpg loop; the target (100,000 reports
# in 1 s warm, 30 s cold) is bench/sealed.sh's "bodies" figures.
set -eu
BIN=${1:-build/secteam-tui}
top=$(cd "$(dirname "$0")/.." && pwd)
SIZES=${SIZES:-200 2000}
RUNS=${RUNS:-3}
W=$(mktemp -d "${TMPDIR:-/tmp}/secteam-bench.XXXXXX")
. "$top/tests/lib/gpg-env.sh"
. "$top/bench/lib.sh"
trap 'gpg_env_teardown "$W/keys" >/dev/null 2>&1; rm -rf "$W"' EXIT
gpg_env_setup "$W/keys" >/dev/null
H=$W/keys/home
now() { date +%s.%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for N in $SIZES; do
	rm -rf "$W/md" "$W/db"*
	mkdir -p "$W/md/new" "$W/md/cur"
	bench_reports "$W/md/new" "$N" "net/core/skbuff.c" || exit 1
	"$BIN" --db "$W/db" --gnupghome "$H" import "$W/md" >/dev/null
	want=$((N / 2 + 1))
	: >"$W/ours"; : >"$W/gpg"
	r=0
	while [ $r -lt "$RUNS" ]; do
		r=$((r + 1))
		t0=$(now)
		# Cold: a cache of terms filters of its own each run.
		SECTEAM_CACHE="$W/cache-$N-$r" "$BIN" --db "$W/db" --gnupghome "$H" \
			search --json "\"number $want touches\"" >"$W/out"
		t1=$(now)
		echo "$t1 - $t0" | bc >>"$W/ours"
		t0=$(now)
		for f in "$W"/md/new/*.eml; do
			gpg --homedir "$H" --batch --quiet --decrypt "$f" >/dev/null 2>&1
		done
		t1=$(now)
		echo "$t1 - $t0" | bc >>"$W/gpg"
	done
	found=$(jq -r '[.[].subject] | join("; ")' "$W/out")
	ours=$(median <"$W/ours")
	peer=$(median <"$W/gpg")
	printf 'search %s encrypted+signed reports (every body opened): secteam-tui %.2fs (%.1f ms a report), gpg --decrypt loop %.2fs, ratio %.2f; found: %s (want Report %s)\n' \
		"$N" "$ours" "$(echo "$ours * 1000 / $N" | bc -l)" "$peer" \
		"$(echo "$ours / $peer" | bc -l)" "$found" "$want"
done
