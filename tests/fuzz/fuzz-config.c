/*
 * fuzz-config: config_parse() on arbitrary text (the input up to its first
 * NUL, as config_load() refuses files holding one), then every lookup the
 * program makes.  A failure must leave a message; a numeric value that
 * was accepted must be in its range.
 *
 * sources: util config
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct config cfg;
	struct err err = { 0, "" };

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&cfg, 0, sizeof(cfg));
	if (config_parse(&cfg, "fuzz", text, &err) < 0) {
		if (!err.msg[0])
			abort();
	} else {
		for (size_t i = 0; i < cfg.n; i++)
			if (!cfg.entries[i].key || !cfg.entries[i].value ||
			    config_get(&cfg, cfg.entries[i].key, NULL) == NULL)
				abort();
		for (size_t i = 0; i < cfg.nbinds; i++)
			if (!cfg.binds[i])
				abort();
		/* Accepted numeric values are in their ranges. */
		long d = config_get_long(&cfg, "policy.default_days", 7);
		long m = config_get_long(&cfg, "policy.max_days", 14);
		long b = config_get_long(&cfg, "store.busy_timeout", 10);
		if (d < 0 || d > 365 || m < 0 || m > 365 || b < 1 || b > 3600)
			abort();
		(void)config_get_bool(&cfg, "store.shared", false);
		(void)config_get(&cfg, "team.roster", "");
	}
	config_release(&cfg);
	free(text);
	return 0;
}
