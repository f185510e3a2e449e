/*
 * The interactive UI: start-up, the main loop, the view stack, the status
 * line, and running command strings.
 *
 * Every key is looked up in the key table (keys.c) or the config's bind
 * lines; its command is split into words and run either as one of the
 * UI's own verbs (a table row with a handler) or as a core command with
 * cmd_capture(): the current report is passed as a value (the runner
 * puts it where the command's row says), and the command's output is
 * kept, never written behind curses: its result (a value, never a line
 * read back) goes to the status line, and output to read opens a pager.  After a command the data may have
 * changed: every view reloads (keeping its place) before the next draw.
 *
 * Safety: core dumps are off while the UI runs, views wipe plaintext when
 * they close, and all report text reaches the screen through draw.c.
 */
#include <errno.h>
#include <fcntl.h>
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

struct tui_view *tui_view_alloc(enum tui_view_id id,
				const struct tui_view_ops *ops, void *priv,
				int64_t report_id)
{
	struct tui_view *v = xcalloc(1, sizeof(*v));

	v->id = id;
	v->ops = ops;
	v->priv = priv;
	v->report_id = report_id;
	return v;
}

struct tui_view *tui_pager_alloc(enum tui_view_id id,
				 const struct tui_view_ops *ops, void *priv,
				 int64_t report_id, struct tui_lines *lines)
{
	struct tui_view *v = tui_view_alloc(id, ops, priv, report_id);

	lines->hl = -1;
	v->lines = lines;
	return v;
}

void tui_status(struct tui *t, bool error, const char *fmt, ...)
{
	va_list ap;

	char *raw;

	/* Messages may quote what a command printed, or a file name; a tab
	 * of a command's output is a space here, not "^I". */
	va_start(ap, fmt);
	raw = xvasprintf(fmt, ap);
	va_end(ap);
	for (char *p = raw; *p; p++)
		if (*p == '\t')
			*p = ' ';
	free(t->status);
	t->status = safe_str(raw);
	free(raw);
	t->status_error = error;
	t->status_asks = false;
}

void tui_status_clear(struct tui *t)
{
	free(t->status);
	t->status = NULL;
	t->status_error = false;
}

static void draw_status(struct tui *t)
{
	int y = LINES - 1;

	move(y, 0);
	clrtoeol();
	if (t->status && *t->status) {
		attr_t a = t->status_error ? (draw_color(t, CP_ERROR) | A_BOLD)
					   : A_NORMAL;
		/* A question keeps its answer's keys, however long it is. */
		int x = 0, keep = t->status_asks ? 6 : 0;
		char *all = xasprintf("%s%s%s",
				      t->status_error ? "error: " : "",
				      t->status, keep ? " [y/N]" : "");

		if (text_width(all) > COLS - 1) {
			/* Too long for the row: it goes on upwards, over the
			 * view's last rows until the next key (as vim's long
			 * messages do), never cut. */
			struct tui_lines l;
			int n;

			memset(&l, 0, sizeof(l));
			lines_add_hanging(&l, all, COLS - 1, 2, a, 1);
			n = (int)l.n < LINES - 1 ? (int)l.n : LINES - 1;
			for (int i = 0; i < n; i++) {
				move(y - n + 1 + i, 0);
				clrtoeol();
				draw_text(y - n + 1 + i, 0, COLS - 1, l.line[i],
					  a);
			}
			lines_release(&l);
			free(all);
			return;
		}
		free(all);
		if (t->status_error)
			x = draw_text(y, 0, COLS, "error: ", a);
		x += draw_text(y, x, COLS - x - 1 - keep, t->status, a);
		if (keep)
			draw_text(y, x, COLS - x - 1, " [y/N]", a | A_BOLD);
	} else {
		draw_text(y, 0, COLS, "?:help  q:back  :command", A_DIM);
	}
}

/* Where the officer is, as mutt names its folder: "alice @ team server
 * 'host:5432/team'" or "alice @ demo/secteam.db" (a database file by its
 * folder and name).  NULL before the store is open. */
