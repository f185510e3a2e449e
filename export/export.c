/*
 * The table of export formats (export.h): one row a format, defined in
 * its own file, listed here in the order the usage and the man page show
 * them; and what the usage and the man page say of them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/core.h"
#include "export/export.h"

extern const struct exporter export_md_entry, export_txt_entry,
	export_json_entry, export_csv_entry, export_ics_entry, export_cve_entry,
	export_dyad_entry, export_osv_entry, export_csaf_entry;

const struct exporter *const export_table[] = {
	&export_md_entry,   &export_txt_entry, &export_json_entry,
	&export_csv_entry,  &export_ics_entry, &export_cve_entry,
	&export_dyad_entry, &export_osv_entry, &export_csaf_entry,
};
const size_t export_table_len = ARRAY_SIZE(export_table);

const struct exporter *export_find(const char *name)
{
	for (size_t i = 0; i < export_table_len; i++)
		if (!strcmp(export_table[i]->name, name))
			return export_table[i];
	return NULL;
}

char *export_names(const char *sep)
{
	struct sbuf sb = SBUF_INIT;

	for (size_t i = 0; i < export_table_len; i++)
		sbuf_addf(&sb, "%s%s", i ? sep : "", export_table[i]->name);
	return sbuf_detach(&sb, NULL);
}

void export_usage(FILE *out)
{
	fputs("formats:\n", out);
	for (size_t i = 0; i < export_table_len; i++) {
		const struct exporter *e = export_table[i];
		char *ext = xasprintf(".%s", e->ext);
		fprintf(out, "  %-6s %-6s %s\n", e->name, ext, e->summary);
		free(ext);
	}
}

/* Plain text as roff: `word` in bold, backslashes escaped, a '-' a minus
 * sign in bold and where it does not join two words (all-day). */
static void roff_doc(FILE *out, const char *s)
{
	bool bold = false;

	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	for (const char *p = s; *p; p++) {
		if (*p == '`') {
			fputs(bold ? "\\fR" : "\\fB", out);
			bold = !bold;
		} else if (*p == '\\') {
			fputs("\\e", out);
		} else if (*p == '-' &&
			   (bold || p == s || !isalnum((unsigned char)p[-1]) ||
			    !isalnum((unsigned char)p[1]))) {
			fputs("\\-", out);
		} else {
			fputc(*p, out);
		}
	}
	if (bold)
		fputs("\\fR", out);
}

void export_roff(FILE *out)
{
	for (size_t i = 0; i < export_table_len; i++) {
		const struct exporter *e = export_table[i];
		fprintf(out, ".TP\n.BR %s \" (.%s)\"\n", e->name, e->ext);
		roff_doc(out, e->doc);
		fputc('\n', out);
	}
}

int export_write(struct session *sess, const struct exporter *ex,
		 const int64_t *ids, size_t n, const struct export_opts *o,
		 const char *path, int mode, FILE *out, struct err *err)
{
	struct atomic_file af = { NULL, NULL, NULL };
	struct dossier **ds = xcalloc(n ? n : 1, sizeof(*ds));
	int rc = 0;

	struct sbuf under = SBUF_INIT;
	size_t nunder = 0;

	for (size_t i = 0; i < n; i++) {
		ds[i] = xcalloc(1, sizeof(**ds));
		if (dossier_load(sess, ids[i], ds[i], err) < 0) {
			sbuf_release(&under);
			rc = -1;
			goto out;
		}
		if (dossier_embargoed(ds[i])) {
			sbuf_addf(&under, "%s%lld", nunder ? ", " : "",
				  (long long)ids[i]);
			nunder++;
		}
	}
	/* One warning for the export, naming every report it concerns. */
	if (nunder)
		fprintf(o->warn,
			"warning: report%s %s %s still under embargo\n",
			nunder == 1 ? "" : "s", under.buf,
			nunder == 1 ? "is" : "are");
	sbuf_release(&under);
	if (path) {
		if (atomic_file_open(&af, path, mode, err) < 0) {
			rc = -1;
			goto out;
		}
		out = af.f;
	}
	if (ex->write(sess, out, ds, n, o, err) < 0)
		rc = -1;
	if (path) {
		/* A failed export leaves any earlier file as it was. */
		if (rc < 0)
			atomic_file_abort(&af);
		else if (atomic_file_commit(&af, err) < 0)
			rc = -1;
	} else if (fflush(out) != 0 && rc == 0) {
		err_setc(err, ERR_IO, "cannot write the export: %s",
			 strerror(errno));
		rc = -1;
	}
	if (rc == 0 && ex->done && ex->done(sess, ds, n, o, err) < 0)
		rc = -1;
out:
	for (size_t i = 0; i < n; i++) {
		if (ds[i])
			dossier_release(ds[i]);
		free(ds[i]);
	}
	free(ds);
	return rc;
}

bool export_event_shown(const struct export_opts *o, const struct event *e)
{
	return (o && o->with_notes) ||
		(strcmp(e->kind, "note") && strcmp(e->kind, "vendor-note"));
}

int json_print(FILE *out, json_t *j)
{
	/* Reals with 15 significant digits: a CVSS score of 9.8 is
	 * written 9.8 (17, jansson's default, gives 9.8000000000000007). */
	int r = json_dumpf(j, out,
			   JSON_INDENT(2) | JSON_ENSURE_ASCII |
				   JSON_PRESERVE_ORDER |
				   JSON_REAL_PRECISION(15));
	fputc('\n', out);
	return r;
}
