/*
 * The officer's sealed search index (sindex.h), in the search cache
 * (store's terms-cache.c).  A term is the first 16 bytes of the keyed
 * hash of a trigram under the team key's current generation; its list,
 * "P1", a count and the message ids ascending as varint deltas, is
 * sealed under the team key for table "search-index", column "postings"
 * and a row drawn from the rest of that hash, so a list moved to another
 * term fails to open (and the word is then looked for in every text).
 * The index says which team key keyed it (its stamp: the generation,
 * and a keyed hash of nothing under it): after a rotation it is emptied
 * and filled again by the next searches and imports (sindex_learn,
 * sindex_learn_stored).  Messages learned are
 * merged into the lists on close, or sooner when many are pending, in
 * one write each.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/sindex.h"
#include "store/store.h"

#define TERM_BYTES 16
#define PURPOSE "search-index"
#define TABLE "search-index"
#define COLUMN "postings"
#define FLUSH_IDS (4u << 20) /* pending ids merged past this many */

struct tri_ent { /* a trigram seen: its term and pending ids */
	uint32_t tri; /* the three bytes, | 1 << 24 (0: empty slot) */
	bool keyed, failed;
	unsigned char term[TERM_BYTES];
	int64_t row;
	int64_t *ids;
	size_t n, cap;
};

struct sindex {
	struct session *sess;
	struct terms_cache *tc;
	uint64_t gen; /* the key's stamp (stamp_of) */
	struct terms_row *msgs; /* indexed, by id */
	size_t nmsgs;
	struct tri_ent *tab; /* open addressing, power of two */
	size_t cap, used;
	struct terms_row *learned; /* key NULL: looked up on writing */
	int64_t *learned_report; /* per learned: its report (0: key known) */
	size_t nlearned;
	size_t pending; /* ids in tab */
};

static uint32_t tri_of(const char *p)
{
	const unsigned char *u = (const unsigned char *)p;
	return (uint32_t)u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16 |
		1u << 24;
}

static struct tri_ent *tri_slot(struct sindex *x, uint32_t tri)
{
	if ((x->used + 1) * 2 > x->cap) {
		struct tri_ent *old = x->tab;
		size_t ocap = x->cap;

		x->cap = ocap ? 2 * ocap : 4096;
		x->tab = xcalloc(x->cap, sizeof(*x->tab));
		for (size_t i = 0; i < ocap; i++) {
			size_t j;
			if (!old[i].tri)
				continue;
			j = (old[i].tri * 2654435761u) & (x->cap - 1);
			while (x->tab[j].tri)
				j = (j + 1) & (x->cap - 1);
			x->tab[j] = old[i];
		}
		free(old);
	}
	for (size_t j = (tri * 2654435761u) & (x->cap - 1);;
	     j = (j + 1) & (x->cap - 1)) {
		if (x->tab[j].tri == tri)
			return &x->tab[j];
		if (!x->tab[j].tri) {
			x->tab[j].tri = tri;
			x->used++;
			return &x->tab[j];
		}
	}
}

/* The keyed term of e (once); false when the team key cannot key it. */
static bool tri_key(struct sindex *x, struct tri_ent *e)
{
	unsigned char mac[SESSION_MAC_BYTES], b[3];
	struct err err = { 0, "" };

	if (e->keyed)
		return true;
	if (e->failed)
		return false;
	b[0] = (unsigned char)e->tri;
	b[1] = (unsigned char)(e->tri >> 8);
	b[2] = (unsigned char)(e->tri >> 16);
	if (session_keyed_hash(x->sess, PURPOSE, b, 3, mac, NULL, &err) < 0) {
		e->failed = true;
		return false;
	}
	memcpy(e->term, mac, TERM_BYTES);
	memcpy(&e->row, mac + TERM_BYTES, sizeof(e->row));
	e->keyed = true;
	return true;
}

/* ---- posting lists ---- */

static void put_varint(struct sbuf *sb, uint64_t v)
{
	while (v >= 0x80) {
		sbuf_addch(sb, (int)(v & 0x7f) | 0x80);
		v >>= 7;
	}
	sbuf_addch(sb, (int)v);
}

static bool get_varint(const unsigned char **p, const unsigned char *end,
		       uint64_t *v)
{
	*v = 0;
	for (int s = 0; s < 64 && *p < end; s += 7) {
		unsigned char c = *(*p)++;
		*v |= (uint64_t)(c & 0x7f) << s;
		if (!(c & 0x80))
			return true;
	}
	return false;
}

