/*
 * crypto/: every signature verdict, decryption refusals, encryption and
 * key lookup, against a throwaway GnuPG world.
 *
 * The group setup makes the keys with tests/lib/gpg-env.sh and the
 * messages with tests/lib/mkpgp.py and the gpg command line (never with
 * crypto/ itself) in a mkdtemp directory; the teardown kills the agents
 * and removes it.  Run from the repository root or with $SECTEAM_TOP.
 */
#include "unit.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "crypto/crypto.h"
#include "crypto/teamkey.h"
#include "util/util.h"

struct world {
	char dir[64];
	char *top;
	char *officer_home;
	char *senders_home;
	char *officer_fpr, *reporter_fpr, *stranger_fpr, *unknown_fpr,
		*expired_fpr, *revoked_fpr, *maintainer_fpr, *vendor_fpr;
	struct crypto *c;
};

static struct world W;

/* Builds every fixture in $D/fx with the gpg command line and mkpgp.py. */
static const char fixture_script[] =
	"set -e\n"
	". \"$TOP/tests/lib/gpg-env.sh\"\n"
	"gpg_env_setup \"$D\"\n"
	"mk() { /usr/bin/python3 \"$TOP/tests/lib/mkpgp.py\" "
	"--gnupghome \"$GNUPG_SENDERS_HOME\" --subject 'overflow in foo' "
	"--body 'Hello officer,\nthere is a bug in foo.c.' \"$@\"; }\n"
	"F=$D/fx; mkdir -p $F\n"
	"R='Rita Reporter <rita@example.net>'\n"
	"mk --kind encrypted-signed --from \"$R\" --sign-as $REPORTER_FPR "
	"--to $OFFICER_FPR >$F/es.eml\n"
	"mk --kind encrypted-signed --from 'Sam <sam@example.com>' "
	"--sign-as $STRANGER_FPR --to $OFFICER_FPR >$F/stranger.eml\n"
	"mk --kind encrypted --from \"$R\" --to $OFFICER_FPR >$F/enc.eml\n"
	"mk --kind nomdc --from \"$R\" --sign-as $REPORTER_FPR "
	"--to $OFFICER_FPR >$F/nomdc.eml\n"
	"mk --kind tampered --from \"$R\" --sign-as $REPORTER_FPR "
	"--to $OFFICER_FPR >$F/tampered.eml\n"
	"mk --kind signed --from \"$R\" --sign-as $REPORTER_FPR >$F/signed.eml\n"
	"mk --kind badsig --from \"$R\" --sign-as $REPORTER_FPR >$F/badsig.eml\n"
	"mk --kind inline-signed --from \"$R\" --sign-as $REPORTER_FPR "
	">$F/inline.eml\n"
	"g() { gpg --homedir \"$GNUPG_SENDERS_HOME\" --batch --yes "
	"--trust-model always \"$@\" 2>/dev/null; }\n"
	"echo 'from a stranger nobody knows' >$F/u.txt\n"
	"g -u $UNKNOWN_FPR -o $F/unknown.asc --clearsign $F/u.txt\n"
	"echo 'two signers' >$F/two.txt\n"
	"g -u $REPORTER_FPR -u $STRANGER_FPR -o $F/two-good.asc --clearsign "
	"$F/two.txt\n"
	"g -u $REPORTER_FPR -u $REVOKED_FPR -o $F/two-revoked.asc --clearsign "
	"$F/two.txt\n"
	"printf 'line one\\r\\nline two\\r\\n' >$F/crlf.txt\n"
	"printf 'line one\\nline two\\n' >$F/lf.txt\n"
	"g -u $REPORTER_FPR -a -o $F/crlf.sig --detach-sign $F/crlf.txt\n"
	"g -u $REPORTER_FPR -o $F/opaque.gpg --sign $F/u.txt\n"
	/* One detached-signature stream, several signers over crlf.txt:
	 * valid + bad (made over lf.txt), valid + unknown key. */
	"g -u $REPORTER_FPR -o $F/s-valid.sig --detach-sign $F/crlf.txt\n"
	"g -u $REPORTER_FPR -o $F/s-bad.sig --detach-sign $F/lf.txt\n"
	"g -u $UNKNOWN_FPR -o $F/s-unknown.sig --detach-sign $F/crlf.txt\n"
	"cat $F/s-valid.sig $F/s-bad.sig >$F/valid-bad.sig\n"
	"cat $F/s-valid.sig $F/s-unknown.sig >$F/valid-unknown.sig\n"
	/* A second key for Vic's address (upper case): ambiguous. */
	"V='Vic Vendor (laptop) <VIC@vendor.example>'\n"
	"g --passphrase '' --pinentry-mode loopback --quick-gen-key \"$V\" "
	"future-default default never\n"
	"g --export \"=$V\" >$F/vic2.pub\n"
	"gpg --homedir \"$GNUPG_OFFICER_HOME\" --batch --import $F/vic2.pub "
	"2>/dev/null\n"
	/* Mallory: a key the officer certified, which then grew user IDs
	 * nobody certified: Rita's address and a look-alike of it (a
	 * Cyrillic a).  A message Mallory signs as Rita is "valid" (the key
	 * is), but the key does not speak for Rita. */
	"M='Mallory Certified <mallory@example.com>'\n"
	"g --passphrase '' --pinentry-mode loopback --quick-gen-key \"$M\" "
	"future-default default never\n"
	"MAL=$(gpg --homedir \"$GNUPG_SENDERS_HOME\" --with-colons --list-keys "
	"\"=$M\" 2>/dev/null | awk -F: '$1 == \"fpr\" { print $10; exit }')\n"
	"echo \"$MAL\" >$F/mallory.fpr\n"
	"g --export $MAL >$F/mal.pub\n"
	"o() { gpg --homedir \"$GNUPG_OFFICER_HOME\" --batch --yes \"$@\" "
	">/dev/null 2>&1; }\n"
	"o --import $F/mal.pub\n"
	"o --default-key $OFFICER_FPR --quick-sign-key $MAL\n"
	"g --quick-add-uid $MAL 'Rita Reporter <rita@example.net>'\n"
	"g --quick-add-uid $MAL 'Rita Reporter <rita@ex\xd0\xb0mple.net>'\n"
	"g --export $MAL >$F/mal.pub\n"
	"o --import $F/mal.pub\n"
	"o --check-trustdb\n"
	"mk --kind encrypted-signed --from \"$R\" --sign-as $MAL "
	"--to $OFFICER_FPR >$F/uid-spoof.eml\n"
	/* Compressed zeros: exactly CRYPTO_MAX_PLAIN, one byte more, and
	 * one byte more signed only (gpg --sign, no encryption). */
	"head -c 67108864 /dev/zero | g -z 9 -r $OFFICER_FPR -o $F/at-limit.gpg -e\n"
	"head -c 67108865 /dev/zero | g -z 9 -r $OFFICER_FPR -o $F/over-limit.gpg -e\n"
	"head -c 67108865 /dev/zero | g -z 9 -u $REPORTER_FPR "
	"-o $F/over-limit-signed.gpg --sign\n";

/* The value of NAME in $D/env, which gpg_env_setup writes. */
static char *env_value(const char *name)
{
	char path[256], *buf, *line, *save = NULL;
	size_t len;
	struct err err;
	char *val = NULL;
	size_t nl = strlen(name);

	snprintf(path, sizeof(path), "%s/env", W.dir);
	if (read_file(path, 1 << 16, &buf, &len, &err) < 0)
		fail_msg("%s", err.msg);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (!strncmp(line, name, nl) && line[nl] == '=')
			val = xstrdup(line + nl + 1);
	free(buf);
	if (!val)
		fail_msg("%s missing from %s", name, path);
	return val;
}

