/*
 * Participants (participants.c): people brought into a report; add,
 * remove and acknowledge run inside core_write and log their event.
 */
#ifndef SECTEAM_CORE_PARTICIPANTS_H
#define SECTEAM_CORE_PARTICIPANTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/session.h"
#include "store/types.h"
#include "util/util.h"

struct json_t;

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
			const char *email, const char *key_fpr,
			struct err *err);
/* The key the report's timeline last confirmed for email (its
 * "participant-add … key FPR confirmed" or "participant-key" event, until
 * a "participant-remove"): *fpr, NULL when none; 0 or negative with err
 * set.  The key a participant's row holds is only a copy of it. */
int participant_timeline_key(struct session *sess, int64_t report_id,
			     const char *email, char **fpr, struct err *err);
/* The key to encrypt to for participant p of report_id: the timeline's
 * (*fpr, NULL when none), or ERR_REFUSED naming both when p's row holds
 * another (a change no event records: never encrypt to it). */
int participant_key(struct session *sess, int64_t report_id,
		    const struct participant *p, char **fpr, struct err *err);
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

#endif