static void list_encode(const int64_t *ids, size_t n, struct sbuf *sb)
{
	int64_t prev = 0;

	sbuf_add(sb, "P1", 2);
	put_varint(sb, n);
	for (size_t i = 0; i < n; i++) {
		put_varint(sb, (uint64_t)(ids[i] - prev));
		prev = ids[i];
	}
}

/* The ids of a list (ascending); false when it is not one. */
static bool list_decode(const unsigned char *p, size_t len, int64_t **ids,
			size_t *n)
{
	const unsigned char *end = p + len;
	uint64_t cnt, d;
	int64_t prev = 0;

	*ids = NULL;
	*n = 0;
	if (len < 2 || p[0] != 'P' || p[1] != '1')
		return false;
	p += 2;
	if (!get_varint(&p, end, &cnt) || cnt > len)
		return false;
	*ids = xmalloc((cnt + 1) * sizeof(**ids));
	for (uint64_t i = 0; i < cnt; i++) {
		if (!get_varint(&p, end, &d) || (i && !d) ||
		    d > (uint64_t)INT64_MAX - (uint64_t)prev) {
			free(*ids);
			*ids = NULL;
			return false;
		}
		prev += (int64_t)d;
		(*ids)[i] = prev;
	}
	*n = (size_t)cnt;
	return p == end;
}

/* e's stored list opened: 1 with ids, 0 when there is none, -1 when it
 * does not open (moved, corrupt) or cannot be read. */
static int list_load(struct sindex *x, struct tri_ent *e, int64_t **ids,
		     size_t *n)
{
	struct err err = { 0, "" };
	unsigned char *sealed, *plain;
	size_t slen, plen;
	int r;

	*ids = NULL;
	*n = 0;
	if (!tri_key(x, e))
		return -1;
	r = store_index_list(x->tc, e->term, TERM_BYTES, &sealed, &slen, &err);
	if (r <= 0)
		return r;
	r = session_open_sealed(x->sess, TABLE, COLUMN, e->row, sealed, slen,
				&plain, &plen, &err);
	free(sealed);
	if (r < 0)
		return -1;
	r = list_decode(plain, plen, ids, n) ? 1 : -1;
	wipe_free(plain, plen);
	return r;
}

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* ---- opening, asking ---- */

/* The stamp of the team key the terms are keyed under: its generation,
 * and 32 bits of the keyed hash of nothing under it (mac), so that
 * another database's team key (a store made again where the last one
 * was, whose generations count from 1 again and whose messages reuse
 * its ids) is another stamp, and its index is emptied. */
static uint64_t stamp_of(uint32_t gen, const unsigned char *mac)
{
	return (uint64_t)gen << 32 | (uint64_t)mac[0] << 24 |
		(uint64_t)mac[1] << 16 | (uint64_t)mac[2] << 8 | mac[3];
}

struct sindex *sindex_open(struct session *sess)
{
	struct err err = { 0, "" };
	unsigned char mac[SESSION_MAC_BYTES];
	struct sindex *x;
	uint64_t had;
	uint32_t gen;
	char *path;

	if (session_keyed_hash(sess, PURPOSE, "", 0, mac, &gen, &err) < 0 ||
	    !session_store(sess, &err) ||
	    !(path = cache_file("search", store_where(sess->store), "db")))
		return NULL;
	x = xcalloc(1, sizeof(*x));
	x->sess = sess;
	x->gen = stamp_of(gen, mac);
	if (store_terms_cache_open(path, &x->tc, &err) < 0 ||
	    store_index_generation(x->tc, &had, &err) < 0 ||
	    (had != x->gen && store_index_reset(x->tc, x->gen, &err) < 0) ||
	    store_index_messages(x->tc, &x->msgs, &x->nmsgs, &err) < 0) {
		free(path);
		store_terms_cache_close(x->tc);
		free(x);
		return NULL;
	}
	free(path);
	return x;
}

static int cmp_row(const void *a, const void *b)
{
	const struct terms_row *x = a, *y = b;
	return x->message_id < y->message_id ? -1
					     : x->message_id > y->message_id;
}

bool sindex_has(const struct sindex *x, int64_t id)
{
	struct terms_row k = { id, NULL };

	if (!x || !x->nmsgs)
		return false;
	return bsearch(&k, x->msgs, x->nmsgs, sizeof(k), cmp_row) != NULL;
}

