/*
 * The versions a report's bug is in (affected.c), read from what the
 * tree told of its commits (fixcve.h): what the public records
 * (export/) and the mail that announces them (outgoing/) say is
 * affected.
 *
 * The truth they all give: a version is affected when it holds an
 * introducing commit (or a stable copy of one) and not every fix (each
 * as itself or as its stable copy).  History is read per line of
 * development: mainline, and each stable branch searched.  On a line,
 * the bug enters at the release its introducing commit (or the copy on
 * that branch) is first in, or, for a stable branch whose fork already
 * held it, with the branch; it leaves at the release the fix (or the
 * backport on that branch) is first in.  A stable branch with neither
 * the bug in its fork nor a copy of an introducing commit never had it.
 */
#ifndef SECTEAM_AFFECTED_H
#define SECTEAM_AFFECTED_H

#include <stdbool.h>
#include <stddef.h>

#include "core/fixcve.h"

/* A version as a release: "1.2-rc3" gives "1.2" (caller frees). */
char *version_release(const char *version);
/* Whether v is a stable release ("1.2.3"), not mainline ("1.2",
 * "1.2-rc1"). */
bool version_stable(const char *v);
/* The series of v: "1.2.3" and "1.2-rc1" give "1.2" (caller frees). */
char *version_series(const char *v);

/* One line of development of one fix: mainline or a stable branch. */
struct affected_line {
	const char *branch; /* the stable branch; NULL: mainline */
	const char *series; /* its "X.Y"; NULL: mainline or not known */
	const struct fix_commit *in; /* the commit the bug entered the line
				      * with (a stable branch whose fork
				      * held it: the mainline one); NULL
				      * when no introducing commit is known */
	const char *in_version; /* the release it is first in on this line
				 * ("0": from the start, no introducing
				 * commit known; NULL: in no release yet);
				 * inherited, the mainline one's */
	bool inherited; /* a stable branch whose fork held the bug */
	const struct fix_commit *out; /* the fix on this line, NULL: none */
	const char *out_version; /* the release it is first in; NULL: none
				  * yet (or no fix on the line) */
};
/* The lines fix f of fc has the bug on (mainline first, then each stable
 * branch searched that had it, in the order searched); *out is the
 * caller's (free it), its strings fc's.  Returns how many. */
size_t affected_lines(const struct fixcve *fc, const struct fix_entry *f,
		      struct affected_line **out);

enum vstatus { VS_NOT_AFFECTED, VS_AFFECTED, VS_FIXED };
/* The status of version v (a tag's version, "1.2-rc1", "1.2.3") under
 * every fix of fc: affected when a fix leaves it affected, else fixed
 * when one fixes it, else not affected (it never had the bug).  A
 * stable release of a series no branch searched is read as its series'
 * mainline release. */
enum vstatus affected_status(const struct fixcve *fc, const char *v);

/* The version line cut in spans of one status: [from, to), from "0" the
 * start, to NULL no end; together they hold every version, each span of
 * a stable series searched within it.  Returns how many (none when the
 * versions are not known); free with affected_spans_free. */
struct affected_span {
	char *from;
	char *to;
	enum vstatus status;
};
size_t affected_spans(const struct fixcve *fc, struct affected_span **out);
void affected_spans_free(struct affected_span *s, size_t n);

/* Whether fc has a fix and every fix was read in a tree (a fix without
 * a tag then is in no release yet): the versions are known. */
bool affected_versions_known(const struct fixcve *fc);

/* The affected spans as one line for mail: "1.0 up to (not including)
 * 1.0.1, 1.1-rc1 up to (not including) 1.2-rc1" (caller frees); NULL
 * when the versions are not known. */
char *affected_text(const struct fixcve *fc);

#endif
