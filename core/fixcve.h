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
 *                   rest of the line, display-safe, last); the report's
 *                   fix from now on: it replaces every earlier fix (with
 *                   their introduced and backport events), as it always
 *                   did, so a database written when a report had one
 *                   fix folds the same
 *   fix-add         the same detail: one more fix (a fix in another
 *                   subsystem, a follow-up); a fix of the same SHA is
 *                   replaced where it stands (checked again in a tree).
 *                   `fix --add` writes "fix" when the report has none yet
 *   fix-drop        "commit=SHA": that fix is no longer the report's
 *   fix-introduced  "commit=SHA tag=TAG tree=..." a commit that brought
 *                   the bug in, of the fix or fix-add just before it
 *   fix-introduced  with "branch=B upstream=SHA" after the rest: a copy
 *                   on stable branch B of the introducing commit SHA
 *                   ("commit SHA upstream.", a cherry-pick), where the
 *                   bug entered that branch
 *   fix-backport    "commit=SHA tag=TAG branch=B upstream=SHA" a stable
 *                   backport of the fix named upstream (else of the one
 *                   just before it) found in the tree
 *   fix-branch      "branch=B series=X.Y upstream=SHA intro=0|1 fix=0|1"
 *                   a stable branch searched for the fix named upstream:
 *                   its release series, and whether the release it forked
 *                   from already held an introducing commit (intro=1)
 *                   and the fix (fix=1); a branch with neither the bug
 *                   nor a copy of its introducing commit never had it
 *   cve-assign      "CVE-YYYY-NNNN" the ID the CNA reserved for us: the
 *                   report's only ID, replacing earlier ones (as it
 *                   always did); written for a report's first ID
 *   cve-add         "CVE-YYYY-NNNN [fixes=SHA:SHA...]" one more ID (a
 *                   second bug fixed by the same commits, ...), or again
 *                   an ID already there: its fixes are those named (a
 *                   rejected one is reserved again)
 *   cve-drop        "CVE-YYYY-NNNN" an ID recorded by mistake: gone (a
 *                   rejected ID stays, as REJECTED)
 *   cve-reject      the reason the ID was rejected: the newest ID's (a
 *                   report had one when this was all there was)
 *   cve-reject-id   "CVE-YYYY-NNNN REASON": that ID rejected
 *   cve-description the description for the record (the officer's text)
 *   cve-cwe         "CWE-NNN"
 *   cve-cvss        "CVSS:3.1/AV:.../A:X RATIONALE": the CVSS 3.1 base
 *                   vector (cvss.h, in the specification's order) and,
 *                   after one space, why it was scored so (the CVE
 *                   record's scenario); "none": no score any more
 *   cve-publish     "CVE-..." a PUBLISHED record of that ID was written
 * A CVE ID covers the fixes its cve-add names (SHAs, or prefixes, of the
 * report's fixes; a dropped one no longer counts), and every fix of the
 * report when it names none (cve-assign never does); the description,
 * the CWE and the CVSS vector are the report's, shared by its IDs.
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
	char *sha; /* hex, full when checked in a tree */
	char *tag; /* first tag containing it, or NULL */
	char *branch; /* backports: the stable branch */
	char *upstream; /* backports: the mainline fix it carries */
	char **files; /* the fix: the files it changes, as the tree
			  * gave them at `fix --tree` (NULL-terminated;
			  * none when unchecked or not recorded) */
	size_t nfiles;
	char *subject; /* the fix: its commit's subject, as the tree gave
			  * it at `fix --tree` (NULL: unchecked, or
			  * recorded before subjects were) */
};

/* A stable branch searched for a fix (its fix-branch event). */
struct fix_branch {
	char *branch;
	char *series; /* "6.1", or NULL when the tree did not tell */
	bool intro_in; /* its fork held an introducing commit */
	bool fix_in; /* its fork held the fix */
};

/* One fix commit of a report, and what the tree told of it. */
struct fix_entry {
	struct fix_commit fix;
	bool tree_checked;
	struct fix_commit *introduced;
	size_t nintroduced;
	struct fix_commit *backports;
	size_t nbackports;
	struct fix_branch *branches; /* the stable branches searched (none
				      * recorded before they were: then
				      * each backport's branch, its fork
				      * holding the bug, is assumed) */
	size_t nbranches;
};

/* One CVE ID of a report. */
struct cve_entry {
	char *id;
	const char *state; /* "reserved", "published", "rejected" */
	char *reject_reason;
	char **fixes; /* the fixes' SHAs it names; none: every fix */
	size_t nfixes;
};

struct fixcve {
	struct fix_entry *fixes; /* in the order they were first recorded */
	size_t nfixes;
	struct cve_entry *cves; /* in the order they were assigned */
	size_t ncves;
	char *description;
	char *cwe;
	char *cvss; /* the CVSS 3.1 vector (a cve-cvss event that does
		     * not parse counts as none), or NULL */
	char *cvss_rationale; /* why, with cvss */
};

/* The fix and CVE state told by a report's events (oldest first). */
void fixcve_fold(const struct event *ev, size_t n, struct fixcve *fc);
void fixcve_release(struct fixcve *fc);
/* Adds to o "fixes": [{commit, tag, introduced[], backports[],
 * tree_checked}...] and "cves": [{id, state, reason, fixes[]}...] (fixes
 * the commits the ID covers), and as before "fix" (the first fix, or
 * null) and "cve" {id, state, reason (the first ID's), cwe,
 * description} (or null), and "cvss" {vector, score, severity,
 * rationale} (or null). */
void fixcve_add_json(struct json_t *o, const struct fixcve *fc);
/* fc's "cvss" object: {vector, score ("9.8"), severity, rationale}, or
 * JSON null without one. */
struct json_t *fixcve_cvss_json(const struct fixcve *fc);
/* The CVSS a report's events (oldest first) record, as show and the UI
 * give it: "7.8 (HIGH) CVSS:3.1/AV:L/...: RATIONALE" (caller frees; the
 * rationale was checked to be one line of plain text), or NULL. */
char *cvss_events_format(const struct event *ev, size_t n);
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
/* The list's FIX/CVE cell: each fix's "TAG|SHA12", ","-separated, or
 * "-", then "/" and each "CVE-...:STATE", ","-separated, or "-" (caller
 * frees; tags and IDs are validated text).  fc may be NULL. */
char *fixcve_label(const struct fixcve *fc);
/* Whether CVE c covers the fix whose SHA is sha (it names it, or none). */
bool fixcve_covers(const struct cve_entry *c, const char *sha);
/* A copy of fc (fixcve_release it) with only the fixes CVE c covers and
 * c as its only ID; with c NULL every fix and every ID. */
void fixcve_view(const struct fixcve *fc, const struct cve_entry *c,
		 struct fixcve *view);
/* The ID id of fc, or NULL. */
const struct cve_entry *fixcve_cve(const struct fixcve *fc, const char *id);
/* Report id's recorded fixes as "SHA (TAG)", ", "-separated, for mail
 * (NULL: none) and, when cve is not NULL, in *cve its CVE IDs but the
 * rejected ones, ", "-separated (NULL: none); the caller frees both. */
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

enum fix_how {
	FIX_SET, /* the report's fix: replaces every earlier one ("fix") */
	FIX_ADD, /* one more fix ("fix-add"), or this one checked again */
	FIX_DROP, /* commit no longer a fix of the report ("fix-drop") */
};

struct fix_request {
	int64_t id;
	enum fix_how how;
	const char *commit;
	const char *const *introduced;
	size_t nintroduced;
	const char *tree; /* NULL: recorded unchecked */
	const char *const *stable; /* branches searched for backports */
	size_t nstable;
};
/*
 * Records a report's fix.  With a tree every SHA must name a commit there
 * (ERR_NOTFOUND naming it) and gets its first tag; backports are looked
 * for on the stable branches (ERR_NOTFOUND naming a missing branch).
 * Nothing is written unless all is well.  FIX_DROP takes commit alone
 * (a SHA or prefix naming one recorded fix: ERR_NOTFOUND naming it
 * when none does, ERR_INVALID when several do).  *summary (caller frees)
 * says what was recorded.
 */
int fix_record(struct session *sess, const struct fix_request *rq,
	       char **summary, struct err *err);

enum cve_action {
	CVE_ASSIGN,
	CVE_REJECT,
	CVE_DESCRIBE,
	CVE_CWE,
	CVE_PUBLISH,
	CVE_DROP,
	CVE_CVSS,
};
struct cve_request {
	int64_t id;
	enum cve_action a;
	const char *value; /* the ID (assign, drop), the reason (reject),
			     * the description, the CWE; publish: the ID,
			     * NULL for the only reserved one; cvss: the
			     * vector (NULL: the score is taken back) */
	const char *cve; /* reject: the ID (NULL: the report's only
			     * live one) */
	const char *const *fixes; /* assign: the fixes the ID covers (SHAs or
				   * prefixes of recorded fixes) */
	size_t nfixes;
	const char *rationale; /* cvss: why (one line of printable text) */
};
/* Records one CVE change as its event, after checking it fits the
 * current state (ERR_REFUSED naming the report: the ID already there, no
 * such ID to reject or drop, several to choose from, ...; ERR_NOTFOUND
 * naming a fix the report does not have; ERR_INVALID naming a CVSS
 * vector that does not parse, or a rationale missing or not one line
 * of text). */
int cve_request_record(struct session *sess, const struct cve_request *rq,
		       struct err *err);
/* cve_request_record of {id, a, value}. */
int cve_record(struct session *sess, int64_t id, enum cve_action a,
	       const char *value, struct err *err);

#endif
