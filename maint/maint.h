/*
 * maint: who must hear about a report, from the kernel's MAINTAINERS
 * file, computed exactly as the kernel's scripts/get_maintainer.pl does with
 * `--nogit --nogit-fallback` and its other defaults (roles, keywords,
 * .mailmap, de-duplication, "in file" addresses of .yaml bindings).
 *
 * A struct maint_db is loaded once (F:/X: patterns indexed by their literal
 * prefix, N:/K: regular expressions compiled with PCRE2 on first use, or
 * matched as text when they are plain text) and answers any number of
 * lookups; a new process maps it compiled from the officer's cache.  A lookup takes either files (paths
 * relative to the tree, like `get_maintainer.pl -f`) or the text of a patch
 * (like `get_maintainer.pl PATCH`) and returns people and lists in
 * get_maintainer.pl's order.  A db is not safe for concurrent lookups from
 * several threads (regexes are compiled lazily).
 *
 * A library of its own: it depends on util/ and PCRE2 only (PCRE2 appears
 * nowhere else), and core/ uses it.  A port of get_maintainer.pl v0.26
 * (Linux 6.1); each file names the Perl subs it follows.  Files:
 *   maint-int.h   what the files share: the db, the containers
 *   parse.c       loading MAINTAINERS: lines, sections
 *   image.c       the loaded file as one flat image: records, strings,
 *                 the pattern index, checked before use
 *   cache.c       the image compiled once into the officer's cache
 *   match.c       matching a file: F:/X: globs, N: and K: regexes (PCRE2),
 *                 its sections ranked by pattern depth
 *   patch.c       the files and keyword lines of a patch
 *   rank.c        the lookup: people and lists in get_maintainer.pl's
 *                 order, de-duplicated, mapped, merged
 *   format.c      addresses as get_maintainer.pl parses and prints them
 *   mailmap.c     the tree's .mailmap
 *   infile.c      "in file" addresses of .yaml files
 *   containers.c  a string map, vectors, an arena
 */
#ifndef SECTEAM_MAINT_H
#define SECTEAM_MAINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/util.h"

struct maint_db;

/* One line of get_maintainer.pl's output. */
struct maint_entry {
	char *name; /* "David S. Miller", unquoted; "" for lists */
	char *email; /* "davem@davemloft.net" */
	char *role; /* "maintainer", "reviewer", "supporter", "odd fixer",
			   "open list", "moderated list", "in file", ... */
	char *section; /* section name as get_maintainer.pl prints it
			   (cut to 50 bytes); "" for THE REST's lists and for
			   "in file" addresses */
	bool in_file; /* the address also appears in a .yaml file touched */
	bool is_list;
	bool is_catch_all; /* linux-kernel@vger, a section with F: *,
				     or the security contact */
	bool is_security_contact; /* from the SECURITY CONTACT section */
};

struct maint_result {
	struct maint_entry *v;
	size_t n;
};

/*
 * Loads the MAINTAINERS file at path; the directory holding it is the
 * tree (F: directories are tested there, its .mailmap is read).  Returns 0
 * and *out, or a negative code with err set (file unreadable).
 */
int maint_db_load(const char *path, struct maint_db **out, struct err *err);
/*
 * As maint_db_load, through the compiled copy of this MAINTAINERS in the
 * officer's cache (cache.c), made or made again when missing, stale or
 * refused.  A cache file that is there but not used (another user's, or
 * corrupt) is said in *warn (when not NULL) and the file parsed as
 * without a cache; without a cache folder it is parsed.
 */
int maint_db_load_cached(const char *path, struct maint_db **out,
			 struct err *warn, struct err *err);
void maint_db_free(struct maint_db *db);
/* Number of sections (for tests and diagnostics). */
size_t maint_db_sections(const struct maint_db *db);

/*
 * Looks up files (relative to tree, "dir/" for directories) or, when
 * patch_text is not NULL, the files and keywords of a patch (files is then
 * ignored).  tree is where file contents are read for K: keywords and
 * .yaml addresses (NULL: the db's own directory).  Fills *out (release with
 * maint_result_release) and returns 0; negative with err set when a N:/K:
 * regex of MAINTAINERS does not compile.  Files absent from the tree are
 * matched by name only.
 */
int maint_lookup(const struct maint_db *db, const char *tree,
		 const char *const *files, size_t nfiles,
		 const char *patch_text, struct maint_result *out,
		 struct err *err);
void maint_result_release(struct maint_result *res);

/*
 * The files get_maintainer.pl takes from a patch: the names of `diff --git`,
 * `---`/`+++`, `rename from/to` and ` mode change` lines, sorted and
 * unique (so "dev/null" for added files, as it does).  Returns the count;
 * *files (caller frees each and the array) may be NULL when 0.
 */
size_t maint_patch_files(const char *patch_text, char ***files);

/*
 * Writes e as get_maintainer.pl prints it by default:
 * `"Name" <email> (role:SECTION)`, names quoted when they hold characters
 * other than letters, digits, '_', ' ' and '-'.  Returns a new string
 * (not yet made safe for a terminal).
 */
char *maint_entry_format(const struct maint_entry *e);

#endif
