/*
 * Loading MAINTAINERS, as get_maintainer.pl reads it: every "T: value"
 * line and every other line that is not blank or a comment, in order;
 * a section is a run of "T:" lines, named by the line before it.  F:/X:
 * globs become regexes here (match.c matches them), indexed by their
 * literal prefix; N: and K: lines are kept for lookups to compile.  A
 * section's role word comes from its last S: line, and a section whose
 * F: is "*" (or the security contact) is a catch-all.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "maint/maint-int.h"

size_t maint_db_sections(const struct maint_db *db)
{
	return db->nsects;
}

static bool tv_parse(const char *line, char *type, const char **value)
{
	if (line[0] < 'A' || line[0] > 'Z' || line[1] != ':')
		return false;
	const char *v = line + 2;
	while (maint_is_space((unsigned char)*v))
		v++;
	*type = line[0];
	*value = v;
	return true;
}

static bool blank_or_comment(const char *line)
{
	while (maint_is_space((unsigned char)*line))
		line++;
	return !*line || *line == '#';
}

static char *section_disp(const char *name)
{
	size_t n = strlen(name);
	if (n <= MAINT_SECTION_MAXLEN)
		return xstrdup(name);
	n = MAINT_SECTION_MAXLEN - 3;
	while (n && maint_is_space((unsigned char)name[n - 1]))
		n--;
	char *cut = xstrndup(name, n);
	char *r = xasprintf("%s...", cut);
	free(cut);
	return r;
}

static char *maint_role(const char *status)
{
	char *lc = maint_lc_dup(status);
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

/* The section of lines [start, end), whose first "T:" line is key. */
static void section_add(struct maint_db *db, size_t key, size_t start,
			size_t end, size_t *cap)
{
	if (db->nsects == *cap) {
		*cap = *cap ? *cap * 2 : 1024;
		db->sects = xrealloc(db->sects, *cap * sizeof(*db->sects));
	}
	struct sect *s = &db->sects[db->nsects];
	memset(s, 0, sizeof(*s));
	s->key = (uint32_t)key;
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
		if (end > i)
			section_add(db, i, start, end, &cap);
		i = end + 1;
	}
}

int maint_read_whole(const char *path, char **out, size_t *len, struct err *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > (off_t)MAINT_MAX_CONTENT) {
		if (fd >= 0)
			close(fd);
		return read_file(path, MAINT_MAX_CONTENT, out, len, err);
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
		return read_file(path, MAINT_MAX_CONTENT, out, len, err);
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

/* A db for the MAINTAINERS at path: its tree, and the PCRE2 set-up. */
static struct maint_db *db_new(const char *path)
{
	struct maint_db *db = xcalloc(1, sizeof(*db));
	const char *slash = strrchr(path, '/');
	db->dir = slash
		? (slash == path ? xstrdup("/")
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
	return db;
}

/* One line that counts: "T: value" (F:/X: as a regex) or another. */
static void line_add(struct maint_db *db, char *line, size_t *cap)
{
	char type;
	const char *value;
	bool is_tv = tv_parse(line, &type, &value);
	if (!is_tv && blank_or_comment(line))
		return;
	if (db->nlines == *cap) {
		*cap = *cap ? *cap * 2 : 32768;
		db->lines = xrealloc(db->lines, *cap * sizeof(*db->lines));
	}
	struct tvline *tv = &db->lines[db->nlines++];
	if (is_tv) {
		tv->type = type;
		tv->text = type == 'F' || type == 'X'
			? maint_glob_to_re(&db->arena, value)
			: (char *)value;
	} else {
		tv->type = 0;
		tv->text = line;
	}
	tv->sect = UINT32_MAX;
}

/* The lines of text[0..len), cut in place; db keeps text. */
static void read_lines(struct maint_db *db, char *text, size_t len)
{
	size_t cap = 0;
	for (char *line = text; line < text + len;) {
		char *nl = memchr(line, '\n', (size_t)(text + len - line));
		char *next = nl ? nl + 1 : text + len;
		if (nl)
			*nl = '\0';
		line_add(db, line, &cap);
		line = next;
	}
	db->text = text;
}

static void add_prefix(struct maint_db *db, const char *key, uint32_t idx)
{
	void **slot = smap_slot(&db->prefix, key, strlen(key));
	if (!*slot)
		*slot = xcalloc(1, sizeof(struct ivec));
	ivec_push(*slot, idx);
}

/* The F:/X: line i, indexed by its literal prefix. */
static void fpat_add(struct maint_db *db, size_t i)
{
	const struct tvline *tv = &db->lines[i];
	struct fpat *f = &db->fpats[db->nfpats];
	f->line = (uint32_t)i;
	f->sect = tv->sect;
	f->type = tv->type;
	f->simple = maint_simple_pattern(tv->text);
	f->dir = -1;
	char *pre = arena_alloc(&db->arena, strlen(tv->text) + 1);
	maint_literal_prefix(tv->text, f->simple, pre);
	add_prefix(db, pre, (uint32_t)db->nfpats);
	db->nfpats++;
}

static void rpat_add(struct rpat *v, size_t *n, const struct tvline *tv,
		     size_t i)
{
	struct rpat *p = &v[(*n)++];
	p->line = (uint32_t)i;
	p->sect = tv->sect;
	p->re = tv->text;
}

/* F:/X: patterns of sections, N: patterns of sections, and every K:. */
static void index_patterns(struct maint_db *db)
{
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
		const struct tvline *tv = &db->lines[i];
		if (tv->type == 'K')
			rpat_add(db->kpats, &db->nkpats, tv, i);
		if (tv->sect == UINT32_MAX)
			continue; /* outside any section: never matched */
		if (tv->type == 'F' || tv->type == 'X')
			fpat_add(db, i);
		else if (tv->type == 'N')
			rpat_add(db->npats, &db->nnpats, tv, i);
	}
}

int maint_db_load(const char *path, struct maint_db **out, struct err *err)
{
	char *text;
	size_t len;
	int r = maint_read_whole(path, &text, &len, err);
	if (r < 0)
		return err_prefix(err, "cannot load MAINTAINERS"), r;

	struct maint_db *db = db_new(path);
	if (maint_email_res(db->lz) < 0) {
		free(text);
		maint_db_free(db);
		return err_set(err, "cannot compile the e-mail regexes");
	}
	read_lines(db, text, len);
	build_sections(db);
	index_patterns(db);
	if (maint_mailmap_load(db) < 0) {
		maint_db_free(db);
		return err_set(err, "cannot compile the .mailmap regexes");
	}
	*out = db;
	return 0;
}

static void lazy_free(struct lazy *lz)
{
	if (!lz)
		return;
	pcre2_match_data_free(lz->md1);
	pcre2_match_data_free(lz->md4);
	for (int i = 0; i < 3; i++)
		pcre2_code_free(lz->re_email[i]);
	pcre2_code_free(lz->re_fileaddr);
	pcre2_code_free(lz->re_cleanaddr);
	pcre2_compile_context_free(lz->cctx);
	pcre2_match_context_free(lz->mctx);
	free(lz);
}

static void rpats_free(struct rpat *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		pcre2_code_free(v[i].code);
		pcre2_code_free(v[i].pcode);
	}
	free(v);
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
	rpats_free(db->npats, db->nnpats);
	rpats_free(db->kpats, db->nkpats);
	smap_release(&db->prefix, ivec_free);
	smap_release(&db->mm_names, free);
	smap_release(&db->mm_addrs, free);
	lazy_free(db->lz);
	if (db->dirfd >= 0)
		close(db->dirfd);
	free(db->dir);
	free(db);
}
