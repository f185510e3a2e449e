/*
 * The command table (tmux's cmd_table[]) and the session every command
 * runs in.  The shell, the UI's `:` line, key bindings and config `bind`
 * lines all end in cmd_run(), so every action is scriptable and every
 * key is a command string.  The database and the keyring are opened on
 * first use: `secteam-tui maintainers --file F` touches neither.
 */
#include <errno.h>
#include <getopt.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "crypto/crypto.h"
#include "store/store.h"

/* The options of each command, for its --help and the man page.  The
 * option parsers are in core/cmd-NAME.c; tests/e2e/help.sh checks that
 * these, the usage lines and the man page name the same options. */
static const struct cmd_opt_help import_help[] = {
	{ "--mbox", "read each PATH as an mbox (mboxo or mboxrd)" },
	{ "--maildir", "read each PATH as a Maildir (cur/ and new/)" },
	{ "--jobs N", "decrypt up to N messages at once (1 to 8, default 4)" },
	{ NULL, NULL },
};
static const struct cmd_opt_help list_help[] = {
	{ "--state S", "only reports in state S (new, triaged, accepted, rejected, duplicate, fixing, fix-ready, disclosed, closed)" },
	{ "--open", "only reports still open (not disclosed, closed, rejected or duplicate)" },
	{ "--sort KEY", "order by deadline, received, state or severity (default: id)" },
	{ "--json", "an array of JSON objects instead of the table" },
	{ NULL, NULL },
};
static const struct cmd_opt_help show_help[] = {
	{ "--json", "a JSON object (without the body) instead of the text" },
	{ NULL, NULL },
};
static const struct cmd_opt_help triage_help[] = {
	{ "--state S", "move the report to state S (the allowed moves only)" },
	{ "--severity S", "none, low, medium, high or critical" },
	{ "--claim", "make the officer running it the report's owner" },
	{ "--unclaim", "leave the report without an owner" },
	{ "--public", "mark the report already public (its policy date is now)" },
	{ "--consent credit|exploit", "record the reporter's consent to be credited, or to release exploit code" },
	{ "--note TEXT", "add an internal note to the timeline" },
	{ NULL, NULL },
};
static const struct cmd_opt_help maintainers_help[] = {
	{ "--tree DIR", "the kernel tree whose MAINTAINERS to read (else kernel.tree, /usr/src/linux-*)" },
	{ "--file PATH", "the maintainers of PATH (repeatable)" },
	{ "--each", "with --file: answer for each file separately" },
	{ "--patch FILE", "the maintainers of the files a patch touches" },
	{ "--add ADDR", "bring in a suggested address, or \"Name <addr>\" (repeatable)" },
	{ "--key FPR", "with one --add: the key confirmed for that person" },
	{ "--add-all", "bring in every suggested person (lists only when named)" },
	{ "--remove ADDR", "record that ADDR is no longer a participant" },
	{ "--ack ADDR", "record that ADDR acknowledged the report" },
	{ "--with-catch-all", "also suggest catch-all lists and the SECURITY CONTACT" },
	{ "--json", "JSON objects instead of lines" },
	{ NULL, NULL },
};
static const struct cmd_opt_help vendor_help[] = {
	{ "--contact EMAIL", "the address notifications go to" },
	{ "--key FPR", "the vendor's OpenPGP key (full fingerprint)" },
	{ "--kind K", "vendor, distro or hardware" },
	{ "--forward", "with notify: also forward the report to the vendor" },
	{ "--outbox MAILDIR", "deliver the forward into MAILDIR" },
	{ "--sendmail", "deliver the forward with forward.sendmail" },
	{ "--allow-plaintext", "send a plain copy to a vendor without a usable key" },
	{ "--correct", "put a wrong status right (recorded as a correction)" },
	{ "--note TEXT", "an internal note with the status" },
	{ "--statement TEXT", "the vendor's statement, for the advisory" },
	{ "--nda-requested", "record that the vendor asked for an NDA (the team cannot enter one)" },
	{ "--json", "with list: a JSON array" },
	{ NULL, NULL },
};
static const struct cmd_opt_help date_help[] = {
	{ "--by WHO", "who proposes: reporter, officer, vendor:NAME or maintainer:EMAIL" },
	{ "--reason TEXT", "why (needed past the policy's default)" },
	{ "--override", "a date past the policy's maximum (with --reason), or in the past" },
	{ "--json", "with show: a JSON object" },
	{ NULL, NULL },
};
static const struct cmd_opt_help due_help[] = {
	{ "--within D", "the window ahead, e.g. 2d or 12h (default 2d)" },
	{ "--json", "a JSON array of the items instead of lines" },
	{ "--mail", "send the reminders (each recipient at most once per report per 2 working days)" },
	{ "--dry-run", "with --mail: print who would get what, send and record nothing" },
	{ "--outbox MAILDIR", "with --mail: deliver into MAILDIR (else forward.outbox)" },
	{ "--sendmail", "with --mail: deliver with forward.sendmail" },
	{ NULL, NULL },
};
static const struct cmd_opt_help export_help[] = {
	{ "--all", "every report" },
	{ "--state S", "the reports in state S" },
	{ "--format FORMAT", "an export format (export --help lists them; so does the export entry of the man page)" },
	{ "--cve-id CVE-YYYY-N", "the CVE ID of a cve record" },
	{ "--with-notes", "include the internal notes (still redacted)" },
	{ "-o, --output FILE", "write FILE (replaced whole) instead of standard output" },
	{ "--mode MODE", "with -o: the file's mode, octal (default 0600)" },
	{ NULL, NULL },
};
static const struct cmd_opt_help fix_help[] = {
	{ "--commit SHA", "the commit that fixes the report (7 to 40 hex digits)" },
	{ "--introduced SHA", "a commit that brought the bug in (repeatable)" },
	{ "--tree GITDIR", "a kernel git tree to check the commits in (else kernel.git)" },
	{ "--stable BRANCH", "a stable branch to search for backports (repeatable)" },
	{ NULL, NULL },
};
static const struct cmd_opt_help cve_help[] = {
	{ "--assign CVE-YYYY-NNNN", "the ID the CNA reserved for this report" },
	{ "--reject", "the ID is rejected (with --reason)" },
	{ "--reason TEXT", "why it is rejected" },
	{ "--description", "write the record's description in $VISUAL or $EDITOR" },
	{ "--cwe CWE-N", "the record's weakness" },
	{ NULL, NULL },
};
static const struct cmd_opt_help reply_help[] = {
	{ "--template NAME", "the template (default ack); --list-templates lists them" },
	{ "--to ADDR", "another recipient from the report's thread or its participants" },
	{ "--allow-plaintext", "send in the clear when the reporter has no usable key (recorded; no quote)" },
	{ "--yes", "send as filled, without $EDITOR or the question" },
	{ "--outbox MAILDIR", "deliver into MAILDIR (else forward.outbox)" },
	{ "--sendmail", "deliver with forward.sendmail (default sendmail -t -oi)" },
	{ "--list-templates", "the templates and where each comes from" },
	{ NULL, NULL },
};
static const struct cmd_opt_help notice_help[] = {
	{ "--yes", "send as composed, without $EDITOR or the question" },
	{ "--outbox MAILDIR", "deliver into MAILDIR (else forward.outbox)" },
	{ "--sendmail", "deliver with forward.sendmail (default sendmail -t -oi)" },
	{ NULL, NULL },
};
static const struct cmd_opt_help forward_help[] = {
	{ "--to ADDR", "a recipient (repeatable)" },
	{ "--participants", "every participant brought in" },
	{ "--outbox MAILDIR", "deliver into MAILDIR (else forward.outbox)" },
	{ "--sendmail", "deliver with forward.sendmail (default sendmail -t -oi)" },
	{ "--allow-plaintext", "a plain copy for a recipient without a usable key" },
	{ "--force-recipient", "a recipient who is not a participant" },
	{ "--release-attachment NAME", "send the attachment NAME too (repeatable)" },
	{ NULL, NULL },
};
static const struct cmd_opt_help roster_help[] = {
	{ "--json", "the keys as a JSON array" },
	{ NULL, NULL },
};
static const struct cmd_opt_help team_help[] = {
	{ "--officer ROLE", "with init: the first officer's role (default: the login role)" },
	{ "--name NAME", "the officer's display name" },
	{ "--key FPR", "the officer's OpenPGP key (full fingerprint)" },
	{ "--json", "with list: a JSON array" },
	{ NULL, NULL },
};

