/* core/: the config file, the triage lifecycle, command strings. */
#include "unit.h"
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"

static void test_config_parse(void **state)
{
	(void)state;
	struct config cfg;
	struct err err;
	const char *text =
		"# comment\n"
		"[team]\n"
		"\troster = AAAA BBBB\n"
		"  Address = \"security@example.org\"\n"
		"; another comment\n"
		"[policy]\n"
		"default_days = 9\n"
		"strict = yes\n"
		"bind reports A triage %i --state accepted\n"
		"[policy]\n"
		"default_days = 10\n";

	memset(&cfg, 0, sizeof(cfg));
	assert_int_equal(config_parse(&cfg, "t", text, &err), 0);
	assert_string_equal(config_get(&cfg, "team.roster", NULL), "AAAA BBBB");
	assert_string_equal(config_get(&cfg, "TEAM.address", NULL), "security@example.org");
	assert_int_equal(config_get_long(&cfg, "policy.default_days", 7), 10);
	assert_int_equal(config_get_long(&cfg, "policy.max_days", 14), 14);
	assert_true(config_get_bool(&cfg, "policy.strict", false));
	assert_null(config_get(&cfg, "team.nothing", NULL));
	assert_int_equal(cfg.nbinds, 1);
	assert_string_equal(cfg.binds[0], "reports A triage %i --state accepted");
	config_release(&cfg);
}

static void test_config_errors(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		const char *msg;
	} bad[] = {
		{ "key = value\n", "f:1: 'key' is not inside a [section]" },
		{ "[team\n", "f:1: malformed section header" },
		{ "[team]\nno equals here\n", "f:2: expected 'name = value'" },
		{ "[te am]\n", "f:1: invalid section name" },
		{ "[team]\nbad key = 1\n", "f:2: invalid key name" },
		/* Every numeric key has a range (it used to overflow). */
		{ "[policy]\ndefault_days = 99999999999999999999\n",
		  "f:2: policy.default_days '99999999999999999999': not a number of days from 0 to 365" },
		{ "[policy]\ndefault_days = 9223372036854775807\n",
		  "f:2: policy.default_days '9223372036854775807': not a number of days from 0 to 365" },
		{ "[policy]\ndefault_days = 366\n",
		  "f:2: policy.default_days '366': not a number of days from 0 to 365" },
		{ "[policy]\n\tmax_days = -1\n",
		  "f:2: policy.max_days '-1': not a number of days from 0 to 365" },
		{ "[policy]\nmax_days = -9223372036854775808\n",
		  "f:2: policy.max_days '-9223372036854775808': not a number of days from 0 to 365" },
		{ "[Policy]\nMax_Days = 7d\n",
		  "f:2: policy.max_days '7d': not a number of days from 0 to 365" },
		{ "[policy]\ndefault_days =\n",
		  "f:2: policy.default_days '': not a number of days from 0 to 365" },
		{ "[policy]\ndefault_days = \" 7\"\n",
		  "f:2: policy.default_days ' 7': not a number of days from 0 to 365" },
		{ "[store]\nbusy_timeout = 0\n",
		  "f:2: store.busy_timeout '0': not a number of seconds from 1 to 3600" },
		{ "[store]\nbusy_timeout = 3601\n",
		  "f:2: store.busy_timeout '3601': not a number of seconds from 1 to 3600" },
		{ "[policy]\ndefault_days = 1\x1b[2J\n",
		  "f:2: policy.default_days '1^[[2J': not a number of days from 0 to 365" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct config cfg;
		struct err err;
		memset(&cfg, 0, sizeof(cfg));
		assert_int_equal(config_parse(&cfg, "f", bad[i].text, &err), ERR_INVALID);
		assert_string_equal(err.msg, bad[i].msg);
		config_release(&cfg);
	}
}

/* The edges of each range are accepted. */
static void test_config_ranges_edges(void **state)
{
	(void)state;
	struct config cfg;
	struct err err;

	memset(&cfg, 0, sizeof(cfg));
	assert_int_equal(config_parse(&cfg, "f", "[policy]\ndefault_days = 0\n"
				      "max_days = 365\n[store]\nbusy_timeout = 1\n",
				      &err), 0);
	assert_int_equal(config_get_long(&cfg, "policy.default_days", 7), 0);
	assert_int_equal(config_get_long(&cfg, "policy.max_days", 14), 365);
	assert_int_equal(config_get_long(&cfg, "store.busy_timeout", 10), 1);
	config_release(&cfg);
	memset(&cfg, 0, sizeof(cfg));
	assert_int_equal(config_parse(&cfg, "f", "[policy]\ndefault_days = 365\n"
				      "max_days = 007\n[store]\nbusy_timeout = 3600\n",
				      &err), 0);
	assert_int_equal(config_get_long(&cfg, "policy.max_days", 14), 7);
	assert_int_equal(config_get_long(&cfg, "store.busy_timeout", 10), 3600);
	config_release(&cfg);
}

