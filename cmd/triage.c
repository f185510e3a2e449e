/*
 * `triage ID [OPTION]...`: parses the arguments and hands them to triage_apply() (triage.c), which checks, stores and logs
 * every change in one transaction.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/core.h"

/* The question a stray key must not answer (cmd_guard: asked in the UI,
 * for its keys and its : line alike): the moves that end a report or
 * make it public, which cannot be undone, and accepting it.  NULL when
 * t needs none (caller frees). */
static char *guard_question(const struct triage_change *t)
{
	const char *state = t->state;

	if (state && !strcmp(state, "disclosed"))
		return xasprintf("disclose report %lld%s? (cannot be undone)",
				 (long long)t->id,
				 t->early ? " before its decided date" : "");
	if (state && !strcmp(state, "rejected"))
		return xasprintf("reject report %lld?", (long long)t->id);
	if (state && !strcmp(state, "accepted"))
		return xasprintf("accept report %lld?", (long long)t->id);
	if (t->public)
		return xasprintf(
			"mark report %lld already public? (cannot be undone)",
			(long long)t->id);
	return NULL;
}

/*
 * What is asked before t is applied, from one read of the report: a move
 * the lifecycle refuses is said at once, before any question (and not
 * checked again: t->checked_from); a claim on another officer's report
 * asks to take it over (cmd_confirm: the shell without a terminal needs
 * --take); then the guard question.  1 to go on, 0 when the officer said
 * no, or CMD_FAILED/CMD_USAGE negated, with ctx->err.
 */
static int ask_first(struct cmd_ctx *ctx, struct triage_change *t,
		     struct report *r, bool *have_r)
{
	char *q = guard_question(t), *who, *refusal;
	bool guarded = q && ctx->interactive && ctx->confirm && !ctx->yes;
	const char *held;
	int a = 1;

	if ((!t->claim || t->take) &&
	    !(guarded && t->state && triage_state_valid(t->state)))
		goto guard;
	if (report_get(ctx->sess, t->id, r, &ctx->err) < 0) {
		free(q);
		return -CMD_FAILED;
	}
	*have_r = true;
	if (guarded && t->state && triage_state_valid(t->state)) {
		if (triage_check_transition(r->state, t->state, &ctx->err) <
		    0) {
			err_prefix(&ctx->err, "report %lld", (long long)t->id);
			free(q);
			return -CMD_FAILED;
		}
		t->checked_from = r->state;
	}
	held = r->claimed_by ? r->claimed_by : "";
	if (t->claim && !t->take && *held && strcmp(held, ctx->sess->officer)) {
		who = safe_str(held);
		refusal = xasprintf(
			"report %lld is claimed by %s: --claim --take takes it over",
			(long long)t->id, who);
		a = cmd_confirm(ctx, refusal,
				"report %lld is claimed by %s: take it over?",
				(long long)t->id, who);
		free(refusal);
		free(who);
		if (a < 0) {
			free(q);
			return -CMD_FAILED;
		}
		t->take = a > 0;
	}
guard:
	if (a > 0 && q && !cmd_guard(ctx, "%s", q))
		a = 0;
	free(q);
	return a;
}

