/*
 * The reports' chains as this client writes and reads them (see
 * reportlog.h).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/reportchain.h"
#include "core/reportlog.h"
#include "store/store.h"

/*
 * The events this officer verified before, kept in their own cache
 * (0600, beside the verdict cache: cache_file), one 32-byte key each
 * (report_chain_cache): a new machine checks each signature once, and
 * every later reading of a report only hashes.  A file that is not this
 * user's alone is not used (nor written); a lost one costs only the
 * signatures checked again.
 */
struct verified {
	char *path; /* the store's cache file, NULL: none */
	unsigned char (*keys)[SIGN_HASH_BYTES]; /* sorted */
	size_t n;
	unsigned char (*fresh)[SIGN_HASH_BYTES]; /* learned, not written */
	size_t nfresh;
};

static struct verified seen;

static int cmp_key(const void *a, const void *b)
{
	return memcmp(a, b, SIGN_HASH_BYTES);
}

/* Whether fd is a regular file of this user's alone (0600 or less). */
static bool ours_alone(int fd, struct stat *st)
{
	return fstat(fd, st) == 0 && S_ISREG(st->st_mode) &&
		st->st_uid == getuid() && !(st->st_mode & 077);
}

/* The whole records (size bytes each) of cache file path, or NULL with
 * *n 0: none, not a regular file of this user's alone, or unreadable. */
