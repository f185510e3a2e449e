/*
 * The UI's answers to a command that asks or edits (cmd_ctx's confirm
 * and edit callbacks): the question on the status line (tui_confirm),
 * and util's edit_text with curses suspended while the editor runs and
 * the screen restored afterwards.
 */
#include <stdlib.h>

#include "tui/tui-int.h"

static void around(bool before)
{
	if (before)
		tui_suspend();
	else
		tui_resume();
}

static int ui_confirm(const char *question, void *data)
{
	char *safe = safe_str(question);
	bool yes = tui_confirm(data, safe);

	free(safe);
	return yes;
}

static int ui_edit(const char *name, const char *initial, char **text,
		   struct err *err, void *data)
{
	(void)data;
	return edit_text(name, initial, around, text, err);
}

void editor_attach(struct tui *t)
{
	t->ctx->confirm = ui_confirm;
	t->ctx->edit = ui_edit;
	t->ctx->ask_data = t;
}

void editor_detach(struct tui *t)
{
	t->ctx->confirm = NULL;
	t->ctx->edit = NULL;
	t->ctx->ask_data = NULL;
}
