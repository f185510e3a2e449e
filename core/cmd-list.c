/*
 * `list [--state S] [--open] [--sort KEY] [--json]`: one line per report,
 *   ID  STATE  SEVERITY  VERDICT  DUE  CLAIMED  SUBJECT
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
};

static int print_row(const struct report *r, void *data)
{
	struct list_out *lo = data;
	char due[32] = "-";

	if (lo->arr) {
		json_array_append_new(lo->arr, report_summary_json(r));
		return 0;
	}
	if (r->disclosure)
		snprintf(due, sizeof(due), "%+ldd",
			 days_between(lo->now, r->disclosure));
	char *subj = safe_str(r->subject), *who = safe_str(r->claimed_by);
	fprintf(lo->ctx->out, "%-5lld %-9s %-8s %-11s %-5s %-10s %s\n",
		(long long)r->id, r->state, r->severity,
		sig_verdict_name(r->verdict), due, *who ? who : "-", subj);
	free(subj);
	free(who);
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
	struct list_out lo = { ctx, NULL, util_now() };
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
		err_setc(&ctx->err, ERR_INVALID, "unknown state '%s'", f.state);
		return CMD_USAGE;
	}
	if (!(s = cmd_ctx_store(ctx)))
		return CMD_FAILED;
	if (json)
		lo.arr = json_array();
	r = store_report_each(s, &f, print_row, &lo, &ctx->err);
	if (json) {
		if (r == 0)
			json_print(ctx->out, lo.arr);
		json_decref(lo.arr);
	}
	return r < 0 ? (r == ERR_INVALID ? CMD_USAGE : CMD_FAILED) : CMD_OK;
}
