#!/bin/sh
# cwe-names.sh TSV: the CWE catalogue (data/cwe-names.tsv) as the lines
# of core/cwe.c's table, { N, "name" }, sorted by number, with '\' and
# '"' escaped for C (the Makefile writes them to $(B)/gen/cwe-names.inc).
set -eu
LC_ALL=C awk -F '\t' '
/^#/ || NF != 2 || $1 !~ /^CWE-[1-9][0-9]*$/ { next }
{
	s = ""
	for (i = 1; i <= length($2); i++) {
		c = substr($2, i, 1)
		if (c == "\\" || c == "\"")
			s = s "\\"
		s = s c
	}
	printf "%d\t{ %d, \"%s\" },\n", substr($1, 5), substr($1, 5), s
}' "$1" | sort -n | cut -f 2-
