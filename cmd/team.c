/*
 * `team init [--officer ROLE] [--name NAME] --key FPR`,
 * `team add-officer ROLE --key FPR [--name NAME]`,
 * `team remove-officer ROLE`, `team list [--json]`: the officers of a
 * team server (team.c).  init and add-officer/remove-officer are the
 * team administrator's (the database owner, with CREATEROLE); list is
 * anyone's.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "export/export.h"
#include "core/json.h"
#include "core/team.h"
#include "store/store.h"

static int list(struct cmd_ctx *ctx, bool json)
{
	struct officer *o;
	size_t n;
	char when[32];

	if (!cmd_store(ctx))
		return CMD_FAILED;
	if (!store_has_team(ctx->sess->store)) {
		err_setc(
			&ctx->err, ERR_INVALID,
			"%s is a SQLite file: its officer is the Unix user (%s); a team needs a team server",
			store_where(ctx->sess->store), ctx->sess->officer);
		return CMD_FAILED;
	}
	if (store_officers_list(ctx->sess->store, true, &o, &n, &ctx->err) < 0)
		return CMD_FAILED;
	if (json) {
		json_t *arr = json_array();
		for (size_t i = 0; i < n; i++)
			json_array_append_new(
				arr,
				json_pack("{s:o, s:o, s:o, s:o, s:b}", "role",
					  json_text(o[i].role), "name",
					  json_text(o[i].name), "key",
					  json_text(o[i].key_fpr), "added",
					  json_time(o[i].added_at), "active",
					  o[i].active));
		json_print(ctx->out, arr);
		json_decref(arr);
	} else {
		static const char *const head[] = { "OFFICER", "KEY", "SINCE",
						    "NAME" };
		struct text_table tab;

		text_table_init(&tab, ARRAY_SIZE(head), head, NULL);
		for (size_t i = 0; i < n; i++) {
			char *role = safe_str(o[i].role),
			     *name = safe_str(o[i].name);
			char *key = o[i].key_fpr ? safe_str(o[i].key_fpr)
						 : xstrdup("-");
			char *last = xasprintf("%s%s", name,
					       o[i].active ? "" : " (removed)");

			fmt_rfc3339(o[i].added_at, when);
			when[10] = '\0';
			text_table_add(&tab,
				       (const char *const[]){ role, key, when,
							      last });
			free(last);
			free(key);
			free(role);
			free(name);
		}
		text_table_print(&tab, ctx->out);
		text_table_release(&tab);
	}
	for (size_t i = 0; i < n; i++)
		officer_release(&o[i]);
	free(o);
	return CMD_OK;
}

/* After init or add-officer: the officer's way in.  With --password a
 * new one, shown once; else how they log in without one. */
static int way_in(struct cmd_ctx *ctx, const char *role, bool password)
{
	char *pw, *r = safe_str(role);

	if (!password) {
		fprintf(ctx->out,
			"%s has no password: on the server's own host it logs in over "
			"the Unix socket as the Unix user of that name (peer authentication), "
			"or with a client certificate; for a password: "
			"secteam-tui team add-officer %s --key FPR --password\n",
			r, r);
		free(r);
		return CMD_OK;
	}
	if (team_set_password(ctx->sess, role, &pw, &ctx->err) < 0) {
		free(r);
		return CMD_FAILED;
	}
	fprintf(ctx->out,
		"initial password of %s: %s\n(hand it over privately; they "
		"change it with psql's \\password; the server got only its SCRAM verifier)\n",
		r, pw);
	wipe_free(pw, strlen(pw));
	free(r);
	return CMD_OK;
}

/* An existing team's schema upgraded by this init: what it did. */
static void schema_said(struct cmd_ctx *ctx)
{
	struct store *s = ctx->sess->store;
	int from = store_schema_found(s), to = store_schema_version(s);

	if (from <= 0 || from >= to)
		return;
	fprintf(ctx->out,
		"schema of %s upgraded from version %d to %d, every "
		"event kept\n",
		store_where(s), from, to);
	if (from < 5)
		fprintf(ctx->out,
			"  from now on: ids and event times are the "
			"server's; a change of a report, participant, vendor or "
			"stored body that no event records is refused; each new "
			"message keeps the digest every opening checks (older ones "
			"have none to check)\n");
	if (from < 9)
		fprintf(ctx->out,
			"  from now on: subjects, senders, notes, reasons, "
			"files, participants and the CVE text are sealed under the "
			"team key, and Message-IDs kept as keyed hashes; what is "
			"stored in clear from before (subjects, senders, Message-IDs, "
			"event details, reasons, files, vendor notes, participants) "
			"is sealed in place by 'secteam-tui roster reseal', which an "
			"officer runs once: the one change the record allows those "
			"rows, clear to sealed, with its reseal event\n");
}

