/*
 * `date propose|set|start-release|show`: the disclosure date.  Parses
 * the arguments for the use cases of dates.c (which check the policy and
 * record the change) and prints what they answer; `show` prints the
 * clock, the limits, the proposals and the decisions.  Dates are stored
 * in UTC and shown in UTC and local time.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "export/export.h"
#include "core/dates.h"
#include "core/json.h"

static const char *both(time_t t, char buf[static 128])
{
	char u[32], l[64];

	snprintf(buf, 128, "%s (%s)", fmt_rfc3339(t, u), fmt_local(t, l));
	return buf;
}

static int do_show(struct cmd_ctx *ctx, int64_t id, bool json)
{
	struct dossier ds;
	const struct report *r;
	FILE *out = ctx->out;
	char b[128];

	if (dossier_load(ctx->sess, id, &ds, &ctx->err) < 0) {
		dossier_release(&ds);
		return CMD_FAILED;
	}
	r = &ds.f.r;
	cmd_say_hidden(ctx, &ds.f);
	if (json) {
		json_t *j = disclosure_json(ctx->sess, &ds.f);
		json_object_set_new(j, "id", json_integer((json_int_t)r->id));
		json_print(out, j);
		json_decref(j);
		dossier_release(&ds);
		return CMD_OK;
	}
	fprintf(out, "Report %lld\n", (long long)r->id);
	fprintf(out, "%-16s %s\n", "Clock start", both(ds.ans.clock_start, b));
	fprintf(out, "%-16s %s\n", "",
		r->release_started ? "(start of the release process)"
				   : "(report received)");
	fprintf(out, "%-16s %s, %ld days\n", "Default limit",
		both(ds.ans.default_limit, b), ds.pol.default_days);
	fprintf(out, "%-16s %s, %ld days, with a reason\n", "Maximum",
		both(ds.ans.max_limit, b), ds.pol.max_days);
	if (r->public)
		fprintf(out, "%-16s already public: the policy date is now\n",
			"Public");
	if (r->disclosure) {
		const struct decision *last = &ds.decisions[ds.ndecisions - 1];
		char *m = safe_str(ds.ans.msg);
		fprintf(out, "%-16s %s\n", "Disclosure",
			both(r->disclosure, b));
		fprintf(out, "%-16s %s%s\n", "Verdict", last->verdict,
			last->override ? ", overridden" : "");
		if (last->reason) {
			char *rs = safe_str(last->reason);
			fprintf(out, "%-16s %s\n", "Reason", rs);
			free(rs);
		}
		fprintf(out, "%-16s %s\n", "Policy now", m);
		free(m);
	} else {
		fprintf(out, "%-16s not set\n", "Disclosure");
	}
	fprintf(out, "\nProposals:%s\n", ds.nproposals ? "" : " none");
	for (size_t i = 0; i < ds.nproposals; i++) {
		const struct proposal *p = &ds.proposals[i];
		struct policy_answer pa;
		char *by = safe_str(p->by), *rs = safe_str(p->reason), at[32];
		policy_check(&ds.pol, r, p->date, true, false, ds.now, &pa);
		fprintf(out, "  %s by %s [%s], recorded %s: %s\n",
			both(p->date, b), by, policy_verdict_name(pa.verdict),
			fmt_rfc3339(p->at, at), rs);
		free(by);
		free(rs);
	}
	fprintf(out, "\nDecisions:%s\n", ds.ndecisions ? "" : " none");
	for (size_t i = 0; i < ds.ndecisions; i++) {
		const struct decision *dc = &ds.decisions[i];
		char *o = safe_str(dc->officer), *rs = safe_str(dc->reason),
		     at[32];
		fprintf(out, "  %s [%s%s] by %s at %s%s%s\n", both(dc->date, b),
			dc->verdict, dc->override ? ", overridden" : "", o,
			fmt_rfc3339(dc->at, at), dc->reason ? ": " : "", rs);
		free(o);
		free(rs);
	}
	dossier_release(&ds);
	return CMD_OK;
}

/*
 * getopt takes "-3d" in `date set 3 -3d` for options -3 and -d and the
 * user got the bare usage line.  A word that starts with '-' and a digit
 * is never an option of `date`: where the DATE goes it is a date before
 * now, which a disclosure date cannot be; where the ID goes, a bad ID.
 * Sets ctx->err naming it and returns true then.
 */
static bool negative_date(struct cmd_ctx *ctx, int argc, char **argv)
{
	int npos = 0;

	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--"))
			break;
		if (!strcmp(a, "--by") || !strcmp(a, "--reason")) {
			i++; /* the option's value */
			continue;
		}
		if (a[0] != '-' || !a[1]) {
			npos++;
			continue;
		}
		if (a[1] < '0' || a[1] > '9')
			continue;
		if (npos == 0) {
			int64_t id;
			return parse_report_id(a, &id, &ctx->err) < 0;
		}
		err_setc(
			&ctx->err, ERR_INVALID,
			"invalid date '%s' (expected 2026-12-09, 2026-12-09T12:00Z, +7d or now: not a time before now)",
			a);
		return true;
	}
	return false;
}

