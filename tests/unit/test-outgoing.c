/* outgoing/: template filling, and the header-safe pieces every mail
 * is built from (send.h). */
#include "unit.h"
#include "core/core.h"
#include "outgoing/outgoing.h"
#include "outgoing/send.h"

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

	assert_int_equal(template_fill("t", "#{id} by {officer} {{x}", f, 3,
				       &out, &err),
			 0);
	assert_string_equal(out, "#7 by Olga {x}");
	free(out);
	assert_int_equal(template_fill("ack", "hi {nope} there", f, 3, &out,
				       &err),
			 ERR_INVALID);
	assert_null(out);
	assert_non_null(
		strstr(err.msg, "template 'ack': unknown field '{nope}'"));
	assert_int_equal(template_fill("ack", "open {id", f, 3, &out, &err),
			 ERR_INVALID);
	assert_int_equal(template_fill("fixed", "{fix_commit}", f, 3, &out,
				       &err),
			 ERR_REFUSED);
	assert_string_equal(err.msg,
			    "template 'fixed' uses {fix_commit}, but report 7 "
			    "has no fix commit recorded");
}

static void test_one_line_and_mailbox(void **state)
{
	char *s;

	(void)state;
	/* Controls become spaces: a subject cannot add a header line. */
	s = outgoing_one_line("Re: x\r\nBcc: eve@evil.example");
	assert_null(strchr(s, '\n'));
	assert_null(strchr(s, '\r'));
	assert_non_null(strstr(s, "Bcc: eve@evil.example"));
	free(s);
	/* A name with specials is quoted, quotes in it escaped. */
	s = outgoing_mailbox("Doe, \"J\"", "j@x.example");
	assert_string_equal(s, "\"Doe, \\\"J\\\"\" <j@x.example>");
	free(s);
	s = outgoing_mailbox(NULL, "j@x.example");
	assert_string_equal(s, "j@x.example");
	free(s);
	/* Only a plain Message-ID (without its brackets) goes into
	 * In-Reply-To and References: no blank, control, bracket. */
	assert_true(outgoing_msgid_ok("a.b@x.example"));
	assert_false(outgoing_msgid_ok("a b@x"));
	assert_false(outgoing_msgid_ok("<a@x>"));
	assert_false(outgoing_msgid_ok("a@x\r\nBcc: e@x"));
	assert_false(outgoing_msgid_ok(""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_template_fill),
		cmocka_unit_test(test_one_line_and_mailbox),
	};
	return cmocka_run_group_tests_name("outgoing", tests, NULL, NULL);
}