static void *records_read(const char *path, size_t size, size_t *n)
{
	struct stat st;
	void *v = NULL;
	ssize_t got;
	int fd;

	*n = 0;
	if (!path || (fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return NULL;
	if (ours_alone(fd, &st) && st.st_size >= (off_t)size) {
		v = xcalloc((size_t)st.st_size / size, size);
		got = read(fd, v, (size_t)st.st_size / size * size);
		*n = got > 0 ? (size_t)got / size : 0;
	}
	close(fd);
	return v;
}

/* Appends len bytes of records (size bytes each) to cache file path,
 * made 0600 if need be; nothing when it is not this user's alone or
 * does not end on a record (a short write leaves a partial record,
 * which the next reading drops). */
static void records_append(const char *path, const void *data, size_t len,
			   size_t size)
{
	struct stat st;
	int fd;

	if (!path ||
	    (fd = open(path,
		       O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
		       0600)) < 0)
		return;
	if (ours_alone(fd, &st) && st.st_size % (off_t)size == 0 &&
	    write(fd, data, len) != (ssize_t)len) {
		/* dropped by the next reading */
	}
	close(fd);
}

static void seen_load(const char *where)
{
	char *path = cache_file("report-verified", where, "bin");

	if (seen.path && path && !strcmp(seen.path, path)) {
		free(path);
		return;
	}
	free(seen.path);
	free(seen.keys);
	free(seen.fresh);
	memset(&seen, 0, sizeof(seen));
	seen.path = path;
	seen.keys = records_read(path, SIGN_HASH_BYTES, &seen.n);
	if (seen.n)
		qsort(seen.keys, seen.n, SIGN_HASH_BYTES, cmp_key);
}

static bool seen_known(void *data, const unsigned char key[SIGN_HASH_BYTES])
{
	(void)data;
	if (seen.n && bsearch(key, seen.keys, seen.n, SIGN_HASH_BYTES, cmp_key))
		return true;
	for (size_t i = 0; i < seen.nfresh; i++)
		if (!memcmp(seen.fresh[i], key, SIGN_HASH_BYTES))
			return true;
	return false;
}

static void seen_learned(void *data, const unsigned char key[SIGN_HASH_BYTES])
{
	(void)data;
	seen.fresh =
		xrealloc(seen.fresh, (seen.nfresh + 1) * sizeof(*seen.fresh));
	memcpy(seen.fresh[seen.nfresh++], key, SIGN_HASH_BYTES);
}

/* What was learned, appended to the file (made 0600 if need be), then
 * kept in the sorted set. */
static void seen_save(void)
{
	if (!seen.nfresh || !seen.path)
		return;
	records_append(seen.path, seen.fresh, seen.nfresh * SIGN_HASH_BYTES,
		       SIGN_HASH_BYTES);
	seen.keys =
		xrealloc(seen.keys, (seen.n + seen.nfresh) * SIGN_HASH_BYTES);
	memcpy(seen.keys[seen.n], seen.fresh, seen.nfresh * SIGN_HASH_BYTES);
	seen.n += seen.nfresh;
	qsort(seen.keys, seen.n, SIGN_HASH_BYTES, cmp_key);
	free(seen.fresh);
	seen.fresh = NULL;
	seen.nfresh = 0;
}

static const struct report_chain_cache seen_cache = { NULL, seen_known,
						      seen_learned };

/*
 * What a writer needs of a report's chain (its verified head, its place
 * and whether its timeline was taken in), remembered in the officer's
 * cache (0600, as the verified events) so that a write reads only the
 * chain's rows from its head on, not the whole chain: one record per
 * head read from the server, the last for a report winning.  A head
 * the server no longer holds as it was (a write rolled back, rows
 * dropped) is not used: the whole chain is read instead.
 */
struct tail {
	int64_t report;
	int64_t row; /* the head's row id */
	uint64_t seq;
	int64_t place;
	unsigned char head[SIGN_HASH_BYTES];
	char changes_from[REPORT_FPR_LEN + 1];
	char pad[7];
};

static struct {
	char *path;
	struct tail *v;
	size_t n;
} tails;

static struct tail *tail_find(int64_t report)
{
	for (size_t i = tails.n; i-- > 0;)
		if (tails.v[i].report == report)
			return &tails.v[i];
	return NULL;
}

static void tails_load(const char *where)
{
	char *path = cache_file("report-tails", where, "bin");

	if (tails.path && path && !strcmp(tails.path, path)) {
		free(path);
		return;
	}
	free(tails.path);
	free(tails.v);
	memset(&tails, 0, sizeof(tails));
	tails.path = path;
	tails.v = records_read(path, sizeof(struct tail), &tails.n);
}

/* c's head, when it is a row read from the server, remembered. */
static void tail_save(const struct report_chain *c)
{
	struct tail t;

	if (!tails.path || c->head_row <= 0 || c->broken)
		return;
	memset(&t, 0, sizeof(t));
	t.report = c->report;
	t.row = c->head_row;
	t.seq = c->seq;
	t.place = c->last_place;
	memcpy(t.head, c->head, sizeof(t.head));
	memcpy(t.changes_from, c->changes_from, sizeof(t.changes_from));
	records_append(tails.path, &t, sizeof(t), sizeof(t));
	tails.v = xrealloc(tails.v, (tails.n + 1) * sizeof(t));
	tails.v[tails.n++] = t;
}

/* Report id's chain from its remembered head on (for a writer: its
 * head, place and taken-in timeline, not its entries): 1 when the
 * remembered head is still the server's, 0 when the whole chain must
 * be read, negative with err. */
static int chain_tail(struct session *sess, int64_t id, struct report_chain *c,
		      const struct team_chain *team, struct err *err)
{
	struct store *s = session_store(sess, err);
	struct report_event_row *rows = NULL;
	const struct tail *t;
	unsigned char h[SIGN_HASH_BYTES];
	size_t n = 0;
	int r = 0;

	tails_load(store_where(s));
	if (!(t = tail_find(id)))
		return 0;
	if ((r = store_report_events_from(s, id, t->row, &rows, &n, err)) < 0)
		return r;
	if (n && rows[0].id == t->row && rows[0].seq <= t->place) {
		sign_hash(rows[0].body, rows[0].len, h);
		if (!memcmp(h, t->head, sizeof(h))) {
			c->seq = t->seq;
			memcpy(c->head, t->head, sizeof(c->head));
			c->head_row = t->row;
			c->last_place = t->place;
			memcpy(c->changes_from, t->changes_from,
			       sizeof(c->changes_from));
			c->cache = &seen_cache;
			report_chain_feed(c, team, rows + 1, n - 1);
			seen_save();
			r = c->broken ? 0 : 1;
		}
	}
	for (size_t i = 0; i < n; i++)
		report_event_row_release(&rows[i]);
	free(rows);
	return r;
}

/* Report id's chain as the server has it, verified; 1 with *team set on
 * a team server, 0 on SQLite, negative with err. */
static int chain_of(struct session *sess, int64_t id, struct report_chain *c,
		    const struct team_chain **team, struct err *err)
{
	struct store *s = session_store(sess, err);
	struct report_event_row *rows = NULL;
	size_t n = 0;
	int r;

	report_chain_init(c, id);
	if (!s)
		return ERR_IO;
	/* No chains on SQLite, nor for a session made without the team
	 * key's sealer (a test's, over a bare store). */
	if (!store_has_team(s) || !sess->seal)
		return 0;
	if (!(*team = session_team_chain(sess, err)))
		return err->code ? err->code : ERR_IO;
	if ((r = store_report_events(s, id, &rows, &n, err)) < 0)
		return r;
	seen_load(store_where(s));
	c->cache = &seen_cache;
	report_chain_feed(c, *team, rows, n);
	seen_save();
	for (size_t i = 0; i < n; i++)
		report_event_row_release(&rows[i]);
	free(rows);
	return 1;
}

/* Report id's chain for a writer: from its remembered head when the
 * server still holds it, else whole; its head remembered.  As
 * chain_of. */
static int chain_write(struct session *sess, int64_t id, struct report_chain *c,
		       const struct team_chain **team, struct err *err)
{
	struct store *s = session_store(sess, err);
	int r;

	report_chain_init(c, id);
	if (!s)
		return ERR_IO;
	if (!store_has_team(s) || !sess->seal)
		return 0;
	if (!(*team = session_team_chain(sess, err)))
		return err->code ? err->code : ERR_IO;
	seen_load(store_where(s));
	if ((r = chain_tail(sess, id, c, *team, err)) < 0)
		return r;
	if (r == 0) {
		report_chain_release(c);
		if ((r = chain_of(sess, id, c, team, err)) <= 0)
			return r;
	}
	tail_save(c);
	return 1;
}

/* The digests of message m (as stored: its files, when known, and its
 * signatures) under generation gen, into ev. */
static int digests(struct session *sess, struct report_event *ev,
		   const struct message *m, bool made, const struct report *rep,
		   const enum sig_verdict *sv, const char *const *sf,
		   const time_t *sc, size_t nsigs, char *const *files,
		   size_t nfiles, struct err *err)
{
	int r;

	ev->message = (uint64_t)m->id;
	if (!report_digest_message(m, ev->digest))
		memset(ev->digest, 0, sizeof(ev->digest));
	if ((r = report_digest_values(m, session_team_mac, sess, ev->generation,
				      ev->values, err)) < 0 ||
	    (r = report_digest_signatures(sv, sf, sc, nsigs, session_team_mac,
					  sess, ev->generation, ev->signatures,
					  err)) < 0)
		return r;
	if (made &&
	    (r = report_digest_report(rep->subject, rep->reporter_name,
				      rep->reporter_email, session_team_mac,
				      sess, ev->generation, ev->report_values,
				      err)) < 0)
		return r;
	ev->files = xcalloc(nfiles ? nfiles : 1, sizeof(*ev->files));
	for (size_t i = 0; i < nfiles; i++)
		if ((r = report_digest_file(files[i], session_team_mac, sess,
					    ev->generation, ev->files[i],
					    err)) < 0)
			return r;
	ev->nfiles = nfiles;
	return 0;
}

/*
 * The report's timeline from before its changes were signed (its events
 * rows up to the newest), and its state, severity, claim, consents,
 * publicity and release start as its row has them now, taken in on this
 * officer's word: its changes after start from there.
 */
static int take_in_changes(struct session *sess, struct report_chain *c,
			   struct err *err)
{
	struct store *s = session_store(sess, err);
	struct report_event ev;
	struct report r;
	struct event *rows = NULL;
	struct decision *dc = NULL;
	struct proposal *p = NULL;
	size_t nrows = 0, nd = 0, np = 0;
	int64_t max;
	uint32_t gen;
	int rc;

	memset(&ev, 0, sizeof(ev));
	memset(&r, 0, sizeof(r));
	if ((rc = store_event_max(s, c->report, &max, err)) < 0 ||
	    (rc = store_report_brief(s, c->report, &r, err)) < 0 ||
	    (rc = store_events_get(s, c->report, &rows, &nrows, err)) < 0 ||
	    (rc = session_team_generation(sess, &gen, err)) < 0 ||
	    (rc = report_digest_timeline(rows, nrows, (uint64_t)max,
					 session_team_mac, sess, gen, ev.row,
					 err)) < 0 ||
	    (rc = store_decisions_get(s, c->report, &dc, &nd, err)) < 0 ||
	    (rc = store_proposals_get(s, c->report, &p, &np, err)) < 0)
		goto out;
	for (size_t i = 0; i < nd; i++)
		if ((uint64_t)dc[i].id > ev.decisions)
			ev.decisions = (uint64_t)dc[i].id;
	for (size_t i = 0; i < np; i++)
		if ((uint64_t)p[i].id > ev.proposals)
			ev.proposals = (uint64_t)p[i].id;
	if ((rc = report_digest_dates(dc, nd, ev.decisions, p, np, ev.proposals,
				      session_team_mac, sess, gen, ev.dates,
				      err)) < 0)
		goto out;
	ev.kind = REPORT_EV_CHANGES_TAKEN_IN;
	ev.generation = gen;
	ev.event = (uint64_t)max;
	ev.state = xstrdup(r.state && *r.state ? r.state : "new");
	ev.severity = xstrdup(r.severity && *r.severity ? r.severity : "none");
	ev.claimed = r.claimed_by && *r.claimed_by ? xstrdup(r.claimed_by)
						   : NULL;
	ev.flags = (r.consent_credit ? REPORT_FLAG_CREDIT : 0) |
		(r.consent_exploit ? REPORT_FLAG_EXPLOIT : 0) |
		(r.public ? REPORT_FLAG_PUBLIC : 0);
	ev.release = (uint64_t)(r.release_started > 0 ? r.release_started : 0);
	rc = session_report_append(sess, c, &ev, err);
out:
	events_free(rows, nrows);
	for (size_t i = 0; i < nd; i++)
		decision_release(&dc[i]);
	free(dc);
	for (size_t i = 0; i < np; i++)
		proposal_release(&p[i]);
	free(p);
	report_event_release(&ev);
	report_release(&r);
	return rc;
}

/*
 * A team database from before the reports' chains: each report's rows
 * as they are now, taken in by a checkpoint and one taken-in event per
 * message, on this officer's word (the checkpoint says so).  Only while
 * no report has a chain: afterwards, a row with no event is not shown,
 * whoever writes next.  skip: the message row this import just made.
 */
static int upgrade(struct session *sess, uint32_t gen, int64_t skip,
		   struct err *err)
{
	struct store *s = session_store(sess, err);
	int64_t *ids = NULL;
	size_t nids = 0;
	bool any;
	int r;

	if ((r = store_report_chains_any(s, &any, err)) < 0 || any)
		return r;
	if ((r = store_reports_with_messages(s, &ids, &nids, err)) < 0)
		return r;
	for (size_t i = 0; i < nids && r == 0; i++) {
		const struct team_chain *team;
		struct report_chain c;
		struct report rep;
		struct message *m = NULL;
		char **files = NULL;
		size_t nm = 0, nf = 0, taken = 0;
		struct report_event ev;

		memset(&rep, 0, sizeof(rep));
		if ((r = chain_of(sess, ids[i], &c, &team, err)) < 0 ||
		    (r = store_report_get(s, ids[i], &rep, err)) < 0 ||
		    (r = store_messages_get(s, ids[i], false, &m, &nm, err)) <
			    0 ||
		    (r = store_files_get(s, ids[i], &files, &nf, err)) < 0)
			goto next;
		for (size_t j = 0; j < nm; j++)
			taken += m[j].id != skip;
		if (!taken)
			goto next; /* this import's own new report */
		memset(&ev, 0, sizeof(ev));
		ev.kind = REPORT_EV_CHECKPOINT;
		ev.taken_in = taken;
		ev.note = xasprintf(
			"the %zu message(s) of this report from before its "
			"chain are taken in on its author's word",
			taken);
		r = session_report_append(sess, &c, &ev, err);
		report_event_release(&ev);
		for (size_t j = 0, first = 1; j < nm && r == 0; j++) {
			if (m[j].id == skip)
				continue;
			memset(&ev, 0, sizeof(ev));
			ev.kind = REPORT_EV_TAKEN_IN;
			ev.generation = gen;
			/* The report's files are counted once, with its
			 * first message; its signatures were checked when
			 * it came (and are checked at every opening). */
			r = digests(sess, &ev, &m[j], first, &rep, NULL, NULL,
				    NULL, 0, first ? files : NULL,
				    first ? nf : 0, err);
			if (r == 0)
				r = session_report_append(sess, &c, &ev, err);
			report_event_release(&ev);
			first = 0;
		}
		if (r == 0)
			r = take_in_changes(sess, &c, err);
	next:
		report_chain_release(&c);
		report_release(&rep);
		for (size_t j = 0; j < nm; j++)
			message_release(&m[j]);
		free(m);
		for (size_t j = 0; j < nf; j++)
			free(files[j]);
		free(files);
	}
	free(ids);
	return r;
}

int report_log_import(struct session *sess, const struct report_log_import *in,
		      struct err *err)
{
	const struct team_chain *team = NULL;
	struct report_chain c;
	struct report_event ev;
	struct report rep;
	uint32_t gen;
	int r;

	memset(&ev, 0, sizeof(ev));
	memset(&rep, 0, sizeof(rep));
	if (store_has_team(session_store(sess, err)) && sess->seal &&
	    (r = store_report_chain_lock(session_store(sess, err), in->report,
					 err)) < 0)
		return r;
	if ((r = chain_write(sess, in->report, &c, &team, err)) <= 0) {
		report_chain_release(&c);
		return r;
	}
	report_chain_release(&c);
	if ((r = session_team_generation(sess, &gen, err)) < 0 ||
	    (r = upgrade(sess, gen, in->m->id, err)) < 0 ||
	    (r = chain_write(sess, in->report, &c, &team, err)) < 0)
		goto out;
	if (c.broken) {
		r = err_setc(err, ERR_CRYPTO,
			     "%s: nothing is added to it until it is whole",
			     c.broken);
		goto out;
	}
	rep.subject = in->m->subject;
	rep.reporter_name = in->m->from_name;
	rep.reporter_email = in->m->from_email;
	ev.kind = REPORT_EV_IMPORT;
	ev.generation = gen;
	if ((r = digests(sess, &ev, in->m, in->made, &rep, in->sig_verdicts,
			 in->sig_fprs, in->sig_created, in->nsigs, in->files,
			 in->nfiles, err)) == 0)
		r = session_report_append(sess, &c, &ev, err);
out:
	report_event_release(&ev);
	report_chain_release(&c);
	return r;
}

int report_log_before(void *data, int64_t report, struct err *err)
{
	struct session *sess = data;
	struct store *s = session_store(sess, err);
	const struct team_chain *team = NULL;
	struct report_chain c;
	uint32_t gen;
	bool any = true;
	int r;

	if (!s)
		return ERR_IO;
	/* One writer to a report's chain at a time: it reads the chain
	 * it appends to only once it holds it. */
	if (store_has_team(s) && sess->seal &&
	    (r = store_report_chain_lock(s, report, err)) < 0)
		return r;
	/* The first signed row of a team database from before the reports'
	 * chains takes in all of them, as the first import would. */
	if (store_has_team(s) &&
	    ((r = store_report_chains_any(s, &any, err)) < 0 ||
	     (!any &&
	      ((r = session_team_generation(sess, &gen, err)) < 0 ||
	       (r = upgrade(sess, gen, 0, err)) < 0))))
		return r;
	if ((r = chain_write(sess, report, &c, &team, err)) <= 0) {
		report_chain_release(&c);
		return r;
	}
	if (c.broken)
		r = err_setc(err, ERR_CRYPTO,
			     "%s: nothing is added to it until it is whole",
			     c.broken);
	else if (!c.changes_from[0])
		r = take_in_changes(sess, &c, err);
	report_chain_release(&c);
	return r;
}

int report_log_after(void *data, const struct store_event_written *w,
		     struct err *err)
{
	struct session *sess = data;
	const struct team_chain *team = NULL;
	struct report_chain c;
	struct report_event ev;
	uint32_t gen;
	int r;

	memset(&ev, 0, sizeof(ev));
	if ((r = chain_write(sess, w->report_id, &c, &team, err)) <= 0) {
		report_chain_release(&c);
		return r;
	}
	if (c.broken) {
		r = err_setc(err, ERR_CRYPTO,
			     "%s: nothing is added to it until it is whole",
			     c.broken);
		goto out;
	}
	ev.kind = REPORT_EV_CHANGE;
	ev.event = (uint64_t)w->id;
	ev.event_kind = xstrdup(w->kind);
	ev.ref = (uint64_t)(w->ref > 0 ? w->ref : 0);
	if ((r = session_team_generation(sess, &gen, err)) < 0)
		goto out;
	ev.generation = gen;
	if ((r = report_digest_text(REPORT_DIGEST_VALUE, w->value,
				    session_team_mac, sess, gen, ev.value,
				    err)) < 0 ||
	    (r = report_digest_text(
		     REPORT_DIGEST_DETAIL, w->detail ? w->detail : "",
		     session_team_mac, sess, gen, ev.detail, err)) < 0 ||
	    (w->row &&
	     (r = report_digest_text(REPORT_DIGEST_ROW, w->row, session_team_mac,
				     sess, gen, ev.row, err)) < 0))
		goto out;
	r = session_report_append(sess, &c, &ev, err);
out:
	report_event_release(&ev);
	report_chain_release(&c);
	return r;
}

/* --- reading -------------------------------------------------------- */

static bool nonzero(const unsigned char h[SIGN_HASH_BYTES])
{
	for (size_t i = 0; i < SIGN_HASH_BYTES; i++)
		if (h[i])
			return true;
	return false;
}

static void hide(struct report_full *rf, char *line)
{
	rf->hidden = xrealloc(rf->hidden, (rf->nhidden + 1) * sizeof(char *));
	rf->hidden[rf->nhidden++] = line;
}

/* Whether m is as entry e signed it. */
static bool message_matches(struct session *sess,
			    const struct report_chain_entry *e,
			    const struct message *m)
{
	unsigned char h[SIGN_HASH_BYTES];
	struct err err = { 0, "" };

	/* A message stored before its digest was kept has none: so does
	 * the event that took it in. */
	if (report_digest_message(m, h) ? memcmp(h, e->digest, sizeof(h)) != 0
					: nonzero(e->digest))
		return false;
	return report_digest_values(m, session_team_mac, sess, e->generation, h,
				    &err) == 0 &&
		!memcmp(h, e->values, sizeof(h));
}

static bool file_signed(struct session *sess, const struct report_chain *c,
			const char *path)
{
	unsigned char h[SIGN_HASH_BYTES];
	uint32_t done = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct report_chain_entry *e = &c->e[i];
		struct err err = { 0, "" };

		if (!e->nfiles)
			continue;
		if (e->generation != done &&
		    report_digest_file(path, session_team_mac, sess,
				       e->generation, h, &err) < 0)
			continue;
		done = e->generation;
		for (size_t j = 0; j < e->nfiles; j++)
			if (!memcmp(e->files[j], h, sizeof(h)))
				return true;
	}
	return false;
}

/* The officer (login role) whose roster key is fpr, or NULL. */
static const char *who_of(void *data, const char *fpr)
{
	const struct team_chain *team = data;

	for (size_t i = 0; i < team->nmembers; i++)
		if (!strcmp(team->members[i].fpr, fpr))
			return team->members[i].role;
	return NULL;
}

static void set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = v && *v ? xstrdup(v) : NULL;
}

