/*
 * `distros ID [OPTION]...`: the notice to the
 * linux-distros list (see notice.c for the list's rules); cmd/announce.c
 * runs `announce` the same way.  The composed text opens in
 * $VISUAL/$EDITOR unless --yes (unchanged, it sends nothing); one line is printed as reply does.  Mail
 * goes into --outbox (else config forward.outbox), or through --sendmail
 * (config forward.sendmail, default "sendmail -t -oi").  The distros
 * notice attaches each fix as a patch from --tree GITDIR (else config
 * kernel.git): the fix is public nowhere else yet.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/core.h"

static int send_distros(struct session *sess, const struct reply_draft *d,
			const char *text, struct reply_sent *s, struct err *err)
{
	return notice_send(sess, NOTICE_DISTROS, d, text, s, err);
}

int cmd_notice_exec(struct cmd_ctx *ctx, int argc, char **argv,
		    const char *name, enum notice_kind k,
		    int (*send)(struct session *, const struct reply_draft *,
				const char *, struct reply_sent *,
				struct err *))
{
	struct reply_draft d;
	const char *outbox = NULL, *sendmail = NULL, *tree = NULL;
	bool yes = false, use_sendmail = false;
	int64_t id;
	int c, r = CMD_FAILED;

	while ((c = cmd_getopt(ctx, argc, argv)) != -1) {
		switch (c) {
		case 'y':
			yes = true;
			break;
		case 'o':
			outbox = optarg;
			break;
		case 's':
			use_sendmail = true;
			break;
		case 't':
			tree = optarg;
			break;
		default:
			return cmd_usage(ctx, name);
		}
	}
	if ((c = cmd_report(ctx, name, argc, argv, &id)) != 0)
		return c;
	if (optind != argc || (outbox && use_sendmail) ||
	    (tree && k != NOTICE_DISTROS))
		return cmd_usage(ctx, name);
	if (!tree && k == NOTICE_DISTROS)
		tree = config_get(ctx->sess->cfg, "kernel.git", NULL);
	if (use_sendmail)
		sendmail = config_get(ctx->sess->cfg, "forward.sendmail",
				      "sendmail -t -oi");
	else if (!outbox)
		outbox = config_get(ctx->sess->cfg, "forward.outbox", NULL);
	if (!outbox && !sendmail) {
		err_setc(&ctx->err, ERR_INVALID,
			 "%s: say where the mail goes: --outbox MAILDIR or "
			 "--sendmail (or set forward.outbox in the config)",
			 name);
		return CMD_USAGE;
	}
	if (notice_prepare(ctx->sess, id, k, outbox, sendmail, tree, &d,
			   &ctx->err) == 0) {
		char *who = safe_str(d.to_email);
		char *q = k == NOTICE_DISTROS
			? xasprintf(
				  "send the notice of report %lld to %s, signed and encrypted?",
				  (long long)id, who)
			: xasprintf(
				  "post report %lld to %s, signed, in the clear?",
				  (long long)id, who);

		/* What goes with the text, before the officer sends it (the
		 * shell's; the UI's output pager would take the answer's key). */
		if (d.att_note && !ctx->interactive)
			fprintf(ctx->errout, "%s\n", d.att_note);
		r = cmd_mail_draft(ctx, &d, yes,
				   k == NOTICE_DISTROS ? "the notice"
						       : "the announcement",
				   q, send);
		free(q);
		free(who);
	}
	reply_draft_release(&d);
	return r;
}

static int cmd_distros_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	return cmd_notice_exec(ctx, argc, argv, "distros", NOTICE_DISTROS,
			       send_distros);
}

/* The delivery options of `distros` and `announce` (cmd/announce.c),
 * each declared once: parsed by cmd_getopt, shown by --help, the usage,
 * the man page. */
/* clang-format off */
#define NOTICE_DELIVERY_OPTS \
	{ .name = "yes", .key = 'y', \
	  .help = "send the text as composed: no $EDITOR, so no check that the draft was changed" }, \
	{ .name = "outbox", .key = 'o', .arg = "MAILDIR", \
	  .help = "deliver into MAILDIR (else forward.outbox)" }, \
	{ .name = "sendmail", .key = 's', \
	  .help = "deliver with forward.sendmail (default sendmail -t -oi)" }
/* clang-format on */
const struct cmd_opt cmd_notice_opts[] = { NOTICE_DELIVERY_OPTS, { NULL } };
/* `distros` takes those and the tree its fixes are attached from. */
static const struct cmd_opt cmd_distros_opts[] = {
	NOTICE_DELIVERY_OPTS,
	{ .name = "tree",
	  .key = 't',
	  .arg = "GITDIR",
	  .help = "the git tree holding the fix, attached as a patch (else kernel.git)" },
	{ NULL },
};
static const char *const examples[] = {
	"distros 3 --outbox ~/outbox --tree ~/src/linux", NULL
};
const struct cmd_entry cmd_distros_entry = {
	.name = "distros",
	.usage = "ID",
	.help = "the notice to the linux-distros list, encrypted to its key, under its rules",
	.exec = cmd_distros_exec,
	.opts = cmd_distros_opts,
	.target = CMD_TARGET_REPORT,
	.exit1 =
		"a rule of the list refused the notice (named), or delivery failed",
	.examples = examples,
};
