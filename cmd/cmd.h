/*
 * Commands: every action an officer can take, as a table.
 *
 * The command line (`secteam-tui VERB ...`), the UI's `:` line and every
 * key binding run the same rows of cmd_table[].  A row declares, as
 * tmux's cmd_entry does, its options and where its target goes: which
 * positional argument is the report id, after which sub-commands.  So the
 * UI runs a command on the current report by passing the report as a
 * value (cmd_run_target inserts it as one argv element), never by
 * pasting text into a command string.
 *
 * A command's options are declared once, as rows of its entry (struct
 * cmd_opt): cmd_getopt parses them (getopt_long underneath, optind reset
 * by the caller), and the usage lines, --help, the man page's lists and
 * the UI's Tab completion are made from the same rows.  A command writes
 * its output lines to ctx->out (its one-line result through cmd_say),
 * warnings to ctx->errout, and returns CMD_OK, CMD_FAILED (ctx->err says
 * why) or CMD_USAGE.  The shell lets the lines through to its stdout; the
 * UI runs commands with cmd_capture, which keeps them (struct
 * cmd_result): nothing reaches the terminal behind curses.  One file per
 * command: cmd/NAME.c holds its exec, its options and its row,
 * cmd_NAME_entry; a new command is that file and its name in
 * cmd_table[] (cmd/cmd.c).
 */
#ifndef SECTEAM_CMD_H
#define SECTEAM_CMD_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/session.h"
#include "outgoing/outgoing.h"
#include "util/util.h"

struct store;
struct crypto;
struct config;

enum { CMD_OK = 0, CMD_FAILED = 1, CMD_USAGE = 2 };

/*
 * Progress of a long command (import), reported to whoever runs it: the
 * shell draws a bar on a terminal, the UI its status line.  Core says
 * how far it is and never draws.  A command reports nothing until it has
 * run for a moment, and at most a few times a second.
 */
enum cmd_progress_event {
	CMD_PROGRESS_UPDATE, /* how far it is now */
	CMD_PROGRESS_CLEAR, /* result lines follow on ctx->out: take the
			       * progress off the screen (it comes back
			       * with the next update) */
	CMD_PROGRESS_DONE, /* the last call: the work is done */
};
struct cmd_progress {
	enum cmd_progress_event event;
	const char *what; /* "importing" */
	const char *unit; /* "message(s)" */
	size_t done; /* so many units so far */
	double frac; /* the share done, 0 to 1; negative when it
			       * cannot be known (standard input) */
	double seconds; /* since the start */
};
typedef void cmd_progress_fn(const struct cmd_progress *p, void *data);

/*
 * Asking the officer, for a command that must (cmd_confirm, cmd_guard,
 * cmd_edit): whoever runs the command answers, as it draws progress.
 * The UI asks on its status line and opens $VISUAL/$EDITOR with curses
 * suspended; the shell asks on its terminal.  A confirm callback returns
 * 1 for yes, 0 for no, and negative when it cannot ask (no terminal).
 * An edit callback is edit_text()'s contract: 0 with *text (wiped by the
 * caller), or negative with err.
 */
typedef int cmd_confirm_fn(const char *question, void *data);
typedef int cmd_edit_fn(const char *name, const char *initial, char **text,
			struct err *err, void *data);

