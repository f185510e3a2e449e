/*
 * The dyad export: a report's vulnerable:fixed pairs in the layout of the
 * kernel CNA's `dyad` tool (its .dyad files), one line per pair:
 *   INTRODUCED_VERSION:INTRODUCED_SHA:FIXED_VERSION:FIXED_SHA
 * versions without the tag's "v", 0 for what is not known (no
 * introducing commit recorded, no tag containing the fix yet).  For
 * each fix (a report may have several), the mainline fix comes first,
 * then each stable backport; comment lines start with '#'.  Read from the report's fix events (fixcve.h); like
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

/* A tag as the version of a pair, as every export writes text
 * (dossier_text: redacted, controls and bidi escaped); "0" for none
 * (caller frees). */
static char *version(const struct dossier *d, const struct fix_commit *c)
{
	const char *v = c ? fix_version(c->tag) : NULL;

	return dossier_text(d, v && *v ? v : "0");
}

static void pair(FILE *out, const char *iv, const char *is,
		 const struct dossier *d, const struct fix_commit *fixed)
{
	char *fv = version(d, fixed);

	fprintf(out, "%s:%s:%s:%s\n", iv, is, fv, fixed->sha);
	free(fv);
}

static void pairs(FILE *out, const struct dossier *d,
		  const struct fix_commit *in, const struct fix_entry *f)
{
	char *iv = version(d, in);
	const char *is = in ? in->sha : "0";

	pair(out, iv, is, d, &f->fix);
	for (size_t b = 0; b < f->nbackports; b++)
		pair(out, iv, is, d, &f->backports[b]);
	free(iv);
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
			rc = err_setc(err, ERR_REFUSED,
				      "report %lld has no fix recorded (fix ID --commit SHA)",
				      (long long)d[i]->f.r.id);
	}
	for (size_t i = 0; i < n && rc == 0; i++) {
		for (size_t k = 0; k < fc[i].nfixes; k++) {
			const struct fix_entry *f = &fc[i].fixes[k];
			fprintf(out, "# dyad of report %lld: fix %s%s\n", (long long)d[i]->f.r.id,
				f->fix.sha, f->tree_checked ? "" : " (not checked in a tree)");
			if (!f->nintroduced)
				pairs(out, d[i], NULL, f);
			for (size_t j = 0; j < f->nintroduced; j++)
				pairs(out, d[i], &f->introduced[j], f);
		}
	}
	for (size_t i = 0; i < n; i++)
		fixcve_release(&fc[i]);
	free(fc);
	return rc;
}

const struct exporter export_dyad_entry = {
	"dyad", "dyad", "vulnerable:fixed version pairs (the kernel CNA's dyad)",
	"the report's vulnerable:fixed pairs as the kernel CNA's `dyad` prints "
	"them, INTRODUCED_VERSION:SHA:FIXED_VERSION:SHA, for each fix one line "
	"for the mainline fix and one per stable backport, from `fix`.",
	export_dyad_write, NULL,
};
