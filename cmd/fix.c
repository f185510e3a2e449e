/*
 * `fix ID --commit SHA [--add] [--introduced SHA]... [--tree GITDIR]
 *  [--stable BRANCH]...` and `fix ID --drop SHA`: records the commit that
 * fixes a report and the commits that brought the bug in (fix_record,
 * fixcve.c).  --commit alone replaces every fix recorded before; when
 * that would forget what a tree told of one (its tag, introducing
 * commits, backports) it is refused, naming what, unless --replace; it
 * says what it replaced.  With --add it is one more (a fix in another
 * subsystem, a follow-up), or the same fix checked again.  --drop takes
 * one back.
 * The tree is --tree, else config kernel.git; with one, each SHA must be
 * a commit there and gets its first tag, and the stable branches named
 * are searched for backports.  Without one the SHAs are recorded
 * unchecked.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd/cmd.h"
#include "core/core.h"
#include "core/fixcve.h"

/* Appends s to the list *v of *n strings (the strings stay argv's). */
static void add(const char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = s;
}

/* True when a and b name the same commit (one a prefix of the other,
 * as an unchecked short SHA is of the full one). */
static bool same_sha(const char *a, const char *b)
{
	size_t n = strlen(a) < strlen(b) ? strlen(a) : strlen(b);

	return n >= 7 && !strncasecmp(a, b, n);
}

/* What replacing f with rq forgets, in words (empty: nothing a tree
 * told); sb gets it. */
static void forgotten(const struct fix_entry *f, const struct fix_request *rq,
		      struct sbuf *sb)
{
	bool same = same_sha(f->fix.sha, rq->commit);
	size_t lost_intro = 0;

	/* The same fix checked again in a tree: what it says replaces. */
	if (same && rq->tree)
		return;
	for (size_t i = 0; i < f->nintroduced; i++) {
		bool again = false;

		for (size_t k = 0; same && k < rq->nintroduced && !again; k++)
			again = same_sha(f->introduced[i].sha,
					 rq->introduced[k]);
		lost_intro += !again;
	}
	if (f->tree_checked && (!same || !rq->tree))
		sbuf_addf(sb, "%schecked in a tree%s%s", sb->len ? "; " : "",
			  f->fix.tag ? ", first in " : "",
			  f->fix.tag ? f->fix.tag : "");
	if (lost_intro)
		sbuf_addf(sb, "%s%zu introducing commit%s", sb->len ? "; " : "",
			  lost_intro, lost_intro == 1 ? "" : "s");
	if (f->nbackports && (!same || !rq->tree))
		sbuf_addf(sb, "%s%zu backport%s", sb->len ? "; " : "",
			  f->nbackports, f->nbackports == 1 ? "" : "s");
}

/*
 * --commit without --add replaces every recorded fix.  Refused (with
 * ERR_REFUSED naming each fix and what would be forgotten) when that
 * forgets what a tree told, unless replace; else *replaced (caller
 * frees, NULL when there was none) names the fixes replaced.
 */
static int check_replace(struct cmd_ctx *ctx, const struct fix_request *rq,
			 bool replace, char **replaced)
{
	struct fixcve fc;
	struct sbuf lost = SBUF_INIT, names = SBUF_INIT;
	int rc = 0;

	*replaced = NULL;
	if (fixcve_get(ctx->sess, rq->id, &fc, &ctx->err) < 0)
		return CMD_FAILED;
	for (size_t i = 0; i < fc.nfixes; i++) {
		struct sbuf what = SBUF_INIT;

		forgotten(&fc.fixes[i], rq, &what);
		if (what.len)
			sbuf_addf(&lost, "%s%.12s (%s)", lost.len ? ", " : "",
				  fc.fixes[i].fix.sha, what.buf);
		sbuf_addf(&names, "%s%.12s", names.len ? ", " : "",
			  fc.fixes[i].fix.sha);
		sbuf_release(&what);
	}
	if (lost.len && !replace) {
		char *l = safe_str(lost.buf);

		err_setc(
			&ctx->err, ERR_REFUSED,
			"fix %lld --commit %s would replace the recorded fix %s and forget that: "
			"--add keeps it beside this one, --replace replaces it",
			(long long)rq->id, rq->commit, l);
		free(l);
		rc = CMD_FAILED;
	} else if (names.len) {
		*replaced = safe_str(names.buf);
	}
	sbuf_release(&lost);
	sbuf_release(&names);
	fixcve_release(&fc);
	return rc;
}

