/*
 * tui: the officers' interactive screen (ncursesw), on top of core/ only.
 * Files:
 *   tui.c        start-up, the main loop, the report list
 */
#ifndef SECTEAM_TUI_H
#define SECTEAM_TUI_H

#include "core/core.h"

/* Runs the UI until the officer quits; returns an exit code. */
int tui_main(struct cmd_ctx *ctx);

#endif