static const char *const import_ex[] = { "import --maildir ~/Mail/security", NULL };
static const char *const list_ex[] = { "list --open --sort deadline", NULL };
static const char *const show_ex[] = { "show 3", NULL };
static const char *const triage_ex[] = {
	"triage 3 --state triaged --severity high --claim", NULL };
static const char *const maintainers_ex[] = {
	"maintainers --file drivers/net/tun.c", NULL };
static const char *const vendor_ex[] = {
	"vendor add acme --contact security@acme.example --kind distro",
	"vendor list",
	"vendor edit acme --key 0123456789ABCDEF0123456789ABCDEF01234567",
	"vendor notify 3 acme --forward --outbox ~/outbox",
	"vendor status 3 acme acknowledged",
	NULL };
static const char *const date_ex[] = {
	"date propose 3 +10d --by reporter --reason 'needs a backport'",
	"date set 3 2026-12-09 --reason 'the fix is merged'",
	"date start-release 3",
	"date show 3",
	NULL };
static const char *const due_ex[] = { "due --within 3d", "due --mail --dry-run", NULL };
static const char *const export_ex[] = {
	"export 3 --format md -o report-3.md", NULL };
static const char *const fix_ex[] = {
	"fix 3 --commit 1a2b3c4d5e6f --introduced 0f1e2d3c4b5a --tree ~/linux", NULL };
