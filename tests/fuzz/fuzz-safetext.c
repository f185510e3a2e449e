/*
 * fuzz-safetext: the display sanitizer, safe_text(), with each flag set.
 * Its output must be valid UTF-8 holding no C0 control (but tab and newline
 * when kept), no DEL, no C1 control, no ESC, no bidi or zero-width control,
 * and sanitizing it again must change nothing.  The list of forbidden code
 * points is tests/lib/safetext-oracle.h, not safe_is_hostile_cp().
 *
 * sources: util
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "tests/lib/safetext-oracle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned all[] = {
		0,
		SAFE_KEEP_NEWLINE,
		SAFE_KEEP_TAB,
		SAFE_KEEP_NEWLINE | SAFE_KEEP_TAB,
	};
	/* An exact-size copy without a terminating NUL: len is authoritative. */
	char *in = malloc(size ? size : 1);

	if (!in)
		return 0;
	memcpy(in, data, size);
	for (size_t f = 0; f < sizeof(all) / sizeof(all[0]); f++) {
		char *once = safe_text(in, size, all[f]);
		size_t n = strlen(once);
		if (safetext_violation((const unsigned char *)once, n, all[f]))
			abort();
		char *twice = safe_text(once, n, all[f]);
		if (strcmp(once, twice) != 0)
			abort();
		free(twice);
		free(once);
	}
	free(in);
	return 0;
}
