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

#include "cmd/cmd.h"
#include "core/core.h"
#include "crypto/crypto.h"
#include "store/store.h"

/* tmux's cmd_table[]: each command's row is in its cmd/NAME.c, so
 * a new command is that file plus its name here, declared and listed. */
extern const struct cmd_entry cmd_import_entry, cmd_list_entry, cmd_show_entry,
	cmd_triage_entry, cmd_maintainers_entry, cmd_vendor_entry,
	cmd_date_entry, cmd_due_entry, cmd_export_entry, cmd_fix_entry,
	cmd_cve_entry, cmd_forward_entry, cmd_reply_entry, cmd_distros_entry,
	cmd_announce_entry, cmd_roster_entry, cmd_team_entry,
	cmd_attachment_entry, cmd_stats_entry, cmd_search_entry, cmd_note_entry,
	cmd_verify_entry;

const struct cmd_entry *const cmd_table[] = {
	&cmd_import_entry,     &cmd_list_entry,	  &cmd_show_entry,
	&cmd_triage_entry,     &cmd_note_entry,	  &cmd_maintainers_entry,
	&cmd_vendor_entry,     &cmd_date_entry,	  &cmd_due_entry,
	&cmd_export_entry,     &cmd_fix_entry,	  &cmd_cve_entry,
	&cmd_forward_entry,    &cmd_reply_entry,  &cmd_distros_entry,
	&cmd_announce_entry,   &cmd_roster_entry, &cmd_team_entry,
	&cmd_attachment_entry, &cmd_stats_entry,  &cmd_search_entry,
	&cmd_verify_entry,
};
const size_t cmd_table_len = ARRAY_SIZE(cmd_table);

const struct cmd_entry *cmd_find(const char *name)
{
	for (size_t i = 0; i < cmd_table_len; i++)
		if (!strcmp(cmd_table[i]->name, name))
			return cmd_table[i];
	return NULL;
}

static bool word_in(const char *list, const char *w);

bool cmd_opt_in(const struct cmd_opt *o, const char *sub, bool all)
{
	if (!o->subs || all)
		return true;
	return word_in(o->subs, sub ? sub : "-");
}

char *cmd_opt_spelling(const struct cmd_opt *o)
{
	const char *sp = o->arg ? " " : "", *arg = o->arg ? o->arg : "";

	if (o->letter)
		return xasprintf("-%c, --%s%s%s", o->letter, o->name, sp, arg);
	return xasprintf("--%s%s%s", o->name, sp, arg);
}

/*
 * Whether the options of every form are read for sub: a command with
 * sub-commands run with none it knows and no form of its own (`vendor
 * frob`) has its exec name the mistake, not the parser.
 */
static bool every_form(const struct cmd_entry *e, const char *sub)
{
	const char *u = e->usage + strspn(e->usage, " ");

	return e->subs && !sub && *u && *u != '|';
}

/* getopt's val for e->opts[i] read by its long name: past any letter. */
#define OPT_VAL(i) (256 + (i))
#define OPT_HELP 'h'

/*
 * The options of e's form sub as getopt_long reads them (caller frees
 * both): each long name with OPT_VAL(index) as its val, "help" (-h)
 * beside them, and the letters after prefix.  A name with rows for
 * several forms is there once, its row for sub.
 */
static void getopt_tables(const struct cmd_entry *e, const char *sub,
			  const char *prefix, struct option **longopts,
			  char **letters)
{
	struct sbuf sb = SBUF_INIT;
	size_t n = 0, k = 0;

	for (const struct cmd_opt *o = e->opts; o && o->name; o++)
		n++;
	*longopts = xcalloc(n + 2, sizeof(**longopts));
	sbuf_adds(&sb, prefix);
	for (size_t i = 0; i < n; i++) {
		const struct cmd_opt *o = &e->opts[i];

		if (!cmd_opt_in(o, sub, every_form(e, sub)))
			continue;
		(*longopts)[k++] = (struct option){ o->name,
						    o->arg ? required_argument
							   : no_argument,
						    NULL, OPT_VAL((int)i) };
		if (o->letter)
			sbuf_addf(&sb, "%c%s", o->letter, o->arg ? ":" : "");
	}
	(*longopts)[k] = (struct option){ "help", no_argument, NULL, OPT_HELP };
	sbuf_adds(&sb, "h");
	*letters = sbuf_detach(&sb, NULL);
}

