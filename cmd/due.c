/*
 * `due [--within 2d] [--json]`: what needs an officer's attention, for
 * cron or a status bar.  For every open report: its disclosure date when
 * overdue or due within the window (or, with no date decided, the
 * policy's default limit, from policy_check()); vendors notified and
 * silent for 5 working days (Monday to Friday, UTC); participants
 * brought in who have not acknowledged; reporters who have had no
 * reply after 2 working days (reporter_waiting).  And every disclosed report
 * (state disclosed or closed, public, or its date passed) whose CVE ID is
 * reserved but has no published record yet (fixcve.h).  Prints nothing
 * when all is well; always exits 0 unless the store fails.  With --mail
 * it sends the reminders instead (reminders.c): one line per message
 * ("sent" or, with --dry-run, "would send" <TAB> kind <TAB> recipient
 * <TAB> report); exit 1 when a reminder could not be sent (no usable
 * key, ...).  The dry run checks the keys too, so it warns of, and exits
 * 1 for, the same skips as the real run.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "export/export.h"
#include "core/core.h"
#include "core/fixcve.h"
#include "core/json.h"
#include "store/store.h"

#define SILENT_WORKING_DAYS 5

struct due_run {
	struct cmd_ctx *ctx;
	struct policy pol;
	time_t now;
	long within;
	json_t *items;          /* with --json */
	struct report_vendor *vendors;
	size_t nvendors;
	struct pending_participant *parts;
	size_t nparts;
	struct report_milestones *ms;
	size_t nms;
};

static void item(struct due_run *d, const struct report *r, const char *kind,
		 time_t date, const char *who, const char *text)
{
	if (d->items) {
		json_array_append_new(d->items, json_pack(
			"{s:I, s:s, s:o, s:o, s:o, s:o}", "report", (json_int_t)r->id,
			"kind", kind, "date", json_time(date), "who", json_text(who),
			"subject", json_text(r->subject), "text", json_text(text)));
	} else {
		char *t = safe_str(text), *s = safe_str(r->subject);
		fprintf(d->ctx->out, "#%lld %s: %s\n", (long long)r->id, t, s);
		free(t);
		free(s);
	}
}

/* The report's deadline (embargo.c: the decided date, else the policy
 * default) when it passed or falls within the window. */
static void deadline_item(struct due_run *d, const struct report *r)
{
	struct embargo e;
	char when[32];
	char *text;
	long n;

	embargo_of_report(&d->pol, r, d->now, &e);
	fmt_rfc3339(e.deadline, when);
	n = e.days < 0 ? -e.days : e.days;
	if (e.decided) {
		if (e.deadline < d->now)
			text = xasprintf("overdue since %s (%ld day%s)", when, n,
					 n == 1 ? "" : "s");
		else if (e.deadline <= d->now + d->within)
			text = xasprintf("due %s (in %ld day%s)", when, n,
					 n == 1 ? "" : "s");
		else
			return;
		item(d, r, e.deadline < d->now ? "overdue" : "due", e.deadline,
		     NULL, text);
	} else {
		if (e.deadline >= d->now + d->within)
			return;
		text = xasprintf("no date set; the policy %s %s",
				 r->public ? "date is now," : e.deadline < d->now ?
				 "default passed at" : "default ends", when);
		item(d, r, e.deadline < d->now ? "undated-overdue" : "undated-due",
		     e.deadline, NULL, text);
	}
	free(text);
}

