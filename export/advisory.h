/*
 * What the advisory exports (cve, osv, csaf, and the timelines'
 * advisory section) share (advisory.c): the gate, the addresses of
 * commits and trees, affected version ranges, credit and description.
 */
#ifndef SECTEAM_EXPORT_ADVISORY_H
#define SECTEAM_EXPORT_ADVISORY_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "core/affected.h"
#include "core/fixcve.h"

struct dossier;
/* dossier_refuse_unreleased for each of the n reports: ERR_REFUSED
 * naming the first still under embargo, rejected, a duplicate or closed
 * undisclosed; 0 when every one may have its public record. */
int advisory_refuse_unreleased(struct dossier *const *d, size_t n,
			       const char *what, struct err *err);
/* The address of a commit: config cve.commit_url (default the kernel's
 * https://git.kernel.org/stable/c/) followed by sha (caller frees). */
char *advisory_commit_url(struct session *sess, const char *sha);
/* The tree's address for records: config cve.repo, else Linus's tree. */
const char *advisory_repo(struct session *sess);
/* The advisory's address: config cve.reference_url (when it ends in '/',
 * the CVE ID, or report-N with cve_id NULL, is appended), else the
 * kernel's security-bugs page (caller frees). */
char *advisory_reference_url(struct session *sess, int64_t report_id,
			     const char *cve_id);
/* The tree's address for records that name a stable backport: config
 * cve.stable_repo, else the kernel's stable tree (it holds the mainline
 * commits too).  advisory_git_repo gives it when fc has a backport, else
 * advisory_repo. */
const char *advisory_stable_repo(struct session *sess);
const char *advisory_git_repo(struct session *sess, const struct fixcve *fc);
/* The reporter to credit, display-safe, only with credit consent: their
 * name, else their address; NULL otherwise (caller frees). */
char *advisory_credit(const struct dossier *d);
/* The title every record gives (CVE title, OSV summary, CSAF
 * vulnerability title): the first fix commit's subject, as the kernel
 * CNA titles its records, else the report's subject; display-safe, at
 * most 256 bytes (caller frees). */
char *advisory_title(const struct dossier *d, const struct fixcve *fc);
/* The description: the officer's (`cve --description`), redacted, else
 * the subject as one line (caller frees). */
char *advisory_description(const struct dossier *d, const struct fixcve *fc);
/* The CVSS 3.1 object of the FIRST schema (version, vectorString, the
 * base metrics by name, baseScore, baseSeverity) of the vector `cve
 * --cvss` recorded, as the CVE record's cvssV3_1 and CSAF's cvss_v3
 * carry it; NULL without one. */
struct json_t *advisory_cvss(const struct fixcve *fc);
/* The rationale of that score, redacted as the description (caller
 * frees); NULL without one. */
char *advisory_cvss_rationale(const struct dossier *d, const struct fixcve *fc);

#endif
