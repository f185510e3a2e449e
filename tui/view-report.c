/*
 * One report: its headers, the signature bar, and the decrypted thread in
 * a pager.
 *
 * The signature bar (verdict, the signer named by the user ID the keyring
 * vouches for, whether that key speaks for every From address, whether
 * it arrived encrypted) comes from our own verification and is drawn on
 * its own row, outside the text pane, colored by its class (trusted,
 * warning, bad) and saying it in words.  Every pane line starts with a
 * gutter the body cannot draw, one for our lines, one for body text and
 * one for body text the signature does not cover, so a body cannot pass
 * itself off as the bar, as our own lines (message separators,
 * attachments) or as signed text.  The From row puts the address first.
 * The bodies are decrypted when the view opens, made safe with
 * safe_text(), and the sanitized copies are wiped when it closes.
 */
#include <stdlib.h>
#include <string.h>

#include "core/fixcve.h"
#include "tui/tui-int.h"

#define HEADER_ROWS 6

/* One message of the thread as the pane shows it: every string already
 * safe for the terminal; body lines wiped when the view closes. */
struct shown_msg {
	char **line; /* body lines (tabs kept) */
	bool *unsig; /* per line: outside what the verdict covers */
	size_t nline;
	char *err; /* why it could not be opened, or NULL */
	struct attachment_info *att; /* data dropped */
	size_t natt;
	char *from; /* every From mailbox, address first */
	/* This opening's verdict (the stored row's when it did not open):
	 * what the message's heading shows. */
	enum sig_verdict verdict;
	bool verified; /* verified again, not as recorded at import */
};

struct report_view {
	struct report_full rf;
	bool loaded;
	struct shown_msg *msg;
	size_t nmsgs;
	char *signer; /* the first message's signer (safe), or NULL */
	bool signer_valid;
	/* The first message's verdict as this opening found it (struct
	 * opened_message: verified again from the stored bytes); opened
	 * false when it could not be opened (the stored row's then). */
	bool opened;
	enum sig_verdict verdict;
	bool signer_matches_from;
	char *unsigned_files; /* files only unsigned parts touch (safe) */
	struct tui_lines lines;
	int width; /* the width lines were wrapped for */
};

static struct report_view *P(struct tui_view *v)
{
	return v->priv;
}

static void layout(struct tui *t, struct report_view *p)
{
	size_t keep = p->lines.n ? p->lines.src[p->lines.top] : 0;
	long hl_src = p->lines.hl >= 0 ? (long)p->lines.src[p->lines.hl] : -1;
	int w = COLS - 2 > 10 ? COLS - 2 : 10;
	char when[32], *cvss;
	size_t natt = 0; /* attachments are numbered across the thread */

	lines_release(&p->lines);
	p->lines.wipe = true;
	p->width = COLS;
	/* The score the public records will carry, above the thread. */
	if ((cvss = cvss_events_format(p->rf.events, p->rf.nevents))) {
		char *line = xasprintf("CVSS 3.1 base score %s", cvss);
		char *safe = safe_str(line);
		lines_add_wrapped(&p->lines, safe, w, A_BOLD, LINE_OURS);
		lines_add(&p->lines, "", A_NORMAL, LINE_OURS);
		free(safe);
		free(line);
		free(cvss);
	}
	for (size_t i = 0; i < p->nmsgs; i++) {
		const struct message *m = &p->rf.msgs[i];
		const struct shown_msg *sm = &p->msg[i];
		char *from = sm->from ? xstrdup(sm->from)
				      : safe_str(m->from_email);
		bool uns = false;
		char *sep;

		for (size_t k = 0; k < sm->nline; k++)
			uns = uns || sm->unsig[k];
		sep = xasprintf(
			"message %zu of %zu, from %s, %s, %s%s%s%s%s", i + 1,
			p->nmsgs, from,
			m->date ? fmt_rfc3339(m->date, when) : "no date",
			sig_verdict_name(sm->verdict),
			sm->err || sm->verified ? ""
						: " (as recorded at import)",
			m->encrypted ? ", encrypted" : "",
			uns ? "; lines marked ! are not signed" : "",
			m->message_id_reused
				? ", MESSAGE-ID REUSED by another message (see the timeline)"
				: "");
		lines_add_wrapped(&p->lines, sep, w,
				  A_BOLD | draw_color(t, CP_CYAN), LINE_OURS);
		free(sep);
		free(from);
		if (sm->err)
			lines_add_wrapped(&p->lines, sm->err, w,
					  draw_color(t, CP_RED) | A_BOLD,
					  LINE_OURS);
		for (size_t k = 0; k < sm->nline; k++)
			lines_add_wrapped(
				&p->lines, sm->line[k], w,
				sm->unsig[k] ? draw_color(t, CP_YELLOW)
					     : A_NORMAL,
				sm->unsig[k] ? LINE_UNSIGNED : LINE_BODY);
		for (size_t j = 0; j < sm->natt; j++) {
			const struct attachment_info *a = &sm->att[j];
			char *fn = safe_str(a->filename ? a->filename
							: "(unnamed)");
			char *ct = safe_str(a->content_type);
			char *s = xasprintf(
				"attachment %zu: %s, %s, %zu bytes%s%s", ++natt,
				fn, ct, a->size,
				a->unsigned_part ? "  [!] NOT SIGNED" : "",
				a->exploit
					? "  [!] EXPLOIT CODE: not to be released without consent"
					: "");
			lines_add_wrapped(&p->lines, s, w,
					  a->exploit || a->unsigned_part
						  ? (draw_color(t, CP_RED) |
						     A_BOLD)
						  : A_BOLD,
					  LINE_OURS);
			free(s);
			free(fn);
			free(ct);
		}
		lines_add(&p->lines, "", A_NORMAL, LINE_OURS);
	}
	p->lines.top = lines_find_src(&p->lines, keep);
	p->lines.hl = hl_src >= 0
		? (long)lines_find_src(&p->lines, (size_t)hl_src)
		: -1;
}