static int each(const struct report *r, void *data)
{
	struct due_run *d = data;
	char when[32];
	char *text;

	deadline_item(d, r);
	if (reporter_waiting(r, d->ms, d->nms, d->now)) {
		long wd = working_days_between(r->received, d->now);
		text = xasprintf("reporter waiting: received %s, no reply for %ld "
				 "working days (reply %lld)", fmt_rfc3339(r->received, when),
				 wd, (long long)r->id);
		item(d, r, "reporter-waiting", r->received, NULL, text);
		free(text);
	}
	for (size_t i = 0; i < d->nvendors; i++) {
		const struct report_vendor *v = &d->vendors[i];
		long wd;
		if (v->report_id != r->id || strcmp(v->status, "notified") ||
		    !v->notified_at)
			continue;
		wd = working_days_between(v->notified_at, d->now);
		if (wd < SILENT_WORKING_DAYS)
			continue;
		text = xasprintf("vendor %s notified %s, silent for %ld working days",
				 v->name, fmt_rfc3339(v->notified_at, when), wd);
		item(d, r, "vendor-silent", v->notified_at, v->name, text);
		free(text);
	}
	for (size_t i = 0; i < d->nparts; i++) {
		const struct pending_participant *p = &d->parts[i];
		if (p->report_id != r->id)
			continue;
		text = xasprintf("participant %s brought in %s, not acknowledged",
				 p->email, fmt_rfc3339(p->added_at, when));
		item(d, r, "participant-unacknowledged", p->added_at, p->email, text);
		free(text);
	}
	return 0;
}

static bool disclosed(const struct report *r, time_t now)
{
	return report_state_class(r->state) == STATE_RELEASED || r->public ||
	       (r->disclosure && r->disclosure <= now);
}

/* Disclosed reports with a reserved CVE ID and no published record. */
static int unpublished(struct due_run *d)
{
	struct fixcve_row *rows;
	size_t n;
	int rc = 0;

	if (fixcve_all(d->ctx->sess, &rows, &n, &d->ctx->err) < 0)
		return -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		const struct fixcve *fc = &rows[i].fc;
		struct sbuf ids = SBUF_INIT;
		struct report r;
		char *text;
		for (size_t k = 0; k < fc->ncves; k++)
			if (!strcmp(fc->cves[k].state, "reserved"))
				sbuf_addf(&ids, "%s%s", ids.len ? ", " : "", fc->cves[k].id);
		if (!ids.len)
			continue;
		if ((rc = report_get(d->ctx->sess, rows[i].report_id, &r, &d->ctx->err)) < 0) {
			sbuf_release(&ids);
			break;
		}
		if (disclosed(&r, d->now)) {
			text = xasprintf("%s reserved and the report disclosed, but not published (export --format cve writes the record, cve %lld --publish records it)",
					 ids.buf, (long long)r.id);
			item(d, &r, "cve-unpublished", r.disclosure, NULL, text);
			free(text);
		}
		sbuf_release(&ids);
		report_release(&r);
	}
	fixcve_rows_free(rows, n);
	return rc < 0 ? -1 : 0;
}

/* The options of `due`; its row at the end of this file names them too
 * (where the report id goes, for the UI). */
static const struct option cmd_due_opts[] = {
	{ "within", required_argument, NULL, 'w' },
	{ "json", no_argument, NULL, 'j' },
	{ "mail", no_argument, NULL, 'm' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "outbox", required_argument, NULL, 'o' },
	{ "sendmail", no_argument, NULL, 's' },
	{ NULL, 0, NULL, 0 },
};

