/*
 * `roster [--json]`: the keys report bodies are encrypted to, with what
 * this officer's keyring knows of each; exit 1, naming them, when one is
 * missing or cannot be encrypted to.  `roster reseal`: encrypt every
 * stored body again to the roster as it is now (roster.c).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "export/export.h"
#include "core/json.h"
#include "core/team.h"

/* CMD_FAILED, naming them, when a key of the roster is missing from the
 * keyring or cannot be encrypted to: every import would fail to seal. */
static int unusable(struct cmd_ctx *ctx, const struct roster_entry *e, size_t n)
{
	struct sbuf sb = SBUF_INIT;
	size_t bad = 0;

	for (size_t i = 0; i < n; i++) {
		if (e[i].in_keyring && e[i].can_encrypt)
			continue;
		sbuf_addf(&sb, "%s%s (%s)", bad++ ? ", " : "", e[i].fpr,
			  e[i].in_keyring ? "cannot be encrypted to"
					  : "not in your keyring");
	}
	if (bad) {
		char *safe = safe_str(sb.buf);
		err_setc(
			&ctx->err, ERR_CRYPTO,
			"roster: %zu key%s cannot be sealed to: %s; import %s, or "
			"sealing fails",
			bad, bad == 1 ? "" : "s", safe,
			bad == 1 ? "it" : "them");
		free(safe);
	}
	sbuf_release(&sb);
	return bad ? CMD_FAILED : CMD_OK;
}

/* What the team chain did not use, and why, one line each (a team
 * server's: the events the roster above is derived from). */
static void show_chain(struct cmd_ctx *ctx)
{
	const char *const *notes, *broken;
	size_t n = session_team_notes(ctx->sess, &notes, &broken);

	for (size_t i = 0; i < n; i++) {
		char *safe = safe_str(notes[i]);
		fprintf(ctx->out, "team chain: %s\n", safe);
		free(safe);
	}
	if (broken) {
		char *safe = safe_str(broken);
		fprintf(ctx->out, "team chain broken: %s\n", safe);
		free(safe);
	}
}

static int show(struct cmd_ctx *ctx, bool json)
{
	struct roster_entry *e;
	size_t n;
	char when[32];
	int r;

	if (roster_list(ctx->sess, &e, &n, &ctx->err) < 0)
		return CMD_FAILED;
	if (json) {
		json_t *arr = json_array();
		for (size_t i = 0; i < n; i++)
			json_array_append_new(
				arr,
				json_pack("{s:s, s:o, s:o, s:o, s:b, s:b, s:b}",
					  "fingerprint", e[i].fpr, "officer",
					  json_text(e[i].officer), "uid",
					  json_text(e[i].uid), "expires",
					  json_time(e[i].expires), "in_keyring",
					  e[i].in_keyring, "can_encrypt",
					  e[i].can_encrypt, "secret",
					  e[i].secret));
		json_print(ctx->out, arr);
		json_decref(arr);
	} else {
		static const char *const head[] = {
			"FINGERPRINT", "OFFICER", "SECRET",
			"EXPIRES",     "USER ID",
		};
		struct text_table tab;

		text_table_init(&tab, ARRAY_SIZE(head), head, NULL);
		for (size_t i = 0; i < n; i++) {
			char *fpr = safe_str(e[i].fpr),
			     *uid = safe_str(e[i].uid);
			char *off = safe_str(e[i].officer), *last;
			const char *exp = "never";

			if (e[i].expires) {
				fmt_rfc3339(e[i].expires, when);
				when[10] = '\0';
				exp = when;
			}
			if (!e[i].in_keyring)
				last = xstrdup(
					"(not in your keyring: import it, or sealing fails)");
			else
				last = xasprintf(
					"%s%s", uid,
					e[i].can_encrypt
						? ""
						: " (cannot be encrypted to)");
			text_table_add(&tab,
				       (const char *const[]){
					       fpr, *off ? off : "-",
					       !e[i].in_keyring	     ? "-"
						       : e[i].secret ? "yes"
								     : "no",
					       !e[i].in_keyring ? "-" : exp,
					       last });
			free(last);
			free(fpr);
			free(uid);
			free(off);
		}
		text_table_print(&tab, ctx->out);
		text_table_release(&tab);
		show_chain(ctx);
	}
	r = unusable(ctx, e, n);
	for (size_t i = 0; i < n; i++)
		roster_entry_release(&e[i]);
	free(e);
	return r;
}

