/*
 * store: the database, and the only place SQL exists.
 *
 * Two engines behind this one interface: SQLite, one file (default
 * $XDG_DATA_HOME/secteam/secteam.db, WAL mode), for one officer or the
 * demo; and PostgreSQL, the team server every officer reaches from their
 * own machine with their own login role.  Nothing above store/ knows
 * which one it talks to.  Bound parameters only.  Every write runs in a
 * transaction opened by the caller with store_begin(), which also takes
 * the team's write lock, and every change writes its event in that same
 * transaction, so a crash leaves either both or neither.  Report bodies
 * arrive here already encrypted (crypto/ sealed them); the store never
 * sees plaintext.  Files:
 *   store.c          open (path or server), transactions, who acts
 *   db.h, db.c       the statement interface the repositories use, and
 *                    its row helpers
 *   db-sqlite.c      the SQLite engine: file modes, pragmas, locking
 *   db-pg.c          the PostgreSQL engine (libpq), LISTEN/NOTIFY
 *   schema.h         the migrations of each engine:
 *   schema-sqlite.c  numbered on PRAGMA user_version
 *   schema-pg.c      numbered in secteam.schema_info, with the triggers
 *                    that record who did it and keep events append-only
 *   team-repo.c      the team server's officers, roles and grants
 *   report-repo.c    reports, touched files, triage fields, listing
 *   page-repo.c      compact keys for paging through every report
 *   message-repo.c   the messages of a report's thread, their signatures
 *   event-repo.c     the append-only event log, and what changed since
 *   party-repo.c     vendors and per-report vendor status
 *   participant-repo.c  people brought into a report
 *   date-repo.c      disclosure proposals and decisions
 */
#ifndef SECTEAM_STORE_H
#define SECTEAM_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "util/util.h"

#include "store/types.h"

struct store;

struct store_opts {
	const char *shared_group; /* SQLite: Unix group sharing the file */
	int busy_timeout_ms; /* 0: the default (10 s) */
	bool create; /* PostgreSQL: create the schema when the
				   * database has none (team init) */
	bool make_folder; /* SQLite: make the file's folder when it
				   * is missing (else refused, naming it) */
};

/* $XDG_DATA_HOME/secteam/secteam.db (caller frees). */
char *store_default_path(void);
/* Refuses (ERR_REFUSED, naming the file) a database file whose folder
 * others can create files in, or whose database, -wal, -shm or -journal
 * file is a link, not ours (nor the shared group's) or readable by others
 * (allowed: 0600; 0660 with shared_group).  0 when all is well. */
int store_check_files(const char *path, const char *shared_group,
		      struct err *err);
/* True when where names a PostgreSQL server ("postgresql://...",
 * "postgres://..." or libpq "keyword=value" pairs), not a file. */
bool store_is_server(const char *where);

/*
 * Opens the store `where` names and brings its schema up to date.
 * A path is a SQLite file, created if needed: 0600 in a 0700 directory
 * (0660/2770 with a shared group); an existing one readable by others is
 * refused.  A connection string is a team server (libpq's environment
 * and ~/.pg_service.conf apply); one without the secteam schema is
 * refused unless opts->create.  Returns 0, or negative with err naming
 * the file or the server and the cause (unreachable, wrong password, a
 * missing grant).  A file must pass store_check_files before and after
 * SQLite opens it.
 */
int store_open(const char *where, const struct store_opts *opts,
	       struct store **out, struct err *err);
void store_close(struct store *s);
int store_schema_version(struct store *s);

/*
 * Sealed fields: with a sealer set, the store seals what names
 * an embargo before it is written (a report's subject and reporter, a
 * message's subject and sender) and opens it when read, for the row it
 * is in: the store never sees the key, only these two calls, which core
 * makes with the team key (crypto/teamkey.h).  A stored sealed field is
 * the text STORE_SEALED_PREFIX and base64.  A value that does not open
 * there reads as STORE_UNOPENED followed by why, never as another's text;
 * a clear value (written before sealing began, or without a sealer)
 * reads as it is.
 */
