/*
 * `cve ID (--assign CVE-YYYY-NNNN | --reject --reason TEXT | --description
 *  | --cwe CWE-N)`: the CVE lifecycle of a report (cve_record, fixcve.c),
 * each change an event.  --description opens $VISUAL, else $EDITOR, on a
 * private temporary file holding the current description; what is saved
 * becomes the record's description.  It needs a terminal of its own, so
 * the UI's `:` line refuses it.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/core.h"
#include "core/fixcve.h"

#define DESC_FILE "description.txt"

static const struct option cmd_cve_opts[] = {
	{ "assign", required_argument, NULL, 'a' },
	{ "reject", no_argument, NULL, 'r' },
	{ "reason", required_argument, NULL, 'R' },
	{ "description", no_argument, NULL, 'd' },
	{ "cwe", required_argument, NULL, 'w' },
	{ NULL, 0, NULL, 0 },
};

/* Runs the editor on dir/DESC_FILE; 0 when it exited 0. */
static int run_editor(const char *path, struct err *err)
{
	const char *ed = getenv("VISUAL");
	char *cmd;
	int status = 0;
	pid_t pid;

	if (!ed || !*ed)
		ed = getenv("EDITOR");
	if (!ed || !*ed)
		ed = "vi";
	/* The editor may carry arguments: the shell splits it; the file is
	 * $1, never pasted into the command. */
	cmd = xasprintf("%s \"$1\"", ed);
	pid = fork();
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", cmd, "sh", path, (char *)NULL);
		_exit(127);
	}
	free(cmd);
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return err_setc(err, ERR_INVALID, "the editor '%s' failed: nothing recorded", ed);
	return 0;
}