/*
 * The report's timeline (rf->events) and scalars as its verified
 * changes have them: a row no change signed (nor the taking in of the
 * timeline from before) is dropped and named; the state, severity,
 * claim, consents, publicity and release start are what the signed
 * changes derive, whatever the report's row on the server says (a
 * difference is named).
 */
/* Which of rows[0..n) (report c->report's events rows, oldest first,
 * details opened) c's verified changes account for, in ok[]: a row up
 * to the mark of the timeline taken in when those rows are all as they
 * were (*before_ok), a later one when its signed change matches it. */
static void timeline_ok(struct session *sess, const struct report_chain *c,
			const struct event *rows, size_t n, bool *ok,
			bool *before_ok)
{
	unsigned char h[SIGN_HASH_BYTES];
	struct err e = { 0, "" };

	*before_ok = report_digest_timeline(rows, n, c->changes_mark,
					    session_team_mac, sess,
					    c->changes_gen, h, &e) == 0 &&
		!memcmp(h, c->changes_rows, sizeof(h));
	for (size_t i = 0; i < n; i++) {
		const struct event *ev = &rows[i];
		const struct report_chain_entry *ch =
			report_chain_change(c, (uint64_t)ev->id);

		ok[i] = (ev->id > 0 && (uint64_t)ev->id <= c->changes_mark)
			? *before_ok
			: ch &&
				report_change_matches(ch, ev, session_team_mac,
						      sess);
	}
}

