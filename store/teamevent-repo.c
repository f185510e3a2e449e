/*
 * The team chain as the server keeps it (store.h): signed events,
 * appended and read in the server's order, never changed.  What they say
 * is core's to verify (core/teamchain.c); here they are bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"
#include "store/db.h"

void team_event_row_release(struct team_event_row *r)
{
	free(r->body);
	free(r->sig);
	memset(r, 0, sizeof(*r));
}

static void read_row(struct stmt *st, void *elem)
{
	struct team_event_row *r = elem;

	r->seq = db_col_int(st, 0);
	r->body = db_col_bytes(st, 1, &r->len);
	r->sig = db_col_bytes(st, 2, &r->siglen);
}

static void release_row(void *elem)
{
	team_event_row_release(elem);
}

int store_team_events(struct store *s, int64_t after,
		      struct team_event_row **out, size_t *n, struct err *err)
{
	struct stmt *st =
		db_stmt(s,
			"SELECT seq, body, sig FROM team_events WHERE seq > ?1"
			" ORDER BY seq",
			err);

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	db_int(st, 1, after);
	return db_rows(s, st, (void **)out, n, sizeof(**out), read_row,
		       release_row, "cannot read the team chain", err);
}

int store_team_event_add(struct store *s, const unsigned char *body, size_t len,
			 const unsigned char *sig, size_t siglen,
			 struct err *err)
{
	struct stmt *st = db_stmt(
		s, "INSERT INTO team_events (body, sig) VALUES (?1, ?2)", err);

	if (!st)
		return ERR_IO;
	db_blob(st, 1, body, len);
	db_blob(st, 2, sig, siglen);
	return db_run(s, st, NULL, "cannot append to the team chain", NULL,
		      err);
}

static void read_count(struct stmt *st, void *elem)
{
	*(int64_t *)elem = db_col_int(st, 0);
}

int store_events_count(struct store *s, int64_t *n, struct err *err)
{
	struct stmt *st = db_stmt(s, "SELECT count(*) FROM events", err);
	int64_t *v = NULL;
	size_t k = 0;
	int r;

	*n = 0;
	if (!st)
		return ERR_IO;
	r = db_rows(s, st, (void **)&v, &k, sizeof(*v), read_count, NULL,
		    "cannot count the events", err);
	if (r == 0 && k)
		*n = v[0];
	free(v);
	return r;
}
