/*
 * A scrollable column of display lines, the pager the report, timeline,
 * help and panel views share: wrapping by display width (wide characters
 * count twice, tabs expand to 8), motions in pages, and a case-insensitive
 * search that highlights the line found.  Lines holding plaintext are
 * wiped when released.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

#include "tui/tui-int.h"

static void push(struct tui_lines *l, char *s, attr_t a, int kind)
{
	if (l->n == l->alloc) {
		l->alloc = l->alloc ? l->alloc * 2 : 64;
		l->line = xrealloc(l->line, l->alloc * sizeof(*l->line));
		l->attr = xrealloc(l->attr, l->alloc * sizeof(*l->attr));
		l->kind = xrealloc(l->kind, l->alloc * sizeof(*l->kind));
		l->src = xrealloc(l->src, l->alloc * sizeof(*l->src));
	}
	l->line[l->n] = s;
	l->attr[l->n] = a;
	l->kind[l->n] = (unsigned char)kind;
	l->src[l->n] = l->nsrc;
	l->n++;
}

void lines_add(struct tui_lines *l, const char *safe, attr_t a, int kind)
{
	push(l, xstrdup(safe), a, kind);
	l->nsrc++;
}

/* Adds one logical line (no newline inside), wrapped at width. */
static void add_one(struct tui_lines *l, const char *s, size_t len, int width,
		    attr_t a, int kind)
{
	struct sbuf out = SBUF_INIT;
	mbstate_t st;
	int col = 0;
	size_t i = 0;
	bool any = false;

	if (width < 1)
		width = 1;
	memset(&st, 0, sizeof(st));
	while (i < len) {
		wchar_t wc;
		size_t k;
		int c;
		if (s[i] == '\t') {
			int sp = 8 - col % 8;
			if (col + sp > width)
				sp = width - col;
			for (int j = 0; j < sp; j++)
				sbuf_addch(&out, ' ');
			col += sp;
			i++;
			if (col >= width) {
				push(l, sbuf_detach(&out, NULL), a, kind);
				any = true;
				col = 0;
			}
			continue;
		}
		k = mbrtowc(&wc, s + i, len - i, &st);
		if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
			memset(&st, 0, sizeof(st));
			k = 1;
			wc = L'?';
		}
		c = wcwidth(wc);
		if (c < 0)
			c = 1;
		if (col + c > width && col > 0) {
			push(l, sbuf_detach(&out, NULL), a, kind);
			any = true;
			col = 0;
		}
		sbuf_add(&out, s + i, k);
		col += c;
		i += k;
	}
	if (out.len || !any)
		push(l, out.buf ? sbuf_detach(&out, NULL) : xstrdup(""), a,
		     kind);
	else if (l->wipe)
		sbuf_wipe(&out);
	else
		sbuf_release(&out);
	l->nsrc++;
}

void lines_add_wrapped(struct tui_lines *l, const char *safe, int width,
		       attr_t a, int kind)
{
	const char *p = safe;

	for (;;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (!nl && !len && p != safe)
			break;
		add_one(l, p, len, width, a, kind);
		if (!nl)
			break;
		p = nl + 1;
	}
}

void lines_release(struct tui_lines *l)
{
	for (size_t i = 0; i < l->n; i++) {
		if (l->wipe)
			wipe(l->line[i], strlen(l->line[i]));
		free(l->line[i]);
	}
	free(l->line);
	free(l->attr);
	free(l->kind);
	free(l->src);
	bool w = l->wipe;
	memset(l, 0, sizeof(*l));
	l->wipe = w;
	l->hl = -1;
}

size_t lines_find_src(const struct tui_lines *l, size_t src)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->src[i] >= src)
			return i;
	return l->n ? l->n - 1 : 0;
}

int lines_move(struct tui_lines *l, int height, enum tui_motion m)
{
	size_t page = height > 1 ? (size_t)height - 1 : 1;
	size_t max = l->n > (size_t)height ? l->n - (size_t)height : 0;
	size_t old = l->top;

	switch (m) {
	case M_DOWN:
		l->top++;
		break;
	case M_UP:
		l->top = l->top ? l->top - 1 : 0;
		break;
	case M_PGDN:
		l->top += page;
		break;
	case M_PGUP:
		l->top = l->top > page ? l->top - page : 0;
		break;
	case M_HALFDN:
		l->top += page / 2 + 1;
		break;
	case M_HALFUP:
		l->top = l->top > page / 2 ? l->top - page / 2 - 1 : 0;
		break;
	case M_TOP:
		l->top = 0;
		break;
	case M_BOTTOM:
		l->top = max;
		break;
	}
	if (l->top > max)
		l->top = max;
	return l->top != old ? TUI_REDRAW : TUI_OK;
}