static void account_timeline(struct session *sess,
			     const struct team_chain *team,
			     const struct report_chain *c,
			     struct report_full *rf)
{
	long long id = (long long)rf->r.id;
	struct report_scalars d;
	char **notes = NULL;
	size_t nnotes = 0, k = 0;
	bool *ok, before_ok;

	if (!c->changes_from[0]) {
		hide(rf,
		     xasprintf("report %lld: its timeline has no signed "
			       "account yet (its next change takes it "
			       "in): shown as the server holds it",
			       id));
		return;
	}
	ok = xcalloc(rf->nevents + 1, sizeof(*ok));
	timeline_ok(sess, c, rf->events, rf->nevents, ok, &before_ok);
	if (!before_ok)
		hide(rf,
		     xasprintf("report %lld: its timeline up to event %llu "
			       "is not as it was taken in: not shown",
			       id, (unsigned long long)c->changes_mark));
	report_chain_derive(c, rf->events, ok, rf->nevents, who_of,
			    (void *)team, &d, &notes, &nnotes);
	for (size_t i = 0; i < nnotes; i++)
		hide(rf, notes[i]);
	free(notes);
	for (size_t i = 0; i < rf->nevents; i++) {
		struct event *ev = &rf->events[i];

		if (!ok[i] && (uint64_t)ev->id <= c->changes_mark) {
			event_release(ev);
			continue;
		}
		if (!ok[i]) {
			hide(rf,
			     xasprintf("report %lld: event %lld (%s) %s: not "
				       "shown",
				       id, (long long)ev->id, ev->kind,
				       report_chain_change(c, (uint64_t)ev->id)
					       ? "is not as its signed change "
						 "has it"
					       : "has no signed change"));
			event_release(ev);
			continue;
		}
		rf->events[k++] = *ev;
	}
	rf->nevents = k;
	free(ok);
	if (!rf->r.state || strcmp(rf->r.state, d.state))
		hide(rf,
		     xasprintf("report %lld: the server says its state is "
			       "%s, its signed changes %s: shown as "
			       "signed",
			       id, rf->r.state ? rf->r.state : "(none)",
			       d.state));
	if (!rf->r.severity || strcmp(rf->r.severity, d.severity))
		hide(rf,
		     xasprintf("report %lld: the server says its severity "
			       "is %s, its signed changes %s: shown as "
			       "signed",
			       id, rf->r.severity ? rf->r.severity : "(none)",
			       d.severity));
	if (strcmp(rf->r.claimed_by ? rf->r.claimed_by : "", d.claimed))
		hide(rf,
		     xasprintf("report %lld: the server says it is %s%s, "
			       "its signed changes %s%s: shown as signed",
			       id, rf->r.claimed_by ? "claimed by " : "",
			       rf->r.claimed_by ? rf->r.claimed_by
						: "unclaimed",
			       d.claimed[0] ? "claimed by " : "",
			       d.claimed[0] ? d.claimed : "unclaimed"));
	if (rf->r.consent_credit != d.credit ||
	    rf->r.consent_exploit != d.exploit || rf->r.public != d.public ||
	    (rf->r.release_started > 0) != (d.release > 0))
		hide(rf,
		     xasprintf("report %lld: the server's consents, "
			       "publicity or release start differ from "
			       "its signed changes: shown as signed",
			       id));
	set_str(&rf->r.state, d.state);
	set_str(&rf->r.severity, d.severity);
	set_str(&rf->r.claimed_by, d.claimed);
	rf->r.consent_credit = d.credit;
	rf->r.consent_exploit = d.exploit;
	rf->r.public = d.public;
	if ((rf->r.release_started > 0) != (d.release > 0))
		rf->r.release_started = (time_t)d.release;
}

