/*
 * The UI's pieces that need no terminal: which report a command runs on
 * (the runner's cmd_resolve_target, which every key and `:` line goes
 * through),
 * the key table (which row a key runs in which view, config binds first,
 * key names both ways), and cmd_join/cmd_split round trips (the prompts
 * prefilled with a name).
 */
#include <ctype.h>
#include <locale.h>

#include "unit.h"

#include "core/core.h"
#include "tui/tui-int.h"

/* The report the runner gives a command line on current report `cur`:
 * "7" (the current one), "9 named" (the line names it), "-" (none). */
static char *target_at(const char *line, int64_t cur)
{
	char **argv;
	int argc;
	struct err err;
	int64_t id;
	bool named;
	char *r;

	assert_int_equal(cmd_split(line, &argv, &argc, &err), 0);
	cmd_resolve_target(cmd_find(argv[0]), argc, argv, cur, &id, &named);
	r = id ? xasprintf("%lld%s", (long long)id, named ? " named" : "")
	       : xstrdup("-");
	cmd_split_free(argv, argc);
	return r;
}

static char *target(const char *line)
{
	return target_at(line, 7);
}

static void test_target(void **state)
{
	static const struct {
		const char *line, *want;
	} t[] = {
		/* the current report, where the line names none */
		{ "show", "7" },
		{ "show --json", "7" },
		{ "triage --severity high", "7" },
		{ "triage --note 42", "7" }, /* 42 is the note */
		{ "triage --note=42", "7" },
		{ "date set 2026-12-20", "7" },
		{ "date propose +10d --by reporter --reason r", "7" },
		{ "date show", "7" },
		{ "vendor notify Debian", "7" },
		{ "vendor status 'Acme%iCorp' fixed", "7" },
		{ "export --format md", "7" },
		{ "export -o 9 --format md", "7" }, /* 9 is -o's file */
		{ "attachment -o 9", "7" },
		{ "import -j 9 x.eml", "-" },
		/* a report named in the line wins */
		{ "show 9", "9 named" },
		{ "show #9", "9 named" },
		{ "triage 9 --state triaged", "9 named" },
		{ "triage --state triaged 9", "9 named" },
		{ "date set 9 2026-12-20", "9 named" },
		{ "show -- 9", "9 named" },
		/* a bind line's %i is the current report */
		{ "triage %i --state accepted", "7 named" },
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
			fail_msg("'%s': got %s, want %s", t[i].line, got,
				 t[i].want);
		free(got);
	}
	/* No current report: only what the line names. */
	char *got = target_at("show", 0);
	assert_string_equal(got, "-");
	free(got);
	got = target_at("show 4", 0);
	assert_string_equal(got, "4 named");
	free(got);
}

