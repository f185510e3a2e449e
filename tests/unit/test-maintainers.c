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

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "maint/maint-int.h"

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

/* ---- the compiled MAINTAINERS in the officer's cache ---- */

/* A fresh cache folder for one test (SECTEAM_CACHE), its path in buf. */
static void cache_fresh(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/cache-%s", tree, name);
	mkdir(buf, 0700);
	setenv("SECTEAM_CACHE", buf, 1);
}

/* The one compiled MAINTAINERS in folder dir, into buf; false if none. */
static bool cache_path(const char *dir, char *buf, size_t n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool found = false;
	assert_non_null(d);
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "maintainers-", 12) &&
		    strstr(e->d_name, ".idx")) {
			snprintf(buf, n, "%s/%s", dir, e->d_name);
			found = true;
		}
	closedir(d);
	return found;
}

/* Every file case answered through db2 as through the parsed db. */
static void same_answers(struct maint_db *db2)
{
	struct maint_db *keep = db;
	for (size_t i = 0; i < ARRAY_SIZE(file_cases); i++) {
		const char *f = file_cases[i].file;
		db = db2;
		char *got = lookup_text(&f, 1, NULL);
		db = keep;
		if (strcmp(got, file_cases[i].want))
			fail_msg("%s through the cache:\n%s\nwant:\n%s", f, got,
				 file_cases[i].want);
		free(got);
	}
	for (size_t i = 0; i < ARRAY_SIZE(patch_cases); i++) {
		db = db2;
		char *got = lookup_text(NULL, 0, patch_cases[i].patch);
		db = keep;
		if (strcmp(got, patch_cases[i].want))
			fail_msg("patch %zu through the cache:\n%s\nwant:\n%s",
				 i, got, patch_cases[i].want);
		free(got);
	}
}