#define STORE_SEALED_PREFIX "s1:"
#define STORE_UNOPENED "[sealed value that does not open here: "
struct store_sealer {
	void *data;
	/* plain (len bytes) sealed for table.column of row (bytes, *n), or
	 * NULL with *why (caller frees) */
	unsigned char *(*seal)(void *data, const char *table,
			       const char *column, int64_t row,
			       const void *plain, size_t len, size_t *n,
			       char **why);
	/* the clear text of sealed bytes (a new string), or NULL with *why;
	 * called from several threads at once (store_open_fields) */
	char *(*open)(void *data, const char *table, const char *column,
		      int64_t row, const unsigned char *sealed, size_t n,
		      char **why);
	/* true when sealed bytes are under an older generation than the
	 * one seal uses (store_reseal_fields seals them again) */
	bool (*stale)(void *data, const unsigned char *sealed, size_t n);
	/* the keyed hash of value for purpose, in hex (a new string), the
	 * same for every officer, under the hash key of the generation
	 * `back` before the one seal uses (0: that one): a generation's
	 * hash key is no use for testing values stored after it.  NULL
	 * with *why, or with *why NULL when there is no such generation */
	char *(*mac)(void *data, const char *purpose, const char *value,
		     unsigned back, char **why);
	/* called before a write transaction starts (NULL: none): the key
	 * is had then, its unwrap (a private-key operation through the
	 * officer's agent) never inside the transaction, where the
	 * server's write lock would make colleagues wait for it.  A
	 * failure is the first seal's or open's to tell. */
	void (*ready)(void *data);
};
/* A keyed lookup value (a Message-ID, a content hash): the prefix and
 * the hex of the team's keyed hash, under the generation that was the
 * newest when it was stored; lookups try each generation in turn. */
#define STORE_KEYED_PREFIX "k1:"
/* Sets (or, NULL, clears) the sealer; z must outlive the store. */
void store_set_sealer(struct store *s, const struct store_sealer *z);
/* Reports ids' sealed fields and their messages' (fields and team-sealed
 * bodies) sealed again under the sealer's generation where they are
 * under an older one (roster reseal after a rotation); changed[i] when
 * anything of ids[i] was.  The caller records each reseal event in the
 * same transaction: sent (when not NULL) is called after each part of
 * ids is written, with that part, and what it returns ends the run when
 * negative.  An id with no report changes nothing. */
int store_reseal_reports(struct store *s, const int64_t *ids, size_t n,
			 bool *changed,
			 int (*sent)(const int64_t *ids, const bool *changed,
				     size_t n, void *data, struct err *err),
			 void *data, struct err *err);
/* The team key, wrapped to one roster key (its fingerprint). */
struct wrapped_key {
	int generation;
	char *fingerprint;
	unsigned char *wrapped;
	size_t len;
};
void wrapped_key_release(struct wrapped_key *k);
/* The fingerprint of a generation's chained copy: the key sealed under
 * the next generation's (crypto/teamkey.h's team_key_chain). */
#define STORE_TEAM_KEY_CHAIN "chain"
/* The wrapped copies of a generation (0: the latest; *n 0: none, or no
 * team key yet). */
int store_team_keys(struct store *s, int generation, struct wrapped_key **out,
		    size_t *n, struct err *err);
/* The wrapped copies of every generation older than the latest whose key
 * the next one keeps (its chain row): after a reseal, the roster reaches
 * them through the chain, and a removed officer's copies go.  *n: how
 * many were dropped. */
int store_team_keys_drop_old(struct store *s, size_t *n, struct err *err);
/* One more wrapped copy; ERR_DUPLICATE when the generation already has
 * one for fpr (a colleague made it at the same moment). */
int store_team_key_add(struct store *s, int generation, const char *fpr,
		       const unsigned char *wrapped, size_t len, time_t at,
		       struct err *err);
/* --- teamevent-repo.c: the team chain, as the server keeps it -------*/
/* One stored team event: its place (the server's order), its canonical
 * encoding and its signature, as written; nothing here is believed
 * before core verifies it. */
struct team_event_row {
	int64_t seq;
	unsigned char *body;
	size_t len;
	unsigned char *sig;
	size_t siglen;
};
void team_event_row_release(struct team_event_row *r);
/* The team events after place after (0: all), in the server's order;
 * *out is the caller's (team_event_row_release each). */
int store_team_events(struct store *s, int64_t after,
		      struct team_event_row **out, size_t *n, struct err *err);
/* Appends one (inside the caller's write transaction); the server gives
 * its place. */
