/*
 * The config file, in the format git uses:
 *
 *   [team]
 *       roster = 0123...ABCD 4567...EF01
 *       address = security@kernel.org
 *   [policy]
 *       default_days = 7
 *   bind reports K :triage --state triaged
 *
 * Keys are case-insensitive "section.name"; values run to the end of the
 * line, trimmed, and may be double-quoted.  `bind` lines stand outside
 * sections and are kept in order for the UI.  Numeric keys have a range
 * (ranges[] below), checked as the file is read.  Errors name file and
 * line.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"

static void add_entry(struct config *cfg, const char *key, const char *value)
{
	cfg->entries =
		xrealloc(cfg->entries, (cfg->n + 1) * sizeof(*cfg->entries));
	cfg->entries[cfg->n].key = str_lower(xstrdup(key));
	cfg->entries[cfg->n].value = xstrdup(value);
	cfg->n++;
}

/*
 * Every numeric key and its range.  A value that is not a whole number in
 * range is refused when the file is read, naming file, line, key, value
 * and range, so no later computation (policy dates are days times 86400
 * added to a day number) can overflow or wrap.
 */
static const struct {
	const char *key;
	long min, max;
	const char *unit;
	const char *word; /* a word also taken (NULL: none) */
} ranges[] = {
	{ "policy.default_days", 0, 365, "days", NULL },
	{ "policy.max_days", 0, 365, "days", NULL },
	{ "store.busy_timeout", 1, 3600, "seconds", NULL },
	{ "team.key-cache", 0, 86400, "seconds", "auto" },
};

/* 0 when key is not numeric or value is in its range; else ERR_INVALID. */
static int check_range(const char *name, int lineno, const char *key,
		       const char *value, struct err *err)
{
	for (size_t i = 0; i < ARRAY_SIZE(ranges); i++) {
		const char *p = value;
		long n = 0;
		bool ok = *p != '\0';

		if (str_cmp_ci(ranges[i].key, key))
			continue;
		if (ranges[i].word && !str_cmp_ci(value, ranges[i].word))
			return 0;
		if (*p == '-')
			p++;
		ok = ok && *p;
		/* Digit by digit, so that no value can overflow on the way. */
		for (; ok && *p; p++) {
			if (*p < '0' || *p > '9' || n > ranges[i].max)
				ok = false;
			else
				n = n * 10 + (*p - '0');
		}
		if (*value == '-')
			n = -n;
		if (!ok || n < ranges[i].min || n > ranges[i].max) {
			char *v = safe_str(value);
			int r = err_setc(
				err, ERR_INVALID,
				"%s:%d: %s '%s': not a number of %s from %ld to %ld%s%s",
				name, lineno, ranges[i].key, v, ranges[i].unit,
				ranges[i].min, ranges[i].max,
				ranges[i].word ? ", or " : "",
				ranges[i].word ? ranges[i].word : "");
			free(v);
			return r;
		}
	}
	return 0;
}

static bool valid_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
			return false;
	return true;
}

/* "[name]": the section of the lines that follow, into section. */
static int parse_section(char *s, char *section, size_t size, const char *name,
			 int lineno, struct err *err)
{
	char *end = strchr(s, ']');
	if (!end || end[1] || end - s - 1 >= (long)size)
		return err_setc(err, ERR_INVALID,
				"%s:%d: malformed section header", name,
				lineno);
	*end = '\0';
	snprintf(section, size, "%s", str_trim(s + 1));
	if (!valid_name(section))
		return err_setc(err, ERR_INVALID, "%s:%d: invalid section name",
				name, lineno);
	return 0;
}

/* "key = value" (the value may be double-quoted) inside section. */
static int parse_entry(struct config *cfg, char *s, const char *section,
		       const char *name, int lineno, struct err *err)
{
	char *eq = strchr(s, '=');
	if (!eq)
		return err_setc(err, ERR_INVALID,
				"%s:%d: expected 'name = value'", name, lineno);
	*eq = '\0';
	char *key = str_trim(s), *value = str_trim(eq + 1);
	size_t vl = strlen(value);
	if (vl >= 2 && value[0] == '"' && value[vl - 1] == '"') {
		value[vl - 1] = '\0';
		value++;
	}
	if (!valid_name(key))
		return err_setc(err, ERR_INVALID, "%s:%d: invalid key name",
				name, lineno);
	if (!*section)
		return err_setc(err, ERR_INVALID,
				"%s:%d: '%s' is not inside a [section]", name,
				lineno, key);
	char *full = xasprintf("%s.%s", section, key);
	int r = check_range(name, lineno, full, value, err);
	if (r == 0)
		add_entry(cfg, full, value);
	free(full);
	return r;
}

