/*
 * Matching a file against MAINTAINERS: which sections it belongs to, in
 * get_maintainer.pl's order.
 *
 * F:/X: globs are converted to regexes as get_maintainer.pl converts them
 * (. -> \., * -> .*, ? -> ., a slash added when the pattern names a
 * directory), then matched with its file_match_pattern() rule: a pattern
 * ending in '/' matches everything below, any other one only when the
 * file has as many slashes as the pattern.  Matching sections are ordered
 * by pattern depth (slashes, +1 without a trailing slash, -1 for patterns
 * starting with '*'), deepest first, the last matching line of a section
 * giving its depth; where get_maintainer.pl orders equal depths by Perl's
 * hash order (random), we keep MAINTAINERS order.  N: regexes match the
 * file name, K: keywords its content.
 *
 * Speed: F:/X: patterns are indexed by their literal prefix, so a file
 * only tests the patterns whose prefix is a prefix of its path; most are
 * matched by a small glob matcher, PCRE2 taking the rare others.  N:/K:
 * regexes are compiled once, on first use (K: with the JIT).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "maint/maint-int.h"

char *maint_glob_to_re(struct arena *a, const char *v)
{
	char *r = arena_alloc(a, 2 * strlen(v) + 1), *o = r;
	for (; *v; v++) {
		if (*v == '.') {
			*o++ = '\\';
			*o++ = '.';
		} else if (*v == '*') {
			/* "**" is ".*.*": the same language, with a cost
			 * exponential in the number of stars. */
			if (o == r || o[-1] != '*' || o - r < 2 ||
			    o[-2] != '.') {
				*o++ = '.';
				*o++ = '*';
			}
		} else {
			*o++ = *v == '?' ? '.' : *v;
		}
	}
	*o = '\0';
	return r;
}

/*
 * Length of the regex atom at p (a char, "\c", ".", or "[...]"), or 0 when
 * the glob matcher does not handle it.
 */
static size_t atom_len(const char *p)
{
	if (*p == '\\')
		return p[1] && !maint_is_alnum((unsigned char)p[1]) ? 2 : 0;
	if (*p == '[') {
		const char *q = p + 1;
		if (*q == '^')
			q++;
		if (*q == ']')
			q++;
		for (; *q && *q != ']'; q++)
			if (*q == '\\' || *q == '[')
				return 0;
		return *q == ']' ? (size_t)(q - p + 1) : 0;
	}
	switch (*p) {
	case '*':
	case '+':
	case '?':
	case '{':
	case '}':
	case '(':
	case ')':
	case '|':
	case '^':
	case '$':
	case ']':
	case '\0':
		return 0;
	default:
		return 1;
	}
}

/* Whether c is in the class p[0..alen), "[...]" or "[^...]". */
static bool class_match(const char *p, size_t alen, unsigned char c)
{
	const char *q = p + 1, *end = p + alen - 1;
	bool neg = false, in = false;
	if (*q == '^') {
		neg = true;
		q++;
	}
	for (bool first = true; q < end; first = false) {
		unsigned char lo = (unsigned char)*q;
		if (!first && lo == ']')
			break;
		if (q + 2 < end && q[1] == '-') {
			unsigned char hi = (unsigned char)q[2];
			if (c >= lo && c <= hi)
				in = true;
			q += 3;
		} else {
			if (c == lo)
				in = true;
			q++;
		}
	}
	return in != neg;
}

static bool atom_match(const char *p, size_t alen, unsigned char c)
{
	if (alen == 2)
		return c == (unsigned char)p[1];
	if (alen == 1)
		return *p == '.' ? c != '\n' : c == (unsigned char)*p;
	return class_match(p, alen, c);
}

bool maint_simple_pattern(const char *re)
{
	for (const char *p = re; *p;) {
		size_t al = atom_len(p);
		if (!al)
			return false;
		if (p[al] == '*' && !(al == 1 && *p == '.'))
			return false; /* "x*" other than ".*": PCRE2 */
		p += al;
		if (*p == '*')
			p++;
	}
	return true;
}

