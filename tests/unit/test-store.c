/*
 * store/: migrations, transactions, the append-only log, listings, the
 * unique keys that make a re-import harmless, what changed since an
 * event.  Every test but the file-mode ones runs twice: on SQLite and on
 * the PostgreSQL server scripts/run-tests.sh starts (the "store-pg"
 * group), with the same assertions.  The team server's own rules (who
 * did it, grants) are tested in test-team.c.
 */
#include <glib.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "core/triage.h"
#include "store/db.h"
#include "store/schema.h"
#include "store/store.h"

static void test_modes_whatever_umask(void **state)
{
	(void)state;
	struct stat st;
	mode_t old = umask(0);
	char *path = unit_path("sub/dir/t.db");
	struct store *s = NULL;
	struct store_opts mk = { .make_folder = true };
	struct err err;

	/* A folder that does not exist is made only when asked (the
	 * default location), else refused by name. */
	assert_int_equal(store_open(path, NULL, &s, &err), ERR_NOTFOUND);
	assert_non_null(strstr(err.msg, "sub/dir' does not exist"));
	assert_int_equal(store_open(path, &mk, &s, &err), 0);
	struct report_new rn = { "s", NULL, NULL, 1, 0 };
	int64_t id;
	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_report_insert(s, &rn, &id, &err), 0);
	assert_int_equal(store_commit(s, &err), 0);
	umask(old);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	char *wal = xasprintf("%s-wal", path);
	assert_int_equal(stat(wal, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	char *d = unit_path("sub/dir");
	assert_int_equal(stat(d, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	assert_true(store_schema_version(s) >= 1);
	store_close(s);
	free(wal);
	free(d);

	/* Readable by others: refused, with the file named. */
	chmod(path, 0644);
	assert_int_equal(store_open(path, NULL, &s, &err), ERR_REFUSED);
	assert_non_null(strstr(err.msg, path));
	assert_non_null(strstr(err.msg, "0644"));
	chmod(path, 0600);
	assert_int_equal(store_open(path, NULL, &s, &err), 0);
	store_close(s);
	free(path);
}

static void test_reopen_keeps_data(void **state)
{
	(void)state;
	struct store *s = unit_store_open("reopen.db");
	struct err err;
	int64_t id;
	struct report_new rn = { "Overflow in tcp", "Rita", "rita@example.net",
				 1000, 0 };

	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_report_insert(s, &rn, &id, &err), 0);
	assert_int_equal(store_event_add(s, id, "alice", "import", "x", &err),
			 0);
	assert_int_equal(store_commit(s, &err), 0);
	store_close(s);
	s = unit_store_reopen("reopen.db");
	assert_true(store_schema_version(s) >= 1);
	struct report r;
	assert_int_equal(store_report_get(s, id, &r, &err), 0);
	assert_string_equal(r.subject, "Overflow in tcp");
	assert_string_equal(r.state, "new");
	assert_string_equal(r.severity, "none");
	/* No message yet: no verdict, not a default one. */
	assert_int_equal(r.verdict, SIG_NONE);
	report_release(&r);
	assert_int_equal(store_report_get(s, id + 100, &r, &err), ERR_NOTFOUND);
	assert_non_null(strstr(err.msg, "no report"));
	store_close(s);
}

static void test_rollback(void **state)
{
	(void)state;
	struct store *s = unit_store_open("rollback.db");
	struct err err;
	int64_t id;
	struct report_new rn = { "x", NULL, NULL, 1, 0 };

	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_report_insert(s, &rn, &id, &err), 0);
	assert_int_equal(store_event_add(s, id, "bob", "import", "", &err), 0);
	store_rollback(s);
	assert_int_equal(store_report_count(s), 0);
	assert_int_equal(store_event_count(s, 0), 0);
	store_close(s);
}

static void test_events_append_only(void **state)
{
	(void)state;
	struct store *s = unit_store_open("events.db");
	struct err err;
	char *out;

	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(
		store_event_add(s, 0, "alice", "vendor-add", "acme", &err), 0);
	assert_int_equal(store_commit(s, &err), 0);
	store_close(s);
	/* Even the database's owner, behind the program's back. */
	assert_int_not_equal(unit_sql("events.db",
				      "UPDATE events SET detail='forged'",
				      &out),
			     0);
	assert_non_null(strstr(out, "append-only"));
	free(out);
	assert_int_not_equal(unit_sql("events.db", "DELETE FROM events", &out),
			     0);
	assert_non_null(strstr(out, "append-only"));
	free(out);
	s = unit_store_reopen("events.db");
	struct event *ev;
	size_t n;
	assert_int_equal(store_events_get(s, 0, &ev, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(ev[0].detail, "acme");
	event_release(&ev[0]);
	free(ev);
	store_close(s);
}

static void test_message_unique(void **state)
{
	(void)state;
	struct store *s = unit_store_open("msg.db");
	struct err err;
	int64_t rid, rid2, mid, mid2, mid3, found;
	struct report_new rn = { "x", NULL, NULL, 1, 0 };
	unsigned char blob[] = "ciphertext";
	struct message m = { 0 };
	struct message_ref refs[4];
	size_t nrefs;

	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_report_insert(s, &rn, &rid, &err), 0);
	assert_int_equal(store_report_insert(s, &rn, &rid2, &err), 0);
	m.report_id = rid;
	m.message_id = (char *)"abc@example.net";
	m.content_hash = (char *)"h1";
	m.verdict = SIG_VALID;
	m.blob_kind = (char *)"original";
	m.blob = blob;
	m.blob_len = sizeof(blob);
	assert_int_equal(store_message_insert(s, &m, &mid, &err), 0);
	/* The same content is the same message, whatever its Message-ID. */
	m.message_id = (char *)"other@example.net";
	assert_int_equal(store_message_insert(s, &m, &mid2, &err),
			 ERR_DUPLICATE);
	/* Other content with a Message-ID already seen: a message of its own. */
	m.message_id = (char *)"abc@example.net";
	m.content_hash = (char *)"h2";
	m.report_id = rid2;
	assert_int_equal(store_message_insert(s, &m, &mid2, &err), 0);
	m.message_id = NULL;
	m.content_hash = (char *)"h3";
	assert_int_equal(store_message_insert(s, &m, &mid3, &err), 0);
	assert_int_equal(store_commit(s, &err), 0);

	assert_int_equal(store_message_find(s, "abc@example.net", NULL, &found,
					    &err),
			 0);
	assert_int_equal(found, rid); /* the oldest */
	assert_int_equal(store_message_find(s, NULL, "h2", &found, &err), 0);
	assert_int_equal(found, rid2);
	assert_int_equal(store_message_find(s, "nope", "nope", &found, &err),
			 ERR_NOTFOUND);
	assert_int_equal(store_message_id_holders(s, "abc@example.net", 0, refs,
						  4, &nrefs, &err),
			 0);
	assert_int_equal(nrefs, 2);
	assert_int_equal(refs[0].row, mid);
	assert_int_equal(refs[0].report_id, rid);
	assert_int_equal(refs[1].row, mid2);
	assert_int_equal(refs[1].report_id, rid2);
	assert_int_equal(store_message_id_holders(s, "abc@example.net", mid2,
						  refs, 1, &nrefs, &err),
			 0);
	assert_int_equal(nrefs, 1);
	assert_int_equal(refs[0].row, mid);
	assert_int_equal(
		store_message_id_holders(s, NULL, 0, refs, 4, &nrefs, &err), 0);
	assert_int_equal(nrefs, 0);

	struct message *ms;
	size_t n;
	assert_int_equal(store_messages_get(s, rid, true, &ms, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ms[0].blob_len, sizeof(blob));
	assert_memory_equal(ms[0].blob, blob, sizeof(blob));
	assert_true(ms[0].message_id_reused);
	assert_int_equal(ms[0].verdict, SIG_VALID);
	message_release(&ms[0]);
	free(ms);
	assert_int_equal(store_messages_get(s, rid2, false, &ms, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_true(ms[0].message_id_reused);
	assert_false(ms[1].message_id_reused); /* no Message-ID at all */
	for (size_t i = 0; i < n; i++)
		message_release(&ms[i]);
	free(ms);
	store_close(s);
}

/*
 * How a body is kept: as received, to be verified again on
 * every opening, or with its session keys; never as its decrypted
 * content alone, whose verdict nothing can check.  Whoever writes the
 * rows (a second officer with psql, the sqlite3 shell), the store
 * refuses a content-only message, a message made its content, and any
 * other digest than the import's.
 */
static void test_messages_kept_as_received(void **state)
{
	(void)state;
	int64_t rid;
	struct store *s = unit_store_with_report("kept.db", &rid);
	struct err err = { 0, "" };
	unsigned char blob[] = "Subject: x\r\n\r\nforged words\r\n";
	struct message m = { 0 }, got;
	int64_t row, ignored;

	m.report_id = rid;
	m.content_hash = (char *)"h-content";
	m.verdict = SIG_VALID;
	m.fingerprint = (char *)"A1B2C3D4E5F60718293A4B5C6D7E8F9012345678";
	m.signer_matches_from = true;
	m.blob_kind = (char *)"original";
	m.blob = blob;
	m.blob_len = sizeof(blob) - 1;
	m.plain_sha256 = (char *)"d-import";
	m.blob_form = BLOB_CONTENT;
	assert_int_equal(store_begin(s, &err), 0);
	assert_true(store_message_insert(s, &m, &ignored, &err) < 0);
	assert_non_null(strstr(err.msg, "kept as received"));
	store_rollback(s);

	/* As received, then given its session keys, with a reseal. */
	m.blob_form = BLOB_RECEIVED;
	m.content_hash = (char *)"h-received";
	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_message_insert(s, &m, &row, &err), 0);
	assert_int_equal(store_commit(s, &err), 0);
	assert_int_equal(store_begin(s, &err), 0);
	unit_event(s, rid, "reseal", "unit");
	assert_true(store_message_set_blob(s, row, blob, sizeof(blob) - 1,
					   "original", BLOB_CONTENT,
					   &err) < 0 ||
		    store_commit(s, &err) < 0);
	store_rollback(s);
	assert_int_equal(store_begin(s, &err), 0);
	unit_event(s, rid, "reseal", "unit");
	assert_int_equal(store_message_set_blob(s, row, blob, sizeof(blob) - 1,
						"original", BLOB_KEYED, &err),
			 0);
	assert_int_equal(store_commit(s, &err), 0);
	assert_int_equal(store_message_get(s, row, &got, &err), 0);
	assert_int_equal(got.blob_form, BLOB_KEYED);
	assert_string_equal(got.plain_sha256, "d-import");
	message_release(&got);
	/* Keyed stays keyed. */
	assert_int_equal(store_begin(s, &err), 0);
	unit_event(s, rid, "reseal", "unit");
	assert_true(store_message_set_blob(s, row, blob, sizeof(blob) - 1,
					   "original", BLOB_RECEIVED,
					   &err) < 0 ||
		    store_commit(s, &err) < 0);
	store_rollback(s);
	assert_int_equal(store_message_get(s, row, &got, &err), 0);
	assert_int_equal(got.blob_form, BLOB_KEYED);
	message_release(&got);
	store_close(s);
}

/*
 * Which bodies roster reseal reads (store_message_reseal_list): not a
 * team-sealed one kept keyed (or as its content: older versions' rows,
 * which the store refuses to write now), nor one as received that
 * was not encrypted (it would read each and leave it alone); every other
 * one, an OpenPGP-sealed body and a clear one among them.  A list that
 * left one out would leave it without its session keys, or sealed to
 * the old roster.
 */
static void test_reseal_list(void **state)
{
	(void)state;
	int64_t rid, rows[5];
	struct store *s = unit_store_with_report("reseal-list.db", &rid);
	struct err err = { 0, "" };
	struct message_look *l = NULL;
	size_t n = 0;
	static const struct {
		const char *kind, *blob;
		enum blob_form form;
		int encrypted;
		bool look;
	} b[] = {
		{ "sealed", "SK1\x01team-sealed, keyed", BLOB_KEYED, 1, false },
		{ "sealed", "SK1\x01as received, clear mail", BLOB_RECEIVED, 0,
		  false },
		{ "sealed", "SK1\x01as received, encrypted", BLOB_RECEIVED, 1,
		  true },
		{ "sealed", "-----BEGIN PGP MESSAGE-----", BLOB_KEYED, 1,
		  true },
		{ "original", "SK1 but not sealed", BLOB_RECEIVED, 0, true },
	};

	assert_int_equal(store_begin(s, &err), 0);
	for (size_t i = 0; i < 5; i++) {
		struct message m = { 0 };
		char hash[16];

		snprintf(hash, sizeof(hash), "h-%zu", i);
		m.report_id = rid;
		m.content_hash = hash;
		m.verdict = SIG_NOT_SIGNED;
		m.blob_kind = (char *)b[i].kind;
		m.blob = (unsigned char *)b[i].blob;
		m.blob_len = strlen(b[i].blob);
		m.blob_form = b[i].form;
		m.encrypted = b[i].encrypted;
		m.plain_sha256 = (char *)"d";
		assert_int_equal(store_message_insert(s, &m, &rows[i], &err),
				 0);
	}
	assert_int_equal(store_commit(s, &err), 0);
	assert_int_equal(store_message_reseal_list(s, "SK1", 3, &l, &n, &err),
			 0);
	assert_int_equal(n, 5);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(l[i].id, rows[i]);
		if (l[i].look != b[i].look)
			fail_msg("message %zu (%s): look %d, want %d", i,
				 b[i].blob, l[i].look, b[i].look);
		assert_int_equal(l[i].size, strlen(b[i].blob));
	}
	free(l);
	/* The ones to look at, read together: by id, a missing one left
	 * out, each with its blob. */
	{
		int64_t want[3] = { rows[3], 999999, rows[1] };
		struct message *ms = NULL;

		assert_int_equal(
			store_messages_get_ids(s, want, 3, &ms, &n, &err), 0);
		assert_int_equal(n, 2);
		assert_int_equal(ms[0].id, rows[1]);
		assert_int_equal(ms[1].id, rows[3]);
		assert_int_equal(ms[0].blob_len, strlen(b[1].blob));
		assert_memory_equal(ms[0].blob, b[1].blob, ms[0].blob_len);
		assert_memory_equal(ms[1].blob, b[3].blob, ms[1].blob_len);
		for (size_t i = 0; i < n; i++)
			message_release(&ms[i]);
		free(ms);
	}
	store_close(s);
}

static int collect(const struct report *r, void *data)
{
	struct sbuf *sb = data;
	sbuf_addf(sb, "%lld,", (long long)r->id);
	return 0;
}

/* Stops the listing after the second report. */
static int collect_two(const struct report *r, void *data)
{
	struct sbuf *sb = data;

	collect(r, data);
	return sb->len >= 4;
}

static void test_listing_orders(void **state)
{
	(void)state;
	struct store *s = unit_store_open("list.db");
	struct err err;
	int64_t id;
	const char *sev[] = { "low", "critical", "none", "high" };
	struct sbuf sb = SBUF_INIT;

	assert_int_equal(store_begin(s, &err), 0);
	for (int i = 0; i < 4; i++) {
		struct report_new rn = { "r", NULL, NULL, 100 + i, 0 };
		char *sevchange = xasprintf("none -> %s", sev[i]);
		assert_int_equal(store_report_insert(s, &rn, &id, &err), 0);
		if (strcmp(sev[i], "none"))
			unit_event(s, id, "severity", sevchange);
		free(sevchange);
	}
	unit_event(s, 3, "state", "new -> rejected");
	unit_event(s, 3, "state", "rejected -> closed");
	assert_int_equal(store_commit(s, &err), 0);

	/* The orders and the finished states are core's, bound as values:
	 * core's severity order, then one of the test's own. */
	static const char *const mine[] = { "none", "low", NULL };
	static const char *const only_new[] = { "new", NULL };
	struct report_filter f = { NULL, false, "severity", NULL,
				   report_severity_order };
	assert_int_equal(store_report_each(s, &f, collect, &sb, &err), 0);
	assert_string_equal(sb.buf, "2,4,1,3,");
	sbuf_reset(&sb);
	f.rank = mine;
	assert_int_equal(store_report_each(s, &f, collect, &sb, &err), 0);
	assert_string_equal(sb.buf, "3,1,2,4,");
	sbuf_reset(&sb);
	f.rank = NULL;
	assert_int_equal(store_report_each(s, &f, collect, &sb, &err),
			 ERR_INVALID);
	f.finished = report_finished_states;
	f.order = "received";
	assert_int_equal(store_report_each(s, &f, collect, &sb, &err), 0);
	assert_string_equal(sb.buf, "4,3,2,1,");
	sbuf_reset(&sb);
	f.open_only = true;
	f.order = NULL;
	assert_int_equal(store_report_each(s, &f, collect, &sb, &err), 0);
	assert_string_equal(sb.buf, "1,2,4,");
	sbuf_reset(&sb);
	f.finished = only_new;
	assert_int_equal(store_report_each(s, &f, collect, &sb, &err), 0);
	assert_string_equal(sb.buf, "3,");
	sbuf_reset(&sb);
	f.open_only = false;
	f.state = "closed";
	assert_int_equal(store_report_each(s, &f, collect, &sb, &err), 0);
	assert_string_equal(sb.buf, "3,");
	/* The row helper stops where the callback says (and the statement
	 * is usable again afterwards). */
	sbuf_reset(&sb);
	f.state = NULL;
	assert_int_equal(store_report_each(s, &f, collect_two, &sb, &err), 0);
	assert_string_equal(sb.buf, "1,2,");
	sbuf_reset(&sb);
	assert_int_equal(store_report_each(s, &f, collect, &sb, &err), 0);
	assert_string_equal(sb.buf, "1,2,3,4,");
	assert_int_equal(store_report_count(s), 4);
	/* "deadline" is core's (the embargo deadline, report_each): the
	 * store has no order of its own for it. */
	f.order = "deadline";
	assert_int_equal(store_report_each(s, &f, collect, &sb, &err),
			 ERR_INVALID);
	f.order = "bogus";
	assert_int_equal(store_report_each(s, &f, collect, &sb, &err),
			 ERR_INVALID);
	sbuf_release(&sb);
	store_close(s);
}

static void test_not_a_database(void **state)
{
	(void)state;
	char *path = unit_path("garbage.db");

	FILE *f = fopen(path, "w");
	fputs("this is not a database, just some text that is long enough...",
	      f);
	fclose(f);
	chmod(path, 0600);
	struct store *s;
	struct err err;
	assert_true(store_open(path, NULL, &s, &err) < 0);
	assert_non_null(strstr(err.msg, path));
	free(path);
}

/* Events after a given one name the reports they touched, each once. */
static void test_events_since(void **state)
{
	(void)state;
	struct store *s = unit_store_open("since.db");
	struct err err;
	int64_t a, b, last, *ids;
	size_t n;
	struct report_new rn = { "x", NULL, NULL, 1, 0 };

	int64_t mark;
	assert_int_equal(store_event_last(s, &mark, &err), 0);
	assert_int_equal(mark, 0);
	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_report_insert(s, &rn, &a, &err), 0);
	assert_int_equal(store_report_insert(s, &rn, &b, &err), 0);
	assert_int_equal(store_event_add(s, a, "alice", "import", "", &err), 0);
	assert_int_equal(store_commit(s, &err), 0);
	assert_int_equal(store_event_last(s, &mark, &err), 0);
	assert_true(mark > 0);
	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_event_add(s, b, "alice", "triage", "", &err), 0);
	assert_int_equal(store_event_add(s, a, "alice", "note", "", &err), 0);
	assert_int_equal(store_event_add(s, b, "alice", "note", "", &err), 0);
	assert_int_equal(store_event_add(s, 0, "alice", "vendor-add", "", &err),
			 0);
	assert_int_equal(store_commit(s, &err), 0);
	assert_int_equal(store_events_since(s, mark, &last, &ids, &n, &err), 0);
	assert_int_equal(n, 3);
	assert_int_equal(ids[0], b);
	assert_int_equal(ids[1], a);
	assert_int_equal(ids[2], 0);
	int64_t top;
	assert_int_equal(store_event_last(s, &top, &err), 0);
	assert_int_equal(last, top);
	free(ids);
	assert_int_equal(store_events_since(s, last, &last, &ids, &n, &err), 0);
	assert_int_equal(n, 0);
	free(ids);
	store_close(s);
}

/* store_events_kind: a report's events of one kind, oldest first, and
 * none of another report's or of another kind. */
static void test_events_kind(void **state)
{
	(void)state;
	struct store *s = unit_store_open("kind.db");
	struct err err;
	struct event *ev;
	int64_t a, b;
	size_t n;
	struct report_new rn = { "x", NULL, NULL, 1, 0 };

	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_report_insert(s, &rn, &a, &err), 0);
	assert_int_equal(store_report_insert(s, &rn, &b, &err), 0);
	assert_int_equal(store_event_add(s, a, "alice", "note", "first", &err),
			 0);
	assert_int_equal(store_event_add(s, a, "alice", "duplicate-of",
					 "duplicate of report 9", &err),
			 0);
	assert_int_equal(store_event_add(s, b, "alice", "duplicate-of",
					 "duplicate of report 8", &err),
			 0);
	assert_int_equal(store_event_add(s, a, "alice", "note", "second", &err),
			 0);
	assert_int_equal(store_event_add(s, a, "alice", "duplicate-of",
					 "no longer a duplicate of report 9",
					 &err),
			 0);
	assert_int_equal(store_commit(s, &err), 0);
	assert_int_equal(store_events_kind(s, a, "duplicate-of", &ev, &n, &err),
			 0);
	assert_int_equal(n, 2);
	assert_string_equal(ev[0].detail, "duplicate of report 9");
	assert_string_equal(ev[1].detail, "no longer a duplicate of report 9");
	assert_true(ev[0].id < ev[1].id);
	assert_int_equal(ev[0].report_id, a);
	events_free(ev, n);
	assert_int_equal(store_events_kind(s, a, "note", &ev, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(ev[1].detail, "second");
	events_free(ev, n);
	assert_int_equal(store_events_kind(s, b, "note", &ev, &n, &err), 0);
	assert_int_equal(n, 0);
	events_free(ev, n);
	store_close(s);
}

/* store_report_milestones: each report's first triage (a state change
 * from new), fix (a fix event or a move to fix-ready), disclosure and
 * reply to the reporter, in one query; a report with none is left out.
 * store_files_each: every touched file, by report then path. */
static int file_seen(int64_t report_id, const char *path, void *data)
{
	struct sbuf *sb = data;

	sbuf_addf(sb, "%lld:%s ", (long long)report_id, path);
	return 0;
}

static void test_milestones(void **state)
{
	(void)state;
	struct store *s = unit_store_open("milestones.db");
	struct err err;
	struct report_milestones *m;
	struct report_new rn = { "x", NULL, NULL, 1, 0 };
	struct sbuf sb = SBUF_INIT;
	char p1[] = "net/ipv4/tcp.c", p2[] = "mm/slub.c", p3[] = "fs/inode.c";
	char *fa[] = { p1, p2 }, *fb[] = { p3 };
	int64_t a, b, c;
	size_t n;

	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_report_insert(s, &rn, &a, &err), 0);
	assert_int_equal(store_report_insert(s, &rn, &b, &err), 0);
	assert_int_equal(store_report_insert(s, &rn, &c, &err), 0);
	assert_int_equal(store_event_add(s, a, "alice", "state",
					 "new -> triaged", &err),
			 0);
	assert_int_equal(store_event_add(s, a, "alice", "state",
					 "triaged -> accepted", &err),
			 0);
	assert_int_equal(store_event_add(s, a, "alice", "fix", "abc", &err), 0);
	assert_int_equal(
		store_event_add(s, a, "alice", "reply-sent", "to r", &err), 0);
	/* The store applies each step to the report: b goes the
	 * lifecycle's way to disclosed. */
	assert_int_equal(store_event_add(s, b, "alice", "state",
					 "new -> triaged", &err),
			 0);
	assert_int_equal(store_event_add(s, b, "alice", "state",
					 "triaged -> accepted", &err),
			 0);
	assert_int_equal(store_event_add(s, b, "alice", "state",
					 "accepted -> fixing", &err),
			 0);
	assert_int_equal(store_event_add(s, b, "alice", "state",
					 "fixing -> fix-ready", &err),
			 0);
	assert_int_equal(store_event_add(s, b, "alice", "state",
					 "fix-ready -> disclosed", &err),
			 0);
	assert_int_equal(
		store_event_add(s, b, "alice", "reply", "from r", &err), 0);
	assert_int_equal(store_event_add(s, c, "alice", "note",
					 "new -> triaged", &err),
			 0);
	assert_int_equal(store_files_add(s, a, fa, 2, false, &err), 0);
	assert_int_equal(store_files_add(s, b, fb, 1, false, &err), 0);
	assert_int_equal(store_commit(s, &err), 0);

	assert_int_equal(store_report_milestones(s, &m, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(m[0].report_id, a);
	assert_true(m[0].triaged > 0 && m[0].fixed > 0 && m[0].replied > 0);
	assert_int_equal(m[0].disclosed, 0);
	assert_int_equal(m[1].report_id, b);
	assert_true(m[1].triaged > 0);
	assert_true(m[1].fixed > 0 && m[1].disclosed > 0);
	assert_int_equal(m[1].replied, 0); /* an incoming reply is none */
	free(m);

	assert_int_equal(store_files_each(s, file_seen, &sb, &err), 0);
	char *want =
		xasprintf("%lld:mm/slub.c %lld:net/ipv4/tcp.c %lld:fs/inode.c ",
			  (long long)a, (long long)a, (long long)b);
	assert_string_equal(sb.buf, want);
	free(want);
	sbuf_release(&sb);
	store_close(s);
}

/* Vendors: names match in any case; a second add is a clear duplicate;
 * the listing sorts without regard to case. */
/* Reminders: none at first, the last one recorded, replaced by the next,
 * kept apart per report, recipient and kind. */
static void test_reminders(void **state)
{
	(void)state;
	struct store *s = unit_store_open("reminders.db");
	struct err err;
	struct report_new rn = { "s", NULL, NULL, 1, 0 };
	int64_t id;
	time_t at = 99;

	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_report_insert(s, &rn, &id, &err), 0);
	assert_int_equal(
		store_reminder_last(s, id, "vic@x", "vendor", &at, &err), 0);
	assert_int_equal(at, 0);
	assert_int_equal(
		store_reminder_record(s, id, "vic@x", "vendor", 1000, &err), 0);
	assert_int_equal(
		store_reminder_record(s, id, "vic@x", "vendor", 2000, &err), 0);
	assert_int_equal(
		store_reminder_record(s, id, "vic@x", "digest", 3000, &err), 0);
	assert_int_equal(store_commit(s, &err), 0);
	assert_int_equal(
		store_reminder_last(s, id, "vic@x", "vendor", &at, &err), 0);
	assert_int_equal(at, 2000);
	assert_int_equal(
		store_reminder_last(s, id, "vic@x", "digest", &at, &err), 0);
	assert_int_equal(at, 3000);
	assert_int_equal(
		store_reminder_last(s, id, "mia@x", "vendor", &at, &err), 0);
	assert_int_equal(at, 0);
	store_close(s);
}

static void test_vendors(void **state)
{
	(void)state;
	struct store *s = unit_store_open("vendors.db");
	struct err err;
	struct vendor v = { 0 }, got;
	struct vendor *all;
	size_t n;
	int64_t id;

	assert_int_equal(store_begin(s, &err), 0);
	unit_event(s, 0, "vendor-add", "unit");
	v.name = (char *)"debian";
	v.contact = (char *)"security@debian.org";
	assert_int_equal(store_vendor_add(s, &v, &id, &err), 0);
	assert_true(id > 0);
	v.name = (char *)"Acme";
	v.contact = (char *)"psirt@acme.example";
	v.kind = (char *)"hardware";
	assert_int_equal(store_vendor_add(s, &v, NULL, &err), 0);
	assert_int_equal(store_vendor_add(s, &v, NULL, &err), ERR_DUPLICATE);
	assert_non_null(strstr(err.msg, "'Acme' is already"));
	assert_int_equal(store_commit(s, &err), 0);
	assert_int_equal(store_vendor_get(s, "DEBIAN", &got, &err), 0);
	assert_string_equal(got.name, "debian");
	assert_string_equal(got.kind, "vendor");
	vendor_release(&got);
	assert_int_equal(store_vendor_get(s, "nobody", &got, &err),
			 ERR_NOTFOUND);
	assert_non_null(strstr(err.msg, "no vendor 'nobody'"));
	assert_int_equal(store_vendors_list(s, &all, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(all[0].name, "Acme");
	assert_string_equal(all[1].name, "debian");
	for (size_t i = 0; i < n; i++)
		vendor_release(&all[i]);
	free(all);
	store_close(s);
}

/* The first screen by deadline (core's report_first_ids over the store's
 * candidates) is exactly the head of the whole list sorted by the one
 * rule (report_deadline_cmp over every report's key), whatever the mix
 * of decided, undated, public and finished reports and whatever the
 * page's size: an oracle over random reports, many on the same days. */
static void test_first_screen_deadline(void **state)
{
	(void)state;
	struct store *s = unit_store_open("first.db");
	static const char *const moves[] = { NULL, "new -> triaged",
					     "new -> rejected",
					     "new -> duplicate" };
	struct session sess;
	struct report_key *k;
	struct policy pol;
	struct err err;
	size_t nk;
	unsigned seed = 7;

	memset(&sess, 0, sizeof(sess));
	sess.store = s;
	assert_int_equal(store_begin(s, &err), 0);
	for (int i = 0; i < 160; i++) {
		/* Received over 20 days, several a day, ids out of order
		 * with the hour. */
		struct report_new rn = {
			"Report", "Rita", "rita@example.net",
			1000000 +
				(time_t)((rand_r(&seed) % 20) * 86400 +
					 rand_r(&seed) % 86400),
			0
		};
		struct decision d = { 0 };
		int64_t id;

		assert_int_equal(store_report_insert(s, &rn, &id, &err), 0);
		if (rand_r(&seed) % 3 == 0) {
			d.report_id = id;
			d.verdict = (char *)"ok";
			d.date = 1000000 +
				(time_t)(rand_r(&seed) % (25 * 86400));
			assert_int_equal(store_decision_add(s, &d, NULL, &err),
					 0);
		}
		if (rand_r(&seed) % 10 == 0)
			unit_event(s, id, "public", "unit");
		if (moves[rand_r(&seed) % 4])
			unit_event(s, id, "state",
				   moves[rand_r(&seed) % 3 + 1]);
	}
	assert_int_equal(store_commit(s, &err), 0);

	/* The oracle: every key, sorted by the rule. */
	assert_int_equal(store_report_keys(s, &k, &nk, &err), 0);
	assert_int_equal(nk, 160);
	policy_from_config(NULL, &pol);
	time_t *key = xcalloc(nk, sizeof(*key));
	for (size_t i = 0; i < nk; i++) {
		struct embargo e;
		embargo_of_key(&pol, &k[i], util_now(), &e);
		key[i] = report_deadline_key(&e);
	}
	for (size_t i = 1; i < nk; i++) /* insertion sort: the oracle's own */
		for (size_t j = i; j > 0 &&
		     report_deadline_cmp(key[j], k[j].id, key[j - 1],
					 k[j - 1].id) < 0;
		     j--) {
			struct report_key tk = k[j];
			time_t tt = key[j];
			k[j] = k[j - 1];
			key[j] = key[j - 1];
			k[j - 1] = tk;
			key[j - 1] = tt;
		}
	static const size_t limits[] = { 1, 2, 7, 25, 60, 159, 160, 200 };
	for (size_t l = 0; l < sizeof(limits) / sizeof(*limits); l++) {
		int64_t *ids;
		size_t n;

		if (report_first_ids(&sess, "deadline", limits[l], &ids, &n,
				     &err))
			fprintf(stderr, "limit %zu: %s\n", limits[l], err.msg),
				fail();
		assert_int_equal(n, limits[l] < nk ? limits[l] : nk);
		for (size_t i = 0; i < n; i++)
			if (ids[i] != k[i].id)
				fail_msg(
					"limit %zu: place %zu is report %lld, the rule "
					"says %lld",
					limits[l], i, (long long)ids[i],
					(long long)k[i].id);
		free(ids);
	}
	free(key);
	free(k);
	store_close(s);
}

/* The compact keys carry the latest decision of each report. */
static void test_report_keys(void **state)
{
	(void)state;
	struct store *s = unit_store_open("keys.db");
	struct err err;
	int64_t a, b;
	struct report_new rn = { "Overflow", "Rita", "rita@example.net", 100,
				 0 };
	struct decision d = { 0 };
	struct report_key *k;
	size_t n;
	int64_t *ids;

	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_report_insert(s, &rn, &a, &err), 0);
	rn.subject = "Use after free";
	assert_int_equal(store_report_insert(s, &rn, &b, &err), 0);
	d.report_id = b;
	d.verdict = (char *)"ok";
	d.date = 5000;
	assert_int_equal(store_decision_add(s, &d, NULL, &err), 0);
	d.date = 7000;
	assert_int_equal(store_decision_add(s, &d, NULL, &err), 0);
	assert_int_equal(store_commit(s, &err), 0);
	assert_int_equal(store_report_keys(s, &k, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(k[0].id, a);
	assert_int_equal(k[0].disclosure, 0);
	assert_string_equal(k[0].state, "new");
	assert_int_equal(k[1].disclosure, 7000);
	assert_false(k[0].public);
	free(k);
	/* The key says whether the report is already public (embargo.c
	 * needs it for the list and the calendar). */
	assert_int_equal(store_begin(s, &err), 0);
	unit_event(s, a, "public", "unit");
	assert_int_equal(store_commit(s, &err), 0);
	struct report_key one;
	assert_int_equal(store_report_key(s, a, &one, &err), 0);
	assert_true(one.public);
	/* The brief row: the row's own fields and the latest decision's
	 * date as the full one has them, nothing opened or counted. */
	struct report full, brief;
	assert_int_equal(store_report_get(s, b, &full, &err), 0);
	assert_int_equal(store_report_brief(s, b, &brief, &err), 0);
	assert_int_equal(brief.id, b);
	assert_int_equal(brief.disclosure, 7000);
	assert_int_equal(brief.received, full.received);
	assert_string_equal(brief.state, full.state);
	assert_int_equal(brief.public, full.public);
	assert_null(brief.subject);
	assert_null(brief.reporter_email);
	assert_int_equal(brief.nmessages, 0);
	report_release(&full);
	report_release(&brief);
	assert_int_equal(store_report_brief(s, a, &brief, &err), 0);
	assert_true(brief.public);
	report_release(&brief);
	assert_int_equal(store_report_brief(s, b + 1000, &brief, &err),
			 ERR_NOTFOUND);
	assert_non_null(strstr(err.msg, "no report"));
	/* The deadline order is core's (report_first_ids, tested with its
	 * oracle below): the store refuses to make one of its own. */
	assert_int_equal(store_report_first_ids(s, "deadline", 10, &ids, &n,
						&err),
			 ERR_INVALID);
	free(ids);
	assert_int_equal(store_report_first_ids(s, "id", 1, &ids, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ids[0], a);
	free(ids);
	/* Keys of many reports in one read per 64 (an open UI's changes):
	 * 70 more, asked for with one that is not there, in no order. */
	int64_t want[72], last = b;
	assert_int_equal(store_begin(s, &err), 0);
	for (int i = 0; i < 70; i++)
		assert_int_equal(store_report_insert(s, &rn, &last, &err), 0);
	assert_int_equal(store_commit(s, &err), 0);
	for (int i = 0; i < 70; i++)
		want[i] = last - i;
	want[70] = a;
	want[71] = last + 1000;
	assert_int_equal(store_report_keys_of(s, want, 72, &k, &n, &err), 0);
	assert_int_equal(n, 71);
	size_t seen_a = 0;
	for (size_t i = 0; i < n; i++) {
		assert_true(k[i].id == a || (k[i].id > b && k[i].id <= last));
		assert_true(k[i].id != last + 1000);
		if (k[i].id == a) {
			seen_a++;
			assert_true(k[i].public);
			assert_string_equal(k[i].state, "new");
		}
	}
	assert_int_equal(seen_a, 1);
	free(k);
	assert_int_equal(store_report_keys_of(s, want, 0, &k, &n, &err), 0);
	assert_int_equal(n, 0);
	free(k);
	store_close(s);
}

/* A stand-in for the team key (core/session.c's sealer): the value bound
 * to its table, column and row, so one moved elsewhere does not open;
 * pure, as store_parallel's threads need. */
static char *fake_bound(const char *table, const char *column, int64_t row)
{
	return xasprintf("%s.%s.%lld|", table, column, (long long)row);
}

static unsigned char *fake_seal(void *data, const char *table,
				const char *column, int64_t row,
				const void *plain, size_t len, size_t *n,
				char **why)
{
	char *b = fake_bound(table, column, row);
	size_t bl = strlen(b);
	unsigned char *out = xmalloc(bl + len + 1);

	(void)data;
	(void)why;
	memcpy(out, b, bl);
	for (size_t i = 0; i < len; i++)
		out[bl + i] = ((const unsigned char *)plain)[i] ^ 0x5a;
	*n = bl + len;
	free(b);
	return out;
}

static char *fake_open(void *data, const char *table, const char *column,
		       int64_t row, const unsigned char *sealed, size_t n,
		       char **why)
{
	char *b = fake_bound(table, column, row), *out = NULL;
	size_t bl = strlen(b);

	(void)data;
	if (n < bl || memcmp(sealed, b, bl))
		*why = xstrdup("moved from another row");
	else {
		out = xmalloc(n - bl + 1);
		for (size_t i = 0; i < n - bl; i++)
			out[i] = (char)(sealed[bl + i] ^ 0x5a);
		out[n - bl] = '\0';
	}
	free(b);
	return out;
}

static bool fake_stale(void *data, const unsigned char *sealed, size_t n)
{
	(void)data;
	(void)sealed;
	(void)n;
	return false;
}

static char *fake_mac(void *data, const char *purpose, const char *value,
		      unsigned back, char **why)
{
	(void)data;
	(void)why;
	if (back)
		return NULL; /* one generation */
	return xasprintf("%s-%zu", purpose, strlen(value));
}

/* The sealer's ready hook: how often it ran, and whether any run was
 * inside a transaction (it must not be: the key's unwrap would then hold
 * the server's write lock). */
static struct store *ready_store;
static int ready_calls, ready_in_tx;

static void fake_ready(void *data)
{
	(void)data;
	ready_calls++;
	ready_in_tx += store_in_tx(ready_store);
}

/* Sealed subjects and reporters, opened for the client to search and
 * sort: more reports than one thread opens (store_parallel shares them
 * out), each opened into its own report, in id order. */
/* A team key of generation fake_gen: each generation keys a value its
 * own way (back: the generation that many before it). */
static unsigned fake_gen = 1;

static char *gen_mac(void *data, const char *purpose, const char *value,
		     unsigned back, char **why)
{
	(void)data;
	(void)why;
	if (back >= fake_gen)
		return NULL;
	return xasprintf("%s-g%u-%s", purpose, fake_gen - back, value);
}

/* Whether the store's file (or database) answers sql with want. */
static void keyed_rows(const char *sql, const char *want)
{
	char *out = NULL;

	assert_int_equal(unit_sql("keyedgen.db", sql, &out), 0);
	if (!strstr(out, want))
		fail_msg("%s: %s, not %s", sql, out, want);
	free(out);
}

/* p brought in, with its event (the team server wants one in the same
 * transaction); the add's result. */
static int keyed_add(struct store *s, const struct participant *p,
		     struct err *err)
{
	int r;

	assert_int_equal(store_begin(s, err), 0);
	unit_event(s, p->report_id, "participant-add", "unit");
	r = store_participant_add(s, p, NULL, err);
	if (r == 0)
		assert_int_equal(store_commit(s, err), 0);
	else
		store_rollback(s);
	return r;
}

/*
 * Keyed values are made under the newest generation, and what was stored
 * under an older one is still found after a rotation: a message by its
 * Message-ID and its content, a participant by their address (and not
 * brought in twice), a reminder's recipient.
 */
static void test_keyed_generations(void **state)
{
	(void)state;
	struct store *s = unit_store_open("keyedgen.db");
	const struct store_sealer z = { NULL,	    fake_seal, fake_open,
					fake_stale, gen_mac,   NULL };
	struct report_new rn = { "x", NULL, NULL, 1, 0 };
	unsigned char blob[] = "ciphertext";
	struct message m = { 0 };
	struct participant p = { 0 }, got;
	struct message_ref refs[4];
	struct err err = { 0, "" };
	int64_t rid, mid, found;
	size_t n;
	time_t at;

	fake_gen = 1;
	store_set_sealer(s, &z);
	assert_int_equal(store_report_insert(s, &rn, &rid, &err), 0);
	m.report_id = rid;
	m.message_id = (char *)"a@x";
	m.content_hash = (char *)"h1";
	m.verdict = SIG_VALID;
	m.blob_kind = (char *)"original";
	m.blob = blob;
	m.blob_len = sizeof(blob);
	assert_int_equal(store_message_insert(s, &m, &mid, &err), 0);
	p.report_id = rid;
	p.email = (char *)"mia@x";
	p.added_by = (char *)"alice";
	assert_int_equal(keyed_add(s, &p, &err), 0);
	assert_int_equal(store_reminder_record(s, rid, "vic@x", "vendor", 1000,
					       &err),
			 0);
	keyed_rows("SELECT 'found-' || count(*) FROM participants"
		   " WHERE email = 'k1:address-g1-mia@x'",
		   "found-1");

	/* The rotation: generation 2 keys what is stored from now on. */
	fake_gen = 2;
	assert_int_equal(store_message_find(s, "a@x", NULL, &found, &err), 0);
	assert_int_equal(found, rid);
	assert_int_equal(store_message_find(s, NULL, "h1", &found, &err), 0);
	assert_int_equal(found, rid);
	assert_int_equal(
		store_message_id_holders(s, "a@x", 0, refs, 4, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(store_participant_get(s, rid, "mia@x", &got, &err), 0);
	participant_release(&got);
	assert_int_equal(keyed_add(s, &p, &err), ERR_DUPLICATE);
	assert_int_equal(
		store_reminder_last(s, rid, "vic@x", "vendor", &at, &err), 0);
	assert_int_equal(at, 1000);
	p.email = (char *)"max@x";
	assert_int_equal(keyed_add(s, &p, &err), 0);
	keyed_rows("SELECT 'found-' || count(*) FROM participants"
		   " WHERE email = 'k1:address-g2-max@x'",
		   "found-1");
	assert_int_equal(store_reminder_record(s, rid, "vic@x", "vendor", 2000,
					       &err),
			 0);
	assert_int_equal(
		store_reminder_last(s, rid, "vic@x", "vendor", &at, &err), 0);
	assert_int_equal(at, 2000);
	store_set_sealer(s, NULL);
	store_close(s);
}

/*
 * store_import_claim: a stored content is found, and then nothing is
 * drawn (no report number spent on a duplicate); new content gets the
 * ids its rows then have.  On a team server it is one wait, inside a
 * transaction with the BEGIN, the lock and a savepoint before it.
 */
static void test_import_claim(void **state)
{
	(void)state;
	struct store *s = unit_store_open("claim.db");
	const struct store_sealer z = { NULL,	    fake_seal, fake_open,
					fake_stale, fake_mac,  fake_ready };
	struct report_new rn = { "x", NULL, NULL, 1, 0 };
	unsigned char blob[] = "ciphertext";
	struct message m = { 0 };
	struct err err = { 0, "" };
	int64_t dup, rrow, mrow, rid, mid, r2, m2;
	unsigned long t0;
	int r;

	/* Without a team key the inserts draw their own. */
	assert_int_equal(
		store_import_claim(s, "h0", true, &dup, &rrow, &mrow, &err), 0);
	assert_true(dup == 0 && rrow == 0 && mrow == 0);

	/* (fake_mac keys a value by its length.) */
	store_set_sealer(s, &z);
	ready_store = s;
	/* What a lookup reads once (store_has_clear_ids), read. */
	assert_int_equal(store_message_find(s, NULL, "h", &dup, &err),
			 ERR_NOTFOUND);
	t0 = store_round_trips(s);
	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_savepoint(s, &err), 0);
	assert_int_equal(
		store_import_claim(s, "h1", true, &dup, &rrow, &mrow, &err), 0);
	assert_int_equal(store_round_trips(s), unit_pg ? t0 + 1 : 0);
	assert_int_equal(dup, 0);
	assert_true(rrow > 0 && mrow > 0);
	rn.id = rrow;
	assert_int_equal(store_report_insert(s, &rn, &rid, &err), 0);
	assert_int_equal(rid, rrow);
	m.report_id = rid;
	m.content_hash = (char *)"h1";
	m.verdict = SIG_VALID;
	m.blob_kind = (char *)"original";
	m.blob = blob;
	m.blob_len = sizeof(blob);
	m.drawn_id = mrow;
	assert_int_equal(store_message_insert(s, &m, &mid, &err), 0);
	assert_int_equal(mid, mrow);
	assert_int_equal(store_savepoint_release(s, &err), 0);
	assert_int_equal(store_commit(s, &err), 0);
	/* The inserts went with the commit. */
	assert_int_equal(store_round_trips(s), unit_pg ? t0 + 2 : 0);

	/* Stored: found, nothing drawn. */
	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(
		store_import_claim(s, "h1", true, &dup, &r2, &m2, &err), 0);
	assert_int_equal(dup, rid);
	assert_true(r2 == 0 && m2 == 0);
	/* A reply's content: only its message's id; the next report gets
	 * the number after the last, none spent in between. */
	assert_int_equal(
		store_import_claim(s, "h22", false, &dup, &r2, &m2, &err), 0);
	assert_true(dup == 0 && r2 == 0 && m2 == mrow + 1);
	m.content_hash = (char *)"h22";
	m.drawn_id = m2;
	assert_int_equal(store_message_insert(s, &m, &mid, &err), 0);
	assert_int_equal(mid, m2);
	assert_int_equal(
		store_import_claim(s, "h333", true, &dup, &r2, &m2, &err), 0);
	assert_true(dup == 0 && r2 == rrow + 1 && m2 == mrow + 2);
	store_rollback(s);

	/* A claimed insert that conflicts after all (a claim skipped): the
	 * transaction fails, never a report stored without its message. */
	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(
		store_import_claim(s, "h4444", true, &dup, &r2, &m2, &err), 0);
	rn.id = r2;
	assert_int_equal(store_report_insert(s, &rn, &rid, &err), 0);
	m.report_id = rid;
	m.content_hash = (char *)"h1";
	m.drawn_id = m2;
	r = store_message_insert(s, &m, &mid, &err);
	if (r == 0)
		r = store_commit(s, &err);
	else
		store_rollback(s);
	assert_int_equal(r, ERR_DUPLICATE);
	assert_non_null(strstr(err.msg, "cannot store the message"));
	assert_false(store_in_tx(s));
	assert_int_equal(store_report_count(s), 1);
	store_set_sealer(s, NULL);
	store_close(s);
}

static void test_sealed_search(void **state)
{
	(void)state;
	struct store *s = unit_store_open("sealedsearch.db");
	const struct store_sealer z = { NULL,	    fake_seal, fake_open,
					fake_stale, fake_mac,  fake_ready };
	struct report_subject *v;
	struct report *all;
	struct err err;
	int64_t id, want[8];
	size_t n, nw = 0;
	enum { N = 6000 };

	store_set_sealer(s, &z);
	ready_store = s;
	ready_calls = ready_in_tx = 0;
	assert_int_equal(store_begin(s, &err), 0);
	/* The key is had before the transaction, never in it. */
	assert_int_equal(ready_calls, 1);
	assert_int_equal(ready_in_tx, 0);
	for (int i = 1; i <= N; i++) {
		char *subj = xasprintf(
			i % 1000 ? "report %05d" : "report %05d Needle", i);
		char *mail = xasprintf(i == 2500 ? "NEEDLE%d@example.net"
						 : "r%d@example.net",
				       i);
		struct report_new rn = { subj, "Rita", mail, 100 + i, 0 };

		assert_int_equal(store_report_insert(s, &rn, &id, &err), 0);
		if (!(i % 1000) || i == 2500)
			want[nw++] = id;
		free(subj);
		free(mail);
	}
	assert_int_equal(store_commit(s, &err), 0);
	assert_int_equal(store_report_basics(s,
					     STORE_BASICS_SUBJECT |
						     STORE_BASICS_REPORTER,
					     &all, &n, &err),
			 0);
	assert_int_equal(n, N);
	for (size_t i = 0, k = 0; i < n; i++) {
		bool needle = k < nw && all[i].id == want[k];

		assert_int_equal(all[i].id > 0, true);
		assert_int_equal(i == 0 || all[i].id > all[i - 1].id, true);
		assert_int_equal(strstr(all[i].subject, "Needle") ||
					 strstr(all[i].reporter_email,
						"NEEDLE"),
				 needle);
		assert_string_equal(all[i].reporter_name, "Rita");
		k += needle;
		report_release(&all[i]);
	}
	free(all);
	assert_int_equal(store_report_subjects(s, 0, &v, &n, &err), 0);
	assert_int_equal(n, N);
	for (size_t i = 0; i < n; i++) {
		char *w = xasprintf(i % 1000 == 999 ? "report %05zu Needle"
						    : "report %05zu",
				    i + 1);
		assert_string_equal(v[i].subject, w);
		free(w);
	}
	id = v[N - 10].id;
	report_subjects_free(v, n);
	/* After an id: only the newer ones (the list reads a new report's). */
	assert_int_equal(store_report_subjects(s, id, &v, &n, &err), 0);
	assert_int_equal(n, 9);
	assert_string_equal(v[0].subject, "report 05992");
	report_subjects_free(v, n);
	/* They were stored sealed: without the sealer nothing opens. */
	store_set_sealer(s, NULL);
	assert_int_equal(store_report_subjects(s, id, &v, &n, &err), 0);
	assert_int_equal(n, 9);
	assert_true(str_starts(v[0].subject, STORE_UNOPENED));
	report_subjects_free(v, n);
	store_close(s);
}

/* A screen's page of rows in one read: each (distinct) id's row in its
 * own slot, id 0 for an id with no report, pages longer than one
 * query's ids. */
static void test_report_page(void **state)
{
	(void)state;
	struct store *s = unit_store_open("page.db");
	struct err err;
	struct report_new rn = { "Overflow", "Rita", "rita@example.net", 100,
				 0 };
	struct decision d = { 0 };
	int64_t id[70], want[71];
	struct report out[71];
	char subj[32];

	assert_int_equal(store_begin(s, &err), 0);
	for (int i = 0; i < 70; i++) {
		snprintf(subj, sizeof(subj), "Report %d", i);
		rn.subject = subj;
		assert_int_equal(store_report_insert(s, &rn, &id[i], &err), 0);
	}
	/* The latest decision counts, for the page and the first screen. */
	d.verdict = (char *)"ok";
	d.report_id = id[1];
	d.date = 5000;
	assert_int_equal(store_decision_add(s, &d, NULL, &err), 0);
	d.date = 9000;
	assert_int_equal(store_decision_add(s, &d, NULL, &err), 0);
	d.report_id = id[2];
	d.date = 7000;
	assert_int_equal(store_decision_add(s, &d, NULL, &err), 0);
	assert_int_equal(store_commit(s, &err), 0);

	/* 71 distinct ids, more than one query takes, in no order. */
	int idx[71], k = 2;
	want[0] = id[5];
	idx[0] = 5;
	want[1] = id[69] + 1000; /* no such report */
	idx[1] = -1;
	for (int j = 0; j < 70; j++)
		if ((j * 3) % 70 != 5) {
			idx[k] = (j * 3) % 70;
			want[k] = id[idx[k]];
			k++;
		}
	assert_int_equal(k, 71);
	assert_int_equal(store_report_page(s, want, 71, out, &err), 0);
	assert_int_equal(out[1].id, 0);
	for (int i = 0; i < 71; i++) {
		if (i == 1)
			continue;
		snprintf(subj, sizeof(subj), "Report %d", idx[i]);
		assert_int_equal(out[i].id, want[i]);
		assert_string_equal(out[i].subject, subj);
		assert_int_equal(out[i].disclosure,
				 idx[i] == 1	       ? 9000
					 : idx[i] == 2 ? 7000
						       : 0);
	}
	for (int i = 0; i < 71; i++)
		report_release(&out[i]);

	int64_t *ids;
	size_t n;
	struct session sess;
	memset(&sess, 0, sizeof(sess));
	sess.store = s;
	assert_int_equal(report_first_ids(&sess, "deadline", 3, &ids, &n, &err),
			 0);
	assert_int_equal(n, 3);
	assert_int_equal(ids[0], id[2]); /* 7000 */
	assert_int_equal(ids[1], id[1]); /* 9000, not its older 5000 */
	assert_int_equal(ids[2], id[0]); /* undecided: its policy default */
	free(ids);
	store_close(s);
}

/* An event of kind and detail about report id, as officer, in a
 * transaction of its own: 0, or the store's refusal (rolled back). */
static int one_event(struct store *s, int64_t id, const char *officer,
		     const char *kind, const char *detail, struct err *err)
{
	int r;

	assert_int_equal(store_begin(s, err), 0);
	if ((r = store_event_add(s, id, officer, kind, detail, err)) == 0 &&
	    (r = store_commit(s, err)) == 0)
		return 0;
	store_rollback(s);
	return r;
}

/* A report's row is what its events say: the store applies each state,
 * severity, consent, claim, public and release-start event to it, and
 * refuses one that does not follow from it (both engines, one rule). */
static void test_events_make_the_report(void **state)
{
	(void)state;
	struct store *s = unit_store_open("apply.db");
	struct report_new rn = { "r", NULL, NULL, 100, 0 };
	char *me = store_whoami(s), *claim = xasprintf("claimed by %s", me),
	     *release = xasprintf("released by %s", me);
	struct report r;
	struct err err;
	int64_t id;

	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_report_insert(s, &rn, &id, &err), 0);
	assert_int_equal(store_commit(s, &err), 0);

	/* Refused, and nothing of it kept. */
	assert_true(one_event(s, id, me, "state", "new -> disclosed", &err) <
		    0);
	assert_non_null(strstr(err.msg, "lifecycle"));
	assert_true(one_event(s, id, me, "state", "triaged -> accepted", &err) <
		    0);
	assert_true(one_event(s, id, me, "state", "new -> new", &err) < 0);
	assert_true(one_event(s, id, me, "severity", "none -> dire", &err) < 0);
	assert_true(one_event(s, id, me, "severity", "low -> high", &err) < 0);
	assert_true(one_event(s, id, me, "consent", "reporter consents", &err) <
		    0);
	assert_true(one_event(s, id, me, "claim", "claimed by someone-else",
			      &err) < 0);
	assert_true(one_event(s, id, me, "claim", "unit", &err) < 0);
	assert_int_equal(store_report_get(s, id, &r, &err), 0);
	assert_string_equal(r.state, "new");
	assert_string_equal(r.severity, "none");
	assert_null(r.claimed_by);
	assert_false(r.consent_credit || r.consent_exploit || r.public ||
		     r.release_started);
	report_release(&r);
	struct event *ev;
	size_t n;
	assert_int_equal(store_events_get(s, id, &ev, &n, &err), 0);
	assert_int_equal(n, 0);
	free(ev);

	/* Applied, each as it is stored. */
	assert_int_equal(one_event(s, id, me, "state", "new -> triaged", &err),
			 0);
	assert_int_equal(
		one_event(s, id, me, "state", "triaged -> accepted", &err), 0);
	assert_int_equal(one_event(s, id, me, "severity", "none -> high", &err),
			 0);
	assert_int_equal(one_event(s, id, me, "consent",
				   "reporter consents to be credited", &err),
			 0);
	assert_int_equal(one_event(s, id, me, "claim", claim, &err), 0);
	assert_int_equal(one_event(s, id, me, "public", "unit", &err), 0);
	assert_int_equal(one_event(s, id, me, "release-start", "unit", &err),
			 0);
	assert_int_equal(store_report_get(s, id, &r, &err), 0);
	assert_string_equal(r.state, "accepted");
	assert_string_equal(r.severity, "high");
	assert_string_equal(r.claimed_by, me);
	assert_true(r.consent_credit && r.public && r.release_started > 0);
	assert_false(r.consent_exploit);
	report_release(&r);
	assert_true(one_event(s, id, me, "release-start", "again", &err) < 0);
	assert_non_null(strstr(err.msg, "started already"));
	assert_int_equal(one_event(s, id, me, "claim", release, &err), 0);
	assert_int_equal(
		one_event(s, id, me, "consent",
			  "reporter consents to the release of exploit code",
			  &err),
		0);
	assert_int_equal(store_report_get(s, id, &r, &err), 0);
	assert_null(r.claimed_by);
	assert_true(r.consent_credit && r.consent_exploit);
	report_release(&r);
	/* Two officers claiming at once: the second finds the report
	 * claimed, and takes it over only by naming the holder.  (On
	 * SQLite, where the officer is what the caller says.) */
	if (!unit_pg) {
		assert_int_equal(one_event(s, id, "olga", "claim",
					   "claimed by olga", &err),
				 0);
		assert_true(one_event(s, id, "pat", "claim", "claimed by pat",
				      &err) < 0);
		assert_non_null(strstr(err.msg, "taken over"));
		assert_true(one_event(s, id, "pat", "claim",
				      "claimed by pat, taken over from rex",
				      &err) < 0);
		assert_int_equal(
			one_event(s, id, "pat", "claim",
				  "claimed by pat, taken over from olga", &err),
			0);
		assert_int_equal(one_event(s, id, "pat", "claim",
					   "claimed by pat", &err),
				 0);
		assert_int_equal(store_report_get(s, id, &r, &err), 0);
		assert_string_equal(r.claimed_by, "pat");
		report_release(&r);
	}
	free(claim);
	free(release);
	free(me);
	store_close(s);
}

/* A vendor's status on a report is what its events say: applied, the
 * row made at the first; a step down (but by a correction), a second
 * notification, an unknown status refused. */
static void test_vendor_events(void **state)
{
	(void)state;
	struct store *s = unit_store_open("vendor-events.db");
	struct report_new rn = { "r", NULL, NULL, 100, 0 };
	struct vendor v = { 0, (char *)"Acme", (char *)"sec@acme.example", NULL,
			    (char *)"vendor" };
	struct report_vendor rv;
	struct err err;
	int64_t id, vid;

	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_report_insert(s, &rn, &id, &err), 0);
	unit_event(s, 0, "vendor-add", "Acme");
	if (store_vendor_add(s, &v, &vid, &err) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(store_commit(s, &err), 0);
#define VE(kind, value)                                                      \
	(store_begin(s, &err) == 0 &&                                        \
			 store_report_vendor_event(s, id, vid, "unit", kind, \
						   "d", value, &err) == 0 && \
			 store_commit(s, &err) == 0                          \
		 ? 0                                                         \
		 : (store_rollback(s), -1))
	assert_int_equal(VE("vendor-status", "acknowledged"), 0);
	assert_int_equal(store_report_vendor_get(s, id, vid, &rv, &err), 0);
	assert_string_equal(rv.status, "acknowledged");
	assert_int_equal(rv.notified_at, 0);
	report_vendor_release(&rv);
	assert_int_equal(VE("vendor-status", "notified"), -1); /* down */
	assert_int_equal(VE("vendor-notify", "notified"), -1); /* not first */
	assert_int_equal(VE("vendor-status", "bribed"), -1); /* unknown */
	assert_int_equal(VE("vendor-status", "acknowledged"),
			 -1); /* no change */
	assert_int_equal(VE("vendor-status-correction", "notified"), 0);
	assert_int_equal(VE("vendor-status", "affected"), 0);
	assert_int_equal(VE("vendor-status", "fixed"), 0);
	assert_int_equal(VE("vendor-note", "called them"), 0);
	assert_int_equal(VE("vendor-statement", "we are fixed"), 0);
	assert_int_equal(VE("nda-request", NULL), 0);
#undef VE
	assert_int_equal(store_report_vendor_get(s, id, vid, &rv, &err), 0);
	assert_string_equal(rv.status, "fixed");
	assert_true(rv.notified_at > 0 && rv.updated_at > 0 &&
		    rv.nda_requested);
	assert_string_equal(rv.note, "called them");
	assert_string_equal(rv.statement, "we are fixed");
	report_vendor_release(&rv);
	store_close(s);
}

/* The store's lifecycle (the transitions table both engines' migrations
 * fill) is core's, step for step. */
static void test_lifecycle_is_cores(void **state)
{
	(void)state;
	struct store *s = unit_store_open("lifecycle.db");
	char *path = unit_path("lifecycle.db");
	sqlite3 *db;
	sqlite3_stmt *st;
	int rows = 0, steps = 0;

	store_close(s);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(
		sqlite3_prepare_v2(db,
				   "SELECT 1 FROM transitions"
				   " WHERE from_state = ?1 AND to_state = ?2",
				   -1, &st, NULL),
		SQLITE_OK);
	for (const char *const *a = report_states; *a; a++)
		for (const char *const *b = report_states; *b; b++) {
			bool core = triage_check_transition(*a, *b, NULL) == 0;
			sqlite3_bind_text(st, 1, *a, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 2, *b, -1, SQLITE_STATIC);
			bool store = sqlite3_step(st) == SQLITE_ROW;
			sqlite3_reset(st);
			if (core != store)
				fail_msg("%s -> %s: core %d, store %d", *a, *b,
					 core, store);
			steps += core;
		}
	sqlite3_finalize(st);
	assert_int_equal(sqlite3_prepare_v2(db,
					    "SELECT count(*) FROM transitions",
					    -1, &st, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	rows = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	assert_int_equal(rows, steps);
	assert_true(steps > 10);
	sqlite3_close(db);
	free(path);
}

/* The array literals a reseal sends the team server (db_array_*): any
 * text, NULL, the empty string and any bytes come back as they went. */
/*
 * A write transaction on the team server waits on it once per read and
 * once to commit: the BEGIN, the write lock and the writes nothing reads
 * go without a wait each (the lock is not held across this process's
 * turns on a busy machine).  A write so sent that fails loses the
 * transaction, and every statement after it says so with its error,
 * never with "current transaction is aborted"; the next transaction is
 * not touched by it.
 */
static void test_write_round_trips(void **state)
{
	(void)state;
	int64_t rid;
	struct store *s = unit_store_with_report("trips.db", &rid);
	struct err err = { 0, "" };
	struct report rep;
	struct event *ev;
	size_t n;
	unsigned long t0;

	t0 = store_round_trips(s);
	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_round_trips(s), t0);
	memset(&rep, 0, sizeof(rep));
	assert_int_equal(store_report_get(s, rid, &rep, &err), 0);
	report_release(&rep);
	assert_int_equal(store_round_trips(s), t0 + 1);
	assert_int_equal(store_event_add(s, rid, "bob", "note", "one", &err),
			 0);
	assert_int_equal(store_event_add(s, rid, "bob", "note", "two", &err),
			 0);
	assert_int_equal(store_round_trips(s), t0 + 1);
	assert_int_equal(store_commit(s, &err), 0);
	assert_int_equal(store_round_trips(s), t0 + 2);
	assert_int_equal(store_events_kind(s, rid, "note", &ev, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(ev[1].detail, "two");
	events_free(ev, n);

	/* An event for no report, refused by the server. */
	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(
		store_event_add(s, rid + 1000, "bob", "note", "x", &err), 0);
	for (int i = 0; i < 2; i++) {
		memset(&rep, 0, sizeof(rep));
		assert_true(store_report_get(s, rid, &rep, &err) < 0);
		assert_non_null(strstr(err.msg, "cannot record the event"));
		assert_null(strstr(err.msg, "aborted"));
	}
	assert_true(store_commit(s, &err) < 0);
	assert_non_null(strstr(err.msg, "cannot record the event"));
	assert_false(store_in_tx(s));
	assert_int_equal(store_events_kind(s, rid, "note", &ev, &n, &err), 0);
	assert_int_equal(n, 2);
	events_free(ev, n);
	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_event_add(s, rid, "bob", "note", "three", &err),
			 0);
	assert_int_equal(store_commit(s, &err), 0);
	assert_int_equal(store_events_kind(s, rid, "note", &ev, &n, &err), 0);
	assert_int_equal(n, 3);
	events_free(ev, n);
	store_close(s);
}

/* Opening a team server: the session's settings and the schema's version
 * in one wait; a database without the schema, or with a newer one, said. */
static void test_open_round_trips(void **state)
{
	(void)state;
	struct store *s = unit_store_open("opentrips.db");
	struct err err = { 0, "" };
	struct report rep;
	char *where, *out = NULL;
	int64_t rid;

	store_close(s);
	s = unit_store_reopen("opentrips.db");
	assert_int_equal(store_round_trips(s), 1);
	assert_int_equal(store_schema_version(s), (int)schema_pg_count);
	/* The search path took (the store names its tables bare). */
	memset(&rep, 0, sizeof(rep));
	assert_int_equal(store_report_get(s, 1, &rep, &err), ERR_NOTFOUND);
	store_close(s);

	/* Newer than this program: refused, naming both versions. */
	assert_int_equal(unit_sql("opentrips.db",
				  "INSERT INTO secteam.schema_info (version) "
				  "VALUES (9999)",
				  NULL),
			 0);
	where = unit_store_where("opentrips.db", false);
	s = NULL;
	assert_true(store_open(where, NULL, &s, &err) < 0);
	assert_null(s);
	assert_non_null(strstr(err.msg, "schema version 9999, newer than"));
	free(where);

	/* An empty database: not a team's, and team init is the way. */
	where = unit_store_where("openempty.db", true);
	assert_int_equal(store_open(where, NULL, &s, &err), ERR_NOTFOUND);
	assert_non_null(strstr(err.msg, "holds no secteam schema"));
	assert_non_null(strstr(err.msg, "team init"));
	/* Nor did the attempt make anything there. */
	assert_int_equal(unit_sql("openempty.db",
				  "SELECT 'schemas=' || count(*) FROM "
				  "pg_namespace WHERE nspname = 'secteam'",
				  &out),
			 0);
	assert_non_null(strstr(out, "schemas=0"));
	free(out);
	/* team init's open (create) sets the session up alone, then makes
	 * the schema. */
	struct store_opts o = { .create = true };
	assert_int_equal(store_open(where, &o, &s, &err), 0);
	assert_int_equal(store_schema_version(s), (int)schema_pg_count);
	struct report_new rn = { "a report", NULL, NULL, 1000, 0 };
	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_report_insert(s, &rn, &rid, &err), 0);
	assert_int_equal(store_commit(s, &err), 0);
	store_close(s);
	free(where);
}

static void test_array_literals(void **state)
{
	(void)state;
	static const char *const texts[] = {
		"plain",
		"a \"quoted\" word",
		"back\\slash\\",
		"{braces, comma}",
		"NULL",
		NULL,
		"",
		" spaced ",
		"caf\xc3\xa9 \xe2\x80\xae",
		"'",
	};
	static const unsigned char bytes[][4] = {
		{ 0, 1, 2, 3 },
		{ '"', '\\', '{', '}' },
		{ 0xff, 0, 0x7f, ',' },
	};
	struct store *s = unit_store_open("arrays.db");
	struct sbuf t = SBUF_INIT, b = SBUF_INIT, n = SBUF_INIT;
	struct stmt *st;
	struct err err;
	size_t k = 0;

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		db_array_text(&t, texts[i]);
		db_array_int(&n, (int64_t)i - 3);
		db_array_bytes(&b, i < ARRAY_SIZE(bytes) ? bytes[i] : NULL,
			       i < ARRAY_SIZE(bytes) ? sizeof(bytes[i]) : 0);
	}
	st = db_stmt(
		s,
		"SELECT t, n, b FROM unnest(?1::text[], ?2::bigint[],"
		" ?3::bytea[]) WITH ORDINALITY AS u(t, n, b, o) ORDER BY o",
		&err);
	assert_non_null(st);
	db_text(st, 1, db_array_end(&t));
	db_text(st, 2, db_array_end(&n));
	db_text(st, 3, db_array_end(&b));
	while (db_step(st) == 1) {
		size_t len;
		unsigned char *got = db_col_bytes(st, 2, &len);

		assert_true(k < ARRAY_SIZE(texts));
		if (texts[k])
			assert_string_equal(db_col_text(st, 0), texts[k]);
		else
			assert_true(db_col_null(st, 0));
		assert_int_equal(db_col_int(st, 1), (int64_t)k - 3);
		if (k < ARRAY_SIZE(bytes)) {
			assert_int_equal(len, sizeof(bytes[k]));
			assert_memory_equal(got, bytes[k], len);
		} else {
			assert_true(db_col_null(st, 2));
		}
		free(got);
		k++;
	}
	assert_int_equal(k, ARRAY_SIZE(texts));
	db_reset(st);
	/* An empty array is no rows, not an error. */
	sbuf_reset(&t);
	sbuf_reset(&n);
	sbuf_reset(&b);
	db_text(st, 1, db_array_end(&t));
	db_text(st, 2, db_array_end(&n));
	db_text(st, 3, db_array_end(&b));
	assert_int_equal(db_step(st), 0);
	db_reset(st);
	sbuf_release(&t);
	sbuf_release(&n);
	sbuf_release(&b);
	store_close(s);
}

/* Who acts is the store's to say, not the caller's. */
static void test_whoami(void **state)
{
	(void)state;
	struct store *s = unit_store_open("who.db");
	char *who = store_whoami(s);

	assert_non_null(who);
	assert_true(*who);
	free(who);
	store_close(s);
}

/* What migrations 12 to 14 add, gone again (with what the tests below undo, a
 * database as schema 1 left it). */
#define UNDO_14                                         \
	"DROP TRIGGER report_vendors_by_events_insert;" \
	"DROP TRIGGER report_vendors_by_events; DROP TRIGGER events_apply_vendor;"
#define UNDO_13                                                                       \
	"DROP TRIGGER events_ref_fixed; DROP TRIGGER participants_start_bare;"        \
	"DROP TRIGGER participants_by_events; DROP TRIGGER events_apply_participant;" \
	"ALTER TABLE events DROP COLUMN ref; ALTER TABLE events DROP COLUMN value;"
#define UNDO_12                                                                  \
	"DROP TABLE transitions; DROP TRIGGER reports_start_new;"                \
	"DROP TRIGGER reports_by_events; DROP TRIGGER events_apply_state;"       \
	"DROP TRIGGER events_apply_severity; DROP TRIGGER events_apply_consent;" \
	"DROP TRIGGER events_apply_claim; DROP TRIGGER events_apply_public;"     \
	"DROP TRIGGER events_apply_release_start;"

/* A database of schema 1 (message_id UNIQUE) is upgraded in place: rows,
 * ids and signatures kept, foreign keys still enforced. */
static void test_upgrade_from_1(void **state)
{
	(void)state;
	char *path = unit_path("v1-msg.db");
	struct store *s = unit_store_open("v1-msg.db");
	struct err err;
	sqlite3 *db;
	sqlite3_stmt *st;

	store_close(s);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(
		sqlite3_exec(
			db,
			UNDO_14 UNDO_13 UNDO_12
			"DROP TRIGGER events_server_id; DROP TRIGGER proposals_server_id;"
			"DROP TRIGGER decisions_server_id; DROP TABLE team_keys; DROP TABLE team_events; DROP TABLE report_events;"
			"ALTER TABLE participants DROP COLUMN key_fpr;"
			"DROP TABLE signatures; DROP TABLE messages;"
			"CREATE TABLE messages ("
			"  id INTEGER PRIMARY KEY,"
			"  report_id INTEGER NOT NULL REFERENCES reports(id),"
			"  message_id TEXT UNIQUE,"
			"  content_hash TEXT NOT NULL UNIQUE,"
			"  in_reply_to TEXT, from_name TEXT, from_email TEXT, subject TEXT,"
			"  date INTEGER, imported INTEGER NOT NULL,"
			"  encrypted INTEGER NOT NULL DEFAULT 0, verdict TEXT NOT NULL,"
			"  fingerprint TEXT, signer_matches_from INTEGER NOT NULL DEFAULT 0,"
			"  blob_kind TEXT NOT NULL CHECK (blob_kind IN ('original','sealed')),"
			"  blob BLOB NOT NULL);"
			"CREATE INDEX messages_report ON messages(report_id);"
			"CREATE TABLE signatures (id INTEGER PRIMARY KEY,"
			"  message_id INTEGER NOT NULL REFERENCES messages(id),"
			"  verdict TEXT NOT NULL, fingerprint TEXT, created INTEGER);"
			"INSERT INTO reports (id, subject, received) VALUES (3, 'old', 1);"
			"INSERT INTO messages (id, report_id, message_id, content_hash, imported,"
			"  verdict, blob_kind, blob) VALUES (7, 3, 'a@x', 'h1', 1, 'valid',"
			"  'sealed', x'00');"
			"INSERT INTO signatures (message_id, verdict) VALUES (7, 'valid');"
			"PRAGMA user_version = 1;",
			NULL, NULL, NULL),
		SQLITE_OK);
	sqlite3_close(db);

	s = unit_store_open("v1-msg.db");
	assert_int_equal(store_schema_version(s), (int)schema_sqlite_count);
	struct message *ms;
	size_t n;
	assert_int_equal(store_messages_get(s, 3, false, &ms, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ms[0].id, 7);
	assert_string_equal(ms[0].message_id, "a@x");
	/* The stored name, written as text, reads back as the enum. */
	assert_int_equal(ms[0].verdict, SIG_VALID);
	message_release(&ms[0]);
	free(ms);
	/* The Message-ID may now repeat; the content hash may not. */
	struct message m = { 0 };
	int64_t row;
	unsigned char blob[] = "c";
	m.report_id = 3;
	m.message_id = (char *)"a@x";
	m.content_hash = (char *)"h2";
	m.verdict = SIG_GOOD;
	m.blob_kind = (char *)"sealed";
	m.blob = blob;
	m.blob_len = 1;
	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_message_insert(s, &m, &row, &err), 0);
	m.message_id = (char *)"b@x";
	assert_int_equal(store_message_insert(s, &m, &row, &err),
			 ERR_DUPLICATE);
	/* Foreign keys are on again once open. */
	assert_int_equal(store_signature_add(s, 999, SIG_VALID, NULL, 0, &err),
			 ERR_IO);
	store_rollback(s);
	store_close(s);

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA foreign_key_check", -1,
					    &st, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	assert_int_equal(
		sqlite3_prepare_v2(
			db,
			"SELECT count(*) FROM sqlite_master WHERE name = 'messages_message_id'",
			-1, &st, NULL),
		SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), 1);
	sqlite3_finalize(st);
	sqlite3_close(db);
	free(path);
}

/* Migration 2 on a database made before it: the participants it holds
 * stay, with no confirmed key, and a key can then be recorded. */
static void test_migrate_participant_key(void **state)
{
	(void)state;
	struct store *s = unit_store_open("v1.db");
	struct err err;
	char *path = unit_path("v1.db");
	struct report_new rn = { "s", NULL, NULL, 1, 0 };
	struct participant p;
	int64_t id;
	sqlite3 *db;

	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_report_insert(s, &rn, &id, &err), 0);
	assert_int_equal(store_commit(s, &err), 0);
	store_close(s);
	/* Back to schema 1, as an older secteam-tui left it. */
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(
		sqlite3_exec(
			db,
			UNDO_14 UNDO_13 UNDO_12
			"DROP TRIGGER events_server_id; DROP TRIGGER proposals_server_id;"
			"DROP TRIGGER decisions_server_id; DROP TABLE team_keys; DROP TABLE team_events; DROP TABLE report_events;"
			"ALTER TABLE participants DROP COLUMN key_fpr;"
			"INSERT INTO participants (report_id, email, added_by, added_at)"
			"  VALUES (1, 'mia@example.org', 'alice', 5);"
			"PRAGMA user_version = 1;",
			NULL, NULL, NULL),
		SQLITE_OK);
	sqlite3_close(db);
	s = unit_store_open("v1.db");
	assert_int_equal(store_schema_version(s), (int)schema_sqlite_count);
	assert_int_equal(
		store_participant_get(s, id, "mia@example.org", &p, &err), 0);
	assert_null(p.key_fpr);
	participant_release(&p);
	/* A key is its event, naming the row, which the store applies. */
	assert_int_equal(
		store_participant_get(s, id, "MIA@example.org", &p, &err), 0);
	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(
		store_event_add_ref(
			s, id, "unit", "participant-key",
			"mia@example.org: key 0123456789ABCDEF0123456789ABCDEF01234567 confirmed",
			p.id, "0123456789ABCDEF0123456789ABCDEF01234567", &err),
		0);
	assert_int_equal(store_commit(s, &err), 0);
	participant_release(&p);
	assert_int_equal(store_participant_get(s, id, "rex@example.org", &p,
					       &err),
			 ERR_NOTFOUND);
	assert_string_equal(
		err.msg, "'rex@example.org' is not a participant of report 1");
	assert_int_equal(
		store_participant_get(s, id, "mia@example.org", &p, &err), 0);
	assert_string_equal(p.key_fpr,
			    "0123456789ABCDEF0123456789ABCDEF01234567");
	participant_release(&p);
	store_close(s);
	free(path);
}

/* A folder under the test's folder with the given mode (umask aside). */
static char *mk_sub(const char *name, int mode)
{
	char *d = unit_path(name);
	assert_int_equal(mkdir(d, 0700), 0);
	assert_int_equal(chmod(d, (mode_t)mode), 0);
	return d;
}

static void touch(const char *path, int mode)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(chmod(path, (mode_t)mode), 0);
}

/* store_open fails with ERR_REFUSED and exactly this message. */
static void refused(const char *path, const char *want)
{
	struct store *s = NULL;
	struct err err;

	assert_int_equal(store_open(path, NULL, &s, &err), ERR_REFUSED);
	assert_null(s);
	assert_string_equal(err.msg, want);
}

static void test_folder_others_can_write(void **state)
{
	(void)state;
	char *d = mk_sub("open", 0777), *path = xasprintf("%s/team.db", d),
	     *want;
	struct stat st;

	want = xasprintf(
		"refusing database '%s': other users can create files in its folder '%s' (mode 0777); use a private folder",
		path, d);
	refused(path, want);
	free(want);
	assert_int_equal(stat(path, &st), -1); /* nothing created */

	chmod(d, 0770);
	want = xasprintf(
		"refusing database '%s': its group can create files in its folder '%s' (mode 0770; run: chmod g-w '%s', or set store.shared_group)",
		path, d, d);
	refused(path, want);
	free(want);

	/* Sticky and ours (a private /tmp-like folder): allowed. */
	chmod(d, 01777);
	struct store *s = unit_store_open("open/team.db");
	store_close(s);
	free(path);
	free(d);
}

static void test_planted_files(void **state)
{
	(void)state;
	char *d = mk_sub("planted", 0700), *path = xasprintf("%s/team.db", d);
	char *wal = xasprintf("%s-wal", path), *shm = xasprintf("%s-shm", path),
	     *journal = xasprintf("%s-journal", path), *want;

	/* Before the database exists: a 0666 -wal and -shm left for us. */
	touch(wal, 0666);
	touch(shm, 0666);
	want = xasprintf(
		"refusing database file '%s': its mode 0666 lets others read it (run: chmod 600 '%s')",
		wal, wal);
	refused(path, want);
	free(want);
	unlink(wal);
	want = xasprintf(
		"refusing database file '%s': its mode 0666 lets others read it (run: chmod 600 '%s')",
		shm, shm);
	refused(path, want);
	free(want);
	unlink(shm);

	/* A link where the -shm goes, a folder where the -journal goes. */
	assert_int_equal(symlink(path, shm), 0);
	want = xasprintf("refusing database file '%s': it is a symbolic link",
			 shm);
	refused(path, want);
	free(want);
	unlink(shm);
	assert_int_equal(mkdir(journal, 0700), 0);
	want = xasprintf(
		"refusing database file '%s': it is not a regular file",
		journal);
	refused(path, want);
	free(want);
	rmdir(journal);

	/* Clean: it opens, and the files it made pass the same checks. */
	struct store *s = unit_store_open("planted/team.db");
	struct err err;
	assert_int_equal(store_check_files(path, NULL, &err), 0);
	store_close(s);
	free(path);
	free(wal);
	free(shm);
	free(journal);
	free(d);
}

/* Files of another user (root can make them): refused, naming the owner. */
static void test_planted_files_foreign(void **state)
{
	(void)state;
	char *d, *path, *wal, *want;

	if (geteuid() != 0)
		skip();
	d = mk_sub("foreign", 0700);
	path = xasprintf("%s/team.db", d);
	wal = xasprintf("%s-wal", path);
	touch(wal, 0600);
	assert_int_equal(chown(wal, 65534, 65534), 0);
	want = xasprintf(
		"refusing database file '%s': it belongs to another user (uid 65534)",
		wal);
	refused(path, want);
	free(want);
	unlink(wal);
	assert_int_equal(chown(d, 65534, 65534), 0);
	want = xasprintf(
		"refusing database '%s': its folder '%s' belongs to another user (uid 65534)",
		path, d);
	refused(path, want);
	free(want);
	free(wal);
	free(path);
	free(d);
}

/* A migration that has shipped never changes (schema-sqlite.c): a store
 * made by an older build would not get the edit.  The first 16 hex digits
 * of each one's SHA-256; a new migration adds its line here. */
static void test_migrations_frozen(void **state)
{
	(void)state;
	static const char *const sqlite_sha[] = {
		"7aed2eaf434a019b", "06760d69447c033c", "f055d03847efe1ae",
		"c6102771f071d596", "d13b63849c928e7d", "97e907b3b49416d0",
		"62db9c21cca0a514", "ff043948b38d8cf8", "51625cf1a51e0b9e",
		"2a05e9ae046fe763", "17c71dc56d5dbba3", "dfa1e67c4279753b",
		"62ab8d224699f287", "42808fc7b204b5a0", "373d7993b1dacc0a",
		"8ee2b197e4077746",
	};
	static const char *const pg_sha[] = {
		"23070e3e858e2688", "7bb57eccba3a7a30", "b6426e1f9eda0893",
		"bc81571a6656b438", "ac74b007985a597c", "54ce0dc3a6a46ee2",
		"362fd2f67fa91161", "98f8db7d44fcca4e", "67a6c1fa52872514",
		"1634e55be32833d6", "7c571db948d5ff53", "8438a73cd8b7b1d4",
		"0ba59ff2973f08b1", "3f8c75430cb4972c", "e32676d9353de8a4",
		"50ea7759a79bf2d1",
	};
	struct {
		const char *const *text, *const *sha;
		size_t n, nsha;
	} engines[] = {
		{ schema_sqlite, sqlite_sha, schema_sqlite_count,
		  ARRAY_SIZE(sqlite_sha) },
		{ schema_pg, pg_sha, schema_pg_count, ARRAY_SIZE(pg_sha) },
	};

	for (size_t e = 0; e < ARRAY_SIZE(engines); e++) {
		assert_true(engines[e].n >= engines[e].nsha);
		for (size_t i = 0; i < engines[e].nsha; i++) {
			char *h = g_compute_checksum_for_string(
				G_CHECKSUM_SHA256, engines[e].text[i], -1);
			h[16] = '\0';
			if (strcmp(h, engines[e].sha[i]) != 0)
				fail_msg(
					"%s migration %zu changed: %s, shipped as %s",
					e ? "PostgreSQL" : "SQLite", i + 1, h,
					engines[e].sha[i]);
			g_free(h);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		/* SQLite only: the file and its modes */
		cmocka_unit_test(test_migrations_frozen),
		cmocka_unit_test_setup(test_modes_whatever_umask,
				       unit_on_sqlite),
		cmocka_unit_test_setup(test_not_a_database, unit_on_sqlite),
		cmocka_unit_test_setup(test_upgrade_from_1, unit_on_sqlite),
		cmocka_unit_test_setup(test_lifecycle_is_cores, unit_on_sqlite),
		cmocka_unit_test_setup(test_migrate_participant_key,
				       unit_on_sqlite),
		cmocka_unit_test_setup(test_folder_others_can_write,
				       unit_on_sqlite),
		cmocka_unit_test_setup(test_planted_files, unit_on_sqlite),
		cmocka_unit_test_setup(test_planted_files_foreign,
				       unit_on_sqlite),
		/* each on SQLite, then on PostgreSQL */
		UNIT_BOTH(test_reopen_keeps_data),
		UNIT_BOTH(test_rollback),
		UNIT_BOTH(test_events_append_only),
		UNIT_BOTH(test_message_unique),
		UNIT_BOTH(test_messages_kept_as_received),
		UNIT_BOTH(test_reseal_list),
		UNIT_BOTH(test_listing_orders),
		UNIT_BOTH(test_events_since),
		UNIT_BOTH(test_events_kind),
		UNIT_BOTH(test_milestones),
		UNIT_BOTH(test_vendors),
		UNIT_BOTH(test_reminders),
		UNIT_BOTH(test_report_keys),
		UNIT_BOTH(test_first_screen_deadline),
		UNIT_BOTH(test_sealed_search),
		UNIT_BOTH(test_import_claim),
		UNIT_BOTH(test_keyed_generations),
		UNIT_BOTH(test_report_page),
		UNIT_BOTH(test_whoami),
		UNIT_BOTH(test_events_make_the_report),
		UNIT_BOTH(test_vendor_events),
		/* PostgreSQL only: what only the team server takes */
		cmocka_unit_test_setup(test_array_literals, unit_on_pg),
		cmocka_unit_test_setup(test_write_round_trips, unit_on_pg),
		cmocka_unit_test_setup(test_open_round_trips, unit_on_pg),
	};

	return unit_run("store", tests, ARRAY_SIZE(tests));
}
