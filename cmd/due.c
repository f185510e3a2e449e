/*
 * `due [--within 2d] [--json]`: what needs an officer's attention, for
 * cron or a status bar, as core/due.h defines it (deadlines, waiting
 * reporters, silent vendors, unacknowledged participants, unpublished
 * CVE records), a line or a JSON object each.  Prints nothing
 * when all is well; always exits 0 unless the store fails.  With --mail
 * it sends the reminders instead (reminders.c): one line per message
 * ("sent" or, with --dry-run, "would send" <TAB> kind <TAB> recipient
 * <TAB> report); exit 1 when a reminder could not be sent (no usable
 * key, ...).  The dry run checks the keys too, so it warns of, and exits
 * 1 for, the same skips as the real run.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "export/export.h"
#include "core/core.h"
#include "core/json.h"
#include "store/store.h"

/* One item as a line, or (json not NULL) a JSON object. */
static void item(struct cmd_ctx *ctx, json_t *json, const struct due_item *it,
		 const char *who, const char *text)
{
	const struct report *r = it->report;

	if (json) {
		json_array_append_new(
			json,
			json_pack("{s:I, s:s, s:o, s:o, s:o, s:o}", "report",
				  (json_int_t)r->id, "kind",
				  due_kind_name(it->kind), "date",
				  json_time(it->date), "who", json_text(who),
				  "subject", json_text(r->subject), "text",
				  json_text(text)));
	} else {
		char *t = safe_str(text), *s = safe_str(r->subject);
		fprintf(ctx->out, "#%lld %s: %s\n", (long long)r->id, t, s);
		free(t);
		free(s);
	}
}

/* What an item says (caller frees), and who it names (or NULL). */
static char *describe(const struct due *d, const struct due_item *it,
		      const char **who)
{
	const struct report *r = it->report;
	long n = it->days < 0 ? -it->days : it->days;
	char when[32], in[32];

	*who = NULL;
	fmt_rfc3339(it->date, when);
	switch (it->kind) {
	case DUE_OVERDUE:
		return xasprintf("overdue since %s (%ld day%s)", when, n,
				 n == 1 ? "" : "s");
	case DUE_SOON:
		return xasprintf("due %s (%s)", when,
				 fmt_in_days(it->days, in));
	case DUE_UNDATED_OVERDUE:
	case DUE_UNDATED_SOON:
		return xasprintf("no date set; the policy %s %s",
				 r->public ? "date is now,"
					 : it->kind == DUE_UNDATED_OVERDUE
					 ? "default passed at"
					 : "default ends",
				 when);
	case DUE_REPORTER_WAITING:
		return xasprintf(
			"reporter waiting: received %s, no reply for %ld "
			"working days (reply %lld)",
			when, it->days, (long long)r->id);
	case DUE_VENDOR_SILENT:
		*who = it->vendor->name;
		return xasprintf(
			"vendor %s notified %s, silent for %ld working days",
			it->vendor->name, when, it->days);
	case DUE_PARTICIPANT_UNACKED:
		*who = it->participant->email;
		return xasprintf(
			"participant %s brought in %s, not acknowledged "
			"after %ld working days",
			it->participant->email, when, it->days);
	case DUE_CVE_UNPUBLISHED:
		return xasprintf(
			"%s reserved and the report disclosed, but not "
			"published (export --format cve writes the record, "
			"cve %lld --publish records it)",
			it->cves, (long long)r->id);
	}
	(void)d;
	return xstrdup("");
}

/* `due --mail [--dry-run] [--outbox MAILDIR | --sendmail]`. */
static int mail_exec(struct cmd_ctx *ctx, struct due_mail_opts *o,
		     bool use_sendmail)
{
	struct due_mail_result res;
	int rc;

	if (use_sendmail)
		o->sendmail = config_get(ctx->sess->cfg, "forward.sendmail",
					 "sendmail -t -oi");
	else if (!o->outbox)
		o->outbox = config_get(ctx->sess->cfg, "forward.outbox", NULL);
	if (!o->dry_run && !o->outbox && !o->sendmail) {
		err_setc(
			&ctx->err, ERR_INVALID,
			"due --mail: say where the mail goes: --outbox MAILDIR or "
			"--sendmail (or set forward.outbox in the config)");
		return CMD_USAGE;
	}
	if (due_mail(ctx->sess, o, &res, &ctx->err) < 0) {
		due_mail_result_release(&res);
		return CMD_FAILED;
	}
	for (size_t i = 0; i < res.n; i++) {
		const struct due_mail_line *l = &res.v[i];

		switch (l->what) {
		case DUE_MAIL_SENT:
			fprintf(ctx->out, "sent\t%s\n", l->text);
			break;
		case DUE_MAIL_WOULD_SEND:
			fprintf(ctx->out, "would send\t%s\n", l->text);
			break;
		case DUE_MAIL_SKIPPED:
		case DUE_MAIL_WARNING:
			fprintf(ctx->errout, "warning: %s\n", l->text);
			break;
		}
	}
	rc = res.skipped ? CMD_FAILED : CMD_OK;
	cmd_summary(ctx, "%zu reminder%s %s, %zu skipped", res.sent,
		    res.sent == 1 ? "" : "s",
		    o->dry_run ? "would be sent" : "sent", res.skipped);
	if (res.skipped)
		err_setc(&ctx->err, ERR_IO,
			 "%zu reminder%s due not sent (see the warnings)",
			 res.skipped, res.skipped == 1 ? "" : "s");
	due_mail_result_release(&res);
	return rc;
}

