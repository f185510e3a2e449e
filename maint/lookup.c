/*
 * The MAINTAINERS lookup, a port of the kernel's scripts/get_maintainer.pl
 * (v0.26, Linux 6.1) for `--nogit --nogit-fallback` and its other defaults.
 *
 * The file is kept as get_maintainer.pl keeps it: one array of lines
 * ("type-values"), where a section is a run of `X:` lines and its name the
 * line before the run.  F:/X: globs are converted to regexes the same way
 * (. -> \., * -> .*, ? -> ., a slash added when the pattern names a
 * directory), then matched with its file_match_pattern() rule: a pattern
 * ending in '/' matches everything below, any other one only when the file
 * has as many slashes as the pattern.  Matching sections are ordered by
 * pattern depth (slashes, +1 without a trailing slash, -1 for patterns
 * starting with '*'), deepest first, the last matching line of a section
 * giving its depth.  K: keywords come after all files' sections.  People
 * are de-duplicated by name or address, then mapped through .mailmap, as
 * get_maintainer.pl does.  Where it orders equal depths by Perl's hash
 * order (random), we keep MAINTAINERS order.
 *
 * Speed: F:/X: patterns are indexed by their literal prefix, so a file
 * only tests the patterns whose prefix is a prefix of its path; most are
 * matched by a small glob matcher, PCRE2 taking the rare others.  N:/K:
 * regexes are compiled once, on first use (K: with the JIT).
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "maint/maint.h"

#define MAX_CONTENT (64u << 20) /* K: keywords read files up to 64 MB */
#define SECTION_MAXLEN 50       /* $output_section_maxlen */

/* ---- small containers ---- */

struct smap_ent {
	char *key;
	size_t klen;
	uint64_t h;
	void *val;
};

/* Open-addressing map from byte strings to pointers. */
struct smap {
	struct smap_ent *v;
	size_t cap, n;
	bool borrowed; /* keys belong to the caller (an arena) */
};

#define FNV_INIT 1469598103934665603ULL
static inline uint64_t fnv_step(uint64_t h, unsigned char c)
{
	return (h ^ c) * 1099511628211ULL;
}

static uint64_t fnv(const char *s, size_t n)
{
	uint64_t h = FNV_INIT;
	for (size_t i = 0; i < n; i++)
		h = fnv_step(h, (unsigned char)s[i]);
	return h;
}

static struct smap_ent *smap_find(const struct smap *m, const char *k,
				  size_t klen, uint64_t h)
{
	if (!m->cap)
		return NULL;
	for (size_t i = h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		struct smap_ent *e = &m->v[i];
		if (!e->key)
			return NULL;
		if (e->h == h && e->klen == klen && !memcmp(e->key, k, klen))
			return e;
	}
}

static void **smap_slot(struct smap *m, const char *k, size_t klen)
{
	uint64_t h = fnv(k, klen);
	struct smap_ent *e = smap_find(m, k, klen, h);
	if (e)
		return &e->val;
	if ((m->n + 1) * 2 > m->cap) {
		struct smap old = *m;
		m->cap = old.cap ? old.cap * 2 : 64;
		m->v = xcalloc(m->cap, sizeof(*m->v));
		m->n = 0;
		for (size_t i = 0; i < old.cap; i++) {
			struct smap_ent *o = &old.v[i];
			if (!o->key)
				continue;
			size_t j = o->h & (m->cap - 1);
			while (m->v[j].key)
				j = (j + 1) & (m->cap - 1);
			m->v[j] = *o;
			m->n++;
		}
		free(old.v);
	}
	size_t j = h & (m->cap - 1);
	while (m->v[j].key)
		j = (j + 1) & (m->cap - 1);
	if (m->borrowed) {
		m->v[j].key = (char *)k;
	} else {
		m->v[j].key = xmemdup(k, klen + 1);
		m->v[j].key[klen] = '\0';
	}
	m->v[j].klen = klen;
	m->v[j].h = h;
	m->v[j].val = NULL;
	m->n++;
	return &m->v[j].val;
}

static void smap_reserve(struct smap *m, size_t n)
{
	size_t cap = 64;
	while (cap < 2 * n + 2)
		cap *= 2;
	assert(!m->cap);
	m->cap = cap;
	m->v = xcalloc(cap, sizeof(*m->v));
}

static void *smap_get(const struct smap *m, const char *k)
{
	size_t n = strlen(k);
	struct smap_ent *e = smap_find(m, k, n, fnv(k, n));
	return e ? e->val : NULL;
}

static void smap_release(struct smap *m, void (*freeval)(void *))
{
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->v[i].key)
			continue;
		if (!m->borrowed)
			free(m->v[i].key);
		if (freeval)
			freeval(m->v[i].val);
	}
	free(m->v);
	m->v = NULL;
	m->cap = m->n = 0;
}

struct ivec {
	uint32_t *v;
	size_t n, alloc;
};

static void ivec_push(struct ivec *iv, uint32_t x)
{
	if (iv->n == iv->alloc) {
		iv->alloc = iv->alloc ? iv->alloc * 2 : 8;
		iv->v = xrealloc(iv->v, iv->alloc * sizeof(*iv->v));
	}
	iv->v[iv->n++] = x;
}

struct svec {
	char **v;
	size_t n, alloc;
};

static void svec_push(struct svec *sv, char *s)
{
	if (sv->n == sv->alloc) {
		sv->alloc = sv->alloc ? sv->alloc * 2 : 16;
		sv->v = xrealloc(sv->v, sv->alloc * sizeof(*sv->v));
	}
	sv->v[sv->n++] = s;
}

static void svec_release(struct svec *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = sv->alloc = 0;
}

/* Bump allocation for what lives as long as the db (pattern texts). */
struct arena {
	char **chunks;
	size_t n;
	char *cur;
	size_t left;
};

static char *arena_alloc(struct arena *a, size_t n)
{
	if (n > a->left) {
		size_t sz = n > 65536 ? n : 65536;
		a->chunks = xrealloc(a->chunks, (a->n + 1) * sizeof(*a->chunks));
		a->chunks[a->n++] = a->cur = xmalloc(sz);
		a->left = sz;
	}
	char *r = a->cur;
	a->cur += n;
	a->left -= n;
	return r;
}

static void arena_release(struct arena *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->chunks[i]);
	free(a->chunks);
	memset(a, 0, sizeof(*a));
}

/* ---- the database ---- */

struct tvline {
	char type;  /* 'A'..'Z' for "T: value" lines, 0 for other lines */
	char *text; /* the value (F:/X: converted to a regex) or the line */
	uint32_t sect;
};

struct fpat {
	uint32_t line, sect;
	char type;        /* 'F' or 'X' */
	bool simple;      /* the glob matcher handles it */
	int8_t dir;       /* -1 not yet known, else whether -d (add a '/') */
	char *eff;        /* the pattern as matched (with the '/'), once known */
	pcre2_code *code; /* for !simple, compiled on first use */
};

struct rpat { /* N: or K: */
	uint32_t line, sect;
	char *re;
	bool tried;
	pcre2_code *code;  /* m/$re/x */
	pcre2_code *pcode; /* m/^[+-].*$re/x, K: in a patch's body */
};

struct sect {
	uint32_t key, start, end; /* get_maintainer.pl's $tvi, $start, $end */
	char *disp;               /* name cut to 50 bytes */
	char *rword;              /* "maintainer", from the last S: */
	bool catch_all, security;
};

/* What is compiled or learned during lookups (the db is const there). */
struct lazy {
	pcre2_match_data *md1;
	pcre2_match_data *md4;
	pcre2_compile_context *cctx;
	pcre2_match_context *mctx; /* bounds the work of one match */
	bool npats_ready;
	pcre2_code *re_email[3];  /* parse_email() */
	pcre2_code *re_fileaddr;  /* maintainers_in_file() */
	pcre2_code *re_cleanaddr; /* clean_file_emails() */
};