/* a[0..*na) ∩ b[0..nb), into a. */
static void intersect(int64_t *a, size_t *na, const int64_t *b, size_t nb)
{
	size_t i = 0, j = 0, w = 0;

	while (i < *na && j < nb) {
		if (a[i] < b[j])
			i++;
		else if (a[i] > b[j])
			j++;
		else
			a[w++] = a[i++], j++;
	}
	*na = w;
}

bool sindex_candidates(struct sindex *x, const char *word, int64_t **ids,
		       size_t *n)
{
	size_t len = strlen(word);
	int64_t *acc = NULL;
	size_t nacc = 0;
	bool first = true;

	*ids = NULL;
	*n = 0;
	if (!x || len < 3)
		return false;
	for (size_t i = 0; i + 3 <= len; i++) {
		struct tri_ent *e = tri_slot(x, tri_of(word + i));
		int64_t *l;
		size_t nl;
		int r;

		/* a trigram seen before in the word adds nothing */
		bool again = false;
		for (size_t k = 0; k < i && !again; k++)
			again = !memcmp(word + k, word + i, 3);
		if (again)
			continue;
		if ((r = list_load(x, e, &l, &nl)) < 0) {
			/* Moved or corrupt: what the index says can no
			 * longer be believed.  It is emptied, every text
			 * searched now is indexed again. */
			struct err err = { 0, "" };
			store_index_reset(x->tc, x->gen, &err);
			terms_rows_free(x->msgs, x->nmsgs);
			x->msgs = NULL;
			x->nmsgs = 0;
			free(acc);
			return false;
		}
		if (first) {
			acc = l;
			nacc = nl;
			first = false;
		} else {
			intersect(acc, &nacc, l, nl);
			free(l);
		}
		if (!nacc)
			break;
	}
	*ids = acc;
	*n = nacc;
	return true;
}

/* ---- learning, writing ---- */

/* The keys of the messages learned as stored (sindex_learn_stored),
 * read from the store now that what holds them is committed; one the
 * store no longer has (its import undone) stays without a key and is
 * not recorded as indexed.  (Its id in the lists only adds a candidate
 * that is opened and confirmed: never a wrong answer.) */
static void learned_keys(struct sindex *x)
{
	struct err err = { 0, "" };
	struct message_key *keys = NULL;
	int64_t *rids;
	size_t n = 0, nkeys = 0;

	for (size_t i = 0; i < x->nlearned; i++)
		n += x->learned_report && x->learned_report[i];
	if (!n)
		return;
	rids = xmalloc(n * sizeof(*rids));
	n = 0;
	for (size_t i = 0; i < x->nlearned; i++)
		if (x->learned_report && x->learned_report[i])
			rids[n++] = x->learned_report[i];
	qsort(rids, n, sizeof(*rids), cmp_id);
	{
		size_t u = 0;
		for (size_t i = 0; i < n; i++)
			if (!u || rids[i] != rids[u - 1])
				rids[u++] = rids[i];
		n = u;
	}
	if (store_message_keys_of(x->sess->store, rids, n, false, &keys, &nkeys,
				  &err) == 0)
		for (size_t i = 0; i < x->nlearned; i++) {
			if (!x->learned_report[i])
				continue;
			for (size_t k = 0; k < nkeys; k++)
				if (keys[k].id == x->learned[i].message_id &&
				    keys[k].report_id == x->learned_report[i]) {
					x->learned[i].key =
						xstrdup(keys[k].key);
					break;
				}
		}
	free(keys);
	free(rids);
}

/* The pending ids merged into the stored lists, and the messages
 * learned recorded, in one write.  A stored list that does not open is
 * not overwritten: the index is emptied instead (what it said is then
 * lost, never wrong). */
