/*
 * stamp.c: the keyring's state, for what follows it.
 *
 * A verdict is the keyring's as much as the message's: a key imported,
 * certified or revoked after the mail came changes it.  What keeps a
 * verdict (the officer's verdict cache) keys it to two stamps: the
 * keyring's files as they are now (their change times and sizes), cheap
 * to take on every read, and the signing key's own state (its presence,
 * validity, flags and user IDs, hashed), which says whether a change of
 * the keyring touched that key at all.  A keyring that changed also
 * forgets the signing keys this process remembered.
 */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "crypto/crypto-int.h"

static void add_file(struct sbuf *sb, const char *home, const char *name)
{
	char *path = xasprintf("%s/%s", home, name);
	struct stat st;

	if (stat(path, &st) == 0)
		sbuf_addf(sb, "%s:%lld.%09ld:%lld;", name,
			  (long long)st.st_mtim.tv_sec,
			  (long)st.st_mtim.tv_nsec, (long long)st.st_size);
	else
		sbuf_addf(sb, "%s:-;", name);
	free(path);
}

static void forget_keys(struct crypto *c)
{
	for (size_t i = 0; i < c->nkeys; i++) {
		struct crypto_sig s = { .uids = c->keys[i].uids,
					.nuids = c->keys[i].nuids };

		free(c->keys[i].sigfpr);
		free(c->keys[i].fpr);
		crypto_sig_release(&s);
	}
	c->nkeys = 0;
}

char *crypto_keyring_stamp(struct crypto *c)
{
	struct sbuf sb = SBUF_INIT;

	sbuf_addf(&sb, "%s;", c->home);
	add_file(&sb, c->home, "pubring.kbx");
	add_file(&sb, c->home, "pubring.gpg");
	add_file(&sb, c->home, "trustdb.gpg");
	if (c->stamp && strcmp(c->stamp, sb.buf))
		forget_keys(c);
	free(c->stamp);
	c->stamp = xstrdup(sb.buf);
	return sbuf_detach(&sb, NULL);
}

char *crypto_key_state(struct crypto *c, const char *fpr)
{
	unsigned char h[16];
	char hex[2 * sizeof(h) + 1];
	struct sbuf sb = SBUF_INIT;
	gpgme_key_t key = NULL;

	if (!fpr || !*fpr)
		return xstrdup("none");
	crypto_ctx_reset(c);
	if (gpgme_op_keylist_start(c->ctx, fpr, 0) ||
	    gpgme_op_keylist_next(c->ctx, &key)) {
		gpgme_op_keylist_end(c->ctx);
		return xstrdup("absent");
	}
	gpgme_op_keylist_end(c->ctx);
	sbuf_addf(&sb, "%d%d%d%d%d|", key->revoked, key->expired, key->disabled,
		  key->invalid, (int)key->owner_trust);
	for (gpgme_subkey_t s = key->subkeys; s; s = s->next)
		sbuf_addf(&sb, "%s:%d%d%d%d:%ld|", s->fpr ? s->fpr : "-",
			  s->revoked, s->expired, s->disabled, s->invalid,
			  (long)s->expires);
	for (gpgme_user_id_t u = key->uids; u; u = u->next)
		sbuf_addf(&sb, "%d%d%d:%s|", u->revoked, u->invalid,
			  (int)u->validity, u->uid ? u->uid : "");
	gpgme_key_unref(key);
	/* Hashed: the cache holds no user ID. */
	crypto_generichash(h, sizeof(h), (const unsigned char *)sb.buf, sb.len,
			   NULL, 0);
	sbuf_release(&sb);
	sodium_bin2hex(hex, sizeof(hex), h, sizeof(h));
	return xasprintf("key:%s", hex);
}
