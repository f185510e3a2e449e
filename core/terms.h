/*
 * A message's terms filter (terms.c): a Bloom filter of every three-byte
 * run ("trigram") of the text a search matches in it, so that a search
 * can pass over a message that cannot hold a word without opening it.
 * A word of three bytes or more that the text holds has each of its
 * trigrams there, so the filter never turns away a message that holds
 * the word; it may let through one that does not (then it is opened and
 * found not to).  The filter is sealed with the team key wherever it is
 * kept (search.c's cache), as the text it comes from.
 */
#ifndef SECTEAM_CORE_TERMS_H
#define SECTEAM_CORE_TERMS_H

#include <stdbool.h>
#include <stddef.h>

/* The filter of text[0..len) (a new buffer, *n its size). */
unsigned char *terms_filter(const char *text, size_t len, size_t *n);
/* Whether the text the filter f[0..n) was made from may hold needle
 * (true for a needle shorter than three bytes, and for a filter that is
 * not one: nothing is turned away on a doubt). */
bool terms_may_hold(const unsigned char *f, size_t n, const char *needle);

#endif
