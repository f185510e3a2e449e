/*
 * The timeline of one report: its events, newest first, each with its
 * time, the officer who acted, the kind and the detail (made safe: event
 * details can quote a subject or a note); last, when the report's mail
 * was received, which the "import" event (when it was imported) is not.
 * Rereads the events whenever a command changed the data, so an action
 * shows up here at once.
 */
#include <stdlib.h>
#include <string.h>

#include "tui/tui-int.h"

struct timeline {
	struct tui_lines lines;
	size_t nevents;
	char *head; /* the header row, in the rows' widths */
};

/* The columns: WHEN as wide as the dates, OFFICER at most 16 (cut with
 * "…"), KIND as wide as the longest kind (participant-add), at most 24. */
static const char *const timeline_head[] = { "WHEN", "OFFICER", "KIND",
					     "DETAIL" };
static const int timeline_max[] = { 0, 16, 24, 0 };

/* rf's events, newest first, as lines of a table; *head is its header
 * row (caller frees): both come from the same widths.  The oldest line
 * is when the report's mail was received (its Date), apart from the
 * "import" event, when the team imported it. */
void timeline_table(const struct report_full *rf, struct tui_lines *lines,
		    char **head)
{
	struct text_table tab;
	int w[4];

	text_table_init(&tab, 4, timeline_head, timeline_max);
	for (size_t i = rf->nevents; i-- > 0;) {
		const struct event *e = &rf->events[i];
		char when[64], *o = safe_str(e->officer),
			       *k = safe_str(e->kind), *d = safe_str(e->detail);
		const char *row[] = { fmt_local(e->at, when), o, k, d };
		text_table_add(&tab, row);
		free(o);
		free(k);
		free(d);
	}
	if (rf->r.received) {
		char when[64];
		const char *row[] = { fmt_local(rf->r.received, when), "-",
				      "received", report_received_source(rf) };
		text_table_add(&tab, row);
	}
	text_table_widths(&tab, w);
	*head = text_table_line(&tab, w, TEXT_TABLE_HEAD);
	/* A long detail goes on below, under its column: never cut. */
	const char *dcol = strstr(*head, "DETAIL");
	int indent = dcol ? (int)(dcol - *head) : 4;
	for (size_t r = 0; r < tab.nrows; r++) {
		char *s = text_table_line(&tab, w, r);
		lines_add_hanging(lines, s, COLS, indent, A_NORMAL, 1);
		free(s);
	}
	text_table_release(&tab);
}

static void timeline_reload(struct tui *t, struct tui_view *v)
{
	struct timeline *p = v->priv;
	struct report_full rf;
	struct err err = { 0, "" };
	size_t top = p->lines.top;

	lines_release(&p->lines);
	if (report_load(t->ctx->sess, v->report_id, &rf, &err) < 0) {
		tui_status(t, true, "%s", err.msg);
		report_full_release(&rf);
		return;
	}
	p->nevents = rf.nevents;
	free(p->head);
	timeline_table(&rf, &p->lines, &p->head);
	if (!rf.nevents)
		lines_add(&p->lines, "no events yet", A_DIM, 1);
	report_full_release(&rf);
	p->lines.top = top < p->lines.n ? top : 0;
}

static int height(void)
{
	return LINES - 3 > 1 ? LINES - 3 : 1;
}

static void timeline_draw(struct tui *t, struct tui_view *v)
{
	struct timeline *p = v->priv;

	tui_title(t, " timeline of report %lld: %zu event%s, newest first",
		  (long long)v->report_id, p->nevents,
		  p->nevents == 1 ? "" : "s");
	draw_text(1, 0, COLS, p->head ? p->head : "", A_BOLD | A_UNDERLINE);
	lines_draw(t, &p->lines, 2, height(), 0);
}

static void timeline_close(struct tui *t, struct tui_view *v)
{
	(void)t;
	lines_release(&((struct timeline *)v->priv)->lines);
	free(((struct timeline *)v->priv)->head);
	free(v->priv);
}

static const struct tui_view_ops timeline_ops = {
	.name = "timeline",
	.draw = timeline_draw,
	.height = height,
	.reload = timeline_reload,
	.close = timeline_close,
};

struct tui_view *view_timeline_new(struct tui *t, int64_t id)
{
	struct timeline *p = xcalloc(1, sizeof(*p));
	struct tui_view *v =
		tui_pager_alloc(V_TIMELINE, &timeline_ops, p, id, &p->lines);

	timeline_reload(t, v);
	return v;
}