/* Made once, then mapped: the same answers both times, the file 0600. */
static void test_compiled_same(void **state)
{
	(void)state;
	char dir[400], cp[700], mp[512];
	struct maint_db *d;
	struct err err = { 0, "" }, warn = { 0, "" };
	struct stat st;

	cache_fresh(dir, sizeof(dir), "same");
	snprintf(mp, sizeof(mp), "%s/MAINTAINERS", tree);
	assert_int_equal(maint_db_load_cached(mp, &d, &warn, &err), 0);
	assert_int_equal(warn.code, 0);
	assert_false(d->mapped); /* just parsed */
	same_answers(d);
	maint_db_free(d);
	assert_true(cache_path(dir, cp, sizeof(cp)));
	assert_int_equal(stat(cp, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(maint_db_load_cached(mp, &d, &warn, &err), 0);
	assert_int_equal(warn.code, 0);
	assert_true(d->mapped); /* taken from the cache */
	assert_int_equal(maint_db_sections(d), maint_db_sections(db));
	same_answers(d);
	maint_db_free(d);
	unsetenv("SECTEAM_CACHE");
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* The first address db answers for file, "" without one (new). */
static char *first_addr(struct maint_db *d, const char *dir, const char *f)
{
	struct maint_result res;
	struct err err = { 0, "" };
	assert_int_equal(maint_lookup(d, dir, &f, 1, NULL, &res, &err), 0);
	char *a = xstrdup(res.n ? res.v[0].email : "");
	maint_result_release(&res);
	return a;
}

static char *cached_answer(const char *mp, const char *dir, const char *f,
			   bool want_mapped)
{
	struct maint_db *d;
	struct err err = { 0, "" }, warn = { 0, "" };
	assert_int_equal(maint_db_load_cached(mp, &d, &warn, &err), 0);
	assert_int_equal(warn.code, 0);
	assert_int_equal(d->mapped, want_mapped);
	char *a = first_addr(d, dir, f);
	maint_db_free(d);
	return a;
}

/* A changed MAINTAINERS or .mailmap is compiled again, even when its
 * size and modification time are what they were. */
static void test_compiled_invalidated(void **state)
{
	(void)state;
	char dir[400], cdir[400], mp[512], mm[512];
	struct stat st;
	struct timespec ts[2];
	char *a;

	cache_fresh(cdir, sizeof(cdir), "inval");
	snprintf(dir, sizeof(dir), "%s/inval", tree);
	mkdir(dir, 0700);
	snprintf(mp, sizeof(mp), "%s/MAINTAINERS", dir);
	snprintf(mm, sizeof(mm), "%s/.mailmap", dir);
	put(mp, "ONE\nM:\tA One <aaa@example.org>\nS:\tMaintained\nF:\tx.c\n");
	a = cached_answer(mp, dir, "x.c", false);
	assert_string_equal(a, "aaa@example.org");
	free(a);
	a = cached_answer(mp, dir, "x.c", true);
	assert_string_equal(a, "aaa@example.org");
	free(a);

	/* Same size, same modification time: only the content differs. */
	assert_int_equal(stat(mp, &st), 0);
	put(mp, "ONE\nM:\tB One <bbb@example.org>\nS:\tMaintained\nF:\tx.c\n");
	ts[0] = st.st_atim;
	ts[1] = st.st_mtim;
	assert_int_equal(utimensat(AT_FDCWD, mp, ts, 0), 0);
	a = cached_answer(mp, dir, "x.c", false);
	assert_string_equal(a, "bbb@example.org");
	free(a);

	/* A new .mailmap maps the address. */
	put(mm, "B One <ccc@example.org> <bbb@example.org>\n");
	a = cached_answer(mp, dir, "x.c", false);
	assert_string_equal(a, "ccc@example.org");
	free(a);
	a = cached_answer(mp, dir, "x.c", true);
	assert_string_equal(a, "ccc@example.org");
	free(a);
	unsetenv("SECTEAM_CACHE");
}

/* Loads through the cache expecting a refusal whose warning holds why,
 * and the right answer all the same. */
static void refused(const char *mp, const char *why)
{
	struct maint_db *d;
	struct err err = { 0, "" }, warn = { 0, "" };
	assert_int_equal(maint_db_load_cached(mp, &d, &warn, &err), 0);
	if (!warn.code || !strstr(warn.msg, why))
		fail_msg("wanted a refusal saying '%s', got '%s'", why,
			 warn.msg);
	assert_false(d->mapped);
	same_answers(d);
	maint_db_free(d);
}

static unsigned char *slurp(const char *path, size_t *len)
{
	char *t;
	struct err err = { 0, "" };
	assert_int_equal(read_file(path, 64u << 20, &t, len, &err), 0);
	return (unsigned char *)t;
}

static void spit(const char *path, const void *b, size_t len)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, b, len), (ssize_t)len);
	close(fd);
}

/* A truncated, corrupt or made-up cache file is refused and made again;
 * one others may read or write, another user's, or a link is not used. */