int store_team_event_add(struct store *s, const unsigned char *body, size_t len,
			 const unsigned char *sig, size_t siglen,
			 struct err *err);
/* How many events (the report record's) the store holds: what a
 * checkpoint takes in. */
int store_events_count(struct store *s, int64_t *n, struct err *err);

/* The reports' chains (crypto/reportevent.h), as the server keeps them:
 * bytes, in the server's order; what they say is core's to verify
 * (core/reportchain.c).  A row's seq is the place its writer claimed. */
struct report_event_row {
	int64_t id;
	int64_t report_id;
	int64_t seq;
	unsigned char *body;
	size_t len;
	unsigned char *sig;
	size_t siglen;
};
void report_event_row_release(struct report_event_row *r);
/* Report report_id's events, in the server's order; *out is the caller's
 * (report_event_row_release each). */
int store_report_events(struct store *s, int64_t report_id,
			struct report_event_row **out, size_t *n,
			struct err *err);
/* The same, from row id `from` on (its tail past a row already read). */
int store_report_events_from(struct store *s, int64_t report_id, int64_t from,
			     struct report_event_row **out, size_t *n,
			     struct err *err);
/* Appends one at the place after `after` (the last place its writer
 * read) of report_id's chain (inside the caller's write transaction);
 * ERR_DUPLICATE when anything took that place first. */
int store_report_event_add(struct store *s, int64_t report_id, int64_t after,
			   const unsigned char *body, size_t len,
			   const unsigned char *sig, size_t siglen,
			   struct err *err);
/* Holds report_id's chain for the caller's write transaction: a second
 * writer to it waits until this one commits (each reads the chain it
 * appends to after taking it). */
int store_report_chain_lock(struct store *s, int64_t report_id,
			    struct err *err);
/* Whether any report has a chain yet (none: a team database from before
 * them, whose rows a checkpoint takes in). */
int store_report_chains_any(struct store *s, bool *any, struct err *err);
/* The reports that have messages, ascending (*ids the caller's). */
int store_reports_with_messages(struct store *s, int64_t **ids, size_t *n,
				struct err *err);

/* The version store_open found before migrating (0: a new database;
 * negative: unknown), so that who upgraded can say what it did. */
int store_schema_found(struct store *s);
/* "database 'PATH'" or "team server 'HOST:PORT/DB'", for messages. */
const char *store_where(const struct store *s);
/* Who this connection acts as (caller frees): the login role on the team
 * server, the Unix user (effective uid) on SQLite.  Events are recorded
 * as this, whatever the caller passes. */
char *store_whoami(struct store *s);
/*
 * Changes by other connections.  store_watch_fd() is a descriptor that
 * becomes readable when another officer commits (PostgreSQL: the
 * connection's socket, listening), or -1 when the caller must poll.
 * store_poll_changed() is cheap and says whether anything may have
 * changed since it was last called; then store_events_since() says which
 * reports (every change writes an event).
 */
int store_watch_fd(struct store *s);
bool store_poll_changed(struct store *s);
/* Whether the connection is up (always, on SQLite).  store_reconnect
 * makes one try to bring a lost one back: 0, or ERR_IO saying the
 * server is unreachable.  store_begin refuses on a lost connection
 * ("nothing was changed"), so a write is done or refused, never lost. */
bool store_connected(struct store *s);
int store_reconnect(struct store *s, struct err *err);

/* BEGIN IMMEDIATE (waiting for other officers up to the busy timeout),
 * COMMIT, ROLLBACK.  Every write function below must run inside one. */
int store_begin(struct store *s, struct err *err);
int store_commit(struct store *s, struct err *err);
void store_rollback(struct store *s);
/* True while a transaction from store_begin is open. */
bool store_in_tx(const struct store *s);
/* How many times this connection has waited on a team server so far
 * (0 on SQLite): a write transaction sends its BEGIN, its lock and the
 * writes whose results nothing reads without a wait each, and waits
 * once per read and once to commit. */
unsigned long store_round_trips(struct store *s);
/* A savepoint inside the open transaction, so one unit of work (one
 * imported message) can be undone without the rest of the batch. */
int store_savepoint(struct store *s, struct err *err);
int store_savepoint_release(struct store *s, struct err *err);
void store_savepoint_rollback(struct store *s);
/* The engine's integrity check (SQLite: PRAGMA integrity_check); 0 when
 * fine. */
