/*
 * The advisory-ready timeline that md and txt write, each in its own
 * markup (struct timeline_style): the report's facts, the proposals and
 * decisions with the policy limits, the vendors and their answers, then
 * when the report was received, then every event in order (imported,
 * verified, maintainers brought in, vendors notified, dates, fix,
 * disclosure).  Internal notes (events
 * "note" and "vendor-note") are left out unless --with-notes.  All text
 * is redacted (dossier_text) before the style marks it up.  Times are UTC.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "export/export.h"
#include "core/fixcve.h"
#include "export/advisory.h"

struct tl {
	const struct timeline_style *st;
	FILE *out;
	const struct dossier *d;
	const struct export_opts *o;
};

static const struct {
	const char *kind, *label;
} labels[] = {
	{ "import", "imported" },
	{ "reply", "reply in the thread" },
	{ "state", "state" },
	{ "severity", "severity" },
	{ "claim", "claimed" },
	{ "public", "made public" },
	{ "consent", "consent" },
	{ "note", "note" },
	{ "vendor-notify", "vendor notified" },
	{ "vendor-status", "vendor answer" },
	{ "vendor-statement", "vendor statement" },
	{ "vendor-note", "vendor note" },
	{ "nda-request", "NDA request" },
	{ "date-propose", "date proposed" },
	{ "date-set", "date set" },
	{ "release-start", "release process started" },
	{ "attachment-release", "attachment released" },
	{ "attachment-saved", "attachment saved" },
	{ "duplicate-of", "duplicate" },
};

/* Text for the output: redacted, one line, in the style's markup. */
static char *text(const struct tl *t, const char *s)
{
	char *r = dossier_text(t->d, s);
	return t->st->markup ? t->st->markup(r) : r;
}

static void fact(const struct tl *t, const char *name, const char *value)
{
	fprintf(t->out, "%s%-*s%s %s\n", t->st->fact_open, t->st->fact_width,
		name, t->st->fact_close, value);
}

/* A list item: the bullet, at (when not NULL) and the style's
 * separator, then the text. */
static void UTIL_PRINTF(3, 4)
	item(const struct tl *t, const char *at, const char *fmt, ...)
{
	va_list ap;

	fputs(t->st->bullet, t->out);
	if (at)
		fprintf(t->out, "%s%s", at, t->st->after_at);
	va_start(ap, fmt);
	vfprintf(t->out, fmt, ap);
	va_end(ap);
}

/* A duplicate names the report whose record covers it; an original
 * lists its duplicates. */
static void duplicate_facts(const struct tl *t)
{
	const struct dossier *d = t->d;
	struct sbuf sb = SBUF_INIT;

	if (d->f.duplicate_of && d->original != d->f.duplicate_of)
		sbuf_addf(
			&sb,
			"report %lld (itself a duplicate of report %lld): the "
			"record is report %lld's",
			(long long)d->f.duplicate_of, (long long)d->original,
			(long long)d->original);
	else if (d->f.duplicate_of)
		sbuf_addf(&sb, "report %lld: the record is report %lld's",
			  (long long)d->f.duplicate_of,
			  (long long)d->f.duplicate_of);
	if (sb.len)
		fact(t, "Duplicate of", sb.buf);
	sbuf_reset(&sb);
	for (size_t i = 0; i < d->f.nduplicates; i++)
		sbuf_addf(&sb, "%s%lld", i ? ", " : "reports ",
			  (long long)d->f.duplicates[i]);
	if (sb.len)
		fact(t, "Duplicates", sb.buf);
	sbuf_release(&sb);
}

static void facts(const struct tl *t)
{
	const struct dossier *d = t->d;
	const struct report *r = &d->f.r;
	char b1[32], b2[64], eb[160];
	char *s, *h, *who;

	s = text(t, r->subject);
	h = xasprintf("Report %lld: %s", (long long)r->id, s);
	t->st->heading(t->out, 1, h);
	free(h);
	free(s);
	fact(t, "State", r->state);
	duplicate_facts(t);
	fact(t, "Severity", r->severity);
	fact(t, "Received", fmt_rfc3339(r->received, b1));
	who = dossier_reporter(d);
	s = who ? text(t, who) : xstrdup("withheld (no consent to credit)");
	fact(t, "Reporter", s);
	free(s);
	free(who);
	/* Disclosed is public too, since the move (dossier_released_at). */
	if (r->public)
		snprintf(b2, sizeof(b2), "yes, already public");
	else if (dossier_released_at(d))
		snprintf(b2, sizeof(b2), "yes, disclosed %s",
			 fmt_rfc3339(dossier_released_at(d), b1));
	else
		snprintf(b2, sizeof(b2), "no");
	fact(t, "Public", b2);
	fact(t, "Embargo", embargo_describe(&d->emb, eb));
	if (d->f.nfiles) {
		struct sbuf sb = SBUF_INIT;
		for (size_t i = 0; i < d->f.nfiles; i++) {
			s = text(t, d->f.files[i]);
			sbuf_addf(&sb, "%s%s", i ? ", " : "", s);
			free(s);
		}
		fact(t, "Files", sb.buf);
		sbuf_release(&sb);
	}
	fputc('\n', t->out);
}