static const char *const cve_ex[] = { "cve 3 --assign CVE-2026-12345", NULL };
static const char *const reply_ex[] = { "reply 3 --template need-info", NULL };
static const char *const distros_ex[] = { "distros 3 --outbox ~/outbox", NULL };
static const char *const announce_ex[] = { "announce 3", NULL };
static const char *const forward_ex[] = {
	"forward 3 --participants --outbox ~/outbox", NULL };
static const char *const roster_ex[] = { "roster", "roster reseal", NULL };
static const char *const team_ex[] = {
	"team init --name 'Ada Officer' --key 0123456789ABCDEF0123456789ABCDEF01234567",
	"team add-officer bob --key 89ABCDEF0123456789ABCDEF0123456789ABCDEF",
	"team remove-officer bob",
	"team list",
	NULL };

#define REPORT CMD_TARGET_REPORT
#define NONE CMD_TARGET_NONE
#define FAILED "an action or input failed (refused, not found, cannot open)"
const struct cmd_entry cmd_table[] = {
	{ "import", "[--mbox|--maildir] [--jobs N] PATH... | -",
	  "import report mails (.eml, mbox, Maildir, or standard input)",
	  cmd_import_exec, cmd_import_opts, NONE, NULL,
	  NULL, import_help, "some message could not be imported", import_ex },
	{ "list", "[--state S] [--open] [--sort deadline|received|state|severity] [--json]",
	  "list reports", cmd_list_exec, cmd_list_opts, NONE, NULL,
	  NULL, list_help, "the database cannot be read", list_ex },
	{ "show", "ID [--json]",
	  "show a report: headers, verdict, decrypted body, files, events",
	  cmd_show_exec, cmd_show_opts, REPORT, NULL,
	  NULL, show_help, "no such report, or it cannot be read", show_ex },
	{ "triage", "ID [--state S] [--severity S] [--claim|--unclaim] [--public] [--consent credit|exploit] [--note TEXT]",
	  "change a report's state, severity, owner or flags", cmd_triage_exec,
	  cmd_triage_opts, REPORT, NULL,
	  NULL, triage_help, "a refused move, or no such report", triage_ex },
	{ "maintainers", "[--tree DIR] (--file PATH... [--each] | --patch FILE | ID [--add ADDR... [--key FPR]|--add-all] [--remove ADDR] [--ack ADDR] [--with-catch-all]) [--json]",
	  "find the maintainers for files, a patch or a report; bring them in",
	  cmd_maintainers_exec, cmd_maintainers_opts, REPORT, NULL,
	  NULL, maintainers_help, "no MAINTAINERS file, or a refused change", maintainers_ex },
	{ "vendor", "add NAME --contact EMAIL [--key FPR] [--kind vendor|distro|hardware] | list [--json] | edit NAME [--contact EMAIL] [--key FPR] [--kind K] | notify ID NAME [--forward [--outbox MAILDIR|--sendmail] [--allow-plaintext]] | status ID NAME [STATUS] [--correct] [--note TEXT] [--statement TEXT] [--nda-requested]",
	  "the vendor directory and each vendor's status on a report", cmd_vendor_exec,
	  cmd_vendor_opts, REPORT, "notify status",
	  "add list edit notify status", vendor_help,
	  "a refused status change, an unknown vendor, or the forward failed", vendor_ex },
	{ "date", "propose ID DATE --by reporter|officer|vendor:NAME|maintainer:EMAIL --reason TEXT [--override] | set ID DATE [--reason TEXT] [--override] | start-release ID | show ID [--json]",
	  "propose, set and show disclosure dates under the embargo policy", cmd_date_exec,
	  cmd_date_opts, REPORT, "propose set start-release show",
	  "propose set start-release show", date_help,
	  "the policy refused the date, or no such report", date_ex },
	{ "due", "[--within 2d] [--json] | --mail [--dry-run] [--outbox MAILDIR | --sendmail]",
	  "reports due or overdue, silent vendors, unacknowledged participants",
	  cmd_due_exec, cmd_due_opts, NONE, NULL,
	  NULL, due_help, FAILED, due_ex },
	{ "export", "(ID... | --all | --state S) --format FORMAT [--cve-id CVE-YYYY-N] [--with-notes] [-o FILE [--mode 0644]]",
	  "export timelines, dates and CVE records (redacted unless consent)",
	  cmd_export_exec, cmd_export_opts, REPORT, NULL,
	  NULL, export_help, "no such report, under embargo (cve, osv, csaf), or FILE cannot be written", export_ex },
	{ "fix", "ID --commit SHA [--introduced SHA]... [--tree GITDIR] [--stable BRANCH]...",
	  "record the fixing and introducing commits; with a tree, their first tags and stable backports",
	  cmd_fix_exec, cmd_fix_opts, REPORT, NULL,
	  NULL, fix_help, "a commit or branch not in the tree, no such report, or git failed", fix_ex },
	{ "cve", "ID (--assign CVE-YYYY-NNNN | --reject --reason TEXT | --description | --cwe CWE-N)",
	  "the report's CVE ID: reserved, rejected; the record's description and CWE",
	  cmd_cve_exec, cmd_cve_opts, REPORT, NULL,
	  NULL, cve_help, "a change the CVE's state refuses, no such report, or the editor failed", cve_ex },
	{ "forward", "ID (--to ADDR... | --participants) [--outbox MAILDIR | --sendmail] [--allow-plaintext] [--force-recipient] [--release-attachment NAME...]",
	  "forward a report to its participants as signed, encrypted PGP/MIME mail",
	  cmd_forward_exec, cmd_forward_opts, REPORT, NULL,
	  NULL, forward_help, "a recipient without a usable key, or delivery failed", forward_ex },
	{ "reply", "ID [--template NAME] [--to ADDR] [--allow-plaintext] [--yes] [--outbox MAILDIR | --sendmail] | --list-templates",
	  "reply to the reporter from a template, signed and encrypted, in the thread",
	  cmd_reply_exec, cmd_reply_opts, REPORT, NULL,
	  NULL, reply_help, "refused (no usable key, an encrypted report in the clear, an unknown field), or delivery failed",
	  reply_ex },
	{ "distros", "ID [--yes] [--outbox MAILDIR | --sendmail]",
	  "the notice to the linux-distros list, encrypted to its key, under its rules",
	  cmd_distros_exec, cmd_distros_opts, REPORT, NULL,
	  NULL, notice_help, "a rule of the list refused the notice (named), or delivery failed", distros_ex },
	{ "announce", "ID [--yes] [--outbox MAILDIR | --sendmail]",
	  "the public post for oss-security once the embargo is over (never encrypted)",
	  cmd_announce_exec, cmd_distros_opts, REPORT, NULL,
	  NULL, notice_help, "the report is still under embargo, or delivery failed", announce_ex },
	{ "roster", "[--json] | reseal",
	  "the keys report bodies are encrypted to; reseal every body to them",
	  cmd_roster_exec, NULL, NONE, NULL,
	  "reseal", roster_help, "no key to seal to, or a body cannot be resealed", roster_ex },
	{ "team", "init [--officer ROLE] [--name NAME] --key FPR | add-officer ROLE --key FPR [--name NAME] | remove-officer ROLE | list [--json]",
	  "the officers of a team server (PostgreSQL)", cmd_team_exec,
	  cmd_team_opts, NONE, NULL,
	  "init add-officer remove-officer list", team_help,
	  "not a team server, or the change was refused", team_ex },
};
#undef FAILED
#undef REPORT
#undef NONE
const size_t cmd_table_len = ARRAY_SIZE(cmd_table);

