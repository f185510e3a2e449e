/*
 * The report list, the start screen: one line per report with its id,
 * state, severity, a verdict mark, the days to the embargo deadline
 * (embargo.c: the decided date, else the policy default; overdue,
 * undecided and due-within-a-day carry a mark as well as a color), who
 * claimed it, the FIX/CVE cell (the fix's first tag or short SHA, the CVE
 * ID and its state; on screens 130 columns wide or more, unless config
 * list.fix_cve = false) and the subject.
 *
 * It holds only compact keys for every report (core's report_keys(): a
 * few dozen bytes each), sorts and filters them itself, and reads the full
 * rows of the visible lines only, so 100,000 reports cost a few megabytes
 * and a page down a few dozen indexed reads.  The place (the selected
 * report) survives sorting, filtering, reloads and resizes.
 */
#include <stdlib.h>
#include <string.h>

#include <time.h>

#include "core/fixcve.h"
#include "core/search.h"
#include "tui/tui-int.h"

enum {
	SORT_DEADLINE,
	SORT_RECEIVED,
	SORT_STATE,
	SORT_SEVERITY,
	SORT_SUBJECT,
	SORT_N
};
static const char *const sort_names[SORT_N] = { "deadline", "received", "state",
						"severity", "subject" };

struct reports {
	struct report_key *keys; /* every report, by id */
	unsigned char *srank, *vrank;
	size_t nkeys;
	uint32_t *rows; /* shown: indexes into keys, in order */
	size_t nrows;
	size_t sel, top;
	int sort;
	/* :filter QUERY of state: and severity: terms alone (search.h's
	 * language), answered from the keys; f_text as typed. */
	struct search_query f_fields;
	char *f_text;
	struct policy pol; /* for the deadline of undated reports */
	time_t *deadline; /* per key, for the deadline sort: the
				  * embargo deadline, or INT64_MAX when the
				  * embargo is over (those go last) */
	/* The list's / (t->search): per key, 0 not known yet, 1 no match,
	 * 2 a match, for the query match_for (parsed in match_q). */
	unsigned char *known;
	struct search_query match_q;
	char *match_for;
	/* :search QUERY: only these ids (ascending) are shown. */
	int64_t *f_ids;
	size_t nf_ids;
	char *f_query;
	time_t now;
	/* Until the keys are loaded (right after the first screen), the
	 * first page comes from a cheap query. */
	int64_t *preview;
	size_t npreview;
	bool pending;
	/* The subject sort: every subject opened once (sealed: the store
	 * cannot order them), by id, kept across loads (a subject never
	 * changes; a new report's is read when it comes); each one's place
	 * in subject order; and per key, its subject's place. */
	struct session *sess;
	struct report_subject *subj;
	size_t nsubj;
	uint32_t *subj_place, *kplace;
	bool subj_failed;
};

static struct reports *P(struct tui_view *v)
{
	return v->priv;
}

static int cmp_rows(const void *a, const void *b, void *data)
{
	const struct reports *p = data;
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	const struct report_key *x = &p->keys[i], *y = &p->keys[j];

	switch (p->sort) {
	case SORT_DEADLINE:
		return report_deadline_cmp(p->deadline[i], x->id,
					   p->deadline[j], y->id);
	case SORT_RECEIVED:
		if (x->received != y->received)
			return x->received > y->received ? -1 : 1;
		return x->id > y->id ? -1 : 1;
	case SORT_STATE:
		if (p->srank[i] != p->srank[j])
			return p->srank[i] < p->srank[j] ? -1 : 1;
		break;
	case SORT_SEVERITY:
		/* report_severity_rank: highest first */
		if (p->vrank[i] != p->vrank[j])
			return p->vrank[i] < p->vrank[j] ? -1 : 1;
		break;
	case SORT_SUBJECT: /* place_by_subject, not a comparison */
		break;
	}
	return x->id < y->id ? -1 : x->id > y->id;
}

static size_t shown(const struct reports *p)
{
	return p->pending ? p->npreview : p->nrows;
}

static int64_t row_id(const struct reports *p, size_t i)
{
	return p->pending ? p->preview[i] : p->keys[p->rows[i]].id;
}

static int64_t sel_id(const struct reports *p)
{
	return shown(p) ? row_id(p, p->sel) : 0;
}