/*
 * Matches the start of [s, se) against a simple pattern (a prefix match,
 * as get_maintainer.pl's m@^pattern@).  Each ".*" matches any run; on a
 * mismatch only the last ".*" seen takes one more character, which is
 * enough for stars that match anything, so the cost is O(|p| * |s|)
 * however many stars a hostile pattern holds.
 */
static bool glob_match(const char *p, const char *s, const char *se)
{
	const char *star_p = NULL, *star_s = NULL;

	for (;;) {
		if (!*p)
			return true;
		if (p[0] == '.' && p[1] == '*') {
			p += 2;
			star_p = p;
			star_s = s;
			continue;
		}
		size_t al = atom_len(p);
		if (s < se && atom_match(p, al, (unsigned char)*s)) {
			p += al;
			s++;
			continue;
		}
		if (star_p && star_s < se) {
			p = star_p;
			s = ++star_s;
			continue;
		}
		return false;
	}
}

size_t maint_literal_prefix(const char *re, bool simple, char *out)
{
	size_t n = 0;
	out[0] = '\0';
	if (!simple)
		return 0;
	for (const char *p = re; *p;) {
		size_t al = atom_len(p);
		if (p[al] == '*' || p[al] == '+' || p[al] == '?' ||
		    p[al] == '{')
			break;
		if (al == 2)
			out[n++] = p[1];
		else if (al == 1 && *p != '.')
			out[n++] = *p;
		else
			break;
		p += al;
	}
	out[n] = '\0';
	return n;
}

static size_t count_slashes_n(const char *s, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		n += s[i] == '/';
	return n;
}

static size_t count_slashes(const char *s)
{
	return count_slashes_n(s, strlen(s));
}

pcre2_code *maint_re_compile(struct lazy *lz, const char *re, uint32_t opts,
			     bool jit, struct err *err, const char *what)
{
	int ec;
	PCRE2_SIZE off;
	pcre2_code *c = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED,
				      opts, &ec, &off, lz->cctx);
	if (!c) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(ec, msg, sizeof(msg));
		err_setc(
			err, ERR_INVALID,
			"MAINTAINERS %s '%s' does not compile: %s at offset %zu",
			what, re, (const char *)msg, (size_t)off);
		return NULL;
	}
	if (jit)
		(void)pcre2_jit_compile(c, PCRE2_JIT_COMPLETE);
	return c;
}

bool maint_re_match(const struct lazy *lz, const pcre2_code *c, const char *s,
		    size_t len)
{
	/* A pattern that would backtrack past the match limit counts as no
	 * match (PCRE2_ERROR_MATCHLIMIT), instead of hanging the lookup. */
	int rc = pcre2_match(c, (PCRE2_SPTR)s, len, 0, 0, lz->md1, lz->mctx);
	return rc >= 0;
}

/* The pattern as get_maintainer.pl matches it: with '/' for directories. */
static const char *fpat_eff(const struct maint_db *db, size_t i)
{
	struct fpat_lazy *f = &db->fl[i];
	if (f->dir < 0) {
		const char *re = mstr(db, db->lines[db->fpats[i].line].text);
		size_t n = strlen(re);
		struct stat st;
		f->dir = n && db->dirfd >= 0 &&
			fstatat(db->dirfd, re, &st, 0) == 0 &&
			S_ISDIR(st.st_mode);
		f->eff = f->dir && re[n - 1] != '/' ? xasprintf("%s/", re)
						    : xstrdup(re);
	}
	return f->eff;
}

