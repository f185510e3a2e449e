/*
 * `reply ID [--template NAME] [--to ADDR] [--allow-plaintext] [--yes]
 *  [--outbox MAILDIR | --sendmail]` and `reply --list-templates`: a reply
 * to the reporter (see reply.c for the rules).  The filled template is
 * opened in $VISUAL/$EDITOR first; what is saved is sent, an empty or
 * unchanged text sends nothing.  --yes sends the template as filled (for scripts; the
 * UI's `:` line needs it, its `r` key edits first).  Mail goes into
 * --outbox (else config forward.outbox), or through --sendmail (config
 * forward.sendmail, default "sendmail -t -oi").  Prints one line:
 * "encrypted|plaintext <TAB> recipient <TAB> Maildir file or 'sent via
 * sendmail' <TAB> <Message-ID>".
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/core.h"

static int list_templates(struct cmd_ctx *ctx)
{
	struct template_info *v;
	size_t n;
	char *dir = template_dir(ctx->sess), *d = safe_str(dir);

	free(dir);
	if (template_list(ctx->sess, &v, &n, &ctx->err) < 0) {
		free(d);
		return CMD_FAILED;
	}
	fprintf(ctx->out, "# templates: %s/NAME, else the shipped default\n",
		d);
	for (size_t i = 0; i < n; i++) {
		char *src = safe_str(v[i].source);
		fprintf(ctx->out, "%s\t%s\n", v[i].name, src);
		free(src);
	}
	free(d);
	template_list_free(v, n);
	return CMD_OK;
}

/* True when the edited text is the draft as composed, blanks at either
 * end aside: the editor was left without a change (mutt's
 * abort_unmodified). */
static bool draft_unchanged(const char *draft, const char *edited)
{
	char *d = xstrdup(draft);
	bool same;

	str_trim(d);
	same = strcmp(d, edited) == 0;
	wipe_free(d, strlen(d));
	return same;
}

int cmd_edit_draft(struct cmd_ctx *ctx, struct reply_draft *d, bool yes,
		   char **text)
{
	char *initial, *edited = NULL;
	int r;

	*text = NULL;
	if (yes) {
		*text = xstrdup(d->text);
		return CMD_OK;
	}
	initial = reply_draft_edit_text(ctx->sess, d);
	r = cmd_edit(ctx, d->template, initial, &edited);
	if (r == 0)
		str_trim(edited);
	if (r == 0 && draft_unchanged(initial, edited)) {
		wipe_free(initial, strlen(initial));
		wipe_free(edited, strlen(edited));
		err_setc(&ctx->err, ERR_INVALID,
			 "report %lld: nothing sent: the draft was not changed "
			 "(edit it, or send it as filled with --yes)",
			 (long long)d->id);
		return CMD_FAILED;
	}
	wipe_free(initial, strlen(initial));
	if (r < 0) {
		err_prefix(&ctx->err, "nothing sent");
		return CMD_FAILED;
	}
	if (!*edited) {
		free(edited);
		err_setc(&ctx->err, ERR_INVALID,
			 "report %lld: the mail is empty: nothing sent",
			 (long long)d->id);
		return CMD_FAILED;
	}
	r = reply_draft_take_edit(ctx->sess, d, edited, text, &ctx->err);
	wipe_free(edited, strlen(edited));
	if (r < 0) {
		err_prefix(&ctx->err, "report %lld: nothing sent",
			   (long long)d->id);
		return CMD_FAILED;
	}
	str_trim(*text);
	if (!**text) {
		wipe_free(*text, strlen(*text));
		*text = NULL;
		err_setc(&ctx->err, ERR_INVALID,
			 "report %lld: the mail is empty: nothing sent",
			 (long long)d->id);
		return CMD_FAILED;
	}
	return CMD_OK;
}

int cmd_mail_draft(struct cmd_ctx *ctx, struct reply_draft *d, bool yes,
		   const char *what, const char *question,
		   int (*send)(struct session *, const struct reply_draft *,
			       const char *, struct reply_sent *, struct err *))
{
	struct reply_sent s;
	char *text = NULL;
	int r;

	char *to = xstrdup(d->to_email), *q = NULL;

	memset(&s, 0, sizeof(s));
	r = cmd_edit_draft(ctx, d, yes, &text);
	/* The officer gave another To: the question names it. */
	if (r == CMD_OK && strcmp(to, d->to_email)) {
		char *w = safe_str(d->to_email);
		q = xasprintf("send %s to %s (the To you wrote), %s?", what, w,
			      d->fpr ? "signed and encrypted"
				     : "signed, in the clear");
		free(w);
	}
	free(to);
	if (r == CMD_OK && !cmd_guard(ctx, "%s", q ? q : question)) {
		free(q);
		wipe_free(text, strlen(text));
		cmd_summary(ctx, "report %lld: nothing sent", (long long)d->id);
		return CMD_OK;
	}
	free(q);
	if (r == CMD_OK && send(ctx->sess, d, text, &s, &ctx->err) < 0)
		r = CMD_FAILED;
	if (s.where) {
		char *t = safe_str(d->to_email), *w = safe_str(s.where),
		     *m = safe_str(s.message_id);
		fprintf(ctx->out, "%s\t%s\t%s\t<%s>\n",
			s.plaintext ? "plaintext" : "encrypted", t, w, m);
		cmd_summary(ctx, "report %lld: %s sent to %s, %s, %s (%s)",
			    (long long)d->id, what, t,
			    s.stored ? "in the thread"
				     : "its copy not in the thread",
			    s.plaintext ? "in the clear"
					: "signed and encrypted",
			    w);
		free(t);
		free(w);
		free(m);
	}
	if (r == CMD_OK && !s.stored) {
		char *n = safe_str(s.store_note);
		fprintf(ctx->errout,
			"warning: report %lld: the mail was sent but "
			"its copy is not in the thread: %s\n",
			(long long)d->id, n);
		free(n);
	}
	if (r == CMD_OK && s.vendor_note) {
		char *n = safe_str(s.vendor_note);
		fprintf(ctx->errout, "warning: report %lld: %s\n",
			(long long)d->id, n);
		free(n);
	}
	if (text)
		wipe_free(text, strlen(text));
	reply_sent_release(&s);
	return r;
}

