/*
 * `search QUERY... [--json]`: the reports matching every term of the
 * query (core/search.h: words, "phrases", file:, from:, state:,
 * received:A..B), one line each,
 *   ID  STATE  RECEIVED  SUBJECT  MATCH
 * where MATCH says where the first word matched (subject, from, file,
 * text) and shows a line around it, escaped.  The query's arguments are
 * joined with spaces (quote a phrase for the shell and for the query:
 * '"use after free"').  Opening bodies takes a while: the progress goes
 * to ctx->progress (a bar on a terminal, the UI's status line) once it
 * runs longer than half a second.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "core/core.h"
#include "core/json.h"
#include "core/search.h"
#include "export/export.h"

#define PROGRESS_DELAY 0.5
#define PROGRESS_EVERY 0.1

struct search_progress {
	struct cmd_ctx *ctx;
	double start, last, delay;
	bool shown;
};

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void send_progress(struct search_progress *sp,
			  enum cmd_progress_event ev, size_t done, double frac)
{
	struct cmd_progress p = {
		.event = ev,
		.what = "searching",
		.unit = "report(s) searched",
		.done = done,
		.frac = frac,
		.seconds = mono() - sp->start,
	};

	sp->ctx->progress(&p, sp->ctx->progress_data);
}

/* Nothing before sp->delay; then at most every PROGRESS_EVERY. */
static void on_progress(size_t done, size_t total, void *data)
{
	struct search_progress *sp = data;
	double now = mono();

	if (!sp->ctx->progress)
		return;
	if (done < total &&
	    (now - sp->start < sp->delay || now - sp->last < PROGRESS_EVERY))
		return;
	if (done == total && !sp->shown)
		return;
	sp->last = now;
	sp->shown = true;
	send_progress(sp,
		      done == total ? CMD_PROGRESS_DONE : CMD_PROGRESS_UPDATE,
		      done, total ? (double)done / (double)total : 1);
}

static void print_text(FILE *out, const struct search_result *res)
{
	static const char *const head[] = { "ID", "STATE", "RECEIVED",
					    "SUBJECT", "MATCH" };
	static const int max[] = { 0, 0, 0, 60, 0 };
	struct text_table tab;

	text_table_init(&tab, 5, head, max);
	for (size_t i = 0; i < res->n; i++) {
		const struct search_hit *h = &res->hits[i];
		char id[24], day[32];
		char *subj = safe_str(h->r.subject);
		char *state = safe_str(h->r.state);
		char *match = xasprintf("%s: %s", h->where,
					h->snippet ? h->snippet : "");
		const char *row[] = { id, state, day, subj, match };

		snprintf(id, sizeof(id), "%lld", (long long)h->r.id);
		fmt_rfc3339(h->r.received, day);
		day[10] = '\0';
		text_table_add(&tab, row);
		free(subj);
		free(state);
		wipe_free(match, strlen(match));
	}
	if (tab.nrows)
		text_table_print(&tab, out);
	text_table_release(&tab);
}

static json_t *result_json(const struct search_result *res)
{
	json_t *a = json_array();

	for (size_t i = 0; i < res->n; i++) {
		json_t *o = report_summary_json(&res->hits[i].r);
		json_object_set_new(o, "match",
				    json_string(res->hits[i].where));
		json_object_set_new(o, "snippet",
				    json_text(res->hits[i].snippet));
		json_array_append_new(a, o);
	}
	return a;
}

static int cmd_search_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct search_progress sp = { ctx, mono(), 0, PROGRESS_DELAY, false };
	struct search_query q;
	struct search_result res;
	struct sbuf line = SBUF_INIT;
	const char *delay;
	bool json = false;
	int c, r;

	while ((c = cmd_getopt(ctx, argc, argv)) != -1) {
		if (c == 'j')
			json = true;
		else
			return cmd_usage(ctx, "search");
	}
	if (optind >= argc)
		return cmd_usage(ctx, "search");
	for (int i = optind; i < argc; i++)
		sbuf_addf(&line, "%s%s", i > optind ? " " : "", argv[i]);
	r = search_parse(line.buf, &q, &ctx->err);
	sbuf_release(&line);
	if (r < 0) {
		search_query_release(&q);
		return CMD_USAGE;
	}
	if ((delay = getenv("SECTEAM_PROGRESS_DELAY"))) {
		char *end;
		double d = strtod(delay, &end);
		if (end != delay && !*end && d >= 0)
			sp.delay = d;
	}
	r = search_run(ctx->sess, &q, on_progress, &sp, &res, &ctx->err);
	search_query_release(&q);
	if (r < 0) {
		search_result_release(&res);
		return CMD_FAILED;
	}
	if (json) {
		json_t *j = result_json(&res);
		json_print(ctx->out, j);
		json_decref(j);
	} else {
		print_text(ctx->out, &res);
	}
	if (res.unreadable)
		fprintf(ctx->errout,
			"warning: %zu message(s) could not be opened and were not searched "
			"(show names why)\n",
			res.unreadable);
	if (!json && res.passed)
		cmd_say(ctx,
			"%zu report(s) match; %zu opened to search their text, %zu "
			"passed over (the index holds a word in none of their messages)",
			res.n, res.opened, res.passed);
	else if (!json)
		cmd_say(ctx,
			"%zu report(s) match; %zu opened to search their text",
			res.n, res.opened);
	search_result_release(&res);
	return CMD_OK;
}

/* `search` in the command table (cmd/cmd.c); its options, each declared
 * once: parsed by cmd_getopt, shown by --help, the usage, the man page. */
static const struct cmd_opt opts[] = {
	{ .name = "json",
	  .key = 'j',
	  .help = "a JSON array of the show --json summaries, each with match and snippet" },
	{ NULL },
};
static const char *const examples[] = {
	"search overflow net/core",
	"search '\"use after free\"' state:open",
	"search file:net/sctp from:example.net received:2026-11-01..2026-12-01",
	"search 'subject:\"heap overflow\"'",
	NULL,
};
const struct cmd_entry cmd_search_entry = {
	.name = "search",
	.usage = "QUERY...",
	.help = "the reports whose text, subject, reporter or files match every term (decrypting bodies in memory)",
	.exec = cmd_search_exec,
	.opts = opts,
	.target = CMD_TARGET_NONE,
	.exit1 = "the database cannot be read",
	.examples = examples,
};
