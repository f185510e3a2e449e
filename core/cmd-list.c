/*
 * `list [--state S] [--open] [--sort KEY] [--json]`: a header row, then
 * one line per report,
 *   ID  STATE  SEVERITY  VERDICT  DUE  CLAIMED  SUBJECT
 * in columns as wide as their widest value (CLAIMED at most 16, cut
 * with "…").
 * DUE is the number of days to the decided disclosure date ("-" when
 * none, negative when overdue).  Subjects are sanitized for display.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/json.h"
#include "store/store.h"

struct list_out {
	struct cmd_ctx *ctx;
	json_t *arr;
	time_t now;
	struct text_table tab;
};

/* The table's columns; an officer's name is cut (with "…") past 16
 * columns, so a long one cannot push the subjects out of line. */
static const char *const list_head[] = {
	"ID", "STATE", "SEVERITY", "VERDICT", "DUE", "CLAIMED", "SUBJECT",
};
static const int list_max[] = { 0, 0, 0, 0, 0, 16, 0 };

static int add_row(const struct report *r, void *data)
{
	struct list_out *lo = data;
	char id[24], due[32] = "-";

	if (lo->arr) {
		json_array_append_new(lo->arr, report_summary_json(r));
		return 0;
	}
	snprintf(id, sizeof(id), "%lld", (long long)r->id);
	if (r->disclosure)
		snprintf(due, sizeof(due), "%+ldd",
			 days_between(lo->now, r->disclosure));
	char *subj = safe_str(r->subject), *who = safe_str(r->claimed_by),
	     *state = safe_str(r->state), *sev = safe_str(r->severity),
	     *ver = safe_str(r->verdict ? r->verdict : "-");
	const char *row[] = { id, state, sev, ver, due, *who ? who : "-", subj };
	text_table_add(&lo->tab, row);
	free(subj);
	free(who);
	free(state);
	free(sev);
	free(ver);
	return 0;
}

/* The options of `list`; cmd_table[] names them too (where the report
 * id goes, for the UI). */
const struct option cmd_list_opts[] = {
	{ "state", required_argument, NULL, 's' },
	{ "open", no_argument, NULL, 'o' },
	{ "sort", required_argument, NULL, 'S' },
	{ "json", no_argument, NULL, 'j' },
	{ NULL, 0, NULL, 0 },
};

int cmd_list_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct report_filter f = { NULL, false, NULL };
	struct list_out lo = { ctx, NULL, util_now(), { 0 } };
	struct store *s;
	bool json = false;
	int c, r;

	while ((c = getopt_long(argc, argv, "", cmd_list_opts, NULL)) != -1) {
		switch (c) {
		case 's': f.state = optarg; break;
		case 'o': f.open_only = true; break;
		case 'S': f.order = optarg; break;
		case 'j': json = true; break;
		default: return cmd_usage(ctx, "list");
		}
	}
	if (optind != argc)
		return cmd_usage(ctx, "list");
	if (f.state && !triage_state_valid(f.state)) {
		char *valid = triage_state_names(", ");
		err_setc(&ctx->err, ERR_INVALID, "unknown state '%s' (valid states: %s)",
			 f.state, valid);
		free(valid);
		return CMD_USAGE;
	}
	if (!(s = cmd_ctx_store(ctx)))
		return CMD_FAILED;
	if (json)
		lo.arr = json_array();
	text_table_init(&lo.tab, ARRAY_SIZE(list_head), list_head, list_max);
	r = store_report_each(s, &f, add_row, &lo, &ctx->err);
	if (json) {
		if (r == 0)
			json_print(ctx->out, lo.arr);
		json_decref(lo.arr);
	} else if (r == 0 && lo.tab.nrows) {
		/* Widths from every row: the table is printed at the end. */
		text_table_print(&lo.tab, ctx->out);
	}
	text_table_release(&lo.tab);
	return r < 0 ? (r == ERR_INVALID ? CMD_USAGE : CMD_FAILED) : CMD_OK;
}
