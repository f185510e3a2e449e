/*
 * core: the model and the use cases.
 *
 * Reports, triage, the import pipeline, the embargo policy, maintainers,
 * vendors, the team, the timeline and exports.  Talks to store/, crypto/
 * and mail/, and uses the libraries that depend on util/ alone: maint/
 * (MAINTAINERS lookups), touched/ (the files a report names) and config/
 * (the config file).  Never draws: commands and exporters write to a
 * FILE *, errors go into struct err.  The UI includes this header and the
 * use-case headers, and sees the store's records (store/types.h), never
 * its functions.  Files:
 *   cmd.c, cmd.h      the command table (options, where the report goes),
 *                     running and capturing commands, the session
 *   cmd-*.c           one command each: parse the arguments, call a use
 *                     case, print what it answers
 *   triage.c          states, transitions, severities; triage_apply
 *   dates.c, .h       disclosure dates: propose, set, start the release
 *   vendor.c, .h      vendor kinds and statuses; the directory, a
 *                     vendor's status on a report
 *   suggest.c, .h     the kernel tree, what MAINTAINERS suggests for a
 *                     report, bringing people in and out
 *   participants.c    participants: parsing addresses, add/remove/ack
 *   team.c, .h        a team server's officers; roster.c: the roster and
 *                     roster reseal
 *   policy.c          the embargo policy, one rule for every date change
 *   embargo.c, .h     a report's embargo state and deadline, for every
 *                     view and export (undated reports: the default)
 *   pipeline.c        one message: parse, decrypt, verify, classify
 *   import.c          importing messages, mboxes, Maildirs into the store
 *   seal.c, .h        bodies at rest, encrypted to the roster
 *   report.c          reading a report with its thread, events and files
 *   view-data.c       what the UI pages through, and colleagues' changes
 *   disclosure.c      a report's dossier for exports; redaction
 *   export.c, .h      the table of export formats; export-*.c: one
 *                     format each; timeline.c: md's and txt's timeline
 *   forward.c         forwarding a report as signed, encrypted mail;
 *                     outgoing.h: its key rules and transports, shared;
 *                     outgoing-thread.c: the thread headers mail names
 *   reply.c           replies to the reporter; templates.c: the mail
 *                     templates of the config folder, shipped defaults;
 *                     notice.c: the linux-distros notice, the announcement
 *   sender.c          a From mailbox shown address first, with warnings
 *   json.c            the JSON form of a report (show --json, list --json)
 *   fixcve.c, .h      fix tracking and the CVE lifecycle, kept as events;
 *                     ktree.c: the kernel tree read with libgit2; advisory.c:
 *                     what the advisory exports (cve, osv, csaf) share
 */
#ifndef SECTEAM_CORE_H
#define SECTEAM_CORE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "config/config.h"
#include "core/cmd.h"
#include "maint/maint.h"
#include "store/types.h"
#include "util/util.h"

/* triage.c ---------------------------------------------------------------*/
extern const char *const report_states[];   /* NULL-terminated, in order */
extern const char *const report_severities[];
bool triage_state_valid(const char *state);
/* The states, in order, sep between them (caller frees). */
char *triage_state_names(const char *sep);
bool triage_severity_valid(const char *severity);
/* 0 when PRODUCT.md's lifecycle allows from -> to; else ERR_REFUSED with
 * a message listing what is allowed from `from`. */
int triage_check_transition(const char *from, const char *to,
			    struct err *err);
/* True for states whose embargo is over or moot. */
bool triage_state_closed(const char *state);
/* A change of a report's triage fields; NULL/false fields stay. */
struct triage_change {
	int64_t id;
	const char *state;
	const char *severity;
	bool claim, unclaim, public, consent_credit, consent_exploit;
	const char *note;
	/* With claim: take the report over from the officer who holds it
	 * (without it, that is refused naming them). */
	bool take;
	/* A move to disclosed before the decided date: refused unless early,
	 * with the reason (an event of its own). */
	bool early;
	const char *reason;
};
/*
 * Applies c: each change checked (the lifecycle, known severities, a
 * non-empty note), stored and logged as an event, in one transaction.
 * Returns 0 with *summary (caller frees; display-safe) "report N: what
 * changed", or negative with err naming the report and the problem
 * (ERR_INVALID for bad values, ERR_REFUSED for a move the lifecycle does
 * not allow, a disclosure before the decided date without early and a
 * reason, or a claim on another officer's report without take, ERR_NOTFOUND for no such report); nothing is written then.
 */
