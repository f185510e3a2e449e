/*
 * One report: its headers, a trusted status bar, and the decrypted thread
 * in a pager.
 *
 * The status bar (signature verdict, signing key, whether the signer's
 * user ID matches From, whether it arrived encrypted) comes from our own
 * verification and is drawn on its own row, outside the text pane; every
 * pane line starts with a gutter the body cannot draw, so a body cannot
 * pass itself off as the bar or as our own lines (message separators,
 * attachments).  The bodies are decrypted when the view opens, made safe
 * with safe_text(), and the sanitized copies are wiped when it closes.
 */
#include <stdlib.h>
#include <string.h>

#include "tui/tui-int.h"

#define HEADER_ROWS 6

struct report_view {
	struct report_full rf;
	bool loaded;
	char **body;          /* per message: safe text, or NULL; wiped */
	char **berr;          /* per message: why it could not be opened */
	struct attachment_info **att; /* per message (data dropped) */
	size_t *natt;
	size_t nmsgs;
	struct tui_lines lines;
	int width;            /* the width lines were wrapped for */
};

static struct report_view *P(struct tui_view *v) { return v->priv; }

static void layout(struct tui *t, struct report_view *p)
{
	size_t keep = p->lines.n ? p->lines.src[p->lines.top] : 0;
	long hl_src = p->lines.hl >= 0 ? (long)p->lines.src[p->lines.hl] : -1;
	int w = COLS - 2 > 10 ? COLS - 2 : 10;
	char when[32];

	lines_release(&p->lines);
	p->lines.wipe = true;
	p->width = COLS;
	for (size_t i = 0; i < p->nmsgs; i++) {
		const struct message *m = &p->rf.msgs[i];
		char *from = safe_str(m->from_email);
		char *sep = xasprintf("message %zu of %zu, from %s, %s, %s%s%s", i + 1, p->nmsgs,
				      from, m->date ? fmt_rfc3339(m->date, when) : "no date",
				      m->verdict, m->encrypted ? ", encrypted" : "",
				      m->message_id_reused ?
					      ", MESSAGE-ID REUSED by another message (see the timeline)" : "");
		lines_add_wrapped(&p->lines, sep, w, A_BOLD | draw_color(t, CP_CYAN), 1);
		free(sep);
		free(from);
		if (p->body[i])
			lines_add_wrapped(&p->lines, p->body[i], w, A_NORMAL, 0);
		else
			lines_add_wrapped(&p->lines, p->berr[i], w, draw_color(t, CP_RED) | A_BOLD, 1);
		for (size_t j = 0; j < p->natt[i]; j++) {
			const struct attachment_info *a = &p->att[i][j];
			char *fn = safe_str(a->filename ? a->filename : "(unnamed)");
			char *ct = safe_str(a->content_type);
			char *s = xasprintf("attachment %zu: %s, %s, %zu bytes%s", j + 1, fn, ct,
					    a->size, a->exploit ? "  [!] EXPLOIT CODE: not to be released without consent" : "");
			lines_add_wrapped(&p->lines, s, w,
					  a->exploit ? (draw_color(t, CP_RED) | A_BOLD) : A_BOLD, 1);
			free(s);
			free(fn);
			free(ct);
		}
		lines_add(&p->lines, "", A_NORMAL, 1);
	}
	p->lines.top = lines_find_src(&p->lines, keep);
	p->lines.hl = hl_src >= 0 ? (long)lines_find_src(&p->lines, (size_t)hl_src) : -1;
}

static void load_row(struct tui *t, struct tui_view *v)
{
	struct report_view *p = P(v);
	struct report_full rf;
	struct err err = { 0, "" };

	if (report_load(t->ctx, v->report_id, &rf, &err) < 0) {
		report_full_release(&rf);
		tui_status(t, true, "%s", err.msg);
		return;
	}
	if (p->loaded)
		report_full_release(&p->rf);
	p->rf = rf;
	p->loaded = true;
}

