/*
 * The team chain's verification (see teamchain.h): one pass over the
 * server's rows, in its order, deriving the roster, the certified
 * signing keys and the team key generations that count.
 */
#include <stdlib.h>
#include <string.h>

#include "core/teamchain.h"
#include "store/store.h"

void team_chain_init(struct team_chain *c)
{
	memset(c, 0, sizeof(*c));
}

static void gen_release(struct team_gen *g)
{
	free(g->chained);
	for (size_t i = 0; i < g->nwraps; i++)
		free(g->wraps[i].blob);
	free(g->wraps);
}

void team_chain_release(struct team_chain *c)
{
	for (size_t i = 0; i < c->npin; i++)
		free(c->pin[i]);
	free(c->pin);
	for (size_t i = 0; i < c->nmembers; i++)
		free(c->members[i].role);
	free(c->members);
	free(c->keys);
	for (size_t i = 0; i < c->ngens; i++)
		gen_release(&c->gens[i]);
	free(c->gens);
	for (size_t i = 0; i < c->nnotes; i++)
		free(c->notes[i]);
	free(c->notes);
	free(c->broken);
	memset(c, 0, sizeof(*c));
}

bool team_chain_on_roster(const struct team_chain *c, const char *fpr)
{
	for (size_t i = 0; i < c->nmembers; i++)
		if (!str_cmp_ci(c->members[i].fpr, fpr))
			return true;
	return false;
}