static int cmd_fix_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct fix_request rq = { 0, FIX_SET, NULL, NULL, 0, NULL, NULL, 0 };
	const char **intro = NULL, **stable = NULL, *drop = NULL;
	bool more = false, replace = false;
	char *summary = NULL, *replaced = NULL;
	int c, rc = CMD_OK;

	while ((c = cmd_getopt(ctx, argc, argv)) != -1) {
		switch (c) {
		case 'c':
			rq.commit = optarg;
			break;
		case 'i':
			add(&intro, &rq.nintroduced, optarg);
			break;
		case 't':
			rq.tree = optarg;
			break;
		case 's':
			add(&stable, &rq.nstable, optarg);
			break;
		case 'a':
			more = true;
			break;
		case 'd':
			drop = optarg;
			break;
		case 'r':
			replace = true;
			break;
		default:
			rc = CMD_USAGE;
			break;
		}
	}
	rq.introduced = intro;
	rq.stable = stable;
	if (rc == CMD_OK)
		rc = cmd_report(ctx, "fix", argc, argv, &rq.id);
	/* --commit [--add ...] or --drop alone. */
	if (rc == CMD_OK &&
	    (optind != argc || !rq.commit == !drop ||
	     (drop && (more || rq.nintroduced || rq.tree || rq.nstable)) ||
	     (replace && (more || drop))))
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
		err_setc(&ctx->err, ERR_INVALID,
			 "fix --stable needs a tree (--tree or kernel.git)");
		rc = CMD_USAGE;
	}
	if (rc == CMD_USAGE && !ctx->err.msg[0])
		cmd_usage(ctx, "fix");
	/* A malformed SHA is fix_record's to refuse, as such. */
	bool well_formed = rq.commit && fix_sha_valid(rq.commit);
	for (size_t i = 0; i < rq.nintroduced; i++)
		well_formed = well_formed && fix_sha_valid(rq.introduced[i]);
	if (rc == CMD_OK && rq.how == FIX_SET && well_formed)
		rc = check_replace(ctx, &rq, replace, &replaced);
	if (rc == CMD_OK && fix_record(ctx->sess, &rq, &summary, &ctx->err) < 0)
		rc = ctx->err.code == ERR_INVALID ? CMD_USAGE : CMD_FAILED;
	if (rc == CMD_OK) {
		char *s = safe_str(summary);
		cmd_say(ctx, "%s%s%s%s", s, replaced ? " (replacing " : "",
			replaced ? replaced : "", replaced ? ")" : "");
		free(s);
	}
	free(replaced);
	free(summary);
	free(intro);
	free(stable);
	return rc;
}

/* `fix` in the command table (cmd/cmd.c); its options, each declared
 * once: parsed by cmd_getopt, shown by --help, the usage, the man page. */
static const struct cmd_opt opts[] = {
	{ .name = "commit",
	  .key = 'c',
	  .arg = "SHA",
	  .help = "the commit that fixes the report (7 to 40 hex digits); replaces the fixes recorded before" },
	{ .name = "add",
	  .key = 'a',
	  .help = "with --commit: one more fix (another subsystem, a follow-up), or the same one checked again" },
	{ .name = "replace",
	  .key = 'r',
	  .help = "with --commit: replace fixes whose tree check, introducing commits or backports it would forget (refused without it)" },
	{ .name = "drop",
	  .key = 'd',
	  .arg = "SHA",
	  .help = "the recorded fix SHA (or a prefix) is no longer one of the report's (alone)" },
	{ .name = "introduced",
	  .key = 'i',
	  .arg = "SHA",
	  .flags = CMD_OPT_MANY,
	  .help = "a commit that brought the bug in (repeatable)" },
	{ .name = "tree",
	  .key = 't',
	  .arg = "GITDIR",
	  .help = "a kernel git tree to check the commits in (else kernel.git)" },
	{ .name = "stable",
	  .key = 's',
	  .arg = "BRANCH",
	  .flags = CMD_OPT_MANY,
	  .help = "a stable branch to search for backports (repeatable)" },
	{ NULL },
};
static const char *const examples[] = {
	"fix 3 --commit 1a2b3c4d5e6f --introduced 0f1e2d3c4b5a --tree ~/linux",
	"fix 3 --commit 2b3c4d5e6f7a --add --tree ~/linux --stable linux-6.6.y",
	"fix 3 --drop 2b3c4d5e", NULL
};
const struct cmd_entry cmd_fix_entry = {
	.name = "fix",
	.usage = "ID",
	.help = "record the fixing commits (one or several) and the introducing ones; with a tree, their first tags and stable backports",
	.exec = cmd_fix_exec,
	.opts = opts,
	.target = CMD_TARGET_REPORT,
	.exit1 =
		"a commit or branch not in the tree, a fix to drop the report lacks, no such report, or the tree cannot be read",
	.examples = examples,
};
