/* store/: migrations, file modes, transactions, the append-only log. */
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "store/store.h"

static char dir[] = "/tmp/secteam-store-XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char *cmd = xasprintf("rm -rf '%s'", dir);
	int r = system(cmd);
	free(cmd);
	return r;
}

static struct store *open_db(const char *name)
{
	struct store *s = NULL;
	struct err err = { 0, "" };
	char *path = xasprintf("%s/%s", dir, name);
	int r = store_open(path, NULL, &s, &err);
	if (r)
		fail_msg("%s", err.msg);
	free(path);
	return s;
}

static void test_modes_whatever_umask(void **state)
{
	(void)state;
	struct stat st;
	mode_t old = umask(0);
	char *path = xasprintf("%s/sub/dir/t.db", dir);
	struct store *s = NULL;
	struct err err;

	assert_int_equal(store_open(path, NULL, &s, &err), 0);
	struct report_new rn = { "s", NULL, NULL, 1 };
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
	char *d = xasprintf("%s/sub/dir", dir);
	assert_int_equal(stat(d, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	assert_int_equal(store_schema_version(s), 2);
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
	struct store *s = open_db("reopen.db");
	struct err err;
	int64_t id;
	struct report_new rn = { "Overflow in tcp", "Rita", "rita@example.net", 1000 };

	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_report_insert(s, &rn, &id, &err), 0);
	assert_int_equal(store_event_add(s, id, "alice", "import", "x", &err), 0);
	assert_int_equal(store_commit(s, &err), 0);
	store_close(s);
	s = open_db("reopen.db");
	assert_int_equal(store_schema_version(s), 2);
	struct report r;
	assert_int_equal(store_report_get(s, id, &r, &err), 0);
	assert_string_equal(r.subject, "Overflow in tcp");
	assert_string_equal(r.state, "new");
	assert_string_equal(r.severity, "none");
	report_release(&r);
	assert_int_equal(store_report_get(s, id + 100, &r, &err), ERR_NOTFOUND);
	assert_non_null(strstr(err.msg, "no report"));
	store_close(s);
}

static void test_rollback(void **state)
{
	(void)state;
	struct store *s = open_db("rollback.db");
	struct err err;
	int64_t id;
	struct report_new rn = { "x", NULL, NULL, 1 };

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
	struct store *s = open_db("events.db");
	struct err err;
	char *path = xasprintf("%s/events.db", dir);
	sqlite3 *db;

	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_event_add(s, 0, "alice", "vendor-add", "acme", &err), 0);
	assert_int_equal(store_commit(s, &err), 0);
	store_close(s);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_not_equal(sqlite3_exec(db, "UPDATE events SET detail='forged'", NULL, NULL, NULL), SQLITE_OK);
	assert_non_null(strstr(sqlite3_errmsg(db), "append-only"));
	assert_int_not_equal(sqlite3_exec(db, "DELETE FROM events", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	s = open_db("events.db");
	struct event *ev;
	size_t n;
	assert_int_equal(store_events_get(s, 0, &ev, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(ev[0].detail, "acme");
	event_release(&ev[0]);
	free(ev);
	store_close(s);
	free(path);
}

static void test_message_unique(void **state)
{
	(void)state;
	struct store *s = open_db("msg.db");
	struct err err;
	int64_t rid, mid, found;
	struct report_new rn = { "x", NULL, NULL, 1 };
	unsigned char blob[] = "ciphertext";
	struct message m = { 0 };

	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_report_insert(s, &rn, &rid, &err), 0);
	m.report_id = rid;
	m.message_id = (char *)"abc@example.net";
	m.content_hash = (char *)"h1";
	m.verdict = (char *)"valid";
	m.blob_kind = (char *)"original";
	m.blob = blob;
	m.blob_len = sizeof(blob);
	assert_int_equal(store_message_insert(s, &m, &mid, &err), 0);
	m.content_hash = (char *)"h2";
	assert_int_equal(store_message_insert(s, &m, &mid, &err), ERR_DUPLICATE);
	assert_int_equal(store_commit(s, &err), 0);
	assert_int_equal(store_message_find(s, "abc@example.net", NULL, &found, &err), 0);
	assert_int_equal(found, rid);
	assert_int_equal(store_message_find(s, NULL, "h1", &found, &err), 0);
	assert_int_equal(store_message_find(s, "nope", "nope", &found, &err), ERR_NOTFOUND);
	struct message *ms;
	size_t n;
	assert_int_equal(store_messages_get(s, rid, true, &ms, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ms[0].blob_len, sizeof(blob));
	assert_memory_equal(ms[0].blob, blob, sizeof(blob));
	message_release(&ms[0]);
	free(ms);
	store_close(s);
}

static int collect(const struct report *r, void *data)
{
	struct sbuf *sb = data;
	sbuf_addf(sb, "%lld,", (long long)r->id);
	return 0;
}

static void test_listing_orders(void **state)
{
	(void)state;
	struct store *s = open_db("list.db");
	struct err err;
	int64_t id;
	const char *sev[] = { "low", "critical", "none", "high" };
	struct sbuf sb = SBUF_INIT;

	assert_int_equal(store_begin(s, &err), 0);
	for (int i = 0; i < 4; i++) {
		struct report_new rn = { "r", NULL, NULL, 100 + i };
		struct report_update u = { NULL, sev[i], NULL, -1, -1, -1, 0 };
		assert_int_equal(store_report_insert(s, &rn, &id, &err), 0);
		assert_int_equal(store_report_update(s, id, &u, &err), 0);
	}
	struct report_update closed = { "closed", NULL, NULL, -1, -1, -1, 0 };
	assert_int_equal(store_report_update(s, 3, &closed, &err), 0);
	assert_int_equal(store_commit(s, &err), 0);

	struct report_filter f = { NULL, false, "severity" };
	assert_int_equal(store_report_each(s, &f, collect, &sb, &err), 0);
	assert_string_equal(sb.buf, "2,4,1,3,");
	sbuf_reset(&sb);
	f.order = "received";
	assert_int_equal(store_report_each(s, &f, collect, &sb, &err), 0);
	assert_string_equal(sb.buf, "4,3,2,1,");
	sbuf_reset(&sb);
	f.open_only = true;
	f.order = NULL;
	assert_int_equal(store_report_each(s, &f, collect, &sb, &err), 0);
	assert_string_equal(sb.buf, "1,2,4,");
	sbuf_reset(&sb);
	f.open_only = false;
	f.state = "closed";
	assert_int_equal(store_report_each(s, &f, collect, &sb, &err), 0);
	assert_string_equal(sb.buf, "3,");
	f.order = "bogus";
	assert_int_equal(store_report_each(s, &f, collect, &sb, &err), ERR_INVALID);
	sbuf_release(&sb);
	store_close(s);
}

static void test_not_a_database(void **state)
{
	(void)state;
	char *path = xasprintf("%s/garbage.db", dir);
	FILE *f = fopen(path, "w");
	fputs("this is not a database, just some text that is long enough...", f);
	fclose(f);
	chmod(path, 0600);
	struct store *s;
	struct err err;
	assert_true(store_open(path, NULL, &s, &err) < 0);
	assert_non_null(strstr(err.msg, path));
	free(path);
}

/* Migration 2 on a database made before it: the participants it holds
 * stay, with no confirmed key, and a key can then be recorded. */
static void test_migrate_participant_key(void **state)
{
	(void)state;
	struct store *s = open_db("v1.db");
	struct err err;
	char *path = xasprintf("%s/v1.db", dir);
	struct report_new rn = { "s", NULL, NULL, 1 };
	struct participant p;
	int64_t id;
	sqlite3 *db;

	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_report_insert(s, &rn, &id, &err), 0);
	assert_int_equal(store_commit(s, &err), 0);
	store_close(s);
	/* Back to schema 1, as an older secteam-tui left it. */
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
		"ALTER TABLE participants DROP COLUMN key_fpr;"
		"INSERT INTO participants (report_id, email, added_by, added_at)"
		"  VALUES (1, 'mia@example.org', 'alice', 5);"
		"PRAGMA user_version = 1;", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	s = open_db("v1.db");
	assert_int_equal(store_schema_version(s), 2);
	assert_int_equal(store_participant_get(s, id, "mia@example.org", &p, &err), 0);
	assert_null(p.key_fpr);
	participant_release(&p);
	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_participant_set_key(s, id, "MIA@example.org",
		"0123456789ABCDEF0123456789ABCDEF01234567", &err), 0);
	assert_int_equal(store_participant_set_key(s, id, "rex@example.org",
		"0123456789ABCDEF0123456789ABCDEF01234567", &err), ERR_NOTFOUND);
	assert_string_equal(err.msg, "'rex@example.org' is not a participant of report 1");
	assert_int_equal(store_commit(s, &err), 0);
	assert_int_equal(store_participant_get(s, id, "mia@example.org", &p, &err), 0);
	assert_string_equal(p.key_fpr, "0123456789ABCDEF0123456789ABCDEF01234567");
	participant_release(&p);
	store_close(s);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modes_whatever_umask),
		cmocka_unit_test(test_reopen_keeps_data),
		cmocka_unit_test(test_rollback),
		cmocka_unit_test(test_events_append_only),
		cmocka_unit_test(test_message_unique),
		cmocka_unit_test(test_listing_orders),
		cmocka_unit_test(test_not_a_database),
		cmocka_unit_test(test_migrate_participant_key),
	};
	return cmocka_run_group_tests_name("store", tests, setup, teardown);
}
