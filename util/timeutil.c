/*
 * Time.  Everything stored is UTC seconds.  The DATE syntax officers type
 * (2026-12-09, 2026-12-09T12:00Z, +7d, now) is parsed here; a bare date
 * means 12:00 UTC on that day so it is the same calendar day in every
 * timezone from UTC-11 to UTC+11.  The clock is the real one
 * (the tests pin it from outside: tests/lib/clock-shim.c).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

char *fmt_rfc3339(time_t t, char buf[static 32])
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

char *fmt_local(time_t t, char buf[static 64])
{
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, 64, "%Y-%m-%d %H:%M %Z", &tm);
	return buf;
}

static bool is_leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int days_in_month(int y, int m)
{
	static const int d[] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};

	return m == 2 && is_leap(y) ? 29 : d[m - 1];
}

int parse_duration(const char *s, long *seconds, struct err *err)
{
	char *end;
	long sign = 1, n, unit;

	if (*s == '+' || *s == '-')
		sign = *s++ == '-' ? -1 : 1;
	if (!isdigit((unsigned char)*s))
		goto bad;
	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || n > 100000)
		goto bad;
	if (!strcmp(end, "d"))
		unit = 86400;
	else if (!strcmp(end, "h"))
		unit = 3600;
	else if (!strcmp(end, "w"))
		unit = 7 * 86400;
	else if (!strcmp(end, "m"))
		unit = 60;
	else
		goto bad;
	*seconds = sign * n * unit;
	return 0;
bad:
	return err_setc(err, ERR_INVALID,
			"invalid duration '%s' (expected e.g. 7d, 36h, 2w)", s);
}

time_t util_now(void)
{
	return time(NULL);
}

long days_between(time_t a, time_t b)
{
	long d = (long)(b - a);

	return d >= 0 ? d / 86400 : -((-d + 86399) / 86400);
}

const char *fmt_in_days(long days, char buf[static 32])
{
	if (days <= 0)
		snprintf(buf, 32, "within a day");
	else
		snprintf(buf, 32, "in %ld day%s", days, days == 1 ? "" : "s");
	return buf;
}

const char *const date_forms[] = {
	"2026-12-09 (noon UTC)",
	"2026-12-09T12:00Z or 2026-12-09T12:00:00Z (UTC)",
	"'2026-12-09 12:00' (UTC)",
	"+7d, +36h, -2d (from now)",
	"now",
	NULL,
};

int parse_date(const char *s, time_t now, time_t *out, struct err *err)
{
	struct tm tm;
	int y, mo, d, h = 12, mi = 0, sec = 0, consumed = 0;
	const char *rest;

	if (!strcmp(s, "now")) {
		*out = now;
		return 0;
	}
	if (*s == '+' || *s == '-') {
		long secs;
		if (parse_duration(s, &secs, NULL) < 0)
			goto bad;
		*out = now + secs;
		return 0;
	}
	if (sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &consumed) != 3 ||
	    consumed != 10)
		goto bad;
	rest = s + 10;
	if (*rest == 'T' || *rest == 't' || *rest == ' ') {
		int n = 0;
		rest++;
		if (sscanf(rest, "%2d:%2d%n", &h, &mi, &n) != 2 || n != 5)
			goto bad;
		rest += 5;
		if (*rest == ':') {
			if (sscanf(rest + 1, "%2d%n", &sec, &n) != 1 || n != 2)
				goto bad;
			rest += 3;
		}
		if (*rest == 'Z' || *rest == 'z')
			rest++;
		else if (!strcmp(rest, "+00:00"))
			rest += 6;
	}
	if (*rest)
		goto bad;
	if (y < 1970 || y > 9999 || mo < 1 || mo > 12 || d < 1 ||
	    d > days_in_month(y, mo) || h > 23 || mi > 59 || sec > 60)
		goto bad;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	*out = timegm(&tm);
	return 0;
bad:
	return err_setc(
		err, ERR_INVALID,
		"invalid date '%s' (expected 2026-12-09, 2026-12-09T12:00Z, +7d or now)",
		s);
}
