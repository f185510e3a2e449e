#!/bin/sh
# bench/search-index.sh [BINARY]: body search through the officer's
# sealed index against notmuch (Xapian, its terms in clear on disk) on
# the same N messages, in the same run.  The messages are plain mail with
# bodies of words drawn from a 6,000-word vocabulary (Zipf-like), one
# holding "zanzibarquux", a tenth "use after free"; secteam-tui imports
# them (so they are sealed under the team key) and notmuch indexes the
# same files.  Printed, each with the ratio (ours / notmuch's):
#   cold  notmuch new, against the search that opens every body and makes
#         our index (a fresh cache: the import made one as it stored the
#         messages, which is removed first); and the import itself
#         (verifying, sealing, storing and indexing) beside notmuch new
#   warm  a word a few hold, a phrase, a word none holds: medians of RUNS
#         runs of `search --json` and `notmuch search --output=messages`
#   size  the index file against notmuch's .notmuch folder
# Bench dependencies (not make check's): notmuch (apt-get install
# notmuch), jq.
#   BENCH_N (default 2000; the issue's figure is at 100000), RUNS (5)
set -eu
BIN=${1:-build/secteam-tui}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
top=$(cd "$(dirname "$0")/.." && pwd)
N=${BENCH_N:-2000}
RUNS=${RUNS:-5}
command -v notmuch >/dev/null ||
	{ echo "bench/search-index.sh: needs notmuch (apt-get install notmuch)" >&2; exit 1; }
W=$(mktemp -d "${TMPDIR:-/tmp}/secteam-bench.XXXXXX")
. "$top/tests/lib/gpg-env.sh"
trap 'gpg_env_teardown "$W/keys" >/dev/null 2>&1; rm -rf "$W"' EXIT
gpg_env_setup "$W/keys" >/dev/null
H=$W/keys/home
export XDG_CONFIG_HOME="$W/config" SECTEAM_CACHE="$W/cache"
now() { date +%s.%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b - a) * 1000 }'; }
st() { "$BIN" --db "$W/db" --gnupghome "$H" "$@"; }

mkdir -p "$W/mail/cur" "$W/mail/new" "$W/tmp"
/usr/bin/python3 - "$N" "$W/mail/new" <<'PY'
import random, sys
n, out = int(sys.argv[1]), sys.argv[2]
rnd = random.Random(54)
syl = "ka zu mor tel qi ban ox lu fe rin dag po se vin tra mul".split()
vocab = sorted({"".join(rnd.choice(syl) for _ in range(rnd.randint(2, 4)))
                for _ in range(9000)})[:6000]
weights = [1.0 / (i + 1) for i in range(len(vocab))]
for i in range(1, n + 1):
    words = rnd.choices(vocab, weights, k=rnd.randint(80, 250))
    if i == n // 2:
        words.insert(10, "zanzibarquux")
    if i % 10 == 3:
        words[5:5] = ["use", "after", "free"]
    body = " ".join(words)
    with open(f"{out}/{i}.eml", "w") as f:
        f.write(f"From: Rita Reporter <rita@example.net>\nTo: security@example.org\n"
                f"Subject: Report {i}: a bug\nMessage-ID: <bench-{i}@example.net>\n"
                f"Date: Wed, 02 Dec 2026 09:00:00 +0000\n\n{body}\n")
PY
t0=$(now); st import "$W/mail" >/dev/null; t1=$(now)
our_import=$(ms "$t0" "$t1")
# a word a few hold, as text: search matches words as substrings, so a
# word held by 0.5-2% of the messages that way (not inside many longer
# words, which notmuch would not count); counted in one pass
word=$(/usr/bin/python3 - "$N" "$W/mail/new" <<'PY'
import os, re, sys
n, d = int(sys.argv[1]), sys.argv[2]
names = sorted(os.listdir(d))  # as the shell globs them
texts = [open(os.path.join(d, f)).read() for f in names]
lines = [l for t in texts for l in t.splitlines()]
sample = " ".join(l for i, l in enumerate(lines, 1) if i % 11 == 0)
for w in sorted(set(re.findall(r"(?<!\S)[a-z]{9,}(?!\S)", sample)))[:200]:
    c = sum(1 for t in texts if w in t)
    if n // 200 + 1 <= c <= n // 50 + 1:
        print(w)
        break
PY
)
[ -n "$word" ] || word=zanzibarquux

cat >"$W/nmconfig" <<EOC
[database]
path=$W/mail
[new]
tags=unread;
[search]
exclude_tags=
[maildir]
synchronize_flags=false
EOC
export NOTMUCH_CONFIG="$W/nmconfig"
t0=$(now); notmuch new --quiet >/dev/null 2>&1; t1=$(now)
nm_cold=$(ms "$t0" "$t1")
# the import made the index as it stored the messages; the cold figure
# is the index made from nothing, by a search that opens every body
# (as after a team key rotation)
rm -f "$W/cache/"search-*.db
t0=$(now); st search zzqxnomatch >/dev/null 2>&1; t1=$(now)
our_cold=$(ms "$t0" "$t1")

warm() { # LABEL OUR-QUERY NOTMUCH-QUERY
	: >"$W/o"; : >"$W/n"
	r=0
	while [ $r -lt "$RUNS" ]; do
		r=$((r + 1))
		t0=$(now); st search --json "$2" >"$W/out.o" 2>/dev/null; t1=$(now)
		ms "$t0" "$t1" >>"$W/o"; echo >>"$W/o"
		t0=$(now); notmuch search --output=messages "$3" >"$W/out.n"; t1=$(now)
		ms "$t0" "$t1" >>"$W/n"; echo >>"$W/n"
	done
	o=$(grep . "$W/o" | median) n=$(grep . "$W/n" | median)
	printf '%-40s secteam-tui %8.1f ms  notmuch %8.1f ms  ratio %5.2f  (%s vs %s found)\n' \
		"$1" "$o" "$n" "$(echo "$o / $n" | bc -l)" \
		"$(jq length "$W/out.o")" "$(wc -l <"$W/out.n")"
}
echo "search-index bench: $N messages (BENCH_N), medians of $RUNS runs"
printf '%-40s secteam-tui %8.1f ms  notmuch %8.1f ms  ratio %5.2f\n' \
	"cold: index every body" "$our_cold" "$nm_cold" "$(echo "$our_cold / $nm_cold" | bc -l)"
printf '%-40s secteam-tui %8.1f ms  notmuch %8.1f ms  ratio %5.2f\n' \
	"import (sealed, indexed) / notmuch new" "$our_import" "$nm_cold" "$(echo "$our_import / $nm_cold" | bc -l)"
warm "warm: word '$word'" "$word" "$word"
warm "warm: phrase \"use after free\"" '"use after free"' '"use after free"'
warm "warm: word none holds" zzqxnomatch zzqxnomatch
ours=$(du -k "$W/cache/"search-*.db | awk '{ s += $1 } END { print s }')
theirs=$(du -sk "$W/mail/.notmuch" | awk '{ print $1 }')
printf '%-40s secteam-tui %8d KB  notmuch %8d KB  ratio %5.2f\n' \
	"index size" "$ours" "$theirs" "$(echo "$ours / $theirs" | bc -l)"
