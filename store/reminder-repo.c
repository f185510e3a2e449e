/*
 * Reminders (due --mail): when each recipient was last reminded about
 * each report, so a cron job run every hour sends nothing new.
 */
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"

static void read_time(struct stmt *st, void *elem)
{
	*(time_t *)elem = (time_t)db_col_int(st, 0);
}

int store_reminder_last(struct store *s, int64_t report_id,
			const char *recipient, const char *kind, time_t *at,
			struct err *err)
{
	struct stmt *st = db_stmt(
		s,
		"SELECT sent_at FROM reminders"
		" WHERE report_id = ?1 AND recipient = ?2 AND kind = ?3",
		err);
	int r;

	*at = 0;
	if (!st)
		return ERR_IO;
	db_int(st, 1, report_id);
	db_text(st, 2, recipient);
	db_text(st, 3, kind);
	r = db_row(s, st, at, read_time, "cannot read the reminders", err);
	return r == ERR_NOTFOUND ? 0 : r;
}

int store_reminder_record(struct store *s, int64_t report_id,
			  const char *recipient, const char *kind, time_t at,
			  struct err *err)
{
	static const char lite[] =
		"INSERT INTO reminders (report_id, recipient, kind, sent_at)"
		" VALUES (?1, ?2, ?3, ?4)"
		" ON CONFLICT (report_id, recipient, kind)"
		" DO UPDATE SET sent_at = excluded.sent_at";
	static const char pg[] = "SELECT secteam.reminded(?1, ?2, ?3, ?4)";
	struct stmt *st = db_stmt(s, db_write_sql(s, lite, pg), err);

	if (!st)
		return ERR_IO;
	db_int(st, 1, report_id);
	db_text(st, 2, recipient);
	db_text(st, 3, kind);
	db_int(st, 4, (int64_t)at);
	return db_write(s, st, NULL, "cannot record the reminder", err);
}
