/*
 * The team chain: the team events' canonical codec (crypto/teamevent.c)
 * and the client's verification of the chain (core/teamchain.c), with
 * signing keys made from fixed seeds and the keyring's checks (OpenPGP
 * certification, wrapped copies' recipients) played by callbacks.
 */
#include "unit.h"

#include "core/teamchain.h"
#include "crypto/signkey.h"
#include "crypto/teamevent.h"

#define FA "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
#define FB "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB"
#define FC "CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC"

/* --- the codec ------------------------------------------------------- */

static void fill_generation(struct team_event *ev, uint32_t gen,
			    const char *const *fprs, size_t n)
{
	memset(ev, 0, sizeof(*ev));
	ev->kind = TEAM_EV_GENERATION;
	ev->seq = 3;
	ev->at = 1700000000;
	memcpy(ev->author, FA, 41);
	ev->generation = gen;
	ev->wraps = xcalloc(n, sizeof(*ev->wraps));
	for (size_t i = 0; i < n; i++) {
		memcpy(ev->wraps[i].fpr, fprs[i], 41);
		ev->wraps[i].blob = (unsigned char *)xstrdup("wrapped");
		ev->wraps[i].len = 7;
	}
	ev->nwraps = n;
}

static void test_codec_round_trip(void **state)
{
	(void)state;
	struct team_event ev, back;
	struct err e = { 0, "" };
	const char *fprs[] = { FA, FB };
	unsigned char *enc, *enc2;
	size_t len, len2;

	fill_generation(&ev, 7, fprs, 2);
	assert_int_equal(team_event_encode(&ev, &enc, &len, &e), 0);
	assert_int_equal(team_event_decode(enc, len, &back, &e), 0);
	assert_int_equal(back.kind, TEAM_EV_GENERATION);
	assert_int_equal(back.generation, 7);
	assert_int_equal(back.nwraps, 2);
	assert_string_equal(back.wraps[1].fpr, FB);
	assert_int_equal(team_event_encode(&back, &enc2, &len2, &e), 0);
	assert_int_equal(len, len2);
	assert_memory_equal(enc, enc2, len);
	assert_string_equal(team_event_kind_name(TEAM_EV_OFFICER_REMOVED),
			    "officer-removed");
	assert_non_null(team_event_kind_sets(TEAM_EV_GENERATION));
	assert_non_null(team_event_kind_clear(TEAM_EV_GENERATION));
	free(enc2);
	team_event_release(&back);

	/* Every prefix is refused, and a byte more. */
	for (size_t cut = 0; cut < len; cut++)
		assert_int_equal(team_event_decode(enc, cut, &back, &e),
				 ERR_INVALID);
	enc = xrealloc(enc, len + 1);
	enc[len] = 0;
	assert_int_equal(team_event_decode(enc, len + 1, &back, &e),
			 ERR_INVALID);
	assert_non_null(strstr(e.msg, "after the team event's last field"));
	free(enc);
	team_event_release(&ev);
}

static void test_codec_refuses_non_canonical(void **state)
{
	(void)state;
	struct team_event ev, back;
	struct err e = { 0, "" };
	const char *fprs[] = { FA, FB }, *unsorted[] = { FB, FA };
	unsigned char *enc;
	size_t len;

	/* The encoder refuses what the decoder would. */
	fill_generation(&ev, 1, unsorted, 2);
	assert_int_equal(team_event_encode(&ev, &enc, &len, &e), ERR_INVALID);
	assert_non_null(strstr(e.msg, "ascending"));
	team_event_release(&ev);
	fill_generation(&ev, 1, fprs, 2);
	ev.wraps[0].fpr[3] = 'a';
	assert_int_equal(team_event_encode(&ev, &enc, &len, &e), ERR_INVALID);
	ev.wraps[0].fpr[3] = 'A';
	assert_int_equal(team_event_encode(&ev, &enc, &len, &e), 0);
	team_event_release(&ev);

	/* Lower-case hex in the author (offset: magic 3, version, kind,
	 * sequence 8, previous 32). */
	enc[45] = 'a';
	assert_int_equal(team_event_decode(enc, len, &back, &e), ERR_INVALID);
	assert_non_null(strstr(e.msg, "author"));
	enc[45] = 'A';
	/* An unknown version, an unknown kind. */
	enc[3] = 2;
	assert_int_equal(team_event_decode(enc, len, &back, &e), ERR_INVALID);
	enc[3] = 1;
	enc[4] = 99;
	assert_int_equal(team_event_decode(enc, len, &back, &e), ERR_INVALID);
	enc[4] = TEAM_EV_GENERATION;
	/* The copies swapped: same bytes, another order. */
	{
		size_t head = 3 + 2 + 8 + 32 + 40 + 8 + 4 + 4, one = 40 + 4 + 7;
		size_t wl = head + 4 + 4; /* chained (empty), count */
		unsigned char tmp[64];
		memcpy(tmp, enc + wl, one);
		memcpy(enc + wl, enc + wl + one, one);
		memcpy(enc + wl + one, tmp, one);
		assert_int_equal(team_event_decode(enc, len, &back, &e),
				 ERR_INVALID);
		assert_non_null(strstr(e.msg, "ascending"));
	}
	free(enc);
}

