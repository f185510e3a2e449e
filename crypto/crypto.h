/*
 * crypto: OpenPGP through GPGME, offline.
 *
 * Decrypts, verifies, encrypts and looks up keys; every signature ends in
 * one of the verdicts PRODUCT.md names.  Never fetches keys from the
 * network (offline mode, no auto-key-retrieve).  Passphrases go through
 * gpg-agent.  Files:
 *   crypto.c    context set-up (GNUPGHOME, offline), error mapping
 *   verify.c    decrypt+verify, detached and clear-signed verification,
 *               the verdict rules
 *   encrypt.c   encryption (and signing) to a list of keys
 *   keys.c      key lookup: usable encryption keys, user-ID e-mails
 *   uid.c       which user IDs the keyring vouches for (full/ultimate)
 *   stamp.c     the keyring's state and a key's, for what follows them
 *   teamkey.c, .h  the team key (libsodium): wrapped to the roster,
 *               sealing fields to their place, keyed hashes
 *   crypto-int.h  what these files share (not for other modules)
 */
#ifndef SECTEAM_CRYPTO_H
#define SECTEAM_CRYPTO_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "util/util.h"
#include "util/verdict.h"

/* enum sig_verdict, its names, order and classes: util/verdict.h. */

/* One user ID of a key, with what the officer's keyring says of it. */
struct crypto_uid {
	char *uid; /* as the key holds it, "Name <addr>" (untrusted:
			      * anyone can write any user ID on their key) */
	char *name; /* its name part; NULL when none */
	char *email; /* its address, lowercase; NULL when none */
	bool valid; /* full or ultimate validity (certified by the
			      * officer or trusted introducers) on a usable
			      * key: only such a user ID speaks for its
			      * address (crypto_key_uid_valid's rule) */
};

struct crypto_sig {
	enum sig_verdict verdict;
	char *fingerprint; /* full hex fingerprint (or key ID if that's all
			      * the signature carries), NULL if none */
	struct crypto_uid *uids; /* the signing key's user IDs that are not
			      * revoked or invalid, in the key's order;
			      * none when the key is unknown */
	size_t nuids;
	time_t created;
};

/* A deep copy of src into *dst; crypto_sig_release frees it. */
void crypto_sig_copy(struct crypto_sig *dst, const struct crypto_sig *src);
void crypto_sig_release(struct crypto_sig *sig);
/* The user ID to name the signer by: the valid one whose address is
 * prefer (NULL: any), else the first valid one, else the first one; NULL
 * when the key is unknown. */
const struct crypto_uid *crypto_sig_uid(const struct crypto_sig *sig,
					const char *prefer);

struct crypto_result {
	bool encrypted; /* the input was encrypted and decrypted */
	bool no_mdc; /* encrypted without integrity protection:
			      * refused, and plain is NULL */
	struct crypto_sig *sigs;
	size_t nsigs;
	/* The combined verdict: SIG_NOT_SIGNED without signatures, otherwise
	 * the worst of sigs[] (bad beats revoked beats expired beats unknown
	 * beats error beats good beats valid). */
	enum sig_verdict verdict;
	unsigned char *plain; /* decrypted or clear-signed content */
	size_t plain_len;
	char **recipients; /* key IDs the message was encrypted to */
	size_t nrecipients;
	/* A decryption's session key ("ALGO:HEX", as gpg gives it; NULL
	 * when nothing was decrypted): with it, crypto_decrypt_verify_key
	 * decrypts the same message again without any secret key.  Wiped on
	 * release. */
	char *session_key;
};

struct crypto;

/*
 * The most any decryption or verification may produce: the limit of a
 * whole mail message (MAIL_MAX_SIZE), since what is decrypted is parsed
 * as one.  OpenPGP compresses, so 1.8 MB of input can inflate to 1 GB;
 * past this limit the operation stops, its output is wiped, and it fails
 * with "decrypted content too large (over 64 MiB)".
 */
#define CRYPTO_MAX_PLAIN ((size_t)64 << 20)

/*
 * Opens a context on gnupghome (NULL: $GNUPGHOME or ~/.gnupg), offline,
 * OpenPGP protocol.  Fails with a clear message when gpg is missing or the
 * home is unreadable.
 */
int crypto_open(const char *gnupghome, struct crypto **out, struct err *err);
/* The secteam-gpg that crypto_open has GPGME run instead of gpg, for the
 * program at path exe (a new string): beside it or in
 * ../lib/secteam-tui/, and only when nobody but its user or root can
 * have written it; else NULL. */