/* The index in e->opts of the row of form sub named name (or, when
 * letter, with that letter), or -1. */
static int opt_index(const struct cmd_entry *e, const char *sub,
		     const char *name, size_t len, char letter)
{
	for (int i = 0; e->opts && e->opts[i].name; i++) {
		const struct cmd_opt *o = &e->opts[i];

		if (!cmd_opt_in(o, sub, every_form(e, sub)))
			continue;
		if (letter ? o->letter == letter
			   : strlen(o->name) == len &&
				    !strncmp(o->name, name, len))
			return i;
	}
	return -1;
}

/* The command being run as its messages name it: "vendor status". */
static char *cmd_title(struct cmd_ctx *ctx)
{
	return ctx->sub ? xasprintf("%s %s", ctx->entry->name, ctx->sub)
			: xstrdup(ctx->entry->name);
}

/* Keeps the parser's first mistake for cmd_usage; returns '?'. */
static int opt_mistake(struct cmd_ctx *ctx, const char *fmt, ...)
	UTIL_PRINTF(2, 3);
static int opt_mistake(struct cmd_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (!ctx->opt_error) {
		va_start(ap, fmt);
		ctx->opt_error = xvasprintf(fmt, ap);
		va_end(ap);
	}
	return '?';
}

/* What is wrong with word (argv[optind - 1]) when getopt refused it. */
static int opt_refused(struct cmd_ctx *ctx, int c, const char *word)
{
	const struct cmd_entry *e = ctx->entry;
	struct sbuf names = SBUF_INIT;
	size_t n;
	int k = 0, r;

	if (strncmp(word, "--", 2)) {
		/* A letter: getopt says which, in optopt. */
		if (c == ':')
			return opt_mistake(ctx, "option '-%c' needs a value",
					   optopt);
		return opt_mistake(ctx, "unknown option '-%c'", optopt);
	}
	n = strcspn(word + 2, "=");
	if (c == ':')
		return opt_mistake(ctx, "option '%.*s' needs a value",
				   (int)n + 2, word);
	if (opt_index(e, ctx->sub, word + 2, n, 0) >= 0 ||
	    (n == 4 && !strncmp(word + 2, "help", 4)))
		return opt_mistake(ctx, "option '--%.*s' takes no value",
				   (int)n, word + 2);
	for (const struct cmd_opt *o = e->opts; o && o->name; o++)
		if (n && !strncmp(o->name, word + 2, n) &&
		    cmd_opt_in(o, ctx->sub, every_form(e, ctx->sub)) &&
		    opt_index(e, ctx->sub, o->name, strlen(o->name), 0) ==
			    (int)(o - e->opts)) {
			sbuf_addf(&names, "%s--%s", k ? ", " : "", o->name);
			k++;
		}
	if (k > 1) {
		r = opt_mistake(ctx, "ambiguous option '%.*s' (%s)", (int)n + 2,
				word, names.buf);
		sbuf_release(&names);
		return r;
	}
	sbuf_release(&names);
	k = 0;
	/* An option of another form: say which ("vendor add, vendor
	 * edit"; "-" is the command alone). */
	for (const struct cmd_opt *o = e->opts; o && o->name; o++)
		if (strlen(o->name) == n && !strncmp(o->name, word + 2, n) &&
		    o->subs)
			for (const char *w = o->subs; *w;) {
				size_t l = strcspn(w, " ");
				sbuf_addf(&names, "%s%s%s%.*s", k++ ? ", " : "",
					  e->name, *w == '-' ? "" : " ",
					  *w == '-' ? 0 : (int)l, w);
				w += l;
				w += strspn(w, " ");
			}
	if (k) {
		r = opt_mistake(ctx, "option '--%.*s' is for %s", (int)n,
				word + 2, names.buf);
		sbuf_release(&names);
		return r;
	}
	return opt_mistake(ctx, "unknown option '%.*s'", (int)n + 2, word);
}

