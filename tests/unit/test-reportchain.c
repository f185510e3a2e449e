/*
 * The reports' chains: the report events' canonical codec
 * (crypto/reportevent.c) and the client's verification of a report's
 * chain (core/reportchain.c) against a verified team chain, with
 * signing keys made from fixed seeds; and the same signed log kept by
 * each engine, which must give the same derived state.
 */
#include "unit.h"

#include "core/reportchain.h"
#include "core/teamchain.h"
#include "crypto/reportevent.h"
#include "crypto/signkey.h"
#include "store/store.h"

#define FA "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
#define FB "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"

/* --- the codec ------------------------------------------------------- */

static void fill_import(struct report_event *ev, uint64_t msg)
{
	memset(ev, 0, sizeof(*ev));
	ev->kind = REPORT_EV_IMPORT;
	ev->report = 7;
	ev->seq = 1;
	ev->team_seq = 3;
	ev->at = 1700000000;
	memcpy(ev->author, FA, 41);
	ev->generation = 2;
	ev->message = msg;
	memset(ev->digest, 0x11, sizeof(ev->digest));
	memset(ev->values, 0x22, sizeof(ev->values));
	memset(ev->signatures, 0x33, sizeof(ev->signatures));
	memset(ev->report_values, 0x44, sizeof(ev->report_values));
	ev->files = xcalloc(2, sizeof(*ev->files));
	memset(ev->files[0], 0x66, 32);
	memset(ev->files[1], 0x55, 32);
	ev->nfiles = 2;
	report_event_sort(ev);
}

static void test_codec_round_trip(void **state)
{
	(void)state;
	struct report_event ev, back;
	struct err err = { 0, "" };
	unsigned char *body, *again;
	size_t len, len2;

	fill_import(&ev, 12);
	assert_int_equal(ev.files[0][0], 0x55); /* sorted */
	assert_int_equal(report_event_encode(&ev, &body, &len, &err), 0);
	assert_memory_equal(body, "SRE\x01\x01", 5);
	assert_int_equal(report_event_decode(body, len, &back, &err), 0);
	assert_int_equal(back.kind, REPORT_EV_IMPORT);
	assert_int_equal(back.report, 7);
	assert_int_equal(back.message, 12);
	assert_int_equal(back.generation, 2);
	assert_int_equal(back.nfiles, 2);
	assert_memory_equal(back.report_values, ev.report_values, 32);
	assert_string_equal(back.author, FA);
	assert_int_equal(report_event_encode(&back, &again, &len2, &err), 0);
	assert_int_equal(len2, len);
	assert_memory_equal(again, body, len);
	assert_string_equal(report_event_kind_name(REPORT_EV_TAKEN_IN),
			    "taken-in");
	assert_non_null(report_event_kind_sets(REPORT_EV_CHECKPOINT));
	assert_non_null(report_event_kind_clear(REPORT_EV_IMPORT));
	free(body);
	free(again);
	report_event_release(&ev);
	report_event_release(&back);
}

static void test_codec_refuses_non_canonical(void **state)
{
	(void)state;
	struct report_event ev, back;
	struct err err = { 0, "" };
	unsigned char *body, *copy;
	size_t len;

	fill_import(&ev, 12);
	assert_int_equal(report_event_encode(&ev, &body, &len, &err), 0);
	/* Every cut is refused, and so is a byte more. */
	for (size_t n = 0; n < len; n++)
		assert_true(report_event_decode(body, n, &back, &err) < 0);
	copy = xcalloc(1, len + 1);
	memcpy(copy, body, len);
	assert_true(report_event_decode(copy, len + 1, &back, &err) < 0);
	assert_non_null(strstr(err.msg, "after the report event's last"));
	/* Files out of order (the last two hashes swapped). */
	memcpy(copy, body, len);
	memset(copy + len - 64, 0x66, 32);
	memset(copy + len - 32, 0x55, 32);
	assert_true(report_event_decode(copy, len, &back, &err) < 0);
	assert_non_null(strstr(err.msg, "strictly ascending"));
	/* An unknown kind, version, a lower-case author, report 0. */
	memcpy(copy, body, len);
	copy[4] = 99;
	assert_true(report_event_decode(copy, len, &back, &err) < 0);
	memcpy(copy, body, len);
	copy[3] = 2;
	assert_true(report_event_decode(copy, len, &back, &err) < 0);
	memcpy(copy, body, len);
	copy[5 + 8 + 8 + 32 + 8 + 32] = 'a';
	assert_true(report_event_decode(copy, len, &back, &err) < 0);
	memcpy(copy, body, len);
	memset(copy + 5, 0, 8);
	assert_true(report_event_decode(copy, len, &back, &err) < 0);
	/* The encoder refuses what the decoder would. */
	free(copy);
	copy = NULL;
	memcpy(ev.files[0], ev.files[1], 32);
	assert_true(report_event_encode(&ev, &copy, &len, &err) < 0);
	free(copy);
	free(body);
	report_event_release(&ev);
}

