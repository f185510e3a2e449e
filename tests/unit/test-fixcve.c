/* core/fixcve.c: reading a report's fix and CVE state back from its
 * events (the only place it is kept), and the input checks. */
#include "unit.h"
#include "core/core.h"
#include "core/fixcve.h"
#include "core/ktree.h"
#include "core/affected.h"

#define SHA_A "d10b2afb2fd09cdd580ac963c375be3bbd580770"
#define SHA_B "18f3b1d359a9f2ba2ab59cd1956c6f6701961190"
#define SHA_C "770952c351c158675644c656648ca4680d32559f"

static struct event ev(const char *kind, const char *detail)
{
	struct event e = {
		0, 1, 0, (char *)"olga", (char *)kind, (char *)detail, 0, NULL
	};

	return e;
}

static void test_fold_fix(void **state)
{
	struct event e[] = {
		ev("fix", "commit=0123456 tag=- tree=unchecked"),
		ev("fix-introduced", "commit=abcdef0 tag=- tree=unchecked"),
		ev("note", "commit=ffffff0"),
		/* A new fix starts afresh: the earlier introduced is dropped. */
		ev("fix",
		   "commit=" SHA_B " tag=v1.1-rc1 tree=checked "
		   "files=net/ipv4/tcp_input.c::include/net/tcp.h"),
		ev("fix-introduced", "commit=" SHA_A " tag=v1.0 tree=checked"),
		ev("fix-backport",
		   "commit=" SHA_C
		   " tag=v1.0.1 branch=linux-1.0.y upstream=" SHA_B),
	};
	struct fixcve fc;
	char *label;

	(void)state;
	fixcve_fold(e, 3, &fc);
	assert_int_equal(fc.nfixes, 1);
	assert_false(fc.fixes[0].tree_checked);
	assert_string_equal(fc.fixes[0].fix.sha, "0123456");
	assert_null(fc.fixes[0].fix.tag);
	assert_int_equal(fc.fixes[0].fix.nfiles, 0);
	assert_int_equal(fc.fixes[0].nintroduced, 1);
	fixcve_release(&fc);

	/* A second "fix" event (all there was before fix-add) replaces the
	 * first: an old database folds the same. */
	fixcve_fold(e, 6, &fc);
	assert_int_equal(fc.nfixes, 1);
	assert_true(fc.fixes[0].tree_checked);
	assert_string_equal(fc.fixes[0].fix.sha, SHA_B);
	assert_string_equal(fc.fixes[0].fix.tag, "v1.1-rc1");
	/* The files fix --tree recorded, an empty one skipped. */
	assert_int_equal(fc.fixes[0].fix.nfiles, 2);
	assert_string_equal(fc.fixes[0].fix.files[0], "net/ipv4/tcp_input.c");
	assert_string_equal(fc.fixes[0].fix.files[1], "include/net/tcp.h");
	assert_null(fc.fixes[0].fix.files[2]);
	assert_int_equal(fc.fixes[0].nintroduced, 1);
	assert_string_equal(fc.fixes[0].introduced[0].sha, SHA_A);
	assert_string_equal(fc.fixes[0].introduced[0].tag, "v1.0");
	assert_int_equal(fc.fixes[0].nbackports, 1);
	assert_string_equal(fc.fixes[0].backports[0].branch, "linux-1.0.y");
	assert_string_equal(fc.fixes[0].backports[0].upstream, SHA_B);
	assert_int_equal(fc.ncves, 0);
	label = fixcve_label(&fc);
	assert_string_equal(label, "v1.1-rc1/-");
	free(label);
	fixcve_release(&fc);
}

