/*
 * ktree: a kernel git tree, read for `fix --tree` and kernel.git.
 *
 * The tree is read through libgit2, which parses the object database
 * and the refs itself and starts no program: nothing the tree's config,
 * hooks, attributes, promisor remotes or alternates name can run (git
 * itself would lazy-fetch through a promisor remote's uploadpack, or
 * run gpg.program under log.showSignature).  A commit the tree lacks is
 * simply not found.  The officer's own and the system's git config are
 * not read either, so a tree reads the same for every officer; and
 * since nothing runs, a tree another user owns is read as any file is.
 */
#ifndef SECTEAM_CORE_KTREE_H
#define SECTEAM_CORE_KTREE_H

#include <stddef.h>

#include "util/util.h"

struct ktree;

/* Opens the git repository at dir (its top or its .git; a bare one
 * too).  0, or ERR_NOTFOUND naming dir when it is no git tree. */
int ktree_open(const char *dir, struct ktree **out, struct err *err);
void ktree_free(struct ktree *t);

/* The full SHA of commit `rev` (7 to 40 hex digits, validated by the
 * caller) into *full (caller frees); ERR_NOTFOUND naming it when the
 * tree has no such commit or the prefix is ambiguous. */
int ktree_commit(struct ktree *t, const char *rev, char **full,
		 struct err *err);

/* The subject of commit sha (full): its message's first paragraph as
 * one line (git's summary), as the tree gives it; NULL when the tree
 * has no such commit (caller frees). */
char *ktree_commit_subject(struct ktree *t, const char *sha);

/* Commit sha (full) as a patch, as `git format-patch -1` writes it
 * (From line, headers, message, diff), into *patch (caller frees, *len
 * bytes, NUL-terminated).  ERR_NOTFOUND naming it when the tree has no
 * such commit, ERR_IO when it cannot be written. */
int ktree_format_patch(struct ktree *t, const char *sha, char **patch,
		       size_t *len, struct err *err);

/* The files commit sha (full) changes against its parent (every file of
 * a root commit, none of a merge), as the tree names them, into *files
 * (NULL-terminated, the caller's, each string too).  ERR_NOTFOUND naming
 * it when the tree has no such commit, ERR_IO when it cannot be read. */
int ktree_commit_files(struct ktree *t, const char *sha, char ***files,
		       size_t *n, struct err *err);

/* The first tag in version order (v1.1-rc1 < v1.1 < v1.1.1 < v1.10)
 * whose commit holds sha (full), or NULL (caller frees). */
char *ktree_first_tag(struct ktree *t, const char *sha);

/* 0 when branch names a branch or other ref of the tree (a short name
 * resolves as git does: refs/heads/, refs/remotes/, refs/tags/);
 * ERR_INVALID for a name that is no plain ref name, ERR_NOTFOUND. */
int ktree_check_branch(struct ktree *t, const char *branch, struct err *err);

/* The commits of branch, not in sha's history, whose message names sha
 * as stable backports and cherry-picks do: "commit SHA upstream.", "[
 * Upstream commit SHA ]" or "(cherry picked from commit SHA)" (a
 * "Fixes:" line names what a commit repairs, not what it copies); *out
 * is the caller's (each and the array).  0 or negative. */
int ktree_backports(struct ktree *t, const char *branch, const char *sha,
		    char ***out, size_t *n, struct err *err);

/* 1 when branch's tip is commit sha (full) or descends from it, 0 when
 * not, -1 when branch or sha is not in the tree. */
int ktree_holds(struct ktree *t, const char *branch, const char *sha);

/* The release series X.Y of a stable branch: from its name
 * ("linux-6.1.y" gives "6.1"), else from the newest release tag it
 * holds; NULL when neither tells (caller frees). */
char *ktree_branch_series(struct ktree *t, const char *branch);

/* Version order of tag names, -rc before its release (for tests). */
int ktree_version_cmp(const char *a, const char *b);

#endif
