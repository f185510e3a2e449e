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
};

/* The oldest line: when the report's mail was received (its Date),
 * apart from the "import" event, when the team imported it. */
static void received_line(struct timeline *p, const struct report_full *rf)
{
	char when[64], *s;

	s = xasprintf("%s  %-12s %-10s %s", fmt_local(rf->r.received, when), "-",
		      "received", report_received_source(rf));
	lines_add(&p->lines, s, A_NORMAL, 1);
	free(s);
}

static void timeline_reload(struct tui *t, struct tui_view *v)
{
	struct timeline *p = v->priv;
	struct report_full rf;
	struct err err = { 0, "" };
	size_t top = p->lines.top;

	lines_release(&p->lines);
	if (report_load(t->ctx, v->report_id, &rf, &err) < 0) {
		tui_status(t, true, "%s", err.msg);
		report_full_release(&rf);
		return;
	}
	p->nevents = rf.nevents;
	for (size_t i = rf.nevents; i-- > 0;) {
		const struct event *e = &rf.events[i];
		char when[64], *o = safe_str(e->officer), *k = safe_str(e->kind),
			       *d = safe_str(e->detail), *s;
		s = xasprintf("%s  %-12s %-10s %s", fmt_local(e->at, when), o, k, d);
		lines_add(&p->lines, s, A_NORMAL, 1);
		free(s);
		free(o);
		free(k);
		free(d);
	}
	if (!rf.nevents)
		lines_add(&p->lines, "no events yet", A_DIM, 1);
	received_line(p, &rf);
	report_full_release(&rf);
	p->lines.top = top < p->lines.n ? top : 0;
}

static int height(void) { return LINES - 3 > 1 ? LINES - 3 : 1; }

static void timeline_draw(struct tui *t, struct tui_view *v)
{
	struct timeline *p = v->priv;

	tui_title(t, " timeline of report %lld: %zu event%s, newest first", (long long)v->report_id,
		  p->nevents, p->nevents == 1 ? "" : "s");
	draw_text(1, 0, COLS, "WHEN              OFFICER      KIND       DETAIL", A_BOLD | A_UNDERLINE);
	lines_draw(t, &p->lines, 2, height(), 0);
}

static int timeline_move(struct tui *t, struct tui_view *v, enum tui_motion m)
{
	(void)t;
	return lines_move(&((struct timeline *)v->priv)->lines, height(), m);
}

static int timeline_search(struct tui *t, struct tui_view *v, int dir, bool fresh)
{
	struct timeline *p = v->priv;

	if (lines_search(&p->lines, t->search, dir, fresh) < 0)
		tui_status(t, true, "not found: %s", t->search);
	return TUI_REDRAW;
}

static void timeline_close(struct tui *t, struct tui_view *v)
{
	(void)t;
	lines_release(&((struct timeline *)v->priv)->lines);
	free(v->priv);
}

static const struct tui_view_ops timeline_ops = {
	"timeline", timeline_draw, timeline_move, NULL, timeline_search,
	timeline_reload, timeline_close, NULL, NULL,
};

struct tui_view *view_timeline_new(struct tui *t, int64_t id)
{
	struct tui_view *v = xcalloc(1, sizeof(*v));
	struct timeline *p = xcalloc(1, sizeof(*p));

	p->lines.hl = -1;
	v->id = V_TIMELINE;
	v->ops = &timeline_ops;
	v->priv = p;
	v->report_id = id;
	timeline_reload(t, v);
	return v;
}
