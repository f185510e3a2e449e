/*
 * outgoing: every mail the team sends, built and sent in one place.
 *
 * Beside core/, above it: takes a session and values, returns drafts and
 * results, never prints.  Files:
 *   forward.c     a report forwarded to participants as PGP/MIME mail;
 *                 the key rules and the two transports (send.h: what the
 *                 files of this folder share)
 *   reply.c       replies to the reporter, in the report's thread
 *   notice.c      the linux-distros notice, the oss-security announcement
 *   templates.c   the mail templates of the config folder, shipped
 *                 defaults
 *   reminders.c   `due --mail`: reminders and digests
 *   thread.c      the thread headers a mail names (In-Reply-To,
 *                 References)
 */
#ifndef SECTEAM_OUTGOING_H
#define SECTEAM_OUTGOING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/core.h"

struct mail_attachment;

/* forward.c: a report forwarded to participants as PGP/MIME mail --------*/
struct forward_opts {
	const char *const *to; /* "user@host" or "Name <user@host>" */
	size_t nto;
	const char *const *keys; /* NULL, or for each of to: the key the
				 * officer confirmed for them, or NULL */
	bool allow_plaintext; /* keyless recipients get a plain copy */
	bool force_recipient; /* allow addresses that are not participants */
	const char *outbox; /* Maildir to deliver into, or NULL: */
	const char *sendmail; /* the command mail is piped into (-t -oi) */
	const char *const *release; /* attachment file names the officer */
	size_t nrelease; /* releases (--release-attachment) */
};
struct forward_sent {
	bool plaintext;
	char *to; /* "a@x, b@y" */
	char *where; /* the Maildir file, or "sent via sendmail" */
};
struct forward_result {
	struct forward_sent *sent;
	size_t nsent;
	size_t attached; /* attachments carried */
	size_t withheld; /* attachments left out */
};
/*
 * Forwards report id to o->to: one RFC 3156 message signed with the
 * officer's key and encrypted to every recipient's key, the officer's and
 * the roster's (Cc: team.address), plus, with allow_plaintext, one plain
 * copy for each recipient without a usable key.  It carries the report's
 * text and patches; other attachments only with the reporter's consent
 * to release exploit code and to be credited, or named in o->release
 * (see forward.c).  Nothing is delivered unless every message could be
 * built; every delivered message is logged ("forward",
 * "forward-plaintext", "attachment-release").  Returns 0 with *res filled
 * (release it in any case), or negative with err naming the report and
 * the recipient or attachment: ERR_REFUSED for a recipient who is not a
 * participant, has no usable key, or whose key is neither confirmed nor
 * certified for their address (naming it), or for released exploit code
 * without consent; ERR_NOTFOUND for a released name that is no attachment;
 * ERR_IO when delivery fails (res says what was sent).
 */
int forward_report(struct session *sess, int64_t id,
		   const struct forward_opts *o, struct forward_result *res,
		   struct err *err);
void forward_result_release(struct forward_result *res);

/* templates.c: mail templates (templates/NAME beside the config file, or
 * the shipped default) ------------------------------------------------*/
struct template_info {
	char *name;
	char *source; /* the file, or "shipped" */
	char *text;
};
struct template_field {
	const char *name; /* "id" */
	const char *value; /* NULL: the report has none, see missing */
	const char *missing; /* "report 3 has no fix commit recorded" */
};
/* The folder templates are read from (caller frees). */
char *template_dir(const struct session *sess);
/* Template name's text and where it came from (both the caller's);
 * ERR_INVALID for a bad name, ERR_NOTFOUND for no such template. */
int template_load(const struct session *sess, const char *name, char **text,
		  char **source, struct err *err);
/* The shipped template names, each as template_load finds it. */
int template_list(const struct session *sess, struct template_info **out,
		  size_t *n, struct err *err);
void template_list_free(struct template_info *v, size_t n);
/* text with each {field} replaced by its value; ERR_INVALID naming the
 * template and the field for an unknown one, ERR_REFUSED (with the
 * field's missing text) for one without a value. */
int template_fill(const char *name, const char *text,
		  const struct template_field *f, size_t nf, char **out,
		  struct err *err);

/* reply.c: a reply to the reporter, in the report's thread -------------*/
struct reply_opts {
	const char *template; /* NULL: "ack" */
	const char *to; /* "addr" or "Name <addr>"; NULL: the reporter */
	bool allow_plaintext; /* no usable key: send it in the clear */
	const char *outbox; /* Maildir to deliver into, or NULL: */
	const char *sendmail; /* the command mail is piped into (-t -oi) */
};
struct reply_draft {
	int64_t id;
	char *template;
	char *to_name; /* or NULL */
	char *to_email;
	char *fpr; /* the key it is encrypted to; NULL: plaintext */
	char *why; /* plaintext: why there is no key */
	char *subject;
	char **refs; /* the thread's Message-IDs, oldest first */
	size_t nrefs;
	char *text; /* the filled template (and quoted report):
				 * plaintext in memory, wiped on release */
	const char *outbox, *sendmail;
	struct mail_attachment *att; /* sent with the text (the distros
				      * notice: the fixes as patches) */
	size_t natt;
	char *att_note; /* distros: what is attached, or why no patch
			 * is (one line, display-safe), or NULL */
	bool no_cc; /* the officer took the team's address out of Cc */
};
/* draft.c: the draft as the editor shows it, mutt's edit_headers: To,
 * Cc, Subject, a blank line, the text (caller frees). */
