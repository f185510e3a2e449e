/* cmd/: command strings (split, join, run), the help rows and usage
 * lines the command table gives. */
#include "unit.h"
#include "cmd/cmd.h"
#include "core/core.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_cmd_string(void **state)
{
	(void)state;
	/* The error messages prove the line reached the table split. */
	struct cmd_ctx ctx;
	FILE *devnull = fopen("/dev/null", "w");
	memset(&ctx, 0, sizeof(ctx));
	ctx.out = ctx.errout = devnull;
	assert_int_equal(cmd_run_string(&ctx, "nosuchverb 1 2"), CMD_USAGE);
	assert_non_null(strstr(ctx.err.msg, "unknown command 'nosuchverb'"));
	assert_int_equal(cmd_run_string(&ctx, "list 'unterminated"), CMD_USAGE);
	assert_non_null(strstr(ctx.err.msg, "unterminated quote"));
	assert_int_equal(cmd_run_string(&ctx, "   "), CMD_OK);
	assert_int_equal(cmd_run_string(&ctx, "list --state bogus"), CMD_USAGE);
	assert_non_null(
		strstr(ctx.usage_text, "unknown value 'bogus' for --state"));
	cmd_ctx_release(&ctx);
	fclose(devnull);
}

/* What the UI gets from a command (cmd_capture) are values: the error,
 * the command's own result, its usage mistake, or what its output is
 * ("N lines", for the pager); never a line read back from the output. */
static void test_capture_result(void **state)
{
	struct cmd_ctx ctx;
	struct cmd_result res;
	char *help[] = { (char *)"show", (char *)"--help", NULL };
	char *bad[] = { (char *)"list", (char *)"--bogus", NULL };
	char *bad2[] = { (char *)"triage", NULL };

	(void)state;
	memset(&ctx, 0, sizeof(ctx));
	assert_int_equal(cmd_capture(&ctx, 2, help, 0, NULL, NULL, &res),
			 CMD_OK);
	assert_false(res.said);
	assert_true(res.output_lines > 1);
	char *want = xasprintf("%zu lines", res.output_lines);
	assert_string_equal(res.summary, want);
	free(want);
	cmd_result_release(&res);
	assert_int_equal(cmd_capture(&ctx, 2, bad, 0, NULL, NULL, &res),
			 CMD_USAGE);
	assert_string_equal(res.summary, "list: unknown option '--bogus'");
	assert_non_null(strstr(res.warnings, "usage: secteam-tui list"));
	cmd_result_release(&res);
	/* No mistake to name: the usage itself (not the --help hint). */
	assert_int_equal(cmd_capture(&ctx, 1, bad2, 0, NULL, NULL, &res),
			 CMD_USAGE);
	assert_non_null(strstr(res.summary, "usage: secteam-tui triage"));
	cmd_result_release(&res);
	cmd_ctx_release(&ctx);
}

static void test_cmd_split(void **state)
{
	(void)state;
	char **argv;
	int argc;
	struct err err;

	assert_int_equal(
		cmd_split("triage 3 --note \"it's \\\"bad\\\"\" 'a b' c\\ d",
			  &argv, &argc, &err),
		0);
	assert_int_equal(argc, 6);
	assert_string_equal(argv[0], "triage");
	assert_string_equal(argv[3], "it's \"bad\"");
	assert_string_equal(argv[4], "a b");
	assert_string_equal(argv[5], "c d");
	assert_null(argv[6]);
	cmd_split_free(argv, argc);
}

/* The word of e->subs at sub, as a string (NULL for none). */
static char *sub_dup(const char *sub)
{
	return sub ? xstrndup(sub, strcspn(sub, " ")) : NULL;
}

/* The forms of e: its sub-commands, plus NULL (none) when it has none
 * or a form of its own; n of them into forms. */
static size_t forms_of(const struct cmd_entry *e, char **forms, size_t max)
{
	size_t n = 0;
	const char *u = e->usage + strspn(e->usage, " ");

	if (!e->subs || !*u || *u == '|')
		forms[n++] = NULL;
	for (const char *w = e->subs; w && *w && n < max;) {
		forms[n++] = sub_dup(w);
		w += strcspn(w, " ");
		w += strspn(w, " ");
	}
	return n;
}

/* The option words of text ("--state", "-o"), each once, sorted, as one
 * line. */
