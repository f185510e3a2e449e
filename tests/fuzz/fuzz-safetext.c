/*
 * fuzz-safetext: the display sanitizer, safe_text(), with each flag set.
 * Its output must be valid UTF-8 holding no C0 control (but tab and newline
 * when kept), no DEL, no C1 control, no ESC, no bidi or zero-width control,
 * and sanitizing it again must change nothing.  The list of forbidden code
 * points is written out here, not taken from safe_is_hostile_cp().
 *
 * sources: util
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int forbidden(uint32_t cp, unsigned flags)
{
	if (cp == '\n')
		return !(flags & SAFE_KEEP_NEWLINE);
	if (cp == '\t')
		return !(flags & SAFE_KEEP_TAB);
	if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f))
		return 1;
	if (cp == 0x061c || cp == 0x200e || cp == 0x200f || cp == 0xfeff ||
	    (cp >= 0x200b && cp <= 0x200d) ||
	    (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2060 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029)
		return 1;
	return 0;
}

/* Strict UTF-8 check of s[0..n) with the forbidden code points. */
static void check(const char *str, size_t n, unsigned flags)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	while (i < n) {
		uint32_t cp;
		size_t len;
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
			abort();
		}
		if (n - i < len)
			abort();
		for (size_t k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				abort();
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
		    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			abort();
		if (forbidden(cp, flags))
			abort();
		i += len;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned all[] = {
		0, SAFE_KEEP_NEWLINE, SAFE_KEEP_TAB,
		SAFE_KEEP_NEWLINE | SAFE_KEEP_TAB,
	};
	/* An exact-size copy without a terminating NUL: len is authoritative. */
	char *in = malloc(size ? size : 1);

	if (!in)
		return 0;
	memcpy(in, data, size);
	for (size_t f = 0; f < sizeof(all) / sizeof(all[0]); f++) {
		char *once = safe_text(in, size, all[f]);
		size_t n = strlen(once);
		check(once, n, all[f]);
		char *twice = safe_text(once, n, all[f]);
		if (strcmp(once, twice) != 0)
			abort();
		free(twice);
		free(once);
	}
	free(in);
	return 0;
}