/* A change and a changes-taken-in go through the codec unchanged; an
 * empty claim is encoded as none (one encoding), a string of control
 * characters is refused both ways. */
static void test_codec_changes(void **state)
{
	(void)state;
	struct report_event ev, back;
	struct err err = { 0, "" };
	unsigned char *body, *again;
	size_t len, len2;

	memset(&ev, 0, sizeof(ev));
	ev.kind = REPORT_EV_CHANGE;
	ev.report = 7;
	ev.seq = 3;
	memcpy(ev.author, FA, 41);
	ev.generation = 2;
	ev.event = 1234;
	ev.event_kind = xstrdup("date-set");
	ev.ref = 9;
	memset(ev.value, 0x11, 32);
	memset(ev.detail, 0x22, 32);
	memset(ev.row, 0x33, 32);
	assert_int_equal(report_event_encode(&ev, &body, &len, &err), 0);
	assert_int_equal(body[4], 4);
	assert_int_equal(report_event_decode(body, len, &back, &err), 0);
	assert_int_equal(back.event, 1234);
	assert_string_equal(back.event_kind, "date-set");
	assert_int_equal(back.ref, 9);
	assert_memory_equal(back.row, ev.row, 32);
	assert_memory_equal(back.detail, ev.detail, 32);
	assert_int_equal(report_event_encode(&back, &again, &len2, &err), 0);
	assert_int_equal(len2, len);
	assert_memory_equal(again, body, len);
	free(again);
	report_event_release(&back);
	/* A cut anywhere is refused. */
	for (size_t n = 0; n < len; n++)
		assert_true(report_event_decode(body, n, &back, &err) < 0);
	free(body);
	free(ev.event_kind);
	ev.event_kind = xstrdup("bad\nkind");
	assert_true(report_event_encode(&ev, &body, &len, &err) < 0);
	assert_non_null(strstr(err.msg, "kind"));
	report_event_release(&ev);

	memset(&ev, 0, sizeof(ev));
	ev.kind = REPORT_EV_CHANGES_TAKEN_IN;
	ev.report = 7;
	ev.seq = 2;
	memcpy(ev.author, FB, 41);
	ev.event = 55;
	ev.state = xstrdup("triaged");
	ev.severity = xstrdup("high");
	ev.claimed = xstrdup("");
	ev.flags = REPORT_FLAG_CREDIT | REPORT_FLAG_PUBLIC;
	ev.release = 1700000000;
	ev.decisions = 4;
	ev.proposals = 6;
	memset(ev.dates, 0x44, 32);
	assert_int_equal(report_event_encode(&ev, &body, &len, &err), 0);
	assert_int_equal(report_event_decode(body, len, &back, &err), 0);
	assert_null(back.claimed); /* "" and none: one encoding */
	assert_string_equal(back.state, "triaged");
	assert_string_equal(back.severity, "high");
	assert_int_equal(back.flags, REPORT_FLAG_CREDIT | REPORT_FLAG_PUBLIC);
	assert_int_equal(back.release, 1700000000);
	assert_int_equal(back.decisions, 4);
	assert_int_equal(back.proposals, 6);
	assert_memory_equal(back.dates, ev.dates, 32);
	assert_int_equal(report_event_encode(&back, &again, &len2, &err), 0);
	assert_int_equal(len2, len);
	assert_memory_equal(again, body, len);
	free(again);
	free(body);
	report_event_release(&back);
	/* A state is required (1 to 256 characters). */
	free(ev.state);
	ev.state = NULL;
	assert_true(report_event_encode(&ev, &body, &len, &err) < 0);
	report_event_release(&ev);
}

