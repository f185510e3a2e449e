/*
 * Making untrusted text safe for a terminal.
 *
 * Subjects, names, bodies, file names and diffs are written by strangers.
 * Before any of it is drawn or printed it passes through safe_text(), which
 * decodes UTF-8 strictly and replaces everything a terminal would act on,
 * or that would make text look other than it is, by a visible escape:
 *   C0 controls and ESC   ^@ .. ^_   (tab and newline kept on request)
 *   DEL                   ^?
 *   C1 controls           <U+0080> .. <U+009F>  (U+009B is a CSI)
 *   bidi controls         <U+202E> and friends
 *   zero-width and tags   <U+200B>, <U+FEFF>, <U+E0041> ...
 *   bytes not UTF-8       \xNN
 * The output is pure printable text, so sanitizing twice changes nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

bool safe_is_hostile_cp(uint32_t cp)
{
	if (cp < 0x20 || cp == 0x7f)
		return true;
	if (cp >= 0x80 && cp <= 0x9f)
		return true;
	switch (cp) {
	case 0x00ad: /* soft hyphen: invisible */
	case 0x034f: /* combining grapheme joiner */
	case 0x061c: /* arabic letter mark */
	case 0x115f:
	case 0x1160: /* hangul fillers */
	case 0x17b4:
	case 0x17b5:
	case 0x180e: /* mongolian vowel separator */
	case 0x2028:
	case 0x2029: /* line and paragraph separators */
	case 0x3164:
	case 0xffa0: /* hangul fillers */
	case 0xfeff: /* zero-width no-break space, BOM */
	case 0xfffe:
	case 0xffff:
		return true;
	}
	if (cp >= 0x200b && cp <= 0x200f) /* zero-width, LRM, RLM */
		return true;
	if (cp >= 0x202a && cp <= 0x202e) /* embeddings and overrides */
		return true;
	if (cp >= 0x2060 && cp <= 0x206f) /* word joiner, isolates, ... */
		return true;
	if (cp >= 0xfff9 && cp <= 0xfffb) /* interlinear annotation */
		return true;
	if (cp >= 0xe0000 && cp <= 0xe007f) /* tags */
		return true;
	if (cp >= 0xd800 && cp <= 0xdfff)
		return true;
	return false;
}

/* Decodes one UTF-8 sequence; returns its length, or 0 if invalid. */
size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	uint32_t c;
	size_t len, i;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	} else if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/* What stands in sb for the character cp, len bytes at s (len 0: the
 * byte at s does not decode); returns how many bytes it used. */
typedef size_t (*utf8_put)(struct sbuf *sb, const unsigned char *s, size_t len,
			   uint32_t cp, unsigned flags);

/* The n bytes at str, character by character through put. */
static char *utf8_map(const char *str, size_t n, utf8_put put, unsigned flags)
{
	const unsigned char *s = (const unsigned char *)str;
	struct sbuf sb = SBUF_INIT;
	size_t i = 0;
	uint32_t cp;

	sbuf_grow(&sb, n);
	while (i < n) {
		size_t len = utf8_decode(s + i, n - i, &cp);
		i += put(&sb, s + i, len, cp, flags);
	}
	return sbuf_detach(&sb, NULL);
}

static size_t safe_put(struct sbuf *sb, const unsigned char *s, size_t len,
		       uint32_t cp, unsigned flags)
{
	if (!len) {
		sbuf_addf(sb, "\\x%02X", s[0]);
		return 1;
	}
	if ((cp == '\n' && (flags & SAFE_KEEP_NEWLINE)) ||
	    (cp == '\t' && (flags & SAFE_KEEP_TAB)) ||
	    !safe_is_hostile_cp(cp)) {
		sbuf_add(sb, s, len);
	} else if (cp < 0x20) {
		sbuf_addch(sb, '^');
		sbuf_addch(sb, (int)(cp + 0x40));
	} else if (cp == 0x7f) {
		sbuf_adds(sb, "^?");
	} else {
		sbuf_addf(sb, "<U+%04X>", (unsigned)cp);
	}
	return len;
}

char *safe_text(const char *str, size_t n, unsigned flags)
{
	return utf8_map(str, n, safe_put, flags);
}

char *safe_str(const char *s)
{
	return s ? safe_text(s, strlen(s), 0) : xstrdup("");
}

/* A byte that does not decode becomes U+FFFD; NUL is dropped. */
static size_t fix_put(struct sbuf *sb, const unsigned char *s, size_t len,
		      uint32_t cp, unsigned flags)
{
	(void)flags;
	if (!len || cp == 0) {
		sbuf_adds(sb, len ? "" : "\xEF\xBF\xBD");
		return len ? len : 1;
	}
	sbuf_add(sb, s, len);
	return len;
}

char *safe_vformat(const char *fmt, va_list ap)
{
	char *raw = xvasprintf(fmt, ap), *safe = safe_str(raw);

	free(raw);
	return safe;
}

char *utf8_fix(const char *str, size_t n)
{
	return utf8_map(str, n, fix_put, 0);
}