static void open_bodies(struct tui *t, struct report_view *p)
{
	p->nmsgs = p->rf.nmsgs;
	p->body = xcalloc(p->nmsgs + 1, sizeof(*p->body));
	p->berr = xcalloc(p->nmsgs + 1, sizeof(*p->berr));
	p->att = xcalloc(p->nmsgs + 1, sizeof(*p->att));
	p->natt = xcalloc(p->nmsgs + 1, sizeof(*p->natt));
	for (size_t i = 0; i < p->nmsgs; i++) {
		struct opened_message om;
		struct err err = { 0, "" };
		if (report_open_message(t->ctx, p->rf.msgs[i].id, &om, &err) < 0) {
			p->berr[i] = safe_str(err.msg);
			opened_message_release(&om);
			continue;
		}
		p->body[i] = safe_text(om.body ? om.body : "", om.body_len,
				       SAFE_KEEP_NEWLINE | SAFE_KEEP_TAB);
		p->natt[i] = om.natt;
		p->att[i] = xcalloc(om.natt + 1, sizeof(**p->att));
		for (size_t j = 0; j < om.natt; j++) {
			p->att[i][j] = om.att[j];
			p->att[i][j].filename = om.att[j].filename ? xstrdup(om.att[j].filename) : NULL;
			p->att[i][j].content_type = xstrdup(om.att[j].content_type);
			p->att[i][j].data = NULL;
		}
		opened_message_release(&om);
	}
}

static int pane_top(void) { return 1 + HEADER_ROWS + 1; }
static int pane_height(void)
{
	int h = LINES - 1 - pane_top();
	return h > 1 ? h : 1;
}

static void header(int y, const char *name, const char *safe_value, attr_t a)
{
	draw_text(y, 0, 12, name, A_BOLD);
	draw_text(y, 12, COLS - 12, safe_value, a);
}

static void draw_headers(struct tui *t, struct report_view *p)
{
	const struct report *r = &p->rf.r;
	char b1[32], b2[64], *s, *who, *claimed, *files;
	struct sbuf sb = SBUF_INIT;
	time_t now = util_now();

	s = safe_str(r->subject);
	header(1, "Subject", s, A_BOLD);
	free(s);
	who = xasprintf("%s <%s>", r->reporter_name ? r->reporter_name : "",
			r->reporter_email ? r->reporter_email : "");
	s = safe_str(who);
	header(2, "From", s, A_NORMAL);
	free(s);
	free(who);
	s = xasprintf("%s (%s)", fmt_rfc3339(r->received, b1), fmt_local(r->received, b2));
	header(3, "Received", s, A_NORMAL);
	free(s);
	claimed = safe_str(r->claimed_by && *r->claimed_by ? r->claimed_by : "nobody");
	s = xasprintf("%s   severity %s   claimed by %s   %s", r->state, r->severity, claimed,
		      r->public ? "ALREADY PUBLIC" : "embargoed");
	header(4, "State", s, A_NORMAL);
	free(s);
	free(claimed);
	if (r->disclosure) {
		long d = days_between(now, r->disclosure);
		bool over = r->disclosure < now, soon = !over && r->disclosure - now < 86400;
		s = xasprintf("%s%s (%+ld days)", over ? "! OVERDUE " : soon ? "* DUE TODAY " : "",
			      fmt_rfc3339(r->disclosure, b1), d);
		header(5, "Disclosure", s, over ? (draw_color(t, CP_RED) | A_BOLD)
				       : soon ? (draw_color(t, CP_YELLOW) | A_BOLD) : A_NORMAL);
		free(s);
	} else {
		header(5, "Disclosure", "no date decided (policy: 7 days from the start)", A_DIM);
	}
	for (size_t i = 0; i < p->rf.nfiles; i++)
		sbuf_addf(&sb, "%s%s", i ? " " : "", p->rf.files[i]);
	files = safe_str(sb.buf ? sb.buf : "-");
	header(6, "Files", files, A_NORMAL);
	free(files);
	sbuf_release(&sb);
}

