/*
 * The versions a report's bug is in (affected.c), read from the tags of
 * its fix commits (fixcve.h): what the public records (export/) and the
 * mail that announces them (outgoing/) say is affected.
 */
#ifndef SECTEAM_AFFECTED_H
#define SECTEAM_AFFECTED_H

#include <stdbool.h>
#include <stddef.h>

#include "core/fixcve.h"

/* A version as a release: "1.2-rc3" gives "1.2" (caller frees). */
char *version_release(const char *version);
/*
 * The versions the bug is in, from the tags of fc's commits, as
 * half-open ranges [introduced, fixed) in version order (ktree's: an -rc
 * before its release).  The rule, the kernel CNA's: a version is fixed
 * when it holds every fix commit of fc (each as itself or as a stable
 * backport), so a fix and its follow-up leave a version affected until
 * both are in.  So each fix gives its own ranges and a version is
 * affected when any range holds it (duplicates left out): from the
 * bug's first version (the earliest introducing commit any fix names,
 * "0" when none is known) to the fix's; a stable series a backport
 * fixes leaves the range at the backport's version, and the range
 * starts again at the next series' first -rc ("a.b" is followed by
 * "a.(b+1)", or by the fix's series when that is "(a+1).0").  fixed is
 * NULL for a range with no end (a fix without a tag).  None without a
 * fix.  Returns how many; free with affected_ranges_free.
 */
struct affected_range {
	char *introduced;
	char *fixed;
	const struct fix_commit *by; /* the commit whose version ends it */
};
size_t affected_ranges(const struct fixcve *fc, struct affected_range **out);
void affected_ranges_free(struct affected_range *r, size_t n);
/* Whether fc has a fix and every fix a tag: the versions are known. */
bool affected_versions_known(const struct fixcve *fc);
/* Whether version v is in one of the n ranges r. */
bool affected_in_ranges(const struct affected_range *r, size_t n, const char *v);

/* The ranges as one line for mail: "1.0 up to (not including) 1.0.2,
 * 1.1-rc1 up to (not including) 1.2-rc1" (caller frees); NULL when
 * there are none (no fix). */
char *affected_text(const struct fixcve *fc);

#endif
