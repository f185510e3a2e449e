/*
 * What the UI pages through (view-data.c): compact keys, a screen's
 * rows in one read, a colleague's changes, the team server's state.
 */
#ifndef SECTEAM_CORE_VIEW_DATA_H
#define SECTEAM_CORE_VIEW_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/session.h"
#include "store/types.h"
#include "util/util.h"

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
/* The subjects (opened) of the reports after id `after`, by id: the
 * list's subject sort.  *out is the caller's (report_subjects_free). */
int report_subjects(struct session *sess, int64_t after,
		    struct report_subject **out, size_t *n, struct err *err);
/* The first `limit` ids in a listing order, for a quick first screen. */
int report_first_ids(struct session *sess, const char *order, size_t limit,
		     int64_t **ids, size_t *n, struct err *err);
/* One report's compact key; ERR_NOTFOUND when absent. */
int report_key(struct session *sess, int64_t id, struct report_key *k,
	       struct err *err);
/* The compact keys of these reports (ids distinct) in a read per 64;
 * an absent report has none.  *out is the caller's to free. */
int report_keys_of(struct session *sess, const int64_t *ids, size_t n,
		   struct report_key **out, size_t *nout, struct err *err);
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

#endif
