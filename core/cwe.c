/*
 * The CWE catalogue: weakness names by ID, from data/cwe-names.tsv (the
 * CWE List, its source, version and licence noted there), compiled in as
 * a table sorted by number (the Makefile writes cwe-names.inc from the
 * file).  The public records name a weakness by its catalogue name: a
 * CSAF advisory's cwe.name must be it (the CSAF validator's test
 * 6.1.11), and a CVE record's problemTypes description gives it.
 */
#include <stdlib.h>
#include <string.h>

#include "core/fixcve.h"

struct cwe_entry {
	unsigned long id;
	const char *name;
};

static const struct cwe_entry cwe_table[] = {
#include "cwe-names.inc"
};

static int cwe_cmp(const void *k, const void *e)
{
	unsigned long a = *(const unsigned long *)k;
	unsigned long b = ((const struct cwe_entry *)e)->id;

	return a < b ? -1 : a > b;
}

const char *cwe_name(const char *id)
{
	const struct cwe_entry *e;
	unsigned long n;

	if (!id || !cwe_id_valid(id))
		return NULL;
	n = strtoul(id + 4, NULL, 10);
	e = bsearch(&n, cwe_table, sizeof(cwe_table) / sizeof(cwe_table[0]),
		    sizeof(cwe_table[0]), cwe_cmp);
	return e ? e->name : NULL;
}
