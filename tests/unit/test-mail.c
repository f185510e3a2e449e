/*
 * mail/ and touched/: MIME parsing, mbox and Maildir, inline PGP,
 * composing, and the touched-files extractor.  The fixtures are written
 * by tests/lib/mkmail.py (Python's email package) into a temporary folder
 * in the group set-up, so what we parse was not made by our own code.
 */
#include "unit.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "touched/touched.h"
#include "mail/mail.h"
#include "util/util.h"

static char *fixtures;

static int group_setup(void **state)
{
	const char *top = getenv("SECTEAM_TOP"), *tmp = getenv("TMPDIR");
	char *cmd;
	int rc;

	(void)state;
	fixtures =
		xasprintf("%s/secteam-mail-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(fixtures))
		return -1;
	cmd = xasprintf("/usr/bin/python3 '%s/tests/lib/mkmail.py' '%s'",
			top && *top ? top : ".", fixtures);
	rc = system(cmd);
	free(cmd);
	mail_init();
	return rc == 0 ? 0 : -1;
}

static int group_teardown(void **state)
{
	char *cmd = xasprintf("rm -rf '%s'", fixtures);
	int rc;

	(void)state;
	rc = system(cmd);
	free(cmd);
	free(fixtures);
	return rc == 0 ? 0 : -1;
}

static char *fixture_path(const char *name)
{
	return xasprintf("%s/%s", fixtures, name);
}

static char *slurp(const char *name, size_t *len)
{
	char *path = fixture_path(name), *buf = NULL;
	struct err err = { 0 };

	if (read_file(path, (size_t)128 << 20, &buf, len, &err) < 0)
		fail_msg("%s", err.msg);
	free(path);
	return buf;
}

/* Parses fixture name into *msg; returns mail_parse's result. */
static int parse(const char *name, struct mail_msg *msg, struct err *err)
{
	size_t len;
	char *buf = slurp(name, &len);
	int r = mail_parse(buf, len, msg, err);

	free(buf);
	return r;
}

static void parse_ok(const char *name, struct mail_msg *msg)
{
	struct err err = { 0 };

	if (parse(name, msg, &err) < 0)
		fail_msg("%s: %s", name, err.msg);
}

static void assert_bytes(const void *got, size_t got_len, const void *want,
			 size_t want_len)
{
	assert_int_equal(got_len, want_len);
	assert_memory_equal(got, want, want_len);
}

static void assert_fixture_bytes(const void *got, size_t len, const char *name)
{
	size_t wl;
	char *want = slurp(name, &wl);

	assert_bytes(got, len, want, wl);
	free(want);
}

static bool valid_utf8(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		int n = *p < 0x80	      ? 0
			: (*p & 0xe0) == 0xc0 ? 1
			: (*p & 0xf0) == 0xe0 ? 2
			: (*p & 0xf8) == 0xf0 ? 3
					      : -1;
		if (n < 0)
			return false;
		p++;
		for (int i = 0; i < n; i++, p++)
			if ((*p & 0xc0) != 0x80)
				return false;
	}
	return true;
}

/* ---- mail_parse ----------------------------------------------------------*/

static void test_parse_plain(void **state)
{
	struct mail_msg m;

	(void)state;
	parse_ok("plain.eml", &m);
	assert_int_equal(m.kind, MAIL_PLAIN);
	assert_false(m.partial);
	assert_string_equal(m.message_id, "plain-1@example.org");
	assert_string_equal(m.in_reply_to, "parent@example.org");
	assert_int_equal(m.nreferences, 2);
	assert_string_equal(m.references[0], "root@example.org");
	assert_string_equal(m.references[1], "parent@example.org");
	assert_string_equal(m.from_name, "Alice Example");
	assert_string_equal(m.from_email, "alice@example.org");
	assert_non_null(strstr(m.to, "security@kernel.org"));
	assert_non_null(strstr(m.to, "bob@example.net"));
	assert_string_equal(m.subject, "Plain report");
	assert_int_equal(m.date, 1796205600);
	assert_string_equal(m.body_text,
			    "Hello,\nthe bug is in net/ipv4/tcp_input.c.\n");
	assert_int_equal(m.body_len, strlen(m.body_text));
	assert_int_equal(m.nattachments, 0);
	mail_msg_release(&m);
	assert_null(m.subject);
}

static void test_parse_subjects(void **state)
{
	static const struct {
		const char *file, *subject;
	} rows[] = {
		{ "subj-b.eml",
		  "S\xc3\xa9"
		  "curit\xc3\xa9: \xe6\xbc\x8f\xe6\xb4\x9e" },
		{ "subj-q.eml", "Caf\xc3\xa9 \xe2\x98\x83 report" },
		{ "subj-l.eml", "R\xc3\xa9sum\xc3\xa9 na\xc3\xafve" },
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct mail_msg m;

		parse_ok(rows[i].file, &m);
		assert_string_equal(m.subject, rows[i].subject);
		mail_msg_release(&m);
	}
}

/* Two officers' copies of one list mail: each relay, mailbox and list
 * added its own fields (folded ones too); the message is the same.  What
 * the sender wrote still counts. */
static void test_hash_transport(void **state)
{
	static const char *const msgs[] = {
		/* 0, 1: the same mail as two officers received it */
		"Return-Path: <list-bounces@vger.example>\r\n"
		"Delivered-To: alice@team.example\r\n"
		"Received: from mx1.example (mx1.example [192.0.2.1])\r\n"
		"\tby mail.team.example; Fri, 4 Dec 2026 10:00:00 +0000\r\n"
		"DKIM-Signature: v=1; a=rsa-sha256; d=vger.example;\r\n"
		" b=AAAA\r\n"
		"From: Rita <rita@example.net>\r\nSubject: oops\r\n"
		"Message-ID: <l1@example.net>\r\nList-Id: <sec.vger.example>\r\n"
		"\r\nbody\r\nReceived: not a header here\r\n",
		"delivered-to: bob@team.example\n"
		"X-Original-To: security@team.example\n"
		"RECEIVED: from mx2.example\n\tby mail2.team.example\n"
		"ARC-Seal: i=1; a=rsa-sha256; cv=none\n"
		"From: Rita <rita@example.net>\nSubject: oops\n"
		"Message-ID: <l1@example.net>\nList-Unsubscribe: <mailto:x@y>\n"
		"Status: RO\n\nbody\nReceived: not a header here\n",
		/* 2, 3, 4: what the sender wrote differs */
		"From: Mallory <rita@example.net>\nSubject: oops\n"
		"Message-ID: <l1@example.net>\n\nbody\nReceived: not a header here\n",
		"From: Rita <rita@example.net>\nSubject: oops\n"
		"Message-ID: <l1@example.net>\n\nbody\n",
		"From: Rita <rita@example.net>\nSubject: oops!\n"
		"Message-ID: <l1@example.net>\n\nbody\nReceived: not a header here\n",
	};
	char *h[5], *r0, *r1;

	(void)state;
	for (size_t i = 0; i < 5; i++)
		h[i] = mail_content_hash(msgs[i], strlen(msgs[i]));
	assert_string_equal(h[0], h[1]);
	for (size_t i = 2; i < 5; i++)
		assert_string_not_equal(h[0], h[i]);
	r0 = mail_raw_hash(msgs[0], strlen(msgs[0]));
	r1 = mail_raw_hash(msgs[1], strlen(msgs[1]));
	assert_string_not_equal(r0, r1);
	free(r0);
	free(r1);
	for (size_t i = 0; i < 5; i++)
		free(h[i]);
}

