/*
 * Internals shared by the tui/ files: the session (struct tui), the view
 * interface every screen implements, the key table's row, and the drawing
 * helpers.  Not part of the public interface (tui/tui.h).
 *
 * A view is a stack entry with a small set of operations; the main loop
 * (tui.c) turns each key into a command string through the key table
 * (keys.c), runs it, and redraws what the handler says changed.
 */
#ifndef SECTEAM_TUI_INT_H
#define SECTEAM_TUI_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <wchar.h>

#include "tui/ncurses.h"

#include "tui/tui.h"

enum tui_view_id {
	V_REPORTS,
	V_REPORT,
	V_PARTICIPANTS,
	V_VENDORS,
	V_DISCLOSURE,
	V_TIMELINE,
	V_CALENDAR,
	V_HELP,
	V_PAGER,
	V_STATS,
	V_COUNT
};
#define VBIT(v) (1u << (v))
#define V_ALL ((1u << V_COUNT) - 1)
/* Views that show one report (the open report's id is %i there). */
#define V_ONE_REPORT                                               \
	(VBIT(V_REPORT) | VBIT(V_PARTICIPANTS) | VBIT(V_VENDORS) | \
	 VBIT(V_DISCLOSURE) | VBIT(V_TIMELINE))

/* What a handler asks the main loop to do afterwards (htop's Action.h). */
enum {
	TUI_OK = 0, /* nothing to redraw but the status line */
	TUI_REDRAW = 1 << 0, /* redraw the current view */
	TUI_RELOAD = 1 << 1, /* data changed: every view reloads, then redraw */
	TUI_QUIT = 1 << 2,
};

enum tui_motion {
	M_DOWN,
	M_UP,
	M_PGDN,
	M_PGUP,
	M_TOP,
	M_BOTTOM,
	M_HALFDN,
	M_HALFUP
};

struct tui;
struct tui_view;
struct tui_lines;

struct tui_view_ops {
	const char *name; /* in bind lines and the help screen */
	void (*draw)(struct tui *t, struct tui_view *v);
	/* Pager views (v->lines set) give height, the rows their text has
	 * on screen; keys.c moves and searches the text.  The others give
	 * motion and search. */
	int (*height)(void);
	int (*motion)(struct tui *t, struct tui_view *v, enum tui_motion m);
	/* Enter; may push a view. */
	int (*open)(struct tui *t, struct tui_view *v);
	/* Find needle (already set in t->search) forward (dir 1) or back. */
	int (*search)(struct tui *t, struct tui_view *v, int dir, bool fresh);
	/* The data changed on disk: reread it, keeping the place. */
	void (*reload)(struct tui *t, struct tui_view *v);
	/* Release everything (plaintext wiped). */
	void (*close)(struct tui *t, struct tui_view *v);
	/* The report this view is about, or 0. */
	int64_t (*current)(struct tui *t, struct tui_view *v);
	/* Colleagues changed these reports (0: something team-wide): update
	 * what the view holds of them, keeping the place.  NULL: the view
	 * reloads when it shows one of them. */
	void (*changed)(struct tui *t, struct tui_view *v, const int64_t *ids,
			size_t n);
};

struct tui_view {
	enum tui_view_id id;
	const struct tui_view_ops *ops;
	int64_t report_id; /* for one-report views */
	unsigned gen; /* t->gen when last loaded */
	void *priv;
	struct tui_lines *lines; /* a pager view's text (in priv), or NULL */
};

/* One row of the key table: an action. */
struct tui_key_entry {
	const char *name; /* the UI verb, e.g. "page-down" */
	const char *keys; /* default keys, space-separated names */
	unsigned views; /* VBIT mask where the keys apply */
	const char *help;
	/* Internal handler (args: the rest of the line, "" when none), or
	 * NULL when `command` is a core command template. */
	int (*handler)(struct tui *t, const char *args);
	const char *command; /* a command line (core verb or "prompt ..."):
			       * the current report is passed as a value */
	const char *confirm; /* question asked first (a printf format with
			       * one %lld: the report), or NULL */
};
extern const struct tui_key_entry tui_key_table[];
extern const size_t tui_key_table_len;

