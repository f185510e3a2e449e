/*
 * The UI's pieces that need no terminal: where a command's report goes
 * (core's cmd_target_argv, which every key and `:` line goes through),
 * the key table (which row a key runs in which view, config binds first,
 * key names both ways), and cmd_join/cmd_split round trips (the prompts
 * prefilled with a name).
 */
#include "unit.h"

#include "core/core.h"
#include "tui/tui-int.h"

/* argv of a command line, run through cmd_target_argv for report 7;
 * returns the words joined by '|' ("-" when nothing is inserted). */
static char *target(const char *line)
{
	char **argv, **out;
	int argc, n;
	struct err err;
	struct sbuf sb = SBUF_INIT;

	assert_int_equal(cmd_split(line, &argv, &argc, &err), 0);
	out = cmd_target_argv(cmd_find(argv[0]), argc, argv, 7, &n);
	if (!out) {
		cmd_split_free(argv, argc);
		return xstrdup("-");
	}
	for (int i = 0; i < n; i++)
		sbuf_addf(&sb, "%s%s", i ? "|" : "", out[i]);
	cmd_split_free(out, n);
	cmd_split_free(argv, argc);
	return sbuf_detach(&sb, NULL);
}

static void test_target(void **state)
{
	static const struct {
		const char *line, *want;
	} t[] = {
		/* the report goes where the command wants it */
		{ "show", "show|7" },
		{ "show --json", "show|7|--json" },
		{ "triage --severity high", "triage|7|--severity|high" },
		{ "triage --note 42", "triage|7|--note|42" },     /* 42 is the note */
		{ "triage --note=42", "triage|7|--note=42" },
		{ "date set 2026-12-20", "date|set|7|2026-12-20" },
		{ "date propose +10d --by reporter --reason r", "date|propose|7|+10d|--by|reporter|--reason|r" },
		{ "date show", "date|show|7" },
		{ "vendor notify Debian", "vendor|notify|7|Debian" },
		{ "vendor status 'Acme%iCorp' fixed", "vendor|status|7|Acme%iCorp|fixed" },
		{ "export --format md", "export|7|--format|md" },
		{ "export -o out.md --format md", "export|7|-o|out.md|--format|md" },
		/* a report named in the line wins */
		{ "show 9", "-" },
		{ "show #9", "-" },
		{ "triage 9 --state triaged", "-" },
		{ "triage --state triaged 9", "-" },
		{ "date set 9 2026-12-20", "-" },
		/* commands and sub-commands that take no report */
		{ "list --open", "-" },
		{ "import x.eml", "-" },
		{ "vendor list", "-" },
		{ "vendor add Acme --contact a@b.c", "-" },
		{ "due", "-" },
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		char *got = target(t[i].line);
		if (strcmp(got, t[i].want))
			fail_msg("'%s': got %s, want %s", t[i].line, got, t[i].want);
		free(got);
	}
	/* No report, no insertion. */
	char *argv[] = { (char *)"show", NULL };
	int n;
	assert_null(cmd_target_argv(cmd_find("show"), 1, argv, 0, &n));
}

static void test_join_split(void **state)
{
	static const char *const words[] = {
		"vendor", "status", "12", "Acme%iCorp", "it's", "two words",
		"a\"b", "back\\slash", "", "--note=x y",
	};
	char **back;
	int n;
	struct err err;
	char *line;

	(void)state;
	line = cmd_join((int)ARRAY_SIZE(words), (char *const *)words);
	assert_int_equal(cmd_split(line, &back, &n, &err), 0);
	assert_int_equal(n, (int)ARRAY_SIZE(words));
	for (int i = 0; i < n; i++)
		assert_string_equal(back[i], words[i]);
	cmd_split_free(back, n);
	free(line);
}

static void test_key_table(void **state)
{
	const struct tui_key_entry *e;

	(void)state;
	/* n and N are the search keys in every view, the vendors' too. */
	for (int v = 0; v < V_COUNT; v++) {
		e = keys_table_row((enum tui_view_id)v, 'n');
		assert_non_null(e);
		assert_string_equal(e->name, "search-next");
		e = keys_table_row((enum tui_view_id)v, 'N');
		assert_non_null(e);
		assert_string_equal(e->name, "search-prev");
	}
	/* Notifying and the NDA request are the vendors panel's, and ask. */
	e = keys_table_row(V_VENDORS, 'M');
	assert_non_null(e);
	assert_string_equal(e->name, "notify");
	assert_null(keys_table_row(V_REPORTS, 'M'));
	e = keys_table_row(V_VENDORS, '!');
	assert_string_equal(e->name, "nda");
	/* Every row that runs a core command names a known verb, and no
	 * row's command pastes the report into its text. */
	for (size_t i = 0; i < tui_key_table_len; i++) {
		const struct tui_key_entry *r = &tui_key_table[i];
		char verb[64];
		if (!r->command)
			continue;
		assert_null(strstr(r->command, "%i"));
		sscanf(r->command, "%63s", verb);
		if (!strcmp(verb, "prompt"))
			sscanf(r->command + 7, "%63s", verb);
		if (!cmd_find(verb))
			fail_msg("key row %s runs unknown verb '%s'", r->name, verb);
	}
	/* Rejecting and accepting ask first, naming the report. */
	assert_non_null(strstr(keys_table_row(V_REPORT, 'R')->confirm, "%lld"));
	assert_non_null(strstr(keys_table_row(V_REPORT, 'A')->confirm, "%lld"));
}