int triage_apply(struct session *sess, const struct triage_change *c,
		 char **summary, struct err *err);

/* import.c ---------------------------------------------------------------*/
enum import_status { IMPORT_NEW, IMPORT_REPLY, IMPORT_DUPLICATE, IMPORT_ERROR };

struct import_result {
	enum import_status status;
	int64_t report_id;
	enum sig_verdict verdict; /* SIG_NONE for a duplicate */
	char *subject;         /* sanitized for display */
	char *error;           /* for IMPORT_ERROR */
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

/* report.c ---------------------------------------------------------------*/
struct report_full {
	struct report r;
	struct message *msgs;   /* without blobs */
	size_t nmsgs;
	char **files;
	size_t nfiles;
	struct event *events;
	size_t nevents;
};
int report_load(struct session *sess, int64_t id, struct report_full *rf,
		struct err *err);
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

/* The decrypted content of one stored message, in memory only. */
struct attachment_info {
	char *filename;        /* untrusted */
	char *content_type;
	size_t size;
	bool exploit;          /* looks like exploit code */
	bool unsigned_part;    /* outside what the signature (or encryption)
				* covers: see struct opened_message */
	bool patch;            /* a patch (attachment_is_patch) */
	unsigned char *data;
};
/* attachment.c: a report's attachments, numbered across its thread. */
struct report_attachment {
	size_t number;         /* 1, 2, ... over every message, in order */
	size_t message;        /* the message it came in, from 1 */
	bool is_signed;        /* inside what a valid or good signature covers */
	struct attachment_info info;  /* with its data */
};
/* Every attachment of report id (each message decrypted now; one that
 * cannot be opened adds none, counted in *unopened, as `show` leaves
 * its attachments out).  0 with *out (report_attachments_free), or
 * negative with err set (no such report, the store failed). */
int report_attachments(struct session *sess, int64_t id,
		       struct report_attachment **out, size_t *n,
		       size_t *unopened, struct err *err);
void report_attachments_free(struct report_attachment *v, size_t n);
/* Writes data to path, mode 0600, never through a symbolic link: a new
 * file (O_EXCL), or with force the existing one replaced by a renamed
 * temporary file.  0, or ERR_REFUSED (a link; a file exists without
 * force) or ERR_IO, naming path. */
int attachment_write_file(const char *path, const unsigned char *data,
			  size_t len, bool force, struct err *err);
/* Records that a was saved, when it is exploit code (an event
 * "attachment-saved"); 0 otherwise.  0 or negative. */
int attachment_saved(struct session *sess, int64_t id,
		     const struct report_attachment *a, struct err *err);

/* A From mailbox (sender.c shows it). */
struct sender {
	char *name;            /* display name, untrusted; NULL when none */
	char *email;           /* lowercase; NULL when none */
};
/* A byte range [start, end) of a text. */
struct text_span {
	size_t start, end;
};
struct opened_message {
	char *body;            /* untrusted UTF-8; wiped on release */
	size_t body_len;
	/* Ranges of body that what the verdict speaks of does not cover:
	 * text beside an inline-PGP block, parts beside a PGP/MIME entity.
	 * Displays mark these lines one by one (opened_message_lines); the
	 * text itself carries no marks, which a sender could forge. */
	struct text_span *unsigned_spans;
	size_t nunsigned;
	struct attachment_info *att;
	size_t natt;
	struct sender *from;   /* every From mailbox of the message */
	size_t nfrom;
	/* The signing key's user ID the officer's keyring vouches for (full
	 * or ultimate validity; the one with From's address first), else its
	 * first user ID with signer_valid false; NULL when unsigned or the
	 * key is unknown.  Untrusted text.  Looked up in the keyring now. */
	char *signer;
	bool signer_valid;
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
	bool unsigned_text;    /* inside one of the unsigned spans */
};
/* The lines of om->body, each flagged as above; returns how many
 * (*lines is the caller's to free, the text stays om's). */
size_t opened_message_lines(const struct opened_message *om,
			    struct body_line **lines);

/* sender.c: a From mailbox for display --------------------------------*/
enum sender_flag {
	SENDER_NAME_ADDRESS = 1 << 0,   /* the display name holds an address
					 * other than the mailbox's, or an
					 * at sign look-alike */
	SENDER_NAME_INVISIBLE = 1 << 1, /* no-break or other invisible
					 * spacing in the display name */
	SENDER_NO_ADDRESS = 1 << 2,     /* the mailbox has no address */
};
/* The sender_flag bits that hold for this mailbox (either may be NULL). */
unsigned sender_flags(const char *name, const char *email);
/* One display-safe line (caller frees): the address first, then a
 * "[!] ..." warning per flag, then the name quoted, invisible spacing
 * drawn as "<U+00A0>"; e.g.
 *   eve@corp.example  [!] display name holds another address  "boss@x" */
char *sender_format(const char *name, const char *email);
/* True when a From display name may stand for a user ID's name: it has
 * no word of two letters or more, or shares one with uid_name (ignoring
 * ASCII case).  "The Manager" does not stand for "Evil Eve". */
bool sender_name_fits(const char *display, const char *uid_name);
/* sender_format of each mailbox, joined by "; " (caller frees). */
char *senders_format(const struct sender *from, size_t n);
/* {"name", "email", "warnings": ["name-holds-address", ...]} */
struct json_t *sender_json(const char *name, const char *email);
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

/* view-data.c: what the UI pages through ----------------------------------*/
/* Every report's compact key (see store.h), by id; caller frees *out.
 * 0, or negative with err set. */
int report_keys(struct session *sess, struct report_key **out, size_t *n,
		struct err *err);
/* One report's row with its derived fields; ERR_NOTFOUND when absent. */
int report_get(struct session *sess, int64_t id, struct report *r,
	       struct err *err);
/* The rows of a screen's reports in one read: out[i] is ids[i]'s, id 0
 * when absent; 0, or negative with err set and out empty. */
int report_page(struct session *sess, const int64_t *ids, size_t n,
		struct report *out, struct err *err);
/* Ids, ascending, of reports whose subject or reporter contains needle. */
int report_search(struct session *sess, const char *needle, int64_t **ids,
		  size_t *n, struct err *err);
/* The first `limit` ids in a listing order, for a quick first screen. */
int report_first_ids(struct session *sess, const char *order, size_t limit,
		     int64_t **ids, size_t *n, struct err *err);
/* One report's compact key; ERR_NOTFOUND when absent. */
int report_key(struct session *sess, int64_t id, struct report_key *k,
	       struct err *err);
/*
 * A colleague's changes, for an open UI.  report_watch_fd() is a
 * descriptor that becomes readable when another officer commits (the
 * team server's notifications), or -1: then poll report_changes() a few
 * times a second (SQLite's data_version: no query when nothing changed).
 * report_changes() gives the reports touched since *cursor (start it at
 * -1: the first call only sets it), each once (0: a team-wide change),
 * and moves the cursor; *ids is the caller's.  0, or negative with err.
 */
int report_watch_fd(struct session *sess);
int report_changes(struct session *sess, int64_t *cursor, int64_t **ids,
		   size_t *n, struct err *err);
/* Whether the team server is reachable (always true on SQLite), and one
 * try to reach it again: 0, or ERR_IO with err saying why.  Once back,
 * report_changes() gives what changed while it was away. */
bool report_store_up(struct session *sess);
int report_store_reconnect(struct session *sess, struct err *err);

/* policy.c: the embargo policy, one rule for every date change ----------*/
struct policy {
	long default_days;      /* policy.default_days, 7 */
	long max_days;          /* policy.max_days, 14 */
};
void policy_from_config(const struct config *cfg, struct policy *p);

enum policy_verdict {
	POLICY_OK,              /* within the default */
	POLICY_NEEDS_REASON,    /* past the default: needs a reason */
	POLICY_REFUSED,         /* past the maximum: needs override + reason */
	POLICY_PUBLIC,          /* already public: the policy date is now */
};
struct policy_answer {
	enum policy_verdict verdict;
	bool allowed;           /* with the reason/override given */
	time_t clock_start;     /* release_started, else received */
	time_t default_limit;   /* last second of the default's last day */
	time_t max_limit;       /* last second of the maximum's last day */
	time_t policy_date;     /* latest date allowed without a reason
				 * (now for a public report) */
	long days;              /* calendar days from the clock start */
	char msg[512];          /* why, naming the report: for errors and
				 * notes */
};
/* The one policy function: classifies `proposed` for report r and says in
 * out whether it is allowed given has_reason/override.  Never fails. */
enum policy_verdict policy_check(const struct policy *p, const struct report *r,
				 time_t proposed, bool has_reason,
				 bool override, time_t now,
				 struct policy_answer *out);
const char *policy_verdict_name(enum policy_verdict v);
/* The clock start: the release process's start, else the receipt. */
time_t policy_clock_start(const struct report *r);
/* The last second of the default's last day from clock_start (what
 * policy_check calls default_limit), without the rest of its answer. */
time_t policy_default_limit(const struct policy *p, time_t clock_start);
/* The policy's answer to a vendor's NDA request (static text). */
const char *policy_nda_answer(void);
/* Counts Monday..Friday days (UTC) after a's day up to b's day. */
long working_days_between(time_t a, time_t b);

/* embargo.c: the embargo state every view and export shows */
#include "core/embargo.h"

/* vendor.c: vendor kinds and the per-report status lifecycle -------------*/
extern const char *const vendor_kinds[];     /* NULL-terminated */
extern const char *const vendor_statuses[];  /* NULL-terminated, in order */
bool vendor_kind_valid(const char *kind);
bool vendor_status_valid(const char *status);
/* 0 when a vendor may go from -> to; ERR_REFUSED naming the vendor and
 * what is allowed otherwise. */
int vendor_check_transition(const char *vendor, const char *from,
			    const char *to, struct err *err);
/* The "vendors" array of show --json for report id (empty on error). */
struct json_t *vendors_json(struct session *sess, int64_t report_id);

/* disclosure.c: everything known about a report's date, for commands,
 * show --json and exports -------------------------------------------------*/
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
	struct embargo emb;       /* the embargo state now (embargo.c) */
	time_t now;
	struct needles *redact;   /* what names the reporter (disclosure.c),
				   * made by dossier_load; NULL: made on each
				   * export_redact call */
};
/* Loads report id with its vendors, proposals and decisions; negative
 * with err set (ERR_NOTFOUND for no such report).  Release in any case. */
