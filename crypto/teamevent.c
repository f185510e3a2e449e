/*
 * The team events' canonical encoding (see teamevent.h): one encoder and
 * one strict decoder, both driven by teamevent.def's field lists.
 */
#include <stdlib.h>
#include <string.h>

#include "crypto/teamevent.h"
#include "crypto/wire.h"

_Static_assert(TEAM_FPR_LEN == 40, "wire_fpr_ok checks 40 hex digits");

#define MAGIC "STE"
#define HEAD_LEN (3 + 1 + 1 + 8 + SIGN_HASH_BYTES + TEAM_FPR_LEN + 8)

struct kind_row {
	enum team_event_kind kind;
	const char *name, *sets, *clear;
	enum team_field fields[8];
};

static const struct kind_row kinds[] = {
#define TEAM_FIELD(...)
#define TEAM_KIND(id, code, nm, st, cl, ...) \
	{ TEAM_EV_##id, nm, st, cl, { __VA_ARGS__, TEF_NONE } },
#include "crypto/teamevent.def"
#undef TEAM_FIELD
#undef TEAM_KIND
};

static const struct field_row {
	enum team_field_type type;
	const char *name;
} fields[] = {
	[TEF_NONE] = { TEF_T_U32, "" },
#define TEAM_FIELD(id, t, nm) [TEF_##id] = { t, nm },
#define TEAM_KIND(...)
#include "crypto/teamevent.def"
#undef TEAM_FIELD
#undef TEAM_KIND
};

static const struct kind_row *kind_of(enum team_event_kind kind)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].kind == kind)
			return &kinds[i];
	return NULL;
}

const char *team_event_kind_name(enum team_event_kind kind)
{
	const struct kind_row *k = kind_of(kind);
	return k ? k->name : NULL;
}

const char *team_event_kind_sets(enum team_event_kind kind)
{
	const struct kind_row *k = kind_of(kind);
	return k ? k->sets : NULL;
}

const char *team_event_kind_clear(enum team_event_kind kind)
{
	const struct kind_row *k = kind_of(kind);
	return k ? k->clear : NULL;
}

void team_event_release(struct team_event *ev)
{
	for (size_t i = 0; i < ev->nmembers; i++)
		free(ev->members[i].role);
	free(ev->members);
	for (size_t i = 0; i < ev->nwraps; i++)
		free(ev->wraps[i].blob);
	free(ev->wraps);
	free(ev->role);
	free(ev->cert);
	free(ev->chained);
	free(ev->note);
	memset(ev, 0, sizeof(*ev));
}

static int cmp_member(const void *a, const void *b)
{
	return strcmp(((const struct team_member *)a)->role,
		      ((const struct team_member *)b)->role);
}

static int cmp_wrap(const void *a, const void *b)
{
	return strcmp(((const struct team_wrap *)a)->fpr,
		      ((const struct team_wrap *)b)->fpr);
}

void team_event_sort(struct team_event *ev)
{
	if (ev->nmembers > 1)
		qsort(ev->members, ev->nmembers, sizeof(*ev->members),
		      cmp_member);
	if (ev->nwraps > 1)
		qsort(ev->wraps, ev->nwraps, sizeof(*ev->wraps), cmp_wrap);
}

/* --- checks the encoder and the decoder share ------------------------ */

/* --- the encoder ---------------------------------------------------- */

static void put_lp(struct sbuf *b, const void *p, size_t n)
{
	put_u32(b, (uint32_t)n);
	sbuf_add(b, p, n);
}

static int bad(struct err *err, const char *field, const char *why)
{
	return err_setc(err, ERR_INVALID, "team event field %s: %s", field,
			why);
}

static int put_field(struct sbuf *b, const struct team_event *ev,
		     enum team_field f, struct err *err)
{
	const char *nm = fields[f].name;

