/* util/: the display sanitizer, dates, buffers and safe file writes. */
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "util/util.h"
#include "util/verdict.h"

static void check_safe(const char *in, const char *want, unsigned flags)
{
	char *got = safe_text(in, strlen(in), flags);
	assert_string_equal(got, want);
	char *again = safe_text(got, strlen(got), flags);
	assert_string_equal(again, got);
	free(got);
	free(again);
}

static void test_safe_text_table(void **state)
{
	(void)state;
	check_safe("plain subject", "plain subject", 0);
	check_safe("\x1b[2Jcleared", "^[[2Jcleared", 0);
	check_safe("\x1b]0;title\x07", "^[]0;title^G", 0);
	check_safe("\x1b]52;c;ZXZpbA==\x1b\\", "^[]52;c;ZXZpbA==^[\\", 0);
	check_safe("a\xc2\x9b"
		   "2Jb",
		   "a<U+009B>2Jb", 0); /* C1 CSI */
	check_safe("evil\xe2\x80\xae"
		   "fdp.exe",
		   "evil<U+202E>fdp.exe", 0);
	check_safe("zero\xe2\x80\x8bwidth", "zero<U+200B>width", 0);
	check_safe("bom\xef\xbb\xbf", "bom<U+FEFF>", 0);
	check_safe("del\x7f", "del^?", 0);
	check_safe("line1\nline2\tx", "line1^Jline2^Ix", 0);
	check_safe("line1\nline2\tx", "line1\nline2\tx",
		   SAFE_KEEP_NEWLINE | SAFE_KEEP_TAB);
	check_safe("cr\r\n", "cr^M\n", SAFE_KEEP_NEWLINE);
	check_safe("bad\xff\xfe", "bad\\xFF\\xFE", 0);
	check_safe("overlong\xc0\xaf", "overlong\\xC0\\xAF", 0);
	check_safe("surrogate\xed\xa0\x80", "surrogate\\xED\\xA0\\x80", 0);
	check_safe("trunc\xe2\x82", "trunc\\xE2\\x82", 0);
	check_safe("caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac",
		   "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac", 0);
	check_safe("%n%s", "%n%s", 0);
	check_safe("tag\xf3\xa0\x81\x81", "tag<U+E0041>", 0);
}

static void test_safe_text_nul(void **state)
{
	(void)state;
	char *got = safe_text("a\0b", 3, 0);
	assert_string_equal(got, "a^@b");
	free(got);
}

/* Random bytes in, never a control or an escape sequence out. */
static void test_safe_text_random(void **state)
{
	(void)state;
	unsigned seed = 12345;
	char in[64];

	for (int round = 0; round < 20000; round++) {
		size_t n = (size_t)(rand_r(&seed) % sizeof(in));
		for (size_t i = 0; i < n; i++)
			in[i] = (char)(rand_r(&seed) % 4
					       ? rand_r(&seed) % 256
					       : "\x1b\x9b\xc2\xe2\x80\xae\n"
							 [rand_r(&seed) % 7]);
		char *out = safe_text(in, n, SAFE_KEEP_NEWLINE);
		for (const unsigned char *p = (const unsigned char *)out; *p;
		     p++)
			assert_true(*p >= 0x20 || *p == '\n');
		assert_null(strchr(out, 0x7f));
		assert_null(strstr(out, "\xc2\x9b"));
		assert_null(strstr(out, "\xe2\x80\xae"));
		char *again = safe_text(out, strlen(out), SAFE_KEEP_NEWLINE);
		assert_string_equal(out, again);
		free(out);
		free(again);
	}
}

