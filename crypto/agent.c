/*
 * What gpg-agent would do with a secret key, asked of the agent itself
 * over its socket (the Assuan protocol's KEYINFO), without running gpg:
 * team.key-cache = auto (core/session.c) keeps the unwrapped team key only
 * while the agent would open the officer's key without asking anything.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "crypto/crypto-int.h"

/* GnuPG's own tool for where its sockets are (the rules differ with
 * /run/user and a home of its own): run by its full path. */
#define GPGCONF "/usr/bin/gpgconf"

extern char **environ;

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
	char a0[] = "gpgconf", a1[] = "--homedir", a3[] = "--list-dirs",
	     a4[] = "agent-socket";
	char *argv[] = { a0, a1, c->home, a3, a4, NULL };
	posix_spawn_file_actions_t fa;
	int fd[2], status = 0;
	pid_t pid;
	char buf[PATH_MAX + 2];
	size_t len = 0;
	ssize_t r;

	if (pipe2(fd, O_CLOEXEC) < 0) {
		err_setc(err, ERR_IO, "cannot run " GPGCONF ": %s",
			 strerror(errno));
		return NULL;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	r = posix_spawn(&pid, GPGCONF, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[1]);
	if (r != 0) {
		close(fd[0]);
		err_setc(err, ERR_IO, "cannot run " GPGCONF ": %s",
			 strerror((int)r));
		return NULL;
	}
	while (len < sizeof(buf) &&
	       ((r = read(fd[0], buf + len, sizeof(buf) - len)) > 0 ||
		(r < 0 && errno == EINTR)))
		if (r > 0)
			len += (size_t)r;
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	/* One absolute path and its newline, nothing else. */
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || len < 3 ||
	    len >= sizeof(buf) || buf[0] != '/' || buf[len - 1] != '\n' ||
	    memchr(buf, '\0', len)) {
		err_setc(err, ERR_CRYPTO,
			 GPGCONF " gave no agent socket for '%s'", c->home);
		return NULL;
	}
	buf[len - 1] = '\0';
	return xstrdup(buf);
}

/* One line of the agent's answer into line (at most size - 1 bytes, the
 * rest of a longer line dropped), from the bytes buffered in *b; false at
 * the end, an error or the time limit (SO_RCVTIMEO). */
struct reader {
	int fd;
	char buf[1024];
	size_t have, at;
};

static bool read_line(struct reader *rd, char *line, size_t size)
{
	size_t n = 0;

	for (;;) {
		if (rd->at == rd->have) {
			ssize_t r = read(rd->fd, rd->buf, sizeof(rd->buf));

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				return false;
			rd->have = (size_t)r;
			rd->at = 0;
		}
		char ch = rd->buf[rd->at++];

		if (ch == '\n') {
			line[n] = '\0';
			return true;
		}
		if (n + 1 < size)
			line[n++] = ch;
	}
}

static bool send_all(int fd, const char *s)
{
	size_t len = strlen(s);

	while (len) {
		ssize_t r = send(fd, s, len, MSG_NOSIGNAL);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		s += r;
		len -= (size_t)r;
	}
	return true;
}

/*
 * The answer to KEYINFO (gpg-agent's, since 2.1):
 *   S KEYINFO <grip> <type> <serial> <idstr> <cached> <protection> ...
 * type D: a key on disk, T: on a card (its PIN or touch may be asked
 * every time), X: unknown; cached 1: its passphrase is in the agent's
 * cache; protection C: no passphrase, P: one.
 */
enum crypto_agent_use crypto_agent_keyinfo(const char *line, const char *grip)
{
	char f[6][48];
	int n = sscanf(line, "S KEYINFO %47s %47s %47s %47s %47s %47s", f[0],
		       f[1], f[2], f[3], f[4], f[5]);

	if (n != 6 || strcmp(f[0], grip))
		return CRYPTO_AGENT_UNKNOWN;
	if (strcmp(f[1], "D"))
		return CRYPTO_AGENT_ASKS;
	if (!strcmp(f[5], "C") || (!strcmp(f[5], "P") && !strcmp(f[4], "1")))
		return CRYPTO_AGENT_SILENT;
	return CRYPTO_AGENT_ASKS;
}

enum crypto_agent_use crypto_agent_key_use(const char *socket_path,
					   const char *grip)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { 2, 0 };
	struct reader rd = { .fd = -1 };
	enum crypto_agent_use use = CRYPTO_AGENT_UNKNOWN;
	char line[512], cmd[64];
	struct stat st;

	/* Only the officer's own agent is asked: a socket of this user. */
	if (!socket_path || strlen(socket_path) >= sizeof(sa.sun_path) ||
	    strlen(grip) != 40 ||
	    strspn(grip, "0123456789ABCDEFabcdef") != 40 ||
	    lstat(socket_path, &st) < 0 || !S_ISSOCK(st.st_mode) ||
	    st.st_uid != geteuid())
		return CRYPTO_AGENT_UNKNOWN;
	memcpy(sa.sun_path, socket_path, strlen(socket_path) + 1);
	rd.fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (rd.fd < 0)
		return CRYPTO_AGENT_UNKNOWN;
	setsockopt(rd.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(rd.fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(rd.fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    !read_line(&rd, line, sizeof(line)) || strncmp(line, "OK", 2))
		goto out;
	snprintf(cmd, sizeof(cmd), "KEYINFO %s\n", grip);
	if (!send_all(rd.fd, cmd))
		goto out;
	/* Status and comment lines, then OK or ERR. */
	while (read_line(&rd, line, sizeof(line))) {
		if (!strncmp(line, "S KEYINFO ", 10))
			use = crypto_agent_keyinfo(line, grip);
		else if (!strcmp(line, "OK") || !strncmp(line, "OK ", 3))
			break;
		else if (!strncmp(line, "ERR", 3)) {
			use = CRYPTO_AGENT_UNKNOWN;
			break;
		}
	}
	if (strncmp(line, "OK", 2))
		use = CRYPTO_AGENT_UNKNOWN;
	send_all(rd.fd, "BYE\n");
out:
	close(rd.fd);
	return use;
}
