/*
 * `announce ID [--yes] [--outbox MAILDIR | --sendmail]`: the public post
 * for oss-security once the embargo is over (see notice.c), with the
 * options and output of `distros` (cmd-distros.c).
 */
#include "core/core.h"

static int send_announce(struct cmd_ctx *ctx, const struct reply_draft *d,
			 const char *text, struct reply_sent *s, struct err *err)
{
	return notice_send(ctx, NOTICE_ANNOUNCE, d, text, s, err);
}

int cmd_announce_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	return cmd_notice_exec(ctx, argc, argv, "announce", NOTICE_ANNOUNCE,
			       send_announce);
}