/* The scalars are derived from the verified changes' rows only, from
 * what the timeline's taking in said, and only by the rules: a state
 * step of the lifecycle, a known severity, a claim by its own officer. */
static const char *who_ab(void *data, const char *fpr)
{
	(void)data;
	return !strcmp(fpr, FA) ? "alice" : !strcmp(fpr, FB) ? "bob" : NULL;
}

static void add_change(struct report_chain *c, uint64_t id, const char *fpr)
{
	struct report_chain_entry *e;

	c->e = xrealloc(c->e, (c->n + 1) * sizeof(*c->e));
	e = &c->e[c->n++];
	memset(e, 0, sizeof(*e));
	e->kind = REPORT_EV_CHANGE;
	e->event = id;
	e->event_kind = xstrdup("x");
	e->at = 1700000000 + (int64_t)id;
	snprintf(e->author, sizeof(e->author), "%s", fpr);
}

static void test_derive(void **state)
{
	(void)state;
	struct report_chain c;
	struct report_scalars d;
	struct event rows[7];
	bool ok[7] = { true, true, true, true, true, false, true };
	char **notes = NULL;
	size_t nnotes = 0;
	const char *kinds[] = { "state",   "claim", "claim",	    "severity",
				"consent", "state", "release-start" };
	const char *values[] = { "accepted", "bob",    "alice", "nonsense",
				 "credit",   "closed", NULL };

	report_chain_init(&c, 7);
	snprintf(c.changes_from, sizeof(c.changes_from), "%s", FA);
	c.changes_mark = 10;
	snprintf(c.taken.state, sizeof(c.taken.state), "%s", "triaged");
	snprintf(c.taken.severity, sizeof(c.taken.severity), "%s", "low");
	memset(rows, 0, sizeof(rows));
	for (int i = 0; i < 7; i++) {
		rows[i].id = 11 + i;
		rows[i].kind = (char *)kinds[i];
		rows[i].value = (char *)values[i];
		/* the claim for bob is signed by alice */
		add_change(&c, (uint64_t)rows[i].id, FA);
	}
	report_chain_derive(&c, rows, ok, 7, who_ab, NULL, &d, &notes, &nnotes);
	assert_string_equal(d.state, "accepted"); /* triaged -> accepted */
	assert_string_equal(d.claimed, "alice"); /* not bob's, by alice */
	assert_string_equal(d.severity, "low"); /* nonsense not applied */
	assert_true(d.credit);
	assert_false(d.exploit);
	/* row 16 ("closed") is not accounted for: not applied */
	assert_int_equal(d.release, 1700000017);
	assert_int_equal(nnotes, 2);
	assert_non_null(strstr(notes[0], "event 12 (claim) is not applied"));
	assert_non_null(strstr(notes[1], "event 14 (severity)"));
	for (size_t i = 0; i < nnotes; i++)
		free(notes[i]);
	free(notes);
	notes = NULL;
	nnotes = 0;
	/* A step not in the lifecycle is not applied. */
	ok[5] = true;
	rows[5].value = (char *)"new";
	report_chain_derive(&c, rows, ok, 7, who_ab, NULL, &d, &notes, &nnotes);
	assert_string_equal(d.state, "accepted");
	assert_int_equal(nnotes, 3);
	assert_non_null(strstr(notes[2], "event 16 (state) is not applied"));
	for (size_t i = 0; i < nnotes; i++)
		free(notes[i]);
	free(notes);
	report_chain_release(&c);
}

/* --- verification ----------------------------------------------------- */

static struct sign_key *KA, *KB;

static int cert_cb(void *data, const char *fpr, const unsigned char *pub,
		   const void *cert, size_t len, struct err *err)
{
	(void)data, (void)fpr, (void)pub, (void)cert, (void)len, (void)err;
	return 0;
}