static int cmd_team_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : NULL;
	const char *role = NULL, *name = NULL, *key = NULL;
	bool json = false, password = false;
	int c, r;

	if (!sub)
		return cmd_usage(ctx, "team");
	/* Options after the sub-command: parse argv[1..] as its own line. */
	argc--;
	argv++;
	optind = 0;
	while ((c = cmd_getopt(ctx, argc, argv)) != -1) {
		switch (c) {
		case 'o':
			role = optarg;
			break;
		case 'n':
			name = optarg;
			break;
		case 'k':
			key = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'p':
			password = true;
			break;
		default:
			return cmd_usage(ctx, "team");
		}
	}
	if (!strcmp(sub, "list")) {
		if (optind != argc || role || name || key || password)
			return cmd_usage(ctx, "team");
		return list(ctx, json);
	}
	if (!strcmp(sub, "init")) {
		if (optind != argc || !key || json)
			return cmd_usage(ctx, "team");
		r = team_init(ctx->sess, role, name, key, &ctx->err);
		if (r < 0)
			return CMD_FAILED;
		schema_said(ctx);
		fprintf(ctx->out, "team ready on %s; first officer: %s\n",
			store_where(ctx->sess->store),
			role ? role : ctx->sess->officer);
		return role && strcmp(role, ctx->sess->officer)
			? way_in(ctx, role, password)
			: CMD_OK;
	}
	if (!strcmp(sub, "add-officer")) {
		if (optind != argc - 1 || !key || role || json)
			return cmd_usage(ctx, "team");
		r = team_add_officer(ctx->sess, argv[optind], name, key,
				     &ctx->err);
		if (r < 0)
			return CMD_FAILED;
		fprintf(ctx->out,
			"officer %s added; run 'secteam-tui roster reseal' so their key opens the reports already stored\n",
			argv[optind]);
		return way_in(ctx, argv[optind], password);
	}
	if (!strcmp(sub, "remove-officer")) {
		if (optind != argc - 1 || key || role || name || json ||
		    password)
			return cmd_usage(ctx, "team");
		r = team_remove_officer(ctx->sess, argv[optind], &ctx->err);
		if (r == 0)
			fprintf(ctx->out,
				"officer %s removed; run 'secteam-tui roster reseal' so their key opens no stored report\n",
				argv[optind]);
		return r < 0 ? CMD_FAILED : CMD_OK;
	}
	return CMD_USAGE; /* cmd_run_at names a wrong sub-command */
}

/* `team` in the command table (cmd/cmd.c); its options, each declared
 * once: parsed by cmd_getopt, shown by --help, the usage, the man page. */
static const struct cmd_opt opts[] = {
	{ .name = "officer",
	  .key = 'o',
	  .arg = "ROLE",
	  .subs = "init",
	  .help = "with init: the first officer's role (default: the login role)" },
	{ .name = "name",
	  .key = 'n',
	  .arg = "NAME",
	  .subs = "init add-officer",
	  .help = "the officer's display name" },
	{ .name = "key",
	  .key = 'k',
	  .arg = "FPR",
	  .subs = "init add-officer",
	  .flags = CMD_OPT_REQUIRED,
	  .help = "the officer's OpenPGP key (full fingerprint)" },
	{ .name = "json",
	  .key = 'j',
	  .subs = "list",
	  .help = "with list: a JSON array" },
	{ .name = "password",
	  .key = 'p',
	  .subs = "init add-officer",
	  .help = "with init (for --officer) and add-officer: give the officer a new random login password, shown once (the server gets only its SCRAM verifier)" },
	{ NULL },
};
static const char *const examples[] = {
	"team init --name 'Ada Officer' --key 0123456789ABCDEF0123456789ABCDEF01234567",
	"team add-officer bob --key 89ABCDEF0123456789ABCDEF0123456789ABCDEF --password",
	"team remove-officer bob", "team list", NULL
};
const struct cmd_entry cmd_team_entry = {
	.name = "team",
	.usage = "init | add-officer ROLE | remove-officer ROLE | list",
	.help = "the officers of a team server (PostgreSQL)",
	.exec = cmd_team_exec,
	.opts = opts,
	.target = CMD_TARGET_NONE,
	.subs = "init add-officer remove-officer list",
	.exit1 = "not a team server, or the change was refused",
	.examples = examples,
};
