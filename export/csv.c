/*
 * The CSV export: one row per event (report, at, officer, kind, detail;
 * internal notes only with --with-notes) with a header row, RFC 4180:
 * CRLF line ends, every field quoted, quotes doubled.  Each field is
 * redacted and passed through safe_str(), so no control character (a CR
 * or LF inside a field included) survives.  A cell that would start with
 * = + - @ gets a leading single quote, so a spreadsheet opening the file
 * does not evaluate it as a formula (CSV/formula injection).
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "export/export.h"

static void field(FILE *out, const struct dossier *d, const char *s, bool last)
{
	char *t = dossier_text(d, s);

	fputc('"', out);
	if (strchr("=+-@", t[0]) && t[0])
		fputc('\'', out);
	for (const char *p = t; *p; p++) {
		if (*p == '"')
			fputc('"', out);
		fputc(*p, out);
	}
	fputs(last ? "\"\r\n" : "\",", out);
	free(t);
}

static int export_csv_write(struct session *sess, FILE *out,
			    struct dossier *const *d, size_t n,
			    const struct export_opts *o, struct err *err)
{
	(void)sess;
	(void)err;
	fputs("report,at,officer,kind,detail\r\n", out);
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < d[i]->f.nevents; j++) {
			const struct event *e = &d[i]->f.events[j];
			char at[32];
			if (!export_event_shown(o, e))
				continue;
			fprintf(out, "%lld,", (long long)d[i]->f.r.id);
			field(out, d[i], fmt_rfc3339(e->at, at), false);
			field(out, d[i], e->officer, false);
			field(out, d[i], e->kind, false);
			field(out, d[i], e->detail, true);
		}
	}
	return 0;
}

const struct exporter export_csv_entry = {
	"csv",
	"csv",
	"one row per event (RFC 4180)",
	"one row per event (RFC 4180; cells starting with = + - @ get a "
	"leading ').",
	export_csv_write,
	NULL,
};
