/*
 * The team's numbers (`#`, or `:stats`): stats.h's figures as bar
 * charts drawn with text, one bar per month (the last twelve), state and
 * subsystem (the top ten), the days to triage, fix and disclose, the
 * long embargoes and what is overdue now.  Bars scale to the widest of
 * their chart and the window's width; at 80 columns a label, a count and
 * a bar of up to 52 cells fit.  Reloaded when the data changes.
 */
#include <stdlib.h>
#include <string.h>

#include "tui/tui-int.h"
#include "core/core.h"
#include "core/stats.h"

#define LABEL_W 14
#define MONTHS_SHOWN 12
#define SUBSYSTEMS_SHOWN 10

struct stats_view {
	struct tui_lines lines;
	int width; /* COLS when built */
};

static int height(void)
{
	return LINES - 2 > 1 ? LINES - 2 : 1;
}

static void add(struct stats_view *p, attr_t a, const char *fmt, ...)
	UTIL_PRINTF(3, 4);
static void add(struct stats_view *p, attr_t a, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	lines_add(&p->lines, s, a, 1);
	free(s);
}

/* A bar of n against max over width cells: full blocks, or '#'. */
static char *bar(struct tui *t, size_t n, size_t max, int width)
{
	size_t cells = max ? (n * (size_t)width + max - 1) / max : 0;
	struct sbuf sb = SBUF_INIT;

	for (size_t i = 0; i < cells; i++)
		sbuf_adds(&sb, t->utf8 ? "\xe2\x96\x88" : "#");
	return sbuf_detach(&sb, NULL);
}

static void chart(struct tui *t, struct stats_view *p, const char *title,
		  const struct stats_count *v, size_t n, attr_t color)
{
	int w = p->width - LABEL_W - 14;
	size_t max = 0;

	if (w < 5)
		w = 5;
	add(p, A_BOLD, "%s", title);
	for (size_t i = 0; i < n; i++)
		max = v[i].n > max ? v[i].n : max;
	for (size_t i = 0; i < n; i++) {
		char *name = safe_str(v[i].name), *b = bar(t, v[i].n, max, w);
		add(p, color, "  %-*.*s %6zu %s", LABEL_W, LABEL_W, name,
		    v[i].n, b);
		free(name);
		free(b);
	}
	if (!n)
		add(p, A_DIM, "  (none)");
}

static void days(struct tui *t, struct stats_view *p,
		 const struct team_stats *st)
{
	const struct {
		const char *what;
		const struct stats_days *d;
	} rows[] = {
		{ "to triage", &st->triage },
		{ "to fix", &st->fix },
		{ "to disclose", &st->disclose },
	};
	double max = 0;
	int w = p->width - LABEL_W - 40;

	if (w < 5)
		w = 5;
	add(p, A_BOLD, "Days from receipt: median (bar), 90th percentile");
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
		max = rows[i].d->p90 > max ? rows[i].d->p90 : max;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct stats_days *d = rows[i].d;
		char *b;
		if (!d->n) {
			add(p, A_DIM, "  %-*s      - (no report yet)", LABEL_W,
			    rows[i].what);
			continue;
		}
		b = bar(t, (size_t)(d->median * 10 + 0.5),
			(size_t)(max * 10 + 0.5), w);
		add(p, draw_color(t, CP_CYAN),
		    "  %-*s %6.1f  p90 %6.1f  (%zu)  %s", LABEL_W, rows[i].what,
		    d->median, d->p90, d->n, b);
		free(b);
	}
}

static void build(struct tui *t, struct stats_view *p)
{
	struct team_stats st;
	struct err err = { 0, "" };
	size_t skip;

	lines_release(&p->lines);
	p->width = COLS;
	if (team_stats_compute(t->ctx->sess, &st, &err) < 0) {
		char *e = safe_str(err.msg);
		add(p, draw_color(t, CP_RED) | A_BOLD,
		    "cannot compute the numbers: %s", e);
		free(e);
		return;
	}
	add(p, A_BOLD, "%zu reports, %zu overdue now", st.reports, st.noverdue);
	add(p, A_NORMAL,
	    "Decided embargoes: %zu; longer than 7 days: %zu, than 14: %zu",
	    st.decided, st.over7, st.over14);
	lines_add(&p->lines, "", A_NORMAL, 1);
	skip = st.nmonths > MONTHS_SHOWN ? st.nmonths - MONTHS_SHOWN : 0;
	chart(t, p, "Reports per month received", st.months + skip,
	      st.nmonths - skip, draw_color(t, CP_GREEN));
	chart(t, p, "By state", st.states, st.nstates,
	      draw_color(t, CP_YELLOW));
	chart(t, p, "By subsystem (top folder of the touched files)",
	      st.subsystems,
	      st.nsubsystems < SUBSYSTEMS_SHOWN ? st.nsubsystems
						: SUBSYSTEMS_SHOWN,
	      draw_color(t, CP_MAGENTA));
	days(t, p, &st);
	if (st.noverdue) {
		struct sbuf sb = SBUF_INIT;
		for (size_t i = 0; i < st.noverdue && i < 20; i++)
			sbuf_addf(&sb, " #%lld", (long long)st.overdue[i]);
		add(p, draw_color(t, CP_RED) | A_BOLD, "Overdue now:%s%s",
		    sb.buf, st.noverdue > 20 ? " ..." : "");
		sbuf_release(&sb);
	}
	team_stats_release(&st);
}

static void stats_draw(struct tui *t, struct tui_view *v)
{
	struct stats_view *p = v->priv;

	if (p->width != COLS)
		build(t, p);
	tui_title(t, " team numbers  (j/k scroll; q goes back)");
	lines_draw(t, &p->lines, 1, height(), 0);
}

static void stats_reload(struct tui *t, struct tui_view *v)
{
	struct stats_view *p = v->priv;
	size_t top = p->lines.top;

	build(t, p);
	p->lines.top = top < p->lines.n ? top : 0;
}

static void stats_close(struct tui *t, struct tui_view *v)
{
	struct stats_view *p = v->priv;

	(void)t;
	lines_release(&p->lines);
	free(p);
}

static const struct tui_view_ops stats_ops = {
	.name = "stats",
	.draw = stats_draw,
	.height = height,
	.reload = stats_reload,
	.close = stats_close,
};

struct tui_view *view_stats_new(struct tui *t)
{
	struct stats_view *p = xcalloc(1, sizeof(*p));

	build(t, p);
	return tui_pager_alloc(V_STATS, &stats_ops, p, 0, &p->lines);
}
