/*
 * verdict.h: a signature verdict, one enum from crypto/ (which reaches
 * it) through store/ (which records its name) and core/ up to the
 * screen.  It lives in util/ because crypto/ and store/ may not include
 * each other and the UI may include neither; util/ is below all three.
 * The rules about verdicts are here and nowhere else: the stored and
 * printed name, the order of badness, and the class the UI colours by.
 */
#ifndef SECTEAM_VERDICT_H
#define SECTEAM_VERDICT_H

enum sig_verdict {
	SIG_NONE = -1, /* no message to judge (a report's listing only);
			  * never stored */
	SIG_VALID, /* good signature, key fully valid */
	SIG_GOOD, /* good signature, key not certified */
	SIG_BAD, /* the signature does not match the data */
	SIG_UNKNOWN_KEY, /* we do not have the signer's key */
	SIG_EXPIRED_KEY, /* the signing key has expired */
	SIG_REVOKED_KEY, /* the signing key was revoked */
	SIG_NOT_SIGNED, /* no signature at all */
	SIG_PARTIAL, /* only part of what is shown is signed/encrypted */
	SIG_ERROR, /* could not be checked */
	SIG_TAMPERED, /* the stored body is not what the import verified
			  * (its digest differs): never shown as signed */
	SIG__COUNT
};

/* What a verdict lets the officer believe: trusted (a valid signature),
 * warning (a good signature by an uncertified key, none at all, or one
 * over part of the message), bad (forged, dead or unknown key, error). */
enum verdict_class { VERDICT_TRUSTED, VERDICT_WARNING, VERDICT_BAD };

/* "valid", "good", "bad", "unknown-key", ...: the name stored in the
 * database and printed; "-" for SIG_NONE, "error" out of range. */
const char *sig_verdict_name(enum sig_verdict v);
/* Returns the verdict for a name, or -1 (also for NULL and "-"). */
int sig_verdict_parse(const char *name);
/* The verdict a stored name stands for: SIG_ERROR for a name this
 * program does not know (so it is never taken for a good one). */
enum sig_verdict sig_verdict_from_name(const char *name);
/* The worse of two verdicts: bad > revoked-key > expired-key > unknown-key
 * > error > partial > not-signed > good > valid. */
enum sig_verdict sig_verdict_worse(enum sig_verdict a, enum sig_verdict b);
/* Its class; SIG_NONE and values out of range are bad. */
enum verdict_class sig_verdict_class(enum sig_verdict v);

#endif
