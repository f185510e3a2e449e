/*
 * secteam-tui: the security officers' terminal.
 *
 * Parses the global options, then runs one command from the table in
 * cmd/cmd.c, or opens the interactive UI when no command is given.
 * Exit codes: 0 success, 1 some input or action failed, 2 usage error.
 */
#include <getopt.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/core.h"
#include "export/export.h"
#include "tui/tui.h"

#ifndef SECTEAM_VERSION
#define SECTEAM_VERSION "0.0.0"
#endif

/*
 * `secteam-tui help [COMMAND [SUB]]` and `secteam-tui COMMAND [SUB]
 * --help`: answered before the config is read, so help works whatever
 * the config holds.  Returns the exit status, or -1 when argv asks for
 * no help.
 */
static int help(int argc, char **argv)
{
	const struct cmd_entry *e = cmd_find(argv[0]);

	if (e) {
		if (!cmd_wants_help(e, argc, argv))
			return -1;
		cmd_help(stdout, e->name, cmd_sub_of(e, argc, argv));
		return CMD_OK;
	}
	if (strcmp(argv[0], "help"))
		return -1;
	if (argc == 1) {
		cmd_help_global(stdout);
		return CMD_OK;
	}
	if (argc > 3) {
		fputs("secteam-tui: help takes one command and maybe a sub-command (see secteam-tui --help)\n",
		      stderr);
		return CMD_USAGE;
	}
	if (cmd_help(stdout, argv[1], argc == 3 ? argv[2] : NULL) < 0) {
		char *m = safe_str(argv[1]);
		fprintf(stderr,
			"secteam-tui: help: unknown command '%s' (see secteam-tui --help)\n",
			m);
		free(m);
		return CMD_USAGE;
	}
	return CMD_OK;
}

/* Whether standard output is a pipe nobody reads any more (`| head`
 * that has had its lines): its write end then polls as an error. */
static bool reader_gone(void)
{
	struct pollfd p = { .fd = STDOUT_FILENO, .events = POLLOUT };
	struct stat st;

	return fstat(STDOUT_FILENO, &st) == 0 && S_ISFIFO(st.st_mode) &&
		poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

/* r, or CMD_FAILED when standard output could not be written: said on
 * standard error, unless the reader of a pipe went away on purpose, as
 * `| head` does (git is silent then too; GPGME ignores SIGPIPE, which
 * would otherwise end us without a word). */
static int output_written(int r)
{
	fflush(stdout);
	if (ferror(stdout)) {
		if (!reader_gone())
			fprintf(stderr,
				"secteam-tui: cannot write the output\n");
		return CMD_FAILED;
	}
	return r;
}

/*
 * A command's progress on a terminal, like git's: one line redrawn in
 * place on standard error, "importing [####      ]  40%  N message(s)"
 * (or the count alone when the share cannot be known), taken off before
 * result lines and left at 100% with the time taken at the end.
 */
static void draw_progress(const struct cmd_progress *p, void *data)
{
	static const char cells[] = "##############################";
	const int width = (int)sizeof(cells) - 1;
	FILE *e = data;
	double frac = p->event == CMD_PROGRESS_DONE ? 1 : p->frac;
	int fill = (int)(frac * width);

	fputs("\r\033[K", e);
	if (p->event == CMD_PROGRESS_CLEAR)
		;
	else if (frac < 0)
		fprintf(e, "%s: %zu %s", p->what, p->done, p->unit);
	else
		fprintf(e, "%s [%.*s%*s] %3d%%  %zu %s", p->what, fill, cells,
			width - fill, "", (int)(frac * 100), p->done, p->unit);
	if (p->event == CMD_PROGRESS_DONE)
		fprintf(e, ", done in %.1f s\n", p->seconds);
	fflush(e);
}

/*
 * A command's question in the shell: asked on the terminal (standard
 * error, the answer a line of standard input), git's way.  Without a
 * terminal on both, nobody is there to answer: -1, and the command says
 * what was refused and which option answers yes.
 */
static int ask_terminal(const char *question, void *data)
{
	char line[64];
	char *q;

	(void)data;
	if (!isatty(STDIN_FILENO) || !isatty(STDERR_FILENO))
		return -1;
	q = safe_str(question);
	fprintf(stderr, "%s [y/N] ", q);
	free(q);
	fflush(stderr);
	if (!fgets(line, sizeof(line), stdin))
		return 0;
	return line[0] == 'y' || line[0] == 'Y';
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "gnupghome", required_argument, NULL, 'g' },
		{ "config", required_argument, NULL, 'c' },
		{ "yes", no_argument, NULL, 'y' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "keys-roff", no_argument, NULL, 'K' }, /* for the man page */
		{ "formats-roff", no_argument, NULL,
		  'F' }, /* for the man page */
		{ "options-roff", no_argument, NULL,
		  'O' }, /* for the man page */
		{ "marks-roff", no_argument, NULL, 'M' }, /* for the man page */
		{ NULL, 0, NULL, 0 },
	};
	struct session sess;
	struct cmd_ctx ctx;
	struct err err = { 0, "" };
	const char *verb;
	int c, r;

	secure_process_init();
	memset(&sess, 0, sizeof(sess));
	memset(&ctx, 0, sizeof(ctx));
	ctx.sess = &sess;
	/* '+': stop at the first non-option, the command's own options follow. */
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			ctx.sess->db_path = optarg;
			break;
		case 'g':
			ctx.sess->gnupghome = optarg;
			break;
		case 'c':
			ctx.sess->config_path = optarg;
			break;
		case 'y':
			ctx.yes = true;
			break;
		case 'h':
			cmd_help_global(stdout);
			return 0;
		case 'V':
			printf("secteam-tui %s\n", SECTEAM_VERSION);
			return 0;
		case 'K':
			tui_keys_roff(stdout);
			return 0;
		case 'F':
			export_roff(stdout);
			return 0;
		case 'O':
			cmd_options_roff(stdout);
			return 0;
		case 'M':
			tui_marks_roff(stdout);
			return 0;
		default:
			fputs("secteam-tui: unknown option (see 'secteam-tui --help')\n",
			      stderr);
			return CMD_USAGE;
		}
	}
	/* The command's own getopt resets optind: keep where it is. */
	verb = optind < argc ? argv[optind] : NULL;
	if (verb && (r = help(argc - optind, argv + optind)) >= 0)
		return output_written(r);
	if (cmd_ctx_init(&ctx, &err) < 0) {
		char *m = safe_str(err.msg);
		fprintf(stderr, "secteam-tui: %s\n", m);
		free(m);
		cmd_ctx_release(&ctx);
		return CMD_FAILED;
	}
	if (!verb) {
		r = tui_main(&ctx);
	} else {
		if (isatty(fileno(stderr))) {
			ctx.progress = draw_progress;
			ctx.progress_data = stderr;
		}
		ctx.confirm = ask_terminal;
		r = cmd_run(&ctx, argc - optind, argv + optind);
		if (r != CMD_OK && ctx.err.msg[0]) {
			/* Messages may quote input (a file name, a header). */
			char *m = safe_str(ctx.err.msg);
			fprintf(stderr, "secteam-tui: %s\n", m);
			free(m);
		}
		/* Usage errors the command only explained: the usage line
		 * and the hint to its --help after the message. */
		if (r == CMD_USAGE && cmd_find(verb))
			cmd_usage(&ctx, verb);
	}
	r = output_written(r);
	cmd_ctx_release(&ctx);
	return r;
}
