/*
 * The three panels of the open report: participants, vendors and the
 * disclosure date.  Each is a pager of lines some of which are items (a
 * participant, a suggested maintainer, a vendor) that a cursor walks with
 * j/k; the panel keys of the key table act on the item under the cursor by
 * building a core command string (maintainers, forward, vendor, date) and
 * running it with tui_run_line(), so the UI takes the same path as the
 * shell and the command's answer lands in the status line.
 *
 * The suggested maintainers come from maintainers_suggest() (the same
 * function as `maintainers ID`), computed once when the panel opens (it
 * decrypts the thread and reads MAINTAINERS); the check marks are kept by
 * address across reloads.  Every string from a report, MAINTAINERS or the
 * directory is made safe with safe_str() before it is drawn.
 */
#include <stdlib.h>
#include <string.h>

#include "core/suggest.h"
#include "tui/tui-int.h"

enum item_kind { IT_PART, IT_SUG, IT_VENDOR };

struct item {
	size_t line;            /* display line of the item */
	enum item_kind kind;
	char *key;              /* address, or vendor name (raw) */
	char *label;            /* for questions (raw) */
};

struct panel {
	struct tui_lines lines;
	void (*fill)(struct tui *t, struct tui_view *v, struct panel *p);
	const char *title;
	struct item *items;
	size_t nitems, cur;
	char **checked;         /* addresses of checked suggestions */
	size_t nchecked;
	struct maint_suggestions sug;
	bool sug_loaded;
	int sug_rc;
	char sug_err[1024];
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

/* The next line added is an item. */
static void item_add(struct panel *p, enum item_kind kind, const char *key, const char *label)
{
	p->items = xrealloc(p->items, (p->nitems + 1) * sizeof(*p->items));
	p->items[p->nitems].line = p->lines.n;
	p->items[p->nitems].kind = kind;
	p->items[p->nitems].key = xstrdup(key ? key : "");
	p->items[p->nitems].label = xstrdup(label ? label : key ? key : "");
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

static const char *day(time_t t, char buf[static 32])
{
	if (!t)
		return "-";
	fmt_rfc3339(t, buf);
	buf[10] = 0;
	return buf;
}

static long checked_find(const struct panel *p, const char *email)
{
	for (size_t i = 0; i < p->nchecked; i++)
		if (!str_cmp_ci(p->checked[i], email))
			return (long)i;
	return -1;
}

static void checked_clear(struct panel *p)
{
	for (size_t i = 0; i < p->nchecked; i++)
		free(p->checked[i]);
	free(p->checked);
	p->checked = NULL;
	p->nchecked = 0;
}

/* --- participants -----------------------------------------------------*/

static bool active(const struct participant *pv, size_t n, const char *email)
{
	for (size_t i = 0; i < n; i++)
		if (!pv[i].removed_at && !str_cmp_ci(pv[i].email, email))
			return true;
	return false;
}

static void fill_suggestions(struct tui *t, struct tui_view *v, struct panel *p,
			     const struct participant *pv, size_t n)
{
	struct tui_lines *l = &p->lines;
	size_t shown = 0;

	if (!p->sug_loaded) {
		struct err err = { 0, "" };
		p->sug_rc = maintainers_suggest(t->ctx, v->report_id, NULL, false, &p->sug, &err);
		snprintf(p->sug_err, sizeof(p->sug_err), "%s", err.msg);
		p->sug_loaded = true;
	}
	if (p->sug_rc < 0 && !p->sug.tree) {
		add(l, A_BOLD | draw_color(t, CP_YELLOW),
		    "no kernel tree: set kernel.tree in the config or :maintainers --tree DIR");
		add(l, A_DIM, "  %s", p->sug_err);
		return;
	}
	if (p->sug_rc < 0) {
		add(l, A_BOLD | draw_color(t, CP_RED), "no suggestions: %s", p->sug_err);
		return;
	}
	add(l, A_BOLD | A_UNDERLINE, "Suggested by %s/MAINTAINERS: Space checks, a brings in the checked",
	    p->sug.tree);
	for (size_t i = 0; i < p->sug.res.n; i++) {
		const struct maint_entry *e = &p->sug.res.v[i];
		char *line;
		if (maintainers_hidden(e, p->sug.catch_all) || active(pv, n, e->email))
			continue;
		bool uns = e >= p->sug.res.v + p->sug.nsigned;
		line = maint_entry_format(e);
		item_add(p, IT_SUG, e->email, line);
		add(l, uns ? (A_BOLD | draw_color(t, CP_YELLOW)) : A_NORMAL, "  [%c] %s%s%s",
		    checked_find(p, e->email) >= 0 ? 'x' : ' ', line,
		    e->is_list ? "  (mailing list: may be public)" : "",
		    uns ? "  [!] only from unsigned parts" : "");
		free(line);
		shown++;
	}
	if (!shown)
		add(l, A_DIM, "  %s", p->sug.res.n ? "everyone suggested is brought in"
						   : "MAINTAINERS names nobody for this report");
	if (p->sug.hidden)
		add(l, A_DIM, "  %zu catch-all entr%s left out (:maintainers --with-catch-all lists %s)",
		    p->sug.hidden, p->sug.hidden > 1 ? "ies" : "y", p->sug.hidden > 1 ? "them" : "it");
	if (p->sug.warnings)
		lines_add_wrapped(l, p->sug.warnings, COLS > 10 ? COLS : 10, A_DIM, 1);
}

static void fill_participants(struct tui *t, struct tui_view *v, struct panel *p)
{
	struct tui_lines *l = &p->lines;
	struct report_full rf;
	struct participant *pv = NULL;
	struct err err = { 0, "" };
	size_t n = 0, nactive = 0;
	char b1[32], b2[32], b3[32];

	if (participants_list(t->ctx, v->report_id, true, &pv, &n, &err) < 0)
		add(l, A_BOLD | draw_color(t, CP_RED), "%s", err.msg);
	for (size_t i = 0; i < n; i++)
		nactive += !pv[i].removed_at;
	add(l, A_BOLD | A_UNDERLINE, "Participants (%zu): x removes the one under the cursor, "
	    "F forwards the report to all", nactive);
	for (size_t i = 0; i < n; i++) {
		const struct participant *q = &pv[i];
		char *who = participant_format(q);
		if (!q->removed_at)
			item_add(p, IT_PART, q->email, who);
		add(l, q->removed_at ? A_DIM : A_NORMAL, "  %s%s", who,
		    q->removed_at ? "  [removed]" : "");
		add(l, A_DIM, "      added by %s on %s, %s%s%s%s%s%s", q->added_by ? q->added_by : "?",
		    day(q->added_at, b1), q->acknowledged_at ? "acknowledged " : "not acknowledged",
		    q->acknowledged_at ? day(q->acknowledged_at, b2) : "",
		    q->removed_at ? ", removed on " : "", q->removed_at ? day(q->removed_at, b3) : "",
		    q->removed_at && q->removed_by ? " by " : "",
		    q->removed_at && q->removed_by ? q->removed_by : "");
		free(who);
	}
	if (!n)
		add(l, A_DIM, "  no participants yet \xe2\x80\x94 check suggestions below and press a");
	add(l, A_NORMAL, "%s", "");
	fill_suggestions(t, v, p, pv, n);
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

/* --- vendors ------------------------------------------------------------*/

static void vendor_line(struct tui *t, struct panel *p, const struct report_vendor *rv)
{
	char b1[32], b2[32];
	bool silent = rv->status && !strcmp(rv->status, "notified");

	item_add(p, IT_VENDOR, rv->name, rv->name);
	add(&p->lines, silent ? A_BOLD : A_NORMAL, "%-22s %-9s %-14s %-10s %-10s %-3s %s%s%s",
	    rv->name ? rv->name : "?", rv->kind ? rv->kind : "", rv->status ? rv->status : "",
	    day(rv->notified_at, b1), day(rv->updated_at, b2), rv->nda_requested ? "yes" : "-",
	    rv->note ? rv->note : "", rv->note && rv->statement ? " / " : "",
	    rv->statement ? rv->statement : "");
	if (rv->nda_requested)
		add(&p->lines, draw_color(t, CP_RED) | A_BOLD, "    NDA requested: %s",
		    policy_nda_answer());
}

static void fill_vendors(struct tui *t, struct tui_view *v, struct panel *p)
{
	struct tui_lines *l = &p->lines;
	struct dossier d;
	struct err err = { 0, "" };
	struct vendor *dir = NULL;
	size_t ndir = 0, others = 0;

	if (dossier_load(t->ctx, v->report_id, &d, &err) < 0) {
		add(l, A_BOLD | draw_color(t, CP_RED), "%s", err.msg);
		dossier_release(&d);
		return;
	}
	add(l, A_BOLD | A_UNDERLINE, "%-22s %-9s %-14s %-10s %-10s %-3s %s", "VENDOR", "KIND",
	    "STATUS", "NOTIFIED", "UPDATED", "NDA", "NOTE / STATEMENT");
	for (size_t i = 0; i < d.nvendors; i++)
		vendor_line(t, p, &d.vendors[i]);
	if (vendors_list(t->ctx, &dir, &ndir, &err) < 0)
		add(l, A_BOLD | draw_color(t, CP_RED), "%s", err.msg);
	for (size_t i = 0; i < ndir; i++) {
		bool on = false;
		for (size_t j = 0; j < d.nvendors && !on; j++)
			on = d.vendors[j].vendor_id == dir[i].id;
		if (!on) {
			struct report_vendor rv = { 0 };
			rv.name = dir[i].name;
			rv.kind = dir[i].kind;
			rv.status = (char *)"not-notified";
			vendor_line(t, p, &rv);
			p->lines.attr[p->lines.n - 1] = A_DIM;
			others++;
		}
		vendor_release(&dir[i]);
	}
	free(dir);
	if (!d.nvendors && !others)
		add(l, A_DIM, "no vendor in the directory yet \xe2\x80\x94 :vendor add NAME --contact EMAIL");
	add(l, A_NORMAL, "%s", "");
	add(l, A_DIM, "n notifies the vendor under the cursor, u updates its status, "
	    "N records an NDA request");
	dossier_release(&d);
}

/* --- disclosure --------------------------------------------------------*/

static attr_t verdict_attr(struct tui *t, enum policy_verdict vd)
{
	return vd == POLICY_OK || vd == POLICY_PUBLIC ? A_NORMAL
	       : vd == POLICY_REFUSED ? (draw_color(t, CP_RED) | A_BOLD)
	       : (draw_color(t, CP_YELLOW) | A_BOLD);
}

static void fill_disclosure(struct tui *t, struct tui_view *v, struct panel *p)
{
	struct tui_lines *l = &p->lines;
	struct dossier d;
	struct err err = { 0, "" };
	char b1[32], b2[32];
	const struct report *r;

	if (dossier_load(t->ctx, v->report_id, &d, &err) < 0) {
		add(l, A_BOLD | draw_color(t, CP_RED), "%s", err.msg);
		dossier_release(&d);
		return;
	}
	r = &d.f.r;
	if (r->disclosure) {
		bool over = r->disclosure < d.now;
		const struct decision *last = d.ndecisions ? &d.decisions[d.ndecisions - 1] : NULL;
		add(l, A_BOLD | (over ? draw_color(t, CP_RED) : 0), "%sDecided date: %s (%+ld days)",
		    over ? "! OVERDUE  " : "", fmt_rfc3339(r->disclosure, b1),
		    days_between(d.now, r->disclosure));
		add(l, verdict_attr(t, d.ans.verdict), "Policy verdict: %s",
		    policy_verdict_name(d.ans.verdict));
		if (d.ans.msg[0])
			add(l, A_NORMAL, "  %s", d.ans.msg);
		if (last)
			add(l, A_NORMAL, "Reason: %s%s", last->override ? "[override] " : "",
			    last->reason && *last->reason ? last->reason : "(none recorded)");
	} else {
		add(l, A_BOLD, "No date decided \xe2\x80\x94 D sets one");
	}
	add(l, A_NORMAL, "%s", "");
	add(l, A_BOLD | A_UNDERLINE, "Policy limits");
	add(l, A_NORMAL, "  Clock start     %s (%s)", day(d.ans.clock_start, b1),
	    r->release_started ? "release process started" : "report received");
	add(l, A_NORMAL, "  %2ld-day limit  %s (the default; later needs a recorded reason)",
	    d.pol.default_days, day(d.ans.default_limit, b1));
	add(l, A_NORMAL, "  %2ld-day limit  %s (the maximum; later is refused unless overridden)",
	    d.pol.max_days, day(d.ans.max_limit, b2));
	if (d.ans.verdict == POLICY_PUBLIC)
		add(l, draw_color(t, CP_YELLOW) | A_BOLD, "  already public: the policy date is now");
	add(l, A_NORMAL, "%s", "");
	add(l, A_BOLD | A_UNDERLINE, "Proposals (%zu): P records one", d.nproposals);
	for (size_t i = 0; i < d.nproposals; i++) {
		const struct proposal *q = &d.proposals[i];
		struct policy_answer ans;
		enum policy_verdict vd = policy_check(&d.pol, r, q->date, q->reason && *q->reason,
						      false, d.now, &ans);
		add(l, verdict_attr(t, vd), "  %s  by %-20s policy: %-12s %s  (recorded by %s on %s)",
		    day(q->date, b1), q->by ? q->by : "?", policy_verdict_name(vd),
		    q->reason ? q->reason : "", q->officer ? q->officer : "?", day(q->at, b2));
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

/* --- the view ------------------------------------------------------------*/

static int height(void) { return LINES - 2 > 1 ? LINES - 2 : 1; }

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

static void panel_reload(struct tui *t, struct tui_view *v)
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
		if (line >= p->lines.top && line < p->lines.top + (size_t)height()) {
			int y = 1 + (int)(line - p->lines.top);
			draw_fill(y, 0, COLS, A_REVERSE);
			draw_text(y, 0, COLS, p->lines.line[line], p->lines.attr[line] | A_REVERSE);
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
	checked_clear(p);
	maint_suggestions_release(&p->sug);
	free(p);
}

static const struct tui_view_ops panel_ops = {
	"panel", panel_draw, panel_move, NULL, panel_search, panel_reload, panel_close, NULL,
	NULL,
};

static struct tui_view *make(struct tui *t, int64_t id, enum tui_view_id vid, const char *title,
			     void (*fill)(struct tui *, struct tui_view *, struct panel *))
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

/* --- the panel keys (rows of the key table) -----------------------------*/

/* The item under the cursor when the top view is vid and it is of kind;
 * NULL with the status line saying why. */
static struct item *cursor_item(struct tui *t, enum tui_view_id vid, enum item_kind kind,
				const char *what)
{
	struct tui_view *v = tui_top(t);
	struct panel *p;

	if (v->id != vid) {
		tui_status(t, true, "only in the %s panel", keys_view_name(vid));
		return NULL;
	}
	p = v->priv;
	if (!p->nitems || p->items[p->cur].kind != kind) {
		tui_status(t, true, "move the cursor (j/k) to %s first", what);
		return NULL;
	}
	return &p->items[p->cur];
}

/* Appends s to sb as one word of a command string, quoted when needed. */
static void add_word(struct sbuf *sb, const char *s)
{
	bool plain = *s != 0;

	for (const char *c = s; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@._+-=/:", *c))
			plain = false;
	sbuf_addch(sb, ' ');
	if (plain) {
		sbuf_addf(sb, "%s", s);
		return;
	}
	sbuf_addch(sb, '\'');
	for (const char *c = s; *c; c++) {
		if (*c == '\'')
			sbuf_addf(sb, "'\\''");
		else
			sbuf_addch(sb, *c);
	}
	sbuf_addch(sb, '\'');
}

/* Runs "VERB ID WORDS..." (words quoted) as a command string. */
static int run_words(struct tui *t, const char *head, const char *const *words, size_t n,
		     const char *tail)
{
	struct sbuf sb = SBUF_INIT;
	char *line;
	int r;

	sbuf_addf(&sb, "%s %lld", head, (long long)tui_top(t)->report_id);
	for (size_t i = 0; i < n; i++)
		add_word(&sb, words[i]);
	if (tail)
		sbuf_addf(&sb, " %s", tail);
	line = sbuf_detach(&sb, NULL);
	r = tui_run_line(t, line);
	free(line);
	return r;
}

int panel_toggle(struct tui *t, const char *args)
{
	struct item *it = cursor_item(t, V_PARTICIPANTS, IT_SUG, "a suggestion");
	struct panel *p;
	long k;

	(void)args;
	if (!it)
		return TUI_OK;
	p = tui_top(t)->priv;
	if ((k = checked_find(p, it->key)) >= 0) {
		free(p->checked[k]);
		p->checked[k] = p->checked[--p->nchecked];
	} else {
		p->checked = xrealloc(p->checked, (p->nchecked + 1) * sizeof(*p->checked));
		p->checked[p->nchecked++] = xstrdup(it->key);
	}
	panel_reload(t, tui_top(t));
	tui_status(t, false, "%zu checked: a brings %s in", p->nchecked,
		   p->nchecked == 1 ? "it" : "them");
	return TUI_REDRAW;
}

int panel_bring_in(struct tui *t, const char *args)
{
	struct tui_view *v = tui_top(t);
	struct panel *p;
	const char **words;
	size_t n = 0;
	int r;

	(void)args;
	if (v->id != V_PARTICIPANTS) {
		tui_status(t, true, "only in the participants panel");
		return TUI_OK;
	}
	p = v->priv;
	words = xcalloc(2 * p->nitems + 1, sizeof(*words));
	for (size_t i = 0; i < p->nitems; i++)
		if (p->items[i].kind == IT_SUG && checked_find(p, p->items[i].key) >= 0) {
			words[n++] = "--add";
			words[n++] = p->items[i].key;
		}
	if (!n) {
		free(words);
		tui_status(t, true, "nothing checked: Space checks the suggestion under the cursor");
		return TUI_OK;
	}
	r = run_words(t, "maintainers", words, n, NULL);
	free(words);
	if (!t->status_error)
		checked_clear(p);
	return r | TUI_RELOAD;
}

int panel_remove(struct tui *t, const char *args)
{
	struct item *it = cursor_item(t, V_PARTICIPANTS, IT_PART, "a participant");
	const char *words[2];
	char *q;
	bool yes;

	(void)args;
	if (!it)
		return TUI_OK;
	q = xasprintf("remove %s from report %lld?", it->label, (long long)tui_top(t)->report_id);
	yes = tui_confirm(t, q);
	free(q);
	if (!yes)
		return TUI_REDRAW;
	words[0] = "--remove";
	words[1] = it->key;
	return run_words(t, "maintainers", words, 2, NULL);
}

int vendors_notify(struct tui *t, const char *args)
{
	struct item *it = cursor_item(t, V_VENDORS, IT_VENDOR, "a vendor");
	const char *w;

	(void)args;
	if (!it)
		return TUI_OK;
	w = it->key;
	return run_words(t, "vendor notify", &w, 1, NULL);
}

int vendors_nda(struct tui *t, const char *args)
{
	struct item *it = cursor_item(t, V_VENDORS, IT_VENDOR, "a vendor");
	const char *w;

	(void)args;
	if (!it)
		return TUI_OK;
	w = it->key;
	return run_words(t, "vendor status", &w, 1, "--nda-requested");
}

int vendors_update(struct tui *t, const char *args)
{
	struct item *it = cursor_item(t, V_VENDORS, IT_VENDOR, "a vendor");
	struct sbuf sb = SBUF_INIT;
	char *safe, *init, *line;
	int r;

	(void)args;
	if (!it)
		return TUI_OK;
	safe = safe_str(it->key);
	if (strcmp(safe, it->key)) {
		free(safe);
		tui_status(t, true, "the vendor's name holds control characters: use the : line");
		return TUI_OK;
	}
	free(safe);
	sbuf_addf(&sb, "vendor status %lld", (long long)tui_top(t)->report_id);
	add_word(&sb, it->key);
	sbuf_addch(&sb, ' ');
	init = sbuf_detach(&sb, NULL);
	line = prompt_read(t, ":", init, &t->cmd_hist, true);
	free(init);
	if (!line)
		return TUI_REDRAW;
	r = tui_run_line(t, line);
	free(line);
	return r | TUI_REDRAW;
}
