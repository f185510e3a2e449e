/*
 * Fix tracking and the CVE lifecycle of a report (fixcve.c, ktree.c).
 *
 * Both are kept as events only (append-only, same on both engines):
 *   fix             "commit=SHA tag=TAG tree=checked|unchecked
 *                   [files=PATH:PATH...] [subject=TEXT]": the fixing
 *                   commit and, checked
 *                   in a tree, the files it changes (plausible paths
 *                   only, touched_path_plausible; at most
 *                   FIX_FILES_MAX, else none) and its subject (the
 *                   rest of the line, display-safe, last); starts a new fix
 *                   (earlier introduced and backport events no longer
 *                   count)
 *   fix-introduced  "commit=SHA tag=TAG tree=..." a commit that brought
 *                   the bug in
 *   fix-backport    "commit=SHA tag=TAG branch=B upstream=SHA" a stable
 *                   backport of the fix found in the tree
 *   cve-assign      "CVE-YYYY-NNNN" the ID the CNA reserved for us
 *   cve-reject      the reason the ID was rejected
 *   cve-description the description for the record (the officer's text)
 *   cve-cwe         "CWE-NNN"
 *   cve-publish     "CVE-..." a PUBLISHED record was written
 * TAG is the first tag containing the commit, or "-" (none, or no tree).
 * The state of a report is the fold of its events (fixcve_fold).
 */
#ifndef SECTEAM_FIXCVE_H
#define SECTEAM_FIXCVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/types.h"
#include "util/util.h"

struct session;
struct json_t;

struct fix_commit {
	char *sha;       /* hex, full when checked in a tree */
	char *tag;       /* first tag containing it, or NULL */
	char *branch;    /* backports: the stable branch */
	char *upstream;  /* backports: the mainline fix it carries */
	char **files;    /* the fix: the files it changes, as the tree
			  * gave them at `fix --tree` (NULL-terminated;
			  * none when unchecked or not recorded) */
	size_t nfiles;
	char *subject;   /* the fix: its commit's subject, as the tree gave
			  * it at `fix --tree` (NULL: unchecked, or
			  * recorded before subjects were) */
};

struct fixcve {
	bool has_fix;
	bool tree_checked;
	struct fix_commit fix;
	struct fix_commit *introduced;
	size_t nintroduced;
	struct fix_commit *backports;
	size_t nbackports;
	char *cve_id;          /* NULL until assigned */
	const char *cve_state; /* NULL, "reserved", "published", "rejected" */
	char *reject_reason;
	char *description;
	char *cwe;
};

/* The fix and CVE state told by a report's events (oldest first). */
void fixcve_fold(const struct event *ev, size_t n, struct fixcve *fc);
void fixcve_release(struct fixcve *fc);
/* Adds "fix" {commit, tag, introduced[], backports[], tree_checked} (or
 * null) and "cve" {id, state, reason, cwe, description} (or null) to o. */
void fixcve_add_json(struct json_t *o, const struct fixcve *fc);
/* Every report's fix and CVE state, by report id (reports without fix
 * or CVE events left out); free with fixcve_rows_free. */
struct fixcve_row {
	int64_t report_id;
	struct fixcve fc;
};
int fixcve_all(struct session *sess, struct fixcve_row **out, size_t *n,
	       struct err *err);
/* One report's fix and CVE state (fixcve_release it); 0 or negative. */
int fixcve_get(struct session *sess, int64_t report_id, struct fixcve *fc,
	       struct err *err);
/* The states of a page of reports (the ids distinct) in one read: out[i]
 * is ids[i]'s (fixcve_release each); 0, or negative with out empty. */
int fixcve_page(struct session *sess, const int64_t *ids, size_t n,
		struct fixcve *out, struct err *err);
/* Report id's state in rows, or NULL. */
const struct fixcve *fixcve_find(const struct fixcve_row *rows, size_t n,
				 int64_t report_id);
void fixcve_rows_free(struct fixcve_row *rows, size_t n);
/* The list's FIX/CVE cell: "TAG|SHA12|-" "/" "CVE-...:STATE|-" (caller
 * frees; tags and IDs are validated text).  fc may be NULL. */
char *fixcve_label(const struct fixcve *fc);
/* Report id's recorded fix as "SHA (TAG)" for mail (NULL: none) and, when
 * cve is not NULL, in *cve its CVE ID unless rejected (NULL: none); the
 * caller frees both. */
char *fixcve_fix_text(struct session *sess, int64_t id, char **cve);
/* A tag as a version: "v1.1" gives "1.1" (points into tag). */
const char *fix_version(const char *tag);

/* A fix changing more files than this records none (a tree-wide change
 * names no file in particular). */
#define FIX_FILES_MAX 64

/* True for 7 to 40 hexadecimal digits. */
bool fix_sha_valid(const char *s);
/* True for CVE-YYYY-NNNN (4 to 19 digits). */
bool cve_id_valid(const char *s);
/* True for CWE-N. */
bool cwe_id_valid(const char *s);
/* The name the CWE catalogue (data/cwe-names.tsv) gives weakness id
 * ("CWE-787": "Out-of-bounds Write"), or NULL when id is no weakness
 * of the catalogue (a category, a view, a retired or unknown ID). */
const char *cwe_name(const char *id);

struct fix_request {
	int64_t id;
	const char *commit;
	const char *const *introduced;
	size_t nintroduced;
	const char *tree;             /* NULL: recorded unchecked */
	const char *const *stable;    /* branches searched for backports */
	size_t nstable;
};
/*
 * Records a report's fix.  With a tree every SHA must name a commit there
 * (ERR_NOTFOUND naming it) and gets its first tag; backports are looked
 * for on the stable branches (ERR_NOTFOUND naming a missing branch).
 * Nothing is written unless all is well.  *summary (caller frees) says
 * what was recorded.
 */
int fix_record(struct session *sess, const struct fix_request *rq,
	       char **summary, struct err *err);

enum cve_action { CVE_ASSIGN, CVE_REJECT, CVE_DESCRIBE, CVE_CWE, CVE_PUBLISH };
/* Records one CVE change of report id as its event, after checking it
 * fits the current state (ERR_REFUSED: no ID to reject, one already
 * assigned, ...). */
int cve_record(struct session *sess, int64_t id, enum cve_action a,
	       const char *value, struct err *err);

#endif