struct cmd_ctx {
	struct session *sess; /* what the use cases work with */
	FILE *out; /* normal output */
	FILE *errout; /* warnings, progress */
	bool interactive; /* run from the UI */
	struct err err; /* why the command failed (CMD_FAILED) */
	char *summary; /* the command's one-line result (cmd_say,
				  * cmd_summary) */
	char *usage_text; /* the usage, one line, when cmd_usage
				  * explained a mistake (for the UI) */
	const char *sub; /* the sub-command being run (cmd_run), for
				  * its usage line; NULL when none */
	bool usage_said; /* cmd_usage printed the usage this run */
	int argc; /* the command line being run (cmd_run), */
	char **argv; /* for cmd_usage to name a bad option */
	char *line; /* the same, one line, as typed (before
				  * getopt reorders argv) */
	/* The report the command acts on, resolved by the runner before it
	 * runs (cmd_run_at): the id argv names where the command's row says
	 * the report goes (target_named; "%i" there is the caller's
	 * report), else the caller's current report, else 0.  Commands
	 * take it with cmd_report. */
	int64_t target;
	bool target_named;
	cmd_progress_fn *progress; /* NULL: no progress is reported */
	void *progress_data;
	cmd_confirm_fn *confirm; /* NULL: no question can be asked */
	cmd_edit_fn *edit; /* NULL: edit_text() as it is */
	void *ask_data; /* for confirm and edit */
	bool yes; /* --yes: every question answered yes */
	/* The option parser's state for the command being run
	 * (cmd_getopt): its row, its options as getopt reads them, those
	 * seen so far (by index in the row), and the mistake it found. */
	const struct cmd_entry *entry;
	const struct cmd_opt *opt; /* the option cmd_getopt returned last */
	struct option *getopt_opts;
	char *getopt_letters;
	uint64_t opts_seen;
	char *opt_error;
};

/* Where a command's report goes. */
enum cmd_target {
	CMD_TARGET_NONE, /* it takes no report */
	CMD_TARGET_REPORT, /* its first positional argument is a report id
			      * (after a sub-command of target_subs, when set) */
};

/* The values an operand takes ("STATUS", "DATE"), listed by a function
 * over the code's own table (caller frees; lines separated by
 * newlines), for its --help and the man page. */
struct cmd_values {
	const char *what;
	char *(*list)(void);
	/* The words themselves, when they can be typed as they are (the
	 * table list() prints): what Tab completes in the UI; or NULL. */
	const char *const *words;
};

/* How an option is written in a usage line, and checked. */
enum {
	CMD_OPT_REQUIRED = 1 << 0, /* shown without brackets; its absence is
				    * an error the parser gives */
	CMD_OPT_MANY = 1 << 1, /* may be given again: "[--to ADDR]..." */
	CMD_OPT_CLOSED = 1 << 2, /* its value must be one of its words */
};

/*
 * One option of a command, declared once, in its row: from this come the
 * parsing (cmd_getopt), the usage line, --help, the man page's list of
 * options and the UI's Tab completion.  A table of them ends with a row
 * whose name is NULL.  An option added to a command is one row here and
 * one case in its exec's switch.
 */
struct cmd_opt {
	const char *name; /* "state": typed --state */
	int key; /* what cmd_getopt returns for it */
	char letter; /* its short form ('o': -o), or 0 */
	const char *arg; /* its value as usage names it ("S"); NULL:
			  * it takes none */
	const char *help; /* what it does, one line */
	/* The sub-commands it belongs to ("set propose"; "-" names the
	 * command run without one); NULL: every form of the command.  The
	 * same name may have a row per sub-command (required in one,
	 * optional in another). */
	const char *subs;
	unsigned flags; /* CMD_OPT_* */
	/* Its values: the list --help and the man page show (caller frees,
	 * lines separated by newlines), the words Tab completes (and, with
	 * CMD_OPT_CLOSED, the only ones taken), and a check that refuses a
	 * bad value with err saying why ("'x' is not a report id"). */
	char *(*list)(void);
	const char *const *words;
	int (*check)(const char *value, struct err *err);
};

/* Value checks for cmd_opt.check: a report id, a number of 1 or more. */
int cmd_check_id(const char *value, struct err *err);
int cmd_check_count(const char *value, struct err *err);

struct cmd_entry {
	const char *name;
	/* Its operands, one form per sub-command, "|" between them, each
	 * starting with the sub-command's name ("set ID DATE | show ID");
	 * an empty form is the command run without one.  The usage lines
	 * are these, each followed by the options of its form. */
	const char *usage;
	const char *help; /* one line */
	int (*exec)(struct cmd_ctx *ctx, int argc, char **argv);
	const struct cmd_opt *opts; /* its options (NULL: none) */
	enum cmd_target target;
	const char *target_subs; /* the sub-commands taking the report
				     * ("set propose ..."); NULL: the command
				     * itself takes it */
	const char *subs; /* its sub-commands ("add list ..."), or NULL */
	const char *exit1; /* what exit status 1 means for it */
	/* The question the UI asks before running argv on report `report`
	 * (a step that sends mail or cannot be undone; caller frees), or
	 * NULL to run it at once; NULL: never asks.  Keys and the : line
	 * ask through this one place. */
	char *(*ask)(int argc, char **argv, int64_t report);
	const char *const *examples; /* NULL-terminated: one, or one per
				      * sub-command ("vendor status 3 ...") */
	const struct cmd_values *values; /* its operands' values; ends
					  * with { NULL, NULL } */
};

