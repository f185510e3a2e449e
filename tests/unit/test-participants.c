/*
 * store/participant-repo.c: adding, refusing a second active row for an
 * address (any case), removing, re-adding after removal, listing with and
 * without the removed, acknowledging; and core's address parsing.
 */
#include "unit.h"

#include "core/core.h"
#include "store/store.h"

/* What these changes need recorded on the team server (unit_event). */
static void participant_events(struct store *s, int64_t rid)
{
	unit_event(s, rid, "participant-add", "unit");
	unit_event(s, rid, "participant-ack", "unit");
	unit_event(s, rid, "participant-remove", "unit");
	unit_event(s, rid, "participant-key", "unit");
}

static int add(struct store *s, int64_t rid, const char *name,
	       const char *email, const char *role, struct err *err)
{
	struct participant p;

	memset(&p, 0, sizeof(p));
	p.report_id = rid;
	p.name = (char *)name;
	p.email = (char *)email;
	p.role = (char *)role;
	p.section = (char *)"NETWORKING";
	p.added_by = (char *)"alice";
	p.added_at = 2000;
	return store_participant_add(s, &p, NULL, err);
}

static void test_add_duplicate_remove_readd(void **state)
{
	(void)state;
	struct err err = { 0, "" };
	struct participant *v;
	struct participant p;
	size_t n;
	int64_t rid;
	struct store *s = unit_store_with_report("a.db", &rid);

	assert_int_equal(store_begin(s, &err), 0);
	participant_events(s, rid);
	assert_int_equal(add(s, rid, "Mia Maintainer", "Mia@Example.org",
			     "maintainer", &err),
			 0);
	/* The same address in another case is the same person. */
	assert_int_equal(add(s, rid, "Mia", "mia@example.org", "reviewer",
			     &err),
			 ERR_DUPLICATE);
	assert_non_null(
		strstr(err.msg,
		       "'mia@example.org' is already a participant of report"));
	/* The transaction survives the refused row. */
	assert_int_equal(add(s, rid, NULL, "rex@example.org", NULL, &err), 0);
	assert_int_equal(store_commit(s, &err), 0);

	assert_int_equal(store_participants_get(s, rid, false, &v, &n, &err),
			 0);
	assert_int_equal(n, 2);
	assert_string_equal(v[0].email, "mia@example.org");
	assert_string_equal(v[0].name, "Mia Maintainer");
	assert_string_equal(v[0].role, "maintainer");
	assert_string_equal(v[0].section, "NETWORKING");
	/* On the team server, the server says who: the login role. */
	char *who = store_whoami(s);
	assert_string_equal(v[0].added_by, unit_pg ? who : "alice");
	assert_int_equal(v[0].added_at, 2000);
	assert_int_equal(v[0].removed_at, 0);
	assert_null(v[0].removed_by);
	assert_int_equal(v[0].acknowledged_at, 0);
	assert_null(v[1].role);
	participants_free(v, n);

	/* A removal is its event, which the store applies to the row. */
	struct session sess;
	memset(&sess, 0, sizeof(sess));
	sess.store = s;
	sess.officer = (char *)"bob";
	assert_int_equal(store_begin(s, &err), 0);
	participant_events(s, rid);
	assert_int_equal(
		participant_remove(&sess, rid, "MIA@example.org", &err), 0);
	assert_int_equal(participant_remove(&sess, rid, "mia@example.org",
					    &err),
			 ERR_NOTFOUND);
	assert_non_null(strstr(
		err.msg, "'mia@example.org' is not a participant of report"));
	assert_int_equal(store_participant_get(s, rid, "mia@example.org", &p,
					       &err),
			 ERR_NOTFOUND);
	/* Removed: the address may be brought in again. */
	assert_int_equal(add(s, rid, "Mia Maintainer", "mia@example.org",
			     "maintainer", &err),
			 0);
	assert_int_equal(store_commit(s, &err), 0);

	assert_int_equal(store_participants_get(s, rid, false, &v, &n, &err),
			 0);
	assert_int_equal(n, 2);
	participants_free(v, n);
	assert_int_equal(store_participants_get(s, rid, true, &v, &n, &err), 0);
	assert_int_equal(n, 3);
	assert_string_equal(v[0].email, "mia@example.org");
	assert_true(v[0].removed_at > 0);
	assert_string_equal(v[0].removed_by, unit_pg ? who : "bob");
	free(who);
	assert_string_equal(v[2].email, "mia@example.org");
	assert_int_equal(v[2].removed_at, 0);
	participants_free(v, n);

	/* Other reports see none of them. */
	assert_int_equal(store_participants_get(s, rid + 1, true, &v, &n, &err),
			 0);
	assert_int_equal(n, 0);
	assert_null(v);
	store_close(s);
}

