/*
 * Bodies at rest (internal to core/): everything a report brings is kept
 * only encrypted to the team roster.  A message already encrypted to
 * every roster key may be kept as received; anything else is sealed:
 * the message as received when no key is needed to read it, or, when it
 * was encrypted to some keys only, its decrypted content (what was
 * shown, as a MIME entity) so every officer of the roster can read it.
 */
#ifndef SECTEAM_SEAL_H
#define SECTEAM_SEAL_H

#include "core/pipeline.h"

/* Encrypts data to every roster key; *blob is the caller's. */
int seal_bytes(struct session *sess, const void *data, size_t len,
	       unsigned char **blob, size_t *blob_len, struct err *err);
/* Builds the content entity of po (its shown text and attachments) and
 * seals it; *digest (caller frees) is the SHA-256 of the entity, what
 * the blob opens to. */
int seal_content(struct session *sess, const struct pipeline_out *po,
		 unsigned char **blob, size_t *blob_len, char **digest,
		 struct err *err);
/* The content entity of po (its shown text and attachments, a MIME
 * entity) that seal_content would seal; *entity is the caller's to wipe. */
int seal_content_entity(const struct pipeline_out *po, char **entity,
			size_t *len, struct err *err);
/* True when the key IDs recipients (as a decryption reports them) cover
 * every roster key; with exact, also when none is outside the roster. */
bool seal_covers_roster(struct session *sess, char *const *recipients,
			size_t n, bool exact);

#endif