static void test_fold_cve(void **state)
{
	struct event e[] = {
		ev("cve-reject", "too early: nothing to reject"),
		ev("cve-assign", "CVE-2026-1111"),
		ev("cve-publish", "CVE-2026-1111"),
		ev("cve-reject", "duplicate"),
		ev("cve-publish", "CVE-2026-1111"), /* not after a rejection */
		ev("cve-assign", "CVE-2026-2222"),
		ev("cve-cwe", "CWE-416"),
		ev("cve-description", "first"),
		ev("cve-description", "second"),
	};
	struct fixcve fc;
	char *label;

	(void)state;
	fixcve_fold(e, 1, &fc);
	assert_int_equal(fc.ncves, 0);
	fixcve_release(&fc);
	fixcve_fold(e, 3, &fc);
	assert_string_equal(fc.cves[0].state, "published");
	fixcve_release(&fc);
	fixcve_fold(e, 5, &fc);
	assert_string_equal(fc.cves[0].state, "rejected");
	assert_string_equal(fc.cves[0].reject_reason, "duplicate");
	fixcve_release(&fc);
	/* cve-assign (all there was before cve-add) replaces the ID: an
	 * old database folds the same. */
	fixcve_fold(e, 9, &fc);
	assert_int_equal(fc.ncves, 1);
	assert_string_equal(fc.cves[0].id, "CVE-2026-2222");
	assert_string_equal(fc.cves[0].state, "reserved");
	assert_null(fc.cves[0].reject_reason);
	assert_string_equal(fc.cwe, "CWE-416");
	assert_string_equal(fc.description, "second");
	label = fixcve_label(&fc);
	assert_string_equal(label, "-/CVE-2026-2222:reserved");
	free(label);
	fixcve_release(&fc);
}

/* Several fixes: fix-add adds one (the same SHA again replaces it where
 * it stands), introduced and backport events belong to their fix,
 * fix-drop takes one back; "fix" still replaces them all. */
static void test_fold_fixes(void **state)
{
	struct event e[] = {
		ev("fix", "commit=" SHA_B " tag=v1.1-rc1 tree=checked"),
		ev("fix-introduced", "commit=" SHA_A " tag=v1.0 tree=checked"),
		ev("fix-add", "commit=" SHA_C " tag=- tree=unchecked"),
		ev("fix-backport",
		   "commit=0123abcd tag=v1.0.1 branch=linux-1.0.y upstream=" SHA_B),
		ev("fix-add", "commit=" SHA_C " tag=v1.2 tree=checked"),
		ev("fix-introduced",
		   "commit=" SHA_B " tag=v1.1-rc1 tree=checked"),
		ev("fix-drop", "commit=" SHA_B),
		ev("fix", "commit=" SHA_A " tag=- tree=unchecked"),
	};
	struct fixcve fc;
	char *label;

	(void)state;
	fixcve_fold(e, 6, &fc);
	assert_int_equal(fc.nfixes, 2);
	assert_string_equal(fc.fixes[0].fix.sha, SHA_B);
	assert_int_equal(fc.fixes[0].nintroduced, 1);
	/* The backport names its upstream: the first fix's. */
	assert_int_equal(fc.fixes[0].nbackports, 1);
	assert_string_equal(fc.fixes[1].fix.sha, SHA_C);
	assert_string_equal(fc.fixes[1].fix.tag, "v1.2");
	assert_true(fc.fixes[1].tree_checked);
	assert_int_equal(fc.fixes[1].nintroduced, 1);
	assert_string_equal(fc.fixes[1].introduced[0].sha, SHA_B);
	label = fixcve_label(&fc);
	assert_string_equal(label, "v1.1-rc1,v1.2/-");
	free(label);
	fixcve_release(&fc);
	fixcve_fold(e, 7, &fc);
	assert_int_equal(fc.nfixes, 1);
	assert_string_equal(fc.fixes[0].fix.sha, SHA_C);
	fixcve_release(&fc);
	fixcve_fold(e, 8, &fc);
	assert_int_equal(fc.nfixes, 1);
	assert_string_equal(fc.fixes[0].fix.sha, SHA_A);
	fixcve_release(&fc);
}

/* Several IDs: cve-add adds one covering the fixes it names, a
 * rejected one reserved again; cve-reject-id rejects the one named,
 * cve-reject the newest; cve-publish the one named; cve-drop removes
 * one; a view keeps the fixes its ID covers. */