/* file_match_pattern(); -1 on a regex that does not compile. */
static int fpat_match(const struct maint_db *db, size_t i, const char *file,
		      size_t flen, size_t fslashes, struct err *err)
{
	const char *eff = fpat_eff(db, i);
	struct fpat_lazy *f = &db->fl[i];
	size_t n = strlen(eff);
	bool m;
	if (db->fpats[i].simple) {
		m = glob_match(eff, file, file + flen);
	} else {
		if (!f->code) {
			char *re = xasprintf("^%s", eff);
			f->code = maint_re_compile(db->lz, re, 0, false, err,
						   "file pattern");
			free(re);
			if (!f->code)
				return -1;
		}
		m = maint_re_match(db->lz, f->code, file, flen);
	}
	if (!m)
		return 0;
	if (n && eff[n - 1] == '/')
		return 1;
	return fslashes == count_slashes(eff);
}

static int npats_ready(const struct maint_db *db, struct err *err)
{
	if (db->lz->npats_ready)
		return 0;
	for (size_t i = 0; i < db->nnpats; i++) {
		struct rpat_lazy *n = &db->nl[i];
		if (n->code || db->npats[i].literal)
			continue; /* compiled by an earlier, failed attempt */
		n->code = maint_re_compile(db->lz, mstr(db, db->npats[i].re),
					   PCRE2_EXTENDED, false, err,
					   "N: pattern");
		if (!n->code)
			return -1;
	}
	db->lz->npats_ready = true;
	return 0;
}

int maint_kpat_ready(const struct maint_db *db, size_t i, bool patch,
		     struct err *err)
{
	struct rpat_lazy *k = &db->kl[i];
	const char *kre = mstr(db, db->kpats[i].re);
	if (db->kpats[i].literal)
		return 0;
	if (!k->code) {
		k->code = maint_re_compile(db->lz, kre, PCRE2_EXTENDED, true,
					   err, "K: keyword");
		if (!k->code)
			return -1;
	}
	if (patch && !k->pcode) {
		char *re = xasprintf("^[+-].*%s", kre);
		k->pcode = maint_re_compile(db->lz, re, PCRE2_EXTENDED, true,
					    err, "K: keyword");
		free(re);
		if (!k->pcode)
			return -1;
	}
	return 0;
}

bool maint_kpat_match(const struct maint_db *db, size_t i, bool body,
		      const char *s, size_t len)
{
	const char *lit = mstr(db, db->kpats[i].re);
	if (!db->kpats[i].literal)
		return maint_re_match(db->lz,
				      body ? db->kl[i].pcode : db->kl[i].code,
				      s, len);
	/* m/^[+-].*TEXT/x: a '+' or '-' first, TEXT after it on the line */
	if (body) {
		if (!len || (s[0] != '+' && s[0] != '-'))
			return false;
		s++, len--;
		const char *nl = memchr(s, '\n', len);
		if (nl)
			len = (size_t)(nl - s);
	}
	return memmem(s, len, lit, strlen(lit)) != NULL;
}

/* ---- the sections of one file ---- */

struct hit {
	uint32_t line, sect;
	int depth;
};

/* The matching lines of a file, and the sections X: takes out. */
struct hits {
	struct hit *v;
	size_t n, alloc;
	struct ivec excl;
};

static void hits_push(struct hits *h, uint32_t line, uint32_t sect, int depth)
{
	if (h->n == h->alloc) {
		h->alloc = h->alloc ? h->alloc * 2 : 16;
		h->v = xrealloc(h->v, h->alloc * sizeof(*h->v));
	}
	h->v[h->n++] = (struct hit){ line, sect, depth };
}

