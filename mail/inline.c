/*
 * Inline PGP: armored blocks pasted into a text/plain body.
 *
 * A block is an armor header line at the start of a line and its matching
 * end line: "BEGIN PGP MESSAGE" ends at "END PGP MESSAGE", "BEGIN PGP
 * SIGNED MESSAGE" at "END PGP SIGNATURE" (after the cleartext and the
 * signature armor).  Armor lines may carry trailing blanks and CR.  A block
 * without its end line is not a block, so text quoting half a block stays
 * plain text.  Offsets cover the armor lines including the end line's
 * line terminator.
 */
#include <string.h>

#include "mail/mail.h"

static const char BEGIN_MSG[] = "-----BEGIN PGP MESSAGE-----";
static const char END_MSG[] = "-----END PGP MESSAGE-----";
static const char BEGIN_SIGNED[] = "-----BEGIN PGP SIGNED MESSAGE-----";
static const char END_SIG[] = "-----END PGP SIGNATURE-----";

/* End of the line starting at p (the position of '\n', or len). */
static size_t line_end(const char *t, size_t len, size_t p)
{
	const char *nl = memchr(t + p, '\n', len - p);

	return nl ? (size_t)(nl - t) : len;
}

/* True when the line [p, e) is exactly word, blanks and CR aside. */
static bool line_is(const char *t, size_t p, size_t e, const char *word)
{
	size_t n = strlen(word);

	while (e > p &&
	       (t[e - 1] == ' ' || t[e - 1] == '\t' || t[e - 1] == '\r'))
		e--;
	return e - p == n && !memcmp(t + p, word, n);
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' ||
		c == '\v';
}

/* Returns the number of blocks; *blocks is NULL when there are none (free()
 * is fine either way).  Cannot fail. */
size_t pgp_find_blocks(const char *text, size_t len, struct pgp_block **blocks,
		       bool *outside)
{
	size_t n = 0, alloc = 0, p = 0, prev_end = 0;
	bool out = false;

	*blocks = NULL;
	while (p < len) {
		size_t e = line_end(text, len, p);
		const char *end_word = NULL;
		enum pgp_block_kind kind = PGP_BLOCK_MESSAGE;

		if (line_is(text, p, e, BEGIN_MSG))
			end_word = END_MSG;
		else if (line_is(text, p, e, BEGIN_SIGNED)) {
			end_word = END_SIG;
			kind = PGP_BLOCK_SIGNED;
		}
		if (!end_word) {
			p = e < len ? e + 1 : len;
			continue;
		}
		size_t q = e < len ? e + 1 : len, qe = 0;
		bool found = false;
		while (q < len) {
			qe = line_end(text, len, q);
			if (line_is(text, q, qe, end_word)) {
				found = true;
				break;
			}
			q = qe < len ? qe + 1 : len;
		}
		if (!found) {
			p = e < len ? e + 1 : len;
			continue;
		}
		if (n == alloc) {
			alloc = alloc ? alloc * 2 : 4;
			*blocks = xrealloc(*blocks, alloc * sizeof(**blocks));
		}
		(*blocks)[n].kind = kind;
		(*blocks)[n].start = p;
		(*blocks)[n].end = qe < len ? qe + 1 : len;
		for (size_t i = prev_end; i < p && !out; i++)
			out = !blank(text[i]);
		prev_end = (*blocks)[n].end;
		p = prev_end;
		n++;
	}
	for (size_t i = prev_end; i < len && !out; i++)
		out = !blank(text[i]);
	if (outside)
		*outside = out;
	return n;
}
