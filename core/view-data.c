/*
 * The data the interactive UI pages through, in the shapes a screen needs:
 * compact keys for every report (sorted and filtered by the UI itself),
 * one full row for each visible line, and the ids a search matches.
 * Thin: the queries live in store/page-repo.c.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "store/store.h"

static struct store *store_or_err(struct session *sess, struct err *err)
{
	struct store *s = session_store(sess, err);

	return s;
}

int report_keys(struct session *sess, struct report_key **out, size_t *n,
		struct err *err)
{
	struct store *s = store_or_err(sess, err);

	*out = NULL;
	*n = 0;
	return s ? store_report_keys(s, out, n, err) : ERR_IO;
}

int report_get(struct session *sess, int64_t id, struct report *r,
	       struct err *err)
{
	struct store *s = store_or_err(sess, err);

	int rc = s ? store_report_get(s, id, r, err) : ERR_IO;

	if (rc == 0)
		report_verdicts_now(sess, r, 1);
	return rc;
}

int report_page(struct session *sess, const int64_t *ids, size_t n,
		struct report *out, struct err *err)
{
	struct store *s = store_or_err(sess, err);

	if (!s) {
		memset(out, 0, n * sizeof(*out));
		return ERR_IO;
	}
	if (store_report_page(s, ids, n, out, err) < 0)
		return ERR_IO;
	report_verdicts_now(sess, out, n);
	return 0;
}

int report_subjects(struct session *sess, int64_t after,
		    struct report_subject **out, size_t *n, struct err *err)
{
	struct store *s = store_or_err(sess, err);

	*out = NULL;
	*n = 0;
	return s ? store_report_subjects(s, after, out, n, err) : ERR_IO;
}

/* A candidate of the first screen by deadline, with its key. */
struct first_key {
	time_t key;
	int64_t id;
};

static int cmp_first(const void *a, const void *b)
{
	const struct first_key *x = a, *y = b;

	return report_deadline_cmp(x->key, x->id, y->key, y->id);
}

/* The first `limit` ids by deadline: the store's candidates sorted by
 * the one rule (triage.h), each key computed as the list computes it. */
static int first_by_deadline(struct session *sess, struct store *s,
			     size_t limit, int64_t *ids, size_t *n,
			     struct err *err)
{
	struct report_key *keys;
	struct first_key *fk;
	struct policy pol;
	time_t now = util_now();
	size_t nk;
	int rc;

	if ((rc = store_report_deadline_candidates(s, report_finished_states,
						   limit, &keys, &nk, err)) < 0)
		return rc;
	policy_from_config(sess->cfg, &pol);
	fk = xcalloc(nk + 1, sizeof(*fk));
	for (size_t i = 0; i < nk; i++) {
		struct embargo e;

		embargo_of_key(&pol, &keys[i], now, &e);
		fk[i].key = report_deadline_key(&e);
		fk[i].id = keys[i].id;
	}
	qsort(fk, nk, sizeof(*fk), cmp_first);
	for (*n = 0; *n < nk && *n < limit; (*n)++)
		ids[*n] = fk[*n].id;
	free(fk);
	free(keys);
	return 0;
}

int report_first_ids(struct session *sess, const char *order, size_t limit,
		     int64_t **ids, size_t *n, struct err *err)
{
	struct store *s = store_or_err(sess, err);

	if (!s) {
		*ids = xcalloc(1, sizeof(**ids));
		*n = 0;
		return ERR_IO;
	}
	if (!strcmp(order, "deadline")) {
		*ids = xcalloc(limit + 1, sizeof(**ids));
		return first_by_deadline(sess, s, limit, *ids, n, err);
	}
	return store_report_first_ids(s, order, limit, ids, n, err);
}

int report_key(struct session *sess, int64_t id, struct report_key *k,
	       struct err *err)
{
	struct store *s = store_or_err(sess, err);

	return s ? store_report_key(s, id, k, err) : ERR_IO;
}

int report_keys_of(struct session *sess, const int64_t *ids, size_t n,
		   struct report_key **out, size_t *nout, struct err *err)
{
	struct store *s = store_or_err(sess, err);

	*out = NULL;
	*nout = 0;
	return s ? store_report_keys_of(s, ids, n, out, nout, err) : ERR_IO;
}

int report_watch_fd(struct session *sess)
{
	struct store *s = session_store(sess, NULL);

	return s ? store_watch_fd(s) : -1;
}

bool report_store_up(struct session *sess)
{
	struct store *s = session_store(sess, NULL);

	return !s || store_connected(s);
}

int report_store_reconnect(struct session *sess, struct err *err)
{
	struct store *s = store_or_err(sess, err);

	return s ? store_reconnect(s, err) : ERR_IO;
}

int report_changes(struct session *sess, int64_t *cursor, int64_t **ids,
		   size_t *n, struct err *err)
{
	struct store *s = store_or_err(sess, err);
	int64_t last;

	*ids = NULL;
	*n = 0;
	if (!s)
		return ERR_IO;
	if (*cursor < 0) {
		/* The first call: from now on. */
		int r;

		store_poll_changed(s);
		if ((r = store_event_last(s, &last, err)) < 0)
			return r;
		*cursor = last;
		return 0;
	}
	if (!store_poll_changed(s))
		return 0;
	return store_events_since(s, *cursor, cursor, ids, n, err);
}