const struct cmd_entry *cmd_find(const char *name)
{
	for (size_t i = 0; i < cmd_table_len; i++)
		if (!strcmp(cmd_table[i].name, name))
			return &cmd_table[i];
	return NULL;
}

int cmd_usage(struct cmd_ctx *ctx, const char *name)
{
	const struct cmd_entry *e = cmd_find(name);
	char *u;

	if (!e || ctx->usage_said)
		return CMD_USAGE;
	u = cmd_usage_of(e, ctx->sub);
	fprintf(ctx->errout, "usage: secteam-tui %s %s\nsee 'secteam-tui %s --help'\n",
		e->name, u, e->name);
	free(u);
	ctx->usage_said = true;
	return CMD_USAGE;
}

int cmd_run(struct cmd_ctx *ctx, int argc, char **argv)
{
	const struct cmd_entry *e;

	err_clear(&ctx->err);
	if (argc < 1)
		return CMD_USAGE;
	if (!(e = cmd_find(argv[0]))) {
		err_setc(&ctx->err, ERR_INVALID,
			 "unknown command '%s' (see secteam-tui --help)", argv[0]);
		return CMD_USAGE;
	}
	ctx->sub = cmd_sub_of(e, argc, argv);
	ctx->usage_said = false;
	if (cmd_wants_help(e, argc, argv)) {
		cmd_help(ctx->out, e->name, ctx->sub);
		return CMD_OK;
	}
	optind = 0;
	opterr = 0;
	return e->exec(ctx, argc, argv);
}

