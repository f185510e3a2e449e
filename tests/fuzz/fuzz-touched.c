/*
 * fuzz-touched: touched_files() on arbitrary report text (diffs, quoted
 * replies, running text).  Checks the promises of touched/touched.h: no path
 * holds a ".." component, a control character or a leading '/', none is
 * empty or longer than TOUCHED_MAX_PATH, none repeats, and the array is
 * NULL-terminated.
 *
 * sources: util touched
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "touched/touched.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int has_dotdot(const char *p)
{
	for (const char *s = p; (s = strstr(s, "..")) != NULL; s++)
		if ((s == p || s[-1] == '/') && (s[2] == '\0' || s[2] == '/'))
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size ? size : 1);
	char **paths = NULL;
	size_t n;

	if (!text)
		return 0;
	memcpy(text, data, size);
	n = touched_files(text, size, &paths);
	if (!paths || paths[n] != NULL || n > TOUCHED_MAX_PATHS)
		abort();
	for (size_t i = 0; i < n; i++) {
		const char *p = paths[i];
		size_t len = strlen(p);
		if (!len || len > TOUCHED_MAX_PATH || p[0] == '/' ||
		    has_dotdot(p))
			abort();
		for (size_t k = 0; k < len; k++)
			if ((unsigned char)p[k] < 0x20 || p[k] == 0x7f)
				abort();
		/* Duplicates are checked on small results only (quadratic). */
		if (n < 200)
			for (size_t j = 0; j < i; j++)
				if (!strcmp(paths[j], p))
					abort();
	}
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	free(text);
	return 0;
}
