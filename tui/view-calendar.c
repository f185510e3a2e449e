/*
 * The embargo calendar: every report under embargo as a horizontal bar on a day
 * axis, from the start of its embargo (the release process, else the day
 * it was received) to its decided disclosure date, or to the policy's
 * default (start + 7 days, drawn lighter) when none is decided.  Today is
 * a column of its own; the 7- and 14-day policy limits are marked on each
 * bar (the part past 7 days changes shade, past 14 it turns to "!"), and
 * on the axis counted from today, so the coming two weeks read at a
 * glance.  The end is the deadline embargo.c gives; an overdue report
 * (its date or its default passed, not disclosed) is marked "!" after
 * its end and its bar runs on, in red, up to today, so it never drops
 * off the left of the axis.  Sorted by end date; Enter opens the report.
 */
#include <stdlib.h>
#include <string.h>

#include "tui/tui-int.h"

#define LABEL_W 28
#define DAY 86400

struct cal_row {
	int64_t id;
	time_t start, end; /* end: the embargo deadline (embargo.c) */
	bool decided, overdue;
};

struct calendar {
	struct cal_row *rows;
	size_t n, sel, top;
	size_t nopen;
};

static int cmp_rows(const void *a, const void *b)
{
	const struct cal_row *x = a, *y = b;

	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* A report's bar from its key: the clock start to the deadline that
 * embargo.c gives (the decided date, else the policy's default).  False
 * for a report under no embargo (closed, disclosed, already public):
 * it has no bar. */
static bool row_of(const struct policy *pol, const struct report_key *k,
		   time_t now, struct cal_row *r)
{
	struct embargo e;

	embargo_of_key(pol, k, now, &e);
	r->id = k->id;
	r->start = k->release_started ? k->release_started : k->received;
	r->decided = e.decided;
	r->end = e.deadline;
	r->overdue = e.state == EMBARGO_OVERDUE;
	return embargo_active(&e);
}

static void cal_reload(struct tui *t, struct tui_view *v)
{
	struct calendar *p = v->priv;
	struct report_key *k;
	struct err err = { 0, "" };
	int64_t keep = p->n ? p->rows[p->sel].id : 0;
	size_t n;
	struct policy pol;
	time_t now = util_now();

	policy_from_config(t->ctx->sess->cfg, &pol);
	free(p->rows);
	p->rows = NULL;
	p->n = 0;
	if (report_keys(t->ctx->sess, &k, &n, &err) < 0) {
		tui_status(t, true, "%s", err.msg);
		return;
	}
	p->rows = xcalloc(n + 1, sizeof(*p->rows));
	for (size_t i = 0; i < n; i++)
		if (row_of(&pol, &k[i], now, &p->rows[p->n]))
			p->n++;
	free(k);
	qsort(p->rows, p->n, sizeof(*p->rows), cmp_rows);
	p->sel = 0;
	for (size_t i = 0; keep && i < p->n; i++)
		if (p->rows[i].id == keep)
			p->sel = i;
}

/* Colleagues changed these reports: each one's bar is taken out and,
 * while the report is open, drawn again from its key. */
static void cal_changed(struct tui *t, struct tui_view *v, const int64_t *ids,
			size_t n)
{
	struct calendar *p = v->priv;
	int64_t keep = p->n ? p->rows[p->sel].id : 0;
	struct policy pol;
	time_t now = util_now();

	policy_from_config(t->ctx->sess->cfg, &pol);
	for (size_t i = 0; i < n; i++) {
		struct report_key k;
		struct err err = { 0, "" };
		size_t j = 0;

		if (!ids[i])
			continue;
		while (j < p->n && p->rows[j].id != ids[i])
			j++;
		if (j < p->n)
			p->rows[j] = p->rows[--p->n];
		if (report_key(t->ctx->sess, ids[i], &k, &err) < 0)
			continue;
		p->rows = xrealloc(p->rows, (p->n + 1) * sizeof(*p->rows));
		if (row_of(&pol, &k, now, &p->rows[p->n]))
			p->n++;
	}
	qsort(p->rows, p->n, sizeof(*p->rows), cmp_rows);
	p->sel = 0;
	for (size_t i = 0; keep && i < p->n; i++)
		if (p->rows[i].id == keep)
			p->sel = i;
	v->gen = t->gen;
}

/* The legend, in two halves: on two rows when one does not hold it. */
static const char legend_a_utf8[] =
	"\xe2\x96\x88 within the default  \xe2\x96\x93 past the default  ! past the maximum";
static const char legend_b_utf8[] =
	"\xe2\x96\x91 no date decided (ends at the default)  ?/! undecided/overdue";
static const char legend_a_ascii[] =
	"# within the default  = past the default  ! past the maximum";
static const char legend_b_ascii[] =
	". no date decided (ends at the default)  ?/! undecided/overdue";
/* The legend's width on one row (the UTF-8 and ASCII forms are as wide). */
static int legend_rows(void)
{
	return (int)strlen(legend_a_ascii) + 2 + (int)strlen(legend_b_ascii) <=
			COLS
		? 1
		: 2;
}
static int height(void)
{
	int h = LINES - 3 - legend_rows();

	return h > 1 ? h : 1;
}

/* Midnight UTC of t's day. */
static time_t day_of(time_t t)
{
	return t - ((t % DAY) + DAY) % DAY;
}

/* What every row of one drawing shares: the days shown, the policy's
 * limits and the glyphs of this terminal. */
struct cal_axis {
	time_t today, axis0; /* the first day shown: two days ago */
	int ndays, cw; /* how many days, cells per day */
	struct policy pol;
	char lim1[8], lim2[8]; /* the limits, as the axis marks them */
	const char *full, *mid, *light, *vline;
};

static void axis_init(struct tui *t, struct cal_axis *ax)
{
	int avail = COLS - LABEL_W;

	ax->today = day_of(util_now());
	ax->axis0 = ax->today - 2 * DAY;
	ax->cw = avail >= 2 * 21 ? 2 : 1;
	ax->ndays = avail / ax->cw > 1 ? avail / ax->cw : 1;
	policy_from_config(t->ctx->sess->cfg, &ax->pol);
	snprintf(ax->lim1, sizeof(ax->lim1), "%ld", ax->pol.default_days);
	snprintf(ax->lim2, sizeof(ax->lim2), "%ld", ax->pol.max_days);
	ax->full = t->utf8 ? "\xe2\x96\x88" : "#"; /* within 7 days */
	ax->mid = t->utf8 ? "\xe2\x96\x93" : "="; /* 7..14 days */
	ax->light = t->utf8 ? "\xe2\x96\x91" : "."; /* undecided */
	ax->vline = t->utf8 ? "\xe2\x94\x82" : "|";
}

/* Day numbers every 7 days and at today; the marks on the next row. */
static void draw_axis(struct tui *t, const struct cal_axis *ax)
{
	char buf[16];

	draw_text(1, 0, LABEL_W, "    ID END   SUBJECT", A_BOLD);
	draw_text(2, 0, LABEL_W, "", A_NORMAL);
	for (int d = 0; d < ax->ndays; d++) {
		time_t day = ax->axis0 + (time_t)d * DAY;
		long rel = (long)((day - ax->today) / DAY);
		int x = LABEL_W + d * ax->cw;
		struct tm tm;

		gmtime_r(&day, &tm);
		if (rel >= 0 && rel % 7 == 0 && x + 5 <= COLS) {
			snprintf(buf, sizeof(buf), "%02d-%02d", tm.tm_mon + 1,
				 tm.tm_mday);
			draw_text(1, x, COLS - x, buf, A_BOLD);
		}
		if (rel == 0)
			draw_text(2, x, ax->cw, "T",
				  A_BOLD | A_REVERSE | draw_color(t, CP_CYAN));
		else if (rel == ax->pol.default_days)
			draw_text(2, x, ax->cw, ax->lim1,
				  A_BOLD | draw_color(t, CP_YELLOW));
		else if (rel == ax->pol.max_days)
			draw_text(2, x, ax->cw, ax->lim2,
				  A_BOLD | draw_color(t, CP_RED));
		else
			draw_text(2, x, ax->cw, ax->cw == 2 ? "--" : "-",
				  A_DIM);
	}
}

/* Report r's glyph on day, and its attribute in *a; NULL: none. */
static const char *day_glyph(struct tui *t, const struct cal_axis *ax,
			     const struct cal_row *r, time_t day, attr_t *a)
{
	long age = (long)((day - day_of(r->start)) / DAY);
	const char *g;

	if (r->overdue && day > day_of(r->end) && day <= ax->today) {
		/* Past the deadline, not disclosed: up to today. */
		*a = draw_color(t, CP_RED) | A_BOLD | A_REVERSE;
		return "!";
	}
	if (day < day_of(r->start) || day > day_of(r->end))
		return NULL;
	if (!r->decided) {
		*a = A_DIM;
		return ax->light;
	}
	if (age > ax->pol.max_days) {
		/* Day N counts as policy_check counts: day 7 is still
		 * within a 7-day default. */
		g = "!";
		*a = draw_color(t, CP_RED) | A_BOLD;
	} else if (age > ax->pol.default_days) {
		g = ax->mid;
		*a = draw_color(t, CP_YELLOW);
	} else {
		g = ax->full;
		*a = draw_color(t, CP_GREEN);
	}
	if (day == day_of(r->end))
		*a |= A_BOLD;
	return g;
}

/* Report r on screen row row: its id, end and subject, then its days. */
static void draw_row(struct tui *t, const struct cal_axis *ax,
		     const struct cal_row *r, int row, attr_t sel)
{
	struct report rep;
	struct err err = { 0, "" };
	char buf[64];
	struct tm tm;
	int x;

	gmtime_r(&r->end, &tm);
	snprintf(buf, sizeof(buf), "%6lld %02d-%02d%s ", (long long)r->id,
		 tm.tm_mon + 1, tm.tm_mday,
		 r->overdue	      ? "!"
			 : r->decided ? " "
				      : "?");
	draw_fill(row, 0, LABEL_W, sel);
	x = draw_text(row, 0, LABEL_W, buf, sel);
	memset(&rep, 0, sizeof(rep));
	if (report_get(t->ctx->sess, r->id, &rep, &err) == 0)
		draw_untrusted(row, x, LABEL_W - x - 1, rep.subject, sel);
	report_release(&rep);
	for (int d = 0; d < ax->ndays; d++) {
		time_t day = ax->axis0 + (time_t)d * DAY;
		long rel = (long)((day - ax->today) / DAY);
		int cx = LABEL_W + d * ax->cw;
		attr_t a = A_NORMAL;
		const char *g = day_glyph(t, ax, r, day, &a);

		if (g) {
			for (int c = 0; c < ax->cw; c++)
				draw_text(row, cx + c, 1, g, a);
		} else if (rel == 0 || rel == ax->pol.default_days ||
			   rel == ax->pol.max_days) {
			draw_text(row, cx, 1, ax->vline,
				  rel == 0 ? (draw_color(t, CP_CYAN) | A_BOLD)
					   : A_DIM);
		}
	}
}

static void cal_draw(struct tui *t, struct tui_view *v)
{
	struct calendar *p = v->priv;
	struct cal_axis ax;
	int h = height();

	axis_init(t, &ax);
	if (p->sel >= p->n)
		p->sel = p->n ? p->n - 1 : 0;
	if (p->sel < p->top)
		p->top = p->sel;
	if (p->sel >= p->top + (size_t)h)
		p->top = p->sel - (size_t)h + 1;
	{
		/* The key to the axis when it fits, else a shorter one. */
		char *long_t = xasprintf(
			" embargo calendar: %zu open report%s  (T today, %ld and %ld: policy limits from today)",
			p->n, p->n == 1 ? "" : "s", ax.pol.default_days,
			ax.pol.max_days);

		if (text_width(long_t) + 22 <= COLS)
			tui_title(t, "%s", long_t);
		else
			tui_title(
				t,
				" calendar: %zu open  (T today; %ld, %ld: limits)",
				p->n, ax.pol.default_days, ax.pol.max_days);
		free(long_t);
	}
	draw_axis(t, &ax);
	for (int y = 0; y < h && p->top + (size_t)y < p->n; y++) {
		size_t i = p->top + (size_t)y;

		draw_row(t, &ax, &p->rows[i], y + 3,
			 i == p->sel ? A_REVERSE : A_NORMAL);
	}
	if (!p->n)
		draw_text(4, 2, COLS - 2, "no open embargo", A_DIM);
	{
		const char *a = t->utf8 ? legend_a_utf8 : legend_a_ascii;
		const char *b = t->utf8 ? legend_b_utf8 : legend_b_ascii;

		if (legend_rows() == 1) {
			char *both = xasprintf("%s  %s", a, b);

			draw_text(LINES - 2, 0, COLS, both, A_DIM);
			free(both);
		} else {
			draw_text(LINES - 3, 0, COLS, a, A_DIM);
			draw_text(LINES - 2, 0, COLS, b, A_DIM);
		}
	}
}

static int cal_move(struct tui *t, struct tui_view *v, enum tui_motion m)
{
	struct calendar *p = v->priv;
	size_t h = (size_t)height(), last = p->n ? p->n - 1 : 0, old = p->sel;

	(void)t;
	switch (m) {
	case M_DOWN:
		if (p->sel < last)
			p->sel++;
		break;
	case M_UP:
		if (p->sel)
			p->sel--;
		break;
	case M_PGDN:
	case M_HALFDN:
		p->sel = p->sel + h < last ? p->sel + h : last;
		break;
	case M_PGUP:
	case M_HALFUP:
		p->sel = p->sel > h ? p->sel - h : 0;
		break;
	case M_TOP:
		p->sel = 0;
		break;
	case M_BOTTOM:
		p->sel = last;
		break;
	}
	return p->sel != old ? TUI_REDRAW : TUI_OK;
}

static int64_t cal_current(struct tui *t, struct tui_view *v)
{
	struct calendar *p = v->priv;

	(void)t;
	return p->n ? p->rows[p->sel].id : 0;
}

static int cal_open(struct tui *t, struct tui_view *v)
{
	int64_t id = cal_current(t, v);

	if (id)
		tui_push(t, view_report_new(t, id));
	return TUI_REDRAW;
}

static void cal_close(struct tui *t, struct tui_view *v)
{
	(void)t;
	free(((struct calendar *)v->priv)->rows);
	free(v->priv);
}

static const struct tui_view_ops cal_ops = {
	.name = "calendar",
	.draw = cal_draw,
	.motion = cal_move,
	.open = cal_open,
	.reload = cal_reload,
	.close = cal_close,
	.current = cal_current,
	.changed = cal_changed,
};

struct tui_view *view_calendar_new(struct tui *t)
{
	struct tui_view *v = tui_view_alloc(
		V_CALENDAR, &cal_ops, xcalloc(1, sizeof(struct calendar)), 0);

	cal_reload(t, v);
	return v;
}