static void test_key_names(void **state)
{
	static const char *const names[] = {
		"Enter", "Space", "C-l", "PgDn", "F1", "j", "!", "M", "?",
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		int k = keys_from_name(names[i]);
		assert_true(k > 0);
		assert_string_equal(keys_name(k), names[i]);
	}
	assert_int_equal(keys_from_name("C-"), -1);
	assert_int_equal(keys_from_name("F13"), -1);
}

/* A config bind line wins over the table, in its view only. */
static void test_binds(void **state)
{
	struct tui t;
	struct config cfg;
	const struct tui_key_entry *e;
	const char *cmd;
	char *binds[] = { (char *)"reports A triage %i --state accepted",
			  (char *)"nosuchview x show", (char *)"all Z :due" };

	(void)state;
	memset(&t, 0, sizeof(t));
	memset(&cfg, 0, sizeof(cfg));
	cfg.binds = binds;
	cfg.nbinds = ARRAY_SIZE(binds);
	struct cmd_ctx ctx;
	memset(&ctx, 0, sizeof(ctx));
	ctx.cfg = &cfg;
	t.ctx = &ctx;
	keys_parse_binds(&t);
	assert_int_equal(t.nbinds, 2);  /* the bad line is refused */
	assert_non_null(strstr(t.status, "bad bind line"));
	cmd = keys_lookup(&t, V_REPORTS, 'A', &e);
	assert_string_equal(cmd, "triage %i --state accepted");
	assert_null(e);
	cmd = keys_lookup(&t, V_REPORT, 'A', &e);
	assert_string_equal(cmd, "triage --state accepted");
	assert_non_null(e);
	cmd = keys_lookup(&t, V_CALENDAR, 'Z', &e);
	assert_string_equal(cmd, "due");
	keys_free_binds(&t);
}

/* The display column where the text of line starts at byte offset off. */
static int col_at(const char *line, size_t off)
{
	char *pre = xstrndup(line, off);
	int c = str_cols(pre);

	free(pre);
	return c;
}

/* The timeline view's table: the header's columns are the rows'
 * columns (WHEN as wide as the dates), a long kind widens KIND instead
 * of running into DETAIL, a long officer name is cut with a visible
 * mark. */
static void test_timeline_columns(void **state)
{
	struct event ev[] = {
		{ 1, 1, 1796205600, (char *)"root", (char *)"import", (char *)"report from rita" },
		{ 2, 1, 1796209200, (char *)"an-officer-with-a-very-long-name", (char *)"state", (char *)"new -> triaged" },
		{ 3, 1, 1796212800, (char *)"root", (char *)"participant-add", (char *)"Dev <dev@example.org>" },
	};
	struct report_full rf;
	struct tui_lines l;
	char *head = NULL;
	const char *detail[] = { "Dev <dev@example.org>", "new -> triaged", "report from rita" };
	int when, officer, kind, dcol;

	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	memset(&rf, 0, sizeof(rf));
	memset(&l, 0, sizeof(l));
	rf.events = ev;
	rf.nevents = ARRAY_SIZE(ev);
	timeline_table(&rf, &l, &head);
	assert_int_equal(l.n, 3);
	officer = col_at(head, (size_t)(strstr(head, "OFFICER") - head));
	kind = col_at(head, (size_t)(strstr(head, "KIND") - head));
	dcol = col_at(head, (size_t)(strstr(head, "DETAIL") - head));
	/* "2026-12-02 10:00 UTC": 20 columns, then two spaces. */
	when = str_cols("2026-12-02 10:00 UTC");
	assert_int_equal(officer, when + 2);
	for (size_t i = 0; i < l.n; i++) {
		const char *line = l.line[i], *d = strstr(line, detail[i]);
		assert_non_null(d);
		assert_int_equal(col_at(line, (size_t)(d - line)), dcol);
	}
	/* newest first: participant-add in full, its column wide enough */
	assert_non_null(strstr(l.line[0], "participant-add  Dev"));
	assert_true(dcol - kind >= (int)strlen("participant-add") + 2);
	/* the long name cut, with the mark, in at most 16 columns */
	assert_null(strstr(l.line[1], "an-officer-with-a-very-long-name"));
	assert_non_null(strstr(l.line[1], "an-officer-with\xe2\x80\xa6"));
	assert_true(kind - officer <= 16 + 2);
	free(head);
	lines_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_target),
		cmocka_unit_test(test_join_split),
		cmocka_unit_test(test_key_table),
		cmocka_unit_test(test_key_names),
		cmocka_unit_test(test_binds),
		cmocka_unit_test(test_timeline_columns),
	};
	return cmocka_run_group_tests_name("tui", tests, NULL, NULL);
}
