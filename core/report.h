/*
 * A report and its messages (report.c): loading a report with its
 * thread, events and files; a stored message opened (decrypted and
 * verified again); whose text speaks for the reporter; core_write, the
 * one transaction every use case writes in.
 */
#ifndef SECTEAM_CORE_REPORT_H
#define SECTEAM_CORE_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/session.h"
#include "store/types.h"
#include "util/util.h"

struct report_chain;

struct report_full {
	struct report r;
	struct message *msgs; /* without blobs */
	size_t nmsgs;
	char **files;
	size_t nfiles;
	struct event *events;
	size_t nevents;
	/* Derived from the events (triage.h): the report this one
	 * duplicates (0: none recorded), and its own duplicates. */
	int64_t duplicate_of;
	int64_t *duplicates;
	size_t nduplicates;
	/* On a team server, the rows no verified event of the report's
	 * chain accounts for, which are not in the above: one line each
	 * ("report 7: message 12 has no signed import: not shown"). */
	char **hidden;
	size_t nhidden;
	/* On a team server, the report's chain as this client verified it
	 * (core/reportchain.h; NULL elsewhere, or where no report has one
	 * yet): what a reader of the report's other rows (its decisions,
	 * its proposals) checks them against (report_log_row_signed). */
	struct report_chain *chain;
};
/* Loads report id with its thread, files and events; the messages'
 * verdicts (and the report's) are those against the officer's keyring
 * now (verdicts.h), its files those they count. */
int report_load(struct session *sess, int64_t id, struct report_full *rf,
		struct err *err);
/* The reports' verdicts (their first message's) set to those against
 * the officer's keyring now; error when that cannot be read. */
void report_verdicts_now(struct session *sess, struct report *r, size_t n);
void report_full_release(struct report_full *rf);
/* Where rf->r.received comes from, for a "received" timeline line apart
 * from the "import" event (the time the team imported it): the first
 * message's Date header, else the import time.  Static text. */
const char *report_received_source(const struct report_full *rf);

/* Calls fn for each report matching f (NULL: all, by id); see store.h.
 * Order "deadline" is by embargo deadline (embargo.c: undated reports
 * at their policy default), earliest first, finished embargoes last. */
int report_each(struct session *sess, const struct report_filter *f,
		int (*fn)(const struct report *r, void *data), void *data,
		struct err *err);

/* dst becomes a copy of src with strings of its own (report_release
 * it). */
void report_copy(struct report *dst, const struct report *src);

/* The decrypted content of one stored message, in memory only. */
struct attachment_info {
	char *filename; /* untrusted */
	char *content_type;
	size_t size;
	bool exploit; /* looks like exploit code */
	bool unsigned_part; /* outside what the signature (or encryption)
				* covers: see struct opened_message */
	bool patch; /* a patch (attachment_is_patch) */
	unsigned char *data;
};
/* A From mailbox (sender.c shows it). */
struct sender {
	char *name; /* display name, untrusted; NULL when none */
	char *email; /* lowercase; NULL when none */
};
/* A byte range [start, end) of a text. */
struct text_span {
	size_t start, end;
};
struct opened_message {
	/* The verdict of this opening: verified again from the stored bytes
	 * (verified_now), or, for a message kept as its content, the one
	 * recorded at import.  Displays use this, never the stored row's
	 * alone. */
	enum sig_verdict verdict;
	bool signer_matches_from;
	bool verified_now;
	bool tampered; /* what the blob opens to is not what the
				* import verified (verdict SIG_TAMPERED) */
	char *body; /* untrusted UTF-8; wiped on release */
	size_t body_len;
	/* Ranges of body that what the verdict speaks of does not cover:
	 * text beside an inline-PGP block, parts beside a PGP/MIME entity.
	 * Displays mark these lines one by one (opened_message_lines); the
	 * text itself carries no marks, which a sender could forge. */
	struct text_span *unsigned_spans;
	size_t nunsigned;
	struct attachment_info *att;
	size_t natt;
	struct sender *from; /* every From mailbox of the message */
	size_t nfrom;
	/* The signing key's user ID the officer's keyring vouches for (full
	 * or ultimate validity; the one with From's address first), else its
	 * first user ID with signer_valid false; NULL when unsigned or the
	 * key is unknown.  Untrusted text.  Looked up in the keyring now. */
	char *signer;
	bool signer_valid;
	/* The first signature's key as this opening verified it (the
	 * primary's fingerprint), or NULL. */
	char *fingerprint;
	/* The files what the verdict speaks of covers. */
	char **files;
	size_t nfiles;
	/* Files only unsigned parts touch: not the report's files (import
	 * leaves them out), listed apart and marked.  report_open_thread
	 * adds every file of a message whose files are not the report's
	 * (report_files_count). */
	char **files_unsigned;
	size_t nfiles_unsigned;
};
/*
 * Decrypts and re-verifies stored message message_row.  Returns 0 with
 * *om filled (release it in any case), or negative with err naming the
 * message: the sealed copy cannot be decrypted, the message cannot be
 * parsed.
 */
int report_open_message(struct session *sess, int64_t message_row,
			struct opened_message *om, struct err *err);
void opened_message_release(struct opened_message *om);
/*
 * The trust class of a verdict, the one rule every display follows (the
 * list's mark, the report bar, show and --json): a valid signature
 * whose signer is not From's is a warning, not trusted.
 */
enum verdict_class report_trust_class(enum sig_verdict v,
				      bool signer_matches_from);
/* Its name in show and --json: "trusted", "warning", "bad". */
const char *report_trust_name(enum verdict_class c);
/*
 * True when m is the reporter's signed text: its verdict valid or good,
 * the signing key's user ID holding From's address, and that address the
 * report's reporter's.  Anyone who knows a Message-ID can reply into a
 * thread; only such a message speaks for the reporter.
 */
bool report_reporter_signed(const struct report *r, const struct message *m);
/*
 * True when the files message m touches are report r's: m is its first
 * message (the report itself, first true) or the reporter's signed text.
 * Import stores only those as the report's files; the files of other
 * replies (unsigned, or a third party's) are listed apart.
 */
bool report_files_count(const struct report *r, const struct message *m,
			bool first);
/* report_open_message for message i of rf, the files of a message whose
 * files are not the report's (report_files_count) moved to
 * files_unsigned. */
int report_open_thread(struct session *sess, const struct report_full *rf,
		       size_t i, struct opened_message *om, struct err *err);
/* One line of a body, without its '\n', pointing into the body. */
struct body_line {
	const char *s;
	size_t len;
	bool unsigned_text; /* inside one of the unsigned spans */
};
/* The lines of om->body, each flagged as above; returns how many
 * (*lines is the caller's to free, the text stays om's). */
size_t opened_message_lines(const struct opened_message *om,
			    struct body_line **lines);

/* Exploit code heuristics on a file name and type. */
bool attachment_is_exploit(const char *filename, const char *content_type);
/* A patch: named *.patch or *.diff (or typed text/x-patch, text/x-diff)
 * and holding a diff (a "+++ " or "diff --git " line), no NUL byte. */
bool attachment_is_patch(const char *filename, const char *content_type,
			 const unsigned char *data, size_t len);

/* Parses "42" or "#42" into an id; ERR_INVALID naming s otherwise. */
int parse_report_id(const char *s, int64_t *id, struct err *err);

/* Runs fn inside BEGIN IMMEDIATE ... COMMIT (rollback on failure). */
int core_write(struct session *sess,
	       int (*fn)(struct session *sess, void *data, struct err *err),
	       void *data, struct err *err);

#endif