/* The date, the clock and the policy's limits. */
static void policy_facts(const struct tl *t)
{
	const struct dossier *d = t->d;
	const struct report *r = &d->f.r;
	char b1[32], b2[32], b3[32];
	char *s, *h;

	if (r->disclosure) {
		const struct decision *last = &d->decisions[d->ndecisions - 1];
		s = last->reason ? text(t, last->reason) : NULL;
		h = xasprintf("%s (policy: %s%s%s%s)",
			      fmt_rfc3339(r->disclosure, b1), last->verdict,
			      last->override ? ", overridden" : "",
			      s ? "; reason: " : "", s ? s : "");
		fact(t, "Date", h);
		free(h);
		free(s);
	} else {
		fact(t, "Date", r->public ? "now (already public)" : "not set");
	}
	h = xasprintf("%s (%s)", fmt_rfc3339(d->ans.clock_start, b1),
		      r->release_started ? "start of the release process"
					 : "report received");
	fact(t, "Clock start", h);
	free(h);
	h = xasprintf("%s (%ld days); maximum %s (%ld days, with a reason)",
		      fmt_rfc3339(d->ans.default_limit, b2),
		      d->pol.default_days, fmt_rfc3339(d->ans.max_limit, b3),
		      d->pol.max_days);
	fact(t, "Policy", h);
	free(h);
	fputc('\n', t->out);
}

static void disclosure(const struct tl *t)
{
	const struct dossier *d = t->d;
	char b1[32], b2[32];

	t->st->heading(t->out, 2, "Disclosure");
	policy_facts(t);
	for (size_t i = 0; i < d->nproposals; i++) {
		const struct proposal *p = &d->proposals[i];
		char *by = text(t, p->by), *rs = text(t, p->reason);
		item(t, fmt_rfc3339(p->at, b1), "proposed by %s for %s: %s\n",
		     by, fmt_rfc3339(p->date, b2), rs);
		free(by);
		free(rs);
	}
	for (size_t i = 0; i < d->ndecisions; i++) {
		const struct decision *dc = &d->decisions[i];
		char *o = text(t, dc->officer), *rs = text(t, dc->reason);
		item(t, fmt_rfc3339(dc->at, b1),
		     "set to %s by %s (policy: %s%s)%s%s\n",
		     fmt_rfc3339(dc->date, b2), o, dc->verdict,
		     dc->override ? ", overridden" : "", dc->reason ? ": " : "",
		     rs);
		free(o);
		free(rs);
	}
	if (d->nproposals || d->ndecisions)
		fputc('\n', t->out);
}

static void vendors(const struct tl *t)
{
	const struct dossier *d = t->d;
	char b1[32], b2[32];

	if (!d->nvendors)
		return;
	t->st->heading(t->out, 2, "Vendors");
	for (size_t i = 0; i < d->nvendors; i++) {
		const struct report_vendor *v = &d->vendors[i];
		char *n = text(t, v->name),
		     *st = v->statement ? text(t, v->statement) : NULL;
		item(t, NULL, "%s (%s): %s, notified %s, updated %s%s%s%s\n", n,
		     v->kind, v->status,
		     v->notified_at ? fmt_rfc3339(v->notified_at, b1) : "never",
		     fmt_rfc3339(v->updated_at, b2),
		     v->nda_requested
			     ? "; asked for an NDA (declined: the team cannot enter NDAs)"
			     : "",
		     st ? "; statement: " : "", st ? st : "");
		free(n);
		free(st);
	}
	fputc('\n', t->out);
}

static const char *event_label(const char *kind)
{
	for (size_t j = 0; j < ARRAY_SIZE(labels); j++)
		if (!strcmp(labels[j].kind, kind))
			return labels[j].label;
	return kind;
}

static void events(const struct tl *t)
{
	const struct dossier *d = t->d;
	char b1[32];

	t->st->heading(t->out, 2, "Timeline");
	/* When the report was received (its mail's date), apart from when
	 * it was imported (the "import" event), which can be days later. */
	item(t, fmt_rfc3339(d->f.r.received, b1), "%sreceived%s: %s\n",
	     t->st->strong, t->st->strong, report_received_source(&d->f));
	for (size_t i = 0; i < d->f.nevents; i++) {
		const struct event *e = &d->f.events[i];
		if (!export_event_shown(t->o, e))
			continue;
		char *k = text(t, event_label(e->kind)),
		     *dt = text(t, e->detail);
		item(t, fmt_rfc3339(e->at, b1), "%s%s%s: %s\n", t->st->strong,
		     k, t->st->strong, dt);
		free(k);
		free(dt);
	}
	fputc('\n', t->out);
}

/* "SHA (TAG)" or "SHA (TAG) on BRANCH" items joined by ", " (caller
 * frees; markup applied). */