static char *opt_words(const char *text)
{
	char *words[256];
	size_t n = 0;
	struct sbuf sb = SBUF_INIT;

	for (const char *p = text; *p;) {
		size_t k;

		if (*p == '-' && (p == text || strchr(" [(|,\"\n", p[-1]))) {
			k = strspn(p, "-abcdefghijklmnopqrstuvwxyz");
			if (k > 1 && !(k == 2 && p[1] == '-')) {
				char *w = xstrndup(p, k);
				bool dup = false;
				for (size_t i = 0; i < n; i++)
					dup |= !strcmp(words[i], w);
				if (dup || n == ARRAY_SIZE(words))
					free(w);
				else
					words[n++] = w;
			}
			p += k ? k : 1;
		} else {
			p++;
		}
	}
	qsort(words, n, sizeof(*words), cmp_str);
	for (size_t i = 0; i < n; i++) {
		sbuf_addf(&sb, "%s%s", i ? " " : "", words[i]);
		free(words[i]);
	}
	if (!sb.buf)
		sbuf_grow(&sb, 1);
	return sbuf_detach(&sb, NULL);
}

/* The options e declares for form sub, as opt_words gives them: by
 * letter when they have one (as the usage lines write them), else by
 * name; both with long. */
static char *declared(const struct cmd_entry *e, const char *sub, bool all,
		      bool both)
{
	struct sbuf sb = SBUF_INIT;
	char *words;

	for (const struct cmd_opt *o = e->opts; o && o->name; o++)
		if (cmd_opt_in(o, sub, all)) {
			if (o->letter)
				sbuf_addf(&sb, " -%c", o->letter);
			if (!o->letter || both)
				sbuf_addf(&sb, " --%s", o->name);
		}
	if (!sb.buf)
		sbuf_grow(&sb, 1);
	words = opt_words(sb.buf);
	sbuf_release(&sb);
	return words;
}

/* The rows themselves: each option named, explained, with a key of its
 * own, a letter of its own, for sub-commands the command has; every
 * command with its exit status and an example of itself. */
static void test_cmd_opt_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < cmd_table_len; i++) {
		const struct cmd_entry *e = cmd_table[i];
		size_t n = 0;

		assert_non_null(e->exit1);
		assert_non_null(e->examples);
		assert_non_null(e->examples[0]);
		for (const char *const *x = e->examples; *x; x++)
			if (strncmp(*x, e->name, strlen(e->name)))
				fail_msg(
					"%s: example '%s' runs another command",
					e->name, *x);
		for (const struct cmd_opt *o = e->opts; o && o->name; o++) {
			n++;
			if (!o->help || !*o->help)
				fail_msg("%s --%s: no help", e->name, o->name);
			if (!strcmp(o->name, "help") || o->letter == 'h')
				fail_msg("%s: --help is every command's",
					 e->name);
			if ((o->flags & CMD_OPT_CLOSED) && !o->words)
				fail_msg("%s --%s: closed without words",
					 e->name, o->name);
			for (const struct cmd_opt *p = e->opts; p < o; p++) {
				if (strcmp(p->name, o->name) &&
				    p->key == o->key)
					fail_msg(
						"%s: --%s and --%s share a key",
						e->name, p->name, o->name);
				if (o->letter && p->letter == o->letter &&
				    strcmp(p->name, o->name))
					fail_msg("%s: -%c twice", e->name,
						 o->letter);
			}
			for (const char *w = o->subs; w && *w;) {
				size_t k = strcspn(w, " ");
				char *one = xstrndup(w, k);
				bool ok = !strcmp(one, "-") ||
					(e->subs &&
					 cmd_sub_of(e, 2,
						    (char *[]){ (char *)e->name,
								one }));
				if (!ok)
					fail_msg("%s --%s: no sub-command %s",
						 e->name, o->name, one);
				free(one);
				w += k;
				w += strspn(w, " ");
			}
		}
		assert_true(n <= 64);
	}
}

/* The option words under "Options:" in the --help of e (sub, or the
 * whole command). */
static char *help_opts(const struct cmd_entry *e, const char *sub)
{
	char *text = NULL, *part, *words;
	const char *opts, *end;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	cmd_help(m, e->name, sub);
	fclose(m);
	opts = strstr(text, "\nOptions:\n");
	assert_non_null(opts);
	end = strstr(opts + 1, "\n\n");
	part = xstrndup(opts, end ? (size_t)(end - opts) : strlen(opts));
	/* each row's first column: "  -o, --output FILE  text" */
	struct sbuf col = SBUF_INIT;
	for (char *l = strstr(part, "\n  -"); l; l = strstr(l + 1, "\n  -")) {
		char *gap = strstr(l + 3, "  ");
		sbuf_addf(&col, " %.*s", gap ? (int)(gap - l - 3) : 0, l + 3);
	}
	words = opt_words(col.buf ? col.buf : "");
	sbuf_release(&col);
	free(part);
	free(text);
	return words;
}