int store_check(struct store *s, struct err *err);

/* --- reports -------------------------------------------------------------*/

int store_report_insert(struct store *s, const struct report_new *r,
			int64_t *id, struct err *err);
/* ERR_NOTFOUND when there is no report id. */
int store_report_get(struct store *s, int64_t id, struct report *r,
		     struct err *err);
/* What a command checks before it writes: the row's own fields and its
 * disclosure date, without what is derived from its messages (verdict,
 * encrypted, signer, count: 0) or the sealed fields (subject, reporter:
 * NULL), so without reading the messages or opening anything.
 * ERR_NOTFOUND when there is no report id; report_release() after. */
int store_report_brief(struct store *s, int64_t id, struct report *r,
		       struct err *err);
/* The rows of n reports at once (a screen's page; the ids distinct):
 * out[i] is ids[i]'s, with id 0 when there is no such report.  0, or
 * negative with err set and nothing in out. */
int store_report_page(struct store *s, const int64_t *ids, size_t n,
		      struct report *out, struct err *err);

/* Calls fn for each report in order; fn returns non-zero to stop. */
int store_report_each(struct store *s, const struct report_filter *f,
		      int (*fn)(const struct report *r, void *data), void *data,
		      struct err *err);
int64_t store_report_count(struct store *s);

/* The paths a report touches, those it has already left out; fresh: a
 * report made in this transaction, which has none yet to read.  Sent
 * without a wait each on a team server (db_send). */
int store_files_add(struct store *s, int64_t report_id, char *const *paths,
		    size_t n, bool fresh, struct err *err);
/* *paths (caller frees each and the array). */
int store_files_get(struct store *s, int64_t report_id, char ***paths,
		    size_t *n, struct err *err);

/* Calls fn with every touched file of every report, by report then path
 * (one read); fn returns non-zero to stop.  0 or negative. */
int store_files_each(struct store *s,
		     int (*fn)(int64_t report_id, const char *path, void *data),
		     void *data, struct err *err);

/* --- messages ------------------------------------------------------------*/

/* Returns the report id holding a message with this Message-ID or content
 * hash in *report_id (the oldest such message's), or ERR_NOTFOUND.  The
 * content hash identifies a message; a Message-ID may be on several. */
int store_message_find(struct store *s, const char *message_id,
		       const char *content_hash, int64_t *report_id,
		       struct err *err);
/* An import's check under the write lock, in one wait on a team server:
 * the report holding a stored message with this content hash in
 * *dup_report (0 when none), and when there is none, the ids the new
 * message's row (and with new_report, its new report's row) will have,
 * drawn now so that their sealed fields can name them (0 without a team
 * key: the inserts draw their own).  Nothing is drawn for a duplicate,
 * whose import stores nothing: no report number is spent on it.  Pass
 * them on in report_new.id and message.drawn_id. */
int store_import_claim(struct store *s, const char *content_hash,
		       bool new_report, int64_t *dup_report,
		       int64_t *report_row, int64_t *message_row,
		       struct err *err);
int store_message_id_holders(struct store *s, const char *message_id,
			     int64_t except_row, struct message_ref *out,
			     size_t max, size_t *n, struct err *err);
/* ERR_DUPLICATE when a message with the same content hash is stored.
 * With m->drawn_id (store_import_claim found no such content, under the
 * write lock), nothing is read back: on a team server the row goes with
 * the next statement that waits, and a conflict fails the transaction
 * there. */
int store_message_insert(struct store *s, const struct message *m, int64_t *id,
			 struct err *err);
/* The report a stored message (by row id) belongs to, or ERR_NOTFOUND. */
int store_message_report(struct store *s, int64_t message_row,
			 int64_t *report_id, struct err *err);
/* One signature of a stored message (a message may carry several). */
int store_signature_add(struct store *s, int64_t message_row,
			enum sig_verdict verdict, const char *fingerprint,
			time_t created, struct err *err);
/* Every message's report, id and key (what it opens to, how it is kept
 * and its size: struct message_key), by report then id; *out is the
 * caller's.  0 or negative. */
int store_message_keys(struct store *s, struct message_key **out, size_t *n,
		       struct err *err);