static void test_parse_date(void **state)
{
	(void)state;
	time_t t, now = 1796212800; /* 2026-12-02T12:00:00Z */
	char buf[32];
	struct err err;

	assert_int_equal(parse_date("2026-12-09", now, &t, &err), 0);
	assert_string_equal(fmt_rfc3339(t, buf), "2026-12-09T12:00:00Z");
	assert_int_equal(parse_date("2026-12-09T08:30Z", now, &t, &err), 0);
	assert_string_equal(fmt_rfc3339(t, buf), "2026-12-09T08:30:00Z");
	assert_int_equal(parse_date("2026-12-09T08:30:15Z", now, &t, &err), 0);
	assert_string_equal(fmt_rfc3339(t, buf), "2026-12-09T08:30:15Z");
	assert_int_equal(parse_date("+7d", now, &t, &err), 0);
	assert_string_equal(fmt_rfc3339(t, buf), "2026-12-09T12:00:00Z");
	assert_int_equal(parse_date("now", now, &t, &err), 0);
	assert_int_equal(t, now);
	assert_int_equal(parse_date("2028-02-29", now, &t, &err), 0);
	assert_int_not_equal(parse_date("2027-02-29", now, &t, &err), 0);
	assert_non_null(strstr(err.msg, "2027-02-29"));
	assert_int_not_equal(parse_date("2026-13-01", now, &t, &err), 0);
	assert_int_not_equal(parse_date("tomorrow", now, &t, &err), 0);
	assert_int_not_equal(parse_date("2026-12-09T25:00Z", now, &t, &err), 0);
	assert_int_not_equal(parse_date("2026-12-09junk", now, &t, &err), 0);
	assert_int_not_equal(parse_date("+7x", now, &t, &err), 0);
	assert_int_not_equal(parse_date("", now, &t, &err), 0);
}

static void test_days_between(void **state)
{
	(void)state;
	assert_int_equal(days_between(0, 86400 * 7), 7);
	assert_int_equal(days_between(0, 86400 * 7 - 1), 6);
	assert_int_equal(days_between(86400, 0), -1);
	assert_int_equal(days_between(86400, 1), -1);
}

static void test_sbuf(void **state)
{
	(void)state;
	struct sbuf sb = SBUF_INIT;
	for (int i = 0; i < 1000; i++)
		sbuf_addf(&sb, "%d,", i);
	assert_true(str_starts(sb.buf, "0,1,2,"));
	assert_true(str_ends(sb.buf, "998,999,"));
	size_t len;
	char *s = sbuf_detach(&sb, &len);
	assert_int_equal(len, strlen(s));
	assert_null(sb.buf);
	free(s);
}

/* A fresh private folder for one test (caller removes it with rm_dir). */
static char *mk_dir(void)
{
	const char *t = getenv("TMPDIR");
	char *d = xasprintf("%s/secteam-util-XXXXXX", t && *t ? t : P_tmpdir);

	if (!mkdtemp(d))
		fail_msg("mkdtemp: %s", strerror(errno));
	return d;
}

static void rm_dir(char *d)
{
	char *cmd = xasprintf("rm -rf '%s'", d);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(d);
}

static char *slurp(const char *path)
{
	char *buf;
	size_t len;
	struct err err;

	if (read_file(path, 1 << 20, &buf, &len, &err) < 0)
		return NULL;
	return buf;
}

static void spit(const char *path, const char *text, int mode)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	chmod(path, (mode_t)mode);
}

