/*
 * The display sanitizer's contract, written out independently of
 * util/safetext.c (it does not call safe_is_hostile_cp), for the fuzz
 * target and the million-string test: output is valid UTF-8 with no C0
 * control (but tab and newline when kept), no DEL, no C1 control, no ESC,
 * and no bidi, zero-width or tag character.
 */
#ifndef SECTEAM_SAFETEXT_ORACLE_H
#define SECTEAM_SAFETEXT_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

static int safetext_forbidden(uint32_t cp, unsigned flags)
{
	if (cp == '\n')
		return !(flags & SAFE_KEEP_NEWLINE);
	if (cp == '\t')
		return !(flags & SAFE_KEEP_TAB);
	if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f))
		return 1;
	return cp == 0x061c || cp == 0x200e || cp == 0x200f || cp == 0xfeff ||
		(cp >= 0x200b && cp <= 0x200d) ||
		(cp >= 0x202a && cp <= 0x202e) ||
		(cp >= 0x2060 && cp <= 0x2069) || cp == 0x2028 ||
		cp == 0x2029 || (cp >= 0xe0000 && cp <= 0xe007f);
}

/* NULL when s[0..n) keeps the contract, else what is wrong. */
static const char *safetext_violation(const unsigned char *s, size_t n,
				      unsigned flags)
{
	size_t i = 0;

	while (i < n) {
		uint32_t cp;
		size_t len, k;

		if (s[i] < 0x80) {
			cp = s[i];
			len = 1;
		} else if (s[i] >= 0xc2 && s[i] <= 0xdf) {
			cp = s[i] & 0x1f;
			len = 2;
		} else if (s[i] >= 0xe0 && s[i] <= 0xef) {
			cp = s[i] & 0x0f;
			len = 3;
		} else if (s[i] >= 0xf0 && s[i] <= 0xf4) {
			cp = s[i] & 0x07;
			len = 4;
		} else {
			return "invalid UTF-8 lead byte";
		}
		if (n - i < len)
			return "truncated UTF-8 sequence";
		for (k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return "bad UTF-8 continuation byte";
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
		    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return "overlong or out-of-range UTF-8";
		if (safetext_forbidden(cp, flags))
			return "a control, bidi or zero-width character";
		i += len;
	}
	return NULL;
}

#endif
