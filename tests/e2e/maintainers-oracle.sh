#!/bin/sh
# Oracle: `secteam-tui maintainers` against the kernel's own
# scripts/get_maintainer.pl --nogit --nogit-fallback --norolestats, on the
# pristine tree of scripts/kernel-tree.sh.  ~330 files picked
# deterministically across the tree (top level, Documentation/, .yaml
# bindings, arch/, drivers/, include/, tools/, the other top directories,
# deep paths, directories, files matched by N: rules, files whose content
# holds K: keywords, files under X: exclusions), then 20 patches made from
# real files (plain, git format-patch with keywords in the message and a
# Fixes: line, new files from /dev/null, renames, mode changes, removed
# lines holding keywords).  Compared: the SET of e-mail addresses of each
# file or patch; every difference is listed in the TAP diagnostics.
#   SECTEAM_BIN  the secteam-tui binary     SECTEAM_TOP  the repository
#   ORACLE_JOBS  parallel jobs (default 2)  ORACLE_KEEP=1 keeps the work dir
set -u
top=${SECTEAM_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin=${SECTEAM_BIN:-$top/build/secteam-tui}
jobs=${ORACLE_JOBS:-2}
export LC_ALL=C PERL_HASH_SEED=0
work=$(mktemp -d "${TMPDIR:-/tmp}/maint-oracle.XXXXXX") || exit 1
[ -n "${ORACLE_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT INT TERM
export XDG_CONFIG_HOME="$work/config" # no officer's config in the way

. "$top/tests/lib/tap.sh"
diag() { sed 's/^/# /' "$@"; }

tree=$(sh "$top/scripts/kernel-tree.sh" 2>"$work/tree.err")
if [ -z "$tree" ] || [ ! -f "$tree/scripts/get_maintainer.pl" ]; then
	tap_ok 1 "a kernel tree from scripts/kernel-tree.sh"
	diag "$work/tree.err"
	tap_done
	exit 1
fi
if [ ! -x "$bin" ]; then
	tap_ok 1 "secteam-tui binary at $bin (set SECTEAM_BIN)"
	tap_done
	exit 1
fi

# ---- picking files ----------------------------------------------------
# every k-th line of stdin so that at most $1 come out
pick() {
	awk -v n="$1" '{ a[NR] = $0 }
	END { if (!NR) exit; s = NR / n; if (s < 1) s = 1
	      for (i = 1; i <= NR && c < n; i += s) { print a[int(i)]; c++ } }'
}
(cd "$tree" && find . -type f ! -name '*[!A-Za-z0-9_.,+=@-]*' -print 2>/dev/null) |
	sed 's|^\./||' | grep -v '[^A-Za-z0-9_./,+=@-]' | sort >"$work/all"
all=$work/all
sel=$work/sel.raw
: >"$sel"
grep -v / "$all" >>"$sel"                                  # top level
printf '%s\n' drivers/net fs/ext4/ arch/x86 >>"$sel"       # directories
grep '^Documentation/' "$all" | grep -v '\.yaml$' | pick 22 >>"$sel"
grep '^Documentation/devicetree/bindings/.*\.yaml$' "$all" | pick 18 >>"$sel"
grep '^arch/' "$all" | pick 22 >>"$sel"
grep '^drivers/' "$all" | pick 40 >>"$sel"
grep '^include/' "$all" | pick 22 >>"$sel"
grep '^tools/' "$all" | pick 20 >>"$sel"
grep -v -e '^Documentation/' -e '^arch/' -e '^drivers/' -e '^include/' \
	-e '^tools/' "$all" | grep / | pick 22 >>"$sel"
grep '^\([^/]*/\)\{7,\}' "$all" | pick 10 >>"$sel"           # deep paths
# one file for every third N: rule (Perl regexes; these are also EREs)
sed -n 's/^N:[[:space:]]*//p' "$tree/MAINTAINERS" | awk 'NR % 3 == 1' |
	while IFS= read -r re; do
		grep -E -e "$re" "$all" 2>/dev/null | pick 1
	done >>"$sel"
# files under X: exclusions (the glob made a regex as get_maintainer.pl does)
sed -n 's/^X:[[:space:]]*//p' "$tree/MAINTAINERS" |
	while IFS= read -r g; do
		re=$(printf '%s' "$g" | sed 's/\./\\./g; s/\*/.*/g; s/?/./g')
		grep -E -e "^$re" "$all" 2>/dev/null | pick 1
	done >>"$sel"
# files whose content holds a K: keyword (two each, from likely places)
kdirs="kernel mm net/core net/ipv4 include/linux include/uapi/linux lib
drivers/hwmon drivers/net/phy drivers/ptp drivers/reset drivers/pwm
drivers/regulator drivers/of drivers/dma-buf drivers/input/touchscreen
drivers/gpu/drm/mediatek drivers/gpu/drm/i2c fs/pstore security
arch/riscv/kernel arch/csky/kernel arch/x86/kernel samples tools/lib/bpf"
sed -n 's/^K:[[:space:]]*//p' "$tree/MAINTAINERS" |
	while IFS= read -r kw; do
		(cd "$tree" && grep -rlP -e "$kw" $kdirs 2>/dev/null) |
			grep -v '[^A-Za-z0-9_./,+=@-]' | sort | pick 2
	done >>"$sel"
awk '!seen[$0]++' "$sel" >"$work/files"
nfiles=$(wc -l <"$work/files")

# ---- patches ----------------------------------------------------------
mkdir -p "$work/patches" "$work/mod"
grep -v '/$' "$work/files" | while IFS= read -r f; do
	[ -f "$tree/$f" ] && grep -Iq '' "$tree/$f" 2>/dev/null && echo "$f"
done | grep -v '^MAINTAINERS$' >"$work/text"
ntext=$(wc -l <"$work/text")
nth() { sed -n "$(($1 % ntext + 1))p" "$work/text"; }
# diff_one FILE J [SEDSCRIPT]: a diff of FILE with a line appended (or SED)
diff_one() {
	if [ -n "${3:-}" ]; then
		sed "$3" "$tree/$1" >"$work/mod/x"
	else
		{ cat "$tree/$1"; echo "/* secteam oracle $2 */"; } >"$work/mod/x"
	fi
	diff -u --label "a/$1" --label "b/$1" "$tree/$1" "$work/mod/x"
}
kwfile() { # a picked file holding a keyword, and the line number
	nk=$(grep -c '^K:' "$tree/MAINTAINERS")
	[ "$nk" -gt 0 ] || return 0
	sed -n 's/^K:[[:space:]]*//p' "$tree/MAINTAINERS" | sed -n "$(($1 % nk + 1))p" >"$work/kw"
	kw=$(cat "$work/kw")
	while IFS= read -r f; do
		l=$(grep -nP -m1 -e "$kw" "$tree/$f" 2>/dev/null | cut -d: -f1)
		if [ -n "$l" ]; then echo "$f $l"; return; fi
	done <"$work/text"
}
j=1
while [ $j -le 20 ]; do
	p="$work/patches/$j.patch"
	k=$((2 + j % 5))
	case $((j % 4)) in
	1)
		printf 'From: Oracle <oracle@example.org>\nSubject: [PATCH] bpf: xdp: riscv: pidfd tweak %s\n\n' $j
		printf 'Fixes: 0123456789abcdef ("x")\n---\n'
		printf ' mode change 100644 => 100755 %s\n\n' "$(nth $((j * 31)))"
		i=0
		while [ $i -lt $k ]; do
			f=$(nth $((j * 13 + i * 17)))
			echo "diff --git a/$f b/$f"
			diff_one "$f" $j
			i=$((i + 1))
		done
		;;
	2)
		a=$(nth $((j * 7))); b=$(nth $((j * 7 + 3))); c=$(nth $((j * 11)))
		printf 'diff --git a/%s b/%s\nsimilarity index 90%%\nrename from %s\nrename to %s\n' "$a" "$b" "$a" "$b"
		printf 'diff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1 @@\n+new\n' "$c.new" "$c.new" "$c.new"
		diff_one "$(nth $((j * 19)))" $j
		;;
	3)
		set -- $(kwfile $j)
		[ $# -eq 2 ] && diff_one "$1" $j "${2}d"
		i=0
		while [ $i -lt $k ]; do
			diff_one "$(nth $((j * 23 + i * 29)))" $j
			i=$((i + 1))
		done
		;;
	*)
		i=0
		while [ $i -lt $k ]; do
			diff_one "$(nth $((j * 37 + i * 41)))" $j
			i=$((i + 1))
		done
		;;
	esac >"$p"
	j=$((j + 1))
