/*
 * maint/: get_maintainer.pl's rules on a small synthetic tree.
 *
 * Every expected output below was produced by the kernel's own
 * scripts/get_maintainer.pl (Linux 6.1) run as
 *   perl scripts/get_maintainer.pl --nogit --nogit-fallback -f FILE
 * inside the tree this test writes (set MAINT_TEST_KEEP=1 to keep it and
 * print its path; copy scripts/get_maintainer.pl there to rerun it), not
 * guessed.  Cases: F: dir/ with X:, F: without a slash naming a directory
 * (matches below) and not naming one (matches "fs/epsilon*" with the same
 * slash count), globs in one directory only (*.c, ?), pattern depth
 * ordering, N: with /x whitespace, N: under X:, K: on file content and on
 * patch lines (commit message, '+'/'-' lines, not context lines; the
 * top-level alternation quirk), same name with two addresses, .mailmap,
 * quoted names, 50-byte section names, moderated and subscribers-only
 * lists, THE REST, the security contact, .yaml "in file" addresses, and
 * the files of a patch (renames, /dev/null as "dev/null").
 */
#include "unit.h"

#include <sys/stat.h>
#include <unistd.h>

#include "maint/maint.h"

static const char maintainers_text[] =
	"List of maintainers (synthetic, for secteam-tui's unit tests)\n"
	"\tM: *Mail* patches to: FullName <address@domain>\n"
	"\n"
	"Maintainers List\n"
	"----------------\n"
	"\n"
	"ALPHA DRIVER\n"
	"M:\tAlice Alpha <alice@example.org>\n"
	"R:\tRob Reviewer <rob@example.org>\n"
	"L:\talpha-devel@lists.example.org\n"
	"S:\tMaintained\n"
	"F:\tdrivers/alpha/\n"
	"X:\tdrivers/alpha/legacy/\n"
	"\n"
	"ALPHA LEGACY\n"
	"M:\tLee Legacy <lee@old.example.org>\n"
	"S:\tOdd Fixes\n"
	"F:\tdrivers/alpha/legacy/\n"
	"\n"
	"ALPHA FOO (a second address for Alice)\n"
	"M:\tAlice Alpha <alice@other.example.org>\n"
	"M:\t\"Dot J. Name\" <dot@example.org>\n"
	"S:\tMaintained\n"
	"F:\tdrivers/alpha/foo.c\n"
	"\n"
	"BETA GLOBS\n"
	"M:\tGabe Glob <gabe@example.org>\n"
	"L:\tbeta-list@example.org (moderated for non-subscribers)\n"
	"L:\tbeta-subs@example.org (subscribers-only)\n"
	"S:\tSupported\n"
	"F:\tdrivers/beta/*.c\n"
	"F:\tinclude/linux/beta?.h\n"
	"\n"
	"DRIVERS CORE AND A VERY LONG SECTION NAME THAT GOES BEYOND FIFTY BYTES\n"
	"M:\tDana Drivers <dana@example.org>\n"
	"L:\tdrivers-list@example.org\n"
	"S:\tMaintained\n"
	"F:\tdrivers/\n"
	"\n"
	"GAMMA FILESYSTEM\n"
	"M:\tNora Noslash <nora@example.org>\n"
	"S:\tMaintained\n"
	"F:\tfs/gamma\n"
	"F:\tfs/epsilon\n"
	"\n"
	"ZETA PLATFORM\n"
	"M:\tNick Name <nick@example.org>\n"
	"S:\tMaintained\n"
	"N:\tze ta\n"
	"X:\ttools/zeta/\n"
	"\n"
	"MAGIC KEYWORD\n"
	"M:\tKay Word <kay@example.org>\n"
	"S:\tSupported\n"
	"K:\t\\bmagic_call\\b\n"
	"\n"
	"DT BINDINGS\n"
	"M:\tBea Bindings <bea@example.org>\n"
	"L:\tdt-list@example.org\n"
	"S:\tMaintained\n"
	"F:\tDocumentation/devicetree/bindings/\n"
	"\n"
	"SECURITY CONTACT\n"
	"M:\tSecurity Officers <security@kernel.org>\n"
	"S:\tSupported\n"
	"F:\tDocumentation/admin-guide/security-bugs.rst\n"
	"\n"
	"ALT KEYWORD\n"
	"M:\tAlt Ernate <alt@example.org>\n"
	"S:\tMaintained\n"
	"K:\talt_one|alt_two\n"
	"\n"
	"THE REST\n"
	"M:\tLinus Torvalds <torvalds@linux-foundation.org>\n"
	"L:\tlinux-kernel@vger.kernel.org\n"
	"S:\tBuried alive in reporters\n"
	"F:\t*\n"
	"F:\t*/\n";