extern const struct cmd_entry *const cmd_table[];
extern const size_t cmd_table_len;

const struct cmd_entry *cmd_find(const char *name);
/*
 * The runner, as tmux's command queue: runs argv[0] with its arguments
 * on the caller's current report `report` (0: none).  Before the command
 * runs, its options are read with its row's table and its report is
 * resolved (ctx->target): the id argv names where the row says the
 * report goes wins (`show 9` in report 3's view shows 9), else report.
 * Unknown verbs give CMD_USAGE.  cmd_run is cmd_run_at with no report.
 */
int cmd_run_at(struct cmd_ctx *ctx, int argc, char **argv, int64_t report);
int cmd_run(struct cmd_ctx *ctx, int argc, char **argv);
/*
 * The report command `name` acts on (ctx->target), for its exec after
 * its own getopt: when argv names it, argv[optind] is that word and is
 * consumed (optind moves past it).  0 with *id; CMD_USAGE when there is
 * none (no id in argv, no current report: the usage is printed) or the
 * word is no report id (ctx->err says so); CMD_FAILED for "%i" with no
 * current report.
 */
int cmd_report(struct cmd_ctx *ctx, const char *name, int argc, char **argv,
	       int64_t *id);
/* What a report's signed chain does not account for is not shown: each
 * line of rf->hidden said once, apart from the output (ctx->errout). */
void cmd_say_hidden(struct cmd_ctx *ctx, const struct report_full *rf);

/*
 * The next option of the command being run (getopt_long over its row's
 * options, those of the sub-command being run, argv in GNU order): the
 * option's key, with its value in optarg, checked (CMD_OPT_CLOSED,
 * check); -1 at the end, after the required options were found; '?' on
 * a mistake (an unknown or ambiguous option, a missing or bad value, a
 * missing required option), which cmd_usage then prints, naming the
 * command and the option.  argv is the command's own or, after a
 * sub-command, argv + 1.
 */
int cmd_getopt(struct cmd_ctx *ctx, int argc, char **argv);
/* Splits a command string as a shell would (quotes, backslashes; no
 * expansion) and runs it (cmd_run). */
int cmd_run_string(struct cmd_ctx *ctx, const char *line);

/* What a command run for the UI gave back. */
struct cmd_result {
	int status; /* CMD_OK, CMD_FAILED, CMD_USAGE */
	char *summary; /* one display-safe line: the command's
				 * cmd_say or cmd_summary, its error, its
				 * usage, or what the output is ("12
				 * lines"): never read from its output */
	bool said; /* summary is the command's own result line
				 * (cmd_say): the output is its receipt,
				 * not something to read */
	char *output; /* everything it wrote to ctx->out (may hold
				 * plaintext: wiped on release), or NULL */
	size_t output_len;
	size_t output_lines;
	char *warnings; /* what it wrote to ctx->errout, or NULL */
};
void cmd_result_release(struct cmd_result *r);
/*
 * Runs argv (cmd_run_target) with ctx->out and ctx->errout captured into
 * *res instead of the process's stdout and stderr; line (may be NULL) is
 * called with each line written to errout as it comes (progress, for a
 * status line).  Returns res->status.
 */
/* How cmd_run_at resolves argv's report on the caller's report: *target
 * (0: none) and whether argv named it (an id, or "%i"). */
void cmd_resolve_target(const struct cmd_entry *e, int argc, char **argv,
			int64_t report, int64_t *target, bool *named);
