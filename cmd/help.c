/*
 * The help of the command line: `secteam-tui --help`, `secteam-tui help
 * [COMMAND [SUB]]`, `secteam-tui COMMAND [SUB] --help`, and the options
 * list of the man page.  Everything comes from the rows of cmd_table[]
 * (operands, options, help, subs, exit1, examples): a usage line is a
 * form's operands followed by its options, so the usage lines, --help
 * and the man page cannot drift apart (tests/unit/test-cmd.c checks them
 * against the rows, tests/e2e/help.sh against each other).
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

/* The end of the alternative of usage starting at p: the next "|"
 * outside brackets and parentheses, or the end. */
static const char *alt_end(const char *p)
{
	int depth = 0;

	for (; *p; p++) {
		if (*p == '[' || *p == '(')
			depth++;
		else if ((*p == ']' || *p == ')') && depth > 0)
			depth--;
		else if (!depth && *p == '|')
			return p;
	}
	return p;
}

/* The next form of e->usage from *p ("set ID DATE"), trimmed, as a new
 * string, or NULL at the end; *sub its sub-command (a pointer into
 * e->subs), or NULL. */
static char *next_form(const struct cmd_entry *e, const char **p,
		       const char **sub)
{
	const char *b = *p, *end;
	char *form;
	size_t n;

	if (!b)
		return NULL;
	end = alt_end(b);
	*p = *end ? end + 1 : NULL;
	b += strspn(b, " ");
	while (end > b && end[-1] == ' ')
		end--;
	form = xstrndup(b, (size_t)(end - b));
	n = strcspn(form, " ");
	*sub = NULL;
	for (const char *w = e->subs; w && *w && n;) {
		size_t k = strcspn(w, " ");
		if (k == n && !strncmp(w, form, k))
			*sub = w;
		w += k;
		w += strspn(w, " ");
	}
	return form;
}

/* "--state S", "-o FILE", as a usage line writes it. */
static void usage_opt(struct sbuf *sb, const struct cmd_opt *o)
{
	bool req = o->flags & CMD_OPT_REQUIRED;

	sbuf_addf(sb, " %s", req ? "" : "[");
	if (o->letter)
		sbuf_addf(sb, "-%c", o->letter);
	else
		sbuf_addf(sb, "--%s", o->name);
	if (o->arg)
		sbuf_addf(sb, " %s", o->arg);
	sbuf_addf(sb, "%s%s", req ? "" : "]",
		  o->flags & CMD_OPT_MANY ? "..." : "");
}

/* The sub-command sub (a word of e->subs, NULL for none) as a string. */
static char *sub_word(const char *sub)
{
	return sub ? xstrndup(sub, strcspn(sub, " ")) : NULL;
}

/* Whether sub (a pointer into e->subs, or NULL) is the sub-command
 * word. */
static bool sub_is(const char *sub, const char *word)
{
	size_t n = word ? strlen(word) : 0;

	return sub && word && !strncmp(sub, word, n) &&
		(sub[n] == ' ' || !sub[n]);
}

/* One usage line: form, then the options of its sub-command. */
static void usage_form(struct sbuf *sb, const struct cmd_entry *e,
		       const char *form, const char *sub)
{
	char *w = sub_word(sub);

	sbuf_adds(sb, form);
	for (const struct cmd_opt *o = e->opts; o && o->name; o++)
		if (cmd_opt_in(o, w, false))
			usage_opt(sb, o);
	free(w);
}

char *cmd_usage_of(const struct cmd_entry *e, const char *sub)
{
	struct sbuf sb = SBUF_INIT;
	const char *p, *fsub;
	char *form, *text;
	bool mine = false;

	/* Only its own line when sub is one of e's forms. */
	for (p = e->usage; sub && (form = next_form(e, &p, &fsub));) {
		mine |= sub_is(fsub, sub);
		free(form);
	}
	for (p = e->usage; (form = next_form(e, &p, &fsub));) {
		if (!mine || sub_is(fsub, sub)) {
			if (sb.len)
				sbuf_adds(&sb, " | ");
			usage_form(&sb, e, form, fsub);
		}
		free(form);
	}
	if (!sb.buf)
		sbuf_grow(&sb, 1);
	text = sbuf_detach(&sb, NULL);
	/* No operands: no space before the first option. */
	if (*text == ' ')
		memmove(text, text + 1, strlen(text));
	return text;
}

static bool optchar(char c)
{
	return isalnum((unsigned char)c) || c == '-';
}

/* Whether o is the first row of its name among those of form sub (all:
 * of every form): the one --help and the man page show. */
static bool opt_shown(const struct cmd_entry *e, const struct cmd_opt *o,
		      const char *sub, bool all)
{
	if (!cmd_opt_in(o, sub, all))
		return false;
	for (const struct cmd_opt *p = e->opts; p < o; p++)
		if (!strcmp(p->name, o->name) && cmd_opt_in(p, sub, all))
			return false;
	return true;
}

static void help_options(FILE *out, const struct cmd_entry *e, const char *sub,
			 bool all)
{
	int width = 6; /* "--help" */

	for (const struct cmd_opt *o = e->opts; o && o->name; o++)
		if (opt_shown(e, o, sub, all)) {
			char *sp = cmd_opt_spelling(o);
			width = (int)strlen(sp) > width ? (int)strlen(sp)
							: width;
			free(sp);
		}
	fputs("\nOptions:\n", out);
	for (const struct cmd_opt *o = e->opts; o && o->name; o++)
		if (opt_shown(e, o, sub, all)) {
			char *sp = cmd_opt_spelling(o);
			fprintf(out, "  %-*s  %s\n", width, sp, o->help);
			free(sp);
		}
	fprintf(out, "  %-*s  %s\n", width, "--help", "this help");
}