/* The option tags of e's entry in the man page's options list (the .B
 * line after each .TP), as opt_words gives them. */
static char *man_opts(const char *roff, const struct cmd_entry *e)
{
	char *head = xasprintf(".TP\n.B %s\n", e->name), *entry, *words;
	const char *b = strstr(roff, head), *end;
	struct sbuf tags = SBUF_INIT;

	assert_non_null(b);
	end = strstr(b, ".PP\nExit status 1:");
	assert_non_null(end);
	entry = xstrndup(b + strlen(head), (size_t)(end - b - strlen(head)));
	/* roff's minus signs as text */
	for (char *p = entry, *q = entry;; p++) {
		if (*p == '\\' && p[1] == '-')
			continue;
		*q++ = *p;
		if (!*p)
			break;
	}
	for (char *l = strstr(entry, ".TP\n.B "); l;
	     l = strstr(l + 1, ".TP\n.B ")) {
		char *t = l + 7;
		sbuf_addf(&tags, " %.*s", (int)strcspn(t, "\n"), t);
	}
	words = opt_words(tags.buf ? tags.buf : "");
	sbuf_release(&tags);
	free(entry);
	free(head);
	return words;
}

/* list, with --help beside it, as opt_words gives them. */
static char *with_help(const char *list)
{
	char *both = xasprintf("%s --help", list), *words = opt_words(both);

	free(both);
	return words;
}

/* --help, the usage lines and the man page list exactly the options the
 * table declares, for each command and each of its forms. */
static void test_cmd_lists_declared(void **state)
{
	char *roff = NULL, *want, *got;
	size_t roff_len = 0;
	FILE *m = open_memstream(&roff, &roff_len);

	(void)state;
	cmd_options_roff(m);
	fclose(m);
	for (size_t i = 0; i < cmd_table_len; i++) {
		const struct cmd_entry *e = cmd_table[i];
		char *forms[16], *decl, *u;
		size_t nf = forms_of(e, forms, ARRAY_SIZE(forms));

		for (size_t f = 0; f < nf; f++) {
			const char *fname = forms[f] ? forms[f] : "";

			decl = declared(e, forms[f], false, false);
			u = cmd_usage_of(e, forms[f]);
			if (e->subs && !forms[f] && strstr(u, " | "))
				*strstr(u, " | ") = '\0'; /* its own line */
			got = opt_words(u);
			if (strcmp(decl, got))
				fail_msg(
					"%s %s: usage '%s' names '%s', not '%s'",
					e->name, fname, u, got, decl);
			free(got);
			free(u);
			free(decl);
			decl = declared(e, forms[f], false, true);
			if (forms[f]) {
				want = with_help(decl);
				got = help_opts(e, forms[f]);
				if (strcmp(want, got))
					fail_msg(
						"%s %s --help lists '%s', not '%s'",
						e->name, fname, got, want);
				free(got);
				free(want);
			}
			free(decl);
			free(forms[f]);
		}
		decl = declared(e, NULL, true, true);
		want = with_help(decl);
		got = help_opts(e, NULL);
		if (strcmp(want, got))
			fail_msg("%s --help lists '%s', not '%s'", e->name, got,
				 want);
		free(got);
		got = man_opts(roff, e);
		if (strcmp(want, got))
			fail_msg("the man page lists '%s' for %s, not '%s'",
				 got, e->name, want);
		free(got);
		free(want);
		free(decl);
	}
	free(roff);
}

/* Runs argv on a context without a session (the parser's mistakes come
 * before any store is opened): its status and the UI's line for it. */
static int run_line(char **argv, int argc, char **line)
{
	struct cmd_ctx ctx;
	struct cmd_result res;
	int r;

	memset(&ctx, 0, sizeof(ctx));
	r = cmd_capture(&ctx, argc, argv, 0, NULL, NULL, &res);
	*line = xstrdup(res.summary ? res.summary : "");
	cmd_result_release(&res);
	cmd_ctx_release(&ctx);
	return r;
}

/* An unknown option, a missing value, a bad value and a missing
 * required option each stop every command, in each of its forms, with
 * a usage error naming the command (and sub-command) and the option. */