static void test_compiled_refused(void **state)
{
	(void)state;
	char dir[400], cp[700], mp[512];
	struct maint_db *d;
	struct err err = { 0, "" }, warn = { 0, "" };
	unsigned char *good, *bad;
	size_t len, l2;
	struct mimg_hdr h;
	struct mline ml;

	cache_fresh(dir, sizeof(dir), "refused");
	snprintf(mp, sizeof(mp), "%s/MAINTAINERS", tree);
	assert_int_equal(maint_db_load_cached(mp, &d, &warn, &err), 0);
	maint_db_free(d);
	assert_true(cache_path(dir, cp, sizeof(cp)));
	good = slurp(cp, &len);

	spit(cp, good, len / 2);
	refused(mp, "truncated");
	bad = slurp(cp, &l2); /* made again */
	assert_int_equal(l2, len);
	assert_memory_equal(bad, good, len);
	free(bad);

	bad = xmemdup(good, len);
	bad[len - 10] ^= 0x20; /* a letter of a name */
	spit(cp, bad, len);
	refused(mp, "checksum");

	/* Made up, its checksum right: a line's text far outside. */
	memcpy(&h, good, sizeof(h));
	memcpy(bad, good, len);
	memcpy(&ml, bad + h.off_lines, sizeof(ml));
	ml.text = 0x7ffffff0;
	memcpy(bad + h.off_lines, &ml, sizeof(ml));
	h.sum = maint_img_sum(bad, len);
	memcpy(bad, &h, sizeof(h));
	spit(cp, bad, len);
	refused(mp, "corrupt");
	free(bad);

	/* Another user may read or change it: not used. */
	assert_int_equal(chmod(cp, 0644), 0);
	refused(mp, "not this user's alone");
	assert_int_equal(chmod(cp, 0666), 0);
	refused(mp, "not this user's alone");
	assert_int_equal(chmod(cp, 0600), 0);

	/* A link to the officer's own good copy is not followed. */
	char other[800];
	snprintf(other, sizeof(other), "%s.copy", cp);
	assert_int_equal(rename(cp, other), 0);
	assert_int_equal(symlink(other, cp), 0);
	refused(mp, "cannot open");
	unlink(cp);
	unlink(other);

	/* Another user's file, however right: not used. */
	if (geteuid() == 0) {
		assert_int_equal(maint_db_load_cached(mp, &d, &warn, &err), 0);
		maint_db_free(d);
		assert_int_equal(chown(cp, 65534, 65534), 0);
		refused(mp, "not this user's alone");
	}
	free(good);
	unsetenv("SECTEAM_CACHE");
}

/* Made-up images, their checksum made right (a hostile writer): each is
 * refused, or answers without reading outside itself (the asan stage
 * runs this), whatever bytes were changed. */
static void test_compiled_hostile_bytes(void **state)
{
	(void)state;
	char dir[400], cp[700], mp[512];
	struct maint_db *d;
	struct err err = { 0, "" }, warn = { 0, "" };
	unsigned char *good, *bad;
	size_t len;
	unsigned seed = 4242;
	int refused = 0, used = 0;

	cache_fresh(dir, sizeof(dir), "hostile");
	snprintf(mp, sizeof(mp), "%s/MAINTAINERS", tree);
	assert_int_equal(maint_db_load_cached(mp, &d, &warn, &err), 0);
	maint_db_free(d);
	assert_true(cache_path(dir, cp, sizeof(cp)));
	good = slurp(cp, &len);
	bad = xmalloc(len);
	for (int round = 0; round < 400; round++) {
		struct mimg_hdr h;
		memcpy(bad, good, len);
		for (int k = 0; k < 1 + round % 4; k++) {
			seed = seed * 1103515245u + 12345u;
			size_t at = (seed >> 8) % len;
			seed = seed * 1103515245u + 12345u;
			/* half the time a field of the header */
			if (round % 2)
				at = (seed >> 8) % sizeof(h);
			bad[at] = (unsigned char)(seed >> 3);
		}
		memcpy(&h, bad, sizeof(h));
		h.sum = maint_img_sum(bad, len);
		memcpy(bad, &h, sizeof(h));
		struct maint_db *x = maint_db_new(mp);
		assert_non_null(x);
		unsigned char *copy = xmemdup(bad, len);
		if (maint_img_attach(x, copy, len, &err) < 0) {
			free(copy);
			refused++;
		} else {
			used++;
			for (size_t i = 0; i < ARRAY_SIZE(file_cases); i++) {
				const char *f = file_cases[i].file;
				struct maint_result res;
				if (maint_lookup(x, tree, &f, 1, NULL, &res,
						 &err) == 0)
					maint_result_release(&res);
			}
		}
		maint_db_free(x);
	}
	assert_true(refused > 0 && used > 0);
	free(bad);
	free(good);
	unsetenv("SECTEAM_CACHE");
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
		cmocka_unit_test(test_compiled_same),
		cmocka_unit_test(test_compiled_invalidated),
		cmocka_unit_test(test_compiled_refused),
		cmocka_unit_test(test_compiled_hostile_bytes),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