static size_t count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void test_atomic_file_writes(void **state)
{
	(void)state;
	char *d = mk_dir(), *path = xasprintf("%s/out.ics", d), *got;
	struct atomic_file af;
	struct err err;
	struct stat st;
	mode_t old = umask(0);

	/* A new file: the given mode whatever the umask, nothing else left. */
	assert_int_equal(atomic_file_open(&af, path, 0600, &err), 0);
	fputs("first\n", af.f);
	assert_int_equal(atomic_file_commit(&af, &err), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_string_equal(got = slurp(path), "first\n");
	free(got);
	assert_int_equal(count_entries(d), 1);

	/* Our own file left 0666: replaced, and 0600 again. */
	chmod(path, 0666);
	assert_int_equal(atomic_file_open(&af, path, 0600, &err), 0);
	fputs("second\n", af.f);
	assert_int_equal(atomic_file_commit(&af, &err), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_string_equal(got = slurp(path), "second\n");
	free(got);

	/* A mode asked for is the mode given. */
	assert_int_equal(atomic_file_open(&af, path, 0644, &err), 0);
	fputs("third\n", af.f);
	assert_int_equal(atomic_file_commit(&af, &err), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);

	/* Aborted: the target unchanged, no temporary file left. */
	assert_int_equal(atomic_file_open(&af, path, 0600, &err), 0);
	fputs("dropped\n", af.f);
	atomic_file_abort(&af);
	assert_string_equal(got = slurp(path), "third\n");
	free(got);
	assert_int_equal(count_entries(d), 1);
	umask(old);
	free(path);
	rm_dir(d);
}

static void test_atomic_file_refuses(void **state)
{
	(void)state;
	char *d = mk_dir(), *victim = xasprintf("%s/victim", d),
	     *link = xasprintf("%s/link.ics", d), *sub = xasprintf("%s/sub", d),
	     *want, *got;
	struct atomic_file af;
	struct err err;
	struct stat st;

	/* A planted symbolic link: refused, naming it; its target untouched. */
	spit(victim, "precious\n", 0600);
	assert_int_equal(symlink(victim, link), 0);
	assert_int_equal(atomic_file_open(&af, link, 0600, &err), ERR_REFUSED);
	want = xasprintf("refusing to write '%s': it is a symbolic link", link);
	assert_string_equal(err.msg, want);
	free(want);
	assert_string_equal(got = slurp(victim), "precious\n");
	free(got);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));

	/* A dangling link is refused as well (it would create its target). */
	unlink(link);
	assert_int_equal(symlink(sub, link), 0);
	assert_int_equal(atomic_file_open(&af, link, 0600, &err), ERR_REFUSED);
	assert_int_equal(stat(sub, &st), -1);

	/* Not a regular file. */
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_int_equal(atomic_file_open(&af, sub, 0600, &err), ERR_REFUSED);
	want = xasprintf("refusing to write '%s': it is not a regular file",
			 sub);
	assert_string_equal(err.msg, want);
	free(want);

	/* A folder that does not exist: a clear error naming the file. */
	free(sub);
	sub = xasprintf("%s/none/out.json", d);
	assert_int_equal(atomic_file_open(&af, sub, 0600, &err), ERR_IO);
	want = xasprintf("cannot write '%s': No such file or directory", sub);
	assert_string_equal(err.msg, want);
	free(want);
	assert_int_equal(count_entries(d), 3);
	free(victim);
	free(link);
	free(sub);
	rm_dir(d);
}

/* Someone else's file (root can make one): refused, left as it was. */
static void test_atomic_file_foreign_owner(void **state)
{
	(void)state;
	char *d, *path, *want, *got;
	struct atomic_file af;
	struct err err;

	if (geteuid() != 0)
		skip();
	d = mk_dir();
	path = xasprintf("%s/embargoes.ics", d);
	spit(path, "theirs\n", 0666);
	assert_int_equal(chown(path, 65534, 65534), 0);
	assert_int_equal(atomic_file_open(&af, path, 0600, &err), ERR_REFUSED);
	want = xasprintf(
		"refusing to write '%s': it belongs to another user (uid 65534)",
		path);
	assert_string_equal(err.msg, want);
	assert_string_equal(got = slurp(path), "theirs\n");
	assert_int_equal(count_entries(d), 1);
	free(got);
	free(want);
	free(path);
	rm_dir(d);
}

