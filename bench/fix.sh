#!/bin/sh
# `fix --tree` on a large history, against git on the same tree in the
# same run.  The tree (bench/mkbench-git.py, cached under the cache's
# bench-git/, ~600k commits, 500 tags, three stable branches) has a
# recent fix (early in the last cycle, backported to the three stable
# branches) and an old commit (early in the tenth cycle).  Timed, the
# median of RUNS runs:
#   (a) the recent fix's first tag: `fix ID --commit FIX --tree T`
#       against `git describe --contains FIX`;
#   (b) the same with its three stable branches (--stable x3) against
#       `git describe --contains` plus `git log --grep` on each branch;
#   (c) the old commit's first tag (a walk of most of the history):
#       `fix --introduced OLD` against `git describe --contains OLD`.
# Ours reads the tree with libgit2 (nothing the tree names runs); git
# here is a peer only, run on the bench's own tree.
#   usage: bench/fix.sh [BINARY]
set -eu
BIN=${1:-build/secteam-tui}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
top=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-3}
CYCLES=${CYCLES:-100}
PER=${PER:-4000}
cache=${SECTEAM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/secteam-tui}
G=$cache/bench-git/$CYCLES-$PER-v2.git
W=$(mktemp -d "${TMPDIR:-/tmp}/secteam-bench.XXXXXX")
. "$top/tests/lib/gpg-env.sh"
. "$top/bench/lib.sh"
trap 'gpg_env_teardown "$W/keys" >/dev/null 2>&1; rm -rf "$W"' EXIT
export GIT_CONFIG_NOSYSTEM=1 HOME=$W
if [ ! -f "$G/done" ]; then
	echo "making the bench tree (once, in $G)" >&2
	rm -rf "$G"
	git init -q --bare "$G"
	python3 "$top/bench/mkbench-git.py" main "$CYCLES" "$PER" | git -C "$G" fast-import --quiet
	f=$(git -C "$G" log --format=%H --grep='fix the frobnicator' master)
	python3 "$top/bench/mkbench-git.py" stable "$CYCLES" "$f" | git -C "$G" fast-import --quiet
	touch "$G/done"
fi
FIX=$(git -C "$G" log --format=%H --grep='fix the frobnicator' master)
OLD=$(git -C "$G" log --format=%H --grep='add the frobnicator' master)
BRANCHES=$(git -C "$G" for-each-ref --format='%(refname:short)' 'refs/heads/linux-*')
gpg_env_setup "$W/keys" >/dev/null
bench_reports "$W" 1 "net/core/frob.c" || exit 1
H=$W/keys/home
st() { "$BIN" --db "$W/db" --gnupghome "$H" "$@"; }
st import "$W/1.eml" >/dev/null
stable_args=$(for b in $BRANCHES; do printf ' --stable %s' "$b"; done)
now() { date +%s.%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# time_it CMD...: the median of RUNS runs, in seconds
time_it() {
	i=0
	while [ $i -lt "$RUNS" ]; do
		t0=$(now); "$@" >/dev/null 2>&1 || echo "bench/fix.sh: failed: $*" >&2; t1=$(now)
		echo "$t1 - $t0" | bc
		i=$((i + 1))
	done | median
}
ours_a() { st fix 1 --commit "$FIX" --tree "$G"; }
git_a() { git -C "$G" describe --contains "$FIX"; }
ours_b() { st fix 1 --commit "$FIX" --tree "$G" $stable_args; }
git_b() {
	git -C "$G" describe --contains "$FIX"
	for b in $BRANCHES; do git -C "$G" log -F --grep="commit $FIX upstream" --format=%H "$b"; done
}
ours_c() { st fix 1 --commit "$FIX" --introduced "$OLD" --tree "$G"; }
git_c() { git -C "$G" describe --contains "$FIX"; git -C "$G" describe --contains "$OLD"; }
ratio() { printf "%.3f" "$(echo "scale=4; $1 / $2" | bc)"; }
commits=$(git -C "$G" rev-list --all --count)
echo "tree: $commits commits, $(git -C "$G" tag | wc -l) tags; median of $RUNS runs"
for w in a b c; do
	o=$(time_it ours_$w)
	g=$(time_it git_$w)
	case $w in
	a) what="recent fix, first tag" ;;
	b) what="recent fix + 3 stable branches" ;;
	c) what="recent fix + old introducing commit" ;;
	esac
	printf '(%s) %-38s secteam-tui %6.2fs  git %6.2fs  ratio %s\n' "$w" "$what" "$o" "$g" "$(ratio "$o" "$g")"
	st show 1 --json | jq -r '"    recorded: fix first in " + .fix.tag +
		(if .fix.introduced[0] then ", introduced in " + .fix.introduced[0].tag else "" end) +
		(if (.fix.backports | length) > 0 then ", backports in " + (.fix.backports | map(.tag) | join(" ")) else "" end)'
done
echo "git: first tags by git tag --contains: $(git -C "$G" -c versionsort.suffix=-rc tag --contains "$FIX" --sort=version:refname | head -1), $(git -C "$G" -c versionsort.suffix=-rc tag --contains "$OLD" --sort=version:refname | head -1)"
