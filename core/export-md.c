/*
 * The advisory-ready timeline, as Markdown (md) or plain text (txt):
 * the report's facts, the vendors and their answers, the proposals and
 * decisions with the policy limits, then every event in order (reported,
 * verified, maintainers brought in, vendors notified, dates, fix,
 * disclosure).  Internal notes (events "note" and "vendor-note") are left
 * out unless --with-notes.  All text is redacted (export_text) and, for Markdown,
 * its markup characters are escaped so a subject cannot inject links or
 * HTML (text never starts a line, so only inline markup needs it).
 * Times are UTC.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

struct md {
	FILE *out;
	bool md;
	const struct dossier *d;
	const struct export_opts *o;
};

static const struct {
	const char *kind, *label;
} labels[] = {
	{ "import", "reported" },
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
};

/* Text for the output: redacted, one line, Markdown-escaped for md. */
static char *text(const struct md *m, const char *s)
{
	char *t = export_text(m->d, s);
	struct sbuf sb = SBUF_INIT;

	if (!m->md)
		return t;
	for (const char *p = t; *p; p++) {
		if (strchr("\\`*_[]<>|~&", *p))
			sbuf_addch(&sb, '\\');
		sbuf_addch(&sb, *p);
	}
	free(t);
	return sbuf_detach(&sb, NULL);
}

static void heading(const struct md *m, int level, const char *s)
{
	if (m->md) {
		fprintf(m->out, "%.*s %s\n\n", level, "###", s);
		return;
	}
	fprintf(m->out, "%s\n", s);
	for (size_t i = strlen(s); i > 0; i--)
		fputc(level == 1 ? '=' : '-', m->out);
	fputs("\n\n", m->out);
}

static void fact(const struct md *m, const char *name, const char *value)
{
	fprintf(m->out, m->md ? "- **%s:** %s\n" : "  %-12s %s\n", name, value);
}