/* The report a command line acts on (as cmd_run_at resolves it): the
 * one it names, else report. */
int64_t cmd_target_of(const struct cmd_entry *e, int argc, char **argv,
		      int64_t report);
/* The question to ask before running argv on report (cmd_entry.ask), or
 * NULL (caller frees). */
char *cmd_question(int argc, char **argv, int64_t report);
int cmd_capture(struct cmd_ctx *ctx, int argc, char **argv, int64_t report,
		void (*line)(const char *text, void *data), void *data,
		struct cmd_result *res);
/* A command's one-line result: printed to ctx->out as a line of its own
 * (display-safe: untrusted parts made safe by the caller) and kept as
 * ctx->summary for the UI's status line. */
void cmd_say(struct cmd_ctx *ctx, const char *fmt, ...) UTIL_PRINTF(2, 3);
/* The same result, kept for the UI without a line of its own: for a
 * command whose output lines already say it (in other words). */
void cmd_summary(struct cmd_ctx *ctx, const char *fmt, ...) UTIL_PRINTF(2, 3);
/*
 * Splits like a POSIX shell without expansion: '...' literal, "..." with
 * \" and \\, backslash escapes outside.  Returns 0 with a NULL-terminated
 * *argv (free with cmd_split_free), or ERR_INVALID for an open quote.
 */
int cmd_split(const char *line, char ***argv, int *argc, struct err *err);
void cmd_split_free(char **argv, int argc);
/* The inverse of cmd_split: argv as one line, each word quoted when it
 * needs to be, so that cmd_split gives argv back (caller frees). */
char *cmd_join(int argc, char *const *argv);

/*
 * A question the command cannot go on without (take over another
 * officer's claim): asked through ctx->confirm, whoever runs it; yes
 * with ctx->yes.  Returns 1 for yes, 0 for no; when nobody can be asked
 * (the shell without a terminal), -1 with ctx->err set to refusal (what
 * is refused and the option that says yes) followed by how to answer.
 */
int cmd_confirm(struct cmd_ctx *ctx, const char *refusal, const char *fmt, ...)
	UTIL_PRINTF(3, 4);
/*
 * A question against a stray key: asked where one key runs a command
 * (the UI: ctx->interactive, for its keys and its : line alike), never
 * in the shell, where the typed command line is the officer's answer.
 * True to go on.  A command that stops on no says so with
 * cmd_declined.
 */
bool cmd_guard(struct cmd_ctx *ctx, const char *fmt, ...) UTIL_PRINTF(2, 3);
/* The result of a question answered no: "nothing done: LINE" (the
 * command line being run) as the command's summary; CMD_OK. */
int cmd_declined(struct cmd_ctx *ctx);
/* initial edited by the officer (ctx->edit, else edit_text()): 0 with
 * *text (caller wipes and frees), or negative with ctx->err. */
int cmd_edit(struct cmd_ctx *ctx, const char *name, const char *initial,
	     char **text);

/* Opens ctx->sess (session_open) and sets the output streams. */
int cmd_ctx_init(struct cmd_ctx *ctx, struct err *err);
void cmd_ctx_release(struct cmd_ctx *ctx);
/* The session's store / keyring; NULL with ctx->err set. */
struct store *cmd_store(struct cmd_ctx *ctx);
struct crypto *cmd_crypto(struct cmd_ctx *ctx);

/*
 * Prints the usage line of NAME (of the sub-command being run, when it
 * has them: ctx->sub) and a hint to its --help to errout, once per run;
 * returns CMD_USAGE.
 */
int cmd_usage(struct cmd_ctx *ctx, const char *name);

/* cmd/help.c: the help of the command line, from cmd_table[]. */
/* The global help: options and the commands. */
void cmd_help_global(FILE *out);
/* NAME's --help (of its sub-command sub, when one of its subs; else the
 * whole command's).  Returns 0, or -1 when NAME is no command. */
int cmd_help(FILE *out, const char *name, const char *sub);
/* argv asks for help: a --help (or -h) among its options, before any
 * "--", not an option's argument. */