/* --- the chain ------------------------------------------------------- */

struct member {
	const char *role, *fpr;
	struct sign_key *key;
};

static struct member A = { "alice", FA, NULL }, B = { "bob", FB, NULL },
		     C = { "carol", FC, NULL };

/* The keyring's checks: every certification good but a "bad" one; a
 * wrapped copy is its key's unless its bytes say "stranger". */
static int cert_cb(void *data, const char *fpr, const unsigned char *pub,
		   const void *cert, size_t len, struct err *err)
{
	(void)data, (void)pub;
	if (len == 3 && !memcmp(cert, "bad", 3))
		return err_setc(err, ERR_CRYPTO,
				"the certification of %s is no good", fpr);
	return 0;
}

static int wrapped_cb(void *data, const char *fpr, const void *blob, size_t len,
		      struct err *err)
{
	(void)data;
	if (len == 8 && !memcmp(blob, "stranger", 8))
		return err_setc(err, ERR_CRYPTO,
				"it is encrypted to a stranger, not %s", fpr);
	return 0;
}

static const struct team_chain_check CHK = { NULL, cert_cb, wrapped_cb };

struct log {
	struct team_event_row *rows;
	size_t n;
	struct team_chain c; /* the writers' view */
};

static void keys_setup(void)
{
	unsigned char seed[32];
	struct err e = { 0, "" };
	struct member *o[] = { &A, &B, &C };

	for (size_t i = 0; i < 3; i++) {
		memset(seed, (int)i + 1, sizeof(seed));
		if (!o[i]->key)
			assert_int_equal(
				sign_key_from_seed(seed, &o[i]->key, &e), 0);
	}
}

/* Whether the next append is signed on a head of its own (a byte of the
 * verified head's hash changed), as a hostile officer's would be. */
static bool forked;

/* Appends ev by o as an honest client would: on the chain's head. */
static void append(struct log *l, struct team_event *ev, struct member *o)
{
	struct err e = { 0, "" };
	unsigned char *body, sig[SIGN_SIG_BYTES];
	size_t len;

	l->c.head[0] ^= forked;
	assert_int_equal(team_chain_sign(&l->c, ev, o->fpr, o->key, &body, &len,
					 sig, &e),
			 0);
	l->c.head[0] ^= forked;
	forked = false;
	l->rows = xrealloc(l->rows, (l->n + 1) * sizeof(*l->rows));
	l->rows[l->n].seq = (int64_t)l->n + 1;
	l->rows[l->n].body = body;
	l->rows[l->n].len = len;
	l->rows[l->n].sig = xmemdup(sig, sizeof(sig));
	l->rows[l->n].siglen = sizeof(sig);
	team_chain_feed(&l->c, &l->rows[l->n], 1, &CHK);
	l->n++;
	team_event_release(ev);
}