struct tree_file {
	const char *path;
	const char *text;
};

static const struct tree_file tree_files[] = {
	{ "COPYING", "" },
	{ "CREDITS", "" },
	{ "Kbuild", "" },
	{ "Makefile", "" },
	{ "README", "" },
	{ "init/.keep", "" },
	{ "ipc/.keep", "" },
	{ "lib/.keep", "" },
	{ "scripts/.keep", "" },
	{ ".mailmap",
	  "# synthetic\nLee Legacy <lee@example.org> <lee@old.example.org>\n" },
	{ "drivers/alpha/main.c", "int a;\n" },
	{ "drivers/alpha/foo.c", "int a;\n" },
	{ "drivers/alpha/legacy/old.c", "int a;\n" },
	{ "drivers/beta/b.c", "void f(void) { magic_call(); }\n" },
	{ "drivers/beta/sub/s.c", "int x;\n" },
	{ "include/linux/beta1.h", "int y;\n" },
	{ "include/linux/beta12.h", "int y;\n" },
	{ "fs/gamma/deep/g.c", "x\n" },
	{ "fs/epsilon.c", "x\n" },
	{ "fs/epsilonx", "x\n" },
	{ "arch/zeta/kernel/setup.c", "x\n" },
	{ "tools/zeta/t.c", "x\n" },
	{ "kernel/zetaish.c", "x\n" },
	{ "Documentation/admin-guide/security-bugs.rst", "x\n" },
	{ "Documentation/devicetree/bindings/net/foo.yaml",
	  "title: Foo\nmaintainers:\n  - Yan Yaml <yan@example.org>\n"
	  "  - Alice Alpha <alice@example.org>\n" },
};

static char tree[256];
static struct maint_db *db;

