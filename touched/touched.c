/*
 * Touched files: the source paths a report names, for MAINTAINERS lookups.
 *
 * Each line is either a diff header (git's "diff --git a/X b/Y", or the
 * unified "--- a/X" and "+++ b/Y", also when quoted with "> " in a reply),
 * whose paths are taken as they are, or running text, where a run of path
 * characters counts only when it looks like a kernel path: its first
 * component is one of the kernel's top-level folders, or it is one of the
 * top-level files.  Every path is normalized and checked the same way, and
 * duplicates keep their first position.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "touched/touched.h"
#include "util/util.h"

static const char *const top_dirs[] = {
	"arch",	    "block",   "certs", "crypto",   "Documentation", "drivers",
	"fs",	    "include", "init",	"io_uring", "ipc",	     "kernel",
	"lib",	    "mm",      "net",	"rust",	    "samples",	     "scripts",
	"security", "sound",   "tools", "usr",	    "virt",	     "LICENSES",
};

static const char *const top_files[] = {
	"MAINTAINERS", "Makefile", "Kconfig",  "Kbuild",
	"COPYING",     "CREDITS",  ".mailmap", ".clang-format",
};

struct found {
	char **v;
	size_t n, alloc;
};

static bool in_list(const char *s, size_t n, const char *const *list,
		    size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (strlen(list[i]) == n && !memcmp(s, list[i], n))
			return true;
	return false;
}

/*
 * The normalized form of p[0..n): no "." or empty components, no leading
 * or trailing '/'; NULL for a ".." component, a control character, an
 * empty result or one longer than TOUCHED_MAX_PATH.  *absolute tells
 * whether p started with '/'.
 */
static char *normalize(const char *p, size_t n, bool *absolute)
{
	struct sbuf sb = SBUF_INIT;
	size_t i = 0;

	*absolute = n && p[0] == '/';
	for (size_t k = 0; k < n; k++)
		if ((unsigned char)p[k] < 0x20 || p[k] == 0x7f)
			return NULL;
	while (i < n) {
		size_t j = i;

		while (j < n && p[j] != '/')
			j++;
		size_t clen = j - i;
		if (clen == 2 && p[i] == '.' && p[i + 1] == '.') {
			sbuf_release(&sb);
			return NULL;
		}
		if (clen && !(clen == 1 && p[i] == '.')) {
			if (sb.len)
				sbuf_addch(&sb, '/');
			sbuf_add(&sb, p + i, clen);
		}
		i = j + 1;
	}
	if (!sb.len || sb.len > TOUCHED_MAX_PATH) {
		sbuf_release(&sb);
		return NULL;
	}
	return sbuf_detach(&sb, NULL);
}

static bool is_kernel_path(const char *s)
{
	const char *slash = strchr(s, '/');

	if (!slash)
		return in_list(s, strlen(s), top_files, ARRAY_SIZE(top_files));
	return in_list(s, (size_t)(slash - s), top_dirs, ARRAY_SIZE(top_dirs));
}

static void add(struct found *f, char *path)
{
	if (!path)
		return;
	for (size_t i = 0; i < f->n; i++) {
		if (!strcmp(f->v[i], path)) {
			free(path);
			return;
		}
	}
	if (f->n >= TOUCHED_MAX_PATHS) {
		free(path);
		return;
	}
	if (f->n + 1 >= f->alloc) {
		f->alloc = f->alloc ? f->alloc * 2 : 16;
		f->v = xrealloc(f->v, f->alloc * sizeof(char *));
	}
	f->v[f->n++] = path;
}

/* A path from a diff header: any path in the tree counts. */
static void add_diff_path(struct found *f, const char *p, size_t n)
{
	bool abs;

	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r'))
		n--;
	if (n == 9 && !memcmp(p, "/dev/null", 9))
		return;
	char *s = normalize(p, n, &abs);
	if (s && abs && !is_kernel_path(s)) {
		free(s);
		s = NULL;
	}
	add(f, s);
}