static void one(const struct md *m)
{
	const struct dossier *d = m->d;
	const struct report *r = &d->f.r;
	char b1[32], b2[32], b3[32];
	char *s, *h, *who;

	s = text(m, r->subject);
	h = xasprintf("Report %lld: %s", (long long)r->id, s);
	heading(m, 1, h);
	free(h);
	free(s);
	fact(m, "State", r->state);
	fact(m, "Severity", r->severity);
	fact(m, "Received", fmt_rfc3339(r->received, b1));
	who = export_reporter(d);
	s = who ? text(m, who) : xstrdup("withheld (no consent to credit)");
	fact(m, "Reporter", s);
	free(s);
	free(who);
	fact(m, "Public", r->public ? "yes, already public" : "no");
	fact(m, "Embargo", dossier_embargoed(d) ? "still under embargo" : "over");
	if (d->f.nfiles) {
		struct sbuf sb = SBUF_INIT;
		for (size_t i = 0; i < d->f.nfiles; i++) {
			s = text(m, d->f.files[i]);
			sbuf_addf(&sb, "%s%s", i ? ", " : "", s);
			free(s);
		}
		fact(m, "Files", sb.buf);
		sbuf_release(&sb);
	}
	fputc('\n', m->out);

	heading(m, 2, "Disclosure");
	if (r->disclosure) {
		const struct decision *last = &d->decisions[d->ndecisions - 1];
		s = last->reason ? text(m, last->reason) : NULL;
		h = xasprintf("%s (policy: %s%s%s%s)", fmt_rfc3339(r->disclosure, b1),
			      last->verdict, last->override ? ", overridden" : "",
			      s ? "; reason: " : "", s ? s : "");
		fact(m, "Date", h);
		free(h);
		free(s);
	} else {
		fact(m, "Date", r->public ? "now (already public)" : "not set");
	}
	h = xasprintf("%s (%s)", fmt_rfc3339(d->ans.clock_start, b1),
		      r->release_started ? "start of the release process" : "report received");
	fact(m, "Clock start", h);
	free(h);
	h = xasprintf("%s (%ld days); maximum %s (%ld days, with a reason)",
		      fmt_rfc3339(d->ans.default_limit, b2), d->pol.default_days,
		      fmt_rfc3339(d->ans.max_limit, b3), d->pol.max_days);
	fact(m, "Policy", h);
	free(h);
	fputc('\n', m->out);
	for (size_t i = 0; i < d->nproposals; i++) {
		const struct proposal *p = &d->proposals[i];
		char *by = text(m, p->by), *rs = text(m, p->reason);
		fprintf(m->out, m->md ? "- %s: proposed by %s for %s: %s\n" :
				"  %s  proposed by %s for %s: %s\n",
			fmt_rfc3339(p->at, b1), by, fmt_rfc3339(p->date, b2), rs);
		free(by);
		free(rs);
	}
	for (size_t i = 0; i < d->ndecisions; i++) {
		const struct decision *dc = &d->decisions[i];
		char *o = text(m, dc->officer), *rs = text(m, dc->reason);
		fprintf(m->out, m->md ? "- %s: set to %s by %s (policy: %s%s)%s%s\n" :
				"  %s  set to %s by %s (policy: %s%s)%s%s\n",
			fmt_rfc3339(dc->at, b1), fmt_rfc3339(dc->date, b2), o,
			dc->verdict, dc->override ? ", overridden" : "",
			dc->reason ? ": " : "", rs);
		free(o);
		free(rs);
	}
	if (d->nproposals || d->ndecisions)
		fputc('\n', m->out);

	if (d->nvendors) {
		heading(m, 2, "Vendors");
		for (size_t i = 0; i < d->nvendors; i++) {
			const struct report_vendor *v = &d->vendors[i];
			char *n = text(m, v->name), *st = v->statement ? text(m, v->statement) : NULL;
			fprintf(m->out, m->md ? "- %s (%s): %s, notified %s, updated %s%s%s%s\n" :
					"  %s (%s): %s, notified %s, updated %s%s%s%s\n",
				n, v->kind, v->status,
				v->notified_at ? fmt_rfc3339(v->notified_at, b1) : "never",
				fmt_rfc3339(v->updated_at, b2),
				v->nda_requested ? "; asked for an NDA (declined: the team cannot enter NDAs)" : "",
				st ? "; statement: " : "", st ? st : "");
			free(n);
			free(st);
		}
		fputc('\n', m->out);
	}

	heading(m, 2, "Timeline");
	for (size_t i = 0; i < d->f.nevents; i++) {
		const struct event *e = &d->f.events[i];
		const char *label = e->kind;
		char *k, *dt;
		if (!export_event_shown(m->o, e))
			continue;
		for (size_t j = 0; j < ARRAY_SIZE(labels); j++)
			if (!strcmp(labels[j].kind, e->kind))
				label = labels[j].label;
		k = text(m, label);
		dt = text(m, e->detail);
		fprintf(m->out, m->md ? "- %s: **%s**: %s\n" : "  %s  %s: %s\n",
			fmt_rfc3339(e->at, b1), k, dt);
		free(k);
		free(dt);
	}
	fputc('\n', m->out);
}

static int export_timeline(FILE *out, bool md, struct dossier *const *d,
			   size_t n, const struct export_opts *o)
{
	for (size_t i = 0; i < n; i++) {
		struct md m = { out, md, d[i], o };
		if (i)
			fputs(md ? "---\n\n" : "\n", out);
		one(&m);
	}
	return 0;
}

int export_md(struct cmd_ctx *ctx, FILE *out, struct dossier *const *d,
	      size_t n, const struct export_opts *o, struct err *err)
{
	(void)ctx;
	(void)err;
	return export_timeline(out, true, d, n, o);
}

int export_txt(struct cmd_ctx *ctx, FILE *out, struct dossier *const *d,
	       size_t n, const struct export_opts *o, struct err *err)
{
	(void)ctx;
	(void)err;
	return export_timeline(out, false, d, n, o);
}
