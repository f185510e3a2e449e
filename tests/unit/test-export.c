/* The exporters (export/NAME.c) through the table of export/export.c, and the redaction in
 * disclosure.c, on in-memory dossiers (no database): quoting, escaping,
 * redaction, ICS structure. */
#include <libical/ical.h>

#include "unit.h"
#include "core/core.h"
#include "export/export.h"

static struct event ev[3];
static struct message msg;
static struct decision dec;

static void make(struct dossier *d, bool consent)
{
	memset(d, 0, sizeof(*d));
	d->f.r.id = 7;
	d->f.r.subject = (char *)"Leak \xe2\x80\xae"
				 "by Rita Reporter, \"x\"";
	d->f.r.reporter_name = (char *)"Rita Reporter";
	d->f.r.reporter_email = (char *)"rita@example.net";
	d->f.r.state = (char *)"fixing";
	d->f.r.severity = (char *)"high";
	d->f.r.received = 1796112000; /* 2026-12-01T08:00:00Z */
	d->f.r.consent_credit = consent;
	d->f.r.disclosure = 1796112000 + 7 * 86400;
	msg.from_email = (char *)"RITA@example.net";
	msg.from_name = (char *)"R. Reporter";
	msg.fingerprint = (char *)"656453E231B0775CB77F93618E772EF968537D8B";
	d->f.msgs = &msg;
	d->f.nmsgs = 1;
	ev[0] = (struct event){
		1,
		7,
		1796112000,
		(char *)"olga",
		(char *)"import",
		(char *)"report from rita@EXAMPLE.net, key 656453E231B0775CB77F93618E772EF968537D8B",
		0,
		NULL
	};
	ev[1] = (struct event){
		2,
		7,
		1796112060,
		(char *)"olga",
		(char *)"note",
		(char *)"=1+1, \"quoted\"\r\nEND:VEVENT R. Reporter",
		0,
		NULL
	};
	ev[2] = (struct event){ 3,
				7,
				1796112120,
				(char *)"olga",
				(char *)"date-set",
				(char *)"-cmd",
				0,
				NULL };
	d->f.events = ev;
	d->f.nevents = 3;
	dec = (struct decision){ 1,    7,     d->f.r.disclosure, (char *)"ok",
				 NULL, false, (char *)"olga",	 1796112120 };
	d->decisions = &dec;
	d->ndecisions = 1;
	d->pol = (struct policy){ 7, 14 };
	d->now = 1796112120;
	policy_check(&d->pol, &d->f.r, d->f.r.disclosure, false, false, d->now,
		     &d->ans);
}

/* The write function of format name, from the table. */
static export_fn exporter(const char *name)
{
	const struct exporter *e = export_find(name);

	assert_non_null(e);
	return e->write;
}

static char *run_opts(export_fn fn, struct dossier *d, bool with_notes)
{
	struct cmd_ctx ctx;
	struct export_opts o = { NULL, with_notes, stderr };
	struct err err = { 0, "" };
	struct dossier *list[1] = { d };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	unit_ctx_init(&ctx, NULL, NULL, stderr);
	assert_int_equal(fn(ctx.sess, f, list, 1, &o, &err), 0);
	fclose(f);
	unit_ctx_release(&ctx);
	return buf;
}

static char *run(export_fn fn, struct dossier *d)
{
	return run_opts(fn, d, false);
}

static void test_redact(void **state)
{
	(void)state;
	struct dossier d;
	char *t;

	make(&d, false);
	t = dossier_redact(&d, ev[0].detail);
	assert_string_equal(t, "report from [reporter], key [reporter's key]");
	free(t);
	t = dossier_text(&d, d.f.r.subject);
	assert_string_equal(t, "Leak <U+202E>by [reporter], \"x\"");
	free(t);
	assert_null(dossier_reporter(&d));
	make(&d, true);
	t = dossier_redact(&d, ev[0].detail);
	assert_string_equal(t, ev[0].detail);
	free(t);
	t = dossier_reporter(&d);
	assert_string_equal(t, "Rita Reporter <rita@example.net>");
	free(t);
}