static int reseal(struct cmd_ctx *ctx, size_t batch)
{
	struct reseal_result res;
	int r;

	res.batch = batch;
	r = roster_reseal(ctx->sess, &res, NULL, NULL, &ctx->err);

	if (r < 0) {
		err_prefix(
			&ctx->err,
			"roster reseal stopped after %zu resealed (run it again to finish)",
			res.resealed + res.rekeyed);
		reseal_result_release(&res);
		return CMD_FAILED;
	}
	fprintf(ctx->out,
		"resealed: %zu\nleft alone: %zu\nnot opened by your keys: %zu\n",
		res.resealed, res.kept, res.nunopened);
	if (res.rotated)
		fprintf(ctx->out,
			"new team key generation, wrapped to exactly "
			"the roster (an officer joined or left: one who left "
			"opens nothing sealed from now on)\n");
	if (res.rekeyed)
		fprintf(ctx->out,
			"sealed under the latest team key (fields left "
			"clear by an older version, keyed lookups, or an older "
			"generation's): %zu report(s)\n",
			res.rekeyed);
	if (res.shared)
		fprintf(ctx->out,
			"team key shared with %zu new officer key(s)\n",
			res.shared);
	if (res.dropped)
		fprintf(ctx->out,
			"older team key generations' wrapped copies dropped: "
			"%zu (the latest generation keeps those keys)\n",
			res.dropped);
	cmd_summary(ctx,
		    "resealed %zu, left alone %zu, not opened by your keys %zu",
		    res.resealed, res.kept, res.nunopened);
	for (size_t i = 0; i < res.nunopened; i++)
		fprintf(ctx->out, "  message %lld of report %lld\n",
			(long long)res.unopened[i],
			(long long)res.unopened_reports[i]);
	if (res.nunopened)
		err_setc(
			&ctx->err, ERR_CRYPTO,
			"%zu bod%s not resealed: an officer whose key opens them runs 'secteam-tui roster reseal'",
			res.nunopened, res.nunopened == 1 ? "y" : "ies");
	r = res.nunopened ? CMD_FAILED : CMD_OK;
	reseal_result_release(&res);
	return r;
}

static int cmd_roster_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	bool json = false, resealing = ctx->sub != NULL;
	unsigned long batch = 0;
	int c;

	/* After `reseal`, its options: argv[1..] read as its own line. */
	if (resealing) {
		argc--;
		argv++;
	}
	while ((c = cmd_getopt(ctx, argc, argv)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'b':
			batch = strtoul(optarg, NULL, 10);
			break;
		default:
			return cmd_usage(ctx, "roster");
		}
	}
	if (optind != argc)
		return cmd_usage(ctx, "roster");
	return resealing ? reseal(ctx, (size_t)batch) : show(ctx, json);
}

/* --batch N: reports sealed again per transaction, 1 to 100000. */
static int check_batch(const char *value, struct err *err)
{
	char *end;
	unsigned long b = strtoul(value, &end, 10);

	if (!*value || *end || b < 1 || b > 100000) {
		err_setc(err, ERR_INVALID,
			 "'%s' is not a number of reports from 1 to 100000",
			 value);
		return -1;
	}
	return 0;
}

/* `roster` in the command table (cmd/cmd.c); its options, each declared
 * once: parsed by cmd_getopt, shown by --help, the usage, the man page. */
static const struct cmd_opt opts[] = {
	{ .name = "json",
	  .key = 'j',
	  .subs = "-",
	  .help = "the keys as a JSON array" },
	{ .name = "batch",
	  .key = 'b',
	  .arg = "N",
	  .subs = "reseal",
	  .check = check_batch,
	  .help = "with reseal: reports sealed again per transaction (default 256)" },
	{ NULL },
};
static const char *const examples[] = { "roster", "roster reseal", NULL };
const struct cmd_entry cmd_roster_entry = {
	.name = "roster",
	/* The roster itself, or reseal. */
	.usage = "| reseal",
	.help = "the keys report bodies are encrypted to; reseal every body to them",
	.exec = cmd_roster_exec,
	.opts = opts,
	.target = CMD_TARGET_NONE,
	.subs = "reseal",
	.exit1 =
		"a key of the roster is not in your keyring or cannot be encrypted to (named), no key to seal to, or a body cannot be resealed",
	.examples = examples,
};
