/*
 * The image of a loaded MAINTAINERS: what parse.c gathered, laid out
 * flat (arrays of fixed-size records and one string pool, addressed by
 * 32-bit offsets) so that the same bytes serve just after a parse and
 * mapped from the officer's cache.  F:/X: patterns are indexed by their
 * literal prefix in an open-addressing table; the .mailmap's two maps
 * are tables too.  maint_img_attach() checks every offset and index of
 * an image before a lookup may follow one: a cache file that is
 * truncated, corrupt or made up is refused, never read out of bounds.
 */
#include <stdlib.h>
#include <string.h>

#include "maint/maint-int.h"

#define MIMG_ALIGN 8

static uint64_t fnv_n(const char *s, size_t n)
{
	uint64_t h = FNV_INIT;
	for (size_t i = 0; i < n; i++)
		h = fnv_step(h, (unsigned char)s[i]);
	return h;
}

uint64_t maint_img_sum(const unsigned char *img, size_t len)
{
	/* Four independent lanes, so that the multiplications overlap: a
	 * check of every byte at each start must cost little. */
	uint64_t h[4] = { 0x7365637465616d31ULL, 0x6d61696e7461696eULL,
			  0x6572732d696d6167ULL, 0x652d73756d2d7631ULL };
	uint64_t w[4];
	size_t i = sizeof(struct mimg_hdr);

	for (; i + 32 <= len; i += 32) {
		memcpy(w, img + i, 32);
		for (int k = 0; k < 4; k++) {
			h[k] = (h[k] ^ w[k]) * 0x9e3779b97f4a7c15ULL;
			h[k] ^= h[k] >> 29;
		}
	}
	for (; i < len; i++)
		h[0] = fnv_step(h[0], img[i]);
	for (int k = 1; k < 4; k++)
		h[0] = (h[0] ^ h[k]) * 0x9e3779b97f4a7c15ULL;
	return h[0] ^ len;
}

/* ---- building ---- */

static uint32_t pool_add(struct sbuf *pool, const char *s, size_t n)
{
	uint32_t off = (uint32_t)pool->len;
	sbuf_add(pool, s, n);
	sbuf_addch(pool, '\0');
	return off;
}

static uint32_t pool_adds(struct sbuf *pool, const char *s)
{
	return pool_add(pool, s, strlen(s));
}

static uint32_t table_cap(size_t n)
{
	uint32_t cap = 64;
	while (cap < 2 * n + 2)
		cap *= 2;
	return cap;
}

static void table_put(struct mslot *t, uint32_t cap, const struct mslot *e)
{
	uint32_t i = (uint32_t)e->h & (cap - 1);
	while (t[i].n)
		i = (i + 1) & (cap - 1);
	t[i] = *e;
}

/* A .mailmap map as a table of cap slots. */
static struct mslot *mm_table(const struct smap *m, struct sbuf *pool,
			      uint32_t *cap)
{
	struct mslot *t;

	*cap = table_cap(m->n);
	t = xcalloc(*cap, sizeof(*t));
	for (size_t i = 0; i < m->cap; i++) {
		const struct smap_ent *e = &m->v[i];
		struct mslot s;
		if (!e->key)
			continue;
		s.h = e->h;
		s.key = pool_add(pool, e->key, e->klen);
		s.klen = (uint32_t)e->klen;
		s.val = pool_adds(pool, e->val);
		s.n = 1;
		table_put(t, *cap, &s);
	}
	return t;
}

/* Plain text to m/$re/x: what a substring search answers alike. */
static bool re_literal(const char *re)
{
	if (!*re)
		return false;
	for (const char *p = re; *p; p++)
		if (!maint_is_alnum((unsigned char)*p) &&
		    !strchr("_-,/:@=%'\"<>!&~`;", *p))
			return false;
	return true;
}

/* The records and the pool of b, before they are laid out. */
struct parts {
	struct sbuf pool;
	struct mline *lines;
	struct msect *sects;
	struct mfpat *fpats;
	struct mrpat *npats, *kpats;
	uint32_t *plist;
	struct mslot *prefix, *mmn, *mma;
	size_t nfpats, nnpats, nkpats, nplist;
	uint32_t prefix_cap, mmn_cap, mma_cap;
};

