/*
 * The small containers of maint/: an open-addressing map from byte
 * strings to pointers (FNV-1a hashes, power-of-two capacity, at most half
 * full), vectors of line numbers and of strings, and an arena for what
 * lives as long as the db.  Allocation never fails (util's xmalloc).
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "maint/maint-int.h"

static uint64_t fnv(const char *s, size_t n)
{
	uint64_t h = FNV_INIT;
	for (size_t i = 0; i < n; i++)
		h = fnv_step(h, (unsigned char)s[i]);
	return h;
}

struct smap_ent *smap_find(const struct smap *m, const char *k, size_t klen,
			   uint64_t h)
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

/* The free slot where an entry of hash h goes. */
static struct smap_ent *smap_free_slot(const struct smap *m, uint64_t h)
{
	size_t j = h & (m->cap - 1);
	while (m->v[j].key)
		j = (j + 1) & (m->cap - 1);
	return &m->v[j];
}

static void smap_grow(struct smap *m)
{
	struct smap old = *m;
	m->cap = old.cap ? old.cap * 2 : 64;
	m->v = xcalloc(m->cap, sizeof(*m->v));
	m->n = 0;
	for (size_t i = 0; i < old.cap; i++) {
		if (!old.v[i].key)
			continue;
		*smap_free_slot(m, old.v[i].h) = old.v[i];
		m->n++;
	}
	free(old.v);
}

void **smap_slot(struct smap *m, const char *k, size_t klen)
{
	uint64_t h = fnv(k, klen);
	struct smap_ent *e = smap_find(m, k, klen, h);
	if (e)
		return &e->val;
	if ((m->n + 1) * 2 > m->cap)
		smap_grow(m);
	e = smap_free_slot(m, h);
	if (m->borrowed) {
		e->key = (char *)k;
	} else {
		e->key = xmemdup(k, klen + 1);
		e->key[klen] = '\0';
	}
	e->klen = klen;
	e->h = h;
	e->val = NULL;
	m->n++;
	return &e->val;
}

void smap_reserve(struct smap *m, size_t n)
{
	size_t cap = 64;
	while (cap < 2 * n + 2)
		cap *= 2;
	assert(!m->cap);
	m->cap = cap;
	m->v = xcalloc(cap, sizeof(*m->v));
}

void *smap_get(const struct smap *m, const char *k)
{
	size_t n = strlen(k);
	struct smap_ent *e = smap_find(m, k, n, fnv(k, n));
	return e ? e->val : NULL;
}

void smap_release(struct smap *m, void (*freeval)(void *))
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

void ivec_push(struct ivec *iv, uint32_t x)
{
	if (iv->n == iv->alloc) {
		iv->alloc = iv->alloc ? iv->alloc * 2 : 8;
		iv->v = xrealloc(iv->v, iv->alloc * sizeof(*iv->v));
	}
	iv->v[iv->n++] = x;
}

void ivec_free(void *p)
{
	struct ivec *iv = p;
	if (iv)
		free(iv->v);
	free(iv);
}

void svec_push(struct svec *sv, char *s)
{
	if (sv->n == sv->alloc) {
		sv->alloc = sv->alloc ? sv->alloc * 2 : 16;
		sv->v = xrealloc(sv->v, sv->alloc * sizeof(*sv->v));
	}
	sv->v[sv->n++] = s;
}

void svec_release(struct svec *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = sv->alloc = 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void svec_sort_uniq(struct svec *sv)
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

char *arena_alloc(struct arena *a, size_t n)
{
	if (n > a->left) {
		size_t sz = n > 65536 ? n : 65536;
		a->chunks =
			xrealloc(a->chunks, (a->n + 1) * sizeof(*a->chunks));
		a->chunks[a->n++] = a->cur = xmalloc(sz);
		a->left = sz;
	}
	char *r = a->cur;
	a->cur += n;
	a->left -= n;
	return r;
}

void arena_release(struct arena *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->chunks[i]);
	free(a->chunks);
	memset(a, 0, sizeof(*a));
}
