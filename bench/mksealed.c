/*
 * bench/mksealed.c: the sealed benchmark fixture, and the subject figures
 * measured in process (a fixture, not product code).
 *
 *   mksealed DB GNUPGHOME CONFIG REPORTS EVENTS
 *
 * Fills DB (a SQLite file or a team server, as --db takes it) through the
 * store's own sealing path, with the team key the session makes or
 * unwraps (the roster: CONFIG's team.roster on SQLite, the officers on a
 * team server), in the shape of bench/mkbench.sh: REPORTS reports, each
 * with one message whose body (a plain mail) is sealed, a decided date
 * on one report in 40, states, severities and claims spread over them,
 * and EVENTS events in all: the state, severity and claim events that
 * make them (the store applies each to the report's row; a state is
 * reached by the lifecycle's steps), then notes.
 * Subjects, reporters, message fields, claim and note details are sealed
 * exactly as an import and a triage seal them.  Each message records the
 * roster's first key as its signer (a key the keyring has: opening a
 * body looks its signer up).  On a team server it works, but slowly at
 * this size: the server checks at each commit, for every changed report,
 * that an event records the change, by a scan of the events (its
 * has_event): 70,000 reports took 16 minutes.  bench/sealed.sh fills
 * SQLite and copies that.
 *
 *   mksealed --subjects DB GNUPGHOME CONFIG WORD
 *
 * Prints, in ms: the team key unwrapped (gpg-agent); every report read
 * with its sealed fields opened (report_each, as `list` reads them); the
 * same sorted by subject (as `list --sort subject`); the subjects
 * searched for WORD (search_run with subject:WORD, as the UI's :search
 * and `search`); and the subjects alone read and sorted (report_subjects,
 * as the list's subject sort).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/core.h"
#include "core/search.h"
#include "mail/mail.h"
#include "store/store.h"

static const char *const words[7] = {
	"use-after-free in net/ipv4/tcp_input.c",
	"heap overflow in fs/ext4/xattr.c",
	"race in net/packet/af_packet.c",
	"info leak in drivers/usb/core/devio.c",
	"double free in kernel/bpf/verifier.c",
	"integer overflow in mm/mremap.c",
	"NULL deref in sound/core/pcm.c",
};
static const char *const states[9] = { "new",	 "triaged",   "accepted",
				       "fixing", "fix-ready", "disclosed",
				       "closed", "rejected",  "new" };
/* The lifecycle's main line: a state on it is reached step by step. */
static const char *const line[7] = { "new",    "triaged",   "accepted",
				     "fixing", "fix-ready", "disclosed",
				     "closed" };
static const char *const severities[5] = { "none", "low", "medium", "high",
					   "critical" };
static const enum sig_verdict verdicts[4] = { SIG_VALID, SIG_GOOD,
					      SIG_NOT_SIGNED, SIG_VALID };

#define REPORTS_PER_TX 5000
#define NOTES_PER_TX 50000

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static UTIL_NORETURN void fail(const char *what, const struct err *err)
{
	fprintf(stderr, "mksealed: %s: %s\n", what, err->msg);
	exit(1);
}

/* An event, counted. */
static void event(struct session *sess, int64_t id, const char *kind,
		  const char *detail, long *nev)
{
	struct err err = { 0, "" };

	if (store_event_add(sess->store, id, sess->officer, kind, detail,
			    &err) < 0)
		fail("event", &err);
	(*nev)++;
}

