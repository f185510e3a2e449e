/* core/policy.c: the embargo policy at its edges, table-driven.
 * Days are UTC calendar days from the clock start; the DST rows run with
 * TZ=Europe/Berlin to show a local DST change does not move a limit. */
#include <time.h>

#include "unit.h"
#include "core/core.h"

static time_t at(const char *s)
{
	time_t t;
	struct err err = { 0, "" };

	if (parse_date(s, 0, &t, &err) < 0)
		fail_msg("%s", err.msg);
	return t;
}

struct row {
	const char *what;
	const char *received;
	const char *release_started; /* or NULL */
	bool public;
	const char *proposed; /* absolute, or relative to received */
	bool reason, override;
	enum policy_verdict want;
	bool allowed;
	long days;
};

static const struct row rows[] = {
	{ "day 0", "2026-12-01T10:00Z", NULL, false, "2026-12-01T18:00Z", false,
	  false, POLICY_OK, true, 0 },
	{ "day 7 first minute", "2026-12-01T10:00Z", NULL, false,
	  "2026-12-08T00:00Z", false, false, POLICY_OK, true, 7 },
	{ "day 7 last minute", "2026-12-01T10:00Z", NULL, false,
	  "2026-12-08T23:59Z", false, false, POLICY_OK, true, 7 },
	{ "day 7 as +7d", "2026-12-01T10:00Z", NULL, false, "+7d", false, false,
	  POLICY_OK, true, 7 },
	{ "day 8 without reason", "2026-12-01T10:00Z", NULL, false,
	  "2026-12-09T00:00Z", false, false, POLICY_NEEDS_REASON, false, 8 },
	{ "day 8 with reason", "2026-12-01T10:00Z", NULL, false, "2026-12-09",
	  true, false, POLICY_NEEDS_REASON, true, 8 },
	{ "day 8 override is not a reason", "2026-12-01T10:00Z", NULL, false,
	  "2026-12-09", false, true, POLICY_NEEDS_REASON, false, 8 },
	{ "day 14 without reason", "2026-12-01T10:00Z", NULL, false,
	  "2026-12-15T23:59Z", false, false, POLICY_NEEDS_REASON, false, 14 },
	{ "day 14 with reason", "2026-12-01T10:00Z", NULL, false, "2026-12-15",
	  true, false, POLICY_NEEDS_REASON, true, 14 },
	{ "day 15 refused", "2026-12-01T10:00Z", NULL, false,
	  "2026-12-16T00:00Z", false, false, POLICY_REFUSED, false, 15 },
	{ "day 15 reason only", "2026-12-01T10:00Z", NULL, false, "2026-12-16",
	  true, false, POLICY_REFUSED, false, 15 },
	{ "day 15 override only", "2026-12-01T10:00Z", NULL, false,
	  "2026-12-16", false, true, POLICY_REFUSED, false, 15 },
	{ "day 15 override and reason", "2026-12-01T10:00Z", NULL, false,
	  "2026-12-16", true, true, POLICY_REFUSED, true, 15 },
	{ "before the clock start", "2026-12-01T10:00Z", NULL, false,
	  "2026-11-30", false, false, POLICY_OK, true, -1 },
	{ "release start moves the clock", "2026-11-01T10:00Z",
	  "2026-12-01T09:00Z", false, "2026-12-08", false, false, POLICY_OK,
	  true, 7 },
	{ "release start: day 8", "2026-11-01T10:00Z", "2026-12-01T09:00Z",
	  false, "2026-12-09", false, false, POLICY_NEEDS_REASON, false, 8 },
	/* already public: now is the policy date (now = received + 3d below) */
	{ "public: today", "2026-12-01T10:00Z", NULL, true, "+3d", false, false,
	  POLICY_PUBLIC, true, 3 },
	{ "public: earlier", "2026-12-01T10:00Z", NULL, true, "2026-12-02",
	  false, false, POLICY_PUBLIC, true, 1 },
	{ "public: later refused", "2026-12-01T10:00Z", NULL, true, "+5d", true,
	  false, POLICY_PUBLIC, false, 5 },
	{ "public: later overridden", "2026-12-01T10:00Z", NULL, true, "+5d",
	  true, true, POLICY_PUBLIC, true, 5 },
	/* weeks across the 2026-10-25 DST change in Europe/Berlin */
	{ "dst: +7d", "2026-10-20T12:00Z", NULL, false, "+7d", false, false,
	  POLICY_OK, true, 7 },
	{ "dst: +8d", "2026-10-20T12:00Z", NULL, false, "+8d", false, false,
	  POLICY_NEEDS_REASON, false, 8 },
	{ "dst: +14d", "2026-10-20T12:00Z", NULL, false, "+14d", true, false,
	  POLICY_NEEDS_REASON, true, 14 },
	{ "dst: +15d", "2026-10-20T12:00Z", NULL, false, "+15d", false, false,
	  POLICY_REFUSED, false, 15 },
	/* received 00:30 local (CEST) = previous UTC day; limit at UTC midnight */
	{ "dst: local past midnight, utc day 7", "2026-10-20T22:30Z", NULL,
	  false, "2026-10-27T23:30Z", false, false, POLICY_OK, true, 7 },
	{ "dst: utc day 8", "2026-10-20T22:30Z", NULL, false,
	  "2026-10-28T00:30Z", false, false, POLICY_NEEDS_REASON, false, 8 },
	{ "dst spring: +7d", "2027-03-25T12:00Z", NULL, false, "+7d", false,
	  false, POLICY_OK, true, 7 },
	{ "dst spring: +15d", "2027-03-25T12:00Z", NULL, false, "+15d", false,
	  false, POLICY_REFUSED, false, 15 },
	/* 29 February */
	{ "leap: 02-22 to 02-29 is day 7", "2028-02-22T12:00Z", NULL, false,
	  "2028-02-29", false, false, POLICY_OK, true, 7 },
	{ "leap: 02-22 to 03-01 is day 8", "2028-02-22T12:00Z", NULL, false,
	  "2028-03-01", false, false, POLICY_NEEDS_REASON, false, 8 },
	{ "leap: from 02-29, day 7", "2028-02-29T12:00Z", NULL, false,
	  "2028-03-07", false, false, POLICY_OK, true, 7 },
	{ "leap: from 02-29, day 14", "2028-02-29T12:00Z", NULL, false,
	  "2028-03-14", true, false, POLICY_NEEDS_REASON, true, 14 },
	{ "leap: from 02-29, day 15", "2028-02-29T12:00Z", NULL, false,
	  "2028-03-15", true, false, POLICY_REFUSED, false, 15 },
	{ "leap: across 02-29 by +15d", "2028-02-20T12:00Z", NULL, false,
	  "+15d", false, false, POLICY_REFUSED, false, 15 },
};