static void flush(struct sindex *x)
{
	struct err err = { 0, "" };
	struct sbuf sb = SBUF_INIT;
	bool bad = false, written = false;
	/* Messages stored in a transaction still open (an import's batch,
	 * past FLUSH_IDS): their lists are written now, they are recorded
	 * as indexed by a later write, once committed. */
	bool hold = store_in_tx(x->sess->store);
	size_t k = 0;

	if (!x->pending && !x->nlearned)
		return;
	if (!hold)
		learned_keys(x);
	if (store_index_begin(x->tc, &err) < 0)
		goto out;
	for (size_t i = 0; i < x->cap && !bad; i++) {
		struct tri_ent *e = &x->tab[i];
		int64_t *old, *all;
		size_t nold, n = 0;
		unsigned char *sealed;
		size_t slen;

		if (!e->tri || !e->n)
			continue;
		if (list_load(x, e, &old, &nold) < 0) {
			bad = true;
			break;
		}
		all = xmalloc((nold + e->n) * sizeof(*all));
		if (nold)
			memcpy(all, old, nold * sizeof(*all));
		memcpy(all + nold, e->ids, e->n * sizeof(*all));
		free(old);
		qsort(all, nold + e->n, sizeof(*all), cmp_id);
		for (size_t k = 0; k < nold + e->n; k++)
			if (!n || all[k] != all[n - 1])
				all[n++] = all[k];
		sbuf_reset(&sb);
		list_encode(all, n, &sb);
		free(all);
		if (session_seal(x->sess, TABLE, COLUMN, e->row,
				 (unsigned char *)sb.buf, sb.len, &sealed,
				 &slen, &err) < 0 ||
		    store_index_put_list(x->tc, e->term, TERM_BYTES, sealed,
					 slen, &err) < 0)
			bad = true;
		free(sealed);
	}
	for (size_t i = 0; i < x->nlearned && !bad; i++)
		if (x->learned[i].key)
			bad = store_index_put_message(x->tc,
						      x->learned[i].message_id,
						      x->learned[i].key,
						      &err) < 0;
	if (bad) {
		store_index_rollback(x->tc);
		store_index_reset(x->tc, x->gen, &err);
	} else if (store_index_commit(x->tc, &err) < 0) {
		store_index_reset(x->tc, x->gen, &err);
	} else {
		written = true;
	}
out:
	sbuf_wipe(&sb);
	for (size_t i = 0; i < x->cap; i++) {
		free(x->tab[i].ids);
		x->tab[i].ids = NULL;
		x->tab[i].n = x->tab[i].cap = 0;
	}
	x->pending = 0;
	/* (Held only when their lists were written: an index emptied has
	 * lost them, and they must not be recorded.) */
	for (size_t i = 0; i < x->nlearned; i++) {
		if (written && hold && x->learned_report[i] &&
		    !x->learned[i].key) {
			x->learned[k] = x->learned[i];
			x->learned_report[k++] = x->learned_report[i];
		} else {
			free(x->learned[i].key);
		}
	}
	x->nlearned = k;
	if (!k) {
		free(x->learned);
		x->learned = NULL;
		free(x->learned_report);
		x->learned_report = NULL;
	}
}

static void learn(struct sindex *x, int64_t report_id, int64_t id,
		  const char *key, const char *low, size_t len)
{
	if (!x)
		return;
	for (size_t i = 0; i + 3 <= len; i++) {
		struct tri_ent *e = tri_slot(x, tri_of(low + i));

		if (e->n && e->ids[e->n - 1] == id)
			continue; /* already in this text */
		if (e->n == e->cap) {
			e->cap = e->cap ? 2 * e->cap : 4;
			e->ids = xrealloc(e->ids, e->cap * sizeof(*e->ids));
		}
		e->ids[e->n++] = id;
		x->pending++;
	}
	x->learned =
		xrealloc(x->learned, (x->nlearned + 1) * sizeof(*x->learned));
	x->learned_report =
		xrealloc(x->learned_report,
			 (x->nlearned + 1) * sizeof(*x->learned_report));
	x->learned[x->nlearned] =
		(struct terms_row){ id, key ? xstrdup(key) : NULL };
	x->learned_report[x->nlearned++] = key ? 0 : report_id;
	if (x->pending >= FLUSH_IDS)
		flush(x);
}

void sindex_learn(struct sindex *x, int64_t id, const char *key,
		  const char *low, size_t len)
{
	learn(x, 0, id, key, low, len);
}

void sindex_learn_stored(struct sindex *x, int64_t report_id, int64_t id,
			 const char *low, size_t len)
{
	if (report_id > 0)
		learn(x, report_id, id, NULL, low, len);
}

void sindex_close(struct sindex *x)
{
	if (!x)
		return;
	flush(x);
	for (size_t i = 0; i < x->cap; i++)
		free(x->tab[i].ids);
	free(x->tab);
	terms_rows_free(x->msgs, x->nmsgs);
	store_terms_cache_close(x->tc);
	free(x);
}