	switch (f) {
	case TEF_MEMBERS:
		if (ev->nmembers < 1 || ev->nmembers > TEAM_LIST_MAX)
			return bad(err, nm, "not 1 to 64 members");
		put_u32(b, (uint32_t)ev->nmembers);
		for (size_t i = 0; i < ev->nmembers; i++) {
			const struct team_member *m = &ev->members[i];
			if (!m->role ||
			    !wire_str_ok(m->role, strlen(m->role),
					 TEAM_STR_MAX))
				return bad(
					err, nm,
					"a role that is not 1 to 256 printable characters");
			if (i && strcmp(ev->members[i - 1].role, m->role) >= 0)
				return bad(
					err, nm,
					"roles not in strictly ascending order");
			if (!wire_fpr_ok(m->fpr, strlen(m->fpr)))
				return bad(
					err, nm,
					"a fingerprint that is not 40 upper-case hex digits");
			put_lp(b, m->role, strlen(m->role));
			sbuf_add(b, m->fpr, TEAM_FPR_LEN);
		}
		return 0;
	case TEF_ROLE:
	case TEF_NOTE: {
		const char *s = f == TEF_ROLE ? ev->role : ev->note;
		if (!s || !wire_str_ok(s, strlen(s), TEAM_STR_MAX))
			return bad(err, nm,
				   "not 1 to 256 printable characters");
		put_lp(b, s, strlen(s));
		return 0;
	}
	case TEF_FPR:
		if (!wire_fpr_ok(ev->fpr, strlen(ev->fpr)))
			return bad(err, nm, "not 40 upper-case hex digits");
		sbuf_add(b, ev->fpr, TEAM_FPR_LEN);
		return 0;
	case TEF_SIGNING_KEY:
		sbuf_add(b, (const char *)ev->signing_key, SIGN_PUB_BYTES);
		return 0;
	case TEF_CERT:
	case TEF_CHAINED: {
		const unsigned char *p = f == TEF_CERT ? ev->cert : ev->chained;
		size_t n = f == TEF_CERT ? ev->certlen : ev->chainedlen;
		if (n > TEAM_BLOB_MAX || (n && !p))
			return bad(err, nm, "longer than 64 KiB");
		put_lp(b, p, n);
		return 0;
	}
	case TEF_GENERATION:
		put_u32(b, ev->generation);
		return 0;
	case TEF_PREV_GENERATION:
		put_u32(b, ev->prev_generation);
		return 0;
	case TEF_EVENTS_BEFORE:
		put_u64(b, ev->events_before);
		return 0;
	case TEF_WRAPS:
		if (ev->nwraps < 1 || ev->nwraps > TEAM_LIST_MAX)
			return bad(err, nm, "not 1 to 64 wrapped copies");
		put_u32(b, (uint32_t)ev->nwraps);
		for (size_t i = 0; i < ev->nwraps; i++) {
			const struct team_wrap *w = &ev->wraps[i];
			if (!wire_fpr_ok(w->fpr, strlen(w->fpr)))
				return bad(
					err, nm,
					"a fingerprint that is not 40 upper-case hex digits");
			if (i && strcmp(ev->wraps[i - 1].fpr, w->fpr) >= 0)
				return bad(
					err, nm,
					"fingerprints not in strictly ascending order");
			if (w->len < 1 || w->len > TEAM_BLOB_MAX || !w->blob)
				return bad(
					err, nm,
					"a copy that is empty or longer than 64 KiB");
			sbuf_add(b, w->fpr, TEAM_FPR_LEN);
			put_lp(b, w->blob, w->len);
		}
		return 0;
	case TEF_NONE:
		break;
	}
	return bad(err, "?", "unknown field");
}