/* Every message's report and id (key empty), by report then id: what
 * store_message_keys gives without reading a row (the report's index
 * alone), for the search index's messages. */
int store_message_ids(struct store *s, struct message_key **out, size_t *n,
		      struct err *err);
/* Every message row id, ascending, and whether a reseal must read it
 * (look): all but the sealed ones whose blob starts with sealed_prefix
 * (a team-sealed value) and is either not as received (its content, or
 * keyed) or as received but not encrypted; and the blob's size.  One
 * query, no blob read; *out is the caller's. */
int store_message_reseal_list(struct store *s, const void *sealed_prefix,
			      size_t prefix_len, struct message_look **out,
			      size_t *n, struct err *err);
/* One message by row id, with its blob; ERR_NOTFOUND naming it. */
int store_message_get(struct store *s, int64_t row, struct message *m,
		      struct err *err);
/* The messages of rows ids (each with its blob), by id; a row that is
 * not there is left out. */
int store_messages_get_ids(struct store *s, const int64_t *ids, size_t n,
			   struct message **out, size_t *nout, struct err *err);
/* The same with what the new blob opens to, sealed by the store under
 * the team key for the row. */
int store_message_set_blob_plain(struct store *s, int64_t row,
				 const unsigned char *plain, size_t len,
				 enum blob_form form, struct err *err);
/* Replaces a message's body at rest (roster reseal), kept as form: the
 * store refuses any change of form but a message as received getting
 * its session keys (BLOB_RECEIVED to BLOB_KEYED), and the digest of what
 * the import verified never changes.  ERR_NOTFOUND. */
int store_message_set_blob(struct store *s, int64_t row,
			   const unsigned char *blob, size_t len,
			   const char *kind, enum blob_form form,
			   struct err *err);
/* All messages of a report, oldest first, blobs included when with_blob. */
int store_messages_get(struct store *s, int64_t report_id, bool with_blob,
		       struct message **out, size_t *n, struct err *err);

/* --- events (append-only) ------------------------------------------------*/
int store_event_add(struct store *s, int64_t report_id, const char *officer,
		    const char *kind, const char *detail, struct err *err);
/* The same, naming the row it changes (ref: a participant's id) and,
 * for a key, the key (value), both stored clear: the schema applies a
 * participant-add/-key/-ack/-remove event that names its row to that
 * row, or refuses it. */
int store_event_add_ref(struct store *s, int64_t report_id, const char *officer,
			const char *kind, const char *detail, int64_t ref,
			const char *value, struct err *err);
/* The same event (kind, detail) about each of n reports (none 0): on
 * a team server one INSERT for them all, its detail sealed to each. */
int store_events_add(struct store *s, const int64_t *report_ids, size_t n,
		     const char *officer, const char *kind, const char *detail,
		     struct err *err);
/* The same as store_event_add_ref, and the row of another table it
 * records (a decision, a proposal: its canonical text, which the hook
 * signs a keyed hash of; NULL for none), which goes to the event hook
 * only. */
int store_event_add_row(struct store *s, int64_t report_id, const char *officer,
			const char *kind, const char *detail, int64_t ref,
			const char *value, const char *row, struct err *err);

/*
 * The event hook: core signs each change it writes (core/reportlog.h).
 * before runs ahead of each events row about a report, after once the
 * row is written (its id drawn), inside the same transaction: an error
 * from either fails the write.  The detail and value are as the caller
 * gave them, before any sealing.
 */
struct store_event_written {
	int64_t id;
	int64_t report_id;
	const char *kind;
	const char *detail; /* or NULL */
	int64_t ref; /* or 0 */
	const char *value; /* or NULL */
	const char *row; /* the row it records, as text, or NULL */
};
struct store_event_hook {
	void *data;
	int (*before)(void *data, int64_t report_id, struct err *err);
	int (*after)(void *data, const struct store_event_written *w,
		     struct err *err);
};
/* Sets (or, NULL, clears) the hook; h must outlive the store. */
void store_set_event_hook(struct store *s, const struct store_event_hook *h);

/* Events of a report (report_id 0: all), oldest first. */
int store_events_get(struct store *s, int64_t report_id, struct event **out,
		     size_t *n, struct err *err);
int64_t store_event_count(struct store *s, int64_t report_id);
/* The id of report_id's newest events row (0: none). */
int store_event_max(struct store *s, int64_t report_id, int64_t *max,
		    struct err *err);