static void test_fold_cves(void **state)
{
	struct event e[] = {
		ev("fix", "commit=" SHA_B " tag=v1.1-rc1 tree=checked"),
		ev("fix-add", "commit=" SHA_C " tag=v1.2 tree=checked"),
		ev("cve-assign", "CVE-2026-1111"),
		ev("cve-add", "CVE-2026-2222 fixes=" SHA_C),
		ev("cve-add", "CVE-2026-3333"),
		ev("cve-reject-id", "CVE-2026-1111 a duplicate of another"),
		ev("cve-reject", "recorded twice"),
		ev("cve-publish", "CVE-2026-2222"),
		ev("cve-drop", "CVE-2026-3333"),
	};
	struct fixcve fc, view;
	char *label;

	(void)state;
	fixcve_fold(e, 9, &fc);
	assert_int_equal(fc.ncves, 2);
	assert_string_equal(fc.cves[0].id, "CVE-2026-1111");
	assert_string_equal(fc.cves[0].state, "rejected");
	assert_string_equal(fc.cves[0].reject_reason, "a duplicate of another");
	assert_string_equal(fc.cves[1].id, "CVE-2026-2222");
	assert_string_equal(fc.cves[1].state, "published");
	assert_true(fixcve_covers(&fc.cves[0], SHA_B));
	assert_true(fixcve_covers(&fc.cves[0], SHA_C));
	assert_false(fixcve_covers(&fc.cves[1], SHA_B));
	assert_true(fixcve_covers(&fc.cves[1], SHA_C));
	label = fixcve_label(&fc);
	assert_string_equal(
		label,
		"v1.1-rc1,v1.2/CVE-2026-1111:rejected,CVE-2026-2222:published");
	free(label);
	fixcve_view(&fc, &fc.cves[1], &view);
	assert_int_equal(view.nfixes, 1);
	assert_string_equal(view.fixes[0].fix.sha, SHA_C);
	assert_int_equal(view.ncves, 1);
	assert_string_equal(view.cves[0].id, "CVE-2026-2222");
	fixcve_release(&view);
	fixcve_release(&fc);
	/* Before the drop, the plain cve-reject rejected the newest. */
	fixcve_fold(e, 7, &fc);
	assert_string_equal(fc.cves[2].state, "rejected");
	assert_string_equal(fc.cves[2].reject_reason, "recorded twice");
	assert_string_equal(fc.cves[1].state, "reserved");
	fixcve_release(&fc);
}

static void test_checks(void **state)
{
	(void)state;
	assert_true(fix_sha_valid("0123abc"));
	assert_true(fix_sha_valid(SHA_A));
	assert_false(fix_sha_valid("0123ab"));
	assert_false(fix_sha_valid(SHA_A "0"));
	assert_false(fix_sha_valid("-0123abcd"));
	assert_false(fix_sha_valid("0123abg"));
	assert_true(cve_id_valid("CVE-2026-1234"));
	assert_true(cve_id_valid("CVE-2026-1234567"));
	assert_false(cve_id_valid("CVE-2026-123"));
	assert_false(cve_id_valid("CVE-26-12345"));
	assert_false(cve_id_valid("CVE-2026-1234 "));
	assert_true(cwe_id_valid("CWE-416"));
	assert_false(cwe_id_valid("CWE-0416"));
	assert_false(cwe_id_valid("CWE-123456"));
	/* The catalogue: weaknesses by their names; categories (CWE-16,
	 * CWE-399), views and unknown IDs have none. */
	assert_string_equal(cwe_name("CWE-787"), "Out-of-bounds Write");
	assert_string_equal(
		cwe_name("CWE-5"),
		"J2EE Misconfiguration: Data Transmission Without Encryption");
	assert_string_equal(
		cwe_name("CWE-53"),
		"Path Equivalence: '\\multiple\\\\internal\\backslash'");
	assert_string_equal(
		cwe_name("CWE-200"),
		"Exposure of Sensitive Information to an Unauthorized Actor");
	assert_null(cwe_name("CWE-16"));
	assert_null(cwe_name("CWE-399"));
	assert_null(cwe_name("CWE-99999"));
	assert_null(cwe_name("CWE-0787"));
	assert_null(cwe_name(NULL));
	assert_string_equal(fix_version("v6.8-rc1"), "6.8-rc1");
	assert_string_equal(fix_version("stable-1"), "stable-1");
}

/* The list's page: each report's state from its own events, in one
 * read, the same as one report at a time; more reports than one query
 * takes; a report without fix or CVE events has none. */
