/*
 * The session: the config, the store, the keyring and the roster, each
 * opened once (core/session.h).
 */
#include <pthread.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "core/session.h"
#include "crypto/crypto.h"
#include "crypto/teamkey.h"
#include "store/store.h"

/*
 * The team key of this session (crypto/teamkey.h): unwrapped
 * from the store's wrapped copies through gpg-agent on first use, or,
 * for a team that has none yet, made at its first sealed write (one
 * wrapped copy per roster key, in that write's transaction).  The store
 * seals and opens fields through it (store_set_sealer).
 */
struct session_seal {
	struct session *sess;
	struct team_key *key;     /* the latest generation: what seals */
	struct team_key **old;    /* older ones unwrapped to open values */
	size_t nold;
	char *failed;             /* why no key could be had (said once) */
	struct store_sealer z;
	/* open_cb runs on several threads at once (store_open_fields):
	 * finding a key, which may unwrap one, is one at a time */
	pthread_mutex_t lock;
};

static struct team_key *key_of_gen(struct session *sess, int gen, char **why);
static struct team_key *key_shared(struct session *sess, const void *sealed,
				   size_t n, char **why);

/*
 * Which wrapped copy opens here: each copy tried costs a gpg process
 * (one that fails on a copy for a colleague's key, then the next), so
 * the one that opened last time is tried first.  Its fingerprint (public,
 * as the server's is) is kept in the officer's cache; a missing, stale
 * or tampered hint only changes the order of the tries.
 */
static char *hint_path(struct session *sess)
{
	return cache_file("unwrap", store_where(sess->store), "fpr");
}

