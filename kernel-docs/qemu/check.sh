#!/bin/busybox sh
# check.sh TREE FILES BASE BASEFILES EXPECTATIONS RSTS [MODE]: the
# kernel-check guest's checks (run by the guest's /init; busybox sh, awk
# and secteam-tui, nothing else).
#   TREE          a kernel tree: MAINTAINERS, .mailmap and the files that
#                 EXPECTATIONS names (the patched tree's, in the guest)
#   FILES         every file of that tree, one a line, sorted in C order
#   BASE, BASEFILES   the same for the tree the series applies to (the
#                 pristine one): the "patterns" check is about what the
#                 series changes in MAINTAINERS
#   EXPECTATIONS  kernel-docs/expectations.txt (its syntax is described there)
#   RSTS          the .rst files the series changes, one a line: each gets
#                 the "rst" check too
#   MODE          tree (the default): every check; control (the tree
#                 without the series): also a "rules:PATH" check per file
#                 block with "rule" lines, which passes when the tree says
#                 none of them; upstream (upstream's own files, TREE holds
#                 them at the paths the expectations name): only the file
#                 blocks with an "upstream" line
# Prints "SECTEAM-STEP NAME PASS|FAIL DETAIL", one line per check: NAME is
# file:PATH, section:NAME, patterns, route:FILE[,FILE...], rst:PATH or
# rules:PATH.
# Exits 0 when every check passes.
T=$1
FILES=$2
B=$3
BFILES=$4
E=$5
RSTS=$6
MODE=${7:-tree}
HERE=$(dirname "$0")
W=${TMPDIR:-/tmp}/check.$$
mkdir -p "$W"
bad=0

step() {
	# step NAME PASS|FAIL DETAIL: one line, the detail (one line) cut;
	# builtins only (the guest is slow to start programs)
	printf 'SECTEAM-STEP %s %s %.400s\n' "$1" "$2" "$3"
	[ "$2" = PASS ] || bad=1
}

# minus A B: the lines of B that are not in A (busybox has no comm)
minus() { awk 'FILENAME == ARGV[1] { a[$0]; next } !($0 in a)' "$1" "$2"; }

# --- the per-document checks ---------------------------------------------------
# finish_file: the verdict of the "file" block just read
cur=
finish_file() {
	[ -n "$cur" ] || return 0
	if [ "$MODE" = upstream ] && [ -z "$up" ]; then
		cur=
		return 0
	fi
	if [ -n "$ferr" ]; then
		step "file:$cur" FAIL "$nf facts, failed:$ferr"
	else
		step "file:$cur" PASS "$nf facts"
	fi
	cur=
}
# file_fact KIND VALUE: one fact about $cur, checked when its block ends
file_fact() {
	nf=$((nf + 1))
	case $1 in
	rst) rst=1 ;;
	upstream) up=$2; nf=$((nf - 1)) ;;
	rule)
		# a rule is said like any fact; on the tree without the series,
		# none may be (the "rules" check: "never" each of them)
		printf 'says\t%s\n' "$2" >>"$W/facts"
		printf 'never\t%s\n' "$2" >>"$W/rules"
		nr=$((nr + 1)) ;;
	*) printf '%s\t%s\n' "$1" "$2" >>"$W/facts" ;;
	esac
}
finish_facts() {
	[ -n "$cur" ] || return 0
	if [ ! -f "$T/$cur" ]; then
		ferr=" not in the tree"
	else
		if [ -s "$W/facts" ]; then
			tr -s ' \t\r\n' '    ' <"$T/$cur" >"$W/norm"
			ferr=$(awk -f "$HERE/facts.awk" "$W/facts" "$W/norm")
		fi
		if [ "$MODE" = control ] && [ -s "$W/rules" ]; then
			held=$(awk -f "$HERE/facts.awk" "$W/rules" "$W/norm")
			if [ -n "$held" ]; then
				step "rules:$cur" FAIL "the tree says some of the $nr rules already:$held"
			else
				step "rules:$cur" PASS "says none of the $nr rules"
			fi
		fi
		if [ -n "$rst" ]; then
			echo "$cur" >>"$W/rst-done"
			out=$(awk -f "$HERE/rstlint.awk" "$T/$cur" 2>&1) ||
				ferr="$ferr [rst: $(echo "$out" | head -n 2 | sed "s|^$T/||" | tr '\n' ' ')]"
		fi
	fi
	: >"$W/facts"
	: >"$W/rules"
	rst=
}

# --- MAINTAINERS sections --------------------------------------------------------
sec=
finish_section() {
	[ -n "$sec" ] || return 0
	# the section's lines: after its name, up to the next blank line
	awk -v s="$sec" '$0 == s { on = 1; next } on && /^[ \t]*$/ { exit } on' "$T/MAINTAINERS" |
		sed 's/[ \t][ \t]*/ /' >"$W/sec.got"
	if ! grep -qxF -- "$sec" "$T/MAINTAINERS"; then
		step "section:$sec" FAIL "no section $sec in MAINTAINERS"
	elif cmp -s "$W/sec.want" "$W/sec.got"; then
		step "section:$sec" PASS "$(wc -l <"$W/sec.got") lines as expected"
	else
		d=$(diff "$W/sec.want" "$W/sec.got" | grep '^[-+][^-+]' | head -n 3 | tr '\n' ' ')
		step "section:$sec" FAIL "(- expected, + found) $d"
	fi
	sec=
	: >"$W/sec.want"
}

