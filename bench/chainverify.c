/*
 * bench/chainverify.c: a new officer's first verification of the
 * reports' chains (core/reportchain.c), run by bench/reportchain.sh.
 *
 *   chainverify EVENTS REPORTS
 *
 * Makes a team chain founded by one officer (a signing key from a fixed
 * seed) and EVENTS signed import events spread over REPORTS reports,
 * then verifies every report's chain three ways, each timed in the same
 * run: on one thread with nothing verified before (the peer), on every
 * processor (util_parallel, over reports), and again with what the
 * first pass verified kept (the officer's cache: hashes only).  Prints
 * one line each: events, seconds, events per second, and the ratio to
 * the peer.  No figure passes or fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/reportchain.h"
#include "core/teamchain.h"
#include "store/store.h"

#define FA "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"

static struct team_chain team;
static struct report_event_row **rows; /* per report */
static size_t *nrows, nreports;

/* The cache of the third pass: every key the first pass learned. */
static unsigned char (*keys)[SIGN_HASH_BYTES];
static size_t nkeys;
static int learning;

static int cmp_key(const void *a, const void *b)
{
	return memcmp(a, b, SIGN_HASH_BYTES);
}

static bool known(void *data, const unsigned char key[SIGN_HASH_BYTES])
{
	(void)data;
	return nkeys && bsearch(key, keys, nkeys, SIGN_HASH_BYTES, cmp_key);
}

static void learned(void *data, const unsigned char key[SIGN_HASH_BYTES])
{
	(void)data;
	if (!learning)
		return;
	keys = xrealloc(keys, (nkeys + 1) * SIGN_HASH_BYTES);
	memcpy(keys[nkeys++], key, SIGN_HASH_BYTES);
}

static const struct report_chain_cache cache = { NULL, known, learned };
static const struct report_chain_cache *use;

static void verify(size_t from, size_t to, void *data)
{
	size_t *count = data;

	for (size_t i = from; i < to; i++) {
		struct report_chain c;

		report_chain_init(&c, (int64_t)i + 1);
		c.cache = use;
		report_chain_feed(&c, &team, rows[i], nrows[i]);
		if (c.broken || c.nnotes || c.n != nrows[i]) {
			fprintf(stderr, "report %zu: did not verify\n", i + 1);
			exit(1);
		}
		__atomic_add_fetch(count, c.n, __ATOMIC_RELAXED);
		report_chain_release(&c);
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double pass(const char *name, bool parallel, double peer)
{
	size_t count = 0;
	double t0 = now(), dt;

	if (parallel)
		util_parallel(nreports, 1, verify, &count);
	else
		verify(0, nreports, &count);
	dt = now() - t0;
	printf("%-34s %9zu events %8.2f s %10.0f events/s%s", name, count, dt,
	       (double)count / dt, peer > 0 ? "" : "\n");
	if (peer > 0)
		printf("  %.2fx the peer\n", dt / peer);
	return dt;
}

int main(int argc, char **argv)
{
	size_t nev = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;
	unsigned char seed[32];
	struct sign_key *k = NULL;
	struct err e = { 0, "" };
	struct team_event tev;
	struct team_event_row trow;
	double peer;

	nreports = argc > 2 ? strtoul(argv[2], NULL, 10) : nev / 10;
	if (!nev || !nreports) {
		fprintf(stderr, "usage: chainverify EVENTS REPORTS\n");
		return 2;
	}
	memset(seed, 1, sizeof(seed));
	if (sign_key_from_seed(seed, &k, &e) < 0) {
		fprintf(stderr, "%s\n", e.msg);
		return 1;
	}
	team_chain_init(&team);
	memset(&tev, 0, sizeof(tev));
	tev.kind = TEAM_EV_FOUNDING;
	tev.members = xcalloc(1, sizeof(*tev.members));
	tev.members[0].role = xstrdup("alice");
	memcpy(tev.members[0].fpr, FA, 41);
	tev.nmembers = 1;
	memcpy(tev.signing_key, sign_key_public(k), 32);
	tev.cert = (unsigned char *)xstrdup("cert");
	tev.certlen = 4;
	memset(&trow, 0, sizeof(trow));
	trow.seq = 1;
	trow.sig = xcalloc(1, SIGN_SIG_BYTES);
	trow.siglen = SIGN_SIG_BYTES;
	if (team_chain_sign(&team, &tev, FA, k, &trow.body, &trow.len, trow.sig,
			    &e) < 0) {
		fprintf(stderr, "%s\n", e.msg);
		return 1;
	}
	/* Founded by hand: the bench checks report chains, not the
	 * team's (core/teamchain.c has its own tests). */
	team.started = true;
	team.seq = 1;
	sign_hash(trow.body, trow.len, team.head);
	team.keys = xcalloc(1, sizeof(*team.keys));
	memcpy(team.keys[0].fpr, FA, 41);
	memcpy(team.keys[0].pub, sign_key_public(k), 32);
	team.nkeys = 1;

	rows = xcalloc(nreports, sizeof(*rows));
	nrows = xcalloc(nreports, sizeof(*nrows));
	for (size_t r = 0; r < nreports; r++) {
		struct report_chain c;
		size_t want = nev / nreports + (r < nev % nreports);

		report_chain_init(&c, (int64_t)r + 1);
		rows[r] = xcalloc(want + 1, sizeof(**rows));
		for (size_t i = 0; i < want; i++) {
			struct report_event ev;
			struct report_event_row *row = &rows[r][i];

			memset(&ev, 0, sizeof(ev));
			ev.kind = REPORT_EV_IMPORT;
			ev.generation = 1;
			ev.message = (uint64_t)(r * 1000000 + i + 1);
			memset(ev.values, (int)i, sizeof(ev.values));
			row->sig = xcalloc(1, SIGN_SIG_BYTES);
			row->siglen = SIGN_SIG_BYTES;
			ev.at = 1700000000;
			if (report_chain_sign(&c, &team, &ev, FA, k, &row->body,
					      &row->len, row->sig, &e) < 0) {
				fprintf(stderr, "%s\n", e.msg);
				return 1;
			}
			row->id = (int64_t)i + 1;
			row->report_id = (int64_t)r + 1;
			row->seq = (int64_t)ev.seq;
			c.seq = ev.seq;
			sign_hash(row->body, row->len, c.head);
			report_event_release(&ev);
		}
		nrows[r] = want;
		report_chain_release(&c);
	}
	use = NULL;
	peer = pass("first verification, one thread", false, 0);
	pass("first verification, every core", true, peer);
	use = &cache;
	learning = 1;
	verify(0, nreports, &(size_t){ 0 });
	learning = 0;
	qsort(keys, nkeys, SIGN_HASH_BYTES, cmp_key);
	pass("again, from the officer's cache", true, peer);
	return 0;
}
