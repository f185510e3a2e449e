/*
 * The tree's .mailmap, as get_maintainer.pl reads it (read_mailmap()) and
 * applies it (mailmap_email()).  Its four line forms:
 *   Proper Name <commit@email>
 *   <proper@email> <commit@email>
 *   Proper Name <proper@email> <commit@email>
 *   Proper Name <proper@email> Commit Name <commit@email>
 * fill two maps, from an address or a formatted "Name <address>" to the
 * proper name and to the proper address.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "maint/maint-int.h"

#define MAILMAP_MAX (16u << 20)

static void mm_put(struct smap *m, const char *key, const char *val)
{
	void **slot = smap_slot(m, key, strlen(key));
	free(*slot);
	*slot = xstrdup(val);
}

/* The four forms, and the match of the last line tried. */
struct mm_forms {
	pcre2_code *re[4];
	pcre2_match_data *md;
	const char *line;
};

static int mm_forms_init(struct mm_forms *f, struct lazy *lz)
{
	static const char *const forms[4] = {
		"^([^<]+)<([^>]+)>$",
		"^<([^>]+)>\\s*<([^>]+)>$",
		"^(.+)<([^>]+)>\\s*<([^>]+)>$",
		"^(.+)<([^>]+)>\\s*(.+)\\s*<([^>]+)>$",
	};
	int r = 0;
	f->md = pcre2_match_data_create(8, NULL);
	for (int i = 0; i < 4; i++) {
		f->re[i] = maint_re_compile(lz, forms[i], 0, false, NULL, "");
		if (!f->re[i])
			r = -1;
	}
	return r;
}

static void mm_forms_release(struct mm_forms *f)
{
	for (int i = 0; i < 4; i++)
		pcre2_code_free(f->re[i]);
	pcre2_match_data_free(f->md);
}

static bool mm_form(struct mm_forms *f, int which, const char *line)
{
	f->line = line;
	return pcre2_match(f->re[which], (PCRE2_SPTR)line, strlen(line), 0, 0,
			   f->md, NULL) > 0;
}

/* Capture group k of the last match (new). */
static char *mm_cap(const struct mm_forms *f, int k)
{
	const PCRE2_SIZE *ov = pcre2_get_ovector_pointer(f->md);
	return xstrndup(f->line + ov[2 * k], ov[2 * k + 1] - ov[2 * k]);
}

/* Capture group k without its trailing \s (new). */
static char *mm_cap_rtrim(const struct mm_forms *f, int k)
{
	char *s = mm_cap(f, k);
	size_t n = strlen(s);
	while (n && maint_is_space((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* "name <addr>" through parse_email(): *pn and *pa (new). */
static void mm_parse(const struct mbuild *db, const char *name,
		     const char *addr, char **pn, char **pa)
{
	char *full = xasprintf("%s <%s>", name, addr);
	maint_parse_email(db->lz, full, pn, pa);
	free(full);
}

/* Proper Name <commit@email> */
static void mm_name(struct mbuild *db, const struct mm_forms *f)
{
	char *rn = mm_cap(f, 1), *ra = mm_cap(f, 2), *pn, *pa;
	mm_parse(db, str_trim(rn), ra, &pn, &pa);
	mm_put(&db->mm_names, pa, pn);
	free(rn);
	free(ra);
	free(pn);
	free(pa);
}

/* <proper@email> <commit@email> */
static void mm_addr(struct mbuild *db, const struct mm_forms *f)
{
	char *ra = mm_cap(f, 1), *wa = mm_cap(f, 2);
	mm_put(&db->mm_addrs, wa, ra);
	free(ra);
	free(wa);
}

/* Proper Name <proper@email> <commit@email> */
static void mm_name_addr(struct mbuild *db, const struct mm_forms *f)
{
	char *rn = mm_cap_rtrim(f, 1), *ra = mm_cap(f, 2), *wa = mm_cap(f, 3);
	char *pn, *pa;
	mm_parse(db, rn, ra, &pn, &pa);
	mm_put(&db->mm_names, wa, pn);
	mm_put(&db->mm_addrs, wa, pa);
	free(rn);
	free(ra);
	free(wa);
	free(pn);
	free(pa);
}

/* Proper Name <proper@email> Commit Name <commit@email> */
static void mm_name_addr_name(struct mbuild *db, const struct mm_forms *f)
{
	char *rn = mm_cap_rtrim(f, 1), *ra = mm_cap(f, 2);
	char *wn = mm_cap_rtrim(f, 3), *wa = mm_cap(f, 4);
	char *pn, *pa, *qn, *qa;
	mm_parse(db, rn, ra, &pn, &pa);
	mm_parse(db, wn, wa, &qn, &qa);
	char *wrong = maint_format_email(qn, qa);
	mm_put(&db->mm_names, wrong, pn);
	mm_put(&db->mm_addrs, wrong, pa);
	free(rn);
	free(ra);
	free(wn);
	free(wa);
	free(pn);
	free(pa);
	free(qn);
	free(qa);
	free(wrong);
}

/* One line, its comment cut and trimmed. */
static void mm_line(struct mbuild *db, struct mm_forms *f, const char *l)
{
	if (!*l)
		return;
	if (mm_form(f, 0, l))
		mm_name(db, f);
	else if (mm_form(f, 1, l))
		mm_addr(db, f);
	else if (mm_form(f, 2, l))
		mm_name_addr(db, f);
	else if (mm_form(f, 3, l))
		mm_name_addr_name(db, f);
}

int maint_mailmap_load(struct mbuild *db)
{
	char *path = xasprintf("%s/.mailmap", db->dir);
	char *text = NULL;
	size_t len;
	struct stat st;
	struct mm_forms f;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
	    read_file(path, MAILMAP_MAX, &text, &len, NULL) < 0) {
		free(path);
		return 0;
	}
	free(path);
	int r = mm_forms_init(&f, db->lz);
	for (char *line = text; r == 0 && line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char *l = maint_trim_dup(line, strlen(line));
		line = nl ? nl + 1 : NULL;
		mm_line(db, &f, l);
		free(l);
	}
	mm_forms_release(&f);
	free(text);
	return r;
}

char *maint_mailmap_email(const struct maint_db *db, const char *line)
{
	char *name, *addr;
	maint_parse_email(db->lz, line, &name, &addr);
	char *email = maint_format_email(name, addr);
	const char *rn = name, *ra = addr;
	const char *n1 = maint_img_get(db, db->mmn, db->mmn_cap, email);
	const char *a1 = maint_img_get(db, db->mma, db->mma_cap, email);
	if (n1 || a1) {
		if (n1)
			rn = n1;
		if (a1)
			ra = a1;
	} else {
		const char *n2 = maint_img_get(db, db->mmn, db->mmn_cap, addr);
		const char *a2 = maint_img_get(db, db->mma, db->mma_cap, addr);
		if (n2)
			rn = n2;
		if (a2)
			ra = a2;
	}
	char *r = maint_format_email(rn, ra);
	free(email);
	free(name);
	free(addr);
	return r;
}