static void write_file(const char *rel, const char *text)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", tree, rel);
	for (char *p = path + strlen(tree) + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0700);
			*p = '/';
		}
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	struct err err = { 0, "" };
	snprintf(tree, sizeof(tree), "%s/maint-test-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tree))
		return -1;
	write_file("MAINTAINERS", maintainers_text);
	for (size_t i = 0; i < ARRAY_SIZE(tree_files); i++)
		write_file(tree_files[i].path, tree_files[i].text);
	char mp[512];
	snprintf(mp, sizeof(mp), "%s/MAINTAINERS", tree);
	if (maint_db_load(mp, &db, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	if (getenv("MAINT_TEST_KEEP"))
		fprintf(stderr, "# synthetic tree kept in %s\n", tree);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	maint_db_free(db);
	if (!getenv("MAINT_TEST_KEEP")) {
		char cmd[600];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree);
		if (system(cmd) != 0)
			return -1;
	}
	return 0;
}

/* The lookup printed as get_maintainer.pl prints it. */
static char *lookup_text(const char *const *files, size_t n, const char *patch)
{
	struct maint_result res;
	struct err err = { 0, "" };
	struct sbuf sb = SBUF_INIT;
	int r = maint_lookup(db, tree, files, n, patch, &res, &err);
	if (r < 0)
		fail_msg("lookup failed: %s", err.msg);
	for (size_t i = 0; i < res.n; i++) {
		char *line = maint_entry_format(&res.v[i]);
		sbuf_addf(&sb, "%s\n", line);
		free(line);
	}
	maint_result_release(&res);
	if (!sb.buf)
		sbuf_adds(&sb, "");
	return sbuf_detach(&sb, NULL);
}

static const struct {
	const char *file;
	const char *want;
} file_cases[] = {
	{ "drivers/alpha/main.c",
	  "Alice Alpha <alice@example.org> (maintainer:ALPHA DRIVER)\n"
	  "Rob Reviewer <rob@example.org> (reviewer:ALPHA DRIVER)\n"
	  "Dana Drivers <dana@example.org> (maintainer:DRIVERS CORE AND A VERY LONG SECTION NAME THAT...)\n"
	  "alpha-devel@lists.example.org (open list:ALPHA DRIVER)\n"
	  "drivers-list@example.org (open list:DRIVERS CORE AND A VERY LONG SECTION NAME THAT...)\n"
	  "linux-kernel@vger.kernel.org (open list)\n" },
	{ "drivers/alpha/foo.c",
	  "Alice Alpha <alice@other.example.org> (maintainer:ALPHA FOO (a second address for Alice))\n"
	  "\"Dot J. Name\" <dot@example.org> (maintainer:ALPHA FOO (a second address for Alice))\n"
	  "Rob Reviewer <rob@example.org> (reviewer:ALPHA DRIVER)\n"
	  "Dana Drivers <dana@example.org> (maintainer:DRIVERS CORE AND A VERY LONG SECTION NAME THAT...)\n"
	  "alpha-devel@lists.example.org (open list:ALPHA DRIVER)\n"
	  "drivers-list@example.org (open list:DRIVERS CORE AND A VERY LONG SECTION NAME THAT...)\n"
	  "linux-kernel@vger.kernel.org (open list)\n" },
	{ "drivers/alpha/legacy/old.c",
	  "Lee Legacy <lee@example.org> (odd fixer:ALPHA LEGACY)\n"
	  "Dana Drivers <dana@example.org> (maintainer:DRIVERS CORE AND A VERY LONG SECTION NAME THAT...)\n"
	  "drivers-list@example.org (open list:DRIVERS CORE AND A VERY LONG SECTION NAME THAT...)\n"
	  "linux-kernel@vger.kernel.org (open list)\n" },
	{ "drivers/beta/b.c",
	  "Gabe Glob <gabe@example.org> (supporter:BETA GLOBS)\n"
	  "Dana Drivers <dana@example.org> (maintainer:DRIVERS CORE AND A VERY LONG SECTION NAME THAT...)\n"
	  "Kay Word <kay@example.org> (supporter:MAGIC KEYWORD)\n"
	  "beta-list@example.org (moderated list:BETA GLOBS)\n"
	  "drivers-list@example.org (open list:DRIVERS CORE AND A VERY LONG SECTION NAME THAT...)\n"
	  "linux-kernel@vger.kernel.org (open list)\n" },
	{ "drivers/beta/sub/s.c",
	  "Dana Drivers <dana@example.org> (maintainer:DRIVERS CORE AND A VERY LONG SECTION NAME THAT...)\n"
	  "drivers-list@example.org (open list:DRIVERS CORE AND A VERY LONG SECTION NAME THAT...)\n"
	  "linux-kernel@vger.kernel.org (open list)\n" },
	{ "include/linux/beta1.h",
	  "Gabe Glob <gabe@example.org> (supporter:BETA GLOBS)\n"
	  "beta-list@example.org (moderated list:BETA GLOBS)\n"
	  "linux-kernel@vger.kernel.org (open list)\n" },
	{ "include/linux/beta12.h",
	  "linux-kernel@vger.kernel.org (open list)\n" },
	{ "fs/gamma/deep/g.c",
	  "Nora Noslash <nora@example.org> (maintainer:GAMMA FILESYSTEM)\n"
	  "linux-kernel@vger.kernel.org (open list)\n" },
	{ "fs/gamma",
	  "Nora Noslash <nora@example.org> (maintainer:GAMMA FILESYSTEM)\n"
	  "linux-kernel@vger.kernel.org (open list)\n" },
	{ "fs/epsilon.c",
	  "Nora Noslash <nora@example.org> (maintainer:GAMMA FILESYSTEM)\n"
	  "linux-kernel@vger.kernel.org (open list)\n" },
	{ "fs/epsilonx",
	  "Nora Noslash <nora@example.org> (maintainer:GAMMA FILESYSTEM)\n"
	  "linux-kernel@vger.kernel.org (open list)\n" },
	{ "arch/zeta/kernel/setup.c",
	  "Nick Name <nick@example.org> (maintainer:ZETA PLATFORM)\n"
	  "linux-kernel@vger.kernel.org (open list)\n" },
	{ "tools/zeta/t.c", "linux-kernel@vger.kernel.org (open list)\n" },
	{ "kernel/zetaish.c",
	  "Nick Name <nick@example.org> (maintainer:ZETA PLATFORM)\n"
	  "linux-kernel@vger.kernel.org (open list)\n" },
	{ "Documentation/admin-guide/security-bugs.rst",
	  "Security Officers <security@kernel.org> (supporter:SECURITY CONTACT)\n"
	  "linux-kernel@vger.kernel.org (open list)\n" },
	{ "Documentation/devicetree/bindings/net/foo.yaml",
	  "Bea Bindings <bea@example.org> (maintainer:DT BINDINGS)\n"
	  "Yan Yaml <yan@example.org> (in file)\n"
	  "Alice Alpha <alice@example.org> (in file)\n"
	  "dt-list@example.org (open list:DT BINDINGS)\n"
	  "linux-kernel@vger.kernel.org (open list)\n" },
	{ "README", "linux-kernel@vger.kernel.org (open list)\n" },
};

static void test_files(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(file_cases); i++) {
		const char *f = file_cases[i].file;
		char *got = lookup_text(&f, 1, NULL);
		if (strcmp(got, file_cases[i].want))
			fail_msg("%s:\n--- got\n%s--- want\n%s", f, got,
				 file_cases[i].want);
		free(got);
	}
}

