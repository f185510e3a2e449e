/*
 * `cve ID (--assign CVE-YYYY-NNNN [--fix SHA]... | --drop CVE-YYYY-NNNN |
 *  --reject [--id CVE-YYYY-NNNN] --reason TEXT | --publish [--id ID] |
 *  --description | --cwe CWE-N | --cvss VECTOR --rationale TEXT)`: the
 * CVE lifecycle of a report (cve_request_record,
 * fixcve.c), each change an event.  A report may have several IDs: each
 * --assign adds one, covering the fixes --fix names (every fix without
 * one); --assign of an ID already there with --fix changes the fixes it
 * covers; --drop takes back an ID recorded by mistake (a rejected one
 * stays, as REJECTED); --reject needs --id when several are live.
 * --publish records that the ID's record went out (writing the record
 * with `export --format cve` is only writing a file), refused while the
 * report is under embargo.  --description opens $VISUAL, else $EDITOR, on a
 * private temporary file holding the current description; what is saved
 * becomes the record's description.  It needs a terminal of its own, so
 * the UI's `:` line refuses it.  --cvss records the CVSS 3.1 base vector
 * the records carry with its score (cvss.h), and why it was scored so
 * (--rationale: the CVE record's scenario); `--cvss none` takes it back.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/core.h"
#include "core/disclosure.h"
#include "core/cvss.h"
#include "core/fixcve.h"

#define DESC_FILE "description.txt"

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
		return err_setc(err, ERR_INVALID,
				"the editor '%s' failed: nothing recorded", ed);
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
	fd = openat(dfd, DESC_FILE,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	/* The current text, its last line ended, to be edited. */
	if (fd < 0 ||
	    (initial &&
	     (write(fd, initial, strlen(initial)) < 0 ||
	      write(fd, "\n", 1) < 0))) {
		err_setc(err, ERR_IO, "cannot write '%s': %s", path,
			 strerror(errno));
		goto out;
	}
	close(fd);
	fd = -1;
	if (run_editor(path, err) < 0)
		goto out;
	fd = openat(dfd, DESC_FILE,
		    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		err_setc(err, ERR_IO, "cannot read '%s': %s", path,
			 strerror(errno));
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
		err_setc(err, ERR_INVALID,
			 "the description is empty: nothing recorded");
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
		err_setc(
			&ctx->err, ERR_INVALID,
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
	const char *assign, *reason, *cwe, *drop, *which, *cvss, *rationale;
	bool reject, description, publish;
	int64_t id;
	const char **fixes;
	size_t nfixes;
};

static int check_args(struct cmd_ctx *ctx, const struct cve_args *a)
{
	if ((a->assign != NULL) + a->reject + a->description +
			    (a->cwe != NULL) + (a->drop != NULL) + a->publish +
			    (a->cvss != NULL) !=
		    1 ||
	    (a->reason && !a->reject) ||
	    (a->rationale && (!a->cvss || !strcmp(a->cvss, "none"))) ||
	    (a->which && !a->reject && !a->publish) ||
	    (a->nfixes && !a->assign))
		return cmd_usage(ctx, "cve");
	if (a->assign && !cve_id_valid(a->assign))
		err_setc(&ctx->err, ERR_INVALID,
			 "cve --assign '%s': not a CVE ID (CVE-YYYY-NNNN)",
			 a->assign);
	else if (a->drop && !cve_id_valid(a->drop))
		err_setc(&ctx->err, ERR_INVALID,
			 "cve --drop '%s': not a CVE ID (CVE-YYYY-NNNN)",
			 a->drop);
	else if (a->which && !cve_id_valid(a->which))
		err_setc(&ctx->err, ERR_INVALID,
			 "cve --id '%s': not a CVE ID (CVE-YYYY-NNNN)",
			 a->which);
	else if (a->cwe && !cwe_id_valid(a->cwe))
		err_setc(&ctx->err, ERR_INVALID,
			 "cve --cwe '%s': not a CWE ID (CWE-NNN)", a->cwe);
	else if (a->cwe && !cwe_name(a->cwe))
		err_setc(
			&ctx->err, ERR_INVALID,
			"cve --cwe '%s': no weakness with this ID in the CWE catalogue (data/cwe-names.tsv: CWE 4.17; a category or view is no weakness)",
			a->cwe);
	else if (a->cvss && strcmp(a->cvss, "none") &&
		 (!a->rationale || !*a->rationale))
		err_setc(
			&ctx->err, ERR_INVALID,
			"cve --cvss needs --rationale TEXT: why the vulnerability is scored so (the CVE record's scenario)");
	else if (a->reject && (!a->reason || !*a->reason))
		err_setc(&ctx->err, ERR_INVALID,
			 "cve --reject needs --reason TEXT");
	else
		return CMD_OK;
	return CMD_USAGE;
}

/* A CVE record is public: none while the report is under embargo (the
 * same gate as the export of the record). */
static int refuse_embargoed(struct cmd_ctx *ctx, int64_t id)
{
	struct dossier d;
	int r = dossier_load(ctx->sess, id, &d, &ctx->err);

	if (r == 0)
		r = dossier_refuse_unreleased(&d, "CVE publication", &ctx->err);
	dossier_release(&d);
	return r;
}

/* The ID --publish published: the one named, else the report's
 * newest published one (the only reserved one was it). */
static const char *published_id(struct cmd_ctx *ctx, const struct cve_args *a)
{
	static char id[32];
	struct report_full rf;
	struct fixcve fc;
	struct err err = { 0, "" };

	if (a->which)
		return a->which;
	snprintf(id, sizeof(id), "its CVE ID");
	if (report_load(ctx->sess, a->id, &rf, &err) == 0) {
		fixcve_fold(rf.events, rf.nevents, &fc);
		for (size_t i = 0; i < fc.ncves; i++)
			if (!strcmp(fc.cves[i].state, "published"))
				snprintf(id, sizeof(id), "%s", fc.cves[i].id);
		fixcve_release(&fc);
	}
	report_full_release(&rf);
	return id;
}

/* "report 3: CVSS 3.1 base score 9.8 (CRITICAL) recorded, CVSS:3.1/..." */
static void say_cvss(struct cmd_ctx *ctx, long long id, const char *vector)
{
	struct cvss c;
	struct err err = { 0, "" };
	char b[8];

	if (cvss_parse(vector, &c, &err) == 0)
		cmd_say(ctx,
			"report %lld: CVSS 3.1 base score %s (%s) recorded, %s",
			id, cvss_score_str(c.score, b), c.severity, c.vector);
}

static int cve_run(struct cmd_ctx *ctx, const struct cve_args *a)
{
	struct cve_request rq = { a->id,    CVE_CWE,   a->cwe, NULL,
				  a->fixes, a->nfixes, NULL };
	long long id = (long long)a->id;

	if (a->assign) {
		rq.a = CVE_ASSIGN;
		rq.value = a->assign;
	} else if (a->drop) {
		rq.a = CVE_DROP;
		rq.value = a->drop;
	} else if (a->reject) {
		rq.a = CVE_REJECT;
		rq.value = a->reason;
		rq.cve = a->which;
	} else if (a->publish) {
		rq.a = CVE_PUBLISH;
		rq.value = a->which;
		if (refuse_embargoed(ctx, a->id) < 0)
			return CMD_FAILED;
	} else if (a->cvss) {
		rq.a = CVE_CVSS;
		rq.value = strcmp(a->cvss, "none") ? a->cvss : NULL;
		rq.rationale = a->rationale;
	}
	if (cve_request_record(ctx->sess, &rq, &ctx->err) < 0)
		return ctx->err.code == ERR_INVALID ? CMD_USAGE : CMD_FAILED;
	if (a->assign)
		cmd_say(ctx, "report %lld: %s reserved%s", id, a->assign,
			a->nfixes ? " for the fixes named" : "");
	else if (a->drop)
		cmd_say(ctx, "report %lld: %s dropped", id, a->drop);
	else if (a->reject)
		cmd_say(ctx, "report %lld: CVE ID rejected", id);
	else if (a->publish)
		cmd_say(ctx, "report %lld: %s published", id,
			published_id(ctx, a));
	else if (a->cvss && !rq.value)
		cmd_say(ctx, "report %lld: CVSS score taken back", id);
	else if (a->cvss)
		say_cvss(ctx, id, a->cvss);
	else
		cmd_say(ctx, "report %lld: %s recorded", id, a->cwe);
	return CMD_OK;
}

static int cmd_cve_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct cve_args a = { NULL,  NULL,  NULL,  NULL, NULL, NULL, NULL,
			      false, false, false, 0,	 NULL, 0 };
	int c, r;

	while ((c = cmd_getopt(ctx, argc, argv)) != -1) {
		switch (c) {
		case 'a':
			a.assign = optarg;
			break;
		case 'r':
			a.reject = true;
			break;
		case 'R':
			a.reason = optarg;
			break;
		case 'd':
			a.description = true;
			break;
		case 'w':
			a.cwe = optarg;
			break;
		case 'D':
			a.drop = optarg;
			break;
		case 'i':
			a.which = optarg;
			break;
		case 'p':
			a.publish = true;
			break;
		case 'c':
			a.cvss = optarg;
			break;
		case 'x':
			a.rationale = optarg;
			break;
		case 'f':
			a.fixes = xrealloc(a.fixes,
					   (a.nfixes + 1) * sizeof(*a.fixes));
			a.fixes[a.nfixes++] = optarg;
			break;
		default:
			free(a.fixes);
			return cmd_usage(ctx, "cve");
		}
	}
	if ((r = cmd_report(ctx, "cve", argc, argv, &a.id)) == 0 &&
	    optind != argc)
		r = cmd_usage(ctx, "cve");
	if (r == CMD_OK)
		r = check_args(ctx, &a);
	if (r == CMD_OK)
		r = a.description ? describe(ctx, a.id) : cve_run(ctx, &a);
	free(a.fixes);
	return r;
}