static void test_open_beneath(void **state)
{
	(void)state;
	char *d = mk_dir(), *p, *want, *buf;
	struct err err;
	size_t len;
	int fd;

	p = xasprintf("%s/new", d);
	assert_int_equal(mkdir(p, 0700), 0);
	free(p);
	p = xasprintf("%s/new/1.eml", d);
	spit(p, "Subject: x\n", 0600);
	free(p);
	fd = open_beneath(d, "new/1.eml", &err);
	assert_true(fd >= 0);
	assert_int_equal(read_fd(fd, "1.eml", 100, &buf, &len, &err), 0);
	assert_string_equal(buf, "Subject: x\n");
	free(buf);
	close(fd);

	/* A link as the file, and as a folder on the way: not followed. */
	p = xasprintf("%s/new/2.eml", d);
	assert_int_equal(symlink("1.eml", p), 0);
	free(p);
	assert_int_equal(open_beneath(d, "new/2.eml", &err), ERR_REFUSED);
	want = xasprintf("'%s/new/2.eml' is a symbolic link: not followed", d);
	assert_string_equal(err.msg, want);
	free(want);
	p = xasprintf("%s/cur", d);
	assert_int_equal(symlink("new", p), 0);
	free(p);
	assert_int_equal(open_beneath(d, "cur/1.eml", &err), ERR_REFUSED);
	want = xasprintf("'%s/cur/1.eml' is a symbolic link: not followed", d);
	assert_string_equal(err.msg, want);
	free(want);

	/* Out of the folder, a folder, a FIFO (which must not block). */
	assert_int_equal(open_beneath(d, "../x", &err), ERR_INVALID);
	assert_int_equal(open_beneath(d, "new", &err), ERR_REFUSED);
	p = xasprintf("%s/new/fifo", d);
	assert_int_equal(mkfifo(p, 0600), 0);
	free(p);
	assert_int_equal(open_beneath(d, "new/fifo", &err), ERR_REFUSED);
	want = xasprintf("'%s/new/fifo' is not a regular file", d);
	assert_string_equal(err.msg, want);
	free(want);
	assert_int_equal(open_beneath(d, "new/none", &err), ERR_NOTFOUND);
	rm_dir(d);
}

/* Expects open_trusted(path) to fail with code, err.msg being want. */
static void refused(const char *path, int code, const char *want)
{
	struct err err = { 0, "" };

	assert_int_equal(open_trusted(path, &err), code);
	assert_string_equal(err.msg, want);
}

/* What decides the commands run and the mail sent is read only when
 * nobody else can have written it: the file, every folder down to it,
 * every link followed.  A sticky folder others can write may be passed
 * through, never hold the file or a link. */
