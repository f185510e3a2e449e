/*
 * Participants: the people (area maintainers, reviewers, others) an
 * officer brought into a report.  A row is never deleted: removing
 * someone stamps removed_at/removed_by, so the record of who knew about
 * an embargoed report survives.  At most one active row per (report,
 * address) is enforced by the partial unique index of schema.c;
 * addresses are stored lowercase.  key_fpr is the key the officer
 * confirmed for that person (`maintainers ID --add ADDR --key FPR`).
 * The key, the acknowledgement and the removal are applied by the schema
 * from the events that record them (store_event_add_ref), never written
 * here.
 * (`due`'s query for participants who have not acknowledged lives in
 * party-repo.c.)
 *
 * Sealed: who a participant is names the embargo's area.  The
 * address is stored as its keyed hash (store_keyed, "address"), which
 * the unique index and every lookup use; the name, the address and the
 * MAINTAINERS section are sealed together in the name column, under the
 * report and that keyed address, so that they open for no other row.  A
 * row stored before sealing keeps its clear values, and is found by them.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store-int.h"

/* addr lowercased (a new string) */
static char *lower_addr(const char *addr)
{
	char *l = xstrdup(addr);

	for (char *c = l; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	return l;
}

/* The address as stored: keyed (or, with no sealer, lowercase). */
static char *addr_key(struct store *s, const char *email, bool *failed,
		      struct err *err)
{
	char *l = lower_addr(email),
	     *k = store_keyed(s, "address", l, failed, err);

	free(l);
	return k;
}

static void who_column(char *buf, size_t n, const char *key)
{
	snprintf(buf, n, "who:%s", key);
}

/* Whether rows stored before sealing (a clear address) remain: lookups
 * then try the clear address too.  Asked once per store. */
static bool clear_addresses(struct store *s)
{
	static const char q[] =
		"SELECT count(*) FROM (SELECT 1 FROM participants"
		" WHERE email NOT LIKE 'k1:%' LIMIT 1) x";
	struct stmt *st;

	if (!s->sealer)
		return true;
	if (s->clear_addrs < 0 && (st = db_stmt(s, q, NULL)))
		s->clear_addrs = db_count(st) != 0;
	return s->clear_addrs != 0;
}

/* "+name\n+address\n+section" ("-" for none), as sealed in name. */
static char *who_text(const char *name, const char *email, const char *section)
{
	return xasprintf("%s%s\n+%s\n%s%s", name && *name ? "+" : "-",
			 name ? name : "", email,
			 section && *section ? "+" : "-",
			 section ? section : "");
}

/* A row's sealed name column opened into name, email and section. */
static void open_who(struct store *s, int64_t report_id, char **name,
		     char **email, char **section)
{
	char col[96], *t = *name, *nl1, *nl2;

	if (!t || !str_starts(t, STORE_SEALED_PREFIX) || !*email)
		return;
	who_column(col, sizeof(col), *email);
	store_open_field(s, "participants", col, report_id, &t);
	*name = NULL;
	if (str_starts(t, STORE_UNOPENED) || !(nl1 = strchr(t, '\n')) ||
	    !(nl2 = strchr(nl1 + 1, '\n'))) {
		free(*email);
		*email = t; /* says why it does not open, never another's */
		return;
	}
	if (t[0] == '+')
		*name = xstrndup(t + 1, (size_t)(nl1 - t - 1));
	free(*email);
	*email = xstrndup(nl1 + 2, (size_t)(nl2 - nl1 - 2));
	if (section) {
		free(*section);
		*section = nl2[1] == '+' ? xstrdup(nl2 + 2) : NULL;
	}
	free(t);
}

#define PARTICIPANT_COLS                                              \
	"SELECT id, report_id, name, email, role, section, added_by," \
	" added_at, coalesce(removed_at, 0), removed_by,"             \
	" coalesce(acknowledged_at, 0), key_fpr FROM participants "

void participant_release(struct participant *p)
{
	free(p->name);
	free(p->email);
	free(p->role);
	free(p->section);
	free(p->added_by);
	free(p->removed_by);
	free(p->key_fpr);
	memset(p, 0, sizeof(*p));
}

void participants_free(struct participant *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		participant_release(&v[i]);
	free(v);
}

static void read_participant(struct stmt *st, void *elem)
{
	struct participant *p = elem;

	memset(p, 0, sizeof(*p));
	p->id = db_col_int(st, 0);
	p->report_id = db_col_int(st, 1);
	p->name = db_col_str(st, 2);
	p->email = db_col_str(st, 3);
	p->role = db_col_str(st, 4);
	p->section = db_col_str(st, 5);
	p->added_by = db_col_str(st, 6);
	p->added_at = (time_t)db_col_int(st, 7);
	p->removed_at = (time_t)db_col_int(st, 8);
	p->removed_by = db_col_str(st, 9);
	p->acknowledged_at = (time_t)db_col_int(st, 10);
	p->key_fpr = db_col_str(st, 11);
}

static void release_participant(void *elem)
{
	participant_release(elem);
}

static int not_participant(struct err *err, const char *email,
			   int64_t report_id)
{
	return err_setc(err, ERR_NOTFOUND,
			"'%s' is not a participant of report %lld", email,
			(long long)report_id);
}

/* The WHERE of a current participant: ?2 the address's keyed form,
 * CLEAR (the statement's last parameter: PostgreSQL wants no gap) the
 * clear one while rows from before sealing remain. */
#define WHERE_CURRENT(clear)                                                 \
	" WHERE report_id = ?1 AND (email = ?2 OR email = lower(" clear "))" \
	" AND removed_at IS NULL"

/* A statement about the current participant email of report_id: sql
 * (ending in WHERE_CURRENT with parameter clear), its ?1, ?2 and clear
 * bound; the caller binds the rest.  The keyed address and whether clear
 * rows remain are had before the statement: either may read the store,
 * and a failure there then leaves no statement half bound. */
static struct stmt *current_stmt(struct store *s, const char *sql,
				 int64_t report_id, const char *email,
				 int clear, unsigned back, int *rc,
				 struct err *err)
{
	bool failed;
	char *key, *l;
	bool by_clear = !back && s->sealer && clear_addresses(s);
	struct stmt *st;

	*rc = 0;
	if (back) {
		/* As a generation before the newest keyed it (a row stored
		 * before a rotation); ERR_NOTFOUND past the oldest. */
		l = lower_addr(email);
		key = store_keyed_older(s, "address", l, back, &failed, err);
		free(l);
		if (!key) {
			*rc = failed ? ERR_CRYPTO : ERR_NOTFOUND;
			return NULL;
		}
	} else if (!(key = addr_key(s, email, &failed, err))) {
		*rc = ERR_CRYPTO;
		return NULL;
	}
	if (!(st = db_stmt(s, sql, err))) {
		free(key);
		*rc = ERR_IO;
		return NULL;
	}
	db_int(st, 1, report_id);
	db_text(st, 2, key);
	db_text(st, clear, by_clear ? email : NULL);
	free(key); /* bound: the engine keeps its copy */
	return st;
}

int store_participant_add(struct store *s, const struct participant *p,
			  int64_t *id, struct err *err)
{
	struct stmt *st;
	int64_t got = 0;
	char col[96], *key, *who = NULL, *text, *l;
	bool failed = false;
	int r;

	if (!p->email || !*p->email)
		return err_setc(
			err, ERR_INVALID,
			"cannot add a participant to report %lld: no address",
			(long long)p->report_id);
	if (s->sealer) {
		/* The unique index sees one generation's keyed address: one
		 * brought in before a rotation is found by the lookup. */
		struct participant old;
		struct err e = { 0, "" };

		r = store_participant_get(s, p->report_id, p->email, &old, &e);
		if (r == 0) {
			participant_release(&old);
			return err_setc(
				err, ERR_DUPLICATE,
				"'%s' is already a participant of report %lld",
				p->email, (long long)p->report_id);
		}
		if (r != ERR_NOTFOUND) {
			*err = e;
			return r;
		}
	}
	if (!(key = addr_key(s, p->email, &failed, err)))
		return ERR_CRYPTO;
	if (s->sealer) {
		l = lower_addr(p->email);
		text = who_text(p->name, l, p->section);
		who_column(col, sizeof(col), key);
		who = store_seal_field(s, "participants", col, p->report_id,
				       text, &failed, err);
		wipe_free(text, strlen(text));
		free(l);
		if (failed) {
			free(key);
			return ERR_CRYPTO;
		}
	}
	if (!(st = db_stmt(
		      s,
		      "INSERT INTO participants (report_id, name, email, role,"
		      "  section, added_by, added_at) VALUES (?1,"
		      "  nullif(?2, ''), lower(?3), nullif(?4, ''), nullif(?5, ''),"
		      "  ?6, ?7) ON CONFLICT DO NOTHING RETURNING id",
		      err))) {
		free(key);
		free(who);
		return ERR_IO;
	}
	db_int(st, 1, p->report_id);
	db_text(st, 2, who ? who : p->name);
	db_text(st, 3, key);
	db_text(st, 4, p->role);
	db_text(st, 5, who ? NULL : p->section);
	db_text(st, 6, p->added_by ? p->added_by : "unknown");
	db_int(st, 7, (int64_t)(p->added_at ? p->added_at : util_now()));
	r = db_run(s, st, &got, "cannot store the participant", NULL, err);
	free(key);
	free(who);
	if (r < 0)
		return r;
	if (!got)
		return err_setc(err, ERR_DUPLICATE,
				"'%s' is already a participant of report %lld",
				p->email, (long long)p->report_id);
	if (id)
		*id = got;
	return 0;
}

int store_participant_get(struct store *s, int64_t report_id, const char *email,
			  struct participant *p, struct err *err)
{
	int rc;
	struct stmt *st;

	memset(p, 0, sizeof(*p));
	/* Keyed under the newest generation, else under an older one. */
	for (unsigned back = 0;; back++) {
		if (!(st = current_stmt(s, PARTICIPANT_COLS WHERE_CURRENT("?3"),
					report_id, email, 3, back, &rc, err)))
			break;
		rc = db_row(s, st, p, read_participant,
			    "cannot read the participant", err);
		if (rc != ERR_NOTFOUND || !s->sealer)
			break;
	}
	if (rc == ERR_NOTFOUND)
		return not_participant(err, email, report_id);
	if (rc == 0)
		open_who(s, p->report_id, &p->name, &p->email, &p->section);
	return rc;
}

int store_participants_get(struct store *s, int64_t report_id,
			   bool with_removed, struct participant **out,
			   size_t *n, struct err *err)
{
	struct stmt *st = db_stmt(
		s,
		PARTICIPANT_COLS
		"WHERE report_id = ?1 AND (?2 <> 0 OR removed_at IS NULL)"
		" ORDER BY added_at, id",
		err);
	int r;

	*out = NULL;
	*n = 0;
	if (!st)
		return ERR_IO;
	db_int(st, 1, report_id);
	db_int(st, 2, with_removed);
	if ((r = db_rows(s, st, (void **)out, n, sizeof(**out),
			 read_participant, release_participant,
			 "cannot read participants", err)) < 0)
		return r;
	for (size_t i = 0; i < *n; i++)
		open_who(s, (*out)[i].report_id, &(*out)[i].name,
			 &(*out)[i].email, &(*out)[i].section);
	return 0;
}

void participant_open_pending(struct store *s, struct pending_participant *p)
{
	open_who(s, p->report_id, &p->name, &p->email, NULL);
}

/* A participant stored before sealing (its address clear): the address
 * keyed and who they are sealed, as store_participant_add stores them. */
struct legacy_part {
	int64_t id;
	char *name, *email, *section;
};

static int legacy_part_row(struct stmt *st, void *data)
{
	struct legacy_part **v = data;
	size_t n = 0;

	while ((*v)[n].id)
		n++;
	*v = xrealloc(*v, (n + 2) * sizeof(**v));
	(*v)[n].id = db_col_int(st, 0);
	(*v)[n].name = db_col_str(st, 1);
	(*v)[n].email = db_col_str(st, 2);
	(*v)[n].section = db_col_str(st, 3);
	memset(&(*v)[n + 1], 0, sizeof(**v));
	return 0;
}

int store_participants_seal_legacy(struct store *s, int64_t report_id,
				   bool *changed, struct err *err)
{
	struct stmt *st;
	static const char lite[] =
		"UPDATE participants SET name = ?2, email = ?3,"
		" section = NULL WHERE id = ?1 AND email = ?4";
	static const char pg[] =
		"SELECT secteam.seal_participant(?1, ?2, ?3, ?4)";
	struct legacy_part *v = xcalloc(1, sizeof(*v));
	char col[96], *key, *text, *who;
	bool failed = false;
	int r;

	if (!s->sealer || !clear_addresses(s)) {
		free(v);
		return 0;
	}
	if (!(st = db_stmt(
		      s,
		      "SELECT id, name, email, section FROM participants"
		      " WHERE report_id = ?1 AND email NOT LIKE 'k1:%' ORDER BY id",
		      err))) {
		free(v);
		return ERR_IO;
	}
	db_int(st, 1, report_id);
	r = db_each(s, st, legacy_part_row, &v,
		    "cannot read participants to seal", err);
	for (size_t i = 0; r == 0 && v[i].id; i++) {
		if (!(key = addr_key(s, v[i].email, &failed, err))) {
			r = ERR_CRYPTO;
			break;
		}
		text = who_text(v[i].name, v[i].email, v[i].section);
		who_column(col, sizeof(col), key);
		who = store_seal_field(s, "participants", col, report_id, text,
				       &failed, err);
		wipe_free(text, strlen(text));
		if (!who) {
			free(key);
			r = ERR_CRYPTO;
			break;
		}
		if (!(st = db_stmt(s, db_write_sql(s, lite, pg), err)))
			r = ERR_IO;
		else {
			db_int(st, 1, v[i].id);
			db_text(st, 2, who);
			db_text(st, 3, key);
			db_text(st, 4, v[i].email);
			r = db_write(s, st, NULL, "cannot seal a participant",
				     err);
		}
		free(key);
		free(who);
		*changed = true;
		/* Asked again: this may have been the last clear one. */
		s->clear_addrs = -1;
	}
	for (size_t i = 0; v[i].id; i++) {
		free(v[i].name);
		free(v[i].email);
		free(v[i].section);
	}
	free(v);
	return r;
}