static int cmd_due_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct due d;
	struct due_mail_opts mo;
	long within = DUE_WITHIN_DEFAULT;
	json_t *items = NULL;
	bool json = false, mail = false, use_sendmail = false;
	struct store *s;
	int c, r = 0;

	memset(&mo, 0, sizeof(mo));
	while ((c = cmd_getopt(ctx, argc, argv)) != -1) {
		switch (c) {
		case 'w':
			if (parse_duration(optarg, &within, &ctx->err) < 0)
				return CMD_USAGE;
			if (within < 0) {
				err_setc(&ctx->err, ERR_INVALID,
					 "--within must not be negative ('%s')",
					 optarg);
				return CMD_USAGE;
			}
			break;
		case 'j':
			json = true;
			break;
		case 'm':
			mail = true;
			break;
		case 'n':
			mo.dry_run = true;
			break;
		case 'o':
			mo.outbox = optarg;
			break;
		case 's':
			use_sendmail = true;
			break;
		default:
			return cmd_usage(ctx, "due");
		}
	}
	if (optind != argc || (mail && json) ||
	    (!mail && (mo.dry_run || mo.outbox || use_sendmail)) ||
	    (mo.outbox && use_sendmail))
		return cmd_usage(ctx, "due");
	/* A run from cron reads sealed names and addresses: without the
	 * team key it stops here, in one line, rather than mail or print
	 * what does not open. */
	if (!(s = cmd_store(ctx)) ||
	    session_team_key_open(ctx->sess, &ctx->err) < 0)
		return CMD_FAILED;
	if (mail)
		return mail_exec(ctx, &mo, use_sendmail);
	if (json)
		items = json_array();
	if (due_compute(ctx->sess, util_now(), within, &d, &ctx->err) < 0)
		r = -1;
	for (size_t i = 0; r == 0 && i < d.n; i++) {
		const char *who;
		char *text = describe(&d, &d.v[i], &who);

		item(ctx, items, &d.v[i], who, text);
		free(text);
	}
	if (r == 0 && json) {
		json_t *o = json_pack("{s:o, s:I, s:O}", "now",
				      json_time(d.now), "within_seconds",
				      (json_int_t)within, "items", items);
		json_print(ctx->out, o);
		json_decref(o);
	}
	json_decref(items);
	due_release(&d);
	return r < 0 ? CMD_FAILED : CMD_OK;
}

/* `due` in the command table (cmd/cmd.c); its options, each declared
 * once: parsed by cmd_getopt, shown by --help, the usage, the man page. */
static const struct cmd_opt opts[] = {
	{ .name = "within",
	  .key = 'w',
	  .arg = "D",
	  .help = "the window ahead, e.g. 2d or 12h (default 2d)" },
	{ .name = "json",
	  .key = 'j',
	  .help = "a JSON array of the items instead of lines" },
	{ .name = "mail",
	  .key = 'm',
	  .help = "send the reminders (each recipient at most once per report per 2 working days)" },
	{ .name = "dry-run",
	  .key = 'n',
	  .help = "with --mail: print who would get what, send and record nothing" },
	{ .name = "outbox",
	  .key = 'o',
	  .arg = "MAILDIR",
	  .help = "with --mail: deliver into MAILDIR (else forward.outbox)" },
	{ .name = "sendmail",
	  .key = 's',
	  .help = "with --mail: deliver with forward.sendmail" },
	{ NULL },
};
static const char *const examples[] = { "due --within 3d",
					"due --mail --dry-run", NULL };
const struct cmd_entry cmd_due_entry = {
	.name = "due",
	.usage = "",
	.help = "reports due or overdue, silent vendors, unacknowledged participants, waiting reporters",
	.exec = cmd_due_exec,
	.opts = opts,
	.target = CMD_TARGET_NONE,
	.exit1 = "an action or input failed (refused, not found, cannot open)",
	.examples = examples,
};
