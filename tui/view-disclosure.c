/*
 * The disclosure panel of an open report: the decided date (overdue in
 * red) with the policy's verdict and the reason, the policy's limits
 * counted from the clock start, the proposals with what the policy says
 * of each, and every decision, oldest first.  P opens the : line with
 * `date propose` and D with `date set` for this report.
 */
#include <stdlib.h>
#include <string.h>

#include "tui/panel.h"

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
	char b1[32], b2[32], b3[160];
	const struct report *r;

	if (dossier_load(t->ctx->sess, v->report_id, &d, &err) < 0) {
		panel_add(l, A_BOLD | draw_color(t, CP_RED), "%s", err.msg);
		dossier_release(&d);
		return;
	}
	r = &d.f.r;
	/* The state in embargo.c's words, as the report screen and the
	 * exports give it (an undated report past its default: overdue). */
	panel_add(l,
		  A_BOLD |
			  (d.emb.state == EMBARGO_OVERDUE
				   ? draw_color(t, CP_RED)
				   : 0),
		  "%sEmbargo: %s",
		  d.emb.state == EMBARGO_OVERDUE ? "! OVERDUE  " : "",
		  embargo_describe(&d.emb, b3));
	if (r->disclosure) {
		bool over = d.emb.state == EMBARGO_OVERDUE;
		const struct decision *last =
			d.ndecisions ? &d.decisions[d.ndecisions - 1] : NULL;
		panel_add(l, A_BOLD | (over ? draw_color(t, CP_RED) : 0),
			  "%sDecided date: %s (%+ld days)",
			  over ? "! OVERDUE  " : "",
			  fmt_rfc3339(r->disclosure, b1),
			  days_between(d.now, r->disclosure));
		panel_add(l, verdict_attr(t, d.ans.verdict),
			  "Policy verdict: %s",
			  policy_verdict_name(d.ans.verdict));
		if (d.ans.msg[0])
			panel_add(l, A_NORMAL, "  %s", d.ans.msg);
		if (last)
			panel_add(l, A_NORMAL, "Reason: %s%s",
				  last->override ? "[override] " : "",
				  last->reason && *last->reason
					  ? last->reason
					  : "(none recorded)");
	} else {
		panel_add(l, A_BOLD, "No date decided \xe2\x80\x94 D sets one");
	}
	panel_add(l, A_NORMAL, "%s", "");
	panel_add(l, A_BOLD | A_UNDERLINE, "Policy limits");
	panel_add(l, A_NORMAL, "  Clock start   %s (%s)",
		  panel_day(d.ans.clock_start, b1),
		  r->release_started ? "release process started"
				     : "report received");
	panel_add(
		l, A_NORMAL,
		"  %2ld-day limit  %s (the default; later needs a recorded reason)",
		d.pol.default_days, panel_day(d.ans.default_limit, b1));
	panel_add(
		l, A_NORMAL,
		"  %2ld-day limit  %s (the maximum; later is refused unless overridden)",
		d.pol.max_days, panel_day(d.ans.max_limit, b2));
	if (d.ans.verdict == POLICY_PUBLIC)
		panel_add(l, draw_color(t, CP_YELLOW) | A_BOLD,
			  "  already public: the policy date is now");
	panel_add(l, A_NORMAL, "%s", "");
	panel_add(l, A_BOLD | A_UNDERLINE, "Proposals (%zu): P records one",
		  d.nproposals);
	for (size_t i = 0; i < d.nproposals; i++) {
		const struct proposal *q = &d.proposals[i];
		struct policy_answer ans;
		enum policy_verdict vd = policy_check(&d.pol, r, q->date,
						      q->reason && *q->reason,
						      false, d.now, &ans);
		panel_add(
			l, verdict_attr(t, vd),
			"  %s  by %-20s policy: %-12s %s  (recorded by %s on %s)",
			panel_day(q->date, b1), q->by ? q->by : "?",
			policy_verdict_name(vd), q->reason ? q->reason : "",
			q->officer ? q->officer : "?", panel_day(q->at, b2));
	}
	if (!d.nproposals)
		panel_add(
			l, A_DIM,
			"  none \xe2\x80\x94 :date propose DATE --by reporter --reason TEXT");
	panel_add(l, A_NORMAL, "%s", "");
	panel_add(l, A_BOLD | A_UNDERLINE, "Decisions, oldest first (%zu)",
		  d.ndecisions);
	for (size_t i = 0; i < d.ndecisions; i++) {
		const struct decision *c = &d.decisions[i];
		panel_add(l, i + 1 == d.ndecisions ? A_BOLD : A_DIM,
			  "  %s  %-13s %s%s  (by %s on %s)",
			  panel_day(c->date, b1), c->verdict ? c->verdict : "",
			  c->override ? "[override] " : "",
			  c->reason ? c->reason : "",
			  c->officer ? c->officer : "?", panel_day(c->at, b2));
	}
	if (!d.ndecisions)
		panel_add(
			l, A_DIM,
			"  none \xe2\x80\x94 :date set DATE (key D) decides one");
	dossier_release(&d);
}

struct tui_view *view_disclosure_new(struct tui *t, int64_t id)
{
	return panel_new(t, id, V_DISCLOSURE, "disclosure", fill_disclosure);
}
