/*
 * Common includes and fixtures for the cmocka unit tests (one file per
 * module).
 *
 * The store fixture: unit_store_open(NAME) gives a fresh, empty store on
 * the engine under test.  That is SQLite (a file NAME in a temporary
 * folder made by unit_store_setup) unless unit_use_pg(true) was called,
 * then a new database on the PostgreSQL server scripts/run-tests.sh
 * started (PGHOST and friends in the environment; SECTEAM_TEST_PG=1).
 * unit_pg_available() says whether that server is there; a test group
 * that needs it fails, not skips, when the run promised one.
 * unit_store_with_report(NAME, &id) is that store holding one report;
 * unit_path(NAME) a file name in the temporary folder (caller frees).
 *
 * The cmd_ctx fixture: unit_ctx_init(&ctx, NAME, out, errout) is a
 * context as the shell makes one, but with no config file read: output
 * to out and errout (stdout and stderr when NULL) and, when NAME is not
 * NULL, the fresh store NAME on the engine under test, opened with the
 * officer it records (store_whoami, as cmd_ctx_store does).  A NULL NAME
 * leaves the store unopened (a command that needs one opens the default
 * database: do not).  unit_ctx_release(&ctx) closes and frees it all but
 * the streams.  Groups using either fixture run through unit_run, whose
 * setup makes the temporary folder.
 */
#ifndef SECTEAM_UNIT_H
#define SECTEAM_UNIT_H
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cmd/cmd.h"
#include "store/store.h"
#include "util/util.h"

#define UNIT_UNUSED __attribute__((unused))

static char unit_dir[64];
static bool unit_pg;

static UNIT_UNUSED bool unit_pg_available(void)
{
	const char *v = getenv("SECTEAM_TEST_PG");

	return v && !strcmp(v, "1");
}

static UNIT_UNUSED void unit_use_pg(bool on)
{
	unit_pg = on;
}

static UNIT_UNUSED int unit_store_setup(void **state)
{
	(void)state;
	snprintf(unit_dir, sizeof(unit_dir), "%s/secteam-unit-XXXXXX",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR")
						       : "/tmp");
	return mkdtemp(unit_dir) ? 0 : -1;
}

static UNIT_UNUSED int unit_store_teardown(void **state)
{
	(void)state;
	char *cmd = xasprintf("rm -rf '%s'", unit_dir);
	int r = system(cmd);
	free(cmd);
	return r;
}

/* Per-test setups choosing the engine (cmocka_unit_test_setup). */
static UNIT_UNUSED int unit_on_sqlite(void **state)
{
	(void)state;
	unit_use_pg(false);
	return 0;
}

static UNIT_UNUSED int unit_on_pg(void **state)
{
	(void)state;
	if (!unit_pg_available()) {
		print_error("no PostgreSQL test server (SECTEAM_TEST_PG=%s)\n",
			    getenv("SECTEAM_TEST_PG")
				    ? getenv("SECTEAM_TEST_PG")
				    : "unset");
		return -1;
	}
	unit_use_pg(true);
	return 0;
}

/* A test on SQLite, then the same test on PostgreSQL. */
#define UNIT_BOTH(t)                               \
	cmocka_unit_test_setup(t, unit_on_sqlite), \
		cmocka_unit_test_setup(t, unit_on_pg)

/*
 * Runs tests (a group with the store fixture).  Run by hand, without
 * scripts/run-tests.sh (which sets SECTEAM_TEST_PG, to 1 when its server
 * started), the PostgreSQL half is left out; in a run that promised a
 * server, it fails when the server is not there.
 */
static UNIT_UNUSED int unit_run(const char *name,
				const struct CMUnitTest *tests, size_t n)
{
	struct CMUnitTest *run = calloc(n + 1, sizeof(*run));
	size_t k = 0;
	int r;

	for (size_t i = 0; i < n; i++)
		if (tests[i].setup_func != unit_on_pg ||
		    getenv("SECTEAM_TEST_PG"))
			run[k++] = tests[i];
	r = _cmocka_run_group_tests(name, run, k, unit_store_setup,
				    unit_store_teardown);
	free(run);
	return r;
}

