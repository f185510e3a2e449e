/*
 * The key table: one row per action (tig's request table, tmux's
 * cmd_table), with its name, default keys, the views it applies to, its
 * help, and either an internal handler (moving, searching, opening
 * views: nothing that changes a report) or a command line, run by the
 * command runner on the current report, passed as a value (the command's
 * row says where it goes).  Every change goes through a command: what it
 * asks or edits, it asks through its session (cmd_confirm, cmd_guard,
 * cmd_edit), which the UI answers with its prompt and the editor.  The help screen, the `:` line's completion and the config's
 * `bind VIEW KEY COMMAND` lines all read it; handlers return what to
 * redraw.  No key that mails, notifies or records a decision can be
 * pressed by accident: those ask first, naming who and what.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/tui-int.h"
#include "core/core.h"

static const char *const view_names[V_COUNT] = {
	[V_REPORTS] = "reports",
	[V_REPORT] = "report",
	[V_PARTICIPANTS] = "participants",
	[V_VENDORS] = "vendors",
	[V_DISCLOSURE] = "disclosure",
	[V_TIMELINE] = "timeline",
	[V_CALENDAR] = "calendar",
	[V_HELP] = "help",
	[V_PAGER] = "pager",
	[V_STATS] = "stats",
};

const char *keys_view_name(enum tui_view_id v)
{
	return view_names[v];
}

int keys_view_from_name(const char *name)
{
	if (!strcmp(name, "all"))
		return -1;
	for (int i = 0; i < V_COUNT; i++)
		if (!strcmp(view_names[i], name))
			return i;
	return -2;
}

/* --- handlers ------------------------------------------------------------*/
static int do_move(struct tui *t, enum tui_motion m)
{
	struct tui_view *v = tui_top(t);

	if (v->lines)
		return lines_move(v->lines, v->ops->height(), m);
	return v->ops->motion ? v->ops->motion(t, v, m) : TUI_OK;
}
static int h_down(struct tui *t, const char *a)
{
	(void)a;
	return do_move(t, M_DOWN);
}
static int h_up(struct tui *t, const char *a)
{
	(void)a;
	return do_move(t, M_UP);
}
static int h_pgdn(struct tui *t, const char *a)
{
	(void)a;
	return do_move(t, M_PGDN);
}
static int h_pgup(struct tui *t, const char *a)
{
	(void)a;
	return do_move(t, M_PGUP);
}
static int h_halfdn(struct tui *t, const char *a)
{
	(void)a;
	return do_move(t, M_HALFDN);
}
static int h_halfup(struct tui *t, const char *a)
{
	(void)a;
	return do_move(t, M_HALFUP);
}
static int h_top(struct tui *t, const char *a)
{
	(void)a;
	return do_move(t, M_TOP);
}
static int h_bottom(struct tui *t, const char *a)
{
	(void)a;
	return do_move(t, M_BOTTOM);
}

static int h_open(struct tui *t, const char *a)
{
	struct tui_view *v = tui_top(t);

	(void)a;
	return v->ops->open ? v->ops->open(t, v) : TUI_OK;
}

static void pop(struct tui *t)
{
	struct tui_view *v = t->stack[--t->depth];

	v->ops->close(t, v);
	free(v);
}

static int h_back(struct tui *t, const char *a)
{
	(void)a;
	if (t->depth <= 1)
		return TUI_QUIT;
	pop(t);
	return TUI_REDRAW;
}

static int h_quit(struct tui *t, const char *a)
{
	(void)t;
	(void)a;
	return TUI_QUIT;
}

/* C-z: the whole process group stops, as a shell's job does, so that a
 * parent waiting for us in the foreground (make run, a script) stops
 * too and the shell gets the terminal back; fg continues all of it. */
static int h_suspend(struct tui *t, const char *a)
{
	(void)t;
	(void)a;
	tui_suspend();
	kill(0, SIGTSTP);
	tui_resume();
	return TUI_REDRAW;
}

static int h_help(struct tui *t, const char *a)
{
	(void)a;
	if (tui_top(t)->id == V_HELP)
		return TUI_OK;
	tui_push(t, view_help_new(t, tui_top(t)->id));
	return TUI_REDRAW;
}