int dossier_load(struct session *sess, int64_t id, struct dossier *d,
		 struct err *err);
void dossier_release(struct dossier *d);
/* The "disclosure" object of show --json (minimal object on error). */
struct json_t *disclosure_json(struct session *sess, const struct report *r);
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
 * report and `what` for one under embargo, rejected, a duplicate, or
 * closed without disclosure. */
int dossier_refuse_unreleased(const struct dossier *d, const char *what, struct err *err);

/* For the exporters (core/export.h): redaction and the shared rules ----*/
struct export_opts;
/* Redaction (disclosure.c): a copy of text with the reporter's identity
 * replaced by "[reporter]", "[reporter's domain]", "[reporter's message]"
 * or "[reporter's key]" unless the reporter consented to credit: the
 * names, addresses (local part and domain too), Message-IDs (and their
 * hosts) and signing keys of the reporter's messages, which are the
 * first one's sender and every message sharing an address or a signing
 * key with them.  Never fails. */
char *export_redact(const struct dossier *d, const char *text);
/* True when m (one of d's messages) is the reporter's, as above. */
bool export_from_reporter(const struct dossier *d, const struct message *m);
/* False for an internal note (events "note" and "vendor-note") unless
 * o->with_notes: notes are left out of every export by default. */
bool export_event_shown(const struct export_opts *o, const struct event *e);
/* The reporter as "Name <email>" when credit consent is recorded, else
 * NULL (caller frees). */
