/* core/: the triage lifecycle, report ids, whose text speaks for the
 * reporter, exploit heuristics, senders, the lines of an opened message. */
#include "unit.h"
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "core/search.h"
#include "core/seal.h"

static void test_triage_lifecycle(void **state)
{
	(void)state;
	static const struct {
		const char *from, *to;
		int ok;
	} t[] = {
		{ "new", "triaged", 1 },	 { "new", "rejected", 1 },
		{ "new", "duplicate", 1 },	 { "new", "accepted", 0 },
		{ "new", "fixing", 0 },		 { "triaged", "accepted", 1 },
		{ "accepted", "fixing", 1 },	 { "accepted", "fix-ready", 1 },
		{ "fixing", "fix-ready", 1 },	 { "fixing", "disclosed", 0 },
		{ "fix-ready", "disclosed", 1 }, { "fix-ready", "fixing", 1 },
		{ "disclosed", "closed", 1 },	 { "disclosed", "new", 0 },
		{ "closed", "new", 0 },		 { "closed", "triaged", 0 },
		{ "rejected", "closed", 1 },	 { "duplicate", "triaged", 1 },
		{ "triaged", "triaged", 0 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct err err;
		int r = triage_check_transition(t[i].from, t[i].to, &err);
		if (t[i].ok != (r == 0))
			fail_msg("%s -> %s: got %d (%s)", t[i].from, t[i].to, r,
				 err.msg);
	}
	struct err err;
	assert_int_equal(triage_check_transition("new", "fixing", &err),
			 ERR_REFUSED);
	assert_string_equal(
		err.msg,
		"cannot go from new to fixing (from new: triaged, rejected, duplicate)");
	assert_int_equal(triage_check_transition("new", "bogus", &err),
			 ERR_INVALID);
	assert_true(triage_severity_valid("critical"));
	assert_false(triage_severity_valid("urgent"));
	assert_true(report_finished("rejected"));
	assert_false(report_finished("fixing"));
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
		bool matches; /* signer matches From */
		bool signed_by_reporter;
	} rows[] = {
		{ "rita@example.net", SIG_VALID, true, true },
		{ "RITA@example.net", SIG_GOOD, true, true },
		{ "rita@example.net", SIG_GOOD, false,
		  false }, /* another key */
		{ "rita@example.net", SIG_NOT_SIGNED, false,
		  false }, /* a spoof */
		{ "rita@example.net", SIG_PARTIAL, true, false },
		{ "rita@example.net", SIG_UNKNOWN_KEY, false, false },
		{ "rita@example.net", SIG_BAD, true, false },
		{ "sam@example.com", SIG_VALID, true,
		  false }, /* a third party */
		{ "sam@example.com", SIG_NOT_SIGNED, false, false },
		{ NULL, SIG_VALID, true, false },
	};
	struct report r = { .reporter_email = (char *)"rita@example.net" };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct message m = { .from_email = (char *)rows[i].from,
				     .verdict = rows[i].v,
				     .signer_matches_from = rows[i].matches };
		if (report_reporter_signed(&r, &m) !=
		    rows[i].signed_by_reporter)
			fail_msg("row %zu: want %d", i,
				 rows[i].signed_by_reporter);
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

/* The save prompt's offer and where a typed name goes: a mail's name
 * never climbs out of the folder, hides itself or names a device. */
static void test_save_names(void **state)
{
	static const struct {
		const char *in, *want;
	} names[] = {
		{ "pipapo-poc.c", "pipapo-poc.c" },
		{ "../../.bashrc", "bashrc" },
		{ "C:\\Users\\x\\evil name.c", "evil_name.c" },
		{ "..", "attachment-3" },
		{ "", "attachment-3" },
		{ NULL, "attachment-3" },
		{ "a\x1b[2Jb\xc3\xa9.txt", "a__2Jb__.txt" },
		{ "/etc/passwd", "passwd" },
	};
	char *s;

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		s = attachment_safe_name(names[i].in, 3);
		assert_string_equal(s, names[i].want);
		free(s);
	}
	setenv("HOME", "/home/o", 1);
	s = attachment_save_path("~/", "poc.c");
	assert_string_equal(s, "/home/o/poc.c");
	free(s);
	s = attachment_save_path(NULL, "~/x/poc.c");
	assert_string_equal(s, "/home/o/x/poc.c");
	free(s);
	s = attachment_save_path("~/Downloads", "sub/poc.c");
	assert_string_equal(s, "/home/o/Downloads/sub/poc.c");
	free(s);
	s = attachment_save_path("/srv/dl/", "/tmp/abs.c");
	assert_string_equal(s, "/tmp/abs.c");
	free(s);
	s = attachment_save_path("~other", "p.c");
	assert_string_equal(s, "~other/p.c");
	free(s);
}

/* One language for search, list and the UI's filter: state: and
 * severity: terms (state= and severity= the same), answered from a
 * report's row when nothing else is asked. */
