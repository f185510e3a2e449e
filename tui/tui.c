/*
 * The interactive UI: start-up, the main loop, the view stack, the status
 * line, and running command strings.
 *
 * Every key is looked up in the key table (keys.c) or the config's bind
 * lines and becomes a command string; tui_run_line() runs it, either as
 * one of the UI's own verbs (a table row with a handler) or as a core
 * command through cmd_run_string(), its output captured and its last line
 * shown in the status line.  "%i" in a string is the current report, and a
 * core verb that takes a report id gets the current one when the officer
 * typed none.  After a command the data may have changed: every view
 * reloads (keeping its place) before the next draw.
 *
 * Safety: core dumps are off while the UI runs, views wipe plaintext when
 * they close, and all report text reaches the screen through draw.c.
 */
#include <errno.h>
#include <poll.h>
#include <langinfo.h>
#include <locale.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "tui/tui-int.h"

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void tui_trace(struct tui *t, const char *what, long long start)
{
	if (!t->trace)
		return;
	if (start)
		fprintf(t->trace, "%s %lld %lld\n", what, start, now_ns());
	else
		fprintf(t->trace, "%s %lld\n", what, now_ns());
	fflush(t->trace);
}

void tui_trace_mark(struct tui *t, const char *what)
{
	tui_trace(t, what, 0);
}

void tui_status(struct tui *t, bool error, const char *fmt, ...)
{
	va_list ap;
	char *raw, *safe;

	va_start(ap, fmt);
	raw = xvasprintf(fmt, ap);
	va_end(ap);
	/* Messages may quote what a command printed, or a file name. */
	safe = safe_str(raw);
	snprintf(t->status, sizeof(t->status), "%s", safe);
	t->status_error = error;
	free(raw);
	free(safe);
}

static void draw_status(struct tui *t)
{
	int y = LINES - 1;

	move(y, 0);
	clrtoeol();
	if (t->status[0]) {
		attr_t a = t->status_error ? (draw_color(t, CP_ERROR) | A_BOLD) : A_NORMAL;
		int x = 0;
		if (t->status_error)
			x = draw_text(y, 0, COLS, "error: ", a);
		draw_text(y, x, COLS - x - 1, t->status, a);
	} else {
		draw_text(y, 0, COLS, "?:help  q:back  :command", A_DIM);
	}
}

void tui_title(struct tui *t, const char *fmt, ...)
{
	va_list ap;
	char *s;

	(void)t;
	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	draw_fill(0, 0, COLS, A_REVERSE);
	draw_text(0, 0, COLS, s, A_REVERSE | A_BOLD);
	free(s);
}

struct tui_view *tui_top(struct tui *t)
{
	return t->stack[t->depth - 1];
}

void tui_push(struct tui *t, struct tui_view *v)
{
	if (t->depth == TUI_MAX_STACK) {
		tui_status(t, true, "too many views open: press q to go back");
		v->ops->close(t, v);
		free(v);
		return;
	}
	v->gen = t->gen;
	t->stack[t->depth++] = v;
}

int64_t tui_current_report(struct tui *t)
{
	struct tui_view *v = tui_top(t);

	return v->ops->current ? v->ops->current(t, v) : v->report_id;
}

static void redraw(struct tui *t)
{
	struct tui_view *v = tui_top(t);

	if (v->gen != t->gen) {
		v->gen = t->gen;
		if (v->ops->reload)
			v->ops->reload(t, v);
	}
	erase();
	v->ops->draw(t, v);
	draw_status(t);
	refresh();
}

/* A key; with nowait, TUI_KEY_NONE when none is waiting. */
static int read_key(bool nowait)
{
	wint_t wc;
	int r;

	for (;;) {
		errno = 0;
		r = get_wch(&wc);
		if (r == ERR) {
			if (errno == EINTR)
				continue;
			return nowait ? TUI_KEY_NONE : -1;
		}
		if (r == KEY_CODE_YES) {
			if (wc == KEY_ENTER)
				return '\n';
			if (wc == KEY_BACKSPACE)
				return 127;
			return TUI_KEY_FN((int)wc);
		}
		if (wc == '\r')
			return '\n';
		if (wc == 8)
			return 127;
		return (int)wc;
	}
}

int tui_getkey(struct tui *t)
{
	(void)t;
	return read_key(false);
}

/* How often a UI on SQLite looks for a colleague's commit, in ms. */
#define LIVE_POLL_MS 250

/*
 * Colleagues' changes since the last look: every view is told which
 * reports changed; a view that holds none of them is left alone.
 * Returns true when something changed.
 */
