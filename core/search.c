/*
 * Searching reports (search.h): the query's keys and the fields the
 * store holds (subject, reporter, state, received, touched files) pick
 * the candidates without a passphrase; only then are the candidates'
 * messages decrypted, one at a time, in memory, for the words the
 * fields did not hold.  Each opened text is copied once into a buffer
 * sized for it up front (so no reallocation leaves a copy behind),
 * searched, and wiped with the opened message.  Nothing is written.
 */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/core.h"
#include "core/search.h"
#include "core/sindex.h"
#include "mail/mail.h"
#include "store/store.h"

/* --- the query --------------------------------------------------------*/

static void push(char ***v, size_t *n, char *s)
{
	*v = xrealloc(*v, (*n + 2) * sizeof(**v));
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

/* s[0..len) lowercase (ASCII), white space runs made one space, trimmed,
 * into out (room for len + 1). */
static char *fold_into(const char *s, size_t len, char *out)
{
	char *o = out;
	bool space = true;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (isspace(c)) {
			if (!space)
				*o++ = ' ';
			space = true;
			continue;
		}
		*o++ = (char)tolower(c);
		space = false;
	}
	if (o > out && o[-1] == ' ')
		o--;
	*o = '\0';
	return out;
}

static char *fold(const char *s, size_t len)
{
	return fold_into(s, len, xmalloc(len + 1));
}

/* "YYYY-MM-DD" as the UTC midnight starting that day. */
static int parse_day(const char *s, size_t len, time_t *out)
{
	struct tm tm;
	char buf[16], *end;

	if (len != 10)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	memset(&tm, 0, sizeof(tm));
	end = strptime(buf, "%Y-%m-%d", &tm);
	if (!end || *end)
		return -1;
	*out = timegm(&tm);
	return 0;
}

/* received:A..B, A.., ..B or A: [after, before) in whole UTC days. */
static int parse_received(struct search_query *q, const char *v,
			  struct err *err)
{
	const char *dots = strstr(v, "..");
	size_t alen = dots ? (size_t)(dots - v) : strlen(v);
	const char *b = dots ? dots + 2 : NULL;
	time_t t;

	if (alen && parse_day(v, alen, &t) < 0)
		goto bad;
	if (alen)
		q->after = t;
	if (!dots) {
		if (!alen)
			goto bad;
		q->before = t + 86400;
		return 0;
	}
	if (*b && parse_day(b, strlen(b), &t) < 0)
		goto bad;
	if (*b)
		q->before = t + 86400;
	if (!alen && !*b)
		goto bad;
	if (q->after && q->before && q->before <= q->after)
		return err_setc(err, ERR_INVALID,
				"search: received:%s ends before it starts", v);
	return 0;
bad:
	return err_setc(
		err, ERR_INVALID,
		"search: received:%s is not a date range (YYYY-MM-DD..YYYY-MM-DD, "
		"either end may be left out)",
		v);
}

static int parse_severities(struct search_query *q, const char *v,
			    struct err *err)
{
	char **set = NULL, *copy = xstrdup(v), *save = NULL;
	size_t n = 0;
	int rc = 0;

	for (char *s = strtok_r(copy, ",", &save); s;
	     s = strtok_r(NULL, ",", &save)) {
		char *low = fold(s, strlen(s));
		if (!triage_severity_valid(low)) {
			rc = err_setc(
				err, ERR_INVALID,
				"search: unknown severity '%s' in severity:%s "
				"(none, low, medium, high, critical)",
				s, v);
			free(low);
			break;
		}
		push(&set, &n, low);
	}
	free(copy);
	if (rc == 0 && !n)
		rc = err_setc(err, ERR_INVALID,
			      "search: severity: needs a severity");
	if (rc < 0) {
		for (size_t i = 0; i < n; i++)
			free(set[i]);
		free(set);
		return rc;
	}
	q->severities = xrealloc(q->severities,
				 (q->nseverities + 1) * sizeof(*q->severities));
	q->severities[q->nseverities++] = set;
	return 0;
}

static int parse_states(struct search_query *q, const char *v, struct err *err)
{
	char **set = NULL, *copy = xstrdup(v), *save = NULL;
	size_t n = 0;
	int rc = 0;

	for (char *s = strtok_r(copy, ",", &save); s;
	     s = strtok_r(NULL, ",", &save)) {
		char *low = fold(s, strlen(s));
		if (strcmp(low, "open") && !triage_state_valid(low)) {
			char *names = triage_state_names(", ");
			rc = err_setc(
				err, ERR_INVALID,
				"search: unknown state '%s' in state:%s (%s, or open)",
				s, v, names);
			free(names);
			free(low);
			break;
		}
		push(&set, &n, low);
	}
	free(copy);
	if (rc == 0 && !n)
		rc = err_setc(err, ERR_INVALID, "search: state: needs a state");
	if (rc < 0) {
		for (size_t i = 0; i < n; i++)
			free(set[i]);
		free(set);
		return rc;
	}
	q->states = xrealloc(q->states, (q->nstates + 1) * sizeof(*q->states));
	q->states[q->nstates++] = set;
	return 0;
}

