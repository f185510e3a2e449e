/*
 * The vendors panel of an open report: each vendor of the directory with
 * its status on the report (those never notified dimmed), its dates, an
 * NDA request with the policy's answer.  M notifies the vendor under the
 * cursor and ! records its NDA request, each after a y/n question naming
 * the vendor and what will be recorded (n and N keep their meaning
 * everywhere: the next and previous search match); u opens the : line
 * with `vendor status` for it.  Changes are the `vendor notify` and
 * `vendor status` commands, run through the runner with the vendor's
 * name as a value.
 */
#include <stdlib.h>
#include <string.h>

#include "core/vendor.h"
#include "tui/panel.h"

static void vendor_line(struct tui *t, struct panel *p,
			const struct report_vendor *rv)
{
	char b1[32], b2[32];
	bool silent = rv->status && !strcmp(rv->status, "notified");

	panel_item(p, IT_VENDOR, rv->name, rv->name);
	panel_add(&p->lines, silent ? A_BOLD : A_NORMAL,
		  "%-22s %-9s %-14s %-10s %-10s %-3s %s%s%s",
		  rv->name ? rv->name : "?", rv->kind ? rv->kind : "",
		  rv->status ? rv->status : "", panel_day(rv->notified_at, b1),
		  panel_day(rv->updated_at, b2),
		  rv->nda_requested ? "yes" : "-", rv->note ? rv->note : "",
		  rv->note && rv->statement ? " / " : "",
		  rv->statement ? rv->statement : "");
	if (rv->nda_requested)
		panel_add(&p->lines, draw_color(t, CP_RED) | A_BOLD,
			  "    NDA requested: %s", policy_nda_answer());
}

static void fill_vendors(struct tui *t, struct tui_view *v, struct panel *p)
{
	struct tui_lines *l = &p->lines;
	struct dossier d;
	struct err err = { 0, "" };
	struct vendor *dir = NULL;
	size_t ndir = 0, others = 0;

	if (dossier_load(t->ctx->sess, v->report_id, &d, &err) < 0) {
		panel_add(l, A_BOLD | draw_color(t, CP_RED), "%s", err.msg);
		dossier_release(&d);
		return;
	}
	panel_add(l, A_BOLD | A_UNDERLINE,
		  "%-22s %-9s %-14s %-10s %-10s %-3s %s", "VENDOR", "KIND",
		  "STATUS", "NOTIFIED", "UPDATED", "NDA", "NOTE / STATEMENT");
	for (size_t i = 0; i < d.nvendors; i++)
		vendor_line(t, p, &d.vendors[i]);
	if (vendors_list(t->ctx->sess, &dir, &ndir, &err) < 0)
		panel_add(l, A_BOLD | draw_color(t, CP_RED), "%s", err.msg);
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
		panel_add(
			l, A_DIM,
			"no vendor in the directory yet \xe2\x80\x94 :vendor add NAME --contact EMAIL");
	panel_add(l, A_NORMAL, "%s", "");
	panel_add(
		l, A_DIM,
		"M notifies the vendor under the cursor, u updates its status, "
		"! records an NDA request (each asks first)");
	dossier_release(&d);
}

/* Runs `vendor SUB ID NAME [OPTION]` on the report on top, the vendor's
 * name as a value, once the officer says yes to question (freed here). */
static int change(struct tui *t, char *question, const char *sub,
		  const char *vendor, const char *option)
{
	char *argv[6], *id;
	bool yes = tui_confirm(t, question);
	int argc = 0, r;

	free(question);
	if (!yes)
		return TUI_REDRAW;
	id = xasprintf("%lld", (long long)tui_top(t)->report_id);
	argv[argc++] = (char *)"vendor";
	argv[argc++] = (char *)sub;
	if (option)
		argv[argc++] = (char *)option;
	/* A name is never read as an option ("--json" is a name here). */
	argv[argc++] = (char *)"--";
	argv[argc++] = id;
	argv[argc++] = (char *)vendor;
	r = tui_run_argv(t, argc, argv, NULL);
	free(id);
	return r;
}

int vendors_notify(struct tui *t, const char *args)
{
	struct item *it = panel_cursor(t, V_VENDORS, IT_VENDOR, "a vendor");
	struct vendor ven;
	char *q, *name, *contact;
	int r;

	(void)args;
	if (!it)
		return TUI_OK;
	memset(&ven, 0, sizeof(ven));
	if (vendors_get(t->ctx->sess, it->key, &ven, NULL) == 0)
		contact = safe_str(ven.contact);
	else
		contact = xstrdup("?");
	name = safe_str(it->key);
	q = xasprintf(
		"record that %s (%s) is notified of report %lld? (the mail itself: :vendor notify --forward)",
		name, contact, (long long)tui_top(t)->report_id);
	r = change(t, q, "notify", it->key, NULL);
	free(name);
	free(contact);
	vendor_release(&ven);
	return r;
}

int vendors_nda(struct tui *t, const char *args)
{
	struct item *it = panel_cursor(t, V_VENDORS, IT_VENDOR, "a vendor");
	char *q, *name;
	int r;

	(void)args;
	if (!it)
		return TUI_OK;
	name = safe_str(it->key);
	q = xasprintf(
		"record that %s asked for an NDA on report %lld? (the policy: %s)",
		name, (long long)tui_top(t)->report_id, policy_nda_answer());
	r = change(t, q, "status", it->key, "--nda-requested");
	free(name);
	return r;
}

int vendors_update(struct tui *t, const char *args)
{
	struct item *it = panel_cursor(t, V_VENDORS, IT_VENDOR, "a vendor");
	char *argv[4], idbuf[32], *init;
	int r;

	(void)args;
	if (!it)
		return TUI_OK;
	/* The : line, prefilled with the vendor's name quoted as a word of
	 * its own: the officer edits it, it is split again as typed. */
	snprintf(idbuf, sizeof(idbuf), "%lld",
		 (long long)tui_top(t)->report_id);
	argv[0] = (char *)"vendor";
	argv[1] = (char *)"status";
	argv[2] = idbuf;
	argv[3] = it->key;
	init = cmd_join(4, argv);
	r = tui_prompt_run(t, init);
	free(init);
	return r;
}

struct tui_view *view_vendors_new(struct tui *t, int64_t id)
{
	return panel_new(t, id, V_VENDORS, "vendors", fill_vendors);
}