static void test_query_fields(void **state)
{
	struct search_query q;
	struct err err = { 0, "" };

	(void)state;
	assert_int_equal(
		search_parse("state=new severity:high,critical", &q, &err), 0);
	assert_true(search_fields_only(&q));
	assert_true(search_state_matches(&q, "new", "high"));
	assert_true(search_state_matches(&q, "new", "critical"));
	assert_false(search_state_matches(&q, "new", "low"));
	assert_false(search_state_matches(&q, "triaged", "high"));
	search_query_release(&q);
	assert_int_equal(search_parse("state:open", &q, &err), 0);
	assert_true(search_state_matches(&q, "fixing", "none"));
	assert_false(search_state_matches(&q, "closed", "none"));
	search_query_release(&q);
	assert_int_equal(search_parse("state:open overflow", &q, &err), 0);
	assert_false(search_fields_only(&q));
	search_query_release(&q);
	assert_int_equal(search_parse("severity=bogus", &q, &err), ERR_INVALID);
	assert_non_null(strstr(err.msg, "unknown severity 'bogus'"));
	search_query_release(&q);
	/* '=' is no synonym for other keys: a word, as before. */
	assert_int_equal(search_parse("from=rita", &q, &err), 0);
	assert_int_equal(q.nwords, 1);
	search_query_release(&q);
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
		{ "manager@corp.example", "eve@corp.example",
		  SENDER_NAME_ADDRESS },
		{ "Manager <manager@corp>", "eve@corp", SENDER_NAME_ADDRESS },
		{ "RITA@example.net", "rita@example.net", 0 },
		{ "rita@example.net (via list)", "rita@example.net", 0 },
		{ "boss\xef\xbc\xa0"
		  "corp",
		  "eve@corp", SENDER_NAME_ADDRESS },
		{ "boss\xef\xb9\xab"
		  "corp",
		  "eve@corp", SENDER_NAME_ADDRESS },
		{ "a @ b", "eve@corp", 0 },
		{ "Rita\xc2\xa0Reporter", "rita@example.net",
		  SENDER_NAME_INVISIBLE },
		{ "Rita\xe2\x80\x8aReporter", "rita@example.net",
		  SENDER_NAME_INVISIBLE },
		{ "Rita\xe3\x80\x80", "rita@example.net",
		  SENDER_NAME_INVISIBLE },
		{ "Rita\xe2\xa0\x80", "rita@example.net",
		  SENDER_NAME_INVISIBLE },
		{ "x@y.z\xc2\xa0", "rita@example.net",
		  SENDER_NAME_ADDRESS | SENDER_NAME_INVISIBLE },
		{ "Rita", NULL, SENDER_NO_ADDRESS },
		{ "Ren\xc3\xa9"
		  "e",
		  "renee@example.net", 0 },
	};
	char *s;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		unsigned got = sender_flags(t[i].name, t[i].email);
		if (got != t[i].want)
			fail_msg("sender_flags(\"%s\", \"%s\") = %u, want %u",
				 t[i].name ? t[i].name : "(null)",
				 t[i].email ? t[i].email : "(null)", got,
				 t[i].want);
	}
	s = sender_format("manager@corp\xc2\xa0\xc2\xa0\x1b[2J", "eve@corp");
	assert_string_equal(s,
			    "eve@corp  [!] display name holds another address"
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
	assert_true(sender_name_fits("R. Reporter (via oss-security)",
				     "Rita Reporter"));
	assert_true(sender_name_fits("  ", "Rita Reporter"));
	assert_true(sender_name_fits("J\xc3\xbcrgen",
				     "J\xc3\xbcrgen M\xc3\xbcller"));
	assert_false(sender_name_fits("The Manager", "Evil Eve"));
	assert_false(sender_name_fits("The Manager", NULL));
	assert_false(sender_name_fits("Ritaa", "Rita Reporter"));
}

/* Lines of an opened body and which lie in the unsigned spans. */

