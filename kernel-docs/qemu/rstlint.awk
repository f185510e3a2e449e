# rstlint.awk: a few reStructuredText errors that Sphinx reports, found
# with (busybox) awk in the kernel-check guest, which has no Sphinx.  One
# line per error: "FILE:LINE: MESSAGE"; nothing when none is found.  Not a
# parser: it knows paragraphs, titles, bullet and enumerated items,
# literal blocks ("::") and directives, and looks for
#   - "Unexpected indentation": a paragraph of two lines or more followed,
#     with no blank line, by a more indented line (one line followed by an
#     indented one is a definition list, which is fine);
#   - "Title underline too short": an underline of 4 or more of one
#     punctuation character, shorter than the title above it;
#   - "Inline literal start-string without end-string": a paragraph with an
#     odd number of "``".
# tabs to spaces, every 8 columns
function detab(s,   out, i, c) {
	if (s !~ /\t/) return s
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\t") { do out = out " "; while (length(out) % 8) }
		else out = out c
	}
	return out
}
# a line of 4 or more of the same punctuation character (awk has no \1)
function adorn(s,   c, t) {
	if (length(s) < 4) return 0
	c = substr(s, 1, 1)
	if (index("=-~^\"'`#*+.:_", c) == 0) return 0
	t = s
	gsub(/./, c, t)
	return t == s
}
function indent(s) { match(s, /^ */); return RLENGTH }
# the column of a paragraph's text: after a bullet or an enumerator
function textcol(s,   i) {
	i = indent(s)
	if (match(s, /^ *[-*+] +/)) return RLENGTH
	if (match(s, /^ *(\(?[0-9]+[.)]|\(?[a-zA-Z#][.)]) +/)) return RLENGTH
	return i
}
function report(ln, msg) { printf "%s:%d: %s\n", FILENAME, ln, msg; bad++ }
function flush(   i, col, n, lits, markup) {
	n = np
	np = 0
	if (!n) return
	# literal block contents: skip while indented past the "::" paragraph
	if (lit >= 0) {
		if (indent(p[1]) > lit) return
		lit = -1
	}
	markup = (p[1] ~ /^ *(\.\.|:|\||\+[-=+]|=+( |$))/)
	if (!markup) {
		col = textcol(p[1])
		for (i = 2; i <= n; i++) {
			if (indent(p[i]) > col && i >= 3) {
				report(pl[i], "ERROR: Unexpected indentation.")
				break
			}
			if (indent(p[i]) != col) break
		}
		lits = 0
		for (i = 1; i <= n; i++) lits += gsub(/``/, "``", p[i])
		if (lits % 2) report(pl[1], "WARNING: Inline literal start-string without end-string.")
	}
	# a paragraph ending in "::" starts a literal block; a directive's
	# body is not looked at either
	if (p[n] ~ /::[ \t]*$/ || p[1] ~ /^ *\.\. /) lit = indent(p[1])
}
FNR == 1 { flush(); lit = -1; prev = ""; prevln = 0 }
{
	sub(/\r$/, "")
	line = detab($0)
	if (line ~ /^[ \t]*$/) { flush(); prev = ""; next }
	# a title's underline ends the title: what follows is a new block
	if (adorn(line) && np == 1 && prev !~ /^ /) {
		lit = -1
		if (length(line) < length(prev))
			report(FNR, "WARNING: Title underline too short.")
		np = 0
		prev = ""
		next
	}
	np++
	p[np] = line
	pl[np] = FNR
	prev = line
}
END { flush(); exit bad ? 1 : 0 }