static int cmd_date_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	const char *sub, *by = NULL, *reason = NULL;
	bool override = false, json = false;
	struct date_outcome o;
	char **pos, b[128];
	time_t date = 0;
	int64_t id;
	int c, npos, r;

	if (argc < 2)
		return cmd_usage(ctx, "date");
	sub = argv[1];
	if ((!strcmp(sub, "set") || !strcmp(sub, "propose")) &&
	    negative_date(ctx, argc, argv))
		return CMD_USAGE;
	while ((c = cmd_getopt(ctx, argc - 1, argv + 1)) != -1) {
		switch (c) {
		case 'b':
			by = optarg;
			break;
		case 'r':
			reason = optarg;
			break;
		case 'o':
			override = true;
			break;
		case 'j':
			json = true;
			break;
		default:
			return cmd_usage(ctx, "date");
		}
	}
	if ((c = cmd_report(ctx, "date", argc - 1, argv + 1, &id)) != 0)
		return c;
	pos = argv + 1 + optind;
	npos = argc - 1 - optind;
	if (!strcmp(sub, "show")) {
		if (npos != 0 || by || reason || override)
			return cmd_usage(ctx, "date");
		return do_show(ctx, id, json);
	}
	if (json)
		return cmd_usage(ctx, "date");
	if (!strcmp(sub, "propose") || !strcmp(sub, "set")) {
		bool propose = !strcmp(sub, "propose");
		if (npos != 1 || (!propose && by))
			return cmd_usage(ctx, "date");
		if (parse_date(pos[0], util_now(), &date, &ctx->err) < 0)
			return CMD_USAGE;
		r = propose ? date_propose(ctx->sess, id, date, by, reason,
					   override, &o, &ctx->err)
			    : date_set(ctx->sess, id, date, reason, override,
				       &o, &ctx->err);
	} else if (!strcmp(sub, "start-release")) {
		if (npos != 0 || by || reason || override)
			return cmd_usage(ctx, "date");
		r = date_start_release(ctx->sess, id, &o, &ctx->err);
	} else {
		return CMD_USAGE; /* cmd_run_at names a wrong sub-command */
	}
	if (r < 0) {
		date_outcome_release(&o);
		return ctx->err.code == ERR_INVALID ? CMD_USAGE : CMD_FAILED;
	}
	char *detail = safe_str(o.detail), *msg = safe_str(o.ans.msg);
	cmd_say(ctx, "report %lld: %s", (long long)id, detail);
	if (strcmp(sub, "start-release"))
		fprintf(ctx->out, "  date: %s\n  policy: %s\n", both(o.date, b),
			msg);
	else
		fprintf(ctx->out, "  default limit: %s\n",
			both(o.ans.default_limit, b));
	free(detail);
	free(msg);
	if (!strcmp(sub, "set") && o.date < util_now())
		fprintf(ctx->errout,
			"warning: report %lld: the date %s is in the past\n",
			(long long)id, both(o.date, b));
	date_outcome_release(&o);
	return CMD_OK;
}

/* `date` in the command table (cmd/cmd.c); its options, each declared
 * once: parsed by cmd_getopt, shown by --help, the usage, the man page. */
static const char *const whos[] = { "reporter", "officer",
				    "vendor:", "maintainer:", NULL };
static const struct cmd_opt opts[] = {
	{ .name = "by",
	  .key = 'b',
	  .arg = "WHO",
	  .subs = "propose",
	  .flags = CMD_OPT_REQUIRED,
	  .words = whos,
	  .help = "who proposes: reporter, officer, vendor:NAME or maintainer:EMAIL" },
	{ .name = "reason",
	  .key = 'r',
	  .arg = "TEXT",
	  .subs = "propose set",
	  .help = "why (needed past the policy's default)" },
	{ .name = "override",
	  .key = 'o',
	  .subs = "propose set",
	  .help = "a date past the policy's maximum (with --reason), or in the past" },
	{ .name = "json",
	  .key = 'j',
	  .subs = "show",
	  .help = "with show: a JSON object" },
	{ NULL },
};
/* One form a line: the forms hold commas. */
static char *dates(void)
{
	struct sbuf sb = SBUF_INIT;

	for (size_t i = 0; date_forms[i]; i++)
		sbuf_addf(&sb, "%s%s", i ? "\n" : "", date_forms[i]);
	return sbuf_detach(&sb, NULL);
}
static const struct cmd_values values[] = {
	{ "DATE", dates, NULL },
	{ NULL, NULL, NULL },
};
static const char *const examples[] = {
	"date propose 3 +10d --by reporter --reason 'needs a backport'",
	"date set 3 2026-12-09 --reason 'the fix is merged'",
	"date start-release 3", "date show 3", NULL
};
const struct cmd_entry cmd_date_entry = {
	.name = "date",
	.usage = "propose ID DATE | set ID DATE | start-release ID | show ID",
	.help = "propose, set and show disclosure dates under the embargo policy",
	.exec = cmd_date_exec,
	.opts = opts,
	.target = CMD_TARGET_REPORT,
	.target_subs = "propose set start-release show",
	.subs = "propose set start-release show",
	.exit1 = "the policy refused the date, or no such report",
	.examples = examples,
	.values = values,
};
