/*
 * `import [--mbox|--maildir] [--jobs N] PATH... | -`: the options, and one
 * output line per message as core's import_inputs hands it over (its
 * batching and reading ahead are core's: import-run.c):
 *   <id>\t<verdict>\t<subject>     stored (new report, or reply to one)
 *   duplicate\t<id>\t<subject>      already there
 *   error\t<file>\t<reason>         not stored
 * A file starting with "From " is read as an mbox, a directory as a
 * Maildir (or, without new/ and cur/, as a folder of message files),
 * following no symbolic link inside it: each link is an error line.
 * Exit 1 when any message failed.  Progress goes to ctx->progress when
 * whoever runs the command set one (the shell on a terminal draws a bar,
 * the UI its status line); this file draws nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/core.h"

/* Each line as the command prints it. */
static void print_line(const struct import_line *l, void *data)
{
	struct cmd_ctx *ctx = data;

	switch (l->status) {
	case IMPORT_NEW:
	case IMPORT_REPLY:
		fprintf(ctx->out, "%lld\t%s\t%s\n", (long long)l->report_id,
			sig_verdict_name(l->verdict), l->subject);
		break;
	case IMPORT_DUPLICATE:
		fprintf(ctx->out, "duplicate\t%lld\t%s\n",
			(long long)l->report_id, l->subject);
		break;
	case IMPORT_ERROR:
		fprintf(ctx->out, "error\t%s\t%s\n", l->input, l->error);
		break;
	}
	fflush(ctx->out);
}

/* Progress to whoever runs the command (ctx->progress). */
static void progress(enum import_progress ev, size_t done, double frac,
		     double seconds, void *data)
{
	struct cmd_ctx *ctx = data;
	struct cmd_progress p = {
		.event = ev == IMPORT_PROGRESS_UPDATE ? CMD_PROGRESS_UPDATE
			: ev == IMPORT_PROGRESS_CLEAR ? CMD_PROGRESS_CLEAR
						      : CMD_PROGRESS_DONE,
		.what = "importing",
		.unit = "message(s)",
		.done = done,
		.frac = frac,
		.seconds = seconds,
	};

	ctx->progress(&p, ctx->progress_data);
}

static int cmd_import_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct import_opts o = { 0, IMPORT_JOBS_DEFAULT,
				 IMPORT_PROGRESS_DELAY };
	struct import_hooks h = { print_line, ctx->progress ? progress : NULL,
				  ctx };
	struct import_totals t;
	const char *delay;
	int c;

	while ((c = cmd_getopt(ctx, argc, argv)) != -1) {
		if (c == 'm' || c == 'd') {
			o.mode = c;
		} else if (c == 'j') {
			char *end;
			long n = strtol(optarg, &end, 10);
			if (!*optarg || *end || n < 1 || n > IMPORT_JOBS_MAX) {
				err_setc(
					&ctx->err, ERR_INVALID,
					"import --jobs '%s': not a number from 1 to %d",
					optarg, IMPORT_JOBS_MAX);
				return CMD_USAGE;
			}
			o.jobs = (size_t)n;
		} else {
			return cmd_usage(ctx, "import");
		}
	}
	if (optind >= argc)
		return cmd_usage(ctx, "import");
	if (!cmd_store(ctx))
		return CMD_FAILED;
	if ((delay = getenv("SECTEAM_PROGRESS_DELAY"))) {
		char *end;
		double d = strtod(delay, &end);
		if (end != delay && !*end && d >= 0)
			o.progress_delay = d;
	}
	if (import_inputs(ctx->sess, &o, argv + optind, argc - optind, &h, &t,
			  &ctx->err) < 0) {
		if (t.lost) {
			const char *cause = ctx->err.msg;
			char *m;

			if (!strncmp(cause, "import stopped: ", 16))
				cause += 16;
			m = safe_str(cause);
			fprintf(ctx->out,
				"error\t(the last %zu message(s))\tnot stored: %s\n",
				t.lost, m);
			free(m);
		}
		return CMD_FAILED;
	}
	cmd_summary(
		ctx,
		"imported: %zu new, %zu repl%s, %zu duplicate(s), %zu error(s)",
		t.nnew, t.nreply, t.nreply == 1 ? "y" : "ies", t.ndup,
		t.failed);
	if (t.failed && ctx->interactive) {
		err_setc(&ctx->err, ERR_INVALID,
			 "%zu input(s) could not be imported; the first: %s",
			 t.failed, t.first_error);
		return CMD_FAILED;
	}
	if (t.failed) {
		err_setc(
			&ctx->err, ERR_INVALID,
			"%zu input(s) could not be imported (see the error lines)",
			t.failed);
		return CMD_FAILED;
	}
	return CMD_OK;
}

/* `import` in the command table (cmd/cmd.c); its options, each declared
 * once: parsed by cmd_getopt, shown by --help, the usage, the man page. */
static const struct cmd_opt opts[] = {
	{ .name = "mbox",
	  .key = 'm',
	  .help = "read each PATH as an mbox (mboxo or mboxrd)" },
	{ .name = "maildir",
	  .key = 'd',
	  .help = "read each PATH as a Maildir (cur/ and new/)" },
	{ .name = "jobs",
	  .key = 'j',
	  .letter = 'j',
	  .arg = "N",
	  .help = "decrypt up to N messages at once (1 to 8, default 4)" },
	{ NULL },
};
static const char *const examples[] = { "import --maildir ~/Mail/security",
					NULL };
const struct cmd_entry cmd_import_entry = {
	.name = "import",
	.usage = "(PATH... | -)",
	.help = "import report mails (.eml, mbox, Maildir, or standard input)",
	.exec = cmd_import_exec,
	.opts = opts,
	.target = CMD_TARGET_NONE,
	.exit1 = "some message could not be imported",
	.examples = examples,
};