/* `due --mail [--dry-run] [--outbox MAILDIR | --sendmail]`. */
static int mail_exec(struct cmd_ctx *ctx, struct due_mail_opts *o,
		     bool use_sendmail)
{
	struct due_mail_result res;
	int rc;

	if (use_sendmail)
		o->sendmail = config_get(ctx->sess->cfg, "forward.sendmail", "sendmail -t -oi");
	else if (!o->outbox)
		o->outbox = config_get(ctx->sess->cfg, "forward.outbox", NULL);
	if (!o->dry_run && !o->outbox && !o->sendmail) {
		err_setc(&ctx->err, ERR_INVALID,
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
		    res.sent == 1 ? "" : "s", o->dry_run ? "would be sent" : "sent",
		    res.skipped);
	if (res.skipped)
		err_setc(&ctx->err, ERR_IO, "%zu reminder%s due not sent (see the warnings)",
			 res.skipped, res.skipped == 1 ? "" : "s");
	due_mail_result_release(&res);
	return rc;
}

static int cmd_due_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct report_filter f = { NULL, true, "deadline", NULL, NULL };
	struct due_run d;
	struct due_mail_opts mo;
	bool json = false, mail = false, use_sendmail = false;
	struct store *s;
	int c, r = 0;

	memset(&d, 0, sizeof(d));
	memset(&mo, 0, sizeof(mo));
	d.within = 2 * 86400;
	while ((c = getopt_long(argc, argv, "", cmd_due_opts, NULL)) != -1) {
		switch (c) {
		case 'w':
			if (parse_duration(optarg, &d.within, &ctx->err) < 0)
				return CMD_USAGE;
			if (d.within < 0) {
				err_setc(&ctx->err, ERR_INVALID,
					 "--within must not be negative ('%s')", optarg);
				return CMD_USAGE;
			}
			break;
		case 'j': json = true; break;
		case 'm': mail = true; break;
		case 'n': mo.dry_run = true; break;
		case 'o': mo.outbox = optarg; break;
		case 's': use_sendmail = true; break;
		default: return cmd_usage(ctx, "due");
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
	d.ctx = ctx;
	d.now = util_now();
	policy_from_config(ctx->sess->cfg, &d.pol);
	if (json)
		d.items = json_array();
	if (store_report_vendors_get(s, 0, &d.vendors, &d.nvendors, &ctx->err) < 0 ||
	    store_participants_unacked(s, 0, &d.parts, &d.nparts, &ctx->err) < 0 ||
	    store_report_milestones(s, &d.ms, &d.nms, &ctx->err) < 0 ||
	    report_each(ctx->sess, &f, each, &d, &ctx->err) < 0 ||
	    unpublished(&d) < 0)
		r = -1;
	if (r == 0 && json) {
		json_t *o = json_pack("{s:o, s:I, s:O}", "now", json_time(d.now),
				      "within_seconds", (json_int_t)d.within,
				      "items", d.items);
		json_print(ctx->out, o);
		json_decref(o);
	}
	json_decref(d.items);
	for (size_t i = 0; i < d.nvendors; i++)
		report_vendor_release(&d.vendors[i]);
	free(d.vendors);
	for (size_t i = 0; i < d.nparts; i++)
		pending_participant_release(&d.parts[i]);
	free(d.parts);
	free(d.ms);
	return r < 0 ? CMD_FAILED : CMD_OK;
}

/* `due` in the command table (cmd/cmd.c). */
static const struct cmd_opt_help opt_help[] = {
	{ "--within D", "the window ahead, e.g. 2d or 12h (default 2d)" },
	{ "--json", "a JSON array of the items instead of lines" },
	{ "--mail", "send the reminders (each recipient at most once per report per 2 working days)" },
	{ "--dry-run", "with --mail: print who would get what, send and record nothing" },
	{ "--outbox MAILDIR", "with --mail: deliver into MAILDIR (else forward.outbox)" },
	{ "--sendmail", "with --mail: deliver with forward.sendmail" },
	{ NULL, NULL },
};
static const char *const examples[] = { "due --within 3d", "due --mail --dry-run", NULL };
const struct cmd_entry cmd_due_entry = {
	.name = "due",
	.usage = "[--within 2d] [--json] | --mail [--dry-run] [--outbox MAILDIR | --sendmail]",
	.help = "reports due or overdue, silent vendors, unacknowledged participants, waiting reporters",
	.exec = cmd_due_exec,
	.opts = cmd_due_opts,
	.target = CMD_TARGET_NONE,
	.opt_help = opt_help,
	.exit1 = "an action or input failed (refused, not found, cannot open)",
	.examples = examples,
};