int team_event_encode(const struct team_event *ev, unsigned char **out,
		      size_t *len, struct err *err)
{
	const struct kind_row *k = kind_of(ev->kind);
	struct sbuf b = SBUF_INIT;
	char v[2] = { TEAM_EVENT_VERSION, 0 };
	int r = 0;

	*out = NULL;
	*len = 0;
	if (!k)
		return err_setc(err, ERR_INVALID,
				"team event kind %d is none of the table",
				(int)ev->kind);
	if (ev->seq < 1)
		return bad(err, "sequence", "events count from 1");
	if (!wire_fpr_ok(ev->author, strlen(ev->author)))
		return bad(err, "author", "not 40 upper-case hex digits");
	v[1] = (char)ev->kind;
	sbuf_add(&b, MAGIC, 3);
	sbuf_add(&b, v, 2);
	put_u64(&b, ev->seq);
	sbuf_add(&b, (const char *)ev->prev, SIGN_HASH_BYTES);
	sbuf_add(&b, ev->author, TEAM_FPR_LEN);
	put_u64(&b, (uint64_t)ev->at);
	for (size_t i = 0; k->fields[i] != TEF_NONE && r == 0; i++)
		r = put_field(&b, ev, k->fields[i], err);
	if (r < 0) {
		sbuf_release(&b);
		return r;
	}
	*out = (unsigned char *)sbuf_detach(&b, len);
	return 0;
}

/* --- the decoder ---------------------------------------------------- */

static bool get_fpr(struct rd *r, char out[TEAM_FPR_LEN + 1])
{
	const unsigned char *p;

	if (!take(r, TEAM_FPR_LEN, &p) ||
	    !wire_fpr_ok((const char *)p, TEAM_FPR_LEN))
		return false;
	memcpy(out, p, TEAM_FPR_LEN);
	out[TEAM_FPR_LEN] = '\0';
	return true;
}

static bool get_str(struct rd *r, char **out)
{
	uint32_t n;
	const unsigned char *p;

	if (!get_u32(r, &n) || n > TEAM_STR_MAX || !take(r, n, &p) ||
	    !wire_str_ok((const char *)p, n, TEAM_STR_MAX))
		return false;
	*out = xstrndup((const char *)p, n);
	return true;
}

static bool get_blob(struct rd *r, size_t min, unsigned char **out, size_t *len)
{
	uint32_t n;
	const unsigned char *p;

	if (!get_u32(r, &n) || n < min || n > TEAM_BLOB_MAX || !take(r, n, &p))
		return false;
	*out = n ? xmemdup(p, n) : NULL;
	*len = n;
	return true;
}

static int get_field(struct rd *r, struct team_event *ev, enum team_field f,
		     struct err *err)
{
	const char *nm = fields[f].name;
	const unsigned char *p;
	uint32_t n;

