/*
 * The pager: the output of a `:` command that printed what it shows
 * (`:show 3`, `:list --open`, `:export 1 --format md`), as mutt shows a
 * command's output.  j/k and the page keys move, / and n/N search, q goes
 * back.  The text is made safe line by line (it may quote a report) and
 * wiped when the view closes (it may hold a decrypted body).
 */
#include <stdlib.h>
#include <string.h>

#include "tui/tui-int.h"

struct pager {
	struct tui_lines lines;
	char *title; /* display-safe */
};

static int height(void)
{
	return LINES - 2 > 1 ? LINES - 2 : 1;
}

static void pager_draw(struct tui *t, struct tui_view *v)
{
	struct pager *p = v->priv;

	tui_title(t, " :%s  (%zu line%s; q goes back)", p->title, p->lines.nsrc,
		  p->lines.nsrc == 1 ? "" : "s");
	lines_draw(t, &p->lines, 1, height(), 0);
}

static void pager_close(struct tui *t, struct tui_view *v)
{
	struct pager *p = v->priv;

	(void)t;
	lines_release(&p->lines);
	free(p->title);
	free(p);
}

static const struct tui_view_ops pager_ops = {
	.name = "pager",
	.draw = pager_draw,
	.height = height,
	.close = pager_close,
};

struct tui_view *view_pager_new(struct tui *t, const char *title,
				const char *text, size_t len)
{
	struct pager *p = xcalloc(1, sizeof(*p));
	char *safe = safe_text(text ? text : "", len,
			       SAFE_KEEP_NEWLINE | SAFE_KEEP_TAB);

	(void)t;
	p->lines.wipe = true;
	p->title = xstrdup(title);
	lines_add_wrapped(&p->lines, safe, COLS > 10 ? COLS : 10, A_NORMAL,
			  LINE_BODY);
	wipe_free(safe, strlen(safe));
	return tui_pager_alloc(V_PAGER, &pager_ops, p, 0, &p->lines);
}