/* The trusted bar: our verification of the first message, on its own row. */
static void draw_trust(struct tui *t, struct report_view *p)
{
	const struct message *m = p->rf.nmsgs ? &p->rf.msgs[0] : NULL;
	const char *verdict = m ? m->verdict : "no message";
	bool ok = m && !strcmp(m->verdict, "valid");
	const char *f = m && m->fingerprint ? m->fingerprint : "-";
	/* The long key id when the full fingerprint does not fit. */
	char *fpr = safe_str(COLS < 120 && strlen(f) > 16 ? f + strlen(f) - 16 : f);
	char *s;
	int y = pane_top() - 1, x;
	attr_t a = A_REVERSE | A_BOLD;

	draw_fill(y, 0, COLS, A_REVERSE);
	x = draw_text(y, 0, COLS, t->utf8 ? " \xe2\x96\xa0 TRUSTED " : " # TRUSTED ", a);
	s = xasprintf(" signature: %s ", verdict);
	x += draw_text(y, x, COLS - x, s, A_REVERSE | (ok ? draw_color(t, CP_GREEN) : draw_color(t, CP_RED)) | A_BOLD);
	free(s);
	s = xasprintf("| signer matches From: %s | encrypted: %s | key %s ",
		      m && m->signer_matches_from ? "yes" : "NO",
		      p->rf.r.encrypted ? "yes" : "NO", fpr);
	draw_text(y, x, COLS - x, s, A_REVERSE);
	free(s);
	free(fpr);
}

static void report_draw(struct tui *t, struct tui_view *v)
{
	struct report_view *p = P(v);

	if (!p->loaded) {
		tui_title(t, " report %lld", (long long)v->report_id);
		draw_text(2, 2, COLS - 2, "this report cannot be read (see the status line)", A_BOLD);
		return;
	}
	if (p->width != COLS)
		layout(t, p);
	tui_title(t, " report %lld: %s, %s  (%zu message%s)  t:timeline p:participants v:vendors d:disclosure",
		  (long long)v->report_id, p->rf.r.state, p->rf.r.severity, p->nmsgs,
		  p->nmsgs == 1 ? "" : "s");
	draw_headers(t, p);
	lines_draw(t, &p->lines, pane_top(), pane_height(), 1);
	/* Drawn after the pane: nothing from the body can be on its row. */
	draw_trust(t, p);
}

static int report_move(struct tui *t, struct tui_view *v, enum tui_motion m)
{
	(void)t;
	return lines_move(&P(v)->lines, pane_height(), m);
}

static int rv_search(struct tui *t, struct tui_view *v, int dir, bool fresh)
{
	struct report_view *p = P(v);
	char *needle = safe_str(t->search);
	int i = lines_search(&p->lines, needle, dir, fresh);

	free(needle);
	if (i < 0) {
		tui_status(t, true, "not found: %s", t->search);
		return TUI_REDRAW;
	}
	tui_status(t, false, "/%s: line %d", t->search, i + 1);
	return TUI_REDRAW;
}

static void report_reload(struct tui *t, struct tui_view *v)
{
	load_row(t, v);
}

static void report_close(struct tui *t, struct tui_view *v)
{
	struct report_view *p = P(v);

	(void)t;
	lines_release(&p->lines);
	for (size_t i = 0; i < p->nmsgs; i++) {
		if (p->body[i])
			wipe_free(p->body[i], strlen(p->body[i]));
		free(p->berr[i]);
		for (size_t j = 0; j < p->natt[i]; j++) {
			free(p->att[i][j].filename);
			free(p->att[i][j].content_type);
		}
		free(p->att[i]);
	}
	free(p->body);
	free(p->berr);
	free(p->att);
	free(p->natt);
	if (p->loaded)
		report_full_release(&p->rf);
	free(p);
}

static const struct tui_view_ops report_ops = {
	"report", report_draw, report_move, NULL, rv_search,
	report_reload, report_close, NULL,
};

struct tui_view *view_report_new(struct tui *t, int64_t id)
{
	struct tui_view *v = xcalloc(1, sizeof(*v));
	struct report_view *p = xcalloc(1, sizeof(*p));

	v->id = V_REPORT;
	v->ops = &report_ops;
	v->priv = p;
	v->report_id = id;
	p->lines.hl = -1;
	p->lines.wipe = true;
	tui_status(t, false, "opening report %lld...", (long long)id);
	load_row(t, v);
	if (p->loaded) {
		open_bodies(t, p);
		tui_status(t, false, "%s", "");
	}
	return v;
}