static void test_config_missing_file(void **state)
{
	(void)state;
	struct config cfg;
	struct err err;
	assert_int_equal(config_load(&cfg, "/nonexistent/secteam/config", false, &err), 0);
	assert_int_equal(cfg.n, 0);
	assert_int_equal(config_load(&cfg, "/nonexistent/secteam/config", true, &err), ERR_NOTFOUND);
	assert_non_null(strstr(err.msg, "/nonexistent/secteam/config"));
}

/* A config anyone can write is refused (it names the commands
 * secteam-tui runs); the same file 0644 loads. */
static void test_config_writable(void **state)
{
	(void)state;
	char dir[] = "/tmp/secteam-config-XXXXXX", *path;
	struct config cfg;
	struct err err = { 0, "" };
	FILE *f;

	assert_non_null(mkdtemp(dir));
	path = xasprintf("%s/config", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs("[officer]\n\tname = A\n", f);
	fclose(f);
	assert_int_equal(chmod(path, 0666), 0);
	assert_int_equal(config_load(&cfg, path, true, &err), ERR_REFUSED);
	assert_non_null(strstr(err.msg, path));
	assert_non_null(strstr(err.msg, "refusing the config"));
	assert_non_null(strstr(err.msg, "is writable by others (mode 0666;"));
	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(config_load(&cfg, path, true, &err), 0);
	assert_string_equal(config_get(&cfg, "officer.name", ""), "A");
	config_release(&cfg);
	/* Not a regular file, and root's: /dev/null is an empty config. */
	assert_int_equal(config_load(&cfg, "/dev/null", true, &err), 0);
	assert_int_equal(cfg.n, 0);
	config_release(&cfg);
	unlink(path);
	rmdir(dir);
	free(path);
}

static void test_triage_lifecycle(void **state)
{
	(void)state;
	static const struct {
		const char *from, *to;
		int ok;
	} t[] = {
		{ "new", "triaged", 1 }, { "new", "rejected", 1 },
		{ "new", "duplicate", 1 }, { "new", "accepted", 0 },
		{ "new", "fixing", 0 }, { "triaged", "accepted", 1 },
		{ "accepted", "fixing", 1 }, { "accepted", "fix-ready", 1 },
		{ "fixing", "fix-ready", 1 }, { "fixing", "disclosed", 0 },
		{ "fix-ready", "disclosed", 1 }, { "fix-ready", "fixing", 1 },
		{ "disclosed", "closed", 1 }, { "disclosed", "new", 0 },
		{ "closed", "new", 0 }, { "closed", "triaged", 0 },
		{ "rejected", "closed", 1 }, { "duplicate", "triaged", 1 },
		{ "triaged", "triaged", 0 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct err err;
		int r = triage_check_transition(t[i].from, t[i].to, &err);
		if (t[i].ok != (r == 0))
			fail_msg("%s -> %s: got %d (%s)", t[i].from, t[i].to, r, err.msg);
	}
	struct err err;
	assert_int_equal(triage_check_transition("new", "fixing", &err), ERR_REFUSED);
	assert_string_equal(err.msg, "cannot go from new to fixing (from new: triaged, rejected, duplicate)");
	assert_int_equal(triage_check_transition("new", "bogus", &err), ERR_INVALID);
	assert_true(triage_severity_valid("critical"));
	assert_false(triage_severity_valid("urgent"));
	assert_true(report_finished("rejected"));
	assert_false(report_finished("fixing"));
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
	assert_non_null(strstr(ctx.err.msg, "unknown state 'bogus'"));
	cmd_ctx_release(&ctx);
	fclose(devnull);
}

static void test_cmd_split(void **state)
{
	(void)state;
	char **argv;
	int argc;
	struct err err;

	assert_int_equal(cmd_split("triage 3 --note \"it's \\\"bad\\\"\" 'a b' c\\ d", &argv, &argc, &err), 0);
	assert_int_equal(argc, 6);
	assert_string_equal(argv[0], "triage");
	assert_string_equal(argv[3], "it's \"bad\"");
	assert_string_equal(argv[4], "a b");
	assert_string_equal(argv[5], "c d");
	assert_null(argv[6]);
	cmd_split_free(argv, argc);
}

static void test_report_id(void **state)
{
	(void)state;
	int64_t id;
	struct err err;
	assert_int_equal(parse_report_id("42", &id, &err), 0);
	assert_int_equal(id, 42);
	assert_int_equal(parse_report_id("#7", &id, &err), 0);
	assert_int_equal(id, 7);
	assert_int_equal(parse_report_id("0", &id, &err), ERR_INVALID);
	assert_int_equal(parse_report_id("4x", &id, &err), ERR_INVALID);
	assert_string_equal(err.msg, "'4x' is not a report id");
	assert_int_equal(parse_report_id("", &id, &err), ERR_INVALID);
}

/* Whose files are the report's: the first message's, and the replies
 * that are the reporter's signed text. */
static void test_reporter_signed(void **state)
{
	static const struct {
		const char *from;
		enum sig_verdict v;
		bool matches;   /* signer matches From */
		bool signed_by_reporter;
	} rows[] = {
		{ "rita@example.net", SIG_VALID, true, true },
		{ "RITA@example.net", SIG_GOOD, true, true },
		{ "rita@example.net", SIG_GOOD, false, false },  /* another key */
		{ "rita@example.net", SIG_NOT_SIGNED, false, false }, /* a spoof */
		{ "rita@example.net", SIG_PARTIAL, true, false },
		{ "rita@example.net", SIG_UNKNOWN_KEY, false, false },
		{ "rita@example.net", SIG_BAD, true, false },
		{ "sam@example.com", SIG_VALID, true, false },   /* a third party */
		{ "sam@example.com", SIG_NOT_SIGNED, false, false },
		{ NULL, SIG_VALID, true, false },
	};
	struct report r = { .reporter_email = (char *)"rita@example.net" };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct message m = { .from_email = (char *)rows[i].from,
				     .verdict = rows[i].v,
				     .signer_matches_from = rows[i].matches };
		if (report_reporter_signed(&r, &m) != rows[i].signed_by_reporter)
			fail_msg("row %zu: want %d", i, rows[i].signed_by_reporter);
		assert_true(report_files_count(&r, &m, true));
		assert_int_equal(report_files_count(&r, &m, false),
				 rows[i].signed_by_reporter);
	}
}

static void test_exploit_heuristic(void **state)
{
	(void)state;
	assert_true(attachment_is_exploit("poc.c", "text/plain"));
	assert_true(attachment_is_exploit("trigger.py", NULL));
	assert_true(attachment_is_exploit("Exploit-README.txt", "text/plain"));
	assert_true(attachment_is_exploit("a.bin", "application/x-executable"));
	assert_false(attachment_is_exploit("fix.patch", "text/x-patch"));
	assert_false(attachment_is_exploit("dmesg.txt", "text/plain"));
	assert_false(attachment_is_exploit(NULL, "text/plain"));
}

/* What a display name may hide (core/sender.c), and how it is shown. */
static void test_sender_flags(void **state)
{
	static const struct {
		const char *name, *email;
		unsigned want;
	} t[] = {
		{ "Rita Reporter", "rita@example.net", 0 },
		{ NULL, "rita@example.net", 0 },
		{ "manager@corp.example", "eve@corp.example", SENDER_NAME_ADDRESS },
		{ "Manager <manager@corp>", "eve@corp", SENDER_NAME_ADDRESS },
		{ "RITA@example.net", "rita@example.net", 0 },
		{ "rita@example.net (via list)", "rita@example.net", 0 },
		{ "boss\xef\xbc\xa0" "corp", "eve@corp", SENDER_NAME_ADDRESS },
		{ "boss\xef\xb9\xab" "corp", "eve@corp", SENDER_NAME_ADDRESS },
		{ "a @ b", "eve@corp", 0 },
		{ "Rita\xc2\xa0Reporter", "rita@example.net", SENDER_NAME_INVISIBLE },
		{ "Rita\xe2\x80\x8aReporter", "rita@example.net", SENDER_NAME_INVISIBLE },
		{ "Rita\xe3\x80\x80", "rita@example.net", SENDER_NAME_INVISIBLE },
		{ "Rita\xe2\xa0\x80", "rita@example.net", SENDER_NAME_INVISIBLE },
		{ "x@y.z\xc2\xa0", "rita@example.net",
		  SENDER_NAME_ADDRESS | SENDER_NAME_INVISIBLE },
		{ "Rita", NULL, SENDER_NO_ADDRESS },
		{ "Ren\xc3\xa9" "e", "renee@example.net", 0 },
	};
	char *s;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		unsigned got = sender_flags(t[i].name, t[i].email);
		if (got != t[i].want)
			fail_msg("sender_flags(\"%s\", \"%s\") = %u, want %u",
				 t[i].name ? t[i].name : "(null)",
				 t[i].email ? t[i].email : "(null)", got, t[i].want);
	}
	s = sender_format("manager@corp\xc2\xa0\xc2\xa0\x1b[2J", "eve@corp");
	assert_string_equal(s, "eve@corp  [!] display name holds another address"
			    "  [!] invisible spacing in display name"
			    "  \"manager@corp<U+00A0><U+00A0>^[[2J\"");
	free(s);
	s = sender_format(NULL, NULL);
	assert_string_equal(s, "(no address)");
	free(s);

	/* Whether a display name may stand for a user ID's name. */
	assert_true(sender_name_fits(NULL, "Rita Reporter"));
	assert_true(sender_name_fits("Rita Reporter", "Rita Reporter"));
	assert_true(sender_name_fits("rita", "Rita Reporter"));
	assert_true(sender_name_fits("R. Reporter (via oss-security)", "Rita Reporter"));
	assert_true(sender_name_fits("  ", "Rita Reporter"));
	assert_true(sender_name_fits("J\xc3\xbcrgen", "J\xc3\xbcrgen M\xc3\xbcller"));
	assert_false(sender_name_fits("The Manager", "Evil Eve"));
	assert_false(sender_name_fits("The Manager", NULL));
	assert_false(sender_name_fits("Ritaa", "Rita Reporter"));
}

