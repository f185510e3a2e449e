# facts.awk FACTS TEXT: the facts about one document that do not hold, as
# " [reason]" pieces on one line (nothing when all hold).  FACTS has a
# "KIND<TAB>VALUE" line per fact of kernel-docs/expectations.txt (says,
# never, address, period); TEXT is the document with line breaks and runs
# of blanks made one space (check.sh's norm).  One awk run per document:
# the guest is slow to start programs.
FILENAME == ARGV[1] {
	t = index($0, "\t")
	n++
	kind[n] = substr($0, 1, t - 1)
	val[n] = substr($0, t + 1)
	next
}
{ text = text $0 " " }
function addresses(s,   w, m, i, a) {
	gsub(/[<>(),;:"`']/, " ", s)
	m = split(s, w, " ")
	for (i = 1; i <= m; i++) {
		a = w[i]
		sub(/\.+$/, "", a)
		if (a ~ /^[A-Za-z0-9._+-]+@[A-Za-z0-9.-]+\.[A-Za-z]+$/) got_a[a]
	}
}
# "<number> [calendar|work|working|business] day(s)|week(s)|month(s)"
function periods(s,   w, m, i, j, x, y, q) {
	m = split(tolower(s), w, " ")
	for (i = 1; i < m; i++) {
		x = w[i]; gsub(/[^a-z0-9-]/, "", x)
		if (x !~ /^([0-9]+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|twenty|thirty|forty|sixty|ninety)$/) continue
		j = i + 1; q = ""
		y = w[j]; gsub(/[^a-z]/, "", y)
		if (y ~ /^(calendar|work|working|business)$/) { q = y " "; j++; y = w[j]; gsub(/[^a-z]/, "", y) }
		if (y ~ /^(day|days|week|weeks|month|months)$/) got_p[x " " q y]
	}
}
END {
	for (i = 1; i <= n; i++) {
		if (kind[i] == "says" && !index(text, val[i])) out = out " [does not say: " val[i] "]"
		if (kind[i] == "never" && index(text, val[i])) out = out " [says: " val[i] "]"
		if (kind[i] == "address") { want_a[val[i]]; na++ }
		if (kind[i] == "period") { want_p[tolower(val[i])]; np++ }
	}
	if (na) {
		addresses(text)
		for (a in got_a) if (!(a in want_a)) x = x " " a
		for (a in want_a) if (!(a in got_a)) y = y " " a
		if (x != "") out = out " [names other addresses:" x "]"
		if (y != "") out = out " [does not name:" y "]"
	}
	if (np) {
		periods(text)
		x = y = ""
		for (p in got_p) if (!(p in want_p)) x = x " " p ";"
		for (p in want_p) if (!(p in got_p)) y = y " " p ";"
		if (x != "") out = out " [sets other periods:" x "]"
		if (y != "") out = out " [does not set:" y "]"
	}
	print out
}
