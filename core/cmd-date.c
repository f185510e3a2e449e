/*
 * `date propose|set|start-release|show`: the disclosure date.  Every
 * change asks policy_check() (policy.c) and is added, never edited: a
 * proposal records who suggested which date and why (with the policy's
 * verdict shown, never refused); a decision records the date an officer
 * set with the verdict, the reason and whether the policy was overridden;
 * the latest decision is the report's date.  Dates are stored in UTC and
 * shown in UTC and local time.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/core.h"
#include "core/json.h"

struct date_req {
	const char *sub;
	int64_t id;
	time_t date, now;
	const char *by, *reason;
	bool override;
	struct policy pol;
	struct policy_answer ans;
	char *detail;
};

static const char *both(time_t t, char buf[static 128])
{
	char u[32], l[64];

	snprintf(buf, 128, "%s (%s)", fmt_rfc3339(t, u), fmt_local(t, l));
	return buf;
}

static int apply_propose(struct cmd_ctx *ctx, void *data, struct err *err)
{
	struct date_req *d = data;
	struct report r;
	struct proposal p = { 0, d->id, (char *)d->by, d->date, (char *)d->reason,
			      ctx->officer, d->now };
	char when[32];
	int rc;

	if ((rc = store_report_get(ctx->store, d->id, &r, err)) < 0)
		return rc;
	if (str_starts(d->by, "vendor:")) {
		struct vendor v;
		if ((rc = store_vendor_get(ctx->store, d->by + 7, &v, err)) < 0)
			goto out;
		vendor_release(&v);
	}
	policy_check(&d->pol, &r, d->date, true, false, d->now, &d->ans);
	if ((rc = store_proposal_add(ctx->store, &p, err)) < 0)
		goto out;
	d->detail = xasprintf("%s proposed %s (policy: %s): %s", d->by,
			      fmt_rfc3339(d->date, when),
			      policy_verdict_name(d->ans.verdict), d->reason);
	rc = store_event_add(ctx->store, d->id, ctx->officer, "date-propose",
			     d->detail, err);
out:
	report_release(&r);
	return rc;
}

static int apply_set(struct cmd_ctx *ctx, void *data, struct err *err)
{
	struct date_req *d = data;
	struct report r;
	struct decision dc;
	char when[32];
	int rc;

	if ((rc = store_report_get(ctx->store, d->id, &r, err)) < 0)
		return rc;
	policy_check(&d->pol, &r, d->date, d->reason != NULL, d->override,
		     d->now, &d->ans);
	if (!d->ans.allowed) {
		rc = err_setc(err, ERR_REFUSED, "%s", d->ans.msg);
		goto out;
	}
	dc = (struct decision){ 0, d->id, d->date,
				(char *)policy_verdict_name(d->ans.verdict),
				(char *)d->reason, d->override, ctx->officer, d->now };
	if ((rc = store_decision_add(ctx->store, &dc, err)) < 0)
		goto out;
	d->detail = xasprintf("disclosure date set to %s (policy: %s%s)%s%s",
			      fmt_rfc3339(d->date, when),
			      policy_verdict_name(d->ans.verdict),
			      d->override ? ", overridden" : "",
			      d->reason ? ": " : "", d->reason ? d->reason : "");
	rc = store_event_add(ctx->store, d->id, ctx->officer, "date-set",
			     d->detail, err);
out:
	report_release(&r);
	return rc;
}

static int apply_start(struct cmd_ctx *ctx, void *data, struct err *err)
{
	struct date_req *d = data;
	struct report r;
	struct report_update u = { NULL, NULL, NULL, -1, -1, -1, d->now };
	char when[32];
	int rc;

	if ((rc = store_report_get(ctx->store, d->id, &r, err)) < 0)
		return rc;
	if (r.release_started) {
		rc = err_setc(err, ERR_REFUSED,
			      "report %lld: the release process started already, at %s",
			      (long long)d->id, fmt_rfc3339(r.release_started, when));
		goto out;
	}
	if ((rc = store_report_update(ctx->store, d->id, &u, err)) < 0)
		goto out;
	r.release_started = d->now;
	policy_check(&d->pol, &r, d->now, false, false, d->now, &d->ans);
	d->detail = xasprintf("release process started: the policy clock now runs from %s",
			      fmt_rfc3339(d->now, when));
	rc = store_event_add(ctx->store, d->id, ctx->officer, "release-start",
			     d->detail, err);
out:
	report_release(&r);
	return rc;
}

static int do_show(struct cmd_ctx *ctx, struct date_req *d, bool json)
{
	struct dossier ds;
	const struct report *r;
	FILE *out = ctx->out;
	char b[128];

	if (dossier_load(ctx, d->id, &ds, &ctx->err) < 0) {
		dossier_release(&ds);
		return CMD_FAILED;
	}
	r = &ds.f.r;
	if (json) {
		json_t *j = disclosure_json(ctx, r);
		json_object_set_new(j, "id", json_integer((json_int_t)r->id));
		json_print(out, j);
		json_decref(j);
		dossier_release(&ds);
		return CMD_OK;
	}
	fprintf(out, "Report %lld\n", (long long)r->id);
	fprintf(out, "%-16s %s\n", "Clock start", both(ds.ans.clock_start, b));
	fprintf(out, "%-16s %s\n", "", r->release_started ?
		"(start of the release process)" : "(report received)");
	fprintf(out, "%-16s %s, %ld days\n", "Default limit",
		both(ds.ans.default_limit, b), ds.pol.default_days);
	fprintf(out, "%-16s %s, %ld days, with a reason\n", "Maximum",
		both(ds.ans.max_limit, b), ds.pol.max_days);
	if (r->public)
		fprintf(out, "%-16s already public: the policy date is now\n", "Public");
	if (r->disclosure) {
		const struct decision *last = &ds.decisions[ds.ndecisions - 1];
		char *m = safe_str(ds.ans.msg);
		fprintf(out, "%-16s %s\n", "Disclosure", both(r->disclosure, b));
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
		fprintf(out, "  %s by %s [%s], recorded %s: %s\n", both(p->date, b),
			by, policy_verdict_name(pa.verdict), fmt_rfc3339(p->at, at), rs);
		free(by);
		free(rs);
	}
	fprintf(out, "\nDecisions:%s\n", ds.ndecisions ? "" : " none");
	for (size_t i = 0; i < ds.ndecisions; i++) {
		const struct decision *dc = &ds.decisions[i];
		char *o = safe_str(dc->officer), *rs = safe_str(dc->reason), at[32];
		fprintf(out, "  %s [%s%s] by %s at %s%s%s\n", both(dc->date, b),
			dc->verdict, dc->override ? ", overridden" : "", o,
			fmt_rfc3339(dc->at, at), dc->reason ? ": " : "", rs);
		free(o);
		free(rs);
	}
	dossier_release(&ds);
	return CMD_OK;
}

static bool valid_by(const char *by)
{
	if (!strcmp(by, "reporter") || !strcmp(by, "officer"))
		return true;
	if (str_starts(by, "vendor:"))
		return by[7] != '\0';
	if (str_starts(by, "maintainer:"))
		return strchr(by + 11, '@') != NULL && !strchr(by, ' ');
	return false;
}

int cmd_date_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "by", required_argument, NULL, 'b' },
		{ "reason", required_argument, NULL, 'r' },
		{ "override", no_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	int (*fn)(struct cmd_ctx *, void *, struct err *) = NULL;
	struct date_req d;
	bool json = false;
	char **pos, b[128];
	int c, npos, r;

	memset(&d, 0, sizeof(d));
	if (argc < 2)
		return cmd_usage(ctx, "date");
	d.sub = argv[1];
	while ((c = getopt_long(argc - 1, argv + 1, "", opts, NULL)) != -1) {
		switch (c) {
		case 'b': d.by = optarg; break;
		case 'r': d.reason = optarg; break;
		case 'o': d.override = true; break;
		case 'j': json = true; break;
		default: return cmd_usage(ctx, "date");
		}
	}
	pos = argv + 1 + optind;
	npos = argc - 1 - optind;
	if (npos < 1)
		return cmd_usage(ctx, "date");
	if (parse_report_id(pos[0], &d.id, &ctx->err) < 0)
		return CMD_USAGE;
	if (d.reason && !*d.reason) {
		err_setc(&ctx->err, ERR_INVALID, "report %lld: empty --reason",
			 (long long)d.id);
		return CMD_USAGE;
	}
	d.now = util_now();
	policy_from_config(ctx->cfg, &d.pol);
	if (!strcmp(d.sub, "show")) {
		if (npos != 1 || d.by || d.reason || d.override)
			return cmd_usage(ctx, "date");
		return do_show(ctx, &d, json);
	}
	if (json)
		return cmd_usage(ctx, "date");
	if (!strcmp(d.sub, "propose") || !strcmp(d.sub, "set")) {
		bool propose = !strcmp(d.sub, "propose");
		if (npos != 2 || (propose && d.override) || (!propose && d.by))
			return cmd_usage(ctx, "date");
		if (parse_date(pos[1], d.now, &d.date, &ctx->err) < 0)
			return CMD_USAGE;
		if (propose && (!d.by || !valid_by(d.by))) {
			err_setc(&ctx->err, ERR_INVALID,
				 "report %lld: --by must be reporter, officer, vendor:NAME or maintainer:EMAIL",
				 (long long)d.id);
			return CMD_USAGE;
		}
		if (propose && !d.reason) {
			err_setc(&ctx->err, ERR_INVALID,
				 "report %lld: a proposal needs --reason", (long long)d.id);
			return CMD_USAGE;
		}
		fn = propose ? apply_propose : apply_set;
	} else if (!strcmp(d.sub, "start-release")) {
		if (npos != 1 || d.by || d.reason || d.override)
			return cmd_usage(ctx, "date");
		fn = apply_start;
	} else {
		err_setc(&ctx->err, ERR_INVALID,
			 "unknown date command '%s' (propose, set, start-release, show)",
			 d.sub);
		return CMD_USAGE;
	}
	r = core_write(ctx, fn, &d, &ctx->err);
	if (r == 0) {
		char *detail = safe_str(d.detail), *msg = safe_str(d.ans.msg);
		fprintf(ctx->out, "report %lld: %s\n", (long long)d.id, detail);
		if (fn != apply_start)
			fprintf(ctx->out, "  date: %s\n  policy: %s\n", both(d.date, b), msg);
		else
			fprintf(ctx->out, "  default limit: %s\n",
				both(d.ans.default_limit, b));
		free(detail);
		free(msg);
		if (fn == apply_set && d.date < d.now)
			fprintf(ctx->errout, "warning: report %lld: the date %s is in the past\n",
				(long long)d.id, both(d.date, b));
	}
	free(d.detail);
	return r < 0 ? CMD_FAILED : CMD_OK;
}
