/*
 * Long text (notes, replies) in the officer's own editor: util's
 * edit_text, with curses suspended while the editor runs and the screen
 * restored afterwards.
 */
#include "tui/tui-int.h"

static void around(bool before)
{
	if (before)
		tui_suspend();
	else
		tui_resume();
}

char *editor_edit(struct tui *t, const char *initial)
{
	struct err err = { 0, "" };
	char *text = NULL;

	if (edit_text("note", initial, around, &text, &err) < 0) {
		tui_status(t, true, "nothing recorded: %s", err.msg);
		return NULL;
	}
	return text;
}