/* A pager view's search: its lines are safe text, so the needle is too. */
static int search_lines(struct tui *t, struct tui_lines *l, int dir, bool fresh)
{
	char *needle = safe_str(t->search);
	int i = lines_search(l, needle, dir, fresh);

	free(needle);
	if (i < 0)
		tui_status(t, true, "not found: %s", t->search);
	else
		tui_status(t, false, "/%s: line %d", t->search, i + 1);
	return TUI_REDRAW;
}

static int do_search(struct tui *t, int dir, bool fresh)
{
	struct tui_view *v = tui_top(t);

	if (!t->search || !*t->search) {
		tui_status(t, true, "no search yet: type / first");
		return TUI_OK;
	}
	if (v->lines)
		return search_lines(t, v->lines, dir, fresh);
	return v->ops->search ? v->ops->search(t, v, dir, fresh) : TUI_OK;
}

/* /: the prompt, then the next match in this view.  With a query (the
 * : line's "search QUERY", a bind line): the report list shows only the
 * reports matching it (reports_set_search), from any view. */
static int h_search(struct tui *t, const char *a)
{
	char *s;

	if (*a) {
		while (t->depth > 1)
			pop(t);
		return reports_set_search(t, a);
	} else if (!(s = prompt_read(t, "/", "", &t->search_hist, false))) {
		return TUI_REDRAW;
	}
	if (!*s) {
		free(s);
		return do_search(t, 1, false);
	}
	free(t->search);
	t->search = s;
	return do_search(t, 1, true) | TUI_REDRAW;
}
static int h_next(struct tui *t, const char *a)
{
	(void)a;
	return do_search(t, 1, false);
}
static int h_prev(struct tui *t, const char *a)
{
	(void)a;
	return do_search(t, -1, false);
}

static int h_command(struct tui *t, const char *a)
{
	(void)a;
	return tui_prompt_run(t, "");
}

/* `prompt TEXT`: the `:` line, prefilled with TEXT; the line runs on
 * the current report (its label names it, "#7:") unless it names
 * another. */
static int h_prompt(struct tui *t, const char *a)
{
	char *init = xasprintf("%s ", a);
	int r = tui_prompt_run_on(t, init, true);

	free(init);
	return r;
}

static int push_report_view(struct tui *t,
			    struct tui_view *(*make)(struct tui *, int64_t))
{
	int64_t id = tui_current_report(t);

	if (!id) {
		tui_status(t, true, "no report selected");
		return TUI_OK;
	}
	tui_push(t, make(t, id));
	return TUI_REDRAW;
}
static int h_timeline(struct tui *t, const char *a)
{
	(void)a;
	return push_report_view(t, view_timeline_new);
}
static int h_participants(struct tui *t, const char *a)
{
	(void)a;
	return push_report_view(t, view_participants_new);
}
static int h_vendors(struct tui *t, const char *a)
{
	(void)a;
	return push_report_view(t, view_vendors_new);
}
static int h_disclosure(struct tui *t, const char *a)
{
	(void)a;
	return push_report_view(t, view_disclosure_new);
}

static int h_calendar(struct tui *t, const char *a)
{
	(void)a;
	if (tui_top(t)->id == V_CALENDAR)
		return TUI_OK;
	tui_push(t, view_calendar_new(t));
	return TUI_REDRAW;
}

/* `#` or `:stats`: the team's numbers as bar charts. */
static int h_stats(struct tui *t, const char *a)
{
	(void)a;
	if (tui_top(t)->id == V_STATS)
		return TUI_OK;
	tui_push(t, view_stats_new(t));
	return TUI_REDRAW;
}

/* The save prompt's offer, as mutt's: the attachment's own name made
 * safe, in the folder attach.save_dir names (default "~/"). */
static char *save_offer(struct tui *t, int64_t id, const char *n,
			const char *dir)
{
	struct report_attachment *v = NULL;
	struct err err = { 0, "" };
	size_t nv = 0, unopened = 0, want = (size_t)strtoul(n, NULL, 10);
	char *name = NULL, *offer;

	if (report_attachments(t->ctx->sess, id, &v, &nv, &unopened, &err) == 0)
		for (size_t i = 0; i < nv && !name; i++)
			if (v[i].number == want)
				name = attachment_safe_name(v[i].info.filename,
							    want);
	report_attachments_free(v, nv);
	if (!name)
		return xstrdup("");
	offer = xasprintf("%s%s%s", dir,
			  *dir && dir[strlen(dir) - 1] != '/' ? "/" : "", name);
	free(name);
	return offer;
}

