/*
 * Importing mail (import.c): one message, or batches of them, parsed,
 * decrypted, verified, sealed and stored.
 */
#ifndef SECTEAM_CORE_IMPORT_H
#define SECTEAM_CORE_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/session.h"
#include "store/types.h"
#include "util/util.h"

enum import_status { IMPORT_NEW, IMPORT_REPLY, IMPORT_DUPLICATE, IMPORT_ERROR };

struct import_result {
	enum import_status status;
	int64_t report_id;
	enum sig_verdict verdict; /* SIG_NONE for a duplicate */
	char *subject; /* sanitized for display */
	char *error; /* for IMPORT_ERROR */
};
void import_result_release(struct import_result *r);

/*
 * Importing one message, in two halves so a mailbox import keeps several
 * gpg processes busy.  import_start copies raw (unless told not to: then
 * raw must stay valid until import_finish), parses it and, unless it is
 * already stored, starts its decryption in the background; it never
 * fails.  import_finish waits for that decryption, verifies, seals and
 * stores the message, and frees p; messages are finished in the order
 * they were started.  It returns 0 with *res filled (status may be
 * IMPORT_ERROR for a bad message: nothing stored), negative only when the
 * store itself fails.  import_pending_free drops a message never
 * finished, waiting for and wiping its decryption.  At most
 * CRYPTO_JOBS_MAX messages decrypt at once; more are decrypted in line.
 */
struct import_pending;
struct import_pending *import_start(struct session *sess, const char *raw,
				    size_t len, bool copy);
int import_finish(struct session *sess, struct import_pending *p,
		  struct import_result *res, struct err *err);
/* The half of import_finish that needs no store lock: waits for the
 * decryption, verifies and seals (never fails: a bad message is kept to
 * be reported by import_finish).  A batch prepares its messages first
 * and then holds the store only for the writes, so no colleague's
 * command waits behind the cryptography. */
void import_prepare(struct session *sess, struct import_pending *p);
void import_pending_free(struct import_pending *p);
/* import_start (a copy of raw) for mail this program sent about report
 * report_id: it joins that report whatever its References say. */
struct import_pending *import_start_into(struct session *sess, const char *raw,
					 size_t len, int64_t report_id);

/*
 * Batches: many messages in one transaction (one fsync), each message a
 * savepoint so a bad one undoes only itself.  Nothing of a batch is
 * durable before import_batch_commit, so callers report a message as
 * imported only after the commit that holds it.
 */
int import_batch_begin(struct session *sess, struct err *err);
int import_batch_commit(struct session *sess, struct err *err);
void import_batch_abort(struct session *sess);

/*
 * Importing many inputs (import-run.c): each path a message file, an
 * mbox (a file starting with "From "), a Maildir or a folder of message
 * files (no symbolic link inside followed), or "-" for standard input.
 * Messages are read ahead, decrypted several at once and committed in
 * batches; each message's line is handed to h->line only once the
 * commit holding it succeeded, in the order the messages were read.
 */
#define IMPORT_JOBS_MAX 8
#define IMPORT_JOBS_DEFAULT 4
#define IMPORT_PROGRESS_DELAY 0.5 /* seconds before any progress shows */

struct import_opts {
	int mode; /* 'm': mboxes, 'd': Maildirs, 0: by what each is */
	size_t jobs; /* messages decrypting at once, 1..IMPORT_JOBS_MAX */
	double progress_delay; /* seconds before h->progress is first called */
};
/* One message's (or input's) outcome; display-safe strings, valid during
 * the call. */
struct import_line {
	enum import_status status;
	int64_t report_id; /* NEW, REPLY, DUPLICATE */
	enum sig_verdict verdict; /* NEW, REPLY */
	const char *subject; /* NEW, REPLY, DUPLICATE */
	const char *input; /* ERROR: the file, "MBOX:N", or "(batch of N
				 * messages)" */
	const char *error; /* ERROR: why */
};
enum import_progress {
	IMPORT_PROGRESS_UPDATE,
	IMPORT_PROGRESS_CLEAR,
	IMPORT_PROGRESS_DONE,
};
struct import_hooks {
	void (*line)(const struct import_line *l, void *data);
	/* NULL: no progress.  frac: the share done, negative when unknown
	 * (standard input); CLEAR before lines are handed over. */
	void (*progress)(enum import_progress ev, size_t done, double frac,
			 double seconds, void *data);
	void *data;
};
struct import_totals {
	size_t nnew, nreply, ndup, failed;
	size_t lost; /* read but not stored when the store failed */
	char first_error[512]; /* "INPUT: REASON" of the first error line */
};
/* Imports paths[0..n) into *t.  0 when the store held (some inputs may
 * have failed: t->failed, each with its line); negative, with err saying
 * "import stopped: ...", when the store failed: t->lost messages read
 * were not stored. */
int import_inputs(struct session *sess, const struct import_opts *o,
		  char *const *paths, int n, const struct import_hooks *h,
		  struct import_totals *t, struct err *err);

#endif