static void test_parse_crlf_and_hash(void **state)
{
	struct mail_msg m;
	size_t len, hl;
	char *buf = slurp("crlf.eml", &len), *want = slurp("crlf.sha256", &hl);
	char *hash = mail_content_hash(buf, len);

	(void)state;
	assert_string_equal(hash, want);
	free(hash);
	free(want);
	free(buf);
	parse_ok("crlf.eml", &m);
	assert_string_equal(m.subject, "CRLF report");
	assert_string_equal(m.body_text, "line one\nline two\n");
	assert_string_equal(m.message_id, "crlf@example.org");
	mail_msg_release(&m);

	/* The same text with LF or CRLF hashes the same. */
	char *a = mail_content_hash("a\r\nb\r\n", 6);
	char *b = mail_content_hash("a\nb\n", 4);
	assert_string_equal(a, b);
	/* printf 'a\nb\n' | sha256sum */
	assert_string_equal(
		b,
		"911169ddaaf146aff539f58c26c489af3b892dff0fe283c1c264c65ae5aa59a2");
	assert_int_equal(strlen(a), 64);
	free(a);
	free(b);
}

static void test_parse_nested(void **state)
{
	struct mail_msg m;

	(void)state;
	parse_ok("nested.eml", &m);
	assert_int_equal(m.kind, MAIL_PLAIN);
	assert_string_equal(m.body_text,
			    "First text part.\n\nGr\xc3\xbc\xc3\x9f"
			    "e aus Wien\n");
	assert_int_equal(m.nattachments, 4);
	assert_string_equal(m.attachments[0].content_type, "text/html");
	assert_null(m.attachments[0].filename);
	assert_string_equal((char *)m.attachments[0].data, "<p>html</p>\n");
	assert_string_equal(m.attachments[1].content_type, "text/x-diff");
	assert_string_equal(m.attachments[1].filename, "fix.patch");
	assert_string_equal((char *)m.attachments[1].data,
			    "diff --git a/fs/ext4/inode.c b/fs/ext4/inode.c\n");
	assert_string_equal(m.attachments[2].content_type, "image/png");
	assert_string_equal(m.attachments[2].filename,
			    "\xc3\xbc"
			    "ber.png");
	assert_int_equal(m.attachments[2].len, 1024);
	for (size_t i = 0; i < 1024; i++)
		assert_int_equal(m.attachments[2].data[i], i % 256);
	assert_string_equal(m.attachments[3].content_type, "text/plain");
	assert_string_equal(m.attachments[3].filename, "notes.txt");
	assert_string_equal((char *)m.attachments[3].data,
			    "attached plain text\n");
	mail_msg_release(&m);
}

static void check_signed(const char *file, const char *expected, bool partial)
{
	struct mail_msg m;

	parse_ok(file, &m);
	assert_int_equal(m.kind, MAIL_PGP_SIGNED);
	assert_int_equal(m.partial, partial);
	assert_fixture_bytes(m.signed_data, m.signed_len, expected);
	assert_int_equal(m.signed_data[m.signed_len], '\0');
	for (size_t i = 0; i < m.signed_len; i++)
		if (m.signed_data[i] == '\n')
			assert_int_equal(m.signed_data[i - 1], '\r');
	assert_true(str_starts((char *)m.signed_data,
			       "Content-Type: multipart/mixed; boundary="));
	assert_non_null(
		strstr((char *)m.signed_data,
		       "\r\n\r\nSigned text.\r\nFrom the start of a line.\r\n"
		       "Trailing blanks here   \r\n"));
	/* The signature as sent (CRLF in the CRLF message). */
	size_t sl = 0;
	char *sig = xmemdup(m.signature, m.signature_len);
	for (size_t i = 0; i < m.signature_len; i++)
		if (sig[i] != '\r')
			sig[sl++] = sig[i];
	assert_int_equal(sl == m.signature_len,
			 strcmp(file, "signed-crlf.eml") != 0);
	assert_fixture_bytes(sig, sl, "signed.sig");
	free(sig);
	/* The signature part is structure, not an attachment. */
	assert_int_equal(m.nattachments, 1);
	assert_string_equal(m.attachments[0].filename, "poc.bin");
	assert_bytes(m.attachments[0].data, m.attachments[0].len,
		     "\x00\x01"
		     "binary\xff",
		     9);
	mail_msg_release(&m);
}

static void test_parse_signed(void **state)
{
	(void)state;
	check_signed("signed.eml", "signed.expected", false);
	check_signed("signed-crlf.eml", "signed-crlf.expected", false);
	check_signed("partial-signed.eml", "partial-signed.expected", true);

	struct mail_msg m;
	parse_ok("partial-signed.eml", &m);
	assert_true(
		str_starts(m.body_text, "Unsigned preface.\n\nSigned text."));
	/* What lies outside the signed part is said, text and attachments. */
	assert_int_equal(m.noutside, 1);
	assert_int_equal(m.outside[0].start, 0);
	assert_int_equal(m.outside[0].end, strlen("Unsigned preface.\n"));
	assert_int_equal(m.nattachments, 1);
	assert_false(m.attachments[0].outside);
	mail_msg_release(&m);
	parse_ok("signed.eml", &m);
	assert_int_equal(m.noutside, 0);
	assert_false(m.attachments[0].outside);
	mail_msg_release(&m);
}

static void test_parse_from(void **state)
{
	struct mail_msg m;

	(void)state;
	parse_ok("two-from.eml", &m);
	assert_int_equal(m.nfrom, 3);
	assert_string_equal(m.from[0].name, "manager@corp.example");
	assert_string_equal(m.from[0].email, "eve@corp.example");
	assert_string_equal(m.from[1].name, "Bob");
	assert_string_equal(m.from[1].email, "bob@example.net");
	assert_string_equal(m.from[2].email, "carol@example.org");
	assert_string_equal(m.from_name, "manager@corp.example");
	assert_string_equal(m.from_email, "eve@corp.example");
	mail_msg_release(&m);
	parse_ok("plain.eml", &m);
	assert_int_equal(m.nfrom, 1);
	assert_string_equal(m.from[0].email, "alice@example.org");
	mail_msg_release(&m);
}

/* What is verified is what is shown: a delimiter line that only a
 * different parser would accept cannot make the signature cover one part
 * while another is shown (the signature spoof). */
static void test_parse_signed_spoof(void **state)
{
	struct mail_msg m;

	(void)state;
	parse_ok("spoof-cr.eml", &m);
	assert_int_equal(m.kind, MAIL_PGP_SIGNED);
	assert_false(m.partial);
	assert_string_equal(m.body_text, "ATTACKER text");
	assert_fixture_bytes(m.signed_data, m.signed_len, "spoof-cr.expected");
	assert_null(strstr((char *)m.signed_data, "Signed text."));
	mail_msg_release(&m);
}