static void found(struct log *l)
{
	struct team_event ev;

	memset(l, 0, sizeof(*l));
	team_chain_init(&l->c);
	keys_setup();
	memset(&ev, 0, sizeof(ev));
	ev.kind = TEAM_EV_FOUNDING;
	ev.members = xcalloc(1, sizeof(*ev.members));
	ev.members[0].role = xstrdup(A.role);
	memcpy(ev.members[0].fpr, A.fpr, 41);
	ev.nmembers = 1;
	memcpy(ev.signing_key, sign_key_public(A.key), 32);
	ev.cert = (unsigned char *)xstrdup("cert");
	ev.certlen = 4;
	append(l, &ev, &A);
}

static void add_officer(struct log *l, struct member *by, struct member *o)
{
	struct team_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = TEAM_EV_OFFICER_ADDED;
	ev.role = xstrdup(o->role);
	memcpy(ev.fpr, o->fpr, 41);
	append(l, &ev, by);
	memset(&ev, 0, sizeof(ev));
	ev.kind = TEAM_EV_SIGNING_KEY;
	memcpy(ev.signing_key, sign_key_public(o->key), 32);
	ev.cert = (unsigned char *)xstrdup("cert");
	ev.certlen = 4;
	append(l, &ev, o);
}

static void remove_officer(struct log *l, struct member *by, struct member *o)
{
	struct team_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = TEAM_EV_OFFICER_REMOVED;
	ev.role = xstrdup(o->role);
	append(l, &ev, by);
}

/* A generation by o wrapped to fprs (the roster's now when NULL). */
static void generation(struct log *l, struct member *o, uint32_t gen,
		       const char *const *fprs, size_t n, const char *blob)
{
	struct team_event ev;
	char **roster = NULL;
	const struct team_gen *last = team_chain_current(&l->c);

	if (!fprs) {
		n = team_chain_roster(&l->c, &roster);
		fprs = (const char *const *)roster;
	}
	memset(&ev, 0, sizeof(ev));
	ev.kind = TEAM_EV_GENERATION;
	ev.generation = gen;
	ev.prev_generation = last ? last->gen : 0;
	if (last) {
		ev.chained = (unsigned char *)xstrdup("chained");
		ev.chainedlen = 7;
	}
	ev.wraps = xcalloc(n, sizeof(*ev.wraps));
	for (size_t i = 0; i < n; i++) {
		memcpy(ev.wraps[i].fpr, fprs[i], 41);
		ev.wraps[i].blob = (unsigned char *)xstrdup(blob);
		ev.wraps[i].len = strlen(blob);
	}
	ev.nwraps = n;
	append(l, &ev, o);
	for (size_t i = 0; roster && i < n; i++)
		free(roster[i]);
	free(roster);
}

static void log_release(struct log *l)
{
	for (size_t i = 0; i < l->n; i++)
		team_event_row_release(&l->rows[i]);
	free(l->rows);
	team_chain_release(&l->c);
}

/* A reader's verification of l's rows, pinned to pin (NULL: none). */
static void verify(const struct log *l, const char *pin, struct team_chain *out)
{
	team_chain_init(out);
	if (pin) {
		out->pin = xcalloc(1, sizeof(char *));
		out->pin[0] = xstrdup(pin);
		out->npin = 1;
	}
	team_chain_feed(out, l->rows, l->n, &CHK);
}

static bool noted(const struct team_chain *c, const char *what)
{
	for (size_t i = 0; i < c->nnotes; i++)
		if (strstr(c->notes[i], what))
			return true;
	return false;
}

static void test_chain_verifies(void **state)
{
	(void)state;
	struct log l;
	struct team_chain v;

	found(&l);
	add_officer(&l, &A, &B);
	generation(&l, &B, 1, NULL, 0, "wrapped");
	verify(&l, FA, &v);
	assert_null(v.broken);
	assert_int_equal(v.nnotes, 0);
	assert_int_equal(v.nmembers, 2);
	assert_non_null(team_chain_current(&v));
	assert_int_equal(team_chain_current(&v)->gen, 1);
	assert_true(team_chain_gen_current(&v, team_chain_current(&v)));
	assert_int_equal(v.seq, 4);
	team_chain_release(&v);

	/* Removal: the generation no longer fits the roster (the next
	 * write rotates), and a rotation by the one who stayed counts. */
	remove_officer(&l, &A, &B);
	assert_false(team_chain_gen_current(&l.c, team_chain_current(&l.c)));
	generation(&l, &A, 2, NULL, 0, "wrapped");
	verify(&l, FA, &v);
	assert_int_equal(team_chain_current(&v)->gen, 2);
	assert_true(team_chain_gen_current(&v, team_chain_current(&v)));
	team_chain_release(&v);

	/* Another root pinned: the founding is not believed, nor anything
	 * after it. */
	verify(&l, FB, &v);
	assert_false(v.started);
	assert_null(team_chain_current(&v));
	assert_true(noted(&v, "not the root this officer pinned"));
	team_chain_release(&v);
	log_release(&l);
}

