/* config/: the config file: parsing, errors, ranges, missing files, who may
 * write it. */
#include "unit.h"
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "core/core.h"

static void test_config_parse(void **state)
{
	(void)state;
	struct config cfg;
	struct err err;
	const char *text = "# comment\n"
			   "[team]\n"
			   "\troster = AAAA BBBB\n"
			   "  Address = \"security@example.org\"\n"
			   "; another comment\n"
			   "[policy]\n"
			   "default_days = 9\n"
			   "strict = yes\n"
			   "bind reports A triage %i --state accepted\n"
			   "[policy]\n"
			   "default_days = 10\n";

	memset(&cfg, 0, sizeof(cfg));
	assert_int_equal(config_parse(&cfg, "t", text, &err), 0);
	assert_string_equal(config_get(&cfg, "team.roster", NULL), "AAAA BBBB");
	assert_string_equal(config_get(&cfg, "TEAM.address", NULL),
			    "security@example.org");
	assert_int_equal(config_get_long(&cfg, "policy.default_days", 7), 10);
	assert_int_equal(config_get_long(&cfg, "policy.max_days", 14), 14);
	assert_true(config_get_bool(&cfg, "policy.strict", false));
	assert_null(config_get(&cfg, "team.nothing", NULL));
	assert_int_equal(cfg.nbinds, 1);
	assert_string_equal(cfg.binds[0],
			    "reports A triage %i --state accepted");
	config_release(&cfg);
}

static void test_config_errors(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		const char *msg;
	} bad[] = {
		{ "key = value\n", "f:1: 'key' is not inside a [section]" },
		{ "[team\n", "f:1: malformed section header" },
		{ "[team]\nno equals here\n", "f:2: expected 'name = value'" },
		{ "[te am]\n", "f:1: invalid section name" },
		{ "[team]\nbad key = 1\n", "f:2: invalid key name" },
		/* Every numeric key has a range (it used to overflow). */
		{ "[policy]\ndefault_days = 99999999999999999999\n",
		  "f:2: policy.default_days '99999999999999999999': not a number of days from 0 to 365" },
		{ "[policy]\ndefault_days = 9223372036854775807\n",
		  "f:2: policy.default_days '9223372036854775807': not a number of days from 0 to 365" },
		{ "[policy]\ndefault_days = 366\n",
		  "f:2: policy.default_days '366': not a number of days from 0 to 365" },
		{ "[policy]\n\tmax_days = -1\n",
		  "f:2: policy.max_days '-1': not a number of days from 0 to 365" },
		{ "[policy]\nmax_days = -9223372036854775808\n",
		  "f:2: policy.max_days '-9223372036854775808': not a number of days from 0 to 365" },
		{ "[Policy]\nMax_Days = 7d\n",
		  "f:2: policy.max_days '7d': not a number of days from 0 to 365" },
		{ "[policy]\ndefault_days =\n",
		  "f:2: policy.default_days '': not a number of days from 0 to 365" },
		{ "[policy]\ndefault_days = \" 7\"\n",
		  "f:2: policy.default_days ' 7': not a number of days from 0 to 365" },
		{ "[store]\nbusy_timeout = 0\n",
		  "f:2: store.busy_timeout '0': not a number of seconds from 1 to 3600" },
		{ "[store]\nbusy_timeout = 3601\n",
		  "f:2: store.busy_timeout '3601': not a number of seconds from 1 to 3600" },
		{ "[team]\nkey-cache = 86401\n",
		  "f:2: team.key-cache '86401': not a number of seconds from 0 to 86400, or auto" },
		{ "[team]\nkey-cache = automatic\n",
		  "f:2: team.key-cache 'automatic': not a number of seconds from 0 to 86400, or auto" },
		{ "[team]\nkey-cache = -1\n",
		  "f:2: team.key-cache '-1': not a number of seconds from 0 to 86400, or auto" },
		{ "[policy]\ndefault_days = 1\x1b[2J\n",
		  "f:2: policy.default_days '1^[[2J': not a number of days from 0 to 365" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct config cfg;
		struct err err;
		memset(&cfg, 0, sizeof(cfg));
		assert_int_equal(config_parse(&cfg, "f", bad[i].text, &err),
				 ERR_INVALID);
		assert_string_equal(err.msg, bad[i].msg);
		config_release(&cfg);
	}
}

