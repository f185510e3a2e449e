/*
 * The verdict of each message as the officer's keyring judges it now
 * (verdicts.c).  The record keeps what the importing officer's keyring
 * said; every display and every rule that reads a verdict (the list's
 * mark, show and --json, whose files are the report's, the public
 * texts) reads this one instead: verified again when the keyring has
 * changed for the signing key, kept in the officer's own cache between
 * runs.
 */
#ifndef SECTEAM_CORE_VERDICTS_H
#define SECTEAM_CORE_VERDICTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/report.h"
#include "core/session.h"

/* One message's verdict now. */
struct verdict_now {
	int64_t report_id, message_id;
	enum sig_verdict verdict;
	bool signer_matches_from;
	char *fingerprint; /* the first signature's key, or NULL */
	enum sig_verdict was; /* what the record says (verdicts_verify) */
};
void verdict_now_free(struct verdict_now *v, size_t n);

/*
 * The verdicts now of the messages of reports ids (the first of each
 * alone when first_only), by report then message; force verifies every
 * one again whatever the cache says.  A message that cannot be opened is
 * an error verdict (never cached).  0 with *out the caller's
 * (verdict_now_free), or negative with err.
 */
int verdicts_of(struct session *sess, const int64_t *ids, size_t n,
		bool first_only, bool force, struct verdict_now **out,
		size_t *nout, struct err *err);
/*
 * `verify`: every message of report id (0: of every report) verified
 * again now, whatever the cache says, each with the verdict the record
 * keeps (was).  0 with *out the caller's, or negative with err
 * (ERR_NOTFOUND naming a report that does not exist).
 */
int verdicts_verify(struct session *sess, int64_t id, struct verdict_now **out,
		    size_t *nout, struct err *err);
/* The reports' verdict and signer-matches-From (their first message's)
 * set to the verdicts now.  On an error they are left as they were and
 * the error is returned. */
int verdicts_apply_reports(struct session *sess, struct report *r, size_t n,
			   struct err *err);
/*
 * rf's messages' verdicts, signer-matches-From and fingerprints set to
 * the verdicts now (force: verified again), the report's from its first
 * message's, and rf->files made again when whose files count
 * (report_files_count) changed with them.  0, or negative with err.
 */
int verdicts_apply_full(struct session *sess, struct report_full *rf,
			bool force, struct err *err);

#endif
