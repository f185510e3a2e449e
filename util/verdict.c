/*
 * verdict.c: the names, order and classes of signature verdicts (see
 * verdict.h).  crypto/verify.c decides which verdict a signature gets.
 */
#include <string.h>

#include "util/verdict.h"

static const char *const verdict_names[SIG__COUNT] = {
	[SIG_VALID] = "valid",
	[SIG_GOOD] = "good",
	[SIG_BAD] = "bad",
	[SIG_UNKNOWN_KEY] = "unknown-key",
	[SIG_EXPIRED_KEY] = "expired-key",
	[SIG_REVOKED_KEY] = "revoked-key",
	[SIG_NOT_SIGNED] = "not-signed",
	[SIG_PARTIAL] = "partial",
	[SIG_ERROR] = "error",
	[SIG_TAMPERED] = "tampered",
};

const char *sig_verdict_name(enum sig_verdict v)
{
	if (v == SIG_NONE)
		return "-";
	if ((unsigned)v >= SIG__COUNT)
		return "error";
	return verdict_names[v];
}

int sig_verdict_parse(const char *name)
{
	if (!name)
		return -1;
	for (int v = 0; v < SIG__COUNT; v++)
		if (!strcmp(verdict_names[v], name))
			return v;
	return -1;
}

enum sig_verdict sig_verdict_from_name(const char *name)
{
	int v = sig_verdict_parse(name);

	return v < 0 ? SIG_ERROR : (enum sig_verdict)v;
}

/* Higher is worse.  An error, a signature that could not be checked at
 * all, is worse than any good one but better than positive evidence of
 * forgery or a dead key.  not-signed and partial, which describe messages
 * rather than signatures, sit between good and error so core/ can combine
 * message parts with the same order. */
static int verdict_rank(enum sig_verdict v)
{
	switch (v) {
	case SIG_VALID:
		return 0;
	case SIG_GOOD:
		return 1;
	case SIG_NOT_SIGNED:
		return 2;
	case SIG_PARTIAL:
		return 3;
	case SIG_ERROR:
		return 4;
	case SIG_UNKNOWN_KEY:
		return 5;
	case SIG_EXPIRED_KEY:
		return 6;
	case SIG_REVOKED_KEY:
		return 7;
	case SIG_BAD:
		return 8;
	case SIG_TAMPERED:
		return 9;
	default:
		return 4;
	}
}

enum sig_verdict sig_verdict_worse(enum sig_verdict a, enum sig_verdict b)
{
	return verdict_rank(b) > verdict_rank(a) ? b : a;
}

enum verdict_class sig_verdict_class(enum sig_verdict v)
{
	switch (v) {
	case SIG_VALID:
		return VERDICT_TRUSTED;
	case SIG_GOOD:
	case SIG_NOT_SIGNED:
	case SIG_PARTIAL:
		return VERDICT_WARNING;
	default:
		return VERDICT_BAD;
	}
}