static void test_page(void **state)
{
	struct cmd_ctx ctx;
	struct err err;
	struct report_new rn = { "Overflow", "Rita", "rita@example.net", 100,
				 0 };
	int64_t id[70];
	struct fixcve fc[70], one;

	(void)state;
	unit_ctx_init(&ctx, "page.db", NULL, NULL);
	assert_int_equal(store_begin(ctx.sess->store, &err), 0);
	for (int i = 0; i < 70; i++)
		assert_int_equal(store_report_insert(ctx.sess->store, &rn,
						     &id[i], &err),
				 0);
	/* Reversed ids, so a page is not in id order. */
	for (int i = 0; i < 35; i++) {
		int64_t t = id[i];
		id[i] = id[69 - i];
		id[69 - i] = t;
	}
	assert_int_equal(
		store_event_add(ctx.sess->store, id[3], "olga", "fix",
				"commit=" SHA_A " tag=v1.0 tree=checked", &err),
		0);
	assert_int_equal(store_event_add(ctx.sess->store, id[3], "olga", "note",
					 "x", &err),
			 0);
	assert_int_equal(store_event_add(ctx.sess->store, id[66], "olga",
					 "cve-assign", "CVE-2026-1234", &err),
			 0);
	assert_int_equal(
		store_event_add(ctx.sess->store, id[66], "olga", "fix",
				"commit=" SHA_B " tag=- tree=unchecked", &err),
		0);
	assert_int_equal(store_event_add(ctx.sess->store, id[3], "olga",
					 "cve-assign", "CVE-2026-7777", &err),
			 0);
	assert_int_equal(store_commit(ctx.sess->store, &err), 0);

	assert_int_equal(fixcve_page(ctx.sess, id, 70, fc, &err), 0);
	for (int i = 0; i < 70; i++) {
		char *a = fixcve_label(&fc[i]), *b;
		assert_int_equal(fixcve_get(ctx.sess, id[i], &one, &err), 0);
		b = fixcve_label(&one);
		assert_string_equal(a, b);
		if (i == 3)
			assert_string_equal(a, "v1.0/CVE-2026-7777:reserved");
		else if (i == 66)
			assert_string_equal(
				a, "18f3b1d359a9/CVE-2026-1234:reserved");
		else
			assert_false(fc[i].nfixes || fc[i].ncves);
		free(a);
		free(b);
		fixcve_release(&one);
		fixcve_release(&fc[i]);
	}
	unit_ctx_release(&ctx);
}

/* Tag order as git's versionsort with versionsort.suffix=-rc: an -rc
 * before its release, numbers as numbers. */
/* The lines of development and the status of each version: the bug
 * reaching a stable branch by a copy, a branch that never had it (but
 * got the backport), a fix in an -rc; and a fix recorded before the
 * branches searched were (each backport's branch assumed to have had
 * the bug). */
