/*
 * The keyed form of a message (see seal.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/seal.h"

#define KEYED_MAGIC "secteam-session-keys "
#define KEYED_MAX 4096 /* keys: one per decryption (inline blocks) */
#define KEY_MAX 256 /* "ALGO:HEX": 67 characters for AES-256 */

char *seal_keyed(char *const *keys, size_t n, const char *raw, size_t len,
		 size_t *out_len)
{
	char head[sizeof(KEYED_MAGIC) + 24];
	size_t total, at;
	char *buf;

	/* Sized first: a buffer grown by copies would leave the message
	 * and its keys behind in freed memory. */
	at = (size_t)snprintf(head, sizeof(head), KEYED_MAGIC "%zu\n", n);
	total = at + len;
	for (size_t i = 0; i < n; i++)
		total += (keys[i] ? strlen(keys[i]) : 1) + 1;
	buf = xmalloc(total + 1);
	memcpy(buf, head, at);
	for (size_t i = 0; i < n; i++) {
		size_t kl = keys[i] ? strlen(keys[i]) : 1;
		memcpy(buf + at, keys[i] ? keys[i] : "-", kl);
		at += kl;
		buf[at++] = '\n';
	}
	memcpy(buf + at, raw, len);
	buf[total] = '\0';
	*out_len = total;
	return buf;
}

void seal_keys_free(char **keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (keys[i])
			wipe_free(keys[i], strlen(keys[i]));
	free(keys);
}

/* A session key as gpg writes one: digits, a colon, hex digits. */
static bool key_ok(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && p[i] >= '0' && p[i] <= '9')
		i++;
	if (!i || i >= n || p[i] != ':' || i + 1 == n)
		return false;
	for (i++; i < n; i++)
		if (!p[i] || !strchr("0123456789ABCDEFabcdef", p[i]))
			return false;
	return true;
}

int seal_keyed_open(const char *buf, size_t len, char ***keys, size_t *nkeys,
		    const char **raw, size_t *raw_len, struct err *err)
{
	const char *p = buf, *end = buf + len, *nl;
	unsigned long long n = 0;
	char **k;

	*keys = NULL;
	*nkeys = 0;
	if (len < sizeof(KEYED_MAGIC) - 1 ||
	    memcmp(buf, KEYED_MAGIC, sizeof(KEYED_MAGIC) - 1))
		return err_setc(err, ERR_INVALID,
				"no session keys before the message");
	p += sizeof(KEYED_MAGIC) - 1;
	if (!(nl = memchr(p, '\n', (size_t)(end - p))) || nl == p)
		return err_setc(err, ERR_INVALID,
				"a damaged count of session keys");
	for (; p < nl; p++) {
		if (*p < '0' || *p > '9' || n > KEYED_MAX)
			return err_setc(err, ERR_INVALID,
					"a damaged count of session keys");
		n = n * 10 + (unsigned)(*p - '0');
	}
	if (n > KEYED_MAX)
		return err_setc(err, ERR_INVALID, "over %d session keys",
				KEYED_MAX);
	p = nl + 1;
	k = xcalloc((size_t)n + 1, sizeof(*k));
	for (size_t i = 0; i < n; i++) {
		if (!(nl = memchr(p, '\n', (size_t)(end - p))) ||
		    (size_t)(nl - p) > KEY_MAX ||
		    (!(nl - p == 1 && *p == '-') &&
		     !key_ok(p, (size_t)(nl - p)))) {
			seal_keys_free(k, i);
			return err_setc(err, ERR_INVALID,
					"session key %zu is damaged", i + 1);
		}
		if (*p != '-')
			k[i] = xstrndup(p, (size_t)(nl - p));
		p = nl + 1;
	}
	*keys = k;
	*nkeys = (size_t)n;
	*raw = p;
	*raw_len = (size_t)(end - p);
	return 0;
}