/* The first positional argument of argv[from..] under opts, as getopt
 * would find it (options' arguments skipped; "--" ends them), or -1. */
static int first_positional(const struct option *opts, int argc, char **argv,
			    int from)
{
	for (int i = from; i < argc; i++) {
		const char *w = argv[i];

		if (!strcmp(w, "--"))
			return i + 1 < argc ? i + 1 : -1;
		if (w[0] != '-' || !w[1])
			return i;
		if (w[1] != '-') {
			/* Short options: only export's -o takes an argument. */
			if (w[1] == 'o' && !w[2])
				i++;
			continue;
		}
		const char *name = w + 2, *eq = strchr(name, '=');
		size_t n = eq ? (size_t)(eq - name) : strlen(name);
		for (const struct option *o = opts; o && o->name; o++)
			if (strlen(o->name) == n && !strncmp(o->name, name, n)) {
				if (o->has_arg == required_argument && !eq)
					i++;
				break;
			}
	}
	return -1;
}

static bool word_in(const char *list, const char *w);

const char *cmd_sub_of(const struct cmd_entry *e, int argc, char **argv)
{
	return e->subs && argc >= 2 && word_in(e->subs, argv[1]) ? argv[1] : NULL;
}

static bool word_in(const char *list, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = list; *p;) {
		size_t k = strcspn(p, " ");
		if (k == n && !strncmp(p, w, n))
			return true;
		p += k;
		p += strspn(p, " ");
	}
	return false;
}

char **cmd_target_argv(const struct cmd_entry *e, int argc, char **argv,
		       int64_t report, int *argc_out)
{
	int at = 1, pos, n = 0;
	char **out;
	struct err ignore;
	int64_t id;

	if (!e || e->target != CMD_TARGET_REPORT || report <= 0)
		return NULL;
	if (e->target_subs) {
		if (argc < 2 || !word_in(e->target_subs, argv[1]))
			return NULL;
		at = 2;
	}
	pos = first_positional(e->opts, argc, argv, at);
	if (pos >= 0 && parse_report_id(argv[pos], &id, &ignore) == 0)
		return NULL;   /* the line names its report */
	out = xcalloc((size_t)argc + 2, sizeof(*out));
	for (int i = 0; i < argc; i++) {
		out[n++] = xstrdup(argv[i]);
		if (i == at - 1)
			out[n++] = xasprintf("%lld", (long long)report);
	}
	*argc_out = n;
	return out;
}

int cmd_run_target(struct cmd_ctx *ctx, int argc, char **argv,
		   int64_t report)
{
	const struct cmd_entry *e = argc > 0 ? cmd_find(argv[0]) : NULL;
	int n, r;
	char **v = cmd_target_argv(e, argc, argv, report, &n);

	if (!v)
		return cmd_run(ctx, argc, argv);
	r = cmd_run(ctx, n, v);
	cmd_split_free(v, n);
	return r;
}

