/*
 * The participants panel of an open report: who was brought in (and
 * removed, and who acknowledged), what MAINTAINERS suggests for the
 * report (maintainers_suggest(), computed once when the panel opens: it
 * decrypts the thread and reads MAINTAINERS), and the files it touches.
 * Space checks suggestions (kept by address across reloads), a brings the
 * checked ones in and x removes the participant under the cursor, each
 * after a
 * y/n question that names who; a mailing list (usually public) is only
 * brought in after a question of its own.  The change itself is the
 * `maintainers ID --add ADDR | --remove ADDR` command, run through the
 * runner with the addresses as values.
 */
#include <stdlib.h>
#include <string.h>

#include "tui/panel.h"

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
		p->sug_rc = maintainers_suggest(t->ctx->sess, v->report_id,
						NULL, false, &p->sug, &err);
		snprintf(p->sug_err, sizeof(p->sug_err), "%s", err.msg);
		p->sug_loaded = true;
	}
	if (p->sug_rc < 0 && !p->sug.tree) {
		panel_add(
			l, A_BOLD | draw_color(t, CP_YELLOW),
			"no kernel tree: set kernel.tree in the config or :maintainers --tree DIR");
		panel_add(l, A_DIM, "  %s", p->sug_err);
		return;
	}
	if (p->sug_rc < 0) {
		panel_add(l, A_BOLD | draw_color(t, CP_RED),
			  "no suggestions: %s", p->sug_err);
		return;
	}
	panel_add(
		l, A_BOLD | A_UNDERLINE,
		"Suggested by %s/MAINTAINERS: Space checks, a brings in the checked",
		p->sug.tree);
	for (size_t i = 0; i < p->sug.res.n; i++) {
		const struct maint_entry *e = &p->sug.res.v[i];
		char *line;
		if (maintainers_hidden(e, p->sug.catch_all) ||
		    active(pv, n, e->email))
			continue;
		bool uns = e >= p->sug.res.v + p->sug.nsigned;
		line = maint_entry_format(e);
		panel_item(p, IT_SUG, e->email, line);
		p->items[p->nitems - 1].list = e->is_list;
		panel_add(l,
			  uns ? (A_BOLD | draw_color(t, CP_YELLOW)) : A_NORMAL,
			  "  [%c] %s%s%s",
			  panel_checked_find(p, e->email) >= 0 ? 'x' : ' ',
			  line,
			  e->is_list ? "  (mailing list: may be public)" : "",
			  uns ? "  [!] only from unsigned parts" : "");
		free(line);
		shown++;
	}
	if (!shown)
		panel_add(l, A_DIM, "  %s",
			  p->sug.res.n
				  ? "everyone suggested is brought in"
				  : "MAINTAINERS names nobody for this report");
	if (p->sug.hidden)
		panel_add(
			l, A_DIM,
			"  %zu catch-all entr%s left out (:maintainers --with-catch-all lists %s)",
			p->sug.hidden, p->sug.hidden > 1 ? "ies" : "y",
			p->sug.hidden > 1 ? "them" : "it");
	if (p->sug.warnings)
		lines_add_wrapped(l, p->sug.warnings, COLS > 10 ? COLS : 10,
				  A_DIM, 1);
}

static void fill_participants(struct tui *t, struct tui_view *v,
			      struct panel *p)
{
	struct tui_lines *l = &p->lines;
	struct report_full rf;
	struct participant *pv = NULL;
	struct err err = { 0, "" };
	size_t n = 0, nactive = 0;
	char b1[32], b2[32], b3[32];

	if (participants_list(t->ctx->sess, v->report_id, true, &pv, &n, &err) <
	    0)
		panel_add(l, A_BOLD | draw_color(t, CP_RED), "%s", err.msg);
	for (size_t i = 0; i < n; i++)
		nactive += !pv[i].removed_at;
	panel_add(l, A_BOLD | A_UNDERLINE,
		  "Participants (%zu): A records an acknowledgement, "
		  "x removes, F forwards to all",
		  nactive);
	for (size_t i = 0; i < n; i++) {
		const struct participant *q = &pv[i];
		char *who = participant_format(q);
		if (!q->removed_at)
			panel_item(p, IT_PART, q->email, who);
		panel_add(l, q->removed_at ? A_DIM : A_NORMAL, "  %s%s", who,
			  q->removed_at ? "  [removed]" : "");
		panel_add(l, A_DIM, "      added by %s on %s, %s%s%s%s%s%s",
			  q->added_by ? q->added_by : "?",
			  panel_day(q->added_at, b1),
			  q->acknowledged_at ? "acknowledged "
					     : "not acknowledged",
			  q->acknowledged_at ? panel_day(q->acknowledged_at, b2)
					     : "",
			  q->removed_at ? ", removed on " : "",
			  q->removed_at ? panel_day(q->removed_at, b3) : "",
			  q->removed_at && q->removed_by ? " by " : "",
			  q->removed_at && q->removed_by ? q->removed_by : "");
		free(who);
	}
	if (!n)
		panel_add(
			l, A_DIM,
			"  no participants yet \xe2\x80\x94 check suggestions below and press a");
	panel_add(l, A_NORMAL, "%s", "");
	fill_suggestions(t, v, p, pv, n);
	participants_free(pv, n);
	if (report_load(t->ctx->sess, v->report_id, &rf, &err) == 0) {
		panel_add(l, A_NORMAL, "%s", "");
		panel_add(
			l, A_BOLD | A_UNDERLINE,
			"Files this report touches (what :maintainers looks up)");
		for (size_t i = 0; i < rf.nfiles; i++)
			panel_add(l, A_NORMAL, "  %s", rf.files[i]);
		if (!rf.nfiles)
			panel_add(l, A_DIM,
				  "  none found in the report's text");
	}
	report_full_release(&rf);
}