/* Each key's deadline (embargo.c) at now, for the deadline sort. */
static void deadlines(struct reports *p)
{
	time_t now = util_now();

	p->deadline =
		xrealloc(p->deadline, (p->nkeys + 1) * sizeof(*p->deadline));
	for (size_t i = 0; i < p->nkeys; i++) {
		struct embargo e;
		embargo_of_key(&p->pol, &p->keys[i], now, &e);
		p->deadline[i] = report_deadline_key(&e);
	}
}

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_subject(const void *a, const void *b, void *data)
{
	const struct report_subject *v = data;
	const struct report_subject *x = &v[*(const uint32_t *)a];
	const struct report_subject *y = &v[*(const uint32_t *)b];
	int c = strcasecmp(x->subject, y->subject);

	return c ? c : x->id < y->id ? -1 : x->id > y->id;
}

/* The subjects not read yet (the reports after the last one read), and
 * then each key's place in subject order.  Unread (the team server
 * away): the keys keep their id order, said once in the status line. */
static void subject_places(struct tui *t, struct reports *p)
{
	struct report_subject *more = NULL;
	struct err err = { 0, "" };
	size_t nmore = 0;
	uint32_t *order;

	if (report_subjects(p->sess, p->nsubj ? p->subj[p->nsubj - 1].id : 0,
			    &more, &nmore, &err) < 0) {
		if (t && !p->subj_failed)
			tui_status(t, true, "cannot sort by subject: %s",
				   err.msg);
		p->subj_failed = true;
	} else
		p->subj_failed = false;
	if (nmore || !p->subj_place) {
		p->subj = xrealloc(p->subj,
				   (p->nsubj + nmore + 1) * sizeof(*p->subj));
		memcpy(p->subj + p->nsubj, more, nmore * sizeof(*more));
		p->nsubj += nmore;
		order = xmalloc((p->nsubj + 1) * sizeof(*order));
		for (size_t i = 0; i < p->nsubj; i++)
			order[i] = (uint32_t)i;
		qsort_r(order, p->nsubj, sizeof(*order), cmp_subject, p->subj);
		p->subj_place = xrealloc(
			p->subj_place, (p->nsubj + 1) * sizeof(*p->subj_place));
		for (size_t i = 0; i < p->nsubj; i++)
			p->subj_place[order[i]] = (uint32_t)i;
		free(order);
	}
	free(more);
	/* The keys and the subjects are both by id (the keys stay so for
	 * their bsearch): one walk along the two (a search each was most
	 * of the sort's time at 100,000). */
	p->kplace = xrealloc(p->kplace, (p->nkeys + 1) * sizeof(*p->kplace));
	for (size_t i = 0, j = 0; i < p->nkeys; i++) {
		int64_t id = p->keys[i].id;

		while (j < p->nsubj && p->subj[j].id < id)
			j++;
		/* One with no subject read goes last. */
		p->kplace[i] = j < p->nsubj && p->subj[j].id == id
			? p->subj_place[j]
			: UINT32_MAX;
	}
}

/* The rows (keys passing the filters) in subject order: each key's
 * place is its own (a subject per id), so each is put in its place, the
 * ones with no subject read after them by id. */
static void place_by_subject(struct reports *p)
{
	uint32_t *at = xmalloc((p->nsubj + 1) * sizeof(*at));
	size_t n = 0, nlast = 0;

	for (size_t k = 0; k < p->nsubj; k++)
		at[k] = UINT32_MAX;
	for (size_t r = 0; r < p->nrows; r++) {
		uint32_t i = p->rows[r], k = p->kplace[i];

		if (k < p->nsubj)
			at[k] = i;
		else
			p->rows[nlast++] = i; /* kept in key (id) order */
	}
	/* Those last move to the end, the placed ones before them. */
	memmove(p->rows + p->nrows - nlast, p->rows, nlast * sizeof(*p->rows));
	for (size_t k = 0; k < p->nsubj; k++)
		if (at[k] != UINT32_MAX)
			p->rows[n++] = at[k];
	free(at);
}

/* Filters and sorts the keys, keeping `keep` selected when shown.  Each
 * sort's own ranks only: a deadline is an embargo's whole computation. */