static void test_chain_tampered_byte(void **state)
{
	(void)state;
	struct log l;
	struct team_chain v;

	found(&l);
	generation(&l, &A, 1, NULL, 0, "wrapped");
	/* One byte of the generation's wrapped copy changed. */
	l.rows[1].body[l.rows[1].len - 1] ^= 1;
	verify(&l, FA, &v);
	assert_null(team_chain_current(&v));
	assert_true(noted(
		&v, "team key generation 1: its signature is bad: not used"));
	team_chain_release(&v);
	/* The signature's own bytes. */
	l.rows[1].body[l.rows[1].len - 1] ^= 1;
	l.rows[1].sig[0] ^= 1;
	verify(&l, FA, &v);
	assert_null(team_chain_current(&v));
	team_chain_release(&v);
	l.rows[1].sig[0] ^= 1;
	verify(&l, FA, &v);
	assert_non_null(team_chain_current(&v));
	team_chain_release(&v);
	log_release(&l);
}

/* A reader that verified all of l before (its head remembered) feeds
 * rows now. */
static void verify_seen(const struct log *l, const struct team_event_row *rows,
			size_t n, struct team_chain *out)
{
	team_chain_init(out);
	out->seen_seq = l->c.seq;
	memcpy(out->seen_head, l->c.head, SIGN_HASH_BYTES);
	team_chain_feed(out, rows, n, &CHK);
	team_chain_check_seen(out);
}

static void test_chain_dropped_reordered(void **state)
{
	(void)state;
	struct log l, m;
	struct team_chain v;
	struct team_event_row t;

	found(&l);
	add_officer(&l, &A, &B);
	remove_officer(&l, &A, &B);
	generation(&l, &A, 1, NULL, 0, "wrapped");
	/* The removal moved after the generation: the generation, which
	 * names it, does not follow; it is named and skipped, never used. */
	t = l.rows[3];
	l.rows[3] = l.rows[4];
	l.rows[4] = t; /* (now rows 0-2, gen, removal) */
	verify(&l, FA, &v);
	assert_null(v.broken);
	assert_true(noted(&v, "does not follow the verified chain"));
	assert_null(team_chain_current(&v));
	team_chain_release(&v);
	/* A client that verified the chain before sees it stop. */
	verify_seen(&l, l.rows, l.n, &v);
	assert_non_null(v.broken);
	assert_non_null(strstr(v.broken, "dropped or reordered"));
	team_chain_release(&v);
	/* Reordered back, with the removal's row left out. */
	t = l.rows[3];
	l.rows[3] = l.rows[4];
	l.rows[4] = t;
	{
		struct team_event_row rows[4] = { l.rows[0], l.rows[1],
						  l.rows[2], l.rows[4] };
		verify(&l, FA, &v);
		assert_null(v.broken);
		team_chain_release(&v);
		team_chain_init(&v);
		team_chain_feed(&v, rows, 4, &CHK);
		assert_null(v.broken);
		assert_true(team_chain_on_roster(&v, FB));
		assert_null(team_chain_current(&v));
		team_chain_release(&v);
		verify_seen(&l, rows, 4, &v);
		assert_non_null(v.broken);
		assert_non_null(strstr(v.broken,
				       "no longer shows the chain's "
				       "event 5"));
		team_chain_release(&v);
	}
	/* Another event at a place this client verified: stopped there. */
	found(&m);
	add_officer(&m, &A, &B);
	generation(&m, &A, 1, NULL, 0, "wrapped");
	{
		struct team_chain w;

		team_chain_init(&w);
		team_chain_feed(&w, l.rows, 4, &CHK); /* up to the removal */
		verify_seen(&m, m.rows, m.n, &v);
		assert_null(v.broken);
		team_chain_release(&v);
		team_chain_init(&v);
		v.seen_seq = w.seq;
		memcpy(v.seen_head, w.head, SIGN_HASH_BYTES);
		team_chain_feed(&v, m.rows, m.n, &CHK);
		team_chain_check_seen(&v);
		assert_non_null(v.broken);
		assert_non_null(strstr(v.broken,
				       "is not the one this client "
				       "verified there"));
		team_chain_release(&v);
		/* Unless it is another team: another founding (signed by
		 * the pinned root), a database made again. */
		team_chain_init(&v);
		v.seen_seq = w.seq;
		memcpy(v.seen_head, w.head, SIGN_HASH_BYTES);
		memcpy(v.seen_first, w.first, SIGN_HASH_BYTES);
		m.rows[0].body[92] ^= 1; /* its time, the header's last byte */
		sign_key_sign(A.key, m.rows[0].body, m.rows[0].len,
			      m.rows[0].sig);
		team_chain_feed(&v, m.rows, 1, &CHK);
		team_chain_check_seen(&v);
		assert_true(v.started);
		assert_null(v.broken);
		team_chain_release(&v);
		/* The same founding, a shorter chain: refused. */
		m.rows[0].body[92] ^= 1;
		sign_key_sign(A.key, m.rows[0].body, m.rows[0].len,
			      m.rows[0].sig);
		team_chain_init(&v);
		v.seen_seq = w.seq;
		memcpy(v.seen_head, w.head, SIGN_HASH_BYTES);
		memcpy(v.seen_first, w.first, SIGN_HASH_BYTES);
		team_chain_feed(&v, m.rows, 1, &CHK);
		team_chain_check_seen(&v);
		assert_non_null(v.broken);
		team_chain_release(&v);
		team_chain_release(&w);
	}
	log_release(&m);
	log_release(&l);
}

