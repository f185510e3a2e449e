/*
 * mail: MIME and mailbox parsing and composing, with GMime 3.
 *
 * Takes bytes, returns plain structs; knows nothing of keys, storage or the
 * screen.  PGP/MIME is only taken apart here (which bytes are ciphertext,
 * which bytes a detached signature covers, in RFC 3156 canonical CRLF form);
 * core/ hands those bytes to crypto/ and, after decryption, hands the
 * plaintext entity back to mail_parse().  Files:
 *   mail.c       library set-up, struct mail_msg parsing and release
 *   mailbox.c    mbox (mboxo, mboxrd) splitting, Maildir and folder listing
 *   inline.c     inline-PGP armored block detection in text
 *   compose.c    building PGP/MIME messages (multipart/encrypted)
 *   content.c    the content entity: what was shown of a message, kept
 *                (sealed by core/) for officers without its keys
 */
#ifndef SECTEAM_MAIL_H
#define SECTEAM_MAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "util/util.h"

/* Largest single message accepted; bigger ones are refused with an error. */
#define MAIL_MAX_SIZE ((size_t)64 << 20)

/*
 * Loads GMime (mail/gmime.h) and calls g_mime_init() once; safe to call
 * many times, from any thread.  Mail is parsed or composed only after it.
 */
void mail_init(void);

enum mail_kind {
	MAIL_PLAIN, /* nothing OpenPGP about it */
	MAIL_PGP_ENCRYPTED, /* multipart/encrypted, application/pgp-encrypted */
	MAIL_PGP_SIGNED, /* multipart/signed, application/pgp-signature */
	MAIL_INLINE_PGP, /* text/plain holding armored PGP blocks */
};

struct mail_attachment {
	char *filename; /* as given by the sender (untrusted), or NULL */
	char *content_type; /* "type/subtype", lowercase */
	unsigned char *data; /* decoded content */
	size_t len;
	bool outside; /* outside the PGP/MIME entity (see mail_msg) */
};

struct mail_mailbox {
	char *name; /* display name, decoded to UTF-8; untrusted; NULL
			     * when none */
	char *email; /* lowercase; NULL when the mailbox has none */
};

/* A byte range [start, end) of a mail_msg's body_text. */
struct mail_span {
	size_t start, end;
};

struct mail_msg {
	/* Headers, decoded (RFC 2047) to UTF-8; untrusted; NULL when absent. */
	char *message_id; /* without angle brackets */
	char *in_reply_to; /* without angle brackets */
	char **references; /* without angle brackets */
	size_t nreferences;
	char *from_name; /* of the first From mailbox */
	char *from_email; /* lowercase, of the first From mailbox */
	struct mail_mailbox *from; /* every From mailbox, in order (groups
			     * flattened); from[0] is the one above */
	size_t nfrom;
	char *from_header; /* the From header as text, for when no mailbox
			     * could be read from it (NULL when absent) */
	char *to; /* the To: header as text */
	char *subject;
	time_t date; /* 0 when absent or unparsable */

	enum mail_kind kind;
	bool protected_headers; /* its top part is marked
			     * protected-headers="v1" (header protection):
			     * for a decrypted entity, the headers above are
			     * the sender's real ones */

	/* MAIL_PGP_ENCRYPTED: the content of the application/octet-stream part. */
	unsigned char *ciphertext;
	size_t ciphertext_len;

	/* MAIL_PGP_SIGNED: the first part exactly as signed, in canonical form
	 * (CRLF line ends, headers included), and the detached signature. */
	unsigned char *signed_data;
	size_t signed_len;
	unsigned char *signature;
	size_t signature_len;

	/*
	 * True when the PGP/MIME part found is not the whole message: e.g. a
	 * multipart/mixed holding a multipart/signed next to unsigned text, or
	 * text before an inline-PGP block.  core/ turns this into `partial`.
	 */
	bool partial;