# --- F: patterns -----------------------------------------------------------------
# Every F: pattern that the series adds matches a file of the tree, and no
# pattern that matched a file before the series matches none after it.
# Only the new patterns are tried (fpatterns.awk), unless the series
# removes files: then every pattern, before and after.
pat=
finish_patterns() {
	[ -n "$pat" ] || return 0
	n=$(grep -c '^F:' "$T/MAINTAINERS")
	if cmp -s "$FILES" "$BFILES" || [ -z "$(minus "$FILES" "$BFILES" | head -n 1)" ]; then
		grep '^F:' "$B/MAINTAINERS" | sort -u >"$W/f.base"
		grep '^F:' "$T/MAINTAINERS" | sort -u >"$W/f.tree"
		minus "$W/f.base" "$W/f.tree" >"$W/f.new"
		: >"$W/dead.base"
		how="$(wc -l <"$W/f.new") new"
	else
		cp "$T/MAINTAINERS" "$W/f.new"
		awk -f "$HERE/fpatterns.awk" "$BFILES" "$B/MAINTAINERS" | cut -f2 | sort -u >"$W/dead.base"
		how="all $n, the series removes files:"
	fi
	if [ -s "$W/f.new" ]; then
		awk -f "$HERE/fpatterns.awk" "$FILES" "$W/f.new" | cut -f2 | sort -u >"$W/dead.got"
	else
		: >"$W/dead.got"
	fi
	x=$(minus "$W/dead.base" "$W/dead.got" | tr '\n' ' ')
	if [ -n "$x" ]; then
		step patterns FAIL "F: patterns that match no file: $x"
	else
		step patterns PASS "$n F: patterns; $how tried, each matches a file"
	fi
	pat=
}

# --- routing ---------------------------------------------------------------------
route() {
	# route "FILES -> ADDRS": who secteam-tui says a report on FILES reaches
	files=${1%% -> *}
	want=${1#* -> }
	name=route:$(echo $files | tr ' ' ',')
	# one file: its answer from the --each run below
	# shellcheck disable=SC2086 # the file list is words
	if [ "$files" = "${files%% *}" ] && [ -n "$each_ok" ] &&
		awk -v f="$files" '$0 == "== " f { on = 1; found = 1; next } /^== / { on = 0 } on { print }
			END { exit !found }' "$W/each.out" >"$W/route.out"; then
		:
	elif ! timeout 60 secteam-tui maintainers --tree "$T" --file $files >"$W/route.out" 2>"$W/route.err"; then
		step "$name" FAIL "secteam-tui: $(head -c 150 "$W/route.err")"
		return
	fi
	# who it reaches, against who it must and must not
	r=$(awk -v want="$want" '
		{ a = $0; sub(/ \(.*/, "", a); if (a ~ /</) { sub(/.*</, "", a); sub(/>.*/, "", a) }
		  got[a]; list = list " " a; n++ }
		END {
			m = split(want, w, " ")
			for (i = 1; i <= m; i++) {
				if (w[i] ~ /^!/) { if (substr(w[i], 2) in got) extra = extra " " substr(w[i], 2) }
				else if (!(w[i] in got)) miss = miss " " w[i]
			}
			if (miss != "" || extra != "")
				printf "FAIL %s%sgot:%s", (miss != "" ? "does not reach:" miss "; " : ""), (extra != "" ? "reaches:" extra "; " : ""), list
			else printf "PASS reaches %d:%s", n, list
		}' "$W/route.out")
	step "$name" "${r%% *}" "${r#* }"
}

finish_all() { finish_facts; finish_file; finish_section; finish_patterns; }
# The routes of one file each, looked up in one secteam-tui run (--each:
# each file on its own, as a run of its own would), to spare the guest a
# start and a read of MAINTAINERS per route.
each_ok=
singles=
[ "$MODE" = upstream ] || singles=$(awk '$1 == "route" && $3 == "->" { print $2 }' "$E" | sort -u)
# shellcheck disable=SC2086 # the file list is words
[ -z "$singles" ] || ! timeout 60 secteam-tui maintainers --tree "$T" --each --file $singles \
	>"$W/each.out" 2>"$W/each.err" || each_ok=1
: >"$W/sec.want"
: >"$W/rst-done"
: >"$W/facts"
: >"$W/rules"
while IFS= read -r line; do
	case $line in
	'#'* | '') continue ;;
	esac
	kw=${line%% *}
	arg=${line#"$kw"}
	arg=${arg# }
	case $kw in
	file) finish_all; cur=$arg; nf=0; nr=0; ferr=; rst=; up= ;;
	says | never | address | period | rule | upstream) file_fact "$kw" "$arg" ;;
	rst) file_fact rst ;;
	section) finish_all; [ "$MODE" = upstream ] || sec=$arg ;;
	entry) echo "$arg" >>"$W/sec.want" ;;
	patterns) finish_all; [ "$MODE" = upstream ] || pat=1 ;;
	route) finish_all; [ "$MODE" = upstream ] || route "$arg" ;;
	*) step "expectations" FAIL "unknown line: $line" ;;
	esac
done <"$E"
finish_all

# --- rST of the documents the series changes ---------------------------------------
while read -r f; do
	[ -n "$f" ] || continue
	grep -qxF -- "$f" "$W/rst-done" && continue
	if [ ! -f "$T/$f" ]; then
		step "rst:$f" FAIL "not in the tree"
	elif out=$(awk -f "$HERE/rstlint.awk" "$T/$f" 2>&1); then
		step "rst:$f" PASS "no error found"
	else
		step "rst:$f" FAIL "$(echo "$out" | head -n 2 | sed "s|^$T/||")"
	fi
done <"$( [ "$MODE" = upstream ] && echo /dev/null || echo "$RSTS")"
rm -rf "$W"
exit $bad
