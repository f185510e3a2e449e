/*
 * The key IDs that can decrypt for a person: used to tell whether a
 * received message is already encrypted to the whole team roster, in
 * which case it is kept as received instead of being encrypted again.
 */
#include <stdlib.h>
#include <string.h>

#include "crypto/crypto-int.h"

int crypto_encryption_subkey_ids(struct crypto *c, const char *who,
				 char ***ids, size_t *n, struct err *err)
{
	gpgme_key_t key;
	gpgme_subkey_t sk;
	int r;

	*ids = NULL;
	*n = 0;
	if ((r = crypto_resolve_encryption_key(c, who, &key, err)) < 0)
		return r;
	for (sk = key->subkeys; sk; sk = sk->next) {
		if (!sk->can_encrypt || sk->revoked || sk->expired ||
		    sk->disabled || sk->invalid || !sk->keyid)
			continue;
		*ids = xrealloc(*ids, (*n + 1) * sizeof(**ids));
		(*ids)[(*n)++] = xstrdup(sk->keyid);
	}
	gpgme_key_unref(key);
	return 0;
}
