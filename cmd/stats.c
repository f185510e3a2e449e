/*
 * `stats [--json]`: the team's numbers (stats.h): reports per month, by
 * state and by subsystem, the median and 90th percentile of days from
 * receipt to triage, fix and disclosure, decided embargoes longer than 7
 * and 14 days, and the reports overdue now.  Subsystem names come from
 * reports' text: escaped.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "export/export.h"
#include "core/core.h"
#include "core/json.h"
#include "core/stats.h"

#define OVERDUE_LISTED 20

static void print_counts(FILE *out, const char *title,
			 const struct stats_count *v, size_t n)
{
	fprintf(out, "%s\n", title);
	for (size_t i = 0; i < n; i++) {
		char *name = safe_str(v[i].name);
		fprintf(out, "  %-20s %zu\n", name, v[i].n);
		free(name);
	}
}

static void print_days(FILE *out, const char *what, const struct stats_days *d)
{
	if (d->n)
		fprintf(out,
			"  %-20s median %.1f, 90th percentile %.1f (%zu report%s)\n",
			what, d->median, d->p90, d->n, d->n == 1 ? "" : "s");
	else
		fprintf(out, "  %-20s - (no report yet)\n", what);
}

static void print_text(FILE *out, const struct team_stats *st)
{
	char when[32];

	fprintf(out, "Reports              %zu (at %s)\n", st->reports,
		fmt_rfc3339(st->now, when));
	print_counts(out, "By month received", st->months, st->nmonths);
	print_counts(out, "By state", st->states, st->nstates);
	print_counts(out, "By subsystem", st->subsystems, st->nsubsystems);
	fprintf(out, "Days from receipt\n");
	print_days(out, "to triage", &st->triage);
	print_days(out, "to fix", &st->fix);
	print_days(out, "to disclose", &st->disclose);
	fprintf(out,
		"Embargoes            %zu decided, %zu longer than 7 days, "
		"%zu longer than 14\n",
		st->decided, st->over7, st->over14);
	fprintf(out, "Overdue now          %zu", st->noverdue);
	for (size_t i = 0; i < st->noverdue && i < OVERDUE_LISTED; i++)
		fprintf(out, "%s#%lld", i ? " " : ": ",
			(long long)st->overdue[i]);
	fputs(st->noverdue > OVERDUE_LISTED ? " ... (--json lists them all)\n"
					    : "\n",
	      out);
}

static json_t *counts_json(const struct stats_count *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a,
				      json_pack("{s:o, s:I}", "name",
						json_text(v[i].name), "reports",
						(json_int_t)v[i].n));
	return a;
}

static json_t *days_json(const struct stats_days *d)
{
	if (!d->n)
		return json_pack("{s:i, s:n, s:n}", "reports", 0, "median",
				 "p90");
	return json_pack("{s:I, s:f, s:f}", "reports", (json_int_t)d->n,
			 "median", d->median, "p90", d->p90);
}

static json_t *stats_json(const struct team_stats *st)
{
	json_t *ids = json_array();

	for (size_t i = 0; i < st->noverdue; i++)
		json_array_append_new(ids, json_integer(st->overdue[i]));
	return json_pack(
		"{s:o, s:I, s:o, s:o, s:o, s:{s:o, s:o, s:o},"
		" s:{s:I, s:I, s:I}, s:o}",
		"now", json_time(st->now), "reports", (json_int_t)st->reports,
		"months", counts_json(st->months, st->nmonths), "states",
		counts_json(st->states, st->nstates), "subsystems",
		counts_json(st->subsystems, st->nsubsystems), "days", "triage",
		days_json(&st->triage), "fix", days_json(&st->fix), "disclose",
		days_json(&st->disclose), "embargoes", "decided",
		(json_int_t)st->decided, "over_7_days", (json_int_t)st->over7,
		"over_14_days", (json_int_t)st->over14, "overdue", ids);
}

static int cmd_stats_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct team_stats st;
	bool json = false;
	int c;

	while ((c = cmd_getopt(ctx, argc, argv)) != -1) {
		if (c == 'j')
			json = true;
		else
			return cmd_usage(ctx, "stats");
	}
	if (optind != argc)
		return cmd_usage(ctx, "stats");
	if (team_stats_compute(ctx->sess, &st, &ctx->err) < 0)
		return CMD_FAILED;
	if (json) {
		json_t *j = stats_json(&st);
		json_print(ctx->out, j);
		json_decref(j);
	} else {
		print_text(ctx->out, &st);
	}
	team_stats_release(&st);
	return CMD_OK;
}

/* `stats` in the command table (cmd/cmd.c); its options, each declared
 * once: parsed by cmd_getopt, shown by --help, the usage, the man page. */
static const struct cmd_opt opts[] = {
	{ .name = "json",
	  .key = 'j',
	  .help = "a JSON object instead of the text" },
	{ NULL },
};
static const char *const examples[] = { "stats", "stats --json", NULL };
const struct cmd_entry cmd_stats_entry = {
	.name = "stats",
	.usage = "",
	.help = "the team's numbers: reports per month, state, subsystem; days to triage, fix, disclose",
	.exec = cmd_stats_exec,
	.opts = opts,
	.target = CMD_TARGET_NONE,
	.exit1 = "the database cannot be read",
	.examples = examples,
};
