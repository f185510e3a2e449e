/*
 * The three panels of the open report: participants, vendors and the
 * disclosure date.  Each shows what core/ offers for it today as lines in
 * a pager; the maintainer, vendor and date commands (run from the `:` line
 * or their keys) change the data, and the panel rereads it.
 */
#include <stdlib.h>
#include <string.h>

#include "tui/tui-int.h"

struct panel {
	struct tui_lines lines;
	void (*fill)(struct tui *t, struct tui_view *v, struct tui_lines *l);
	const char *title;
};

static void add(struct tui_lines *l, attr_t a, const char *fmt, ...) UTIL_PRINTF(3, 4);
static void add(struct tui_lines *l, attr_t a, const char *fmt, ...)
{
	va_list ap;
	char *s, *safe;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	safe = safe_str(s);
	lines_add(l, safe, a, 1);
	free(safe);
	free(s);
}

static const char *day(time_t t, char buf[static 32]);

static void fill_participants(struct tui *t, struct tui_view *v, struct tui_lines *l)
{
	struct report_full rf;
	struct participant *pv = NULL;
	struct err err = { 0, "" };
	size_t n = 0;
	char b1[32], b2[32];

	if (participants_list(t->ctx, v->report_id, true, &pv, &n, &err) < 0)
		add(l, A_BOLD, "%s", err.msg);
	add(l, A_BOLD | A_UNDERLINE, "Participants: [x] brought in, [ ] removed");
	for (size_t i = 0; i < n; i++) {
		const struct participant *p = &pv[i];
		char *who = participant_format(p);
		add(l, p->removed_at ? A_DIM : A_NORMAL, "  [%c] %s", p->removed_at ? ' ' : 'x', who);
		add(l, A_DIM, "      added by %s on %s%s%s%s", p->added_by ? p->added_by : "?",
		    day(p->added_at, b1), p->acknowledged_at ? ", acknowledged " : ", not acknowledged",
		    p->acknowledged_at ? day(p->acknowledged_at, b2) : "",
		    p->removed_at ? ", removed" : "");
		free(who);
	}
	if (!n)
		add(l, A_DIM, "  no participants yet \xe2\x80\x94 :maintainers to find them");
	participants_free(pv, n);
	if (report_load(t->ctx, v->report_id, &rf, &err) == 0) {
		add(l, A_NORMAL, "%s", "");
		add(l, A_BOLD | A_UNDERLINE, "Files this report touches (what :maintainers looks up)");
		for (size_t i = 0; i < rf.nfiles; i++)
			add(l, A_NORMAL, "  %s", rf.files[i]);
		if (!rf.nfiles)
			add(l, A_DIM, "  none found in the report's text");
	}
	report_full_release(&rf);
}

static const char *day(time_t t, char buf[static 32])
{
	if (!t)
		return "-";
	fmt_rfc3339(t, buf);
	buf[10] = 0;
	return buf;
}

static void fill_vendors(struct tui *t, struct tui_view *v, struct tui_lines *l)
{
	struct dossier d;
	struct err err = { 0, "" };
	char b1[32], b2[32];

	if (dossier_load(t->ctx, v->report_id, &d, &err) < 0) {
		add(l, A_BOLD, "%s", err.msg);
		dossier_release(&d);
		return;
	}
	add(l, A_BOLD | A_UNDERLINE, "%-22s %-9s %-14s %-10s %-10s %s", "VENDOR", "KIND", "STATUS",
	    "NOTIFIED", "UPDATED", "NOTE");
	for (size_t i = 0; i < d.nvendors; i++) {
		const struct report_vendor *rv = &d.vendors[i];
		bool silent = rv->status && !strcmp(rv->status, "notified");
		add(l, silent ? A_BOLD : A_NORMAL, "%-22s %-9s %-14s %-10s %-10s %s%s%s",
		    rv->name ? rv->name : "?", rv->kind ? rv->kind : "", rv->status ? rv->status : "",
		    day(rv->notified_at, b1), day(rv->updated_at, b2),
		    rv->nda_requested ? "[NDA requested] " : "", rv->note ? rv->note : "",
		    rv->statement ? rv->statement : "");
		if (rv->nda_requested)
			add(l, draw_color(t, CP_RED) | A_BOLD, "    %s", policy_nda_answer());
	}
	if (!d.nvendors)
		add(l, A_DIM, "no vendor on this report yet \xe2\x80\x94 :vendor notify NAME brings one in");
	add(l, A_NORMAL, "%s", "");
	add(l, A_DIM, ":vendor status STATUS NAME ... changes a status (the open report is implied)");
	dossier_release(&d);
}

