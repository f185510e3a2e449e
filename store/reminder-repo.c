/*
 * Reminders (due --mail): when each recipient was last reminded about
 * each report, so a cron job run every hour sends nothing new.
 */
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"

/*
 * Who was reminded names a participant: the recipient is stored as its
 * keyed hash (store_keyed, "recipient": under the newest team key
 * generation, so a removed officer cannot test addresses against it),
 * and looked up under each generation in turn, and clear as stored
 * before keyed recipients.  Without a sealer it is stored as given.
 */
static void read_time(struct stmt *st, void *elem)
{
	*(time_t *)elem = (time_t)db_col_int(st, 0);
}

int store_reminder_last(struct store *s, int64_t report_id,
			const char *recipient, const char *kind, time_t *at,
			struct err *err)
{
	bool failed = false;
	char *key;
	int r = 0;

	*at = 0;
	for (unsigned back = 0; r == 0; back++) {
		struct stmt *st;
		time_t t = 0;

		key = back
			? store_keyed_older(s, "recipient", recipient, back,
					    &failed, err)
			: store_keyed(s, "recipient", recipient, &failed, err);
		if (!key)
			return failed ? ERR_CRYPTO : 0;
		if (!(st = db_stmt(
			      s,
			      "SELECT coalesce(max(sent_at), 0) FROM reminders"
			      " WHERE report_id = ?1 AND kind = ?3"
			      " AND (recipient = ?2 OR recipient = ?4)",
			      err))) {
			free(key);
			return ERR_IO;
		}
		db_int(st, 1, report_id);
		db_text(st, 2, key);
		db_text(st, 3, kind);
		db_text(st, 4, back ? NULL : recipient);
		r = db_row(s, st, &t, read_time, "cannot read the reminders",
			   err);
		free(key);
		if (r == 0 && t > *at)
			*at = t;
		if (!s->sealer)
			break;
	}
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
	bool failed;
	char *key = store_keyed(s, "recipient", recipient, &failed, err);
	struct stmt *st;
	int r;

	if (!key)
		return failed ? ERR_CRYPTO
			      : err_setc(err, ERR_INVALID,
					 "a reminder names no recipient");
	if (!(st = db_stmt(s, db_write_sql(s, lite, pg), err))) {
		free(key);
		return ERR_IO;
	}
	db_int(st, 1, report_id);
	db_text(st, 2, key);
	db_text(st, 3, kind);
	db_int(st, 4, (int64_t)at);
	r = db_write(s, st, NULL, "cannot record the reminder", err);
	free(key);
	return r;
}
