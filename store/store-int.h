/* Internals shared by the store/ files; not part of the public interface. */
#ifndef SECTEAM_STORE_INT_H
#define SECTEAM_STORE_INT_H

#include "store/db.h"
#include "store/store.h"

#define STMT_CACHE 128

enum store_engine { STORE_SQLITE, STORE_POSTGRESQL };

struct store {
	const struct engine *eng;
	void *conn; /* the engine's connection */
	char *where; /* the database as messages name it: a file
				 * path, or "team server 'host/db'" */
	enum store_engine kind;
	bool in_tx;
	const char *sending; /* what db_send is sending (its what) */
	const char *sent_failed; /* the what of a write sent without waiting
				 * that failed, for store_dberr to name in
				 * place of the statement that found out */
	int busy_timeout_ms;
	int found_version; /* the schema version store_open found */
	const struct store_sealer *sealer; /* NULL: fields stored clear */
	const struct store_event_hook *hook; /* NULL: none */
	int clear_ids; /* messages with a clear Message-ID or content
				 * hash (before keyed lookups): -1 unknown */
	int clear_addrs; /* participants with a clear address: the same */
	int legacy; /* seal-legacy.c: which of its tables hold values
			  * stored clear (a bit each), -1 unknown */
	struct {
		const char *sql;
		struct stmt *st;
	} cache[STMT_CACHE];
	size_t ncache;
};

/* Fills err from the engine's last error, naming the database; returns
 * ERR_BUSY, ERR_REFUSED (a missing grant), ERR_DUPLICATE or ERR_IO. */
int store_dberr(struct store *s, struct err *err, const char *what);

/* party-repo.c: the column a vendor status's note or statement is sealed
 * under ("note:VENDOR"), so that it opens for no other vendor. */
void rv_column(char *buf, size_t n, const char *what, int64_t vendor_id);
/* The kinds of event whose detail stays clear (event-repo.c says why), as
 * SQL: store_event_detail_clear answers from it, and seal-legacy.c's
 * search for details stored clear leaves them out. */
#define EVENT_CLEAR_KINDS \
	"('state', 'severity', 'consent', 'claim', 'duplicate-of', 'reseal')"
/* Whether an event of this kind keeps its detail clear, and the column
 * its detail is sealed under (event-repo.c). */
bool store_event_detail_clear(const char *kind);
void event_detail_column(char *buf, size_t n, const char *kind);
/* seal-legacy.c: report_id's values stored clear before the sealed
 * record (event details, reasons, files, vendor notes, participants)
 * sealed in place; *changed when any was.  participant-repo.c's share:
 * its participants' addresses keyed and who they are sealed. */
int store_seal_legacy(struct store *s, int64_t report_id, bool *changed,
		      struct err *err);
int store_participants_seal_legacy(struct store *s, int64_t report_id,
				   bool *changed, struct err *err);

/* participant-repo.c: a pending participant's sealed name and address
 * opened in place (party-repo.c reads them). */
void participant_open_pending(struct store *s, struct pending_participant *p);

/* message-repo.c: a message's Message-ID and In-Reply-To as the text
 * sealed in its ids_sealed column. */
char *message_ids_text(const char *message_id, const char *in_reply_to);

/* seal.c: the sealed fields (store.h).  store_seal_field gives the text
 * to store (a new string: the sealed value, or a copy of text without a
 * sealer; NULL text stays NULL), or NULL with err set;
 * store_open_field replaces *field, read from the row, by its clear
 * text.  store_next_id draws the id the next row of table will have (so
 * the row is in what its fields are sealed to). */
char *store_seal_field(struct store *s, const char *table, const char *column,
		       int64_t row, const char *text, bool *failed,
		       struct err *err);
void store_open_field(struct store *s, const char *table, const char *column,
		      int64_t row, char **field);
/* What store_open_field would put in place of stored, as a new string
 * (NULL for NULL), stored left as it is. */
char *store_open_text(struct store *s, const char *table, const char *column,
		      int64_t row, const char *stored);
/* fn over [0, n) in shares, each on a thread of its own when n is large
 * (as many as there are processors, at most 4; one without a sealer):
 * opening many sealed fields at once (every subject for a sort).  fn may
 * call store_open_field, not touch the store otherwise. */
void store_parallel(struct store *s, size_t n,
		    void (*fn)(size_t from, size_t to, void *data), void *data);
/* The keyed form of value for purpose ("message-id", "content"):
 * STORE_KEYED_PREFIX and the team's keyed hash under the newest
 * generation, the same for the same value whoever stores or looks it up;
 * without a sealer, a copy of value.  NULL value stays NULL; NULL with
 * *failed and err when it cannot be had. */
char *store_keyed(struct store *s, const char *purpose, const char *value,
		  bool *failed, struct err *err);
/* The keyed form as a generation `back` before the newest made it (what a
 * lookup tries for a row stored before a rotation); NULL, *failed false,
 * when there is no such generation (or no sealer, or no value). */
char *store_keyed_older(struct store *s, const char *purpose, const char *value,
			unsigned back, bool *failed, struct err *err);
/* Whether messages stored before keyed lookups (their Message-IDs and
 * content hashes clear) remain: lookups then also try the clear value,
 * until a roster reseal has keyed them all. */
bool store_has_clear_ids(struct store *s);
int store_next_id(struct store *s, const char *table, int64_t *id,
		  struct err *err);

#endif