char *crypto_quiet_gpg(const char *exe);
/* The home crypto_open would use for gnupghome (a new string), or NULL
 * when neither it, $GNUPGHOME nor $HOME is set. */
char *crypto_home(const char *gnupghome);
void crypto_close(struct crypto *c);

/*
 * Decrypts (and verifies any signature inside) OpenPGP data, armored or
 * binary.  A message without MDC fails with ERR_CRYPTO and nothing kept,
 * as does one whose content is over CRYPTO_MAX_PLAIN (ERR_INVALID).
 * res is filled and must be released with crypto_result_release even on
 * error.  Plaintext buffers are wiped on release.
 */
int crypto_decrypt_verify(struct crypto *c, const void *data, size_t len,
			  struct crypto_result *res, struct err *err);
/* The same with the message's session key (crypto_result's) instead of
 * a secret key: what opens a stored message for every officer, whoever
 * it was encrypted to.  Its signatures are verified as always; a wrong
 * key fails as a damaged message. */
int crypto_decrypt_verify_key(struct crypto *c, const void *data, size_t len,
			      const char *session_key,
			      struct crypto_result *res, struct err *err);
/*
 * crypto_decrypt_verify in two halves, so that several decryptions run at
 * once (one gpg process each, up to CRYPTO_JOBS_MAX) while the caller
 * does other work, synchronous operations on c included.  Start never
 * waits for gpg and never fails: a job that could not start reports why
 * from crypto_decrypt_finish, which waits for the job (running the others
 * meanwhile), frees it, and fills res exactly as crypto_decrypt_verify
 * would.  data must stay valid and unchanged until then.  Every job
 * started must be finished (or discarded) before crypto_close.
 */
#define CRYPTO_JOBS_MAX 8
struct crypto_job;
struct crypto_job *crypto_decrypt_start(struct crypto *c, const void *data,
					size_t len);
int crypto_decrypt_finish(struct crypto *c, struct crypto_job *job,
			  struct crypto_result *res, struct err *err);
/* Waits for the job to end and wipes whatever it decrypted. */
void crypto_job_discard(struct crypto *c, struct crypto_job *job);

/* Verifies a detached signature over data (PGP/MIME multipart/signed). */
int crypto_verify_detached(struct crypto *c, const void *data, size_t len,
			   const void *sig, size_t siglen,
			   struct crypto_result *res, struct err *err);
/* Verifies a clear-signed or opaque signed message; res->plain gets the
 * signed text (at most CRYPTO_MAX_PLAIN bytes: ERR_INVALID past it). */
int crypto_verify_opaque(struct crypto *c, const void *data, size_t len,
			 struct crypto_result *res, struct err *err);
void crypto_result_release(struct crypto_result *res);

/* True when email (compared whole, ignoring ASCII case) is the address of
 * one of sig's valid user IDs: uncertified ones never match. */
bool crypto_sig_matches(const struct crypto_sig *sig, const char *email);

/*
 * Encrypts data to every key in keys (fingerprints, key IDs or e-mail
 * addresses; each must resolve to exactly one usable key) and, when
 * sign_as is not NULL, signs with that secret key.  armor selects ASCII
 * output.  A recipient without a usable key fails naming it.
 */
int crypto_encrypt(struct crypto *c, const char *const *keys, size_t nkeys,
		   const char *sign_as, bool armor, const void *data,
		   size_t len, unsigned char **out, size_t *outlen,
		   struct err *err);

/*
 * A detached, ASCII-armored signature over data by the secret key sign_as
 * (PGP/MIME multipart/signed, RFC 3156); *micalg (caller frees) is the
 * hash it used as the micalg parameter names it ("pgp-sha256").
 */
int crypto_pgp_sign_detached(struct crypto *c, const char *sign_as,
			     const void *data, size_t len, unsigned char **sig,
			     size_t *siglen, char **micalg, struct err *err);

/*
 * Finds the usable (not expired, revoked, disabled or invalid) encryption
 * key for who (an e-mail address or fingerprint).  *fpr gets its
 * fingerprint (caller frees).  ERR_NOTFOUND when none, with a message
 * naming who and why ("no key", "key expired", "key revoked").
 */
int crypto_find_encryption_key(struct crypto *c, const char *who, char **fpr,
			       struct err *err);
/* Every usable encryption key with a (not revoked) user ID for email,
 * certified or not: their primary fingerprints in *fprs (caller frees
 * each and the array, allocated even when *n is 0).  0, or negative
 * with err set (ERR_INVALID: not an address). */