/* The test server's database for NAME (caller frees). */
static UNIT_UNUSED char *unit_db_name(const char *name)
{
	struct sbuf db = SBUF_INIT;

	sbuf_addf(&db, "unit_%ld_", (long)getpid());
	for (const char *p = name; *p; p++)
		sbuf_addch(&db,
			   (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')
				   ? *p
				   : '_');
	return sbuf_detach(&db, NULL);
}

/* What store_open takes for NAME on the engine under test (caller
 * frees); on PostgreSQL the database is created (empty) first. */
static UNIT_UNUSED char *unit_store_where(const char *name, bool fresh)
{
	if (!unit_pg)
		return xasprintf("%s/%s", unit_dir, name);
	char *db = unit_db_name(name);
	if (fresh) {
		char *cmd = xasprintf(
			"{ dropdb --if-exists '%s' && createdb '%s'; }"
			" >/dev/null 2>&1",
			db, db);
		if (system(cmd) != 0)
			fail_msg("cannot create database %s on the test server",
				 db);
		free(cmd);
	}
	char *where = xasprintf("dbname=%s", db);
	free(db);
	return where;
}

static int unit_sql(const char *name, const char *sql, char **out);

/* An event of kind (with detail) about report (0: the team's): the team
 * server refuses at commit a change that no event of its kind in the
 * same transaction records (schema-pg.c, migration 5), and store tests
 * make rows directly, so they record them as the use cases do. */
static UNIT_UNUSED void unit_event(struct store *s, int64_t report,
				   const char *kind, const char *detail)
{
	struct err err = { 0, "" };

	if (store_event_add(s, report, "unit", kind, detail, &err) < 0)
		fail_msg("cannot record a %s event: %s", kind, err.msg);
}

/* A fresh store NAME on the engine under test (fails the test if it
 * cannot be opened). */
static UNIT_UNUSED struct store *unit_store_open(const char *name)
{
	struct store *s = NULL;
	struct err err = { 0, "" };
	struct store_opts o = { .create = true };
	char *where = unit_store_where(name, true);

	if (store_open(where, &o, &s, &err))
		fail_msg("%s: %s", where, err.msg);
	free(where);
	/* The tests' pinned clock on the team server too (migration 5). */
	if (unit_pg &&
	    unit_sql(name, "UPDATE secteam.settings SET client_clock = 1",
		     NULL))
		fail_msg("%s: cannot set the test clock", name);
	return s;
}

/* Reopens the store NAME made by unit_store_open. */
static UNIT_UNUSED struct store *unit_store_reopen(const char *name)
{
	struct store *s = NULL;
	struct err err = { 0, "" };
	char *where = unit_store_where(name, false);

	if (store_open(where, NULL, &s, &err))
		fail_msg("%s: %s", where, err.msg);
	free(where);
	return s;
}

/* A fresh store NAME holding one report, "a report", received at 1000;
 * *id gets its id. */
static UNIT_UNUSED struct store *unit_store_with_report(const char *name,
							int64_t *id)
{
	struct store *s = unit_store_open(name);
	struct err err = { 0, "" };
	struct report_new rn = { "a report", NULL, NULL, 1000, 0 };

	assert_int_equal(store_begin(s, &err), 0);
	assert_int_equal(store_report_insert(s, &rn, id, &err), 0);
	assert_int_equal(store_commit(s, &err), 0);
	return s;
}

static UNIT_UNUSED char *unit_path(const char *name)
{
	return xasprintf("%s/%s", unit_dir, name);
}

static UNIT_UNUSED void unit_ctx_init(struct cmd_ctx *ctx, const char *name,
				      FILE *out, FILE *errout)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->sess = xcalloc(1, sizeof(*ctx->sess));
	ctx->out = out ? out : stdout;
	ctx->errout = errout ? errout : stderr;
	if (!name)
		return;
	ctx->sess->store = unit_store_open(name);
	ctx->sess->officer = store_whoami(ctx->sess->store);
	assert_non_null(ctx->sess->officer);
}

static UNIT_UNUSED void unit_ctx_release(struct cmd_ctx *ctx)
{
	cmd_ctx_release(ctx);
	free(ctx->sess);
	ctx->sess = NULL;
}

/* Runs SQL on store NAME behind the program's back (sqlite3 or psql);
 * returns the command's exit status, *out (optional) its output. */
static UNIT_UNUSED int unit_sql(const char *name, const char *sql, char **out)
{
	char *where = unit_store_where(name, false);
	char *tmp = xasprintf("%s/sql.out", unit_dir);
	char *cmd = unit_pg
		? xasprintf(
			  "psql -X -q -v ON_ERROR_STOP=1 -d '%s' -c \"SET search_path = secteam\" -c \"%s\" >'%s' 2>&1",
			  where + strlen("dbname="), sql, tmp)
		: xasprintf("sqlite3 '%s' \"%s\" >'%s' 2>&1", where, sql, tmp);
	int r = system(cmd);
	if (out) {
		size_t len;
		struct err err;
		if (read_file(tmp, 1 << 20, out, &len, &err) < 0)
			*out = xstrdup("");
	}
	free(cmd);
	free(tmp);
	free(where);
	return r;
}
#endif