static char *commits(const struct tl *t, const struct fix_commit *c, size_t n)
{
	struct sbuf sb = SBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		char *s = c[i].branch
			? xasprintf("%s (%s) on %s", c[i].sha,
				    c[i].tag ? c[i].tag : "no tag", c[i].branch)
			: xasprintf("%s (%s)", c[i].sha,
				    c[i].tag ? c[i].tag : "no tag");
		char *m = text(t, s);
		sbuf_addf(&sb, "%s%s", i ? ", " : "", m);
		free(m);
		free(s);
	}
	return sbuf_detach(&sb, NULL);
}

/* "from 1.0 until 1.1-rc1; fixed in 1.0.1 (linux-1.0.y)"; with several
 * fixes one such clause each, "and until", for a version is affected
 * until it holds every fix (caller frees). */
static char *affected_versions(const struct tl *t, const struct fixcve *fc)
{
	struct sbuf sb = SBUF_INIT;
	char *s, *m;

	for (size_t k = 0; k < fc->nfixes; k++) {
		const struct fix_entry *f = &fc->fixes[k];
		size_t any = 0;
		sbuf_adds(&sb, k ? "; and " : "from ");
		for (size_t i = 0; i < f->nintroduced; i++)
			if (f->introduced[i].tag)
				sbuf_addf(&sb, "%s%s",
					  any++	      ? " or "
						  : k ? "from "
						      : "",
					  fix_version(f->introduced[i].tag));
		if (!any && !k)
			sbuf_adds(&sb, "an unknown version");
		sbuf_addf(&sb, "%suntil %s", any || !k ? " " : "",
			  f->fix.tag ? fix_version(f->fix.tag)
				     : "the fix is released");
		for (size_t b = 0; b < f->nbackports; b++)
			if (f->backports[b].tag)
				sbuf_addf(&sb, "; fixed in %s (%s)",
					  fix_version(f->backports[b].tag),
					  f->backports[b].branch);
	}
	s = sbuf_detach(&sb, NULL);
	m = text(t, s);
	free(s);
	return m;
}

/* Each fix's commits, then its introducing commits and backports. */
static char *fix_commits(const struct tl *t, const struct fixcve *fc, int which)
{
	struct sbuf sb = SBUF_INIT;

	for (size_t k = 0; k < fc->nfixes; k++) {
		const struct fix_entry *f = &fc->fixes[k];
		char *s = which == 0 ? commits(t, &f->fix, 1)
			: which == 1 ? commits(t, f->introduced, f->nintroduced)
				     : commits(t, f->backports, f->nbackports);
		if (*s)
			sbuf_addf(&sb, "%s%s", sb.len ? ", " : "", s);
		free(s);
	}
	return sb.len ? sbuf_detach(&sb, NULL) : (sbuf_release(&sb), NULL);
}

/* "CVE-... (STATE)", ", "-separated. */
static void sb_cve(struct sbuf *sb, const struct cve_entry *c)
{
	sbuf_addf(sb, "%s%s (%s)", sb->len ? ", " : "", c->id, c->state);
}

/* The advisory section: only once the embargo is over. */
static void advisory(const struct tl *t)
{
	struct fixcve fc;
	struct sbuf cves = SBUF_INIT;
	char *s, *who;

	if (!t->st->advisory || dossier_embargoed(t->d))
		return;
	fixcve_fold(t->d->f.events, t->d->f.nevents, &fc);
	t->st->heading(t->out, 2, "Advisory");
	for (size_t i = 0; i < fc.ncves; i++)
		sb_cve(&cves, &fc.cves[i]);
	fact(t, "CVE", cves.len ? cves.buf : "none assigned");
	sbuf_release(&cves);
	if (fc.nfixes) {
		fact(t, "Fix", (s = fix_commits(t, &fc, 0)));
		free(s);
		if ((s = fix_commits(t, &fc, 1))) {
			fact(t, "Introduced", s);
			free(s);
		}
		if ((s = fix_commits(t, &fc, 2))) {
			fact(t, "Backports", s);
			free(s);
		}
		fact(t, "Affected", (s = affected_versions(t, &fc)));
		free(s);
	} else {
		fact(t, "Fix", "not recorded");
	}
	if (fc.cwe)
		fact(t, "Weakness", fc.cwe);
	who = advisory_credit(t->d);
	s = who ? text(t, who) : xstrdup("withheld (no consent to credit)");
	fact(t, "Credit", s);
	free(s);
	free(who);
	if (fc.description) {
		/* One paragraph: its lines joined. */
		for (char *p = fc.description; *p; p++)
			if (*p == '\n')
				*p = ' ';
		fact(t, "Description", (s = text(t, fc.description)));
		free(s);
	}
	fputc('\n', t->out);
	fixcve_release(&fc);
}

void timeline_write(const struct timeline_style *st, FILE *out,
		    struct dossier *const *d, size_t n,
		    const struct export_opts *o)
{
	for (size_t i = 0; i < n; i++) {
		struct tl t = { st, out, d[i], o };
		if (i)
			fputs(st->between, out);
		facts(&t);
		advisory(&t);
		disclosure(&t);
		vendors(&t);
		events(&t);
	}
}