void cmd_say(struct cmd_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	free(ctx->summary);
	va_start(ap, fmt);
	ctx->summary = xvasprintf(fmt, ap);
	va_end(ap);
	fprintf(ctx->out, "%s\n", ctx->summary);
}

void cmd_result_release(struct cmd_result *r)
{
	free(r->summary);
	if (r->output)
		wipe_free(r->output, r->output_len);
	free(r->warnings);
	memset(r, 0, sizeof(*r));
}

/* errout of a captured command: kept, and each line handed on. */
struct capture_err {
	struct sbuf all, cur;
	void (*line)(const char *text, void *data);
	void *data;
};

static ssize_t capture_write(void *cookie, const char *buf, size_t n)
{
	struct capture_err *c = cookie;

	sbuf_add(&c->all, buf, n);
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '\n' || buf[i] == '\r') {
			if (c->cur.len && c->line) {
				char *s = safe_str(c->cur.buf);
				c->line(s, c->data);
				free(s);
			}
			sbuf_reset(&c->cur);
		} else {
			sbuf_addch(&c->cur, buf[i]);
		}
	}
	return (ssize_t)n;
}

/* The last non-empty line of buf, display-safe (caller frees). */
static char *last_line(const char *buf, size_t len)
{
	size_t end = len, start;
	char *raw, *s;

	while (end && (buf[end - 1] == '\n' || buf[end - 1] == '\r'))
		end--;
	start = end;
	while (start && buf[start - 1] != '\n')
		start--;
	raw = xstrndup(buf + start, end - start);
	s = safe_str(raw);
	free(raw);
	return s;
}

/* The first line of s, display-safe (caller frees). */
static char *first_line(const char *s)
{
	char *raw = xstrndup(s, strcspn(s, "\r\n")), *safe = safe_str(raw);

	free(raw);
	return safe;
}

int cmd_capture(struct cmd_ctx *ctx, int argc, char **argv, int64_t report,
		void (*line)(const char *text, void *data), void *data,
		struct cmd_result *res)
{
	FILE *save_out = ctx->out, *save_err = ctx->errout, *out, *err;
	struct capture_err ce = { SBUF_INIT, SBUF_INIT, line, data };
	cookie_io_functions_t io = { NULL, capture_write, NULL, NULL };
	char *obuf = NULL;
	size_t olen = 0;

	memset(res, 0, sizeof(*res));
	free(ctx->summary);
	ctx->summary = NULL;
	out = open_memstream(&obuf, &olen);
	err = out ? fopencookie(&ce, "w", io) : NULL;
	if (!out || !err) {
		if (out)
			fclose(out);
		res->status = CMD_FAILED;
		res->summary = xasprintf("cannot capture the command's output: %s",
					 strerror(errno));
		return res->status;
	}
	setvbuf(err, NULL, _IONBF, 0);
	ctx->out = out;
	ctx->errout = err;
	res->status = cmd_run_target(ctx, argc, argv, report);
	fclose(out);
	fclose(err);
	ctx->out = save_out;
	ctx->errout = save_err;
	if (ce.cur.len)
		capture_write(&ce, "\n", 1);
	sbuf_release(&ce.cur);
	res->output = obuf;
	res->output_len = olen;
	for (size_t i = 0; i < olen; i++)
		res->output_lines += obuf[i] == '\n';
	if (olen && obuf[olen - 1] != '\n')
		res->output_lines++;
	res->warnings = ce.all.len ? sbuf_detach(&ce.all, NULL) : NULL;
	sbuf_release(&ce.all);
	if (res->status != CMD_OK && ctx->err.msg[0])
		res->summary = safe_str(ctx->err.msg);
	else if (ctx->summary) {
		res->summary = safe_str(ctx->summary);
		res->said = true;
	}
	else if (olen)
		res->summary = last_line(obuf, olen);
	else if (res->warnings && res->status == CMD_USAGE)
		/* The usage line, not the hint to --help after it. */
		res->summary = first_line(res->warnings);
	else if (res->warnings)
		res->summary = last_line(res->warnings, strlen(res->warnings));
	else
		res->summary = xstrdup(res->status == CMD_OK ? "done" : "command failed");
	return res->status;
}

int cmd_split(const char *line, char ***argv_out, int *argc_out,
	      struct err *err)
{
	struct sbuf word = SBUF_INIT;
	char **argv = NULL;
	int argc = 0;
	bool in_word = false;
	const char *p = line;