/* The report list's signature marks, one per verdict (view-reports.c):
 * the list draws them, the help screen and the man page explain them. */
struct tui_verdict_mark {
	enum sig_verdict verdict;
	const char *utf8, *ascii; /* the mark on a UTF-8 terminal, else */
	const char *meaning; /* "the key has expired", for the legend */
};
extern const struct tui_verdict_mark tui_verdict_marks[];
extern const size_t tui_verdict_marks_len;

/* A user binding from the config (bind VIEW KEY COMMAND). */
struct tui_bind {
	unsigned views;
	int key;
	char *command;
};

#define TUI_MAX_STACK 16
#define TUI_HISTORY 100

struct tui_history {
	char *line[TUI_HISTORY];
	size_t n;
};

struct tui {
	struct cmd_ctx *ctx;
	struct tui_view *stack[TUI_MAX_STACK];
	size_t depth;
	unsigned gen; /* bumped when data changes */
	bool color, utf8;
	char *status; /* already safe for display, or NULL */
	bool status_error;
	bool status_asks; /* a y/N question: its keys always shown */
	int reconnect_ms; /* the team server is away: the wait before
			       * the next try (0: not away) */
	char *shut_out; /* the server refuses this officer now (removed
			       * from the team): why, said after the UI ends */
	char *search; /* the last search needle (typed by the officer) */
	struct tui_history cmd_hist, search_hist;
	struct tui_bind *binds;
	size_t nbinds;
	FILE *trace;
	bool quit;
	int64_t live_cursor; /* the last event seen (report_changes) */
	long long live_at; /* when changes were last looked for (ms,
			       * CLOCK_MONOTONIC) */
	bool live_due; /* the server told of changes not looked for
			       * yet (held back: LIVE_MIN_MS) */
	int last_key; /* the key being handled */
};

/* Key codes: characters as their code point, curses keys offset. */
#define TUI_KEY_FN(k) (0x200000 + (k))
/* Not keys: nothing typed (yet), and a colleague's change applied. */
#define TUI_KEY_NONE (-2)
#define TUI_KEY_LIVE (0x300000)

/* tui.c */
/* With SECTEAM_TUI_TRACE=FILE, appends "WHAT NANOSECONDS" to it. */
void tui_trace_mark(struct tui *t, const char *what);
void tui_status(struct tui *t, bool error, const char *fmt, ...)
	UTIL_PRINTF(3, 4);
void tui_status_clear(struct tui *t);
struct tui_view *tui_top(struct tui *t);
void tui_push(struct tui *t, struct tui_view *v);
/* Runs a command string (a `:` line or a binding) in view v. */
int tui_run_line(struct tui *t, const char *line);
/* Runs command argv on the current report through the runner, as a key
 * does, its result on the status line (no pager: a panel's action);
 * *status (may be NULL) is its CMD_* status.  Returns the flags. */
int tui_run_argv(struct tui *t, int argc, char **argv, int *status);
/* The `:` line, begun with init for the officer to edit, then run as
 * typed (nothing when cancelled).  Returns the flags to act on. */
int tui_prompt_run(struct tui *t, const char *init);
/* The same, its label naming the current report ("#7:") when
 * name_report: a key's prompt for a command that runs on it. */
int tui_prompt_run_on(struct tui *t, const char *init, bool name_report);
/* The report the current view is about, or 0. */
int64_t tui_current_report(struct tui *t);
/* Shows text (display-safe) in the status line at once, while a long
 * action runs (a search opening bodies). */
