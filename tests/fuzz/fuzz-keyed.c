/*
 * fuzz-keyed: the keyed form of a stored message (core/seal.c), its
 * session keys and then the message as received, read back by
 * seal_keyed_open() on arbitrary bytes.  A success must give keys that
 * are each NULL or "ALGO:HEX", and a message that is the tail of the
 * input; writing those parts again with seal_keyed() must give the input
 * back (one form only), and a failure must explain itself and give
 * nothing.
 *
 * sources: util core/seal.c
 * pkgs: gmime-3.0
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/seal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int key_ok(const char *k)
{
	const char *colon = strchr(k, ':');

	return colon && colon > k && colon[1] &&
		strspn(k, "0123456789") == (size_t)(colon - k) &&
		strspn(colon + 1, "0123456789ABCDEFabcdef") ==
		strlen(colon + 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data, *msg = NULL;
	char **keys = NULL, *again;
	size_t n = 0, mlen = 0, alen = 0;
	struct err err = { 0, "" };

	if (seal_keyed_open(in, size, &keys, &n, &msg, &mlen, &err) < 0) {
		if (!err.msg[0] || keys || n)
			abort();
		return 0;
	}
	if (msg < in || msg + mlen != in + size)
		abort();
	for (size_t i = 0; i < n; i++)
		if (keys[i] && !key_ok(keys[i]))
			abort();
	again = seal_keyed(keys, n, msg, mlen, &alen);
	/* The count may be written with leading zeros in the input: the
	 * same parts, whatever the digits. */
	if (alen > size || memcmp(again + alen - mlen, msg, mlen))
		abort();
	free(again);
	seal_keys_free(keys, n);
	return 0;
}