static void test_parse_encrypted(void **state)
{
	struct mail_msg m;

	(void)state;
	parse_ok("encrypted.eml", &m);
	assert_int_equal(m.kind, MAIL_PGP_ENCRYPTED);
	assert_false(m.partial);
	assert_fixture_bytes(m.ciphertext, m.ciphertext_len,
			     "encrypted.expected");
	assert_int_equal(m.nattachments, 0);
	assert_string_equal(m.subject, "Encrypted report");
	mail_msg_release(&m);

	parse_ok("partial-encrypted.eml", &m);
	assert_int_equal(m.kind, MAIL_PGP_ENCRYPTED);
	assert_true(m.partial);
	assert_fixture_bytes(m.ciphertext, m.ciphertext_len,
			     "encrypted.expected");
	assert_string_equal(m.body_text, "Unencrypted note.\n");
	assert_int_equal(m.nattachments, 0);
	mail_msg_release(&m);

	/* Where it stands among the parts around it, for core/ to show
	 * the decrypted content there. */
	parse_ok("around-encrypted.eml", &m);
	assert_int_equal(m.kind, MAIL_PGP_ENCRYPTED);
	assert_true(m.partial);
	assert_string_equal(m.body_text, "Before.\n\nAfter.\n");
	assert_int_equal(m.noutside, 2);
	assert_int_equal(m.pgp_text_at, strlen("Before.\n"));
	assert_true(m.outside[1].start >= m.pgp_text_at);
	assert_int_equal(m.nattachments, 2);
	assert_int_equal(m.pgp_att_at, 1);
	assert_string_equal(m.attachments[0].filename, "a.bin");
	assert_true(m.attachments[0].outside && m.attachments[1].outside);
	mail_msg_release(&m);
}

static void test_parse_inline(void **state)
{
	struct mail_msg m;

	(void)state;
	parse_ok("inline.eml", &m);
	assert_int_equal(m.kind, MAIL_INLINE_PGP);
	assert_true(m.partial);
	assert_true(str_starts(m.body_text,
			       "Hi,\n\n-----BEGIN PGP MESSAGE-----\n"));
	mail_msg_release(&m);
	parse_ok("inline-only.eml", &m);
	assert_int_equal(m.kind, MAIL_INLINE_PGP);
	assert_false(m.partial);
	mail_msg_release(&m);
}

static void test_parse_entity(void **state)
{
	struct mail_msg m;

	(void)state;
	parse_ok("entity.eml", &m);
	assert_int_equal(m.kind, MAIL_PLAIN);
	assert_null(m.subject);
	assert_null(m.from_email);
	assert_null(m.message_id);
	assert_int_equal(m.date, 0);
	assert_string_equal(m.body_text, "Decrypted body.\n");
	assert_int_equal(m.nattachments, 1);
	assert_string_equal(m.attachments[0].content_type,
			    "application/octet-stream");
	assert_bytes(m.attachments[0].data, m.attachments[0].len, "PoC", 3);
	mail_msg_release(&m);
}

static void test_parse_odd(void **state)
{
	struct mail_msg m;

	(void)state;
	parse_ok("no-msgid.eml", &m);
	assert_null(m.message_id);
	assert_string_equal(m.subject, "No Message-ID");
	mail_msg_release(&m);

	parse_ok("nul.eml", &m);
	assert_non_null(m.subject);
	assert_true(valid_utf8(m.subject));
	assert_true(str_starts(m.subject, "bad "));
	assert_string_equal(m.from_email, "m@evil.example");
	assert_true(valid_utf8(m.from_name));
	/* Bad bytes replaced, nothing after them lost. */
	assert_true(str_starts(m.body_text, "before"));
	assert_non_null(strstr(m.body_text, "after "));
	assert_non_null(strstr(m.body_text, " invalid "));
	assert_non_null(strstr(m.body_text, " end\n"));
	assert_true(valid_utf8(m.body_text));
	assert_int_equal(m.body_len, strlen(m.body_text));
	mail_msg_release(&m);
}

static void test_parse_limits(void **state)
{
	struct mail_msg m;
	struct err err = { 0 };

	(void)state;
	assert_true(parse("deep100.eml", &m, &err) < 0);
	assert_string_equal(err.msg,
			    "MIME nested too deeply (more than 64 levels)");
	mail_msg_release(&m);

	parse_ok("deep10.eml", &m);
	assert_string_equal(m.body_text, "deep\n");
	mail_msg_release(&m);

	/* Too big: refused before anything is parsed. */
	char *huge = xcalloc(MAIL_MAX_SIZE + 1, 1);
	assert_true(mail_parse(huge, MAIL_MAX_SIZE + 1, &m, &err) < 0);
	assert_string_equal(
		err.msg, "message too large (67108865 bytes, limit 67108864)");
	mail_msg_release(&m);
	free(huge);

	/* 10001 parts in one multipart. */
	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, "Content-Type: multipart/mixed; boundary=b\n\n");
	for (int i = 0; i < 10001; i++)
		sbuf_adds(&sb, "--b\n\nx\n");
	sbuf_adds(&sb, "--b--\n");
	assert_true(mail_parse(sb.buf, sb.len, &m, &err) < 0);
	assert_string_equal(err.msg, "too many MIME parts (more than 10000)");
	mail_msg_release(&m);
	sbuf_release(&sb);

	/* 9000 levels get through the pre-scan: GMime's parser must cope
	 * and the walk refuse them. */
	for (int i = 0; i < 9000; i++)
		sbuf_addf(
			&sb,
			"Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n",
			i, i);
	assert_true(mail_parse(sb.buf, sb.len, &m, &err) < 0);
	assert_string_equal(err.msg,
			    "MIME nested too deeply (more than 64 levels)");
	mail_msg_release(&m);
	sbuf_release(&sb);

	/* A stack of 20000 multipart headers is refused before GMime. */
	for (int i = 0; i < 20000; i++)
		sbuf_addf(
			&sb,
			"Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n",
			i, i);
	assert_true(mail_parse(sb.buf, sb.len, &m, &err) < 0);
	assert_string_equal(err.msg, "too many MIME parts (more than 10000)");
	mail_msg_release(&m);
	sbuf_release(&sb);
}

static void test_parse_big(void **state)
{
	struct mail_msg m;

	(void)state;
	parse_ok("big.eml", &m);
	assert_string_equal(m.subject, "Big report");
	assert_string_equal(m.body_text, "Big body.\n");
	assert_int_equal(m.nattachments, 1);
	assert_int_equal(m.attachments[0].len, (size_t)14 << 20);
	assert_int_equal(m.attachments[0].data[255], 255);
	assert_int_equal(m.attachments[0].data[((size_t)14 << 20) - 1], 255);
	mail_msg_release(&m);
}

/* Random garbage and truncations never crash and always leave msg sane. */
static void test_parse_garbage(void **state)
{
	size_t len;
	char *buf = slurp("nested.eml", &len);
	unsigned seed = 7;

	(void)state;
	for (int round = 0; round < 300; round++) {
		struct mail_msg m;
		struct err err = { 0 };
		size_t n = (size_t)rand_r(&seed) % (len + 1);
		char *copy = xmemdup(buf, n);

		for (int k = 0; k < 8 && n; k++)
			copy[(size_t)rand_r(&seed) % n] = (char)rand_r(&seed);
		if (mail_parse(copy, n, &m, &err) == 0 && m.body_text)
			assert_int_equal(m.body_text[m.body_len], '\0');
		mail_msg_release(&m);
		free(copy);
	}
	free(buf);
}

