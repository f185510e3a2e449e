/*
 * Configuration: the key = value file git uses ([section] headers, `#`
 * and `;` comments), at $XDG_CONFIG_HOME/secteam/config or --config FILE.
 * Keys are "section.name" (team.roster, policy.default_days,
 * kernel.tree, store.shared_group ...).  `bind VIEW KEY COMMAND` lines
 * are kept in order for the UI.  A library of its own: it depends on
 * util/ only; core/ loads it for every command, main.c and tui/ read it
 * through core.  Files:
 *   config.c    parsing (sections, keys, ranges of numeric keys, bind
 *               lines), lookups, the default path
 */
#ifndef SECTEAM_CONFIG_H
#define SECTEAM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "util/util.h"

struct config_entry {
	char *key; /* "section.name", lowercase */
	char *value;
};

struct config {
	struct config_entry *entries;
	size_t n;
	char **binds; /* raw "VIEW KEY COMMAND" lines */
	size_t nbinds;
};

/* Loads path; a missing file is an empty config unless must_exist. */
int config_load(struct config *cfg, const char *path, bool must_exist,
		struct err *err);
/* Parses text (for tests and fuzzing); name is used in messages.  A
 * numeric key (policy.default_days, policy.max_days: 0 to 365 days;
 * store.busy_timeout: 1 to 3600 seconds) whose value is not a whole
 * number in its range is refused (ERR_INVALID, naming key, value, range). */
int config_parse(struct config *cfg, const char *name, const char *text,
		 struct err *err);
void config_release(struct config *cfg);
/* The last value of key, or def. */
const char *config_get(const struct config *cfg, const char *key,
		       const char *def);
long config_get_long(const struct config *cfg, const char *key, long def);
bool config_get_bool(const struct config *cfg, const char *key, bool def);
/* The default path: $XDG_CONFIG_HOME/secteam/config (caller frees). */
char *config_default_path(void);

#endif