/* `s` in a report: attachment N saved to a file (on the prompt line),
 * its own safe name in attach.save_dir offered; "~" is the home folder
 * and a relative name goes under that folder, never where the UI was
 * started.  `attachment` says what went wrong. */
static int h_save_attachment(struct tui *t, const char *a)
{
	int64_t id = tui_current_report(t);
	struct tui_history hist = { { NULL }, 0 };
	const char *dir =
		config_get(t->ctx->sess->cfg, "attach.save_dir", "~/");
	char *n, *path, *line, *offer, *full, idbuf[24];
	int r;

	(void)a;
	if (!id) {
		tui_status(t, true, "no report selected");
		return TUI_OK;
	}
	if (!(n = prompt_read(t, "save attachment number: ", "", &hist, false)))
		return TUI_REDRAW;
	str_trim(n);
	offer = *n ? save_offer(t, id, n, dir) : NULL;
	if (!*n ||
	    !(path = prompt_read(t, "save it to the file: ", offer, &hist,
				 false))) {
		history_free(&hist);
		free(offer);
		free(n);
		return TUI_REDRAW;
	}
	free(offer);
	history_free(&hist);
	str_trim(path);
	full = attachment_save_path(dir, path);
	snprintf(idbuf, sizeof(idbuf), "%lld", (long long)id);
	{
		char *argv[] = { (char *)"attachment", idbuf, n, (char *)"-o",
				 full };
		line = cmd_join(ARRAY_SIZE(argv), argv);
	}
	r = *path ? tui_run_line(t, line) : TUI_REDRAW;
	free(line);
	free(full);
	free(path);
	free(n);
	return r;
}

/* J and K in a report: the next or previous report of the list, in its
 * order, in place of this one. */
static int step_report(struct tui *t, int dir)
{
	struct tui_view *v = tui_top(t);
	int64_t next;

	if (t->depth < 2 || t->stack[0]->id != V_REPORTS || v->id != V_REPORT)
		return TUI_OK;
	if (!(next = reports_step(t, t->stack[0], v->report_id, dir))) {
		tui_status(t, false, "no %s report in the list",
			   dir > 0 ? "next" : "previous");
		return TUI_OK;
	}
	t->stack[--t->depth] = NULL;
	v->ops->close(t, v);
	free(v);
	tui_push(t, view_report_new(t, next));
	return TUI_REDRAW;
}
static int h_next_report(struct tui *t, const char *a)
{
	(void)a;
	return step_report(t, 1);
}
static int h_prev_report(struct tui *t, const char *a)
{
	(void)a;
	return step_report(t, -1);
}

/* A digit in the list: the `:open` line, begun with it (mutt's jump). */
static int h_jump(struct tui *t, const char *a)
{
	char init[16];

	(void)a;
	snprintf(init, sizeof(init), "open %c",
		 t->last_key >= '0' && t->last_key <= '9' ? t->last_key : ' ');
	return tui_prompt_run(t, init);
}

/* `open [ID]`: the selected report, or report ID (over the list). */
static int h_open_id(struct tui *t, const char *a)
{
	struct report r;
	struct err err = { 0, "" };
	int64_t id;

	if (!*a)
		return h_open(t, a);
	if (parse_report_id(a, &id, &err) < 0) {
		tui_status(t, true, "%s", err.msg);
		return TUI_OK;
	}
	if (report_get(t->ctx->sess, id, &r, &err) < 0) {
		tui_status(t, true, "%s", err.msg);
		return TUI_OK;
	}
	report_release(&r);
	/* As mutt and tig return to the index: q from it goes to the list,
	 * not back through every view opened before. */
	while (t->depth > 1)
		pop(t);
	tui_push(t, view_report_new(t, id));
	return TUI_REDRAW;
}

static int h_reload(struct tui *t, const char *a)
{
	(void)a;
	clearok(curscr, TRUE);
	tui_status(t, false, "reloaded");
	return TUI_RELOAD;
}

#define ONE V_ONE_REPORT
#define LIST VBIT(V_REPORTS)
/* Views with a selected report: actions on "the current report" apply. */
#define SEL (VBIT(V_REPORTS) | VBIT(V_CALENDAR))
#define PAGERS (V_ALL)
/* The panels; their rows come first so their keys win there. */
#define PART VBIT(V_PARTICIPANTS)
#define VEND VBIT(V_VENDORS)
#define DISC VBIT(V_DISCLOSURE)

