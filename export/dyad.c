/*
 * The dyad export: a report's vulnerable:fixed pairs in the layout of the
 * kernel CNA's `dyad` tool (its .dyad files), one line per pair:
 *   INTRODUCED_VERSION:INTRODUCED_SHA:FIXED_VERSION:FIXED_SHA
 * versions as releases (no "v", an -rc written as the release it leads
 * to: the kernel's tools take no -rc), "0:0" for a side not known (no
 * introducing commit recorded) or not released (no tag holds the fix
 * yet).  For each fix (a report may have several), one pair per line of
 * development that had the bug (affected.h): mainline first, then each
 * stable branch, each with the fix on its own branch; comment lines
 * start with '#'.  Read from the report's fix events (fixcve.h); like
 * every public record, only once the report is disclosed.  A tag is
 * text from the tree: written as every export writes text
 * (dossier_text), so a bidi or other control in its name is escaped.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "export/export.h"
#include "core/fixcve.h"
#include "export/advisory.h"
#include "core/affected.h"

/* A version of a pair as the kernel's tools take it: a release, an -rc
 * standing for the release it leads to, "0" for none; written as every
 * export writes text (dossier_text: controls and bidi escaped; caller
 * frees). */
static char *version(const struct dossier *d, const char *v)
{
	char *rel = v && *v ? version_release(v) : xstrdup("0"), *r;

	r = dossier_text(d, rel);
	free(rel);
	return r;
}

/* One pair per line of development (affected_lines): where the bug
 * entered it (a stable branch whose fork held it: the mainline
 * introducing release and commit) and the fix on it; "0:0" for a side
 * not known or not released. */
static void pairs(FILE *out, const struct dossier *d, const struct fixcve *fc,
		  const struct fix_entry *f)
{
	struct affected_line *l;
	size_t n = affected_lines(fc, f, &l);

	for (size_t i = 0; i < n; i++) {
		bool in = l[i].in && l[i].in_version &&
			strcmp(l[i].in_version, "0");
		bool fixed = l[i].out && l[i].out_version;
		char *iv = version(d, in ? l[i].in_version : NULL);
		char *fv = version(d, fixed ? l[i].out_version : NULL);
		fprintf(out, "%s:%s:%s:%s\n", iv, in ? l[i].in->sha : "0", fv,
			fixed ? l[i].out->sha : "0");
		free(iv);
		free(fv);
	}
	free(l);
}

static int export_dyad_write(struct session *sess, FILE *out,
			     struct dossier *const *d, size_t n,
			     const struct export_opts *o, struct err *err)
{
	struct fixcve *fc = xcalloc(n ? n : 1, sizeof(*fc));
	int rc = 0;

	(void)sess;
	(void)o;
	/* The pairs name the fix: public like the other records. */
	rc = advisory_refuse_unreleased(d, n, "dyad", err);
	for (size_t i = 0; i < n && rc == 0; i++) {
		fixcve_fold(d[i]->f.events, d[i]->f.nevents, &fc[i]);
		if (!fc[i].nfixes)
			rc = err_setc(
				err, ERR_REFUSED,
				"report %lld has no fix recorded (fix ID --commit SHA)",
				(long long)d[i]->f.r.id);
	}
	for (size_t i = 0; i < n && rc == 0; i++) {
		for (size_t k = 0; k < fc[i].nfixes; k++) {
			const struct fix_entry *f = &fc[i].fixes[k];
			fprintf(out, "# dyad of report %lld: fix %s%s\n",
				(long long)d[i]->f.r.id, f->fix.sha,
				f->tree_checked ? ""
						: " (not checked in a tree)");
			pairs(out, d[i], &fc[i], f);
		}
	}
	for (size_t i = 0; i < n; i++)
		fixcve_release(&fc[i]);
	free(fc);
	return rc;
}

const struct exporter export_dyad_entry = {
	"dyad",
	"dyad",
	"vulnerable:fixed version pairs (the kernel CNA's dyad)",
	"the report's vulnerable:fixed pairs as the kernel CNA's `dyad` prints "
	"them, INTRODUCED_VERSION:SHA:FIXED_VERSION:SHA, releases only (no -rc), "
	"0:0 for a side not known or not released, for each fix one line per "
	"branch that had the bug (mainline, each stable branch searched), from `fix`.",
	export_dyad_write,
	NULL,
};
