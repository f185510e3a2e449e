/*
 * The txt export: the advisory-ready timeline (timeline.c) as plain
 * text: headings underlined, facts in a column, items indented.
 */
#include <string.h>

#include "core/core.h"
#include "export/export.h"

static void txt_heading(FILE *out, int level, const char *s)
{
	fprintf(out, "%s\n", s);
	for (size_t i = strlen(s); i > 0; i--)
		fputc(level == 1 ? '=' : '-', out);
	fputs("\n\n", out);
}

static const struct timeline_style txt_style = {
	NULL, txt_heading, "  ", 12, "", "  ", "  ", "", "\n", true,
};

static int export_txt_write(struct session *sess, FILE *out,
			    struct dossier *const *d, size_t n,
			    const struct export_opts *o, struct err *err)
{
	(void)sess;
	(void)err;
	timeline_write(&txt_style, out, d, n, o);
	return 0;
}

const struct exporter export_txt_entry = {
	"txt",
	"txt",
	"the same timeline as plain text",
	"the same timeline as plain text.",
	export_txt_write,
	NULL,
};