/* What the report's signed chain does not account for is not shown:
 * the first of it, on the status line. */
static void say_hidden(struct tui *t, const struct report_full *rf)
{
	tui_status(t, true, "%s%s", rf->hidden[0],
		   rf->nhidden > 1 ? " (and more: secteam-tui show names each)"
				   : "");
}

static void load_row(struct tui *t, struct tui_view *v)
{
	struct report_view *p = P(v);
	struct report_full rf;
	struct err err = { 0, "" };

	if (report_load(t->ctx->sess, v->report_id, &rf, &err) < 0) {
		report_full_release(&rf);
		tui_status(t, true, "%s", err.msg);
		return;
	}
	/* Said when first found (on opening: view_report_new), not at
	 * every reload. */
	if (p->loaded && rf.nhidden && p->rf.nhidden != rf.nhidden)
		say_hidden(t, &rf);
	if (p->loaded)
		report_full_release(&p->rf);
	p->rf = rf;
	p->loaded = true;
}

/* Takes what the pane shows out of an opened message. */
static void take_shown(struct shown_msg *sm, const struct opened_message *om)
{
	struct body_line *bl;
	size_t n = opened_message_lines(om, &bl);

	sm->nline = n;
	sm->line = xcalloc(n + 1, sizeof(*sm->line));
	sm->unsig = xcalloc(n + 1, sizeof(*sm->unsig));
	for (size_t k = 0; k < n; k++) {
		sm->line[k] = safe_text(bl[k].s, bl[k].len, SAFE_KEEP_TAB);
		sm->unsig[k] = bl[k].unsigned_text;
	}
	free(bl);
	sm->from = om->nfrom ? senders_format(om->from, om->nfrom) : NULL;
	sm->verdict = om->verdict;
	sm->verified = om->verified_now;
	sm->natt = om->natt;
	sm->att = xcalloc(om->natt + 1, sizeof(*sm->att));
	for (size_t j = 0; j < om->natt; j++) {
		sm->att[j] = om->att[j];
		sm->att[j].filename = om->att[j].filename
			? xstrdup(om->att[j].filename)
			: NULL;
		sm->att[j].content_type = xstrdup(om->att[j].content_type);
		sm->att[j].data = NULL;
	}
}

static void open_bodies(struct tui *t, struct report_view *p)
{
	struct sbuf uf = SBUF_INIT;

	p->nmsgs = p->rf.nmsgs;
	p->msg = xcalloc(p->nmsgs + 1, sizeof(*p->msg));
	for (size_t i = 0; i < p->nmsgs; i++) {
		struct opened_message om;
		struct err err = { 0, "" };
		if (report_open_thread(t->ctx->sess, &p->rf, i, &om, &err) <
		    0) {
			p->msg[i].err = safe_str(err.msg);
			p->msg[i].verdict = SIG_ERROR;
			opened_message_release(&om);
			continue;
		}
		take_shown(&p->msg[i], &om);
		if (i == 0) {
			p->opened = true;
			p->verdict = om.verdict;
			p->signer_matches_from = om.signer_matches_from;
		}
		if (i == 0 && om.signer) {
			p->signer = safe_str(om.signer);
			p->signer_valid = om.signer_valid;
		}
		for (size_t k = 0; k < om.nfiles_unsigned; k++)
			sbuf_addf(&uf, "%s%s", uf.len ? " " : "",
				  om.files_unsigned[k]);
		opened_message_release(&om);
	}
	p->unsigned_files = uf.len ? safe_str(uf.buf) : NULL;
	sbuf_release(&uf);
}

