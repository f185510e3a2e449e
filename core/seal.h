/*
 * Bodies at rest (internal to core/): the store seals each under the
 * team key for its row (crypto/teamkey.h): the message as received, or,
 * when it was encrypted to some roster keys only, its decrypted content
 * (what was shown, as a MIME entity), so every officer can read it.
 */
#ifndef SECTEAM_SEAL_H
#define SECTEAM_SEAL_H

#include "core/pipeline.h"

/* The content entity of po (its shown text and attachments, a MIME
 * entity) that the store seals in place of the message; *entity is the
 * caller's to wipe. */
int seal_content_entity(const struct pipeline_out *po, char **entity,
			size_t *len, struct err *err);
/* True when the key IDs recipients (as a decryption reports them) cover
 * every roster key; with exact, also when none is outside the roster. */
bool seal_covers_roster(struct session *sess, char *const *recipients,
			size_t n, bool exact);

#endif