/* ---- mbox and Maildir ----------------------------------------------------*/

static void read_mbox(const char *name, enum mbox_format fmt, char ***msgs,
		      size_t *n)
{
	char *path = fixture_path(name);
	struct mbox_reader *r;
	struct err err = { 0 };
	char *buf;
	size_t len;
	int ret;

	*msgs = NULL;
	*n = 0;
	if (mbox_open(path, fmt, &r, &err) < 0)
		fail_msg("%s", err.msg);
	while ((ret = mbox_next(r, &buf, &len, &err)) > 0) {
		assert_int_equal(strlen(buf), len);
		*msgs = xrealloc(*msgs, (*n + 1) * sizeof(char *));
		(*msgs)[(*n)++] = buf;
	}
	assert_int_equal(ret, 0);
	mbox_close(r);
	free(path);
}

static void test_mbox(void **state)
{
	static const struct {
		const char *file;
		enum mbox_format fmt;
		const char *body1;
	} rows[] = {
		{ "rd.mbox", MBOX_RD,
		  "\n\nFirst message.\n\nFrom the start of a line.\n"
		  ">From quoted once.\n>>From quoted twice.\n"
		  "From here on, mid-paragraph.\n" },
		{ "rd.mbox", MBOX_AUTO,
		  "\n\nFirst message.\n\nFrom the start of a line.\n"
		  ">From quoted once.\n>>From quoted twice.\n"
		  "From here on, mid-paragraph.\n" },
		{ "o.mbox", MBOX_O,
		  "\n\nFirst message.\n\nFrom the start of a line.\n"
		  "From quoted once.\n>>From quoted twice.\n"
		  "From here on, mid-paragraph.\n" },
		/* Python's mailbox writes mboxo (">From " only, ambiguous). */
		{ "py.mbox", MBOX_O,
		  "\n\nFirst message.\n\nFrom the start of a line.\n"
		  "From quoted once.\n>>From quoted twice.\n"
		  "From here on, mid-paragraph.\n" },
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		char **msgs;
		size_t n;

		read_mbox(rows[i].file, rows[i].fmt, &msgs, &n);
		assert_int_equal(n, 3);
		assert_true(str_starts(msgs[0], "From: Alice Example"));
		assert_non_null(strstr(msgs[0], "Subject: mbox 1\n"));
		assert_true(str_ends(msgs[0], rows[i].body1));
		assert_true(str_ends(msgs[1], "\n\nSecond message.\n"));
		assert_true(str_ends(msgs[2], "\n\nThird message.\n"));
		/* Each message parses, with its own subject. */
		for (size_t k = 0; k < n; k++) {
			struct mail_msg m;
			struct err err = { 0 };
			char want[32];

			assert_int_equal(mail_parse(msgs[k], strlen(msgs[k]),
						    &m, &err),
					 0);
			snprintf(want, sizeof(want), "mbox %zu", k + 1);
			assert_string_equal(m.subject, want);
			mail_msg_release(&m);
			free(msgs[k]);
		}
		free(msgs);
	}
}

static void test_mbox_errors(void **state)
{
	struct mbox_reader *r;
	struct err err = { 0 };
	char *path = fixture_path("plain.eml");

	(void)state;
	assert_true(mbox_open(path, MBOX_AUTO, &r, &err) < 0);
	assert_non_null(strstr(err.msg, "is not an mbox file"));
	assert_non_null(strstr(err.msg, path));
	free(path);
	path = fixture_path("missing.mbox");
	assert_int_equal(mbox_open(path, MBOX_AUTO, &r, &err), ERR_NOTFOUND);
	assert_non_null(strstr(err.msg, "missing.mbox"));
	free(path);
}

