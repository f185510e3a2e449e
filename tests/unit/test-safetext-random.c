/*
 * The display sanitizer against 1,000,000 random strings (lengths 0..64,
 * biased toward what attackers send: ESC sequences, C0 and C1 controls,
 * DEL, bidi and zero-width characters, broken and overlong UTF-8, and the
 * sanitizer's own escapes).  For every string and every flag set, the
 * output of safe_text() is valid UTF-8 with no C0 control (but tab and
 * newline when kept), no DEL, no C1 control, no ESC, no bidi or
 * zero-width control, and sanitizing it again changes nothing.  The
 * forbidden code points are listed in tests/lib/safetext-oracle.h,
 * independently of safe_is_hostile_cp().  A fixed seed (SAFETEXT_SEED overrides it) makes
 * a failure reproducible; the failing input is printed in hex.
 */
#include "unit.h"

#include "util/util.h"
#include "tests/lib/safetext-oracle.h"

#define ROUNDS 1000000

static uint64_t rng_state;

static uint32_t rnd(void)
{
	/* xorshift64*: fast, good enough, reproducible. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 2685821657736338717ULL) >> 32);
}

/* Pieces an attacker would use; a random string is a mix of them. */
static const char *const pieces[] = {
	"\x1b",
	"\x1b[",
	"\x1b]52;c;",
	"\x1b]0;",
	"\x07",
	"\x1bP",
	"\x1b\\",
	"\x7f",
	"\r",
	"\n",
	"\t",
	"\b",
	"\x00",
	"\xc2\x80",
	"\xc2\x85",
	"\xc2\x9b",
	"\xc2\x9c",
	"\xc2\x9d",
	"\xc2\x9f",
	"\xe2\x80\x8b",
	"\xe2\x80\x8c",
	"\xe2\x80\x8d",
	"\xe2\x80\x8e",
	"\xe2\x80\x8f",
	"\xe2\x80\xaa",
	"\xe2\x80\xab",
	"\xe2\x80\xac",
	"\xe2\x80\xad",
	"\xe2\x80\xae",
	"\xe2\x81\xa0",
	"\xe2\x81\xa6",
	"\xe2\x81\xa7",
	"\xe2\x81\xa8",
	"\xe2\x81\xa9",
	"\xd8\x9c",
	"\xef\xbb\xbf",
	"\xe2\x80\xa8",
	"\xe2\x80\xa9",
	"\xf3\xa0\x80\x81",
	"\xc0\x80",
	"\xc1\xbf",
	"\xe0\x80\x80",
	"\xed\xa0\x80",
	"\xed\xbf\xbf",
	"\xf4\x90\x80\x80",
	"\xf8\x88\x80\x80\x80",
	"\xff",
	"\xfe",
	"\x80",
	"\xc3",
	"\xe2\x80",
	"\xf0\x9f\x98",
	"^[",
	"^?",
	"<U+202E>",
	"<U+",
	"\\x1B",
	"\\x",
	"%n",
	"%s",
	"a",
	"Z",
	" ",
	"caf\xc3\xa9",
	"\xe6\x97\xa5",
	"\xf0\x9f\x98\x80",
	"\xcc\x81",
};

static size_t make(unsigned char *buf, size_t max)
{
	size_t want = rnd() % (max + 1), n = 0;

	while (n < want) {
		uint32_t r = rnd();
		if (r % 4 == 0) {
			buf[n++] = (unsigned char)(r >> 8);
		} else {
			const char *p = pieces[(r >> 8) % ARRAY_SIZE(pieces)];
			size_t l = p[0] ? strlen(p) : 1;
			if (n + l > want)
				l = want - n;
			memcpy(buf + n, p, l);
			n += l;
		}
	}
	return n;
}

static void dump(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "%02x", s[i]);
	fputc('\n', stderr);
}

static void test_million(void **state)
{
	static const unsigned flagsets[] = {
		0,
		SAFE_KEEP_NEWLINE | SAFE_KEEP_TAB,
		SAFE_KEEP_NEWLINE,
		SAFE_KEEP_TAB,
	};
	const char *seed = getenv("SAFETEXT_SEED");
	unsigned char in[64];
	size_t bad = 0;

	(void)state;
	rng_state = seed ? strtoull(seed, NULL, 0) : 0x5ec7ea11d15c1053ULL;
	if (!rng_state)
		rng_state = 1;
	for (long i = 0; i < ROUNDS; i++) {
		size_t n = make(in, sizeof(in));
		unsigned flags = flagsets[i % 4];
		char *once = safe_text((const char *)in, n, flags);
		size_t olen = strlen(once);
		const char *why = safetext_violation(
			(const unsigned char *)once, olen, flags);
		char *twice = safe_text(once, olen, flags);

		if (!why && strcmp(once, twice))
			why = "sanitizing twice changes the text";
		if (why && bad++ < 5) {
			fprintf(stderr,
				"# string %ld (flags %u): %s; input: ", i,
				flags, why);
			dump(in, n);
		}
		free(twice);
		free(once);
	}
	assert_int_equal(bad, 0);
}

/* A few fixed cases that must hold whatever the random ones do. */
static void test_fixed(void **state)
{
	static const struct {
		const char *in;
		size_t len;
		const char *want;
	} t[] = {
		{ "\x1b[2J", 4, "^[[2J" },
		{ "\xe2\x80\xae", 3, "<U+202E>" },
		{ "\xc2\x9b", 2, "<U+009B>" },
		{ "a\0b", 3, "a^@b" },
		{ "\xff", 1, "\\xFF" },
		{ "\x7f", 1, "^?" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		char *s = safe_text(t[i].in, t[i].len, 0);
		assert_string_equal(s, t[i].want);
		free(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_million),
	};
	return cmocka_run_group_tests_name("safetext-random", tests, NULL,
					   NULL);
}