/* An officer on the roster signs an event on a head of their own: it is
 * named with them and skipped, and the chain goes on without it. */
static void test_chain_hostile_officer(void **state)
{
	(void)state;
	struct log l;
	struct team_chain v;

	found(&l);
	add_officer(&l, &A, &B);
	forked = true;
	generation(&l, &B, 7, NULL, 0, "wrapped");
	generation(&l, &A, 1, NULL, 0, "wrapped");
	verify(&l, FA, &v);
	assert_null(v.broken);
	assert_non_null(team_chain_current(&v));
	assert_int_equal(team_chain_current(&v)->gen, 1);
	{
		char *want = xasprintf("team key generation 7: signed by %s, "
				       "it does not follow the verified chain",
				       B.fpr);
		assert_true(noted(&v, want));
		free(want);
	}
	team_chain_release(&v);
	log_release(&l);
}

static void test_chain_wrong_signer(void **state)
{
	(void)state;
	struct log l;
	struct team_chain v;
	struct team_event ev;
	unsigned char *body, sig[SIGN_SIG_BYTES];
	size_t len;
	struct err e = { 0, "" };

	found(&l);
	/* Carol, never on the roster, certifies a key and writes a
	 * generation wrapped to the roster: neither is used, and neither
	 * blocks alice's own generation after them. */
	memset(&ev, 0, sizeof(ev));
	ev.kind = TEAM_EV_SIGNING_KEY;
	memcpy(ev.signing_key, sign_key_public(C.key), 32);
	ev.cert = (unsigned char *)xstrdup("cert");
	ev.certlen = 4;
	append(&l, &ev, &C);
	generation(&l, &C, 5, NULL, 0, "wrapped");
	/* Alice's name on an event carol signed. */
	memset(&ev, 0, sizeof(ev));
	ev.kind = TEAM_EV_GENERATION;
	ev.generation = 6;
	ev.wraps = xcalloc(1, sizeof(*ev.wraps));
	memcpy(ev.wraps[0].fpr, FA, 41);
	ev.wraps[0].blob = (unsigned char *)xstrdup("x");
	ev.wraps[0].len = 1;
	ev.nwraps = 1;
	assert_int_equal(
		team_chain_sign(&l.c, &ev, FA, C.key, &body, &len, sig, &e), 0);
	team_event_release(&ev);
	l.rows = xrealloc(l.rows, (l.n + 1) * sizeof(*l.rows));
	l.rows[l.n] = (struct team_event_row){ (int64_t)l.n + 1, body, len,
					       xmemdup(sig, sizeof(sig)),
					       sizeof(sig) };
	team_chain_feed(&l.c, &l.rows[l.n], 1, &CHK);
	l.n++;
	generation(&l, &A, 2, NULL, 0, "wrapped");
	verify(&l, FA, &v);
	assert_null(v.broken);
	assert_true(noted(
		&v, "signed by " FC ", who is not on the roster: not used"));
	assert_true(noted(&v,
			  "team key generation 5: signed by " FC
			  ", who is not on the roster: not used"));
	assert_true(noted(&v, "team key generation 6: its signature is bad"));
	assert_int_equal(team_chain_current(&v)->gen, 2);
	team_chain_release(&v);
	log_release(&l);
}

