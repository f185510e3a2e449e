/*
 * Allocation that never fails from the caller's point of view: on
 * exhaustion the process stops with a message (git's xmalloc).  Callers
 * therefore never check for NULL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void (*before_die)(void);

void die_hook(void (*fn)(void))
{
	before_die = fn;
}

void die(const char *fmt, ...)
{
	void (*hook)(void) = before_die;
	va_list ap;

	before_die = NULL; /* a die() inside it prints, then ends */
	if (hook)
		hook();
	fputs("secteam-tui: fatal: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(128);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory allocating %zu bytes", n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		die("out of memory allocating %zu x %zu bytes", nmemb, size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		die("out of memory reallocating %zu bytes", n);
	return q;
}

char *xstrdup(const char *s)
{
	return xmemdup(s, strlen(s) + 1);
}

char *xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = xmalloc(len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void *xmemdup(const void *p, size_t n)
{
	void *q = xmalloc(n);

	memcpy(q, p, n);
	return q;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	va_list cp;
	int n;
	char *s;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		die("invalid format string '%s'", fmt);
	s = xmalloc((size_t)n + 1);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}