static void test_affected(void **state)
{
	struct event e[] = {
		ev("fix", "commit=" SHA_B " tag=v1.2-rc3 tree=checked"),
		ev("fix-introduced",
		   "commit=" SHA_A " tag=v1.1-rc1 tree=checked"),
		ev("fix-introduced",
		   "commit=aaaaaaa tag=v1.0.2 tree=checked branch=linux-1.0.y upstream=" SHA_A),
		ev("fix-backport",
		   "commit=bbbbbbb tag=v0.9.2 branch=linux-0.9.y upstream=" SHA_B),
		ev("fix-backport",
		   "commit=ccccccc tag=v1.0.4 branch=linux-1.0.y upstream=" SHA_B),
		ev("fix-backport",
		   "commit=ddddddd tag=v1.1.2 branch=linux-1.1.y upstream=" SHA_B),
		ev("fix-branch",
		   "branch=linux-0.9.y series=0.9 upstream=" SHA_B
		   " intro=0 fix=0"),
		ev("fix-branch",
		   "branch=linux-1.0.y series=1.0 upstream=" SHA_B
		   " intro=0 fix=0"),
		ev("fix-branch",
		   "branch=linux-1.1.y series=1.1 upstream=" SHA_B
		   " intro=1 fix=0"),
	};
	static const struct {
		const char *v;
		enum vstatus st;
	} want[] = {
		{ "0.9", VS_NOT_AFFECTED },   { "0.9.2", VS_NOT_AFFECTED },
		{ "1.0.1", VS_NOT_AFFECTED }, { "1.0.2", VS_AFFECTED },
		{ "1.0.3", VS_AFFECTED },     { "1.0.4", VS_FIXED },
		{ "1.1-rc1", VS_AFFECTED },   { "1.1", VS_AFFECTED },
		{ "1.1.1", VS_AFFECTED },     { "1.1.2", VS_FIXED },
		{ "1.2-rc2", VS_AFFECTED },   { "1.2-rc3", VS_FIXED },
		{ "1.2", VS_FIXED },
	};
	struct fixcve fc;
	struct affected_line *l;
	struct affected_span *sp;
	size_t n;
	char *t;

	(void)state;
	fixcve_fold(e, ARRAY_SIZE(e), &fc);
	n = affected_lines(&fc, &fc.fixes[0], &l);
	assert_int_equal(n, 3); /* mainline, 1.0.y (the copy), 1.1.y */
	assert_null(l[0].branch);
	assert_string_equal(l[0].in_version, "1.1-rc1");
	assert_string_equal(l[0].out_version, "1.2-rc3");
	assert_string_equal(l[1].branch, "linux-1.0.y");
	assert_false(l[1].inherited);
	assert_string_equal(l[1].in->sha, "aaaaaaa");
	assert_string_equal(l[1].out_version, "1.0.4");
	assert_true(l[2].inherited);
	assert_string_equal(l[2].out->sha, "ddddddd");
	free(l);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		assert_int_equal(affected_status(&fc, want[i].v), want[i].st);
	n = affected_spans(&fc, &sp);
	for (size_t i = 0; i < n; i++) /* contiguous, alternating */
		assert_true(i + 1 == n ? !sp[i].to
				       : !strcmp(sp[i].to, sp[i + 1].from) &&
					    sp[i].status != sp[i + 1].status);
	affected_spans_free(sp, n);
	t = affected_text(&fc);
	assert_string_equal(
		t,
		"1.0.2 up to (not including) 1.0.4, 1.1-rc1 up to (not including) "
		"1.1.2, 1.2-rc1 up to (not including) 1.2-rc3");
	free(t);
	fixcve_release(&fc);

	/* Before fix-branch events: the backport's branch had the bug. */
	fixcve_fold(e, 2, &fc);
	assert_int_equal(affected_status(&fc, "1.0.3"), VS_NOT_AFFECTED);
	assert_int_equal(affected_status(&fc, "1.1.5"),
			 VS_AFFECTED); /* as 1.1 */
	fixcve_release(&fc);
	fixcve_fold(e, 6, &fc);
	assert_int_equal(affected_status(&fc, "1.1.1"), VS_AFFECTED);
	assert_int_equal(affected_status(&fc, "1.1.2"), VS_FIXED);
	fixcve_release(&fc);

	assert_true(version_stable("6.1.4"));
	assert_false(version_stable("6.1"));
	assert_false(version_stable("6.1-rc4"));
	assert_false(version_stable("1.1\xe2\x80\xae"
				    "exe.cod"));
}

static void test_version_order(void **state)
{
	static const char *const sorted[] = {
		"v1.0",	     "v1.0.1",	"v1.0.10", "v1.1-rc1", "v1.1-rc2",
		"v1.1-rc10", "v1.1",	"v1.1.1",  "v1.9",     "v1.10-rc1",
		"v1.10",     "v2.6.12", "v6.1",
	};
	size_t n = ARRAY_SIZE(sorted);

	(void)state;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			int c = ktree_version_cmp(sorted[i], sorted[j]);
			if ((i < j && c >= 0) || (i > j && c <= 0) ||
			    (i == j && c))
				fail_msg("%s vs %s: %d", sorted[i], sorted[j],
					 c);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fold_fix),
		cmocka_unit_test(test_fold_cve),
		cmocka_unit_test(test_fold_fixes),
		cmocka_unit_test(test_fold_cves),
		cmocka_unit_test(test_checks),
		cmocka_unit_test(test_version_order),
		cmocka_unit_test(test_affected),
		UNIT_BOTH(test_page),
	};
	return unit_run("fixcve", tests, ARRAY_SIZE(tests));
}
