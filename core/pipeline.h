/*
 * The message pipeline, internal to core/: raw mail bytes in; headers,
 * the verdict, the text that is shown and the attachments out.  Used by
 * import (which then stores the result) and by show (which re-opens a
 * stored message from its encrypted blob).  Joins mail/ and crypto/,
 * which never see each other.
 */
#ifndef SECTEAM_PIPELINE_H
#define SECTEAM_PIPELINE_H

#include "core/core.h"
#include "crypto/crypto.h"
#include "mail/mail.h"

struct pipeline_out {
	struct mail_msg msg; /* outer headers and structure */
	enum sig_verdict verdict;
	char *fingerprint; /* first signature's, or NULL */
	bool signer_matches_from;
	bool encrypted; /* what is shown was encrypted */
	struct sbuf body; /* the text shown (UTF-8, untrusted) */
	struct mail_span *unsigned_spans; /* ranges of body the signature
				     * or encryption the verdict speaks of
				     * does not cover (text beside an inline
				     * block, parts beside a PGP/MIME one);
				     * such attachments have .outside set */
	size_t nunsigned;
	struct mail_attachment *att; /* attachments of the shown content */
	size_t natt;
	struct mail_msg inner; /* the decrypted/signed entity, if any */
	struct crypto_sig *sigs; /* copies of every signature */
	size_t nsigs;
	char **recipients; /* key IDs it was encrypted to */
	size_t nrecipients;
	/* The message's attachments around the decrypted entity's. */
	struct mail_attachment *att_joined; /* owns only the array */
	struct mail_attachment *att_filtered; /* owns only the array */
	/* The session key of each decryption, in the order they ran (NULL
	 * where gpg gave none): kept sealed with the message, they open it
	 * again for every officer (seal.h).  Wiped on release. */
	char **session_keys;
	size_t nsession_keys;
	/* Given by pipeline_run_keys (not owned): the keys to decrypt with,
	 * in the same order, instead of a secret key. */
	char *const *use_keys;
	size_t nuse_keys;
	struct crypto_job *job; /* the decryption pipeline_start began */
	struct crypto *job_crypto; /* ... on this context */
};

/*
 * Runs raw through parsing, decryption and verification.  Returns 0 (out
 * filled; release with pipeline_out_release, which wipes plaintext), or
 * negative with err when the message cannot be taken at all (not mail,
 * no MDC, cannot decrypt).
 */
int pipeline_run(struct session *sess, const char *raw, size_t len,
		 struct pipeline_out *out, struct err *err);
/* pipeline_run, decrypting with the message's session keys (as an
 * earlier run collected them in out->session_keys) instead of a secret
 * key: a stored message opened and verified again by any officer.  A
 * decryption past the last key fails. */
int pipeline_run_keys(struct session *sess, const char *raw, size_t len,
		      char *const *keys, size_t nkeys, struct pipeline_out *out,
		      struct err *err);
/* pipeline_run in two steps, so import can spot a duplicate from its
 * headers before paying for decryption. */
int pipeline_parse(const char *raw, size_t len, struct pipeline_out *out,
		   struct err *err);
int pipeline_process(struct session *sess, struct pipeline_out *out,
		     struct err *err);
/* Between the two: starts decrypting a PGP/MIME encrypted message in the
 * background (crypto_decrypt_start), for pipeline_process to collect;
 * does nothing for other messages.  Lets import keep several gpg
 * processes busy.  pipeline_out_release waits for and wipes a job that
 * was never collected. */
void pipeline_start(struct session *sess, struct pipeline_out *out);
void pipeline_out_release(struct pipeline_out *out);
/*
 * What pipeline_run gave at import, from a body an older version kept as
 * its content (BLOB_CONTENT, mail/content.c) and the message's row: the
 * text, its unsigned spans, the attachments, the From mailboxes, the
 * recorded verdict, and the signer's user IDs as the keyring knows them
 * now.  Nothing is decrypted or verified again.  0, or negative with err
 * naming the message; release out in any case.
 */
int pipeline_load_content(struct session *sess, const char *buf, size_t len,
			  const struct message *m, struct pipeline_out *out,
			  struct err *err);

/* The first signature's user ID to name the signer by (crypto_sig_uid,
 * preferring From's address), or NULL when unsigned or the key unknown. */
const struct crypto_uid *pipeline_signer(const struct pipeline_out *out);

/*
 * The files a processed message touches (its text and its patch
 * attachments, touched/): *files those in what the verdict covers,
 * *unsigned_files those found only in text or attachments outside it.
 * Both NULL-terminated arrays are the caller's (each string too).
 */
void pipeline_files(const struct pipeline_out *out, char ***files,
		    size_t *nfiles, char ***unsigned_files, size_t *nunsigned);

#endif