static void test_policy_table(void **state)
{
	(void)state;
	const struct policy p = { 7, 14 };

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct row *w = &rows[i];
		struct report r;
		struct policy_answer a;
		time_t received = at(w->received), now = received + 3 * 86400,
		       proposed;
		struct err err = { 0, "" };

		memset(&r, 0, sizeof(r));
		r.id = 3;
		r.received = received;
		r.release_started = w->release_started ? at(w->release_started)
						       : 0;
		r.public = w->public;
		assert_int_equal(parse_date(w->proposed,
					    w->proposed[0] == '+' ? received
								  : 0,
					    &proposed, &err),
				 0);
		enum policy_verdict v = policy_check(
			&p, &r, proposed, w->reason, w->override, now, &a);
		if (v != w->want || a.verdict != v || a.allowed != w->allowed ||
		    a.days != w->days)
			fail_msg(
				"%s: verdict %s allowed %d days %ld (want %s %d %ld): %s",
				w->what, policy_verdict_name(v), a.allowed,
				a.days, policy_verdict_name(w->want),
				w->allowed, w->days, a.msg);
		if (w->public)
			assert_true(a.policy_date == now);
		assert_true(strstr(a.msg, "report 3") != NULL);
	}
}

static void test_limits_and_messages(void **state)
{
	(void)state;
	const struct policy p = { 7, 14 };
	struct report r;
	struct policy_answer a;

	memset(&r, 0, sizeof(r));
	r.id = 3;
	r.received = at("2026-10-20T22:30Z");
	policy_check(&p, &r, at("2026-11-08"), false, false, r.received, &a);
	assert_true(a.default_limit == at("2026-10-27T23:59:59Z"));
	assert_true(a.max_limit == at("2026-11-03T23:59:59Z"));
	assert_true(a.clock_start == r.received);
	assert_string_equal(
		a.msg,
		"report 3: date 2026-11-08 is 19 days after the clock start (received 2026-10-20), past the maximum of 14; use --override --reason");
	policy_check(&p, &r, at("2026-10-29"), false, false, r.received, &a);
	assert_string_equal(
		a.msg,
		"report 3: date 2026-10-29 is 9 days after the clock start (received 2026-10-20), past the default of 7; give --reason");
}