const struct tui_key_entry tui_key_table[] = {
	{ "check", "Space", PART,
	  "check or uncheck the suggested maintainer under the cursor",
	  panel_toggle, NULL, NULL },
	{ "bring-in", "a", PART,
	  "bring in the checked suggestions (asks first, naming them)",
	  panel_bring_in, NULL, NULL },
	{ "forward-all", "F", PART,
	  "forward the report to all its participants (asks first)", NULL,
	  "forward --participants", NULL },
	{ "remove", "x", PART,
	  "remove the participant under the cursor (asks first)", panel_remove,
	  NULL, NULL },
	{ "acknowledged", "A", PART,
	  "record that the participant under the cursor acknowledged the report (asks first)",
	  panel_ack, NULL, NULL },
	{ "notify", "M", VEND,
	  "record that the vendor under the cursor is notified (asks first)",
	  vendors_notify, NULL, NULL },
	{ "vendor-status", "u", VEND,
	  "update the vendor's status: the : line, prefilled", vendors_update,
	  NULL, NULL },
	{ "nda", "!", VEND,
	  "record the vendor's NDA request; the policy answers (asks first)",
	  vendors_nda, NULL, NULL },
	{ "propose-date", "P", DISC,
	  "record a proposed disclosure date: the : line, prefilled", NULL,
	  "prompt date propose", NULL },
	{ "down", "j Down", V_ALL, "move down a line", h_down, NULL, NULL },
	{ "up", "k Up", V_ALL, "move up a line", h_up, NULL, NULL },
	{ "page-down", "PgDn Space C-f", V_ALL, "move down a page", h_pgdn,
	  NULL, NULL },
	{ "page-up", "PgUp b C-b", V_ALL, "move up a page", h_pgup, NULL,
	  NULL },
	{ "half-down", "C-d", V_ALL, "move down half a page", h_halfdn, NULL,
	  NULL },
	{ "half-up", "C-u", V_ALL, "move up half a page", h_halfup, NULL,
	  NULL },
	{ "top", "g Home", V_ALL, "go to the first line", h_top, NULL, NULL },
	{ "bottom", "G End", V_ALL, "go to the last line", h_bottom, NULL,
	  NULL },
	{ "open", "Enter", LIST | VBIT(V_CALENDAR),
	  "open the selected report (:open ID opens that one)", h_open_id, NULL,
	  NULL },
	{ "jump", "0 1 2 3 4 5 6 7 8 9", LIST,
	  "open report N: type its number, then Enter", h_jump, NULL, NULL },
	{ "next-report", "J", VBIT(V_REPORT), "the next report of the list",
	  h_next_report, NULL, NULL },
	{ "prev-report", "K", VBIT(V_REPORT), "the previous report of the list",
	  h_prev_report, NULL, NULL },
	{ "back", "q", V_ALL, "go back; quit from the report list", h_back,
	  NULL, NULL },
	{ "quit", "Q", V_ALL, "quit at once", h_quit, NULL, NULL },
	{ "interrupt", "C-c", V_ALL, "quit, after asking", h_quit, NULL,
	  "quit secteam-tui?" },
	{ "suspend", "C-z", V_ALL, "suspend to the shell (fg comes back)",
	  h_suspend, NULL, NULL },
	{ "help", "? F1", V_ALL, "show the keys of this view", h_help, NULL,
	  NULL },
	{ "search", "/", V_ALL,
	  "search (the list: the next report matching, bodies too, as the search command reads a query; pagers: the text); :search QUERY shows the list of the matching reports only",
	  h_search, NULL, NULL },
	{ "search-next", "n", V_ALL, "next match", h_next, NULL, NULL },
	{ "search-prev", "N", V_ALL, "previous match", h_prev, NULL, NULL },
	{ "command", ":", V_ALL,
	  "run a command (any secteam-tui verb; Tab completes)", h_command,
	  NULL, NULL },
	{ "prompt", "", V_ALL, "open the : line prefilled with the arguments",
	  h_prompt, NULL, NULL },
	{ "sort", "s", LIST,
	  "cycle the sort: deadline, received, state, severity, subject",
	  reports_cycle_sort, NULL, NULL },
	{ "filter", "", LIST,
	  "filter the list by a query, as search takes it (state:open severity:high,critical, words...; none: clears)",
	  reports_set_filter, NULL, NULL },
	{ "timeline", "t", SEL | ONE, "the report's events, newest first",
	  h_timeline, NULL, NULL },
	{ "participants", "p", SEL | ONE,
	  "the report's participants and suggested maintainers", h_participants,
	  NULL, NULL },
	{ "vendors", "v", SEL | ONE, "the report's vendors and their statuses",
	  h_vendors, NULL, NULL },
	{ "disclosure", "d", SEL | ONE,
	  "the report's disclosure proposals and decided date", h_disclosure,
	  NULL, NULL },
	{ "calendar", "c", V_ALL, "the embargo calendar", h_calendar, NULL,
	  NULL },
	{ "stats", "#", V_ALL,
	  "the team's numbers as bar charts (stats --json: the figures)",
	  h_stats, NULL, NULL },
	{ "save-attachment", "s", VBIT(V_REPORT),
	  "save attachment N to a file: asks the number, then the file",
	  h_save_attachment, NULL, NULL },
	{ "note", "E", SEL | ONE, "write a note in $VISUAL/$EDITOR", NULL,
	  "note", NULL },
	{ "distros", "", SEL | ONE,
	  "the linux-distros notice: the draft in $VISUAL/$EDITOR, then asks",
	  NULL, "distros", NULL },
	{ "announce", "", SEL | ONE,
	  "the oss-security announcement: the draft in $VISUAL/$EDITOR, then asks",
	  NULL, "announce", NULL },
	{ "compose-reply", "r", SEL | ONE,
	  "reply to the reporter: the ack template (:reply --template NAME for another) in $VISUAL/$EDITOR, then asks",
	  NULL, "reply", NULL },
	{ "claim", "C", SEL | ONE,
	  "claim the report (another officer's: asks first, naming them)", NULL,
	  "triage --claim", NULL },
	{ "triaged", "T", SEL | ONE, "mark the report triaged", NULL,
	  "triage --state triaged", NULL },
	{ "accept", "A", SEL | (ONE & ~PART),
	  "accept the report (asks first, when the move is allowed)", NULL,
	  "triage --state accepted", NULL },
	{ "reject", "R", SEL | ONE,
	  "reject the report (asks first, when the move is allowed)", NULL,
	  "triage --state rejected", NULL },
	{ "severity", "S", SEL | ONE, "set the severity: the : line, prefilled",
	  NULL, "prompt triage --severity", NULL },
	{ "set-date", "D", SEL | ONE,
	  "set the disclosure date: the : line, prefilled", NULL,
	  "prompt date set", NULL },
	{ "reload", "C-l", V_ALL, "reread the data and redraw the screen",
	  h_reload, NULL, NULL },
};
const size_t tui_key_table_len = ARRAY_SIZE(tui_key_table);

