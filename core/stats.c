/*
 * The team's numbers (stats.h).  Three reads: the compact key of every
 * report (store_report_keys, as the list view pages 100,000 reports),
 * the milestones of every report from its events (one grouped query),
 * and every touched file (one scan).  Everything else is counted here.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/embargo.h"
#include "core/stats.h"
#include "store/store.h"

#define DAY 86400.0

void team_stats_release(struct team_stats *st)
{
	struct stats_count *lists[] = { st->months, st->states,
					st->subsystems };
	size_t lens[] = { st->nmonths, st->nstates, st->nsubsystems };

	for (size_t l = 0; l < ARRAY_SIZE(lists); l++) {
		for (size_t i = 0; i < lens[l]; i++)
			free(lists[l][i].name);
		free(lists[l]);
	}
	free(st->overdue);
	memset(st, 0, sizeof(*st));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median and 90th percentile of v (days); v is sorted. */
static void days_of(double *v, size_t n, struct stats_days *d)
{
	size_t rank;

	d->n = n;
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_double);
	d->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	rank = (n * 9 + 9) / 10; /* ceil(0.9 n), from 1 */
	d->p90 = v[rank - 1];
}

static void count_add(struct stats_count **v, size_t *n, const char *name)
{
	if (*n && !strcmp((*v)[*n - 1].name, name)) {
		(*v)[*n - 1].n++;
		return;
	}
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n].name = xstrdup(name);
	(*v)[(*n)++].n = 1;
}

static int cmp_month(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Reports per month received, from the keys. */
static void by_month(struct team_stats *st, const struct report_key *k,
		     size_t n)
{
	char(*m)[16] = xcalloc(n + 1, sizeof(*m));
	char **p = xcalloc(n + 1, sizeof(*p));

	for (size_t i = 0; i < n; i++) {
		struct tm tm;
		time_t t = k[i].received;
		gmtime_r(&t, &tm);
		snprintf(m[i], sizeof(m[i]), "%04d-%02d",
			 (tm.tm_year + 1900) % 10000, (tm.tm_mon + 1) % 100);
		p[i] = m[i];
	}
	qsort(p, n, sizeof(*p), cmp_month);
	for (size_t i = 0; i < n; i++)
		count_add(&st->months, &st->nmonths, p[i]);
	free(p);
	free(m);
}

static void by_state(struct team_stats *st, const struct report_key *k,
		     size_t n)
{
	for (size_t s = 0; report_states[s]; st->nstates++, s++) {
		st->states =
			xrealloc(st->states, (s + 1) * sizeof(*st->states));
		st->states[s].name = xstrdup(report_states[s]);
		st->states[s].n = 0;
		for (size_t i = 0; i < n; i++)
			st->states[s].n +=
				!strcmp(k[i].state, report_states[s]);
	}
}

/* The top folders of every report's files, each once per report. */
struct dirs {
	char **v;
	size_t n, alloc;
	int64_t report; /* the report whose dirs are at v[first..] */
	size_t first;
};

static int dir_row(int64_t report_id, const char *path, void *data)
{
	struct dirs *d = data;
	size_t len = strcspn(path, "/");
	char *dir = path[len] ? xstrndup(path, len) : xstrdup("(top level)");

	if (report_id != d->report) {
		d->report = report_id;
		d->first = d->n;
	}
	for (size_t i = d->first; i < d->n; i++)
		if (!strcmp(d->v[i], dir)) {
			free(dir);
			return 0;
		}
	if (d->n == d->alloc) {
		d->alloc = d->alloc ? d->alloc * 2 : 256;
		d->v = xrealloc(d->v, d->alloc * sizeof(*d->v));
	}
	d->v[d->n++] = dir;
	return 0;
}

static int cmp_count(const void *a, const void *b)
{
	const struct stats_count *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int by_subsystem(struct session *sess, struct team_stats *st,
			struct err *err)
{
	struct dirs d = { NULL, 0, 0, 0, 0 };
	int r = store_files_each(sess->store, dir_row, &d, err);

	if (r == 0) {
		qsort(d.v, d.n, sizeof(*d.v), cmp_month);
		for (size_t i = 0; i < d.n; i++)
			count_add(&st->subsystems, &st->nsubsystems, d.v[i]);
		qsort(st->subsystems, st->nsubsystems, sizeof(*st->subsystems),
		      cmp_count);
	}
	for (size_t i = 0; i < d.n; i++)
		free(d.v[i]);
	free(d.v);
	return r;
}

static int by_id(const void *key, const void *elem)
{
	int64_t a = *(const int64_t *)key;
	int64_t b = ((const struct report_milestones *)elem)->report_id;

	return a < b ? -1 : a > b;
}

/* Days to triage, fix and disclose; embargo lengths; overdue now. */
static void durations(struct team_stats *st, const struct report_key *k,
		      size_t n, const struct report_milestones *ms, size_t nms,
		      const struct policy *pol)
{
	double *v[3];
	size_t c[3] = { 0, 0, 0 };

	for (size_t j = 0; j < 3; j++)
		v[j] = xcalloc(n + 1, sizeof(double));
	for (size_t i = 0; i < n; i++) {
		const struct report_milestones *m = nms
			? bsearch(&k[i].id, ms, nms, sizeof(*ms), by_id)
			: NULL;
		time_t at[3] = { m ? m->triaged : 0, m ? m->fixed : 0,
				 m ? m->disclosed : 0 };
		struct embargo e;
		struct report r;

		for (size_t j = 0; j < 3; j++)
			if (at[j])
				v[j][c[j]++] =
					(double)(at[j] > k[i].received
							 ? at[j] - k[i].received
							 : 0) /
					DAY;
		memset(&r, 0, sizeof(r));
		r.received = k[i].received;
		r.release_started = k[i].release_started;
		if (k[i].disclosure) {
			time_t len = k[i].disclosure - policy_clock_start(&r);
			st->decided++;
			st->over7 += len > 7 * 86400;
			st->over14 += len > 14 * 86400;
		}
		embargo_of_key(pol, &k[i], st->now, &e);
		if (e.state == EMBARGO_OVERDUE) {
			st->overdue = xrealloc(st->overdue,
					       (st->noverdue + 1) *
						       sizeof(*st->overdue));
			st->overdue[st->noverdue++] = k[i].id;
		}
	}
	days_of(v[0], c[0], &st->triage);
	days_of(v[1], c[1], &st->fix);
	days_of(v[2], c[2], &st->disclose);
	for (size_t j = 0; j < 3; j++)
		free(v[j]);
}

int team_stats_compute(struct session *sess, struct team_stats *st,
		       struct err *err)
{
	struct store *s = session_store(sess, err);
	struct report_key *keys = NULL;
	struct report_milestones *ms = NULL;
	struct policy pol;
	size_t n = 0, nms = 0;
	int r;

	memset(st, 0, sizeof(*st));
	if (!s)
		return ERR_IO;
	st->now = util_now();
	policy_from_config(sess->cfg, &pol);
	if ((r = store_report_keys(s, &keys, &n, err)) == 0 &&
	    (r = store_report_milestones(s, &ms, &nms, err)) == 0 &&
	    (r = by_subsystem(sess, st, err)) == 0) {
		st->reports = n;
		by_month(st, keys, n);
		by_state(st, keys, n);
		durations(st, keys, n, ms, nms, &pol);
	}
	free(keys);
	free(ms);
	if (r < 0)
		team_stats_release(st);
	return r;
}