static void test_config_defaults(void **state)
{
	(void)state;
	struct config cfg;
	struct err err = { 0, "" };
	struct policy p;

	memset(&cfg, 0, sizeof(cfg));
	policy_from_config(&cfg, &p);
	assert_int_equal(p.default_days, 7);
	assert_int_equal(p.max_days, 14);
	assert_int_equal(
		config_parse(&cfg, "t",
			     "[policy]\ndefault_days = 3\nmax_days = 5\n",
			     &err),
		0);
	policy_from_config(&cfg, &p);
	assert_int_equal(p.default_days, 3);
	assert_int_equal(p.max_days, 5);
	config_release(&cfg);
}

static void test_working_days(void **state)
{
	(void)state;
	/* 2026-12-04 is a Friday */
	assert_int_equal(
		working_days_between(at("2026-12-04"), at("2026-12-07")), 1);
	assert_int_equal(
		working_days_between(at("2026-12-04"), at("2026-12-11")), 5);
	assert_int_equal(
		working_days_between(at("2026-12-05"), at("2026-12-06")), 0);
	assert_int_equal(working_days_between(at("2026-12-07"),
					      at("2026-12-07T23:00Z")),
			 0);
}

static void test_vendor_transitions(void **state)
{
	(void)state;
	struct err err = { 0, "" };

	assert_int_equal(vendor_check_transition("Acme", "not-notified",
						 "notified", &err),
			 0);
	assert_int_equal(vendor_check_transition("Acme", "notified", "affected",
						 &err),
			 0);
	assert_int_equal(
		vendor_check_transition("Acme", "affected", "fixed", &err), 0);
	assert_int_equal(vendor_check_transition("Acme", "acknowledged",
						 "notified", &err),
			 ERR_REFUSED);
	assert_non_null(strstr(
		err.msg,
		"vendor 'Acme' cannot go from acknowledged to notified"));
	assert_int_equal(vendor_check_transition("Acme", "fixed", "affected",
						 &err),
			 ERR_REFUSED);
	assert_int_equal(vendor_check_transition("Acme", "notified", "bogus",
						 &err),
			 ERR_INVALID);
}

/* embargo.c: the state and the DUE text for each kind of report. */
struct erow {
	const char *what, *state, *received,
		*disclosure; /* disclosure or NULL */
	bool public;
	const char *now;
	enum embargo_state want;
	const char *due;
	const char *deadline;
};

