# fpatterns.awk FILES MAINTAINERS: the F: patterns of MAINTAINERS that
# match no file of the tree, as `scripts/get_maintainer.pl --self-test=patterns`
# decides it: a regular expression anchored at the start only, where "."
# is literal, "*" any characters and "?" one, one "LINE<TAB>PATTERN" a line.  FILES lists every file of
# the tree, one a line, sorted in C order.  For busybox awk: a binary
# search for the pattern's literal beginning, then only the files that
# begin with it are tried.
function first_ge(s,   lo, hi, mid) {
	lo = 1; hi = n + 1
	while (lo < hi) {
		mid = int((lo + hi) / 2)
		if (f[mid] < s) lo = mid + 1; else hi = mid
	}
	return lo
}
# has(s, from): every literal piece of the pattern (seg[2..nseg]) is in s,
# in order, after position from: what a match needs, found without a
# regular expression (busybox awk compiles a dynamic one at every use)
function has(s, from,   j, k) {
	for (j = 2; j <= nseg; j++) {
		if (seg[j] == "") continue
		k = index(substr(s, from), seg[j])
		if (!k) return 0
		from += k - 1 + length(seg[j])
	}
	return 1
}
function matches(pat,   lit, re, i, k, c, cur) {
	if (pat in isfile) return 1
	k = match(pat, /[][*?]/)
	lit = k ? substr(pat, 1, k - 1) : pat
	i = first_ge(lit)
	if (!k) return i <= n && substr(f[i], 1, length(lit)) == lit

	re = ""
	nseg = 0
	cur = ""
	for (k = 1; k <= length(pat); k++) {
		c = substr(pat, k, 1)
		if (c == "*" || c == "?" || c == "[") {
			seg[++nseg] = cur
			cur = ""
			if (c == "*") re = re ".*"
			else if (c == "?") re = re "."
			else {
				# a class: up to its "]", as it is
				while (k < length(pat) && substr(pat, k, 1) != "]") re = re substr(pat, k++, 1)
				re = re "]"
			}
			continue
		}
		cur = cur c
		re = re (c == "." ? "\\." : c)
	}
	seg[++nseg] = cur
	re = "^" re
	for (; i <= n && substr(f[i], 1, length(lit)) == lit; i++)
		if (has(f[i], length(lit) + 1) && f[i] ~ re) return 1
	return 0
}
FILENAME == ARGV[1] { f[++n] = $0; isfile[$0]; next }
/^F:[ \t]/ {
	p = $0
	sub(/^F:[ \t]*/, "", p)
	sub(/[ \t]+$/, "", p)
	if (!matches(p)) printf "%d\t%s\n", FNR, p
}
