/*
 * The report events' canonical encoding (see reportevent.h): one encoder
 * and one strict decoder, both driven by reportevent.def's field lists.
 */
#include <stdlib.h>
#include <string.h>

#include "crypto/reportevent.h"
#include "crypto/wire.h"

_Static_assert(REPORT_FPR_LEN == 40, "wire_fpr_ok checks 40 hex digits");

#define MAGIC "SRE"

#include <stddef.h>

struct kind_row {
	enum report_event_kind kind;
	const char *name, *sets, *clear;
	enum report_field fields[16];
};

static const struct kind_row kinds[] = {
#define REPORT_FIELD(...)
#define REPORT_KIND(id, code, nm, st, cl, ...) \
	{ REPORT_EV_##id, nm, st, cl, { __VA_ARGS__, REF_NONE } },
#include "crypto/reportevent.def"
#undef REPORT_FIELD
#undef REPORT_KIND
};

/* Each field: its type, name and where struct report_event holds it (a
 * list of hashes: the array; its count is nfiles, the only list). */
static const struct field_row {
	enum report_field_type type;
	const char *name;
	size_t off;
} fields[] = {
	[REF_NONE] = { REF_T_U32, "", 0 },
#define REPORT_FIELD(id, t, nm, member) \
	[REF_##id] = { t, nm, offsetof(struct report_event, member) },
#define REPORT_KIND(...)
#include "crypto/reportevent.def"
#undef REPORT_FIELD
#undef REPORT_KIND
};

#define AT(ev, f, type) ((type *)((char *)(ev) + fields[f].off))

static const struct kind_row *kind_of(enum report_event_kind kind)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].kind == kind)
			return &kinds[i];
	return NULL;
}

const char *report_event_kind_name(enum report_event_kind kind)
{
	const struct kind_row *k = kind_of(kind);
	return k ? k->name : NULL;
}

const char *report_event_kind_sets(enum report_event_kind kind)
{
	const struct kind_row *k = kind_of(kind);
	return k ? k->sets : NULL;
}

const char *report_event_kind_clear(enum report_event_kind kind)
{
	const struct kind_row *k = kind_of(kind);
	return k ? k->clear : NULL;
}

void report_event_release(struct report_event *ev)
{
	free(ev->files);
	free(ev->note);
	free(ev->event_kind);
	free(ev->state);
	free(ev->severity);
	free(ev->claimed);
	memset(ev, 0, sizeof(*ev));
}

static int cmp_hash(const void *a, const void *b)
{
	return memcmp(a, b, SIGN_HASH_BYTES);
}

void report_event_sort(struct report_event *ev)
{
	size_t k = 0;

	if (ev->nfiles < 2)
		return;
	qsort(ev->files, ev->nfiles, sizeof(*ev->files), cmp_hash);
	for (size_t i = 1; i < ev->nfiles; i++)
		if (memcmp(ev->files[k], ev->files[i], SIGN_HASH_BYTES))
			memcpy(ev->files[++k], ev->files[i], SIGN_HASH_BYTES);
	ev->nfiles = k + 1;
}

static int bad(struct err *err, const char *field, const char *why)
{
	return err_setc(err, ERR_INVALID, "report event field %s: %s", field,
			why);
}

/* --- the encoder ---------------------------------------------------- */

static int put_field(struct sbuf *b, const struct report_event *ev,
		     enum report_field f, struct err *err)
{
	const char *nm = fields[f].name;
	const char *str;

	switch (fields[f].type) {
	case REF_T_U32:
		put_u32(b, *AT(ev, f, const uint32_t));
		return 0;
	case REF_T_U64:
		put_u64(b, *AT(ev, f, const uint64_t));
		return 0;
	case REF_T_HASH:
		sbuf_add(b, AT(ev, f, const char), SIGN_HASH_BYTES);
		return 0;
	case REF_T_HASHES:
		if (ev->nfiles > REPORT_HASHES_MAX ||
		    (ev->nfiles && !ev->files))
			return bad(err, nm, "more than 4096 hashes");
		put_u32(b, (uint32_t)ev->nfiles);
		for (size_t i = 0; i < ev->nfiles; i++) {
			if (i && cmp_hash(ev->files[i - 1], ev->files[i]) >= 0)
				return bad(
					err, nm,
					"hashes not in strictly ascending order");
			sbuf_add(b, (const char *)ev->files[i],
				 SIGN_HASH_BYTES);
		}
		return 0;
	case REF_T_STR:
	case REF_T_OSTR:
		str = *AT(ev, f, char *const);
		if (fields[f].type == REF_T_OSTR && (!str || !*str)) {
			put_u32(b, 0);
			return 0;
		}
		if (!str || !wire_str_ok(str, strlen(str), REPORT_STR_MAX))
			return bad(err, nm,
				   "not 1 to 256 printable characters");
		put_u32(b, (uint32_t)strlen(str));
		sbuf_add(b, str, strlen(str));
		return 0;
	}
	return bad(err, "?", "unknown field");
}

