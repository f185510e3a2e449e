/*
 * core: the model and the use cases.
 *
 * Reports, triage, the import pipeline, the embargo policy, maintainers,
 * vendors, the timeline and exports.  Talks to store/, crypto/ and mail/;
 * never draws: exporters and commands write to a FILE *, errors go into
 * struct err.  Files:
 *   cmd.c             the command table, argument splitting, the session
 *   cmd-*.c           one command each (import, list, show, triage, ...)
 *   config.c          the git-style config file
 *   pipeline.c        one message: parse, decrypt, verify, classify
 *   import.c          importing messages, mboxes, Maildirs into the store
 *   report.c          reading a report with its thread, events and files
 *   triage.c          states, transitions, severities
 *   touched.c         file paths a report touches
 *   maintainers.c     MAINTAINERS parsing and lookup
 *   json.c            the JSON form of a report (show --json, list --json)
 */
#ifndef SECTEAM_CORE_H
#define SECTEAM_CORE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/cmd.h"
#include "core/config.h"
#include "store/store.h"
#include "util/util.h"

/* triage.c ---------------------------------------------------------------*/
extern const char *const report_states[];   /* NULL-terminated, in order */
extern const char *const report_severities[];
bool triage_state_valid(const char *state);
bool triage_severity_valid(const char *severity);
/* 0 when PRODUCT.md's lifecycle allows from -> to; else ERR_REFUSED with
 * a message listing what is allowed from `from`. */
int triage_check_transition(const char *from, const char *to,
			    struct err *err);
/* True for states whose embargo is over or moot. */
bool triage_state_closed(const char *state);

/* import.c ---------------------------------------------------------------*/
enum import_status { IMPORT_NEW, IMPORT_REPLY, IMPORT_DUPLICATE, IMPORT_ERROR };

struct import_result {
	enum import_status status;
	int64_t report_id;
	const char *verdict;   /* static string */
	char *subject;         /* sanitized for display */
	char *error;           /* for IMPORT_ERROR */
};
void import_result_release(struct import_result *r);

/* Imports one message's bytes.  Returns 0 with *res filled (status may be
 * IMPORT_ERROR for a bad message: nothing stored), negative only when the
 * store itself fails. */
int import_message(struct cmd_ctx *ctx, const char *raw, size_t len,
		   struct import_result *res, struct err *err);

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
int report_load(struct cmd_ctx *ctx, int64_t id, struct report_full *rf,
		struct err *err);
void report_full_release(struct report_full *rf);

/* Calls fn for each report matching f (NULL: all, by id); see store.h. */
int report_each(struct cmd_ctx *ctx, const struct report_filter *f,
		int (*fn)(const struct report *r, void *data), void *data,
		struct err *err);

/* The decrypted content of one stored message, in memory only. */
struct attachment_info {
	char *filename;        /* untrusted */
	char *content_type;
	size_t size;
	bool exploit;          /* looks like exploit code */
	unsigned char *data;
};
struct opened_message {
	char *body;            /* untrusted UTF-8; wiped on release */
	size_t body_len;
	struct attachment_info *att;
	size_t natt;
};
int report_open_message(struct cmd_ctx *ctx, int64_t message_row,
			struct opened_message *om, struct err *err);
void opened_message_release(struct opened_message *om);
/* Exploit code heuristics on a file name and type. */
bool attachment_is_exploit(const char *filename, const char *content_type);

/* Parses "42" or "#42" into an id; ERR_INVALID naming s otherwise. */
int parse_report_id(const char *s, int64_t *id, struct err *err);

/* Runs fn inside BEGIN IMMEDIATE ... COMMIT (rollback on failure). */
int core_write(struct cmd_ctx *ctx,
	       int (*fn)(struct cmd_ctx *ctx, void *data, struct err *err),
	       void *data, struct err *err);

#endif