static void write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* CRLF mailboxes, and a message over MAIL_MAX_SIZE skipped with an error. */
static void test_mbox_crlf_and_huge(void **state)
{
	static const char crlf[] =
		"From a@b Wed Dec  2 10:00:00 2026\r\nSubject: one\r\n\r\n"
		">From x\r\nbody\r\n\r\n"
		"From a@b Wed Dec  2 10:00:00 2026\r\nSubject: two\r\n\r\nb2\r\n";
	char *path = fixture_path("crlf.mbox"), *buf;
	struct mbox_reader *r;
	struct err err = { 0 };
	size_t len;

	(void)state;
	write_file(path, crlf, sizeof(crlf) - 1);
	assert_int_equal(mbox_open(path, MBOX_AUTO, &r, &err), 0);
	assert_int_equal(mbox_next(r, &buf, &len, &err), 1);
	assert_string_equal(buf, "Subject: one\r\n\r\nFrom x\r\nbody\r\n");
	free(buf);
	assert_int_equal(mbox_next(r, &buf, &len, &err), 1);
	assert_string_equal(buf, "Subject: two\r\n\r\nb2\r\n");
	free(buf);
	assert_int_equal(mbox_next(r, &buf, &len, &err), 0);
	mbox_close(r);
	free(path);

	path = fixture_path("huge.mbox");
	FILE *f = fopen(path, "wb");
	char line[1024];
	assert_non_null(f);
	memset(line, 'x', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\n';
	fputs("From a@b Wed Dec  2 10:00:00 2026\nSubject: huge\n\n", f);
	for (size_t i = 0; i < (MAIL_MAX_SIZE >> 10) + 1; i++)
		fwrite(line, 1, sizeof(line), f);
	/* and one line of 200000 bytes without a newline before the next */
	fputs("\nFrom a@b Wed Dec  2 10:00:00 2026\nSubject: small\n\n", f);
	for (int i = 0; i < 200; i++)
		fwrite(line, 1, sizeof(line) - 1, f);
	fclose(f);
	assert_int_equal(mbox_open(path, MBOX_RD, &r, &err), 0);
	assert_int_equal(mbox_next(r, &buf, &len, &err), ERR_INVALID);
	char *want = xasprintf(
		"message 1 in '%s' too large (more than 67108864 bytes)", path);
	assert_string_equal(err.msg, want);
	free(want);
	assert_int_equal(mbox_next(r, &buf, &len, &err), 1);
	assert_true(str_starts(buf, "Subject: small\n\nxxx"));
	assert_int_equal(len, strlen("Subject: small\n\n") + 200 * 1023);
	free(buf);
	assert_int_equal(mbox_next(r, &buf, &len, &err), 0);
	mbox_close(r);
	unlink(path);
	free(path);
}

static void test_maildir(void **state)
{
	char *dir = fixture_path("Maildir");
	struct err err = { 0 };
	struct mail_folder f;

	(void)state;
	assert_int_equal(maildir_list(dir, &f, &err), 0);
	assert_int_equal(f.n, 3);
	assert_int_equal(f.nskipped, 0);
	assert_null(f.names[3]);
	int in_cur = 0;
	unsigned seen = 0;
	for (size_t i = 0; i < f.n; i++) {
		const char *base = strrchr(f.names[i], '/') + 1;

		assert_true(str_starts(f.names[i], "new/") ||
			    str_starts(f.names[i], "cur/"));
		if (str_starts(f.names[i], "cur/"))
			in_cur++;
		if (i)
			assert_true(strcmp(strrchr(f.names[i - 1], '/') + 1,
					   base) < 0);
		struct mail_msg m;
		char want[32];
		char *buf;
		size_t len;
		int fd = open_beneath(dir, f.names[i], &err);
		assert_true(fd >= 0);
		assert_int_equal(read_fd(fd, f.names[i], MAIL_MAX_SIZE, &buf,
					 &len, &err),
				 0);
		close(fd);
		assert_int_equal(mail_parse(buf, len, &m, &err), 0);
		/* Python's names do not sort in creation order: any order
		 * of the three, each once. */
		for (unsigned k = 0; k < 3; k++) {
			snprintf(want, sizeof(want), "md %u", k);
			if (!strcmp(m.subject, want))
				seen |= 1u << k;
		}
		mail_msg_release(&m);
		free(buf);
	}
	assert_int_equal(seen, 7);
	assert_int_equal(in_cur, 1);
	mail_folder_release(&f);
	free(dir);

	dir = fixture_path("NotMaildir");
	assert_true(maildir_list(dir, &f, &err) < 0);
	char *want = xasprintf(
		"'%s' is not a maildir (it has neither new/ nor cur/)", dir);
	assert_string_equal(err.msg, want);
	free(want);
	free(dir);
}

static void put_file(const char *path, const char *text)
{
	FILE *fh = fopen(path, "w");
	assert_non_null(fh);
	fputs(text, fh);
	fclose(fh);
}

/* Symbolic links in a Maildir or a folder of messages: never followed,
 * never listed as messages, each set aside with why. */
static void test_maildir_links(void **state)
{
	char *md = fixture_path("LinkedMaildir"),
	     *priv = fixture_path("Private"), *p;
	struct err err = { 0 };
	struct mail_folder f;

	(void)state;
	assert_int_equal(mkdir(priv, 0700), 0);
	p = xasprintf("%s/secret.eml", priv);
	put_file(p, "Subject: private\n\nkeys\n");
	free(p);
	assert_int_equal(mkdir(md, 0700), 0);
	p = xasprintf("%s/new", md);
	assert_int_equal(symlink(priv, p), 0); /* new/ -> ~/private */
	free(p);
	p = xasprintf("%s/cur", md);
	assert_int_equal(mkdir(p, 0700), 0);
	free(p);
	p = xasprintf("%s/cur/1.host:2,S", md);
	put_file(p, "Subject: real\n\nx\n");
	free(p);
	p = xasprintf("%s/cur/2.host:2,S", md);
	assert_int_equal(symlink("../../Private/secret.eml", p), 0);
	free(p);
	p = xasprintf("%s/cur/3.fifo", md);
	assert_int_equal(mkfifo(p, 0600), 0);
	free(p);

	assert_int_equal(maildir_list(md, &f, &err), 0);
	assert_int_equal(f.n, 1);
	assert_string_equal(f.names[0], "cur/1.host:2,S");
	assert_int_equal(f.nskipped, 3);
	/* new/ first (it is listed first), then cur/'s entries as read. */
	assert_string_equal(f.skipped[0].name, "new");
	assert_string_equal(f.skipped[0].why, "a symbolic link: not followed");
	for (size_t i = 1; i < 3; i++) {
		if (!strcmp(f.skipped[i].name, "cur/2.host:2,S"))
			assert_string_equal(f.skipped[i].why,
					    "a symbolic link: not followed");
		else if (!strcmp(f.skipped[i].name, "cur/3.fifo"))
			assert_string_equal(f.skipped[i].why,
					    "not a regular file: skipped");
		else
			fail_msg("unexpected skipped entry '%s'",
				 f.skipped[i].name);
	}
	mail_folder_release(&f);

	/* Only a linked new/ and no cur/: still a Maildir, with nothing in it. */
	char *only = fixture_path("OnlyLinkedNew");
	assert_int_equal(mkdir(only, 0700), 0);
	p = xasprintf("%s/new", only);
	assert_int_equal(symlink(priv, p), 0);
	free(p);
	assert_int_equal(maildir_list(only, &f, &err), 0);
	assert_int_equal(f.n, 0);
	assert_null(f.names[0]);
	assert_int_equal(f.nskipped, 1);
	mail_folder_release(&f);
	free(only);

	/* A folder of .eml files with a link among them. */
	char *folder = fixture_path("EmlFolder");
	assert_int_equal(mkdir(folder, 0700), 0);
	p = xasprintf("%s/a.eml", folder);
	put_file(p, "Subject: a\n\nx\n");
	free(p);
	p = xasprintf("%s/b.eml", folder);
	assert_int_equal(symlink("../Private/secret.eml", p), 0);
	free(p);
	p = xasprintf("%s/sub", folder);
	assert_int_equal(mkdir(p, 0700), 0); /* passed over, not an error */
	free(p);
	assert_int_equal(mail_folder_list(folder, &f, &err), 0);
	assert_int_equal(f.n, 1);
	assert_string_equal(f.names[0], "a.eml");
	assert_int_equal(f.nskipped, 1);
	assert_string_equal(f.skipped[0].name, "b.eml");
	assert_string_equal(f.skipped[0].why, "a symbolic link: not followed");
	mail_folder_release(&f);
	free(folder);
	free(md);
	free(priv);
}

static void test_maildir_deliver(void **state)
{
	char *dir = fixture_path("Delivered/box"), *path, *buf;
	struct err err = { 0 };
	struct mail_folder f;
	struct stat st;
	size_t len;

	(void)state;
	for (int i = 0; i < 2; i++) {
		assert_int_equal(maildir_deliver(dir, "Subject: x\n\nhi\n", 15,
						 &path, &err),
				 0);
		assert_non_null(strstr(path, "/new/"));
		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_mode & 0777, 0600);
		assert_int_equal(read_file(path, 100, &buf, &len, &err), 0);
		assert_string_equal(buf, "Subject: x\n\nhi\n");
		free(buf);
		free(path);
	}
	const char *subs[] = { "tmp", "new", "cur" };
	for (size_t i = 0; i < 3; i++) {
		char *s = xasprintf("%s/%s", dir, subs[i]);
		assert_int_equal(stat(s, &st), 0);
		assert_int_equal(st.st_mode & 0777, 0700);
		free(s);
	}
	assert_int_equal(maildir_list(dir, &f, &err), 0);
	assert_int_equal(f.n, 2);
	mail_folder_release(&f);
	free(dir);

	/* new/ is a file: the delivery fails naming it, and leaves nothing
	 * behind in tmp/. */
	char *bad = fixture_path("Delivered/bad"), *s;
	assert_int_equal(mkdir_p(bad, 0700, &err), 0);
	s = xasprintf("%s/new", bad);
	write_file(s, "", 0);
	path = NULL;
	assert_true(maildir_deliver(bad, "x\n", 2, &path, &err) < 0);
	assert_null(path);
	assert_non_null(strstr(err.msg, s));
	free(s);
	s = xasprintf("%s/tmp", bad);
	DIR *d = opendir(s);
	struct dirent *de;
	int n = 0;
	assert_non_null(d);
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	assert_int_equal(n, 0);
	free(s);
	free(bad);
}

/* ---- inline PGP ----------------------------------------------------------*/

#define MSG "-----BEGIN PGP MESSAGE-----\n\nhQ==\n-----END PGP MESSAGE-----\n"
#define SIGNED                                                       \
	"-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\ntext\n" \
	"- -----END PGP SIGNATURE-----\n"                            \
	"-----BEGIN PGP SIGNATURE-----\n\niHU=\n-----END PGP SIGNATURE-----\n"