/* The signature bar takes a second row when one would cut it: its
 * trust fields are never cut (TRUST_WIDE: the columns one row needs for
 * a usual signer). */
#define TRUST_WIDE 120
/* Set by each draw from what the bar says: two rows when its one row
 * would not hold it whole (a long user ID on a screen wider than
 * TRUST_WIDE too). */
static bool trust_two_rows;
static int trust_rows(void)
{
	return COLS < TRUST_WIDE || trust_two_rows ? 2 : 1;
}
static int pane_top(void)
{
	return 1 + HEADER_ROWS + trust_rows();
}
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

/* The Embargo line: embargo.c's words, the same the md/txt export
 * writes, with the OVERDUE / DUE TODAY mark and color. */
static void draw_embargo(struct tui *t, const struct report *r, time_t now)
{
	struct policy pol;
	struct embargo e;
	char b[160], *s;
	bool over, soon;

	policy_from_config(t->ctx->sess->cfg, &pol);
	embargo_of_report(&pol, r, now, &e);
	over = e.state == EMBARGO_OVERDUE;
	soon = embargo_active(&e) && !over && e.soon;
	s = xasprintf("%s%s",
		      over	     ? "! OVERDUE "
			      : soon ? "* DUE TODAY "
				     : "",
		      embargo_describe(&e, b));
	if (text_width(s) > COLS - 12 && embargo_active(&e)) {
		/* The same in fewer words, whole on a narrow screen: the
		 * day, not the time, and no word twice. */
		char day[16], in[32];
		struct tm tm;
		long n = e.days < 0 ? -e.days : e.days;
		time_t d = e.deadline;

		gmtime_r(&d, &tm);
		strftime(day, sizeof(day), "%Y-%m-%d", &tm);
		free(s);
		s = over
			? xasprintf(
				  "! OVERDUE since %s (%ld day%s)%s; under embargo",
				  day, n, n == 1 ? "" : "s",
				  e.decided ? "" : ", no date decided")
			: xasprintf("%s%s %s (%s)%s; under embargo",
				    soon ? "* DUE TODAY " : "",
				    e.decided ? "until" : "default until", day,
				    fmt_in_days(e.days, in),
				    e.decided ? "" : ", no date decided");
	}
	header(5, "Embargo", s,
	       over	      ? (draw_color(t, CP_RED) | A_BOLD)
		       : soon ? (draw_color(t, CP_YELLOW) | A_BOLD)
		       : e.state == EMBARGO_UNDECIDED ? A_DIM
						      : A_NORMAL);
	free(s);
}

static void draw_headers(struct tui *t, struct report_view *p)
{
	const struct report *r = &p->rf.r;
	char b1[32], b2[64], *s, *claimed, *files;
	struct sbuf sb = SBUF_INIT, links = SBUF_INIT;
	time_t now = util_now();

	s = safe_str(r->subject);
	header(1, "Subject", s, A_BOLD);
	free(s);
	/* Address first: a long or padded display name cannot hide it. */
	s = p->nmsgs && p->msg[0].from
		? xstrdup(p->msg[0].from)
		: sender_format(r->reporter_name, r->reporter_email);
	header(2, "From", s,
	       strstr(s, "[!]") ? (draw_color(t, CP_RED) | A_BOLD) : A_NORMAL);
	free(s);
	s = xasprintf("%s (%s)", fmt_rfc3339(r->received, b1),
		      fmt_local(r->received, b2));
	header(3, "Received", s, A_NORMAL);
	free(s);
	claimed = safe_str(r->claimed_by && *r->claimed_by ? r->claimed_by
							   : "nobody");
	/* The duplicate links (triage.h): of which report, and which
	 * reports duplicate this one. */
	if (p->rf.duplicate_of)
		sbuf_addf(&links, "   duplicate of #%lld",
			  (long long)p->rf.duplicate_of);
	else if (!strcmp(r->state, "duplicate"))
		sbuf_adds(&links, "   duplicate of (not recorded)");
	for (size_t i = 0; i < p->rf.nduplicates; i++)
		sbuf_addf(&links, "%s#%lld", i ? ", " : "   duplicates: ",
			  (long long)p->rf.duplicates[i]);
	s = xasprintf("%s   severity %s   claimed by %s%s", r->state,
		      r->severity, claimed, links.len ? links.buf : "");
	sbuf_release(&links);
	header(4, "State", s, A_NORMAL);
	free(s);
	free(claimed);
	draw_embargo(t, r, now);
	for (size_t i = 0; i < p->rf.nfiles; i++)
		sbuf_addf(&sb, "%s%s", i ? " " : "", p->rf.files[i]);
	files = safe_str(sb.buf ? sb.buf : "-");
	sbuf_release(&sb);
	if (p->unsigned_files) {
		s = xasprintf("%s   [!] unsigned: %s", files,
			      p->unsigned_files);
		free(files);
		files = s;
	}
	header(6, "Files", files,
	       p->unsigned_files ? (draw_color(t, CP_YELLOW) | A_BOLD)
				 : A_NORMAL);
	free(files);
}

