/*
 * The panels' common machinery (panel.h): lines with items under a
 * cursor, drawn, moved, searched and reloaded the same way for the
 * participants, vendors and disclosure views.  Every string from a
 * report, MAINTAINERS or the directory is made safe with safe_str()
 * before it becomes a line.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tui/panel.h"

void panel_add(struct tui_lines *l, attr_t a, const char *fmt, ...)
{
	va_list ap;
	char *safe;

	va_start(ap, fmt);
	safe = safe_vformat(fmt, ap);
	va_end(ap);
	/* Wrapped, never cut: the rows below go 4 columns in. */
	lines_add_hanging(l, safe, COLS, 4, a, 1);
	free(safe);
}

void panel_item(struct panel *p, enum item_kind kind, const char *key,
		const char *label)
{
	p->items = xrealloc(p->items, (p->nitems + 1) * sizeof(*p->items));
	p->items[p->nitems].line = p->lines.n;
	p->items[p->nitems].kind = kind;
	p->items[p->nitems].key = xstrdup(key ? key : "");
	p->items[p->nitems].label = xstrdup(label ? label : key ? key : "");
	p->items[p->nitems].list = false;
	p->nitems++;
}

static void items_release(struct panel *p)
{
	for (size_t i = 0; i < p->nitems; i++) {
		free(p->items[i].key);
		free(p->items[i].label);
	}
	free(p->items);
	p->items = NULL;
	p->nitems = 0;
}

const char *panel_day(time_t t, char buf[static 32])
{
	if (!t)
		return "-";
	fmt_rfc3339(t, buf);
	buf[10] = 0;
	return buf;
}

long panel_checked_find(const struct panel *p, const char *email)
{
	for (size_t i = 0; i < p->nchecked; i++)
		if (!str_cmp_ci(p->checked[i], email))
			return (long)i;
	return -1;
}

void panel_checked_clear(struct panel *p)
{
	for (size_t i = 0; i < p->nchecked; i++)
		free(p->checked[i]);
	free(p->checked);
	p->checked = NULL;
	p->nchecked = 0;
}

/* --- the view ------------------------------------------------------------*/

static int height(void)
{
	return LINES - 2 > 1 ? LINES - 2 : 1;
}

static void show_cursor(struct panel *p, int h)
{
	size_t line;

	if (!p->nitems)
		return;
	line = p->items[p->cur].line;
	if (line < p->lines.top)
		p->lines.top = line;
	else if (line >= p->lines.top + (size_t)h)
		p->lines.top = line - (size_t)h + 1;
}

void panel_reload(struct tui *t, struct tui_view *v)
{
	struct panel *p = v->priv;
	size_t top = p->lines.top, cur = p->cur;
	char *key = p->nitems ? xstrdup(p->items[p->cur].key) : NULL;
	enum item_kind kind = p->nitems ? p->items[p->cur].kind : IT_PART;

	lines_release(&p->lines);
	items_release(p);
	p->fill(t, v, p);
	p->lines.top = top < p->lines.n ? top : 0;
	p->cur = cur < p->nitems ? cur : p->nitems ? p->nitems - 1 : 0;
	for (size_t i = 0; key && i < p->nitems; i++)
		if (p->items[i].kind == kind && !strcmp(p->items[i].key, key))
			p->cur = i;
	free(key);
	show_cursor(p, height());
}

static void panel_draw(struct tui *t, struct tui_view *v)
{
	struct panel *p = v->priv;

	tui_title(t, " %s of report %lld", p->title, (long long)v->report_id);
	lines_draw(t, &p->lines, 1, height(), 0);
	if (p->nitems) {
		size_t line = p->items[p->cur].line;
		if (line >= p->lines.top &&
		    line < p->lines.top + (size_t)height()) {
			int y = 1 + (int)(line - p->lines.top);
			draw_fill(y, 0, COLS, A_REVERSE);
			draw_text(y, 0, COLS, p->lines.line[line],
				  p->lines.attr[line] | A_REVERSE);
		}
	}
}

static int panel_move(struct tui *t, struct tui_view *v, enum tui_motion m)
{
	struct panel *p = v->priv;
	int h = height(), r;

	(void)t;
	if (p->nitems && m == M_DOWN && p->cur + 1 < p->nitems) {
		p->cur++;
		show_cursor(p, h);
		return TUI_REDRAW;
	}
	if (p->nitems && m == M_UP && p->cur > 0) {
		p->cur--;
		show_cursor(p, h);
		return TUI_REDRAW;
	}
	r = lines_move(&p->lines, h, m);
	if (!p->nitems)
		return r;
	if (m == M_TOP)
		p->cur = 0;
	else if (m == M_BOTTOM)
		p->cur = p->nitems - 1;
	/* Keep the cursor on the screen after a page. */
	while (p->items[p->cur].line < p->lines.top && p->cur + 1 < p->nitems)
		p->cur++;
	while (p->items[p->cur].line >= p->lines.top + (size_t)h && p->cur > 0)
		p->cur--;
	return TUI_REDRAW;
}

static int panel_search(struct tui *t, struct tui_view *v, int dir, bool fresh)
{
	struct panel *p = v->priv;

	if (lines_search(&p->lines, t->search, dir, fresh) < 0) {
		tui_status(t, true, "not found: %s", t->search);
		return TUI_REDRAW;
	}
	for (size_t i = 0; i < p->nitems; i++)
		if ((long)p->items[i].line <= p->lines.hl)
			p->cur = i;
	return TUI_REDRAW;
}

static void panel_close(struct tui *t, struct tui_view *v)
{
	struct panel *p = v->priv;

	(void)t;
	lines_release(&p->lines);
	items_release(p);
	panel_checked_clear(p);
	maint_suggestions_release(&p->sug);
	free(p);
}

static const struct tui_view_ops panel_ops = {
	.name = "panel",
	.draw = panel_draw,
	.motion = panel_move,
	.search = panel_search,
	.reload = panel_reload,
	.close = panel_close,
};

struct tui_view *
panel_new(struct tui *t, int64_t id, enum tui_view_id vid, const char *title,
	  void (*fill)(struct tui *, struct tui_view *, struct panel *))
{
	struct panel *p = xcalloc(1, sizeof(*p));
	struct tui_view *v = tui_view_alloc(vid, &panel_ops, p, id);

	p->lines.hl = -1;
	p->fill = fill;
	p->title = title;
	panel_reload(t, v);
	return v;
}

struct item *panel_cursor(struct tui *t, enum tui_view_id vid,
			  enum item_kind kind, const char *what)
{
	struct tui_view *v = tui_top(t);
	struct panel *p;

	if (v->id != vid) {
		tui_status(t, true, "only in the %s panel",
			   keys_view_name(vid));
		return NULL;
	}
	p = v->priv;
	if (!p->nitems || p->items[p->cur].kind != kind) {
		tui_status(t, true, "move the cursor (j/k) to %s first", what);
		return NULL;
	}
	return &p->items[p->cur];
}