char *export_reporter(const struct dossier *d);
/* export_redact() then safe_str(): one line of display-safe text (caller
 * frees); NULL gives "". */
char *export_text(const struct dossier *d, const char *text);
/*
 * The report's files as the public texts name them (distros, announce,
 * CVE, OSV, CSAF): those the fix changes when `fix --tree` recorded them
 * (fixcve.h), else those the reporter's signed text touches
 * (report_reporter_signed: never an unsigned or a third party's reply);
 * only plausible paths (touched_path_plausible), each through
 * export_text (redacted, display-safe), distinct, in first-seen order.
 * A message that cannot be opened adds none.  *files is the caller's,
 * NULL-terminated (each string too); returns how many.  Never fails.
 */
size_t dossier_public_files(struct session *sess, const struct dossier *d,
			    char ***files);

/* participants.c: people brought into a report (struct participant in
 * store.h); add/remove/ack run inside core_write and log their event ----*/
/* True for a bare address user@host without blanks or specials. */
bool participant_email_valid(const char *email);
/* Splits "user@host" or "Name <user@host>" (quotes around the name are
 * dropped) into *name (NULL when none) and a lowercase *email, both the
 * caller's.  ERR_INVALID naming s otherwise. */
int participant_parse_address(const char *s, char **name, char **email,
			      struct err *err);
