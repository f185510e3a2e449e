/*
 * A report's dossier (disclosure.c): everything known about its date,
 * for commands, show --json and exports; the gate of every public text;
 * redaction of the reporter's identity without their consent.
 */
#ifndef SECTEAM_CORE_DISCLOSURE_H
#define SECTEAM_CORE_DISCLOSURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/session.h"
#include "core/report.h"
#include "core/policy.h"
#include "core/embargo.h"
#include "store/types.h"
#include "util/util.h"

struct json_t;
struct needles;

struct dossier {
	struct report_full f;
	struct report_vendor *vendors;
	size_t nvendors;
	struct proposal *proposals;
	size_t nproposals;
	struct decision *decisions;
	size_t ndecisions;
	struct policy pol;
	struct policy_answer ans; /* the current date (or none) checked now */
	struct embargo emb; /* the embargo state now (embargo.c) */
	time_t now;
	int64_t original; /* for a duplicate (f.duplicate_of): the
				   * report whose record covers it, at the
				   * end of the links (triage_original);
				   * else 0 */
	struct needles *redact; /* what names the reporter (disclosure.c),
				   * made by dossier_load; NULL: made on each
				   * dossier_redact call */
};
/* Loads report id with its vendors, proposals and decisions; negative
 * with err set (ERR_NOTFOUND for no such report).  Release in any case. */
int dossier_load(struct session *sess, int64_t id, struct dossier *d,
		 struct err *err);
void dossier_release(struct dossier *d);
/* The "disclosure" object of show --json (minimal object on error). */
struct json_t *disclosure_json(struct session *sess,
			       const struct report_full *rf);
/* True while the report is under embargo (embargo_active): not
 * disclosed, closed or public, whether its deadline passed or not. */
bool dossier_embargoed(const struct dossier *d);
/* When the report became public: the time of its move to disclosed (an
 * early one too), else of its "already public" mark; 0 while it is not.
 * Public records and the announcement carry this, never a decided date
 * that may still be ahead. */
time_t dossier_released_at(const struct dossier *d);
/* The one gate of every public text (CVE, OSV, CSAF, dyad, announce):
 * 0 for a report disclosed or already public; ERR_REFUSED naming the
 * report and `what` for one under embargo, rejected, a duplicate (naming
 * the original whose record to export instead), or closed without
 * disclosure. */
int dossier_refuse_unreleased(const struct dossier *d, const char *what,
			      struct err *err);

/* Redaction, for exports, forwards and notices --------------------------*/
/* Redaction (disclosure.c): a copy of text with the reporter's identity
 * replaced by "[reporter]", "[reporter's domain]", "[reporter's message]"
 * or "[reporter's key]" unless the reporter consented to credit: the
 * names, addresses (local part and domain too), Message-IDs (and their
 * hosts) and signing keys of the reporter's messages, which are the
 * first one's sender and every message sharing an address or a signing
 * key with them.  Never fails. */
char *dossier_redact(const struct dossier *d, const char *text);
/* True when m (one of d's messages) is the reporter's, as above. */
bool dossier_from_reporter(const struct dossier *d, const struct message *m);
/* The reporter as "Name <email>" when credit consent is recorded, else
 * NULL (caller frees). */
char *dossier_reporter(const struct dossier *d);
/* dossier_redact() then safe_str(): one line of display-safe text (caller
 * frees); NULL gives "". */
char *dossier_text(const struct dossier *d, const char *text);
/*
 * The report's files as the public texts name them (distros, announce,
 * CVE, OSV, CSAF): those the fixes change when `fix --tree` recorded them
 * (fixcve.h), else those the reporter's signed text touches
 * (report_reporter_signed: never an unsigned or a third party's reply);
 * only plausible paths (touched_path_plausible), each through
 * dossier_text (redacted, display-safe), distinct, in first-seen order.
 * A message that cannot be opened adds none.  *files is the caller's,
 * NULL-terminated (each string too); returns how many.  Never fails.
 */
size_t dossier_public_files(struct session *sess, const struct dossier *d,
			    char ***files);

#endif