static bool live_apply(struct tui *t)
{
	struct err err = { 0, "" };
	int64_t *ids = NULL;
	size_t n = 0;

	if (report_changes(t->ctx, &t->live_cursor, &ids, &n, &err) < 0 || !n) {
		free(ids);
		return false;
	}
	for (size_t d = 0; d < t->depth; d++) {
		struct tui_view *v = t->stack[d];

		if (v->ops->changed) {
			v->ops->changed(t, v, ids, n);
			continue;
		}
		for (size_t i = 0; i < n; i++)
			if (ids[i] == 0 || ids[i] == v->report_id)
				v->gen = t->gen - 1;  /* reload when shown */
	}
	tui_trace_mark(t, "live");
	free(ids);
	return true;
}

/*
 * The next key, as tui_getkey; meanwhile, a colleague's change (the team
 * server's notification, or every LIVE_POLL_MS on SQLite) is applied and
 * reported as TUI_KEY_LIVE so the screen is redrawn.
 */
static int getkey_live(struct tui *t)
{
	int fd = report_watch_fd(t->ctx);

	for (;;) {
		struct pollfd pf[2] = { { .fd = STDIN_FILENO, .events = POLLIN },
					{ .fd = fd, .events = POLLIN } };
		int r;

		/* Whatever curses has already read comes first. */
		nodelay(stdscr, TRUE);
		r = read_key(true);
		nodelay(stdscr, FALSE);
		if (r != TUI_KEY_NONE)
			return r;
		r = poll(pf, fd >= 0 ? 2 : 1, fd >= 0 ? -1 : LIVE_POLL_MS);
		if (r < 0 && errno != EINTR)
			return -1;
		/* Input (or its end): read it the usual way. */
		if (r > 0 && pf[0].revents)
			return tui_getkey(t);
		if (live_apply(t))
			return TUI_KEY_LIVE;
	}
}

bool tui_confirm(struct tui *t, const char *question)
{
	int k;

	tui_status(t, false, "%s [y/N]", question);
	draw_status(t);
	refresh();
	k = tui_getkey(t);
	tui_status(t, false, "%s", k == 'y' || k == 'Y' ? "" : "cancelled");
	return k == 'y' || k == 'Y';
}

void tui_suspend(void)
{
	def_prog_mode();
	endwin();
}

void tui_resume(void)
{
	reset_prog_mode();
	clearok(curscr, TRUE);
	refresh();
}

/* --- command strings -----------------------------------------------------*/

/* Replaces %i with id; NULL (status set) when there is no report. */
static char *subst(struct tui *t, const char *line)
{
	struct sbuf sb = SBUF_INIT;

	for (const char *p = line; *p; p++) {
		if (p[0] == '%' && p[1] == 'i') {
			int64_t id = tui_current_report(t);
			if (!id) {
				tui_status(t, true, "no report selected");
				sbuf_release(&sb);
				return NULL;
			}
			sbuf_addf(&sb, "%lld", (long long)id);
			p++;
		} else if (p[0] == '%' && p[1] == '%') {
			sbuf_addch(&sb, '%');
			p++;
		} else {
			sbuf_addch(&sb, *p);
		}
	}
	if (!sb.buf)
		return xstrdup("");
	return sbuf_detach(&sb, NULL);
}

/*
 * Verbs taking a report id, and after how many subcommand words; the
 * verb's usage text in cmd_table[] (read at run time, as commands land)
 * must mention ID for the rule to apply.  NULL subcommands: the id comes
 * first.
 */
static const struct {
	const char *verb;
	const char *subs; /* space-separated subcommands taking an id */
} id_rules[] = {
	{ "show", NULL }, { "triage", NULL }, { "maintainers", NULL },
	{ "forward", NULL }, { "export", NULL },
	{ "date", "set propose show start-release" },
	{ "vendor", "notify status" },
	{ "participant", "add remove ack" },
};

static bool is_id(const char *w, size_t n)
{
	char buf[32];
	struct err e;
	int64_t id;

	if (!n || n >= sizeof(buf))
		return false;
	memcpy(buf, w, n);
	buf[n] = 0;
	return parse_report_id(buf, &id, &e) == 0;
}

static bool word_in(const char *list, const char *w, size_t n)
{
	const char *p = list;

	while (*p) {
		size_t k = strcspn(p, " ");
		if (k == n && !strncmp(p, w, n))
			return true;
		p += k;
		p += strspn(p, " ");
	}
	return false;
}