bool cmd_wants_help(const struct cmd_entry *e, int argc, char **argv);
/* The usage of e's sub-command sub (its alternative of e->usage, as a
 * new string), or of the whole command when sub is NULL or not one. */
char *cmd_usage_of(const struct cmd_entry *e, const char *sub);
/* argv[1] when it names one of e's sub-commands, else NULL. */
const char *cmd_sub_of(const struct cmd_entry *e, int argc, char **argv);
/* The options of every command, in roff, for the man page. */
void cmd_options_roff(FILE *out);
/* The words option opt ("--state", "-o") of e takes (cmd_opt.words), or
 * NULL. */
const char *const *cmd_option_words(const struct cmd_entry *e, const char *opt);
/* The long names (without "--") of e's options, of its form sub (NULL:
 * every form), that start with prefix, "help" among them: at most max
 * into out, for Tab.  Returns how many. */
size_t cmd_option_names(const struct cmd_entry *e, const char *sub,
			const char *prefix, const char **out, size_t max);
/* Whether option o belongs to e's form sub (NULL: the command run
 * without a sub-command, or the whole command when all is true). */
bool cmd_opt_in(const struct cmd_opt *o, const char *sub, bool all);
/* The option o as --help shows it: "--state S", "-o, --output FILE"
 * (caller frees). */
char *cmd_opt_spelling(const struct cmd_opt *o);
/* A NULL-terminated list of words as one line, ", " between them
 * (caller frees). */
char *cmd_words(const char *const *list);
/* Text as roff: backslashes escaped, '-' a minus sign, no request at the
 * start of a line (the man page's command and key sections). */
void cmd_roff_text(FILE *out, const char *s);

/* One line per mail forward_report() sent: plaintext or encrypted, to,
 * where (display-safe); `forward` and `vendor notify --forward`. */
struct forward_result;
void cmd_forward_print(struct cmd_ctx *ctx, const struct forward_result *res);

/* cmd/maintainers.c: the options of `maintainers`, which
 * cmd/maintainers-report.c reads too. */
extern const struct cmd_opt cmd_maintainers_opts[];

/* cmd/distros.c: what `distros` and `announce` share. */
extern const struct cmd_opt cmd_notice_opts[];
/* `maintainers ID ...` (cmd/maintainers-report.c): suggestions for
 * report id, and bringing people in; argv is the whole command line
 * (options are parsed again, optind reset).  Returns CMD_*. */
int maintainers_report_exec(struct cmd_ctx *ctx, int64_t id, int argc,
			    char **argv);

/* cmd/reply.c, cmd/distros.c: what the mail commands share. */
/* The text a mail command sends (cmd/reply.c): the draft as the officer
 * edits it (cmd_edit), its To, Cc and Subject above the text as mutt's
 * edit_headers shows them and read back into d
 * (reply_draft_take_edit), or as it is with yes.  CMD_OK with *text
 * (wipe it), else CMD_FAILED with ctx->err (the editor failed, the
 * draft came back unchanged or empty, a header or an address is wrong:
 * nothing is sent). */
int cmd_edit_draft(struct cmd_ctx *ctx, struct reply_draft *d, bool yes,
		   char **text);
/* cmd_edit_draft, then question (cmd_guard: the UI asks it, naming the
 * recipient), then send, then the command's output line
 * ("encrypted|plaintext <TAB> to <TAB> where <TAB> <Message-ID>"), its
 * summary ("report N: WHAT sent to ...") and its warnings.  Returns
 * CMD_*. */
int cmd_mail_draft(struct cmd_ctx *ctx, struct reply_draft *d, bool yes,
		   const char *what, const char *question,
		   int (*send)(struct session *, const struct reply_draft *,
			       const char *, struct reply_sent *,
			       struct err *));

/* `distros` and `announce` (cmd/distros.c): the arguments parsed, the
 * draft made (notice_prepare), edited and sent with send.  CMD_*. */
int cmd_notice_exec(struct cmd_ctx *ctx, int argc, char **argv,
		    const char *name, enum notice_kind k,
		    int (*send)(struct session *, const struct reply_draft *,
				const char *, struct reply_sent *,
				struct err *));

#endif
