/*
 * Report events: the signed, hash-linked record of each report (one chain
 * per report, so officers writing to different reports never wait for
 * each other).
 *
 * Each kind is a row of reportevent.def.  An event's canonical encoding,
 * which its signature covers and its hash names, is:
 *   "SRE" | version (1 byte, 1) | kind code (1) | report id (8) |
 *   sequence (8, its place in the report's chain from 1) | previous
 *   event's hash (32; zeros for the first) | team chain place (8) and
 *   hash (32) of the newest team event its author had verified |
 *   author's OpenPGP fingerprint (40 upper-case hex digits) | time (8,
 *   seconds since 1970, two's complement) | the kind's fields
 * all integers big-endian; a field as its type says: u32 (4), u64 (8), a
 * hash (32), hashes (u32 count, at most 4096, then 32 bytes each,
 * strictly ascending), a string (u32 length, 1 to 256 bytes of printable
 * ASCII), an optional string (the same, 0 to 256 bytes).  Every value has exactly one encoding: the decoder refuses any
 * other (an unknown kind or version, a length past its limit or its end,
 * an unsorted or repeated list, bytes left over).  The chain hash is
 * BLAKE2b-256 of the encoding; the signature is Ed25519 over it, by the
 * author's signing key as the team chain certified it.
 */
#ifndef SECTEAM_REPORTEVENT_H
#define SECTEAM_REPORTEVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/signkey.h"
#include "util/util.h"

#define REPORT_EVENT_VERSION 1
#define REPORT_FPR_LEN 40
#define REPORT_STR_MAX 256
#define REPORT_HASHES_MAX 4096
/* The most an encoding can be: what a reader refuses past. */
#define REPORT_EVENT_MAX (REPORT_HASHES_MAX * SIGN_HASH_BYTES + (size_t)4096)

enum report_field_type {
	REF_T_U32,
	REF_T_U64,
	REF_T_HASH,
	REF_T_HASHES,
	REF_T_STR,
	REF_T_OSTR, /* a string that may be empty (NULL in the struct) */
};

enum report_field {
	REF_NONE,
#define REPORT_FIELD(id, ...) REF_##id,
#define REPORT_KIND(...)
#include "crypto/reportevent.def"
#undef REPORT_FIELD
#undef REPORT_KIND
};

enum report_event_kind {
	REPORT_EV_NONE = 0,
#define REPORT_FIELD(...)
#define REPORT_KIND(id, code, name, sets, clear, ...) REPORT_EV_##id = code,
#include "crypto/reportevent.def"
#undef REPORT_FIELD
#undef REPORT_KIND
};

/* One event: the header, and the fields its kind has (the others stay
 * zero). */
struct report_event {
	enum report_event_kind kind;
	int64_t report;
	uint64_t seq;
	unsigned char prev[SIGN_HASH_BYTES];
	uint64_t team_seq;
	unsigned char team_head[SIGN_HASH_BYTES];
	char author[REPORT_FPR_LEN + 1];
	int64_t at;

	uint32_t generation;
	uint64_t message;
	unsigned char digest[SIGN_HASH_BYTES];
	unsigned char values[SIGN_HASH_BYTES];
	unsigned char signatures[SIGN_HASH_BYTES];
	unsigned char report_values[SIGN_HASH_BYTES];
	unsigned char (*files)[SIGN_HASH_BYTES];
	size_t nfiles;
	uint64_t taken_in;
	char *note;
	/* a change: the events row, its kind and ref, keyed hashes of its
	 * value, its text and the row of another table it names */
	uint64_t event;
	char *event_kind;
	uint64_t ref;
	unsigned char value[SIGN_HASH_BYTES];
	unsigned char detail[SIGN_HASH_BYTES];
	unsigned char row[SIGN_HASH_BYTES];
	/* changes taken in: the report's scalar state as it stood */
	char *state;
	char *severity;
	char *claimed;
	uint32_t flags; /* REPORT_FLAG_* */
	uint64_t release;
	uint64_t decisions, proposals; /* the newest of each taken in */
	unsigned char dates[SIGN_HASH_BYTES];
};

/* The flags of a changes-taken-in event. */
#define REPORT_FLAG_CREDIT 1u
#define REPORT_FLAG_EXPLOIT 2u
#define REPORT_FLAG_PUBLIC 4u

void report_event_release(struct report_event *ev);
/* The kind's name ("import"), or NULL for no kind of the table. */
const char *report_event_kind_name(enum report_event_kind kind);
/* What a verified event of kind sets, and what of it stays clear. */
const char *report_event_kind_sets(enum report_event_kind kind);
const char *report_event_kind_clear(enum report_event_kind kind);

/* ev's canonical encoding (*out the caller's).  ERR_INVALID naming the
 * field when ev holds a value no encoding has: the encoder refuses what
 * the decoder would. */
int report_event_encode(const struct report_event *ev, unsigned char **out,
			size_t *len, struct err *err);
/* The event data (len bytes) encodes, or ERR_INVALID naming the first
 * thing that is not canonical; *ev is filled only on success
 * (report_event_release). */
int report_event_decode(const void *data, size_t len, struct report_event *ev,
			struct err *err);
/* Sorts ev's file hashes and drops repeated ones, as the encoding wants
 * them. */
void report_event_sort(struct report_event *ev);

#endif
