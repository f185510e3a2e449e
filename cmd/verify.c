/*
 * `verify [ID]`: the messages of a report (or of every report) verified
 * again against the officer's keyring now, whatever the officer's
 * verdict cache holds.  Each verdict is printed beside the one the
 * record keeps from the import, when they differ; every display already
 * follows the keyring on its own (core/verdicts.h), so this is for an
 * officer who wants to see it done, or who doubts the cache.
 */
#include <stdlib.h>

#include "cmd/cmd.h"
#include "core/core.h"
#include "core/verdicts.h"

static int cmd_verify_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct verdict_now *v;
	size_t n, differ = 0, ord = 0;
	int64_t id = 0, last = 0;
	int c;

	while ((c = cmd_getopt(ctx, argc, argv)) != -1)
		return cmd_usage(ctx, "verify");
	/* The report named (or the UI's current one); none: every report. */
	if ((optind < argc || ctx->target > 0 || ctx->target_named) &&
	    (c = cmd_report(ctx, "verify", argc, argv, &id)) != 0)
		return c;
	if (optind != argc)
		return cmd_usage(ctx, "verify");
	if (verdicts_verify(ctx->sess, id, &v, &n, &ctx->err) < 0)
		return CMD_FAILED;
	for (size_t i = 0; i < n; i++) {
		bool same = v[i].was == v[i].verdict;

		ord = v[i].report_id == last ? ord + 1 : 1;
		last = v[i].report_id;
		differ += !same;
		/* One report: every message; all of them: what changed. */
		if (id || !same)
			fprintf(ctx->out,
				"report %lld, message %zu: %s%s%s%s\n",
				(long long)v[i].report_id, ord,
				sig_verdict_name(v[i].verdict),
				same ? "" : " (recorded at import: ",
				same ? "" : sig_verdict_name(v[i].was),
				same ? "" : ")");
	}
	cmd_say(ctx,
		"%zu message%s verified against the keyring now; %zu differ%s from the record",
		n, n == 1 ? "" : "s", differ, differ == 1 ? "s" : "");
	verdict_now_free(v, n);
	return CMD_OK;
}

static const char *const examples[] = { "verify 3", "verify", NULL };
const struct cmd_entry cmd_verify_entry = {
	.name = "verify",
	.usage = "[ID]",
	.help = "verify a report's messages (or every report's) again against the keyring now",
	.exec = cmd_verify_exec,
	.target = CMD_TARGET_REPORT,
	.exit1 = "no such report, or the keyring or database cannot be read",
	.examples = examples,
};