static char *hint_read(struct session *sess)
{
	char *path = hint_path(sess), buf[129];
	ssize_t n = -1;
	int fd;

	if (path && (fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	free(path);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	buf[strspn(buf, "0123456789ABCDEFabcdef")] = '\0';
	return buf[0] ? xstrdup(buf) : NULL;
}

static void hint_write(struct session *sess, const char *fpr)
{
	char *was = hint_read(sess), *path, *tmp;
	int fd;

	if ((was && !strcmp(was, fpr)) || !(path = hint_path(sess))) {
		free(was);
		return;
	}
	free(was);
	tmp = xasprintf("%s.%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd >= 0) {
		bool ok = write(fd, fpr, strlen(fpr)) == (ssize_t)strlen(fpr);
		if (close(fd) < 0 || !ok || rename(tmp, path) < 0)
			unlink(tmp);
	}
	free(tmp);
	free(path);
}

/* The copy the hint names first in w (the others keep their order). */
static void hint_first(struct session *sess, struct wrapped_key *w, size_t n)
{
	char *hint = n > 1 ? hint_read(sess) : NULL;

	for (size_t i = 1; hint && i < n; i++)
		if (!str_cmp_ci(w[i].fingerprint, hint)) {
			struct wrapped_key t = w[i];
			memmove(w + 1, w, i * sizeof(*w));
			w[0] = t;
			break;
		}
	free(hint);
}

/*
 * team.key-cache: how the unwrapped team key is kept in the kernel's
 * keyring (crypto's team_key_cache_*) for the officer's next commands,
 * which then take it from there instead of running gpg to ask gpg-agent,
 * under the name of the copy and of the keyring that opened it.
 *   auto (the default): for KEY_CACHE_AUTO seconds, and used only while
 *     the officer's gpg-agent says it would open the officer's key
 *     without asking anything (crypto_agent_key_use: a key on disk with
 *     no passphrase, or with its passphrase in the agent's cache), so
 *     that it never outlives what the agent itself would give: once the
 *     agent would ask (its cache expired or cleared, the agent gone), the
 *     kept key is dropped and the agent asked.  A key on a card (its PIN
 *     or touch asked at every use) is never kept.
 *   0: never kept.
 *   SECONDS (at most a day): kept that long, used without asking the
 *     agent (the officer's choice).
 */
#define KEY_CACHE_AUTO 600

static unsigned cache_seconds(struct session *sess, bool *ask_agent)
{
	const char *v = config_get(sess->cfg, "team.key-cache", "auto");
	long n;

	*ask_agent = !str_cmp_ci(v, "auto");
	if (*ask_agent)
		return KEY_CACHE_AUTO;
	/* (0 to 86400 or auto: config.c refuses any other value) */
	n = config_get_long(sess->cfg, "team.key-cache", 0);
	return n <= 0 ? 0 : n > 86400 ? 86400 : (unsigned)n;
}

/* The GnuPG home: --gnupghome, else config gnupg.home (NULL: crypto's
 * own default). */
static const char *gnupg_home(struct session *sess)
{
	return sess->gnupghome ? sess->gnupghome
			       : config_get(sess->cfg, "gnupg.home", NULL);
}

/* The keyring that opens the copies, as one path (the cache's names). */
static char *cache_home(struct session *sess)
{
	char *given = crypto_home(gnupg_home(sess)), *real;

	if (!given || !(real = realpath(given, NULL)))
		return given;
	free(given);
	return real;
}

/* A kept key's note (auto): the keygrip of the officer's subkey that
 * opened the copy, a space, the agent's socket. */
static bool agent_vouches(const char *note)
{
	const char *sp = note ? strchr(note, ' ') : NULL;
	char grip[41];

	if (!sp || sp - note != 40)
		return false;
	memcpy(grip, note, 40);
	grip[40] = '\0';
	return crypto_agent_key_use(sp + 1, grip) == CRYPTO_AGENT_SILENT;
}

/* The note to keep with a key just unwrapped through the subkey keyid
 * (auto), or NULL when it may not be kept: on a card, or the agent would
 * ask for it next time. */
static char *agent_note(struct crypto *c, const char *keyid)
{
	struct err e = { 0, "" };
	char grip[41], *sock, *note = NULL;
	bool card;

	if (!keyid || crypto_agent_key(c, keyid, grip, &card, &e) < 0 || card ||
	    !(sock = crypto_agent_socket(c, &e)))
		return NULL;
	if (crypto_agent_key_use(sock, grip) == CRYPTO_AGENT_SILENT)
		note = xasprintf("%s %s", grip, sock);
	free(sock);
	return note;
}

/* Tries w's copies (not the chain) in turn; the first that opens. */
static struct team_key *unwrap_any(struct session *sess, struct wrapped_key *w,
				   size_t n, struct err *e)
{
	struct team_key *k = NULL;
	struct crypto *c = NULL; /* opened (gpg run) only when needed */
	bool ask_agent = false;
	unsigned ttl = 0;
	char *home = NULL, name[TEAM_KEY_CACHE_NAME];

	/* No keyring here: nothing kept, nor the agent's note made for it. */
	if (team_key_cache_usable() && (ttl = cache_seconds(sess, &ask_agent)))
		home = cache_home(sess);
	hint_first(sess, w, n);
	for (size_t i = 0; ttl && i < n && !k; i++) {
		char *note = NULL;

		if (!strcmp(w[i].fingerprint, STORE_TEAM_KEY_CHAIN))
			continue;
		team_key_cache_name(home, w[i].wrapped, w[i].len, name);
		k = team_key_cache_get(name, &note);
		if (k &&
		    (team_key_generation(k) != (uint32_t)w[i].generation ||
		     (ask_agent && !agent_vouches(note)))) {
			team_key_free(k);
			k = NULL;
			team_key_cache_drop(name);
		}
		free(note);
	}
	for (size_t i = 0; i < n && !k; i++) {
		char *keyid = NULL, *note = NULL;

		if (!strcmp(w[i].fingerprint, STORE_TEAM_KEY_CHAIN))
			continue;
		if (!c && !(c = session_crypto(sess, e)))
			break;
		if (team_key_unwrap(c, w[i].wrapped, w[i].len, &k,
				    ask_agent ? &keyid : NULL, e) < 0 ||
		    !k)
			continue;
		if (n > 1)
			hint_write(sess, w[i].fingerprint);
		if (ttl && (!ask_agent || (note = agent_note(c, keyid)))) {
			team_key_cache_name(home, w[i].wrapped, w[i].len, name);
			team_key_cache_put(k, name, ttl, note);
		}
		free(keyid);
		free(note);
	}
	free(home);
	return k;
}

/* Generation gen's key, from its wrapped copies, or NULL with *why. */
static struct team_key *unwrap_gen(struct session *sess, int gen, char **why)
{
	struct err e = { 0, "" };
	struct wrapped_key *w = NULL;
	size_t n = 0;
	struct team_key *k = NULL;

	if (store_team_keys(sess->store, gen, &w, &n, &e) == 0)
		k = unwrap_any(sess, w, n, &e);
	/* Else through the next generation's key: its chained copy. */
	for (size_t i = 0; i < n && !k; i++) {
		struct team_key *next;
		char *nwhy = NULL;

		if (strcmp(w[i].fingerprint, STORE_TEAM_KEY_CHAIN))
			continue;
		if ((next = key_of_gen(sess, gen + 1, &nwhy)))
			team_key_unchain(next, (uint32_t)gen, w[i].wrapped,
					 w[i].len, &k, &e);
		else
			err_setc(&e, ERR_CRYPTO, "%s", nwhy);
		free(nwhy);
	}
	for (size_t i = 0; i < n; i++)
		wrapped_key_release(&w[i]);
	free(w);
	if (!k)
		*why = xasprintf("no wrapped copy of team key generation %d opens with "
				 "this keyring%s%s", gen, e.msg[0] ? ": " : "", e.msg);
	return k;
}

static struct team_key *team_key_of(struct session *sess, bool create,
				    char **why)
{
	struct session_seal *z = sess->seal;
	struct err e = { 0, "" };
	struct wrapped_key *w = NULL;
	size_t n = 0;
	struct crypto *c = NULL;

	if (z->key)
		return z->key;
	if (z->failed && !create) {
		*why = xstrdup(z->failed);
		return NULL;
	}
	if (store_team_keys(sess->store, 0, &w, &n, &e) < 0)
		goto fail;
	z->key = unwrap_any(sess, w, n, &e);
	if (!z->key && !sess->crypto && e.msg[0]) {
		/* The keyring itself: its error names it. */
		for (size_t i = 0; i < n; i++)
			wrapped_key_release(&w[i]);
		free(w);
		goto fail;
	}
	if (!z->key && n) {
		err_setc(&e, ERR_CRYPTO, "no wrapped copy of the team key on %s opens "
			 "with this keyring: an officer whose key has one runs "
			 "'secteam-tui roster reseal'", store_where(sess->store));
	} else if (!z->key && create) {
		/* The team's first sealed write: generation 1. */
		size_t nr;
		const char *const *roster = session_roster(sess, &nr, &e);

		/* Every wrapped copy in one transaction, in roster order: a
		 * colleague making it at the same moment waits on the first
		 * row and then fails (ERR_DUPLICATE), and unwraps ours; never
		 * two keys of one generation. */
		bool tx = !store_in_tx(sess->store);

		if (roster && (c = session_crypto(sess, &e)) &&
		    team_key_new(1, &z->key, &e) == 0 &&
		    (!tx || store_begin(sess->store, &e) == 0)) {
			for (size_t i = 0; i < nr && z->key; i++) {
				unsigned char *b = NULL;
				size_t bl;
				if (team_key_wrap(c, z->key, &roster[i], 1, &b, &bl, &e) < 0 ||
				    store_team_key_add(sess->store, 1, roster[i], b, bl,
						       util_now(), &e) < 0) {
					team_key_free(z->key);
					z->key = NULL;
				}
				free(b);
			}
			if (tx && z->key && store_commit(sess->store, &e) < 0) {
				team_key_free(z->key);
				z->key = NULL;
			} else if (tx && !z->key) {
				store_rollback(sess->store);
			}
		} else if (z->key) {
			team_key_free(z->key);
			z->key = NULL;
		}
	} else if (!z->key) {
		err_setc(&e, ERR_NOTFOUND, "%s has no team key yet", store_where(sess->store));
	}
	for (size_t i = 0; i < n; i++)
		wrapped_key_release(&w[i]);
	free(w);
	if (z->key)
		return z->key;
fail:
	free(z->failed);
	z->failed = xstrdup(e.msg[0] ? e.msg : "no team key");
	*why = xstrdup(z->failed);
	return NULL;
}

static struct team_key *key_for(struct session *sess, const void *sealed,
				size_t n, char **why);

static unsigned char *seal_cb(void *data, const char *table, const char *column,
			      int64_t row, const void *plain, size_t len, size_t *n,
			      char **why)
{
	struct session *sess = data;
	struct team_key *k = team_key_of(sess, true, why);
	unsigned char *out = NULL;

	if (k)
		team_key_seal(k, table, column, row, plain, len, &out, n);
	return out;
}

int session_team_key_ready(struct session *sess, struct err *err)
{
	char *why = NULL;

	if (!session_store(sess, err))
		return err->code;
	if (team_key_of(sess, true, &why))
		return 0;
	/* A colleague made it meanwhile: theirs opens. */
	free(sess->seal->failed);
	sess->seal->failed = NULL;
	free(why);
	why = NULL;
	if (team_key_of(sess, false, &why))
		return 0;
	err_setc(err, ERR_CRYPTO, "%s", why ? why : "no team key");
	free(why);
	return ERR_CRYPTO;
}

int session_team_key_open(struct session *sess, struct err *err)
{
	struct wrapped_key *w = NULL;
	size_t n = 0;
	char *why = NULL;

	if (!session_store(sess, err))
		return err->code;
	if (store_team_keys(sess->store, 0, &w, &n, err) < 0)
		return err->code;
	for (size_t i = 0; i < n; i++)
		wrapped_key_release(&w[i]);
	free(w);
	if (!n || team_key_of(sess, false, &why))
		return 0;
	err_setc(err, ERR_CRYPTO, "%s", why ? why : "no team key");
	free(why);
	return ERR_CRYPTO;
}

int session_open_sealed(struct session *sess, const char *table,
			const char *column, int64_t row, const void *sealed,
			size_t n, unsigned char **out, size_t *outlen,
			struct err *err)
{
	char *why = NULL;
	struct team_key *k;

	*out = NULL;
	*outlen = 0;
	if (!session_store(sess, err))
		return err->code;
	if (!(k = key_shared(sess, sealed, n, &why))) {
		err_setc(err, ERR_CRYPTO, "%s", why ? why : "no team key");
		free(why);
		return ERR_CRYPTO;
	}
	return team_key_open(k, table, column, row, sealed, n, out, outlen, err);
}

int session_seal(struct session *sess, const char *table, const char *column,
		 int64_t row, const void *plain, size_t len, unsigned char **out,
		 size_t *outlen, struct err *err)
{
	char *why = NULL;
	struct team_key *k;

	*out = NULL;
	*outlen = 0;
	if (!session_store(sess, err))
		return err->code;
	pthread_mutex_lock(&sess->seal->lock);
	k = team_key_of(sess, false, &why);
	pthread_mutex_unlock(&sess->seal->lock);
	if (!k) {
		err_setc(err, ERR_CRYPTO, "%s", why ? why : "no team key");
		free(why);
		return ERR_CRYPTO;
	}
	team_key_seal(k, table, column, row, plain, len, out, outlen);
	return 0;
}

bool session_is_team_sealed(const void *blob, size_t n)
{
	return team_key_sealed_generation(blob, n) != 0;
}

/* Generation gen's key (0: the latest), or NULL with *why. */
static struct team_key *key_of_gen(struct session *sess, int gen, char **why)
{
	struct session_seal *z = sess->seal;
	struct team_key *k = team_key_of(sess, false, why);

	if (!k || !gen || team_key_generation(k) == (uint32_t)gen)
		return k;
	if ((uint32_t)gen > team_key_generation(k)) {
		*why = xasprintf("team key generation %d is newer than this "
				 "session's %u",
				 gen, team_key_generation(k));
		return NULL;
	}
	for (size_t i = 0; i < z->nold; i++)
		if (team_key_generation(z->old[i]) == (uint32_t)gen)
			return z->old[i];
	if (!(k = unwrap_gen(sess, gen, why)))
		return NULL;
	z->old = xrealloc(z->old, (z->nold + 1) * sizeof(*z->old));
	z->old[z->nold++] = k;
	return k;
}

/* The key that opens sealed (its generation's), or NULL with *why. */
static struct team_key *key_for(struct session *sess, const void *sealed,
				size_t n, char **why)
{
	return key_of_gen(sess, (int)team_key_sealed_generation(sealed, n),
			  why);
}

/* key_for, from any thread (opening many values at once: the store's
 * store_parallel, the search's filters).  The latest generation's key,
 * once had, stays for the session (a rotation is no time to open): no
 * lock for it; finding another, which may unwrap one, is one at a time. */
static struct team_key *key_shared(struct session *sess, const void *sealed,
				   size_t n, char **why)
{
	struct team_key *k = sess->seal->key;

	if (!k || team_key_generation(k) != team_key_sealed_generation(sealed, n)) {
		pthread_mutex_lock(&sess->seal->lock);
		k = key_for(sess, sealed, n, why);
		pthread_mutex_unlock(&sess->seal->lock);
	}
	return k;
}

static bool stale_cb(void *data, const unsigned char *sealed, size_t n)
{
	struct session *sess = data;
	char *why = NULL;
	struct team_key *k = team_key_of(sess, false, &why);
	uint32_t gen = team_key_sealed_generation(sealed, n);

	free(why);
	return k && gen && gen != team_key_generation(k);
}

static char *open_cb(void *data, const char *table, const char *column,
		     int64_t row, const unsigned char *sealed, size_t n, char **why)
{
	struct session *sess = data;
	struct team_key *k = key_shared(sess, sealed, n, why);
	struct err e = { 0, "" };
	unsigned char *clear;
	size_t len;

	if (!k)
		return NULL;
	if (team_key_open(k, table, column, row, sealed, n, &clear, &len, &e) < 0) {
		*why = xstrdup(e.msg);
		return NULL;
	}
	return (char *)clear;
}

/* Keyed lookups use the first generation's hash key, which every later
 * generation reaches through the chain: a value keyed before a roster
 * change is found by the same value after it. */
static char *mac_cb(void *data, const char *purpose, const char *value,
		    char **why)
{
	struct session *sess = data;
	struct team_key *k;
	unsigned char mac[TEAM_MAC_BYTES];
	char *hex;

	if (!team_key_of(sess, true, why) || !(k = key_of_gen(sess, 1, why)))
		return NULL;
	team_key_mac(k, purpose, value, strlen(value), mac);
	hex = xmalloc(2 * TEAM_MAC_BYTES + 1);
	for (size_t i = 0; i < TEAM_MAC_BYTES; i++)
		snprintf(hex + 2 * i, 3, "%02x", mac[i]);
	return hex;
}

/* Before a write transaction: the key, when the team has one, so that
 * its unwrap is not done under the write lock (store_sealer.ready). */
static void ready_cb(void *data)
{
	struct session *sess = data;
	char *why = NULL;

	if (!sess->seal->key && !sess->seal->failed &&
	    !team_key_of(sess, false, &why) && sess->seal->failed &&
	    strstr(sess->seal->failed, "no team key yet")) {
		/* None yet: the transaction may make it, or find a
		 * colleague's made meanwhile; not a failure to keep. */
		free(sess->seal->failed);
		sess->seal->failed = NULL;
	}
	free(why);
}

static void seal_install(struct session *sess)
{
	if (!sess->seal) {
		sess->seal = xcalloc(1, sizeof(*sess->seal));
		sess->seal->sess = sess;
		pthread_mutex_init(&sess->seal->lock, NULL);
		sess->seal->z.data = sess;
		sess->seal->z.seal = seal_cb;
		sess->seal->z.open = open_cb;
		sess->seal->z.stale = stale_cb;
		sess->seal->z.mac = mac_cb;
		sess->seal->z.ready = ready_cb;
	}
	store_set_sealer(sess->store, &sess->seal->z);
}

int session_team_key_rotate(struct session *sess, bool *rotated,
			    struct err *err)
{
	struct session_seal *z;
	struct wrapped_key *w = NULL;
	size_t n = 0, nr;
	const char *const *roster;
	struct crypto *c;
	struct team_key *k, *next = NULL;
	char *why = NULL;
	bool gone = false;
	int r;

	*rotated = false;
	if (!session_store(sess, err) || !(c = session_crypto(sess, err)) ||
	    !(roster = session_roster(sess, &nr, err)))
		return err->code ? err->code : ERR_IO;
	z = sess->seal;
	if (!(k = team_key_of(sess, false, &why))) {
		bool none = z->failed && strstr(z->failed, "no team key yet");
		r = none ? 0 : err_setc(err, ERR_CRYPTO, "%s", why);
		free(why);
		return r;
	}
	if ((r = store_team_keys(sess->store, 0, &w, &n, err)) < 0)
		return r;
	/* A copy for a key no longer on the roster: its holder must open
	 * nothing sealed from now on. */
	for (size_t j = 0; j < n; j++) {
		bool on = false;
		for (size_t i = 0; i < nr; i++)
			on |= !str_cmp_ci(w[j].fingerprint, roster[i]);
		gone |= !on;
	}
	for (size_t j = 0; j < n; j++)
		wrapped_key_release(&w[j]);
	free(w);
	if (!gone)
		return 0;
	if ((r = team_key_new(team_key_generation(k) + 1, &next, err)) < 0)
		return r;
	if ((r = store_begin(sess->store, err)) < 0) {
		team_key_free(next);
		return r;
	}
	/* The key being replaced, sealed under the next: append-only values
	 * (events) stay under the generation they were written in. */
	if (r == 0) {
		unsigned char *b;
		size_t bl;

		team_key_chain(next, k, &b, &bl);
		r = store_team_key_add(sess->store, (int)team_key_generation(k),
				       STORE_TEAM_KEY_CHAIN, b, bl, util_now(),
				       err);
		free(b);
	}
	for (size_t i = 0; i < nr && r == 0; i++) {
		unsigned char *b;
		size_t bl;
		if ((r = team_key_wrap(c, next, &roster[i], 1, &b, &bl, err)) == 0) {
			r = store_team_key_add(sess->store, (int)team_key_generation(next),
					       roster[i], b, bl, util_now(), err);
			free(b);
		}
	}
	if (r == 0)
		r = store_commit(sess->store, err);
	else
		store_rollback(sess->store);
	if (r < 0) {
		team_key_free(next);
		return r;
	}
	z->old = xrealloc(z->old, (z->nold + 1) * sizeof(*z->old));
	z->old[z->nold++] = z->key;
	z->key = next;
	*rotated = true;
	return 0;
}

int session_team_key_share(struct session *sess, size_t *added,
			   struct err *err)
{
	struct wrapped_key *w = NULL;
	size_t n = 0, nr;
	const char *const *roster;
	struct crypto *c;
	char *why = NULL;
	struct team_key *k;
	int r = 0;

	*added = 0;
	if (!session_store(sess, err) || !(c = session_crypto(sess, err)) ||
	    !(roster = session_roster(sess, &nr, err)))
		return err->code ? err->code : ERR_IO;
	if (!(k = team_key_of(sess, false, &why))) {
		/* No team key yet: nothing is sealed, nothing to share. */
		int none = sess->seal->failed && strstr(sess->seal->failed, "no team key yet");
		r = none ? 0 : err_setc(err, ERR_CRYPTO, "%s", why);
		free(why);
		return r;
	}
	if ((r = store_team_keys(sess->store, 0, &w, &n, err)) < 0)
		return r;
	for (size_t i = 0; i < nr && r == 0; i++) {
		bool has = false;
		unsigned char *b;
		size_t bl;

		for (size_t j = 0; j < n; j++)
			has |= !str_cmp_ci(w[j].fingerprint, roster[i]);
		if (has)
			continue;
		if ((r = team_key_wrap(c, k, &roster[i], 1, &b, &bl, err)) == 0) {
			r = store_team_key_add(sess->store, (int)team_key_generation(k),
					       roster[i], b, bl, util_now(), err);
			free(b);
			*added += r == 0;
		}
	}
	for (size_t j = 0; j < n; j++)
		wrapped_key_release(&w[j]);
	free(w);
	return r;
}

int session_open(struct session *sess, struct err *err)
{
	char *path = sess->config_path ? NULL : config_default_path();
	const char *who;
	int r;

	sess->cfg = xcalloc(1, sizeof(*sess->cfg));
	r = config_load(sess->cfg, sess->config_path ? sess->config_path : path,
			sess->config_path != NULL, err);
	free(path);
	if (r < 0)
		return r;
	/* Only a display name (mail From, the UI): who an action is
	 * recorded as is the store's to say (session_store). */
	who = config_get(sess->cfg, "officer.name", NULL);
	if (!who) {
		struct passwd *pw = getpwuid(geteuid());
		who = pw ? pw->pw_name : "officer";
	}
	sess->officer_name = xstrdup(who);
	return 0;
}

const char *session_where(const struct session *sess)
{
	return sess->store ? store_where(sess->store) : NULL;
}

void session_close(struct session *sess)
{
	if (!sess)
		return;
	store_verdict_cache_close(sess->verdicts);
	sess->verdicts = NULL;
	sess->verdicts_tried = false;
	store_close(sess->store);
	crypto_close(sess->crypto);
	if (sess->seal) {
		team_key_free(sess->seal->key);
		for (size_t i = 0; i < sess->seal->nold; i++)
			team_key_free(sess->seal->old[i]);
		free(sess->seal->old);
		free(sess->seal->failed);
		pthread_mutex_destroy(&sess->seal->lock);
		free(sess->seal);
		sess->seal = NULL;
	}
	if (sess->cfg) {
		config_release(sess->cfg);
		free(sess->cfg);
	}
	for (size_t i = 0; i < sess->nroster; i++)
		free(sess->roster[i]);
	free(sess->roster);
	sess->nroster = 0;
	free(sess->officer);
	free(sess->officer_name);
	sess->officer_name = NULL;
	sess->store = NULL;
	sess->crypto = NULL;
	sess->cfg = NULL;
	sess->officer = NULL;
	sess->roster = NULL;
}

struct store *session_store(struct session *sess, struct err *err)
{
	struct store_opts o = { 0 };
	char *def = NULL;
	const char *path = sess->db_path;

	if (sess->store)
		return sess->store;
	if (!path)
		path = config_get(sess->cfg, "store.url", NULL);
	if (!path)
		path = config_get(sess->cfg, "store.path", NULL);
	def = store_default_path();
	if (!path)
		path = def;
	o.shared_group = config_get(sess->cfg, "store.shared_group", NULL);
	/* 1 to 3600 when set: config_parse checks the range. */
	o.busy_timeout_ms = (int)config_get_long(sess->cfg, "store.busy_timeout", 0) * 1000;
	o.create = sess->store_create;
	/* Only the default location's folder is made: a mistyped --db
	 * or store.path is refused, not created. */
	o.make_folder = !strcmp(path, def);
	if (store_open(path, &o, &sess->store, err) == 0) {
		/* The login role on a team server, the Unix user on SQLite:
		 * never a name from the environment or the config. */
		free(sess->officer);
		sess->officer = store_whoami(sess->store);
		if (!sess->officer) {
			err_setc(err, ERR_IO, "cannot tell who is logged in to %s",
				 store_where(sess->store));
			store_close(sess->store);
			sess->store = NULL;
		} else {
			seal_install(sess);
		}
	}
	free(def);
	return sess->store;
}

struct crypto *session_crypto(struct session *sess, struct err *err)
{
	if (sess->crypto)
		return sess->crypto;
	crypto_open(gnupg_home(sess), &sess->crypto, err);
	return sess->crypto;
}

const char *const *session_roster(struct session *sess, size_t *n,
				  struct err *err)
{
	const char *v;

	if (!sess->roster) {
		struct store *s = session_store(sess, err);

		if (!s)
			return NULL;
		if (store_has_team(s)) {
			/* A team server: the active officers' keys. */
			struct officer *o;
			size_t no;

			if (store_officers_list(s, false, &o, &no, err) < 0)
				return NULL;
			for (size_t i = 0; i < no; i++) {
				bool dup = false;

				for (size_t j = 0; j < sess->nroster && o[i].key_fpr; j++)
					dup |= !str_cmp_ci(sess->roster[j], o[i].key_fpr);
				if (o[i].key_fpr && *o[i].key_fpr && !dup) {
					sess->roster = xrealloc(sess->roster,
							       (sess->nroster + 1) * sizeof(char *));
					sess->roster[sess->nroster++] = xstrdup(o[i].key_fpr);
				}
				officer_release(&o[i]);
			}
			free(o);
			if (!sess->nroster) {
				err_setc(err, ERR_NOTFOUND,
					 "%s has no officer with a key: the team's administrator runs 'secteam-tui team add-officer ROLE --key FPR'",
					 store_where(s));
				return NULL;
			}
			*n = sess->nroster;
			return (const char *const *)sess->roster;
		}
		v = config_get(sess->cfg, "team.roster", NULL);
		if (v) {
			char *copy = xstrdup(v), *save = NULL;
			for (char *t = strtok_r(copy, " ,\t", &save); t;
			     t = strtok_r(NULL, " ,\t", &save)) {
				sess->roster = xrealloc(sess->roster,
						       (sess->nroster + 1) * sizeof(char *));
				sess->roster[sess->nroster++] = xstrdup(t);
			}
			free(copy);
		}
		if (!sess->nroster) {
			struct crypto *c = session_crypto(sess, err);
			char *fpr;
			if (!c)
				return NULL;
			if (crypto_default_secret_key(c, &fpr, err) < 0) {
				err_prefix(err,
					   "no team.roster in the config and no secret key to seal reports to");
				return NULL;
			}
			sess->roster = xcalloc(1, sizeof(char *));
			sess->roster[sess->nroster++] = fpr;
		}
	}
	*n = sess->nroster;
	return (const char *const *)sess->roster;
}