static void test_open_trusted(void **state)
{
	(void)state;
	char *d = mk_dir(), *f = xasprintf("%s/f", d),
	     *w = xasprintf("%s/w", d);
	char *p, *q, *want, *buf;
	struct err err;
	size_t len;
	int fd;

	spit(f, "x\n", 0600);
	assert_true((fd = open_trusted(f, &err)) >= 0);
	assert_int_equal(read_fd(fd, f, 100, &buf, &len, &err), 0);
	assert_string_equal(buf, "x\n");
	free(buf);
	close(fd);
	chmod(f, 0666);
	want = xasprintf(
		"it is writable by others (mode 0666; run: chmod go-w '%s')",
		f);
	refused(f, ERR_REFUSED, want);
	free(want);
	chmod(f, 0644);

	/* The officer's own link to a good file: followed. */
	p = xasprintf("%s/l", d);
	assert_int_equal(symlink("f", p), 0);
	assert_true((fd = open_trusted(p, &err)) >= 0);
	close(fd);
	/* ... to a file that does not pass: the file is named. */
	chmod(f, 0666);
	want = xasprintf(
		"file '%s' is writable by others (mode 0666; run: chmod go-w '%s')",
		f, f);
	refused(p, ERR_REFUSED, want);
	free(want);
	chmod(f, 0644);
	free(p);

	/* A folder others can write: refused, sticky or not, as the file's. */
	assert_int_equal(mkdir(w, 0700), 0);
	chmod(w, 0777);
	p = xasprintf("%s/f", w);
	spit(p, "x\n", 0644);
	want = xasprintf(
		"folder '%s' is writable by others (mode 0777; run: chmod go-w '%s')",
		w, w);
	refused(p, ERR_REFUSED, want);
	q = xasprintf("%s/none", w); /* missing, but others could add it */
	refused(q, ERR_REFUSED, want);
	free(want);
	free(q);
	chmod(w, 01777);
	want = xasprintf(
		"folder '%s' is writable by others (mode 1777); use a private folder",
		w);
	refused(p, ERR_REFUSED, want);
	free(want);
	free(p);
	/* ... passed through when sticky (/tmp), to a private folder in it. */
	p = xasprintf("%s/ok", w);
	assert_int_equal(mkdir(p, 0700), 0);
	free(p);
	p = xasprintf("%s/ok/f", w);
	spit(p, "x\n", 0600);
	assert_true((fd = open_trusted(p, &err)) >= 0);
	close(fd);
	free(p);
	/* ... but a link in it is not followed, even the officer's own. */
	p = xasprintf("%s/l", w);
	assert_int_equal(symlink(f, p), 0);
	want = xasprintf(
		"symbolic link '%s' is in folder '%s', which others can write",
		p, w);
	refused(p, ERR_REFUSED, want);
	free(want);
	free(p);

	/* Missing, a folder, a path through a file, "..", a loop. */
	p = xasprintf("%s/none", d);
	want = xasprintf("cannot open '%s': No such file or directory", p);
	refused(p, ERR_NOTFOUND, want);
	free(want);
	free(p);
	want = xasprintf("'%s' is a folder, not a file", d);
	refused(d, ERR_INVALID, want);
	free(want);
	p = xasprintf("%s/x", f);
	want = xasprintf("cannot open '%s': '%s' is not a folder", p, f);
	refused(p, ERR_INVALID, want);
	free(want);
	free(p);
	p = xasprintf("%s/../%s/f", d, strrchr(d, '/') + 1);
	assert_true((fd = open_trusted(p, &err)) >= 0);
	close(fd);
	free(p);
	p = xasprintf("%s/loop", d);
	assert_int_equal(symlink("loop", p), 0);
	want = xasprintf("'%s': too many symbolic links", p);
	refused(p, ERR_REFUSED, want);
	free(want);
	free(p);
	/* Root's device, writable by all, reads empty. */
	assert_true((fd = open_trusted("/dev/null", &err)) >= 0);
	close(fd);

	/* Another user's link, file or folder (root can make them). */
	if (geteuid() == 0) {
		p = xasprintf("%s/l", d);
		assert_int_equal(lchown(p, 65534, 65534), 0);
		want = xasprintf(
			"symbolic link '%s' belongs to another user (uid 65534)",
			p);
		refused(p, ERR_REFUSED, want);
		free(want);
		free(p);
		assert_int_equal(chown(f, 65534, 65534), 0);
		want = xasprintf("it belongs to another user (uid 65534)");
		refused(f, ERR_REFUSED, want);
		free(want);
		assert_int_equal(chown(f, 0, 0), 0);
		assert_int_equal(chown(d, 65534, 65534), 0);
		want = xasprintf(
			"folder '%s' belongs to another user (uid 65534)", d);
		refused(f, ERR_REFUSED, want);
		free(want);
	}
	free(f);
	free(w);
	rm_dir(d);
}

/* Text in columns: fitted to a width by columns, not bytes; cut with a
 * visible "…"; a table's header and rows share widths. */
