/*
 * Exporters: the formats `export` writes, as one table.
 *
 * Each format is one file, export/NAME.c, that defines its row,
 * struct exporter export_NAME_entry: its name, the extension of its
 * files, a line for the usage text, a paragraph for the man page, and
 * the function that writes it.  export/export.c lists the rows; `export
 * --format`, its usage text, its error for an unknown format and the man
 * page's list of formats (scripts/man-page.sh) all read that list, so a
 * new format is a new file plus its row there.  Exporters write loaded
 * dossiers (core.h, disclosure.c) to a FILE *, redacted unless the
 * reporter consented to credit.
 */
#ifndef SECTEAM_EXPORT_H
#define SECTEAM_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/util.h"

struct session;
struct dossier;

struct export_opts {
	const char *cve_id; /* --cve-id, or NULL for config/placeholder */
	bool with_notes; /* --with-notes: internal notes included */
	FILE *warn; /* where warnings go (the caller's stderr) */
};

/* Writes the n dossiers d to out; 0, or negative with err set. */
typedef int (*export_fn)(struct session *sess, FILE *out,
			 struct dossier *const *d, size_t n,
			 const struct export_opts *o, struct err *err);

struct exporter {
	const char *name; /* --format NAME: lowercase letters */
	const char *ext; /* what its files end in, without the dot */
	const char *summary; /* one line of plain text, for the usage */
	const char *doc; /* the man page's paragraph: plain text, one
			       * line, `word` set in bold */
	export_fn write;
	/* Optional: run once the export is written (a file committed, or
	 * standard output flushed), to record what writing it means. */
	int (*done)(struct session *sess, struct dossier *const *d, size_t n,
		    const struct export_opts *o, struct err *err);
};

/* Every format, in the order the usage and the man page list them. */
extern const struct exporter *const export_table[];
extern const size_t export_table_len;

/* The format called name, or NULL. */
const struct exporter *export_find(const char *name);
/* The names joined by sep, "md, txt, ..." (caller frees). */
char *export_names(const char *sep);
/* The usage's list of formats: a line each, name, extension, summary. */
void export_usage(FILE *out);
/* The man page's list of formats: a .TP paragraph each. */
void export_roff(FILE *out);
/* `export`'s work: loads the reports ids[0..n), warns of any still under
 * embargo (to o->warn), and writes them in format ex to the file path
 * (made mode, replaced atomically: as it was when anything fails) or,
 * path NULL, to out; then runs ex->done.  0, or -1 with err set. */
int export_write(struct session *sess, const struct exporter *ex,
		 const int64_t *ids, size_t n, const struct export_opts *o,
		 const char *path, int mode, FILE *out, struct err *err);

/* For the two timeline formats (md, txt): how timeline.c writes. */
struct timeline_style {
	/* Text as it goes out: takes t (dossier_text's), returns new. */
	char *(*markup)(char *t);
	void (*heading)(FILE *out, int level, const char *s);
	const char *fact_open; /* a fact is fact_open, its name (padded to */
	int fact_width; /* fact_width), fact_close, ' ', its value */
	const char *fact_close;
	const char *bullet; /* what starts a list item */
	const char *after_at; /* between an item's time and its text */
	const char *strong; /* around an event's kind */
	const char *between; /* between two reports */
	bool advisory; /* an advisory section (fix, versions, CVE,
			       * credit) after the facts, once disclosed */
};
/* Writes the timeline of each dossier: facts, disclosure, vendors,
 * events (notes only with o->with_notes).  Cannot fail. */
void timeline_write(const struct timeline_style *st, FILE *out,
		    struct dossier *const *d, size_t n,
		    const struct export_opts *o);

struct event;
/* False for an internal note (events "note" and "vendor-note") unless
 * o->with_notes: notes are left out of every export by default. */
bool export_event_shown(const struct export_opts *o, const struct event *e);

/* JSON as every command and export writes it: pretty, ASCII-only, with
 * a final newline. */
struct json_t;
int json_print(FILE *out, struct json_t *j);

#endif