static void test_pgp_blocks(void **state)
{
	static const struct {
		const char *text;
		size_t n;
		bool outside;
		size_t start0, end0;
		enum pgp_block_kind kind0;
	} rows[] = {
		{ "", 0, false, 0, 0, 0 },
		{ "just text\n", 0, true, 0, 0, 0 },
		{ MSG, 1, false, 0, sizeof(MSG) - 1, PGP_BLOCK_MESSAGE },
		{ "\n  \n" MSG "\n\t\n", 1, false, 4, 4 + sizeof(MSG) - 1,
		  PGP_BLOCK_MESSAGE },
		{ "Hi\n" MSG, 1, true, 3, 3 + sizeof(MSG) - 1,
		  PGP_BLOCK_MESSAGE },
		{ MSG "bye", 1, true, 0, sizeof(MSG) - 1, PGP_BLOCK_MESSAGE },
		{ SIGNED, 1, false, 0, sizeof(SIGNED) - 1, PGP_BLOCK_SIGNED },
		{ SIGNED MSG, 2, false, 0, sizeof(SIGNED) - 1,
		  PGP_BLOCK_SIGNED },
		/* CRLF and trailing blanks on armor lines */
		{ "-----BEGIN PGP MESSAGE-----  \r\n\r\nhQ==\r\n"
		  "-----END PGP MESSAGE-----\r\n",
		  1, false, 0, 66, PGP_BLOCK_MESSAGE },
		/* not at a line start */
		{ "> -----BEGIN PGP MESSAGE-----\n> -----END PGP MESSAGE-----\n",
		  0, true, 0, 0, 0 },
		/* unterminated, then a real one */
		{ "-----BEGIN PGP MESSAGE-----\nhQ==\n", 0, true, 0, 0, 0 },
		{ "-----BEGIN PGP SIGNED MESSAGE-----\n" MSG, 1, true, 35,
		  35 + sizeof(MSG) - 1, PGP_BLOCK_MESSAGE },
		/* the end line without its newline at the end of the text */
		{ "-----BEGIN PGP MESSAGE-----\nx\n-----END PGP MESSAGE-----",
		  1, false, 0, 55, PGP_BLOCK_MESSAGE },
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct pgp_block *b;
		bool outside = !rows[i].outside;
		size_t n = pgp_find_blocks(rows[i].text, strlen(rows[i].text),
					   &b, &outside);

		if (n != rows[i].n || outside != rows[i].outside)
			fail_msg("row %zu: %zu blocks, outside %d", i, n,
				 outside);
		if (n) {
			assert_int_equal(b[0].kind, rows[i].kind0);
			assert_int_equal(b[0].start, rows[i].start0);
			assert_int_equal(b[0].end, rows[i].end0);
		}
		free(b);
	}
}

/* ---- touched files -------------------------------------------------------*/

static void test_touched(void **state)
{
	static const struct {
		const char *text;
		const char *want[8];
	} rows[] = {
		{ "diff --git a/net/ipv4/tcp_input.c b/net/ipv4/tcp_input.c\n"
		  "index 1..2 100644\n"
		  "--- a/net/ipv4/tcp_input.c\n+++ b/net/ipv4/tcp_input.c\n",
		  { "net/ipv4/tcp_input.c" } },
		{ "diff --git a/old name.c b/new name.c\n",
		  { "old name.c", "new name.c" } },
		{ "--- /dev/null\n+++ b/drivers/new.c\t2026-01-01\n",
		  { "drivers/new.c" } },
		{ "--- a/README\n+++ /dev/null\n", { "README" } },
		{ "> diff --git a/fs/x.c b/fs/x.c\n", { "fs/x.c" } },
		{ "The bug is in net/ipv4/tcp_input.c, see also "
		  "(drivers/gpu/drm/i915/i915_gem.c). And include/linux/skbuff.h: "
		  "it is in MAINTAINERS.\nAlso arch/x86/kvm/x86.c:1234 and "
		  "`Documentation/admin-guide/security-bugs.rst`...\n",
		  { "net/ipv4/tcp_input.c", "drivers/gpu/drm/i915/i915_gem.c",
		    "include/linux/skbuff.h", "MAINTAINERS",
		    "arch/x86/kvm/x86.c",
		    "Documentation/admin-guide/security-bugs.rst" } },
		{ "net/../etc/passwd ../net/x.c net/ipv4/../../x "
		  "--- a/../../etc/shadow\n"
		  "diff --git a/x/../y b/x/../y\n",
		  { NULL } },
		{ "./net//ipv4/./tcp.c and /net/core/dev.c and /etc/passwd "
		  "and /usr/include/stdio.h\n",
		  { "net/ipv4/tcp.c", "net/core/dev.c" } },
		{ "mm/slub.c mm/slub.c; mm//slub.c ./mm/slub.c\n",
		  { "mm/slub.c" } },
		{ "usb/foo.c linux/skbuff.h https://example.org/net/x.c "
		  "random words net\n",
		  { NULL } },
		{ "--- a/bad\x1b[2Jname.c\n+++ b/ok.c\n", { "ok.c" } },
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		char **paths;
		size_t n = touched_files(rows[i].text, strlen(rows[i].text),
					 &paths),
		       want = 0;

		while (want < 8 && rows[i].want[want])
			want++;
		for (size_t k = 0; k < n && k < want; k++)
			if (strcmp(paths[k], rows[i].want[k]))
				fail_msg("row %zu path %zu: got '%s' want '%s'",
					 i, k, paths[k], rows[i].want[k]);
		if (n != want)
			fail_msg("row %zu: %zu paths (first '%s'), want %zu", i,
				 n, n ? paths[0] : "", want);
		assert_null(paths[n]);
		for (size_t k = 0; k < n; k++)
			free(paths[k]);
		free(paths);
	}

	/* Too long: dropped. */
	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, "net/");
	for (int i = 0; i < 5000; i++)
		sbuf_addch(&sb, 'a');
	sbuf_adds(&sb, ".c fs/ok.c\n");
	char **paths;
	size_t n = touched_files(sb.buf, sb.len, &paths);
	assert_int_equal(n, 1);
	assert_string_equal(paths[0], "fs/ok.c");
	free(paths[0]);
	free(paths);
	sbuf_release(&sb);
}

/* What may go out as a path: the characters of a kernel path only. */
static void test_touched_plausible(void **state)
{
	static const char *const yes[] = {
		"net/ipv4/tcp_input.c",
		"MAINTAINERS",
		"drivers/gpu/drm/i915/i915_gem.c",
		"Documentation/devicetree/bindings/ti,am654-x.yaml",
		"lib/c++/x~",
	};
	static const char *const no[] = {
		"",
		"drivers/URGENT: distros, the real fix is at https:/evil.example/fix.sh",
		"old name.c",
		"a:b",
		"https://evil.example/x.c",
		"\"quoted\"",
		"x\ty",
		"net/\xe2\x80\xaex.c",
		"a<b>",
		"$(rm)",
		"a;b",
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(yes); i++)
		if (!touched_path_plausible(yes[i]))
			fail_msg("'%s' is a plausible path", yes[i]);
	for (size_t i = 0; i < ARRAY_SIZE(no); i++)
		if (touched_path_plausible(no[i]))
			fail_msg("'%s' is not a plausible path", no[i]);
	assert_false(touched_path_plausible(NULL));
}

