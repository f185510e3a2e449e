/*
 * touched: which source files a vulnerability report is about.
 *
 * Reads diff headers ("diff --git a/X b/Y", "--- a/X", "+++ b/Y") and
 * kernel-style paths in running text (net/ipv4/tcp_input.c, MAINTAINERS)
 * and returns them normalized, de-duplicated, in first-seen order.  The
 * paths are untrusted text for display and lookups (MAINTAINERS); they are
 * never opened.  A library of its own: it depends on util/ only, and
 * core/ (the import pipeline) uses it.  Files:
 *   touched.c   diff headers and kernel paths in running text, normalized
 */
#ifndef SECTEAM_TOUCHED_H
#define SECTEAM_TOUCHED_H

#include <stdbool.h>
#include <stddef.h>

/* Longest path kept; longer ones are dropped. */
#define TOUCHED_MAX_PATH 4096
/* At most this many distinct paths are returned. */
#define TOUCHED_MAX_PATHS 10000

/*
 * Returns the number of paths found in text[0..len) and sets *paths to a
 * NULL-terminated array of them (caller frees each and the array; the
 * array is allocated even when none is found).  Paths holding a ".."
 * component, control characters, or more than TOUCHED_MAX_PATH bytes are
 * dropped; "./" and repeated slashes are collapsed; "/dev/null" is ignored;
 * a leading '/' is stripped only from a kernel path.  Cannot fail.
 */
size_t touched_files(const char *text, size_t len, char ***paths);

/*
 * True when path could be a file of a source tree: made only of the
 * characters a path in running text is (letters, digits and . _ / - + ,
 * @ ~), so no blank, colon, quote or URL.  Diff headers are taken as
 * they are by touched_files; a text that goes out checks them with this.
 */
bool touched_path_plausible(const char *path);

#endif