/* The value optarg of option o, as its row allows. */
static int opt_value(struct cmd_ctx *ctx, const struct cmd_opt *o)
{
	struct err err;

	if ((o->flags & CMD_OPT_CLOSED) && o->words) {
		char *list;

		for (const char *const *w = o->words; *w; w++)
			if (!strcmp(*w, optarg))
				return 0;
		list = cmd_words(o->words);
		opt_mistake(ctx, "unknown value '%s' for --%s (%s)", optarg,
			    o->name, list);
		free(list);
		return -1;
	}
	err_clear(&err);
	if (o->check && o->check(optarg, &err) < 0) {
		opt_mistake(ctx, "--%s: %s", o->name, err.msg);
		return -1;
	}
	return 0;
}

int cmd_getopt(struct cmd_ctx *ctx, int argc, char **argv)
{
	const struct cmd_entry *e = ctx->entry;
	int c, i;

	if (!e)
		return -1;
	if (!ctx->getopt_opts)
		getopt_tables(e, ctx->sub, ":", &ctx->getopt_opts,
			      &ctx->getopt_letters);
	opterr = 0;
	c = getopt_long(argc, argv, ctx->getopt_letters, ctx->getopt_opts,
			NULL);
	if (c == -1) {
		/* The end: every option its form requires was given. */
		for (i = 0; e->opts && e->opts[i].name; i++)
			if ((e->opts[i].flags & CMD_OPT_REQUIRED) &&
			    !every_form(e, ctx->sub) &&
			    cmd_opt_in(&e->opts[i], ctx->sub, false) &&
			    !(ctx->opts_seen & (UINT64_C(1) << i)))
				return opt_mistake(ctx,
						   "option '--%s' is required",
						   e->opts[i].name);
		return -1;
	}
	if (c == '?' || c == ':')
		return opt_refused(
			ctx, c,
			optind > 0 && optind <= argc ? argv[optind - 1] : "");
	if (c == OPT_HELP)
		return '?'; /* answered before the command runs */
	i = c >= OPT_VAL(0) ? c - OPT_VAL(0)
			    : opt_index(e, ctx->sub, NULL, 0, (char)c);
	if (i < 0)
		return opt_mistake(ctx, "unknown option '-%c'", c);
	if (i < 64)
		ctx->opts_seen |= UINT64_C(1) << i;
	ctx->opt = &e->opts[i];
	if (e->opts[i].arg && opt_value(ctx, &e->opts[i]) < 0)
		return '?';
	return e->opts[i].key;
}

int cmd_check_id(const char *value, struct err *err)
{
	int64_t id;

	return parse_report_id(value, &id, err);
}

int cmd_check_count(const char *value, struct err *err)
{
	char *end;
	long long n;

	errno = 0;
	n = strtoll(value, &end, 10);
	if (errno || end == value || *end || n < 1) {
		err_setc(err, ERR_INVALID, "'%s' is not a number of 1 or more",
			 value);
		return -1;
	}
	return 0;
}

/* Whether e runs without a sub-command too: its usage's first word is
 * none of its sub-commands (`fix ID ...`, not `date propose ...`). */
static bool own_form(const struct cmd_entry *e)
{
	const char *u = e->usage + strspn(e->usage, " ");
	size_t n = strcspn(u, " |");
	char *w = xstrndup(u, n);
	bool own = !word_in(e->subs, w);

	free(w);
	return own;
}

/* A command that needs one of its sub-commands got none, or a word that
 * is none of them: the error says which there are.  (Each command's own
 * code then meets only the sub-commands of its row.) */
static int sub_mistake(struct cmd_ctx *ctx, const struct cmd_entry *e, int argc,
		       char **argv)
{
	struct sbuf sb = SBUF_INIT;
	char *list;

	for (const char *p = e->subs; *p;) {
		size_t k = strcspn(p, " ");

		sbuf_addf(&sb, "%s%.*s", sb.len ? ", " : "", (int)k, p);
		p += k;
		p += strspn(p, " ");
	}
	list = sbuf_detach(&sb, NULL);
	free(ctx->opt_error);
	if (argc < 2) {
		ctx->opt_error =
			xasprintf("which %s command? (%s)", e->name, list);
	} else {
		char *safe = safe_str(argv[1]);

		ctx->opt_error =
			xasprintf("unknown sub-command '%s' (%s)", safe, list);
		free(safe);
	}
	free(list);
	ctx->entry = e;
	ctx->usage_said = false;
	return cmd_usage(ctx, e->name);
}