	switch (f) {
	case TEF_MEMBERS:
		if (!get_u32(r, &n) || n < 1 || n > TEAM_LIST_MAX)
			return bad(err, nm, "not 1 to 64 members");
		ev->members = xcalloc(n, sizeof(*ev->members));
		for (uint32_t i = 0; i < n; i++) {
			struct team_member *m = &ev->members[i];
			if (!get_str(r, &m->role))
				return bad(
					err, nm,
					"a role that is not 1 to 256 printable characters");
			ev->nmembers++;
			if (i && strcmp(ev->members[i - 1].role, m->role) >= 0)
				return bad(
					err, nm,
					"roles not in strictly ascending order");
			if (!get_fpr(r, m->fpr))
				return bad(
					err, nm,
					"a fingerprint that is not 40 upper-case hex digits");
		}
		return 0;
	case TEF_ROLE:
		return get_str(r, &ev->role)
			? 0
			: bad(err, nm, "not 1 to 256 printable characters");
	case TEF_NOTE:
		return get_str(r, &ev->note)
			? 0
			: bad(err, nm, "not 1 to 256 printable characters");
	case TEF_FPR:
		return get_fpr(r, ev->fpr)
			? 0
			: bad(err, nm, "not 40 upper-case hex digits");
	case TEF_SIGNING_KEY:
		if (!take(r, SIGN_PUB_BYTES, &p))
			return bad(err, nm, "cut short");
		memcpy(ev->signing_key, p, SIGN_PUB_BYTES);
		return 0;
	case TEF_CERT:
		return get_blob(r, 1, &ev->cert, &ev->certlen)
			? 0
			: bad(err, nm,
			      "empty, cut short or longer than 64 KiB");
	case TEF_CHAINED:
		return get_blob(r, 0, &ev->chained, &ev->chainedlen)
			? 0
			: bad(err, nm, "cut short or longer than 64 KiB");
	case TEF_GENERATION:
		return get_u32(r, &ev->generation) ? 0
						   : bad(err, nm, "cut short");
	case TEF_PREV_GENERATION:
		return get_u32(r, &ev->prev_generation)
			? 0
			: bad(err, nm, "cut short");
	case TEF_EVENTS_BEFORE:
		return get_u64(r, &ev->events_before)
			? 0
			: bad(err, nm, "cut short");
	case TEF_WRAPS:
		if (!get_u32(r, &n) || n < 1 || n > TEAM_LIST_MAX)
			return bad(err, nm, "not 1 to 64 wrapped copies");
		ev->wraps = xcalloc(n, sizeof(*ev->wraps));
		for (uint32_t i = 0; i < n; i++) {
			struct team_wrap *w = &ev->wraps[i];
			if (!get_fpr(r, w->fpr))
				return bad(
					err, nm,
					"a fingerprint that is not 40 upper-case hex digits");
			if (i && strcmp(ev->wraps[i - 1].fpr, w->fpr) >= 0)
				return bad(
					err, nm,
					"fingerprints not in strictly ascending order");
			if (!get_blob(r, 1, &w->blob, &w->len))
				return bad(
					err, nm,
					"a copy that is empty, cut short or longer than 64 KiB");
			ev->nwraps++;
		}
		return 0;
	case TEF_NONE:
		break;
	}
	return bad(err, "?", "unknown field");
}

int team_event_decode(const void *data, size_t len, struct team_event *ev,
		      struct err *err)
{
	struct rd r = { data, len };
	struct team_event e;
	const struct kind_row *k;
	const unsigned char *p;
	uint64_t at;
	int rc = 0;

	memset(ev, 0, sizeof(*ev));
	memset(&e, 0, sizeof(e));
	if (len > TEAM_EVENT_MAX)
		return err_setc(err, ERR_INVALID,
				"team event longer than its limit");
	if (!take(&r, 5, &p) || memcmp(p, MAGIC, 3))
		return err_setc(err, ERR_INVALID,
				"no team event (no STE magic)");
	if (p[3] != TEAM_EVENT_VERSION)
		return err_setc(err, ERR_INVALID,
				"team event version %u: only %d is known", p[3],
				TEAM_EVENT_VERSION);
	if (!(k = kind_of((enum team_event_kind)p[4])))
		return err_setc(err, ERR_INVALID,
				"team event kind %u is none of the table",
				p[4]);
	e.kind = k->kind;
	if (!get_u64(&r, &e.seq) || e.seq < 1)
		return bad(err, "sequence", "missing, or 0");
	if (!take(&r, SIGN_HASH_BYTES, &p))
		return bad(err, "previous", "cut short");
	memcpy(e.prev, p, SIGN_HASH_BYTES);
	if (!get_fpr(&r, e.author))
		return bad(err, "author", "not 40 upper-case hex digits");
	if (!get_u64(&r, &at))
		return bad(err, "time", "cut short");
	e.at = (int64_t)at;
	for (size_t i = 0; k->fields[i] != TEF_NONE && rc == 0; i++)
		rc = get_field(&r, &e, k->fields[i], err);
	if (rc == 0 && r.left)
		rc = err_setc(err, ERR_INVALID,
			      "%zu byte(s) after the team event's last field",
			      r.left);
	if (rc < 0) {
		team_event_release(&e);
		return rc;
	}
	*ev = e;
	return 0;
}
