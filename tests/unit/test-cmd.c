/* cmd/: command strings (split, join, run), the help rows and usage
 * lines the command table gives. */
#include "unit.h"
#include "cmd/cmd.h"
#include "core/core.h"

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
	assert_non_null(strstr(ctx.err.msg, "unknown state 'bogus'"));
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

/* Every option a command parses has a line in its --help (the rows of
 * cmd_table[]), and every command has its exit status and an example:
 * an option added to a parser without help fails here. */
static void test_cmd_help_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < cmd_table_len; i++) {
		const struct cmd_entry *e = cmd_table[i];

		assert_non_null(e->exit1);
		assert_non_null(e->examples);
		assert_non_null(e->examples[0]);
		for (const char *const *x = e->examples; *x; x++)
			if (strncmp(*x, e->name, strlen(e->name)))
				fail_msg(
					"%s: example '%s' runs another command",
					e->name, *x);
		for (const struct option *o = e->opts; o && o->name; o++) {
			bool found = false;
			char *want = xasprintf("--%s", o->name);

			if (!strcmp(o->name, "help")) {
				free(want);
				continue;
			}
			for (const struct cmd_opt_help *h = e->opt_help;
			     h && h->opt && !found; h++) {
				const char *at = strstr(h->opt, want);
				size_t n = strlen(want);
				found = at && (at[n] == '\0' || at[n] == ' ');
			}
			if (!found)
				fail_msg(
					"%s: option %s has no line in its --help",
					e->name, want);
			free(want);
		}
	}
}

/* A sub-command's usage is its alternative of the command's usage. */
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
		"notify ID NAME [--forward [--outbox MAILDIR|--sendmail] [--allow-plaintext]]");
	free(u);
	u = cmd_usage_of(cmd_find("team"), "list");
	assert_string_equal(u, "list [--json]");
	free(u);
	u = cmd_usage_of(cmd_find("list"), NULL);
	assert_string_equal(u, cmd_find("list")->usage);
	free(u);
	/* maintainers' " | " inside parentheses is no alternative */
	u = cmd_usage_of(cmd_find("maintainers"), "x");
	assert_string_equal(u, cmd_find("maintainers")->usage);
	free(u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmd_string),
		cmocka_unit_test(test_capture_result),
		cmocka_unit_test(test_cmd_split),
		cmocka_unit_test(test_cmd_help_rows),
		cmocka_unit_test(test_cmd_usage_of),
	};
	return cmocka_run_group_tests_name("cmd", tests, NULL, NULL);
}