static int wrapped_cb(void *data, const char *fpr, const void *blob, size_t len,
		      struct err *err)
{
	(void)data, (void)fpr, (void)blob, (void)len, (void)err;
	return 0;
}

/* A team chain founded by alice alone (bob's key certified by nobody). */
static void team_found(struct team_chain *t, struct team_event_row *row)
{
	static const struct team_chain_check chk = { NULL, cert_cb,
						     wrapped_cb };
	unsigned char seed[32];
	struct team_event ev;
	struct err e = { 0, "" };

	if (!KA) {
		memset(seed, 1, sizeof(seed));
		assert_int_equal(sign_key_from_seed(seed, &KA, &e), 0);
		memset(seed, 2, sizeof(seed));
		assert_int_equal(sign_key_from_seed(seed, &KB, &e), 0);
	}
	team_chain_init(t);
	memset(&ev, 0, sizeof(ev));
	ev.kind = TEAM_EV_FOUNDING;
	ev.members = xcalloc(1, sizeof(*ev.members));
	ev.members[0].role = xstrdup("alice");
	memcpy(ev.members[0].fpr, FA, 41);
	ev.nmembers = 1;
	memcpy(ev.signing_key, sign_key_public(KA), 32);
	ev.cert = (unsigned char *)xstrdup("cert");
	ev.certlen = 4;
	memset(row, 0, sizeof(*row));
	row->sig = xcalloc(1, SIGN_SIG_BYTES);
	row->siglen = SIGN_SIG_BYTES;
	assert_int_equal(team_chain_sign(t, &ev, FA, KA, &row->body, &row->len,
					 row->sig, &e),
			 0);
	row->seq = 1;
	team_chain_feed(t, row, 1, &chk);
	assert_true(t->started);
	team_event_release(&ev);
}

struct rlog {
	struct report_event_row *rows;
	size_t n;
	struct report_chain c; /* the writer's view */
};

/* Appends ev, signed by fpr with key, as an honest client would. */
static void rappend(struct rlog *l, const struct team_chain *t,
		    struct report_event *ev, const char *fpr,
		    struct sign_key *key)
{
	struct report_event_row *r;
	struct err e = { 0, "" };

	l->rows = xrealloc(l->rows, (l->n + 1) * sizeof(*l->rows));
	r = &l->rows[l->n++];
	memset(r, 0, sizeof(*r));
	r->sig = xcalloc(1, SIGN_SIG_BYTES);
	r->siglen = SIGN_SIG_BYTES;
	assert_int_equal(report_chain_sign(&l->c, t, ev, fpr, key, &r->body,
					   &r->len, r->sig, &e),
			 0);
	r->id = (int64_t)l->n;
	r->report_id = ev->report;
	r->seq = (int64_t)ev->seq;
	report_chain_feed(&l->c, t, r, 1);
	report_event_release(ev);
}

static void import(struct report_event *ev, uint64_t msg)
{
	fill_import(ev, msg);
}

static void rlog_release(struct rlog *l)
{
	for (size_t i = 0; i < l->n; i++)
		report_event_row_release(&l->rows[i]);
	free(l->rows);
	report_chain_release(&l->c);
}

static bool noted(const struct report_chain *c, const char *what)
{
	for (size_t i = 0; i < c->nnotes; i++)
		if (strstr(c->notes[i], what))
			return true;
	return false;
}