static void test_ack(void **state)
{
	(void)state;
	struct err err = { 0, "" };
	struct participant p;
	int64_t rid;
	struct store *s = unit_store_with_report("b.db", &rid);
	struct session sess;
	time_t first;
	int r;

	memset(&sess, 0, sizeof(sess));
	sess.store = s;
	sess.officer = (char *)"bob";
	assert_int_equal(store_begin(s, &err), 0);
	participant_events(s, rid);
	assert_int_equal(
		add(s, rid, "Mia", "mia@example.org", "maintainer", &err), 0);
	assert_int_equal(participant_ack(&sess, rid, "mia@example.org", &err),
			 0);
	assert_int_equal(store_commit(s, &err), 0);
	assert_int_equal(
		store_participant_get(s, rid, "Mia@example.org", &p, &err), 0);
	first = p.acknowledged_at;
	assert_true(first > 0);
	participant_release(&p);
	/* The first acknowledgement is kept: a second is refused, by core
	 * and, behind it, by the store. */
	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(participant_ack(&sess, rid, "mia@example.org", &err),
			 ERR_DUPLICATE);
	assert_int_equal(participant_ack(&sess, rid, "nobody@example.org",
					 &err),
			 ERR_NOTFOUND);
	assert_int_equal(
		store_participant_get(s, rid, "mia@example.org", &p, &err), 0);
	/* On a team server the event goes without a wait (db_send): the
	 * refusal is the commit's, which then stores nothing. */
	r = store_event_add_ref(s, rid, "bob", "participant-ack", "again", p.id,
				NULL, &err);
	if (r == 0)
		r = store_commit(s, &err);
	else
		store_rollback(s);
	assert_true(r < 0);
	assert_non_null(strstr(err.msg, "acknowledged already"));
	assert_false(store_in_tx(s));
	participant_release(&p);
	assert_int_equal(
		store_participant_get(s, rid, "Mia@example.org", &p, &err), 0);
	assert_int_equal(p.acknowledged_at, first);
	participant_release(&p);
	store_close(s);
}

static void test_empty_address_refused(void **state)
{
	(void)state;
	struct err err = { 0, "" };
	int64_t rid;
	struct store *s = unit_store_with_report("c.db", &rid);

	assert_int_equal(store_begin(s, &err), 0);
	participant_events(s, rid);
	assert_int_equal(add(s, rid, "Nobody", "", NULL, &err), ERR_INVALID);
	store_rollback(s);
	store_close(s);
}

static void test_parse_address(void **state)
{
	(void)state;
	static const struct {
		const char *in, *name, *email;
	} ok[] = {
		{ "mia@example.org", NULL, "mia@example.org" },
		{ "  MIA@Example.ORG ", NULL, "mia@example.org" },
		{ "Mia Maintainer <mia@example.org>", "Mia Maintainer",
		  "mia@example.org" },
		{ "\"Miller, David S.\" <davem@example.net>",
		  "Miller, David S.", "davem@example.net" },
		{ "<x@y.z>", NULL, "x@y.z" },
	};
	static const char *const bad[] = {
		"",
		"no-at-sign",
		"@example.org",
		"mia@",
		"a@b@c",
		"Mia <mia@example.org",
		"Mia <mia@example.org> trailing",
		"two words@example.org",
		"Evil\033[2J <evil@example.org>",
		"Mia <mia@exa\nmple.org>",
	};
	struct err err = { 0, "" };
	char *name, *email;

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		assert_int_equal(participant_parse_address(ok[i].in, &name,
							   &email, &err),
				 0);
		if (ok[i].name)
			assert_string_equal(name, ok[i].name);
		else
			assert_null(name);
		assert_string_equal(email, ok[i].email);
		free(name);
		free(email);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(participant_parse_address(bad[i], &name,
							   &email, &err),
				 ERR_INVALID);
		assert_null(name);
		assert_null(email);
		assert_non_null(strstr(err.msg, "invalid address"));
	}
}