/* Paths are taken as get_maintainer.pl's canonpath() leaves them. */
static void test_path_forms(void **state)
{
	(void)state;
	const char *a[] = { "./drivers//alpha/main.c" };
	const char *b[] = { "drivers/alpha/main.c" };
	char *x = lookup_text(a, 1, NULL), *y = lookup_text(b, 1, NULL);
	assert_string_equal(x, y);
	free(x);
	free(y);
	/* a file not in the tree is matched by its name (no K:, no .yaml) */
	const char *m[] = { "drivers/alpha/missing.c" };
	x = lookup_text(m, 1, NULL);
	assert_string_equal(x, file_cases[0].want);
	free(x);
}

/* Several files merge: sections file by file, people before lists,
 * "in file" appended to a maintainer the .yaml also names. */
static void test_merge(void **state)
{
	(void)state;
	const char *f[] = { "drivers/alpha/main.c",
			    "Documentation/devicetree/bindings/net/foo.yaml" };
	char *got = lookup_text(f, 2, NULL);
	assert_string_equal(
		got,
		"Alice Alpha <alice@example.org> (maintainer:ALPHA DRIVER,in file)\n"
		"Rob Reviewer <rob@example.org> (reviewer:ALPHA DRIVER)\n"
		"Dana Drivers <dana@example.org> (maintainer:DRIVERS CORE AND A VERY LONG SECTION NAME THAT...)\n"
		"Bea Bindings <bea@example.org> (maintainer:DT BINDINGS)\n"
		"Yan Yaml <yan@example.org> (in file)\n"
		"alpha-devel@lists.example.org (open list:ALPHA DRIVER)\n"
		"drivers-list@example.org (open list:DRIVERS CORE AND A VERY LONG SECTION NAME THAT...)\n"
		"linux-kernel@vger.kernel.org (open list)\n"
		"dt-list@example.org (open list:DT BINDINGS)\n");
	free(got);
}

static const char patch1[] =
	"From: Someone <someone@example.com>\n"
	"Subject: [PATCH] beta: use magic_call in the commit message\n"
	"\n"
	"Fixes: 0123456789ab (\"drivers/alpha/main.c: something\")\n"
	"---\n"
	"diff --git a/drivers/alpha/main.c b/drivers/alpha/main.c\n"
	"--- a/drivers/alpha/main.c\n"
	"+++ b/drivers/alpha/main.c\n"
	"@@ -1 +1,2 @@\n"
	" int a;\n"
	"+int b;\n"
	"diff --git a/fs/gamma/old.c b/fs/gamma/new.c\n"
	"similarity index 90%\n"
	"rename from fs/gamma/old.c\n"
	"rename to fs/gamma/new.c\n"
	"diff --git a/include/linux/beta1.h b/include/linux/beta1.h\n"
	"new file mode 100644\n"
	"--- /dev/null\n"
	"+++ b/include/linux/beta1.h\n"
	"@@ -0,0 +1 @@\n"
	"+int y;\n";