/* Returns line with the current report's id inserted where the verb wants
 * it, or a copy of line. */
static char *insert_id(struct tui *t, const char *line)
{
	const char *verb = line, *rest, *w1, *w2;
	size_t vlen = strcspn(line, " \t"), n1, n2;
	const struct cmd_entry *ce;
	char vbuf[64];
	int64_t id = tui_current_report(t);

	if (!id || vlen >= sizeof(vbuf))
		return xstrdup(line);
	memcpy(vbuf, verb, vlen);
	vbuf[vlen] = 0;
	if (!(ce = cmd_find(vbuf)) || !strstr(ce->usage, "ID"))
		return xstrdup(line);
	rest = line + vlen;
	w1 = rest + strspn(rest, " \t");
	n1 = strcspn(w1, " \t");
	w2 = w1 + n1 + strspn(w1 + n1, " \t");
	n2 = strcspn(w2, " \t");
	for (size_t i = 0; i < ARRAY_SIZE(id_rules); i++) {
		if (strcmp(id_rules[i].verb, vbuf))
			continue;
		if (!id_rules[i].subs) {
			if (is_id(w1, n1))
				break;
			return xasprintf("%s %lld%s", vbuf, (long long)id, rest);
		}
		if (n1 && word_in(id_rules[i].subs, w1, n1) && !is_id(w2, n2))
			return xasprintf("%.*s %lld%s", (int)(w1 + n1 - line), line,
					 (long long)id, w1 + n1);
		break;
	}
	return xstrdup(line);
}

/* errout while a command runs: each line (or \r-terminated progress) is
 * shown at once in the status line, so a long import is not silent. */
struct live {
	struct tui *t;
	struct sbuf cur;
	char last[512];
};

static ssize_t live_write(void *cookie, const char *buf, size_t n)
{
	struct live *l = cookie;

	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '\n' || buf[i] == '\r') {
			if (l->cur.len) {
				char *s = safe_str(l->cur.buf);
				snprintf(l->last, sizeof(l->last), "%s", s);
				free(s);
				tui_status(l->t, false, "%s", l->last);
				draw_status(l->t);
				refresh();
			}
			sbuf_reset(&l->cur);
		} else {
			sbuf_addch(&l->cur, buf[i]);
		}
	}
	return (ssize_t)n;
}

static void last_line(const char *buf, size_t len, char *out, size_t size)
{
	size_t end = len, start;

	while (end && (buf[end - 1] == '\n' || buf[end - 1] == '\r'))
		end--;
	start = end;
	while (start && buf[start - 1] != '\n')
		start--;
	snprintf(out, size, "%.*s", (int)(end - start), buf + start);
}

static int run_core(struct tui *t, const char *line)
{
	struct cmd_ctx *ctx = t->ctx;
	FILE *save_out = ctx->out, *save_err = ctx->errout, *out, *err;
	struct live live = { t, SBUF_INIT, "" };
	cookie_io_functions_t io = { NULL, live_write, NULL, NULL };
	char *obuf = NULL, last[512];
	size_t olen = 0;
	int r;

	tui_status(t, false, "running: %s", line);
	draw_status(t);
	refresh();
	out = open_memstream(&obuf, &olen);
	err = fopencookie(&live, "w", io);
	if (!out || !err) {
		if (out)
			fclose(out);
		if (err)
			fclose(err);
		tui_status(t, true, "cannot capture the command's output: %s", strerror(errno));
		return TUI_OK;
	}
	setvbuf(err, NULL, _IONBF, 0);
	ctx->out = out;
	ctx->errout = err;
	ctx->interactive = true;
	r = cmd_run_string(ctx, line);
	fclose(out);
	fclose(err);
	ctx->out = save_out;
	ctx->errout = save_err;
	if (live.cur.len)
		live_write(&live, "\n", 1);
	sbuf_release(&live.cur);
	last_line(obuf ? obuf : "", olen, last, sizeof(last));
	if (r == CMD_OK)
		tui_status(t, false, "%s", last[0] ? last : "done");
	else if (ctx->err.msg[0])
		tui_status(t, true, "%s", ctx->err.msg);
	else
		tui_status(t, true, "%s", live.last[0] ? live.last : last[0] ? last : "command failed");
	/* The output may hold plaintext (show). */
	if (obuf)
		wipe_free(obuf, olen);
	return TUI_RELOAD;
}

