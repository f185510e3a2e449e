/*
 * What gpg-agent would do with a secret key, asked of the agent itself
 * over its socket (KEYINFO, through libassuan: GPGME's own Assuan engine
 * needs gpgconf, which crypto_open keeps from running), without running
 * gpg:
 * team.key-cache = auto (core/session.c) keeps the unwrapped team key only
 * while the agent would open the officer's key without asking anything.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <assuan.h>

#include "crypto/crypto-int.h"

/* GnuPG's own tool for where its sockets are (the rules differ with
 * /run/user and a home of its own): run by its full path. */
#define GPGCONF "/usr/bin/gpgconf"

int crypto_agent_key(struct crypto *c, const char *keyid, char grip[41],
		     bool *card, struct err *err)
{
	gpgme_key_t key = NULL;
	gpgme_error_t e;
	bool found = false;

	grip[0] = '\0';
	*card = false;
	e = gpgme_get_key(c->ctx, keyid, &key, 1);
	if (e || !key)
		return crypto_gpg_err(err, e ? e : GPG_ERR_NO_SECKEY,
				      "no secret key %s in '%s'", keyid,
				      c->home);
	for (gpgme_subkey_t sk = key->subkeys; sk && !found; sk = sk->next) {
		size_t n = strlen(keyid);

		if (!sk->fpr || !sk->keygrip || strlen(sk->keygrip) != 40 ||
		    strlen(sk->fpr) < n ||
		    str_cmp_ci(sk->fpr + strlen(sk->fpr) - n, keyid))
			continue;
		memcpy(grip, sk->keygrip, 41);
		*card = sk->is_cardkey;
		found = true;
	}
	gpgme_key_unref(key);
	if (!found)
		return err_setc(err, ERR_NOTFOUND, "no keygrip for subkey %s",
				keyid);
	return 0;
}

char *crypto_agent_socket(struct crypto *c, struct err *err)
{
	const char *argv[] = { "gpgconf",     "--homedir",    c->home,
			       "--list-dirs", "agent-socket", NULL };
	gpgme_ctx_t ctx = NULL;
	gpgme_data_t out = NULL;
	gpgme_error_t e;
	char *buf, *path = NULL;
	size_t len = 0;

	e = gpgme_new(&ctx);
	if (!e)
		e = gpgme_set_protocol(ctx, GPGME_PROTOCOL_SPAWN);
	if (!e)
		e = gpgme_data_new(&out);
	if (!e)
		e = gpgme_op_spawn(ctx, GPGCONF, argv, NULL, out, NULL, 0);
	buf = out ? gpgme_data_release_and_get_mem(out, &len) : NULL;
	gpgme_release(ctx);
	/* One absolute path and its newline, nothing else. */
	if (!e && buf && len >= 3 && len <= PATH_MAX && buf[0] == '/' &&
	    buf[len - 1] == '\n' && !memchr(buf, '\0', len)) {
		path = xmalloc(len);
		memcpy(path, buf, len - 1);
		path[len - 1] = '\0';
	} else if (e) {
		crypto_gpg_err(err, e, "cannot run " GPGCONF);
	} else {
		err_setc(err, ERR_CRYPTO,
			 GPGCONF " gave no agent socket for '%s'", c->home);
	}
	gpgme_free(buf);
	return path;
}

/*
 * The arguments of KEYINFO's status line (gpg-agent's, since 2.1):
 *   <grip> <type> <serial> <idstr> <cached> <protection> ...
 * type D: a key on disk, T: on a card (its PIN or touch may be asked
 * every time), X: unknown; cached 1: its passphrase is in the agent's
 * cache; protection C: no passphrase, P: one.
 */
enum crypto_agent_use crypto_agent_keyinfo(const char *args, const char *grip)
{
	char f[6][48];
	int n = sscanf(args, "%47s %47s %47s %47s %47s %47s", f[0], f[1], f[2],
		       f[3], f[4], f[5]);

	if (n != 6 || strcmp(f[0], grip))
		return CRYPTO_AGENT_UNKNOWN;
	if (strcmp(f[1], "D"))
		return CRYPTO_AGENT_ASKS;
	if (!strcmp(f[5], "C") || (!strcmp(f[5], "P") && !strcmp(f[4], "1")))
		return CRYPTO_AGENT_SILENT;
	return CRYPTO_AGENT_ASKS;
}

struct keyinfo_ask {
	const char *grip;
	enum crypto_agent_use use;
};

/* A status line, as libassuan gives it: "KEYWORD ARGS". */
static gpg_error_t keyinfo_status(void *opaque, const char *line)
{
	struct keyinfo_ask *a = opaque;

	if (!strncmp(line, "KEYINFO ", 8))
		a->use = crypto_agent_keyinfo(line + 8, a->grip);
	return 0;
}

/* libassuan retries a read or write that timed out (EAGAIN) for ever:
 * said as ETIMEDOUT, it ends the exchange. */
static ssize_t timed_read(assuan_context_t ctx, assuan_fd_t fd, void *buf,
			  size_t size)
{
	ssize_t r = __assuan_read(ctx, fd, buf, size);

	if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		errno = ETIMEDOUT;
	return r;
}

static ssize_t timed_write(assuan_context_t ctx, assuan_fd_t fd,
			   const void *buf, size_t size)
{
	ssize_t r = __assuan_write(ctx, fd, buf, size);

	if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		errno = ETIMEDOUT;
	return r;
}

static struct assuan_system_hooks timed_hooks = {
	ASSUAN_SYSTEM_HOOKS_VERSION,
	__assuan_usleep,
	__assuan_pipe,
	__assuan_close,
	timed_read,
	timed_write,
	__assuan_recvmsg,
	__assuan_sendmsg,
	__assuan_spawn,
	__assuan_waitpid,
	__assuan_socketpair,
	__assuan_socket,
	__assuan_connect,
};

/* A connection to the socket at path whose reads and writes give up
 * after 2 s (SO_RCVTIMEO, timed_hooks), or -1. */
static int agent_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { 2, 0 };
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path) ||
	    (fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0)
		return -1;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0 ||
	    connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

enum crypto_agent_use crypto_agent_key_use(const char *socket_path,
					   const char *grip)
{
	struct keyinfo_ask a = { grip, CRYPTO_AGENT_UNKNOWN };
	assuan_context_t ctx;
	gpg_error_t e;
	char cmd[64];
	struct stat st;
	int fd;

	/* Only the officer's own agent is asked: a socket of this user. */
	if (!socket_path || strlen(grip) != 40 ||
	    strspn(grip, "0123456789ABCDEFabcdef") != 40 ||
	    lstat(socket_path, &st) < 0 || !S_ISSOCK(st.st_mode) ||
	    st.st_uid != geteuid() || assuan_new(&ctx))
		return CRYPTO_AGENT_UNKNOWN;
	/* Connected here, so that each read and write waits at most 2 s:
	 * an agent that is stopped or stuck costs a command that long, and
	 * the key is then unwrapped as without a kept one. */
	if ((fd = agent_connect(socket_path)) < 0) {
		assuan_release(ctx);
		return CRYPTO_AGENT_UNKNOWN;
	}
	snprintf(cmd, sizeof(cmd), "KEYINFO %s", grip);
	assuan_ctx_set_system_hooks(ctx, &timed_hooks);
	e = assuan_socket_connect_fd(ctx, fd, 0); /* ctx owns fd now */
	if (!e)
		e = assuan_transact(ctx, cmd, NULL, NULL, NULL, NULL,
				    keyinfo_status, &a);
	assuan_release(ctx);
	return e ? CRYPTO_AGENT_UNKNOWN : a.use;
}
