/*
 * clock-shim: the tests' clock.  The program reads the real clock only
 * (util_now is time(NULL)); the end-to-end tests pin "now" by preloading
 * this library (tests/lib/e2e.sh sets LD_PRELOAD) with SECTEAM_TEST_NOW
 * set to an RFC 3339 UTC time (2026-12-02T12:00:00Z).  It answers time()
 * for the secteam-tui process alone: gpg, jq or python, started by the
 * tests or by secteam-tui with the same environment, keep the real
 * clock.  Unset or unreadable, it answers the real time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int pinned(time_t *out)
{
	const char *e = getenv("SECTEAM_TEST_NOW");
	struct tm tm;
	char z = 0;

	if (!e || strcmp(program_invocation_short_name, "secteam-tui"))
		return 0;
	memset(&tm, 0, sizeof(tm));
	if (sscanf(e, "%4d-%2d-%2dT%2d:%2d:%2d%c", &tm.tm_year, &tm.tm_mon,
		   &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &z) != 7 ||
	    z != 'Z')
		return 0;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	*out = timegm(&tm);
	return *out != (time_t)-1;
}

time_t time(time_t *t)
{
	struct timespec ts;
	time_t now;

	if (!pinned(&now)) {
		clock_gettime(CLOCK_REALTIME, &ts);
		now = ts.tv_sec;
	}
	if (t)
		*t = now;
	return now;
}
