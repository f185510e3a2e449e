/*
 * Patches, as get_maintainer.pl reads them: the files a patch touches
 * (`diff --git`, `---`/`+++`, `rename from/to` and ` mode change` lines)
 * and the K: keywords its lines hold (any line before the first file
 * header, then only added and removed lines).  Lines it skips for
 * keywords: `Fixes: <sha>` and hunk headers.
 */
#include <stdlib.h>
#include <string.h>

#include "maint/maint-int.h"

/* One line of the patch: [s, end), next after its newline. */
struct pline {
	const char *s, *end, *next;
	size_t len;
};

static bool starts(const struct pline *l, const char *lit)
{
	size_t n = strlen(lit);
	return l->len >= n && !memcmp(l->s, lit, n);
}

static bool hexrun6(const char *s)
{
	int n = 0;
	while (n < 6 &&
	       ((*s >= '0' && *s <= '9') ||
		((*s | 0x20) >= 'a' && (*s | 0x20) <= 'f'))) {
		s++;
		n++;
	}
	return n == 6;
}

/* "(\S+)\s*$" at s: the name, or NULL. */
static char *name_then_space(const char *s, const char *end)
{
	const char *e = s;
	while (e < end && !maint_is_space((unsigned char)*e))
		e++;
	if (e == s)
		return NULL;
	for (const char *q = e; q < end; q++)
		if (!maint_is_space((unsigned char)*q))
			return NULL;
	return xstrndup(s, (size_t)(e - s));
}

static const char *skip_octal(const char *s, const char *end)
{
	const char *q = s;
	while (q < end && *q >= '0' && *q <= '7')
		q++;
	return q > s ? q : NULL;
}

/* " mode change 100644 => 100755 NAME" */
static bool mode_change(const struct pline *l, struct svec *files)
{
	const char *q, *end = l->end;
	char *name;
	if (!starts(l, " mode change "))
		return false;
	q = skip_octal(l->s + 13, end);
	if (q && end - q >= 4 && !memcmp(q, " => ", 4) &&
	    (q = skip_octal(q + 4, end)) && q < end && *q == ' ' &&
	    (name = name_then_space(q + 1, end))) {
		svec_push(files, name);
		return true;
	}
	return false;
}

/* "rename from NAME", "rename to NAME" */
static bool rename_line(const struct pline *l, struct svec *files)
{
	char *name;
	if (!starts(l, "rename from ") && !starts(l, "rename to "))
		return false;
	name = name_then_space(l->s + (l->s[7] == 'f' ? 12 : 10), l->end);
	if (!name)
		return false;
	svec_push(files, name);
	return true;
}

/* "diff --git a/A b/B" */
static bool diff_git(const struct pline *l, struct svec *files)
{
	if (!starts(l, "diff --git a/"))
		return false;
	const char *a = l->s + 13, *ae = a, *end = l->end;
	while (ae < end && !maint_is_space((unsigned char)*ae))
		ae++;
	if (ae == a || end - ae < 3 || memcmp(ae, " b/", 3))
		return false;
	char *b = name_then_space(ae + 3, end);
	if (!b)
		return false;
	svec_push(files, xstrndup(a, (size_t)(ae - a)));
	svec_push(files, b);
	return true;
}

/* "Fixes: 0123456789ab ..." */
static bool fixes_line(const struct pline *l)
{
	if (!starts(l, "Fixes:"))
		return false;
	const char *q = l->s + 6;
	while (q < l->end && maint_is_space((unsigned char)*q))
		q++;
	return q > l->s + 6 && hexrun6(q);
}

/* "--- a/NAME", "+++ b/NAME": the body starts. */
static bool file_header(const struct pline *l, struct svec *files, bool *body)
{
	if (!starts(l, "+++") && !starts(l, "---"))
		return false;
	/* \s+ may run into the newline, (\S+) never does */
	const char *q = l->s + 3, *e = l->end;
	while (q < e && maint_is_space((unsigned char)*q))
		q++;
	if (q == l->s + 3 || q == e)
		return false;
	const char *ne = q;
	while (ne < e && !maint_is_space((unsigned char)*ne))
		ne++;
	const char *sl = memchr(q, '/', (size_t)(ne - q));
	if (sl)
		q = sl + 1;
	svec_push(files, xstrndup(q, (size_t)(ne - q)));
	*body = true;
	return true;
}

/* "@@ -N,N ..." */
static bool hunk_header(const struct pline *l)
{
	if (!starts(l, "@@ -"))
		return false;
	const char *q = l->s + 4, *d = q, *end = l->end;
	while (q < end && *q >= '0' && *q <= '9')
		q++;
	return q > d && q < end && *q == ',' && q + 1 < end && q[1] >= '0' &&
		q[1] <= '9';
}

/* The K: lines whose keyword line l holds, into kw. */
static void line_keywords(const struct maint_db *db, const struct pline *l,
			  bool body, struct ivec *kw)
{
	size_t full = (size_t)(l->next - l->s); /* with "\n" */
	for (size_t k = 0; k < db->nkpats; k++)
		if (maint_kpat_match(db, k, body, l->s, full))
			ivec_push(kw, db->kpats[k].line);
}

int maint_scan_patch(const struct maint_db *db, const char *text,
		     struct svec *files, struct ivec *kw, struct err *err)
{
	bool body = false; /* $patch_prefix = "^[+-].*" */
	if (db && kw) {
		for (size_t k = 0; k < db->nkpats; k++)
			if (maint_kpat_ready(db, k, true, err) < 0)
				return -1;
	}
	for (const char *s = text; *s;) {
		const char *nl = strchr(s, '\n');
		struct pline l = { s, NULL, nl ? nl + 1 : s + strlen(s), 0 };
		l.end = nl ? nl : l.next; /* without the newline */
		l.len = (size_t)(l.end - s);
		bool skip = mode_change(&l, files) || rename_line(&l, files) ||
			diff_git(&l, files) || fixes_line(&l) ||
			file_header(&l, files, &body) || hunk_header(&l);
		if (!skip && kw)
			line_keywords(db, &l, body, kw);
		s = l.next;
	}
	return 0;
}

size_t maint_patch_files(const char *patch_text, char ***files)
{
	struct svec sv = { 0 };
	(void)maint_scan_patch(NULL, patch_text, &sv, NULL, NULL);
	svec_sort_uniq(&sv);
	*files = sv.v;
	return sv.n;
}