static void arrange(struct tui *t, struct reports *p, int64_t keep)
{
	if (p->sort == SORT_DEADLINE)
		deadlines(p);
	if (p->sort == SORT_SUBJECT)
		subject_places(t, p);
	p->nrows = 0;
	for (size_t i = 0; i < p->nkeys; i++) {
		const struct report_key *k = &p->keys[i];
		if (p->f_text &&
		    !search_state_matches(&p->f_fields, k->state, k->severity))
			continue;
		if (p->f_query &&
		    !bsearch(&k->id, p->f_ids, p->nf_ids, sizeof(k->id),
			     cmp_id))
			continue;
		p->rows[p->nrows++] = (uint32_t)i;
	}
	if (p->sort == SORT_SUBJECT)
		place_by_subject(p);
	else
		qsort_r(p->rows, p->nrows, sizeof(*p->rows), cmp_rows, p);
	p->sel = 0;
	for (size_t i = 0; keep && i < p->nrows; i++)
		if (p->keys[p->rows[i]].id == keep) {
			p->sel = i;
			break;
		}
}

/* The / search's answers, forgotten when the query or the keys change. */
static void forget_matches(struct reports *p)
{
	free(p->known);
	p->known = NULL;
	free(p->match_for);
	p->match_for = NULL;
	search_query_release(&p->match_q);
}

/* Frees what a load builds (the keys, their ranks and order, the search
 * matches, the preview) and leaves none. */
static void free_loaded(struct reports *p)
{
	free(p->keys);
	free(p->srank);
	free(p->vrank);
	free(p->deadline);
	free(p->rows);
	forget_matches(p);
	free(p->preview);
	p->keys = NULL;
	p->deadline = NULL;
	p->srank = p->vrank = NULL;
	p->rows = NULL;
	p->preview = NULL;
}

static void load(struct tui *t, struct reports *p)
{
	/* Not moved off the preview's first row: the first row of the real
	 * order, whose deadlines (undated reports too) the preview's cheap
	 * query does not know. */
	int64_t keep = p->pending && p->sel == 0 ? 0 : sel_id(p);
	struct err err = { 0, "" };
	struct report_key *keys = NULL;
	size_t nkeys = 0;

	/* A failed load (the team server away) keeps the list as it was. */
	if (report_keys(t->ctx->sess, &keys, &nkeys, &err) < 0) {
		free(keys);
		if (!t->status_error) /* an action's own error stays */
			tui_status(t, true, "%s", err.msg);
		if (p->rows)
			return;
		keys = NULL;
		nkeys = 0;
	}
	free_loaded(p);
	p->keys = keys;
	p->nkeys = nkeys;
	p->pending = false;
	policy_from_config(t->ctx->sess->cfg, &p->pol);
	tui_trace_mark(t, "keys-loaded");
	p->srank = xmalloc(p->nkeys + 1);
	p->vrank = xmalloc(p->nkeys + 1);
	for (size_t i = 0; i < p->nkeys; i++) {
		p->srank[i] = report_state_rank(p->keys[i].state);
		p->vrank[i] = report_severity_rank(p->keys[i].severity);
	}
	p->rows = xmalloc((p->nkeys + 1) * sizeof(*p->rows));
	arrange(t, p, keep);
	tui_trace_mark(t, "keys-sorted");
}

static void reports_reload(struct tui *t, struct tui_view *v)
{
	load(t, P(v));
}

