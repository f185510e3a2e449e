/*
 * tui: the officers' interactive screen (ncursesw), on top of core/ only.
 * Files:
 *   tui.c            start-up, the main loop, the view stack, command strings
 *   tui-int.h        what the tui/ files share (views, key table row, drawing)
 *   keys.c           the key table, key names, config bind lines
 *   draw.c           the only path from text to the screen (wide characters)
 *   lines.c          the scrolling, wrapping, searching pager the views share
 *   prompt.c         the `:` and `/` lines: history, completion of verbs
 *   editor.c         $VISUAL/$EDITOR on a private temporary file
 *   view-reports.c   the report list (start screen)
 *   view-report.c    one report: headers, trusted status bar, body pager
 *   view-timeline.c  a report's events, newest first
 *   view-calendar.c  every open embargo on a day axis
 *   view-panels.c    participants, vendors and disclosure panels
 *   view-help.c      help generated from the key table
 */
#ifndef SECTEAM_TUI_H
#define SECTEAM_TUI_H

#include <stdio.h>

#include "cmd/cmd.h"
#include "core/core.h"

/* Runs the UI until the officer quits; returns an exit code (CMD_FAILED
 * with a message on stderr when the database cannot be opened). */
int tui_main(struct cmd_ctx *ctx);
/* Writes the key table as man page (roff) paragraphs, for secteam-tui.1. */
void tui_keys_roff(FILE *out);
/* Writes the list's signature marks and their meanings as roff. */
void tui_marks_roff(FILE *out);

#endif
