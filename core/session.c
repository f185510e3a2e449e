/*
 * The session: the config, the store, the keyring and the roster, each
 * opened once (core/session.h).
 */
#include <ctype.h>
#include <pthread.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "core/reportchain.h"
#include "core/search.h"
#include "core/session.h"
#include "core/teamchain.h"
#include "crypto/crypto.h"
#include "core/reportlog.h"
#include "crypto/signkey.h"
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
	struct team_key *key; /* the latest generation: what seals */
	struct team_key **old; /* older ones unwrapped to open values */
	size_t nold;
	char *failed; /* why no key could be had (said once) */
	struct store_sealer z;
	/* open_cb runs on several threads at once (store_open_fields):
	 * finding a key, which may unwrap one, is one at a time */
	pthread_mutex_t lock;
	/* On a team server, the team chain as this client verified it
	 * (core/teamchain.h): which generation seals, and who may sign. */
	bool chain_read; /* read at least once */
	bool chain_moved; /* new events since z->key was chosen */
	struct team_chain chain;
	char *me; /* the roster key this keyring signs as */
	char **checked; /* checks passed before (checked_has) */
	size_t nchecked;
	bool checked_loaded;
	struct sign_key *sk; /* its signing key, once needed */
	struct store_event_hook hook; /* signs each change (reportlog.h) */
};

static struct team_key *key_of_gen(struct session *sess, int gen, char **why);
static struct team_key *legacy_key_of(struct session *sess, bool create,
				      char **why);
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
		*why = xasprintf(
			"no wrapped copy of team key generation %d opens with "
			"this keyring%s%s",
			gen, e.msg[0] ? ": " : "", e.msg);
	return k;
}

static struct team_key *chain_key_of(struct session *sess, bool create,
				     char **why);

static struct team_key *team_key_of(struct session *sess, bool create,
				    char **why)
{
	if (store_has_team(sess->store))
		return chain_key_of(sess, create, why);
	return legacy_key_of(sess, create, why);
}

/* The team key of a store without a team chain (SQLite: one officer's
 * file, the roster in their config), or a team server's from before the
 * chain (the generation its checkpoint takes over). */
