/*
 * crypto.c: the GPGME context and what every operation shares.
 *
 * One context is created by crypto_open and reused for every operation:
 * OpenPGP protocol, the chosen GnuPG home, offline (GPGME then runs gpg
 * with --disable-dirmngr), local key listing only and no
 * auto-key-retrieve, so nothing ever fetches a key.  Signing keys' user
 * IDs, with their validity, are cached by fingerprint, so verifying many messages from the
 * same people costs one gpg process per message.  Output goes to "sinks"
 * that wipe every copy of the plaintext they let go of, and that stop a
 * decryption whose output would pass CRYPTO_MAX_PLAIN.  Background
 * decryptions (verify.c) each take one more context, from a small pool
 * made the same way on first use.
 *
 * GPGME runs gpg through secteam-gpg (libexec/secteam-gpg.c: gpg with
 * --quiet, about a quarter less work per decryption) when that program
 * is installed with this one and nobody else can have written it; else
 * gpg itself, as before.  A decryption that fails through it is done
 * again by gpg itself (verify.c loud_again): --quiet also drops the
 * statuses that say why.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crypto/crypto-int.h"

static ssize_t sink_write(void *handle, const void *buf, size_t size)
{
	struct crypto_sink *s = handle;

	if (s->max && size > s->max - s->len) {
		/* A decompression bomb, or just too much: stop here rather
		 * than grow toward its full size. */
		s->over = true;
		errno = EFBIG;
		return -1;
	}
	if (size > s->alloc - s->len) {
		size_t n = s->alloc ? s->alloc : 4096;
		while (n - s->len < size)
			n *= 2;
		unsigned char *nb = xmalloc(n);
		if (s->len)
			memcpy(nb, s->buf, s->len);
		if (s->buf)
			wipe_free(s->buf, s->alloc);
		s->buf = nb;
		s->alloc = n;
	}
	memcpy(s->buf + s->len, buf, size);
	s->len += size;
	return (ssize_t)size;
}

static struct gpgme_data_cbs sink_cbs = { NULL, sink_write, NULL, NULL };

int crypto_sink_data(struct crypto_sink *sink, gpgme_data_t *dh,
		     struct err *err)
{
	gpgme_error_t e;

	memset(sink, 0, sizeof(*sink));
	e = gpgme_data_new_from_cbs(dh, &sink_cbs, sink);
	if (e)
		return crypto_gpg_err(err, e, "cannot create an output buffer");
	return 0;
}

void crypto_sink_wipe(struct crypto_sink *sink)
{
	if (sink->buf)
		wipe_free(sink->buf, sink->alloc);
	memset(sink, 0, sizeof(*sink));
}

void crypto_sink_take(struct crypto_sink *sink, unsigned char **buf,
		      size_t *len)
{
	*buf = sink->buf ? sink->buf : xcalloc(1, 1);
	*len = sink->len;
	memset(sink, 0, sizeof(*sink));
}

/* GPGME's and strerror's messages start with a capital letter. */
static void lower_first(char *s)
{
	if (s[0] && isupper((unsigned char)s[0]) &&
	    !isupper((unsigned char)s[1]))
		s[0] = (char)tolower((unsigned char)s[0]);
}

int crypto_gpg_err(struct err *err, gpgme_error_t e, const char *fmt, ...)
{
	char what[512], why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	gpgme_strerror_r(e, why, sizeof(why));
	lower_first(why);
	return err_setc(err, ERR_CRYPTO, "%s: %s", what, why);
}

void crypto_ctx_reset(struct crypto *c)
{
	gpgme_set_armor(c->ctx, 0);
	gpgme_set_textmode(c->ctx, 0);
	gpgme_signers_clear(c->ctx);
	gpgme_set_ctx_flag(c->ctx, "override-session-key", "");
}

/* The home every new context gets without asking: the first
 * crypto_open's, which gpg finds in GNUPGHOME (a context given a home of
 * its own, or gpgme_set_engine_info, costs a `gpg --version` each). */
static char *global_home;
/* The program GPGME runs for OpenPGP (gpg, or secteam-gpg): a context
 * with a home of its own gets it too.  plain_gpg: the gpg it stands
 * for, when it is secteam-gpg. */
static char *global_engine, *plain_gpg;