	for (;;) {
		char c = *p;
		if (!c || c == ' ' || c == '\t' || c == '\n') {
			if (in_word) {
				argv = xrealloc(argv, (size_t)(argc + 2) * sizeof(*argv));
				argv[argc++] = sbuf_detach(&word, NULL);
				argv[argc] = NULL;
				in_word = false;
			}
			if (!c)
				break;
			p++;
			continue;
		}
		in_word = true;
		if (c == '\'') {
			const char *q = strchr(p + 1, '\'');
			if (!q)
				goto unterminated;
			sbuf_add(&word, p + 1, (size_t)(q - p - 1));
			p = q + 1;
		} else if (c == '"') {
			for (p++; *p && *p != '"'; p++) {
				if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
					p++;
				sbuf_addch(&word, *p);
			}
			if (!*p)
				goto unterminated;
			p++;
		} else if (c == '\\' && p[1]) {
			sbuf_addch(&word, p[1]);
			p += 2;
		} else {
			sbuf_addch(&word, c);
			p++;
		}
	}
	if (!argv)
		argv = xcalloc(1, sizeof(*argv));
	*argv_out = argv;
	*argc_out = argc;
	return 0;
unterminated:
	sbuf_release(&word);
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
	return err_setc(err, ERR_INVALID, "unterminated quote in '%s'", line);
}

int cmd_run_string(struct cmd_ctx *ctx, const char *line)
{
	char **argv = NULL;
	int argc = 0, r;

	if (cmd_split(line, &argv, &argc, &ctx->err) < 0)
		return CMD_USAGE;
	r = argc ? cmd_run(ctx, argc, argv) : CMD_OK;
	cmd_split_free(argv, argc);
	return r;
}

char *cmd_join(int argc, char *const *argv)
{
	struct sbuf sb = SBUF_INIT;

	for (int i = 0; i < argc; i++) {
		const char *w = argv[i];
		bool plain = *w != '\0';

		for (const char *c = w; *c && plain; c++)
			plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				       "0123456789@._+-=/:,#", *c) != NULL;
		if (i)
			sbuf_addch(&sb, ' ');
		if (plain) {
			sbuf_adds(&sb, w);
			continue;
		}
		/* '...' keeps everything but a quote, which becomes '\''. */
		sbuf_addch(&sb, '\'');
		for (const char *c = w; *c; c++) {
			if (*c == '\'')
				sbuf_adds(&sb, "'\\''");
			else
				sbuf_addch(&sb, *c);
		}
		sbuf_addch(&sb, '\'');
	}
	if (!sb.buf)
		sbuf_grow(&sb, 1);
	return sbuf_detach(&sb, NULL);
}

void cmd_split_free(char **argv, int argc)
{
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
}

int cmd_ctx_init(struct cmd_ctx *ctx, struct err *err)
{
	char *path = ctx->config_path ? NULL : config_default_path();
	const char *who;
	int r;

	ctx->cfg = xcalloc(1, sizeof(*ctx->cfg));
	r = config_load(ctx->cfg, ctx->config_path ? ctx->config_path : path,
			ctx->config_path != NULL, err);
	free(path);
	if (r < 0)
		return r;
	if (!ctx->out)
		ctx->out = stdout;
	if (!ctx->errout)
		ctx->errout = stderr;
	/* Only a display name (mail From, the UI): who an action is
	 * recorded as is the store's to say (cmd_ctx_store). */
	who = config_get(ctx->cfg, "officer.name", NULL);
	if (!who) {
		struct passwd *pw = getpwuid(geteuid());
		who = pw ? pw->pw_name : "officer";
	}
	ctx->officer_name = xstrdup(who);
	return 0;
}

void cmd_ctx_release(struct cmd_ctx *ctx)
{
	store_close(ctx->store);
	crypto_close(ctx->crypto);
	if (ctx->cfg) {
		config_release(ctx->cfg);
		free(ctx->cfg);
	}
	for (size_t i = 0; i < ctx->nroster; i++) {
		free(ctx->roster[i]);
		if (ctx->roster_subkeys) {
			for (size_t j = 0; j < ctx->roster_nsubkeys[i]; j++)
				free(ctx->roster_subkeys[i][j]);
			free(ctx->roster_subkeys[i]);
		}
	}
	free(ctx->roster_subkeys);
	free(ctx->roster_nsubkeys);
	ctx->roster_subkeys = NULL;
	ctx->roster_nsubkeys = NULL;
	free(ctx->roster);
	free(ctx->officer);
	free(ctx->officer_name);
	ctx->officer_name = NULL;
	free(ctx->summary);
	ctx->summary = NULL;
	ctx->store = NULL;
	ctx->crypto = NULL;
	ctx->cfg = NULL;
	ctx->officer = NULL;
	ctx->roster = NULL;
}

