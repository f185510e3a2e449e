/*
 * Help (`?`): generated from the key table and the config's bind lines
 * for the view it was opened from, then the UI verbs without a key and the
 * core commands the `:` line takes (from cmd_table[] at run time).
 */
#include <stdlib.h>
#include <string.h>

#include "tui/tui-int.h"

struct help {
	struct tui_lines lines;
	enum tui_view_id for_view;
};

static void add(struct help *p, attr_t a, const char *fmt, ...)
	UTIL_PRINTF(3, 4);
static void add(struct help *p, attr_t a, const char *fmt, ...)
{
	va_list ap;
	char *s, *safe;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	safe = safe_str(
		s); /* config lines are the officer's, still made safe */
	/* Wrapped under the description column (KEY and NAME take 34),
	 * never cut. */
	lines_add_hanging(&p->lines, safe, COLS, 34, a, 1);
	free(safe);
	free(s);
}

/* The list's V column, first in the list's help: what each mark says. */
static void add_marks(struct tui *t, struct help *p)
{
	add(p, A_BOLD, "Signature marks in the V column");
	for (size_t i = 0; i < tui_verdict_marks_len; i++) {
		const struct tui_verdict_mark *m = &tui_verdict_marks[i];
		add(p, A_NORMAL, "  %s  %s", t->utf8 ? m->utf8 : m->ascii,
		    m->meaning);
	}
	lines_add(&p->lines, "", A_NORMAL, 1);
	add(p, A_BOLD,
	    "Marks in the DUE column (days to the deadline, +7d or -3d)");
	for (const struct embargo_due_mark *m = embargo_due_marks; m->mark; m++)
		add(p, A_NORMAL, "  %s  %s", m->mark, m->meaning);
	lines_add(&p->lines, "", A_NORMAL, 1);
}

static void build(struct tui *t, struct help *p)
{
	unsigned bit = VBIT(p->for_view);

	if (p->for_view == V_REPORTS)
		add_marks(t, p);
	add(p, A_BOLD, "Keys in the %s view", keys_view_name(p->for_view));
	for (size_t i = 0; i < t->nbinds; i++)
		if (t->binds[i].views & bit)
			add(p, A_NORMAL, "  %-16s %-14s %s",
			    keys_name(t->binds[i].key), "(config)",
			    t->binds[i].command);
	for (size_t i = 0; i < tui_key_table_len; i++) {
		const struct tui_key_entry *e = &tui_key_table[i];
		struct sbuf keys = SBUF_INIT;
		char *copy, *save = NULL;
		if (!(e->views & bit) || !*e->keys)
			continue;
		copy = xstrdup(e->keys);
		for (char *w = strtok_r(copy, " ", &save); w;
		     w = strtok_r(NULL, " ", &save))
			/* A key an earlier row takes in this view is not this row's. */
			if (keys_table_row(p->for_view, keys_from_name(w)) == e)
				sbuf_addf(&keys, "%s%s", keys.len ? ", " : "",
					  w);
		free(copy);
		if (!keys.len)
			continue;
		add(p, A_NORMAL, "  %-16s %-14s %s%s%s%s", keys.buf, e->name,
		    e->help, e->command ? "  [" : "",
		    e->command ? e->command : "", e->command ? "]" : "");
		sbuf_release(&keys);
	}
	lines_add(&p->lines, "", A_NORMAL, 1);
	add(p, A_BOLD, "UI commands for the : line");
	for (size_t i = 0; i < tui_key_table_len; i++) {
		const struct tui_key_entry *e = &tui_key_table[i];
		if (e->handler && !*e->keys)
			add(p, A_NORMAL, "  :%-15s %s", e->name, e->help);
	}
	lines_add(&p->lines, "", A_NORMAL, 1);
	add(p, A_BOLD,
	    "secteam-tui commands for the : line (the open report's id is added when omitted)");
	for (size_t i = 0; i < cmd_table_len; i++)
		add(p, A_NORMAL, "  :%-15s %s", cmd_table[i]->name,
		    cmd_table[i]->help);
	lines_add(&p->lines, "", A_NORMAL, 1);
	add(p, A_DIM,
	    "Rebind in the config: bind VIEW KEY COMMAND (views: reports report participants");
	add(p, A_DIM,
	    "vendors disclosure timeline calendar help all); commands run on the current report");
}

