/*
 * The lookup: get_maintainers() of get_maintainer.pl.  For each file (or
 * each file of a patch), the sections it belongs to in depth order
 * (match.c), then the sections of the K: keywords found, add their
 * people (M:, R: with the section's role) and lists (L:, subscriber-only
 * ones left out) in that order, each address once.  Then, as
 * get_maintainer.pl does: people de-duplicated by name or address and
 * mapped through .mailmap, Linus Torvalds left out, the "in file"
 * addresses of .yaml files added, and the first of each formatted
 * address kept.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "maint/maint-int.h"

struct pending {
	char *email; /* formatted "Name <addr>" */
	char *role; /* get_maintainer.pl's role text */
	char *rword; /* "maintainer" */
	char *rsect; /* "NAME" */
	uint32_t sect; /* UINT32_MAX for "in file" */
	bool is_list, in_file;
};

struct collect {
	const struct maint_db *db;
	struct pending *v;
	size_t n, alloc; /* @email_to then, separately, @list_to */
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

static void collect_release(struct collect *c)
{
	for (size_t i = 0; i < c->n; i++)
		pending_release(&c->v[i]);
	for (size_t i = 0; i < c->nl; i++)
		pending_release(&c->lists[i]);
	free(c->v);
	free(c->lists);
	smap_release(&c->name_hash, NULL);
	smap_release(&c->addr_hash, NULL);
	smap_release(&c->list_hash, NULL);
	svec_release(&c->file_emails);
}

/* "rword:rsect", or rword alone, or "" (new). */
static char *role_text(const char *rword, const char *rsect)
{
	if (!*rword)
		return xstrdup("");
	return *rsect ? xasprintf("%s:%s", rword, rsect) : xstrdup(rword);
}

/* push_email_address(). */
static void push_email_address(struct collect *c, const char *line,
			       const char *rword, const char *rsect,
			       uint32_t sect)
{
	char *name, *addr;
	maint_parse_email(c->db->lz, line, &name, &addr);
	if (!*addr)
		goto out;
	char *lname = maint_lc_dup(name), *laddr = maint_lc_dup(addr);
	bool inuse = (*name && smap_get(&c->name_hash, lname)) ||
		smap_get(&c->addr_hash, laddr);
	if (!inuse) {
		struct pending *p = collect_add(&c->v, &c->n, &c->alloc);
		p->email = maint_format_email(name, addr);
		p->rword = xstrdup(rword);
		p->rsect = xstrdup(rsect);
		p->role = role_text(rword, rsect);
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

/* An L: line of section si, whose role is lrole ("" for THE REST). */
static void push_list(struct collect *c, const char *v, const char *lrole,
		      uint32_t si)
{
	size_t al = 0;
	while (v[al] && !maint_is_space((unsigned char)v[al]))
		al++;
	char *addr;
	const char *extra = "";
	/* m/([^\s]+)\s+(.*)$/ */
	const char *q = v + al;
	if (al && *q) {
		while (maint_is_space((unsigned char)*q))
			q++;
		addr = xstrndup(v, al);
		extra = q;
	} else {
		addr = xstrdup(v);
	}
	char *laddr = maint_lc_dup(addr);
	void **slot = strstr(extra, "subscribers-only")
		? NULL /* --nos: subscriber lists left out */
		: smap_slot(&c->list_hash, laddr, strlen(laddr));
	if (slot && !*slot) {
		*slot = (void *)1;
		struct pending *p = collect_add(&c->lists, &c->nl, &c->al);
		p->email = xstrdup(addr);
		p->rword = xstrdup(strstr(extra, "moderated") ? "moderated list"
							      : "open list");
		p->rsect = xstrdup(lrole);
		p->role = role_text(p->rword, lrole);
		p->sect = si;
		p->is_list = true;
	}
	free(laddr);
	free(addr);
}

/* add_categories(). */
static void add_categories(struct collect *c, uint32_t si)
{
	const struct maint_db *db = c->db;
	const struct msect *s = &db->sects[si];
	const char *disp = mstr(db, s->disp), *rword = mstr(db, s->rword);
	const char *lrole = strcmp(disp, "THE REST") ? disp : "";

	for (uint32_t i = s->start + 1; i < s->end; i++) {
		const struct mline *tv = &db->lines[i];
		const char *text = mstr(db, tv->text);
		if (tv->type == 'L')
			push_list(c, text, lrole, si);
		else if (tv->type == 'M')
			push_email_address(c, text, rword, disp, si);
		else if (tv->type == 'R')
			push_email_address(c, text, "reviewer", disp, si);
	}
}

/* The name and address email stands for after .mailmap, lowercased
 * keys aside; *name and *addr new. */
static void mapped_email(const struct maint_db *db, const char *email,
			 char **name, char **addr)
{
	char *n, *a;
	maint_parse_email(db->lz, email, &n, &a);
	char *e = maint_format_email(n, a);
	free(n);
	free(a);
	char *m = maint_mailmap_email(db, e);
	free(e);
	maint_parse_email(db->lz, m, name, addr);
	free(m);
}

/* deduplicate_email() of one entry: the first seen with its name (or,
 * without a name, its address) gives both; dn and da map lowercase names
 * and addresses to "name\0addr". */
static void dedup_one(struct collect *c, struct smap *dn, struct smap *da,
		      struct pending *p)
{
	char *name, *addr;
	mapped_email(c->db, p->email, &name, &addr);
	char *ln = maint_lc_dup(name), *la = maint_lc_dup(addr);
	const char *hit = *name ? smap_get(dn, ln) : NULL;
	if (!hit)
		hit = smap_get(da, la);
	if (hit) {
		free(name);
		free(addr);
		name = xstrdup(hit);
		addr = xstrdup(hit + strlen(hit) + 1);
	} else {
		size_t a = strlen(name), b = strlen(addr);
		char *pair = xmalloc(a + b + 2);
		memcpy(pair, name, a + 1);
		memcpy(pair + a + 1, addr, b + 1);
		void **s1 = smap_slot(dn, ln, strlen(ln));
		free(*s1);
		*s1 = pair;
		void **s2 = smap_slot(da, la, strlen(la));
		free(*s2);
		*s2 = xmemdup(pair, a + b + 2);
	}
	free(ln);
	free(la);
	char *e = maint_format_email(name, addr);
	free(name);
	free(addr);
	free(p->email);
	p->email = maint_mailmap_email(c->db, e);
	free(e);
}

/* deduplicate_email() over @email_to and @list_to. */
static void deduplicate(struct collect *c)
{
	struct smap dn = { 0 }, da = { 0 };
	for (size_t i = 0; i < c->n; i++)
		dedup_one(c, &dn, &da, &c->v[i]);
	for (size_t i = 0; i < c->nl; i++)
		dedup_one(c, &dn, &da, &c->lists[i]);
	smap_release(&dn, free);
	smap_release(&da, free);
}

/* @email_to = grep($_->[0] !~ /Linus Torvalds <torvalds@linux-foundation.org>/) */
static bool matches_chief(const char *s)
{
	static const char chief[] =
		"Linus Torvalds <torvalds@linux-foundation.org>";
	size_t n = sizeof(chief) - 1, len = strlen(s);
	for (size_t i = 0; i + n <= len; i++) {
		size_t k = 0;
		while (k < n &&
		       (chief[k] == '.' ? s[i + k] != '\n'
					: s[i + k] == chief[k]))
			k++;
		if (k == n)
			return true;
	}
	return false;
}

static void drop_chief(struct collect *c)
{
	size_t w = 0;
	for (size_t i = 0; i < c->n; i++) {
		if (matches_chief(c->v[i].email))
			pending_release(&c->v[i]);
		else
			c->v[w++] = c->v[i];
	}
	c->n = w;
}

/* add_role($email, 'in file'). */
static void add_role_in_file(struct collect *c, const char *email)
{
	char *name, *addr;
	maint_parse_email(c->db->lz, email, &name, &addr);
	for (size_t i = 0; i < c->n; i++) {
		struct pending *p = &c->v[i];
		char *en, *ea;
		maint_parse_email(c->db->lz, p->email, &en, &ea);
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

/* The addresses found in .yaml files, as people "in file". */
static void add_file_emails(struct collect *c)
{
	for (size_t i = 0; i < c->file_emails.n; i++) {
		char *m = maint_mailmap_email(c->db, c->file_emails.v[i]);
		char *name, *addr;
		maint_parse_email(c->db->lz, m, &name, &addr);
		char *tmp = maint_format_email(name, addr);
		push_email_address(c, tmp, "", "", UINT32_MAX);
		add_role_in_file(c, tmp);
		free(tmp);
		free(m);
		free(name);
		free(addr);
	}
}

static void entry_from(const struct maint_db *db, const struct pending *p,
		       struct maint_entry *e)
{
	char *qname, *addr;
	maint_parse_email(db->lz, p->email, &qname, &addr);
	e->name = maint_name_unquote(qname);
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

/* merge_email(): people then lists, the first of each formatted address. */
static void merge(const struct collect *c, struct maint_result *out)
{
	struct smap saw = { 0 };
	size_t total = c->n + c->nl;
	out->v = xcalloc(total ? total : 1, sizeof(*out->v));
	for (size_t i = 0; i < total; i++) {
		const struct pending *p = i < c->n ? &c->v[i]
						   : &c->lists[i - c->n];
		void **slot = smap_slot(&saw, p->email, strlen(p->email));
		if (*slot)
			continue;
		*slot = (void *)1;
		if (!*p->email)
			continue; /* "L: DP Maintainers <...>" and the like */
		entry_from(c->db, p, &out->v[out->n++]);
	}
	smap_release(&saw, NULL);
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
		if (n && !(n == 1 && p[0] == '.')) { /* "." dropped */
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

/* The files looked up, into fl, and the K: lines their contents (or the
 * patch's lines) match, into kw. */
static int lookup_files(const struct maint_db *db, const char *tree,
			const char *const *files, size_t nfiles,
			const char *patch_text, struct svec *fl,
			struct ivec *kw, struct err *err)
{
	if (patch_text) {
		if (maint_scan_patch(db, patch_text, fl, kw, err) < 0)
			return -1;
		svec_sort_uniq(fl);
		return 0;
	}
	for (size_t i = 0; i < nfiles; i++) {
		char *f = canon_file(tree, files[i]);
		svec_push(fl, f);
		if (maint_file_keywords(db, tree, f, kw, err) < 0)
			return -1;
	}
	return 0;
}

/* The sections of each file, then of each keyword, into c. */
static int collect_sections(struct collect *c, const char *tree,
			    const struct svec *fl, struct ivec *kw,
			    struct err *err)
{
	for (size_t i = 0; i < fl->n; i++) {
		uint32_t *secs;
		long ns = maint_file_sections(c->db, fl->v[i], &secs, err);
		if (ns < 0)
			return -1;
		for (long k = 0; k < ns; k++)
			add_categories(c, secs[k]);
		free(secs);
		maint_file_emails(c->db, tree, fl->v[i], &c->file_emails);
	}
	if (kw->n)
		qsort(kw->v, kw->n, sizeof(*kw->v), cmp_line_str);
	for (size_t i = 0; i < kw->n; i++)
		if ((i == 0 || kw->v[i] != kw->v[i - 1]) &&
		    c->db->lines[kw->v[i]].sect != MIMG_NONE)
			add_categories(c, c->db->lines[kw->v[i]].sect);
	return 0;
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
	if (lookup_files(db, tree, files, nfiles, patch_text, &fl, &kw, err) ==
		    0 &&
	    collect_sections(&c, tree, &fl, &kw, err) == 0) {
		deduplicate(&c);
		drop_chief(&c);
		add_file_emails(&c);
		merge(&c, out);
		r = 0;
	}
	collect_release(&c);
	svec_release(&fl);
	free(kw.v);
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
