/*
 * `triage ID [--state S] [--severity S] [--claim|--unclaim] [--public]
 *  [--consent credit|exploit] [--note TEXT]`: every change is checked
 * (the lifecycle in triage.c), stored and logged as an event in one
 * transaction, so the timeline always matches the report.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

struct triage_req {
	int64_t id;
	const char *state;
	const char *severity;
	bool claim, unclaim, public, consent_credit, consent_exploit;
	const char *note;
	struct sbuf summary;
};

static int apply(struct cmd_ctx *ctx, void *data, struct err *err)
{
	struct triage_req *t = data;
	struct store *s = ctx->store;
	struct report r;
	struct report_update u = { NULL, NULL, NULL, -1, -1, -1, 0 };
	char *detail;
	int rc;

	if ((rc = store_report_get(s, t->id, &r, err)) < 0)
		return rc;
#define EVENT(kind, ...)                                                      \
	do {                                                                  \
		detail = xasprintf(__VA_ARGS__);                              \
		rc = store_event_add(s, t->id, ctx->officer, kind, detail, err); \
		sbuf_addf(&t->summary, "%s%s", t->summary.len ? "; " : "", detail); \
		free(detail);                                                 \
		if (rc < 0)                                                   \
			goto out;                                             \
	} while (0)
	if (t->state) {
		if ((rc = triage_check_transition(r.state, t->state, err)) < 0)
			goto out;
		u.state = t->state;
		EVENT("state", "%s -> %s", r.state, t->state);
	}
	if (t->severity && strcmp(t->severity, r.severity)) {
		u.severity = t->severity;
		EVENT("severity", "%s -> %s", r.severity, t->severity);
	}
	if (t->claim) {
		u.claimed_by = ctx->officer;
		EVENT("claim", "claimed by %s", ctx->officer);
	}
	if (t->unclaim) {
		u.claimed_by = "";
		EVENT("claim", "released by %s", ctx->officer);
	}
	if (t->public && !r.public) {
		u.public = 1;
		EVENT("public", "marked already public: the policy date is now");
	}
	if (t->consent_credit && !r.consent_credit) {
		u.consent_credit = 1;
		EVENT("consent", "reporter consents to be credited");
	}
	if (t->consent_exploit && !r.consent_exploit) {
		u.consent_exploit = 1;
		EVENT("consent", "reporter consents to the release of exploit code");
	}
	if ((rc = store_report_update(s, t->id, &u, err)) < 0)
		goto out;
	if (t->note)
		EVENT("note", "%s", t->note);
#undef EVENT
	rc = 0;
out:
	report_release(&r);
	return rc;
}

int cmd_triage_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "state", required_argument, NULL, 's' },
		{ "severity", required_argument, NULL, 'v' },
		{ "claim", no_argument, NULL, 'c' },
		{ "unclaim", no_argument, NULL, 'u' },
		{ "public", no_argument, NULL, 'p' },
		{ "consent", required_argument, NULL, 'C' },
		{ "note", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	struct triage_req t;
	int c, r;

	memset(&t, 0, sizeof(t));
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's': t.state = optarg; break;
		case 'v': t.severity = optarg; break;
		case 'c': t.claim = true; break;
		case 'u': t.unclaim = true; break;
		case 'p': t.public = true; break;
		case 'n': t.note = optarg; break;
		case 'C':
			if (!strcmp(optarg, "credit"))
				t.consent_credit = true;
			else if (!strcmp(optarg, "exploit"))
				t.consent_exploit = true;
			else {
				err_setc(&ctx->err, ERR_INVALID,
					 "unknown consent '%s' (credit or exploit)", optarg);
				return CMD_USAGE;
			}
			break;
		default: return cmd_usage(ctx, "triage");
		}
	}
	if (optind != argc - 1)
		return cmd_usage(ctx, "triage");
	if (parse_report_id(argv[optind], &t.id, &ctx->err) < 0)
		return CMD_USAGE;
	if (t.severity && !triage_severity_valid(t.severity)) {
		err_setc(&ctx->err, ERR_INVALID,
			 "unknown severity '%s' (none, low, medium, high, critical)",
			 t.severity);
		return CMD_USAGE;
	}
	if (t.state && !triage_state_valid(t.state)) {
		triage_check_transition("new", t.state, &ctx->err);
		return CMD_USAGE;
	}
	if (t.note && !*t.note) {
		err_setc(&ctx->err, ERR_INVALID, "empty note");
		return CMD_USAGE;
	}
	if (t.claim && t.unclaim)
		return cmd_usage(ctx, "triage");
	if (!t.state && !t.severity && !t.claim && !t.unclaim && !t.public &&
	    !t.consent_credit && !t.consent_exploit && !t.note)
		return cmd_usage(ctx, "triage");
	sbuf_init(&t.summary);
	r = core_write(ctx, apply, &t, &ctx->err);
	if (r == 0) {
		char *s = safe_str(t.summary.len ? t.summary.buf : "nothing changed");
		fprintf(ctx->out, "report %lld: %s\n", (long long)t.id, s);
		free(s);
	}
	sbuf_release(&t.summary);
	return r < 0 ? CMD_FAILED : CMD_OK;
}
