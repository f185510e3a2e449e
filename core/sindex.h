/*
 * The officer's sealed search index (sindex.c): for every three-byte run
 * ("trigram") of the texts searched, the messages whose text holds it.
 * A trigram is kept only as its keyed hash under the team key's current
 * generation, and its list of messages sealed under the team key for
 * that keyed term, in the officer's own cache: nothing of a text, a
 * subject or an address is there in clear, and a list moved to another
 * term does not open.  A word of three bytes or more that a text holds
 * has each of its trigrams in it, so the messages that may hold the word
 * are those in every one of its trigrams' lists; the index never turns
 * away a message that holds it.  A search opens those and confirms.
 */
#ifndef SECTEAM_CORE_SINDEX_H
#define SECTEAM_CORE_SINDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct session;
struct sindex;

/* The index of this session's store, keyed under the team key's current
 * generation (emptied when it was keyed under another: a rotation); NULL
 * when there is no team key or no usable cache (then every text is
 * opened, as without an index). */
struct sindex *sindex_open(struct session *sess);
/* Whether message id is indexed.  What a stored message opens to never
 * changes (the store refuses another digest, or another form than as
 * received), and a message's id is never another's under the same team
 * key (the index is emptied under another: sindex.c's stamp), so a
 * message indexed once stays so without reading its row. */
bool sindex_has(const struct sindex *x, int64_t id);
/*
 * The indexed messages that may hold word (folded as search folds the
 * texts): true with their ids, ascending, in *ids (the caller's) and *n;
 * false when the index cannot tell (a word shorter than three bytes, a
 * list that does not open): then any message may.  A list that does not
 * open empties the index (sindex_has is then false for every message,
 * so ask it after this).
 */
bool sindex_candidates(struct sindex *x, const char *word, int64_t **ids,
		       size_t *n);
/* Message id, its body's key, indexed from the folded text low[0..len)
 * (kept on sindex_close). */
void sindex_learn(struct sindex *x, int64_t id, const char *key,
		  const char *low, size_t len);
/* Message id of report report_id, just stored (an import), indexed
 * from the folded text low[0..len) it is searched as: its body's key is
 * read from the store when the index is written (sindex_close), so
 * close it only once what stored the message is committed; a message
 * no longer there then is not recorded as indexed. */
void sindex_learn_stored(struct sindex *x, int64_t report_id, int64_t id,
			 const char *low, size_t len);
/* Writes what was learned (best effort: the index is for speed) and
 * frees x.  Safe on NULL. */
void sindex_close(struct sindex *x);

#endif
