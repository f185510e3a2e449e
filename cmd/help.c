/*
 * The help of the command line: `secteam-tui --help`, `secteam-tui help
 * [COMMAND [SUB]]`, `secteam-tui COMMAND [SUB] --help`, and the options
 * list of the man page.  Everything comes from the rows of cmd_table[]
 * (usage, help, subs, opt_help, exit1, examples), so the usage lines,
 * --help and the man page cannot drift apart: tests/e2e/help.sh checks
 * that they name the same options.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/core.h"
#include "export/export.h"

void cmd_help_global(FILE *out)
{
	fputs("usage: secteam-tui [--db PATH] [--gnupghome DIR] [--config FILE] [--yes] [COMMAND [ARGS]]\n"
	      "\nWithout a command, opens the officers' interactive UI (on a terminal).\n\nCommands:\n",
	      out);
	for (size_t i = 0; i < cmd_table_len; i++)
		fprintf(out, "  %-12s %s\n", cmd_table[i]->name,
			cmd_table[i]->help);
	fprintf(out, "  %-12s %s\n", "help",
		"a command's usage, options and an example");
	fputs("\nOptions:\n"
	      "  --db PATH         database (default $XDG_DATA_HOME/secteam/secteam.db);\n"
	      "                    its folder must exist, but the default's is made\n"
	      "  --gnupghome DIR   OpenPGP keys (default $GNUPGHOME)\n"
	      "  --config FILE     config (default $XDG_CONFIG_HOME/secteam/config)\n"
	      "  --yes             answer yes to every question a command asks (without a\n"
	      "                    terminal, a question is otherwise an error)\n"
	      "  --help, --version\n"
	      "\nsecteam-tui help COMMAND (or secteam-tui COMMAND --help) shows a command's options.\n"
	      "See secteam-tui(1).\n",
	      out);
}

/* The end of the alternative of usage starting at p: the next " | "
 * outside brackets and parentheses, or the end. */
static const char *alt_end(const char *p)
{
	int depth = 0;

	for (; *p; p++) {
		if (*p == '[' || *p == '(')
			depth++;
		else if ((*p == ']' || *p == ')') && depth > 0)
			depth--;
		else if (!depth && !strncmp(p, " | ", 3))
			return p;
	}
	return p;
}

char *cmd_usage_of(const struct cmd_entry *e, const char *sub)
{
	size_t n = sub ? strlen(sub) : 0;

	if (!sub || !e->subs)
		return xstrdup(e->usage);
	for (const char *p = e->usage; *p;) {
		const char *end = alt_end(p);

		if (!strncmp(p, sub, n) && (p[n] == ' ' || p + n == end))
			return xstrndup(p, (size_t)(end - p));
		p = *end ? end + 3 : end;
	}
	return xstrdup(e->usage);
}

static bool optchar(char c)
{
	return isalnum((unsigned char)c) || c == '-';
}

/* Some option word of row ("--key", "-o" of "-o, --output FILE") is in
 * text as a word of its own. */
static bool opt_named_in(const char *row, const char *text)
{
	bool found = false;

	for (const char *w = row; *w && !found;) {
		size_t n = strcspn(w, " ,");

		if (*w == '-' && n > 1) {
			char *word = xstrndup(w, n);
			for (const char *t = strstr(text, word); t && !found;
			     t = strstr(t + 1, word))
				found = (t == text || !optchar(t[-1])) &&
					!optchar(t[n]);
			free(word);
		}
		w += n;
		w += strspn(w, " ,");
	}
	return found;
}

static void help_options(FILE *out, const struct cmd_entry *e, const char *alt)
{
	int width = 6; /* "--help" */

	for (const struct cmd_opt_help *o = e->opt_help; o && o->opt; o++)
		if (!alt || opt_named_in(o->opt, alt))
			width = (int)strlen(o->opt) > width
				? (int)strlen(o->opt)
				: width;
	fputs("\nOptions:\n", out);
	for (const struct cmd_opt_help *o = e->opt_help; o && o->opt; o++)
		if (!alt || opt_named_in(o->opt, alt))
			fprintf(out, "  %-*s  %s\n", width, o->opt, o->text);
	fprintf(out, "  %-*s  %s\n", width, "--help", "this help");
}

const char *const *cmd_option_words(const struct cmd_entry *e, const char *opt)
{
	size_t n = strlen(opt);

	for (const struct cmd_values *v = e ? e->values : NULL; v && v->what;
	     v++)
		if (*opt == '-' && !strncmp(v->what, opt, n) &&
		    (v->what[n] == ' ' || !v->what[n]))
			return v->words;
	return NULL;
}

char *cmd_words(const char *const *list)
{
	struct sbuf sb = SBUF_INIT;

	for (size_t i = 0; list[i]; i++)
		sbuf_addf(&sb, "%s%s", i ? ", " : "", list[i]);
	if (!sb.buf)
		sbuf_grow(&sb, 1);
	return sbuf_detach(&sb, NULL);
}

/* The option or operand what ("--state S", "STATUS") is named in text. */
static bool value_named_in(const char *what, const char *text)
{
	size_t n = strlen(what);

	if (*what == '-')
		return opt_named_in(what, text);
	for (const char *t = strstr(text, what); t; t = strstr(t + 1, what))
		if ((t == text || !optchar(t[-1])) && !optchar(t[n]))
			return true;
	return false;
}

/* The values of e's options and operands (those alt names, when set),
 * each line of a list indented under the first. */
