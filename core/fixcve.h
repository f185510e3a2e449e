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

struct cmd_ctx;
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
int fixcve_all(struct cmd_ctx *ctx, struct fixcve_row **out, size_t *n,
	       struct err *err);
/* One report's fix and CVE state (fixcve_release it); 0 or negative. */
int fixcve_get(struct cmd_ctx *ctx, int64_t report_id, struct fixcve *fc,
	       struct err *err);
/* The states of a page of reports (the ids distinct) in one read: out[i]
 * is ids[i]'s (fixcve_release each); 0, or negative with out empty. */
int fixcve_page(struct cmd_ctx *ctx, const int64_t *ids, size_t n,
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
char *fixcve_fix_text(struct cmd_ctx *ctx, int64_t id, char **cve);
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
int fix_record(struct cmd_ctx *ctx, const struct fix_request *rq,
	       char **summary, struct err *err);

enum cve_action { CVE_ASSIGN, CVE_REJECT, CVE_DESCRIBE, CVE_CWE, CVE_PUBLISH };
/* Records one CVE change of report id as its event, after checking it
 * fits the current state (ERR_REFUSED: no ID to reject, one already
 * assigned, ...). */
int cve_record(struct cmd_ctx *ctx, int64_t id, enum cve_action a,
	       const char *value, struct err *err);

/* advisory.c: what the advisory exports share ------------------------*/
struct dossier;
/* dossier_refuse_unreleased for each of the n reports: ERR_REFUSED
 * naming the first still under embargo, rejected, a duplicate or closed
 * undisclosed; 0 when every one may have its public record. */
int advisory_refuse_unreleased(struct dossier *const *d, size_t n,
			      const char *what, struct err *err);
/* The address of a commit: config cve.commit_url (default the kernel's
 * https://git.kernel.org/stable/c/) followed by sha (caller frees). */
char *advisory_commit_url(struct cmd_ctx *ctx, const char *sha);
/* The tree's address for records: config cve.repo, else Linus's tree. */
const char *advisory_repo(struct cmd_ctx *ctx);
/* The advisory's address: config cve.reference_url (when it ends in '/',
 * the CVE ID, or report-N with cve_id NULL, is appended), else the
 * kernel's security-bugs page (caller frees). */
char *advisory_reference_url(struct cmd_ctx *ctx, int64_t report_id,
			     const char *cve_id);
/* The tree's address for records that name a stable backport: config
 * cve.stable_repo, else the kernel's stable tree (it holds the mainline
 * commits too).  advisory_git_repo gives it when fc has a backport, else
 * advisory_repo. */
const char *advisory_stable_repo(struct cmd_ctx *ctx);
const char *advisory_git_repo(struct cmd_ctx *ctx, const struct fixcve *fc);
/* A version as a release: "1.2-rc3" gives "1.2" (caller frees). */
char *advisory_release(const char *version);
/*
 * The versions the bug is in, from the tags of fc's commits, as
 * half-open ranges [introduced, fixed) in version order (ktree's: an -rc
 * before its release): from the first introducing version ("0" when
 * none is known) to the fix's; a stable series a backport fixes leaves
 * the range at the backport's version, and the range starts again at
 * the next series' first -rc ("a.b" is followed by "a.(b+1)", or by
 * the fix's series when that is "(a+1).0").  fixed is NULL for a range
 * with no end (a fix without a tag).  None without a fix.  Returns how
 * many; free with advisory_ranges_free.
 */
struct advisory_range {
	char *introduced;
	char *fixed;
	const struct fix_commit *by; /* the commit whose version ends it */
};
size_t advisory_ranges(const struct fixcve *fc, struct advisory_range **out);
void advisory_ranges_free(struct advisory_range *r, size_t n);

/* The reporter to credit, display-safe, only with credit consent: their
 * name, else their address; NULL otherwise (caller frees). */
char *advisory_credit(const struct dossier *d);
/* The description: the officer's (`cve --description`), redacted, else
 * the subject as one line (caller frees). */
char *advisory_description(const struct dossier *d, const struct fixcve *fc);

#endif
