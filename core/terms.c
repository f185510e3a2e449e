/*
 * Terms filters (terms.h).  Layout: "T1", k (the number of bits set per
 * trigram), log2 of the number of bits, then the bits.  The size grows
 * with the text, four bits a trigram, between 1,024 and 262,144 bits, so
 * a word of a few trigrams is turned away by a message that lacks it all
 * but always (about 15% a trigram at four bits each and k = 3, so 0.05%
 * for a word of four trigrams).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/terms.h"
#include "util/util.h"

#define HEAD 4
#define K 3
#define MIN_LOG 10
#define MAX_LOG 18

/* Two hashes of a trigram (FNV-1a, 64 bits, split), for k probes. */
static void hash3(const unsigned char *p, uint32_t *h1, uint32_t *h2)
{
	uint64_t h = 14695981039346656037ULL;

	for (int i = 0; i < 3; i++) {
		h ^= p[i];
		h *= 1099511628211ULL;
	}
	h ^= h >> 29;
	*h1 = (uint32_t)h;
	*h2 = (uint32_t)(h >> 32) | 1;
}

unsigned char *terms_filter(const char *text, size_t len, size_t *n)
{
	const unsigned char *t = (const unsigned char *)text;
	unsigned lg = MIN_LOG;
	size_t bits;
	unsigned char *f;

	while (lg < MAX_LOG && ((size_t)1 << lg) < 4 * len)
		lg++;
	bits = (size_t)1 << lg;
	*n = HEAD + bits / 8;
	f = xcalloc(1, *n);
	f[0] = 'T';
	f[1] = '1';
	f[2] = K;
	f[3] = (unsigned char)lg;
	for (size_t i = 0; i + 3 <= len; i++) {
		uint32_t h1, h2;

		hash3(t + i, &h1, &h2);
		for (uint32_t k = 0; k < K; k++) {
			size_t b = (h1 + k * h2) & (bits - 1);
			f[HEAD + b / 8] |= (unsigned char)(1u << (b % 8));
		}
	}
	return f;
}

bool terms_may_hold(const unsigned char *f, size_t n, const char *needle)
{
	const unsigned char *w = (const unsigned char *)needle;
	size_t len = strlen(needle), bits;

	if (n < HEAD || f[0] != 'T' || f[1] != '1' || !f[2] || f[3] < MIN_LOG ||
	    f[3] > MAX_LOG || n != HEAD + ((size_t)1 << f[3]) / 8)
		return true;
	bits = (size_t)1 << f[3];
	for (size_t i = 0; i + 3 <= len; i++) {
		uint32_t h1, h2;

		hash3(w + i, &h1, &h2);
		for (uint32_t k = 0; k < f[2]; k++) {
			size_t b = (h1 + k * h2) & (bits - 1);
			if (!(f[HEAD + b / 8] & (1u << (b % 8))))
				return false;
		}
	}
	return true;
}
