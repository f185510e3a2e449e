/*
 * fuzz-date: the DATE and duration syntax officers type, parse_date() and
 * parse_duration(), on a NUL-terminated copy of the input.  A success must
 * format back to RFC 3339 and leave no error; a failure must explain itself.
 *
 * sources: util
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	struct err err = { 0, "" };
	char buf[32];
	time_t t = 0;
	long secs = 0;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	/* A fixed "now" (2026-12-09T12:00:00Z) and the extremes. */
	if (parse_date(s, 1796817600, &t, &err) == 0)
		fmt_rfc3339(t, buf);
	else if (!err.msg[0])
		abort();
	err_clear(&err);
	if (parse_date(s, 0, &t, &err) < 0 && !err.msg[0])
		abort();
	err_clear(&err);
	if (parse_duration(s, &secs, &err) < 0 && !err.msg[0])
		abort();
	err_clear(&err);
	free(safe_str(err.msg));
	free(s);
	return 0;
}