/* rf's decided date as its signed changes have it, and what of its
 * decisions and proposals they do not record, named. */
static int account_dates(struct session *sess, struct report_full *rf,
			 struct err *err)
{
	struct store *s = session_store(sess, err);
	struct decision *dc = NULL;
	struct proposal *p = NULL;
	size_t nd = 0, np = 0;
	int r;

	if ((r = store_decisions_get(s, rf->r.id, &dc, &nd, err)) == 0 &&
	    (r = store_proposals_get(s, rf->r.id, &p, &np, err)) == 0)
		report_log_dates(sess, rf, &dc, &nd, &p, &np, true);
	for (size_t i = 0; i < nd; i++)
		decision_release(&dc[i]);
	free(dc);
	for (size_t i = 0; i < np; i++)
		proposal_release(&p[i]);
	free(p);
	return r;
}

int report_log_account(struct session *sess, struct report_full *rf,
		       struct err *err)
{
	const struct team_chain *team = NULL;
	struct report_chain c;
	const struct report_chain_entry *first = NULL;
	long long id = (long long)rf->r.id;
	size_t k = 0;
	int r;

	if ((r = chain_of(sess, rf->r.id, &c, &team, err)) <= 0) {
		report_chain_release(&c);
		return r;
	}
	if (!c.seq && !c.nnotes && !c.broken && !seen.n) {
		/* A team database from before the reports' chains, which
		 * this officer never saw with one: its rows as the server
		 * holds them, until the first import takes them in (once
		 * this client has verified an event of the database, a
		 * server that drops them all is not believed). */
		bool any = true;

		if (store_report_chains_any(session_store(sess, err), &any,
					    err) < 0) {
			report_chain_release(&c);
			return err->code;
		}
		if (!any) {
			hide(rf,
			     xasprintf("report %lld: shown as the server "
				       "holds it: no report has a signed "
				       "chain yet (the next import takes "
				       "them in)",
				       id));
			report_chain_release(&c);
			return 0;
		}
	}
	for (size_t i = 0; i < c.nnotes; i++)
		hide(rf, xstrdup(c.notes[i]));
	if (c.broken)
		hide(rf, xstrdup(c.broken));
	for (size_t i = 0; i < rf->nmsgs; i++) {
		struct message *m = &rf->msgs[i];
		const struct report_chain_entry *e =
			report_chain_message(&c, (uint64_t)m->id);

		if (!e || !message_matches(sess, e, m)) {
			hide(rf,
			     xasprintf("report %lld: message %lld %s: not "
				       "shown",
				       id, (long long)m->id,
				       e ? "is not as its signed import "
					   "has it"
					 : "has no signed import"));
			message_release(m);
			continue;
		}
		rf->msgs[k++] = *m;
	}
	rf->nmsgs = k;
	rf->r.nmessages = (int64_t)k;
	for (size_t i = 0; i < c.n && !first; i++)
		if (nonzero(c.e[i].report))
			first = &c.e[i];
	{
		unsigned char h[SIGN_HASH_BYTES];
		struct err e = { 0, "" };

		if (!first ||
		    report_digest_report(rf->r.subject, rf->r.reporter_name,
					 rf->r.reporter_email, session_team_mac,
					 sess, first->generation, h, &e) < 0 ||
		    memcmp(h, first->report, sizeof(h))) {
			hide(rf,
			     xasprintf("report %lld: its subject and "
				       "reporter have no signed import: "
				       "not shown",
				       id));
			/* A value that did not open already says so, and
			 * why (moved from another row, altered). */
			if (!rf->r.subject ||
			    !str_starts(rf->r.subject, STORE_UNOPENED)) {
				free(rf->r.subject);
				rf->r.subject = xstrdup(
					"(not shown: no signed import)");
			}
			free(rf->r.reporter_name);
			free(rf->r.reporter_email);
			rf->r.reporter_name = NULL;
			rf->r.reporter_email = NULL;
		}
	}
	k = 0;
	for (size_t i = 0; i < rf->nfiles; i++) {
		if (!file_signed(sess, &c, rf->files[i])) {
			hide(rf,
			     xasprintf("report %lld: file %s has no signed "
				       "import: not shown",
				       id, rf->files[i]));
			free(rf->files[i]);
			continue;
		}
		rf->files[k++] = rf->files[i];
	}
	rf->nfiles = k;
	account_timeline(sess, team, &c, rf);
	rf->chain = xmalloc(sizeof(*rf->chain));
	*rf->chain = c;
	return account_dates(sess, rf, err);
}

