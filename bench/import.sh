#!/bin/sh
# Import 200 encrypted and signed PGP/MIME reports, against a shell loop
# of `gpg --decrypt` over the same 200 messages, in the same run.  Prints
# both times (median of RUNS runs) and the ratio.  Target: <= 0.7 (the
# import decrypts on every processor).  Per message, GPGME starts
# gpg with two forks of this process, each dearer than the loop's shell's
# (about 1.35 ms against 0.5 ms of CPU here), and the gpg it runs
# (through secteam-gpg: --quiet, as the loop's) costs what the loop's does.
# Also times `import --jobs 1` (one decryption at a time, as the gpg loop
# does) to show what the read-ahead buys, and the import with
# SECTEAM_GPG_QUIET=0 (GPGME running gpg itself, not secteam-gpg's gpg
# --quiet) to show what that buys.
set -eu
BIN=${1:-build/secteam-tui}
top=$(cd "$(dirname "$0")/.." && pwd)
N=${N:-200}
RUNS=${RUNS:-3}
W=$(mktemp -d "${TMPDIR:-/tmp}/secteam-bench.XXXXXX")
. "$top/tests/lib/gpg-env.sh"
. "$top/bench/lib.sh"
trap 'gpg_env_teardown "$W/keys" >/dev/null 2>&1; rm -rf "$W"' EXIT
gpg_env_setup "$W/keys" >/dev/null
mkdir -p "$W/md/new" "$W/md/cur"
bench_reports "$W/md/new" "$N" "net/core/skbuff.c and include/linux/skbuff.h" || exit 1
H=$W/keys/home
now() { date +%s.%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
: > "$W/ours"; : > "$W/gpg"; : > "$W/ours1"; : > "$W/loud"
r=0
while [ $r -lt "$RUNS" ]; do
	r=$((r + 1))
	rm -f "$W/db"*
	t0=$(now)
	"$BIN" --db "$W/db" --gnupghome "$H" import "$W/md" > "$W/out"
	t1=$(now)
	echo "$t1 - $t0" | bc >> "$W/ours"
	rm -f "$W/db"*
	t0=$(now)
	"$BIN" --db "$W/db" --gnupghome "$H" import --jobs 1 "$W/md" > "$W/out1"
	t1=$(now)
	echo "$t1 - $t0" | bc >> "$W/ours1"
	rm -f "$W/db"*
	t0=$(now)
	SECTEAM_GPG_QUIET=0 "$BIN" --db "$W/db" --gnupghome "$H" import "$W/md" > "$W/outl"
	t1=$(now)
	echo "$t1 - $t0" | bc >> "$W/loud"
	t0=$(now)
	for f in "$W"/md/new/*.eml; do
		gpg --homedir "$H" --batch --quiet --decrypt "$f" > /dev/null 2>&1
	done
	t1=$(now)
	echo "$t1 - $t0" | bc >> "$W/gpg"
done
imported=$(grep -c '	valid	' "$W/out" || true)
imported1=$(grep -c '	valid	' "$W/out1" || true)
importedl=$(grep -c '	valid	' "$W/outl" || true)
loud=$(median < "$W/loud")
ours=$(median < "$W/ours")
ours1=$(median < "$W/ours1")
peer=$(median < "$W/gpg")
printf 'import %s encrypted+signed reports: secteam-tui %.2fs, gpg --decrypt loop %.2fs, ratio %.2f (target <= 0.70; %s imported as valid)\n' \
	"$N" "$ours" "$peer" "$(echo "$ours / $peer" | bc -l)" "$imported"
printf '  with --jobs 1 (one decryption at a time): %.2fs, ratio %.2f (%s imported as valid)\n' \
	"$ours1" "$(echo "$ours1 / $peer" | bc -l)" "$imported1"
printf '  with SECTEAM_GPG_QUIET=0 (gpg without --quiet): %.2fs, ratio %.2f (%s imported as valid)\n' \
	"$loud" "$(echo "$loud / $peer" | bc -l)" "$importedl"