	/* All text/plain parts (the signed or decrypted content for PGP kinds
	 * after core re-parses it), converted to UTF-8, joined by newlines. */
	char *body_text;
	size_t body_len;
	/* MAIL_PGP_SIGNED and MAIL_PGP_ENCRYPTED: the ranges of body_text
	 * from parts outside the PGP/MIME entity (anything but the first part
	 * of the multipart/signed; for multipart/encrypted, every part shown
	 * next to it), in order; attachments say so in their own field.
	 * Nothing is outside for the other kinds. */
	struct mail_span *outside;
	size_t noutside;
	/* MAIL_PGP_ENCRYPTED: where the multipart/encrypted stands among
	 * the parts next to it, for its decrypted content to be shown in
	 * its place: the spans of outside that start before pgp_text_at
	 * come before it, and so do attachments[0, pgp_att_at). */
	size_t pgp_text_at;
	size_t pgp_att_at;

	struct mail_attachment *attachments;
	size_t nattachments;
};

/*
 * Parses one message, or one MIME entity (as produced by decryption: only
 * Content-* headers).  Fills *msg (which the caller then releases with
 * mail_msg_release, also on error).  Returns 0, or negative with err set
 * ("not a mail message", "message too large", "MIME nested too deeply").
 */
int mail_parse(const char *buf, size_t len, struct mail_msg *msg,
	       struct err *err);
void mail_msg_release(struct mail_msg *msg);

/*
 * A message's identity for duplicates (a Message-ID alone proves
 * nothing): the hex SHA-256 of the message with CRLF normalized to LF
 * and without the header fields transport adds on the way (Received,
 * Delivered-To, Return-Path, X-Original-To, List-*, DKIM and ARC
 * signatures, mailbox flags), so that two officers' copies of one list
 * mail are one message.  Caller frees.
 */
char *mail_content_hash(const char *buf, size_t len);
/* The same over every byte: the identity stored before transport
 * fields were left out, still looked up for messages stored then. */
char *mail_raw_hash(const char *buf, size_t len);

/* mailbox.c ---------------------------------------------------------------*/
enum mbox_format { MBOX_AUTO, MBOX_O, MBOX_RD };

struct mbox_reader;
/* Opens an mbox file for reading message by message; the whole mailbox is
 * never held in memory at once. */
int mbox_open(const char *path, enum mbox_format fmt, struct mbox_reader **out,
	      struct err *err);
/* The same on an open file descriptor (taken, also on error). */
int mbox_open_fd(int fd, const char *path, enum mbox_format fmt,
		 struct mbox_reader **out, struct err *err);
/*
 * Next message: *buf (caller frees) holds its bytes without the "From "
 * separator line, with ">From " unquoted as the format says (mboxrd: one
 * level of ">" removed from ">+From "; mboxo: ">From " becomes "From ").
 * Returns 1 with a message, 0 at the end, negative on error.
 */
int mbox_next(struct mbox_reader *r, char **buf, size_t *len, struct err *err);
/* How far reading has got: bytes read so far and the file's size when it
 * was opened (0 when unknown, e.g. a pipe), for progress. */
void mbox_position(const struct mbox_reader *r, long long *done,
		   long long *size);
void mbox_close(struct mbox_reader *r);

/*
 * The messages of a folder: names relative to it ("new/NAME" in a
 * Maildir), sorted by base name, to open with open_beneath(); and the
 * entries left out, each with why: a symbolic link (never followed, also
 * where new/ or cur/ should be) or a special file.  Folders inside are
 * passed over.
 */
struct mail_folder {
	char **names; /* NULL-terminated */
	size_t n;
	struct mail_skipped {
		char *name; /* relative to the folder */
		const char *why; /* "a symbolic link: not followed", ... */
	} * skipped;
	size_t nskipped;
};
/* A Maildir's new/ and cur/.  Returns 0 with *f filled (release it), or
 * negative with err naming DIR (ERR_NOTFOUND when it has neither). */
int maildir_list(const char *dir, struct mail_folder *f, struct err *err);
/* A plain folder of message files (saved .eml files), the same way. */
int mail_folder_list(const char *dir, struct mail_folder *f, struct err *err);
void mail_folder_release(struct mail_folder *f);
/* Writes msg into DIR/tmp then renames it into DIR/new (creating the
 * three folders 0700 if needed); *path_out (optional) gets the new path. */
