/*
 * The records the store reads and writes (reports, messages, events,
 * vendors, participants, dates, officers), and how each is released:
 * plain data, without the functions that reach the database.  core/
 * hands these to the UI; only core/ includes store/store.h.
 */
#ifndef SECTEAM_STORE_TYPES_H
#define SECTEAM_STORE_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "util/verdict.h"

struct report {
	int64_t id;
	char *subject;
	char *reporter_name;
	char *reporter_email;
	time_t received;
	char *state; /* new, triaged, accepted, ... */
	char *severity; /* none, low, medium, high, critical */
	char *claimed_by; /* officer, or NULL */
	bool public; /* already public */
	bool consent_credit; /* reporter consents to be named */
	bool consent_exploit; /* reporter consents to exploit release */
	time_t release_started; /* start of the release process, or 0 */
	/* Derived by the listing query, not stored in the reports table: */
	enum sig_verdict verdict; /* of the first message; SIG_NONE without */
	bool encrypted; /* first message arrived encrypted */
	bool signer_matches_from; /* first message: its signer is From's */
	time_t disclosure; /* the latest decided date, or 0 */
	int64_t nmessages;
};

void report_release(struct report *r);

struct report_new {
	const char *subject;
	const char *reporter_name;
	const char *reporter_email;
	time_t received;
	int64_t id; /* drawn by store_import_claim, or 0 */
};

struct report_filter {
	const char *state; /* or NULL */
	bool open_only; /* leave out the finished states */
	const char *order; /* "id", "received", "state", "severity";
				* NULL = id ("deadline" is core's) */
	/* The rules are core's (core/triage.h), bound as values: the store
	 * decides no order or state of its own. */
	const char *const *finished; /* NULL-terminated: what open_only
				      * leaves out (at most 8) */
	const char *const *rank; /* NULL-terminated: order "state" or
				      * "severity", first first; others
				      * after them (at most 12) */
};

/* What a message's sealed blob holds. */
enum blob_form {
	BLOB_RECEIVED = 0, /* the message as received */
	BLOB_CONTENT = 1, /* its decrypted content alone (a MIME entity of
			    * what was shown), its verdict recorded: stored
			    * by older versions, never written now */
	BLOB_KEYED = 2, /* the message as received after the session
			    * keys that decrypt it (core/seal.h) */
};

struct message {
	int64_t id;
	int64_t report_id;
	char *message_id; /* may be NULL */
	char *content_hash;
	char *in_reply_to;
	char *from_name;
	char *from_email;
	char *subject;
	time_t date;
	time_t imported;
	bool encrypted;
	enum sig_verdict verdict; /* stored as its name */
	char *fingerprint;
	bool signer_matches_from;
	unsigned char *blob; /* OpenPGP ciphertext: see blob_kind */
	size_t blob_len;
	char *blob_kind; /* "original": the message as received,
				 * already encrypted to the roster;
				 * "sealed": encrypted to the roster on
				 * import (or by roster reseal) */
	/* For store_message_insert only (not owned): what the blob is to
	 * open to, sealed by the store under the team key for the row it
	 * gets (blob is then ignored). */
	const unsigned char *blob_plain;
	size_t blob_plain_len;
	char *plain_sha256; /* the hex SHA-256 of the bytes the import
				 * verified: what the blob opens to, or for
				 * BLOB_KEYED the message after its keys;
				 * NULL for a message stored before it was
				 * kept.  Every opening checks it */
	int64_t drawn_id; /* store_message_insert only: the id drawn for
			   * it by store_import_claim, or 0 */
	char *ids_sealed; /* the store's own: the sealed Message-IDs
				 * while a row is read */
	enum blob_form blob_form; /* what the sealed blob holds (the
				 * column blob_content) */
	/* Derived by store_messages_get, not stored: another message (with
	 * other content, since the content hash is unique) carries the same
	 * Message-ID. */
	bool message_id_reused;
};

void message_release(struct message *m);

/* The messages carrying message_id, except the row except_row (0: none),
 * oldest first: up to max of them in out, how many there are in *n. */
struct message_ref {
	int64_t row;
	int64_t report_id;
};

struct event {
	int64_t id;
	int64_t report_id; /* 0 for team-wide events */
	time_t at;
	char *officer;
	char *kind;
	char *detail;
	int64_t ref; /* the row it names (a participant, a vendor,
		      * a decision), or 0 */
	char *value; /* its typed value as stored, or NULL */
};

