/*
 * `announce ID [--yes] [--outbox MAILDIR | --sendmail]`: the public post
 * for oss-security once the embargo is over (see notice.c), with the
 * options and output of `distros` (cmd/distros.c).
 */
#include "cmd/cmd.h"
#include "core/core.h"

static int send_announce(struct session *sess, const struct reply_draft *d,
			 const char *text, struct reply_sent *s,
			 struct err *err)
{
	return notice_send(sess, NOTICE_ANNOUNCE, d, text, s, err);
}

static int cmd_announce_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	return cmd_notice_exec(ctx, argc, argv, "announce", NOTICE_ANNOUNCE,
			       send_announce);
}

/* `announce` in the command table (cmd/cmd.c). */
static const char *const examples[] = { "announce 3", NULL };
const struct cmd_entry cmd_announce_entry = {
	.name = "announce",
	.usage = "ID [--yes] [--outbox MAILDIR | --sendmail]",
	.help = "the public post for oss-security once the embargo is over (never encrypted)",
	.exec = cmd_announce_exec,
	.opts = cmd_announce_opts,
	.target = CMD_TARGET_REPORT,
	.opt_help = cmd_notice_help,
	.exit1 = "the report is still under embargo, or delivery failed",
	.examples = examples,
};