int panel_toggle(struct tui *t, const char *args)
{
	struct item *it =
		panel_cursor(t, V_PARTICIPANTS, IT_SUG, "a suggestion");
	struct panel *p;
	long k;

	(void)args;
	if (!it)
		return TUI_OK;
	p = tui_top(t)->priv;
	if ((k = panel_checked_find(p, it->key)) >= 0) {
		free(p->checked[k]);
		p->checked[k] = p->checked[--p->nchecked];
	} else {
		p->checked = xrealloc(p->checked,
				      (p->nchecked + 1) * sizeof(*p->checked));
		p->checked[p->nchecked++] = xstrdup(it->key);
	}
	panel_reload(t, tui_top(t));
	tui_status(t, false, "%zu checked: a brings %s in", p->nchecked,
		   p->nchecked == 1 ? "it" : "them");
	return TUI_REDRAW;
}

/* The report's id as a command's word. */
static char *id_word(int64_t id)
{
	return xasprintf("%lld", (long long)id);
}

int panel_bring_in(struct tui *t, const char *args)
{
	struct tui_view *v = tui_top(t);
	struct sbuf who = SBUF_INIT;
	char **argv, *q;
	struct panel *p;
	size_t lists = 0, nadd = 0;
	int argc = 0, r, status;
	bool yes;

	(void)args;
	if (v->id != V_PARTICIPANTS) {
		tui_status(t, true, "only in the participants panel");
		return TUI_OK;
	}
	p = v->priv;
	/* `maintainers ID --add ADDR...`, the addresses as values. */
	argv = xcalloc(2 * p->nitems + 3, sizeof(*argv));
	argv[argc++] = xstrdup("maintainers");
	argv[argc++] = id_word(v->report_id);
	for (size_t i = 0; i < p->nitems; i++)
		if (p->items[i].kind == IT_SUG &&
		    panel_checked_find(p, p->items[i].key) >= 0) {
			char *s = safe_str(p->items[i].key);
			argv[argc++] = xstrdup("--add");
			argv[argc++] = xstrdup(p->items[i].key);
			sbuf_addf(&who, "%s%s", who.len ? ", " : "", s);
			free(s);
			lists += p->items[i].list;
			nadd++;
		}
	if (!nadd) {
		cmd_split_free(argv, argc);
		sbuf_release(&who);
		tui_status(
			t, true,
			"nothing checked: Space checks the suggestion under the cursor");
		return TUI_OK;
	}
	/* Who will be told of an embargoed report: asked first, and a list
	 * (usually public) asked about on its own. */
	q = xasprintf("bring %s into report %lld?", who.buf,
		      (long long)v->report_id);
	yes = tui_confirm(t, q);
	free(q);
	if (yes && lists) {
		q = xasprintf(
			"%zu of them %s a mailing list that may be public: bring %s in anyway?",
			lists, lists > 1 ? "are" : "is",
			lists > 1 ? "them" : "it");
		yes = tui_confirm(t, q);
		free(q);
	}
	sbuf_release(&who);
	if (!yes) {
		cmd_split_free(argv, argc);
		tui_status(t, false, "nobody brought in");
		return TUI_REDRAW;
	}
	r = tui_run_argv(t, argc, argv, &status);
	cmd_split_free(argv, argc);
	if (status == CMD_OK)
		panel_checked_clear(p);
	return r;
}

/* `maintainers ID FLAG ADDR` on the participant under the cursor, after
 * the question q (a format with the participant and the report). */
static int participant_act(struct tui *t, const char *q_fmt, const char *flag)
{
	struct item *it =
		panel_cursor(t, V_PARTICIPANTS, IT_PART, "a participant");
	char *q, *label, *argv[4], *id;
	bool yes;
	int r;

	if (!it)
		return TUI_OK;
	label = safe_str(it->label);
	q = xasprintf(q_fmt, label, (long long)tui_top(t)->report_id);
	free(label);
	yes = tui_confirm(t, q);
	free(q);
	if (!yes)
		return TUI_REDRAW;
	/* The runner's getopt reorders argv: the id is freed by name. */
	id = id_word(tui_top(t)->report_id);
	argv[0] = (char *)"maintainers";
	argv[1] = id;
	argv[2] = (char *)flag;
	argv[3] = it->key;
	r = tui_run_argv(t, 4, argv, NULL);
	free(id);
	return r;
}

int panel_remove(struct tui *t, const char *args)
{
	(void)args;
	return participant_act(t, "remove %s from report %lld?", "--remove");
}

/* A: the participant under the cursor acknowledged the report (a
 * reply, a call): `maintainers ID --ack ADDR`, after a question naming
 * them. */
int panel_ack(struct tui *t, const char *args)
{
	(void)args;
	return participant_act(t, "record that %s acknowledged report %lld?",
			       "--ack");
}

struct tui_view *view_participants_new(struct tui *t, int64_t id)
{
	return panel_new(t, id, V_PARTICIPANTS, "participants",
			 fill_participants);
}