static int setup(void **state)
{
	struct err err;
	int rc;

	(void)state;
	W.top = xstrdup(getenv("SECTEAM_TOP") ? getenv("SECTEAM_TOP") : ".");
	snprintf(W.dir, sizeof(W.dir), "/tmp/secteam-crypto-XXXXXX");
	if (!mkdtemp(W.dir))
		return -1;
	setenv("TOP", W.top, 1);
	setenv("D", W.dir, 1);
	/* system() runs sh -c; the script reads $TOP and $D. */
	setenv("FIXTURES", fixture_script, 1);
	rc = system("eval \"$FIXTURES\"");
	if (rc != 0) {
		fprintf(stderr, "fixture script failed (%d)\n", rc);
		return -1;
	}
	W.officer_home = env_value("GNUPG_OFFICER_HOME");
	W.senders_home = env_value("GNUPG_SENDERS_HOME");
	W.officer_fpr = env_value("OFFICER_FPR");
	W.reporter_fpr = env_value("REPORTER_FPR");
	W.stranger_fpr = env_value("STRANGER_FPR");
	W.unknown_fpr = env_value("UNKNOWN_FPR");
	W.expired_fpr = env_value("EXPIRED_FPR");
	W.revoked_fpr = env_value("REVOKED_FPR");
	W.maintainer_fpr = env_value("MAINTAINER_FPR");
	W.vendor_fpr = env_value("VENDOR_FPR");
	if (crypto_open(W.officer_home, &W.c, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	char *cmd;

	(void)state;
	crypto_close(W.c);
	cmd = xasprintf("sh -c '. \"$TOP/tests/lib/gpg-env.sh\"; "
			"gpg_env_teardown \"$D\"'");
	if (system(cmd) != 0)
		fprintf(stderr, "teardown of %s failed\n", W.dir);
	free(cmd);
	free(W.top);
	free(W.officer_home);
	free(W.senders_home);
	free(W.officer_fpr);
	free(W.reporter_fpr);
	free(W.stranger_fpr);
	free(W.unknown_fpr);
	free(W.expired_fpr);
	free(W.revoked_fpr);
	free(W.maintainer_fpr);
	free(W.vendor_fpr);
	return 0;
}

/* The whole fixture file $D/fx/name. */
static char *fx(const char *name, size_t *len)
{
	char path[256];
	struct err err;
	char *buf;
	size_t n;

	snprintf(path, sizeof(path), "%s/fx/%s", W.dir, name);
	if (read_file(path, 1 << 20, &buf, &n, &err) < 0)
		fail_msg("%s", err.msg);
	if (len)
		*len = n;
	return buf;
}

/* The fingerprint the fixture script wrote into $D/fx/name. */
static char *fx_line(const char *name)
{
	char *s = fx(name, NULL);

	s[strcspn(s, "\n")] = '\0';
	return s;
}

/* The armored block of kind ("MESSAGE", "SIGNATURE") inside a mail. */
static char *armored(const char *mail, const char *kind, size_t *len)
{
	char begin[64], end[64];
	const char *b, *e;

	snprintf(begin, sizeof(begin), "-----BEGIN PGP %s-----", kind);
	snprintf(end, sizeof(end), "-----END PGP %s-----", kind);
	b = strstr(mail, begin);
	assert_non_null(b);
	e = strstr(b, end);
	assert_non_null(e);
	e += strlen(end);
	*len = (size_t)(e - b);
	return xstrndup(b, *len);
}

/*
 * The signed part of a multipart/signed mail, canonicalized to CRLF as
 * RFC 3156 says, and its signature: what mail/ will hand to crypto/.
 */
static void split_signed(const char *mail, char **data, size_t *len, char **sig,
			 size_t *siglen)
{
	const char *p = strstr(mail, "boundary=\""), *q, *start, *end;
	char delim[128];
	struct sbuf sb = SBUF_INIT;

	assert_non_null(p);
	p += strlen("boundary=\"");
	q = strchr(p, '"');
	assert_non_null(q);
	snprintf(delim, sizeof(delim), "\n--%.*s\n", (int)(q - p), p);
	start = strstr(q, delim);
	assert_non_null(start);
	start += strlen(delim);
	end = strstr(start, delim);
	assert_non_null(end);
	/* The line break before the delimiter belongs to the delimiter. */
	for (const char *s = start; s < end; s++) {
		if (*s == '\n')
			sbuf_addch(&sb, '\r');
		sbuf_addch(&sb, *s);
	}
	*len = sb.len;
	*data = sbuf_detach(&sb, NULL);
	*sig = armored(end, "SIGNATURE", siglen);
}

static struct crypto_result decrypt_fx(const char *name, int want_rc,
				       struct err *err)
{
	struct crypto_result res;
	size_t n, len;
	char *mail = fx(name, &n);
	char *msg = armored(mail, "MESSAGE", &len);
	int rc = crypto_decrypt_verify(W.c, msg, len, &res, err);

	if (want_rc == 0 && rc != 0)
		fail_msg("decrypting %s: %s", name, err->msg);
	assert_int_equal(rc, want_rc);
	free(msg);
	free(mail);
	return res;
}

static struct crypto_result opaque_fx(const char *name, const char *path)
{
	struct crypto_result res;
	struct err err;
	size_t len;
	char *buf;

	if (path) {
		if (read_file(path, 1 << 20, &buf, &len, &err) < 0)
			fail_msg("%s", err.msg);
	} else {
		buf = fx(name, &len);
	}
	if (crypto_verify_opaque(W.c, buf, len, &res, &err) != 0)
		fail_msg("verifying %s: %s", path ? path : name, err.msg);
	free(buf);
	return res;
}

/* 1: s names email in a valid user ID, 0: in one the keyring does not
 * vouch for, -1: not at all. */
static int has_email(const struct crypto_sig *s, const char *email)
{
	int r = -1;

	for (size_t i = 0; i < s->nuids; i++)
		if (s->uids[i].email && !strcmp(s->uids[i].email, email))
			r = r > (int)s->uids[i].valid ? r
						      : (int)s->uids[i].valid;
	return r;
}

static void test_verdict_names(void **state)
{
	static const char *names[] = { "valid",	      "good",
				       "bad",	      "unknown-key",
				       "expired-key", "revoked-key",
				       "not-signed",  "partial",
				       "error",	      "tampered" };
	(void)state;
	assert_int_equal(ARRAY_SIZE(names), SIG__COUNT);
	for (int v = 0; v < SIG__COUNT; v++) {
		assert_string_equal(sig_verdict_name((enum sig_verdict)v),
				    names[v]);
		assert_int_equal(sig_verdict_parse(names[v]), v);
	}
	assert_int_equal(sig_verdict_parse("Valid"), -1);
	assert_int_equal(sig_verdict_parse(""), -1);
	assert_int_equal(sig_verdict_parse(NULL), -1);
}

static void test_open_bad_home(void **state)
{
	struct crypto *c = (struct crypto *)1;
	struct err err;
	char path[128];

	(void)state;
	assert_int_equal(crypto_open("/nonexistent/gnupg", &c, &err),
			 ERR_CRYPTO);
	assert_null(c);
	assert_string_equal(err.msg,
			    "cannot use gnupg home '/nonexistent/gnupg': "
			    "no such file or directory");
	snprintf(path, sizeof(path), "%s/env", W.dir);
	assert_int_equal(crypto_open(path, &c, &err), ERR_CRYPTO);
	assert_non_null(strstr(err.msg, "not a directory"));
	if (geteuid() != 0) {
		/* root reads any directory; the check only means something
		 * for other users. */
		snprintf(path, sizeof(path), "%s/closed", W.dir);
		assert_int_equal(mkdir(path, 0), 0);
		assert_int_equal(crypto_open(path, &c, &err), ERR_CRYPTO);
		assert_non_null(strstr(err.msg, "permission denied"));
	}
}

/* Signed by a key the officer certified: valid, with everything filled. */
static void test_valid_encrypted_signed(void **state)
{
	struct err err;
	struct crypto_result res = decrypt_fx("es.eml", 0, &err);

	(void)state;
	assert_true(res.encrypted);
	assert_false(res.no_mdc);
	assert_int_equal(res.verdict, SIG_VALID);
	assert_int_equal(res.nsigs, 1);
	assert_int_equal(res.sigs[0].verdict, SIG_VALID);
	assert_string_equal(res.sigs[0].fingerprint, W.reporter_fpr);
	assert_int_equal(has_email(&res.sigs[0], "rita@example.net"), 1);
	assert_string_equal(crypto_sig_uid(&res.sigs[0], NULL)->uid,
			    "Rita Reporter <rita@example.net>");
	assert_true(res.sigs[0].created > time(NULL) - 3600);
	assert_non_null(res.plain);
	assert_non_null(strstr((char *)res.plain, "there is a bug in foo.c."));
	assert_non_null(strstr((char *)res.plain, "Content-Type: text/plain"));
	assert_int_equal(res.nrecipients, 1);
	assert_int_equal(strlen(res.recipients[0]), 16);
	crypto_result_release(&res);
	assert_null(res.plain);
	assert_int_equal(res.nsigs, 0);
}

/* A second message by the same signer comes from the cache: same data. */
static void test_valid_twice_cached(void **state)
{
	struct err err;
	struct crypto_result a = decrypt_fx("es.eml", 0, &err);
	struct crypto_result b = decrypt_fx("es.eml", 0, &err);

	(void)state;
	assert_int_equal(b.verdict, SIG_VALID);
	assert_string_equal(a.sigs[0].fingerprint, b.sigs[0].fingerprint);
	assert_int_equal(a.sigs[0].nuids, b.sigs[0].nuids);
	crypto_result_release(&a);
	crypto_result_release(&b);
}

static void test_good_stranger(void **state)
{
	struct err err;
	struct crypto_result res = decrypt_fx("stranger.eml", 0, &err);

	(void)state;
	assert_int_equal(res.verdict, SIG_GOOD);
	assert_string_equal(res.sigs[0].fingerprint, W.stranger_fpr);
	/* Nobody certified Sam's key: his user ID is his word only. */
	assert_int_equal(has_email(&res.sigs[0], "sam@example.com"), 0);
	assert_false(crypto_sig_matches(&res.sigs[0], "sam@example.com"));
	assert_string_equal(crypto_sig_uid(&res.sigs[0], NULL)->uid,
			    "Sam Stranger <sam@example.com>");
	assert_false(crypto_sig_uid(&res.sigs[0], NULL)->valid);
	crypto_result_release(&res);
}

static void test_not_signed(void **state)
{
	struct err err;
	struct crypto_result res = decrypt_fx("enc.eml", 0, &err);

	(void)state;
	assert_true(res.encrypted);
	assert_int_equal(res.verdict, SIG_NOT_SIGNED);
	assert_int_equal(res.nsigs, 0);
	assert_non_null(strstr((char *)res.plain, "there is a bug"));
	crypto_result_release(&res);
}

static void test_no_mdc_refused(void **state)
{
	struct err err;
	struct crypto_result res = decrypt_fx("nomdc.eml", ERR_CRYPTO, &err);

	(void)state;
	assert_string_equal(err.msg,
			    "message is not integrity protected (no MDC)");
	assert_true(res.no_mdc);
	assert_null(res.plain);
	assert_int_equal(res.plain_len, 0);
	assert_int_equal(res.verdict, SIG_ERROR);
	assert_string_equal(err.msg,
			    "message is not integrity protected (no MDC)");
	crypto_result_release(&res);
}

static void test_tampered_refused(void **state)
{
	struct err err;
	struct crypto_result res = decrypt_fx("tampered.eml", ERR_CRYPTO, &err);

	(void)state;
	assert_false(res.no_mdc);
	assert_null(res.plain);
	assert_int_equal(res.verdict, SIG_ERROR);
	assert_non_null(strstr(err.msg,
			       "cannot decrypt message: it is damaged "
			       "or was modified"));
	crypto_result_release(&res);
}

/*
 * Background decryptions give exactly what crypto_decrypt_verify gives,
 * whatever the order they are finished in: more jobs than the pool has
 * contexts (the rest are done in line), finished last first, with a
 * discarded one among them, then a synchronous decryption still works.
 */
static void test_background_matches_inline(void **state)
{
	static const char *const names[] = { "es.eml",	     "stranger.eml",
					     "enc.eml",	     "nomdc.eml",
					     "tampered.eml", NULL };
	enum { N = CRYPTO_JOBS_MAX + 4 };
	struct crypto_job *jobs[N];
	char *msgs[N];
	size_t lens[N];

	(void)state;
	for (int i = 0; i < N; i++) {
		const char *name = names[i % ARRAY_SIZE(names)];
		if (name) {
			size_t n;
			char *mail = fx(name, &n);
			msgs[i] = armored(mail, "MESSAGE", &lens[i]);
			free(mail);
		} else {
			msgs[i] = xstrdup("not an openpgp message\n");
			lens[i] = strlen(msgs[i]);
		}
		jobs[i] = crypto_decrypt_start(W.c, msgs[i], lens[i]);
		assert_non_null(jobs[i]);
	}
	crypto_job_discard(W.c, jobs[1]);
	for (int i = N; i-- > 0;) {
		struct crypto_result a, b;
		struct err ea = { 0, "" }, eb = { 0, "" };
		int ra, rb;

		if (i == 1)
			continue;
		ra = crypto_decrypt_finish(W.c, jobs[i], &a, &ea);
		rb = crypto_decrypt_verify(W.c, msgs[i], lens[i], &b, &eb);
		assert_int_equal(ra, rb);
		assert_string_equal(ea.msg, eb.msg);
		assert_int_equal(a.verdict, b.verdict);
		assert_int_equal(a.encrypted, b.encrypted);
		assert_int_equal(a.no_mdc, b.no_mdc);
		assert_int_equal(a.nsigs, b.nsigs);
		for (size_t k = 0; k < a.nsigs; k++) {
			assert_int_equal(a.sigs[k].verdict, b.sigs[k].verdict);
			assert_string_equal(a.sigs[k].fingerprint,
					    b.sigs[k].fingerprint);
			assert_int_equal(a.sigs[k].nuids, b.sigs[k].nuids);
		}
		assert_int_equal(a.nrecipients, b.nrecipients);
		assert_int_equal(a.plain_len, b.plain_len);
		if (a.plain_len)
			assert_memory_equal(a.plain, b.plain, a.plain_len);
		if (i % ARRAY_SIZE(names) == 0) {
			/* es.eml: the good case really was decrypted. */
			assert_int_equal(ra, 0);
			assert_int_equal(a.verdict, SIG_VALID);
			assert_non_null(
				strstr((char *)a.plain, "there is a bug"));
		}
		crypto_result_release(&a);
		crypto_result_release(&b);
	}
	for (int i = 0; i < N; i++)
		free(msgs[i]);
	{
		struct err err;
		struct crypto_result res = decrypt_fx("es.eml", 0, &err);
		assert_int_equal(res.verdict, SIG_VALID);
		crypto_result_release(&res);
	}
}

static void test_garbage_error(void **state)
{
	static const char garbage[] = "this is not an openpgp message at all\n";
	struct crypto_result res;
	struct err err;

	(void)state;
	assert_int_equal(crypto_decrypt_verify(W.c, garbage, strlen(garbage),
					       &res, &err),
			 ERR_CRYPTO);
	assert_int_equal(res.verdict, SIG_ERROR);
	assert_null(res.plain);
	assert_string_equal(err.msg,
			    "cannot read message: no openpgp "
			    "encrypted or signed data found");
	crypto_result_release(&res);

	assert_int_equal(crypto_verify_opaque(W.c, garbage, strlen(garbage),
					      &res, &err),
			 ERR_CRYPTO);
	assert_int_equal(res.verdict, SIG_ERROR);
	assert_null(res.plain);
	assert_non_null(strstr(err.msg, "cannot verify message: "));
	crypto_result_release(&res);

	assert_int_equal(crypto_verify_detached(W.c, "x", 1, garbage,
						strlen(garbage), &res, &err),
			 ERR_CRYPTO);
	assert_int_equal(res.verdict, SIG_ERROR);
	assert_non_null(strstr(err.msg, "cannot verify signature: "));
	crypto_result_release(&res);
}

static void test_unknown_key(void **state)
{
	struct crypto_result res = opaque_fx("unknown.asc", NULL);

	(void)state;
	assert_int_equal(res.verdict, SIG_UNKNOWN_KEY);
	assert_int_equal(res.nsigs, 1);
	assert_string_equal(res.sigs[0].fingerprint, W.unknown_fpr);
	assert_int_equal(res.sigs[0].nuids, 0);
	assert_null(crypto_sig_uid(&res.sigs[0], NULL));
	assert_false(crypto_sig_matches(&res.sigs[0], "uma@unknown.example"));
	assert_string_equal((char *)res.plain,
			    "from a stranger nobody knows\n");
	crypto_result_release(&res);
}

static void test_expired_key(void **state)
{
	char path[128];
	struct crypto_result res;

	(void)state;
	snprintf(path, sizeof(path), "%s/expired-signed.asc", W.dir);
	res = opaque_fx(NULL, path);
	assert_int_equal(res.verdict, SIG_EXPIRED_KEY);
	assert_string_equal(res.sigs[0].fingerprint, W.expired_fpr);
	/* Named, but an expired key vouches for nobody. */
	assert_int_equal(has_email(&res.sigs[0], "eve@expired.example"), 0);
	crypto_result_release(&res);
}

static void test_revoked_key(void **state)
{
	char path[128];
	struct crypto_result res;

	(void)state;
	snprintf(path, sizeof(path), "%s/revoked-signed.asc", W.dir);
	res = opaque_fx(NULL, path);
	assert_int_equal(res.verdict, SIG_REVOKED_KEY);
	assert_string_equal(res.sigs[0].fingerprint, W.revoked_fpr);
	crypto_result_release(&res);
}

/* Two signatures: the message is as good as the worse one. */
static void test_combined_verdicts(void **state)
{
	struct crypto_result res = opaque_fx("two-good.asc", NULL);

	(void)state;
	assert_int_equal(res.nsigs, 2);
	assert_int_equal(res.verdict, SIG_GOOD);
	crypto_result_release(&res);

	res = opaque_fx("two-revoked.asc", NULL);
	assert_int_equal(res.nsigs, 2);
	assert_int_equal(res.verdict, SIG_REVOKED_KEY);
	assert_true(res.sigs[0].verdict == SIG_VALID ||
		    res.sigs[1].verdict == SIG_VALID);
	crypto_result_release(&res);
}

static void detached_pair(const char *signame, enum sig_verdict want,
			  enum sig_verdict other)
{
	size_t len, siglen;
	char *data = fx("crlf.txt", &len), *sig = fx(signame, &siglen);
	struct crypto_result res;
	struct err err;

	assert_int_equal(crypto_verify_detached(W.c, data, len, sig, siglen,
						&res, &err),
			 0);
	assert_int_equal(res.nsigs, 2);
	assert_int_equal(res.sigs[0].verdict, SIG_VALID);
	assert_int_equal(res.sigs[1].verdict, other);
	assert_int_equal(res.verdict, want);
	crypto_result_release(&res);
	free(data);
	free(sig);
}

static void test_combined_detached(void **state)
{
	(void)state;
	detached_pair("valid-bad.sig", SIG_BAD, SIG_BAD);
	detached_pair("valid-unknown.sig", SIG_UNKNOWN_KEY, SIG_UNKNOWN_KEY);
}

/* crypto_pgp_sign_detached: an armored signature by the officer that
 * verifies over exactly the data, with the micalg RFC 3156 wants. */
static void test_sign_detached(void **state)
{
	static const char data[] = "Content-Type: text/plain\r\n\r\nhi\r\n";
	unsigned char *sig;
	size_t siglen;
	char *micalg;
	struct crypto_result res;
	struct err err;

	(void)state;
	if (crypto_pgp_sign_detached(W.c, W.officer_fpr, data, strlen(data),
				     &sig, &siglen, &micalg, &err) != 0)
		fail_msg("%s", err.msg);
	assert_true(str_starts((char *)sig, "-----BEGIN PGP SIGNATURE-----"));
	assert_true(str_starts(micalg, "pgp-sha"));
	assert_int_equal(crypto_verify_detached(W.c, data, strlen(data), sig,
						siglen, &res, &err),
			 0);
	assert_int_equal(res.verdict, SIG_VALID);
	assert_string_equal(res.sigs[0].fingerprint, W.officer_fpr);
	crypto_result_release(&res);
	/* One byte changed: no longer good. */
	assert_int_equal(crypto_verify_detached(W.c,
						"Content-Type: text/plain\r\n"
						"\r\nhI\r\n",
						strlen(data), sig, siglen, &res,
						&err),
			 0);
	assert_int_equal(res.verdict, SIG_BAD);
	crypto_result_release(&res);
	free(sig);
	free(micalg);
	assert_true(crypto_pgp_sign_detached(W.c, "nobody@nowhere.example", "x",
					     1, &sig, &siglen, &micalg,
					     &err) < 0);
	assert_null(sig);
}

static void test_clearsigned_and_opaque(void **state)
{
	struct crypto_result res = opaque_fx("inline.eml", NULL);
	struct err err;
	size_t len;
	char *buf;

	(void)state;
	assert_int_equal(res.verdict, SIG_VALID);
	assert_string_equal((char *)res.plain,
			    "Hello officer,\nthere is a bug in foo.c.\n");
	crypto_result_release(&res);

	res = opaque_fx("opaque.gpg", NULL);
	assert_int_equal(res.verdict, SIG_VALID);
	assert_string_equal((char *)res.plain,
			    "from a stranger nobody knows\n");
	crypto_result_release(&res);

	/* decrypt_verify takes signed-only input too. */
	buf = fx("opaque.gpg", &len);
	assert_int_equal(crypto_decrypt_verify(W.c, buf, len, &res, &err), 0);
	assert_false(res.encrypted);
	assert_int_equal(res.verdict, SIG_VALID);
	assert_string_equal((char *)res.plain,
			    "from a stranger nobody knows\n");
	crypto_result_release(&res);
	free(buf);
}

static void test_pgp_mime_signed(void **state)
{
	char *mail, *data, *sig;
	size_t len, siglen;
	struct crypto_result res;
	struct err err;

	(void)state;
	mail = fx("signed.eml", NULL);
	split_signed(mail, &data, &len, &sig, &siglen);
	assert_int_equal(crypto_verify_detached(W.c, data, len, sig, siglen,
						&res, &err),
			 0);
	assert_int_equal(res.verdict, SIG_VALID);
	assert_string_equal(res.sigs[0].fingerprint, W.reporter_fpr);
	assert_null(res.plain);
	crypto_result_release(&res);
	free(mail);
	free(data);
	free(sig);

	mail = fx("badsig.eml", NULL);
	split_signed(mail, &data, &len, &sig, &siglen);
	assert_int_equal(crypto_verify_detached(W.c, data, len, sig, siglen,
						&res, &err),
			 0);
	assert_int_equal(res.verdict, SIG_BAD);
	assert_int_equal(res.sigs[0].verdict, SIG_BAD);
	crypto_result_release(&res);
	free(mail);
	free(data);
	free(sig);
}

/* Detached signatures are over exact bytes: CRLF is not LF. */
static void test_detached_crlf(void **state)
{
	size_t crlflen, lflen, siglen;
	char *crlf = fx("crlf.txt", &crlflen), *lf = fx("lf.txt", &lflen);
	char *sig = fx("crlf.sig", &siglen);
	struct crypto_result res;
	struct err err;

	(void)state;
	assert_int_equal(crypto_verify_detached(W.c, crlf, crlflen, sig, siglen,
						&res, &err),
			 0);
	assert_int_equal(res.verdict, SIG_VALID);
	crypto_result_release(&res);
	assert_int_equal(crypto_verify_detached(W.c, lf, lflen, sig, siglen,
						&res, &err),
			 0);
	assert_int_equal(res.verdict, SIG_BAD);
	crypto_result_release(&res);
	free(crlf);
	free(lf);
	free(sig);
}

static void test_sig_matches(void **state)
{
	struct err err;
	struct crypto_result res = decrypt_fx("es.eml", 0, &err);

	(void)state;
	assert_true(crypto_sig_matches(&res.sigs[0], "rita@example.net"));
	assert_true(crypto_sig_matches(&res.sigs[0], "Rita@Example.NET"));
	assert_false(crypto_sig_matches(&res.sigs[0], "ita@example.net"));
	assert_false(crypto_sig_matches(&res.sigs[0], "rita@example.net.evil"));
	assert_false(crypto_sig_matches(&res.sigs[0], "sam@example.com"));
	assert_false(crypto_sig_matches(&res.sigs[0], ""));
	assert_false(crypto_sig_matches(&res.sigs[0], NULL));
	crypto_result_release(&res);
}

/* A certified key with a user ID added later, nobody certifying it,
 * carrying Rita's address (and a look-alike): the signature is valid,
 * the key does not speak for Rita. */
static void test_uncertified_uid(void **state)
{
	struct err err;
	struct crypto_result res = decrypt_fx("uid-spoof.eml", 0, &err);
	char *mal = fx_line("mallory.fpr");
	const struct crypto_sig *s = &res.sigs[0];

	(void)state;
	assert_int_equal(res.verdict, SIG_VALID);
	assert_string_equal(s->fingerprint, mal);
	assert_int_equal(has_email(s, "rita@example.net"), 0);
	assert_int_equal(has_email(s, "rita@ex\xd0\xb0mple.net"), 0);
	assert_int_equal(has_email(s, "mallory@example.com"), 1);
	assert_false(crypto_sig_matches(s, "rita@example.net"));
	assert_false(crypto_sig_matches(s, "RITA@example.net"));
	assert_false(crypto_sig_matches(s, "rita@ex\xd0\xb0mple.net"));
	assert_true(crypto_sig_matches(s, "mallory@example.com"));
	/* Named by the user ID the keyring vouches for, even when asked for
	 * the one carrying From's address. */
	assert_string_equal(crypto_sig_uid(s, "rita@example.net")->uid,
			    "Mallory Certified <mallory@example.com>");
	crypto_result_release(&res);
	free(mal);
}

static void test_find_encryption_key(void **state)
{
	struct err err;
	char *fpr = NULL;

	(void)state;
	assert_int_equal(crypto_find_encryption_key(W.c, "mia@example.org",
						    &fpr, &err),
			 0);
	assert_string_equal(fpr, W.maintainer_fpr);
	free(fpr);
	assert_int_equal(crypto_find_encryption_key(W.c, "MIA@Example.org",
						    &fpr, &err),
			 0);
	free(fpr);
	assert_int_equal(
		crypto_find_encryption_key(W.c, W.reporter_fpr, &fpr, &err), 0);
	assert_string_equal(fpr, W.reporter_fpr);
	free(fpr);

	assert_int_equal(crypto_find_encryption_key(W.c, "ia@example.org", &fpr,
						    &err),
			 ERR_NOTFOUND);
	assert_null(fpr);
	assert_string_equal(err.msg,
			    "no usable encryption key for "
			    "'ia@example.org': no key");
	assert_int_equal(crypto_find_encryption_key(W.c, "eve@expired.example",
						    &fpr, &err),
			 ERR_NOTFOUND);
	assert_string_equal(err.msg,
			    "no usable encryption key for "
			    "'eve@expired.example': key expired");
	assert_int_equal(crypto_find_encryption_key(W.c, W.revoked_fpr, &fpr,
						    &err),
			 ERR_NOTFOUND);
	assert_non_null(strstr(err.msg, "': key revoked"));
	assert_int_equal(crypto_find_encryption_key(W.c, "vic@vendor.example",
						    &fpr, &err),
			 ERR_NOTFOUND);
	assert_string_equal(err.msg,
			    "no usable encryption key for "
			    "'vic@vendor.example': ambiguous: 2 keys");
	assert_int_equal(
		crypto_find_encryption_key(W.c, W.vendor_fpr, &fpr, &err), 0);
	assert_string_equal(fpr, W.vendor_fpr);
	free(fpr);
	assert_int_equal(crypto_find_encryption_key(W.c, "Mia Maintainer", &fpr,
						    &err),
			 ERR_INVALID);
}

static void test_encrypt_two_keys(void **state)
{
	static const char text[] = "embargoed: do not share\n";
	const char *to[] = { W.officer_fpr, "mia@example.org" };
	unsigned char *out;
	size_t outlen;
	struct crypto_result res;
	struct err err;
	char *cmd, path[128];
	FILE *f;

	(void)state;
	if (crypto_encrypt(W.c, to, 2, W.officer_fpr, true, text, strlen(text),
			   &out, &outlen, &err) != 0)
		fail_msg("%s", err.msg);
	assert_true(str_starts((char *)out, "-----BEGIN PGP MESSAGE-----"));

	assert_int_equal(crypto_decrypt_verify(W.c, out, outlen, &res, &err),
			 0);
	assert_int_equal(res.plain_len, strlen(text));
	assert_memory_equal(res.plain, text, strlen(text));
	assert_int_equal(res.nrecipients, 2);
	assert_int_equal(res.verdict, SIG_VALID);
	assert_string_equal(res.sigs[0].fingerprint, W.officer_fpr);
	crypto_result_release(&res);

	/* Mia reads it with her own key, through gpg itself. */
	snprintf(path, sizeof(path), "%s/fx/to-mia.asc", W.dir);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(out, 1, outlen, f), outlen);
	fclose(f);
	free(out);
	cmd = xasprintf(
		"gpg --homedir '%s' --batch --decrypt '%s' 2>/dev/null |"
		" grep -qx 'embargoed: do not share'",
		W.senders_home, path);
	assert_int_equal(system(cmd), 0);
	free(cmd);

	/* Binary output when armor is off. */
	if (crypto_encrypt(W.c, to, 1, NULL, false, text, strlen(text), &out,
			   &outlen, &err) != 0)
		fail_msg("%s", err.msg);
	assert_false(str_starts((char *)out, "-----BEGIN"));
	assert_int_equal(crypto_decrypt_verify(W.c, out, outlen, &res, &err),
			 0);
	assert_int_equal(res.verdict, SIG_NOT_SIGNED);
	crypto_result_release(&res);
	free(out);
}

static void test_encrypt_refused(void **state)
{
	const char *expired[] = { "mia@example.org", "eve@expired.example" };
	const char *revoked[] = { "rob@revoked.example" };
	const char *missing[] = { "uma@unknown.example" };
	unsigned char *out;
	size_t outlen;
	struct err err;

	(void)state;
	assert_int_equal(crypto_encrypt(W.c, expired, 2, NULL, true, "x", 1,
					&out, &outlen, &err),
			 ERR_NOTFOUND);
	assert_null(out);
	assert_string_equal(err.msg,
			    "no usable encryption key for "
			    "'eve@expired.example': key expired");
	assert_int_equal(crypto_encrypt(W.c, revoked, 1, NULL, true, "x", 1,
					&out, &outlen, &err),
			 ERR_NOTFOUND);
	assert_string_equal(err.msg,
			    "no usable encryption key for "
			    "'rob@revoked.example': key revoked");
	assert_int_equal(crypto_encrypt(W.c, missing, 1, NULL, true, "x", 1,
					&out, &outlen, &err),
			 ERR_NOTFOUND);
	assert_string_equal(err.msg,
			    "no usable encryption key for "
			    "'uma@unknown.example': no key");
	/* Signing needs a secret key we have. */
	assert_int_equal(crypto_encrypt(W.c, expired, 1, W.reporter_fpr, true,
					"x", 1, &out, &outlen, &err),
			 ERR_NOTFOUND);
	assert_non_null(strstr(err.msg, "no usable secret signing key for '"));
}

/* Only certified user IDs count: the one rule crypto_key_uid_valid
 * states, for every kind of key and user ID. */
static void test_key_uid_valid(void **state)
{
	char *mal = fx_line("mallory.fpr");
	struct err err;
	bool ok;

	(void)state;
	assert_int_equal(crypto_key_uid_valid(W.c, W.reporter_fpr,
					      "rita@example.net", &ok, &err),
			 0);
	assert_true(ok);
	assert_int_equal(crypto_key_uid_valid(W.c, W.reporter_fpr,
					      "Rita@EXAMPLE.net", &ok, &err),
			 0);
	assert_true(ok);
	/* The officer's own key: ultimate. */
	assert_int_equal(crypto_key_uid_valid(W.c, W.officer_fpr,
					      "security@example.org", &ok,
					      &err),
			 0);
	assert_true(ok);
	assert_int_equal(crypto_key_uid_valid(W.c, mal, "mallory@example.com",
					      &ok, &err),
			 0);
	assert_true(ok);
	/* Added after the officer certified the key: not vouched for. */
	assert_int_equal(crypto_key_uid_valid(W.c, mal, "rita@example.net", &ok,
					      &err),
			 0);
	assert_false(ok);
	assert_int_equal(crypto_key_uid_valid(W.c, mal,
					      "rita@ex\xd0\xb0mple.net", &ok,
					      &err),
			 0);
	assert_false(ok);
	/* Not certified at all, revoked, expired. */
	assert_int_equal(crypto_key_uid_valid(W.c, W.stranger_fpr,
					      "sam@example.com", &ok, &err),
			 0);
	assert_false(ok);
	assert_int_equal(crypto_key_uid_valid(W.c, W.revoked_fpr,
					      "rob@revoked.example", &ok, &err),
			 0);
	assert_false(ok);
	assert_int_equal(crypto_key_uid_valid(W.c, W.expired_fpr,
					      "eve@expired.example", &ok, &err),
			 0);
	assert_false(ok);
	/* A substring of an address is not the address. */
	assert_int_equal(crypto_key_uid_valid(W.c, W.reporter_fpr,
					      "ita@example.net", &ok, &err),
			 0);
	assert_false(ok);

	assert_int_equal(crypto_key_uid_valid(W.c, W.unknown_fpr,
					      "uma@unknown.example", &ok, &err),
			 ERR_NOTFOUND);
	assert_false(ok);
	assert_non_null(strstr(err.msg, W.unknown_fpr));
	assert_int_equal(crypto_key_uid_valid(W.c, "rita@example.net",
					      "rita@example.net", &ok, &err),
			 ERR_INVALID);
	assert_string_equal(err.msg,
			    "'rita@example.net' is not a key "
			    "fingerprint");
	assert_int_equal(crypto_key_uid_valid(W.c, W.reporter_fpr, "", &ok,
					      &err),
			 ERR_INVALID);
	free(mal);
}

static void test_default_secret_key(void **state)
{
	struct err err;
	char *fpr;

	(void)state;
	assert_int_equal(crypto_default_secret_key(W.c, &fpr, &err), 0);
	assert_string_equal(fpr, W.officer_fpr);
	free(fpr);
}

/* Decompression bombs: output past CRYPTO_MAX_PLAIN stops the operation
 * and is refused, on every path; exactly the limit is fine. */
static void test_decrypted_size_limit(void **state)
{
	static const char want[] = "decrypted content too large (over 64 MiB)";
	struct crypto_result res;
	struct crypto_job *j;
	struct err err;
	size_t len;
	char *buf;

	(void)state;
	buf = fx("at-limit.gpg", &len);
	assert_int_equal(crypto_decrypt_verify(W.c, buf, len, &res, &err), 0);
	assert_int_equal(res.plain_len, CRYPTO_MAX_PLAIN);
	crypto_result_release(&res);
	free(buf);

	buf = fx("over-limit.gpg", &len);
	assert_int_equal(crypto_decrypt_verify(W.c, buf, len, &res, &err),
			 ERR_INVALID);
	assert_string_equal(err.msg, want);
	assert_null(res.plain);
	assert_int_equal(res.verdict, SIG_ERROR);
	crypto_result_release(&res);
	/* The background path (import's read-ahead). */
	j = crypto_decrypt_start(W.c, buf, len);
	assert_int_equal(crypto_decrypt_finish(W.c, j, &res, &err),
			 ERR_INVALID);
	assert_string_equal(err.msg, want);
	assert_null(res.plain);
	crypto_result_release(&res);
	free(buf);

	/* Signed only: through decrypt (which falls back to verify), and
	 * verify itself. */
	buf = fx("over-limit-signed.gpg", &len);
	assert_int_equal(crypto_decrypt_verify(W.c, buf, len, &res, &err),
			 ERR_INVALID);
	assert_string_equal(err.msg, want);
	assert_null(res.plain);
	crypto_result_release(&res);
	assert_int_equal(crypto_verify_opaque(W.c, buf, len, &res, &err),
			 ERR_INVALID);
	assert_string_equal(err.msg, want);
	assert_null(res.plain);
	crypto_result_release(&res);
	free(buf);

	/* The context still works afterwards. */
	res = decrypt_fx("enc.eml", 0, &err);
	assert_non_null(res.plain);
	crypto_result_release(&res);
}

/* The team key (teamkey.h): wrapped to the officer's key and opened by
 * it alone; a sealed value opens only where it was sealed (table,
 * column, row, generation) and unaltered; the keyed hash is stable per
 * key and purpose and tells nothing without the key. */
static void test_team_key(void **state)
{
	struct team_key *k, *back, *other;
	const char *to[] = { W.officer_fpr };
	const char *stranger[] = { W.reporter_fpr };
	unsigned char *blob, *sealed, *plain;
	size_t blen, slen, plen;
	unsigned char m1[TEAM_MAC_BYTES], m2[TEAM_MAC_BYTES],
		m3[TEAM_MAC_BYTES];
	const char *subject = "UAF in tcp_v4_rcv, embargoed";
	struct err err;

	(void)state;
	assert_int_equal(team_key_new(0, &k, &err), ERR_INVALID);
	assert_int_equal(team_key_new(3, &k, &err), 0);
	assert_int_equal(team_key_generation(k), 3);
	/* Wrapped to the officer: this keyring opens it, to the same key. */
	assert_int_equal(team_key_wrap(W.c, k, to, 1, &blob, &blen, &err), 0);
	assert_null(memmem(blob, blen, "STK1", 4));
	assert_int_equal(team_key_unwrap(W.c, blob, blen, &back, NULL, &err),
			 0);
	assert_int_equal(team_key_generation(back), 3);
	team_key_seal(k, "reports", "subject", 7, subject, strlen(subject),
		      &sealed, &slen);
	assert_null(memmem(sealed, slen, "tcp_v4", 6));
	assert_int_equal(team_key_sealed_generation(sealed, slen), 3);
	assert_int_equal(team_key_open(back, "reports", "subject", 7, sealed,
				       slen, &plain, &plen, &err),
			 0);
	assert_int_equal(plen, strlen(subject));
	assert_string_equal((char *)plain, subject);
	wipe_free(plain, plen);
	free(blob);
	/* Wrapped to someone else's key only: this keyring cannot open it. */
	assert_int_equal(team_key_wrap(W.c, k, stranger, 1, &blob, &blen, &err),
			 0);
	assert_true(team_key_unwrap(W.c, blob, blen, &other, NULL, &err) < 0);
	assert_null(other);
	assert_non_null(strstr(err.msg, "cannot unwrap the team key"));
	free(blob);
	/* Moved to another row, another column, or altered: it does not
	 * open, and the message names the place. */
	assert_int_equal(team_key_open(k, "reports", "subject", 8, sealed, slen,
				       &plain, &plen, &err),
			 ERR_CRYPTO);
	assert_non_null(strstr(err.msg, "reports.subject of row 8"));
	assert_int_equal(team_key_open(k, "reports", "reporter_name", 7, sealed,
				       slen, &plain, &plen, &err),
			 ERR_CRYPTO);
	assert_int_equal(team_key_open(k, "events", "subject", 7, sealed, slen,
				       &plain, &plen, &err),
			 ERR_CRYPTO);
	sealed[slen - 1] ^= 1;
	assert_int_equal(team_key_open(k, "reports", "subject", 7, sealed, slen,
				       &plain, &plen, &err),
			 ERR_CRYPTO);
	sealed[slen - 1] ^= 1;
	assert_int_equal(team_key_open(k, "reports", "subject", 7, "clear text",
				       10, &plain, &plen, &err),
			 ERR_INVALID);
	/* Another generation's key refuses it, naming both. */
	assert_int_equal(team_key_new(4, &other, &err), 0);
	assert_int_equal(team_key_open(other, "reports", "subject", 7, sealed,
				       slen, &plain, &plen, &err),
			 ERR_CRYPTO);
	assert_non_null(strstr(err.msg, "generation 3"));
	/* Two seals of one value differ (random nonces). */
	unsigned char *again;
	size_t alen;
	team_key_seal(k, "reports", "subject", 7, subject, strlen(subject),
		      &again, &alen);
	assert_int_equal(alen, slen);
	assert_true(memcmp(again, sealed, slen) != 0);
	free(again);
	/* A column named past what the stack holds (a participant's is
	 * "who:" and a keyed hash): all of it is bound, to its last byte. */
	{
		char col[301];

		memset(col, 'c', 300);
		col[300] = '\0';
		team_key_seal(k, "participants", col, 7, subject,
			      strlen(subject), &again, &alen);
		assert_int_equal(team_key_open(k, "participants", col, 7, again,
					       alen, &plain, &plen, &err),
				 0);
		assert_string_equal((char *)plain, subject);
		wipe_free(plain, plen);
		col[299] = 'd';
		assert_int_equal(team_key_open(k, "participants", col, 7, again,
					       alen, &plain, &plen, &err),
				 ERR_CRYPTO);
		free(again);
	}
	free(sealed);
	/* The keyed hash: stable for a key and purpose, different across
	 * purposes and keys. */
	team_key_mac(k, "message-id", "a@x", 3, m1);
	team_key_mac(back, "message-id", "a@x", 3, m2);
	assert_memory_equal(m1, m2, TEAM_MAC_BYTES);
	team_key_mac(k, "content", "a@x", 3, m2);
	assert_memory_not_equal(m1, m2, TEAM_MAC_BYTES);
	team_key_mac(other, "message-id", "a@x", 3, m3);
	assert_memory_not_equal(m1, m3, TEAM_MAC_BYTES);
	team_key_free(other);
	team_key_free(back);
	team_key_free(k);
	team_key_free(NULL);
}

/* What gpg-agent says of a key (team.key-cache = auto): its KEYINFO
 * line read, then asked of real agents, for the officer's key without a
 * passphrase and, in a copy of the home, with one: asks until the
 * passphrase is in the agent's cache, asks again once it is cleared, and
 * nothing is vouched for when the agent is gone or for another key. */
static void test_agent_key_use(void **state)
{
	const char *g = "4FE28C002B168B8E04055755AD1FF97CEAB811FF";
	const char *to[] = { W.officer_fpr };
	struct team_key *k, *back;
	unsigned char *blob;
	size_t blen;
	char grip[41], *keyid = NULL, *sock, *sock2, *cmd, *home2;
	struct crypto *c2;
	bool card = true;
	struct err err;
	struct stat st;

	(void)state;
	/* The line. */
	assert_int_equal(
		crypto_agent_keyinfo(
			"4FE28C002B168B8E04055755AD1FF97CEAB811FF D - - - C - - -",
			g),
		CRYPTO_AGENT_SILENT);
	assert_int_equal(
		crypto_agent_keyinfo(
			"4FE28C002B168B8E04055755AD1FF97CEAB811FF D - - 1 P - - -",
			g),
		CRYPTO_AGENT_SILENT);
	assert_int_equal(
		crypto_agent_keyinfo(
			"4FE28C002B168B8E04055755AD1FF97CEAB811FF D - - - P - - -",
			g),
		CRYPTO_AGENT_ASKS);
	/* On a card: its PIN or touch, whatever the cache says. */
	assert_int_equal(
		crypto_agent_keyinfo(
			"4FE28C002B168B8E04055755AD1FF97CEAB811FF T D2760001240102 OPENPGP.2 1 C - - -",
			g),
		CRYPTO_AGENT_ASKS);
	assert_int_equal(
		crypto_agent_keyinfo(
			"4FE28C002B168B8E04055755AD1FF97CEAB811FF X - - - C - - -",
			g),
		CRYPTO_AGENT_ASKS);
	assert_int_equal(
		crypto_agent_keyinfo(
			"4FE28C002B168B8E04055755AD1FF97CEAB811FE D - - - C - - -",
			g),
		CRYPTO_AGENT_UNKNOWN);
	assert_int_equal(crypto_agent_keyinfo(
				 "4FE28C002B168B8E04055755AD1FF97CEAB811FF D",
				 g),
			 CRYPTO_AGENT_UNKNOWN);
	assert_int_equal(crypto_agent_keyinfo("", g), CRYPTO_AGENT_UNKNOWN);

	/* The officer's key, which has no passphrase: the copy names the
	 * subkey it was wrapped to, and its agent opens it without asking. */
	assert_int_equal(team_key_new(1, &k, &err), 0);
	assert_int_equal(team_key_wrap(W.c, k, to, 1, &blob, &blen, &err), 0);
	assert_int_equal(team_key_unwrap(W.c, blob, blen, &back, &keyid, &err),
			 0);
	assert_non_null(keyid);
	assert_int_equal(strlen(keyid), 16);
	assert_int_equal(crypto_agent_key(W.c, keyid, grip, &card, &err), 0);
	assert_int_equal(strlen(grip), 40);
	assert_false(card);
	assert_true(crypto_agent_key(W.c, "0123456789ABCDEF", grip, &card,
				     &err) < 0);
	assert_int_equal(crypto_agent_key(W.c, keyid, grip, &card, &err), 0);
	sock = crypto_agent_socket(W.c, &err);
	assert_non_null(sock);
	assert_non_null(strstr(sock, "/S.gpg-agent"));
	assert_int_equal(crypto_agent_key_use(sock, grip), CRYPTO_AGENT_SILENT);
	/* Another key's grip, a socket that is a file, no socket at all. */
	assert_int_equal(crypto_agent_key_use(sock, g), CRYPTO_AGENT_UNKNOWN);
	assert_int_equal(crypto_agent_key_use(sock, "not a grip"),
			 CRYPTO_AGENT_UNKNOWN);
	assert_int_equal(crypto_agent_key_use(W.officer_home, grip),
			 CRYPTO_AGENT_UNKNOWN);
	assert_int_equal(crypto_agent_key_use(NULL, grip),
			 CRYPTO_AGENT_UNKNOWN);
	/* An agent that never answers (stopped, stuck): nothing vouched
	 * for, and the command goes on (the alarm fails the test if the
	 * question waits for ever). */
	{
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		char *stuck = xasprintf("%s/stuck.sock", W.dir);
		int fd = socket(AF_UNIX, SOCK_STREAM, 0);

		assert_true(fd >= 0 && strlen(stuck) < sizeof(sa.sun_path));
		memcpy(sa.sun_path, stuck, strlen(stuck) + 1);
		assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)),
				 0);
		assert_int_equal(listen(fd, 1), 0);
		alarm(30);
		assert_int_equal(crypto_agent_key_use(stuck, grip),
				 CRYPTO_AGENT_UNKNOWN);
		alarm(0);
		close(fd);
		unlink(stuck);
		free(stuck);
	}

	/* The same key with a passphrase, in a home of its own. */
	home2 = xasprintf("%s/pw", W.dir);
	cmd = xasprintf(
		"set -e; H='%s'; mkdir -m 700 \"$H\"; "
		"cp -R '%s/pubring.kbx' '%s/trustdb.gpg' '%s/private-keys-v1.d' \"$H/\"; "
		"echo allow-preset-passphrase >\"$H/gpg-agent.conf\"; "
		"echo s3cret | gpg --homedir \"$H\" --batch --pinentry-mode loopback "
		"--passphrase-fd 0 --passwd %s 2>/dev/null",
		home2, W.officer_home, W.officer_home, W.officer_home,
		W.officer_fpr);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	assert_int_equal(crypto_open(home2, &c2, &err), 0);
	sock2 = crypto_agent_socket(c2, &err);
	assert_non_null(sock2);
	assert_string_not_equal(sock, sock2);
	cmd = xasprintf("gpg-connect-agent --homedir '%s' /bye >/dev/null 2>&1",
			home2);
	assert_int_equal(system(cmd), 0); /* (its agent started) */
	free(cmd);
	assert_int_equal(crypto_agent_key_use(sock2, grip), CRYPTO_AGENT_ASKS);
	cmd = xasprintf("GNUPGHOME='%s' /usr/lib/gnupg/gpg-preset-passphrase "
			"--preset -P s3cret %s",
			home2, grip);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	assert_int_equal(crypto_agent_key_use(sock2, grip),
			 CRYPTO_AGENT_SILENT);
	cmd = xasprintf("gpg-connect-agent --homedir '%s' 'clear_passphrase "
			"--mode=normal %s' /bye >/dev/null",
			home2, grip);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	assert_int_equal(crypto_agent_key_use(sock2, grip), CRYPTO_AGENT_ASKS);
	cmd = xasprintf("gpgconf --homedir '%s' --kill gpg-agent", home2);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	assert_true(stat(sock2, &st) < 0);
	assert_int_equal(crypto_agent_key_use(sock2, grip),
			 CRYPTO_AGENT_UNKNOWN);
	crypto_close(c2);
	free(sock2);
	free(home2);
	free(sock);
	free(keyid);
	free(blob);
	team_key_free(back);
	team_key_free(k);
}