static int hit_by_sect_line(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;
	if (x->sect != y->sect)
		return x->sect < y->sect ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int hit_by_depth(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;
	if (x->depth != y->depth)
		return x->depth > y->depth ? -1 : 1;
	return x->sect < y->sect ? -1 : x->sect > y->sect;
}

/* A pattern's depth, as get_maintainer.pl ranks matching sections. */
static int pattern_depth(const char *eff)
{
	size_t n = strlen(eff);
	int depth = (int)count_slashes(eff);
	if (!n || eff[n - 1] != '/')
		depth++;
	if (!strncmp(eff, ".*", 2))
		depth = -1;
	return depth;
}

/* The F:/X: patterns whose literal prefix starts file, into h. */
static int match_fpats(const struct maint_db *db, const char *file, size_t flen,
		       struct hits *h, struct err *err)
{
	size_t fsl = count_slashes_n(file, flen);
	uint64_t hash = FNV_INIT;

	for (size_t L = 0; L <= flen; L++) {
		const struct mslot *e = maint_img_find(
			db, db->prefix, db->prefix_cap, file, L, hash);
		if (L < flen)
			hash = fnv_step(hash, (unsigned char)file[L]);
		if (!e)
			continue;
		for (size_t k = 0; k < e->n; k++) {
			uint32_t i = db->plist[e->val + k];
			const struct mfpat *f = &db->fpats[i];
			int m = fpat_match(db, i, file, flen, fsl, err);
			if (m < 0)
				return -1;
			if (!m)
				continue;
			if (f->type == 'X')
				ivec_push(&h->excl, f->sect);
			else
				hits_push(h, f->line, f->sect,
					  pattern_depth(db->fl[i].eff));
		}
	}
	return 0;
}

/* The N: regexes matching the file name, into h (depth 0). */
static int match_npats(const struct maint_db *db, const char *file, size_t flen,
		       struct hits *h, struct err *err)
{
	if (npats_ready(db, err) < 0)
		return -1;
	for (size_t i = 0; i < db->nnpats; i++) {
		const struct mrpat *n = &db->npats[i];
		const char *lit = mstr(db, n->re);
		if (n->literal ? memmem(file, flen, lit, strlen(lit)) != NULL
			       : maint_re_match(db->lz, db->nl[i].code, file,
						flen))
			hits_push(h, n->line, n->sect, 0);
	}
	return 0;
}

static bool excluded(const struct hits *h, uint32_t sect)
{
	for (size_t k = 0; k < h->excl.n; k++)
		if (h->excl.v[k] == sect)
			return true;
	return false;
}

/* Keeps one hit per section not excluded, its last matching line giving
 * its depth, deepest first.  Returns how many are kept. */
static size_t rank_hits(struct hits *h)
{
	if (h->n)
		qsort(h->v, h->n, sizeof(*h->v), hit_by_sect_line);
	size_t w = 0;
	for (size_t i = 0; i < h->n; i++) {
		if (excluded(h, h->v[i].sect))
			continue;
		if (i + 1 < h->n && h->v[i + 1].sect == h->v[i].sect)
			continue;
		h->v[w++] = h->v[i];
	}
	if (w)
		qsort(h->v, w, sizeof(*h->v), hit_by_depth);
	return w;
}

long maint_file_sections(const struct maint_db *db, const char *file,
			 uint32_t **out, struct err *err)
{
	size_t flen = strlen(file);
	struct hits h = { 0 };
	long r = -1;

	if (match_fpats(db, file, flen, &h, err) == 0 &&
	    match_npats(db, file, flen, &h, err) == 0) {
		size_t w = rank_hits(&h);
		*out = xmalloc((w ? w : 1) * sizeof(**out));
		for (size_t i = 0; i < w; i++)
			(*out)[i] = h.v[i].sect;
		r = (long)w;
	}
	free(h.v);
	free(h.excl.v);
	return r;
}

int maint_file_keywords(const struct maint_db *db, const char *tree,
			const char *file, struct ivec *kw, struct err *err)
{
	if (!strcmp(file, "MAINTAINERS"))
		return 0;
	char *path = xasprintf("%s/%s", tree, file);
	struct stat st;
	char *text = NULL;
	size_t len;
	int r = 0;
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
	    maint_read_whole(path, &text, &len, NULL) < 0) {
		free(path);
		return 0;
	}
	free(path);
	for (size_t k = 0; k < db->nkpats && r == 0; k++) {
		r = maint_kpat_ready(db, k, false, err);
		if (r == 0 && maint_kpat_match(db, k, false, text, len))
			ivec_push(kw, db->kpats[k].line);
	}
	free(text);
	return r;
}