bool report_log_row_signed(struct session *sess, const struct report_full *rf,
			   const char *kind, int64_t id, const char *text)
{
	const struct report_chain *c = rf->chain;

	if (!c)
		return true;
	for (size_t i = 0; i < c->n; i++) {
		const struct report_chain_entry *e = &c->e[i];
		unsigned char h[SIGN_HASH_BYTES];
		struct err err = { 0, "" };

		if (e->kind == REPORT_EV_CHANGE && e->event_kind &&
		    !strcmp(e->event_kind, kind) && e->ref == (uint64_t)id &&
		    report_digest_text(REPORT_DIGEST_ROW, text,
				       session_team_mac, sess, e->generation, h,
				       &err) == 0 &&
		    !memcmp(h, e->row, sizeof(h)))
			return true;
	}
	return false;
}

/* Whether the decisions and proposals from before rf's changes were
 * signed are as its changes-taken-in has them. */
static bool dates_taken(struct session *sess, const struct report_chain *c,
			const struct decision *dc, size_t nd,
			const struct proposal *p, size_t np)
{
	unsigned char h[SIGN_HASH_BYTES];
	struct err err = { 0, "" };

	return report_digest_dates(dc, nd, c->dates_decisions, p, np,
				   c->dates_proposals, session_team_mac, sess,
				   c->changes_gen, h, &err) == 0 &&
		!memcmp(h, c->dates, sizeof(h));
}

