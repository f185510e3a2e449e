/*
 * `list [QUERY] [--state S] [--open] [--sort KEY] [--json]`: the reports
 * a query in search's language (search.h) matches, all without one:
 * state: and severity: terms are answered from the reports' rows, any
 * other term runs the search.  A header row, then
 * one line per report,
 *   ID  STATE  SEVERITY  VERDICT  DUE  CLAIMED  FIX/CVE  SUBJECT
 * in columns as wide as their widest value (CLAIMED at most 16, cut
 * with "…").
 * DUE is the number of days to the embargo deadline (embargo.c: the
 * decided date, else the policy default): "-3d!" overdue, "+2d?" no date
 * decided, "+5d" decided, "-" when the embargo is over.  FIX/CVE is the
 * fix's first tag (or its short SHA) and the CVE ID with its state
 * (fixcve.h), "-" for none; config list.fix_cve = false hides the
 * column.  Subjects are sanitized for display.  --json carries "fix" and
 * "cve" as show --json does.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "export/export.h"
#include "core/core.h"
#include "core/fixcve.h"
#include "core/json.h"
#include "core/search.h"
#include "store/store.h"

struct list_out {
	struct cmd_ctx *ctx;
	json_t *arr;
	time_t now;
	struct policy pol;
	bool fix_cve; /* the FIX/CVE column shown */
	struct fixcve_row *fc; /* every report's fix and CVE state */
	size_t nfc;
	struct text_table tab;
	const struct search_query *q; /* or NULL */
	int64_t *ids; /* with words or other keys: the matches */
	size_t nids;
};

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* The table's columns; an officer's name is cut (with "…") past 16
 * columns, so a long one cannot push the subjects out of line. */
static const char *const list_head[] = {
	"ID",  "STATE",	  "SEVERITY", "VERDICT",
	"DUE", "CLAIMED", "FIX/CVE",  "SUBJECT",
};
static const int list_max[] = { 0, 0, 0, 0, 0, 16, 0, 0 };
/* With config list.fix_cve = false. */
static const char *const list_head_nofix[] = {
	"ID", "STATE", "SEVERITY", "VERDICT", "DUE", "CLAIMED", "SUBJECT",
};
static const int list_max_nofix[] = { 0, 0, 0, 0, 0, 16, 0 };

static int add_row(const struct report *r, void *data)
{
	struct list_out *lo = data;
	const struct fixcve *fc = fixcve_find(lo->fc, lo->nfc, r->id);
	struct fixcve none;
	struct embargo e;
	char id[24], due[32];

	if (lo->q &&
	    (!search_state_matches(lo->q, r->state, r->severity) ||
	     (lo->ids &&
	      !bsearch(&r->id, lo->ids, lo->nids, sizeof(*lo->ids), cmp_id))))
		return 0;
	embargo_of_report(&lo->pol, r, lo->now, &e);
	if (lo->arr) {
		json_t *o = report_summary_json(r);
		embargo_json(&e, o);
		memset(&none, 0, sizeof(none));
		fixcve_add_json(o, fc ? fc : &none);
		json_array_append_new(lo->arr, o);
		return 0;
	}
	embargo_due(&e, due);
	snprintf(id, sizeof(id), "%lld", (long long)r->id);
	char *subj = safe_str(r->subject), *who = safe_str(r->claimed_by),
	     *state = safe_str(r->state), *sev = safe_str(r->severity),
	     *ver = safe_str(sig_verdict_name(r->verdict));
	char *raw = lo->fix_cve ? fixcve_label(fc) : NULL;
	char *label = safe_str(raw ? raw : "-");
	const char *row[] = { id,    state, sev, ver, due, *who ? who : "-",
			      label, subj };

	if (!lo->fix_cve)
		row[6] =
			subj; /* the column is hidden: SUBJECT takes its place */
	text_table_add(&lo->tab, row);
	free(raw);
	free(label);
	free(subj);
	free(who);
	free(state);
	free(sev);
	free(ver);
	return 0;
}

/* The reports a query with words or other keys matches (search_run),
 * by id. */
static int matches(struct cmd_ctx *ctx, const struct search_query *q,
		   struct list_out *lo)
{
	struct search_result res;

	if (search_run(ctx->sess, q, NULL, NULL, &res, &ctx->err) < 0)
		return CMD_FAILED;
	lo->ids = xcalloc(res.n + 1, sizeof(*lo->ids));
	for (size_t i = 0; i < res.n; i++)
		lo->ids[i] = res.hits[i].r.id;
	lo->nids = res.n;
	qsort(lo->ids, lo->nids, sizeof(*lo->ids), cmp_id);
	search_result_release(&res);
	return CMD_OK;
}

