/*
 * Drawing text: the only path from a string to the screen.  Untrusted text
 * goes through draw_untrusted(), which calls util's safe_str() first;
 * draw_text() takes our own text or text safe_text() already made safe.
 * Columns are counted with wcwidth(), so wide (CJK, emoji) characters take
 * two cells and nothing spills past the width given.  Colors are optional
 * (NO_COLOR, monochrome terminals): every meaning carried by a color is
 * also carried by a mark or an attribute.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "tui/tui-int.h"

void draw_init_colors(struct tui *t)
{
	const char *nc = getenv("NO_COLOR");

	t->color = !(nc && *nc) && has_colors();
	if (!t->color)
		return;
	start_color();
	use_default_colors();
	init_pair(CP_RED, COLOR_RED, -1);
	init_pair(CP_YELLOW, COLOR_YELLOW, -1);
	init_pair(CP_GREEN, COLOR_GREEN, -1);
	init_pair(CP_CYAN, COLOR_CYAN, -1);
	init_pair(CP_MAGENTA, COLOR_MAGENTA, -1);
	init_pair(CP_ERROR, COLOR_WHITE, COLOR_RED);
	init_pair(CP_BAR_OK, COLOR_BLACK, COLOR_GREEN);
	init_pair(CP_BAR_WARN, COLOR_BLACK, COLOR_YELLOW);
	init_pair(CP_BAR_BAD, COLOR_WHITE, COLOR_RED);
}

attr_t draw_color(struct tui *t, int pair)
{
	return t->color && pair ? (attr_t)COLOR_PAIR(pair) : A_NORMAL;
}

/* Decodes the next character of s; returns its byte length (>= 1). */
static size_t next_wc(const char *s, wchar_t *wc, mbstate_t *st)
{
	size_t k = mbrtowc(wc, s, MB_CUR_MAX, st);

	if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
		memset(st, 0, sizeof(*st));
		*wc = L'?';
		return 1;
	}
	return k;
}

static int wc_cols(wchar_t wc)
{
	int c = wcwidth(wc);

	return c < 0 ? 1 : c;
}

int text_width(const char *s)
{
	mbstate_t st;
	wchar_t wc;
	int w = 0;

	memset(&st, 0, sizeof(st));
	while (*s) {
		s += next_wc(s, &wc, &st);
		w += wc_cols(wc);
	}
	return w;
}

/* Where draw_text says what it cut (the UI's trace, for tests), or NULL. */
static FILE *cut_log;

void draw_log_cuts(FILE *f)
{
	cut_log = f;
}

/* Writes "cut ROW: TEXT" to the log when text past the width held more
 * than white space: a word the officer does not see. */
static void log_cut(int y, const char *safe, const char *rest)
{
	if (!cut_log || !rest[strspn(rest, " ")])
		return;
	fprintf(cut_log, "cut %d: %s\n", y, safe);
	fflush(cut_log);
}

static int draw_text_at(int y, int x, int w, const char *safe, attr_t a,
			bool clip)
{
	const char *whole = safe;
	wchar_t buf[256];
	mbstate_t st;
	int used = 0, n = 0;

	if (w <= 0 || y < 0 || y >= LINES || x >= COLS)
		return 0;
	if (x + w > COLS)
		w = COLS - x;
	memset(&st, 0, sizeof(st));
	attrset(a);
	move(y, x);
	while (*safe) {
		wchar_t wc;
		size_t k = next_wc(safe, &wc, &st);
		int c = wcwidth(wc);
		if (c < 0) {
			wc = L'?';
			c = 1;
		}
		if (used + c > w) {
			if (!clip)
				log_cut(y, whole, safe);
			break;
		}
		if (n == (int)ARRAY_SIZE(buf) - 1) {
			addnwstr(buf, n);
			n = 0;
		}
		buf[n++] = wc;
		used += c;
		safe += k;
	}
	if (n)
		addnwstr(buf, n);
	attrset(A_NORMAL);
	return used;
}

int draw_text(int y, int x, int w, const char *safe, attr_t a)
{
	return draw_text_at(y, x, w, safe, a, false);
}

int draw_text_clip(int y, int x, int w, const char *safe, attr_t a)
{
	return draw_text_at(y, x, w, safe, a, true);
}

int draw_untrusted(int y, int x, int w, const char *raw, attr_t a)
{
	char *s = safe_str(raw);
	/* A subject or a name in a column: cut by design (shown whole
	 * where the report is opened), so not logged. */
	int r = draw_text_clip(y, x, w, s, a);

	free(s);
	return r;
}

void draw_fill(int y, int x, int w, attr_t a)
{
	if (y < 0 || y >= LINES)
		return;
	if (x + w > COLS)
		w = COLS - x;
	attrset(a);
	for (int i = 0; i < w; i++)
		mvaddch(y, x + i, ' ');
	attrset(A_NORMAL);
}