static void test_format(void **state)
{
	(void)state;
	struct participant p;
	char *s;

	memset(&p, 0, sizeof(p));
	p.name = (char *)"Mia Maintainer";
	p.email = (char *)"mia@example.org";
	p.role = (char *)"maintainer";
	p.section = (char *)"NETWORKING";
	s = participant_format(&p);
	assert_string_equal(
		s, "Mia Maintainer <mia@example.org> (maintainer:NETWORKING)");
	free(s);
	p.name = NULL;
	p.section = NULL;
	s = participant_format(&p);
	assert_string_equal(s, "mia@example.org (maintainer)");
	free(s);
}

/* The key a participant's timeline confirms, as forward uses it: the
 * last confirmation of their address, until they are removed; a row that
 * holds another key is refused, naming both. */
static void test_timeline_key(void **state)
{
	(void)state;
	struct err err = { 0, "" };
	int64_t rid;
	struct store *s = unit_store_with_report("k.db", &rid);
	struct session sess;
	struct participant p = { 0 };
	char *k = NULL;
	static const struct {
		const char *kind, *detail, *mia, *rex;
	} steps[] = {
		{ "participant-add", "Mia M <mia@example.org> (maintainer)",
		  NULL, NULL },
		{ "participant-key", "mia@example.org: key AAA confirmed",
		  "AAA", NULL },
		{ "participant-key", "mia@example.org.evil: key EEE confirmed",
		  "AAA", NULL },
		{ "participant-key", "mia@example.org: key FFF", "AAA", NULL },
		{ "participant-add",
		  "Rex R <rex@example.org> (other), key BBB confirmed", "AAA",
		  "BBB" },
		{ "participant-add",
		  "Mia <mia@example.org.evil>, key EEE confirmed", "AAA",
		  "BBB" },
		{ "participant-key", "MIA@example.org: key CCC confirmed",
		  "CCC", "BBB" },
		{ "participant-remove",
		  "Mia M <mia@example.org> (maintainer) removed", NULL, "BBB" },
		{ "participant-add",
		  "mia@example.org (reviewer), key DDD confirmed", "DDD",
		  "BBB" },
	};

	memset(&sess, 0, sizeof(sess));
	sess.store = s;
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++) {
		assert_int_equal(store_begin(s, &err), 0);
		unit_event(s, rid, steps[i].kind, steps[i].detail);
		assert_int_equal(store_commit(s, &err), 0);
		assert_int_equal(participant_timeline_key(&sess, rid,
							  "mia@example.org", &k,
							  &err),
				 0);
		if (steps[i].mia)
			assert_string_equal(k, steps[i].mia);
		else
			assert_null(k);
		free(k);
		assert_int_equal(participant_timeline_key(&sess, rid,
							  "rex@example.org", &k,
							  &err),
				 0);
		if (steps[i].rex)
			assert_string_equal(k, steps[i].rex);
		else
			assert_null(k);
		free(k);
	}
	p.email = (char *)"mia@example.org";
	p.key_fpr = (char *)"DDD";
	assert_int_equal(participant_key(&sess, rid, &p, &k, &err), 0);
	assert_string_equal(k, "DDD");
	free(k);
	p.key_fpr = (char *)"EEE";
	assert_int_equal(participant_key(&sess, rid, &p, &k, &err),
			 ERR_REFUSED);
	assert_null(k);
	assert_non_null(strstr(
		err.msg, "(EEE) is not the one its timeline confirms (DDD)"));
	p.key_fpr = NULL;
	assert_int_equal(participant_key(&sess, rid, &p, &k, &err),
			 ERR_REFUSED);
	p.email = (char *)"rex@example.org";
	p.key_fpr = (char *)"BBB";
	assert_int_equal(participant_key(&sess, rid, &p, &k, &err), 0);
	free(k);
	store_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		UNIT_BOTH(test_add_duplicate_remove_readd),
		UNIT_BOTH(test_ack),
		UNIT_BOTH(test_empty_address_refused),
		UNIT_BOTH(test_timeline_key),
		cmocka_unit_test(test_parse_address),
		cmocka_unit_test(test_format),
	};
	return unit_run("participants", tests, ARRAY_SIZE(tests));
}