/* The events of one kind of a report, oldest first: what a check needs
 * of a report with many events, without reading (and opening) them all. */
int store_events_kind(struct store *s, int64_t report_id, const char *kind,
		      struct event **out, size_t *n, struct err *err);
/* The fix and CVE events (kinds fix, fix-*, cve-*) of report_id (0:
 * every report), by report then id: what the report lists need without
 * every event. */
int store_events_fixcve(struct store *s, int64_t report_id, struct event **out,
			size_t *n, struct err *err);
/* The same for a page of reports (the ids distinct), in one read per 64:
 * their events grouped by report, oldest first. */
int store_events_fixcve_page(struct store *s, const int64_t *ids, size_t n,
			     struct event **out, size_t *nout, struct err *err);
/* The links between reports: the duplicate-of events (core/triage.c
 * writes them) of every report that has one whose detail is `detail`
 * exactly, by report then id.  0, or negative with err set. */
int store_events_linked(struct store *s, const char *detail, struct event **out,
			size_t *n, struct err *err);
/* Every report's milestones (types.h) in one read, by report id; a
 * report with none of those events is left out.  *out is the caller's
 * to free.  0, or negative with err set (nothing allocated). */
int store_report_milestones(struct store *s, struct report_milestones **out,
			    size_t *n, struct err *err);
/* The highest event id (0 with none) into *last; 0 or negative. */
int store_event_last(struct store *s, int64_t *last, struct err *err);
/* The reports (0: a team-wide event) of the events after event id
 * `after`, each once; *last gets the highest id seen.  *report_ids is
 * the caller's.  0, or negative with err set. */
int store_events_since(struct store *s, int64_t after, int64_t *last,
		       int64_t **report_ids, size_t *n, struct err *err);

/* --- vendors and their status per report (party-repo.c) -----------------*/
/* ERR_DUPLICATE when the name is taken; kind NULL means "vendor". */
int store_vendor_add(struct store *s, const struct vendor *v, int64_t *id,
		     struct err *err);
/* By name, case-insensitively; ERR_NOTFOUND naming it otherwise. */
int store_vendor_get(struct store *s, const char *name, struct vendor *v,
		     struct err *err);
/* NULL fields of v are left unchanged. */
int store_vendor_update(struct store *s, int64_t id, const struct vendor *v,
			struct err *err);
int store_vendors_list(struct store *s, struct vendor **out, size_t *n,
		       struct err *err);

/* ERR_NOTFOUND when the vendor has no status on the report yet. */
int store_report_vendor_get(struct store *s, int64_t report_id,
			    int64_t vendor_id, struct report_vendor *rv,
			    struct err *err);
/* The event of kind (vendor-notify, vendor-status,
 * vendor-status-correction: value the status; vendor-note,
 * vendor-statement: value the text, sealed here as the row keeps it;
 * nda-request) about the vendor's row of the report: the schema applies
 * it to the row (made at the first), or refuses it. */
int store_report_vendor_event(struct store *s, int64_t report_id,
			      int64_t vendor_id, const char *officer,
			      const char *kind, const char *detail,
			      const char *value, struct err *err);
/* Of one report (0: every report), by report then vendor name. */
int store_report_vendors_get(struct store *s, int64_t report_id,
			     struct report_vendor **out, size_t *n,
			     struct err *err);

int store_participants_unacked(struct store *s, int64_t report_id,
			       struct pending_participant **out, size_t *n,
			       struct err *err);

/* --- disclosure proposals and decisions (date-repo.c, append-only) ------*/
/* *id (when not NULL) gets the new row's id. */
int store_proposal_add(struct store *s, const struct proposal *p, int64_t *id,
		       struct err *err);
/* Oldest first. */
int store_proposals_get(struct store *s, int64_t report_id,
			struct proposal **out, size_t *n, struct err *err);

int store_decision_add(struct store *s, const struct decision *d, int64_t *id,
		       struct err *err);
/* Oldest first: the last one is the current date. */
int store_decisions_get(struct store *s, int64_t report_id,
			struct decision **out, size_t *n, struct err *err);

/* --- team-repo.c: the officers of a team server -----------------------*/
/* True on a team server (officers, roles, the roster in the database);
 * false on SQLite (the Unix user, the roster in the config). */