/* The edges of each range are accepted. */
static void test_config_ranges_edges(void **state)
{
	(void)state;
	struct config cfg;
	struct err err;

	memset(&cfg, 0, sizeof(cfg));
	assert_int_equal(
		config_parse(&cfg, "f",
			     "[policy]\ndefault_days = 0\n"
			     "max_days = 365\n[store]\nbusy_timeout = 1\n",
			     &err),
		0);
	assert_int_equal(config_get_long(&cfg, "policy.default_days", 7), 0);
	assert_int_equal(config_get_long(&cfg, "policy.max_days", 14), 365);
	assert_int_equal(config_get_long(&cfg, "store.busy_timeout", 10), 1);
	config_release(&cfg);
	memset(&cfg, 0, sizeof(cfg));
	assert_int_equal(
		config_parse(&cfg, "f",
			     "[policy]\ndefault_days = 365\n"
			     "max_days = 007\n[store]\nbusy_timeout = 3600\n",
			     &err),
		0);
	assert_int_equal(config_get_long(&cfg, "policy.max_days", 14), 7);
	assert_int_equal(config_get_long(&cfg, "store.busy_timeout", 10), 3600);
	config_release(&cfg);
	/* team.key-cache: its word as well as its numbers. */
	memset(&cfg, 0, sizeof(cfg));
	assert_int_equal(
		config_parse(&cfg, "f", "[team]\nkey-cache = Auto\n", &err), 0);
	assert_string_equal(config_get(&cfg, "team.key-cache", NULL), "Auto");
	config_release(&cfg);
	memset(&cfg, 0, sizeof(cfg));
	assert_int_equal(config_parse(&cfg, "f", "[team]\nkey-cache = 86400\n",
				      &err),
			 0);
	assert_int_equal(config_get_long(&cfg, "team.key-cache", 0), 86400);
	config_release(&cfg);
}

static void test_config_missing_file(void **state)
{
	(void)state;
	struct config cfg;
	struct err err;
	assert_int_equal(config_load(&cfg, "/nonexistent/secteam/config", false,
				     &err),
			 0);
	assert_int_equal(cfg.n, 0);
	assert_int_equal(config_load(&cfg, "/nonexistent/secteam/config", true,
				     &err),
			 ERR_NOTFOUND);
	assert_non_null(strstr(err.msg, "/nonexistent/secteam/config"));
}

/* A config anyone can write is refused (it names the commands
 * secteam-tui runs); the same file 0644 loads. */
static void test_config_writable(void **state)
{
	(void)state;
	char dir[] = "/tmp/secteam-config-XXXXXX", *path;
	struct config cfg;
	struct err err = { 0, "" };
	FILE *f;

	assert_non_null(mkdtemp(dir));
	path = xasprintf("%s/config", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs("[officer]\n\tname = A\n", f);
	fclose(f);
	assert_int_equal(chmod(path, 0666), 0);
	assert_int_equal(config_load(&cfg, path, true, &err), ERR_REFUSED);
	assert_non_null(strstr(err.msg, path));
	assert_non_null(strstr(err.msg, "refusing the config"));
	assert_non_null(strstr(err.msg, "is writable by others (mode 0666;"));
	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(config_load(&cfg, path, true, &err), 0);
	assert_string_equal(config_get(&cfg, "officer.name", ""), "A");
	config_release(&cfg);
	/* Not a regular file, and root's: /dev/null is an empty config. */
	assert_int_equal(config_load(&cfg, "/dev/null", true, &err), 0);
	assert_int_equal(cfg.n, 0);
	config_release(&cfg);
	unlink(path);
	rmdir(dir);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_parse),
		cmocka_unit_test(test_config_errors),
		cmocka_unit_test(test_config_ranges_edges),
		cmocka_unit_test(test_config_missing_file),
		cmocka_unit_test(test_config_writable),
	};
	return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
