/*
 * Columns of text for tables: how many terminal columns a string takes,
 * and a string fitted to a column, cut with a visible "…" when too long
 * (a cut value must not pass for the whole one).  The text is safe UTF-8
 * (safe_str); widths come from wcwidth() when the locale knows the
 * character (the UI sets one), else from the wide ranges below, so the
 * command line, which keeps the C locale, lines up the same.
 */
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "util/util.h"

#define ELLIPSIS "\xe2\x80\xa6" /* U+2026, one column */

static int cp_cols(uint32_t cp)
{
	int w = wcwidth((wchar_t)cp);

	if (w >= 0)
		return w;
	if ((cp >= 0x0300 && cp <= 0x036f) || cp == 0x200b)
		return 0;
	if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) ||
	    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
	    (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
	    (cp >= 0xffe0 && cp <= 0xffe6) ||
	    (cp >= 0x1f300 && cp <= 0x1f64f) ||
	    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
	    (cp >= 0x20000 && cp <= 0x3fffd))
		return 2;
	return 1;
}

/* The next character of s: its byte length (>= 1) and columns. */
static size_t next_char(const char *s, int *cols)
{
	uint32_t cp;
	size_t n = utf8_decode((const unsigned char *)s, strlen(s), &cp);

	if (!n) {
		*cols = 1;
		return 1;
	}
	*cols = cp_cols(cp);
	return n;
}

int str_cols(const char *s)
{
	int w = 0, c;

	while (*s) {
		s += next_char(s, &c);
		w += c;
	}
	return w;
}

char *str_fit(const char *s, int width)
{
	struct sbuf sb = SBUF_INIT;
	int used = 0, c;

	if (width < 1)
		return xstrdup("");
	if (str_cols(s) <= width) {
		sbuf_adds(&sb, s);
		used = str_cols(s);
	} else {
		/* Keep what fits in width - 1 columns, then the mark. */
		while (*s) {
			size_t n = next_char(s, &c);
			if (used + c > width - 1)
				break;
			sbuf_add(&sb, s, n);
			used += c;
			s += n;
		}
		sbuf_adds(&sb, ELLIPSIS);
		used++;
	}
	while (used++ < width)
		sbuf_addch(&sb, ' ');
	return sbuf_detach(&sb, NULL);
}

void text_table_init(struct text_table *t, size_t ncols,
		     const char *const *head, const int *max)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	t->head = head;
	t->max = max;
}

void text_table_add(struct text_table *t, const char *const *cells)
{
	t->cells =
		xrealloc(t->cells, (t->nrows + 1) * t->ncols * sizeof(char *));
	for (size_t c = 0; c < t->ncols; c++)
		t->cells[t->nrows * t->ncols + c] =
			xstrdup(cells[c] ? cells[c] : "");
	t->nrows++;
}

void text_table_widths(const struct text_table *t, int *w)
{
	for (size_t c = 0; c < t->ncols; c++) {
		w[c] = str_cols(t->head[c]);
		for (size_t r = 0; r < t->nrows; r++) {
			int k = str_cols(t->cells[r * t->ncols + c]);
			w[c] = k > w[c] ? k : w[c];
		}
		if (t->max && t->max[c] > 0 && w[c] > t->max[c])
			w[c] = t->max[c];
	}
}

char *text_table_line(const struct text_table *t, const int *w, size_t row)
{
	struct sbuf sb = SBUF_INIT;

	for (size_t c = 0; c < t->ncols; c++) {
		const char *s = row == TEXT_TABLE_HEAD
			? t->head[c]
			: t->cells[row * t->ncols + c];
		if (c + 1 == t->ncols) {
			/* The last column (a subject, a detail) runs on. */
			sbuf_adds(&sb, s);
			break;
		}
		char *cell = str_fit(s, w[c]);
		sbuf_adds(&sb, cell);
		sbuf_adds(&sb, "  ");
		free(cell);
	}
	if (!sb.buf)
		sbuf_grow(&sb, 1);
	return sbuf_detach(&sb, NULL);
}

void text_table_print(const struct text_table *t, FILE *out)
{
	int *w = xcalloc(t->ncols ? t->ncols : 1, sizeof(*w));

	text_table_widths(t, w);
	for (size_t r = 0; r < t->nrows + 1; r++) {
		char *line = text_table_line(t, w, r ? r - 1 : TEXT_TABLE_HEAD);
		fprintf(out, "%s\n", line);
		free(line);
	}
	free(w);
}

void text_table_release(struct text_table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	t->cells = NULL;
	t->nrows = 0;
}