int cmd_usage(struct cmd_ctx *ctx, const char *name)
{
	const struct cmd_entry *e = cmd_find(name);
	char *u;

	if (!e || ctx->usage_said)
		return CMD_USAGE;
	free(ctx->usage_text);
	ctx->usage_text = NULL;
	if (ctx->opt_error && ctx->entry == e) {
		/* The parser's mistake, naming the command and the option. */
		char *title = cmd_title(ctx), *safe = safe_str(ctx->opt_error);

		fprintf(ctx->errout, "secteam-tui %s: %s\n", title, safe);
		ctx->usage_text = xasprintf("%s: %s", title, safe);
		free(safe);
		free(title);
		free(ctx->opt_error);
		ctx->opt_error = NULL;
	}
	u = cmd_usage_of(e, ctx->sub);
	fprintf(ctx->errout,
		"usage: secteam-tui %s %s\nsee 'secteam-tui %s --help'\n",
		e->name, u, e->name);
	/* The UI's status line: the mistake (when there is one), else the
	 * usage; the whole text is in the pager. */
	if (!ctx->usage_text)
		ctx->usage_text =
			xasprintf("usage: secteam-tui %s %s", e->name, u);
	free(u);
	ctx->usage_said = true;
	return CMD_USAGE;
}

static void resolve_target(struct cmd_ctx *ctx, const struct cmd_entry *e,
			   int argc, char **argv, int64_t report);

const char *cmd_sub_of(const struct cmd_entry *e, int argc, char **argv)
{
	return e->subs && argc >= 2 && word_in(e->subs, argv[1]) ? argv[1]
								 : NULL;
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

/*
 * The index in argv of the first positional argument from argv[from] on,
 * as the command's own getopt finds it with e's options (their
 * arguments skipped, "--" ending them), or -1.  getopt itself reads the
 * table, in its return-in-order mode, so the runner and the command
 * can never disagree.
 */
static int target_position(const struct cmd_entry *e, int argc, char **argv,
			   int from)
{
	struct option *longopts;
	char *letters;
	int pos = -1, c, saved = optind;

	if (from >= argc)
		return -1;
	getopt_tables(e, cmd_sub_of(e, argc, argv), "-:", &longopts, &letters);
	/* argv + from - 1: getopt skips its argv[0]. */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc - from + 1, argv + from - 1, letters,
				longopts, NULL)) != -1)
		if (c == 1) {
			pos = optind - 1 + from - 1;
			break;
		}
	if (c == -1 && optind < argc - from + 1)
		pos = optind + from - 1; /* after "--" */
	optind = saved;
	free(longopts);
	free(letters);
	return pos;
}

bool cmd_wants_help(const struct cmd_entry *e, int argc, char **argv)
{
	struct option *longopts;
	char *letters;
	bool help = false;
	int c, saved = optind;

	/* getopt itself skips the options' values: `triage 3 --note
	 * --help` notes "--help". */
	getopt_tables(e, cmd_sub_of(e, argc, argv), "-:", &longopts, &letters);
	optind = 0;
	opterr = 0;
	while (!help &&
	       (c = getopt_long(argc, argv, letters, longopts, NULL)) != -1)
		help = c == OPT_HELP;
	/* The caller's own parse (main's) goes on where it was. */
	optind = saved;
	free(longopts);
	free(letters);
	return help;
}

void cmd_resolve_target(const struct cmd_entry *e, int argc, char **argv,
			int64_t report, int64_t *target, bool *named)
{
	struct cmd_ctx probe;

	memset(&probe, 0, sizeof(probe));
	resolve_target(&probe, e, argc, argv, report);
	*target = probe.target;
	*named = probe.target_named;
}

