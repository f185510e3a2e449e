/*
 * ncurses, loaded when the interface starts (dlopen, util/dl.c), not by
 * every command: only the interactive mode draws.
 *
 * Private to tui/: tui-int.h includes this header instead of <curses.h>,
 * and the code keeps ncurses' own names, each function and variable it
 * uses (directly or through curses.h's macros: move() is wmove(stdscr,
 * ...)) redefined below to go through the loaded table, as mail/gmime.h
 * does for GMime: a function as a function-like macro (a variable or
 * parameter named raw or nl stays itself), a variable (LINES, stdscr) as
 * the loaded one.  A name not listed is a link error, since the program
 * does not link ncurses.  A program that does (the unit tests) reaches
 * ncurses' variables only through this header: one it named itself
 * would be its own copy (a copy relocation), which ncurses then uses
 * instead of the one the table holds.  The first use loads it; a program that cannot
 * dies with a line naming the library (before newterm: the terminal is
 * as it was).
 */
#ifndef SECTEAM_TUI_NCURSES_H
#define SECTEAM_TUI_NCURSES_H

#include <ncursesw/curses.h>

#define TUI_CURSES_SONAME "libncursesw.so.6"

/* clang-format off */
#define TUI_CURSES_FNS(X) \
	X(clearok) \
	X(curs_set) \
	X(def_prog_mode) \
	X(endwin) \
	X(has_colors) \
	X(init_pair) \
	X(keypad) \
	X(newterm) \
	X(nodelay) \
	X(noecho) \
	X(nonl) \
	X(raw) \
	X(reset_prog_mode) \
	X(set_escdelay) \
	X(start_color) \
	X(use_default_colors) \
	X(waddch) \
	X(waddnwstr) \
	X(wattrset) \
	X(wclrtoeol) \
	X(werase) \
	X(wget_wch) \
	X(wmove) \
	X(wrefresh) \
	X(COLS) \
	X(curscr) \
	X(LINES) \
	X(stdscr)
/* clang-format on */

struct tui_curses {
#define TUI_CURSES_FIELD(f) __typeof__(f) *f;
	TUI_CURSES_FNS(TUI_CURSES_FIELD)
#undef TUI_CURSES_FIELD
};

/* The table, loaded on the first call. */
const struct tui_curses *tui_curses(void);

#ifndef TUI_CURSES_LOADER
/* clang-format off */
#define clearok(...) (*tui_curses()->clearok)(__VA_ARGS__)
#define curs_set(...) (*tui_curses()->curs_set)(__VA_ARGS__)
#define def_prog_mode(...) (*tui_curses()->def_prog_mode)(__VA_ARGS__)
#define endwin(...) (*tui_curses()->endwin)(__VA_ARGS__)
#define has_colors(...) (*tui_curses()->has_colors)(__VA_ARGS__)
#define init_pair(...) (*tui_curses()->init_pair)(__VA_ARGS__)
#define keypad(...) (*tui_curses()->keypad)(__VA_ARGS__)
#define newterm(...) (*tui_curses()->newterm)(__VA_ARGS__)
#define nodelay(...) (*tui_curses()->nodelay)(__VA_ARGS__)
#define noecho(...) (*tui_curses()->noecho)(__VA_ARGS__)
#define nonl(...) (*tui_curses()->nonl)(__VA_ARGS__)
#define raw(...) (*tui_curses()->raw)(__VA_ARGS__)
#define reset_prog_mode(...) (*tui_curses()->reset_prog_mode)(__VA_ARGS__)
#define set_escdelay(...) (*tui_curses()->set_escdelay)(__VA_ARGS__)
#define start_color(...) (*tui_curses()->start_color)(__VA_ARGS__)
#define use_default_colors(...) (*tui_curses()->use_default_colors)(__VA_ARGS__)
#define waddch(...) (*tui_curses()->waddch)(__VA_ARGS__)
#define waddnwstr(...) (*tui_curses()->waddnwstr)(__VA_ARGS__)
#define wattrset(...) (*tui_curses()->wattrset)(__VA_ARGS__)
#define wclrtoeol(...) (*tui_curses()->wclrtoeol)(__VA_ARGS__)
#define werase(...) (*tui_curses()->werase)(__VA_ARGS__)
#define wget_wch(...) (*tui_curses()->wget_wch)(__VA_ARGS__)
#define wmove(...) (*tui_curses()->wmove)(__VA_ARGS__)
#define wrefresh(...) (*tui_curses()->wrefresh)(__VA_ARGS__)
#define COLS (*tui_curses()->COLS)
#define curscr (*tui_curses()->curscr)
#define LINES (*tui_curses()->LINES)
#define stdscr (*tui_curses()->stdscr)
/* clang-format on */
#endif

#endif