static int cmp_key_id(const void *a, const void *b)
{
	const struct report_key *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* Colleagues changed these reports: their keys are read again one by
 * one (a new report is added), the rows arranged again around the same
 * selected report; nothing else is read. */
static void reports_changed(struct tui *t, struct tui_view *v,
			    const int64_t *ids, size_t n)
{
	struct reports *p = P(v);
	int64_t keep = sel_id(p);
	bool added = false;

	struct report_key *got = NULL;
	size_t ngot = 0, m = 0;
	int64_t *want;
	struct err err = { 0, "" };

	if (p->pending)
		return; /* the keys are about to be loaded anyway */
	/* Their keys in one read (an import's batch names a hundred). */
	want = xcalloc(n + 1, sizeof(*want));
	for (size_t i = 0; i < n; i++)
		if (ids[i])
			want[m++] = ids[i];
	qsort(want, m, sizeof(*want), cmp_id);
	for (size_t i = 0; i < m; i++)
		if (!ngot || want[ngot - 1] != want[i])
			want[ngot++] = want[i];
	m = ngot;
	ngot = 0;
	if (m && report_keys_of(t->ctx->sess, want, m, &got, &ngot, &err) < 0)
		ngot = 0;
	free(want);
	for (size_t i = 0; i < ngot; i++) {
		struct report_key k = got[i], *at;
		size_t j;

		at = p->nkeys
			? bsearch(&k, p->keys, p->nkeys, sizeof(k), cmp_key_id)
			: NULL;
		if (!at) {
			p->keys = xrealloc(p->keys,
					   (p->nkeys + 1) * sizeof(*p->keys));
			p->srank = xrealloc(p->srank, p->nkeys + 2);
			p->vrank = xrealloc(p->vrank, p->nkeys + 2);
			p->rows = xrealloc(p->rows,
					   (p->nkeys + 2) * sizeof(*p->rows));
			at = &p->keys[p->nkeys++];
			added = true;
		}
		*at = k;
		j = (size_t)(at - p->keys);
		p->srank[j] = report_state_rank(k.state);
		p->vrank[j] = report_severity_rank(k.severity);
	}
	if (added) {
		/* Keys stay ordered by id for bsearch: a new id is nearly
		 * always the largest, so this is one pass. */
		struct report_key *sorted =
			xmemdup(p->keys, p->nkeys * sizeof(*p->keys));
		qsort(sorted, p->nkeys, sizeof(*sorted), cmp_key_id);
		for (size_t i = 0; i < p->nkeys; i++) {
			p->srank[i] = report_state_rank(sorted[i].state);
			p->vrank[i] = report_severity_rank(sorted[i].severity);
		}
		free(p->keys);
		p->keys = sorted;
	}
	free(got);
	/* A search's matches may have changed with the subjects. */
	forget_matches(p);
	arrange(t, p, keep);
	v->gen = t->gen;
}

static int list_height(void)
{
	return LINES - 3 > 1 ? LINES - 3 : 1;
}

/* One mark per verdict, each its own: the legend (`?`, the man page)
 * is made from this table. */
const struct tui_verdict_mark tui_verdict_marks[] = {
	{ SIG_VALID, "\xe2\x9c\x93", "V",
	  "valid: a good signature, the key certified in your keyring" },
	{ SIG_GOOD, "~", "~", "good: a good signature, the key not certified" },
	{ SIG_NOT_SIGNED, "-", "-", "not-signed: no signature" },
	{ SIG_PARTIAL, "p", "p",
	  "partial: only part of the message is signed or encrypted" },
	{ SIG_UNKNOWN_KEY, "?", "?",
	  "unknown-key: signed by a key not in your keyring" },
	{ SIG_EXPIRED_KEY, "e", "e",
	  "expired-key: signed by a key that has expired" },
	{ SIG_REVOKED_KEY, "!", "!",
	  "revoked-key: signed by a key that was revoked" },
	{ SIG_BAD, "\xe2\x9c\x97", "X",
	  "bad: the signature does not match the message" },
	{ SIG_ERROR, "#", "#", "error: the signature could not be checked" },
	{ SIG_TAMPERED, "T", "T",
	  "tampered: the stored body is not what the import verified" },
};
const size_t tui_verdict_marks_len = ARRAY_SIZE(tui_verdict_marks);

/* The verdict as one mark, coloured by its trust class (core's
 * report_trust_class, as on the report's own bar: a valid signature by
 * a key that is not From's is a warning); the word is on the report's
 * own screen. */
static const char *verdict_mark(struct tui *t, enum sig_verdict v, bool matches,
				int *pair)
{
	static const int class_pair[] = {
		[VERDICT_TRUSTED] = CP_GREEN,
		[VERDICT_WARNING] = CP_YELLOW,
		[VERDICT_BAD] = CP_RED,
	};

	*pair = class_pair[report_trust_class(v, matches)];
	if (v == SIG_NONE)
		v = SIG_NOT_SIGNED;
	for (size_t i = 0; i < tui_verdict_marks_len; i++)
		if (tui_verdict_marks[i].verdict == v)
			return t->utf8 ? tui_verdict_marks[i].utf8
				       : tui_verdict_marks[i].ascii;
	return "#";
}

/* The DUE column (embargo_due): " -3d!" overdue, " +2d?" no date
 * decided (the policy default), " +0d*" within a day, " +5d ", "    - ". */
static void due_text(const struct reports *p, const struct report *r, char *buf,
		     size_t size, int *pair)
{
	struct embargo e;
	char d[24], mark = ' ';
	size_t n;

	embargo_of_report(&p->pol, r, p->now, &e);
	n = strlen(embargo_due(&e, d));
	/* The days right-aligned, the mark in a column of its own. */
	if (n > 1 && strchr("!?*", d[n - 1])) {
		mark = d[n - 1];
		d[n - 1] = '\0';
	}
	*pair = e.state == EMBARGO_OVERDUE     ? CP_RED
		: embargo_active(&e) && e.soon ? CP_YELLOW
					       : CP_DEFAULT;
	snprintf(buf, size, "%5s%c", d, mark);
}

/* The FIX/CVE cells of the visible lines (the reports' own events, read
 * for those lines only, in one read), in labels[0..n), and the column's
 * width: as wide as its widest cell or its title, at most 36 or what
 * leaves the subject 33 columns, whichever is more. */
static int fixcve_cells(struct tui *t, const int64_t *ids, size_t n,
			char **labels)
{
	struct fixcve *fc = xcalloc(n + 1, sizeof(*fc));
	struct err err = { 0, "" };
	int w = (int)strlen("FIX/CVE"), most = COLS - 80 > 36 ? COLS - 80 : 36;
	bool ok = fixcve_page(t->ctx->sess, ids, n, fc, &err) == 0;

	for (size_t y = 0; y < n; y++) {
		labels[y] = ok ? fixcve_label(&fc[y]) : xstrdup("?");
		fixcve_release(&fc[y]);
		if (text_width(labels[y]) > w)
			w = text_width(labels[y]);
	}
	free(fc);
	return w > most ? most : w;
}

/* The selection kept on screen, and the title: position, sort, filter. */
static void list_title(struct tui *t, struct reports *p, size_t nshown, int h)
{
	char fbuf[128] = "", *sq = p->f_query ? safe_str(p->f_query) : NULL;

	if (p->sel >= nshown)
		p->sel = nshown ? nshown - 1 : 0;
	if (p->sel < p->top)
		p->top = p->sel;
	if (p->sel >= p->top + (size_t)h)
		p->top = p->sel - (size_t)h + 1;
	if (p->f_text) {
		char *ft = safe_str(p->f_text);

		snprintf(fbuf, sizeof(fbuf), "  filter: %s", ft);
		free(ft);
	}
	if (p->pending)
		tui_title(t,
			  " secteam-tui: reports %zu/...  sort: %s  (counting)",
			  nshown ? p->sel + 1 : 0, sort_names[p->sort]);
	else
		tui_title(t, " secteam-tui: reports %zu/%zu  sort: %s%s%s%s",
			  nshown ? p->sel + 1 : 0, p->nrows,
			  sort_names[p->sort], fbuf, sq ? "  search: " : "",
			  sq ? sq : "");
	free(sq);
}

/* Screen row y + 2: the report id (row r, all zero when it is gone);
 * the FIX/CVE column fw wide with label, or none when fw < 0. */
static void list_row(struct tui *t, struct reports *p, int y, int64_t id,
		     const struct report *r, int fw, const char *label)
{
	attr_t base = p->top + (size_t)y == p->sel ? A_REVERSE : A_NORMAL;
	char buf[64], due[32];
	int row = y + 2, x, pair;
	const char *mark;

	if (base == A_REVERSE)
		draw_fill(row, 0, COLS, A_REVERSE);
	if (!r->id) {
		snprintf(buf, sizeof(buf), "no report %lld", (long long)id);
		draw_text_clip(row, 0, COLS, buf, base | draw_color(t, CP_RED));
		return;
	}
	snprintf(buf, sizeof(buf), "%6lld %-9s %-8s ", (long long)id, r->state,
		 r->severity);
	x = draw_text(row, 0, COLS, buf, base);
	mark = verdict_mark(t, r->verdict, r->signer_matches_from, &pair);
	draw_text(row, x, 1, mark,
		  base | draw_color(t, pair) | (pair == CP_RED ? A_BOLD : 0));
	x += 2;
	due_text(p, r, due, sizeof(due), &pair);
	draw_text(row, x, 7, due,
		  base | draw_color(t, pair) | (pair ? A_BOLD : 0));
	x += 7;
	draw_text(row, x, 1, " ", base);
	x++;
	draw_untrusted(row, x, 10,
		       r->claimed_by && *r->claimed_by ? r->claimed_by : "-",
		       base);
	x += 11;
	if (fw >= 0) {
		char *l = safe_str(label ? label : "");

		draw_text(row, x, fw, l, base);
		free(l);
		x += fw + 1;
	}
	draw_untrusted(row, x, COLS - x, r->subject, base);
}

static void reports_draw(struct tui *t, struct tui_view *v)
{
	struct reports *p = P(v);
	int h = list_height(), fw = -1;
	char head[160];
	char **labels = NULL;
	size_t nshown = shown(p), nvis;
	int64_t *ids;
	struct report *rows;
	struct err err = { 0, "" };

	p->now = util_now();
	list_title(t, p, nshown, h);
	/* The visible lines' rows in one read (one round trip to a team
	 * server, not one per line), and their FIX/CVE cells in another. */
	nvis = nshown > p->top ? nshown - p->top : 0;
	nvis = nvis < (size_t)h ? nvis : (size_t)h;
	ids = xcalloc(nvis + 1, sizeof(*ids));
	rows = xcalloc(nvis + 1, sizeof(*rows));
	labels = xcalloc(nvis + 1, sizeof(*labels));
	for (size_t y = 0; y < nvis; y++)
		ids[y] = row_id(p, p->top + y);
	if (COLS >= 130 &&
	    config_get_bool(t->ctx->sess->cfg, "list.fix_cve", true))
		fw = fixcve_cells(t, ids, nvis, labels);
	snprintf(head, sizeof(head),
		 "    ID STATE     SEVERITY V    DUE  CLAIMED    %-*s%s",
		 fw >= 0 ? fw + 1 : 0, fw >= 0 ? "FIX/CVE" : "", "SUBJECT");
	draw_text(1, 0, COLS, head, A_BOLD | A_UNDERLINE);
	if (report_page(t->ctx->sess, ids, nvis, rows, &err) < 0)
		draw_text(2, 0, COLS, err.msg, draw_color(t, CP_RED));
	for (size_t y = 0; err.code == 0 && y < nvis; y++)
		list_row(t, p, (int)y, ids[y], &rows[y], fw, labels[y]);
	for (size_t y = 0; y < nvis; y++) {
		report_release(&rows[y]);
		free(labels[y]);
	}
	free(labels);
	free(rows);
	free(ids);
	if (!nshown)
		draw_text(
			3, 2, COLS - 2,
			p->nkeys
				? "no report matches the filter (:filter clears it)"
				: "no reports yet: :import FILE (or secteam-tui import) brings them in",
			A_DIM);
}

static int reports_move(struct tui *t, struct tui_view *v, enum tui_motion m)
{
	struct reports *p = P(v);
	size_t h = (size_t)list_height(), old = p->sel,
	       last = shown(p) ? shown(p) - 1 : 0;

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
		p->sel = p->sel + h < last ? p->sel + h : last;
		p->top = p->top + h <= last ? p->top + h : p->top;
		break;
	case M_PGUP:
		p->sel = p->sel > h ? p->sel - h : 0;
		p->top = p->top > h ? p->top - h : 0;
		break;
	case M_HALFDN:
		p->sel = p->sel + h / 2 < last ? p->sel + h / 2 : last;
		break;
	case M_HALFUP:
		p->sel = p->sel > h / 2 ? p->sel - h / 2 : 0;
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

static int reports_open(struct tui *t, struct tui_view *v)
{
	int64_t id = sel_id(P(v));

	if (!id)
		return TUI_OK;
	tui_push(t, view_report_new(t, id));
	return TUI_REDRAW;
}

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Whether row i matches the / query: known, else asked (its bodies
 * opened only when its fields leave a word unmatched). */
static int row_matches(struct tui *t, struct reports *p, size_t i, bool *match)
{
	uint32_t k = p->rows[i];
	struct err err = { 0, "" };

	if (!p->known[k]) {
		if (search_report(t->ctx->sess, &p->match_q, p->keys[k].id,
				  match, &err) < 0) {
			tui_status(t, true, "%s", err.msg);
			return -1;
		}
		p->known[k] = *match ? 2 : 1;
	}
	*match = p->known[k] == 2;
	return 0;
}

/*
 * The list's /: the next report in the list's order matching t->search
 * as `search` reads a query (core/search.h).  Reports are asked one by
 * one from the selection on, so only those up to the next match are
 * opened; a long walk shows its progress.  The answers are kept for n
 * and N until the query or the reports change.
 */
static int reports_search(struct tui *t, struct tui_view *v, int dir,
			  bool fresh)
{
	struct reports *p = P(v);
	struct err err = { 0, "" };
	double start = mono(), last = 0;
	size_t asked = 0;

	if (fresh || !p->match_for || strcmp(p->match_for, t->search)) {
		forget_matches(p);
		if (search_parse(t->search, &p->match_q, &err) < 0) {
			search_query_release(&p->match_q);
			tui_status(t, true, "%s", err.msg);
			return TUI_OK;
		}
		p->match_for = xstrdup(t->search);
		p->known = xcalloc(p->nkeys + 1, 1);
	}
	for (size_t k = fresh ? 0 : 1; k <= p->nrows && p->nrows; k++) {
		size_t i = dir > 0
			? (p->sel + k) % p->nrows
			: (p->sel + p->nrows - k % p->nrows) % p->nrows;
		bool match;
		double now;

		if (!p->known[p->rows[i]])
			asked++;
		if (row_matches(t, p, i, &match) < 0)
			return TUI_REDRAW;
		now = mono();
		if (now - start > 0.5 && now - last > 0.1) {
			char *q = safe_str(t->search), *line;
			last = now;
			line = xasprintf("/%s: searching, %zu report(s) asked",
					 q, asked);
			tui_show_progress(t, line);
			free(line);
			free(q);
		}
		if (match) {
			if (!fresh && i == p->sel)
				break;
			p->sel = i;
			tui_status(t, false, "/%s: report %lld", t->search,
				   (long long)p->keys[p->rows[i]].id);
			return TUI_REDRAW;
		}
	}
	tui_status(t, true, "not found: %s", t->search);
	return TUI_REDRAW;
}

static void reports_close(struct tui *t, struct tui_view *v)
{
	struct reports *p = P(v);

	(void)t;
	free_loaded(p);
	report_subjects_free(p->subj, p->nsubj);
	free(p->subj_place);
	free(p->kplace);
	search_query_release(&p->f_fields);
	free(p->f_text);
	free(p->f_ids);
	free(p->f_query);
	free(p);
}

static int64_t reports_current(struct tui *t, struct tui_view *v)
{
	(void)t;
	return sel_id(P(v));
}

static const struct tui_view_ops reports_ops = {
	.name = "reports",
	.draw = reports_draw,
	.motion = reports_move,
	.open = reports_open,
	.search = reports_search,
	.reload = reports_reload,
	.close = reports_close,
	.current = reports_current,
	.changed = reports_changed,
};

int64_t reports_step(struct tui *t, struct tui_view *v, int64_t from, int dir)
{
	struct reports *p = v->priv;
	size_t n = shown(p);

	(void)t;
	for (size_t i = 0; i < n; i++) {
		if (row_id(p, i) != from)
			continue;
		if (dir > 0 ? i + 1 >= n : i == 0)
			return 0;
		p->sel = dir > 0 ? i + 1 : i - 1;
		return row_id(p, p->sel);
	}
	return 0;
}

struct tui_view *view_reports_new(struct tui *t)
{
	struct reports *p = xcalloc(1, sizeof(*p));
	struct tui_view *v = tui_view_alloc(V_REPORTS, &reports_ops, p, 0);
	const char *s = config_get(t->ctx->sess->cfg, "ui.sort", "deadline");

	p->sess = t->ctx->sess;
	for (int i = 0; i < SORT_N; i++)
		if (!strcmp(sort_names[i], s))
			p->sort = i;
	policy_from_config(t->ctx->sess->cfg, &p->pol);
	if (p->sort == SORT_DEADLINE || p->sort == SORT_RECEIVED) {
		struct err err = { 0, "" };
		if (report_first_ids(t->ctx->sess, sort_names[p->sort],
				     (size_t)list_height(), &p->preview,
				     &p->npreview, &err) == 0) {
			p->pending = true;
			return v;
		}
		free(p->preview);
		p->preview = NULL;
	}
	load(t, p);
	return v;
}

int reports_cycle_sort(struct tui *t, const char *args)
{
	struct reports *p = P(t->stack[0]);
	int64_t keep = sel_id(p);

	if (*args) {
		int i;
		for (i = 0; i < SORT_N && strcmp(sort_names[i], args); i++)
			;
		if (i == SORT_N) {
			tui_status(
				t, true,
				"unknown sort '%s' (deadline, received, state, severity, subject)",
				args);
			return TUI_OK;
		}
		p->sort = i;
	} else {
		p->sort = (p->sort + 1) % SORT_N;
	}
	arrange(t, p, keep);
	tui_status(t, false, "sorted by %s", sort_names[p->sort]);
	return TUI_REDRAW;
}

/* :filter QUERY, in search's language (search.h): state: and severity:
 * terms alone are answered from the list's own rows; any other term
 * (words, file:, from:, ...) makes it a :search.  None clears both. */
int reports_set_filter(struct tui *t, const char *args)
{
	struct reports *p = P(t->stack[0]);
	struct search_query q;
	struct err err = { 0, "" };
	int64_t keep = sel_id(p);

	if (*args && search_parse(args, &q, &err) < 0) {
		search_query_release(&q);
		tui_status(t, true, "%s", err.msg);
		return TUI_OK;
	}
	if (*args && !search_fields_only(&q)) {
		search_query_release(&q);
		return reports_set_search(t, args);
	}
	search_query_release(&p->f_fields);
	free(p->f_text);
	p->f_text = NULL;
	if (*args) {
		p->f_fields = q;
		p->f_text = xstrdup(args);
	} else {
		free(p->f_ids);
		free(p->f_query);
		p->f_ids = NULL;
		p->f_query = NULL;
		p->nf_ids = 0;
	}
	arrange(t, p, keep);
	tui_status(t, false, "%zu of %zu reports shown%s", p->nrows, p->nkeys,
		   *args ? "" : " (filter cleared)");
	return TUI_REDRAW;
}

/* The status line while :search opens bodies, at most ten times a
 * second. */
struct search_status {
	struct tui *t;
	double last;
};

static void search_progress(size_t done, size_t total, void *data)
{
	struct search_status *ss = data;
	double now = mono();
	char *line;

	if (done < total && now - ss->last < 0.1)
		return;
	ss->last = now;
	line = xasprintf("searching: %zu of %zu report(s) searched", done,
			 total);
	tui_show_progress(ss->t, line);
	free(line);
}

int reports_set_search(struct tui *t, const char *query)
{
	struct reports *p = P(t->stack[0]);
	struct search_status ss = { t, 0 };
	struct search_query q;
	struct search_result res;
	struct err err = { 0, "" };
	int64_t keep = sel_id(p);
	char *sq;

	if (!*query)
		return reports_set_filter(t, "");
	if (search_parse(query, &q, &err) < 0 ||
	    search_run(t->ctx->sess, &q, search_progress, &ss, &res, &err) <
		    0) {
		search_query_release(&q);
		tui_status(t, true, "%s", err.msg);
		return TUI_REDRAW;
	}
	search_query_release(&q);
	free(p->f_ids);
	free(p->f_query);
	p->nf_ids = res.n;
	p->f_ids = xcalloc(res.n + 1, sizeof(*p->f_ids));
	for (size_t i = 0; i < res.n; i++)
		p->f_ids[i] = res.hits[i].r.id; /* by id: ascending */
	p->f_query = xstrdup(query);
	arrange(t, p, keep);
	sq = safe_str(query);
	tui_status(t, false, "%zu of %zu reports match %s (%zu opened%s%s)",
		   res.n, p->nkeys, sq, res.opened,
		   res.unreadable ? ", some messages could not be opened" : "",
		   "; :filter clears it");
	free(sq);
	search_result_release(&res);
	return TUI_REDRAW;
}