/* One quoted or bare value at *p (moved past it) into *out. */
static int take_value(const char **p, char **out, const char *query,
		      struct err *err)
{
	const char *s = *p, *e;

	if (*s == '"') {
		if (!(e = strchr(s + 1, '"')))
			return err_setc(err, ERR_INVALID,
					"search: unclosed quote in '%s'",
					query);
		*out = xstrndup(s + 1, (size_t)(e - s - 1));
		*p = e + 1;
		return 0;
	}
	e = s + strcspn(s, " \t\r\n");
	*out = xstrndup(s, (size_t)(e - s));
	*p = e;
	return 0;
}

static const char *const keys[] = { "file",	"from",	   "state",
				    "received", "subject", "severity" };

int search_parse(const char *query, struct search_query *q, struct err *err)
{
	const char *p = query;
	int rc = 0;

	memset(q, 0, sizeof(*q));
	while (rc == 0) {
		size_t k, klen = 0;
		char *v = NULL;

		p += strspn(p, " \t\r\n");
		if (!*p)
			break;
		for (k = 0; k < ARRAY_SIZE(keys); k++) {
			klen = strlen(keys[k]);
			/* "state=S" and "severity=S", the list filter's
			 * older form, are the same terms. */
			if (!strncasecmp(p, keys[k], klen) &&
			    (p[klen] == ':' ||
			     (p[klen] == '=' && (k == 2 || k == 5))))
				break;
		}
		if (k == ARRAY_SIZE(keys)) {
			/* A word or a "phrase". */
			if ((rc = take_value(&p, &v, query, err)) < 0)
				break;
			char *w = fold(v, strlen(v));
			free(v);
			if (*w)
				push(&q->words, &q->nwords, w);
			else
				free(w);
			continue;
		}
		p += klen + 1;
		if ((rc = take_value(&p, &v, query, err)) < 0)
			break;
		if (!*v) {
			rc = err_setc(err, ERR_INVALID,
				      "search: %s: needs a value", keys[k]);
		} else if (k == 0) {
			push(&q->files, &q->nfiles, fold(v, strlen(v)));
		} else if (k == 1) {
			push(&q->from, &q->nfrom, fold(v, strlen(v)));
		} else if (k == 2) {
			rc = parse_states(q, v, err);
		} else if (k == 3) {
			rc = parse_received(q, v, err);
		} else if (k == 5) {
			rc = parse_severities(q, v, err);
		} else {
			push(&q->subjects, &q->nsubjects, fold(v, strlen(v)));
		}
		free(v);
	}
	if (rc == 0 && !q->nwords && !q->nfiles && !q->nfrom && !q->nstates &&
	    !q->nseverities && !q->nsubjects && !q->after && !q->before)
		rc = err_setc(err, ERR_INVALID, "search: an empty query");
	return rc;
}

static void strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void search_query_release(struct search_query *q)
{
	strv_free(q->words, q->nwords);
	strv_free(q->files, q->nfiles);
	strv_free(q->from, q->nfrom);
	strv_free(q->subjects, q->nsubjects);
	for (size_t i = 0; i < q->nstates; i++) {
		for (char **s = q->states[i]; *s; s++)
			free(*s);
		free(q->states[i]);
	}
	free(q->states);
	for (size_t i = 0; i < q->nseverities; i++) {
		for (char **s = q->severities[i]; *s; s++)
			free(*s);
		free(q->severities[i]);
	}
	free(q->severities);
	memset(q, 0, sizeof(*q));
}

/* --- matching ---------------------------------------------------------*/

/*
 * A text made searchable: `shown` keeps its case with every white space
 * run one space, `low` is the same lowercase (ASCII), byte for byte, so
 * an offset found in low cuts shown.  Sized once: nothing is copied by
 * a reallocation, and both are wiped (text_release) when from a body.
 */
struct text {
	char *shown, *low;
	size_t len, alloc;
};

static void text_init(struct text *t, size_t cap)
{
	t->alloc = cap + 1;
	t->shown = xmalloc(t->alloc);
	t->low = xmalloc(t->alloc);
	t->len = 0;
	t->shown[0] = t->low[0] = '\0';
}