/* "Name <email> (role:SECTION)", not yet safe for a terminal (caller
 * frees). */
char *participant_format(const struct participant *p);
/* Adds email to report_id (with key_fpr, when not NULL, as the key the
 * officer confirmed for them) and logs "participant-add"; ERR_DUPLICATE
 * when already an active participant (nothing written). */
int participant_add(struct session *sess, int64_t report_id, const char *name,
		    const char *email, const char *role, const char *section,
		    const char *key_fpr, struct err *err);
/* Records key_fpr as the key the officer confirmed for the active
 * participant email and logs "participant-key"; ERR_NOTFOUND naming them
 * when there is none. */
int participant_set_key(struct session *sess, int64_t report_id,
			const char *email, const char *key_fpr, struct err *err);
/* Removes the active participant and logs "participant-remove";
 * ERR_NOTFOUND naming them when there is none. */
int participant_remove(struct session *sess, int64_t report_id,
		       const char *email, struct err *err);
/* Records the acknowledgement and logs "participant-ack"; ERR_NOTFOUND,
 * or ERR_DUPLICATE when already acknowledged. */
int participant_ack(struct session *sess, int64_t report_id, const char *email,
		    struct err *err);
/* A report's participants (removed ones too when with_removed); release
 * with participants_free.  0 or negative with err set. */
int participants_list(struct session *sess, int64_t report_id,
		      bool with_removed, struct participant **out, size_t *n,
		      struct err *err);
/* The "participants" array of show --json (empty on error). */
struct json_t *participants_json(struct session *sess, int64_t report_id);

/* vendor.c: the vendor directory, by name (caller frees each with
 * vendor_release and the array); negative with err when the store fails. */
int vendors_list(struct session *sess, struct vendor **out, size_t *n,
		 struct err *err);

/* forward.c: a report forwarded to participants as PGP/MIME mail --------*/
struct forward_opts {
	const char *const *to;  /* "user@host" or "Name <user@host>" */
	size_t nto;
	const char *const *keys;/* NULL, or for each of to: the key the
				 * officer confirmed for them, or NULL */
	bool allow_plaintext;   /* keyless recipients get a plain copy */
	bool force_recipient;   /* allow addresses that are not participants */
	const char *outbox;     /* Maildir to deliver into, or NULL: */
	const char *sendmail;   /* the command mail is piped into (-t -oi) */
	const char *const *release; /* attachment file names the officer */
	size_t nrelease;            /* releases (--release-attachment) */
};
struct forward_sent {
	bool plaintext;
	char *to;               /* "a@x, b@y" */
	char *where;            /* the Maildir file, or "sent via sendmail" */
};
struct forward_result {
	struct forward_sent *sent;
	size_t nsent;
	size_t attached;        /* attachments carried */
	size_t withheld;        /* attachments left out */
};
/*
 * Forwards report id to o->to: one RFC 3156 message signed with the
 * officer's key and encrypted to every recipient's key, the officer's and
 * the roster's (Cc: team.address), plus, with allow_plaintext, one plain
 * copy for each recipient without a usable key.  It carries the report's
 * text and patches; other attachments only with the reporter's consent
 * to release exploit code and to be credited, or named in o->release
 * (see forward.c).  Nothing is delivered unless every message could be
 * built; every delivered message is logged ("forward",
 * "forward-plaintext", "attachment-release").  Returns 0 with *res filled
 * (release it in any case), or negative with err naming the report and
 * the recipient or attachment: ERR_REFUSED for a recipient who is not a
 * participant, has no usable key, or whose key is neither confirmed nor
 * certified for their address (naming it), or for released exploit code
 * without consent; ERR_NOTFOUND for a released name that is no attachment;
 * ERR_IO when delivery fails (res says what was sent).
 */