static const struct {
	const char *patch;
	const char *want;
} patch_cases[] = {
	/* keyword in the commit message; dev/null goes to THE REST first */
	{ patch1,
	  "Alice Alpha <alice@example.org> (maintainer:ALPHA DRIVER)\n"
	  "Rob Reviewer <rob@example.org> (reviewer:ALPHA DRIVER)\n"
	  "Dana Drivers <dana@example.org> (maintainer:DRIVERS CORE AND A VERY LONG SECTION NAME THAT...)\n"
	  "Nora Noslash <nora@example.org> (maintainer:GAMMA FILESYSTEM)\n"
	  "Gabe Glob <gabe@example.org> (supporter:BETA GLOBS)\n"
	  "Kay Word <kay@example.org> (supporter:MAGIC KEYWORD)\n"
	  "linux-kernel@vger.kernel.org (open list)\n"
	  "alpha-devel@lists.example.org (open list:ALPHA DRIVER)\n"
	  "drivers-list@example.org (open list:DRIVERS CORE AND A VERY LONG SECTION NAME THAT...)\n"
	  "beta-list@example.org (moderated list:BETA GLOBS)\n" },
	/* keyword on a context line: not matched */
	{ "--- a/README\n+++ b/README\n@@ -1,2 +1,2 @@\n magic_call();\n-x\n+y\n",
	  "linux-kernel@vger.kernel.org (open list)\n" },
	/* keyword on a removed line: matched */
	{ "--- a/README\n+++ b/README\n@@ -1,2 +1,2 @@\n x\n-magic_call();\n+y\n",
	  "Kay Word <kay@example.org> (supporter:MAGIC KEYWORD)\n"
	  "linux-kernel@vger.kernel.org (open list)\n" },
	/* "^[+-].*alt_one|alt_two": the second branch matches any line */
	{ "--- a/README\n+++ b/README\n@@ -1,2 +1,2 @@\n alt_two();\n-x\n+y\n",
	  "Alt Ernate <alt@example.org> (maintainer:ALT KEYWORD)\n"
	  "linux-kernel@vger.kernel.org (open list)\n" },
	{ "--- a/README\n+++ b/README\n@@ -1,2 +1,2 @@\n alt_one();\n-x\n+y\n",
	  "linux-kernel@vger.kernel.org (open list)\n" },
};

static void test_patches(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(patch_cases); i++) {
		char *got = lookup_text(NULL, 0, patch_cases[i].patch);
		if (strcmp(got, patch_cases[i].want))
			fail_msg("patch %zu:\n--- got\n%s--- want\n%s", i, got,
				 patch_cases[i].want);
		free(got);
	}
}

static void test_patch_files(void **state)
{
	(void)state;
	char **files;
	size_t n = maint_patch_files(patch1, &files);
	static const char *const want[] = {
		"dev/null",	  "drivers/alpha/main.c",  "fs/gamma/new.c",
		"fs/gamma/old.c", "include/linux/beta1.h",
	};
	assert_int_equal(n, ARRAY_SIZE(want));
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(files[i], want[i]);
		free(files[i]);
	}
	free(files);
	assert_int_equal(maint_patch_files("no patch here\n", &files), 0);
	free(files);
	/* " mode change" lines (git's summary) name a file too */
	n = maint_patch_files(" mode change 100644 => 100755 scripts/x.sh\n",
			      &files);
	assert_int_equal(n, 1);
	assert_string_equal(files[0], "scripts/x.sh");
	free(files[0]);
	free(files);
}