/* Appends s[0..len) (and a space before it unless at the start). */
static void text_add(struct text *t, const char *s, size_t len)
{
	bool space = t->len == 0 || t->shown[t->len - 1] == ' ';

	if (t->len && !space && t->len + 1 < t->alloc) {
		t->shown[t->len] = t->low[t->len] = ' ';
		t->len++;
		space = true;
	}
	for (size_t i = 0; i < len && t->len + 1 < t->alloc; i++) {
		unsigned char c = (unsigned char)s[i];
		if (isspace(c)) {
			if (space)
				continue;
			c = ' ';
			space = true;
		} else {
			space = false;
		}
		t->shown[t->len] = (char)c;
		t->low[t->len] = (char)tolower(c);
		t->len++;
	}
	t->shown[t->len] = t->low[t->len] = '\0';
}

static void text_release(struct text *t)
{
	wipe_free(t->shown, t->alloc);
	wipe_free(t->low, t->alloc);
	memset(t, 0, sizeof(*t));
}

/* The text a message is searched as: its body, then its patches (the
 * attachments attachment_is_patch says are), each run on from the last.
 * The one place that says it: a search's opened message and an import's
 * (search_index_import) make the same text, so the index built from
 * either holds what a search would find. */
static void text_of(struct text *t, const char *body, size_t body_len,
		    const struct attachment_info *att, size_t natt)
{
	size_t cap = body_len + 1;

	for (size_t k = 0; k < natt; k++)
		if (att[k].patch)
			cap += att[k].size + 1;
	text_init(t, cap);
	text_add(t, body ? body : "", body_len);
	for (size_t k = 0; k < natt; k++)
		if (att[k].patch)
			text_add(t, (const char *)att[k].data, att[k].size);
}

/* Back to the start of a UTF-8 sequence at or before i (but not below lo). */
static size_t utf8_back(const char *s, size_t i, size_t lo)
{
	while (i > lo && ((unsigned char)s[i] & 0xc0) == 0x80)
		i--;
	return i;
}

#define SNIPPET_BEFORE 30
#define SNIPPET_AFTER 50

/* One display-safe line of t around [at, at + mlen). */
static char *snippet(const struct text *t, size_t at, size_t mlen)
{
	size_t start = at > SNIPPET_BEFORE ? at - SNIPPET_BEFORE : 0;
	size_t end = at + mlen + SNIPPET_AFTER < t->len
		? at + mlen + SNIPPET_AFTER
		: t->len;
	struct sbuf sb = SBUF_INIT;
	char *safe, *out;

	start = utf8_back(t->shown, start, 0);
	if (end < t->len)
		end = utf8_back(t->shown, end, start);
	safe = safe_text(t->shown + start, end - start, 0);
	sbuf_grow(&sb, strlen(safe) + 8);
	sbuf_addf(&sb, "%s%s%s", start ? "…" : "", safe,
		  end < t->len ? "…" : "");
	wipe_free(safe, strlen(safe));
	out = xstrdup(sb.buf);
	sbuf_wipe(&sb);
	return out;
}

/* Where needle is in t, or -1. */
static long text_find(const struct text *t, const char *needle)
{
	const char *hit = strstr(t->low, needle);

	return hit ? (long)(hit - t->low) : -1;
}

/* The words t holds: matched[i] set for each; the first hit (in word
 * order) gives the snippet when none is yet. */
static void match_words(const struct search_query *q, const struct text *t,
			bool *matched, const char *where, struct search_hit *h)
{
	for (size_t i = 0; i < q->nwords; i++) {
		long at;
		if (matched[i] || (at = text_find(t, q->words[i])) < 0)
			continue;
		matched[i] = true;
		if (!h->snippet) {
			h->where = where;
			h->snippet =
				snippet(t, (size_t)at, strlen(q->words[i]));
		}
	}
}

/* A field of the store (not secret: released without wiping, as the
 * store's own strings are). */
static void field_words(const struct search_query *q, const char *s,
			bool *matched, const char *where, struct search_hit *h)
{
	struct text t;
	size_t len = s ? strlen(s) : 0;

	if (!len)
		return;
	text_init(&t, len);
	text_add(&t, s, len);
	match_words(q, &t, matched, where, h);
	free(t.shown);
	free(t.low);
}

static bool contains(const char *hay, const char *needle)
{
	char small[256];
	size_t n = hay ? strlen(hay) : 0;
	char *low = n < sizeof(small) ? fold_into(hay ? hay : "", n, small)
				      : fold(hay, n);
	bool r = strstr(low, needle) != NULL;

	if (low != small)
		free(low);
	return r;
}

/* --- the candidates ---------------------------------------------------*/

struct file_row {
	int64_t id;
	char *path;
};