struct store *cmd_ctx_store(struct cmd_ctx *ctx)
{
	struct store_opts o = { 0 };
	char *def = NULL;
	const char *path = ctx->db_path;

	if (ctx->store)
		return ctx->store;
	if (!path)
		path = config_get(ctx->cfg, "store.url", NULL);
	if (!path)
		path = config_get(ctx->cfg, "store.path", NULL);
	if (!path)
		path = def = store_default_path();
	o.shared_group = config_get(ctx->cfg, "store.shared_group", NULL);
	/* 1 to 3600 when set: config_parse checks the range. */
	o.busy_timeout_ms = (int)config_get_long(ctx->cfg, "store.busy_timeout", 0) * 1000;
	o.create = ctx->store_create;
	if (store_open(path, &o, &ctx->store, &ctx->err) == 0) {
		/* The login role on a team server, the Unix user on SQLite:
		 * never a name from the environment or the config. */
		free(ctx->officer);
		ctx->officer = store_whoami(ctx->store);
		if (!ctx->officer) {
			err_setc(&ctx->err, ERR_IO, "cannot tell who is logged in to %s",
				 store_where(ctx->store));
			store_close(ctx->store);
			ctx->store = NULL;
		}
	}
	free(def);
	return ctx->store;
}

struct crypto *cmd_ctx_crypto(struct cmd_ctx *ctx)
{
	const char *home = ctx->gnupghome;

	if (ctx->crypto)
		return ctx->crypto;
	if (!home)
		home = config_get(ctx->cfg, "gnupg.home", NULL);
	crypto_open(home, &ctx->crypto, &ctx->err);
	return ctx->crypto;
}

const char *const *cmd_ctx_roster(struct cmd_ctx *ctx, size_t *n)
{
	const char *v;

	if (!ctx->roster) {
		struct store *s = cmd_ctx_store(ctx);

		if (!s)
			return NULL;
		if (store_has_team(s)) {
			/* A team server: the active officers' keys. */
			struct officer *o;
			size_t no;

			if (store_officers_list(s, false, &o, &no, &ctx->err) < 0)
				return NULL;
			for (size_t i = 0; i < no; i++) {
				bool dup = false;

				for (size_t j = 0; j < ctx->nroster && o[i].key_fpr; j++)
					dup |= !str_cmp_ci(ctx->roster[j], o[i].key_fpr);
				if (o[i].key_fpr && *o[i].key_fpr && !dup) {
					ctx->roster = xrealloc(ctx->roster,
							       (ctx->nroster + 1) * sizeof(char *));
					ctx->roster[ctx->nroster++] = xstrdup(o[i].key_fpr);
				}
				officer_release(&o[i]);
			}
			free(o);
			if (!ctx->nroster) {
				err_setc(&ctx->err, ERR_NOTFOUND,
					 "%s has no officer with a key: the team's administrator runs 'secteam-tui team add-officer ROLE --key FPR'",
					 store_where(s));
				return NULL;
			}
			*n = ctx->nroster;
			return (const char *const *)ctx->roster;
		}
		v = config_get(ctx->cfg, "team.roster", NULL);
		if (v) {
			char *copy = xstrdup(v), *save = NULL;
			for (char *t = strtok_r(copy, " ,\t", &save); t;
			     t = strtok_r(NULL, " ,\t", &save)) {
				ctx->roster = xrealloc(ctx->roster,
						       (ctx->nroster + 1) * sizeof(char *));
				ctx->roster[ctx->nroster++] = xstrdup(t);
			}
			free(copy);
		}
		if (!ctx->nroster) {
			struct crypto *c = cmd_ctx_crypto(ctx);
			char *fpr;
			if (!c)
				return NULL;
			if (crypto_default_secret_key(c, &fpr, &ctx->err) < 0) {
				err_prefix(&ctx->err,
					   "no team.roster in the config and no secret key to seal reports to");
				return NULL;
			}
			ctx->roster = xcalloc(1, sizeof(char *));
			ctx->roster[ctx->nroster++] = fpr;
		}
	}
	*n = ctx->nroster;
	return (const char *const *)ctx->roster;
}