static int cmd_triage_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct triage_change t;
	struct report r;
	bool have_r = false;
	char *summary;
	int c;

	memset(&t, 0, sizeof(t));
	while ((c = cmd_getopt(ctx, argc, argv)) != -1) {
		switch (c) {
		case 's':
			t.state = optarg;
			break;
		case 'v':
			t.severity = optarg;
			break;
		case 'c':
			t.claim = true;
			break;
		case 't':
			t.take = true;
			break;
		case 'u':
			t.unclaim = true;
			break;
		case 'p':
			t.public = true;
			break;
		case 'n':
			t.note = optarg;
			break;
		case 'e':
			t.early = true;
			break;
		case 'r':
			t.reason = optarg;
			break;
		case 'o':
			if (parse_report_id(optarg, &t.of, &ctx->err) < 0)
				return CMD_USAGE;
			break;
		case 'C': /* one of its words: credit or exploit */
			if (!strcmp(optarg, "credit"))
				t.consent_credit = true;
			else
				t.consent_exploit = true;
			break;
		default:
			return cmd_usage(ctx, "triage");
		}
	}
	if ((c = cmd_report(ctx, "triage", argc, argv, &t.id)) != 0)
		return c;
	if (optind != argc)
		return cmd_usage(ctx, "triage");
	if (t.claim && t.unclaim)
		return cmd_usage(ctx, "triage");
	if (!t.state && !t.severity && !t.claim && !t.unclaim && !t.public &&
	    !t.consent_credit && !t.consent_exploit && !t.note && !t.of)
		return cmd_usage(ctx, "triage");
	if ((c = ask_first(ctx, &t, &r, &have_r)) <= 0) {
		if (have_r)
			report_release(&r);
		return c < 0 ? -c : cmd_declined(ctx);
	}
	c = triage_apply(ctx->sess, &t, &summary, &ctx->err);
	if (have_r)
		report_release(&r);
	if (c < 0)
		return ctx->err.code == ERR_INVALID ? CMD_USAGE : CMD_FAILED;
	cmd_say(ctx, "%s", summary);
	free(summary);
	return CMD_OK;
}

static const char *const consents[] = { "credit", "exploit", NULL };
static char *states(void)
{
	char *names = cmd_words(report_states), *moves = triage_moves_text();
	char *text = xasprintf("%s\nthe moves allowed:\n%s", names, moves);

	free(names);
	free(moves);
	return text;
}
static char *severities(void)
{
	return cmd_words(report_severities);
}
/* `triage` in the command table (cmd/cmd.c): its options, each once. */
static const struct cmd_opt opts[] = {
	{ .name = "state",
	  .key = 's',
	  .arg = "S",
	  .help = "move the report to state S (the allowed moves only)",
	  .list = states,
	  .words = report_states,
	  .flags = CMD_OPT_CLOSED },
	{ .name = "of",
	  .key = 'o',
	  .arg = "N",
	  .help = "with --state duplicate (required there): the report this one duplicates; alone, records or changes the link of a report already a duplicate",
	  .check = cmd_check_id },
	{ .name = "severity",
	  .key = 'v',
	  .arg = "S",
	  .help = "none, low, medium, high or critical",
	  .list = severities,
	  .words = report_severities,
	  .flags = CMD_OPT_CLOSED },
	{ .name = "claim",
	  .key = 'c',
	  .help = "make the officer running it the report's owner (refused, naming them, when another officer holds it)" },
	{ .name = "take",
	  .key = 't',
	  .help = "with --claim: take the report over from the officer who holds it" },
	{ .name = "unclaim",
	  .key = 'u',
	  .help = "leave the report without an owner" },
	{ .name = "public",
	  .key = 'p',
	  .help = "mark the report already public (its policy date is now)" },
	{ .name = "consent",
	  .key = 'C',
	  .arg = "credit|exploit",
	  .help = "record the reporter's consent to be credited, or to release exploit code",
	  .words = consents,
	  .flags = CMD_OPT_CLOSED },
	{ .name = "note",
	  .key = 'n',
	  .arg = "TEXT",
	  .help = "add an internal note to the timeline" },
	{ .name = "early",
	  .key = 'e',
	  .help = "with --state disclosed and --reason: disclose before the decided date (an event)" },
	{ .name = "reason",
	  .key = 'r',
	  .arg = "TEXT",
	  .help = "why the report is disclosed early" },
	{ NULL },
};
static const char *const examples[] = {
	"triage 3 --state triaged --severity high --claim",
	"triage 7 --state duplicate --of 3", NULL
};
const struct cmd_entry cmd_triage_entry = {
	.name = "triage",
	.usage = "ID",
	.help = "change a report's state, severity, owner or flags",
	.exec = cmd_triage_exec,
	.opts = opts,
	.target = CMD_TARGET_REPORT,
	.exit1 =
		"a refused move (disclosed before the decided date needs --early --reason), another officer's claim (--take), a refused duplicate link (of itself, of a duplicate, of no such report), or no such report",
	.examples = examples,
};