static void parts_patterns(struct parts *p, const struct mbuild *b)
{
	struct smap pre = { 0 };
	size_t nf = 0, nn = 0, nk = 0;
	char *buf;

	for (size_t i = 0; i < b->nlines; i++) {
		char t = b->lines[i].type;
		nf += t == 'F' || t == 'X';
		nn += t == 'N';
		nk += t == 'K';
	}
	p->fpats = xcalloc(nf + 1, sizeof(*p->fpats));
	p->npats = xcalloc(nn + 1, sizeof(*p->npats));
	p->kpats = xcalloc(nk + 1, sizeof(*p->kpats));
	for (size_t i = 0; i < b->nlines; i++) {
		const struct mbuild_line *l = &b->lines[i];
		if (l->type == 'K' ||
		    (l->type == 'N' && l->sect != MIMG_NONE)) {
			struct mrpat *r = l->type == 'K'
				? &p->kpats[p->nkpats++]
				: &p->npats[p->nnpats++];
			r->line = (uint32_t)i;
			r->sect = l->sect;
			r->re = p->lines[i].text;
			r->literal = re_literal(l->text);
		} else if ((l->type == 'F' || l->type == 'X') &&
			   l->sect != MIMG_NONE) {
			struct mfpat *f = &p->fpats[p->nfpats];
			f->line = (uint32_t)i;
			f->sect = l->sect;
			f->type = l->type;
			f->simple = maint_simple_pattern(l->text);
			buf = xmalloc(strlen(l->text) + 1);
			maint_literal_prefix(l->text, f->simple, buf);
			void **slot = smap_slot(&pre, buf, strlen(buf));
			if (!*slot)
				*slot = xcalloc(1, sizeof(struct ivec));
			ivec_push(*slot, (uint32_t)p->nfpats++);
			free(buf);
		}
	}
	/* Each prefix's patterns in MAINTAINERS order, one run of plist. */
	p->prefix_cap = table_cap(pre.n);
	p->prefix = xcalloc(p->prefix_cap, sizeof(*p->prefix));
	p->plist = xcalloc(p->nfpats + 1, sizeof(*p->plist));
	for (size_t i = 0; i < pre.cap; i++) {
		const struct smap_ent *e = &pre.v[i];
		const struct ivec *iv = e->val;
		struct mslot s;
		if (!e->key)
			continue;
		s.h = e->h;
		s.key = pool_add(&p->pool, e->key, e->klen);
		s.klen = (uint32_t)e->klen;
		s.val = (uint32_t)p->nplist;
		s.n = (uint32_t)iv->n;
		memcpy(p->plist + p->nplist, iv->v, iv->n * sizeof(*iv->v));
		p->nplist += iv->n;
		table_put(p->prefix, p->prefix_cap, &s);
	}
	smap_release(&pre, ivec_free);
}

static uint32_t lay(size_t *at, size_t n, size_t size)
{
	uint32_t off;
	*at = (*at + MIMG_ALIGN - 1) & ~(size_t)(MIMG_ALIGN - 1);
	off = (uint32_t)*at;
	*at += n * size;
	return off;
}