static void test_chain_accounts(void **state)
{
	(void)state;
	struct team_chain t;
	struct team_event_row trow;
	struct rlog l;
	struct report_chain v;
	struct report_event ev;

	team_found(&t, &trow);
	memset(&l, 0, sizeof(l));
	report_chain_init(&l.c, 7);
	import(&ev, 12);
	rappend(&l, &t, &ev, FA, KA);
	import(&ev, 13);
	rappend(&l, &t, &ev, FA, KA);
	assert_int_equal(l.c.seq, 2);
	report_chain_init(&v, 7);
	report_chain_feed(&v, &t, l.rows, l.n);
	assert_null(v.broken);
	assert_int_equal(v.nnotes, 0);
	assert_non_null(report_chain_message(&v, 12));
	assert_non_null(report_chain_message(&v, 13));
	assert_null(report_chain_message(&v, 14));
	assert_memory_equal(v.head, l.c.head, 32);
	report_chain_release(&v);

	/* A byte changed: its signature is bad, it accounts for nothing,
	 * and the next one no longer follows: the chain stops. */
	l.rows[0].body[l.rows[0].len - 40] ^= 1;
	report_chain_init(&v, 7);
	report_chain_feed(&v, &t, l.rows, l.n);
	assert_true(noted(&v, "its signature is bad"));
	assert_null(report_chain_message(&v, 12));
	assert_non_null(v.broken);
	assert_null(report_chain_message(&v, 13));
	report_chain_release(&v);
	l.rows[0].body[l.rows[0].len - 40] ^= 1;

	/* The first left out: the chain stops before the second. */
	report_chain_init(&v, 7);
	report_chain_feed(&v, &t, l.rows + 1, 1);
	assert_non_null(v.broken);
	assert_null(report_chain_message(&v, 13));
	report_chain_release(&v);

	/* Replayed into report 8's chain: not used there. */
	report_chain_init(&v, 8);
	l.rows[0].report_id = 8;
	report_chain_feed(&v, &t, l.rows, 1);
	assert_true(noted(&v, "it is report 7's event"));
	assert_int_equal(v.n, 0);
	l.rows[0].report_id = 7;
	report_chain_release(&v);

	rlog_release(&l);
	team_event_row_release(&trow);
	team_chain_release(&t);
}

static void test_chain_strangers_and_checkpoints(void **state)
{
	(void)state;
	struct team_chain t;
	struct team_event_row trow;
	struct rlog l, w;
	struct report_chain v;
	struct report_event ev;

	team_found(&t, &trow);
	/* Bob, whose key nobody certified, writes report 7's first event:
	 * not used, and it blocks nothing (alice's is the first). */
	memset(&w, 0, sizeof(w));
	report_chain_init(&w.c, 7);
	import(&ev, 12);
	rappend(&w, &t, &ev, FB, KB);
	/* ... and his under alice's name: a bad signature. */
	import(&ev, 12);
	rappend(&w, &t, &ev, FA, KB);
	memset(&l, 0, sizeof(l));
	report_chain_init(&l.c, 7);
	import(&ev, 11);
	ev.kind = REPORT_EV_TAKEN_IN; /* no checkpoint before it */
	rappend(&l, &t, &ev, FA, KA);
	assert_int_equal(l.c.seq, 0);
	assert_true(noted(&l.c, "no checkpoint before it"));
	l.n--;
	report_event_row_release(&l.rows[l.n]);
	memset(&ev, 0, sizeof(ev));
	ev.kind = REPORT_EV_CHECKPOINT;
	ev.taken_in = 1;
	ev.note = xstrdup("taken in on its author's word");
	rappend(&l, &t, &ev, FA, KA);
	import(&ev, 11);
	ev.kind = REPORT_EV_TAKEN_IN;
	rappend(&l, &t, &ev, FA, KA);
	memset(&ev, 0, sizeof(ev));
	ev.kind = REPORT_EV_CHECKPOINT; /* only first */
	ev.note = xstrdup("again");
	rappend(&l, &t, &ev, FA, KA);
	assert_true(noted(&l.c, "a checkpoint only starts"));
	l.n--;
	report_event_row_release(&l.rows[l.n]);
	import(&ev, 11); /* the same message twice */
	rappend(&l, &t, &ev, FA, KA);
	assert_true(noted(&l.c, "already accounted for"));
	l.n--;
	report_event_row_release(&l.rows[l.n]);

	/* The server's order: bob's two rows first, then alice's. */
	w.rows = xrealloc(w.rows, (w.n + l.n) * sizeof(*w.rows));
	for (size_t i = 0; i < l.n; i++) {
		w.rows[w.n + i] = l.rows[i];
		l.rows[i].body = l.rows[i].sig = NULL;
	}
	w.n += l.n;
	report_chain_init(&v, 7);
	report_chain_feed(&v, &t, w.rows, w.n);
	assert_null(v.broken);
	assert_true(noted(&v, "signed by a key no officer certified"));
	assert_true(noted(&v, "its signature is bad"));
	assert_string_equal(v.checkpoint, FA);
	assert_non_null(report_chain_message(&v, 11));
	assert_int_equal(report_chain_message(&v, 11)->kind,
			 REPORT_EV_TAKEN_IN);
	assert_null(report_chain_message(&v, 12));
	report_chain_release(&v);
	rlog_release(&w);
	rlog_release(&l);
	team_event_row_release(&trow);
	team_chain_release(&t);
}

