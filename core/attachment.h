/*
 * A report's attachments (attachment.c), numbered across its thread:
 * listing them, saving one (never through a link), the event that
 * records saving exploit code.
 */
#ifndef SECTEAM_CORE_ATTACHMENT_H
#define SECTEAM_CORE_ATTACHMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/session.h"
#include "core/report.h"
#include "store/types.h"
#include "util/util.h"

/* attachment.c: a report's attachments, numbered across its thread. */
struct report_attachment {
	size_t number; /* 1, 2, ... over every message, in order */
	size_t message; /* the message it came in, from 1 */
	bool is_signed; /* inside what a valid or good signature covers */
	struct attachment_info info; /* with its data */
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
/*
 * The name the UI offers to save an attachment under, as mutt does: the
 * mail's own file name made safe (its last path component, every byte
 * but letters, digits, '.', '_', '+' and '-' made '_', no leading dot,
 * at most 80 bytes), or "attachment-N" when nothing is left.  Caller
 * frees.
 */
char *attachment_safe_name(const char *filename, size_t number);
/*
 * Where a name typed at the UI's save prompt goes: "~" and "~/..."
 * are the home folder ($HOME), an absolute name stays, a relative one
 * goes under dir (the config's attach.save_dir, itself expanded; NULL
 * or empty: "~/").  Caller frees.
 */
char *attachment_save_path(const char *dir, const char *typed);
/* Records that a was saved, when it is exploit code (an event
 * "attachment-saved"); 0 otherwise.  0 or negative. */
int attachment_saved(struct session *sess, int64_t id,
		     const struct report_attachment *a, struct err *err);

#endif