int config_parse(struct config *cfg, const char *name, const char *text,
		 struct err *err)
{
	char *copy = xstrdup(text), *line, *next, section[128] = "";
	int lineno = 0, r = 0;

	for (line = copy; line && r == 0; line = next) {
		char *s;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		s = str_trim(line);
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			r = parse_section(s, section, sizeof(section), name,
					  lineno, err);
		} else if (!strncmp(s, "bind", 4) &&
			   isspace((unsigned char)s[4])) {
			cfg->binds = xrealloc(cfg->binds,
					      (cfg->nbinds + 1) *
						      sizeof(*cfg->binds));
			cfg->binds[cfg->nbinds++] = xstrdup(str_trim(s + 4));
		} else {
			r = parse_entry(cfg, s, section, name, lineno, err);
		}
	}
	free(copy);
	return r;
}

/*
 * Whoever can write the config can make secteam-tui run a command as its
 * user (forward.sendmail), encrypt reports to their key (team.roster) or
 * send them to their server (store.url): as ssh does with its own, the
 * file, its folder and the folders above must be the user's or root's,
 * and writable by nobody else (open_trusted).
 */
static int config_read(const char *path, char **text, size_t *len,
		       struct err *err)
{
	int fd, r;

	if (!strcmp(path, "-"))
		return read_file(path, 1 << 20, text, len, err);
	if ((fd = open_trusted(path, err)) < 0) {
		if (fd == ERR_REFUSED)
			err_prefix(err, "refusing the config '%s'", path);
		return fd;
	}
	r = read_fd(fd, path, 1 << 20, text, len, err);
	close(fd);
	return r;
}

int config_load(struct config *cfg, const char *path, bool must_exist,
		struct err *err)
{
	char *text;
	size_t len;
	int r;

	memset(cfg, 0, sizeof(*cfg));
	r = config_read(path, &text, &len, err);
	if (r == ERR_NOTFOUND && !must_exist)
		return 0;
	if (r < 0)
		return r;
	if (memchr(text, '\0', len)) {
		free(text);
		return err_setc(err, ERR_INVALID, "%s: contains a NUL byte",
				path);
	}
	r = config_parse(cfg, path, text, err);
	free(text);
	return r;
}

void config_release(struct config *cfg)
{
	for (size_t i = 0; i < cfg->n; i++) {
		free(cfg->entries[i].key);
		free(cfg->entries[i].value);
	}
	for (size_t i = 0; i < cfg->nbinds; i++)
		free(cfg->binds[i]);
	free(cfg->entries);
	free(cfg->binds);
	memset(cfg, 0, sizeof(*cfg));
}

const char *config_get(const struct config *cfg, const char *key,
		       const char *def)
{
	if (!cfg)
		return def;
	for (size_t i = cfg->n; i-- > 0;)
		if (!str_cmp_ci(cfg->entries[i].key, key))
			return cfg->entries[i].value;
	return def;
}

long config_get_long(const struct config *cfg, const char *key, long def)
{
	const char *v = config_get(cfg, key, NULL);
	char *end;
	long n;

	if (!v)
		return def;
	n = strtol(v, &end, 10);
	return *v && !*end ? n : def;
}

bool config_get_bool(const struct config *cfg, const char *key, bool def)
{
	const char *v = config_get(cfg, key, NULL);

	if (!v)
		return def;
	if (!str_cmp_ci(v, "true") || !str_cmp_ci(v, "yes") ||
	    !strcmp(v, "1") || !str_cmp_ci(v, "on"))
		return true;
	if (!str_cmp_ci(v, "false") || !str_cmp_ci(v, "no") ||
	    !strcmp(v, "0") || !str_cmp_ci(v, "off"))
		return false;
	return def;
}

char *config_default_path(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");

	if (xdg && *xdg == '/')
		return xasprintf("%s/secteam/config", xdg);
	return xasprintf("%s/.config/secteam/config",
			 home && *home ? home : ".");
}