static void test_csv(void **state)
{
	(void)state;
	struct dossier d;
	char *out;

	make(&d, false);
	out = run_opts(exporter("csv"), &d, true);
	assert_string_equal(
		out,
		"report,at,officer,kind,detail\r\n"
		"7,\"2026-12-01T08:00:00Z\",\"olga\",\"import\",\"report from [reporter], key [reporter's key]\"\r\n"
		"7,\"2026-12-01T08:01:00Z\",\"olga\",\"note\",\"'=1+1, \"\"quoted\"\"^M^JEND:VEVENT [reporter]\"\r\n"
		"7,\"2026-12-01T08:02:00Z\",\"olga\",\"date-set\",\"'-cmd\"\r\n");
	free(out);
	/* Without --with-notes the note is not there at all. */
	out = run(exporter("csv"), &d);
	assert_string_equal(
		out,
		"report,at,officer,kind,detail\r\n"
		"7,\"2026-12-01T08:00:00Z\",\"olga\",\"import\",\"report from [reporter], key [reporter's key]\"\r\n"
		"7,\"2026-12-01T08:02:00Z\",\"olga\",\"date-set\",\"'-cmd\"\r\n");
	free(out);
}

static void test_md(void **state)
{
	(void)state;
	struct dossier d;
	char *out;

	make(&d, false);
	out = run(exporter("md"), &d);
	assert_non_null(strstr(
		out,
		"# Report 7: Leak \\<U+202E\\>by \\[reporter\\], \"x\"\n"));
	assert_non_null(strstr(
		out, "- **Reporter:** withheld (no consent to credit)\n"));
	assert_null(strstr(out, "Rita"));
	assert_null(strstr(out, "\r"));
	assert_null(strstr(out, "quoted"));
	free(out);
	out = run_opts(exporter("md"), &d, true);
	assert_non_null(strstr(out, "**note**: =1+1, \"quoted\""));
	free(out);
}

/* A thread: the report from "jdoe", a reply from their other address
 * signed by the same key, a maintainer's reply signed by another key. */
static struct message thread[3];

static void make_thread(struct dossier *d)
{
	make(d, false);
	d->f.r.reporter_name = (char *)"jdoe";
	d->f.r.reporter_email = (char *)"jdoe@acme-secret.io";
	thread[0] = (struct message){
		.id = 1,
		.message_id = (char *)"abc.1@mx1.acme-secret.io",
		.from_name = (char *)"jdoe",
		.from_email = (char *)"jdoe@acme-secret.io",
		.fingerprint =
			(char *)"656453E231B0775CB77F93618E772EF968537D8B"
	};
	thread[1] = (struct message){
		.id = 2,
		.message_id = (char *)"x9@jdoe-laptop.home-lan.example",
		.from_name = (char *)"Johanna Doevenbrook",
		.from_email = (char *)"johanna.doevenbrook@fastmail.example",
		.fingerprint = (char *)"8E772EF968537D8B"
	};
	thread[2] = (struct message){
		.id = 3,
		.message_id = (char *)"m1@kernel.example",
		.from_name = (char *)"Mia Maintainer",
		.from_email = (char *)"mia@kernel.example",
		.fingerprint =
			(char *)"AAAA53E231B0775CB77F93618E772EF968537AAA"
	};
	d->f.msgs = thread;
	d->f.nmsgs = 3;
}

static void redacted(const struct dossier *d, const char *in, const char *want)
{
	char *t = dossier_redact(d, in);

	assert_string_equal(t, want);
	free(t);
}