static void help_values(FILE *out, const struct cmd_entry *e, const char *alt)
{
	int width = 0;
	bool any = false;

	for (const struct cmd_values *v = e->values; v && v->what; v++)
		if (!alt || value_named_in(v->what, alt)) {
			width = (int)strlen(v->what) > width
				? (int)strlen(v->what)
				: width;
			any = true;
		}
	if (!any)
		return;
	fputs("\nValues:\n", out);
	for (const struct cmd_values *v = e->values; v && v->what; v++) {
		char *text, *save = NULL;
		const char *lead = v->what;

		if (alt && !value_named_in(v->what, alt))
			continue;
		text = v->list();
		for (char *l = strtok_r(text, "\n", &save); l;
		     l = strtok_r(NULL, "\n", &save)) {
			fprintf(out, "  %-*s  %s\n", width, lead, l);
			lead = "";
		}
		free(text);
	}
}

/* The examples of e for sub (those starting "NAME SUB "), or all. */
static void help_examples(FILE *out, const struct cmd_entry *e, const char *sub)
{
	size_t nl = strlen(e->name), ns = sub ? strlen(sub) : 0, n = 0;

	for (const char *const *x = e->examples; x && *x; x++)
		n++;
	fputs(n > 1 && !sub ? "\nExamples:\n" : "\nExample:\n", out);
	for (const char *const *x = e->examples; x && *x; x++) {
		/* "roster" alone is the example of no sub-command */
		const char *rest = strlen(*x) > nl ? *x + nl + 1 : "";
		bool mine = !sub ||
			(!strncmp(rest, sub, ns) &&
			 (rest[ns] == ' ' || !rest[ns]));
		if (mine)
			fprintf(out, "  secteam-tui %s\n", *x);
	}
}

int cmd_help(FILE *out, const char *name, const char *sub)
{
	const struct cmd_entry *e = cmd_find(name);
	char *alt;

	if (!e)
		return -1;
	if (sub &&
	    (!e->subs ||
	     !cmd_sub_of(e, 2, (char *[]){ (char *)name, (char *)sub })))
		sub = NULL;
	alt = cmd_usage_of(e, sub);
	if (sub || !e->subs) {
		fprintf(out, "usage: secteam-tui %s %s\n", e->name, alt);
	} else {
		const char *lead = "usage:";
		for (const char *p = e->usage; *p;) {
			const char *end = alt_end(p);
			fprintf(out, "%-6s secteam-tui %s %.*s\n", lead,
				e->name, (int)(end - p), p);
			lead = "";
			p = *end ? end + 3 : end;
		}
	}
	fprintf(out, "%s\n", e->help);
	help_options(out, e, sub ? alt : NULL);
	help_values(out, e, sub ? alt : NULL);
	/* The exporter registry is the one list of formats. */
	if (!strcmp(e->name, "export")) {
		char *names = export_names(", ");
		fprintf(out, "\nFormats: %s\n", names);
		free(names);
	}
	fprintf(out,
		"\nExit status:\n  0  success\n  1  %s\n  2  usage error\n",
		e->exit1);
	help_examples(out, e, sub);
	free(alt);
	return 0;
}

bool cmd_wants_help(const struct cmd_entry *e, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];

		if (!strcmp(w, "--"))
			return false;
		if (!strcmp(w, "--help") || !strcmp(w, "-h"))
			return true;
		if (!strcmp(w, "-o")) { /* export's -o FILE */
			i++;
			continue;
		}
		if (strncmp(w, "--", 2) || strchr(w, '='))
			continue;
		/* Skip the argument of an option that takes one:
		 * `triage 3 --note --help` notes "--help". */
		for (const struct option *o = e->opts; o && o->name; o++)
			if (!strcmp(o->name, w + 2)) {
				if (o->has_arg == required_argument)
					i++;
				break;
			}
	}
	return false;
}

void cmd_roff_text(FILE *out, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '-')
			fputs("\\-", out);
		else
			fputc(*s, out);
	}
}

/* "--state S" as roff: the option and its argument in bold. */
static void roff_opt(FILE *out, const char *opt)
{
	fputs(".B \"", out);
	cmd_roff_text(out, opt);
	fputs("\"\n", out);
}

void cmd_options_roff(FILE *out)
{
	for (size_t i = 0; i < cmd_table_len; i++) {
		const struct cmd_entry *e = cmd_table[i];

		fprintf(out, ".TP\n.B %s\n", e->name);
		cmd_roff_text(out, e->help);
		fputs(".\n.RS\n", out);
		for (const struct cmd_opt_help *o = e->opt_help; o && o->opt;
		     o++) {
			fputs(".TP\n", out);
			roff_opt(out, o->opt);
			cmd_roff_text(out, o->text);
			fputc('\n', out);
		}
		fputs(".TP\n.B \\-\\-help\nthis help\n", out);
		for (const struct cmd_values *v = e->values; v && v->what;
		     v++) {
			char *text = v->list(), *save = NULL;
			const char *sep = "";

			fputs(".TP\n", out);
			roff_opt(out, v->what);
			for (char *l = strtok_r(text, "\n", &save); l;
			     l = strtok_r(NULL, "\n", &save)) {
				fputs(sep, out);
				cmd_roff_text(out, l);
				fputc('\n', out);
				sep = ".br\n";
			}
			free(text);
		}
		fputs(".PP\nExit status 1: ", out);
		cmd_roff_text(out, e->exit1);
		fputs(".\n.RE\n", out);
	}
}
