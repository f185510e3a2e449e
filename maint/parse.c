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
#include <sys/mman.h>
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
static void section_add(struct mbuild *b, size_t key, size_t start, size_t end,
			size_t *cap)
{
	if (b->nsects == *cap) {
		*cap = *cap ? *cap * 2 : 1024;
		b->sects = xrealloc(b->sects, *cap * sizeof(*b->sects));
	}
	struct mbuild_sect *s = &b->sects[b->nsects];
	memset(s, 0, sizeof(*s));
	s->key = (uint32_t)key;
	s->start = (uint32_t)start;
	s->end = (uint32_t)end;
	const struct mbuild_line *h = &b->lines[start];
	char *hname = h->type ? xasprintf("%c:%s", h->type, h->text)
			      : xstrdup(h->text);
	s->disp = section_disp(hname);
	s->security = !strcmp(hname, "SECURITY CONTACT");
	free(hname);
	const char *status = "unknown";
	for (size_t k = start + 1; k < end; k++)
		if (b->lines[k].type == 'S')
			status = b->lines[k].text;
	s->rword = maint_role(status);
	for (size_t k = start; k < end; k++) {
		b->lines[k].sect = (uint32_t)b->nsects;
		if (b->lines[k].type == 'F' &&
		    !strncmp(b->lines[k].text, ".*", 2))
			s->catch_all = true;
	}
	if (s->security)
		s->catch_all = true;
	b->nsects++;
}

static void build_sections(struct mbuild *b)
{
	size_t cap = 0;
	size_t i = 0;
	/* find_first_section() then $tvi = $end + 1, as get_maintainer.pl */
	while (i < b->nlines && !b->lines[i].type)
		i++;
	while (i < b->nlines) {
		size_t start = i, end = i;
		while (start > 0 && b->lines[start].type)
			start--;
		while (end < b->nlines && b->lines[end].type)
			end++;
		if (end > i)
			section_add(b, i, start, end, &cap);
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

struct maint_db *maint_db_new(const char *path)
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
	if (maint_email_res(db->lz) < 0) {
		maint_db_free(db);
		return NULL;
	}
	return db;
}

/* One line that counts: "T: value" (F:/X: as a regex) or another. */
static void line_add(struct mbuild *b, char *line, size_t *cap)
{
	char type;
	const char *value;
	bool is_tv = tv_parse(line, &type, &value);
	if (!is_tv && blank_or_comment(line))
		return;
	if (b->nlines == *cap) {
		*cap = *cap ? *cap * 2 : 32768;
		b->lines = xrealloc(b->lines, *cap * sizeof(*b->lines));
	}
	struct mbuild_line *tv = &b->lines[b->nlines++];
	if (is_tv) {
		tv->type = type;
		tv->text = type == 'F' || type == 'X'
			? maint_glob_to_re(&b->arena, value)
			: value;
	} else {
		tv->type = 0;
		tv->text = line;
	}
	tv->sect = MIMG_NONE;
}

/* The lines of text[0..len), cut in place. */
static void read_lines(struct mbuild *b, char *text, size_t len)
{
	size_t cap = 0;
	for (char *line = text; line < text + len;) {
		char *nl = memchr(line, '\n', (size_t)(text + len - line));
		char *next = nl ? nl + 1 : text + len;
		if (nl)
			*nl = '\0';
		line_add(b, line, &cap);
		line = next;
	}
}

static void mbuild_release(struct mbuild *b)
{
	free(b->lines);
	arena_release(&b->arena);
	for (size_t i = 0; i < b->nsects; i++) {
		free(b->sects[i].disp);
		free(b->sects[i].rword);
	}
	free(b->sects);
	smap_release(&b->mm_names, free);
	smap_release(&b->mm_addrs, free);
}

int maint_db_parse(struct maint_db *db, char *text, size_t len,
		   unsigned char **img, size_t *img_len, struct err *err)
{
	struct mbuild b = { .dir = db->dir, .lz = db->lz };
	int r = 0;

	*img = NULL;
	read_lines(&b, text, len);
	build_sections(&b);
	if (maint_mailmap_load(&b) < 0)
		r = err_set(err, "cannot compile the .mailmap regexes");
	else
		*img = maint_img_build(&b, img_len);
	mbuild_release(&b);
	free(text);
	return r;
}

int maint_db_load(const char *path, struct maint_db **out, struct err *err)
{
	char *text;
	size_t len, ilen;
	unsigned char *img;
	struct maint_db *db;
	int r = maint_read_whole(path, &text, &len, err);
	if (r < 0)
		return err_prefix(err, "cannot load MAINTAINERS"), r;
	if (!(db = maint_db_new(path))) {
		free(text);
		return err_set(err, "cannot compile the e-mail regexes");
	}
	if ((r = maint_db_parse(db, text, len, &img, &ilen, err)) < 0 ||
	    (r = maint_img_attach(db, img, ilen, err)) < 0) {
		free(img);
		maint_db_free(db);
		return r;
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

static void rpats_free(struct rpat_lazy *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		pcre2_code_free(v[i].code);
		pcre2_code_free(v[i].pcode);
	}
	free(v);
}

void maint_db_free(struct maint_db *db)
{
	if (!db)
		return;
	for (size_t i = 0; db->fl && i < db->nfpats; i++) {
		free(db->fl[i].eff);
		pcre2_code_free(db->fl[i].code);
	}
	free(db->fl);
	rpats_free(db->nl, db->nnpats);
	rpats_free(db->kl, db->nkpats);
	if (db->img && db->mapped)
		munmap((void *)db->img, db->img_len);
	else
		free((void *)db->img);
	lazy_free(db->lz);
	if (db->dirfd >= 0)
		close(db->dirfd);
	free(db->dir);
	free(db);
}