unsigned char *maint_img_build(const struct mbuild *b, size_t *len)
{
	struct parts p = { 0 };
	struct mimg_hdr h = { 0 };
	unsigned char *img;
	size_t at = sizeof(h);

	sbuf_addch(&p.pool, '\0'); /* offset 0: "" */
	p.lines = xcalloc(b->nlines + 1, sizeof(*p.lines));
	for (size_t i = 0; i < b->nlines; i++) {
		/* Lookups read the text of these lines only (a section's
		 * name and role are kept with it): the others stay "". */
		if (b->lines[i].type && strchr("MRLFXNK", b->lines[i].type))
			p.lines[i].text = pool_adds(&p.pool, b->lines[i].text);
		p.lines[i].sect = b->lines[i].sect;
		p.lines[i].type = b->lines[i].type;
	}
	p.sects = xcalloc(b->nsects + 1, sizeof(*p.sects));
	for (size_t i = 0; i < b->nsects; i++) {
		const struct mbuild_sect *s = &b->sects[i];
		p.sects[i] = (struct msect){
			s->key,
			s->start,
			s->end,
			pool_adds(&p.pool, s->disp),
			pool_adds(&p.pool, s->rword),
			s->catch_all,
			s->security,
			{ 0, 0 },
		};
	}
	parts_patterns(&p, b);
	p.mmn = mm_table(&b->mm_names, &p.pool, &p.mmn_cap);
	p.mma = mm_table(&b->mm_addrs, &p.pool, &p.mma_cap);

	memcpy(h.magic, MIMG_MAGIC, sizeof(h.magic));
	h.version = MIMG_VERSION;
	h.byte_order = 0x01020304;
	h.nlines = (uint32_t)b->nlines;
	h.nsects = (uint32_t)b->nsects;
	h.nfpats = (uint32_t)p.nfpats;
	h.nnpats = (uint32_t)p.nnpats;
	h.nkpats = (uint32_t)p.nkpats;
	h.nplist = (uint32_t)p.nplist;
	h.prefix_cap = p.prefix_cap;
	h.mmn_cap = p.mmn_cap;
	h.mma_cap = p.mma_cap;
	h.str_len = (uint32_t)p.pool.len;
	h.off_lines = lay(&at, h.nlines, sizeof(struct mline));
	h.off_sects = lay(&at, h.nsects, sizeof(struct msect));
	h.off_fpats = lay(&at, h.nfpats, sizeof(struct mfpat));
	h.off_npats = lay(&at, h.nnpats, sizeof(struct mrpat));
	h.off_kpats = lay(&at, h.nkpats, sizeof(struct mrpat));
	h.off_plist = lay(&at, h.nplist, sizeof(uint32_t));
	h.off_prefix = lay(&at, h.prefix_cap, sizeof(struct mslot));
	h.off_mmn = lay(&at, h.mmn_cap, sizeof(struct mslot));
	h.off_mma = lay(&at, h.mma_cap, sizeof(struct mslot));
	h.off_str = lay(&at, h.str_len, 1);
	h.size = at;

	img = xcalloc(1, at);
	memcpy(img + h.off_lines, p.lines, h.nlines * sizeof(*p.lines));
	memcpy(img + h.off_sects, p.sects, h.nsects * sizeof(*p.sects));
	memcpy(img + h.off_fpats, p.fpats, h.nfpats * sizeof(*p.fpats));
	memcpy(img + h.off_npats, p.npats, h.nnpats * sizeof(*p.npats));
	memcpy(img + h.off_kpats, p.kpats, h.nkpats * sizeof(*p.kpats));
	memcpy(img + h.off_plist, p.plist, h.nplist * sizeof(*p.plist));
	memcpy(img + h.off_prefix, p.prefix, h.prefix_cap * sizeof(*p.prefix));
	memcpy(img + h.off_mmn, p.mmn, h.mmn_cap * sizeof(*p.mmn));
	memcpy(img + h.off_mma, p.mma, h.mma_cap * sizeof(*p.mma));
	memcpy(img + h.off_str, p.pool.buf, h.str_len);
	h.sum = maint_img_sum(img, at); /* the header is not summed */
	memcpy(img, &h, sizeof(h));

	sbuf_release(&p.pool);
	free(p.lines);
	free(p.sects);
	free(p.fpats);
	free(p.npats);
	free(p.kpats);
	free(p.plist);
	free(p.prefix);
	free(p.mmn);
	free(p.mma);
	*len = at;
	return img;
}

/* ---- checking and using ---- */

/* Whether n records of size at off lie inside the image, aligned. */
static bool in_img(size_t len, uint32_t off, uint64_t n, size_t size)
{
	return off >= sizeof(struct mimg_hdr) && off % MIMG_ALIGN == 0 &&
		n <= UINT32_MAX && (uint64_t)off + n * size <= len;
}

static bool table_ok(const struct mslot *t, uint32_t cap, uint32_t str_len,
		     uint32_t nplist, bool prefix)
{
	if (!cap || (cap & (cap - 1)))
		return false;
	for (uint32_t i = 0; i < cap; i++) {
		const struct mslot *s = &t[i];
		if (!s->n)
			continue;
		if ((uint64_t)s->key + s->klen >= str_len)
			return false;
		if (prefix ? (uint64_t)s->val + s->n > nplist
			   : s->val >= str_len)
			return false;
	}
	return true;
}

static bool sect_ok(uint32_t s, size_t nsects, bool none)
{
	return s < nsects || (none && s == MIMG_NONE);
}

static bool records_ok(const struct maint_db *db, uint32_t str_len,
		       uint32_t nplist)
{
	for (size_t i = 0; i < db->nlines; i++) {
		const struct mline *l = &db->lines[i];
		if (l->text >= str_len || !sect_ok(l->sect, db->nsects, true) ||
		    (l->type && (l->type < 'A' || l->type > 'Z')))
			return false;
	}
	for (size_t i = 0; i < db->nsects; i++) {
		const struct msect *s = &db->sects[i];
		if (s->start > s->key || s->key >= s->end ||
		    s->end > db->nlines || s->disp >= str_len ||
		    s->rword >= str_len)
			return false;
	}
	for (size_t i = 0; i < db->nfpats; i++)
		if (db->fpats[i].line >= db->nlines ||
		    !sect_ok(db->fpats[i].sect, db->nsects, false) ||
		    (db->fpats[i].type != 'F' && db->fpats[i].type != 'X'))
			return false;
	for (size_t i = 0; i < db->nnpats + db->nkpats; i++) {
		const struct mrpat *r = i < db->nnpats
			? &db->npats[i]
			: &db->kpats[i - db->nnpats];
		if (r->line >= db->nlines || r->re >= str_len ||
		    !sect_ok(r->sect, db->nsects, i >= db->nnpats))
			return false;
	}
	for (size_t i = 0; i < nplist; i++)
		if (db->plist[i] >= db->nfpats)
			return false;
	return table_ok(db->prefix, db->prefix_cap, str_len, nplist, true) &&
		table_ok(db->mmn, db->mmn_cap, str_len, 0, false) &&
		table_ok(db->mma, db->mma_cap, str_len, 0, false);
}

