/*
 * secteam-gpg: gpg, told to be quiet.
 *
 * GPGME runs gpg with the options it needs (--batch, --status-fd, ...)
 * and has no way to add --quiet, which is not about output alone: a
 * decryption that is not quiet looks up the recipient's key to say
 * "encrypted with ... key", and on ed25519 keys checking its self-
 * signatures costs gpg about a third of its work (callgrind: 62 million
 * instructions a message against 46).  GPGME reads only gpg's status
 * lines, which --quiet leaves alone.  crypto/crypto.c points GPGME here
 * when this program sits beside secteam-tui (or in ../lib/secteam-tui/)
 * and nobody but its owner (the user or root) can have written it.
 *
 * It runs SECTEAM_GPG, the gpg that GPGME finds on Debian, and nothing
 * else; crypto.c uses it only when GPGME found that very gpg.  Static,
 * so that starting it costs no dynamic linking.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef SECTEAM_GPG
#define SECTEAM_GPG "/usr/bin/gpg"
#endif

int main(int argc, char **argv)
{
	char **av = calloc((size_t)argc + 2, sizeof(*av));

	if (!av || argc < 1) {
		fputs("secteam-gpg: out of memory\n", stderr);
		return 2;
	}
	av[0] = "gpg";
	av[1] = "--quiet";
	for (int i = 1; i < argc; i++)
		av[i + 1] = argv[i];
	execv(SECTEAM_GPG, av);
	fprintf(stderr, "secteam-gpg: cannot run %s: %s\n", SECTEAM_GPG,
		strerror(errno));
	return 2;
}