/*
 * The signature bar: our own verification of the first message, on its
 * own row below the pane (nothing from a body can be drawn there),
 * colored by its class and saying it in words too (for NO_COLOR).  The
 * signer is named by the user ID the keyring vouches for; a user ID
 * nobody certified is the sender's own claim and is not shown here.
 */
static void draw_trust(struct tui *t, struct report_view *p, bool measure)
{
	const struct message *m = p->rf.nmsgs ? &p->rf.msgs[0] : NULL;
	/* This opening's verdict (report_trust_class: the one rule); no
	 * message at all is a warning. */
	/* A first message that does not open is checked by nobody: never
	 * the verdict its row claims. */
	enum sig_verdict v = p->opened ? p->verdict : m ? SIG_ERROR : SIG_NONE;
	bool matches = p->opened && p->signer_matches_from;
	enum verdict_class tc = m ? report_trust_class(v, matches)
				  : VERDICT_WARNING;
	static const char *const mark_utf8[] = { "\xe2\x9c\x94", "\xe2\x96\xb2",
						 "\xe2\x9c\x98" };
	static const char *const mark_ascii[] = { "+", "!", "X" };
	static const int pair[] = { CP_BAR_OK, CP_BAR_WARN, CP_BAR_BAD };
	const char *f = m && m->fingerprint ? m->fingerprint : NULL;
	/* The long key id when the full fingerprint does not fit. */
	char *fpr = f
		? safe_str(COLS < 160 && strlen(f) > 16 ? f + strlen(f) - 16
							: f)
		: NULL;
	char *who, *s;
	int y = pane_top() - trust_rows();
	attr_t a = A_BOLD | (t->color ? draw_color(t, pair[tc]) : A_REVERSE);

	if (!m || v == SIG_NOT_SIGNED)
		who = xstrdup("not signed");
	else if (v == SIG_BAD && p->signer && p->signer_valid)
		who = xasprintf("does NOT match the text: key of %s",
				p->signer);
	else if (v == SIG_BAD)
		who = xasprintf("does NOT match the text: key %s",
				fpr ? fpr : "unknown");
	else if (p->signer && p->signer_valid)
		who = xasprintf("signed by %s (valid)", p->signer);
	else if (fpr)
		who = xasprintf("signed by key %s, no certified user ID", fpr);
	else
		who = xstrdup("signer unknown");
	/* Whether the key speaks for From means nothing without a key. */
	const char *from = !m || v == SIG_NOT_SIGNED ? ""
		: matches			     ? " | From matches"
						     : " | From DOES NOT MATCH";
	s = xasprintf(" %s SIGNATURE %s | %s%s | encrypted: %s%s%s ",
		      (t->utf8 ? mark_utf8 : mark_ascii)[tc],
		      m ? sig_verdict_name(v) : "none", who, from,
		      p->rf.r.encrypted ? "yes" : "NO", fpr ? " | key " : "",
		      fpr ? fpr : "");
	if (text_width(s) > COLS && fpr && p->signer && p->signer_valid) {
		/* A signer the keyring vouches for is named: the key id is
		 * the part one row can do without (show has it). */
		char *shorter =
			xasprintf(" %s SIGNATURE %s | %s%s | encrypted: %s ",
				  (t->utf8 ? mark_utf8 : mark_ascii)[tc],
				  m ? sig_verdict_name(v) : "none", who, from,
				  p->rf.r.encrypted ? "yes" : "NO");

		if (text_width(shorter) <= COLS) {
			free(s);
			s = shorter;
		} else {
			free(shorter);
		}
	}
	if (measure) {
		trust_two_rows = text_width(s) > COLS;
	} else if (trust_rows() == 1) {
		draw_fill(y, 0, COLS, a);
		draw_text(y, 0, COLS, s, a);
	} else {
		/* Narrow: the verdict, From and encryption first, whole; the
		 * signer, the longest, on the row below. */
		free(s);
		s = xasprintf(" %s SIGNATURE %s%s | encrypted: %s ",
			      (t->utf8 ? mark_utf8 : mark_ascii)[tc],
			      m ? sig_verdict_name(v) : "none", from,
			      p->rf.r.encrypted ? "yes" : "NO");
		draw_fill(y, 0, COLS, a);
		draw_text(y, 0, COLS, s, a);
		free(s);
		s = xasprintf("   %s%s%s ", who, fpr ? " | key " : "",
			      fpr ? fpr : "");
		if (fpr && text_width(s) > COLS) {
			/* The signer whole before its key id (show has the
			 * fingerprint). */
			free(s);
			s = xasprintf("   %s ", who);
		}
		draw_fill(y + 1, 0, COLS, a);
		draw_text(y + 1, 0, COLS, s, a);
	}
	free(s);
	free(who);
	free(fpr);
}