static gpgme_error_t ctx_new(const char *home, const char *engine,
			     gpgme_ctx_t *ctx)
{
	gpgme_error_t e = gpgme_new(ctx);

	if (e) {
		*ctx = NULL;
		return e;
	}
	e = gpgme_set_protocol(*ctx, GPGME_PROTOCOL_OpenPGP);
	/* The process's default home (crypto_open) needs no setting: a
	 * context's own costs a `gpg --version` each. */
	if (!e &&
	    (engine != global_engine || !global_home ||
	     strcmp(home, global_home)))
		e = gpgme_ctx_set_engine_info(*ctx, GPGME_PROTOCOL_OpenPGP,
					      engine, home);
	if (!e)
		e = gpgme_set_keylist_mode(*ctx, GPGME_KEYLIST_MODE_LOCAL);
	if (!e)
		e = gpgme_set_ctx_flag(*ctx, "auto-key-retrieve", "0");
	/* Every decryption gives its session key (crypto_result): stored
	 * sealed with the message, it opens the message again for any
	 * officer, to be verified again (core/import.c). */
	if (!e)
		e = gpgme_set_ctx_flag(*ctx, "export-session-key", "1");
	if (e) {
		gpgme_release(*ctx);
		*ctx = NULL;
		return e;
	}
	gpgme_set_offline(*ctx, 1);
	return 0;
}

gpgme_error_t crypto_ctx_new(const char *home, gpgme_ctx_t *ctx)
{
	return ctx_new(home, global_engine, ctx);
}

gpgme_error_t crypto_ctx_new_loud(const char *home, gpgme_ctx_t *ctx)
{
	return ctx_new(home, plain_gpg ? plain_gpg : global_engine, ctx);
}

bool crypto_quiet(void)
{
	return plain_gpg != NULL;
}

/* Checks the home before gpg gets a chance to fail obscurely there. */
static int check_home(const char *home, struct err *err)
{
	struct stat st;
	char why[128];

	int e = 0;

	if (stat(home, &st) < 0)
		e = errno;
	else if (!S_ISDIR(st.st_mode))
		e = ENOTDIR;
	else if (access(home, R_OK | W_OK | X_OK) < 0)
		e = errno;
	if (e) {
		snprintf(why, sizeof(why), "%s", strerror(e));
		lower_first(why);
		return err_setc(err, ERR_CRYPTO,
				"cannot use gnupg home '%s': %s", home, why);
	}
	return 0;
}

/*
 * Returns 0 with *out set, or a negative code with err saying why: gpg
 * missing or too old, the home not a readable directory, GPGME failing.
 */
char *crypto_home(const char *gnupghome)
{
	const char *env = getenv("GNUPGHOME");

	if (gnupghome && *gnupghome)
		return xstrdup(gnupghome);
	if (env && *env)
		return xstrdup(env);
	return getenv("HOME") ? xasprintf("%s/.gnupg", getenv("HOME")) : NULL;
}

/* The gpg that secteam-gpg runs (libexec/secteam-gpg.c): it stands in
 * for no other. */
#define QUIET_GPG_RUNS "/usr/bin/gpg"

/* secteam-gpg beside this program (as in build/) or in
 * ../lib/secteam-tui/ from its folder (make install), when it is a
 * regular, executable file that only its user or root can have written,
 * in folders likewise (open_trusted: what ssh asks of its files); else
 * NULL.  A secteam-gpg that another user could have changed is passed
 * over in silence: gpg itself does the same work. */
char *crypto_quiet_gpg(const char *exe)
{
	static const char *const where[] = { "", "/../lib/secteam-tui" };
	char *dir = xstrdup(exe), *slash = strrchr(dir, '/'), *found = NULL;

	if (!slash || slash == dir) {
		free(dir);
		return NULL;
	}
	*slash = '\0';
	for (size_t i = 0; i < sizeof(where) / sizeof(*where) && !found; i++) {
		char *path = xasprintf("%s%s/secteam-gpg", dir, where[i]);
		struct err e = { 0, "" };
		struct stat st;
		int fd = open_trusted(path, &e);

		if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    (st.st_mode & S_IXUSR) && access(path, X_OK) == 0)
			found = path;
		else
			free(path);
		if (fd >= 0)
			close(fd);
	}
	free(dir);
	return found;
}

/* Once per process, before the first context: GPGME's gpg becomes
 * secteam-gpg when GPGME found QUIET_GPG_RUNS and crypto_quiet_gpg finds
 * the program (SECTEAM_GPG_QUIET=0 keeps gpg itself, as bench/import.sh
 * does to compare).  Costs one more `--version`, through secteam-gpg,
 * which also proves it runs. */
static void use_quiet_gpg(void)
{
	static bool done;
	const char *off = getenv("SECTEAM_GPG_QUIET");
	gpgme_engine_info_t info;
	struct stat found, runs;
	char exe[PATH_MAX], *shim, *gpg;
	ssize_t n;

	if (done)
		return;
	done = true;
	if ((off && !strcmp(off, "0")) || gpgme_get_engine_info(&info))
		return;
	while (info && info->protocol != GPGME_PROTOCOL_OpenPGP)
		info = info->next;
	/* (/bin/gpg on a merged /usr is the same file) */
	if (!info || !info->file_name || stat(info->file_name, &found) ||
	    stat(QUIET_GPG_RUNS, &runs) || found.st_dev != runs.st_dev ||
	    found.st_ino != runs.st_ino)
		return;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return;
	exe[n] = '\0';
	if (!(shim = crypto_quiet_gpg(exe)))
		return;
	gpg = xstrdup(info->file_name); /* (info is GPGME's, replaced next) */
	if (gpgme_set_engine_info(GPGME_PROTOCOL_OpenPGP, shim, NULL) ||
	    gpgme_engine_check_version(GPGME_PROTOCOL_OpenPGP)) {
		/* It does not run: gpg itself, as GPGME found it. */
		gpgme_set_engine_info(GPGME_PROTOCOL_OpenPGP, gpg, NULL);
		free(shim);
		free(gpg);
	} else {
		global_engine = shim;
		plain_gpg = gpg;
	}
}