/* The same signed log, kept by the engine under test and read back,
 * derives what the log itself derives: the same on SQLite and on
 * PostgreSQL, whatever order of ids or types each engine has. */
static void test_engines_derive_alike(void **state)
{
	(void)state;
	struct team_chain t;
	struct team_event_row trow;
	struct rlog l;
	struct report_chain want, got;
	struct report_event ev;
	struct report_event_row *rows = NULL;
	struct err err = { 0, "" };
	struct store *s;
	size_t n = 0;

	team_found(&t, &trow);
	memset(&l, 0, sizeof(l));
	report_chain_init(&l.c, 7);
	for (uint64_t m = 20; m < 25; m++) {
		import(&ev, m);
		rappend(&l, &t, &ev, FA, KA);
	}
	report_chain_init(&want, 7);
	report_chain_feed(&want, &t, l.rows, l.n);
	assert_int_equal(want.n, 5);

	s = unit_store_open("chains.db");
	assert_int_equal(store_begin(s, &err), 0);
	for (size_t i = 0; i < l.n; i++)
		assert_int_equal(store_report_event_add(
					 s, 7, l.rows[i].seq - 1,
					 l.rows[i].body, l.rows[i].len,
					 l.rows[i].sig, l.rows[i].siglen, &err),
				 0);
	/* A second writer at a place already taken is refused. */
	assert_int_equal(store_report_event_add(s, 7, 0, l.rows[0].body,
						l.rows[0].len, l.rows[0].sig,
						l.rows[0].siglen, &err),
			 ERR_DUPLICATE);
	store_rollback(s);
	assert_int_equal(store_begin(s, &err), 0);
	for (size_t i = 0; i < l.n; i++)
		assert_int_equal(store_report_event_add(
					 s, 7, l.rows[i].seq - 1,
					 l.rows[i].body, l.rows[i].len,
					 l.rows[i].sig, l.rows[i].siglen, &err),
				 0);
	assert_int_equal(store_commit(s, &err), 0);
	assert_int_equal(store_report_events(s, 7, &rows, &n, &err), 0);
	assert_int_equal(n, l.n);
	report_chain_init(&got, 7);
	report_chain_feed(&got, &t, rows, n);
	assert_null(got.broken);
	assert_int_equal(got.nnotes, 0);
	assert_int_equal(got.seq, want.seq);
	assert_memory_equal(got.head, want.head, 32);
	assert_int_equal(got.n, want.n);
	for (size_t i = 0; i < got.n; i++) {
		assert_int_equal(got.e[i].message, want.e[i].message);
		assert_memory_equal(got.e[i].values, want.e[i].values, 32);
		assert_int_equal(got.e[i].nfiles, want.e[i].nfiles);
	}
	for (size_t i = 0; i < n; i++)
		report_event_row_release(&rows[i]);
	free(rows);
	/* A row whose signature is not 64 bytes is refused. */
	assert_true(store_report_event_add(s, 7, 5, (const unsigned char *)"x",
					   1, l.rows[0].sig, 63, &err) < 0);
	store_close(s);
	report_chain_release(&got);
	report_chain_release(&want);
	rlog_release(&l);
	team_event_row_release(&trow);
	team_chain_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_codec_round_trip),
		cmocka_unit_test(test_codec_refuses_non_canonical),
		cmocka_unit_test(test_codec_changes),
		cmocka_unit_test(test_derive),
		cmocka_unit_test(test_chain_accounts),
		cmocka_unit_test(test_chain_strangers_and_checkpoints),
		UNIT_BOTH(test_engines_derive_alike),
	};

	return unit_run("reportchain", tests, sizeof(tests) / sizeof(tests[0]));
}