static struct team_key *legacy_key_of(struct session *sess, bool create,
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
		err_setc(&e, ERR_CRYPTO,
			 "no wrapped copy of the team key on %s opens "
			 "with this keyring: an officer whose key has one runs "
			 "'secteam-tui roster reseal'",
			 store_where(sess->store));
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
				if (team_key_wrap(c, z->key, &roster[i], 1, &b,
						  &bl, &e) < 0 ||
				    store_team_key_add(sess->store, 1,
						       roster[i], b, bl,
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
		err_setc(
			&e, ERR_NOTFOUND,
			"%s has no team key yet (a new record starts with 'secteam-tui team init --key FPR')",
			store_where(sess->store));
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

/* --- the team chain (a team server) ---------------------------------- */

/*
 * The checks that run gpg (a certification, a wrapped copy's
 * recipients) are made once per keyring: what passed is kept in the
 * officer's cache as the hash of what was checked and by which keyring,
 * so a command verifies the whole chain with libsodium alone.  A
 * missing, stale or tampered file only costs the checks again (a
 * hash only says "this exact input passed here before").
 */
static char *checked_path(struct session *sess)
{
	char *home = cache_home(sess), *where, *p;

	where = xasprintf("%s\n%s", store_where(sess->store), home ? home : "");
	p = cache_file("team-checked", where, "b2");
	free(where);
	free(home);
	return p;
}

static void checked_load(struct session *sess)
{
	struct session_seal *z = sess->seal;
	char *path, line[2 * SIGN_HASH_BYTES + 2];
	FILE *f;

	if (z->checked_loaded)
		return;
	z->checked_loaded = true;
	if (!(path = checked_path(sess)))
		return;
	if ((f = fopen(path, "re"))) {
		while (fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = '\0';
			if (strlen(line) != 2 * SIGN_HASH_BYTES)
				continue;
			z->checked = xrealloc(z->checked,
					      (z->nchecked + 1) *
						      sizeof(*z->checked));
			z->checked[z->nchecked++] = xstrdup(line);
		}
		fclose(f);
	}
	free(path);
}

/* The hex hash of what a check looks at, by this keyring. */
static char *checked_key(const char *what, const char *fpr, const void *a,
			 size_t alen, const void *b, size_t blen)
{
	struct sbuf sb = SBUF_INIT;
	unsigned char h[SIGN_HASH_BYTES];
	char *hex = xmalloc(2 * SIGN_HASH_BYTES + 1);

	sbuf_add(&sb, what, strlen(what) + 1);
	sbuf_add(&sb, fpr, strlen(fpr) + 1);
	sbuf_add(&sb, a, alen);
	sbuf_add(&sb, b, blen);
	sign_hash(sb.buf, sb.len, h);
	sbuf_release(&sb);
	for (size_t i = 0; i < SIGN_HASH_BYTES; i++)
		snprintf(hex + 2 * i, 3, "%02x", h[i]);
	return hex;
}

static bool checked_has(struct session *sess, const char *key)
{
	struct session_seal *z = sess->seal;

	checked_load(sess);
	for (size_t i = 0; i < z->nchecked; i++)
		if (!strcmp(z->checked[i], key))
			return true;
	return false;
}

static void checked_add(struct session *sess, char *key)
{
	struct session_seal *z = sess->seal;
	char *path = checked_path(sess);
	int fd;

	if (path &&
	    (fd = open(path,
		       O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC,
		       0600)) >= 0) {
		char *line = xasprintf("%s\n", key);
		/* only a cache: a failed write costs the check again */
		bool ok = write(fd, line, strlen(line)) ==
			(ssize_t)strlen(line);
		(void)ok;
		close(fd);
		free(line);
	}
	free(path);
	z->checked =
		xrealloc(z->checked, (z->nchecked + 1) * sizeof(*z->checked));
	z->checked[z->nchecked++] = key;
}

static int cert_cb(void *data, const char *fpr, const unsigned char *pub,
		   const void *cert, size_t len, struct err *err)
{
	struct session *sess = data;
	char *key = checked_key("cert", fpr, pub, SIGN_PUB_BYTES, cert, len);
	struct crypto *c;
	int r;

	if (checked_has(sess, key)) {
		free(key);
		return 0;
	}
	c = session_crypto(sess, err);
	r = c ? sign_cert_check(c, fpr, pub, cert, len, err) : ERR_CRYPTO;
	if (r == 0)
		checked_add(sess, key);
	else
		free(key);
	return r;
}

static int wrapped_cb(void *data, const char *fpr, const void *blob, size_t len,
		      struct err *err)
{
	struct session *sess = data;
	char *key = checked_key("wrapped", fpr, blob, len, "", 0);
	struct crypto *c;
	int r;

	if (checked_has(sess, key)) {
		free(key);
		return 0;
	}
	c = session_crypto(sess, err);
	r = c ? crypto_wrapped_to(c, blob, len, fpr, err) : ERR_CRYPTO;
	if (r == 0)
		checked_add(sess, key);
	else
		free(key);
	/* A colleague's key this keyring lacks: the copy cannot be told
	 * from a stranger's here; officers who hold the key check it. */
	return r == ERR_NOTFOUND ? 0 : r;
}

/* Where the root first seen is kept when the config pins none. */
static char *root_path(struct session *sess)
{
	return cache_file("team-root", store_where(sess->store), "fpr");
}

static void pin_add(struct team_chain *c, const char *list)
{
	char *copy = xstrdup(list), *save = NULL;

	for (char *t = strtok_r(copy, " ,\t\n", &save); t;
	     t = strtok_r(NULL, " ,\t\n", &save)) {
		c->pin = xrealloc(c->pin, (c->npin + 1) * sizeof(*c->pin));
		c->pin[c->npin++] = xstrdup(t);
	}
	free(copy);
}

/* The root: team.root in the config, else the one this officer's client
 * saw first (as SSH's known_hosts keeps a host's key). */
static void pin_load(struct session *sess)
{
	struct team_chain *c = &sess->seal->chain;
	const char *v = config_get(sess->cfg, "team.root", NULL);
	char *path, buf[64 * 41 + 64];
	ssize_t n = -1;
	int fd;

	if (v) {
		pin_add(c, v);
		return;
	}
	if (!(path = root_path(sess)))
		return;
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	free(path);
	if (n > 0) {
		buf[n] = '\0';
		pin_add(c, buf);
	}
}

/* The founding roster just verified, kept as the root from now on. */
static void pin_save(struct session *sess)
{
	struct team_chain *c = &sess->seal->chain;
	char **roster, *path, *tmp;
	size_t n;
	struct sbuf sb = SBUF_INIT;
	int fd;

	if (c->npin || !c->started || !(path = root_path(sess)))
		return;
	/* The founding's roster: the chain's members before any change
	 * is what pinned() compared, so take it from the root event's
	 * verification, which is the members at the start. */
	n = team_chain_roster(c, &roster);
	for (size_t i = 0; i < n; i++) {
		sbuf_addf(&sb, "%s\n", roster[i]);
		free(roster[i]);
	}
	free(roster);
	tmp = xasprintf("%s.%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd >= 0) {
		bool ok = write(fd, sb.buf, sb.len) == (ssize_t)sb.len;
		if (close(fd) < 0 || !ok || rename(tmp, path) < 0)
			unlink(tmp);
	}
	free(tmp);
	free(path);
	sbuf_release(&sb);
}

/*
 * The newest head of the chain this client verified (its place and hash,
 * "SEQ HEX"), kept in the officer's cache as the root is: a server that
 * later shows a shorter chain, or another event at a place already
 * verified, dropped or reordered team events (team_chain_check_seen).
 * A missing file remembers nothing; one that is not this user's own
 * regular file is not read (O_NOFOLLOW) and the next save replaces it.
 */
static char *head_path(struct session *sess)
{
	/* One a keyring: another keyring is another verifier (one that
	 * cannot check a certification sees less of the chain). */
	char *home = cache_home(sess),
	     *where = xasprintf("%s\n%s", store_where(sess->store),
				home ? home : "");
	char *path = cache_file("team-head", where, "head");

	free(home);
	free(where);
	return path;
}

/* " HEX" (a hash) at p into out; false when p is not one. */
static bool hex_field(const char *p, unsigned char out[SIGN_HASH_BYTES])
{
	if (*p != ' ' ||
	    strspn(p + 1, "0123456789abcdef") < 2 * SIGN_HASH_BYTES)
		return false;
	for (size_t i = 0; i < SIGN_HASH_BYTES; i++) {
		unsigned v;
		sscanf(p + 1 + 2 * i, "%2x", &v);
		out[i] = (unsigned char)v;
	}
	return true;
}

static void head_load(struct session *sess)
{
	struct team_chain *c = &sess->seal->chain;
	char *path = head_path(sess), buf[256], *end;
	unsigned long long seq;
	ssize_t n = -1;
	int fd;

	if (path && (fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	free(path);
	if (n <= 0)
		return;
	buf[n] = '\0';
	seq = strtoull(buf, &end, 10);
	if (end == buf || !hex_field(end, c->seen_head))
		return;
	/* then the founding's hash (a file from before it: none) */
	if (!hex_field(end + 1 + 2 * SIGN_HASH_BYTES, c->seen_first))
		memset(c->seen_first, 0, SIGN_HASH_BYTES);
	c->seen_seq = seq;
}

/* The verified head, when newer than the one remembered.  Only outside a
 * transaction: an event read inside one may be this client's own, not
 * yet committed. */
static void head_save(struct session *sess)
{
	struct team_chain *c = &sess->seal->chain;
	char *path, *tmp, line[32 + 4 * SIGN_HASH_BYTES + 3];
	int fd, len;
	bool moved = c->seq > c->seen_seq ||
		memcmp(c->first, c->seen_first, SIGN_HASH_BYTES);

	if (c->broken || !c->started || !moved || store_in_tx(sess->store) ||
	    !(path = head_path(sess)))
		return;
	len = snprintf(line, sizeof(line), "%llu ", (unsigned long long)c->seq);
	for (size_t i = 0; i < SIGN_HASH_BYTES; i++)
		len += snprintf(line + len, sizeof(line) - (size_t)len, "%02x",
				c->head[i]);
	line[len++] = ' ';
	for (size_t i = 0; i < SIGN_HASH_BYTES; i++)
		len += snprintf(line + len, sizeof(line) - (size_t)len, "%02x",
				c->first[i]);
	line[len++] = '\n';
	tmp = xasprintf("%s.%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd >= 0) {
		bool ok = write(fd, line, (size_t)len) == (ssize_t)len;
		if (close(fd) < 0 || !ok || rename(tmp, path) < 0)
			unlink(tmp);
		else {
			c->seen_seq = c->seq;
			memcpy(c->seen_head, c->head, SIGN_HASH_BYTES);
			memcpy(c->seen_first, c->first, SIGN_HASH_BYTES);
		}
	}
	free(tmp);
	free(path);
}

/* Reads and verifies the team events this client has not seen yet. */
static int chain_refresh(struct session *sess, struct err *err)
{
	struct session_seal *z = sess->seal;
	struct team_event_row *rows = NULL;
	struct team_chain_check chk = { sess, cert_cb, wrapped_cb };
	size_t n = 0;
	bool was_started = z->chain.started;
	int r;

	if (!z->chain_read) {
		pin_load(sess);
		head_load(sess);
	}
	if ((r = store_team_events(sess->store, z->chain.last_row, &rows, &n,
				   err)) < 0)
		return r;
	z->chain_read = true;
	if (n) {
		/* Only the founding's roster may become the root: the
		 * events after it change the members. */
		size_t i = 0;

		for (; !was_started && i < n && !z->chain.started; i++)
			team_chain_feed(&z->chain, rows + i, 1, &chk);
		if (!was_started && z->chain.started)
			pin_save(sess);
		team_chain_feed(&z->chain, rows + i, n - i, &chk);
		z->chain_moved = true;
	}
	for (size_t i = 0; i < n; i++)
		team_event_row_release(&rows[i]);
	free(rows);
	team_chain_check_seen(&z->chain);
	head_save(sess);
	return 0;
}

/* The roster key this keyring signs as: the login's own, else any whose
 * secret key this keyring holds; NULL with err when none. */
static const char *chain_me(struct session *sess, const struct team_member *m,
			    size_t nm, struct err *err)
{
	struct session_seal *z = sess->seal;
	struct crypto *c;

	if (z->me)
		return z->me;
	if (!(c = session_crypto(sess, err)))
		return NULL;
	for (int pass = 0; pass < 2 && !z->me; pass++)
		for (size_t i = 0; i < nm && !z->me; i++) {
			struct crypto_keydesc d;
			struct err e = { 0, "" };

			if (pass == 0 &&
			    (!sess->officer ||
			     strcmp(m[i].role, sess->officer)))
				continue;
			if (crypto_key_describe(c, m[i].fpr, &d, &e) == 0) {
				if (d.secret)
					z->me = xstrdup(m[i].fpr);
				crypto_keydesc_release(&d);
			}
		}
	if (!z->me)
		err_setc(
			err, ERR_CRYPTO,
			"this keyring holds the secret key of no officer on the "
			"team's roster: it cannot sign the team chain of %s",
			store_where(sess->store));
	return z->me;
}

/* The name fpr's signing key is kept under in the kernel's keyring (as
 * the team key is: team.key-cache), from the home and the kept file's
 * bytes; false when there is no such file. */
static bool seed_name(struct session *sess, const char *fpr,
		      char name[TEAM_KEY_CACHE_NAME])
{
	char *given = crypto_home(gnupg_home(sess));
	char *path = sign_key_path(given, fpr), *home, buf[4096];
	ssize_t n = -1;
	int fd;

	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) >= 0) {
		n = read(fd, buf, sizeof(buf));
		close(fd);
	}
	free(path);
	free(given);
	if (n <= 0 || n >= (ssize_t)sizeof(buf))
		return false;
	home = cache_home(sess);
	team_key_cache_name(home, buf, (size_t)n, name);
	free(home);
	return true;
}

/* The login's signing key as it was kept at its last opening, while the
 * officer's agent would open their key without asking (or for the
 * configured time): no gpg run at all.  Sets z->me and z->sk. */
static void sign_key_cached(struct session *sess, const struct team_member *m,
			    size_t nm)
{
	struct session_seal *z = sess->seal;
	char name[TEAM_KEY_CACHE_NAME], *note;
	unsigned char seed[32];
	struct err e = { 0, "" };
	bool ask;

	if (z->sk || !sess->officer || !team_key_cache_usable() ||
	    !cache_seconds(sess, &ask))
		return;
	for (size_t i = 0; i < nm && !z->sk; i++) {
		if (strcmp(m[i].role, sess->officer) ||
		    !seed_name(sess, m[i].fpr, name) ||
		    sign_seed_cache_get(name, seed, &note) < 0)
			continue;
		if ((!ask || agent_vouches(note)) &&
		    sign_key_from_seed(seed, &z->sk, &e) == 0) {
			free(z->me);
			z->me = xstrdup(m[i].fpr);
		} else {
			team_key_cache_drop(name);
		}
		explicit_bzero(seed, sizeof(seed));
		free(note);
	}
}

/* The signing key of me, loaded (or made, the first time), and kept
 * as the team key is for the officer's next commands. */
static int chain_sign_key(struct session *sess, const char *me, struct err *err)
{
	struct session_seal *z = sess->seal;
	struct crypto *c;
	char *keyid = NULL, *note = NULL, name[TEAM_KEY_CACHE_NAME];
	unsigned char seed[32];
	unsigned ttl;
	bool ask;
	int r;

	if (z->sk)
		return 0;
	if (!(c = session_crypto(sess, err)))
		return ERR_CRYPTO;
	r = sign_key_load(c, me, &z->sk, &keyid, err);
	if (r == ERR_NOTFOUND)
		r = sign_key_create(c, me, &z->sk, err);
	if (r == 0 && keyid && team_key_cache_usable() &&
	    (ttl = cache_seconds(sess, &ask)) &&
	    (!ask || (note = agent_note(c, keyid))) &&
	    seed_name(sess, me, name)) {
		sign_key_seed(z->sk, seed);
		sign_seed_cache_put(seed, name, ttl, note);
		explicit_bzero(seed, sizeof(seed));
	}
	free(keyid);
	free(note);
	return r;
}

/* Signs ev as me and appends it (inside the caller's transaction), then
 * reads it back through the verifier like any other. */
static int chain_append(struct session *sess, struct team_event *ev,
			const char *me, struct err *err)
{
	struct session_seal *z = sess->seal;
	unsigned char *body = NULL, sig[SIGN_SIG_BYTES];
	size_t len;
	uint64_t before = z->chain.seq;
	int r;

	ev->at = (int64_t)util_now();
	if ((r = team_chain_sign(&z->chain, ev, me, z->sk, &body, &len, sig,
				 err)) < 0)
		return r;
	r = store_team_event_add(sess->store, body, len, sig, sizeof(sig), err);
	free(body);
	if (r == 0 && (r = chain_refresh(sess, err)) == 0 &&
	    z->chain.seq != before + 1)
		r = err_setc(err, ERR_CRYPTO,
			     "the team chain did not take this client's %s "
			     "event%s%s",
			     team_event_kind_name(ev->kind),
			     z->chain.nnotes ? ": " : "",
			     z->chain.nnotes
				     ? z->chain.notes[z->chain.nnotes - 1]
				     : "");
	return r;
}

/* A certification of my signing key in ev (a founding, a checkpoint or a
 * signing-key event). */
static int chain_certify(struct session *sess, const char *me,
			 struct team_event *ev, struct err *err)
{
	struct crypto *c = session_crypto(sess, err);

	if (!c)
		return ERR_CRYPTO;
	memcpy(ev->signing_key, sign_key_public(sess->seal->sk),
	       SIGN_PUB_BYTES);
	return sign_key_certify(c, me, ev->signing_key, &ev->cert, &ev->certlen,
				err);
}

/* Ready to sign (inside the write transaction): the chain read under the
 * lock, whole, started (a checkpoint taking in a team database from
 * before the chain, on this officer's word), and my signing key
 * certified in it. */
static int chain_ready(struct session *sess, const char **mep, struct err *err)
{
	struct session_seal *z = sess->seal;
	struct team_event ev;
	const unsigned char *have;
	const char *me;
	int r;

	if ((r = chain_refresh(sess, err)) < 0)
		return r;
	if (z->chain.broken)
		return err_setc(
			err, ERR_CRYPTO,
			"the team chain of %s is broken: %s: nothing is "
			"signed or sealed until it is whole",
			store_where(sess->store), z->chain.broken);
	memset(&ev, 0, sizeof(ev));
	if (!z->chain.started) {
		struct officer *o = NULL;
		size_t no = 0;
		int64_t nev = 0;

		if ((r = store_officers_list(sess->store, false, &o, &no,
					     err)) < 0)
			return r;
		ev.kind = TEAM_EV_CHECKPOINT;
		ev.members = xcalloc(no + 1, sizeof(*ev.members));
		for (size_t i = 0; i < no; i++) {
			if (o[i].key_fpr &&
			    strlen(o[i].key_fpr) == TEAM_FPR_LEN) {
				ev.members[ev.nmembers].role =
					xstrdup(o[i].role);
				for (int j = 0; j < TEAM_FPR_LEN; j++)
					ev.members[ev.nmembers]
						.fpr[j] = (char)toupper(
						(unsigned char)o[i].key_fpr[j]);
				ev.nmembers++;
			}
			officer_release(&o[i]);
		}
		free(o);
		me = chain_me(sess, ev.members, ev.nmembers, err);
		if (!me ||
		    (r = store_events_count(sess->store, &nev, err)) < 0 ||
		    (r = chain_sign_key(sess, me, err)) < 0 ||
		    (r = chain_certify(sess, me, &ev, err)) < 0) {
			team_event_release(&ev);
			return me ? r : ERR_CRYPTO;
		}
		ev.events_before = (uint64_t)nev;
		ev.note =
			xasprintf("the %lld events before this checkpoint are "
				  "taken in on its author's word",
				  (long long)nev);
		r = chain_append(sess, &ev, me, err);
		team_event_release(&ev);
		if (r < 0)
			return r;
	}
	sign_key_cached(sess, z->chain.members, z->chain.nmembers);
	if (!(me = chain_me(sess, z->chain.members, z->chain.nmembers, err)))
		return ERR_CRYPTO;
	if ((r = chain_sign_key(sess, me, err)) < 0)
		return r;
	have = team_chain_key(&z->chain, me);
	if (!have || memcmp(have, sign_key_public(z->sk), SIGN_PUB_BYTES)) {
		ev.kind = TEAM_EV_SIGNING_KEY;
		if ((r = chain_certify(sess, me, &ev, err)) == 0)
			r = chain_append(sess, &ev, me, err);
		team_event_release(&ev);
		if (r < 0)
			return r;
	}
	*mep = me;
	return 0;
}

/* Generation gen's key as the chain has it: through the chained copy in
 * the generation after it (no gpg), else this keyring's own copy. */
static struct team_key *chain_unwrap_gen(struct session *sess, uint32_t gen,
					 char **why)
{
	struct team_chain *c = &sess->seal->chain;
	const struct team_gen *g = team_chain_gen(c, gen);
	struct team_key *k = NULL;
	struct err e = { 0, "" };

	for (size_t i = 0; i < c->ngens && !k; i++) {
		struct team_key *next;
		char *nwhy = NULL;

		if (c->gens[i].prev_gen != gen || !c->gens[i].chainedlen)
			continue;
		if ((next = key_of_gen(sess, (int)c->gens[i].gen, &nwhy)))
			team_key_unchain(next, gen, c->gens[i].chained,
					 c->gens[i].chainedlen, &k, &e);
		free(nwhy);
	}
	if (!k && g) {
		struct wrapped_key *w = xcalloc(g->nwraps, sizeof(*w));

		for (size_t i = 0; i < g->nwraps; i++) {
			w[i].generation = (int)g->gen;
			w[i].fingerprint = (char *)g->wraps[i].fpr;
			w[i].wrapped = g->wraps[i].blob;
			w[i].len = g->wraps[i].len;
		}
		k = unwrap_any(sess, w, g->nwraps, &e);
		free(w);
		if (k && team_key_generation(k) != gen) {
			team_key_free(k);
			k = NULL;
			err_setc(&e, ERR_CRYPTO,
				 "its copy holds another generation");
		}
	}
	if (!k && why)
		*why = xasprintf(
			"team key generation %u does not open with this "
			"keyring%s%s",
			gen, e.msg[0] ? ": " : "", e.msg);
	return k;
}

/* Inside the write transaction: a new generation wrapped to exactly the
 * roster, keeping the one before it (chained), when the newest that
 * counts is not wrapped to exactly the roster (an officer joined or
 * left: removal takes effect at the next write), or none counts.  What
 * a removed officer or anyone else left in the store is not in its way:
 * its number follows the newest that counts. */
static int chain_rotate(struct session *sess, struct err *err)
{
	struct session_seal *z = sess->seal;
	const struct team_gen *g;
	struct team_key *prev = NULL, *next = NULL;
	struct team_event ev;
	struct crypto *c;
	const char *me;
	char **roster, *why = NULL;
	size_t n;
	uint32_t legacy = 0;
	int r;

	if ((r = chain_ready(sess, &me, err)) < 0)
		return r;
	g = team_chain_current(&z->chain);
	if (g && team_chain_gen_current(&z->chain, g))
		return 0; /* a colleague's, meanwhile */
	if (!(c = session_crypto(sess, err)))
		return ERR_CRYPTO;
	if (g) {
		if (!(prev = key_of_gen(sess, (int)g->gen, &why))) {
			r = err_setc(err, ERR_CRYPTO,
				     "%s: an officer who holds it writes first "
				     "(or runs 'secteam-tui roster reseal')",
				     why);
			free(why);
			return r;
		}
	} else {
		/* The generation the team used before its chain (a team
		 * database from before it), taken over on this officer's
		 * word. */
		struct wrapped_key *w = NULL;
		size_t nw = 0;

		if (store_team_keys(sess->store, 0, &w, &nw, err) < 0)
			return err->code;
		for (size_t i = 0; i < nw; i++) {
			legacy = (uint32_t)w[i].generation;
			wrapped_key_release(&w[i]);
		}
		free(w);
		if (legacy && !(prev = legacy_key_of(sess, false, &why))) {
			r = err_setc(err, ERR_CRYPTO, "%s", why);
			free(why);
			return r;
		}
	}
	memset(&ev, 0, sizeof(ev));
	ev.kind = TEAM_EV_GENERATION;
	ev.generation = g ? g->gen + 1 : legacy + 1;
	if ((r = team_key_new(ev.generation, &next, err)) < 0)
		return r;
	if (prev) {
		ev.prev_generation = team_key_generation(prev);
		team_key_chain(next, prev, &ev.chained, &ev.chainedlen);
	}
	n = team_chain_roster(&z->chain, &roster);
	ev.wraps = xcalloc(n, sizeof(*ev.wraps));
	for (size_t i = 0; i < n && r == 0; i++) {
		memcpy(ev.wraps[i].fpr, roster[i], TEAM_FPR_LEN + 1);
		r = team_key_wrap(c, next, (const char *const *)&roster[i], 1,
				  &ev.wraps[i].blob, &ev.wraps[i].len, err);
		ev.nwraps++;
	}
	for (size_t i = 0; i < n; i++)
		free(roster[i]);
	free(roster);
	if (r == 0)
		r = chain_append(sess, &ev, me, err);
	team_event_release(&ev);
	if (r < 0) {
		team_key_free(next);
		return r;
	}
	if (z->key) {
		z->old = xrealloc(z->old, (z->nold + 1) * sizeof(*z->old));
		z->old[z->nold++] = z->key;
	}
	z->key = next;
	z->chain_moved = false;
	return 0;
}

/* What seals on a team server: the newest generation of the chain that
 * counts, read again when the chain moved (before every write:
 * ready_cb), made (rotated) when it is not wrapped to exactly the roster
 * and create says this is a write. */
static struct team_key *chain_key_of(struct session *sess, bool create,
				     char **why)
{
	struct session_seal *z = sess->seal;
	struct err e = { 0, "" };
	const struct team_gen *g;
	struct team_key *k;

	if (z->key && !z->chain_moved && !create)
		return z->key;
	/* What did not open stays unopened until the chain moves: each
	 * try costs gpg runs, and a search asks for every value. */
	if (!z->key && z->failed && z->chain_read && !z->chain_moved &&
	    !create) {
		*why = xstrdup(z->failed);
		return NULL;
	}
	if (!z->chain_read && chain_refresh(sess, &e) < 0)
		goto fail;
	if (z->chain.broken) {
		err_setc(
			&e, ERR_CRYPTO,
			"the team chain of %s is broken: %s: nothing is sealed "
			"until it is whole",
			store_where(sess->store), z->chain.broken);
		goto fail;
	}
	g = team_chain_current(&z->chain);
	if (create && (!g || !team_chain_gen_current(&z->chain, g))) {
		bool tx = !store_in_tx(sess->store);
		int r;

		if (tx && store_begin(sess->store, &e) < 0)
			goto fail;
		r = chain_rotate(sess, &e);
		if (tx && r == 0)
			r = store_commit(sess->store, &e);
		else if (tx)
			store_rollback(sess->store);
		if (r < 0)
			goto fail;
		g = team_chain_current(&z->chain);
	}
	if (!g) {
		/* No generation in the chain yet: what a team database from
		 * before it sealed opens (read only: a write makes the
		 * chain's first). */
		if ((k = legacy_key_of(sess, false, why)))
			return k;
		free(*why);
		*why = NULL;
		if (!z->chain.started && z->chain.nnotes) {
			/* A keyring that cannot be used at all says so
			 * itself, not through each event it could not
			 * check (asked only here: a key kept in the kernel's
			 * keyring needs no gpg). */
			if (!session_crypto(sess, &e))
				goto fail;
			err_setc(&e, ERR_CRYPTO,
				 "this keyring cannot verify the team chain of "
				 "%s (%s): no team key",
				 store_where(sess->store), z->chain.notes[0]);
			goto fail;
		}
		goto none;
	}
	z->chain_moved = false;
	if (z->key && team_key_generation(z->key) == g->gen)
		return z->key;
	if (!(k = chain_unwrap_gen(sess, g->gen, why))) {
		free(z->failed);
		z->failed = xstrdup(*why);
		z->chain_moved = false;
		return NULL;
	}
	if (z->key) {
		z->old = xrealloc(z->old, (z->nold + 1) * sizeof(*z->old));
		z->old[z->nold++] = z->key;
	}
	z->key = k;
	free(z->failed);
	z->failed = NULL;
	return k;
none:
	err_setc(
		&e, ERR_NOTFOUND,
		"%s has no team key yet (a new record starts with 'secteam-tui team init --key FPR')",
		store_where(sess->store));
fail:
	free(z->failed);
	z->failed = xstrdup(e.msg[0] ? e.msg : "no team key");
	*why = xstrdup(z->failed);
	return NULL;
}

/* The team server's chain read to its newest event: 1 with *zp set,
 * 0 on a store with no team (SQLite), negative with err. */
static int chain_now(struct session *sess, struct session_seal **zp,
		     struct err *err)
{
	int r;

	if (!session_store(sess, err))
		return err->code;
	if (!store_has_team(sess->store))
		return 0;
	*zp = sess->seal;
	return (r = chain_refresh(sess, err)) < 0 ? r : 1;
}

/* The key role holds on the verified roster, or NULL. */
static const char *chain_fpr_of(const struct session_seal *z, const char *role)
{
	const char *had = NULL;

	for (size_t i = 0; i < z->chain.nmembers; i++)
		if (!strcmp(z->chain.members[i].role, role))
			had = z->chain.members[i].fpr;
	return had;
}

int session_team_listed(struct session *sess, const char *role, bool *listed,
			struct err *err)
{
	struct session_seal *z = NULL;
	int r = chain_now(sess, &z, err);

	*listed = r > 0 && chain_fpr_of(z, role);
	return r < 0 ? r : 0;
}

int session_team_member(struct session *sess, const char *role, const char *fpr,
			struct err *err)
{
	struct session_seal *z = NULL;
	struct team_event ev;
	const char *me, *had;
	int r;

	if ((r = chain_now(sess, &z, err)) <= 0)
		return r;
	/* No chain yet: the checkpoint that starts it takes the officers
	 * in as they are then. */
	if (!z->chain.started && !z->chain.broken)
		return 0;
	had = chain_fpr_of(z, role);
	if ((!fpr && !had) || (fpr && had && !str_cmp_ci(had, fpr)))
		return 0;
	if ((r = chain_ready(sess, &me, err)) < 0)
		return r;
	memset(&ev, 0, sizeof(ev));
	if (had) {
		ev.kind = TEAM_EV_OFFICER_REMOVED;
		ev.role = xstrdup(role);
		r = chain_append(sess, &ev, me, err);
		team_event_release(&ev);
	}
	if (r == 0 && fpr) {
		ev.kind = TEAM_EV_OFFICER_ADDED;
		ev.role = xstrdup(role);
		for (int j = 0; j < TEAM_FPR_LEN && fpr[j]; j++)
			ev.fpr[j] = (char)toupper((unsigned char)fpr[j]);
		r = chain_append(sess, &ev, me, err);
		team_event_release(&ev);
	}
	return r;
}

int session_team_found(struct session *sess, struct err *err)
{
	struct session_seal *z;
	struct team_event ev;
	struct officer *o = NULL;
	size_t no = 0;
	struct err e = { 0, "" };
	const char *me;
	int r;

	if (!session_store(sess, err))
		return err->code;
	z = sess->seal;
	if ((r = chain_refresh(sess, err)) < 0)
		return r;
	if (z->chain.started || z->chain.last_row)
		return 0; /* founded already (team init run again) */
	if ((r = store_officers_list(sess->store, false, &o, &no, err)) < 0)
		return r;
	memset(&ev, 0, sizeof(ev));
	ev.kind = TEAM_EV_FOUNDING;
	ev.members = xcalloc(no + 1, sizeof(*ev.members));
	for (size_t i = 0; i < no; i++) {
		if (o[i].key_fpr && strlen(o[i].key_fpr) == TEAM_FPR_LEN) {
			ev.members[ev.nmembers].role = xstrdup(o[i].role);
			for (int j = 0; j < TEAM_FPR_LEN; j++)
				ev.members[ev.nmembers].fpr[j] = (char)toupper(
					(unsigned char)o[i].key_fpr[j]);
			ev.nmembers++;
		}
		officer_release(&o[i]);
	}
	free(o);
	/* Without the first officer's secret key here (an administrator
	 * who is no officer), the first officer's first write makes a
	 * checkpoint instead. */
	if (!ev.nmembers ||
	    !(me = chain_me(sess, ev.members, ev.nmembers, &e))) {
		team_event_release(&ev);
		return 0;
	}
	if ((r = chain_sign_key(sess, me, err)) == 0 &&
	    (r = chain_certify(sess, me, &ev, err)) == 0)
		r = chain_append(sess, &ev, me, err);
	team_event_release(&ev);
	return r;
}

size_t session_team_notes(struct session *sess, const char *const **notes,
			  const char **broken)
{
	struct err e = { 0, "" };
	struct session_seal *z;

	*notes = NULL;
	*broken = NULL;
	if (!session_store(sess, &e) || !store_has_team(sess->store))
		return 0;
	z = sess->seal;
	if (!z->chain_read)
		chain_refresh(sess, &e);
	*notes = (const char *const *)z->chain.notes;
	*broken = z->chain.broken;
	return z->chain.nnotes;
}

const struct team_chain *session_team_chain(struct session *sess,
					    struct err *err)
{
	struct session_seal *z = NULL;

	return chain_now(sess, &z, err) > 0 ? &z->chain : NULL;
}

int session_team_mac(void *data, uint32_t gen, const char *purpose,
		     const void *p, size_t len, unsigned char mac[32],
		     struct err *err)
{
	struct session *sess = data;
	char *why = NULL;
	struct team_key *k = key_of_gen(sess, (int)gen, &why);

	if (!k || team_key_generation(k) != gen) {
		err_setc(err, ERR_CRYPTO,
			 "team key generation %u does not open here%s%s", gen,
			 why ? ": " : "", why ? why : "");
		free(why);
		return ERR_CRYPTO;
	}
	team_key_mac(k, purpose, p, len, mac);
	return 0;
}

int session_team_generation(struct session *sess, uint32_t *gen,
			    struct err *err)
{
	char *why = NULL;
	struct team_key *k;

	*gen = 0;
	if (!session_store(sess, err))
		return err->code;
	if (!(k = team_key_of(sess, true, &why))) {
		err_setc(err, ERR_CRYPTO, "%s", why ? why : "no team key");
		free(why);
		return ERR_CRYPTO;
	}
	*gen = team_key_generation(k);
	return 0;
}

int session_report_append(struct session *sess, struct report_chain *c,
			  struct report_event *ev, struct err *err)
{
	struct session_seal *z = sess->seal;
	struct report_event_row row;
	unsigned char *body = NULL, sig[SIGN_SIG_BYTES];
	uint64_t before = c->seq;
	size_t len;
	const char *me;
	int r;

	if ((r = chain_ready(sess, &me, err)) < 0)
		return r;
	ev->at = (int64_t)util_now();
	if ((r = report_chain_sign(c, &z->chain, ev, me, z->sk, &body, &len,
				   sig, err)) < 0)
		return r;
	r = store_report_event_add(sess->store, c->report, c->last_place, body,
				   len, sig, sizeof(sig), err);
	if (r == 0) {
		memset(&row, 0, sizeof(row));
		row.report_id = c->report;
		row.seq = c->last_place + 1;
		row.body = body;
		row.len = len;
		row.sig = sig;
		row.siglen = sizeof(sig);
		report_chain_feed(c, &z->chain, &row, 1);
		if (c->seq != before + 1)
			r = err_setc(err, ERR_CRYPTO,
				     "report %lld's chain did not take this "
				     "client's %s event%s%s",
				     (long long)c->report,
				     report_event_kind_name(ev->kind),
				     c->nnotes ? ": " : "",
				     c->nnotes ? c->notes[c->nnotes - 1] : "");
	}
	free(body);
	return r;
}

static struct team_key *key_for(struct session *sess, const void *sealed,
				size_t n, char **why);

static unsigned char *seal_cb(void *data, const char *table, const char *column,
			      int64_t row, const void *plain, size_t len,
			      size_t *n, char **why)
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
	if (store_has_team(sess->store)) {
		const struct team_chain *c;

		/* The chain's generation, whatever team_keys holds; a team
		 * whose verified chain has none yet has nothing sealed to
		 * open.  A chain this keyring cannot verify is no key. */
		if (team_key_of(sess, false, &why))
			return 0;
		c = &sess->seal->chain;
		if (!n && !c->broken && !team_chain_current(c) &&
		    (c->started || !c->nnotes)) {
			free(why);
			return 0;
		}
	} else if (!n || team_key_of(sess, false, &why)) {
		return 0;
	}
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
	return team_key_open(k, table, column, row, sealed, n, out, outlen,
			     err);
}

/* The team key that seals now (none is made here), or NULL with err
 * (ERR_CRYPTO naming what is missing). */
static struct team_key *current_key(struct session *sess, struct err *err)
{
	char *why = NULL;
	struct team_key *k;

	if (!session_store(sess, err))
		return NULL;
	pthread_mutex_lock(&sess->seal->lock);
	k = team_key_of(sess, false, &why);
	pthread_mutex_unlock(&sess->seal->lock);
	if (!k) {
		err_setc(err, ERR_CRYPTO, "%s", why ? why : "no team key");
		free(why);
	}
	return k;
}

int session_seal(struct session *sess, const char *table, const char *column,
		 int64_t row, const void *plain, size_t len,
		 unsigned char **out, size_t *outlen, struct err *err)
{
	struct team_key *k;

	*out = NULL;
	*outlen = 0;
	if (!(k = current_key(sess, err)))
		return err->code;
	team_key_seal(k, table, column, row, plain, len, out, outlen);
	return 0;
}

_Static_assert(SESSION_MAC_BYTES == TEAM_MAC_BYTES, "one keyed hash size");

int session_keyed_hash(struct session *sess, const char *purpose,
		       const void *data, size_t len,
		       unsigned char mac[SESSION_MAC_BYTES], uint32_t *gen,
		       struct err *err)
{
	struct team_key *k;

	if (!(k = current_key(sess, err)))
		return err->code;
	team_key_mac(k, purpose, data, len, mac);
	if (gen)
		*gen = team_key_generation(k);
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
	if ((uint32_t)gen > team_key_generation(k) &&
	    store_has_team(sess->store)) {
		/* A colleague's rotation since: the chain says which. */
		struct err e = { 0, "" };

		free(*why);
		*why = NULL;
		if (chain_refresh(sess, &e) == 0 &&
		    (k = team_key_of(sess, false, why)) &&
		    team_key_generation(k) == (uint32_t)gen)
			return k;
		if (!k)
			return NULL;
	}
	if ((uint32_t)gen > team_key_generation(k)) {
		*why = xasprintf("team key generation %d is newer than this "
				 "session's %u",
				 gen, team_key_generation(k));
		return NULL;
	}
	for (size_t i = 0; i < z->nold; i++)
		if (team_key_generation(z->old[i]) == (uint32_t)gen)
			return z->old[i];
	k = NULL;
	if (store_has_team(sess->store)) {
		k = chain_unwrap_gen(sess, (uint32_t)gen, NULL);
		/* a generation the chain names is never taken from
		 * anywhere else */
		if (!k && team_chain_gen(&z->chain, (uint32_t)gen)) {
			k = chain_unwrap_gen(sess, (uint32_t)gen, why);
			if (!k)
				return NULL;
		}
	}
	if (!k && !(k = unwrap_gen(sess, gen, why)))
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

	if (!k ||
	    team_key_generation(k) != team_key_sealed_generation(sealed, n)) {
		pthread_mutex_lock(&sess->seal->lock);
		k = key_for(sess, sealed, n, why);
		pthread_mutex_unlock(&sess->seal->lock);
	}
	return k;
}

/* On a team server, whether what generation gen sealed may be open to
 * someone off the roster now: a later generation (each keeps the one
 * before it) was wrapped to a key that left.  One who joined opens the
 * older generations through the chain: nothing to seal again for them. */
static bool chain_gen_exposed(struct session *sess, uint32_t gen)
{
	struct team_chain *c = &sess->seal->chain;

	for (size_t i = 0; i < c->ngens; i++) {
		if (c->gens[i].gen < gen)
			continue;
		for (size_t j = 0; j < c->gens[i].nwraps; j++)
			if (!team_chain_on_roster(c, c->gens[i].wraps[j].fpr))
				return true;
	}
	return false;
}

static bool stale_cb(void *data, const unsigned char *sealed, size_t n)
{
	struct session *sess = data;
	char *why = NULL;
	struct team_key *k = team_key_of(sess, false, &why);
	uint32_t gen = team_key_sealed_generation(sealed, n);

	free(why);
	if (!k || !gen || gen == team_key_generation(k))
		return false;
	if (store_has_team(sess->store) && sess->seal->chain.ngens)
		return chain_gen_exposed(sess, gen);
	return true;
}

static char *open_cb(void *data, const char *table, const char *column,
		     int64_t row, const unsigned char *sealed, size_t n,
		     char **why)
{
	struct session *sess = data;
	struct team_key *k = key_shared(sess, sealed, n, why);
	struct err e = { 0, "" };
	unsigned char *clear;
	size_t len;

	if (!k)
		return NULL;
	if (team_key_open(k, table, column, row, sealed, n, &clear, &len, &e) <
	    0) {
		*why = xstrdup(e.msg);
		return NULL;
	}
	return (char *)clear;
}

/* Keyed values are stored under the newest generation's hash key, so a
 * removed officer, who holds an older one, cannot test a list of
 * addresses or Message-IDs against what was stored after they left.  A
 * lookup also tries each older generation (back), which the newest
 * reaches through the chain: a value keyed before a rotation is still
 * found by the same value after it. */
static char *mac_cb(void *data, const char *purpose, const char *value,
		    unsigned back, char **why)
{
	struct session *sess = data;
	struct team_key *k;
	unsigned char mac[TEAM_MAC_BYTES];
	uint32_t gen;
	char *hex;

	if (!(k = team_key_of(sess, true, why)))
		return NULL;
	gen = team_key_generation(k);
	if (back >= gen)
		return NULL; /* no such generation: *why stays NULL */
	if (back && !(k = key_of_gen(sess, (int)(gen - back), why))) {
		/* A generation this keyring cannot reach: nothing stored
		 * under it would open here either; the lookups stop. */
		free(*why);
		*why = NULL;
		return NULL;
	}
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

	/* On a team server, a colleague's rotation (or removal) is seen
	 * before this write seals anything: the chain's new events. */
	if (store_has_team(sess->store) && sess->seal->chain_read) {
		struct err e = { 0, "" };
		chain_refresh(sess, &e);
	}

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
		sess->seal->hook.data = sess;
		sess->seal->hook.before = report_log_before;
		sess->seal->hook.after = report_log_after;
	}
	store_set_sealer(sess->store, &sess->seal->z);
	/* On a team server each change to a report is signed in its
	 * report's chain, in the write's transaction. */
	if (store_has_team(sess->store))
		store_set_event_hook(sess->store, &sess->seal->hook);
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
	if (store_has_team(sess->store)) {
		const struct team_gen *g;
		uint32_t before;

		if ((r = chain_refresh(sess, err)) < 0)
			return r;
		g = team_chain_current(&z->chain);
		before = g ? g->gen : 0;
		/* Nothing sealed yet (no generation), or the newest wrapped
		 * to exactly the roster: nothing to rotate. */
		if (!g || team_chain_gen_current(&z->chain, g))
			return 0;
		if ((r = store_begin(sess->store, err)) < 0)
			return r;
		if ((r = chain_rotate(sess, err)) == 0)
			r = store_commit(sess->store, err);
		else
			store_rollback(sess->store);
		g = team_chain_current(&z->chain);
		*rotated = r == 0 && g && g->gen != before;
		return r;
	}
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
		if ((r = team_key_wrap(c, next, &roster[i], 1, &b, &bl, err)) ==
		    0) {
			r = store_team_key_add(sess->store,
					       (int)team_key_generation(next),
					       roster[i], b, bl, util_now(),
					       err);
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

int session_team_key_share(struct session *sess, size_t *added, struct err *err)
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
	/* On a team server a generation is wrapped to exactly the roster
	 * it was made for: one who joined gets the next (the rotation). */
	if (store_has_team(sess->store))
		return 0;
	if (!(k = team_key_of(sess, false, &why))) {
		/* No team key yet: nothing is sealed, nothing to share. */
		int none = sess->seal->failed &&
			strstr(sess->seal->failed, "no team key yet");
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
		if ((r = team_key_wrap(c, k, &roster[i], 1, &b, &bl, err)) ==
		    0) {
			r = store_team_key_add(sess->store,
					       (int)team_key_generation(k),
					       roster[i], b, bl, util_now(),
					       err);
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
	search_index_done(sess); /* before the store: it reads keys there */
	store_close(sess->store);
	crypto_close(sess->crypto);
	if (sess->seal) {
		team_key_free(sess->seal->key);
		for (size_t i = 0; i < sess->seal->nold; i++)
			team_key_free(sess->seal->old[i]);
		free(sess->seal->old);
		free(sess->seal->failed);
		team_chain_release(&sess->seal->chain);
		for (size_t i = 0; i < sess->seal->nchecked; i++)
			free(sess->seal->checked[i]);
		free(sess->seal->checked);
		sign_key_free(sess->seal->sk);
		free(sess->seal->me);
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
	o.busy_timeout_ms =
		(int)config_get_long(sess->cfg, "store.busy_timeout", 0) * 1000;
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
			err_setc(err, ERR_IO,
				 "cannot tell who is logged in to %s",
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

				for (size_t j = 0;
				     j < sess->nroster && o[i].key_fpr; j++)
					dup |= !str_cmp_ci(sess->roster[j],
							   o[i].key_fpr);
				if (o[i].key_fpr && *o[i].key_fpr && !dup) {
					sess->roster =
						xrealloc(sess->roster,
							 (sess->nroster +
							  1) * sizeof(char *));
					sess->roster[sess->nroster++] =
						xstrdup(o[i].key_fpr);
				}
				officer_release(&o[i]);
			}
			free(o);
			if (!sess->nroster) {
				err_setc(
					err, ERR_NOTFOUND,
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
							(sess->nroster + 1) *
								sizeof(char *));
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
				err_prefix(
					err,
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