/* Report i, its message, its triage and its decided date. */
static void one_report(struct session *sess, const char *signer, long i, long n,
		       time_t now, long *nev)
{
	struct store *s = sess->store;
	struct err err = { 0, "" };
	char *subj = xasprintf("bench report %ld: %s", i, words[i % 7]);
	char *name = xasprintf("Reporter %ld", i % 997);
	char *email = xasprintf("reporter%ld@example.net", i % 997);
	char *text = xasprintf("Report number %ld: %s.\nThe details follow.\n",
			       i, words[i % 7]);
	char *msgid = xasprintf("bench%ld@example.net", i);
	char *hash = xasprintf("hash%ld", i);
	char *entity, *digest, *d;
	size_t elen;
	time_t received = now - (time_t)(n - i) * 300;
	struct report_new rn = { subj, name, email, received, 0 };
	struct message m;
	const char *state = states[i % 9], *sev = severities[i % 5];
	const char *claim = i % 3 == 0 ? "alice" : i % 3 == 1 ? "bob" : NULL;
	int64_t id, mrow;

	if (store_report_insert(s, &rn, &id, &err) < 0)
		fail("report", &err);
	entity = xasprintf("From: %s <%s>\r\nTo: security@kernel.example\r\n"
			   "Subject: %s\r\nMessage-ID: <%s>\r\n\r\n%s",
			   name, email, subj, msgid, text);
	elen = strlen(entity);
	digest = mail_raw_hash(entity, elen);
	memset(&m, 0, sizeof(m));
	m.report_id = id;
	m.message_id = msgid;
	m.content_hash = hash;
	m.from_name = name;
	m.from_email = email;
	m.subject = subj;
	m.date = m.imported = received;
	m.encrypted = true;
	m.verdict = verdicts[i % 4];
	m.fingerprint = (char *)signer;
	m.signer_matches_from = true;
	m.blob_kind = (char *)"sealed";
	m.blob_plain = (const unsigned char *)entity;
	m.blob_plain_len = elen;
	m.blob_form = BLOB_RECEIVED;
	m.plain_sha256 = digest;
	if (store_message_insert(s, &m, &mrow, &err) < 0)
		fail("message", &err);
	/* The triage, each change with the event a team server asks for. */
	if (!strcmp(state, "rejected")) {
		event(sess, id, "state", "new -> rejected", nev);
	} else {
		for (size_t k = 1; k < 7 && strcmp(line[k - 1], state); k++) {
			d = xasprintf("%s -> %s", line[k - 1], line[k]);
			event(sess, id, "state", d, nev);
			free(d);
		}
	}
	if (strcmp(sev, "none")) {
		d = xasprintf("none -> %s", sev);
		event(sess, id, "severity", d, nev);
		free(d);
	}
	if (claim) {
		/* Made by the officer it names (a team server's is the
		 * login role, whatever is asked: its claims are its own). */
		d = xasprintf("claimed by %s", claim);
		if (store_event_add(s, id, claim, "claim", d, &err) < 0)
			fail("claim", &err);
		free(d);
		(*nev)++;
	}
	if (i % 40 == 0) {
		struct decision dec = { .report_id = id,
					.verdict = (char *)"ok",
					.date = now +
						((i / 40) % 30 - 5) * 86400L,
					.officer = (char *)"alice",
					.at = received };
		if (store_decision_add(s, &dec, &err) < 0)
			fail("decision", &err);
	}
	wipe_free(entity, elen);
	free(digest);
	free(subj);
	free(name);
	free(email);
	free(text);
	free(msgid);
	free(hash);
}

static void begin(struct session *sess)
{
	struct err err = { 0, "" };

	if (store_begin(sess->store, &err) < 0)
		fail("begin", &err);
}

static void commit(struct session *sess)
{
	struct err err = { 0, "" };

	if (store_commit(sess->store, &err) < 0)
		fail("commit", &err);
}

static int make(struct session *sess, long n, long ne)
{
	struct err err = { 0, "" };
	time_t now = util_now();
	long nev = 0, notes, i;
	double t0 = now_ms();
	size_t nr;
	const char *const *roster = session_roster(sess, &nr, &err);
	/* The signer a message records: a key the keyring has (opening a
	 * body looks it up, as it would a reporter's). */
	const char *signer;

	if (!roster)
		fail("roster", &err);
	signer = roster[0];

	for (i = 1; i <= n; i++) {
		if (i % REPORTS_PER_TX == 1)
			begin(sess);
		one_report(sess, signer, i, n, now, &nev);
		if (i % REPORTS_PER_TX == 0 || i == n) {
			commit(sess);
			fprintf(stderr, "\rmksealed: %ld reports", i);
		}
	}
	fprintf(stderr, " (%.1f s), %ld triage events\n", (now_ms() - t0) / 1e3,
		nev);
	notes = ne > nev ? ne - nev : 0;
	t0 = now_ms();
	for (i = 1; i <= notes; i++) {
		char d[64];
		struct err err = { 0, "" };

		if (i % NOTES_PER_TX == 1)
			begin(sess);
		snprintf(d, sizeof(d), "bench event %ld", i);
		if (store_event_add(sess->store, (i % n) + 1, sess->officer,
				    "note", d, &err) < 0)
			fail("note", &err);
		if (i % NOTES_PER_TX == 0 || i == notes) {
			commit(sess);
			fprintf(stderr, "\rmksealed: %ld notes", i);
		}
	}
	fprintf(stderr, " (%.1f s of notes)\n", (now_ms() - t0) / 1e3);
	return 0;
}

/* --subjects: every report kept, to sort. */
struct all {
	struct report *v;
	size_t n, cap;
};