int tui_run_line(struct tui *t, const char *raw)
{
	const struct tui_key_entry *e;
	char *line, *full, verb[64];
	const char *p = raw, *args;
	size_t vlen;
	int r;

	p += strspn(p, " \t:");
	if (!*p)
		return TUI_OK;
	if (!(line = subst(t, p)))
		return TUI_OK;
	vlen = strcspn(line, " \t");
	snprintf(verb, sizeof(verb), "%.*s", (int)(vlen < sizeof(verb) ? vlen : sizeof(verb) - 1), line);
	args = line + vlen;
	args += strspn(args, " \t");
	if ((e = keys_find_verb(verb))) {
		r = e->handler(t, args);
	} else if (!strcmp(verb, "q") || !strcmp(verb, "quit")) {
		r = TUI_QUIT;
	} else if (cmd_find(verb)) {
		full = insert_id(t, line);
		r = run_core(t, full);
		free(full);
	} else {
		tui_status(t, true, "unknown command '%s' (Tab lists the commands)", verb);
		r = TUI_OK;
	}
	free(line);
	return r;
}

/* Runs the command of a key, asking first when the table says so. */
static int run_key(struct tui *t, int key)
{
	const struct tui_key_entry *e;
	const char *cmd = keys_lookup(t, tui_top(t)->id, key, &e);

	if (!cmd) {
		if (key < TUI_KEY_FN(0))
			tui_status(t, true, "key %s is not bound here: ? lists the keys", keys_name(key));
		return TUI_OK;
	}
	if (e && e->confirm) {
		char *q = subst(t, e->confirm);
		bool yes = q && tui_confirm(t, q);
		free(q);
		if (!yes)
			return TUI_OK;
	}
	return tui_run_line(t, cmd);
}

int tui_main(struct cmd_ctx *ctx)
{
	struct tui t;
	const char *tr = getenv("SECTEAM_TUI_TRACE");
	bool first = true, drawn = false;
	int flags = TUI_REDRAW;

	memset(&t, 0, sizeof(t));
	t.ctx = ctx;
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	if (tr && *tr && !(t.trace = fopen(tr, "a")))
		fprintf(stderr, "secteam-tui: cannot open trace file '%s': %s\n", tr, strerror(errno));
	tui_trace(&t, "start", 0);
	if (!cmd_ctx_store(ctx)) {
		fprintf(stderr, "secteam-tui: %s\n", ctx->err.msg);
		if (t.trace)
			fclose(t.trace);
		return CMD_FAILED;
	}
	tui_trace(&t, "store-open", 0);
	ctx->interactive = true;
	setlocale(LC_ALL, "");
	t.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	if (!newterm(NULL, stdout, stdin)) {
		fprintf(stderr, "secteam-tui: cannot start the terminal UI (TERM=%s)\n",
			getenv("TERM") ? getenv("TERM") : "");
		return CMD_FAILED;
	}
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	draw_init_colors(&t);
	keys_parse_binds(&t);
	tui_trace(&t, "curses-ready", 0);
	tui_push(&t, view_reports_new(&t));
	t.live_cursor = -1;
	while (!(flags & TUI_QUIT)) {
		int key;
		long long t0;
		if (flags & TUI_RELOAD)
			t.gen++;
		if (!drawn)
			redraw(&t);
		drawn = false;
		if (first) {
			/* The list drew its first page from a quick query;
			 * now it loads every report's key, then redraws. */
			tui_trace(&t, "first-screen", 0);
			first = false;
			/* From now on, colleagues' changes are news. */
			live_apply(&t);
			t.gen++;
			continue;
		}
		key = getkey_live(&t);
		t0 = now_ns();
		if (key < 0) {
			flags = TUI_QUIT;
			break;
		}
		if (key == TUI_KEY_FN(KEY_RESIZE) || key == TUI_KEY_LIVE) {
			flags = TUI_REDRAW;
			continue;
		}
		t.status[0] = 0;
		t.status_error = false;
		flags = run_key(&t, key);
		if (t.trace && !(flags & TUI_QUIT)) {
			if (flags & TUI_RELOAD)
				t.gen++;
			flags &= ~TUI_RELOAD;
			redraw(&t);
			drawn = true;
			tui_trace(&t, keys_name(key), t0);
		}
	}
	while (t.depth) {
		struct tui_view *v = t.stack[--t.depth];
		v->ops->close(&t, v);
		free(v);
	}
	endwin();
	keys_free_binds(&t);
	history_free(&t.cmd_hist);
	history_free(&t.search_hist);
	free(t.search);
	if (t.trace)
		fclose(t.trace);
	return CMD_OK;
}