static void test_redact_reporter(void **state)
{
	(void)state;
	struct dossier d;

	make_thread(&d);
	/* The address before the name: no "[reporter]@acme-secret.io". */
	redacted(&d, "jdoe <jdoe@acme-secret.io>", "[reporter] <[reporter]>");
	redacted(&d, "JDOE@ACME-SECRET.IO wrote", "[reporter] wrote");
	/* The domain alone, and a host under it. */
	redacted(
		&d, "a colleague at acme-secret.io, mail.acme-secret.io",
		"a colleague at [reporter's domain], mail.[reporter's domain]");
	/* The other address, signed by the same key (its long key ID). */
	redacted(
		&d,
		"reply from johanna.doevenbrook@fastmail.example (Johanna Doevenbrook)",
		"reply from [reporter] ([reporter])");
	redacted(&d, "Doevenbrook said", "[reporter] said");
	/* The name's words run together, as handles and paths have them. */
	redacted(&d, "tools/testing/selftests/johannadoevenbrook/x.c",
		 "tools/testing/selftests/[reporter]/x.c");
	redacted(&d, "johanna_doevenbrook, Johanna-Doevenbrook",
		 "[reporter], [reporter]");
	/* Message-IDs and the hosts in them. */
	redacted(&d, "In-Reply-To: <abc.1@mx1.acme-secret.io>",
		 "In-Reply-To: <[reporter's message]>");
	redacted(&d, "sent from jdoe-laptop.home-lan.example",
		 "sent from [reporter's domain]");
	redacted(
		&d,
		"key 656453E231B0775CB77F93618E772EF968537D8B, id 8E772EF968537D8B",
		"key [reporter's key], id [reporter's key]");
	/* A word of the name is redacted where it is written as a name, not
	 * where it is an ordinary word ("reporter talk"); a handle
	 * (an address's local part) however it is written. */
	redacted(
		&d, "Johanna found it; johanna said; JDOE and jdoe",
		"[reporter] found it; johanna said; [reporter] and [reporter]");
	/* Whole words only; the maintainer is not the reporter. */
	redacted(&d, "jdoex and fastmail.example.org and mia@kernel.example",
		 "jdoex and [reporter's domain].org and mia@kernel.example");
	assert_true(dossier_from_reporter(&d, &thread[0]));
	assert_true(dossier_from_reporter(&d, &thread[1]));
	assert_false(dossier_from_reporter(&d, &thread[2]));
	/* With consent nothing changes. */
	d.f.r.consent_credit = true;
	redacted(&d, "jdoe <jdoe@acme-secret.io>",
		 "jdoe <jdoe@acme-secret.io>");
}

/* The JSON export: no Message-ID, address, name or domain of the
 * reporter's, no note; the maintainer's own Message-ID stays. */
static void test_json_reporter(void **state)
{
	(void)state;
	struct dossier d;
	struct cmd_ctx ctx;
	struct export_opts o = { NULL, false, stderr };
	struct err err = { 0, "" };
	struct dossier *list[1] = { &d };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	static const char *const gone[] = {
		"jdoe",	  "acme-secret", "johanna",  "Doevenbrook", "fastmail",
		"abc.1@", "x9@",	 "home-lan", "656453E2",    "quoted",
	};

	make_thread(&d);
	/* The participants and vendors of show --json come from a store: an
	 * empty one of our own (on the engine under test), never the
	 * default database. */
	unit_ctx_init(&ctx, "json-reporter.db", NULL, stderr);
	f = open_memstream(&buf, &len);
	assert_int_equal(exporter("json")(ctx.sess, f, list, 1, &o, &err), 0);
	fclose(f);
	unit_ctx_release(&ctx);
	for (size_t i = 0; i < sizeof(gone) / sizeof(gone[0]); i++)
		if (strcasestr(buf, gone[i]))
			fail_msg("'%s' in the JSON export:\n%s", gone[i], buf);
	assert_non_null(strstr(buf, "\"message_id\": \"m1@kernel.example\""));
	assert_non_null(strstr(buf, "\"from\": \"mia@kernel.example\""));
	free(buf);
}

static void test_ics(void **state)
{
	(void)state;
	struct dossier d;
	icalcomponent *cal;
	int n = 0;
	char *out;

	make(&d, false);
	out = run(exporter("ics"), &d);
	cal = icalparser_parse_string(out);
	assert_non_null(cal);
	for (icalcomponent *c = icalcomponent_get_first_component(
		     cal, ICAL_VEVENT_COMPONENT);
	     c;
	     c = icalcomponent_get_next_component(cal, ICAL_VEVENT_COMPONENT))
		n++;
	assert_int_equal(n, 3);
	assert_non_null(
		strstr(out, "UID:report-7-disclosure@secteam.invalid\r\n"));
	assert_non_null(strstr(out, "TRIGGER:-P1D\r\n"));
	assert_non_null(strstr(out, "DTSTART;VALUE=DATE:20261208\r\n"));
	assert_non_null(strstr(out, "DTSTART;VALUE=DATE:20261215\r\n"));
	icalcomponent_free(cal);
	free(out);
}

/* The table: every row complete, names unique and found, doc text the
 * man page can take (one line, `bold` spans closed). */
