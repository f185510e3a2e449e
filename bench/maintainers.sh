#!/bin/sh
# MAINTAINERS lookups: secteam-tui against the kernel's
# scripts/get_maintainer.pl --nogit --nogit-fallback, on the tree of
# scripts/kernel-tree.sh, the same work in the same run:
#   (a) one 50-file patch: one process each;
#   (b) 300 files: one process each given all 300 files (-f F1 F2 ... /
#       --file F1 --file F2 ...); both merge the files into one answer;
#   (c) the same 300 files one at a time: 300 processes each (what a
#       per-file answer costs from the shell; includes process start-up),
#       also printed per process; ours maps the compiled MAINTAINERS from
#       the cache (made once before, its time printed: "compile");
#   (d) the same 300 single-file answers from one secteam-tui process
#       (--each), against get_maintainer.pl's time of (c), which is how it
#       gives a per-file answer.
# Times are the median of BENCH_RUNS runs (default 3; (c) uses
# BENCH_PERFILE_RUNS, default 1, as get_maintainer.pl takes minutes).
# "same" compares the sets of e-mail addresses, and the full text.
#   usage: bench/maintainers.sh [BINARY]   (default build/secteam-tui)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$top/build/secteam-tui}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
runs=${BENCH_RUNS:-3}
pruns=${BENCH_PERFILE_RUNS:-1}
export LC_ALL=C
[ -x "$bin" ] || { echo "bench/maintainers.sh: no binary '$bin'" >&2; exit 1; }
tree=$(sh "$top/scripts/kernel-tree.sh") || exit 1
work=$(mktemp -d "${TMPDIR:-/tmp}/maint-bench.XXXXXX") || exit 1
[ -n "${BENCH_KEEP:-}" ] && echo "work dir $work" || trap 'rm -rf "$work"' EXIT INT TERM
export XDG_CONFIG_HOME="$work/config"
export SECTEAM_CACHE="$work/cache" # the compiled MAINTAINERS, made below

pick() {
	awk -v n="$1" '{ a[NR] = $0 }
	END { if (!NR) exit; s = NR / n; if (s < 1) s = 1
	      for (i = 1; i <= NR && c < n; i += s) { print a[int(i)]; c++ } }'
}
(cd "$tree" && find . -type f -print) | sed 's|^\./||' |
	grep -v '[^A-Za-z0-9_./,+=@-]' | sort >"$work/all"
pick 300 <"$work/all" >"$work/files300"
grep '\.[ch]$' "$work/all" | pick 50 >"$work/files50"
{
	printf 'From: Bench <bench@example.org>\nSubject: [PATCH] treewide: touch 50 files\n\n---\n'
	while IFS= read -r f; do
		{ cat "$tree/$f"; echo "/* bench */"; } >"$work/mod"
		echo "diff --git a/$f b/$f"
		diff -u --label "a/$f" --label "b/$f" "$tree/$f" "$work/mod"
	done <"$work/files50"
} >"$work/patch50"

now() { date +%s.%N; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# "FILE ADDRESS" lines of an output ("== FILE" headers in (c))
emails() {
	awk '/^== / { f = substr($0, 4); next }
	{ if (match($0, /^[^ <]*@[^ <]*( |$)/)) { e = substr($0, 1, RLENGTH); sub(/ $/, "", e) }
	  else if (match($0, /<[^>]*>/)) e = substr($0, RSTART + 1, RLENGTH - 2)
	  else next
	  print f " " e }' "$1" | sort -u
}
# time_it RUNS OUT CMD...: median seconds of RUNS runs; output in OUT
time_it() {
	r=$1 out=$2
	shift 2
	i=0
	while [ $i -lt "$r" ]; do
		t0=$(now)
		"$@" >"$out" 2>/dev/null
		t1=$(now)
		echo "$t0 $t1" | awk '{ printf "%.4f\n", $2 - $1 }'
		i=$((i + 1))
	done | median
}
perl_patch() { cd "$tree" && perl scripts/get_maintainer.pl --nogit --nogit-fallback "$work/patch50"; }
ours_patch() { "$bin" maintainers --tree "$tree" --patch "$work/patch50"; }
perl_files() { cd "$tree" && xargs perl scripts/get_maintainer.pl --nogit --nogit-fallback -f <"$work/files300"; }
ours_files() { sed 's/^/--file\n/' "$work/files300" | xargs "$bin" maintainers --tree "$tree"; }
perl_each() {
	cd "$tree" && while IFS= read -r f; do
		echo "== $f"
		perl scripts/get_maintainer.pl --nogit --nogit-fallback -f "$f"
	done <"$work/files300"
}
ours_each1() { sed 's/^/--file\n/' "$work/files300" | xargs "$bin" maintainers --tree "$tree" --each; }
ours_each() {
	while IFS= read -r f; do
		echo "== $f"
		"$bin" maintainers --tree "$tree" --file "$f"
	done <"$work/files300"
}
same() { # same PERL_OUT OUR_OUT: "addresses same|DIFFERENT, text same|differs"
	emails "$1" >"$work/e1"
	emails "$2" >"$work/e2"
	a=DIFFERENT
	cmp -s "$work/e1" "$work/e2" && a=same
	t=differs
	cmp -s "$1" "$2" && t=same
	echo "addresses $a ($(wc -l <"$work/e1") vs $(wc -l <"$work/e2")), text $t"
}
report() { # report LABEL PERL_T OURS_T SAME
	echo "$1" | awk -v p="$2" -v o="$3" -v s="$4" '{
		printf "%-34s get_maintainer.pl %8.3f s  secteam-tui %7.4f s  ratio %7.1fx  %s\n",
		       $0, p, o, (o > 0 ? p / o : 0), s }'
}

echo "maintainers bench: tree $tree"
echo "binary $bin; medians of $runs runs ((c): $pruns)"
pt=$(time_it "$runs" "$work/p.a" perl_patch)
ot=$(time_it "$runs" "$work/o.a" ours_patch)
report "(a) 50-file patch, 1 process" "$pt" "$ot" "$(same "$work/p.a" "$work/o.a")"
pt=$(time_it "$runs" "$work/p.b" perl_files)
ot=$(time_it "$runs" "$work/o.b" ours_files)
report "(b) 300 files, 1 process" "$pt" "$ot" "$(same "$work/p.b" "$work/o.b")"
ct=$(time_it 1 "$work/o.compile" "$bin" maintainers --tree "$tree" --file Makefile)
echo "compile: the first process compiles MAINTAINERS into the cache: $ct s"
pt=$(time_it "$pruns" "$work/p.c" perl_each)
ot=$(time_it "$pruns" "$work/o.c" ours_each)
report "(c) 300 files, 300 processes" "$pt" "$ot" "$(same "$work/p.c" "$work/o.c")"
n=$(wc -l <"$work/files300")
echo "$pt $ot $n" | awk '{ printf "%-34s get_maintainer.pl %8.2f ms  secteam-tui %7.2f ms  ratio %7.1fx\n",
	"(c) per process (one file each)", 1000 * $1 / $3, 1000 * $2 / $3, ($2 > 0 ? $1 / $2 : 0) }'
ot=$(time_it "$runs" "$work/o.d" ours_each1)
report "(d) 300 single files, 1 process" "$pt" "$ot" "$(same "$work/p.c" "$work/o.d")"
echo "text differs: get_maintainer.pl orders sections of equal depth by Perl's"
echo "hash order (random), and prints an empty-address line for 'L: DP ...'."
