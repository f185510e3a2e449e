/*
 * Team events: the signed, hash-linked record of the team's membership,
 * officers' signing keys and team key generations (the team chain).
 *
 * Each kind is a row of teamevent.def.  An event's canonical encoding,
 * which its signature covers and its hash names, is:
 *   "STE" | version (1 byte, 1) | kind code (1) | sequence (8, its place
 *   in the chain from 1) | previous event's hash (32; zeros for the
 *   first) | author's OpenPGP fingerprint (40 upper-case hex digits) |
 *   time (8, seconds since 1970, two's complement) | the kind's fields
 * all integers big-endian; a field as its type says: u32 (4), u64 (8), a
 * fingerprint (40 upper-case hex digits), a 32-byte key, a string (u32
 * length, 1 to 256 bytes of printable ASCII), a blob (u32 length, at most
 * 64 KiB), members (u32 count, 1 to 64, then role string and fingerprint
 * each, roles strictly ascending), wrapped copies (u32 count, 1 to 64,
 * then fingerprint and blob each, fingerprints strictly ascending).
 * Every value has exactly one encoding: the decoder refuses any other
 * (an unknown kind or version, a length past its limit or its end,
 * lower-case hex, an unsorted or repeated list, bytes left over).
 * The chain hash is BLAKE2b-256 of the encoding; the signature is
 * Ed25519 over it, by the author's certified signing key.
 */
#ifndef SECTEAM_TEAMEVENT_H
#define SECTEAM_TEAMEVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/signkey.h"
#include "util/util.h"

#define TEAM_EVENT_VERSION 1
#define TEAM_FPR_LEN 40
#define TEAM_STR_MAX 256
#define TEAM_BLOB_MAX 65536
#define TEAM_LIST_MAX 64
/* The most an encoding can be (64 wrapped copies at the blob limit,
 * and the rest): what a reader refuses past. */
#define TEAM_EVENT_MAX \
	(TEAM_LIST_MAX * (TEAM_FPR_LEN + 4 + TEAM_BLOB_MAX) + (size_t)4096)

enum team_field_type {
	TEF_T_U32,
	TEF_T_U64,
	TEF_T_FPR,
	TEF_T_KEY32,
	TEF_T_STR,
	TEF_T_BLOB,
	TEF_T_MEMBERS,
	TEF_T_WRAPS,
};

enum team_field {
	TEF_NONE,
#define TEAM_FIELD(id, type, name) TEF_##id,
#define TEAM_KIND(...)
#include "crypto/teamevent.def"
#undef TEAM_FIELD
#undef TEAM_KIND
};

enum team_event_kind {
	TEAM_EV_NONE = 0,
#define TEAM_FIELD(...)
#define TEAM_KIND(id, code, name, sets, clear, ...) TEAM_EV_##id = code,
#include "crypto/teamevent.def"
#undef TEAM_FIELD
#undef TEAM_KIND
};

struct team_member {
	char *role;
	char fpr[TEAM_FPR_LEN + 1];
};

struct team_wrap {
	char fpr[TEAM_FPR_LEN + 1];
	unsigned char *blob;
	size_t len;
};

/* One event: the header, and the fields its kind has (the others stay
 * zero). */
struct team_event {
	enum team_event_kind kind;
	uint64_t seq;
	unsigned char prev[SIGN_HASH_BYTES];
	char author[TEAM_FPR_LEN + 1];
	int64_t at;

	struct team_member *members;
	size_t nmembers;
	char *role;
	char fpr[TEAM_FPR_LEN + 1];
	unsigned char signing_key[SIGN_PUB_BYTES];
	unsigned char *cert;
	size_t certlen;
	uint32_t generation, prev_generation;
	unsigned char *chained;
	size_t chainedlen;
	struct team_wrap *wraps;
	size_t nwraps;
	uint64_t events_before;
	char *note;
};

void team_event_release(struct team_event *ev);
/* The kind's name ("officer-added"), or NULL for no kind of the table. */
const char *team_event_kind_name(enum team_event_kind kind);
/* What a verified event of kind sets, and what of it stays clear. */
const char *team_event_kind_sets(enum team_event_kind kind);
const char *team_event_kind_clear(enum team_event_kind kind);

/* ev's canonical encoding (*out the caller's).  ERR_INVALID naming the
 * field when ev holds a value no encoding has (a fingerprint that is not
 * 40 upper-case hex digits, a list out of order, a length past its
 * limit): the encoder refuses what the decoder would. */
int team_event_encode(const struct team_event *ev, unsigned char **out,
		      size_t *len, struct err *err);
/* The event data (len bytes) encodes, or ERR_INVALID naming the first
 * thing that is not canonical; *ev is filled only on success
 * (team_event_release). */
int team_event_decode(const void *data, size_t len, struct team_event *ev,
		      struct err *err);
/* Sorts ev's members by role and wrapped copies by fingerprint, as the
 * encoding wants them. */
void team_event_sort(struct team_event *ev);

#endif