/* ---- composing -----------------------------------------------------------*/

static void assert_crlf(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] == '\n' && (i == 0 || s[i - 1] != '\r'))
			fail_msg("bare LF at byte %zu", i);
}

static void test_build_entity(void **state)
{
	struct mail_attachment att[] = {
		{ (char *)"poc.c", (char *)"text/x-csrc",
		  (unsigned char *)"int main(void)\n{\n}\n", 19, false },
		{ (char *)"d\xc3\xa4ta.bin", (char *)"application/octet-stream",
		  (unsigned char *)"\x00\xff\r\n\x01", 5, false },
	};
	const char *body =
		"Gr\xc3\xbc\xc3\x9f"
		"e,\nFrom here a line that is "
		"long enough to need a soft line break in quoted-printable "
		"encoding, yes.\n=3D not an escape\n";
	struct mail_msg m;
	struct err err = { 0 };
	char *out;
	size_t len;

	(void)state;
	assert_int_equal(mail_build_entity(body, NULL, 0, &out, &len, &err), 0);
	assert_crlf(out, len);
	assert_non_null(
		strstr(out, "Content-Transfer-Encoding: quoted-printable"));
	assert_non_null(strstr(out, "charset=utf-8"));
	assert_int_equal(mail_parse(out, len, &m, &err), 0);
	assert_string_equal(m.body_text, body);
	assert_int_equal(m.nattachments, 0);
	mail_msg_release(&m);
	free(out);

	assert_int_equal(mail_build_entity(body, att, 2, &out, &len, &err), 0);
	assert_crlf(out, len);
	assert_true(str_starts(out, "Content-Type: multipart/mixed;"));
	assert_int_equal(mail_parse(out, len, &m, &err), 0);
	assert_string_equal(m.body_text, body);
	assert_int_equal(m.nattachments, 2);
	for (size_t i = 0; i < 2; i++) {
		assert_string_equal(m.attachments[i].filename, att[i].filename);
		assert_string_equal(m.attachments[i].content_type,
				    att[i].content_type);
		assert_bytes(m.attachments[i].data, m.attachments[i].len,
			     att[i].data, att[i].len);
	}
	mail_msg_release(&m);
	free(out);

	assert_true(mail_build_entity("bad \xff", NULL, 0, &out, &len, &err) <
		    0);
	assert_string_equal(err.msg, "message body is not valid UTF-8");
}

static const char ARMOR[] =
	"-----BEGIN PGP MESSAGE-----\n\nhF4DAAAA\n=AbCd\n-----END PGP MESSAGE-----\n";

static void test_build_encrypted(void **state)
{
	const char *to[] = { "security@kernel.org", "Bob <bob@example.net>" };
	const char *cc[] = { "Carol <carol@example.com>" };
	const char *refs[] = { "root@example.org", "parent@example.org" };
	struct mail_compose hdr = {
		.from = "Alice Example <alice@example.org>",
		.to = to,
		.nto = 2,
		.cc = cc,
		.ncc = 1,
		.subject = "Caf\xc3\xa9 report \xe2\x98\x83",
		.in_reply_to = "parent@example.org",
		.references = refs,
		.nreferences = 2,
		.date = 1796205600,
	};
	struct mail_msg m;
	struct err err = { 0 };
	char *out;
	size_t len;

	(void)state;
	assert_int_equal(mail_build_encrypted(&hdr, ARMOR, strlen(ARMOR), &out,
					      &len, &err),
			 0);
	/* the subject travels inside only (mail_protect_entity) */
	assert_null(strstr(out, "Caf"));
	assert_non_null(strstr(out, "\nSubject: ...\n"));
	assert_int_equal(mail_parse(out, len, &m, &err), 0);
	assert_int_equal(m.kind, MAIL_PGP_ENCRYPTED);
	assert_false(m.partial);
	assert_bytes(m.ciphertext, m.ciphertext_len, ARMOR, strlen(ARMOR));
	assert_string_equal(m.subject, MAIL_PROTECTED_SUBJECT);
	assert_string_equal(m.from_email, "alice@example.org");
	assert_string_equal(m.from_name, "Alice Example");
	assert_string_equal(m.in_reply_to, "parent@example.org");
	assert_int_equal(m.nreferences, 2);
	assert_string_equal(m.references[1], "parent@example.org");
	assert_int_equal(m.date, 1796205600);
	assert_true(str_ends(m.message_id, "@example.org"));
	assert_non_null(strstr(m.to, "bob@example.net"));
	mail_msg_release(&m);

	/* and Python's email package agrees on the structure */
	char *path = fixture_path("composed.eml");
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(out, 1, len, f), len);
	fclose(f);
	const char *top = getenv("SECTEAM_TOP");
	char *cmd = xasprintf(
		"/usr/bin/python3 '%s/tests/lib/mkmail.py' --check '%s'",
		top && *top ? top : ".", path);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(path);
	free(out);

	/* header injection refused */
	hdr.subject = "x\nBcc: eve@example.com";
	assert_true(mail_build_encrypted(&hdr, ARMOR, strlen(ARMOR), &out, &len,
					 &err) < 0);
	assert_string_equal(err.msg, "subject contains a line break");
	hdr.subject = "ok";
	hdr.in_reply_to = "a> <b";
	assert_true(mail_build_encrypted(&hdr, ARMOR, strlen(ARMOR), &out, &len,
					 &err) < 0);
	assert_string_equal(err.msg, "invalid In-Reply-To 'a> <b'");
}

/* Header protection: the entity carries the headers, the real subject
 * RFC 2047 encoded, marked protected-headers="v1"; the envelope built
 * from the same headers has the same Message-ID and "..." outside. */
static void test_protect_entity(void **state)
{
	const char *to[] = { "Bob <bob@example.net>" };
	const char *refs[] = { "root@example.org" };
	struct mail_compose hdr = {
		.from = "Alice Example <alice@example.org>",
		.to = to,
		.nto = 1,
		.subject = "Caf\xc3\xa9 [vs] UAF in net/sched",
		.in_reply_to = "root@example.org",
		.references = refs,
		.nreferences = 1,
		.date = 1796205600,
		.message_id = "fixed.1@example.org",
	};
	struct mail_msg m;
	struct err err = { 0 };
	char *ent, *out, *env;
	size_t elen, len, envlen;

	(void)state;
	assert_int_equal(
		mail_build_entity("hello\n", NULL, 0, &ent, &elen, &err), 0);
	assert_int_equal(mail_protect_entity(&hdr, ent, elen, &out, &len, &err),
			 0);
	assert_non_null(strstr(out, "protected-headers="));
	assert_null(strstr(out, "Caf\xc3\xa9"));
	assert_non_null(strstr(out, "\r\n"));
	assert_int_equal(mail_parse(out, len, &m, &err), 0);
	assert_true(m.protected_headers);
	assert_string_equal(m.subject, hdr.subject);
	assert_string_equal(m.message_id, "fixed.1@example.org");
	assert_string_equal(m.in_reply_to, "root@example.org");
	assert_string_equal(m.from_email, "alice@example.org");
	assert_int_equal(m.date, 1796205600);
	assert_string_equal(m.body_text, "hello\n");
	mail_msg_release(&m);
	assert_int_equal(mail_build_encrypted(&hdr, ARMOR, strlen(ARMOR), &env,
					      &envlen, &err),
			 0);
	assert_null(strstr(env, "UAF"));
	assert_non_null(strstr(env, "<fixed.1@example.org>"));
	free(env);
	free(out);

	hdr.message_id = "bad id";
	assert_true(mail_protect_entity(&hdr, ent, elen, &out, &len, &err) < 0);
	free(ent);
}