bool store_has_team(const struct store *s);
/* Creates the officers' group role (secteam_officers) if needed and
 * grants it what officers need; run by the team's administrator inside
 * a transaction.  ERR_INVALID on SQLite, ERR_REFUSED without CREATEROLE
 * or ownership, naming the server. */
int store_team_grant(struct store *s, struct err *err);
/* Adds (or re-activates, updating name and key) the officer o->role,
 * creating that login role when it does not exist, and makes it a member
 * of the group.  Needs the administrator's rights (ERR_REFUSED). */
int store_officer_add(struct store *s, const struct officer *o,
		      struct err *err);
/* Marks the officer removed and takes the group role away from them;
 * ERR_NOTFOUND when role is not an active officer. */
int store_officer_remove(struct store *s, const char *role, struct err *err);
/* After a removal is committed: ends every session of role (its open
 * UIs, a psql that ran SET ROLE); *ended says how many.  The role can no
 * longer log in by then, so none comes back. */
int store_officer_disconnect(struct store *s, const char *role, int64_t *ended,
			     struct err *err);
/* Sets role's login password: the server gets its SCRAM verifier only.
 * ERR_CHECK-like refusal when role is no active officer. */
int store_officer_password(struct store *s, const char *role,
			   const char *password, struct err *err);
/* The team's officers by role (the removed ones too when with_inactive);
 * none on SQLite.  *out is the caller's (officer_release each). */
int store_officers_list(struct store *s, bool with_inactive,
			struct officer **out, size_t *n, struct err *err);

/* --- terms-cache.c: the officer's own search index -------------------*/
/* Opens (creating, 0600) the index at path: a file that is not this
 * user's alone (or a link) is refused, and is then simply not used. */
int store_terms_cache_open(const char *path, struct terms_cache **out,
			   struct err *err);
void store_terms_cache_close(struct terms_cache *tc);
/* The stamp of the team key its terms are keyed under (the caller's
 * own: sindex.c's; 0: none yet). */
int store_index_generation(struct terms_cache *tc, uint64_t *gen,
			   struct err *err);
/* Empties it (lists and messages), to be keyed under stamp gen. */
int store_index_reset(struct terms_cache *tc, uint64_t gen, struct err *err);
/* The messages indexed, by id (their keys, written with them, are not
 * read: NULL); *rows is the caller's (terms_rows_free). */
int store_index_messages(struct terms_cache *tc, struct terms_row **rows,
			 size_t *n, struct err *err);
/* The sealed posting list of term: 1 with *list (the caller's), 0 when
 * there is none, negative with err. */
int store_index_list(struct terms_cache *tc, const unsigned char *term,
		     size_t tlen, unsigned char **list, size_t *len,
		     struct err *err);
/* A write: begin, lists and messages put (each replacing its own),
 * commit (or rollback).  Lists read between begin and commit are the
 * ones this writer replaces: nobody else writes meanwhile. */
int store_index_begin(struct terms_cache *tc, struct err *err);
int store_index_put_list(struct terms_cache *tc, const unsigned char *term,
			 size_t tlen, const unsigned char *list, size_t len,
			 struct err *err);
int store_index_put_message(struct terms_cache *tc, int64_t message_id,
			    const char *key, struct err *err);
int store_index_commit(struct terms_cache *tc, struct err *err);
void store_index_rollback(struct terms_cache *tc);

/* --- verdict-cache.c: the officer's own cache of message verdicts ----*/
/* Opens (creating, 0600) the cache at path: a file that is not this
 * user's alone (or a link) is refused, and is then simply not used. */
int store_verdict_cache_open(const char *path, struct verdict_cache **out,
			     struct err *err);
void store_verdict_cache_close(struct verdict_cache *vc);
/* Message message_id's row: 1 with *row filled (verdict_row_release
 * it), 0 when there is none, or negative with err. */
int store_verdict_cache_get(struct verdict_cache *vc, int64_t message_id,
			    struct verdict_row *row, struct err *err);
/* Stores row, replacing its message's. */
int store_verdict_cache_put(struct verdict_cache *vc,
			    const struct verdict_row *row, struct err *err);
/* The messages of the reports report_ids (only the first of each when
 * first_only), by report then id, each with the key of what its body
 * opens to as store_message_keys gives it.  *out is the caller's. */
