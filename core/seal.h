/*
 * Bodies at rest (internal to core/): the store seals each under the
 * team key for its row (crypto/teamkey.h).  A message is kept as
 * received, so that every opening verifies it again from its bytes;
 * one that was encrypted is kept after the session keys its decryption
 * gave, which open it again for every officer, whoever it was encrypted
 * to.  Messages an older version kept as their decrypted content alone
 * (BLOB_CONTENT) still open, with the verdict recorded at import.
 */
#ifndef SECTEAM_SEAL_H
#define SECTEAM_SEAL_H

#include "core/pipeline.h"

/* The keyed form of a message (BLOB_KEYED): "secteam-session-keys N",
 * then N lines, each a decryption's session key or "-" for none, then
 * the message as received.  keys[i] may be NULL.  A new buffer, the
 * caller's to wipe. */
char *seal_keyed(char *const *keys, size_t n, const char *raw, size_t len,
		 size_t *out_len);
/* Its parts: *keys (each NULL for "-"; free with seal_keys_free) and
 * where the message starts in buf.  ERR_INVALID, naming the problem,
 * when buf is no keyed form. */
int seal_keyed_open(const char *buf, size_t len, char ***keys, size_t *nkeys,
		    const char **raw, size_t *raw_len, struct err *err);
void seal_keys_free(char **keys, size_t n);

#endif