/* The chain: generation 2 keeps generation 1 sealed under itself, so its
 * holder opens what 1 sealed; 1 opens nothing 2 sealed, and a chained
 * copy altered, presented as another generation's or under another key
 * does not open. */
static void test_team_key_chain(void **state)
{
	struct team_key *g1, *g2, *g3, *back;
	unsigned char *chain, *sealed, *plain;
	size_t clen, slen, plen;
	const char *note = "the reporter is touchy about credit";
	struct err err;

	(void)state;
	assert_int_equal(team_key_new(1, &g1, &err), 0);
	assert_int_equal(team_key_new(2, &g2, &err), 0);
	assert_int_equal(team_key_new(3, &g3, &err), 0);
	team_key_seal(g1, "events", "detail:note", 4, note, strlen(note),
		      &sealed, &slen);
	team_key_chain(g2, g1, &chain, &clen);
	assert_int_equal(team_key_unchain(g2, 1, chain, clen, &back, &err), 0);
	assert_int_equal(team_key_generation(back), 1);
	assert_int_equal(team_key_open(back, "events", "detail:note", 4, sealed,
				       slen, &plain, &plen, &err),
			 0);
	assert_string_equal((char *)plain, note);
	wipe_free(plain, plen);
	team_key_free(back);
	free(sealed);
	/* Under another key, as another generation, or altered: refused. */
	assert_int_equal(team_key_unchain(g3, 1, chain, clen, &back, &err),
			 ERR_INVALID);
	assert_null(back);
	assert_int_equal(team_key_unchain(g2, 0, chain, clen, &back, &err),
			 ERR_CRYPTO);
	assert_non_null(strstr(err.msg, "does not open"));
	chain[clen - 1] ^= 1;
	assert_int_equal(team_key_unchain(g2, 1, chain, clen, &back, &err),
			 ERR_CRYPTO);
	assert_int_equal(team_key_unchain(g2, 1, chain, 10, &back, &err),
			 ERR_INVALID);
	free(chain);
	/* The older key opens nothing the newer one sealed. */
	team_key_seal(g2, "events", "detail:note", 4, note, strlen(note),
		      &sealed, &slen);
	assert_int_equal(team_key_open(g1, "events", "detail:note", 4, sealed,
				       slen, &plain, &plen, &err),
			 ERR_CRYPTO);
	free(sealed);
	team_key_free(g1);
	team_key_free(g2);
	team_key_free(g3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdict_names),
		cmocka_unit_test(test_open_bad_home),
		cmocka_unit_test(test_valid_encrypted_signed),
		cmocka_unit_test(test_valid_twice_cached),
		cmocka_unit_test(test_good_stranger),
		cmocka_unit_test(test_not_signed),
		cmocka_unit_test(test_no_mdc_refused),
		cmocka_unit_test(test_tampered_refused),
		cmocka_unit_test(test_garbage_error),
		cmocka_unit_test(test_background_matches_inline),
		cmocka_unit_test(test_unknown_key),
		cmocka_unit_test(test_expired_key),
		cmocka_unit_test(test_revoked_key),
		cmocka_unit_test(test_combined_verdicts),
		cmocka_unit_test(test_combined_detached),
		cmocka_unit_test(test_sign_detached),
		cmocka_unit_test(test_clearsigned_and_opaque),
		cmocka_unit_test(test_pgp_mime_signed),
		cmocka_unit_test(test_detached_crlf),
		cmocka_unit_test(test_sig_matches),
		cmocka_unit_test(test_uncertified_uid),
		cmocka_unit_test(test_find_encryption_key),
		cmocka_unit_test(test_encrypt_two_keys),
		cmocka_unit_test(test_encrypt_refused),
		cmocka_unit_test(test_default_secret_key),
		cmocka_unit_test(test_key_uid_valid),
		cmocka_unit_test(test_decrypted_size_limit),
		cmocka_unit_test(test_team_key),
		cmocka_unit_test(test_team_key_chain),
		cmocka_unit_test(test_agent_key_use),
	};
	return cmocka_run_group_tests_name("crypto", tests, setup, teardown);
}
