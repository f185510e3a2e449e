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

static void seen_load(const char *where)
{
	char *path = cache_file("report-verified", where, "bin");
	struct stat st;
	int fd;

	if (seen.path && path && !strcmp(seen.path, path)) {
		free(path);
		return;
	}
	free(seen.path);
	free(seen.keys);
	free(seen.fresh);
	memset(&seen, 0, sizeof(seen));
	seen.path = path;
	if (!path || (fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_uid == getuid() && !(st.st_mode & 077) &&
	    st.st_size >= SIGN_HASH_BYTES) {
		size_t want = (size_t)st.st_size / SIGN_HASH_BYTES;
		ssize_t got;

		seen.keys = xcalloc(want, SIGN_HASH_BYTES);
		got = read(fd, seen.keys, want * SIGN_HASH_BYTES);
		seen.n = got > 0 ? (size_t)got / SIGN_HASH_BYTES : 0;
		qsort(seen.keys, seen.n, SIGN_HASH_BYTES, cmp_key);
	}
	close(fd);
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
	struct stat st;
	int fd;

	if (!seen.nfresh || !seen.path)
		return;
	fd = open(seen.path,
		  O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0) {
		size_t len = seen.nfresh * SIGN_HASH_BYTES;
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_uid == getuid() && !(st.st_mode & 077) &&
		    st.st_size % SIGN_HASH_BYTES == 0 &&
		    write(fd, seen.fresh, len) != (ssize_t)len) {
			/* a short write leaves a partial key, which the
			 * next reading drops */
		}
		close(fd);
	}
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
	if (!store_has_team(s))
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
	if ((r = chain_of(sess, in->report, &c, &team, err)) <= 0) {
		report_chain_release(&c);
		return r;
	}
	report_chain_release(&c);
	if ((r = session_team_generation(sess, &gen, err)) < 0 ||
	    (r = upgrade(sess, gen, in->m->id, err)) < 0 ||
	    (r = chain_of(sess, in->report, &c, &team, err)) < 0)
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
	report_chain_release(&c);
	return 0;
}
