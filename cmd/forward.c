/*
 * `forward ID (--to ADDR... | --participants) [--outbox MAILDIR |
 *  --sendmail] [--allow-plaintext] [--force-recipient]
 *  [--release-attachment NAME...]`: sends the report to people brought
 * into it, as PGP/MIME mail (see forward.c for the rules).  ADDR is user@host or "Name <user@host>"; addresses after the
 * ID count as more --to.  Mail goes into --outbox (else config
 * forward.outbox), or through --sendmail (config forward.sendmail, default
 * "sendmail -t -oi").  Prints one line per delivered message:
 * "encrypted|plaintext <TAB> recipients <TAB> Maildir file or 'sent via
 * sendmail'".
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/core.h"

void cmd_forward_print(struct cmd_ctx *ctx, const struct forward_result *res)
{
	for (size_t i = 0; i < res->nsent; i++) {
		char *t = safe_str(res->sent[i].to),
		     *w = safe_str(res->sent[i].where);
		fprintf(ctx->out, "%s\t%s\t%s\n",
			res->sent[i].plaintext ? "plaintext" : "encrypted", t,
			w);
		free(t);
		free(w);
	}
}

/* Where the mail goes: --outbox, --sendmail (forward.sendmail), or the
 * config's forward.outbox.  0, or CMD_USAGE with ctx->err set. */
static int forward_where(struct cmd_ctx *ctx, struct forward_opts *o,
			 bool use_sendmail)
{
	if (use_sendmail)
		o->sendmail = config_get(ctx->sess->cfg, "forward.sendmail",
					 "sendmail -t -oi");
	else if (!o->outbox)
		o->outbox = config_get(ctx->sess->cfg, "forward.outbox", NULL);
	if (o->outbox || o->sendmail)
		return 0;
	err_setc(&ctx->err, ERR_INVALID,
		 "forward: say where the mail goes: --outbox MAILDIR or "
		 "--sendmail (or set forward.outbox in the config)");
	return CMD_USAGE;
}

static int cmd_forward_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct forward_opts o;
	struct forward_result res;
	struct participant *pv = NULL;
	size_t np = 0;
	const char **to, **rel;
	char **owned = NULL;
	bool all = false, use_sendmail = false;
	int64_t id;
	int c, r = CMD_FAILED;

	memset(&o, 0, sizeof(o));
	memset(&res, 0, sizeof(res));
	to = xcalloc((size_t)argc + 1, sizeof(*to));
	rel = xcalloc((size_t)argc + 1, sizeof(*rel));
	o.release = rel;
	while ((c = cmd_getopt(ctx, argc, argv)) != -1) {
		switch (c) {
		case 't':
			to[o.nto++] = optarg;
			break;
		case 'r':
			rel[o.nrelease++] = optarg;
			break;
		case 'P':
			all = true;
			break;
		case 'o':
			o.outbox = optarg;
			break;
		case 's':
			use_sendmail = true;
			break;
		case 'a':
			o.allow_plaintext = true;
			break;
		case 'f':
			o.force_recipient = true;
			break;
		default:
			r = cmd_usage(ctx, "forward");
			goto out;
		}
	}
	if (o.outbox && use_sendmail) {
		r = cmd_usage(ctx, "forward");
		goto out;
	}
	if ((r = cmd_report(ctx, "forward", argc, argv, &id)) != 0)
		goto out;
	for (int i = optind; i < argc; i++)
		to[o.nto++] = argv[i];
	if ((r = forward_where(ctx, &o, use_sendmail)) != 0)
		goto out;
	r = CMD_FAILED;
	if (all) {
		if (participants_list(ctx->sess, id, false, &pv, &np,
				      &ctx->err) < 0)
			goto out;
		to = xrealloc(to, ((size_t)argc + np + 1) * sizeof(*to));
		owned = xcalloc(np + 1, sizeof(*owned));
		for (size_t i = 0; i < np; i++) {
			/* Their address only: the stored name comes back in
			 * forward.c, quoted properly. */
			owned[i] = xstrdup(pv[i].email);
			to[o.nto++] = owned[i];
		}
	}
	if (!o.nto) {
		if (all)
			err_setc(
				&ctx->err, ERR_INVALID,
				"cannot forward report %lld: it has no participants "
				"(see maintainers %lld --add)",
				(long long)id, (long long)id);
		else
			r = cmd_usage(ctx, "forward");
		goto out;
	}
	o.to = to;
	if (forward_report(ctx->sess, id, &o, &res, &ctx->err) == 0)
		r = CMD_OK;
	cmd_forward_print(ctx, &res);
	if (r == CMD_OK)
		cmd_summary(
			ctx, "report %lld forwarded in %zu message%s%s",
			(long long)id, res.nsent, res.nsent == 1 ? "" : "s",
			res.withheld
				? "; attachments withheld (see the warnings)"
				: "");
	if (r == CMD_OK && res.withheld)
		fprintf(ctx->errout,
			"report %lld: %zu attachment%s withheld (without the "
			"reporter's consent to release exploit code and to be "
			"credited, only patches go; send one with "
			"--release-attachment NAME)\n",
			(long long)id, res.withheld,
			res.withheld > 1 ? "s" : "");
out:
	forward_result_release(&res);
	participants_free(pv, np);
	if (owned)
		for (size_t i = 0; i < np; i++)
			free(owned[i]);
	free(owned);
	free(to);
	free(rel);
	return r;
}

/* `forward` in the command table (cmd/cmd.c); its options, each declared
 * once: parsed by cmd_getopt, shown by --help, the usage, the man page. */
static const struct cmd_opt opts[] = {
	{ .name = "to",
	  .key = 't',
	  .arg = "ADDR",
	  .flags = CMD_OPT_MANY,
	  .help = "a recipient (repeatable)" },
	{ .name = "participants",
	  .key = 'P',
	  .help = "every participant brought in" },
	{ .name = "outbox",
	  .key = 'o',
	  .arg = "MAILDIR",
	  .help = "deliver into MAILDIR (else forward.outbox)" },
	{ .name = "sendmail",
	  .key = 's',
	  .help = "deliver with forward.sendmail (default sendmail -t -oi)" },
	{ .name = "allow-plaintext",
	  .key = 'a',
	  .help = "a plain copy for a recipient without a usable key" },
	{ .name = "force-recipient",
	  .key = 'f',
	  .help = "a recipient who is not a participant" },
	{ .name = "release-attachment",
	  .key = 'r',
	  .arg = "NAME",
	  .flags = CMD_OPT_MANY,
	  .help = "send the attachment NAME too (repeatable)" },
	{ NULL },
};
static const char *const examples[] = {
	"forward 3 --participants --outbox ~/outbox", NULL
};
/* The UI asks before mail goes (keys and the : line alike). */
static char *cmd_forward_ask(int argc, char **argv, int64_t report)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--participants"))
			return xasprintf(
				"forward report %lld, encrypted, to all its participants?",
				(long long)report);
	return xasprintf(
		"forward report %lld, encrypted, to the addresses given?",
		(long long)report);
}

const struct cmd_entry cmd_forward_entry = {
	.name = "forward",
	.usage = "ID",
	.help = "forward a report to its participants as signed, encrypted PGP/MIME mail",
	.exec = cmd_forward_exec,
	.opts = opts,
	.target = CMD_TARGET_REPORT,
	.exit1 = "a recipient without a usable key, or delivery failed",
	.examples = examples,
	.ask = cmd_forward_ask,
};