/* ctx->target for argv on the caller's report (see cmd_run_at). */
static void resolve_target(struct cmd_ctx *ctx, const struct cmd_entry *e,
			   int argc, char **argv, int64_t report)
{
	int at = 1, pos;
	struct err ignore;
	int64_t id;

	ctx->target = 0;
	ctx->target_named = false;
	if (!e || e->target != CMD_TARGET_REPORT)
		return;
	if (e->target_subs) {
		if (argc < 2 || !word_in(e->target_subs, argv[1]))
			return;
		at = 2;
	}
	pos = target_position(e, argc, argv, at);
	if (pos >= 0 && !strcmp(argv[pos], "%i")) {
		/* A key binding's "the current report". */
		ctx->target_named = true;
		ctx->target = report > 0 ? report : 0;
	} else if (pos >= 0 && parse_report_id(argv[pos], &id, &ignore) == 0) {
		ctx->target_named = true;
		ctx->target = id;
	} else {
		ctx->target = report > 0 ? report : 0;
	}
}

int cmd_run_at(struct cmd_ctx *ctx, int argc, char **argv, int64_t report)
{
	const struct cmd_entry *e;
	int r;

	err_clear(&ctx->err);
	if (argc < 1)
		return CMD_USAGE;
	if (!(e = cmd_find(argv[0]))) {
		err_setc(&ctx->err, ERR_INVALID,
			 "unknown command '%s' (see secteam-tui --help)",
			 argv[0]);
		return CMD_USAGE;
	}
	ctx->sub = cmd_sub_of(e, argc, argv);
	ctx->usage_said = false;
	if (cmd_wants_help(e, argc, argv)) {
		cmd_help(ctx->out, e->name, ctx->sub);
		return CMD_OK;
	}
	if (e->subs && !ctx->sub && !own_form(e))
		return sub_mistake(ctx, e, argc, argv);
	resolve_target(ctx, e, argc, argv, report);
	optind = 0;
	opterr = 0;
	ctx->argc = argc;
	ctx->argv = argv;
	ctx->entry = e;
	ctx->opts_seen = 0;
	free(ctx->opt_error);
	ctx->opt_error = NULL;
	/* As typed: getopt reorders argv. */
	ctx->line = cmd_join(argc, argv);
	r = e->exec(ctx, argc, argv);
	free(ctx->getopt_opts);
	ctx->getopt_opts = NULL;
	free(ctx->getopt_letters);
	ctx->getopt_letters = NULL;
	free(ctx->line);
	ctx->line = NULL;
	ctx->argc = 0;
	ctx->argv = NULL;
	ctx->target = 0;
	ctx->target_named = false;
	return r;
}

int cmd_run(struct cmd_ctx *ctx, int argc, char **argv)
{
	return cmd_run_at(ctx, argc, argv, 0);
}

void cmd_say_hidden(struct cmd_ctx *ctx, const struct report_full *rf)
{
	for (size_t i = 0; i < rf->nhidden; i++) {
		char *safe = safe_str(rf->hidden[i]);
		fprintf(ctx->errout, "%s\n", safe);
		free(safe);
	}
}

int cmd_report(struct cmd_ctx *ctx, const char *name, int argc, char **argv,
	       int64_t *id)
{
	if (ctx->target_named) {
		if (optind < argc)
			optind++;
		if (!ctx->target) {
			err_setc(&ctx->err, ERR_INVALID,
				 "no report selected for %%i");
			return CMD_FAILED;
		}
		*id = ctx->target;
		return 0;
	}
	if (ctx->target > 0) {
		*id = ctx->target;
		return 0;
	}
	/* Nothing resolved: the word where the id goes says what is wrong. */
	if (optind < argc) {
		if (parse_report_id(argv[optind], id, &ctx->err) < 0)
			return CMD_USAGE;
		optind++;
		return 0;
	}
	return cmd_usage(ctx, name);
}

int64_t cmd_target_of(const struct cmd_entry *e, int argc, char **argv,
		      int64_t report)
{
	int64_t id;
	bool named;

	if (!e || argc < 1 || e->target != CMD_TARGET_REPORT)
		return report;
	cmd_resolve_target(e, argc, argv, report, &id, &named);
	return id;
}

char *cmd_question(int argc, char **argv, int64_t report)
{
	const struct cmd_entry *e = argc > 0 ? cmd_find(argv[0]) : NULL;

	if (!e || !e->ask || cmd_wants_help(e, argc, argv))
		return NULL;
	return e->ask(argc, argv, cmd_target_of(e, argc, argv, report));
}