/* Whether row `row` (a decision or a proposal: what, recorded by a
 * change of kind, its canonical text, which this frees) is kept: taken
 * in with the dates from before (id up to mark) when those are as they
 * were, else signed by a verified change; a later one dropped is named
 * in say's hidden lines (NULL: quietly). */
static bool row_kept(struct session *sess, const struct report_full *rf,
		     struct report_full *say, bool taken, const char *what,
		     const char *kind, int64_t row, uint64_t mark, char *text)
{
	bool before = row > 0 && (uint64_t)row <= mark;
	bool ok = before ? taken
			 : report_log_row_signed(sess, rf, kind, row, text);

	free(text);
	if (!ok && !before && say)
		hide(say,
		     xasprintf("report %lld: %s %lld has no signed "
			       "change: not shown",
			       (long long)rf->r.id, what, (long long)row));
	return ok;
}

/* The filter of report_log_dates, on c (report id's): each row dropped
 * named in say's hidden lines (NULL: quietly); the kept decisions
 * counted in *nd. */
static void filter_dates(struct session *sess, const struct report_full *rf,
			 struct decision *dc, size_t *nd, struct proposal *p,
			 size_t *np, struct report_full *say)
{
	const struct report_chain *c = rf->chain;
	long long id = (long long)rf->r.id;
	size_t k = 0;
	bool taken = dates_taken(sess, c, dc, *nd, p, *np);

	if (!taken && say)
		hide(say,
		     xasprintf("report %lld: its dates from before its "
			       "changes were signed are not as they "
			       "were taken in: not shown",
			       id));
	for (size_t i = 0; i < *np; i++) {
		char *text = report_row_proposal(&p[i]);

		if (!row_kept(sess, rf, say, taken, "proposal", "date-propose",
			      p[i].id, c->dates_proposals, text)) {
			proposal_release(&p[i]);
			continue;
		}
		p[k++] = p[i];
	}
	*np = k;
	k = 0;
	for (size_t i = 0; i < *nd; i++) {
		char *text = report_row_decision(&dc[i]);

		if (!row_kept(sess, rf, say, taken, "decision", "date-set",
			      dc[i].id, c->dates_decisions, text)) {
			decision_release(&dc[i]);
			continue;
		}
		dc[k++] = dc[i];
	}
	*nd = k;
}

