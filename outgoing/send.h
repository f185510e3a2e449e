/*
 * Outgoing mail, shared by the files of outgoing/ (not the UI, which
 * never sees keys or transports).  The rules for a recipient's key and
 * the two transports live in forward.c, once.
 */
#ifndef SECTEAM_OUTGOING_SEND_H
#define SECTEAM_OUTGOING_SEND_H

#include <stdbool.h>
#include <stdint.h>

#include "outgoing/outgoing.h"

struct crypto;

/*
 * The key mail to email is encrypted to: the one the officer confirmed
 * (confirmed, may be NULL), else the one usable key whose user ID for
 * that address the keyring holds at full or ultimate validity.  0 with
 * *fpr; ERR_NOTFOUND with *why_out (caller frees) when there is no
 * usable key at all; ERR_REFUSED with err ("cannot VERB report ID: ...")
 * when keys carry the address but the keyring vouches for none, or for
 * several; other codes when gpg fails.
 */
int outgoing_key(struct crypto *c, const char *verb, int64_t id,
		 const char *email, const char *confirmed, char **fpr,
		 char **why_out, struct err *err);
/* Delivers one message into the Maildir outbox, else through the
 * sendmail command; *where (caller frees) says where it went.  Errors
 * start with `what` ("cannot reply to report 3"). */
int outgoing_deliver(const char *outbox, const char *sendmail, const char *buf,
		     size_t len, const char *what, char **where,
		     struct err *err);
/* One header-safe line (controls become spaces, valid UTF-8). */
char *outgoing_one_line(const char *s);
/* "Name" <email>, the name quoted for RFC 5322 (or the bare address). */
char *outgoing_mailbox(const char *name, const char *email);
/* A Message-ID fit for In-Reply-To and References. */
bool outgoing_msgid_ok(const char *s);

#define OUTGOING_REFS_MAX 10 /* Message-IDs in References */
#define OUTGOING_REFS_BYTES 2000 /* and the bytes they take */
struct dossier;
/*
 * The References of mail about report dos (outgoing-thread.c), oldest
 * first: its first message, then the newest messages the reporter or the
 * team signed, at most OUTGOING_REFS_MAX and OUTGOING_REFS_BYTES; a
 * stranger's reply is never among them.  hide_reporter leaves out the
 * reporter's messages unless they consented to be credited.  Returns how
 * many, in *refs (the array the caller's to free, the strings dos's).
 */
size_t outgoing_thread_refs(struct session *sess, const struct dossier *dos,
			    bool hide_reporter, const char ***refs);
/* The same, the strings copied: free each and the array. */
size_t outgoing_thread_refs_copy(struct session *sess,
				 const struct dossier *dos, bool hide_reporter,
				 char ***refs);

/* One message to one recipient, in a report's thread (reply.c). */
struct outgoing_mail {
	int64_t id; /* the report */
	const char *what; /* "cannot reply to report 3": error prefix */
	const char *to_name; /* or NULL */
	const char *to_email;
	bool no_cc; /* no Cc: team.address */
	const char *fpr; /* encrypt to this key; NULL: plain */
	const char *subject;
	const char *const *refs; /* Message-IDs, oldest first; the last is */
	size_t nrefs; /* In-Reply-To */
	const char *text;
	const struct mail_attachment *att; /* sent with the text */
	size_t natt;
	const char *outbox, *sendmail;
	const char *event_kind; /* logged with event_detail + " <Message-ID>" */
	const char *event_detail;
	const int64_t *also; /* more reports the event is logged on */
	size_t nalso;
	bool no_copy; /* no copy in the thread (a digest spans
				 * several reports) */
};
/* om filled from draft d (report, recipient, key, subject, thread,
 * transport) with text and the error prefix what; the rest zero. */
void outgoing_from_draft(struct outgoing_mail *om, const struct reply_draft *d,
			 const char *what, const char *text);
/* Builds om (signed by the officer; encrypted to om->fpr, the officer
 * and the roster unless plain), delivers it, logs the event and stores a
 * copy in the report's thread through the import pipeline. */
int outgoing_send(struct session *sess, const struct outgoing_mail *om,
		  struct reply_sent *res, struct err *err);

#endif
