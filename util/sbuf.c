/*
 * A growable buffer (git's strbuf, reduced).  The contents are always
 * NUL-terminated so they can be used as a C string when they hold text.
 * sbuf_wipe() is for buffers that held plaintext of a report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void sbuf_init(struct sbuf *sb)
{
	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
}

void sbuf_grow(struct sbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (need < sb->len)
		die("buffer size overflow");
	if (need <= sb->alloc)
		return;
	size_t n = sb->alloc ? sb->alloc : 64;
	while (n < need)
		n = n < ((size_t)-1) / 2 ? n * 2 : need;
	sb->buf = xrealloc(sb->buf, n);
	sb->alloc = n;
	sb->buf[sb->len] = '\0';
}

void sbuf_add(struct sbuf *sb, const void *data, size_t n)
{
	sbuf_grow(sb, n);
	if (n)
		memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sbuf_adds(struct sbuf *sb, const char *s)
{
	sbuf_add(sb, s, strlen(s));
}

void sbuf_addch(struct sbuf *sb, int c)
{
	char ch = (char)c;

	sbuf_add(sb, &ch, 1);
}

void sbuf_vaddf(struct sbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		die("invalid format string '%s'", fmt);
	sbuf_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void sbuf_addf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void sbuf_reset(struct sbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

char *sbuf_detach(struct sbuf *sb, size_t *len)
{
	char *p;

	if (!sb->buf)
		sbuf_grow(sb, 0);
	p = sb->buf;
	if (len)
		*len = sb->len;
	sbuf_init(sb);
	return p;
}

void sbuf_release(struct sbuf *sb)
{
	free(sb->buf);
	sbuf_init(sb);
}

void sbuf_wipe(struct sbuf *sb)
{
	if (sb->buf)
		wipe(sb->buf, sb->alloc);
	sbuf_release(sb);
}