void event_release(struct event *e);
/* Releases each of ev[0..n) and the array. */
void events_free(struct event *ev, size_t n);

struct vendor {
	int64_t id;
	char *name;
	char *contact;
	char *key_fpr; /* or NULL */
	char *kind; /* vendor, distro, hardware */
};

void vendor_release(struct vendor *v);

struct report_vendor {
	int64_t report_id;
	int64_t vendor_id;
	char *name, *kind, *contact, *key_fpr; /* from the directory */
	char *status; /* not-notified, notified, acknowledged, ... */
	time_t notified_at; /* or 0 */
	time_t updated_at;
	bool nda_requested;
	char *note;
	char *statement;
};

void report_vendor_release(struct report_vendor *rv);

/* Participants brought in and not (yet) acknowledged, for `due`. */
struct pending_participant {
	int64_t report_id;
	char *name;
	char *email;
	time_t added_at;
};

void pending_participant_release(struct pending_participant *p);

struct proposal {
	int64_t id;
	int64_t report_id;
	char *by; /* reporter, officer, vendor:NAME, maintainer:EMAIL */
	time_t date;
	char *reason;
	char *officer; /* who recorded it */
	time_t at;
};

void proposal_release(struct proposal *p);

struct decision {
	int64_t id;
	int64_t report_id;
	time_t date;
	char *verdict; /* the policy's verdict: ok, needs-reason, ... */
	char *reason;
	bool override;
	char *officer;
	time_t at;
};

void decision_release(struct decision *d);

struct officer {
	char *role; /* the login role */
	char *name; /* display name, or NULL */
	char *key_fpr; /* the key bodies are encrypted to */
	time_t added_at;
	bool active; /* false once removed */
};

void officer_release(struct officer *o);

struct report_key {
	int64_t id;
	time_t received;
	time_t release_started; /* or 0 */
	time_t disclosure; /* the latest decided date, or 0 */
	bool public; /* already public */
	char state[12];
	char severity[10];
};

/* A message's place and what identifies its stored body (store.h's
 * store_message_keys). */
struct message_key {
	int64_t report_id, id;
	char key[112];
};
/* A message row, and whether a reseal has to read it
 * (store_message_reseal_list). */
struct message_look {
	int64_t id;
	bool look;
	int64_t size; /* the blob's bytes */
};
/* A message of the officer's search index (store_index_*): its id and
 * the key of the body it was indexed from. */
struct terms_cache;
struct terms_row {
	int64_t message_id;
	char *key;
};
void terms_rows_free(struct terms_row *rows, size_t n);

/* A row of the verdict cache (store_verdict_cache_*): what message
 * message_id verified to, the key of the body it was verified from, the
 * keyring's state then and the signing key's (crypto's stamps). */
struct verdict_cache;
struct verdict_row {
	int64_t message_id;
	char *key;
	char *keyring;
	char *keystate;
	enum sig_verdict verdict;
	bool matches; /* the signer is From's */
	char *fingerprint; /* the first signature's key, or NULL */
};
void verdict_row_release(struct verdict_row *row);

/* A report's subject, opened (store_report_subjects). */
struct report_subject {
	int64_t id;
	char *subject;
};
/* Frees (wiped) v's n subjects and v. */
void report_subjects_free(struct report_subject *v, size_t n);

/* When a report first reached each milestone, from its events (0: not
 * yet), for `stats` and `due`. */
struct report_milestones {
	int64_t report_id;
	time_t triaged; /* the first state change away from new */
	time_t fixed; /* the first fix event or move to fix-ready */
	time_t disclosed; /* the first move to disclosed */
	time_t replied; /* the first reply sent to the reporter */
};

struct participant {
	int64_t id;
	int64_t report_id;
	char *name; /* or NULL */
	char *email; /* lowercase */
	char *role; /* "maintainer", "reviewer", "open list",
				 * "other", ...; or NULL */
	char *section; /* MAINTAINERS section, or NULL */
	char *added_by; /* the officer */
	time_t added_at;
	time_t removed_at; /* 0 while active */
	char *removed_by; /* or NULL */
	time_t acknowledged_at; /* 0 until acknowledged */
	char *key_fpr; /* the key the officer confirmed, or NULL */
};

void participant_release(struct participant *p);

/* Releases n participants and the array. */
void participants_free(struct participant *v, size_t n);

#endif
