/*
 * `export (ID... | --all | --state S) --format F [--with-notes]
 *  [-o FILE [--mode MODE]]`: writes the chosen reports in one format
 * (export.h's table) to standard output or FILE.  FILE is replaced whole
 * (util's atomic_file: a new file beside it, renamed into place), never
 * written through a symbolic link or into a file another user made; it
 * is 0600 unless --mode says otherwise.  Exports read only stored data
 * (no decryption), withhold the reporter's identity unless credit
 * consent is recorded (bodies and attachments are never exported), leave
 * internal notes out unless --with-notes, and warn on stderr for each
 * report still under embargo.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/core.h"
#include "export/export.h"

struct ids {
	int64_t *v;
	size_t n;
};

static int add_id(const struct report *r, void *data)
{
	struct ids *ids = data;

	ids->v = xrealloc(ids->v, (ids->n + 1) * sizeof(*ids->v));
	ids->v[ids->n++] = r->id;
	return 0;
}

static bool valid_cve_id(const char *s)
{
	regex_t re;
	bool ok;

	if (regcomp(&re, "^CVE-[0-9]{4}-[0-9]{4,19}$",
		    REG_EXTENDED | REG_NOSUB))
		return false;
	ok = regexec(&re, s, 0, NULL, 0) == 0;
	regfree(&re);
	return ok;
}

/* "0644" or "644": the mode, or -1 when s is not octal up to 0777. */
static int parse_mode(const char *s)
{
	int m = 0;

	if (!*s || strlen(s) > 4)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '7')
			return -1;
		m = m * 8 + (*s - '0');
	}
	return m <= 0777 ? m : -1;
}

/* The command's usage, then the formats it writes. */
static int usage(struct cmd_ctx *ctx)
{
	cmd_usage(ctx, "export");
	export_usage(ctx->errout);
	return CMD_USAGE;
}

/* --format FORMAT names an exporter of export_table[]. */
static int check_format(const char *format, struct err *err)
{
	char *names;

	if (export_find(format))
		return 0;
	names = export_names(", ");
	err_setc(err, ERR_INVALID, "unknown export format '%s' (%s)", format,
		 names);
	free(names);
	return -1;
}

static int cmd_export_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct export_opts eo = { NULL, false, ctx->errout };
	const char *format = NULL, *state = NULL, *path = NULL,
		   *mode_arg = NULL;
	const struct exporter *ex;
	struct ids ids = { NULL, 0 };
	bool all = false, have_ids;
	int c, mode = 0600, rc;

	while ((c = cmd_getopt(ctx, argc, argv)) != -1) {
		switch (c) {
		case 'a':
			all = true;
			break;
		case 's':
			state = optarg;
			break;
		case 'f':
			format = optarg;
			break;
		case 'o':
			path = optarg;
			break;
		case 'c':
			eo.cve_id = optarg;
			break;
		case 'n':
			eo.with_notes = true;
			break;
		case 'm':
			mode_arg = optarg;
			break;
		default:
			return usage(ctx);
		}
	}
	/* The reports: --all, --state, or ids (the first may be the
	 * caller's report, resolved by the runner). */
	have_ids = optind < argc || (ctx->target > 0 && !all && !state);
	if ((all + (state != NULL) + have_ids) != 1)
		return usage(ctx);
	ex = export_find(format); /* one, checked by cmd_getopt */
	if (mode_arg && (mode = parse_mode(mode_arg)) < 0) {
		err_setc(
			&ctx->err, ERR_INVALID,
			"export --mode '%s': not a file mode from 0000 to 0777 (e.g. 0644)",
			mode_arg);
		return CMD_USAGE;
	}
	if (mode_arg && !path) {
		err_setc(&ctx->err, ERR_INVALID, "export --mode needs -o FILE");
		return CMD_USAGE;
	}
	if (eo.cve_id && !valid_cve_id(eo.cve_id)) {
		err_setc(&ctx->err, ERR_INVALID,
			 "'%s' is not a CVE ID (CVE-YYYY-NNNN)", eo.cve_id);
		return CMD_USAGE;
	}
	if (have_ids) {
		int64_t id;
		if ((c = cmd_report(ctx, "export", argc, argv, &id)) != 0)
			return c;
		ids.v = xrealloc(ids.v, sizeof(*ids.v));
		ids.v[ids.n++] = id;
	}
	for (int i = optind; i < argc; i++) {
		int64_t id;
		if (parse_report_id(argv[i], &id, &ctx->err) < 0) {
			free(ids.v);
			return CMD_USAGE;
		}
		ids.v = xrealloc(ids.v, (ids.n + 1) * sizeof(*ids.v));
		ids.v[ids.n++] = id;
	}
	if (!have_ids) {
		struct report_filter f = { state, false, "id", NULL, NULL };
		if (report_each(ctx->sess, &f, add_id, &ids, &ctx->err) < 0) {
			free(ids.v);
			return CMD_FAILED;
		}
	}
	if (eo.cve_id && ids.n != 1) {
		err_setc(&ctx->err, ERR_INVALID,
			 "--cve-id needs exactly one report");
		free(ids.v);
		return CMD_USAGE;
	}
	rc = export_write(ctx->sess, ex, ids.v, ids.n, &eo, path, mode,
			  ctx->out, &ctx->err) < 0
		? CMD_FAILED
		: CMD_OK;
	if (rc == CMD_OK && path) {
		char *p = safe_str(path);
		cmd_summary(ctx, "%zu report%s written to %s (%s)", ids.n,
			    ids.n == 1 ? "" : "s", p, ex->name);
		free(p);
	}
	free(ids.v);
	return rc;
}

/* `export` in the command table (cmd/cmd.c); its options, each declared
 * once: parsed by cmd_getopt, shown by --help, the usage, the man page. */
static const struct cmd_opt opts[] = {
	{ .name = "all", .key = 'a', .help = "every report" },
	{ .name = "state",
	  .key = 's',
	  .arg = "S",
	  .words = report_states,
	  .flags = CMD_OPT_CLOSED,
	  .help = "the reports in state S" },
	{ .name = "format",
	  .key = 'f',
	  .arg = "FORMAT",
	  .flags = CMD_OPT_REQUIRED,
	  .check = check_format,
	  .help = "an export format (export --help lists them; so does the export entry of the man page)" },
	{ .name = "cve-id",
	  .key = 'c',
	  .arg = "CVE-YYYY-N",
	  .help = "the CVE ID of a cve record" },
	{ .name = "with-notes",
	  .key = 'n',
	  .help = "include the internal notes (still redacted)" },
	{ .name = "output",
	  .key = 'o',
	  .letter = 'o',
	  .arg = "FILE",
	  .help = "write FILE (replaced whole) instead of standard output" },
	{ .name = "mode",
	  .key = 'm',
	  .arg = "MODE",
	  .help = "with -o: the file's mode, octal (default 0600)" },
	{ NULL },
};
static const char *const examples[] = { "export 3 --format md -o report-3.md",
					NULL };
const struct cmd_entry cmd_export_entry = {
	.name = "export",
	.usage = "[ID]...",
	.help = "export timelines, dates and CVE records (redacted unless consent)",
	.exec = cmd_export_exec,
	.opts = opts,
	.target = CMD_TARGET_REPORT,
	.exit1 =
		"no such report, under embargo (cve, osv, csaf), or FILE cannot be written",
	.examples = examples,
};