int store_message_keys_of(struct store *s, const int64_t *report_ids, size_t n,
			  bool first_only, struct message_key **out,
			  size_t *nout, struct err *err);

/* --- page-repo.c: compact keys for paging through every report ----------*/
/* Every report's key, by id; *out is the caller's to free.  Returns 0, or
 * negative with err set (nothing allocated). */
int store_report_keys(struct store *s, struct report_key **out, size_t *n,
		      struct err *err);
/* One report's key; ERR_NOTFOUND naming it. */
int store_report_key(struct store *s, int64_t id, struct report_key *k,
		     struct err *err);
/* The keys of these reports (ids distinct), in one read per 64, by id
 * within each 64; an id with no report has no key.  *out is the
 * caller's to free.  0, or negative with err set (nothing allocated). */
int store_report_keys_of(struct store *s, const int64_t *ids, size_t n,
			 struct report_key **out, size_t *nout,
			 struct err *err);
/* Every report, by id, with what a search sifts by: its id, received
 * and state, and of the sealed fields only those asked for
 * (STORE_BASICS_*), opened; every other field is 0 or NULL (the matches'
 * whole rows are store_report_page's).  *out is the caller's
 * (report_release each). */
enum {
	STORE_BASICS_SUBJECT = 1, /* subject */
	STORE_BASICS_REPORTER = 2, /* reporter_name, reporter_email */
};
int store_report_basics(struct store *s, unsigned fields, struct report **out,
			size_t *n, struct err *err);
/* The subjects of the reports whose id is above `after`, by id, opened
 * (a sealed one that does not open reads as STORE_UNOPENED's text): what
 * the list sorts by subject.  *out is the caller's (report_subjects_free).
 * 0 or negative with err set (nothing allocated). */
int store_report_subjects(struct store *s, int64_t after,
			  struct report_subject **out, size_t *n,
			  struct err *err);
/* The first `limit` report ids in order "received" or "id", without
 * reading every report: a first screen before the full keys arrive.
 * *ids (caller frees) is allocated even on error; ERR_INVALID for
 * another order. */
int store_report_first_ids(struct store *s, const char *order, size_t limit,
			   int64_t **ids, size_t *n, struct err *err);
/* The keys from which the first `limit` reports in deadline order can be
 * picked (core's report_first_ids sorts them by core's one rule), in one
 * read that does not touch every report: at most `limit` of the reports
 * under embargo with a decided date (by that date); those with none up
 * to the end of the day of the limit-th by receipt (the policy's clock);
 * at most `limit` of the others (public or in a state of `finished`,
 * NULL-terminated, at most 8; by id).  Exact unless a report whose
 * release started (a later clock) is among the first by receipt: the
 * full keys, sorted by the same rule, then put it right.  *out is the
 * caller's (free).  0, or negative with err set. */
int store_report_deadline_candidates(struct store *s,
				     const char *const *finished, size_t limit,
				     struct report_key **out, size_t *n,
				     struct err *err);

/* --- participant-repo.c: who was brought into a report -----------------*/
/* Adds p to p->report_id, without a key, acknowledgement or removal:
 * those are their events' (store_event_add_ref naming the row *id, which
 * the schema applies).  added_at 0 means now.  *id is optional.
 * ERR_DUPLICATE naming the address when the report already has it as an
 * active participant. */
int store_participant_add(struct store *s, const struct participant *p,
			  int64_t *id, struct err *err);
/* The active participant email of a report into *p (release it);
 * ERR_NOTFOUND when there is none. */
int store_participant_get(struct store *s, int64_t report_id, const char *email,
			  struct participant *p, struct err *err);
/* A report's participants (with the removed ones when with_removed), in
 * the order they were added; *out is the caller's (participants_free). */
int store_participants_get(struct store *s, int64_t report_id,
			   bool with_removed, struct participant **out,
			   size_t *n, struct err *err);

/* reminder-repo.c: the last reminder about report_id of this kind to
 * recipient (*at 0: none yet), and recording one (replacing the last). */
int store_reminder_last(struct store *s, int64_t report_id,
			const char *recipient, const char *kind, time_t *at,
			struct err *err);
int store_reminder_record(struct store *s, int64_t report_id,
			  const char *recipient, const char *kind, time_t at,
			  struct err *err);

#endif