static void test_registry(void **state)
{
	(void)state;
	assert_true(export_table_len >= 6);
	for (size_t i = 0; i < export_table_len; i++) {
		const struct exporter *e = export_table[i];
		size_t ticks = 0;

		assert_non_null(e);
		assert_non_null(e->write);
		assert_true(e->name && *e->name);
		assert_int_equal(strspn(e->name, "abcdefghijklmnopqrstuvwxyz"),
				 strlen(e->name));
		assert_true(e->ext && *e->ext && e->ext[0] != '.');
		assert_true(e->summary && *e->summary &&
			    !strchr(e->summary, '\n'));
		assert_true(e->doc && *e->doc && !strchr(e->doc, '\n'));
		for (const char *p = e->doc; *p; p++)
			ticks += *p == '`';
		assert_int_equal(ticks % 2, 0);
		assert_ptr_equal(export_find(e->name), e);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(export_table[j]->name, e->name);
	}
	assert_null(export_find("pdf"));
	assert_null(export_find(""));
	assert_null(export_find("MD"));
}

/* What `export` says of its formats comes from the table: the usage
 * lists each with its extension and summary, an unknown format's error
 * names them all, the man page's list has a paragraph for each. */
static void test_registry_texts(void **state)
{
	(void)state;
	struct cmd_ctx ctx;
	char *usage = NULL, *roff = NULL, *names = export_names(", ");
	size_t ulen = 0, rlen = 0;
	char *bad[] = { (char *)"export", (char *)"1", (char *)"--format",
			(char *)"pdf", NULL };
	char *none[] = { (char *)"export", (char *)"1", NULL };
	char *want;
	FILE *f;

	unit_ctx_init(&ctx, NULL, stdout, open_memstream(&usage, &ulen));
	assert_int_equal(cmd_run(&ctx, 4, bad), CMD_USAGE);
	assert_int_equal(cmd_run(&ctx, 2, none), CMD_USAGE);
	fclose(ctx.errout);
	unit_ctx_release(&ctx);
	/* the option's check refuses it, naming the command and the option */
	want = xasprintf(
		"secteam-tui export: --format: unknown export format 'pdf' (%s)\n",
		names);
	assert_non_null(strstr(usage, want));
	free(want);
	assert_non_null(strstr(usage, "usage: secteam-tui export "));
	assert_non_null(strstr(usage, "--format FORMAT"));
	f = open_memstream(&roff, &rlen);
	export_roff(f);
	fclose(f);
	for (size_t i = 0; i < export_table_len; i++) {
		const struct exporter *e = export_table[i];
		char *line = xasprintf("\n  %-6s .%-5s %s\n", e->name, e->ext,
				       e->summary);
		char *tag =
			xasprintf(".TP\n.BR %s \" (.%s)\"\n", e->name, e->ext);

		if (!strstr(usage, line))
			fail_msg("the usage does not list %s:\n%s", e->name,
				 usage);
		assert_non_null(strstr(roff, tag));
		assert_null(strstr(strstr(roff, tag) + 1, tag));
		assert_non_null(strstr(names, e->name));
		free(line);
		free(tag);
	}
	free(names);
	free(usage);
	free(roff);
}

/* The man page's text: `spans` bold, minus signs escaped, hyphens
 * joining words kept, a line that would start a request escaped. */
static void test_registry_roff(void **state)
{
	(void)state;
	char *roff = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&roff, &len);

	export_roff(f);
	fclose(f);
	assert_non_null(strstr(roff, "\\fB\\-\\-cve\\-id\\fR"));
	assert_non_null(strstr(roff, "= + \\- @"));
	assert_non_null(strstr(roff, "all-day"));
	assert_null(strstr(roff, "`"));
	for (const char *l = roff; *l; l = strchr(l, '\n') + 1)
		if (*l == '.')
			assert_true(!strncmp(l, ".TP\n", 4) ||
				    !strncmp(l, ".BR ", 4));
	free(roff);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_redact),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_md),
		cmocka_unit_test(test_ics),
		cmocka_unit_test(test_redact_reporter),
		UNIT_BOTH(test_json_reporter),
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_registry_texts),
		cmocka_unit_test(test_registry_roff),
	};
	return unit_run("export", tests, ARRAY_SIZE(tests));
}