static void test_join_split(void **state)
{
	static const char *const words[] = {
		"vendor", "status",	"12",	"Acme%iCorp",
		"it's",	  "two words",	"a\"b", "back\\slash",
		"",	  "--note=x y",
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
			fail_msg("key row %s runs unknown verb '%s'", r->name,
				 verb);
	}
	/* The keys that change a report run commands, which check the move
	 * and ask through the session (tests/e2e/tui-asks.sh sees the
	 * question): no handler of the UI's changes anything. */
	static const struct {
		int key;
		const char *name, *command;
	} writes[] = {
		{ 'R', "reject", "triage --state rejected" },
		{ 'A', "accept", "triage --state accepted" },
		{ 'C', "claim", "triage --claim" },
		{ 'E', "note", "note" },
		{ 'r', "compose-reply", "reply" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(writes); i++) {
		const struct tui_key_entry *r =
			keys_table_row(V_REPORT, writes[i].key);

		assert_null(r->handler);
		assert_string_equal(r->name, writes[i].name);
		assert_string_equal(r->command, writes[i].command);
	}
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
	struct session sess;
	struct cmd_ctx ctx;
	memset(&sess, 0, sizeof(sess));
	memset(&ctx, 0, sizeof(ctx));
	ctx.sess = &sess;
	ctx.sess->cfg = &cfg;
	t.ctx = &ctx;
	keys_parse_binds(&t);
	assert_int_equal(t.nbinds, 2); /* the bad line is refused */
	assert_non_null(strstr(t.status, "bad bind line"));
	tui_status_clear(&t);
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
		{ 1, 1, 1796205600, (char *)"root", (char *)"import",
		  (char *)"report from rita", 0, NULL },
		{ 2, 1, 1796209200, (char *)"an-officer-with-a-very-long-name",
		  (char *)"state", (char *)"new -> triaged", 0, NULL },
		{ 3, 1, 1796212800, (char *)"root", (char *)"participant-add",
		  (char *)"Dev <dev@example.org>", 0, NULL },
	};
	struct report_full rf;
	struct tui_lines l;
	char *head = NULL;
	const char *detail[] = { "Dev <dev@example.org>", "new -> triaged",
				 "report from rita" };
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

/* Which row (its name, or the command it runs) a key reaches in a view:
 * a panel's own row wins over the row every view shares, a row of one
 * view is nowhere else, and config binds win over the table. */
static void test_key_lookup(void **state)
{
	static const struct {
		enum tui_view_id view;
		const char *key, *want; /* want NULL: the key does nothing */
	} t[] = {
		{ V_PARTICIPANTS, "Space", "check" },
		{ V_REPORTS, "Space", "page-down" },
		{ V_REPORT, "Space", "page-down" },
		{ V_PARTICIPANTS, "x", "remove" },
		{ V_VENDORS, "x", NULL },
		{ V_VENDORS, "M", "notify" },
		{ V_REPORTS, "M", NULL },
		{ V_REPORTS, "Enter", "open" },
		{ V_CALENDAR, "Enter", "open" },
		{ V_REPORT, "Enter", NULL },
		{ V_REPORTS, "5", "jump" },
		{ V_REPORT, "5", NULL },
		{ V_REPORT, "J", "next-report" },
		{ V_REPORTS, "J", NULL },
		{ V_REPORTS, "A", "triage --state accepted" },
		{ V_PARTICIPANTS, "A", "acknowledged" },
		{ V_REPORT, "C", "triage --claim" },
		{ V_TIMELINE, "C", "triage --claim" },
		{ V_HELP, "C", NULL },
		{ V_PAGER, "C", NULL },
		{ V_PARTICIPANTS, "F", "forward --participants" },
		{ V_DISCLOSURE, "P", "prompt date propose" },
		{ V_REPORTS, "P", NULL },
		{ V_HELP, "C-l", "reload" },
		{ V_PAGER, "Down", "down" },
		{ V_PAGER, "F1", "help" },
		{ V_REPORTS, "F12", NULL },
	};
	struct tui tu;
	const struct tui_key_entry *e;

	(void)state;
	memset(&tu, 0, sizeof(tu));
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		int k = keys_from_name(t[i].key);
		const char *got = keys_lookup(&tu, t[i].view, k, &e);

		assert_true(k > 0);
		if (!t[i].want && got)
			fail_msg("%s in view %s: got %s, want nothing",
				 t[i].key, keys_view_name(t[i].view), got);
		if (t[i].want && (!got || strcmp(got, t[i].want)))
			fail_msg("%s in view %s: got %s, want %s", t[i].key,
				 keys_view_name(t[i].view),
				 got ? got : "nothing", t[i].want);
		/* The row returned is the table's row for that key. */
		assert_ptr_equal(e, got ? keys_table_row(t[i].view, k) : NULL);
	}
}

/* Two binds for one key: the later wins; a view's bind stays in it. */
static void test_binds_order(void **state)
{
	struct tui tu;
	struct config cfg;
	struct cmd_ctx ctx;
	const struct tui_key_entry *e;
	char *binds[] = { (char *)"all X due", (char *)"report X show --json",
			  (char *)"all X list --open" };

	(void)state;
	memset(&tu, 0, sizeof(tu));
	memset(&cfg, 0, sizeof(cfg));
	unit_ctx_init(&ctx, NULL, NULL, NULL);
	cfg.binds = binds;
	cfg.nbinds = ARRAY_SIZE(binds);
	ctx.sess->cfg = &cfg;
	tu.ctx = &ctx;
	keys_parse_binds(&tu);
	assert_int_equal(tu.nbinds, 3);
	assert_string_equal(keys_lookup(&tu, V_REPORT, 'X', &e), "list --open");
	assert_null(e);
	assert_string_equal(keys_lookup(&tu, V_VENDORS, 'X', &e),
			    "list --open");
	keys_free_binds(&tu);
	ctx.sess->cfg = NULL;
	unit_ctx_release(&ctx);
}