const struct tui_key_entry *keys_find_verb(const char *name)
{
	for (size_t i = 0; i < tui_key_table_len; i++)
		if (tui_key_table[i].handler &&
		    !strcmp(tui_key_table[i].name, name))
			return &tui_key_table[i];
	return NULL;
}

static bool key_in(const char *keys, int key);

const struct tui_key_entry *keys_table_row(enum tui_view_id view, int key)
{
	for (size_t i = 0; i < tui_key_table_len; i++)
		if ((tui_key_table[i].views & VBIT(view)) &&
		    key_in(tui_key_table[i].keys, key))
			return &tui_key_table[i];
	return NULL;
}

/* --- key names -----------------------------------------------------------*/
static const struct {
	const char *name;
	int key;
} named[] = {
	{ "Enter", '\n' },
	{ "Space", ' ' },
	{ "Tab", '\t' },
	{ "Esc", 27 },
	{ "Backspace", 127 },
	{ "Up", TUI_KEY_FN(KEY_UP) },
	{ "Down", TUI_KEY_FN(KEY_DOWN) },
	{ "Left", TUI_KEY_FN(KEY_LEFT) },
	{ "Right", TUI_KEY_FN(KEY_RIGHT) },
	{ "PgUp", TUI_KEY_FN(KEY_PPAGE) },
	{ "PgDn", TUI_KEY_FN(KEY_NPAGE) },
	{ "Home", TUI_KEY_FN(KEY_HOME) },
	{ "End", TUI_KEY_FN(KEY_END) },
	{ "Del", TUI_KEY_FN(KEY_DC) },
	{ "Ins", TUI_KEY_FN(KEY_IC) },
};