int forward_report(struct session *sess, int64_t id,
		   const struct forward_opts *o, struct forward_result *res,
		   struct err *err);
void forward_result_release(struct forward_result *res);

/* templates.c: mail templates (templates/NAME beside the config file, or
 * the shipped default) ------------------------------------------------*/
struct template_info {
	char *name;
	char *source;           /* the file, or "shipped" */
	char *text;
};
struct template_field {
	const char *name;       /* "id" */
	const char *value;      /* NULL: the report has none, see missing */
	const char *missing;    /* "report 3 has no fix commit recorded" */
};
/* The folder templates are read from (caller frees). */
char *template_dir(const struct session *sess);
/* Template name's text and where it came from (both the caller's);
 * ERR_INVALID for a bad name, ERR_NOTFOUND for no such template. */
int template_load(const struct session *sess, const char *name, char **text,
		  char **source, struct err *err);
/* The shipped template names, each as template_load finds it. */
int template_list(const struct session *sess, struct template_info **out,
		  size_t *n, struct err *err);
void template_list_free(struct template_info *v, size_t n);
/* text with each {field} replaced by its value; ERR_INVALID naming the
 * template and the field for an unknown one, ERR_REFUSED (with the
 * field's missing text) for one without a value. */
int template_fill(const char *name, const char *text,
		  const struct template_field *f, size_t nf, char **out,
		  struct err *err);

/* reply.c: a reply to the reporter, in the report's thread -------------*/
struct reply_opts {
	const char *template;   /* NULL: "ack" */
	const char *to;         /* "addr" or "Name <addr>"; NULL: the reporter */
	bool allow_plaintext;   /* no usable key: send it in the clear */
	const char *outbox;     /* Maildir to deliver into, or NULL: */
	const char *sendmail;   /* the command mail is piped into (-t -oi) */
};
struct reply_draft {
	int64_t id;
	char *template;
	char *to_name;          /* or NULL */
	char *to_email;
	char *fpr;              /* the key it is encrypted to; NULL: plaintext */
	char *why;              /* plaintext: why there is no key */
	char *subject;
	char **refs;            /* the thread's Message-IDs, oldest first */
	size_t nrefs;
	char *text;             /* the filled template (and quoted report):
				 * plaintext in memory, wiped on release */
	const char *outbox, *sendmail;
};
struct reply_sent {
	bool plaintext;
	char *message_id;
	char *where;            /* the Maildir file, or "sent via sendmail" */
	bool stored;            /* the copy joined the report's thread */
	char *store_note;       /* why not, when !stored */
	char *vendor_note;      /* distros: why the list's status is not
				 * recorded, or NULL */
};
/*
 * Everything checked and composed before the officer sees the text:
 * the recipient's key (as forward finds it: confirmed, or certified for
 * the address), the template's fields.  ERR_REFUSED naming the rule: no
 * usable key without allow_plaintext, or a report that came in encrypted
 * (never answered in the clear); a plaintext reply leaves out the quoted
 * report.  Release *d in any case.
 */
int reply_prepare(struct session *sess, int64_t id, const struct reply_opts *o,
		  struct reply_draft *d, struct err *err);
/* Sends text (the draft's, as the officer edited it): signed by the
 * officer, encrypted to the recipient, the officer and the roster, with
 * In-Reply-To/References into the thread; records the event with the
 * Message-ID and stores a sealed copy in the report's thread. */
int reply_send(struct session *sess, const struct reply_draft *d,
	       const char *text, struct reply_sent *res, struct err *err);
