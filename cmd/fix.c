/*
 * `fix ID --commit SHA [--add] [--introduced SHA]... [--tree GITDIR]
 *  [--stable BRANCH]...` and `fix ID --drop SHA`: records the commit that
 * fixes a report and the commits that brought the bug in (fix_record,
 * fixcve.c).  --commit alone replaces every fix recorded before (as it
 * always did); with --add it is one more (a fix in another subsystem, a
 * follow-up), or the same fix checked again.  --drop takes one back.
 * The tree is --tree, else config kernel.git; with one, each SHA must be
 * a commit there and gets its first tag, and the stable branches named
 * are searched for backports.  Without one the SHAs are recorded
 * unchecked.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/core.h"
#include "core/fixcve.h"

static const struct option cmd_fix_opts[] = {
	{ "commit", required_argument, NULL, 'c' },
	{ "introduced", required_argument, NULL, 'i' },
	{ "tree", required_argument, NULL, 't' },
	{ "stable", required_argument, NULL, 's' },
	{ "add", no_argument, NULL, 'a' },
	{ "drop", required_argument, NULL, 'd' },
	{ NULL, 0, NULL, 0 },
};

/* Appends s to the list *v of *n strings (the strings stay argv's). */
static void add(const char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = s;
}

static int cmd_fix_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct fix_request rq = { 0, FIX_SET, NULL, NULL, 0, NULL, NULL, 0 };
	const char **intro = NULL, **stable = NULL, *drop = NULL;
	bool more = false;
	char *summary = NULL;
	int c, rc = CMD_OK;

	while ((c = getopt_long(argc, argv, "", cmd_fix_opts, NULL)) != -1) {
		switch (c) {
		case 'c': rq.commit = optarg; break;
		case 'i': add(&intro, &rq.nintroduced, optarg); break;
		case 't': rq.tree = optarg; break;
		case 's': add(&stable, &rq.nstable, optarg); break;
		case 'a': more = true; break;
		case 'd': drop = optarg; break;
		default: rc = CMD_USAGE; break;
		}
	}
	rq.introduced = intro;
	rq.stable = stable;
	if (rc == CMD_OK)
		rc = cmd_report(ctx, "fix", argc, argv, &rq.id);
	/* --commit [--add ...] or --drop alone. */
	if (rc == CMD_OK && (optind != argc || !rq.commit == !drop ||
			     (drop && (more || rq.nintroduced || rq.tree || rq.nstable))))
		rc = CMD_USAGE;
	if (drop) {
		rq.how = FIX_DROP;
		rq.commit = drop;
	} else if (more) {
		rq.how = FIX_ADD;
	}
	if (rc == CMD_OK && !rq.tree && !drop)
		rq.tree = config_get(ctx->sess->cfg, "kernel.git", NULL);
	if (rc == CMD_OK && rq.nstable && !rq.tree) {
		err_setc(&ctx->err, ERR_INVALID, "fix --stable needs a tree (--tree or kernel.git)");
		rc = CMD_USAGE;
	}
	if (rc == CMD_USAGE && !ctx->err.msg[0])
		cmd_usage(ctx, "fix");
	if (rc == CMD_OK && fix_record(ctx->sess, &rq, &summary, &ctx->err) < 0)
		rc = ctx->err.code == ERR_INVALID ? CMD_USAGE : CMD_FAILED;
	if (rc == CMD_OK) {
		char *s = safe_str(summary);
		cmd_say(ctx, "%s", s);
		free(s);
	}
	free(summary);
	free(intro);
	free(stable);
	return rc;
}

/* `fix` in the command table (cmd/cmd.c). */
static const struct cmd_opt_help opt_help[] = {
	{ "--commit SHA", "the commit that fixes the report (7 to 40 hex digits); replaces the fixes recorded before" },
	{ "--add", "with --commit: one more fix (another subsystem, a follow-up), or the same one checked again" },
	{ "--drop SHA", "the recorded fix SHA (or a prefix) is no longer one of the report's (alone)" },
	{ "--introduced SHA", "a commit that brought the bug in (repeatable)" },
	{ "--tree GITDIR", "a kernel git tree to check the commits in (else kernel.git)" },
	{ "--stable BRANCH", "a stable branch to search for backports (repeatable)" },
	{ NULL, NULL },
};
static const char *const examples[] = {
	"fix 3 --commit 1a2b3c4d5e6f --introduced 0f1e2d3c4b5a --tree ~/linux",
	"fix 3 --commit 2b3c4d5e6f7a --add --tree ~/linux --stable linux-6.6.y",
	"fix 3 --drop 2b3c4d5e", NULL };
const struct cmd_entry cmd_fix_entry = {
	.name = "fix",
	.usage = "ID (--commit SHA [--add] [--introduced SHA]... [--tree GITDIR] [--stable BRANCH]... | --drop SHA)",
	.help = "record the fixing commits (one or several) and the introducing ones; with a tree, their first tags and stable backports",
	.exec = cmd_fix_exec,
	.opts = cmd_fix_opts,
	.target = CMD_TARGET_REPORT,
	.opt_help = opt_help,
	.exit1 = "a commit or branch not in the tree, a fix to drop the report lacks, no such report, or the tree cannot be read",
	.examples = examples,
};