int maint_img_attach(struct maint_db *db, const unsigned char *img, size_t len,
		     struct err *err)
{
	struct mimg_hdr h;

	if (len < sizeof(h))
		return err_setc(err, ERR_INVALID, "it is truncated");
	memcpy(&h, img, sizeof(h));
	if (memcmp(h.magic, MIMG_MAGIC, sizeof(h.magic)) ||
	    h.version != MIMG_VERSION || h.byte_order != 0x01020304)
		return err_setc(
			err, ERR_INVALID,
			"it is not a compiled MAINTAINERS of this version");
	if (h.size != len)
		return err_setc(err, ERR_INVALID, "it is truncated");
	if (!in_img(len, h.off_lines, h.nlines, sizeof(struct mline)) ||
	    !in_img(len, h.off_sects, h.nsects, sizeof(struct msect)) ||
	    !in_img(len, h.off_fpats, h.nfpats, sizeof(struct mfpat)) ||
	    !in_img(len, h.off_npats, h.nnpats, sizeof(struct mrpat)) ||
	    !in_img(len, h.off_kpats, h.nkpats, sizeof(struct mrpat)) ||
	    !in_img(len, h.off_plist, h.nplist, sizeof(uint32_t)) ||
	    !in_img(len, h.off_prefix, h.prefix_cap, sizeof(struct mslot)) ||
	    !in_img(len, h.off_mmn, h.mmn_cap, sizeof(struct mslot)) ||
	    !in_img(len, h.off_mma, h.mma_cap, sizeof(struct mslot)) ||
	    !in_img(len, h.off_str, h.str_len, 1) || !h.str_len ||
	    img[h.off_str + h.str_len - 1] != '\0')
		return err_setc(err, ERR_INVALID, "its layout is corrupt");
	if (maint_img_sum(img, len) != h.sum)
		return err_setc(err, ERR_INVALID, "its checksum is wrong");
	db->img = img;
	db->img_len = len;
	db->str = (const char *)img + h.off_str;
	db->lines = (const void *)(img + h.off_lines);
	db->sects = (const void *)(img + h.off_sects);
	db->fpats = (const void *)(img + h.off_fpats);
	db->npats = (const void *)(img + h.off_npats);
	db->kpats = (const void *)(img + h.off_kpats);
	db->plist = (const void *)(img + h.off_plist);
	db->prefix = (const void *)(img + h.off_prefix);
	db->mmn = (const void *)(img + h.off_mmn);
	db->mma = (const void *)(img + h.off_mma);
	db->nlines = h.nlines;
	db->nsects = h.nsects;
	db->nfpats = h.nfpats;
	db->nnpats = h.nnpats;
	db->nkpats = h.nkpats;
	db->prefix_cap = h.prefix_cap;
	db->mmn_cap = h.mmn_cap;
	db->mma_cap = h.mma_cap;
	if (!records_ok(db, h.str_len, h.nplist)) {
		db->img = NULL;
		db->nlines = db->nsects = db->nfpats = 0;
		db->nnpats = db->nkpats = 0;
		return err_setc(err, ERR_INVALID, "its records are corrupt");
	}
	db->fl = xcalloc(db->nfpats + 1, sizeof(*db->fl));
	for (size_t i = 0; i < db->nfpats; i++)
		db->fl[i].dir = -1;
	db->nl = xcalloc(db->nnpats + 1, sizeof(*db->nl));
	db->kl = xcalloc(db->nkpats + 1, sizeof(*db->kl));
	return 0;
}

const struct mslot *maint_img_find(const struct maint_db *db,
				   const struct mslot *t, uint32_t cap,
				   const char *key, size_t klen, uint64_t h)
{
	uint32_t i = (uint32_t)h & (cap - 1);

	for (uint32_t k = 0; k < cap; k++, i = (i + 1) & (cap - 1)) {
		const struct mslot *s = &t[i];
		if (!s->n)
			return NULL;
		if (s->h == h && s->klen == klen &&
		    !memcmp(db->str + s->key, key, klen))
			return s;
	}
	return NULL;
}

const char *maint_img_get(const struct maint_db *db, const struct mslot *t,
			  uint32_t cap, const char *key)
{
	size_t n = strlen(key);
	const struct mslot *s =
		maint_img_find(db, t, cap, key, n, fnv_n(key, n));
	return s ? db->str + s->val : NULL;
}
