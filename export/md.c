/*
 * The md export: the advisory-ready timeline (timeline.c) in Markdown.
 * Report text never starts a line, so only inline markup needs escaping:
 * a backslash before each of \ ` * _ [ ] < > | ~ &, so a subject cannot
 * inject links or HTML.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "export/export.h"

static char *md_markup(char *t)
{
	struct sbuf sb = SBUF_INIT;

	for (const char *p = t; *p; p++) {
		if (strchr("\\`*_[]<>|~&", *p))
			sbuf_addch(&sb, '\\');
		sbuf_addch(&sb, *p);
	}
	free(t);
	return sbuf_detach(&sb, NULL);
}

static void md_heading(FILE *out, int level, const char *s)
{
	fprintf(out, "%.*s %s\n\n", level, "###", s);
}

static const struct timeline_style md_style = {
	md_markup, md_heading, "- **", 0,	  ":**",
	"- ",	   ": ",       "**",   "---\n\n", true,
};

static int export_md_write(struct session *sess, FILE *out,
			   struct dossier *const *d, size_t n,
			   const struct export_opts *o, struct err *err)
{
	(void)sess;
	(void)err;
	timeline_write(&md_style, out, d, n, o);
	return 0;
}

const struct exporter export_md_entry = {
	"md",
	"md",
	"the timeline for an advisory, in Markdown",
	"the timeline for an advisory: the facts, once disclosed an advisory "
	"section (CVE, fix, introducing commits, backports, affected "
	"versions, CWE, credit only with consent, description), the "
	"disclosure date and the policy, the vendors, every event; in "
	"Markdown, with the markup characters of report text escaped.",
	export_md_write,
	NULL,
};