done

# ---- running both -----------------------------------------------------
# e-mail addresses of a get_maintainer.pl-style output, one per line
emails() {
	sed -n -e 's/^\([^ <]*@[^ <]*\)\( .*\)\{0,1\}$/\1/p' -e t \
		-e 's/^[^<]*<\([^>]*\)>.*/\1/p' "$1" | sort -u
}
mkdir -p "$work/p" "$work/o"
awk '{ print NR; print $0 }' "$work/files" >"$work/jobs"
i=1
while [ $i -le 20 ]; do printf 'P%s\n%s\n' $i "$work/patches/$i.patch"; i=$((i + 1)); done >>"$work/jobs"
start=$(date +%s)
# The script's answers depend only on the tree and the inputs (its hash
# order is pinned by PERL_HASH_SEED): they are cached beside the tree, so
# the sanitizer run and later runs skip ~300 Perl start-ups.
key=$( (cat "$tree/scripts/get_maintainer.pl" "$tree/MAINTAINERS" "$work/files" \
	"$work"/patches/*.patch) | sha256sum | cut -c1-16)
pcache="$(dirname "$tree")/oracle-$(basename "$tree")-$key"
if [ -f "$pcache/.complete" ]; then
	cp "$pcache"/* "$work/p/" 2>/dev/null
	echo "# get_maintainer.pl answers from the cache $pcache"
else
	(cd "$tree" && xargs -P "$jobs" -n 2 sh -c '
		case $1 in
		P*) perl scripts/get_maintainer.pl --nogit --nogit-fallback --norolestats "$2" ;;
		*) perl scripts/get_maintainer.pl --nogit --nogit-fallback --norolestats -f "$2" ;;
		esac >"$0/p/$1" 2>"$0/p/$1.err"' "$work" <"$work/jobs")
	rm -rf "$pcache.tmp" && mkdir -p "$pcache.tmp" && cp "$work"/p/* "$pcache.tmp/" &&
		touch "$pcache.tmp/.complete" && rm -rf "$pcache" && mv "$pcache.tmp" "$pcache"
fi
mid=$(date +%s)
export T="$tree" W="$work"
xargs -P "$jobs" -n 2 sh -c '
	case $1 in
	P*) "$0" maintainers --tree "$T" --patch "$2" ;;
	*) "$0" maintainers --tree "$T" --file "$2" ;;
	esac >"$W/o/$1" 2>"$W/o/$1.err"; echo $? >"$W/o/$1.rc"' "$bin" <"$work/jobs"
end=$(date +%s)

# compare ID NAME ARG [-f]: 0 when the address sets agree, else the
# difference goes to $work/d.  get_maintainer.pl orders sections of equal
# pattern depth by Perl's hash order, which is random: when the sets
# differ, it is rerun with other PERL_HASH_SEEDs and agreeing with any of
# its own possible answers counts as agreeing (noted in the diagnostics).
compare() {
	emails "$work/p/$1" >"$work/pe"
	emails "$work/o/$1" >"$work/oe"
	rc=$(cat "$work/o/$1.rc" 2>/dev/null || echo '?')
	if [ "$rc" != 0 ]; then
		echo "$2: secteam-tui exit $rc: $(head -c 300 "$work/o/$1.err" | tr '\n' ' ')" >>"$work/d"
		return 1
	fi
	if [ ! -s "$work/pe" ] && [ -s "$work/p/$1.err" ]; then
		echo "$2: get_maintainer.pl: $(head -c 300 "$work/p/$1.err" | tr '\n' ' ')" >>"$work/d"
		return 1
	fi
	if cmp -s "$work/pe" "$work/oe"; then return 0; fi
	seed=1
	while [ $seed -le 8 ]; do
		(cd "$tree" && PERL_HASH_SEED=$seed perl scripts/get_maintainer.pl \
			--nogit --nogit-fallback --norolestats ${4:-} "$3" \
			>"$work/p/$1.s" 2>/dev/null)
		emails "$work/p/$1.s" >"$work/ps"
		if cmp -s "$work/ps" "$work/oe"; then
			echo "# note: $2: get_maintainer.pl's answer depends on Perl's hash order (equal-depth sections); ours is its answer with PERL_HASH_SEED=$seed"
			return 0
		fi
		seed=$((seed + 1))
	done
	{
		echo "$2:"
		echo "  only get_maintainer.pl: $(comm -23 "$work/pe" "$work/oe" | tr '\n' ' ')"
		echo "  only secteam-tui:       $(comm -13 "$work/pe" "$work/oe" | tr '\n' ' ')"
	} >>"$work/d"
	return 1
}

group=25
ngroups=$(((nfiles + group - 1) / group))
tap_ok 0 "tree $tree, $nfiles files, 20 patches; get_maintainer.pl $((mid - start))s, secteam-tui $((end - mid))s ($jobs jobs)"
total_diff=0
g=0
while [ $g -lt $ngroups ]; do
	lo=$((g * group + 1)); hi=$((lo + group - 1))
	[ $hi -gt "$nfiles" ] && hi=$nfiles
	: >"$work/d"
	bad=0
	i=$lo
	while [ $i -le $hi ]; do
		f=$(sed -n "${i}p" "$work/files")
		compare "$i" "$f" "$f" -f || bad=$((bad + 1))
		i=$((i + 1))
	done
	total_diff=$((total_diff + bad))
	if [ $bad -eq 0 ]; then
		tap_ok 0 "files $lo-$hi: same addresses as get_maintainer.pl"
	else
		tap_ok 1 "files $lo-$hi: $bad of $((hi - lo + 1)) differ from get_maintainer.pl"
		diag "$work/d"
	fi
	g=$((g + 1))
done
j=1
while [ $j -le 20 ]; do
	: >"$work/d"
	nf=$(grep -c '^+++ ' "$work/patches/$j.patch")
	if compare "P$j" "patch $j" "$work/patches/$j.patch"; then
		tap_ok 0 "patch $j ($nf diffs): same addresses as get_maintainer.pl"
	else
		total_diff=$((total_diff + 1))
		tap_ok 1 "patch $j ($nf diffs) differs from get_maintainer.pl"
		diag "$work/d"
		[ -n "${ORACLE_KEEP:-}" ] && echo "# patch kept in $work/patches/$j.patch"
	fi
	j=$((j + 1))
done
echo "# $total_diff of $((nfiles + 20)) lookups differ"
tap_done