/* A word of a usage text, as a whole word. */
static bool usage_has(const char *usage, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = strstr(usage, word); p; p = strstr(p + 1, word))
		if ((p == usage ||
		     (!isalnum((unsigned char)p[-1]) && p[-1] != '-')) &&
		    !isalnum((unsigned char)p[n]))
			return true;
	return false;
}

/* The id target a command declares matches the usage it shows: a
 * command whose usage names an ID declares where the report goes (so
 * the UI passes it), after exactly the sub-commands that take one. */
static void test_target_spec(void **state)
{
	(void)state;
	for (size_t i = 0; i < cmd_table_len; i++) {
		const struct cmd_entry *e = cmd_table[i];
		bool has_id = usage_has(e->usage, "ID");

		if (e->target == CMD_TARGET_NONE) {
			if (has_id)
				fail_msg(
					"%s: its usage names an ID, it declares no target",
					e->name);
			continue;
		}
		if (!has_id)
			fail_msg(
				"%s: it declares a target, its usage names no ID",
				e->name);
		if (!e->target_subs)
			continue;
		char *subs = xstrdup(e->target_subs), *save = NULL;
		for (char *w = strtok_r(subs, " ", &save); w;
		     w = strtok_r(NULL, " ", &save)) {
			char *want = xasprintf("%s ID", w);
			if (!usage_has(e->usage, want))
				fail_msg(
					"%s: sub-command %s takes the report, usage lacks '%s'",
					e->name, w, want);
			free(want);
		}
		free(subs);
		/* and every "SUB ID" of the usage is a declared sub-command */
		for (const char *p = strstr(e->usage, " ID"); p;
		     p = strstr(p + 1, " ID")) {
			const char *b = p;
			while (b > e->usage && b[-1] != ' ' && b[-1] != '|')
				b--;
			char *sub = xstrndup(b, (size_t)(p - b));
			if (*sub && !usage_has(e->target_subs, sub))
				fail_msg(
					"%s: usage has '%s ID', not a target sub-command",
					e->name, sub);
			free(sub);
		}
	}
}

/* Every key row that runs a command on "the current report" gets that
 * report as the command's target. */
static void test_key_rows_target(void **state)
{
	(void)state;
	for (size_t i = 0; i < tui_key_table_len; i++) {
		const struct tui_key_entry *r = &tui_key_table[i];
		char *got;

		if (!r->command || !strncmp(r->command, "prompt ", 7))
			continue;
		got = target(r->command);
		if (strcmp(got, "7"))
			fail_msg(
				"key row %s: '%s' runs on %s, not the current report",
				r->name, r->command, got);
		free(got);
	}
}

/* The pager's column layout: lines wrap at the display width, wide
 * characters count two columns and never straddle the edge, tabs go to
 * the next multiple of 8 (cut at the edge), a newline starts another
 * logical line, and every display line knows its logical line. */