static int height(void)
{
	return LINES - 2 > 1 ? LINES - 2 : 1;
}

static void help_draw(struct tui *t, struct tui_view *v)
{
	struct help *p = v->priv;

	tui_title(t, " help: %s view  (q to go back)",
		  keys_view_name(p->for_view));
	lines_draw(t, &p->lines, 1, height(), 0);
}

static void help_close(struct tui *t, struct tui_view *v)
{
	(void)t;
	lines_release(&((struct help *)v->priv)->lines);
	free(v->priv);
}

static int64_t help_current(struct tui *t, struct tui_view *v)
{
	(void)v;
	/* The report of the view below, so %i still works from help. */
	return t->depth > 1 && t->stack[t->depth - 2]->ops->current
		? t->stack[t->depth - 2]->ops->current(t,
						       t->stack[t->depth - 2])
		: t->depth > 1 ? t->stack[t->depth - 2]->report_id
			       : 0;
}

static const struct tui_view_ops help_ops = {
	.name = "help",
	.draw = help_draw,
	.height = height,
	.close = help_close,
	.current = help_current,
};

struct tui_view *view_help_new(struct tui *t, enum tui_view_id for_view)
{
	struct help *p = xcalloc(1, sizeof(*p));
	struct tui_view *v =
		tui_pager_alloc(V_HELP, &help_ops, p, 0, &p->lines);

	p->for_view = for_view;
	build(t, p);
	return v;
}

void tui_keys_roff(FILE *out)
{
	for (size_t i = 0; i < tui_key_table_len; i++) {
		const struct tui_key_entry *e = &tui_key_table[i];
		struct sbuf views = SBUF_INIT;
		if (!*e->keys)
			continue;
		for (int v = 0; v < V_COUNT; v++)
			if (e->views & VBIT(v))
				sbuf_addf(&views, "%s%s", views.len ? ", " : "",
					  keys_view_name((enum tui_view_id)v));
		fputs(".TP\n.B ", out);
		cmd_roff_text(out, e->keys);
		fputs("\n", out);
		cmd_roff_text(out, e->help);
		fputs(" (", out);
		cmd_roff_text(out, views.buf ? views.buf : "");
		fputs(")", out);
		if (e->command) {
			fputs(": runs\n.BR \"", out);
			cmd_roff_text(out, e->command);
			fputs("\" .", out);
		}
		fputs("\n", out);
		sbuf_release(&views);
	}
}

/* A mark as roff: ASCII as text, a UTF-8 character as \[uXXXX]. */
static void roff_mark(FILE *out, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	if (u[0] < 0x80) {
		cmd_roff_text(out, s);
		return;
	}
	if ((u[0] & 0xf0) == 0xe0 && u[1] && u[2])
		fprintf(out, "\\[u%04X]",
			((u[0] & 0x0fu) << 12) | ((u[1] & 0x3fu) << 6) |
				(u[2] & 0x3fu));
	else if ((u[0] & 0xe0) == 0xc0 && u[1])
		fprintf(out, "\\[u%04X]",
			((u[0] & 0x1fu) << 6) | (u[1] & 0x3fu));
}

void tui_marks_roff(FILE *out)
{
	for (size_t i = 0; i < tui_verdict_marks_len; i++) {
		const struct tui_verdict_mark *m = &tui_verdict_marks[i];

		fputs(".TP\n.B ", out);
		roff_mark(out, m->utf8);
		if (strcmp(m->utf8, m->ascii)) {
			fputs(" \\fR(", out);
			cmd_roff_text(out, m->ascii);
			fputs(" without UTF\\-8)", out);
		}
		fputs("\n", out);
		cmd_roff_text(out, m->meaning);
		fputs("\n", out);
	}
}
