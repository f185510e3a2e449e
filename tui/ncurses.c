/*
 * Loading ncurses (tui/ncurses.h): the one file that sees the table's
 * slots rather than the redefined names.
 */
#include <pthread.h>

#define TUI_CURSES_LOADER
#include "tui/ncurses.h"
#include "util/util.h"

static struct tui_curses table;

static void load(void)
{
	static void *lib;
#define TUI_CURSES_NAME(f) #f,
#define TUI_CURSES_SLOT(f) (void **)&table.f,
	static const char *const names[] = { TUI_CURSES_FNS(TUI_CURSES_NAME) };
	void **const slots[] = { TUI_CURSES_FNS(TUI_CURSES_SLOT) };
#undef TUI_CURSES_NAME
#undef TUI_CURSES_SLOT
	struct err err = { 0, "" };

	if (dl_load(&lib, TUI_CURSES_SONAME, "the interface", "ncursesw 6",
		    names, slots, ARRAY_SIZE(names), &err))
		die("%s", err.msg);
}

const struct tui_curses *tui_curses(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, load);
	return &table;
}