int maildir_deliver(const char *dir, const char *buf, size_t len,
		    char **path_out, struct err *err);

/* inline.c ----------------------------------------------------------------*/
enum pgp_block_kind { PGP_BLOCK_MESSAGE, PGP_BLOCK_SIGNED };

struct pgp_block {
	enum pgp_block_kind kind;
	size_t start, end; /* byte offsets in the text: the armor lines
			     * themselves included, end exclusive */
};

/*
 * Finds armored "-----BEGIN PGP MESSAGE-----" and "-----BEGIN PGP SIGNED
 * MESSAGE-----" blocks with their matching end lines.  Returns the number
 * found (*blocks allocated, caller frees).  *outside is set when there is
 * non-blank text outside every block.  An unterminated block is not a block.
 */
size_t pgp_find_blocks(const char *text, size_t len, struct pgp_block **blocks,
		       bool *outside);

/* compose.c ---------------------------------------------------------------*/
struct mail_compose {
	const char *from; /* "Name <addr>" */
	const char **to; /* addresses */
	size_t nto;
	const char **cc;
	size_t ncc;
	const char *subject;
	const char *in_reply_to; /* without brackets, or NULL */
	const char **references;
	size_t nreferences;
	time_t date; /* 0: now */
	const char *message_id; /* without brackets; NULL: a new one */
};

/* The Subject outside an encrypted message (its real one is inside). */
#define MAIL_PROTECTED_SUBJECT "..."

/* A new Message-ID (without brackets) on the domain of address from
 * ("localhost" without one); caller frees. */
char *mail_new_message_id(const char *from);
/*
 * The entity (as mail_build_entity made it) with hdr's headers on its
 * top part, marked protected-headers="v1" (header protection), as
 * canonical CRLF bytes: what gets encrypted, so that the real Subject
 * travels only inside.  Give the same hdr, with its date and message_id
 * set, to mail_build_encrypted.  0 with *out (caller frees), or
 * ERR_INVALID for a header refused as mail_build_encrypted refuses it
 * or an entity that is not a MIME part.
 */
int mail_protect_entity(const struct mail_compose *hdr, const char *entity,
			size_t entity_len, char **out, size_t *len,
			struct err *err);

/*
 * Builds the inner MIME entity to be encrypted: a text/plain body plus
 * attachments (each struct mail_attachment), as canonical CRLF bytes.
 */
int mail_build_entity(const char *body, const struct mail_attachment *att,
		      size_t natt, char **out, size_t *len, struct err *err);
/*
 * Wraps already-encrypted ASCII-armored OpenPGP data in an RFC 3156
 * multipart/encrypted message with the given headers (hdr->message_id,
 * else a fresh one), its Subject MAIL_PROTECTED_SUBJECT: the real one
 * goes inside (mail_protect_entity).  *out is the whole message, caller
 * frees.
 */
int mail_build_encrypted(const struct mail_compose *hdr, const char *armored,
			 size_t armored_len, char **out, size_t *len,
			 struct err *err);
/* A plain (unencrypted) message, for the forced --allow-plaintext case. */
int mail_build_plain(const struct mail_compose *hdr, const char *entity,
		     size_t entity_len, char **out, size_t *len,
		     struct err *err);
/* A PGP/MIME multipart/signed message (RFC 3156): entity (canonical CRLF
 * bytes, as mail_build_entity made them) and sig, its armored detached
 * signature, with micalg ("pgp-sha256"). */
int mail_build_signed(const struct mail_compose *hdr, const char *entity,
		      size_t entity_len, const char *sig, size_t sig_len,
		      const char *micalg, char **out, size_t *len,
		      struct err *err);

/* content.c ---------------------------------------------------------------*/
/* Reads a content entity an older version sealed: msg->from[], from_header,
 * body_text (the exact text), outside (the unsigned spans), attachments
 * (with .outside).  Only for bodies this program sealed: the headers it
 * trusts are never read from incoming mail.  ERR_INVALID when buf is not
 * one; release msg in any case. */
int mail_parse_content(const char *buf, size_t len, struct mail_msg *msg,
		       struct err *err);

#endif