void tui_show_progress(struct tui *t, const char *text);
/* Asks a y/n question in the status line; true for y. */
bool tui_confirm(struct tui *t, const char *question);
/* Draws the title bar (our own text) and a view's frame. */
void tui_title(struct tui *t, const char *fmt, ...) UTIL_PRINTF(2, 3);
/* Reads one key (a code as above), handling resize. */
int tui_getkey(struct tui *t);
/* Leaves curses for an external program and comes back. */
void tui_suspend(void);
void tui_resume(void);

/* draw.c: the only way text reaches the screen. */
enum {
	CP_DEFAULT,
	CP_RED,
	CP_YELLOW,
	CP_GREEN,
	CP_CYAN,
	CP_MAGENTA,
	CP_ERROR,
	CP_BAR_OK,
	CP_BAR_WARN,
	CP_BAR_BAD
};
void draw_init_colors(struct tui *t);
attr_t draw_color(struct tui *t, int pair);
/* Draws text that is already safe (our own, or from safe_text()) at y, x,
 * at most w columns, wide characters counted; returns columns used. */
int draw_text(int y, int x, int w, const char *safe, attr_t a);
/* draw_text for text cut by design (a list row's subject, a calendar
 * row): its cuts are not logged. */
int draw_text_clip(int y, int x, int w, const char *safe, attr_t a);
/* From now on draw_text writes "cut ROW: TEXT" to f (NULL: nowhere)
 * whenever it leaves out more than white space (the trace, for tests). */
void draw_log_cuts(FILE *f);
/* Makes raw untrusted text safe with safe_str() and draws it, cut at w
 * by design (a subject in its column: its cuts are not logged). */
int draw_untrusted(int y, int x, int w, const char *raw, attr_t a);
/* Display width of safe UTF-8 text. */
int text_width(const char *s);
/* Fills columns x..x+w-1 of line y with spaces in attribute a. */
void draw_fill(int y, int x, int w, attr_t a);

/* keys.c */
const struct tui_key_entry *keys_find_verb(const char *name);
/* The first row of the table binding key in view (config binds aside),
 * or NULL: rows listed earlier win. */
const struct tui_key_entry *keys_table_row(enum tui_view_id view, int key);
/* The command for key in view, from the config's binds or the table;
 * NULL when unbound.  *entry is the table row when it came from there. */
const char *keys_lookup(struct tui *t, enum tui_view_id view, int key,
			const struct tui_key_entry **entry);
int keys_parse_binds(struct tui *t);
void keys_free_binds(struct tui *t);
/* "j", "Enter", "C-l", "PgDn" ... for key (static buffer). */
const char *keys_name(int key);
int keys_from_name(const char *name);
/* View by name ("reports", "report", ... "all" gives -1). */
int keys_view_from_name(const char *name);
const char *keys_view_name(enum tui_view_id v);

/* prompt.c: the `:` and `/` lines.  Returns the typed line (caller
 * frees) or NULL when cancelled. */
char *prompt_read(struct tui *t, const char *prefix, const char *initial,
		  struct tui_history *h, bool complete_verbs);
void history_free(struct tui_history *h);

/* editor.c: the session's confirm and edit callbacks (cmd_ctx) answered
 * by the UI while it runs: its status line's y/N question, and
 * $VISUAL/$EDITOR with curses suspended.  Detached when the UI ends. */
void editor_attach(struct tui *t);
void editor_detach(struct tui *t);

/* One constructor per view file. */
/* A new view of kind id on ops with its state priv (report_id 0: none). */
struct tui_view *tui_view_alloc(enum tui_view_id id,
				const struct tui_view_ops *ops, void *priv,
				int64_t report_id);
/* The same for a pager view: its text is lines, inside priv. */
struct tui_view *tui_pager_alloc(enum tui_view_id id,
				 const struct tui_view_ops *ops, void *priv,
				 int64_t report_id, struct tui_lines *lines);
