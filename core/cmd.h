/*
 * Commands: every action an officer can take, as a table.
 *
 * The command line (`secteam-tui VERB ...`), the UI's `:` line and every
 * key binding run the same rows of cmd_table[].  A command parses its own
 * arguments (getopt_long, optind reset by the caller), writes its normal
 * output to ctx->out, warnings and progress to ctx->errout, and returns
 * CMD_OK, CMD_FAILED (ctx->err says why) or CMD_USAGE.  One file per
 * command: core/cmd-NAME.c holds cmd_NAME_exec().
 */
#ifndef SECTEAM_CMD_H
#define SECTEAM_CMD_H

#include <stdbool.h>
#include <stdio.h>

#include "util/util.h"

struct store;
struct crypto;
struct config;

enum { CMD_OK = 0, CMD_FAILED = 1, CMD_USAGE = 2 };

struct cmd_ctx {
	const char *db_path;     /* --db, or NULL for the default */
	const char *gnupghome;   /* --gnupghome, or NULL */
	const char *config_path; /* --config, or NULL for the default */
	struct config *cfg;      /* loaded by cmd_ctx_init */
	struct store *store;     /* opened on first use by cmd_ctx_store() */
	struct crypto *crypto;   /* opened on first use by cmd_ctx_crypto() */
	FILE *out;               /* normal output */
	FILE *errout;            /* warnings, progress */
	bool interactive;        /* run from the UI */
	char *officer;           /* who acts, as the store records it (the
				  * login role, or the Unix user); set when
				  * the store opens */
	char *officer_name;      /* display name: config officer.name, or
				  * the Unix user */
	bool store_create;       /* team init: create the team schema */
	char **roster;           /* team.roster fingerprints, or the
				  * officer's own key; see cmd_ctx_roster */
	size_t nroster;
	char ***roster_subkeys;  /* per roster key, its encryption subkey
				  * IDs (filled once by import.c) */
	size_t *roster_nsubkeys;
	struct err err;
};

struct cmd_entry {
	const char *name;
	const char *usage;  /* "ID --state S [--severity S] ..." */
	const char *help;   /* one line */
	int (*exec)(struct cmd_ctx *ctx, int argc, char **argv);
};

extern const struct cmd_entry cmd_table[];
extern const size_t cmd_table_len;

const struct cmd_entry *cmd_find(const char *name);
/* Runs argv[0] with its arguments; unknown verbs give CMD_USAGE. */
int cmd_run(struct cmd_ctx *ctx, int argc, char **argv);
/* Splits a command string as a shell would (quotes, backslashes; no
 * expansion) and runs it.  For the UI's `:` line and key bindings. */
int cmd_run_string(struct cmd_ctx *ctx, const char *line);
/*
 * Splits like a POSIX shell without expansion: '...' literal, "..." with
 * \" and \\, backslash escapes outside.  Returns 0 with a NULL-terminated
 * *argv (free with cmd_split_free), or ERR_INVALID for an open quote.
 */
int cmd_split(const char *line, char ***argv, int *argc, struct err *err);
void cmd_split_free(char **argv, int argc);

int cmd_ctx_init(struct cmd_ctx *ctx, struct err *err);
void cmd_ctx_release(struct cmd_ctx *ctx);
/* Open the database / the keyring on first use; NULL with ctx->err set. */
struct store *cmd_ctx_store(struct cmd_ctx *ctx);
struct crypto *cmd_ctx_crypto(struct cmd_ctx *ctx);

/* The keys report bodies are sealed to; NULL with ctx->err set. */
const char *const *cmd_ctx_roster(struct cmd_ctx *ctx, size_t *n);

/* Prints "usage: secteam-tui NAME USAGE" to errout; returns CMD_USAGE. */
int cmd_usage(struct cmd_ctx *ctx, const char *name);

/* The exec functions, one per core/cmd-*.c */
int cmd_import_exec(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_list_exec(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_show_exec(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_triage_exec(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_maintainers_exec(struct cmd_ctx *ctx, int argc, char **argv);

int cmd_vendor_exec(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_date_exec(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_due_exec(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_export_exec(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_forward_exec(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_roster_exec(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_team_exec(struct cmd_ctx *ctx, int argc, char **argv);
/* `maintainers ID ...` (core/cmd-maintainers-report.c): suggestions for
 * report id, and bringing people in; argv is the whole command line
 * (options are parsed again, optind reset).  Returns CMD_*. */
int maintainers_report_exec(struct cmd_ctx *ctx, int64_t id, int argc,
			    char **argv);

#endif