const unsigned char *team_chain_key(const struct team_chain *c, const char *fpr)
{
	for (size_t i = c->nkeys; i-- > 0;)
		if (!strcmp(c->keys[i].fpr, fpr))
			return c->keys[i].pub;
	return NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t team_chain_roster(const struct team_chain *c, char ***out)
{
	char **v = xcalloc(c->nmembers + 1, sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; i < c->nmembers; i++) {
		bool dup = false;
		for (size_t j = 0; j < n && !dup; j++)
			dup = !strcmp(v[j], c->members[i].fpr);
		if (!dup)
			v[n++] = xstrdup(c->members[i].fpr);
	}
	qsort(v, n, sizeof(*v), cmp_str);
	*out = v;
	return n;
}

const struct team_gen *team_chain_current(const struct team_chain *c)
{
	return c->ngens ? &c->gens[c->ngens - 1] : NULL;
}

const struct team_gen *team_chain_gen(const struct team_chain *c, uint32_t gen)
{
	for (size_t i = 0; i < c->ngens; i++)
		if (c->gens[i].gen == gen)
			return &c->gens[i];
	return NULL;
}

/* Whether the wrapped copies' keys are exactly the roster's now. */
static bool wraps_fit(const struct team_chain *c, const struct team_wrap *w,
		      size_t nw)
{
	char **roster;
	size_t n = team_chain_roster(c, &roster);
	bool ok = n == nw;

	/* both ascending, distinct (the encoding's order) */
	for (size_t i = 0; ok && i < n; i++)
		ok = !strcmp(roster[i], w[i].fpr);
	for (size_t i = 0; i < n; i++)
		free(roster[i]);
	free(roster);
	return ok;
}

bool team_chain_gen_current(const struct team_chain *c,
			    const struct team_gen *g)
{
	return g && wraps_fit(c, g->wraps, g->nwraps);
}

static void note(struct team_chain *c, char *msg)
{
	c->notes = xrealloc(c->notes, (c->nnotes + 1) * sizeof(*c->notes));
	c->notes[c->nnotes++] = msg;
}

/* How an event is named in what the officer reads. */
static char *name_of(const struct team_event *ev, int64_t row)
{
	if (ev->kind == TEAM_EV_GENERATION)
		return xasprintf("team key generation %u", ev->generation);
	return xasprintf("team event %lld (%s)", (long long)row,
			 team_event_kind_name(ev->kind));
}

static void not_used(struct team_chain *c, const struct team_event *ev,
		     int64_t row, const char *fmt, const char *arg)
{
	char *nm = name_of(ev, row), *why = xasprintf(fmt, arg);

	note(c, xasprintf("%s: %s: not used", nm, why));
	free(nm);
	free(why);
}

static void set_members(struct team_chain *c, const struct team_event *ev)
{
	c->members = xcalloc(ev->nmembers, sizeof(*c->members));
	for (size_t i = 0; i < ev->nmembers; i++) {
		c->members[i].role = xstrdup(ev->members[i].role);
		memcpy(c->members[i].fpr, ev->members[i].fpr,
		       sizeof(c->members[i].fpr));
	}
	c->nmembers = ev->nmembers;
}

static void add_key(struct team_chain *c, const char *fpr,
		    const unsigned char *pub)
{
	c->keys = xrealloc(c->keys, (c->nkeys + 1) * sizeof(*c->keys));
	memcpy(c->keys[c->nkeys].fpr, fpr, TEAM_FPR_LEN + 1);
	memcpy(c->keys[c->nkeys].pub, pub, SIGN_PUB_BYTES);
	c->nkeys++;
}

/* Whether a founding's roster is the pinned root. */
static bool pinned(const struct team_chain *c, const struct team_event *ev)
{
	size_t distinct = 0;

	if (!c->npin)
		return true;
	for (size_t i = 0; i < ev->nmembers; i++) {
		bool on = false, seen = false;
		for (size_t j = 0; j < c->npin && !on; j++)
			on = !str_cmp_ci(c->pin[j], ev->members[i].fpr);
		if (!on)
			return false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(ev->members[j].fpr, ev->members[i].fpr);
		distinct += !seen;
	}
	return distinct == c->npin;
}

static ssize_t member_at(const struct team_chain *c, const char *role)
{
	for (size_t i = 0; i < c->nmembers; i++)
		if (!strcmp(c->members[i].role, role))
			return (ssize_t)i;
	return -1;
}

/* What an event that follows the chain sets; false (with a note) when it
 * sets nothing, which it then does not. */
static bool apply(struct team_chain *c, const struct team_event *ev,
		  int64_t row, const struct team_chain_check *chk)
{
	struct err e = { 0, "" };
	const struct team_gen *last = team_chain_current(c);

	switch (ev->kind) {
	case TEAM_EV_FOUNDING:
	case TEAM_EV_CHECKPOINT:
		set_members(c, ev);
		add_key(c, ev->author, ev->signing_key);
		c->started = true;
		c->checkpoint = ev->kind == TEAM_EV_CHECKPOINT;
		/* A team database from before the chain: what came before
		 * is on the checkpoint's author's word, and is said so. */
		if (c->checkpoint)
			note(c,
			     xasprintf("team event %lld (checkpoint), signed "
				       "by %s, starts the chain: the %llu "
				       "events recorded before it are taken "
				       "in on its author's word",
				       (long long)row, ev->author,
				       (unsigned long long)ev->events_before));
		return true;
	case TEAM_EV_OFFICER_ADDED:
		if (member_at(c, ev->role) >= 0) {
			not_used(c, ev, row, "%s is on the roster already",
				 ev->role);
			return false;
		}
		if (c->nmembers >= TEAM_LIST_MAX) {
			not_used(c, ev, row, "%s", "the roster is full");
			return false;
		}
		c->members = xrealloc(c->members,
				      (c->nmembers + 1) * sizeof(*c->members));
		c->members[c->nmembers].role = xstrdup(ev->role);
		memcpy(c->members[c->nmembers].fpr, ev->fpr, TEAM_FPR_LEN + 1);
		c->nmembers++;
		return true;
	case TEAM_EV_OFFICER_REMOVED: {
		ssize_t at = member_at(c, ev->role);
		if (at < 0) {
			not_used(c, ev, row, "%s is not on the roster",
				 ev->role);
			return false;
		}
		if (c->nmembers == 1) {
			not_used(c, ev, row, "%s is the last officer",
				 ev->role);
			return false;
		}
		free(c->members[at].role);
		memmove(c->members + at, c->members + at + 1,
			(c->nmembers - (size_t)at - 1) * sizeof(*c->members));
		c->nmembers--;
		return true;
	}
	case TEAM_EV_SIGNING_KEY:
		add_key(c, ev->author, ev->signing_key);
		return true;
	case TEAM_EV_GENERATION: {
		struct team_gen g;

		if (last && ev->generation <= last->gen) {
			not_used(c, ev, row, "%s",
				 "not newer than the generation before it");
			return false;
		}
		/* The first may take over a generation from before the
		 * chain (its key chained in), on its author's word. */
		if (last && ev->prev_generation != last->gen) {
			not_used(
				c, ev, row, "%s",
				"it does not take over the generation before it");
			return false;
		}
		if ((ev->prev_generation != 0) != (ev->chainedlen != 0) ||
		    (ev->prev_generation &&
		     ev->prev_generation >= ev->generation)) {
			not_used(
				c, ev, row, "%s",
				"its chained copy of the generation before it is missing or misplaced");
			return false;
		}
		if (!wraps_fit(c, ev->wraps, ev->nwraps)) {
			not_used(
				c, ev, row, "%s",
				"it is not wrapped to exactly the roster at that point");
			return false;
		}
		for (size_t i = 0; i < ev->nwraps; i++)
			if (chk && chk->wrapped &&
			    chk->wrapped(chk->data, ev->wraps[i].fpr,
					 ev->wraps[i].blob, ev->wraps[i].len,
					 &e) < 0) {
				char *why = xasprintf("its copy for %s: %s",
						      ev->wraps[i].fpr, e.msg);
				not_used(c, ev, row, "%s", why);
				free(why);
				return false;
			}
		memset(&g, 0, sizeof(g));
		g.gen = ev->generation;
		g.prev_gen = ev->prev_generation;
		g.chained = ev->chainedlen
			? xmemdup(ev->chained, ev->chainedlen)
			: NULL;
		g.chainedlen = ev->chainedlen;
		g.wraps = xcalloc(ev->nwraps, sizeof(*g.wraps));
		for (size_t i = 0; i < ev->nwraps; i++) {
			g.wraps[i] = ev->wraps[i];
			g.wraps[i].blob =
				xmemdup(ev->wraps[i].blob, ev->wraps[i].len);
		}
		g.nwraps = ev->nwraps;
		memcpy(g.author, ev->author, sizeof(g.author));
		c->gens = xrealloc(c->gens, (c->ngens + 1) * sizeof(*c->gens));
		c->gens[c->ngens++] = g;
		return true;
	}
	case TEAM_EV_NONE:
		break;
	}
	return false;
}

/* Whether the chain started with the founding the remembered head's did
 * (none remembered: taken as the same). */
static bool same_team(const struct team_chain *c)
{
	static const unsigned char none[SIGN_HASH_BYTES];

	return !memcmp(c->seen_first, none, SIGN_HASH_BYTES) ||
		!memcmp(c->seen_first, c->first, SIGN_HASH_BYTES);
}

static void feed_one(struct team_chain *c, const struct team_event_row *row,
		     const struct team_chain_check *chk)
{
	struct team_event ev;
	struct err e = { 0, "" };
	const unsigned char *pub;
	bool founding;

	if (team_event_decode(row->body, row->len, &ev, &e) < 0) {
		note(c,
		     xasprintf("team event %lld: %s: not used",
			       (long long)row->seq, e.msg));
		return;
	}
	founding = ev.kind == TEAM_EV_FOUNDING || ev.kind == TEAM_EV_CHECKPOINT;
	/* Who may sign at all first: what someone off the roster wrote is
	 * named as such, whatever its signature. */
	if (!founding && c->started && !team_chain_on_roster(c, ev.author)) {
		not_used(c, &ev, row->seq,
			 "signed by %s, who is not on the roster", ev.author);
		goto out;
	}
	pub = founding || ev.kind == TEAM_EV_SIGNING_KEY
		? ev.signing_key
		: team_chain_key(c, ev.author);
	if (!pub) {
		not_used(c, &ev, row->seq,
			 "signed by %s, whose signing key no officer certified",
			 ev.author);
		goto out;
	}
	if (row->siglen != SIGN_SIG_BYTES ||
	    !sign_verify(pub, row->body, row->len, row->sig)) {
		not_used(c, &ev, row->seq, "%s", "its signature is bad");
		goto out;
	}
	if (founding && c->started) {
		not_used(c, &ev, row->seq, "%s",
			 "the team was founded before it");
		goto out;
	}
	if (!founding && !c->started) {
		not_used(c, &ev, row->seq, "%s",
			 "it comes before the team's founding");
		goto out;
	}
	if (founding) {
		bool on = false;
		for (size_t i = 0; i < ev.nmembers && !on; i++)
			on = !strcmp(ev.members[i].fpr, ev.author);
		if (!on) {
			not_used(c, &ev, row->seq,
				 "signed by %s, who is not on its roster",
				 ev.author);
			goto out;
		}
		if (!pinned(c, &ev)) {
			not_used(
				c, &ev, row->seq, "%s",
				"its roster is not the root this officer pinned (team.root)");
			goto out;
		}
	} else if (!team_chain_on_roster(c, ev.author)) {
		not_used(c, &ev, row->seq,
			 "signed by %s, who is not on the roster", ev.author);
		goto out;
	}
	if (ev.cert && chk && chk->cert &&
	    chk->cert(chk->data, ev.author, ev.signing_key, ev.cert, ev.certlen,
		      &e) < 0) {
		not_used(c, &ev, row->seq, "%s", e.msg);
		goto out;
	}
	/* The first event at each place, in the server's order, that
	 * names the verified head wins; one that does not (an officer's
	 * written on a head of their own, or one whose event before was
	 * dropped or moved) is named and skipped, so that no officer can
	 * stop the chain for everyone.  A server dropping or reordering
	 * what this client verified is caught by the head it remembers
	 * (seen_seq); what it never saw, by these notes. */
	if (ev.seq != c->seq + 1 || memcmp(ev.prev, c->head, SIGN_HASH_BYTES)) {
		char *why = xasprintf(
			"signed by %s, it does not follow the verified chain "
			"(it claims place %llu after another event than the "
			"verified place %llu): written on another head, or the "
			"event before it was dropped or reordered",
			ev.author, (unsigned long long)ev.seq,
			(unsigned long long)c->seq);
		not_used(c, &ev, row->seq, "%s", why);
		free(why);
		goto out;
	}
	if (apply(c, &ev, row->seq, chk)) {
		sign_hash(row->body, row->len, c->head);
		c->seq++;
		if (c->seq == 1)
			memcpy(c->first, c->head, SIGN_HASH_BYTES);
		if (c->seq == c->seen_seq && same_team(c) &&
		    memcmp(c->head, c->seen_head, SIGN_HASH_BYTES))
			c->broken = xasprintf(
				"the team server dropped or reordered team "
				"events: the chain's event %llu is not the one "
				"this client verified there before",
				(unsigned long long)c->seq);
	}
out:
	team_event_release(&ev);
}

void team_chain_feed(struct team_chain *c, const struct team_event_row *rows,
		     size_t n, const struct team_chain_check *chk)
{
	for (size_t i = 0; i < n; i++) {
		if (rows[i].seq <= c->last_row)
			continue;
		c->last_row = rows[i].seq;
		if (!c->broken)
			feed_one(c, &rows[i], chk);
	}
}

void team_chain_check_seen(struct team_chain *c)
{
	/* Nothing verified at all is this keyring's to say (it cannot
	 * check the founding), not the server's. */
	if (c->broken || !c->started || !c->seen_seq || c->seq >= c->seen_seq ||
	    !same_team(c))
		return;
	c->broken = xasprintf(
		"the team server dropped or reordered team events: it no "
		"longer shows the chain's event %llu, which this client "
		"verified (what it shows now ends at event %llu)",
		(unsigned long long)c->seen_seq, (unsigned long long)c->seq);
}

int team_chain_sign(const struct team_chain *c, struct team_event *ev,
		    const char *fpr, const struct sign_key *key,
		    unsigned char **body, size_t *len,
		    unsigned char sig[SIGN_SIG_BYTES], struct err *err)
{
	int r;

	ev->seq = c->seq + 1;
	memcpy(ev->prev, c->head, SIGN_HASH_BYTES);
	snprintf(ev->author, sizeof(ev->author), "%s", fpr);
	for (char *p = ev->author; *p; p++)
		if (*p >= 'a' && *p <= 'f')
			*p = (char)(*p - 'a' + 'A');
	team_event_sort(ev);
	if ((r = team_event_encode(ev, body, len, err)) < 0)
		return r;
	sign_key_sign(key, *body, *len, sig);
	return 0;
}