void reply_draft_release(struct reply_draft *d);
void reply_sent_release(struct reply_sent *s);
/* The text a mail command sends (cmd-reply.c): the draft as the officer
 * edits it in $VISUAL/$EDITOR, or as it is with yes.  CMD_OK with *text
 * (wipe it), else CMD_FAILED/CMD_USAGE with ctx->err (an emptied text,
 * the : line of the UI without yes). */
int cmd_edit_draft(struct cmd_ctx *ctx, const struct reply_draft *d, bool yes,
		   char **text);
/* cmd_edit_draft, then send, then the command's output line
 * ("encrypted|plaintext <TAB> to <TAB> where <TAB> <Message-ID>") and its
 * warnings.  Returns CMD_*. */
int cmd_mail_draft(struct cmd_ctx *ctx, struct reply_draft *d, bool yes,
		   int (*send)(struct session *, const struct reply_draft *,
			       const char *, struct reply_sent *, struct err *));

/* notice.c: the linux-distros notice and the oss-security announcement
 * (drafts in a struct reply_draft; see notice.c for the rules) --------*/
enum notice_kind { NOTICE_DISTROS, NOTICE_ANNOUNCE };
/* ERR_REFUSED naming the rule the report breaks: distros: public,
 * no fix ready, no date or one more than 14 days away, no usable list
 * key; announce: still under embargo.  Release *d in any case. */
int notice_prepare(struct session *sess, int64_t id, enum notice_kind k,
		   const char *outbox, const char *sendmail, struct reply_draft *d,
		   struct err *err);
/* Sends text: distros encrypted to the list's key and the list's vendor
 * marked notified; announce in the clear.  An event, a copy in the
 * thread. */
int notice_send(struct session *sess, enum notice_kind k,
		const struct reply_draft *d, const char *text,
		struct reply_sent *res, struct err *err);

/* reminders.c: `due --mail` (see reminders.c for who gets what) ------*/
/* The time the reporter of r has been waiting since (r->received) when
 * no reply was sent to them (the `ack` template or any other: a
 * reply-sent or reply-plaintext event, in ms, by report id) and 2
 * working days or more have passed by now; else 0. */
time_t reporter_waiting(const struct report *r,
			const struct report_milestones *ms, size_t nms,
			time_t now);
struct due_mail_opts {
	bool dry_run;           /* print who would get what, send nothing */
	const char *outbox;     /* Maildir to deliver into, or NULL: */
	const char *sendmail;   /* the command mail is piped into */
};
/* What due_mail did, a line each, in order. */
enum due_mail_what {
	DUE_MAIL_SENT,       /* "KIND\tTO\treport N[ and more]\t<MSGID>" */
	DUE_MAIL_WOULD_SEND, /* --dry-run: "KIND\tTO\treport N[ and more]" */
	DUE_MAIL_SKIPPED,    /* why a reminder due was not sent (no key,
			      * no officer address, a store error) */
	DUE_MAIL_WARNING,    /* a warning that skips nothing counted */
};
struct due_mail_result {
	struct due_mail_line {
		enum due_mail_what what;
		char *text;  /* display-safe */
	} *v;
	size_t n;
	size_t sent, skipped;  /* sent (or would be), and skipped */
};
void due_mail_result_release(struct due_mail_result *res);
/* Sends (or lists) the reminders due now, each recipient at most once
 * per report per 2 working days, into *res (release it either way).
 * Negative only when the store fails. */
int due_mail(struct session *sess, const struct due_mail_opts *o,
	     struct due_mail_result *res, struct err *err);

/* `distros` and `announce` (cmd-distros.c): the arguments parsed, the
 * draft made (notice_prepare), edited and sent with send.  CMD_*. */
int cmd_notice_exec(struct cmd_ctx *ctx, int argc, char **argv,
		    const char *name, enum notice_kind k,
		    int (*send)(struct session *, const struct reply_draft *,
				const char *, struct reply_sent *, struct err *));

/* The transport the config names (forward.outbox, else forward.sendmail)
 * into o; ERR_INVALID when it names none. */
int reply_transport_from_config(struct session *sess, struct reply_opts *o,
				struct err *err);

#endif