static void test_opened_lines(void **state)
{
	char body[] = "signed\nunsigned 1\nunsigned 2\nsigned again\nlast";
	struct text_span sp[] = { { 7, 29 } };
	struct opened_message om = { .body = body,
				     .body_len = sizeof(body) - 1,
				     .unsigned_spans = sp,
				     .nunsigned = 1 };
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

/* search_parse: words, phrases and keys, and the refusals naming the
 * bad part. */
/* The keyed form a stored message opens to: its session keys, then the
 * message as received, byte for byte; anything else is refused by name. */
static void test_keyed_form(void **state)
{
	(void)state;
	char *keys[] = { (char *)"9:0011AAff", NULL, (char *)"7:FEED" };
	const char raw[] = "From: a@b\r\n\r\nsecteam-session-keys 1\n-\n\0x";
	char **got = NULL, *buf;
	const char *msg;
	size_t n, len, mlen;
	struct err err = { 0, "" };

	buf = seal_keyed(keys, 3, raw, sizeof(raw) - 1, &len);
	assert_int_equal(seal_keyed_open(buf, len, &got, &n, &msg, &mlen, &err),
			 0);
	assert_int_equal(n, 3);
	assert_string_equal(got[0], "9:0011AAff");
	assert_null(got[1]);
	assert_string_equal(got[2], "7:FEED");
	assert_int_equal(mlen, sizeof(raw) - 1);
	assert_memory_equal(msg, raw, mlen);
	seal_keys_free(got, n);
	free(buf);

	static const struct {
		const char *in, *why;
	} bad[] = {
		{ "From: a@b\r\n\r\nhi", "no session keys" },
		{ "secteam-session-keys \n", "damaged count" },
		{ "secteam-session-keys 2x\n", "damaged count" },
		{ "secteam-session-keys 99999999999999999999999\n",
		  "damaged count" },
		{ "secteam-session-keys 5000\n", "over 4096" },
		{ "secteam-session-keys 2\n9:AB\n",
		  "session key 2 is damaged" },
		{ "secteam-session-keys 1\n9:XYZ\n",
		  "session key 1 is damaged" },
		{ "secteam-session-keys 1\n:AB\n", "session key 1 is damaged" },
		{ "secteam-session-keys 1\n9:\n", "session key 1 is damaged" },
		{ "secteam-session-keys 1\n--\n", "session key 1 is damaged" },
	};
	/* A NUL is no hex digit (fuzz-keyed found it taken for one). */
	static const char nul[] = "secteam-session-keys 1\n9:\0AB\n";
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		err.msg[0] = '\0';
		assert_int_equal(seal_keyed_open(bad[i].in, strlen(bad[i].in),
						 &got, &n, &msg, &mlen, &err),
				 ERR_INVALID);
		assert_null(got);
		if (!strstr(err.msg, bad[i].why))
			fail_msg("case %zu: %s", i, err.msg);
	}
	assert_int_equal(seal_keyed_open(nul, sizeof(nul) - 1, &got, &n, &msg,
					 &mlen, &err),
			 ERR_INVALID);
	assert_non_null(strstr(err.msg, "session key 1 is damaged"));
}

static void test_search_parse(void **state)
{
	static const struct {
		const char *q;
		int ok;
		const char *words; /* joined with '|' */
		time_t after, before;
		const char *err;
	} t[] = {
		{ "Overflow  NET", 1, "overflow|net", 0, 0, NULL },
		{ "\"Use  After\tFree\" x", 1, "use after free|x", 0, 0, NULL },
		{ "file:net/sctp from:\"Rita R\" state:new,open", 1, "", 0, 0,
		  NULL },
		{ "received:2026-11-01..2026-11-30", 1, "", 1793491200,
		  1796083200, NULL },
		{ "received:2026-11-01", 1, "", 1793491200, 1793577600, NULL },
		{ "received:..2026-11-01", 1, "", 0, 1793577600, NULL },
		{ "received:2026-11-01..", 1, "", 1793491200, 0, NULL },
		{ "http://example.org/x", 1, "http://example.org/x", 0, 0,
		  NULL },
		{ "Subject:\"Heap  Overflow\" x", 1, "x", 0, 0, NULL },
		{ "subject:", 0, NULL, 0, 0, "subject: needs a value" },
		{ "received:2026-12-01..2026-11-01", 0, NULL, 0, 0,
		  "ends before it starts" },
		{ "received:2026-13-01", 0, NULL, 0, 0, "is not a date range" },
		{ "received:..", 0, NULL, 0, 0, "is not a date range" },
		{ "state:bogus", 0, NULL, 0, 0, "unknown state 'bogus'" },
		{ "\"unclosed", 0, NULL, 0, 0, "unclosed quote" },
		{ "file:", 0, NULL, 0, 0, "file: needs a value" },
		{ "   ", 0, NULL, 0, 0, "an empty query" },
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct search_query q;
		struct err err = { 0, "" };
		int r = search_parse(t[i].q, &q, &err);

		if (t[i].ok != (r == 0))
			fail_msg("'%s': %d (%s)", t[i].q, r, err.msg);
		if (r == 0) {
			struct sbuf sb = SBUF_INIT;
			for (size_t k = 0; k < q.nwords; k++)
				sbuf_addf(&sb, "%s%s", k ? "|" : "",
					  q.words[k]);
			assert_string_equal(sb.buf ? sb.buf : "", t[i].words);
			sbuf_release(&sb);
			assert_int_equal(q.after, t[i].after);
			assert_int_equal(q.before, t[i].before);
			if (strstr(t[i].q, "Subject:")) {
				assert_int_equal(q.nsubjects, 1);
				assert_string_equal(q.subjects[0],
						    "heap overflow");
			}
		} else {
			assert_non_null(strstr(err.msg, t[i].err));
		}
		search_query_release(&q);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reporter_signed),
		cmocka_unit_test(test_keyed_form),
		cmocka_unit_test(test_triage_lifecycle),
		cmocka_unit_test(test_report_id),
		cmocka_unit_test(test_exploit_heuristic),
		cmocka_unit_test(test_save_names),
		cmocka_unit_test(test_query_fields),
		cmocka_unit_test(test_sender_flags),
		cmocka_unit_test(test_opened_lines),
		cmocka_unit_test(test_search_parse),
	};
	return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