/*
 * The officer's sealed index (sindex.h): a report none of whose messages
 * can hold a word is passed over without opening any.  A message the
 * index does not hold (stored by a colleague, or before the index was
 * made or emptied) is opened, and the very text searched is indexed.
 * (An import indexes what it stores: search_index_import.)  The index is
 * for speed alone: without it (no team key, a cache folder that is not
 * the officer's), every candidate is opened as before.
 */
struct prefilter {
	bool on;
	struct message_key *keys; /* every message, by report then id (no
				   * key: store_message_ids) */
	size_t nkeys;
	bool *indexed; /* per message: the index holds it */
	struct sindex *x;
	int64_t **cand; /* per word: the indexed messages that may hold it */
	size_t *ncand;
	bool *known; /* per word: cand answers (else any message may) */
	size_t nwords;
};

struct run {
	const struct search_query *q;
	struct search_hit *cand;
	size_t ncand;
	struct file_row *files;
	size_t nfiles;
	struct prefilter *pf;
};

static int keep_file(int64_t id, const char *path, void *data)
{
	struct run *r = data;

	if (!(r->nfiles & (r->nfiles + 1))) /* 0, 1, 3, 7, ...: grow */
		r->files = xrealloc(r->files,
				    (2 * r->nfiles + 2) * sizeof(*r->files));
	r->files[r->nfiles].id = id;
	r->files[r->nfiles++].path = xstrdup(path);
	return 0;
}

/* In v (n elements of size bytes, sorted by the int64_t at offset off),
 * the run of elements whose one is id: [*first, *first + return). */
static size_t id_run(const void *v, size_t n, size_t size, size_t off,
		     int64_t id, size_t *first)
{
	const char *b = v;
	size_t lo = 0, hi = n, k = 0;

#define ID_AT(i) (*(const int64_t *)(b + (i)*size + off))
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ID_AT(mid) < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	while (lo + k < n && ID_AT(lo + k) == id)
		k++;
#undef ID_AT
	return k;
}

/* Report id's files: [*first, *first + return). */
static size_t files_of(const struct run *r, int64_t id, size_t *first)
{
	return id_run(r->files, r->nfiles, sizeof(*r->files),
		      offsetof(struct file_row, id), id, first);
}

static bool state_in(char *const *set, const char *state)
{
	for (; *set; set++)
		if (!strcmp(*set, state) ||
		    (!strcmp(*set, "open") && !report_finished(state)))
			return true;
	return false;
}

static bool severity_in(char *const *set, const char *severity)
{
	for (; *set; set++)
		if (!strcmp(*set, severity ? severity : "none"))
			return true;
	return false;
}

bool search_fields_only(const struct search_query *q)
{
	return !q->nwords && !q->nfiles && !q->nfrom && !q->nsubjects &&
		!q->after && !q->before;
}