/* The text the officer wrote, trimmed (caller frees), or NULL with err. */
static char *edit_description(const char *initial, struct err *err)
{
	char *dir = NULL, *path, *text = NULL;
	size_t len;
	int dfd, fd;

	if ((dfd = tmpdir_private("secteam-cve", &dir, err)) < 0)
		return NULL;
	path = xasprintf("%s/" DESC_FILE, dir);
	fd = openat(dfd, DESC_FILE, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	/* The current text, its last line ended, to be edited. */
	if (fd < 0 || (initial && (write(fd, initial, strlen(initial)) < 0 ||
				   write(fd, "\n", 1) < 0))) {
		err_setc(err, ERR_IO, "cannot write '%s': %s", path, strerror(errno));
		goto out;
	}
	close(fd);
	fd = -1;
	if (run_editor(path, err) < 0)
		goto out;
	fd = openat(dfd, DESC_FILE, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		err_setc(err, ERR_IO, "cannot read '%s': %s", path, strerror(errno));
	else if (read_fd(fd, path, 64 * 1024, &text, &len, err) < 0)
		text = NULL;
out:
	if (fd >= 0)
		close(fd);
	unlinkat(dfd, DESC_FILE, 0);
	rmdir(dir);
	close(dfd);
	free(path);
	free(dir);
	if (text && !*str_trim(text)) {
		free(text);
		text = NULL;
		err_setc(err, ERR_INVALID, "the description is empty: nothing recorded");
	}
	return text;
}

/* The report's current description (caller frees), or NULL. */
static char *current_description(struct cmd_ctx *ctx, int64_t id)
{
	struct report_full rf;
	struct fixcve fc;
	char *d;

	if (report_load(ctx->sess, id, &rf, &ctx->err) < 0) {
		report_full_release(&rf);
		return NULL;
	}
	fixcve_fold(rf.events, rf.nevents, &fc);
	d = fc.description ? xstrdup(fc.description) : NULL;
	fixcve_release(&fc);
	report_full_release(&rf);
	return d;
}

static int describe(struct cmd_ctx *ctx, int64_t id)
{
	char *old, *text;
	int r;

	if (ctx->interactive) {
		err_setc(&ctx->err, ERR_INVALID,
			 "cve --description opens an editor: run it from the shell");
		return CMD_USAGE;
	}
	err_clear(&ctx->err);
	old = current_description(ctx, id);
	if (ctx->err.msg[0]) {
		free(old);
		return CMD_FAILED;
	}
	text = edit_description(old, &ctx->err);
	free(old);
	if (!text)
		return CMD_FAILED;
	r = cve_record(ctx->sess, id, CVE_DESCRIBE, text, &ctx->err);
	free(text);
	if (r < 0)
		return CMD_FAILED;
	cmd_say(ctx, "report %lld: CVE description recorded", (long long)id);
	return CMD_OK;
}

struct cve_args {
	const char *assign, *reason, *cwe;
	bool reject, description;
	int64_t id;
};

static int check_args(struct cmd_ctx *ctx, const struct cve_args *a)
{
	if ((a->assign != NULL) + a->reject + a->description + (a->cwe != NULL) != 1 ||
	    (a->reason && !a->reject))
		return cmd_usage(ctx, "cve");
	if (a->assign && !cve_id_valid(a->assign))
		err_setc(&ctx->err, ERR_INVALID, "cve --assign '%s': not a CVE ID (CVE-YYYY-NNNN)",
			 a->assign);
	else if (a->cwe && !cwe_id_valid(a->cwe))
		err_setc(&ctx->err, ERR_INVALID, "cve --cwe '%s': not a CWE ID (CWE-NNN)", a->cwe);
	else if (a->cwe && !cwe_name(a->cwe))
		err_setc(&ctx->err, ERR_INVALID,
			 "cve --cwe '%s': no weakness with this ID in the CWE catalogue (data/cwe-names.tsv: CWE 4.17; a category or view is no weakness)",
			 a->cwe);
	else if (a->reject && (!a->reason || !*a->reason))
		err_setc(&ctx->err, ERR_INVALID, "cve --reject needs --reason TEXT");
	else
		return CMD_OK;
	return CMD_USAGE;
}

static int cmd_cve_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct cve_args a = { NULL, NULL, NULL, false, false, 0 };
	int c, r;

	while ((c = getopt_long(argc, argv, "", cmd_cve_opts, NULL)) != -1) {
		switch (c) {
		case 'a': a.assign = optarg; break;
		case 'r': a.reject = true; break;
		case 'R': a.reason = optarg; break;
		case 'd': a.description = true; break;
		case 'w': a.cwe = optarg; break;
		default: return cmd_usage(ctx, "cve");
		}
	}
	if ((c = cmd_report(ctx, "cve", argc, argv, &a.id)) != 0)
		return c;
	if (optind != argc)
		return cmd_usage(ctx, "cve");
	if ((r = check_args(ctx, &a)) != CMD_OK)
		return r;
	if (a.description)
		return describe(ctx, a.id);
	if (a.assign)
		r = cve_record(ctx->sess, a.id, CVE_ASSIGN, a.assign, &ctx->err);
	else if (a.reject)
		r = cve_record(ctx->sess, a.id, CVE_REJECT, a.reason, &ctx->err);
	else
		r = cve_record(ctx->sess, a.id, CVE_CWE, a.cwe, &ctx->err);
	if (r < 0)
		return CMD_FAILED;
	if (a.assign)
		cmd_say(ctx, "report %lld: %s reserved", (long long)a.id, a.assign);
	else if (a.reject)
		cmd_say(ctx, "report %lld: CVE ID rejected", (long long)a.id);
	else
		cmd_say(ctx, "report %lld: %s recorded", (long long)a.id, a.cwe);
	return CMD_OK;
}

/* `cve` in the command table (cmd/cmd.c). */
static const struct cmd_opt_help opt_help[] = {
	{ "--assign CVE-YYYY-NNNN", "the ID the CNA reserved for this report" },
	{ "--reject", "the ID is rejected (with --reason)" },
	{ "--reason TEXT", "why it is rejected" },
	{ "--description", "write the record's description in $VISUAL or $EDITOR" },
	{ "--cwe CWE-N", "the record's weakness" },
	{ NULL, NULL },
};
static const char *const examples[] = { "cve 3 --assign CVE-2026-12345", NULL };
const struct cmd_entry cmd_cve_entry = {
	.name = "cve",
	.usage = "ID (--assign CVE-YYYY-NNNN | --reject --reason TEXT | --description | --cwe CWE-N)",
	.help = "the report's CVE ID: reserved, rejected; the record's description and CWE",
	.exec = cmd_cve_exec,
	.opts = cmd_cve_opts,
	.target = CMD_TARGET_REPORT,
	.opt_help = opt_help,
	.exit1 = "a change the CVE's state refuses, no such report, or the editor failed",
	.examples = examples,
};