char *reply_draft_edit_text(struct session *sess, const struct reply_draft *d);
/* The edited draft read back strictly: To (one mailbox; another
 * address is encrypted to the key the keyring vouches for it), Cc (the
 * team's address or none), Subject (one non-empty line) into d, the
 * text after the blank line into *text (caller frees).  ERR_INVALID
 * naming the header or the address at fault, ERR_REFUSED for a To
 * without a usable key: d unchanged then. */
int reply_draft_take_edit(struct session *sess, struct reply_draft *d,
			  const char *edited, char **text, struct err *err);
struct reply_sent {
	bool plaintext;
	char *message_id;
	char *where; /* the Maildir file, or "sent via sendmail" */
	bool stored; /* the copy joined the report's thread */
	char *store_note; /* why not, when !stored */
	char *vendor_note; /* distros: why the list's status is not
				 * recorded, or NULL */
};
/*
 * Everything checked and composed before the officer sees the text:
 * the recipient's key (as forward finds it: confirmed, or certified for
 * the address), the template's fields.  ERR_REFUSED naming the rule: no
 * usable key without allow_plaintext, or a report that came in encrypted
 * (never answered in the clear); a plaintext reply leaves out the quoted
 * report.  Release *d in any case.
 */
int reply_prepare(struct session *sess, int64_t id, const struct reply_opts *o,
		  struct reply_draft *d, struct err *err);
/* Sends text (the draft's, as the officer edited it): signed by the
 * officer, encrypted to the recipient, the officer and the roster, with
 * In-Reply-To/References into the thread; records the event with the
 * Message-ID and stores a sealed copy in the report's thread. */
int reply_send(struct session *sess, const struct reply_draft *d,
	       const char *text, struct reply_sent *res, struct err *err);
void reply_draft_release(struct reply_draft *d);
void reply_sent_release(struct reply_sent *s);

/* notice.c: the linux-distros notice and the oss-security announcement
 * (drafts in a struct reply_draft; see notice.c for the rules) --------*/
enum notice_kind { NOTICE_DISTROS, NOTICE_ANNOUNCE };
/* ERR_REFUSED naming the rule the report breaks: distros: public,
 * no fix ready, no date or one more than 14 days away, no usable list
 * key; announce: still under embargo.  Release *d in any case.  The
 * distros notice attaches each recorded fix as a patch read from tree
 * (a git tree: the fix is public nowhere else yet; ERR_NOTFOUND naming
 * a fix the tree lacks); with tree NULL none, d->att_note saying why. */
int notice_prepare(struct session *sess, int64_t id, enum notice_kind k,
		   const char *outbox, const char *sendmail, const char *tree,
		   struct reply_draft *d, struct err *err);
/* Sends text: distros encrypted to the list's key and the list's vendor
 * marked notified; announce in the clear.  An event, a copy in the
 * thread. */
int notice_send(struct session *sess, enum notice_kind k,
		const struct reply_draft *d, const char *text,
		struct reply_sent *res, struct err *err);

/* reminders.c: `due --mail` (see reminders.c for who gets what) ------*/
struct due_mail_opts {
	bool dry_run; /* print who would get what, send nothing */
	const char *outbox; /* Maildir to deliver into, or NULL: */
	const char *sendmail; /* the command mail is piped into */
};
/* What due_mail did, a line each, in order. */
enum due_mail_what {
	DUE_MAIL_SENT, /* "KIND\tTO\treport N[ and more]\t<MSGID>" */
	DUE_MAIL_WOULD_SEND, /* --dry-run: "KIND\tTO\treport N[ and more]" */
	DUE_MAIL_SKIPPED, /* why a reminder due was not sent (no key,
			      * no officer address, a store error) */
	DUE_MAIL_WARNING, /* a warning that skips nothing counted */
};
struct due_mail_result {
	struct due_mail_line {
		enum due_mail_what what;
		char *text; /* display-safe */
	} * v;
	size_t n;
	size_t sent, skipped; /* sent (or would be), and skipped */
};
void due_mail_result_release(struct due_mail_result *res);
/* Sends (or lists) the reminders due now, each recipient at most once
 * per report per 2 working days, into *res (release it either way).
 * Negative only when the store fails. */
int due_mail(struct session *sess, const struct due_mail_opts *o,
	     struct due_mail_result *res, struct err *err);

/* The transport the config names (forward.outbox, else forward.sendmail)
 * into o; ERR_INVALID when it names none. */
int reply_transport_from_config(struct session *sess, struct reply_opts *o,
				struct err *err);

#endif