static void test_build_plain(void **state)
{
	const char *to[] = { "security@kernel.org" };
	struct mail_compose hdr = { .from = "alice@example.org",
				    .to = to,
				    .nto = 1,
				    .subject = "Plain" };
	struct mail_msg m;
	struct err err = { 0 };
	char *ent, *out;
	size_t elen, len;

	(void)state;
	assert_int_equal(
		mail_build_entity("hello\n", NULL, 0, &ent, &elen, &err), 0);
	assert_int_equal(mail_build_plain(&hdr, ent, elen, &out, &len, &err),
			 0);
	assert_int_equal(mail_parse(out, len, &m, &err), 0);
	assert_int_equal(m.kind, MAIL_PLAIN);
	assert_string_equal(m.body_text, "hello\n");
	assert_string_equal(m.subject, "Plain");
	assert_non_null(m.message_id);
	assert_non_null(strstr(out, "MIME-Version: 1.0\n"));
	mail_msg_release(&m);
	free(out);
	free(ent);
}

/* mail_build_signed: the bytes our own parser reads as signed are exactly
 * the entity that was signed; an entity GMime would rewrite is refused. */
static void test_build_signed(void **state)
{
	static const char sig[] = "-----BEGIN PGP SIGNATURE-----\n\niQ==\n"
				  "-----END PGP SIGNATURE-----\n";
	static const char loose[] = "Content-Type: text/plain\n\nhi\n";
	const char *to[] = { "rita@example.net" };
	struct mail_compose hdr = { .from = "security@example.org",
				    .to = to,
				    .nto = 1,
				    .subject = "Signed" };
	struct mail_msg m;
	struct err err = { 0 };
	char *ent, *out;
	size_t elen, len;

	(void)state;
	assert_int_equal(mail_build_entity("caf\xc3\xa9 =\n", NULL, 0, &ent,
					   &elen, &err),
			 0);
	assert_int_equal(mail_build_signed(&hdr, ent, elen, sig, strlen(sig),
					   "pgp-sha256", &out, &len, &err),
			 0);
	assert_non_null(strstr(out, "multipart/signed"));
	assert_non_null(strstr(out, "micalg=pgp-sha256"));
	assert_non_null(strstr(out, "application/pgp-signature"));
	assert_int_equal(mail_parse(out, len, &m, &err), 0);
	assert_int_equal(m.kind, MAIL_PGP_SIGNED);
	assert_int_equal(m.signed_len, elen);
	assert_memory_equal(m.signed_data, ent, elen);
	assert_int_equal(m.signature_len, strlen(sig));
	mail_msg_release(&m);
	free(out);
	/* Not canonical (LF line ends): written back, it would differ. */
	assert_int_equal(mail_build_signed(&hdr, loose, strlen(loose), sig,
					   strlen(sig), "pgp-sha256", &out,
					   &len, &err),
			 ERR_GENERIC);
	assert_null(out);
	assert_true(mail_build_signed(&hdr, ent, elen, "\xff", 1, "pgp-sha256",
				      &out, &len, &err) == ERR_INVALID);
	free(ent);
}

/* A content entity as older versions sealed one (no longer written):
 * read back with its exact text, unsigned spans, From and attachments,
 * and nothing else taken for one. */
static void test_legacy_content(void **state)
{
	(void)state;
	static const char entity[] =
		"From: Rita Reporter <rita@example.net>\r\n"
		"X-Secteam-Content: 1\r\n"
		"X-Secteam-Unsigned: 6-12 99-200\r\n"
		"X-Secteam-Outside: 0\r\n"
		"MIME-Version: 1.0\r\n"
		"Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n"
		"--b\r\nContent-Type: application/x-secteam-text\r\n"
		"Content-Transfer-Encoding: base64\r\n\r\n"
		"c2lnbmVkCnRhaWwK\r\n" /* "signed\ntail\n" */
		"--b\r\nContent-Type: text/x-c; name=poc.c\r\n"
		"Content-Disposition: attachment; filename=poc.c\r\n\r\n"
		"return 0;\r\n"
		"--b--\r\n";
	static const char plain[] =
		"From: x@example.net\r\nX-Secteam-Content: 1\r\n\r\nhi\r\n";
	struct mail_msg m;
	struct err err = { 0, "" };

	assert_int_equal(
		mail_parse_content(entity, sizeof(entity) - 1, &m, &err), 0);
	assert_int_equal(m.body_len, 12);
	assert_memory_equal(m.body_text, "signed\ntail\n", 12);
	assert_int_equal(m.noutside, 1); /* 99-200 is past the text */
	assert_int_equal(m.outside[0].start, 6);
	assert_int_equal(m.outside[0].end, 12);
	assert_int_equal(m.nfrom, 1);
	assert_string_equal(m.from[0].email, "rita@example.net");
	assert_int_equal(m.nattachments, 1);
	assert_string_equal(m.attachments[0].filename, "poc.c");
	assert_true(m.attachments[0].outside);
	mail_msg_release(&m);
	/* A mail saying it is one is not: no text part. */
	assert_int_equal(mail_parse_content(plain, sizeof(plain) - 1, &m, &err),
			 ERR_INVALID);
	mail_msg_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_plain),
		cmocka_unit_test(test_legacy_content),
		cmocka_unit_test(test_parse_subjects),
		cmocka_unit_test(test_parse_crlf_and_hash),
		cmocka_unit_test(test_hash_transport),
		cmocka_unit_test(test_parse_nested),
		cmocka_unit_test(test_parse_signed),
		cmocka_unit_test(test_parse_signed_spoof),
		cmocka_unit_test(test_parse_from),
		cmocka_unit_test(test_parse_encrypted),
		cmocka_unit_test(test_parse_inline),
		cmocka_unit_test(test_parse_entity),
		cmocka_unit_test(test_parse_odd),
		cmocka_unit_test(test_parse_limits),
		cmocka_unit_test(test_parse_big),
		cmocka_unit_test(test_parse_garbage),
		cmocka_unit_test(test_mbox),
		cmocka_unit_test(test_mbox_errors),
		cmocka_unit_test(test_mbox_crlf_and_huge),
		cmocka_unit_test(test_maildir),
		cmocka_unit_test(test_maildir_links),
		cmocka_unit_test(test_maildir_deliver),
		cmocka_unit_test(test_pgp_blocks),
		cmocka_unit_test(test_touched),
		cmocka_unit_test(test_touched_plausible),
		cmocka_unit_test(test_build_entity),
		cmocka_unit_test(test_build_encrypted),
		cmocka_unit_test(test_protect_entity),
		cmocka_unit_test(test_build_plain),
		cmocka_unit_test(test_build_signed),
	};
	return cmocka_run_group_tests_name("mail", tests, group_setup,
					   group_teardown);
}
