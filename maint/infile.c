/*
 * "in file" addresses: get_maintainer.pl also reads the e-mail addresses
 * written in a .yaml file a lookup touches (the maintainers of a
 * devicetree binding), and cleans each one up with clean_file_emails():
 * the address put in <>, the name cut to its last two or three words and
 * stray punctuation at its ends dropped.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "maint/maint-int.h"

/* s/[\(\<\{]{0,1}([A-Za-z0-9_\.\+-]+\@[A-Za-z0-9\.-]+)[\)\>\}]{0,1}/\<$1\>/g */
static char *bracket_addresses(const struct lazy *lz, const char *raw)
{
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
	return sbuf_detach(&sb, NULL);
}

/* A byte of [A-Za-zÀ-ÿ\'\,\.\+-], as Perl sees the bytes of the name. */
static bool name_byte(unsigned char ch)
{
	return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
		(ch >= 0x80 && ch <= 0xC3) || ch == 0xBF || ch == '\'' ||
		ch == ',' || ch == '.' || ch == '+' || ch == '-';
}

/* split(/[^A-Za-zÀ-ÿ\'\,\.\+-]/, $name): trailing empty fields dropped. */
static void name_words(const char *name, struct svec *nw)
{
	size_t nlen = strlen(name), st = 0;
	if (!nlen)
		return;
	for (size_t i = 0; i <= nlen; i++) {
		if (i < nlen && name_byte((unsigned char)name[i]))
			continue;
		svec_push(nw, xstrndup(name + st, i - st));
		st = i + 1;
	}
	while (nw->n && !*nw->v[nw->n - 1])
		free(nw->v[--nw->n]);
}

/* Its last three words when the first or middle one is an initial, else
 * its last two; a name of two words or fewer as it is (new). */
static char *name_shorten(const char *name)
{
	struct svec nw = { 0 };
	char *r;
	name_words(name, &nw);
	if (nw.n <= 2) {
		svec_release(&nw);
		return xstrdup(name);
	}
	const char *first = nw.v[nw.n - 3], *middle = nw.v[nw.n - 2],
		   *last = nw.v[nw.n - 1];
	size_t fl = strlen(first), ml = strlen(middle);
	bool fletter = fl == 1 &&
		(((*first | 0x20) >= 'a' && (*first | 0x20) <= 'z'));
	if ((fletter || (fl == 2 && first[1] == '.')) ||
	    (ml == 1 || (ml == 2 && middle[1] == '.')))
		r = xasprintf("%s %s %s", first, middle, last);
	else
		r = xasprintf("%s %s", middle, last);
	svec_release(&nw);
	return r;
}

/* One ',' or '.' off each end of name, inside its quotes if quoted. */
static void name_strip_punct(char *name)
{
	size_t nlen = strlen(name);
	if (nlen && (name[nlen - 1] == ',' || name[nlen - 1] == '.')) {
		name[--nlen] = '\0';
	} else if (nlen >= 2 && name[nlen - 1] == '"' &&
		   (name[nlen - 2] == ',' || name[nlen - 2] == '.')) {
		name[nlen - 2] = '"';
		name[--nlen] = '\0';
	}
	if (nlen && (name[0] == ',' || name[0] == '.')) {
		memmove(name, name + 1, nlen);
	} else if (nlen >= 2 && name[0] == '"' &&
		   (name[1] == ',' || name[1] == '.')) {
		memmove(name + 1, name + 2, nlen - 1);
	}
}

/* clean_file_emails() for one address found in a file (new). */
static char *clean_file_email(const struct maint_db *db, const char *raw)
{
	char *email = bracket_addresses(db->lz, raw);
	char *name, *addr;
	maint_parse_email(db->lz, email, &name, &addr);
	free(email);
	if (!strcmp(name, "\"[,\\.]\"")) {
		free(name);
		name = xstrdup("");
	}
	char *shorter = name_shorten(name);
	free(name);
	name_strip_punct(shorter);
	char *r = maint_format_email(shorter, addr);
	free(shorter);
	free(addr);
	return r;
}

/* Compiles the regexes of maintainers_in_file() once. */
static void file_res(struct lazy *lz)
{
	if (lz->re_fileaddr)
		return;
	lz->re_fileaddr = maint_re_compile(
		lz,
		"[A-Za-z\\x{80}-\\x{c3}\\x{bf}\\\"\\' \\,\\.\\+-]*\\s*[\\,]*"
		"\\s*[\\(\\<\\{]{0,1}[A-Za-z0-9_\\.\\+-]+\\@"
		"[A-Za-z0-9\\.-]+\\.[A-Za-z0-9]+[\\)\\>\\}]{0,1}",
		0, true, NULL, "");
	lz->re_cleanaddr = maint_re_compile(
		lz,
		"[\\(\\<\\{]{0,1}([A-Za-z0-9_\\.\\+-]+\\@[A-Za-z0-9\\.-]+)"
		"[\\)\\>\\}]{0,1}",
		0, false, NULL, "");
}

void maint_file_emails(const struct maint_db *db, const char *tree,
		       const char *file, struct svec *emails)
{
	struct lazy *lz = db->lz;
	size_t fl = strlen(file);
	/* (a name ending in .yaml never ends in MAINTAINERS) */
	if (fl < 5 || strcmp(file + fl - 5, ".yaml"))
		return;
	char *path = xasprintf("%s/%s", tree, file);
	struct stat st;
	char *text = NULL;
	size_t len;
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
	    read_file(path, MAINT_MAX_CONTENT, &text, &len, NULL) < 0) {
		free(path);
		return;
	}
	free(path);
	file_res(lz);
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(lz->md1);
	for (size_t pos = 0; pos <= len;) {
		int rc = pcre2_match(lz->re_fileaddr, (PCRE2_SPTR)text, len,
				     pos, 0, lz->md1, NULL);
		if (rc < 0)
			break;
		char *raw = xstrndup(text + ov[0], ov[1] - ov[0]);
		svec_push(emails, clean_file_email(db, raw));
		free(raw);
		pos = ov[1] > ov[0] ? ov[1] : ov[1] + 1;
	}
	free(text);
}
