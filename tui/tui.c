/*
 * The interactive UI.  This first version is the report list only: the
 * views, key table and `:` line of the full UI build on it.
 */
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include <ncursesw/curses.h>

#include "tui/tui.h"

struct rows {
	struct report *r;
	size_t n;
};

static int collect(const struct report *r, void *data)
{
	struct rows *rows = data;
	struct report *d;

	rows->r = xrealloc(rows->r, (rows->n + 1) * sizeof(*rows->r));
	d = &rows->r[rows->n++];
	*d = *r;
	d->subject = safe_str(r->subject);
	d->reporter_name = NULL;
	d->reporter_email = NULL;
	d->state = xstrdup(r->state);
	d->severity = xstrdup(r->severity);
	d->claimed_by = r->claimed_by ? safe_str(r->claimed_by) : NULL;
	d->verdict = r->verdict ? xstrdup(r->verdict) : NULL;
	return 0;
}

int tui_main(struct cmd_ctx *ctx)
{
	struct rows rows = { NULL, 0 };
	size_t sel = 0, top = 0;
	int ch, rows_h;

	if (!cmd_ctx_store(ctx)) {
		fprintf(stderr, "secteam-tui: %s\n", ctx->err.msg);
		return CMD_FAILED;
	}
	if (report_each(ctx, NULL, collect, &rows, &ctx->err) < 0) {
		fprintf(stderr, "secteam-tui: %s\n", ctx->err.msg);
		return CMD_FAILED;
	}
	setlocale(LC_ALL, "");
	initscr();
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	for (;;) {
		time_t now = util_now();
		rows_h = LINES - 2;
		if (sel < top)
			top = sel;
		if (rows_h > 0 && sel >= top + (size_t)rows_h)
			top = sel - (size_t)rows_h + 1;
		erase();
		attron(A_REVERSE);
		mvprintw(0, 0, "%-*s", COLS, " secteam-tui: reports   q:quit  j/k:move");
		attroff(A_REVERSE);
		for (int y = 0; y < rows_h && top + (size_t)y < rows.n; y++) {
			const struct report *r = &rows.r[top + (size_t)y];
			char due[16] = "-";
			if (r->disclosure)
				snprintf(due, sizeof(due), "%+ldd", days_between(now, r->disclosure));
			if (top + (size_t)y == sel)
				attron(A_REVERSE);
			mvprintw(y + 1, 0, "%-5lld %-9s %-8s %-11s %-5s %-.*s",
				 (long long)r->id, r->state, r->severity,
				 r->verdict ? r->verdict : "-", due, COLS > 45 ? COLS - 45 : 0,
				 r->subject);
			clrtoeol();
			if (top + (size_t)y == sel)
				attroff(A_REVERSE);
		}
		mvprintw(LINES - 1, 0, "%zu reports", rows.n);
		refresh();
		ch = getch();
		if (ch == 'q')
			break;
		if ((ch == 'j' || ch == KEY_DOWN) && sel + 1 < rows.n)
			sel++;
		if ((ch == 'k' || ch == KEY_UP) && sel > 0)
			sel--;
	}
	endwin();
	for (size_t i = 0; i < rows.n; i++)
		report_release(&rows.r[i]);
	free(rows.r);
	return CMD_OK;
}