static void report_draw(struct tui *t, struct tui_view *v)
{
	struct report_view *p = P(v);

	if (!p->loaded) {
		tui_title(t, " report %lld", (long long)v->report_id);
		draw_text(2, 2, COLS - 2,
			  "this report cannot be read (see the status line)",
			  A_BOLD);
		return;
	}
	if (p->width != COLS)
		layout(t, p);
	{
		/* The keys to the report's other views when they fit, else
		 * none (? lists them): never a key cut in half. */
		static const char hints[] =
			"  t:timeline p:participants v:vendors d:disclosure";
		char *head = xasprintf(" report %lld: %s, %s  (%zu message%s)",
				       (long long)v->report_id, p->rf.r.state,
				       p->rf.r.severity, p->nmsgs,
				       p->nmsgs == 1 ? "" : "s");
		bool fit = text_width(head) + (int)strlen(hints) <= COLS;

		tui_title(t, "%s%s", head, fit ? hints : "");
		free(head);
	}
	draw_headers(t, p);
	draw_trust(t, p, true);
	lines_draw(t, &p->lines, pane_top(), pane_height(), 1);
	/* Drawn after the pane: nothing from the body can be on its row. */
	draw_trust(t, p, false);
}

/* Wipes and frees what the pane shows of the thread. */
static void release_bodies(struct report_view *p)
{
	for (size_t i = 0; i < p->nmsgs; i++) {
		struct shown_msg *sm = &p->msg[i];
		for (size_t k = 0; k < sm->nline; k++)
			wipe_free(sm->line[k], strlen(sm->line[k]));
		free(sm->line);
		free(sm->unsig);
		free(sm->err);
		free(sm->from);
		for (size_t j = 0; j < sm->natt; j++) {
			free(sm->att[j].filename);
			free(sm->att[j].content_type);
		}
		free(sm->att);
	}
	free(p->msg);
	free(p->signer);
	free(p->unsigned_files);
	p->msg = NULL;
	p->nmsgs = 0;
	p->signer = NULL;
	p->unsigned_files = NULL;
	p->opened = false;
}

/* The report's row again; when its thread has grown (a reply sent from
 * here, a colleague's import), its bodies are opened again too. */
static void report_reload(struct tui *t, struct tui_view *v)
{
	struct report_view *p = P(v);

	load_row(t, v);
	if (p->loaded && p->rf.nmsgs != p->nmsgs) {
		release_bodies(p);
		open_bodies(t, p);
		p->width = 0; /* laid out again when drawn */
	}
}

static void report_close(struct tui *t, struct tui_view *v)
{
	struct report_view *p = P(v);

	(void)t;
	lines_release(&p->lines);
	release_bodies(p);
	if (p->loaded)
		report_full_release(&p->rf);
	free(p);
}

static const struct tui_view_ops report_ops = {
	.name = "report",
	.draw = report_draw,
	.height = pane_height,
	.reload = report_reload,
	.close = report_close,
};

struct tui_view *view_report_new(struct tui *t, int64_t id)
{
	struct report_view *p = xcalloc(1, sizeof(*p));
	struct tui_view *v =
		tui_pager_alloc(V_REPORT, &report_ops, p, id, &p->lines);

	p->lines.wipe = true;
	tui_status(t, false, "opening report %lld...", (long long)id);
	load_row(t, v);
	if (p->loaded) {
		open_bodies(t, p);
		if (p->rf.nhidden)
			say_hidden(t, &p->rf);
		else
			tui_status(t, false, "%s", "");
	}
	return v;
}