static char *where_label(struct tui *t, bool brief)
{
	struct session *sess = t->ctx->sess;
	const char *w = session_where(sess);
	char *place, *label, *q;

	if (!w || !sess->officer)
		return NULL;
	if (brief && str_starts(w, "team server '") && (q = strrchr(w, '/')) &&
	    q[1] && q[1] != '\'') {
		/* Brief: the server's database alone. */
		place = xstrndup(q + 1, strcspn(q + 1, "'"));
	} else if (str_starts(w, "database '") &&
		   (q = strrchr(w, '\'')) > w + 10) {
		/* The file's folder and name: the rest of its path says
		 * little and takes the room. */
		char *path = xstrndup(w + 10, (size_t)(q - (w + 10)));
		char *slash = strrchr(path, '/'), *dir = NULL;

		if (slash && slash > path) {
			*slash = '\0';
			dir = strrchr(path, '/');
			*slash = '/';
		}
		place = xstrdup(dir ? dir + 1 : path);
		free(path);
	} else {
		place = xstrdup(w);
	}
	label = xasprintf("%s @ %s ", sess->officer, place);
	free(place);
	q = safe_str(label);
	free(label);
	return q;
}

void tui_title(struct tui *t, const char *fmt, ...)
{
	va_list ap;
	char *s, *where = where_label(t, false);
	int used, ww;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	draw_fill(0, 0, COLS, A_REVERSE);
	used = draw_text(0, 0, COLS, s, A_REVERSE | A_BOLD);
	/* On the right, when the view's own title leaves room for it; a
	 * team server by its database alone when its full name does not. */
	if (where && text_width(where) + used + 2 > COLS) {
		free(where);
		where = where_label(t, true);
	}
	if (where && (ww = text_width(where)) + used + 2 <= COLS)
		draw_text(0, COLS - ww, ww, where, A_REVERSE);
	free(where);
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
/* On a team server, a burst of changes (colleagues' imports commit twice
 * a second, each officer's command is one) is looked for at most once
 * per LIVE_MIN_MS: a lone change shows at once, a burst within this of
 * its notice, and the UI does not ask the server again for each. */
#define LIVE_MIN_MS 200
/* Retrying a lost team server: the first wait, doubling up to the last. */
#define RECONNECT_FIRST_MS 500
#define RECONNECT_MAX_MS 4000

static long long mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

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

	t->live_at = mono_ms();
	t->live_due = false;

	if (report_changes(t->ctx->sess, &t->live_cursor, &ids, &n, &err) < 0 ||
	    !n) {
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
				v->gen = t->gen - 1; /* reload when shown */
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
/*
 * The team server went away (a restart, a network cut): say so, and try
 * to reach it again after `*wait_ms` (doubling up to RECONNECT_MAX_MS),
 * waiting on the keyboard only, so no CPU is spent meanwhile.  True once
 * it is back: the views reload, and the live changes catch up on what
 * happened while it was away.
 */
static bool reconnect_now(struct tui *t, int *wait_ms)
{
	struct err err = { 0, "" };

	if (report_store_reconnect(t->ctx->sess, &err) == 0) {
		*wait_ms = 0;
		t->gen++;
		tui_status(t, false, "team server reachable again: up to date");
		return true;
	}
	if (err.code == ERR_REFUSED) {
		/* Removed from the team: nothing to wait for. */
		t->shut_out = xstrdup(err.msg);
		return false;
	}
	/* Said once, when it goes: the answer to an action taken meanwhile
	 * stays on the status line. */
	if (!*wait_ms) {
		tui_status(t, true,
			   "team server unreachable, retrying... (what you do "
			   "meanwhile is refused, not kept)");
		draw_status(t);
		refresh();
	}
	*wait_ms = *wait_ms ? *wait_ms * 2 : RECONNECT_FIRST_MS;
	if (*wait_ms > RECONNECT_MAX_MS)
		*wait_ms = RECONNECT_MAX_MS;
	return false;
}

static int getkey_live(struct tui *t)
{
	int *wait_ms = &t->reconnect_ms;

	for (;;) {
		bool up = report_store_up(t->ctx->sess);
		int fd = up ? report_watch_fd(t->ctx->sess) : -1;
		struct pollfd pf[2] = { { .fd = STDIN_FILENO,
					  .events = POLLIN },
					{ .fd = fd, .events = POLLIN } };
		int r, ms = LIVE_POLL_MS; /* SQLite: a look now and then */
		int hold = -1; /* ms before held-back changes are looked for */

		/* Whatever curses has already read comes first. */
		nodelay(stdscr, TRUE);
		r = read_key(true);
		nodelay(stdscr, FALSE);
		if (r != TUI_KEY_NONE)
			return r;
		if (!up && !*wait_ms && reconnect_now(t, wait_ms))
			return TUI_KEY_LIVE;
		if (t->shut_out)
			return -1;
		if (fd >= 0 && t->live_due) {
			long long left = t->live_at + LIVE_MIN_MS - mono_ms();

			if (left <= 0) {
				if (live_apply(t))
					return TUI_KEY_LIVE;
				continue;
			}
			hold = (int)left;
		}
		/* While changes are held back, the keyboard alone: the
		 * server's socket stays readable until they are read. */
		if (!up)
			ms = *wait_ms;
		else if (hold >= 0)
			ms = hold;
		else if (fd >= 0)
			ms = -1;
		r = poll(pf, fd >= 0 && hold < 0 ? 2 : 1, ms);
		if (r < 0 && errno != EINTR)
			return -1;
		/* Input (or its end): read it the usual way. */
		if (r > 0 && pf[0].revents)
			return tui_getkey(t);
		if (!up) {
			if (r == 0 && reconnect_now(t, wait_ms))
				return TUI_KEY_LIVE;
			if (t->shut_out)
				return -1;
			continue;
		}
		if (hold >= 0 || (r <= 0 && fd >= 0))
			continue;
		if (fd >= 0 && mono_ms() - t->live_at < LIVE_MIN_MS) {
			t->live_due = true;
			continue;
		}
		if (live_apply(t))
			return TUI_KEY_LIVE;
	}
}

bool tui_confirm(struct tui *t, const char *question)
{
	int k;

	tui_status(t, false, "%s", question);
	t->status_asks = true;
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

/* --- running commands ---------------------------------------------------*/

/* A line the command writes to its warnings while it runs: shown at
 * once, so a long import is not silent. */
static void progress_line(const char *text, void *data)
{
	struct tui *t = data;

	tui_status(t, false, "%s", text);
	draw_status(t);
	refresh();
}

void tui_show_progress(struct tui *t, const char *text)
{
	progress_line(text, t);
}

/* A command's progress in the status line, "importing: N message(s),
 * P%", as it comes; the command's result replaces it.  The trace
 * (SECTEAM_TUI_TRACE) records each, for tests: it is gone too soon to
 * be seen on the screen. */
static void progress_status(const struct cmd_progress *p, void *data)
{
	char buf[128];

	if (p->event != CMD_PROGRESS_UPDATE)
		return;
	if (p->frac >= 0)
		snprintf(buf, sizeof(buf), "%s: %zu %s, %d%%", p->what, p->done,
			 p->unit, (int)(p->frac * 100));
	else
		snprintf(buf, sizeof(buf), "%s: %zu %s", p->what, p->done,
			 p->unit);
	progress_line(buf, data);
	tui_trace_mark(data, buf);
}

/*
 * Runs a command on the current report (passed as a value: the runner
 * puts it where the command's row says) with its output kept, never
 * written to the terminal: the command's result goes to the status line,
 * and output to read opens a pager.
 */
static int run_core(struct tui *t, int argc, char **argv, const char *title,
		    bool pager, int *status)
{
	struct cmd_result res;
	int64_t id = tui_current_report(t);
	char *q = cmd_question(argc, argv, id);
	bool no = q && !tui_confirm(t, q);

	free(q);
	if (status)
		*status = no ? CMD_FAILED : CMD_OK;
	if (no) {
		tui_status(t, false, "nothing done: %s", title);
		return TUI_REDRAW;
	}

	tui_status(t, false, "running: %s", title);
	draw_status(t);
	refresh();
	t->ctx->interactive = true;
	t->ctx->progress = progress_status;
	t->ctx->progress_data = t;
	cmd_capture(t->ctx, argc, argv, id, progress_line, t, &res);
	t->ctx->progress = NULL;
	if (status)
		*status = res.status;
	/* What a command shows (show, list, export, ...) is read in a
	 * pager; what a command does is said in the status line (its
	 * summary); a command that said nothing but warned, or a usage
	 * mistake, shows its warnings in the pager. */
	if (!pager)
		;
	else if (res.status == CMD_OK && res.output_len && res.warnings) {
		/* Its warnings below what it wrote (the mails and where
		 * they went, for one): a summary that says "see the
		 * warnings" finds them there. */
		char *both = xasprintf("%.*s\nwarnings:\n%s",
				       (int)res.output_len, res.output,
				       res.warnings);

		tui_push(t, view_pager_new(t, title, both, strlen(both)));
		wipe_free(both, strlen(both));
	} else if (res.status == CMD_OK && !res.said && res.output_len) {
		tui_push(t,
			 view_pager_new(t, title, res.output, res.output_len));
	} else if (res.warnings && res.status == CMD_OK) {
		/* A command that did something and warned: the warnings are
		 * read, not dropped behind the status line. */
		tui_push(t,
			 view_pager_new(t, title, res.warnings,
					strlen(res.warnings)));
	}
	tui_status(t, res.status != CMD_OK, "%s", res.summary);
	cmd_result_release(&res);
	return TUI_RELOAD;
}

/*
 * Runs argv: one of the UI's own verbs (a key table row with a handler,
 * given the rest of the line as typed), or a command, handed to the
 * runner with the current report as a value (run_core): the runner
 * puts it where the command's row says, and takes a "%i" there (a bind
 * line's) for it too.
 */
static int run_argv(struct tui *t, int argc, char **argv, const char *rest,
		    const char *title)
{
	const struct tui_key_entry *e;

	if (!argc)
		return TUI_OK;
	if ((e = keys_find_verb(argv[0])))
		return e->handler(t, rest);
	if (!strcmp(argv[0], "q") || !strcmp(argv[0], "quit"))
		return TUI_QUIT;
	if (!cmd_find(argv[0])) {
		char *v = safe_str(argv[0]);
		tui_status(t, true,
			   "unknown command '%s' (Tab lists the commands)", v);
		free(v);
		return TUI_OK;
	}
	return run_core(t, argc, argv, title, true, NULL);
}

int tui_run_argv(struct tui *t, int argc, char **argv, int *status)
{
	char *line = cmd_join(argc, argv), *title = safe_str(line);
	int r = run_core(t, argc, argv, title, false, status);

	free(title);
	free(line);
	return r;
}

static int run_line(struct tui *t, const char *raw)
{
	const char *p = raw + strspn(raw, " \t:"), *rest;
	struct err err = { 0, "" };
	char **argv, *title;
	int argc, r;

	if (!*p)
		return TUI_OK;
	if (cmd_split(p, &argv, &argc, &err) < 0) {
		tui_status(t, true, "%s", err.msg);
		return TUI_OK;
	}
	rest = p + strcspn(p, " \t");
	rest += strspn(rest, " \t");
	title = safe_str(p);
	r = run_argv(t, argc, argv, rest, title);
	free(title);
	cmd_split_free(argv, argc);
	return r;
}

int tui_run_line(struct tui *t, const char *raw)
{
	return run_line(t, raw);
}

int tui_prompt_run(struct tui *t, const char *init)
{
	return tui_prompt_run_on(t, init, false);
}

int tui_prompt_run_on(struct tui *t, const char *init, bool name_report)
{
	/* The report a command line runs on when it names none (the
	 * runner's): named in the label, "#7:", never pasted into the text. */
	int64_t id = name_report ? tui_current_report(t) : 0;
	char *label = id ? xasprintf("#%lld:", (long long)id) : xstrdup(":");
	char *line = prompt_read(t, label, init, &t->cmd_hist, true);
	int r;

	free(label);
	if (!line)
		return TUI_REDRAW;
	r = tui_run_line(t, line);
	free(line);
	return r | TUI_REDRAW;
}

/* Runs the command of a key, asking first when the table says so. */
static int run_key(struct tui *t, int key)
{
	const struct tui_key_entry *e;
	const char *cmd = keys_lookup(t, tui_top(t)->id, key, &e);

	if (!cmd) {
		if (key < TUI_KEY_FN(0))
			tui_status(t, true,
				   "key %s is not bound here: ? lists the keys",
				   keys_name(key));
		return TUI_OK;
	}
	if (e && e->confirm) {
		int64_t id = tui_current_report(t);
		char q[256];

		/* The question names the report (a %lld in it); it is text
		 * for the officer, not a command. */
		if (strstr(e->confirm, "%lld")) {
			if (!id) {
				tui_status(t, true, "no report selected");
				return TUI_OK;
			}
			snprintf(q, sizeof(q), e->confirm, (long long)id);
		} else {
			snprintf(q, sizeof(q), "%s", e->confirm);
		}
		if (!tui_confirm(t, q))
			return TUI_OK;
	}
	return run_line(t, cmd);
}

/* A fatal error (die(): memory, a library that cannot be loaded) leaves
 * the terminal as it found it before saying why. */
static void curses_give_back(void)
{
	endwin();
}

/* The terminal in raw mode, colors and the user's bindings; false (said
 * on stderr) when the terminal cannot be used. */
static bool curses_start(struct tui *t)
{
	setlocale(LC_ALL, "");
	t->utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	if (!newterm(NULL, stdout, stdin)) {
		fprintf(stderr,
			"secteam-tui: cannot start the terminal UI (TERM=%s)\n",
			getenv("TERM") ? getenv("TERM") : "");
		return false;
	}
	die_hook(curses_give_back);
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	draw_init_colors(t);
	keys_parse_binds(t);
	return true;
}

/* Keys until one quits: each runs, then the screen is redrawn. */
/* An error longer than the status line opens whole in a pager, and the
 * status line says so: an error is never cut. */
static int status_to_pager(struct tui *t)
{
	char *text;
	int w;

	if (!t->status || t->status_asks || !t->status_error)
		return 0;
	w = text_width(t->status) + (t->status_error ? 7 : 0);
	if (w < COLS - 1)
		return 0;
	text = xasprintf("error: %s\n", t->status);
	tui_push(t, view_pager_new(t, "the whole error", text, strlen(text)));
	free(text);
	tui_status(t, true, "%s", "the whole error is above (q goes back)");
	return TUI_REDRAW;
}

static void tui_loop(struct tui *t)
{
	bool first = true, drawn = false;
	int flags = TUI_REDRAW;

	t->live_cursor = -1;
	while (!(flags & TUI_QUIT)) {
		int key;
		long long t0;
		if (flags & TUI_RELOAD)
			t->gen++;
		if (!drawn)
			redraw(t);
		drawn = false;
		if (first) {
			/* The list drew its first page from a quick query;
			 * now it loads every report's key, then redraws. */
			tui_trace(t, "first-screen", 0);
			first = false;
			/* From now on, colleagues' changes are news. */
			live_apply(t);
			t->gen++;
			continue;
		}
		key = getkey_live(t);
		t0 = now_ns();
		if (key < 0)
			break;
		if (key == TUI_KEY_FN(KEY_RESIZE) || key == TUI_KEY_LIVE) {
			flags = TUI_REDRAW;
			continue;
		}
		tui_status_clear(t);
		t->last_key = key;
		flags = run_key(t, key);
		flags |= status_to_pager(t);
		if (t->trace && !(flags & TUI_QUIT)) {
			if (flags & TUI_RELOAD)
				t->gen++;
			flags &= ~TUI_RELOAD;
			redraw(t);
			drawn = true;
			tui_trace(t, keys_name(key), t0);
		}
	}
}

/* Every view closed (plaintext wiped), the terminal given back. */
static void tui_end(struct tui *t)
{
	while (t->depth) {
		struct tui_view *v = t->stack[--t->depth];
		v->ops->close(t, v);
		free(v);
	}
	die_hook(NULL);
	endwin();
	keys_free_binds(t);
	history_free(&t->cmd_hist);
	history_free(&t->search_hist);
	free(t->search);
	tui_status_clear(t);
}

/* The trace file (SECTEAM_TUI_TRACE): appended to, 0600 when new, never
 * through a symbolic link (it may be in a shared folder). */
static FILE *trace_open(const char *path)
{
	int fd = open(path,
		      O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
		      0600);
	FILE *f = fd >= 0 ? fdopen(fd, "a") : NULL;

	if (fd >= 0 && !f)
		close(fd);
	return f;
}

int tui_main(struct cmd_ctx *ctx)
{
	struct tui t;
	const char *tr = getenv("SECTEAM_TUI_TRACE");
	int rc = CMD_FAILED;

	/* Curses on a pipe writes escape sequences into it, and a key read
	 * from a file is no officer's. */
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr,
			"secteam-tui: the UI needs a terminal, and standard %s is "
			"not one (commands such as 'secteam-tui list' need none)\n",
			isatty(STDIN_FILENO) ? "output" : "input");
		return CMD_FAILED;
	}
	memset(&t, 0, sizeof(t));
	t.ctx = ctx;
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	if (tr && *tr && !(t.trace = trace_open(tr)))
		fprintf(stderr,
			"secteam-tui: cannot open trace file '%s': %s\n", tr,
			strerror(errno));
	draw_log_cuts(t.trace);
	tui_trace(&t, "start", 0);
	if (!cmd_store(ctx)) {
		fprintf(stderr, "secteam-tui: %s\n", ctx->err.msg);
	} else {
		tui_trace(&t, "store-open", 0);
		ctx->interactive = true;
		if (curses_start(&t)) {
			tui_trace(&t, "curses-ready", 0);
			editor_attach(&t);
			tui_push(&t, view_reports_new(&t));
			tui_loop(&t);
			tui_end(&t);
			editor_detach(&t);
			rc = CMD_OK;
			if (t.shut_out) {
				char *m = safe_str(t.shut_out);
				fprintf(stderr,
					"secteam-tui: the team server no longer lets you in "
					"(removed from the team?): %s\n",
					m);
				free(m);
				free(t.shut_out);
				rc = CMD_FAILED;
			}
		}
	}
	draw_log_cuts(NULL);
	if (t.trace)
		fclose(t.trace);
	return rc;
}