static void test_columns(void **state)
{
	static const char *const head[] = { "ID", "WHO", "TEXT" };
	static const int max[] = { 0, 6, 0 };
	struct text_table t;
	char *s, *out = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(str_cols("abc"), 3);
	assert_int_equal(str_cols("\xe6\xbc\xa2\xe5\xad\x97"),
			 4); /* two wide CJK */
	assert_int_equal(str_cols("e\xcc\x81"), 1); /* e + combining acute */
	s = str_fit("abc", 5);
	assert_string_equal(s, "abc  ");
	free(s);
	s = str_fit("abcdefgh", 5);
	assert_string_equal(s, "abcd\xe2\x80\xa6");
	free(s);
	s = str_fit("\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2",
		    4); /* 6 columns into 4 */
	assert_string_equal(s, "\xe6\xbc\xa2\xe2\x80\xa6 ");
	assert_int_equal(str_cols(s), 4);
	free(s);
	s = str_fit("abc", 0);
	assert_string_equal(s, "");
	free(s);

	text_table_init(&t, 3, head, max);
	text_table_add(&t, (const char *const[]){ "1", "root", "short" });
	text_table_add(
		&t, (const char *const[]){ "12345", "a-long-officer", "next" });
	f = open_memstream(&out, &len);
	text_table_print(&t, f);
	fclose(f);
	assert_string_equal(out,
			    "ID     WHO     TEXT\n"
			    "1      root    short\n"
			    "12345  a-lon\xe2\x80\xa6  next\n");
	free(out);
	text_table_release(&t);
}

/* util/verdict.c: the one place verdicts are named, ordered and classed. */
static void test_verdict_rules(void **state)
{
	static const struct {
		enum sig_verdict v;
		const char *name;
		enum verdict_class cls;
	} want[] = {
		{ SIG_VALID, "valid", VERDICT_TRUSTED },
		{ SIG_GOOD, "good", VERDICT_WARNING },
		{ SIG_NOT_SIGNED, "not-signed", VERDICT_WARNING },
		{ SIG_PARTIAL, "partial", VERDICT_WARNING },
		{ SIG_BAD, "bad", VERDICT_BAD },
		{ SIG_UNKNOWN_KEY, "unknown-key", VERDICT_BAD },
		{ SIG_EXPIRED_KEY, "expired-key", VERDICT_BAD },
		{ SIG_REVOKED_KEY, "revoked-key", VERDICT_BAD },
		{ SIG_ERROR, "error", VERDICT_BAD },
		{ SIG_NONE, "-", VERDICT_BAD },
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		assert_string_equal(sig_verdict_name(want[i].v), want[i].name);
		assert_int_equal(sig_verdict_class(want[i].v), want[i].cls);
	}
	assert_string_equal(sig_verdict_name((enum sig_verdict)SIG__COUNT),
			    "error");
	assert_int_equal(sig_verdict_class((enum sig_verdict)SIG__COUNT),
			 VERDICT_BAD);
	/* A stored name this program does not know is never a good one. */
	assert_int_equal(sig_verdict_from_name("excellent"), SIG_ERROR);
	assert_int_equal(sig_verdict_from_name(NULL), SIG_ERROR);
	assert_int_equal(sig_verdict_from_name("-"), SIG_ERROR);
	assert_int_equal(sig_verdict_from_name("partial"), SIG_PARTIAL);
	/* bad > revoked > expired > unknown > error > partial > not-signed
	 * > good > valid, whichever side each stands on. */
	static const enum sig_verdict order[] = {
		SIG_VALID,	 SIG_GOOD,	  SIG_NOT_SIGNED,
		SIG_PARTIAL,	 SIG_ERROR,	  SIG_UNKNOWN_KEY,
		SIG_EXPIRED_KEY, SIG_REVOKED_KEY, SIG_BAD,
	};
	for (size_t i = 0; i < ARRAY_SIZE(order); i++)
		for (size_t k = i; k < ARRAY_SIZE(order); k++) {
			assert_int_equal(sig_verdict_worse(order[i], order[k]),
					 order[k]);
			assert_int_equal(sig_verdict_worse(order[k], order[i]),
					 order[k]);
		}
}