const char *const *cmd_option_words(const struct cmd_entry *e, const char *opt)
{
	for (const struct cmd_opt *o = e ? e->opts : NULL; o && o->name; o++)
		if (o->words &&
		    ((opt[0] == '-' && opt[1] == '-' &&
		      !strcmp(opt + 2, o->name)) ||
		     (o->letter && opt[0] == '-' && opt[1] == o->letter &&
		      !opt[2])))
			return o->words;
	return NULL;
}

size_t cmd_option_names(const struct cmd_entry *e, const char *sub,
			const char *prefix, const char **out, size_t max)
{
	size_t n = 0, len = strlen(prefix);

	for (const struct cmd_opt *o = e ? e->opts : NULL; o && o->name; o++)
		if (n < max && opt_shown(e, o, sub, !sub) &&
		    !strncmp(o->name, prefix, len))
			out[n++] = o->name;
	if (e && n < max && !strncmp("help", prefix, len))
		out[n++] = "help";
	return n;
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

/* The operand what ("STATUS") is named in text. */
static bool value_named_in(const char *what, const char *text)
{
	size_t n = strlen(what);

	for (const char *t = strstr(text, what); t; t = strstr(t + 1, what))
		if ((t == text || !optchar(t[-1])) && !optchar(t[n]))
			return true;
	return false;
}

/* One list of values for --help: its name, then each line of list(),
 * indented under the first. */
static void help_value(FILE *out, int width, const char *what,
		       char *(*list)(void))
{
	char *text = list(), *save = NULL;
	const char *lead = what;

	for (char *l = strtok_r(text, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		fprintf(out, "  %-*s  %s\n", width, lead, l);
		lead = "";
	}
	free(text);
}

/* "--state S": an option as its values are headed. */
static char *value_head(const struct cmd_opt *o)
{
	return xasprintf("--%s%s%s", o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "");
}

/* The values of e's options (those of form sub, or of all forms) and of
 * its operands (those alt names, or all). */
static void help_values(FILE *out, const struct cmd_entry *e, const char *sub,
			bool all, const char *alt)
{
	int width = 0;

	for (const struct cmd_opt *o = e->opts; o && o->name; o++)
		if (o->list && opt_shown(e, o, sub, all)) {
			char *h = value_head(o);
			width = (int)strlen(h) > width ? (int)strlen(h) : width;
			free(h);
		}
	for (const struct cmd_values *v = e->values; v && v->what; v++)
		if (all || value_named_in(v->what, alt))
			width = (int)strlen(v->what) > width
				? (int)strlen(v->what)
				: width;
	if (!width)
		return;
	fputs("\nValues:\n", out);
	for (const struct cmd_opt *o = e->opts; o && o->name; o++)
		if (o->list && opt_shown(e, o, sub, all)) {
			char *h = value_head(o);
			help_value(out, width, h, o->list);
			free(h);
		}
	for (const struct cmd_values *v = e->values; v && v->what; v++)
		if (all || value_named_in(v->what, alt))
			help_value(out, width, v->what, v->list);
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
	char *alt, *w;

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
		for (const char *p = alt; *p;) {
			const char *end = alt_end(p);
			int n = (int)(end - p);

			while (n > 0 && p[n - 1] == ' ')
				n--;
			fprintf(out, "%-6s secteam-tui %s %.*s\n", lead,
				e->name, n, p);
			lead = "";
			p = *end ? end + 1 : end;
			p += strspn(p, " ");
		}
	}
	fprintf(out, "%s\n", e->help);
	w = sub_word(sub);
	help_options(out, e, w, !sub);
	help_values(out, e, w, !sub, alt);
	free(w);
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

/* One list of values in roff, under its tag. */
static void roff_values(FILE *out, const char *what, char *(*list)(void))
{
	char *text = list(), *save = NULL;
	const char *sep = "";

	fputs(".TP\n", out);
	roff_opt(out, what);
	for (char *l = strtok_r(text, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		fputs(sep, out);
		cmd_roff_text(out, l);
		fputc('\n', out);
		sep = ".br\n";
	}
	free(text);
}

void cmd_options_roff(FILE *out)
{
	for (size_t i = 0; i < cmd_table_len; i++) {
		const struct cmd_entry *e = cmd_table[i];

		fprintf(out, ".TP\n.B %s\n", e->name);
		cmd_roff_text(out, e->help);
		fputs(".\n.RS\n", out);
		for (const struct cmd_opt *o = e->opts; o && o->name; o++) {
			char *sp;

			if (!opt_shown(e, o, NULL, true))
				continue;
			sp = cmd_opt_spelling(o);
			fputs(".TP\n", out);
			roff_opt(out, sp);
			cmd_roff_text(out, o->help);
			fputc('\n', out);
			free(sp);
		}
		fputs(".TP\n.B \\-\\-help\nthis help\n", out);
		for (const struct cmd_opt *o = e->opts; o && o->name; o++)
			if (o->list && opt_shown(e, o, NULL, true)) {
				char *h = value_head(o);
				roff_values(out, h, o->list);
				free(h);
			}
		for (const struct cmd_values *v = e->values; v && v->what; v++)
			roff_values(out, v->what, v->list);
		fputs(".PP\nExit status 1: ", out);
		cmd_roff_text(out, e->exit1);
		fputs(".\n.RE\n", out);
	}
}