void report_log_dates(struct session *sess, struct report_full *rf,
		      struct decision **dc, size_t *nd, struct proposal **p,
		      size_t *np, bool say)
{
	if (!rf->chain || !rf->chain->changes_from[0])
		return;
	filter_dates(sess, rf, *dc, nd, *p, np, say ? rf : NULL);
	rf->r.disclosure = *nd ? (*dc)[*nd - 1].date : 0;
}

void report_log_dates_quiet(struct session *sess, const struct report_full *rf,
			    struct decision *dc, size_t *nd, struct proposal *p,
			    size_t *np)
{
	if (rf->chain && rf->chain->changes_from[0])
		filter_dates(sess, rf, dc, nd, p, np, NULL);
}

int report_log_events(struct session *sess, int64_t report, struct event **out,
		      size_t *n, bool *held, struct err *err)
{
	const struct team_chain *team = NULL;
	struct report_chain c;
	struct store *s = session_store(sess, err);
	bool *ok, before_ok;
	size_t k = 0;
	int r;

	*out = NULL;
	*n = 0;
	if (held)
		*held = false;
	if (!s)
		return ERR_IO;
	if ((r = store_events_get(s, report, out, n, err)) < 0)
		return r;
	if ((r = chain_of(sess, report, &c, &team, err)) <= 0 ||
	    !c.changes_from[0]) {
		report_chain_release(&c);
		return r < 0 ? r : 0;
	}
	if (held)
		*held = true;
	ok = xcalloc(*n + 1, sizeof(*ok));
	timeline_ok(sess, &c, *out, *n, ok, &before_ok);
	for (size_t i = 0; i < *n; i++) {
		if (!ok[i]) {
			event_release(&(*out)[i]);
			continue;
		}
		(*out)[k++] = (*out)[i];
	}
	*n = k;
	free(ok);
	report_chain_release(&c);
	return 0;
}