struct tui_view *view_reports_new(struct tui *t);
struct tui_view *view_report_new(struct tui *t, int64_t id);
struct tui_view *view_timeline_new(struct tui *t, int64_t id);

struct tui_view *view_calendar_new(struct tui *t);
struct tui_view *view_stats_new(struct tui *t);
struct tui_view *view_help_new(struct tui *t, enum tui_view_id for_view);
struct tui_view *view_participants_new(struct tui *t, int64_t id);
struct tui_view *view_vendors_new(struct tui *t, int64_t id);
struct tui_view *view_disclosure_new(struct tui *t, int64_t id);
/* The output of a command (text of len bytes, untrusted), wiped on
 * close; title is display-safe. */
struct tui_view *view_pager_new(struct tui *t, const char *title,
				const char *text, size_t len);

/* The report after (dir 1) or before (dir -1) report from in the list
 * view v's order, now selected there; 0 when there is none. */
int64_t reports_step(struct tui *t, struct tui_view *v, int64_t from, int dir);
/* Handlers of the list view, used by the key table. */
int reports_cycle_sort(struct tui *t, const char *args);
int reports_set_filter(struct tui *t, const char *args);
/* :search QUERY: the list shows only the reports matching it
 * (core/search.h, bodies opened with the progress in the status line);
 * an empty query clears it. */
int reports_set_search(struct tui *t, const char *query);
/* Handlers of the panels (view-participants.c, view-vendors.c): they act
 * on the item under the cursor of the panel on top, through core's use
 * cases, with values. */
int panel_toggle(struct tui *t, const char *args);
int panel_bring_in(struct tui *t, const char *args);
int panel_remove(struct tui *t, const char *args);
int panel_ack(struct tui *t, const char *args);
int vendors_notify(struct tui *t, const char *args);
int vendors_update(struct tui *t, const char *args);
int vendors_nda(struct tui *t, const char *args);

/* Who wrote a line, which its gutter shows (the text cannot draw it). */
enum line_kind {
	LINE_BODY, /* untrusted text */
	LINE_OURS, /* the program's own */
	LINE_UNSIGNED, /* untrusted text the signature does not cover */
};

/* A scrollable list of lines, shared by the pager-like views. */
struct tui_lines {
	char **line; /* safe UTF-8, no newline */
	attr_t *attr; /* per line; body lines A_NORMAL */
	unsigned char *kind; /* enum line_kind */
	size_t *src; /* logical line each display line comes from */
	size_t n, alloc;
	size_t top; /* first shown */
	long hl; /* highlighted line (search), -1 none */
	size_t nsrc; /* logical lines added so far */
	bool wipe; /* lines hold plaintext: wipe on release */
};
void lines_add(struct tui_lines *l, const char *safe, attr_t a, int kind);
/* lines_add, wrapped at width between words (a word longer than a row
 * in rows of its own), each row after the first indent columns in:
 * nothing past the edge.  Fits in one row (or width 0, no screen):
 * lines_add. */
void lines_add_hanging(struct tui_lines *l, const char *safe, int width,
		       int indent, attr_t a, int kind);
void lines_release(struct tui_lines *l);
/* view-timeline.c: rf's events, newest first, as table lines added to
 * lines, and *head the header row in the same column widths (caller
 * frees); for tests. */
void timeline_table(const struct report_full *rf, struct tui_lines *lines,
		    char **head);
/* Splits safe text (newlines, tabs expanded) into wrapped lines of at
 * most width columns; each of its lines is one logical line. */
void lines_add_wrapped(struct tui_lines *l, const char *safe, int width,
		       attr_t a, int kind);
int lines_move(struct tui_lines *l, int height, enum tui_motion m);
int lines_search(struct tui_lines *l, const char *needle, int dir, bool fresh);
void lines_draw(struct tui *t, struct tui_lines *l, int y0, int height,
		int gutter);
/* The display line where logical line src starts. */
size_t lines_find_src(const struct tui_lines *l, size_t src);

#endif