static int keep(const struct report *r, void *data)
{
	struct all *a = data;
	struct report *c;

	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 1024;
		a->v = xrealloc(a->v, a->cap * sizeof(*a->v));
	}
	c = &a->v[a->n++];
	*c = *r;
	c->subject = r->subject ? xstrdup(r->subject) : NULL;
	c->reporter_name = c->reporter_email = c->claimed_by = NULL;
	c->state = c->severity = NULL;
	return 0;
}

static int by_subject(const void *x, const void *y)
{
	const struct report *a = x, *b = y;
	int c = strcasecmp(a->subject ? a->subject : "",
			   b->subject ? b->subject : "");

	return c ? c : (a->id > b->id) - (a->id < b->id);
}

/* As the list's subject sort (tui/view-reports.c). */
static int by_subject_at(const void *x, const void *y, void *data)
{
	const struct report_subject *v = data;
	const struct report_subject *a = &v[*(const size_t *)x];
	const struct report_subject *b = &v[*(const size_t *)y];
	int c = strcasecmp(a->subject, b->subject);

	return c ? c : (a->id > b->id) - (a->id < b->id);
}

static int subjects(struct session *sess, const char *word)
{
	struct err err = { 0, "" };
	struct all a = { NULL, 0, 0 };
	struct wrapped_key *w = NULL;
	int64_t *ids = NULL;
	struct report_subject *subj = NULL;
	size_t nids = 0, nw = 0, nsubj = 0, *order;
	double t0 = now_ms(), t1, t2, t3, t4, t5;

	/* A database with no team key (the clear fixture) is left so: no
	 * key is made for it. */
	if (store_team_keys(sess->store, 0, &w, &nw, &err) < 0)
		fail("team keys", &err);
	if (nw && session_team_key_ready(sess, &err) < 0)
		fail("team key", &err);
	for (size_t i = 0; i < nw; i++)
		wrapped_key_release(&w[i]);
	free(w);
	t1 = now_ms();
	if (report_each(sess, NULL, keep, &a, &err) < 0)
		fail("reports", &err);
	t2 = now_ms();
	qsort(a.v, a.n, sizeof(*a.v), by_subject);
	t3 = now_ms();
	/* Subjects searched as the UI's :search and `search` do. */
	{
		struct search_query q;
		struct search_result res;
		char *query = xasprintf("subject:%s", word);

		if (search_parse(query, &q, &err) < 0 ||
		    search_run(sess, &q, NULL, NULL, &res, &err) < 0)
			fail("search", &err);
		nids = res.n;
		search_result_release(&res);
		search_query_release(&q);
		free(query);
	}
	t4 = now_ms();
	/* What the list's subject sort reads: the subjects alone. */
	if (report_subjects(sess, 0, &subj, &nsubj, &err) < 0)
		fail("subjects", &err);
	order = xmalloc((nsubj + 1) * sizeof(*order));
	for (size_t i = 0; i < nsubj; i++)
		order[i] = i;
	qsort_r(order, nsubj, sizeof(*order), by_subject_at, subj);
	t5 = now_ms();
	printf("unwrap %.1f\nread %.1f\nsort %.1f\nsearch %.1f\nsubjects %.1f\n"
	       "reports %zu\nhits %zu\nfirst %s\nfirst-subject %s\n",
	       t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, a.n, nids,
	       a.n ? a.v[0].subject : "-",
	       nsubj ? subj[order[0]].subject : "-");
	report_subjects_free(subj, nsubj);
	free(order);
	for (size_t i = 0; i < a.n; i++)
		report_release(&a.v[i]);
	free(a.v);
	free(ids);
	return 0;
}

int main(int argc, char **argv)
{
	struct session sess;
	struct err err = { 0, "" };
	bool subj = argc == 6 && !strcmp(argv[1], "--subjects");
	char **a = argv + subj;
	int r;

	if (argc != 6) {
		fprintf(stderr,
			"usage: mksealed DB GNUPGHOME CONFIG REPORTS EVENTS\n"
			"       mksealed --subjects DB GNUPGHOME CONFIG WORD\n");
		return 2;
	}
	memset(&sess, 0, sizeof(sess));
	sess.db_path = a[1];
	sess.gnupghome = a[2];
	sess.config_path = a[3];
	if (session_open(&sess, &err) < 0 || !session_store(&sess, &err))
		fail("session", &err);
	if (subj) {
		r = subjects(&sess, a[4]);
	} else {
		if (session_team_key_ready(&sess, &err) < 0)
			fail("team key", &err);
		r = make(&sess, atol(a[4]), atol(a[5]));
	}
	session_close(&sess);
	return r;
}
