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
#include <getopt.h>
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

/* The options of `export`; its row at the end of this file names them too
 * (where the report id goes, for the UI). */
/* Its short options (getopt's string): the runner reads them too. */
static const char cmd_export_shortopts[] = "o:";
static const struct option cmd_export_opts[] = {
	{ "all", no_argument, NULL, 'a' },
	{ "state", required_argument, NULL, 's' },
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "cve-id", required_argument, NULL, 'c' },
	{ "with-notes", no_argument, NULL, 'n' },
	{ "mode", required_argument, NULL, 'm' },
	{ NULL, 0, NULL, 0 },
};

static int cmd_export_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct export_opts eo = { NULL, false, ctx->errout };
	const char *format = NULL, *state = NULL, *path = NULL,
		   *mode_arg = NULL;
	const struct exporter *ex;
	struct ids ids = { NULL, 0 };
	bool all = false, have_ids;
	int c, mode = 0600, rc;

	while ((c = getopt_long(argc, argv, cmd_export_shortopts,
				cmd_export_opts, NULL)) != -1) {
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
	if (!format || (all + (state != NULL) + have_ids) != 1)
		return usage(ctx);
	if (!(ex = export_find(format))) {
		char *names = export_names(", ");
		err_setc(&ctx->err, ERR_INVALID,
			 "unknown export format '%s' (%s)", format, names);
		free(names);
		return CMD_USAGE;
	}
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
	if (state && !triage_state_valid(state)) {
		char *valid = triage_state_names(", ");
		err_setc(&ctx->err, ERR_INVALID,
			 "unknown state '%s' (valid states: %s)", state, valid);
		free(valid);
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

/* `export` in the command table (cmd/cmd.c). */
static const struct cmd_opt_help opt_help[] = {
	{ "--all", "every report" },
	{ "--state S", "the reports in state S" },
	{ "--format FORMAT",
	  "an export format (export --help lists them; so does the export entry of the man page)" },
	{ "--cve-id CVE-YYYY-N", "the CVE ID of a cve record" },
	{ "--with-notes", "include the internal notes (still redacted)" },
	{ "-o, --output FILE",
	  "write FILE (replaced whole) instead of standard output" },
	{ "--mode MODE", "with -o: the file's mode, octal (default 0600)" },
	{ NULL, NULL },
};
static const char *const examples[] = { "export 3 --format md -o report-3.md",
					NULL };
const struct cmd_entry cmd_export_entry = {
	.name = "export",
	.usage =
		"(ID... | --all | --state S) --format FORMAT [--cve-id CVE-YYYY-N] [--with-notes] [-o FILE [--mode 0644]]",
	.help = "export timelines, dates and CVE records (redacted unless consent)",
	.exec = cmd_export_exec,
	.opts = cmd_export_opts,
	.shortopts = cmd_export_shortopts,
	.target = CMD_TARGET_REPORT,
	.opt_help = opt_help,
	.exit1 =
		"no such report, under embargo (cve, osv, csaf), or FILE cannot be written",
	.examples = examples,
};