int lines_search(struct tui_lines *l, const char *needle, int dir, bool fresh)
{
	size_t n = l->n, start;

	if (!n || !needle || !*needle)
		return -1;
	if (l->hl >= 0)
		start = (size_t)l->hl;
	else
		start = l->top;
	if (!fresh || l->hl >= 0)
		start = dir > 0 ? (start + 1) % n : (start + n - 1) % n;
	for (size_t k = 0; k < n; k++) {
		size_t i = dir > 0 ? (start + k) % n : (start + n - k) % n;
		if (strcasestr(l->line[i], needle)) {
			l->hl = (long)i;
			l->top = i > 2 ? i - 2 : 0;
			return (int)i;
		}
	}
	return -1;
}

void lines_draw(struct tui *t, struct tui_lines *l, int y0, int height,
		int gutter)
{
	for (int y = 0; y < height; y++) {
		size_t i = l->top + (size_t)y;
		move(y0 + y, 0);
		clrtoeol();
		if (i >= l->n) {
			if (gutter)
				draw_text(y0 + y, 0, 1, "~", A_DIM);
			continue;
		}
		attr_t a = l->attr[i];
		if ((long)i == l->hl)
			a |= A_REVERSE;
		if (gutter) {
			/* Our lines, the body's and the body's unsigned ones
			 * carry different gutters, which the body cannot
			 * draw. */
			const char *g;
			attr_t ga;

			switch (l->kind[i]) {
			case LINE_OURS:
				g = t->utf8 ? "\xe2\x96\x8c " : "> ";
				ga = A_BOLD;
				break;
			case LINE_UNSIGNED:
				g = "! ";
				ga = A_BOLD | draw_color(t, CP_YELLOW);
				break;
			default:
				g = t->utf8 ? "\xe2\x94\x82 " : "| ";
				ga = A_DIM;
				break;
			}
			draw_text(y0 + y, 0, 2, g, ga);
			draw_text(y0 + y, 2, COLS - 2, l->line[i], a);
		} else {
			draw_text(y0 + y, 0, COLS, l->line[i], a);
		}
	}
}

/* The bytes of word that fit in cols columns (at least one character). */
static size_t fit_bytes(const char *word, int cols)
{
	mbstate_t st;
	wchar_t wc;
	size_t k = 0;
	int c = 0;

	memset(&st, 0, sizeof(st));
	while (word[k]) {
		size_t n = mbrtowc(&wc, word + k, MB_CUR_MAX, &st);
		int cw = 1;

		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			memset(&st, 0, sizeof(st));
			n = 1;
		} else if (wcwidth(wc) >= 0) {
			cw = wcwidth(wc);
		}
		if (k && c + cw > cols)
			break;
		c += cw;
		k += n;
	}
	return k;
}

void lines_add_hanging(struct tui_lines *l, const char *safe, int width,
		       int indent, attr_t a, int kind)
{
	struct sbuf line = SBUF_INIT;
	const char *p = safe;
	bool first = true;
	int w;

	if (width <= 0 || text_width(safe) <= width) {
		lines_add(l, safe, a, kind);
		return;
	}
	if (width < 20)
		width = 20;
	if (indent > width / 2)
		indent = width / 2;
	/* The line's own leading spaces stay; then words, a word that
	 * would pass the edge moved to a new row, indent columns in. */
	w = (int)strspn(p, " ");
	sbuf_add(&line, p, (size_t)w);
	p += w;
	while (*p) {
		size_t sp = strspn(p, " "), wl;
		char *word, *rest;
		int gap, ww;

		p += sp;
		if (!*p)
			break;
		wl = strcspn(p, " ");
		word = xstrndup(p, wl);
		p += wl;
		ww = text_width(word);
		gap = first ? 0 : (int)sp;
		if (!first && w + gap + ww > width) {
			push(l, sbuf_detach(&line, NULL), a, kind);
			sbuf_addf(&line, "%*s", indent, "");
			w = indent;
			gap = 0;
		}
		sbuf_addf(&line, "%*s", gap, "");
		w += gap;
		/* A word longer than what is left of an empty row: cut in
		 * rows of its own. */
		rest = word;
		while (w + ww > width) {
			size_t k = fit_bytes(rest, width - w);

			sbuf_add(&line, rest, k);
			push(l, sbuf_detach(&line, NULL), a, kind);
			sbuf_addf(&line, "%*s", indent, "");
			w = indent;
			rest += k;
			ww = text_width(rest);
		}
		sbuf_adds(&line, rest);
		w += ww;
		free(word);
		first = false;
	}
	push(l, sbuf_detach(&line, NULL), a, kind);
	l->nsrc++;
}
