/*
 * A report's disclosure: its proposals, the decisions (the latest is the
 * current date, all of them are the history) and what the policy says
 * about them now, loaded together with the report, its vendors and its
 * timeline as a "dossier" for `date show`, show --json and the exports.
 * Also the redaction every export applies: the reporter's identity is
 * withheld unless the reporter consented to credit.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "core/core.h"
#include "core/json.h"

int dossier_load(struct cmd_ctx *ctx, int64_t id, struct dossier *d,
		 struct err *err)
{
	struct store *s;
	int r;

	memset(d, 0, sizeof(*d));
	d->now = util_now();
	policy_from_config(ctx->cfg, &d->pol);
	if ((r = report_load(ctx, id, &d->f, err)) < 0)
		return r;
	s = ctx->store;
	if ((r = store_report_vendors_get(s, id, &d->vendors, &d->nvendors, err)) < 0 ||
	    (r = store_proposals_get(s, id, &d->proposals, &d->nproposals, err)) < 0 ||
	    (r = store_decisions_get(s, id, &d->decisions, &d->ndecisions, err)) < 0)
		return r;
	policy_check(&d->pol, &d->f.r, d->f.r.disclosure ? d->f.r.disclosure : d->now,
		     d->ndecisions && d->decisions[d->ndecisions - 1].reason,
		     d->ndecisions && d->decisions[d->ndecisions - 1].override,
		     d->now, &d->ans);
	return 0;
}

void dossier_release(struct dossier *d)
{
	report_full_release(&d->f);
	for (size_t i = 0; i < d->nvendors; i++)
		report_vendor_release(&d->vendors[i]);
	free(d->vendors);
	for (size_t i = 0; i < d->nproposals; i++)
		proposal_release(&d->proposals[i]);
	free(d->proposals);
	for (size_t i = 0; i < d->ndecisions; i++)
		decision_release(&d->decisions[i]);
	free(d->decisions);
	memset(d, 0, sizeof(*d));
}

bool dossier_embargoed(const struct dossier *d)
{
	const struct report *r = &d->f.r;

	if (!strcmp(r->state, "disclosed") || !strcmp(r->state, "closed") || r->public)
		return false;
	return !r->disclosure || r->disclosure > d->now;
}

json_t *disclosure_json(struct cmd_ctx *ctx, const struct report *r)
{
	struct store *s = cmd_ctx_store(ctx);
	struct proposal *p = NULL;
	struct decision *dc = NULL;
	size_t np = 0, nd = 0;
	struct err err = { 0, "" };
	struct policy pol;
	struct policy_answer ans;
	time_t now = util_now();
	json_t *o, *props = json_array(), *hist = json_array();
	const struct decision *last;

	policy_from_config(ctx->cfg, &pol);
	if (s) {
		if (store_proposals_get(s, r->id, &p, &np, &err) < 0)
			np = 0;
		if (store_decisions_get(s, r->id, &dc, &nd, &err) < 0)
			nd = 0;
	}
	last = nd ? &dc[nd - 1] : NULL;
	policy_check(&pol, r, r->disclosure ? r->disclosure : now,
		     last && last->reason, last && last->override, now, &ans);
	for (size_t i = 0; i < np; i++) {
		struct policy_answer pa;
		policy_check(&pol, r, p[i].date, p[i].reason != NULL, false, now, &pa);
		json_array_append_new(props, json_pack(
			"{s:o, s:o, s:o, s:o, s:o, s:s}",
			"by", json_text(p[i].by), "date", json_time(p[i].date),
			"reason", json_text(p[i].reason), "at", json_time(p[i].at),
			"officer", json_text(p[i].officer),
			"policy_verdict", policy_verdict_name(pa.verdict)));
		proposal_release(&p[i]);
	}
	for (size_t i = 0; i < nd; i++)
		json_array_append_new(hist, json_pack(
			"{s:o, s:o, s:o, s:b, s:o, s:o}",
			"date", json_time(dc[i].date),
			"policy_verdict", json_text(dc[i].verdict),
			"reason", json_text(dc[i].reason),
			"override", dc[i].override,
			"officer", json_text(dc[i].officer),
			"at", json_time(dc[i].at)));
	o = json_pack("{s:o, s:o, s:o, s:b, s:o, s:o, s:o}",
		      "date", json_time(r->disclosure),
		      "policy_verdict", json_text(last ? last->verdict : NULL),
		      "reason", json_text(last ? last->reason : NULL),
		      "override", last && last->override,
		      "policy", json_pack(
			      "{s:I, s:I, s:o, s:s, s:o, s:o, s:o, s:o, s:b}",
			      "default_days", (json_int_t)pol.default_days,
			      "max_days", (json_int_t)pol.max_days,
			      "clock_start", json_time(ans.clock_start),
			      "clock", r->release_started ? "release-started" : "received",
			      "default_limit", json_time(ans.default_limit),
			      "max_limit", json_time(ans.max_limit),
			      "policy_date", json_time(ans.policy_date),
			      "current_verdict", r->disclosure ?
				      json_string(policy_verdict_name(ans.verdict)) : json_null(),
			      "current_allowed", r->disclosure ? ans.allowed : true),
		      "proposals", props, "history", hist);
	for (size_t i = 0; i < nd; i++)
		decision_release(&dc[i]);
	free(p);
	free(dc);
	return o;
}

/* Replaces every case-insensitive occurrence of what in *text. */
static void replace_ci(char **text, const char *what, const char *with)
{
	struct sbuf sb = SBUF_INIT;
	size_t wl = what ? strlen(what) : 0;
	const char *p = *text;

	if (wl < 3 || !strcasestr(p, what))
		return;
	while (*p) {
		if (!strncasecmp(p, what, wl)) {
			sbuf_adds(&sb, with);
			p += wl;
		} else {
			sbuf_addch(&sb, *p++);
		}
	}
	free(*text);
	*text = sbuf_detach(&sb, NULL);
}

char *export_redact(const struct dossier *d, const char *text)
{
	const struct report *r = &d->f.r;
	char *t = xstrdup(text ? text : "");

	if (r->consent_credit)
		return t;
	/* Longest first, so a name containing the address is caught whole. */
	replace_ci(&t, r->reporter_name, "[reporter]");
	replace_ci(&t, r->reporter_email, "[reporter]");
	for (size_t i = 0; i < d->f.nmsgs; i++) {
		const struct message *m = &d->f.msgs[i];
		if (!m->from_email || !r->reporter_email ||
		    strcasecmp(m->from_email, r->reporter_email))
			continue;
		replace_ci(&t, m->from_name, "[reporter]");
		replace_ci(&t, m->fingerprint, "[reporter's key]");
	}
	return t;
}

char *export_reporter(const struct dossier *d)
{
	const struct report *r = &d->f.r;

	if (!r->consent_credit)
		return NULL;
	if (r->reporter_name && *r->reporter_name && r->reporter_email)
		return xasprintf("%s <%s>", r->reporter_name, r->reporter_email);
	if (r->reporter_name && *r->reporter_name)
		return xstrdup(r->reporter_name);
	return r->reporter_email ? xstrdup(r->reporter_email) : NULL;
}

char *export_text(const struct dossier *d, const char *text)
{
	char *r = export_redact(d, text), *s = safe_str(r);

	free(r);
	return s;
}

void export_warn_embargo(struct cmd_ctx *ctx, const struct dossier *d)
{
	if (dossier_embargoed(d))
		fprintf(ctx->errout, "warning: report %lld is still under embargo\n",
			(long long)d->f.r.id);
}