static int send_reply(struct cmd_ctx *ctx, int64_t id,
		      const struct reply_opts *o, bool yes)
{
	struct reply_draft d;
	int r = CMD_FAILED;

	if (reply_prepare(ctx->sess, id, o, &d, &ctx->err) == 0) {
		char *who = safe_str(d.to_email);
		char *q = xasprintf("send the reply to %s, %s?", who,
				    d.fpr ? "signed and encrypted"
					  : "signed, in the clear");

		r = cmd_mail_draft(ctx, &d, yes, "the reply", q, reply_send);
		free(q);
		free(who);
	}
	reply_draft_release(&d);
	return r;
}

static int cmd_reply_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct reply_opts o;
	bool yes = false, list = false, use_sendmail = false;
	int64_t id;
	int c;

	memset(&o, 0, sizeof(o));
	while ((c = cmd_getopt(ctx, argc, argv)) != -1) {
		switch (c) {
		case 'T':
			o.template = optarg;
			break;
		case 't':
			o.to = optarg;
			break;
		case 'a':
			o.allow_plaintext = true;
			break;
		case 'y':
			yes = true;
			break;
		case 'o':
			o.outbox = optarg;
			break;
		case 's':
			use_sendmail = true;
			break;
		case 'l':
			list = true;
			break;
		default:
			return cmd_usage(ctx, "reply");
		}
	}
	if (list)
		return list_templates(ctx);
	if ((c = cmd_report(ctx, "reply", argc, argv, &id)) != 0)
		return c;
	if (optind != argc || (o.outbox && use_sendmail))
		return cmd_usage(ctx, "reply");
	if (use_sendmail)
		o.sendmail = config_get(ctx->sess->cfg, "forward.sendmail",
					"sendmail -t -oi");
	else if (!o.outbox)
		o.outbox = config_get(ctx->sess->cfg, "forward.outbox", NULL);
	if (!o.outbox && !o.sendmail) {
		err_setc(&ctx->err, ERR_INVALID,
			 "reply: say where the mail goes: --outbox MAILDIR or "
			 "--sendmail (or set forward.outbox in the config)");
		return CMD_USAGE;
	}
	return send_reply(ctx, id, &o, yes);
}

/* `reply` in the command table (cmd/cmd.c); its options, each declared
 * once: parsed by cmd_getopt, shown by --help, the usage, the man page. */
static const struct cmd_opt opts[] = {
	{ .name = "template",
	  .key = 'T',
	  .arg = "NAME",
	  .help = "the template (default ack); --list-templates lists them" },
	{ .name = "to",
	  .key = 't',
	  .arg = "ADDR",
	  .help = "another recipient from the report's thread or its participants" },
	{ .name = "allow-plaintext",
	  .key = 'a',
	  .help = "send in the clear when the reporter has no usable key (recorded; no quote)" },
	{ .name = "yes",
	  .key = 'y',
	  .help = "send the template as filled: no $EDITOR, so no check that the draft was changed" },
	{ .name = "outbox",
	  .key = 'o',
	  .arg = "MAILDIR",
	  .help = "deliver into MAILDIR (else forward.outbox)" },
	{ .name = "sendmail",
	  .key = 's',
	  .help = "deliver with forward.sendmail (default sendmail -t -oi)" },
	{ .name = "list-templates",
	  .key = 'l',
	  .help = "the templates and where each comes from" },
	{ NULL },
};
static const char *const examples[] = { "reply 3 --template need-info", NULL };
const struct cmd_entry cmd_reply_entry = {
	.name = "reply",
	.usage = "[ID]",
	.help = "reply to the reporter from a template, signed and encrypted, in the thread",
	.exec = cmd_reply_exec,
	.opts = opts,
	.target = CMD_TARGET_REPORT,
	.exit1 =
		"refused (no usable key, an encrypted report in the clear, an unknown field), or delivery failed",
	.examples = examples,
};