static void test_cmd_option_mistakes(void **state)
{
	(void)state;
	for (size_t i = 0; i < cmd_table_len; i++) {
		const struct cmd_entry *e = cmd_table[i];
		char *forms[16], *line, *want, *title;
		size_t nf = forms_of(e, forms, ARRAY_SIZE(forms));

		for (size_t f = 0; f < nf; f++) {
			char *argv[5] = { (char *)e->name, forms[f], NULL, NULL,
					  NULL };
			int at = forms[f] ? 2 : 1;
			bool required = false;

			title = forms[f] ? xasprintf("%s %s", e->name, forms[f])
					 : xstrdup(e->name);
			argv[at] = (char *)"--no-such-option";
			assert_int_equal(run_line(argv, at + 1, &line),
					 CMD_USAGE);
			want = xasprintf(
				"%s: unknown option '--no-such-option'", title);
			assert_string_equal(line, want);
			free(want);
			free(line);
			for (const struct cmd_opt *o = e->opts; o && o->name;
			     o++) {
				char *opt;

				if (!cmd_opt_in(o, forms[f], false))
					continue;
				required |= o->flags & CMD_OPT_REQUIRED;
				if (!o->arg)
					continue;
				opt = xasprintf("--%s", o->name);
				argv[at] = opt;
				argv[at + 1] = NULL;
				assert_int_equal(run_line(argv, at + 1, &line),
						 CMD_USAGE);
				want = xasprintf(
					"%s: option '--%s' needs a value",
					title, o->name);
				assert_string_equal(line, want);
				free(want);
				free(line);
				if ((o->flags & CMD_OPT_CLOSED) || o->check) {
					argv[at + 1] = (char *)"";
					assert_int_equal(run_line(argv, at + 2,
								  &line),
							 CMD_USAGE);
					want = xasprintf("%s: ", title);
					if (strncmp(line, want, strlen(want)) ||
					    !strstr(line, opt))
						fail_msg(
							"%s --%s '': '%s' names not both",
							title, o->name, line);
					free(want);
					free(line);
				}
				argv[at + 1] = NULL;
				free(opt);
			}
			if (required) {
				argv[at] = NULL;
				assert_int_equal(run_line(argv, at, &line),
						 CMD_USAGE);
				want = xasprintf("%s: option '--", title);
				if (strncmp(line, want, strlen(want)) ||
				    !strstr(line, "' is required"))
					fail_msg(
						"%s without a required option: '%s'",
						title, line);
				free(want);
				free(line);
			}
			free(title);
			free(forms[f]);
		}
	}
}

/* Tab completes an option's values from its row, by long or short name. */
static void test_cmd_option_words(void **state)
{
	const char *const *w;

	(void)state;
	w = cmd_option_words(cmd_find("triage"), "--severity");
	assert_non_null(w);
	assert_string_equal(w[0], report_severities[0]);
	assert_null(cmd_option_words(cmd_find("triage"), "--note"));
	assert_null(cmd_option_words(cmd_find("triage"), "--nosuch"));
}

/* A sub-command's usage is its form, then its options. */
static void test_cmd_usage_of(void **state)
{
	char *u;

	(void)state;
	u = cmd_usage_of(cmd_find("date"), "set");
	assert_string_equal(u, "set ID DATE [--reason TEXT] [--override]");
	free(u);
	u = cmd_usage_of(cmd_find("vendor"), "notify");
	assert_string_equal(
		u,
		"notify ID NAME [--forward] [--outbox MAILDIR] [--sendmail] [--allow-plaintext]");
	free(u);
	u = cmd_usage_of(cmd_find("team"), "list");
	assert_string_equal(u, "list [--json]");
	free(u);
	/* required options bare, repeatable ones with "...", letters */
	u = cmd_usage_of(cmd_find("vendor"), "add");
	assert_string_equal(u,
			    "add NAME --contact EMAIL [--key FPR] [--kind K]");
	free(u);
	u = cmd_usage_of(cmd_find("maintainers"), NULL);
	assert_non_null(strstr(u, "[--file PATH]..."));
	free(u);
	u = cmd_usage_of(cmd_find("attachment"), NULL);
	assert_non_null(strstr(u, "[-o FILE]"));
	free(u);
	/* a command's own form beside its sub-commands */
	u = cmd_usage_of(cmd_find("roster"), NULL);
	assert_string_equal(u, "[--json] | reseal [--batch N]");
	free(u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmd_string),
		cmocka_unit_test(test_capture_result),
		cmocka_unit_test(test_cmd_split),
		cmocka_unit_test(test_cmd_opt_rows),
		cmocka_unit_test(test_cmd_lists_declared),
		cmocka_unit_test(test_cmd_option_mistakes),
		cmocka_unit_test(test_cmd_option_words),
		cmocka_unit_test(test_cmd_usage_of),
	};
	return cmocka_run_group_tests_name("cmd", tests, NULL, NULL);
}
