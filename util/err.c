/*
 * struct err carries one complete message from where a failure is
 * detected to the one place that shows it (main.c or tui/).  Lower layers
 * never print.
 */
#include <stdio.h>
#include <string.h>

#include "util.h"

static int err_vset(struct err *err, int code, const char *fmt, va_list ap)
{
	if (err) {
		err->code = code;
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	}
	return code;
}

int err_setc(struct err *err, int code, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = err_vset(err, code, fmt, ap);
	va_end(ap);
	return r;
}

int err_prefix(struct err *err, const char *fmt, ...)
{
	char old[sizeof(err->msg)];
	char pre[sizeof(err->msg)];
	va_list ap;

	if (!err)
		return ERR_GENERIC;
	memcpy(old, err->msg, sizeof(old));
	va_start(ap, fmt);
	vsnprintf(pre, sizeof(pre), fmt, ap);
	va_end(ap);
	size_t n = strlen(pre);
	if (n > sizeof(err->msg) - 3)
		n = sizeof(err->msg) - 3;
	memcpy(err->msg, pre, n);
	memcpy(err->msg + n, ": ", 2);
	memcpy(err->msg + n + 2, old, sizeof(err->msg) - n - 2);
	err->msg[sizeof(err->msg) - 1] = '\0';
	return err->code ? err->code : ERR_GENERIC;
}

void err_clear(struct err *err)
{
	if (err) {
		err->code = 0;
		err->msg[0] = '\0';
	}
}