/* Lines of an opened body and which lie in the unsigned spans. */
/* Mail templates: fields filled, "{{" a brace, an unknown field or one
 * without a value refused naming the template and the field. */
static void test_template_fill(void **state)
{
	(void)state;
	struct template_field f[] = {
		{ "id", "7", NULL },
		{ "officer", "Olga", NULL },
		{ "fix_commit", NULL, "report 7 has no fix commit recorded" },
	};
	struct err err = { 0, "" };
	char *out = NULL;

	assert_int_equal(template_fill("t", "#{id} by {officer} {{x}", f, 3, &out, &err), 0);
	assert_string_equal(out, "#7 by Olga {x}");
	free(out);
	assert_int_equal(template_fill("ack", "hi {nope} there", f, 3, &out, &err), ERR_INVALID);
	assert_null(out);
	assert_non_null(strstr(err.msg, "template 'ack': unknown field '{nope}'"));
	assert_int_equal(template_fill("ack", "open {id", f, 3, &out, &err), ERR_INVALID);
	assert_int_equal(template_fill("fixed", "{fix_commit}", f, 3, &out, &err), ERR_REFUSED);
	assert_string_equal(err.msg, "template 'fixed' uses {fix_commit}, but report 7 "
			    "has no fix commit recorded");
}

static void test_opened_lines(void **state)
{
	char body[] = "signed\nunsigned 1\nunsigned 2\nsigned again\nlast";
	struct text_span sp[] = { { 7, 29 } };
	struct opened_message om = { .body = body, .body_len = sizeof(body) - 1,
				     .unsigned_spans = sp, .nunsigned = 1 };
	struct body_line *l;
	size_t n = opened_message_lines(&om, &l);

	(void)state;
	assert_int_equal(n, 5);
	assert_memory_equal(l[0].s, "signed", l[0].len);
	assert_false(l[0].unsigned_text);
	assert_true(l[1].unsigned_text);
	assert_true(l[2].unsigned_text);
	assert_memory_equal(l[3].s, "signed again", l[3].len);
	assert_false(l[3].unsigned_text);
	assert_int_equal(l[4].len, 4);
	assert_false(l[4].unsigned_text);
	free(l);
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
				fail_msg("%s: example '%s' runs another command", e->name, *x);
		for (const struct option *o = e->opts; o && o->name; o++) {
			bool found = false;
			char *want = xasprintf("--%s", o->name);

			if (!strcmp(o->name, "help")) {
				free(want);
				continue;
			}
			for (const struct cmd_opt_help *h = e->opt_help; h && h->opt && !found; h++) {
				const char *at = strstr(h->opt, want);
				size_t n = strlen(want);
				found = at && (at[n] == '\0' || at[n] == ' ');
			}
			if (!found)
				fail_msg("%s: option %s has no line in its --help", e->name, want);
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
	assert_string_equal(u, "notify ID NAME [--forward [--outbox MAILDIR|--sendmail] [--allow-plaintext]]");
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
		cmocka_unit_test(test_config_parse),
		cmocka_unit_test(test_reporter_signed),
		cmocka_unit_test(test_config_errors),
		cmocka_unit_test(test_config_ranges_edges),
		cmocka_unit_test(test_config_missing_file),
		cmocka_unit_test(test_config_writable),
		cmocka_unit_test(test_triage_lifecycle),
		cmocka_unit_test(test_cmd_string),
		cmocka_unit_test(test_cmd_split),
		cmocka_unit_test(test_report_id),
		cmocka_unit_test(test_exploit_heuristic),
		cmocka_unit_test(test_sender_flags),
		cmocka_unit_test(test_opened_lines),
		cmocka_unit_test(test_cmd_help_rows),
		cmocka_unit_test(test_cmd_usage_of),
		cmocka_unit_test(test_template_fill),
	};
	return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