/* The structured entries: roles, sections, and what an officer filters. */
static void test_entry_fields(void **state)
{
	(void)state;
	struct maint_result res;
	struct err err = { 0, "" };
	const char *f[] = { "Documentation/admin-guide/security-bugs.rst",
			    "drivers/alpha/foo.c" };
	assert_int_equal(maint_lookup(db, NULL, f, 2, NULL, &res, &err), 0);
	bool seen_sec = false, seen_lkml = false, seen_dot = false;
	for (size_t i = 0; i < res.n; i++) {
		const struct maint_entry *e = &res.v[i];
		if (!strcmp(e->email, "security@kernel.org")) {
			seen_sec = true;
			assert_true(e->is_security_contact);
			assert_true(e->is_catch_all);
			assert_string_equal(e->role, "supporter");
			assert_string_equal(e->section, "SECURITY CONTACT");
		} else if (!strcmp(e->email, "linux-kernel@vger.kernel.org")) {
			seen_lkml = true;
			assert_true(e->is_list);
			assert_true(e->is_catch_all);
			assert_string_equal(e->role, "open list");
			assert_string_equal(e->section, "");
		} else if (!strcmp(e->email, "dot@example.org")) {
			seen_dot = true;
			assert_string_equal(e->name, "Dot J. Name");
			assert_false(e->is_catch_all);
		} else {
			assert_false(e->is_security_contact);
			assert_false(e->is_catch_all);
		}
		if (!strcmp(e->email, "alpha-devel@lists.example.org"))
			assert_true(e->is_list);
		if (!strcmp(e->email, "rob@example.org")) {
			assert_string_equal(e->role, "reviewer");
			assert_false(e->is_list);
		}
	}
	assert_true(seen_sec && seen_lkml && seen_dot);
	maint_result_release(&res);
	assert_int_equal(maint_db_sections(db), 12);
}

/* A K: regex that PCRE2 refuses is an error, not a crash. */
static void test_bad_keyword(void **state)
{
	(void)state;
	char dir[300], path[340];
	struct maint_db *bad;
	struct maint_result res;
	struct err err = { 0, "" };
	snprintf(dir, sizeof(dir), "%s/bad", tree);
	mkdir(dir, 0700);
	snprintf(path, sizeof(path), "%s/MAINTAINERS", dir);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("BROKEN\nM:\tB <b@example.org>\nS:\tMaintained\nK:\t(unclosed\n",
	      fp);
	fclose(fp);
	assert_int_equal(maint_db_load(path, &bad, &err), 0);
	assert_true(maint_lookup(bad, dir, NULL, 0, "+++ b/x\n+y\n", &res,
				 &err) < 0);
	assert_non_null(strstr(err.msg, "(unclosed"));
	maint_db_free(bad);
	assert_true(maint_db_load("/nonexistent/MAINTAINERS", &bad, &err) < 0);
	assert_non_null(strstr(err.msg, "MAINTAINERS"));
}

/* Star-heavy globs end (PCRE2 takes over from the glob matcher). */
static void test_hostile_globs(void **state)
{
	(void)state;
	char dir[300], path[340];
	struct maint_db *h;
	struct maint_result res;
	struct err err = { 0, "" };
	snprintf(dir, sizeof(dir), "%s/hostile", tree);
	mkdir(dir, 0700);
	snprintf(path, sizeof(path), "%s/MAINTAINERS", dir);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("STARS\nM:\tS <s@example.org>\nS:\tMaintained\n"
	      "F:\t*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b\n"
	      "F:\t[\n"
	      "\nEMPTY\nF:\n",
	      fp);
	fclose(fp);
	assert_int_equal(maint_db_load(path, &h, &err), 0);
	char name[200];
	memset(name, 'a', 150);
	strcpy(name + 150, "c");
	const char *f = name;
	/* "F: [" is not a regex: get_maintainer.pl dies, we fail cleanly */
	assert_true(maint_lookup(h, dir, &f, 1, NULL, &res, &err) < 0);
	assert_non_null(strstr(err.msg, "does not compile"));
	maint_db_free(h);

	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("STARS\nM:\tS <s@example.org>\nS:\tMaintained\n"
	      "F:\t*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b\n",
	      fp);
	fclose(fp);
	assert_int_equal(maint_db_load(path, &h, &err), 0);
	assert_int_equal(maint_lookup(h, dir, &f, 1, NULL, &res, &err), 0);
	assert_int_equal(res.n, 0);
	maint_result_release(&res);
	name[150] = 'b';
	assert_int_equal(maint_lookup(h, dir, &f, 1, NULL, &res, &err), 0);
	assert_int_equal(res.n, 1);
	maint_result_release(&res);
	maint_db_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_path_forms),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_patches),
		cmocka_unit_test(test_patch_files),
		cmocka_unit_test(test_entry_fields),
		cmocka_unit_test(test_bad_keyword),
		cmocka_unit_test(test_hostile_globs),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