int crypto_encryption_keys_for(struct crypto *c, const char *email,
			       char ***fprs, size_t *n, struct err *err);
/* The fingerprint of the first usable secret (signing) key, or ERR_NOTFOUND. */
int crypto_default_secret_key(struct crypto *c, char **fpr, struct err *err);

/*
 * uid.c: whether email is the address of a user ID of key fpr (a full
 * primary-key fingerprint) that the officer's keyring holds at full or
 * ultimate validity (certified by the officer or through trusted
 * introducers), the user ID and the key being neither revoked, expired,
 * disabled nor invalid.  Addresses are compared whole, ignoring ASCII
 * case.  Returns 0 with *ok set; ERR_INVALID when fpr is not a full
 * fingerprint or email is empty, ERR_NOTFOUND naming fpr when the
 * keyring has no such primary key, ERR_CRYPTO when gpg fails.  The one
 * rule for "this key speaks for this address": signer-matches-From and
 * forward recipients both use it.
 */
int crypto_key_uid_valid(struct crypto *c, const char *fpr, const char *email,
			 bool *ok, struct err *err);

/* stamp.c: the keyring's state now (its home, and the change times and
 * sizes of its key and trust files): a different stamp means keys or
 * their validity may have changed.  Taking a different stamp than the
 * last one also forgets the signing keys this context remembered.
 * Caller frees. */
char *crypto_keyring_stamp(struct crypto *c);
/* stamp.c: the state of the key fpr names (a fingerprint or key ID, as
 * a signature gives it) in the keyring now, hashed: "none" without fpr,
 * "absent" when the keyring has no such key, else a digest of its
 * flags, subkeys and user IDs with their validity.  A verdict made
 * against one state holds while the key's state is the same.  Caller
 * frees. */
char *crypto_key_state(struct crypto *c, const char *fpr);

/* roster.c: a signature known only by its fingerprint and recorded
 * verdict (a body kept as its content), with the signing key's user IDs
 * as this keyring knows them now (none when it does not have the key).
 * Release *out with crypto_sig_release. */
void crypto_sig_from_key(struct crypto *c, const char *fpr,
			 enum sig_verdict verdict, struct crypto_sig *out);

/* roster.c: what the roster listing shows of one key. */
struct crypto_keydesc {
	char *fpr;
	char *uid; /* the primary user ID, untrusted text */
	time_t expires; /* primary key expiry, 0: never */
	time_t enc_expires; /* earliest expiry of a usable encryption
			      * subkey, 0: never */
	bool expired, revoked;
	bool can_encrypt; /* has a usable encryption subkey */
	bool secret; /* this keyring holds the secret key */
};
/* Describes key fpr from the local keyring; ERR_NOTFOUND naming it when
 * the keyring does not have it. */
int crypto_key_describe(struct crypto *c, const char *fpr,
			struct crypto_keydesc *d, struct err *err);
void crypto_keydesc_release(struct crypto_keydesc *d);

/*
 * agent.c: gpg-agent asked, over its socket and without gpg, what it
 * would do with a secret key (team.key-cache = auto, core/session.c).
 */
enum crypto_agent_use {
	CRYPTO_AGENT_UNKNOWN, /* no agent answered, or it has no such key */
	CRYPTO_AGENT_SILENT, /* on disk, without a passphrase or with its
			       * passphrase cached: used without asking */
	CRYPTO_AGENT_ASKS, /* a passphrase, a card's PIN or touch */
};
/* The keygrip (40 hex digits) of the secret subkey keyid (a key ID or
 * fingerprint, as a decryption names its recipient), and whether it is on
 * a card.  One gpg run. */
int crypto_agent_key(struct crypto *c, const char *keyid, char grip[41],
		     bool *card, struct err *err);
/* Where the agent of c's GnuPG home listens (gpgconf's answer), or NULL
 * with err set. */
char *crypto_agent_socket(struct crypto *c, struct err *err);
/* What the agent at socket_path (a socket of this user, else UNKNOWN)
 * says of the key with keygrip grip; UNKNOWN too when it does not answer
 * within 2 s. */
enum crypto_agent_use crypto_agent_key_use(const char *socket_path,
					   const char *grip);
/* The arguments of one KEYINFO status line, read for grip (exposed for
 * its test). */
enum crypto_agent_use crypto_agent_keyinfo(const char *args, const char *grip);

#endif