static int cmd_list_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct report_filter f = { NULL, false, NULL, NULL, NULL };
	struct list_out lo = { .ctx = ctx, .now = util_now(), .fix_cve = true };
	struct store *s;
	struct search_query q;
	bool json = false;
	int c, r;

	while ((c = cmd_getopt(ctx, argc, argv)) != -1) {
		switch (c) {
		case 's':
			f.state = optarg;
			break;
		case 'o':
			f.open_only = true;
			break;
		case 'S':
			f.order = optarg;
			break;
		case 'j':
			json = true;
			break;
		default:
			return cmd_usage(ctx, "list");
		}
	}
	if (!(s = cmd_store(ctx)))
		return CMD_FAILED;
	if (optind < argc) {
		char *text = cmd_join(argc - optind, argv + optind);

		r = search_parse(text, &q, &ctx->err);
		free(text);
		if (r < 0) {
			search_query_release(&q);
			return CMD_USAGE;
		}
		lo.q = &q;
		if (!search_fields_only(&q) &&
		    (r = matches(ctx, &q, &lo)) != CMD_OK) {
			search_query_release(&q);
			return r;
		}
	}
	policy_from_config(ctx->sess->cfg, &lo.pol);
	if (json)
		lo.arr = json_array();
	lo.fix_cve = config_get_bool(ctx->sess->cfg, "list.fix_cve", true);
	if ((lo.fix_cve || json) &&
	    fixcve_all(ctx->sess, &lo.fc, &lo.nfc, &ctx->err) < 0) {
		json_decref(lo.arr);
		return CMD_FAILED;
	}
	if (lo.fix_cve)
		text_table_init(&lo.tab, ARRAY_SIZE(list_head), list_head,
				list_max);
	else
		text_table_init(&lo.tab, ARRAY_SIZE(list_head) - 1,
				list_head_nofix, list_max_nofix);
	r = report_each(ctx->sess, &f, add_row, &lo, &ctx->err);
	fixcve_rows_free(lo.fc, lo.nfc);
	if (json) {
		if (r == 0)
			json_print(ctx->out, lo.arr);
		json_decref(lo.arr);
	} else if (r == 0) {
		/* Widths from every row: the table is printed at the end,
		 * its header even with no row (the columns say what a list
		 * would show). */
		text_table_print(&lo.tab, ctx->out);
	}
	if (!json && r == 0 && !lo.tab.nrows && isatty(fileno(ctx->out))) {
		/* Someone at a terminal learns why nothing shows; a script
		 * still gets an empty output. */
		fputs(f.state || f.open_only || lo.q
			      ? "no report matches\n"
			      : "no reports yet: 'secteam-tui import FILE' brings them in\n",
		      ctx->errout);
	}
	text_table_release(&lo.tab);
	if (lo.q)
		search_query_release(&q);
	free(lo.ids);
	return r < 0 ? (r == ERR_INVALID ? CMD_USAGE : CMD_FAILED) : CMD_OK;
}

static char *states(void)
{
	return cmd_words(report_states);
}
static const char *const orders[] = { "deadline", "received", "state",
				      "severity", "subject",  "id",
				      NULL };
static char *query_help(void)
{
	return xstrdup(
		"only the reports it matches, in search's terms: state:S[,S] (or state:open), severity:S[,S], words, file:, from:, subject:, received:");
}
/* `list` in the command table (cmd/cmd.c); its options, each declared
 * once: parsed by cmd_getopt, shown by --help, the usage, the man page. */
static const struct cmd_opt opts[] = {
	{ .name = "state",
	  .key = 's',
	  .arg = "S",
	  .list = states,
	  .words = report_states,
	  .flags = CMD_OPT_CLOSED,
	  .help = "only reports in state S" },
	{ .name = "open",
	  .key = 'o',
	  .help = "only reports still open (not disclosed, closed, rejected or duplicate)" },
	{ .name = "sort",
	  .key = 'S',
	  .arg = "KEY",
	  .words = orders,
	  .flags = CMD_OPT_CLOSED,
	  .help = "order by deadline, received, state, severity or subject (default: id)" },
	{ .name = "json",
	  .key = 'j',
	  .help = "an array of JSON objects instead of the table" },
	{ NULL },
};
static const struct cmd_values values[] = {
	{ "QUERY", query_help, NULL },
	{ NULL, NULL, NULL },
};
static const char *const examples[] = {
	"list --open --sort deadline", "list state:open severity:high,critical",
	NULL
};
const struct cmd_entry cmd_list_entry = {
	.name = "list",
	.usage = "[QUERY]",
	.help = "list reports",
	.exec = cmd_list_exec,
	.opts = opts,
	.target = CMD_TARGET_NONE,
	.exit1 = "the database cannot be read",
	.examples = examples,
	.values = values,
};