static void test_wrap(void **state)
{
	static const struct {
		const char *text;
		int width;
		const char *want; /* display lines joined by '|' */
		const char *src; /* their logical lines */
	} t[] = {
		{ "abcdefghijklmnop", 10, "abcdefghij|klmnop", "00" },
		{ "abcdefghij", 10, "abcdefghij", "0" },
		{ "\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2",
		  5,
		  "\xe6\xbc\xa2\xe5\xad\x97|\xe6\xbc\xa2\xe5\xad\x97|\xe6\xbc\xa2",
		  "000" },
		{ "a\xe6\xbc\xa2\xe5\xad\x97", 4, "a\xe6\xbc\xa2|\xe5\xad\x97",
		  "00" },
		{ "a\tb", 20, "a       b", "0" },
		{ "abcdefghi\tX", 10, "abcdefghi |X", "00" },
		{ "one\ntwo\n", 10, "one|two", "01" },
		{ "one\n\nthree", 10, "one||three", "012" },
		{ "", 10, "", "0" },
		{ "abc", 0, "a|b|c", "000" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct tui_lines l;
		struct sbuf got = SBUF_INIT, src = SBUF_INIT;

		memset(&l, 0, sizeof(l));
		lines_add_wrapped(&l, t[i].text, t[i].width, 0, 0);
		for (size_t j = 0; j < l.n; j++) {
			sbuf_addf(&got, "%s%s", j ? "|" : "", l.line[j]);
			sbuf_addf(&src, "%zu", l.src[j]);
			if (t[i].width > 0 &&
			    text_width(l.line[j]) > t[i].width)
				fail_msg("case %zu: line %zu is wider than %d",
					 i, j, t[i].width);
		}
		if (strcmp(got.buf ? got.buf : "", t[i].want) ||
		    strcmp(src.buf, t[i].src))
			fail_msg("case %zu: got '%s' (%s), want '%s' (%s)", i,
				 got.buf ? got.buf : "", src.buf, t[i].want,
				 t[i].src);
		sbuf_release(&got);
		sbuf_release(&src);
		lines_release(&l);
	}
}

/* Rows wrapped between words, the rows after the first indented, none
 * wider than the width (a word longer than a row cut into rows). */
static void test_hanging(void **state)
{
	static const struct {
		const char *text;
		int width, indent;
		const char *want; /* rows joined by '|' */
	} t[] = {
		{ "short", 20, 4, "short" },
		{ "  one two three four five six seven", 20, 4,
		  "  one two three four|    five six seven" },
		{ "key   name   a description that goes on", 24, 14,
		  "key   name   a|            description|            that goes on" },
		{ "abcdefghijklmnopqrstuvwxyz0123456789", 20, 4,
		  "abcdefghijklmnopqrst|    uvwxyz0123456789" },
		{ "x \xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2",
		  20, 2,
		  "x|  \xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2|  \xe5\xad\x97\xe6\xbc\xa2" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct tui_lines l;
		struct sbuf got = SBUF_INIT;

		memset(&l, 0, sizeof(l));
		lines_add_hanging(&l, t[i].text, t[i].width, t[i].indent, 0, 0);
		for (size_t j = 0; j < l.n; j++) {
			sbuf_addf(&got, "%s%s", j ? "|" : "", l.line[j]);
			if (text_width(l.line[j]) > t[i].width)
				fail_msg("case %zu: row %zu is wider than %d",
					 i, j, t[i].width);
		}
		if (strcmp(got.buf, t[i].want))
			fail_msg("case %zu: got '%s', want '%s'", i, got.buf,
				 t[i].want);
		assert_int_equal(l.nsrc, 1);
		sbuf_release(&got);
		lines_release(&l);
	}
}

/* draw_text says what it cuts (the trace the tmux tests read): words,
 * never white space alone, never what draw_text_clip cuts by design. */
static void test_cut_log(void **state)
{
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	FILE *log = tmpfile();
	SCREEN *scr;
	char buf[256] = "";
	size_t n;

	(void)state;
	assert_non_null(log);
	scr = newterm("xterm", out, in);
	assert_non_null(scr);
	resize_term(8, 40);
	draw_log_cuts(log);
	draw_text(1, 0, 40, "fits whole", A_NORMAL);
	draw_text(2, 0, 5, "abc   ", A_NORMAL);
	draw_text_clip(3, 0, 5, "a subject cut by design", A_NORMAL);
	draw_untrusted(4, 0, 5, "another subject", A_NORMAL);
	draw_text(5, 30, 40, "past the edge of the screen", A_NORMAL);
	draw_log_cuts(NULL);
	rewind(log);
	n = fread(buf, 1, sizeof(buf) - 1, log);
	buf[n] = '\0';
	assert_string_equal(buf, "cut 5: past the edge of the screen\n");
	endwin();
	delscreen(scr);
	fclose(log);
	fclose(out);
	fclose(in);
}

/* Display widths the layout counts with. */
static void test_text_width(void **state)
{
	(void)state;
	assert_int_equal(text_width(""), 0);
	assert_int_equal(text_width("abc"), 3);
	assert_int_equal(text_width("\xe6\xbc\xa2"
				    "a"),
			 3); /* wide */
	assert_int_equal(text_width("e\xcc\x81"), 1); /* combining */
	assert_int_equal(text_width("\xff"
				    "a"),
			 2); /* bad byte: one '?' */
}

/* Row y of the curses screen as UTF-8 (one character per cell it
 * starts), trailing blanks cut. */
static char *screen_row(int y)
{
	wchar_t w[256];
	char buf[1024];
	size_t n;

	assert_true(mvinnwstr(y, 0, w, (int)ARRAY_SIZE(w) - 1) != ERR);
	n = wcstombs(buf, w, sizeof(buf) - 1);
	assert_true(n != (size_t)-1);
	buf[n] = 0;
	while (n && buf[n - 1] == ' ')
		buf[--n] = 0;
	return xstrdup(buf);
}

/* Where display cell `cell` of the UTF-8 row starts. */
static const char *at_cell(const char *row, int cell)
{
	mbstate_t st;
	int used = 0;

	memset(&st, 0, sizeof(st));
	while (*row && used < cell) {
		wchar_t wc;
		size_t k = mbrtowc(&wc, row, strlen(row), &st);
		assert_true(k != (size_t)-1 && k != (size_t)-2 && k != 0);
		used += wcwidth(wc) > 0 ? wcwidth(wc) : 1;
		row += k;
	}
	assert_int_equal(used, cell);
	return row;
}

static int64_t add_report(struct store *s, const char *subject, const char *sev,
			  const char *claimed)
{
	struct err err = { 0, "" };
	struct report_new rn = { subject, NULL, NULL, 1000, 0 };
	int64_t id;

	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_report_insert(s, &rn, &id, &err), 0);
	if (sev && strcmp(sev, "none")) {
		char *change = xasprintf("none -> %s", sev);
		unit_event(s, id, "severity", change);
		free(change);
	}
	if (claimed) {
		/* Made by the officer it names: on the team server, the
		 * login role whatever the claim says. */
		char *me = unit_pg ? store_whoami(s) : xstrdup(claimed);
		char *d = xasprintf("claimed by %s", me);

		assert_int_equal(store_event_add(s, id, me, "claim", d, &err),
				 0);
		free(d);
		free(me);
	}
	assert_int_equal(store_commit(s, &err), 0);
	return id;
}

/*
 * The report list's columns, drawn by the list view itself on a curses
 * screen of our own whose output goes to /dev/null (no terminal): each
 * row's ID, state, severity, claim and subject start under their
 * header; a claim of wide characters longer than its column is cut
 * before the character that would cross it, not pushed into the
 * subject; a subject of wide characters stops at the screen's edge; untrusted text shows as visible escapes.
 */
static void test_list_columns(void **state)
{
	static const char *const head[] = { "ID", "STATE", "SEVERITY",
					    "CLAIMED", "SUBJECT" };
	struct cmd_ctx ctx;
	struct tui tu;
	struct tui_view *v;
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	SCREEN *scr;
	char *hdr, *row;
	int col[ARRAY_SIZE(head)];

	(void)state;
	unit_ctx_init(&ctx, "list.db", NULL, NULL);
	add_report(ctx.sess->store, "UAF in tcp", "high", "olga");
	add_report(
		ctx.sess->store,
		"\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2"
		"\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97",
		"low",
		"a\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97");
	add_report(ctx.sess->store, "e \x1b[2J", "none", NULL);
	assert_non_null(out);
	assert_non_null(in);
	scr = newterm("xterm", out, in);
	assert_non_null(scr);
	resize_term(8, 60);
	memset(&tu, 0, sizeof(tu));
	tu.ctx = &ctx;
	tu.utf8 = true;
	v = view_reports_new(&tu);
	erase();
	v->ops->draw(&tu, v);

	hdr = screen_row(1);
	for (size_t i = 0; i < ARRAY_SIZE(head); i++) {
		char *p = strstr(hdr, head[i]);
		assert_non_null(p);
		col[i] = (int)(p - hdr); /* the header is ASCII */
	}
	/* Rows 2-4: the three reports, the order aside. */
	bool seen[3] = { false, false, false };
	for (int y = 2; y < 5; y++) {
		row = screen_row(y);
		int id = atoi(row);
		assert_true(id >= 1 && id <= 3);
		seen[id - 1] = true;
		/* the ID ends where its header ends */
		assert_true(row[col[0] + 1] != ' ' && row[col[0] + 2] == ' ');
		assert_memory_equal(row + col[1], "new ", 4);
		/* The claim, as the store recorded it (on the team server, the
		 * role that made the change), cut at its column's 10 cells. */
		struct report r;
		struct err err = { 0, "" };
		assert_int_equal(report_get(ctx.sess, id, &r, &err), 0);
		if (id != 2 || unit_pg) {
			char *claim = xasprintf("%.10s ",
						r.claimed_by && *r.claimed_by
							? r.claimed_by
							: "-");
			assert_memory_equal(row + col[3], claim, strlen(claim));
			free(claim);
		}
		report_release(&r);
		if (id == 1) {
			assert_memory_equal(row + col[2], "high ", 5);
			assert_string_equal(at_cell(row, col[4]), "UAF in tcp");
		} else if (id == 2) {
			assert_memory_equal(row + col[2], "low ", 4);
			/* "a" and six wide characters (13 cells) in 10: "a" and
			 * four; the fifth would cross the column's edge, so the
			 * tenth cell stays blank, then the separator */
			if (!unit_pg)
				assert_memory_equal(
					row + col[3],
					"a\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2"
					"\xe5\xad\x97  ",
					15);
			/* 8 wide characters from column 47 of 60: 6 fit */
			assert_int_equal(text_width(at_cell(row, col[4])), 12);
			assert_true(col[4] + text_width(at_cell(row, col[4])) <=
				    COLS);
		} else {
			assert_memory_equal(row + col[2], "none ", 5);
			assert_string_equal(at_cell(row, col[4]), "e ^[[2J");
		}
		free(row);
	}
	assert_true(seen[0] && seen[1] && seen[2]);
	free(hdr);
	v->ops->close(&tu, v);
	free(v);
	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
	unit_ctx_release(&ctx);
}

/* The status line keeps a long message whole, made safe: a report's
 * subject may be long, multibyte and hostile. */
static void test_status(void **state)
{
	struct tui t;
	struct sbuf sb = SBUF_INIT;

	(void)state;
	memset(&t, 0, sizeof(t));
	for (int i = 0; i < 400; i++)
		sbuf_adds(&sb, "\xc3\xa9"); /* é: 800 bytes */
	tui_status(&t, true, "subject: %s\x1b[2J", sb.buf);
	assert_true(t.status_error);
	assert_int_equal(strlen(t.status),
			 strlen("subject: ") + 800 + strlen("^[[2J"));
	assert_non_null(strstr(t.status, sb.buf));
	assert_null(strchr(t.status, 0x1b));
	tui_status_clear(&t);
	assert_null(t.status);
	assert_false(t.status_error);
	sbuf_release(&sb);
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
		cmocka_unit_test(test_key_lookup),
		cmocka_unit_test(test_binds_order),
		cmocka_unit_test(test_target_spec),
		cmocka_unit_test(test_key_rows_target),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_hanging),
		cmocka_unit_test(test_cut_log),
		cmocka_unit_test(test_text_width),
		cmocka_unit_test(test_status),
		UNIT_BOTH(test_list_columns),
	};
	if (!setlocale(LC_ALL, "C.UTF-8"))
		return 1;
	return unit_run("tui", tests, ARRAY_SIZE(tests));
}
