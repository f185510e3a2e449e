/*
 * store: the SQLite database, and the only place SQL exists.
 *
 * One file per team (default $XDG_DATA_HOME/secteam/secteam.db), WAL mode,
 * foreign keys on, defensive, bound parameters only.  Every write runs in
 * a BEGIN IMMEDIATE transaction opened by the caller with store_begin(),
 * and every change writes its event in that same transaction, so a crash
 * leaves either both or neither.  Report bodies arrive here already
 * encrypted (crypto/ sealed them); the store never sees plaintext.
 * Files:
 *   store.c          open, permissions, pragmas, transactions
 *   schema.c         numbered migrations on PRAGMA user_version
 *   report-repo.c    reports, touched files, triage fields, listing
 *   message-repo.c   the messages of a report's thread, their signatures
 *   event-repo.c     the append-only event log
 *   party-repo.c     participants, vendors and per-report vendor status
 *   date-repo.c      disclosure proposals and decisions
 */
#ifndef SECTEAM_STORE_H
#define SECTEAM_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "util/util.h"

struct store;

struct store_opts {
	const char *shared_group; /* Unix group sharing the database, or NULL */
	int busy_timeout_ms;      /* 0: the default (10 s) */
};

/* $XDG_DATA_HOME/secteam/secteam.db (caller frees). */
char *store_default_path(void);

/*
 * Opens (creating if needed) the database at path and brings its schema up
 * to date.  A new database is 0600 in a 0700 directory (0660/2770 with a
 * shared group); an existing one readable by others is refused.  Returns 0
 * or negative with err naming the file.
 */
int store_open(const char *path, const struct store_opts *opts,
	       struct store **out, struct err *err);
void store_close(struct store *s);
int store_schema_version(struct store *s);

/* BEGIN IMMEDIATE (waiting for other officers up to the busy timeout),
 * COMMIT, ROLLBACK.  Every write function below must run inside one. */
int store_begin(struct store *s, struct err *err);
int store_commit(struct store *s, struct err *err);
void store_rollback(struct store *s);
/* PRAGMA integrity_check; 0 when "ok". */
int store_check(struct store *s, struct err *err);

/* --- reports -------------------------------------------------------------*/
struct report {
	int64_t id;
	char *subject;
	char *reporter_name;
	char *reporter_email;
	time_t received;
	char *state;            /* new, triaged, accepted, ... */
	char *severity;         /* none, low, medium, high, critical */
	char *claimed_by;       /* officer, or NULL */
	bool public;            /* already public */
	bool consent_credit;    /* reporter consents to be named */
	bool consent_exploit;   /* reporter consents to exploit release */
	time_t release_started; /* start of the release process, or 0 */
	/* Derived by the listing query, not stored in the reports table: */
	char *verdict;          /* of the first message */
	bool encrypted;         /* first message arrived encrypted */
	time_t disclosure;      /* the latest decided date, or 0 */
	int64_t nmessages;
};

void report_release(struct report *r);

struct report_new {
	const char *subject;
	const char *reporter_name;
	const char *reporter_email;
	time_t received;
};
int store_report_insert(struct store *s, const struct report_new *r,
			int64_t *id, struct err *err);
/* ERR_NOTFOUND when there is no report id. */
int store_report_get(struct store *s, int64_t id, struct report *r,
		     struct err *err);

struct report_filter {
	const char *state;     /* or NULL */
	bool open_only;        /* not disclosed, closed, rejected, duplicate */
	const char *order;     /* "id", "deadline", "received", "state",
				* "severity"; NULL = id */
};
/* Calls fn for each report in order; fn returns non-zero to stop. */
int store_report_each(struct store *s, const struct report_filter *f,
		      int (*fn)(const struct report *r, void *data), void *data,
		      struct err *err);
int64_t store_report_count(struct store *s);

/* Triage fields; NULL/negative arguments leave a field unchanged. */
struct report_update {
	const char *state;
	const char *severity;
	const char *claimed_by;
	int public;          /* -1 unchanged */
	int consent_credit;  /* -1 unchanged */
	int consent_exploit; /* -1 unchanged */
	time_t release_started; /* 0 unchanged */
};
int store_report_update(struct store *s, int64_t id,
			const struct report_update *u, struct err *err);

int store_files_add(struct store *s, int64_t report_id, char *const *paths,
		    size_t n, struct err *err);
/* *paths (caller frees each and the array). */
int store_files_get(struct store *s, int64_t report_id, char ***paths,
		    size_t *n, struct err *err);

/* --- messages ------------------------------------------------------------*/
struct message {
	int64_t id;
	int64_t report_id;
	char *message_id;       /* may be NULL */
	char *content_hash;
	char *in_reply_to;
	char *from_name;
	char *from_email;
	char *subject;
	time_t date;
	time_t imported;
	bool encrypted;
	char *verdict;
	char *fingerprint;
	bool signer_matches_from;
	unsigned char *blob;    /* OpenPGP ciphertext: see blob_kind */
	size_t blob_len;
	char *blob_kind;        /* "original": the message as received,
				 * already encrypted to the roster;
				 * "sealed": the raw message encrypted to
				 * the roster on import */
};
void message_release(struct message *m);

/* Returns the report id holding a message with this Message-ID or content
 * hash in *report_id, or ERR_NOTFOUND. */
int store_message_find(struct store *s, const char *message_id,
		       const char *content_hash, int64_t *report_id,
		       struct err *err);
int store_message_insert(struct store *s, const struct message *m,
			 int64_t *id, struct err *err);
/* The report a stored message (by row id) belongs to, or ERR_NOTFOUND. */
int store_message_report(struct store *s, int64_t message_row,
			 int64_t *report_id, struct err *err);
/* One signature of a stored message (a message may carry several). */
int store_signature_add(struct store *s, int64_t message_row,
			const char *verdict, const char *fingerprint,
			time_t created, struct err *err);
/* All messages of a report, oldest first, blobs included when with_blob. */
int store_messages_get(struct store *s, int64_t report_id, bool with_blob,
		       struct message **out, size_t *n, struct err *err);

/* --- events (append-only) ------------------------------------------------*/
struct event {
	int64_t id;
	int64_t report_id;  /* 0 for team-wide events */
	time_t at;
	char *officer;
	char *kind;
	char *detail;
};
void event_release(struct event *e);
int store_event_add(struct store *s, int64_t report_id, const char *officer,
		    const char *kind, const char *detail, struct err *err);
/* Events of a report (report_id 0: all), oldest first. */
int store_events_get(struct store *s, int64_t report_id, struct event **out,
		     size_t *n, struct err *err);
int64_t store_event_count(struct store *s, int64_t report_id);

#endif