static void fill_disclosure(struct tui *t, struct tui_view *v, struct tui_lines *l)
{
	struct dossier d;
	struct err err = { 0, "" };
	char b1[32], b2[32], b3[32];
	const struct report *r;

	if (dossier_load(t->ctx, v->report_id, &d, &err) < 0) {
		add(l, A_BOLD, "%s", err.msg);
		dossier_release(&d);
		return;
	}
	r = &d.f.r;
	if (r->disclosure) {
		bool over = r->disclosure < d.now;
		add(l, A_BOLD | (over ? draw_color(t, CP_RED) : 0), "%sDecided date: %s (%+ld days)",
		    over ? "! OVERDUE  " : "", fmt_rfc3339(r->disclosure, b1),
		    days_between(d.now, r->disclosure));
		add(l, d.ans.verdict == POLICY_OK || d.ans.verdict == POLICY_PUBLIC ? A_NORMAL
		    : (draw_color(t, CP_YELLOW) | A_BOLD),
		    "Policy verdict: %s", policy_verdict_name(d.ans.verdict));
	} else {
		add(l, A_BOLD, "No date decided");
	}
	if (r->disclosure && d.ans.msg[0])
		add(l, A_NORMAL, "  %s", d.ans.msg);
	add(l, A_NORMAL, "Clock start %s; default limit %s (%ld days); maximum %s (%ld days)",
	    day(d.ans.clock_start, b1), day(d.ans.default_limit, b2), d.pol.default_days,
	    day(d.ans.max_limit, b3), d.pol.max_days);
	add(l, A_NORMAL, "%s", "");
	add(l, A_BOLD | A_UNDERLINE, "Proposals (%zu)", d.nproposals);
	for (size_t i = 0; i < d.nproposals; i++) {
		const struct proposal *p = &d.proposals[i];
		add(l, A_NORMAL, "  %s  by %-20s %s  (recorded by %s on %s)", day(p->date, b1),
		    p->by ? p->by : "?", p->reason ? p->reason : "", p->officer ? p->officer : "?",
		    day(p->at, b2));
	}
	if (!d.nproposals)
		add(l, A_DIM, "  none \xe2\x80\x94 :date propose DATE --by reporter --reason TEXT");
	add(l, A_NORMAL, "%s", "");
	add(l, A_BOLD | A_UNDERLINE, "Decisions, oldest first (%zu)", d.ndecisions);
	for (size_t i = 0; i < d.ndecisions; i++) {
		const struct decision *c = &d.decisions[i];
		add(l, i + 1 == d.ndecisions ? A_BOLD : A_DIM, "  %s  %-13s %s%s  (by %s on %s)",
		    day(c->date, b1), c->verdict ? c->verdict : "", c->override ? "[override] " : "",
		    c->reason ? c->reason : "", c->officer ? c->officer : "?", day(c->at, b2));
	}
	if (!d.ndecisions)
		add(l, A_DIM, "  none \xe2\x80\x94 :date set DATE (key D) decides one");
	dossier_release(&d);
}

static int height(void) { return LINES - 2 > 1 ? LINES - 2 : 1; }

static void panel_reload(struct tui *t, struct tui_view *v)
{
	struct panel *p = v->priv;
	size_t top = p->lines.top;

	lines_release(&p->lines);
	p->fill(t, v, &p->lines);
	p->lines.top = top < p->lines.n ? top : 0;
}

static void panel_draw(struct tui *t, struct tui_view *v)
{
	struct panel *p = v->priv;

	tui_title(t, " %s of report %lld", p->title, (long long)v->report_id);
	lines_draw(t, &p->lines, 1, height(), 0);
}

static int panel_move(struct tui *t, struct tui_view *v, enum tui_motion m)
{
	(void)t;
	return lines_move(&((struct panel *)v->priv)->lines, height(), m);
}

static int panel_search(struct tui *t, struct tui_view *v, int dir, bool fresh)
{
	if (lines_search(&((struct panel *)v->priv)->lines, t->search, dir, fresh) < 0)
		tui_status(t, true, "not found: %s", t->search);
	return TUI_REDRAW;
}

static void panel_close(struct tui *t, struct tui_view *v)
{
	(void)t;
	lines_release(&((struct panel *)v->priv)->lines);
	free(v->priv);
}

static const struct tui_view_ops panel_ops = {
	"panel", panel_draw, panel_move, NULL, panel_search, panel_reload, panel_close, NULL,
};

static struct tui_view *make(struct tui *t, int64_t id, enum tui_view_id vid, const char *title,
			     void (*fill)(struct tui *, struct tui_view *, struct tui_lines *))
{
	struct tui_view *v = xcalloc(1, sizeof(*v));
	struct panel *p = xcalloc(1, sizeof(*p));

	p->lines.hl = -1;
	p->fill = fill;
	p->title = title;
	v->id = vid;
	v->ops = &panel_ops;
	v->priv = p;
	v->report_id = id;
	panel_reload(t, v);
	return v;
}

struct tui_view *view_participants_new(struct tui *t, int64_t id)
{
	return make(t, id, V_PARTICIPANTS, "participants", fill_participants);
}

struct tui_view *view_vendors_new(struct tui *t, int64_t id)
{
	return make(t, id, V_VENDORS, "vendors", fill_vendors);
}

struct tui_view *view_disclosure_new(struct tui *t, int64_t id)
{
	return make(t, id, V_DISCLOSURE, "disclosure", fill_disclosure);
}