/* base64 both ways (RFC 4648's test vectors), and refusals. */
static void test_base64(void **state)
{
	static const char *const v[][2] = {
		{ "", "" },
		{ "f", "Zg==" },
		{ "fo", "Zm8=" },
		{ "foo", "Zm9v" },
		{ "foob", "Zm9vYg==" },
		{ "fooba", "Zm9vYmE=" },
		{ "foobar", "Zm9vYmFy" },
	};
	unsigned char *out;
	size_t n;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		char *e = base64_encode(v[i][0], strlen(v[i][0]));
		assert_string_equal(e, v[i][1]);
		free(e);
		assert_int_equal(base64_decode(v[i][1], &out, &n), 0);
		assert_int_equal(n, strlen(v[i][0]));
		assert_memory_equal(out, v[i][0], n);
		free(out);
	}
	/* Every byte value round-trips. */
	unsigned char all[256];
	for (int i = 0; i < 256; i++)
		all[i] = (unsigned char)i;
	char *e = base64_encode(all, sizeof(all));
	assert_int_equal(base64_decode(e, &out, &n), 0);
	assert_int_equal(n, sizeof(all));
	assert_memory_equal(out, all, n);
	free(out);
	free(e);
	assert_int_equal(base64_decode("Zm9", &out, &n), -1);
	assert_int_equal(base64_decode("Zm9v!A==", &out, &n), -1);
	assert_int_equal(base64_decode("Zg==Zm9v", &out, &n), -1);
	assert_int_equal(base64_decode("Z=9v", &out, &n), -1);
	assert_null(out);
	/* A byte outside the alphabet in each place of a group before the
	 * last, and in the last: '=', '!', a space, bytes above 127. */
	static const char *const bad[] = {
		"=m9vYmFy",    "Z=9vYmFy",    "Zm=vYmFy",	"Zm9=YmFy",
		"Zm9vYm=y",    "!m9vYmFy",    "Zm\xc3\xa9YmFy", "Zm9v YmF",
		"Zm9vYmF\xff", "Zm9v\x80mFy",
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		out = (unsigned char *)"not reset";
		if (base64_decode(bad[i], &out, &n) != -1 || out)
			fail_msg("base64_decode('%s') was not refused", bad[i]);
	}
	/* Long input: the groups before the last and the last, each length. */
	for (size_t len = 0; len < 64; len++) {
		char *e2 = base64_encode(all + len, len);
		assert_int_equal(base64_decode(e2, &out, &n), 0);
		assert_int_equal(n, len);
		assert_memory_equal(out, all + len, len);
		free(out);
		free(e2);
	}
	/* Into a buffer: the same bytes when they fit (a cap of exactly the
	 * groups' bytes fits), 1 and nothing written when they do not, the
	 * same refusals. */
	for (size_t len = 0; len < 40; len++) {
		char *e2 = base64_encode(all, len);
		size_t groups = strlen(e2) / 4 * 3;
		unsigned char buf[64];

		memset(buf, 0xaa, sizeof(buf));
		assert_int_equal(base64_decode_buf(e2, buf, groups, &n), 0);
		assert_int_equal(n, len);
		assert_memory_equal(buf, all, len);
		if (groups) {
			memset(buf, 0xaa, sizeof(buf));
			assert_int_equal(
				base64_decode_buf(e2, buf, groups - 1, &n), 1);
			assert_int_equal(n, 0);
			assert_int_equal(buf[0], 0xaa);
		}
		free(e2);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		unsigned char buf[16];

		if (base64_decode_buf(bad[i], buf, sizeof(buf), &n) != -1)
			fail_msg("base64_decode_buf('%s') was not refused",
				 bad[i]);
	}
	assert_int_equal(
		base64_decode_buf("Zm9", (unsigned char[4]){ 0 }, 4, &n), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_safe_text_table),
		cmocka_unit_test(test_safe_text_nul),
		cmocka_unit_test(test_safe_text_random),
		cmocka_unit_test(test_parse_date),
		cmocka_unit_test(test_days_between),
		cmocka_unit_test(test_sbuf),
		cmocka_unit_test(test_columns),
		cmocka_unit_test(test_atomic_file_writes),
		cmocka_unit_test(test_atomic_file_refuses),
		cmocka_unit_test(test_atomic_file_foreign_owner),
		cmocka_unit_test(test_open_beneath),
		cmocka_unit_test(test_open_trusted),
		cmocka_unit_test(test_verdict_rules),
		cmocka_unit_test(test_base64),
	};
	return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}