/* `cve` in the command table (cmd/cmd.c); its options, each declared
 * once: parsed by cmd_getopt, shown by --help, the usage, the man page. */
static const struct cmd_opt opts[] = {
	{ .name = "assign",
	  .key = 'a',
	  .arg = "CVE-YYYY-NNNN",
	  .help = "an ID the CNA reserved for this report (a report may have several)" },
	{ .name = "fix",
	  .key = 'f',
	  .arg = "SHA",
	  .flags = CMD_OPT_MANY,
	  .help = "with --assign: a recorded fix the ID covers (repeatable; default every fix)" },
	{ .name = "drop",
	  .key = 'D',
	  .arg = "CVE-YYYY-NNNN",
	  .help = "an ID recorded by mistake is no longer the report's" },
	{ .name = "reject",
	  .key = 'r',
	  .help = "the ID is rejected (with --reason)" },
	{ .name = "publish",
	  .key = 'p',
	  .help = "its record was published (the ID's state becomes published; refused under embargo)" },
	{ .name = "id",
	  .key = 'i',
	  .arg = "CVE-YYYY-NNNN",
	  .help = "with --reject or --publish: which ID, when the report has several" },
	{ .name = "reason",
	  .key = 'R',
	  .arg = "TEXT",
	  .help = "why it is rejected" },
	{ .name = "description",
	  .key = 'd',
	  .help = "write the record's description in $VISUAL or $EDITOR" },
	{ .name = "cwe",
	  .key = 'w',
	  .arg = "CWE-N",
	  .help = "the record's weakness" },
	{ .name = "cvss",
	  .key = 'c',
	  .arg = "VECTOR",
	  .help = "the CVSS 3.1 base vector (CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H: AV N|A|L|P, AC L|H, PR N|L|H, UI N|R, S U|C, C I A H|L|N); the records carry it with its base score; none takes it back" },
	{ .name = "rationale",
	  .key = 'x',
	  .arg = "TEXT",
	  .help = "with --cvss: why it is scored so, one line (the CVE record's scenario)" },
	{ NULL },
};
static const char *const examples[] = {
	"cve 3 --assign CVE-2026-12345",
	"cve 3 --assign CVE-2026-12346 --fix 2b3c4d5e6f7a",
	"cve 3 --reject --id CVE-2026-12346 --reason 'a duplicate of CVE-2026-12345'",
	"cve 3 --publish --id CVE-2026-12345",
	"cve 3 --cvss CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H --rationale 'a local user gains root through the overflow'",
	NULL
};
const struct cmd_entry cmd_cve_entry = {
	.name = "cve",
	.usage = "ID",
	.help = "the report's CVE IDs (one or several): reserved, published, rejected, dropped; the records' description, CWE and CVSS score",
	.exec = cmd_cve_exec,
	.opts = opts,
	.target = CMD_TARGET_REPORT,
	.exit1 =
		"a change the CVE's state refuses, no such report, or the editor failed",
	.examples = examples,
};