int crypto_open(const char *gnupghome, struct crypto **out, struct err *err)
{
	struct crypto *c;
	gpgme_error_t e;
	char *home;

	*out = NULL;
	/* gpg where Debian installs it, not asked of gpgconf: three programs
	 * fewer run by every command before its first gpg. */
	gpgme_set_global_flag("disable-gpgconf", "1");
	if (!gpgme_check_version(GPGME_VERSION))
		return err_setc(err, ERR_CRYPTO,
				"gpgme is older than version %s",
				GPGME_VERSION);
	e = gpgme_engine_check_version(GPGME_PROTOCOL_OpenPGP);
	if (e)
		return crypto_gpg_err(err, e,
				      "gpg is not installed or not usable");
	use_quiet_gpg();

	if (!(home = crypto_home(gnupghome)))
		return err_setc(
			err, ERR_CRYPTO,
			"cannot find a gnupg home: neither GNUPGHOME nor "
			"HOME is set");
	if (check_home(home, err) < 0) {
		free(home);
		return ERR_CRYPTO;
	}

	if (!global_home && setenv("GNUPGHOME", home, 1) == 0)
		global_home = xstrdup(home);
	c = xcalloc(1, sizeof(*c));
	c->home = home;
	e = crypto_ctx_new(home, &c->ctx);
	if (e) {
		crypto_gpg_err(err, e,
			       "cannot set up gpgme for gnupg home '%s'", home);
		crypto_close(c);
		return ERR_CRYPTO;
	}
	*out = c;
	return 0;
}

static void keyinfo_release(struct crypto_keyinfo *k)
{
	struct crypto_sig s = { .uids = k->uids, .nuids = k->nuids };

	free(k->sigfpr);
	free(k->fpr);
	crypto_sig_release(&s);
}

void crypto_close(struct crypto *c)
{
	if (!c)
		return;
	if (c->ctx)
		gpgme_release(c->ctx);
	for (int i = 0; i < CRYPTO_JOBS_MAX; i++)
		if (c->jobctx[i])
			gpgme_release(c->jobctx[i]);
	if (c->loud)
		gpgme_release(c->loud);
	for (size_t i = 0; i < c->nkeys; i++)
		keyinfo_release(&c->keys[i]);
	free(c->keys);
	free(c->stamp);
	free(c->home);
	free(c);
}

const struct crypto_keyinfo *crypto_keyinfo_get(struct crypto *c,
						const char *sigfpr)
{
	struct crypto_keyinfo k;
	gpgme_key_t key = NULL;

	for (size_t i = 0; i < c->nkeys; i++)
		if (!str_cmp_ci(c->keys[i].sigfpr, sigfpr))
			return &c->keys[i];

	/* Our own listing on the shared context: LOCAL mode, offline. */
	if (gpgme_op_keylist_start(c->ctx, sigfpr, 0) ||
	    gpgme_op_keylist_next(c->ctx, &key)) {
		gpgme_op_keylist_end(c->ctx);
		return NULL;
	}
	gpgme_op_keylist_end(c->ctx);

	memset(&k, 0, sizeof(k));
	k.sigfpr = xstrdup(sigfpr);
	k.fpr = xstrdup(key->subkeys && key->subkeys->fpr ? key->subkeys->fpr
							  : sigfpr);
	for (gpgme_user_id_t u = key->uids; u; u = u->next) {
		struct crypto_uid *d;

		if (u->revoked || u->invalid || !u->uid)
			continue;
		k.uids = xrealloc(k.uids, (k.nuids + 1) * sizeof(*k.uids));
		d = &k.uids[k.nuids++];
		d->uid = xstrdup(u->uid);
		d->name = u->name && *u->name ? xstrdup(u->name) : NULL;
		d->email = u->email && *u->email ? str_lower(xstrdup(u->email))
						 : NULL;
		d->valid = crypto_uid_counts(key, u);
	}
	gpgme_key_unref(key);

	if (c->nkeys == c->akeys) {
		c->akeys = c->akeys ? 2 * c->akeys : 16;
		c->keys = xrealloc(c->keys, c->akeys * sizeof(*c->keys));
	}
	c->keys[c->nkeys] = k;
	return &c->keys[c->nkeys++];
}