int cmd_confirm(struct cmd_ctx *ctx, const char *refusal, const char *fmt, ...)
{
	va_list ap;
	char *q;
	int r;

	if (ctx->yes)
		return 1;
	va_start(ap, fmt);
	q = xvasprintf(fmt, ap);
	va_end(ap);
	r = ctx->confirm ? ctx->confirm(q, ctx->ask_data) : -1;
	free(q);
	if (r < 0) {
		err_setc(&ctx->err, ERR_REFUSED, "%s (no terminal to ask on)",
			 refusal);
		return -1;
	}
	return r > 0;
}

bool cmd_guard(struct cmd_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	char *q;
	int r;

	if (ctx->yes || !ctx->interactive || !ctx->confirm)
		return true;
	va_start(ap, fmt);
	q = xvasprintf(fmt, ap);
	va_end(ap);
	r = ctx->confirm(q, ctx->ask_data);
	free(q);
	return r > 0;
}

int cmd_declined(struct cmd_ctx *ctx)
{
	char *safe = safe_str(ctx->line ? ctx->line : "");

	cmd_summary(ctx, "nothing done: %s", safe);
	free(safe);
	return CMD_OK;
}

int cmd_edit(struct cmd_ctx *ctx, const char *name, const char *initial,
	     char **text)
{
	if (ctx->edit)
		return ctx->edit(name, initial, text, &ctx->err, ctx->ask_data);
	return edit_text(name, initial, NULL, text, &ctx->err);
}

void cmd_summary(struct cmd_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	free(ctx->summary);
	va_start(ap, fmt);
	ctx->summary = xvasprintf(fmt, ap);
	va_end(ap);
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
	free(ctx->usage_text);
	ctx->usage_text = NULL;
	out = open_memstream(&obuf, &olen);
	err = out ? fopencookie(&ce, "w", io) : NULL;
	if (!out || !err) {
		if (out)
			fclose(out);
		res->status = CMD_FAILED;
		res->summary =
			xasprintf("cannot capture the command's output: %s",
				  strerror(errno));
		return res->status;
	}
	setvbuf(err, NULL, _IONBF, 0);
	ctx->out = out;
	ctx->errout = err;
	res->status = cmd_run_at(ctx, argc, argv, report);
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
	/* The result as values: the error, the command's own result line,
	 * its usage; never a line read back from what it wrote. */
	if (res->status != CMD_OK && ctx->err.msg[0])
		res->summary = safe_str(ctx->err.msg);
	else if (ctx->summary) {
		res->summary = safe_str(ctx->summary);
		res->said = true;
	} else if (res->status == CMD_USAGE && ctx->usage_text)
		res->summary = safe_str(ctx->usage_text);
	else if (olen)
		res->summary = xasprintf("%zu line%s", res->output_lines,
					 res->output_lines == 1 ? "" : "s");
	else if (res->warnings)
		res->summary = xstrdup(res->status == CMD_OK
					       ? "done, with warnings"
					       : "command failed");
	else
		res->summary = xstrdup(
			res->status == CMD_OK ? "done" : "command failed");
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
				argv = xrealloc(argv,
						(size_t)(argc + 2) *
							sizeof(*argv));
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
				       "0123456789@._+-=/:,#",
				       *c) != NULL;
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
	if (!ctx->out)
		ctx->out = stdout;
	if (!ctx->errout)
		ctx->errout = stderr;
	return session_open(ctx->sess, err);
}

void cmd_ctx_release(struct cmd_ctx *ctx)
{
	session_close(ctx->sess);
	free(ctx->summary);
	ctx->summary = NULL;
	free(ctx->usage_text);
	ctx->usage_text = NULL;
	free(ctx->opt_error);
	ctx->opt_error = NULL;
}

struct store *cmd_store(struct cmd_ctx *ctx)
{
	return session_store(ctx->sess, &ctx->err);
}

struct crypto *cmd_crypto(struct cmd_ctx *ctx)
{
	return session_crypto(ctx->sess, &ctx->err);
}