/* A path from running text: only kernel-looking ones count. */
static void add_prose_path(struct found *f, const char *p, size_t n)
{
	bool abs;

	while (n && (p[n - 1] == '.' || p[n - 1] == ','))
		n--;
	while (n && p[0] == ',') {
		p++;
		n--;
	}
	if (n > TOUCHED_MAX_PATH + 1)
		return;
	char *s = normalize(p, n, &abs);
	if (!s)
		return;
	/* "/usr/..." in prose is the host's /usr, not the kernel's usr/. */
	if (!is_kernel_path(s) || (abs && str_starts(s, "usr/"))) {
		free(s);
		return;
	}
	add(f, s);
}

static bool path_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		(c >= '0' && c <= '9') || c == '.' || c == '_' || c == '/' ||
		c == '-' || c == '+' || c == ',' || c == '@' || c == '~';
}

static void scan_prose(struct found *f, const char *l, size_t n)
{
	size_t i = 0;

	while (i < n) {
		while (i < n && !path_char(l[i]))
			i++;
		size_t j = i;
		while (j < n && path_char(l[j]))
			j++;
		if (j > i)
			add_prose_path(f, l + i, j - i);
		i = j;
	}
}

static bool starts(const char *l, size_t n, const char *pfx)
{
	size_t k = strlen(pfx);

	return n >= k && !memcmp(l, pfx, k);
}

/* "diff --git a/X b/Y": X and Y, preferring the split where they match. */
static void scan_diff_git(struct found *f, const char *r, size_t n)
{
	while (n && (r[n - 1] == '\r' || r[n - 1] == ' ' || r[n - 1] == '\t'))
		n--;
	if (!starts(r, n, "a/"))
		return;
	if (n % 2 == 1) {
		size_t mid = (n - 1) / 2;

		if (r[mid] == ' ' && starts(r + mid + 1, n - mid - 1, "b/") &&
		    !memcmp(r + 2, r + mid + 3, mid - 2)) {
			add_diff_path(f, r + 2, mid - 2);
			return;
		}
	}
	for (size_t i = 2; i + 3 <= n; i++) {
		if (r[i] == ' ' && r[i + 1] == 'b' && r[i + 2] == '/') {
			add_diff_path(f, r + 2, i - 2);
			add_diff_path(f, r + i + 3, n - i - 3);
			return;
		}
	}
}

/* "--- a/X" or "+++ b/Y", possibly followed by a tab and a date. */
static void scan_unified(struct found *f, const char *r, size_t n)
{
	const char *tab = memchr(r, '\t', n);

	if (tab)
		n = (size_t)(tab - r);
	if (starts(r, n, "a/") || starts(r, n, "b/"))
		add_diff_path(f, r + 2, n - 2);
	else if (starts(r, n, "/dev/null"))
		return;
	else
		scan_prose(f, r, n);
}

size_t touched_files(const char *text, size_t len, char ***paths)
{
	struct found f = { NULL, 0, 0 };
	size_t p = 0;

	while (p < len) {
		const char *nl = memchr(text + p, '\n', len - p);
		size_t e = nl ? (size_t)(nl - text) : len;
		const char *l = text + p;
		size_t n = e - p;

		/* A patch quoted in a reply: "> diff --git ...". */
		size_t q = 0;
		while (q < n && (l[q] == '>' || (q && l[q] == ' ')))
			q++;
		const char *h = l + q;
		size_t hn = n - q;

		if (starts(h, hn, "diff --git "))
			scan_diff_git(&f, h + 11, hn - 11);
		else if (starts(h, hn, "--- ") || starts(h, hn, "+++ "))
			scan_unified(&f, h + 4, hn - 4);
		else
			scan_prose(&f, l, n);
		p = e + 1;
	}
	if (!f.v)
		f.v = xcalloc(1, sizeof(char *));
	f.v[f.n] = NULL;
	*paths = f.v;
	return f.n;
}

bool touched_path_plausible(const char *path)
{
	if (!path || !*path)
		return false;
	for (const char *p = path; *p; p++)
		if (!path_char(*p))
			return false;
	return true;
}
