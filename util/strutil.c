/* Small string helpers that libc lacks. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util.h"

bool str_starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool str_ends(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && memcmp(s + a - b, suffix, b) == 0;
}

bool fpr_same_key(const char *a, const char *b)
{
	size_t la, lb;

	if (!a || !b || !*a || !*b)
		return false;
	la = strlen(a);
	lb = strlen(b);
	if (la == lb)
		return !strcasecmp(a, b);
	if (la > lb)
		return lb >= 16 && !strcasecmp(a + la - lb, b);
	return la >= 16 && !strcasecmp(a, b + lb - la);
}

char *str_trim(char *s)
{
	char *e;

	while (*s && isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

char *str_lower(char *s)
{
	for (char *p = s; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return s;
}

int str_cmp_ci(const char *a, const char *b)
{
	for (;; a++, b++) {
		int ca = tolower((unsigned char)*a),
		    cb = tolower((unsigned char)*b);
		if (ca != cb || !ca)
			return ca - cb;
	}
}

static const char b64[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char *base64_encode(const void *data, size_t len)
{
	const unsigned char *p = data;
	char *out = xmalloc((len + 2) / 3 * 4 + 1), *o = out;

	for (size_t i = 0; i < len; i += 3) {
		unsigned v = (unsigned)p[i] << 16;
		if (i + 1 < len)
			v |= (unsigned)p[i + 1] << 8;
		if (i + 2 < len)
			v |= p[i + 2];
		*o++ = b64[v >> 18 & 63];
		*o++ = b64[v >> 12 & 63];
		*o++ = i + 1 < len ? b64[v >> 6 & 63] : '=';
		*o++ = i + 2 < len ? b64[v & 63] : '=';
	}
	*o = '\0';
	return out;
}

/* One more than each byte's value in base64's alphabet, 0 outside it:
 * a table, as opening a sealed field decodes one (a list opens 100k). */
static const unsigned char b64_values[256] = {
	['A'] = 1,  ['B'] = 2,	['C'] = 3,  ['D'] = 4,	['E'] = 5,  ['F'] = 6,
	['G'] = 7,  ['H'] = 8,	['I'] = 9,  ['J'] = 10, ['K'] = 11, ['L'] = 12,
	['M'] = 13, ['N'] = 14, ['O'] = 15, ['P'] = 16, ['Q'] = 17, ['R'] = 18,
	['S'] = 19, ['T'] = 20, ['U'] = 21, ['V'] = 22, ['W'] = 23, ['X'] = 24,
	['Y'] = 25, ['Z'] = 26, ['a'] = 27, ['b'] = 28, ['c'] = 29, ['d'] = 30,
	['e'] = 31, ['f'] = 32, ['g'] = 33, ['h'] = 34, ['i'] = 35, ['j'] = 36,
	['k'] = 37, ['l'] = 38, ['m'] = 39, ['n'] = 40, ['o'] = 41, ['p'] = 42,
	['q'] = 43, ['r'] = 44, ['s'] = 45, ['t'] = 46, ['u'] = 47, ['v'] = 48,
	['w'] = 49, ['x'] = 50, ['y'] = 51, ['z'] = 52, ['0'] = 53, ['1'] = 54,
	['2'] = 55, ['3'] = 56, ['4'] = 57, ['5'] = 58, ['6'] = 59, ['7'] = 60,
	['8'] = 61, ['9'] = 62, ['+'] = 63, ['/'] = 64,
};

static int b64_value(char ch)
{
	return b64_values[(unsigned char)ch] - 1;
}

/* The bytes of the last group of four, which may end with padding
 * ('=', as -2): into o, returning how many, or -1 when it is no group. */
static int b64_last_group(const char *g, unsigned char *o)
{
	int a = b64_value(g[0]), b = b64_value(g[1]);
	int c = g[2] == '=' ? -2 : b64_value(g[2]);
	int d = g[3] == '=' ? -2 : b64_value(g[3]);

	if (a < 0 || b < 0 || c == -1 || d == -1 || (c == -2 && d != -2))
		return -1;
	o[0] = (unsigned char)(a << 2 | b >> 4);
	if (c < 0)
		return 1;
	o[1] = (unsigned char)((b & 15) << 4 | c >> 2);
	if (d < 0)
		return 2;
	o[2] = (unsigned char)((c & 3) << 6 | d);
	return 3;
}

/* The n bytes of s (n a multiple of 4) decoded into o, which has room
 * for n / 4 * 3: how many, or -1 when s is no base64. */
static long b64_decode_into(const char *s, size_t n, unsigned char *o)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t k = 0, i;
	int got;

	/* Every group before the last has no padding: four lookups, one
	 * test (a byte outside the alphabet is 0 in the table, -1 here,
	 * which no value of 6 bits is). */
	for (i = 0; i + 4 < n; i += 4) {
		unsigned a = b64_values[u[i]] - 1u,
			 b = b64_values[u[i + 1]] - 1u;
		unsigned c = b64_values[u[i + 2]] - 1u,
			 d = b64_values[u[i + 3]] - 1u;

		if ((a | b | c | d) > 63)
			return -1;
		o[k++] = (unsigned char)(a << 2 | b >> 4);
		o[k++] = (unsigned char)((b & 15) << 4 | c >> 2);
		o[k++] = (unsigned char)((c & 3) << 6 | d);
	}
	if (n) {
		if ((got = b64_last_group(s + i, o + k)) < 0)
			return -1;
		k += (size_t)got;
	}
	return (long)k;
}

int base64_decode(const char *s, unsigned char **out, size_t *outlen)
{
	size_t n = strlen(s);
	unsigned char *o;
	long k;

	*out = NULL;
	*outlen = 0;
	if (n % 4)
		return -1;
	o = xmalloc(n / 4 * 3 + 1);
	if ((k = b64_decode_into(s, n, o)) < 0) {
		free(o);
		return -1;
	}
	*out = o;
	*outlen = (size_t)k;
	return 0;
}

int base64_decode_buf(const char *s, unsigned char *buf, size_t cap,
		      size_t *outlen)
{
	size_t n = strlen(s);
	long k;

	*outlen = 0;
	if (n % 4)
		return -1;
	if (n / 4 * 3 > cap)
		return 1;
	if ((k = b64_decode_into(s, n, buf)) < 0)
		return -1;
	*outlen = (size_t)k;
	return 0;
}