static const struct erow erows[] = {
	{ "undated, default passed 3 days ago", "accepted", "2026-11-24T09:00Z",
	  NULL, false, "2026-12-04T12:00Z", EMBARGO_OVERDUE, "-3d!",
	  "2026-12-01T23:59:59Z" },
	{ "undated, default ahead", "new", "2026-12-01T09:00Z", NULL, false,
	  "2026-12-06T12:00Z", EMBARGO_UNDECIDED, "+2d?",
	  "2026-12-08T23:59:59Z" },
	{ "undated, last day of the default", "new", "2026-12-01T09:00Z", NULL,
	  false, "2026-12-08T23:00Z", EMBARGO_UNDECIDED, "+0d?",
	  "2026-12-08T23:59:59Z" },
	{ "decided, ahead", "fixing", "2026-12-01T09:00Z", "2026-12-09", false,
	  "2026-12-04T12:00Z", EMBARGO_EMBARGOED, "+5d",
	  "2026-12-09T12:00:00Z" },
	{ "decided, within a day", "fixing", "2026-12-01T09:00Z", "2026-12-09",
	  false, "2026-12-09T01:00Z", EMBARGO_EMBARGOED, "+0d*",
	  "2026-12-09T12:00:00Z" },
	{ "decided, passed", "fix-ready", "2026-12-01T09:00Z", "2026-12-09",
	  false, "2026-12-12T12:00Z", EMBARGO_OVERDUE, "-3d!",
	  "2026-12-09T12:00:00Z" },
	{ "disclosed, date passed", "disclosed", "2026-12-01T09:00Z",
	  "2026-12-09", false, "2026-12-12T12:00Z", EMBARGO_DISCLOSED, "-",
	  "2026-12-09T12:00:00Z" },
	{ "public, undated", "triaged", "2026-12-01T09:00Z", NULL, true,
	  "2026-12-12T12:00Z", EMBARGO_PUBLIC, "-", "2026-12-12T12:00:00Z" },
	{ "rejected", "rejected", "2026-11-01T09:00Z", NULL, false,
	  "2026-12-12T12:00Z", EMBARGO_CLOSED, "-", "2026-11-08T23:59:59Z" },
};

static void test_embargo_states(void **state)
{
	struct policy pol = { 7, 14 };

	(void)state;
	for (size_t i = 0; i < sizeof(erows) / sizeof(erows[0]); i++) {
		const struct erow *w = &erows[i];
		struct report r;
		struct embargo e;
		char due[24], dl[32];

		memset(&r, 0, sizeof(r));
		r.id = 1;
		r.state = (char *)w->state;
		r.received = at(w->received);
		r.disclosure = w->disclosure ? at(w->disclosure) : 0;
		r.public = w->public;
		embargo_of_report(&pol, &r, at(w->now), &e);
		if (e.state != w->want ||
		    strcmp(embargo_due(&e, due), w->due) ||
		    strcmp(fmt_rfc3339(e.deadline, dl), w->deadline))
			fail_msg("%s: got %s %s %s, want %s %s %s", w->what,
				 embargo_state_name(e.state), due, dl,
				 embargo_state_name(w->want), w->due,
				 w->deadline);
	}
}

static void test_embargo_words(void **state)
{
	struct policy pol = { 7, 14 };
	struct report r;
	struct report_key k;
	struct embargo e, ek;
	char b[160];

	(void)state;
	memset(&r, 0, sizeof(r));
	r.state = (char *)"accepted";
	r.received = at("2026-11-24T09:00Z");
	embargo_of_report(&pol, &r, at("2026-12-04T12:00Z"), &e);
	assert_string_equal(
		embargo_describe(&e, b),
		"overdue: the policy default 2026-12-01T23:59:59Z passed 3 days ago (no date decided); still under embargo");
	assert_true(embargo_active(&e));
	/* The compact key gives the same answer as the full row. */
	memset(&k, 0, sizeof(k));
	k.received = r.received;
	snprintf(k.state, sizeof(k.state), "%s", r.state);
	embargo_of_key(&pol, &k, at("2026-12-04T12:00Z"), &ek);
	assert_int_equal(ek.state, e.state);
	assert_int_equal(ek.deadline, e.deadline);
	/* The release process moves the clock, and so the default. */
	r.release_started = at("2026-12-03T10:00Z");
	embargo_of_report(&pol, &r, at("2026-12-04T12:00Z"), &e);
	assert_int_equal(e.state, EMBARGO_UNDECIDED);
	assert_string_equal(embargo_due(&e, b), "+6d?");
}

int main(void)
{
	setenv("TZ", "Europe/Berlin", 1);
	tzset();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_policy_table),
		cmocka_unit_test(test_limits_and_messages),
		cmocka_unit_test(test_config_defaults),
		cmocka_unit_test(test_working_days),
		cmocka_unit_test(test_vendor_transitions),
		cmocka_unit_test(test_embargo_states),
		cmocka_unit_test(test_embargo_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
