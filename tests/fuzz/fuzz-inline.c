/*
 * fuzz-inline: inline-PGP armored block detection, pgp_find_blocks(), on
 * arbitrary text.  Checks what callers rely on: blocks lie inside the text,
 * in order, without overlap, and each starts with a BEGIN armor line.
 *
 * sources: util mail
 * pkgs: gmime-3.0
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mail/mail.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* An exact-size copy, so ASan sees any read past the end. */
	char *text = malloc(size ? size : 1);
	struct pgp_block *b = NULL;
	bool outside = false;
	size_t n, prev_end = 0;

	if (!text)
		return 0;
	memcpy(text, data, size);
	n = pgp_find_blocks(text, size, &b, &outside);
	for (size_t i = 0; i < n; i++) {
		if (b[i].start >= b[i].end || b[i].end > size ||
		    b[i].start < prev_end)
			abort();
		if (size - b[i].start < 15 ||
		    memcmp(text + b[i].start, "-----BEGIN PGP", 14) != 0)
			abort();
		if (b[i].kind != PGP_BLOCK_MESSAGE &&
		    b[i].kind != PGP_BLOCK_SIGNED)
			abort();
		prev_end = b[i].end;
	}
	free(b);
	free(text);
	return 0;
}
