/*
 * What the three panels of an open report share (internal to tui/):
 * participants, vendors and the disclosure date are each a pager of
 * lines, some of which are items (a participant, a suggested maintainer,
 * a vendor) that a cursor walks with j/k.  panel.c draws, moves, searches
 * and reloads them; each view file (view-participants.c, view-vendors.c,
 * view-disclosure.c) fills its lines and acts on its items by calling
 * core's use cases with values.
 */
#ifndef SECTEAM_TUI_PANEL_H
#define SECTEAM_TUI_PANEL_H

#include "core/suggest.h"
#include "tui/tui-int.h"

enum item_kind { IT_PART, IT_SUG, IT_VENDOR };

struct item {
	size_t line; /* display line of the item */
	enum item_kind kind;
	char *key; /* address, or vendor name (raw) */
	char *label; /* for questions (raw) */
	bool list; /* a suggestion that is a mailing list */
};

struct panel {
	struct tui_lines lines;
	void (*fill)(struct tui *t, struct tui_view *v, struct panel *p);
	const char *title;
	struct item *items;
	size_t nitems, cur;
	/* participants: the checked suggestions, by address, and what
	 * MAINTAINERS suggests (computed once) */
	char **checked;
	size_t nchecked;
	struct maint_suggestions sug;
	bool sug_loaded;
	int sug_rc;
	char sug_err[1024];
};

/* A line of text made safe (printf-style), in attribute a. */
void panel_add(struct tui_lines *l, attr_t a, const char *fmt, ...)
	UTIL_PRINTF(3, 4);
/* The next line added is an item. */
void panel_item(struct panel *p, enum item_kind kind, const char *key,
		const char *label);
/* "YYYY-MM-DD", or "-" for 0. */
const char *panel_day(time_t t, char buf[static 32]);
long panel_checked_find(const struct panel *p, const char *email);
void panel_checked_clear(struct panel *p);
/* Refills the panel, keeping the cursor on the same item. */
void panel_reload(struct tui *t, struct tui_view *v);
/* A new panel view of report id, filled by fill. */
struct tui_view *
panel_new(struct tui *t, int64_t id, enum tui_view_id vid, const char *title,
	  void (*fill)(struct tui *, struct tui_view *, struct panel *));
/* The item under the cursor when the top view is vid and the item is of
 * kind; NULL with the status line saying why. */
struct item *panel_cursor(struct tui *t, enum tui_view_id vid,
			  enum item_kind kind, const char *what);

#endif