const char *keys_name(int key)
{
	static char buf[16];

	for (size_t i = 0; i < ARRAY_SIZE(named); i++)
		if (named[i].key == key)
			return named[i].name;
	if (key >= TUI_KEY_FN(KEY_F(1)) && key <= TUI_KEY_FN(KEY_F(12))) {
		snprintf(buf, sizeof(buf), "F%d", key - TUI_KEY_FN(KEY_F(0)));
		return buf;
	}
	if (key > 0 && key < 32) {
		snprintf(buf, sizeof(buf), "C-%c", key + 'a' - 1);
		return buf;
	}
	if (key >= 32 && key < 0x110000) {
		mbstate_t st;
		size_t k;
		memset(&st, 0, sizeof(st));
		k = wcrtomb(buf, (wchar_t)key, &st);
		buf[k == (size_t)-1 ? 0 : k] = 0;
		return buf;
	}
	snprintf(buf, sizeof(buf), "<%d>", key);
	return buf;
}

int keys_from_name(const char *name)
{
	wchar_t wc;
	size_t k;
	mbstate_t st;

	for (size_t i = 0; i < ARRAY_SIZE(named); i++)
		if (!strcmp(named[i].name, name))
			return named[i].key;
	if (name[0] == 'C' && name[1] == '-' && name[2] >= 'a' &&
	    name[2] <= 'z' && !name[3])
		return name[2] - 'a' + 1;
	if (name[0] == 'F' && name[1] >= '1' && name[1] <= '9') {
		int n = atoi(name + 1);
		if (n >= 1 && n <= 12)
			return TUI_KEY_FN(KEY_F(n));
	}
	memset(&st, 0, sizeof(st));
	k = mbrtowc(&wc, name, strlen(name), &st);
	if (k == 0 || k == (size_t)-1 || k == (size_t)-2 || name[k])
		return -1;
	return (int)wc;
}

/* --- bindings ------------------------------------------------------------*/
static bool key_in(const char *keys, int key)
{
	char *copy = xstrdup(keys), *save = NULL;
	bool hit = false;

	for (char *w = strtok_r(copy, " ", &save); w && !hit;
	     w = strtok_r(NULL, " ", &save))
		hit = keys_from_name(w) == key;
	free(copy);
	return hit;
}

const char *keys_lookup(struct tui *t, enum tui_view_id view, int key,
			const struct tui_key_entry **entry)
{
	*entry = NULL;
	/* The config's bindings win over the table; the last one wins. */
	for (size_t i = t->nbinds; i-- > 0;)
		if ((t->binds[i].views & VBIT(view)) && t->binds[i].key == key)
			return t->binds[i].command;
	for (size_t i = 0; i < tui_key_table_len; i++) {
		const struct tui_key_entry *e = &tui_key_table[i];
		if ((e->views & VBIT(view)) && key_in(e->keys, key)) {
			*entry = e;
			return e->command ? e->command : e->name;
		}
	}
	return NULL;
}

int keys_parse_binds(struct tui *t)
{
	const struct config *cfg = t->ctx->sess->cfg;

	for (size_t i = 0; cfg && i < cfg->nbinds; i++) {
		char *copy = xstrdup(cfg->binds[i]), *save = NULL;
		char *view = strtok_r(copy, " \t", &save);
		char *key = view ? strtok_r(NULL, " \t", &save) : NULL;
		char *cmd = key ? save : NULL;
		int v, k;
		if (cmd)
			cmd = str_trim(cmd);
		if (cmd && *cmd == ':')
			cmd++;
		if (!cmd || !*cmd || (v = keys_view_from_name(view)) < -1 ||
		    (k = keys_from_name(key)) < 0) {
			tui_status(
				t, true,
				"config: bad bind line 'bind %s' (bind VIEW KEY COMMAND)",
				cfg->binds[i]);
			free(copy);
			continue;
		}
		t->binds =
			xrealloc(t->binds, (t->nbinds + 1) * sizeof(*t->binds));
		t->binds[t->nbinds].views = v < 0 ? V_ALL : VBIT(v);
		t->binds[t->nbinds].key = k;
		t->binds[t->nbinds].command = xstrdup(cmd);
		t->nbinds++;
		free(copy);
	}
	return 0;
}

void keys_free_binds(struct tui *t)
{
	for (size_t i = 0; i < t->nbinds; i++)
		free(t->binds[i].command);
	free(t->binds);
	t->binds = NULL;
	t->nbinds = 0;
}
