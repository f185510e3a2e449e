/*
 * The wire helpers the signed events' canonical codecs share
 * (teamevent.c, reportevent.c): big-endian integers written and read,
 * a bounded reader, and the checks both make of a fingerprint and a
 * string.  Static inline: each codec (and each fuzz target that builds
 * one alone) takes them with its header.
 */
#ifndef SECTEAM_WIRE_H
#define SECTEAM_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

/* An OpenPGP fingerprint as the events write it: 40 upper-case hex
 * digits. */
static inline bool wire_fpr_ok(const char *p, size_t n)
{
	if (n != 40)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((p[i] >= '0' && p[i] <= '9') ||
		      (p[i] >= 'A' && p[i] <= 'F')))
			return false;
	return true;
}

/* 1 to max bytes of printable ASCII. */
static inline bool wire_str_ok(const char *p, size_t n, size_t max)
{
	if (n < 1 || n > max)
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)p[i] < 0x20 || (unsigned char)p[i] > 0x7e)
			return false;
	return true;
}

static inline void put_u32(struct sbuf *b, uint32_t v)
{
	char p[4] = { (char)(v >> 24), (char)(v >> 16), (char)(v >> 8),
		      (char)v };
	sbuf_add(b, p, 4);
}

static inline void put_u64(struct sbuf *b, uint64_t v)
{
	put_u32(b, (uint32_t)(v >> 32));
	put_u32(b, (uint32_t)v);
}

/* What is left to read of an encoding. */
struct rd {
	const unsigned char *p;
	size_t left;
};

static inline bool take(struct rd *r, size_t n, const unsigned char **out)
{
	if (r->left < n)
		return false;
	*out = r->p;
	r->p += n;
	r->left -= n;
	return true;
}

static inline bool get_u32(struct rd *r, uint32_t *v)
{
	const unsigned char *p;

	if (!take(r, 4, &p))
		return false;
	*v = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
		p[3];
	return true;
}

static inline bool get_u64(struct rd *r, uint64_t *v)
{
	uint32_t hi, lo;

	if (!get_u32(r, &hi) || !get_u32(r, &lo))
		return false;
	*v = (uint64_t)hi << 32 | lo;
	return true;
}

#endif