static void test_chain_removed_signer(void **state)
{
	(void)state;
	struct log l;
	struct team_chain v;

	found(&l);
	add_officer(&l, &A, &B);
	generation(&l, &A, 1, NULL, 0, "wrapped");
	remove_officer(&l, &A, &B);
	/* Bob, removed, writes a generation for the roster as it is now
	 * (alice alone), and one more officer: not used. */
	generation(&l, &B, 2, NULL, 0, "wrapped");
	remove_officer(&l, &B, &A);
	verify(&l, FA, &v);
	assert_true(noted(&v,
			  "team key generation 2: signed by " FB
			  ", who is not on the roster: not used"));
	assert_true(noted(&v, "officer-removed): signed by " FB));
	assert_true(team_chain_on_roster(&v, FA));
	assert_int_equal(team_chain_current(&v)->gen, 1);
	assert_false(team_chain_gen_current(&v, team_chain_current(&v)));
	team_chain_release(&v);
	/* Alice's rotation takes generation 2's number or the next: both
	 * count; nothing bob wrote is in the way. */
	generation(&l, &A, 3, NULL, 0, "wrapped");
	verify(&l, FA, &v);
	assert_int_equal(team_chain_current(&v)->gen, 3);
	assert_true(team_chain_gen_current(&v, team_chain_current(&v)));
	team_chain_release(&v);
	log_release(&l);
}

static void test_chain_generation_rules(void **state)
{
	(void)state;
	struct log l;
	struct team_chain v;
	const char *ab[] = { FA, FB }, *ac[] = { FA, FC };

	found(&l);
	add_officer(&l, &A, &B);
	/* Wrapped to a roster that is not this one; to a stranger behind
	 * a roster key; a certification that is no good. */
	generation(&l, &A, 1, ac, 2, "wrapped");
	generation(&l, &A, 2, ab, 2, "stranger");
	generation(&l, &A, 3, ab, 2, "wrapped");
	generation(&l, &B, 3, ab, 2, "wrapped");
	verify(&l, FA, &v);
	assert_true(noted(
		&v,
		"team key generation 1: it is not wrapped to exactly the roster"));
	assert_true(noted(&v,
			  "team key generation 2: its copy for " FA
			  ": it is encrypted to a stranger"));
	assert_true(noted(&v, "team key generation 3: not newer"));
	assert_int_equal(team_chain_current(&v)->gen, 3);
	assert_null(v.broken);
	team_chain_release(&v);
	log_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_codec_round_trip),
		cmocka_unit_test(test_codec_refuses_non_canonical),
		cmocka_unit_test(test_chain_verifies),
		cmocka_unit_test(test_chain_tampered_byte),
		cmocka_unit_test(test_chain_dropped_reordered),
		cmocka_unit_test(test_chain_hostile_officer),
		cmocka_unit_test(test_chain_wrong_signer),
		cmocka_unit_test(test_chain_removed_signer),
		cmocka_unit_test(test_chain_generation_rules),
	};
	int r = cmocka_run_group_tests(tests, NULL, NULL);

	sign_key_free(A.key);
	sign_key_free(B.key);
	sign_key_free(C.key);
	return r;
}