bool search_state_matches(const struct search_query *q, const char *state,
			  const char *severity)
{
	for (size_t i = 0; i < q->nstates; i++)
		if (!state_in(q->states[i], state))
			return false;
	for (size_t i = 0; i < q->nseverities; i++)
		if (!severity_in(q->severities[i], severity))
			return false;
	return true;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* The keys the store's fields answer: state, received, from, subject,
 * file. */
static bool keys_match(const struct run *r, const struct report *rep)
{
	const struct search_query *q = r->q;
	size_t first, nf = files_of(r, rep->id, &first);
	char *who;

	if (!search_state_matches(q, rep->state, rep->severity))
		return false;
	if ((q->after && rep->received < q->after) ||
	    (q->before && rep->received >= q->before))
		return false;
	if (q->nfrom) {
		who = xasprintf("%s <%s>",
				rep->reporter_name ? rep->reporter_name : "",
				rep->reporter_email ? rep->reporter_email : "");
		for (size_t i = 0; i < q->nfrom; i++)
			if (!contains(who, q->from[i])) {
				free(who);
				return false;
			}
		free(who);
	}
	for (size_t i = 0; i < q->nsubjects; i++)
		if (!contains(rep->subject ? rep->subject : "", q->subjects[i]))
			return false;
	for (size_t i = 0; i < q->nfiles; i++) {
		bool any = false;
		for (size_t k = 0; !any && k < nf; k++)
			any = contains(r->files[first + k].path, q->files[i]);
		if (!any)
			return false;
	}
	return true;
}

/* A candidate, rep's fields moved into it (rep left empty). */
static void take_report(struct run *r, struct report *rep)
{
	struct search_hit *h;

	if (!(r->ncand & (r->ncand + 1))) /* 0, 1, 3, 7, ...: grow */
		r->cand = xrealloc(r->cand,
				   (2 * r->ncand + 2) * sizeof(*r->cand));
	h = &r->cand[r->ncand++];
	memset(h, 0, sizeof(*h));
	h->r = *rep;
	memset(rep, 0, sizeof(*rep));
}

static int keep_report(const struct report *rep, void *data)
{
	struct run *r = data;
	struct search_hit *h;

	if (!keys_match(r, rep))
		return 0;
	r->cand = xrealloc(r->cand, (r->ncand + 1) * sizeof(*r->cand));
	h = &r->cand[r->ncand++];
	memset(h, 0, sizeof(*h));
	h->r = *rep;
	h->r.subject = dup_or_null(rep->subject);
	h->r.reporter_name = dup_or_null(rep->reporter_name);
	h->r.reporter_email = dup_or_null(rep->reporter_email);
	h->r.state = dup_or_null(rep->state);
	h->r.severity = dup_or_null(rep->severity);
	h->r.claimed_by = dup_or_null(rep->claimed_by);
	return 0;
}

/* A report matched by its keys alone: the snippet shows the one that
 * chose it (a file, the reporter), else the subject. */
static void key_snippet(const struct run *r, struct search_hit *h)
{
	const struct search_query *q = r->q;
	size_t first, nf = files_of(r, h->r.id, &first);

	for (size_t k = 0; q->nfiles && k < nf; k++)
		if (contains(r->files[first + k].path, q->files[0])) {
			h->where = "file";
			h->snippet = safe_str(r->files[first + k].path);
			return;
		}
	if (q->nfrom) {
		h->where = "from";
		h->snippet =
			sender_format(h->r.reporter_name, h->r.reporter_email);
		return;
	}
	/* (A subject not read for the search is filled in with the
	 * match's whole row, at the end.) */
	h->where = "subject";
	h->snippet = h->r.subject ? safe_str(h->r.subject) : NULL;
}

/* The words the store's fields hold; true when that is all of them. */
static bool fields_match(const struct run *r, struct search_hit *h,
			 bool *matched)
{
	const struct search_query *q = r->q;
	size_t first, nf = files_of(r, h->r.id, &first);
	char *who = xasprintf("%s <%s>",
			      h->r.reporter_name ? h->r.reporter_name : "",
			      h->r.reporter_email ? h->r.reporter_email : "");
	bool all = true;

	field_words(q, h->r.subject, matched, "subject", h);
	field_words(q, who, matched, "from", h);
	free(who);
	for (size_t k = 0; k < nf; k++)
		field_words(q, r->files[first + k].path, matched, "file", h);
	for (size_t i = 0; i < q->nwords; i++)
		all = all && matched[i];
	return all;
}

/* --- the sealed index ---------------------------------------------------*/

static bool worth_filtering(const struct search_query *q)
{
	for (size_t i = 0; i < q->nwords; i++)
		if (strlen(q->words[i]) >= 3)
			return true;
	return false;
}

static void prefilter_load(struct session *sess, const struct search_query *q,
			   struct prefilter *pf)
{
	struct err err = { 0, "" };

	memset(pf, 0, sizeof(*pf));
	if (!worth_filtering(q) || !(pf->x = sindex_open(sess)))
		return;
	if (store_message_ids(sess->store, &pf->keys, &pf->nkeys, &err) < 0) {
		sindex_close(pf->x);
		pf->x = NULL;
		return;
	}
	pf->nwords = q->nwords;
	pf->cand = xcalloc(q->nwords + 1, sizeof(*pf->cand));
	pf->ncand = xcalloc(q->nwords + 1, sizeof(*pf->ncand));
	pf->known = xcalloc(q->nwords + 1, sizeof(*pf->known));
	for (size_t w = 0; w < q->nwords; w++)
		pf->known[w] = sindex_candidates(pf->x, q->words[w],
						 &pf->cand[w], &pf->ncand[w]);
	/* after the lists: one that does not open empties the index */
	pf->indexed = xcalloc(pf->nkeys + 1, sizeof(*pf->indexed));
	for (size_t i = 0; i < pf->nkeys; i++)
		pf->indexed[i] = sindex_has(pf->x, pf->keys[i].id);
	pf->on = true;
}

/* Report id's messages: [*first, *first + return). */
static size_t keys_of(const struct prefilter *pf, int64_t id, size_t *first)
{
	return id_run(pf->keys, pf->nkeys, sizeof(*pf->keys),
		      offsetof(struct message_key, report_id), id, first);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* Whether report id's messages may hold every word still unmatched: no
 * when one word is in none of them (a message the index does not hold
 * may hold anything). */
static bool prefilter_may_match(const struct prefilter *pf, int64_t id,
				const struct search_query *q,
				const bool *matched)
{
	size_t first, n;

	if (!pf || !pf->on)
		return true;
	n = keys_of(pf, id, &first);
	for (size_t w = 0; w < q->nwords; w++) {
		bool may = false;

		if (matched[w] || !pf->known[w])
			continue;
		for (size_t m = first; !may && m < first + n; m++)
			may = !pf->indexed[m] ||
				(pf->ncand[w] &&
				 bsearch(&pf->keys[m].id, pf->cand[w],
					 pf->ncand[w], sizeof(int64_t),
					 cmp_i64));
		if (!may)
			return false;
	}
	return true;
}

/* A message just opened and searched: indexed from that very text when
 * the index did not hold it. */
static void prefilter_learn(struct prefilter *pf, int64_t report_id,
			    int64_t message_id, const struct text *t)
{
	size_t first, n;

	if (!pf || !pf->on)
		return;
	n = keys_of(pf, report_id, &first);
	for (size_t m = first; m < first + n; m++) {
		if (pf->keys[m].id != message_id || pf->indexed[m])
			continue;
		sindex_learn(pf->x, message_id, pf->keys[m].key, t->low,
			     t->len);
		pf->indexed[m] = true; /* once, however often opened */
		return;
	}
}

/* What was learned written (the index is for speed: a failure to write
 * it loses nothing), and everything freed. */
static void prefilter_done(struct prefilter *pf)
{
	sindex_close(pf->x);
	for (size_t w = 0; pf->cand && w < pf->nwords; w++)
		free(pf->cand[w]);
	free(pf->cand);
	free(pf->ncand);
	free(pf->known);
	free(pf->indexed);
	free(pf->keys);
	memset(pf, 0, sizeof(*pf));
}

/* Whether message m (of pf->keys) may hold a word still unmatched: not
 * when the index holds it and no unmatched word's lists name it. */
static bool message_may_match(const struct prefilter *pf, size_t m,
			      const struct search_query *q, const bool *matched)
{
	if (!pf->indexed[m])
		return true;
	for (size_t w = 0; w < q->nwords; w++)
		if (!matched[w] &&
		    (!pf->known[w] ||
		     (pf->ncand[w] &&
		      bsearch(&pf->keys[m].id, pf->cand[w], pf->ncand[w],
			      sizeof(int64_t), cmp_i64))))
			return true;
	return false;
}

/* Opens report h's messages one by one, oldest first, for the words
 * still unmatched; true when every word is found.  With the index, the
 * report's messages are those the prefilter read, and one that the
 * lists say holds none of the words left is not opened.  A snippet
 * from a field is replaced by the text's when a word only the text
 * holds comes first. */
static bool text_match(struct session *sess, const struct run *r,
		       struct search_hit *h, bool *matched, size_t *unreadable)
{
	const struct search_query *q = r->q;
	const struct prefilter *pf = r->pf && r->pf->on ? r->pf : NULL;
	struct message *msgs = NULL;
	int64_t *ids;
	size_t nmsgs = 0, first = 0, nids;
	struct err err = { 0, "" };
	bool all = false;

	if (pf) {
		nids = keys_of(pf, h->r.id, &first);
		ids = xcalloc(nids + 1, sizeof(*ids));
		for (size_t i = 0; i < nids; i++)
			ids[i] = pf->keys[first + i].id;
	} else {
		if (store_messages_get(sess->store, h->r.id, false, &msgs,
				       &nmsgs, &err) < 0) {
			(*unreadable)++;
			return false;
		}
		nids = nmsgs;
		ids = xcalloc(nids + 1, sizeof(*ids));
		for (size_t i = 0; i < nmsgs; i++)
			ids[i] = msgs[i].id;
		for (size_t i = 0; i < nmsgs; i++)
			message_release(&msgs[i]);
		free(msgs);
	}
	for (size_t i = 0; i < nids && !all; i++) {
		struct opened_message om;
		struct text t;

		if (pf && !message_may_match(pf, first + i, q, matched))
			continue;
		if (report_open_message(sess, ids[i], &om, &err) < 0) {
			opened_message_release(&om);
			(*unreadable)++;
			continue;
		}
		text_of(&t, om.body, om.body_len, om.att, om.natt);
		opened_message_release(&om);
		match_words(q, &t, matched, "text", h);
		prefilter_learn(r->pf, h->r.id, ids[i], &t);
		text_release(&t);
		all = true;
		for (size_t w = 0; w < q->nwords; w++)
			all = all && matched[w];
	}
	free(ids);
	return all;
}

/* search_run's first pass, a share of the candidates on each thread:
 * each one's own hit, its words in kept, whether it is undecided. */
struct fields_share {
	struct run *r;
	bool *kept;
	size_t nw;
	bool *undecided;
};

static void fields_shares(size_t from, size_t to, void *data)
{
	struct fields_share *fs = data;
	struct run *r = fs->r;

	for (size_t i = from; i < to; i++) {
		struct search_hit *h = &r->cand[i];

		if (!r->q->nwords)
			key_snippet(r, h);
		else
			fs->undecided[i] =
				!fields_match(r, h, fs->kept + i * fs->nw);
	}
}

/* The sealed fields a query needs opened for every report: words are
 * looked for in the subject and the reporter, from: in the reporter,
 * subject: in the subject; the rest (state, dates, files) needs none. */
static unsigned basics_needed(const struct search_query *q)
{
	unsigned f = 0;

	if (q->nwords || q->nsubjects)
		f |= STORE_BASICS_SUBJECT;
	if (q->nwords || q->nfrom)
		f |= STORE_BASICS_REPORTER;
	return f;
}

/* keys_match over every report, on every processor. */
struct keys_share {
	struct run *r;
	struct report *all;
	bool *match;
};

static void keys_shares(size_t from, size_t to, void *data)
{
	struct keys_share *ks = data;

	for (size_t i = from; i < to; i++)
		ks->match[i] = keys_match(ks->r, &ks->all[i]);
}

static void hit_release(struct search_hit *h)
{
	report_release(&h->r);
	if (h->snippet)
		wipe_free(h->snippet, strlen(h->snippet));
	memset(h, 0, sizeof(*h));
}

int search_run(struct session *sess, const struct search_query *q,
	       search_progress_fn *progress, void *data,
	       struct search_result *res, struct err *err)
{
	struct store *s = session_store(sess, err);
	struct prefilter pf;
	struct run r = { q, NULL, 0, NULL, 0, &pf };
	struct report *all = NULL;
	size_t *need = NULL, nneed = 0, nall = 0, nw = q->nwords + 1;
	bool *matched, *kept = NULL;
	int rc;
	memset(res, 0, sizeof(*res));
	memset(&pf, 0, sizeof(pf));
	if (!s)
		return ERR_IO;
	/* Every report's own fields (those derived from other tables are
	 * read for the matches alone, at the end); the touched files only
	 * when words or file: look in them, as each is opened. */
	if (((q->nwords || q->nfiles) &&
	     (rc = store_files_each(s, keep_file, &r, err)) < 0) ||
	    (rc = store_report_basics(s, basics_needed(q), &all, &nall, err)) <
		    0)
		goto out;
	{
		struct keys_share ks = { &r, all,
					 xcalloc(nall + 1, sizeof(bool)) };

		util_parallel(nall, 4096, keys_shares, &ks);
		for (size_t i = 0; i < nall; i++)
			if (ks.match[i])
				take_report(&r, &all[i]);
		free(ks.match);
	}
	matched = xcalloc(nw, sizeof(*matched));
	need = xcalloc(r.ncand + 1, sizeof(*need));
	/* The fields first, on every processor: a report they answer is
	 * not opened.  The words each one's fields hold are kept for its
	 * text's turn. */
	kept = xcalloc(r.ncand * nw + 1, sizeof(*kept));
	{
		struct fields_share fs = { &r, kept, nw,
					   xcalloc(r.ncand + 1, sizeof(bool)) };

		util_parallel(r.ncand, 4096, fields_shares, &fs);
		for (size_t i = 0; i < r.ncand; i++)
			if (fs.undecided[i])
				need[nneed++] = i;
		free(fs.undecided);
	}
	/* Then the texts of those the fields left undecided, but for the
	 * ones their filters turn away; the text's snippet is the one that
	 * tells, the field's stays without it. */
	if (nneed)
		prefilter_load(sess, q, &pf);
	for (size_t j = 0; j < nneed; j++) {
		struct search_hit *h = &r.cand[need[j]];
		char *fs;
		const char *fw;

		memcpy(matched, kept + need[j] * nw, nw * sizeof(*matched));
		fs = h->snippet;
		fw = h->where;
		h->snippet = NULL;
		if (!prefilter_may_match(&pf, h->r.id, q, matched)) {
			free(fs);
			hit_release(h);
			res->passed++;
			if (progress)
				progress(j + 1, nneed, data);
			continue;
		}
		if (text_match(sess, &r, h, matched, &res->unreadable)) {
			if (h->snippet) {
				free(fs);
			} else {
				h->snippet = fs;
				h->where = fw;
			}
		} else {
			free(fs);
			hit_release(h); /* id 0: no match */
		}
		res->opened++;
		if (progress)
			progress(j + 1, nneed, data);
	}
	free(matched);
	for (size_t i = 0; i < r.ncand; i++) {
		if (!r.cand[i].r.id)
			continue;
		res->hits =
			xrealloc(res->hits, (res->n + 1) * sizeof(*res->hits));
		res->hits[res->n++] = r.cand[i];
	}
	/* The matches' whole rows (verdict, disclosure, messages). */
	if (res->n) {
		int64_t *ids = xmalloc(res->n * sizeof(*ids));
		struct report *full = xcalloc(res->n, sizeof(*full));

		for (size_t i = 0; i < res->n; i++)
			ids[i] = res->hits[i].r.id;
		if ((rc = store_report_page(s, ids, res->n, full, err)) == 0) {
			size_t kept = 0;
			report_verdicts_now(sess, full, res->n);

			/* A report no longer found has no row to show:
			 * it is no match. */
			for (size_t i = 0; i < res->n; i++) {
				struct search_hit *h = &res->hits[i];

				if (!full[i].id) {
					hit_release(h);
					continue;
				}
				report_release(&h->r);
				h->r = full[i];
				if (!h->snippet)
					h->snippet = safe_str(full[i].subject);
				res->hits[kept++] = *h;
			}
			res->n = kept;
		}
		free(ids);
		free(full);
		if (rc < 0) {
			search_result_release(res);
			free(r.cand);
			r.cand = NULL;
			r.ncand = 0;
			goto out;
		}
	}
	free(r.cand);
	r.cand = NULL;
	r.ncand = 0;
out:
	prefilter_done(&pf);
	for (size_t i = 0; i < nall; i++)
		report_release(&all[i]);
	free(all);
	free(kept);
	free(need);
	for (size_t i = 0; i < r.ncand; i++)
		hit_release(&r.cand[i]);
	free(r.cand);
	for (size_t i = 0; i < r.nfiles; i++)
		free(r.files[i].path);
	free(r.files);
	return rc;
}

int search_report(struct session *sess, const struct search_query *q,
		  int64_t id, bool *match, struct err *err)
{
	struct store *s = session_store(sess, err);
	struct run r = { q, NULL, 0, NULL, 0, NULL };
	struct report rep;
	char **paths = NULL;
	size_t npaths = 0, unreadable = 0;
	int rc;

	*match = false;
	if (!s)
		return ERR_IO;
	if ((rc = store_report_get(s, id, &rep, err)) < 0)
		return rc;
	if ((rc = store_files_get(s, id, &paths, &npaths, err)) < 0) {
		report_release(&rep);
		return rc;
	}
	for (size_t i = 0; i < npaths; i++)
		keep_file(id, paths[i], &r);
	keep_report(&rep, &r);
	report_release(&rep);
	if (r.ncand) {
		bool *matched = xcalloc(q->nwords + 1, sizeof(*matched));
		*match = !q->nwords || fields_match(&r, &r.cand[0], matched) ||
			text_match(sess, &r, &r.cand[0], matched, &unreadable);
		free(matched);
		hit_release(&r.cand[0]);
	}
	free(r.cand);
	for (size_t i = 0; i < npaths; i++)
		free(paths[i]);
	free(paths);
	for (size_t i = 0; i < r.nfiles; i++)
		free(r.files[i].path);
	free(r.files);
	return 0;
}

void search_result_release(struct search_result *res)
{
	for (size_t i = 0; i < res->n; i++)
		hit_release(&res->hits[i]);
	free(res->hits);
	memset(res, 0, sizeof(*res));
}

/* --- an import's messages indexed --------------------------------------*/

void search_index_import(struct session *sess, int64_t report_id,
			 int64_t message_id, const char *body, size_t body_len,
			 const struct mail_attachment *att, size_t natt)
{
	struct attachment_info *ai;
	struct text t;

	if (!sess->sindex && !sess->sindex_tried) {
		sess->sindex_tried = true;
		sess->sindex = sindex_open(sess);
	}
	if (!sess->sindex)
		return;
	/* The attachments as report_open_message gives them: which are
	 * patches is asked of the same bytes and the same names. */
	ai = xcalloc(natt + 1, sizeof(*ai));
	for (size_t k = 0; k < natt; k++) {
		ai[k].data = att[k].data ? att[k].data : (unsigned char *)"";
		ai[k].size = att[k].len;
		ai[k].patch = attachment_is_patch(
			att[k].filename,
			att[k].content_type ? att[k].content_type
					    : "application/octet-stream",
			ai[k].data, ai[k].size);
	}
	text_of(&t, body, body_len, ai, natt);
	free(ai);
	sindex_learn_stored(sess->sindex, report_id, message_id, t.low, t.len);
	text_release(&t);
}

void search_index_done(struct session *sess)
{
	sindex_close(sess->sindex);
	sess->sindex = NULL;
	sess->sindex_tried = false;
}