int report_event_encode(const struct report_event *ev, unsigned char **out,
			size_t *len, struct err *err)
{
	const struct kind_row *k = kind_of(ev->kind);
	struct sbuf b = SBUF_INIT;
	char v[2] = { REPORT_EVENT_VERSION, 0 };
	int r = 0;

	*out = NULL;
	*len = 0;
	if (!k)
		return err_setc(err, ERR_INVALID,
				"report event kind %d is none of the table",
				(int)ev->kind);
	if (ev->report < 1)
		return bad(err, "report", "report ids count from 1");
	if (ev->seq < 1)
		return bad(err, "sequence", "events count from 1");
	if (!wire_fpr_ok(ev->author, strlen(ev->author)))
		return bad(err, "author", "not 40 upper-case hex digits");
	v[1] = (char)ev->kind;
	sbuf_add(&b, MAGIC, 3);
	sbuf_add(&b, v, 2);
	put_u64(&b, (uint64_t)ev->report);
	put_u64(&b, ev->seq);
	sbuf_add(&b, (const char *)ev->prev, SIGN_HASH_BYTES);
	put_u64(&b, ev->team_seq);
	sbuf_add(&b, (const char *)ev->team_head, SIGN_HASH_BYTES);
	sbuf_add(&b, ev->author, REPORT_FPR_LEN);
	put_u64(&b, (uint64_t)ev->at);
	for (size_t i = 0; k->fields[i] != REF_NONE && r == 0; i++)
		r = put_field(&b, ev, k->fields[i], err);
	if (r < 0) {
		sbuf_release(&b);
		return r;
	}
	*out = (unsigned char *)sbuf_detach(&b, len);
	return 0;
}

/* --- the decoder ---------------------------------------------------- */

static bool get_hash(struct rd *r, unsigned char out[SIGN_HASH_BYTES])
{
	const unsigned char *p;

	if (!take(r, SIGN_HASH_BYTES, &p))
		return false;
	memcpy(out, p, SIGN_HASH_BYTES);
	return true;
}

static int get_field(struct rd *r, struct report_event *ev, enum report_field f,
		     struct err *err)
{
	const char *nm = fields[f].name;
	const unsigned char *p;
	uint32_t n;

	switch (fields[f].type) {
	case REF_T_U32:
		return get_u32(r, AT(ev, f, uint32_t))
			? 0
			: bad(err, nm, "cut short");
	case REF_T_U64:
		return get_u64(r, AT(ev, f, uint64_t))
			? 0
			: bad(err, nm, "cut short");
	case REF_T_HASH:
		return get_hash(r, AT(ev, f, unsigned char))
			? 0
			: bad(err, nm, "cut short");
	case REF_T_HASHES:
		if (!get_u32(r, &n) || n > REPORT_HASHES_MAX)
			return bad(err, nm, "more than 4096 hashes");
		if (!take(r, (size_t)n * SIGN_HASH_BYTES, &p))
			return bad(err, nm, "cut short");
		for (uint32_t i = 1; i < n; i++)
			if (cmp_hash(p + (i - 1) * SIGN_HASH_BYTES,
				     p + i * SIGN_HASH_BYTES) >= 0)
				return bad(
					err, nm,
					"hashes not in strictly ascending order");
		if (n) {
			ev->files = xmemdup(p, (size_t)n * SIGN_HASH_BYTES);
			ev->nfiles = n;
		}
		return 0;
	case REF_T_STR:
	case REF_T_OSTR:
		if (!get_u32(r, &n) || n > REPORT_STR_MAX || !take(r, n, &p))
			return bad(err, nm, "cut short or past 256 bytes");
		if (!n && fields[f].type == REF_T_OSTR)
			return 0;
		if (!wire_str_ok((const char *)p, n, REPORT_STR_MAX))
			return bad(err, nm,
				   "not 1 to 256 printable characters");
		*AT(ev, f, char *) = xstrndup((const char *)p, n);
		return 0;
	}
	return bad(err, "?", "unknown field");
}

int report_event_decode(const void *data, size_t len, struct report_event *ev,
			struct err *err)
{
	struct rd r = { data, len };
	struct report_event e;
	const struct kind_row *k;
	const unsigned char *p;
	uint64_t v;
	int rc = 0;

	memset(ev, 0, sizeof(*ev));
	memset(&e, 0, sizeof(e));
	if (len > REPORT_EVENT_MAX)
		return err_setc(err, ERR_INVALID,
				"report event longer than its limit");
	if (!take(&r, 5, &p) || memcmp(p, MAGIC, 3))
		return err_setc(err, ERR_INVALID,
				"no report event (no SRE magic)");
	if (p[3] != REPORT_EVENT_VERSION)
		return err_setc(err, ERR_INVALID,
				"report event version %u: only %d is known",
				p[3], REPORT_EVENT_VERSION);
	if (!(k = kind_of((enum report_event_kind)p[4])))
		return err_setc(err, ERR_INVALID,
				"report event kind %u is none of the table",
				p[4]);
	e.kind = k->kind;
	if (!get_u64(&r, &v) || v < 1 || v > INT64_MAX)
		return bad(err, "report", "missing, 0 or past 2^63");
	e.report = (int64_t)v;
	if (!get_u64(&r, &e.seq) || e.seq < 1)
		return bad(err, "sequence", "missing, or 0");
	if (!get_hash(&r, e.prev))
		return bad(err, "previous", "cut short");
	if (!get_u64(&r, &e.team_seq) || !get_hash(&r, e.team_head))
		return bad(err, "team head", "cut short");
	if (!take(&r, REPORT_FPR_LEN, &p) ||
	    !wire_fpr_ok((const char *)p, REPORT_FPR_LEN))
		return bad(err, "author", "not 40 upper-case hex digits");
	memcpy(e.author, p, REPORT_FPR_LEN);
	if (!get_u64(&r, &v))
		return bad(err, "time", "cut short");
	e.at = (int64_t)v;
	for (size_t i = 0; k->fields[i] != REF_NONE && rc == 0; i++)
		rc = get_field(&r, &e, k->fields[i], err);
	if (rc == 0 && r.left)
		rc = err_setc(err, ERR_INVALID,
			      "%zu byte(s) after the report event's last field",
			      r.left);
	if (rc < 0) {
		report_event_release(&e);
		return rc;
	}
	*ev = e;
	return 0;
}