struct maint_db {
	char *text; /* the file, lines cut in place */
	struct arena arena; /* F:/X: regexes, literal prefixes */
	char *dir;  /* the tree holding MAINTAINERS */
	int dirfd;
	struct tvline *lines;
	size_t nlines;
	struct sect *sects;
	size_t nsects;
	struct fpat *fpats;
	size_t nfpats;
	struct rpat *npats, *kpats;
	size_t nnpats, nkpats;
	struct smap prefix; /* literal prefix -> struct ivec * of fpats */
	struct smap mm_names, mm_addrs; /* .mailmap: key -> char * */
	struct lazy *lz;
};

size_t maint_db_sections(const struct maint_db *db)
{
	return db->nsects;
}

static bool is_perl_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

static bool is_alnum_ascii(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* Glob of a F:/X: line to the regex get_maintainer.pl builds. */
static char *glob_to_re(struct arena *a, const char *v)
{
	char *r = arena_alloc(a, 2 * strlen(v) + 1), *o = r;
	for (; *v; v++) {
		if (*v == '.') {
			*o++ = '\\';
			*o++ = '.';
		} else if (*v == '*') {
			/* "**" is ".*.*": the same language, with a cost
			 * exponential in the number of stars. */
			if (o == r || o[-1] != '*' || o - r < 2 || o[-2] != '.') {
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
		return p[1] && !is_alnum_ascii((unsigned char)p[1]) ? 2 : 0;
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
	case '*': case '+': case '?': case '{': case '}': case '(': case ')':
	case '|': case '^': case '$': case ']': case '\0':
		return 0;
	default:
		return 1;
	}
}

static bool atom_match(const char *p, size_t alen, unsigned char c)
{
	if (alen == 2)
		return c == (unsigned char)p[1];
	if (alen == 1)
		return *p == '.' ? c != '\n' : c == (unsigned char)*p;
	/* a class */
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

/* True when the glob matcher handles re: atoms, and ".*" for a star. */
static bool simple_pattern(const char *re)
{
	for (const char *p = re; *p;) {
		size_t al = atom_len(p);
		if (!al)
			return false;
		if (p[al] == '*' && !(al == 1 && *p == '.'))
			return false;   /* "x*" other than ".*": PCRE2 */
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
 * however many stars a hostile pattern holds.  Returns 1 or 0.
 */
static int glob_match(const char *p, const char *s, const char *se,
		      long *budget)
{
	const char *star_p = NULL, *star_s = NULL;

	(void)budget;
	for (;;) {
		if (!*p)
			return 1;
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
		return 0;
	}
}

/* The literal text every match of re starts with ("" when unsure). */
static size_t literal_prefix(const char *re, bool simple, char *out)
{
	size_t n = 0;
	out[0] = '\0';
	if (!simple)
		return 0;
	for (const char *p = re; *p;) {
		size_t al = atom_len(p);
		if (p[al] == '*' || p[al] == '+' || p[al] == '?' || p[al] == '{')
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

static size_t count_slashes(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += *s == '/';
	return n;
}

static size_t count_slashes_n(const char *s, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		n += s[i] == '/';
	return n;
}

static pcre2_code *re_compile(struct lazy *lz, const char *re, uint32_t opts,
			      bool jit, struct err *err, const char *what)
{
	int ec;
	PCRE2_SIZE off;
	pcre2_code *c = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED,
				      opts, &ec, &off, lz->cctx);
	if (!c) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(ec, msg, sizeof(msg));
		err_setc(err, ERR_INVALID,
			 "MAINTAINERS %s '%s' does not compile: %s at offset %zu",
			 what, re, (const char *)msg, (size_t)off);
		return NULL;
	}
	if (jit)
		(void)pcre2_jit_compile(c, PCRE2_JIT_COMPLETE);
	return c;
}

static bool re_match(const struct lazy *lz, const pcre2_code *c, const char *s,
		     size_t len)
{
	/* A pattern that would backtrack past the match limit counts as no
	 * match (PCRE2_ERROR_MATCHLIMIT), instead of hanging the lookup. */
	int rc = pcre2_match(c, (PCRE2_SPTR)s, len, 0, 0, lz->md1, lz->mctx);
	return rc >= 0;
}

static void add_prefix(struct maint_db *db, const char *key, uint32_t idx)
{
	void **slot = smap_slot(&db->prefix, key, strlen(key));
	if (!*slot)
		*slot = xcalloc(1, sizeof(struct ivec));
	ivec_push(*slot, idx);
}

static void free_ivec(void *p)
{
	struct ivec *iv = p;
	if (iv)
		free(iv->v);
	free(iv);
}

/* ---- e-mail addresses, as get_maintainer.pl handles them ---- */

static char *trim_dup(const char *s, size_t n)
{
	while (n && is_perl_space((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && is_perl_space((unsigned char)s[n - 1]))
		n--;
	return xstrndup(s, n);
}

static bool must_quote(const char *name)
{
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if (!is_alnum_ascii(*p) && *p != '_' && *p != ' ' && *p != '-')
			return true;
	return false;
}

/* s/^\"|\"$//g after trimming, then quoted if it must be. */
static char *name_normalize(const char *raw)
{
	char *t = trim_dup(raw, strlen(raw));
	char *s = t;
	size_t n = strlen(s);
	if (n && s[0] == '"') {
		s++;
		n--;
	}
	if (n && s[n - 1] == '"')
		n--;
	s[n] = '\0';
	char *r;
	if (must_quote(s)) {
		struct sbuf sb = SBUF_INIT;
		sbuf_addch(&sb, '"');
		for (size_t i = 0; i < n; i++) {
			if (s[i] == '"' && !(i > 0 && s[i - 1] == '\\'))
				sbuf_addch(&sb, '\\');
			sbuf_addch(&sb, s[i]);
		}
		sbuf_addch(&sb, '"');
		r = sbuf_detach(&sb, NULL);
	} else {
		r = xstrdup(s);
	}
	free(t);
	return r;
}

static char *format_email(const char *name, const char *address)
{
	char *n = name_normalize(name);
	char *a = trim_dup(address, strlen(address));
	char *r = *n ? xasprintf("%s <%s>", n, a) : xstrdup(a);
	free(n);
	free(a);
	return r;
}

static int lazy_email_res(struct lazy *lz)
{
	static const char *const res[3] = {
		"^([^<]+)<(.+\\@.*)>.*$",
		"^\\s*<(.+\\@\\S*)>.*$",
		"^(.+\\@\\S*).*$",
	};
	for (int i = 0; i < 3; i++) {
		if (lz->re_email[i])
			continue;
		lz->re_email[i] = re_compile(lz, res[i], 0, false, NULL, "");
		if (!lz->re_email[i])
			return -1;
	}
	return 0;
}

/* parse_email(): *name (quoted when it must be) and *addr, both new. */
static void parse_email(const struct lazy *lz, const char *s, char **name,
			char **addr)
{
	size_t len = strlen(s);
	const char *n = "", *a = "";
	size_t nl = 0, al = 0;
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(lz->md4);

	if (pcre2_match(lz->re_email[0], (PCRE2_SPTR)s, len, 0, 0, lz->md4,
			NULL) > 0) {
		n = s + ov[2];
		nl = ov[3] - ov[2];
		a = s + ov[4];
		al = ov[5] - ov[4];
	} else if (pcre2_match(lz->re_email[1], (PCRE2_SPTR)s, len, 0, 0,
			       lz->md4, NULL) > 0 ||
		   pcre2_match(lz->re_email[2], (PCRE2_SPTR)s, len, 0, 0,
			       lz->md4, NULL) > 0) {
		a = s + ov[2];
		al = ov[3] - ov[2];
	}
	char *tn = xstrndup(n, nl);
	*name = name_normalize(tn);
	free(tn);
	*addr = trim_dup(a, al);
}

/* The name without the quotes format_email() adds. */
static char *name_unquote(const char *q)
{
	size_t n = strlen(q);
	if (n < 2 || q[0] != '"' || q[n - 1] != '"')
		return xstrdup(q);
	struct sbuf sb = SBUF_INIT;
	for (size_t i = 1; i + 1 < n; i++) {
		if (q[i] == '\\' && q[i + 1] == '"' && i + 2 < n)
			continue;
		sbuf_addch(&sb, q[i]);
	}
	if (!sb.buf)
		sbuf_adds(&sb, "");
	return sbuf_detach(&sb, NULL);
}

static char *lc_dup(const char *s)
{
	char *r = xstrdup(s);
	for (char *p = r; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return r;
}

static void mm_put(struct smap *m, const char *key, const char *val)
{
	void **slot = smap_slot(m, key, strlen(key));
	free(*slot);
	*slot = xstrdup(val);
}

/* read_mailmap(). */
static int load_mailmap(struct maint_db *db)
{
	char *path = xasprintf("%s/.mailmap", db->dir);
	char *text = NULL;
	size_t len;
	struct stat st;
	int r = 0;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
	    read_file(path, 16u << 20, &text, &len, NULL) < 0) {
		free(path);
		return 0;
	}
	free(path);
	static const char *const forms[4] = {
		"^([^<]+)<([^>]+)>$",
		"^<([^>]+)>\\s*<([^>]+)>$",
		"^(.+)<([^>]+)>\\s*<([^>]+)>$",
		"^(.+)<([^>]+)>\\s*(.+)\\s*<([^>]+)>$",
	};
	pcre2_code *re[4] = { NULL };
	pcre2_match_data *md = pcre2_match_data_create(8, NULL);
	for (int i = 0; i < 4; i++) {
		re[i] = re_compile(db->lz, forms[i], 0, false, NULL, "");
		if (!re[i])
			r = -1;
	}
	for (char *line = text; r == 0 && line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char *l = trim_dup(line, strlen(line));
		line = nl ? nl + 1 : NULL;
		size_t ll = strlen(l);
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
#define CAP(k) xstrndup(l + ov[2 * (k)], ov[2 * (k) + 1] - ov[2 * (k)])
		if (!ll) {
			/* empty */
		} else if (pcre2_match(re[0], (PCRE2_SPTR)l, ll, 0, 0, md,
				       NULL) > 0) {
			char *rn = CAP(1), *ra = CAP(2);
			char *full = xasprintf("%s <%s>", str_trim(rn), ra);
			char *pn, *pa;
			parse_email(db->lz, full, &pn, &pa);
			mm_put(&db->mm_names, pa, pn);
			free(rn); free(ra); free(full); free(pn); free(pa);
		} else if (pcre2_match(re[1], (PCRE2_SPTR)l, ll, 0, 0, md,
				       NULL) > 0) {
			char *ra = CAP(1), *wa = CAP(2);
			mm_put(&db->mm_addrs, wa, ra);
			free(ra); free(wa);
		} else if (pcre2_match(re[2], (PCRE2_SPTR)l, ll, 0, 0, md,
				       NULL) > 0) {
			char *rn = CAP(1), *ra = CAP(2), *wa = CAP(3);
			size_t k = strlen(rn);
			while (k && is_perl_space((unsigned char)rn[k - 1]))
				rn[--k] = '\0';
			char *full = xasprintf("%s <%s>", rn, ra);
			char *pn, *pa;
			parse_email(db->lz, full, &pn, &pa);
			mm_put(&db->mm_names, wa, pn);
			mm_put(&db->mm_addrs, wa, pa);
			free(rn); free(ra); free(wa); free(full); free(pn);
			free(pa);
		} else if (pcre2_match(re[3], (PCRE2_SPTR)l, ll, 0, 0, md,
				       NULL) > 0) {
			char *rn = CAP(1), *ra = CAP(2), *wn = CAP(3),
			     *wa = CAP(4);
			size_t k = strlen(rn);
			while (k && is_perl_space((unsigned char)rn[k - 1]))
				rn[--k] = '\0';
			k = strlen(wn);
			while (k && is_perl_space((unsigned char)wn[k - 1]))
				wn[--k] = '\0';
			char *full = xasprintf("%s <%s>", rn, ra);
			char *wfull = xasprintf("%s <%s>", wn, wa);
			char *pn, *pa, *qn, *qa;
			parse_email(db->lz, full, &pn, &pa);
			parse_email(db->lz, wfull, &qn, &qa);
			char *wrong = format_email(qn, qa);
			mm_put(&db->mm_names, wrong, pn);
			mm_put(&db->mm_addrs, wrong, pa);
			free(rn); free(ra); free(wn); free(wa); free(full);
			free(wfull); free(pn); free(pa); free(qn); free(qa);
			free(wrong);
		}
#undef CAP
		free(l);
	}
	for (int i = 0; i < 4; i++)
		pcre2_code_free(re[i]);
	pcre2_match_data_free(md);
	free(text);
	return r;
}

/* mailmap_email(): a new formatted "Name <address>". */
static char *mailmap_email(const struct maint_db *db, const char *line)
{
	char *name, *addr;
	parse_email(db->lz, line, &name, &addr);
	char *email = format_email(name, addr);
	const char *rn = name, *ra = addr;
	const char *n1 = smap_get(&db->mm_names, email);
	const char *a1 = smap_get(&db->mm_addrs, email);
	if (n1 || a1) {
		if (n1)
			rn = n1;
		if (a1)
			ra = a1;
	} else {
		const char *n2 = smap_get(&db->mm_names, addr);
		const char *a2 = smap_get(&db->mm_addrs, addr);
		if (n2)
			rn = n2;
		if (a2)
			ra = a2;
	}
	char *r = format_email(rn, ra);
	free(email);
	free(name);
	free(addr);
	return r;
}

/* ---- loading ---- */

static bool tv_parse(const char *line, char *type, const char **value)
{
	if (line[0] < 'A' || line[0] > 'Z' || line[1] != ':')
		return false;
	const char *v = line + 2;
	while (is_perl_space((unsigned char)*v))
		v++;
	*type = line[0];
	*value = v;
	return true;
}

static bool blank_or_comment(const char *line)
{
	while (is_perl_space((unsigned char)*line))
		line++;
	return !*line || *line == '#';
}

static char *section_disp(const char *name)
{
	size_t n = strlen(name);
	if (n <= SECTION_MAXLEN)
		return xstrdup(name);
	n = SECTION_MAXLEN - 3;
	while (n && is_perl_space((unsigned char)name[n - 1]))
		n--;
	char *cut = xstrndup(name, n);
	char *r = xasprintf("%s...", cut);
	free(cut);
	return r;
}

static char *maint_role(const char *status)
{
	char *lc = lc_dup(status);
	static const char *const map[][2] = {
		{ "supported", "supporter" },
		{ "maintained", "maintainer" },
		{ "odd fixes", "odd fixer" },
		{ "orphan", "orphan minder" },
		{ "obsolete", "obsolete minder" },
		{ "buried alive in reporters", "chief penguin" },
	};
	const char *role = lc;
	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (!strcmp(lc, map[i][0]))
			role = map[i][1];
	char *r = xstrdup(role);
	free(lc);
	return r;
}

static void build_sections(struct maint_db *db)
{
	size_t cap = 0;
	size_t i = 0;
	/* find_first_section() then $tvi = $end + 1, as get_maintainer.pl */
	while (i < db->nlines && !db->lines[i].type)
		i++;
	while (i < db->nlines) {
		size_t start = i, end = i;
		while (start > 0 && db->lines[start].type)
			start--;
		while (end < db->nlines && db->lines[end].type)
			end++;
		if (end > i) {
			if (db->nsects == cap) {
				cap = cap ? cap * 2 : 1024;
				db->sects = xrealloc(db->sects,
						     cap * sizeof(*db->sects));
			}
			struct sect *s = &db->sects[db->nsects];
			memset(s, 0, sizeof(*s));
			s->key = (uint32_t)i;
			s->start = (uint32_t)start;
			s->end = (uint32_t)end;
			const struct tvline *h = &db->lines[start];
			char *hname = h->type ? xasprintf("%c:%s", h->type, h->text)
					      : xstrdup(h->text);
			s->disp = section_disp(hname);
			s->security = !strcmp(hname, "SECURITY CONTACT");
			free(hname);
			const char *status = "unknown";
			for (size_t k = start + 1; k < end; k++)
				if (db->lines[k].type == 'S')
					status = db->lines[k].text;
			s->rword = maint_role(status);
			for (size_t k = start; k < end; k++) {
				db->lines[k].sect = (uint32_t)db->nsects;
				if (db->lines[k].type == 'F' &&
				    !strncmp(db->lines[k].text, ".*", 2))
					s->catch_all = true;
			}
			if (s->security)
				s->catch_all = true;
			db->nsects++;
		}
		i = end + 1;
	}
}

/* read_file() for a regular file, in one allocation of its size. */
static int read_whole(const char *path, char **out, size_t *len,
		      struct err *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > (off_t)MAX_CONTENT) {
		if (fd >= 0)
			close(fd);
		return read_file(path, MAX_CONTENT, out, len, err);
	}
	size_t n = (size_t)st.st_size, got = 0;
	char *buf = xmalloc(n + 1);
	while (got < n) {
		ssize_t r = read(fd, buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (got != n) { /* changed under us: the careful way */
		free(buf);
		return read_file(path, MAX_CONTENT, out, len, err);
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

int maint_db_load(const char *path, struct maint_db **out, struct err *err)
{
	char *text;
	size_t len;
	int r = read_whole(path, &text, &len, err);
	if (r < 0)
		return err_prefix(err, "cannot load MAINTAINERS"), r;

	struct maint_db *db = xcalloc(1, sizeof(*db));
	const char *slash = strrchr(path, '/');
	db->dir = slash ? (slash == path ? xstrdup("/")
					 : xstrndup(path, (size_t)(slash - path)))
			: xstrdup(".");
	db->dirfd = open(db->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	db->lz = xcalloc(1, sizeof(*db->lz));
	db->lz->md1 = pcre2_match_data_create(1, NULL);
	db->lz->md4 = pcre2_match_data_create(4, NULL);
	db->lz->cctx = pcre2_compile_context_create(NULL);
	pcre2_set_newline(db->lz->cctx, PCRE2_NEWLINE_LF);
	/* Real MAINTAINERS patterns need a few hundred steps; a hostile
	 * one must not need minutes. */
	db->lz->mctx = pcre2_match_context_create(NULL);
	pcre2_set_match_limit(db->lz->mctx, 200000);
	pcre2_set_depth_limit(db->lz->mctx, 10000);
	if (lazy_email_res(db->lz) < 0) {
		free(text);
		maint_db_free(db);
		return err_set(err, "cannot compile the e-mail regexes");
	}

	size_t cap = 0;
	for (char *line = text; line < text + len;) {
		char *nl = memchr(line, '\n', (size_t)(text + len - line));
		char *next = nl ? nl + 1 : text + len;
		if (nl)
			*nl = '\0';
		char type;
		const char *value;
		if (tv_parse(line, &type, &value) || !blank_or_comment(line)) {
			if (db->nlines == cap) {
				cap = cap ? cap * 2 : 32768;
				db->lines = xrealloc(db->lines,
						     cap * sizeof(*db->lines));
			}
			struct tvline *tv = &db->lines[db->nlines++];
			if (tv_parse(line, &type, &value)) {
				tv->type = type;
				tv->text = type == 'F' || type == 'X'
						   ? glob_to_re(&db->arena, value)
						   : (char *)value;
			} else {
				tv->type = 0;
				tv->text = line;
			}
			tv->sect = UINT32_MAX;
		}
		line = next;
	}
	db->text = text;
	build_sections(db);

	size_t nf = 0, nn = 0, nk = 0;
	for (size_t i = 0; i < db->nlines; i++) {
		char t = db->lines[i].type;
		nf += t == 'F' || t == 'X';
		nn += t == 'N';
		nk += t == 'K';
	}
	db->fpats = xcalloc(nf ? nf : 1, sizeof(*db->fpats));
	db->prefix.borrowed = true;
	smap_reserve(&db->prefix, nf);
	db->npats = xcalloc(nn ? nn : 1, sizeof(*db->npats));
	db->kpats = xcalloc(nk ? nk : 1, sizeof(*db->kpats));
	for (size_t i = 0; i < db->nlines; i++) {
		struct tvline *tv = &db->lines[i];
		if (tv->type == 'K') {
			struct rpat *k = &db->kpats[db->nkpats++];
			k->line = (uint32_t)i;
			k->sect = tv->sect;
			k->re = tv->text;
		}
		if (tv->sect == UINT32_MAX)
			continue; /* outside any section: never matched */
		if (tv->type == 'F' || tv->type == 'X') {
			struct fpat *f = &db->fpats[db->nfpats];
			f->line = (uint32_t)i;
			f->sect = tv->sect;
			f->type = tv->type;
			f->simple = simple_pattern(tv->text);
			f->dir = -1;
			char *pre = arena_alloc(&db->arena, strlen(tv->text) + 1);
			literal_prefix(tv->text, f->simple, pre);
			add_prefix(db, pre, (uint32_t)db->nfpats);
			db->nfpats++;
		} else if (tv->type == 'N') {
			struct rpat *n = &db->npats[db->nnpats++];
			n->line = (uint32_t)i;
			n->sect = tv->sect;
			n->re = tv->text;
		}
	}
	if (load_mailmap(db) < 0) {
		maint_db_free(db);
		return err_set(err, "cannot compile the .mailmap regexes");
	}
	*out = db;
	return 0;
}

void maint_db_free(struct maint_db *db)
{
	if (!db)
		return;
	free(db->lines);
	arena_release(&db->arena);
	free(db->text);
	for (size_t i = 0; i < db->nsects; i++) {
		free(db->sects[i].disp);
		free(db->sects[i].rword);
	}
	free(db->sects);
	for (size_t i = 0; i < db->nfpats; i++) {
		free(db->fpats[i].eff);
		pcre2_code_free(db->fpats[i].code);
	}
	free(db->fpats);
	for (size_t i = 0; i < db->nnpats; i++) {
		pcre2_code_free(db->npats[i].code);
		pcre2_code_free(db->npats[i].pcode);
	}
	for (size_t i = 0; i < db->nkpats; i++) {
		pcre2_code_free(db->kpats[i].code);
		pcre2_code_free(db->kpats[i].pcode);
	}
	free(db->npats);
	free(db->kpats);
	smap_release(&db->prefix, free_ivec);
	smap_release(&db->mm_names, free);
	smap_release(&db->mm_addrs, free);
	if (db->lz) {
		pcre2_match_data_free(db->lz->md1);
		pcre2_match_data_free(db->lz->md4);
		for (int i = 0; i < 3; i++)
			pcre2_code_free(db->lz->re_email[i]);
		pcre2_code_free(db->lz->re_fileaddr);
		pcre2_code_free(db->lz->re_cleanaddr);
		pcre2_compile_context_free(db->lz->cctx);
		pcre2_match_context_free(db->lz->mctx);
		free(db->lz);
	}
	if (db->dirfd >= 0)
		close(db->dirfd);
	free(db->dir);
	free(db);
}

/* ---- matching one file ---- */

/* The pattern as get_maintainer.pl matches it: with '/' for directories. */
static const char *fpat_eff(const struct maint_db *db, struct fpat *f)
{
	if (f->dir < 0) {
		const char *re = db->lines[f->line].text;
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
static int fpat_match(const struct maint_db *db, struct fpat *f,
		      const char *file, size_t flen, size_t fslashes,
		      struct err *err)
{
	const char *eff = fpat_eff(db, f);
	size_t n = strlen(eff);
	bool m;
	int gm = -1;
	if (f->simple) {
		long budget = 100000;
		gm = glob_match(eff, file, file + flen, &budget);
	}
	if (gm >= 0) {
		m = gm;
	} else {
		if (!f->code) {
			char *re = xasprintf("^%s", eff);
			f->code = re_compile(db->lz, re, 0, false, err,
					     "file pattern");
			free(re);
			if (!f->code)
				return -1;
		}
		m = re_match(db->lz, f->code, file, flen);
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
		struct rpat *n = &db->npats[i];
		if (n->code)    /* compiled by an earlier, failed attempt */
			continue;
		n->code = re_compile(db->lz, n->re, PCRE2_EXTENDED, false, err,
				     "N: pattern");
		if (!n->code)
			return -1;
	}
	db->lz->npats_ready = true;
	return 0;
}

static int kpat_ready(const struct maint_db *db, struct rpat *k, bool patch,
		      struct err *err)
{
	if (!k->code) {
		k->code = re_compile(db->lz, k->re, PCRE2_EXTENDED, true, err,
				     "K: keyword");
		if (!k->code)
			return -1;
	}
	if (patch && !k->pcode) {
		char *re = xasprintf("^[+-].*%s", k->re);
		k->pcode = re_compile(db->lz, re, PCRE2_EXTENDED, true, err,
				      "K: keyword");
		free(re);
		if (!k->pcode)
			return -1;
	}
	return 0;
}

struct hit {
	uint32_t line, sect;
	int depth;
};

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

/*
 * The sections a file belongs to, ordered as get_maintainer.pl adds them.
 * Returns the count (sections in *out, caller frees) or -1 with err.
 */
static long file_sections(const struct maint_db *db, const char *file,
			  uint32_t **out, struct err *err)
{
	size_t flen = strlen(file);
	size_t fsl = count_slashes_n(file, flen);
	struct hit *hits = NULL;
	size_t nh = 0, ah = 0;
	struct ivec excl = { 0 };
	uint64_t h = FNV_INIT;

	for (size_t L = 0; L <= flen; L++) {
		struct smap_ent *e = smap_find(&db->prefix, file, L, h);
		if (L < flen)
			h = fnv_step(h, (unsigned char)file[L]);
		if (!e)
			continue;
		const struct ivec *iv = e->val;
		for (size_t k = 0; k < iv->n; k++) {
			struct fpat *f = &db->fpats[iv->v[k]];
			int m = fpat_match(db, f, file, flen, fsl, err);
			if (m < 0) {
				free(hits);
				free(excl.v);
				return -1;
			}
			if (!m)
				continue;
			if (f->type == 'X') {
				ivec_push(&excl, f->sect);
				continue;
			}
			const char *eff = f->eff;
			size_t n = strlen(eff);
			int pd = (int)count_slashes(eff);
			if (!n || eff[n - 1] != '/')
				pd++;
			if (!strncmp(eff, ".*", 2))
				pd = -1;
			if (nh == ah) {
				ah = ah ? ah * 2 : 16;
				hits = xrealloc(hits, ah * sizeof(*hits));
			}
			hits[nh++] = (struct hit){ f->line, f->sect, pd };
		}
	}
	if (npats_ready(db, err) < 0) {
		free(hits);
		free(excl.v);
		return -1;
	}
	for (size_t i = 0; i < db->nnpats; i++) {
		const struct rpat *n = &db->npats[i];
		if (!re_match(db->lz, n->code, file, flen))
			continue;
		if (nh == ah) {
			ah = ah ? ah * 2 : 16;
			hits = xrealloc(hits, ah * sizeof(*hits));
		}
		hits[nh++] = (struct hit){ n->line, n->sect, 0 };
	}
	/* The last matching line of a section gives its depth. */
	if (nh)
		qsort(hits, nh, sizeof(*hits), hit_by_sect_line);
	size_t w = 0;
	for (size_t i = 0; i < nh; i++) {
		bool excluded = false;
		for (size_t k = 0; k < excl.n && !excluded; k++)
			excluded = excl.v[k] == hits[i].sect;
		if (excluded)
			continue;
		if (i + 1 < nh && hits[i + 1].sect == hits[i].sect)
			continue;
		hits[w++] = hits[i];
	}
	if (w)
		qsort(hits, w, sizeof(*hits), hit_by_depth);
	uint32_t *secs = xmalloc((w ? w : 1) * sizeof(*secs));
	for (size_t i = 0; i < w; i++)
		secs[i] = hits[i].sect;
	free(hits);
	free(excl.v);
	*out = secs;
	return (long)w;
}

/* ---- collecting people and lists: get_maintainers() ---- */

struct pending {
	char *email;   /* formatted "Name <addr>" */
	char *role;    /* get_maintainer.pl's role text */
	char *rword;   /* "maintainer" */
	char *rsect;   /* "NAME" */
	uint32_t sect; /* UINT32_MAX for "in file" */
	bool is_list, in_file;
};

struct collect {
	const struct maint_db *db;
	struct pending *v;
	size_t n, alloc;       /* @email_to then, separately, @list_to */
	struct pending *lists;
	size_t nl, al;
	struct smap name_hash, addr_hash, list_hash;
	struct svec file_emails;
};

static void pending_release(struct pending *p)
{
	free(p->email);
	free(p->role);
	free(p->rword);
	free(p->rsect);
}

static struct pending *collect_add(struct pending **v, size_t *n, size_t *a)
{
	if (*n == *a) {
		*a = *a ? *a * 2 : 32;
		*v = xrealloc(*v, *a * sizeof(**v));
	}
	struct pending *p = &(*v)[(*n)++];
	memset(p, 0, sizeof(*p));
	return p;
}

/* push_email_address(). */
static void push_email_address(struct collect *c, const char *line,
			       const char *rword, const char *rsect,
			       uint32_t sect)
{
	char *name, *addr;
	parse_email(c->db->lz, line, &name, &addr);
	if (!*addr)
		goto out;
	char *lname = lc_dup(name), *laddr = lc_dup(addr);
	bool inuse = (*name && smap_get(&c->name_hash, lname)) ||
		     smap_get(&c->addr_hash, laddr);
	if (!inuse) {
		struct pending *p = collect_add(&c->v, &c->n, &c->alloc);
		p->email = format_email(name, addr);
		p->rword = xstrdup(rword);
		p->rsect = xstrdup(rsect);
		p->role = *rword ? (*rsect ? xasprintf("%s:%s", rword, rsect)
					   : xstrdup(rword))
				 : xstrdup("");
		p->sect = sect;
		if (*name)
			*smap_slot(&c->name_hash, lname, strlen(lname)) =
				(void *)1;
		*smap_slot(&c->addr_hash, laddr, strlen(laddr)) = (void *)1;
	}
	free(lname);
	free(laddr);
out:
	free(name);
	free(addr);
}

/* add_categories(). */
static void add_categories(struct collect *c, uint32_t si)
{
	const struct maint_db *db = c->db;
	const struct sect *s = &db->sects[si];
	const char *lrole = strcmp(s->disp, "THE REST") ? s->disp : "";

	for (uint32_t i = s->start + 1; i < s->end; i++) {
		const struct tvline *tv = &db->lines[i];
		if (tv->type == 'L') {
			const char *v = tv->text;
			size_t al = 0;
			while (v[al] && !is_perl_space((unsigned char)v[al]))
				al++;
			char *addr;
			const char *extra = "";
			/* m/([^\s]+)\s+(.*)$/ */
			const char *q = v + al;
			if (al && *q) {
				while (is_perl_space((unsigned char)*q))
					q++;
				addr = xstrndup(v, al);
				extra = q;
			} else {
				addr = xstrdup(v);
			}
			if (strstr(extra, "subscribers-only")) {
				free(addr);
				continue; /* --nos: subscriber lists left out */
			}
			char *laddr = lc_dup(addr);
			void **slot = smap_slot(&c->list_hash, laddr,
						strlen(laddr));
			if (!*slot) {
				*slot = (void *)1;
				struct pending *p =
					collect_add(&c->lists, &c->nl, &c->al);
				p->email = xstrdup(addr);
				p->rword = xstrdup(strstr(extra, "moderated")
							   ? "moderated list"
							   : "open list");
				p->rsect = xstrdup(lrole);
				p->role = *lrole ? xasprintf("%s:%s", p->rword,
							     lrole)
						 : xstrdup(p->rword);
				p->sect = si;
				p->is_list = true;
			}
			free(laddr);
			free(addr);
		} else if (tv->type == 'M') {
			push_email_address(c, tv->text, s->rword, s->disp, si);
		} else if (tv->type == 'R') {
			push_email_address(c, tv->text, "reviewer", s->disp, si);
		}
	}
}

/* clean_file_emails() for one address found in a file. */
static char *clean_file_email(const struct maint_db *db, const char *raw)
{
	struct lazy *lz = db->lz;
	struct sbuf sb = SBUF_INIT;
	size_t len = strlen(raw), pos = 0;
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(lz->md4);

	while (pos <= len &&
	       pcre2_match(lz->re_cleanaddr, (PCRE2_SPTR)raw, len, pos, 0,
			   lz->md4, NULL) > 0) {
		sbuf_add(&sb, raw + pos, ov[0] - pos);
		sbuf_addch(&sb, '<');
		sbuf_add(&sb, raw + ov[2], ov[3] - ov[2]);
		sbuf_addch(&sb, '>');
		pos = ov[1] > ov[0] ? ov[1] : ov[1] + 1;
	}
	if (pos < len)
		sbuf_add(&sb, raw + pos, len - pos);
	if (!sb.buf)
		sbuf_adds(&sb, "");
	char *email = sbuf_detach(&sb, NULL);
	char *name, *addr;
	parse_email(lz, email, &name, &addr);
	free(email);
	if (!strcmp(name, "\"[,\\.]\"")) {
		free(name);
		name = xstrdup("");
	}
	/* split(/[^A-Za-zÀ-ÿ\'\,\.\+-]/, $name), bytes as Perl sees them */
	struct svec nw = { 0 };
	size_t nlen = strlen(name);
	if (nlen) {
		size_t st = 0;
		for (size_t i = 0; i <= nlen; i++) {
			unsigned char ch = (unsigned char)name[i];
			bool keep = i < nlen &&
				    ((ch >= 'A' && ch <= 'Z') ||
				     (ch >= 'a' && ch <= 'z') ||
				     (ch >= 0x80 && ch <= 0xC3) || ch == 0xBF ||
				     ch == '\'' || ch == ',' || ch == '.' ||
				     ch == '+' || ch == '-');
			if (!keep) {
				svec_push(&nw, xstrndup(name + st, i - st));
				st = i + 1;
			}
		}
		while (nw.n && !*nw.v[nw.n - 1])
			free(nw.v[--nw.n]);
	}
	if (nw.n > 2) {
		const char *first = nw.v[nw.n - 3], *middle = nw.v[nw.n - 2],
			   *last = nw.v[nw.n - 1];
		size_t fl = strlen(first), ml = strlen(middle);
		bool fletter = fl == 1 && (((*first | 0x20) >= 'a' &&
					    (*first | 0x20) <= 'z'));
		char *nn;
		if ((fletter || (fl == 2 && first[1] == '.')) ||
		    (ml == 1 || (ml == 2 && middle[1] == '.')))
			nn = xasprintf("%s %s %s", first, middle, last);
		else
			nn = xasprintf("%s %s", middle, last);
		free(name);
		name = nn;
	}
	svec_release(&nw);
	nlen = strlen(name);
	if (nlen && (name[nlen - 1] == ',' || name[nlen - 1] == '.')) {
		name[--nlen] = '\0';
	} else if (nlen >= 2 && name[nlen - 1] == '"' &&
		   (name[nlen - 2] == ',' || name[nlen - 2] == '.')) {
		name[nlen - 2] = '"';
		name[--nlen] = '\0';
	}
	if (nlen && (name[0] == ',' || name[0] == '.')) {
		memmove(name, name + 1, nlen--);
	} else if (nlen >= 2 && name[0] == '"' &&
		   (name[1] == ',' || name[1] == '.')) {
		memmove(name + 1, name + 2, nlen - 1);
		nlen--;
	}
	char *r = format_email(name, addr);
	free(name);
	free(addr);
	return r;
}

/* maintainers_in_file(): addresses in a .yaml file touched. */
static int maintainers_in_file(struct collect *c, const char *tree,
			       const char *file)
{
	const struct maint_db *db = c->db;
	struct lazy *lz = db->lz;
	size_t fl = strlen(file);
	/* (a name ending in .yaml never ends in MAINTAINERS) */
	if (fl < 5 || strcmp(file + fl - 5, ".yaml"))
		return 0;
	char *path = xasprintf("%s/%s", tree, file);
	struct stat st;
	char *text = NULL;
	size_t len;
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
	    read_file(path, MAX_CONTENT, &text, &len, NULL) < 0) {
		free(path);
		return 0;
	}
	free(path);
	if (!lz->re_fileaddr) {
		lz->re_fileaddr = re_compile(
			lz,
			"[A-Za-z\\x{80}-\\x{c3}\\x{bf}\\\"\\' \\,\\.\\+-]*\\s*[\\,]*"
			"\\s*[\\(\\<\\{]{0,1}[A-Za-z0-9_\\.\\+-]+\\@"
			"[A-Za-z0-9\\.-]+\\.[A-Za-z0-9]+[\\)\\>\\}]{0,1}",
			0, true, NULL, "");
		lz->re_cleanaddr = re_compile(
			lz,
			"[\\(\\<\\{]{0,1}([A-Za-z0-9_\\.\\+-]+\\@[A-Za-z0-9\\.-]+)"
			"[\\)\\>\\}]{0,1}",
			0, false, NULL, "");
	}
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(lz->md1);
	for (size_t pos = 0; pos <= len;) {
		int rc = pcre2_match(lz->re_fileaddr, (PCRE2_SPTR)text, len,
				     pos, 0, lz->md1, NULL);
		if (rc < 0)
			break;
		char *raw = xstrndup(text + ov[0], ov[1] - ov[0]);
		svec_push(&c->file_emails, clean_file_email(db, raw));
		free(raw);
		pos = ov[1] > ov[0] ? ov[1] : ov[1] + 1;
	}
	free(text);
	return 0;
}

/* deduplicate_email() over @email_to and @list_to. */
static void deduplicate(struct collect *c)
{
	struct smap dn = { 0 }, da = { 0 }; /* lc key -> char *email pair */
	struct pending *all[2] = { c->v, c->lists };
	size_t ns[2] = { c->n, c->nl };

	for (int g = 0; g < 2; g++) {
		for (size_t i = 0; i < ns[g]; i++) {
			struct pending *p = &all[g][i];
			char *name, *addr;
			parse_email(c->db->lz, p->email, &name, &addr);
			char *e = format_email(name, addr);
			free(name);
			free(addr);
			char *m = mailmap_email(c->db, e);
			free(e);
			parse_email(c->db->lz, m, &name, &addr);
			free(m);
			char *ln = lc_dup(name), *la = lc_dup(addr);
			const char *hit = NULL;
			if (*name && (hit = smap_get(&dn, ln))) {
			} else {
				hit = smap_get(&da, la);
			}
			if (hit) {
				/* stored as "name\0addr" */
				free(name);
				free(addr);
				name = xstrdup(hit);
				addr = xstrdup(hit + strlen(hit) + 1);
			} else {
				size_t a = strlen(name), b = strlen(addr);
				char *pair = xmalloc(a + b + 2);
				memcpy(pair, name, a + 1);
				memcpy(pair + a + 1, addr, b + 1);
				void **s1 = smap_slot(&dn, ln, strlen(ln));
				free(*s1);
				*s1 = pair;
				void **s2 = smap_slot(&da, la, strlen(la));
				free(*s2);
				*s2 = xmemdup(pair, a + b + 2);
			}
			free(ln);
			free(la);
			e = format_email(name, addr);
			free(name);
			free(addr);
			free(p->email);
			p->email = mailmap_email(c->db, e);
			free(e);
		}
	}
	smap_release(&dn, free);
	smap_release(&da, free);
}

/* @email_to = grep($_->[0] !~ /Linus Torvalds <torvalds@linux-foundation.org>/) */
static bool matches_chief(const char *s)
{
	static const char chief[] = "Linus Torvalds <torvalds@linux-foundation.org>";
	size_t n = sizeof(chief) - 1, len = strlen(s);
	for (size_t i = 0; i + n <= len; i++) {
		size_t k = 0;
		while (k < n && (chief[k] == '.' ? s[i + k] != '\n'
						 : s[i + k] == chief[k]))
			k++;
		if (k == n)
			return true;
	}
	return false;
}

/* add_role($email, 'in file'). */
static void add_role_in_file(struct collect *c, const char *email)
{
	char *name, *addr;
	parse_email(c->db->lz, email, &name, &addr);
	for (size_t i = 0; i < c->n; i++) {
		struct pending *p = &c->v[i];
		char *en, *ea;
		parse_email(c->db->lz, p->email, &en, &ea);
		if ((!strcmp(name, en) || !strcmp(addr, ea)) &&
		    !strstr(p->role, "in file")) {
			char *r = *p->role ? xasprintf("%s,in file", p->role)
					   : xstrdup("in file");
			free(p->role);
			p->role = r;
			if (!*p->rword) {
				free(p->rword);
				p->rword = xstrdup("in file");
			} else {
				p->in_file = true;
			}
		}
		free(en);
		free(ea);
	}
	free(name);
	free(addr);
}

/* ---- patches ---- */

static bool hexrun6(const char *s)
{
	int n = 0;
	while (n < 6 && ((*s >= '0' && *s <= '9') || ((*s | 0x20) >= 'a' &&
						      (*s | 0x20) <= 'f'))) {
		s++;
		n++;
	}
	return n == 6;
}

/* "(\S+)\s*$" at s: the name, or NULL. */
static char *name_then_space(const char *s, const char *end)
{
	const char *e = s;
	while (e < end && !is_perl_space((unsigned char)*e))
		e++;
	if (e == s)
		return NULL;
	for (const char *q = e; q < end; q++)
		if (!is_perl_space((unsigned char)*q))
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

/*
 * The patch loop of get_maintainer.pl: files into *files, and, when kw is
 * not NULL, the K: lines whose keyword a line matches into *kw.
 */
static int scan_patch(const struct maint_db *db, const char *text,
		      struct svec *files, struct ivec *kw, struct err *err)
{
	bool body = false; /* $patch_prefix = "^[+-].*" */
	if (db && kw) {
		for (size_t k = 0; k < db->nkpats; k++)
			if (kpat_ready(db, &db->kpats[k], true, err) < 0)
				return -1;
	}
	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n');
		const char *next = nl ? nl + 1 : line + strlen(line);
		const char *end = nl ? nl : next; /* without the newline */
		size_t len = (size_t)(end - line);
		char *name;

#define STARTS(lit) (len >= sizeof(lit) - 1 && !memcmp(line, lit, sizeof(lit) - 1))
		if (STARTS(" mode change ")) {
			const char *q = skip_octal(line + 13, end);
			if (q && end - q >= 4 && !memcmp(q, " => ", 4) &&
			    (q = skip_octal(q + 4, end)) && q < end && *q == ' ' &&
			    (name = name_then_space(q + 1, end))) {
				svec_push(files, name);
				goto next;
			}
		}
		if (STARTS("rename from ") || STARTS("rename to ")) {
			const char *q = line + (line[7] == 'f' ? 12 : 10);
			if ((name = name_then_space(q, end))) {
				svec_push(files, name);
				goto next;
			}
		}
		if (STARTS("diff --git a/")) {
			const char *a = line + 13, *ae = a;
			while (ae < end && !is_perl_space((unsigned char)*ae))
				ae++;
			if (ae > a && end - ae >= 3 && !memcmp(ae, " b/", 3)) {
				char *b = name_then_space(ae + 3, end);
				if (b) {
					svec_push(files, xstrndup(a, (size_t)(ae - a)));
					svec_push(files, b);
					goto next;
				}
			}
		}
		if (STARTS("Fixes:")) {
			const char *q = line + 6;
			while (q < end && is_perl_space((unsigned char)*q))
				q++;
			if (q > line + 6 && hexrun6(q))
				goto next;
		}
		if (STARTS("+++") || STARTS("---")) {
			/* \s+ may run into the newline, (\S+) never does */
			const char *q = line + 3, *e = end;
			while (q < e && is_perl_space((unsigned char)*q))
				q++;
			if (q > line + 3 && q < e) {
				const char *ne = q;
				while (ne < e && !is_perl_space((unsigned char)*ne))
					ne++;
				const char *sl = memchr(q, '/', (size_t)(ne - q));
				if (sl)
					q = sl + 1;
				svec_push(files, xstrndup(q, (size_t)(ne - q)));
				body = true;
				goto next;
			}
		}
		if (STARTS("@@ -")) {
			const char *q = line + 4, *d = q;
			while (q < end && *q >= '0' && *q <= '9')
				q++;
			if (q > d && q < end && *q == ',' && q + 1 < end &&
			    q[1] >= '0' && q[1] <= '9')
				goto next;
		}
#undef STARTS
		if (kw) {
			size_t full = (size_t)(next - line); /* with "\n" */
			for (size_t k = 0; k < db->nkpats; k++) {
				const struct rpat *p = &db->kpats[k];
				if (re_match(db->lz, body ? p->pcode : p->code,
					     line, full))
					ivec_push(kw, p->line);
			}
		}
next:
		line = next;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void sort_uniq(struct svec *sv)
{
	if (!sv->n)
		return;
	qsort(sv->v, sv->n, sizeof(*sv->v), cmp_str);
	size_t w = 1;
	for (size_t i = 1; i < sv->n; i++) {
		if (!strcmp(sv->v[i], sv->v[w - 1]))
			free(sv->v[i]);
		else
			sv->v[w++] = sv->v[i];
	}
	sv->n = w;
}

size_t maint_patch_files(const char *patch_text, char ***files)
{
	struct svec sv = { 0 };
	(void)scan_patch(NULL, patch_text, &sv, NULL, NULL);
	sort_uniq(&sv);
	*files = sv.v;
	return sv.n;
}

/* Perl's sort of @keyword_tvi: line numbers as strings. */
static int cmp_line_str(const void *a, const void *b)
{
	char x[16], y[16];
	snprintf(x, sizeof(x), "%u", *(const uint32_t *)a);
	snprintf(y, sizeof(y), "%u", *(const uint32_t *)b);
	return strcmp(x, y);
}

/* canonpath() and the trailing '/' of directories, as for -f FILE. */
static char *canon_file(const char *tree, const char *f)
{
	size_t tl = strlen(tree);
	if (f[0] == '/' && !strncmp(f, tree, tl) && f[tl] == '/')
		f += tl + 1;
	struct sbuf sb = SBUF_INIT;
	if (f[0] == '/')
		sbuf_addch(&sb, '/');
	for (const char *p = f; *p;) {
		while (*p == '/')
			p++;
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (n == 1 && p[0] == '.') {
			/* drop "." */
		} else if (n) {
			if (sb.len && sb.buf[sb.len - 1] != '/')
				sbuf_addch(&sb, '/');
			sbuf_add(&sb, p, n);
		}
		p += n;
	}
	if (!sb.buf)
		sbuf_adds(&sb, "");
	char *path = sb.buf[0] == '/' ? xstrdup(sb.buf)
				      : xasprintf("%s/%s", tree, sb.buf);
	struct stat st;
	if (sb.len && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		sbuf_addch(&sb, '/');
	free(path);
	return sbuf_detach(&sb, NULL);
}

static int file_keywords(const struct maint_db *db, const char *tree,
			 const char *file, struct ivec *kw, struct err *err)
{
	if (!strcmp(file, "MAINTAINERS"))
		return 0;
	char *path = xasprintf("%s/%s", tree, file);
	struct stat st;
	char *text = NULL;
	size_t len;
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
	    read_whole(path, &text, &len, NULL) < 0) {
		free(path);
		return 0;
	}
	free(path);
	for (size_t k = 0; k < db->nkpats; k++) {
		struct rpat *p = &db->kpats[k];
		if (kpat_ready(db, p, false, err) < 0) {
			free(text);
			return -1;
		}
		if (re_match(db->lz, p->code, text, len))
			ivec_push(kw, p->line);
	}
	free(text);
	return 0;
}

static void entry_from(const struct maint_db *db, const struct pending *p,
		       struct maint_entry *e)
{
	char *qname, *addr;
	parse_email(db->lz, p->email, &qname, &addr);
	e->name = name_unquote(qname);
	free(qname);
	e->email = addr;
	e->role = xstrdup(p->rword);
	e->section = xstrdup(p->rsect);
	e->in_file = p->in_file;
	e->is_list = p->is_list;
	if (p->sect != UINT32_MAX) {
		e->is_catch_all = db->sects[p->sect].catch_all;
		e->is_security_contact = db->sects[p->sect].security;
	}
	if (p->is_list && !str_cmp_ci(addr, "linux-kernel@vger.kernel.org"))
		e->is_catch_all = true;
}

int maint_lookup(const struct maint_db *db, const char *tree,
		 const char *const *files, size_t nfiles,
		 const char *patch_text, struct maint_result *out,
		 struct err *err)
{
	struct collect c = { .db = db };
	struct svec fl = { 0 };
	struct ivec kw = { 0 };
	int r = -1;

	memset(out, 0, sizeof(*out));
	if (!tree)
		tree = db->dir;
	if (patch_text) {
		if (scan_patch(db, patch_text, &fl, &kw, err) < 0)
			goto done;
		sort_uniq(&fl);
	} else {
		for (size_t i = 0; i < nfiles; i++) {
			char *f = canon_file(tree, files[i]);
			svec_push(&fl, f);
			if (file_keywords(db, tree, f, &kw, err) < 0)
				goto done;
		}
	}
	for (size_t i = 0; i < fl.n; i++) {
		uint32_t *secs;
		long ns = file_sections(db, fl.v[i], &secs, err);
		if (ns < 0)
			goto done;
		for (long k = 0; k < ns; k++)
			add_categories(&c, secs[k]);
		free(secs);
		maintainers_in_file(&c, tree, fl.v[i]);
	}
	if (kw.n) {
		qsort(kw.v, kw.n, sizeof(*kw.v), cmp_line_str);
		for (size_t i = 0; i < kw.n; i++)
			if (i == 0 || kw.v[i] != kw.v[i - 1])
				add_categories(&c, db->lines[kw.v[i]].sect);
	}
	deduplicate(&c);
	{
		size_t w = 0;
		for (size_t i = 0; i < c.n; i++) {
			if (matches_chief(c.v[i].email))
				pending_release(&c.v[i]);
			else
				c.v[w++] = c.v[i];
		}
		c.n = w;
	}
	for (size_t i = 0; i < c.file_emails.n; i++) {
		char *m = mailmap_email(db, c.file_emails.v[i]);
		char *name, *addr;
		parse_email(db->lz, m, &name, &addr);
		char *tmp = format_email(name, addr);
		push_email_address(&c, tmp, "", "", UINT32_MAX);
		add_role_in_file(&c, tmp);
		free(tmp);
		free(m);
		free(name);
		free(addr);
	}
	/* merge_email(): the first of each formatted address. */
	{
		struct smap saw = { 0 };
		size_t total = c.n + c.nl;
		out->v = xcalloc(total ? total : 1, sizeof(*out->v));
		for (size_t i = 0; i < total; i++) {
			const struct pending *p =
				i < c.n ? &c.v[i] : &c.lists[i - c.n];
			void **slot = smap_slot(&saw, p->email, strlen(p->email));
			if (*slot)
				continue;
			*slot = (void *)1;
			if (!*p->email)
				continue; /* "L: DP Maintainers <...>" and the like */
			entry_from(db, p, &out->v[out->n++]);
		}
		smap_release(&saw, NULL);
	}
	r = 0;
done:
	for (size_t i = 0; i < c.n; i++)
		pending_release(&c.v[i]);
	for (size_t i = 0; i < c.nl; i++)
		pending_release(&c.lists[i]);
	free(c.v);
	free(c.lists);
	smap_release(&c.name_hash, NULL);
	smap_release(&c.addr_hash, NULL);
	smap_release(&c.list_hash, NULL);
	svec_release(&c.file_emails);
	svec_release(&fl);
	free(kw.v);
	if (r < 0)
		maint_result_release(out);
	return r;
}

void maint_result_release(struct maint_result *res)
{
	for (size_t i = 0; i < res->n; i++) {
		free(res->v[i].name);
		free(res->v[i].email);
		free(res->v[i].role);
		free(res->v[i].section);
	}
	free(res->v);
	res->v = NULL;
	res->n = 0;
}

char *maint_entry_format(const struct maint_entry *e)
{
	char *who = format_email(e->name, e->email);
	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, who);
	sbuf_adds(&sb, " (");
	sbuf_adds(&sb, e->role);
	if (*e->section)
		sbuf_addf(&sb, ":%s", e->section);
	if (e->in_file)
		sbuf_adds(&sb, ",in file");
	sbuf_addch(&sb, ')');
	free(who);
	return sbuf_detach(&sb, NULL);
}
