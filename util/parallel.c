/*
 * Work shared out over the processors (util.h's util_parallel): [0, n)
 * cut into as many shares as there are processors (at most
 * PARALLEL_MAX), one per thread, the first on the calling thread.  A
 * share whose thread cannot start is done on the calling thread: the
 * work is always done whole.
 */
#include <pthread.h>
#include <unistd.h>

#include "util/util.h"

#define PARALLEL_MAX 4

struct share {
	void (*fn)(size_t from, size_t to, void *data);
	void *data;
	size_t from, to;
};

static void *run_share(void *data)
{
	struct share *sh = data;

	sh->fn(sh->from, sh->to, sh->data);
	return NULL;
}

void util_parallel(size_t n, size_t min,
		   void (*fn)(size_t from, size_t to, void *data), void *data)
{
	struct share sh[PARALLEL_MAX];
	pthread_t th[PARALLEL_MAX];
	bool started[PARALLEL_MAX] = { false };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t nt = cpus < 1	      ? 1
		: cpus > PARALLEL_MAX ? PARALLEL_MAX
				      : (size_t)cpus;

	if (n < min || n < 2)
		nt = 1;
	for (size_t t = 0; t < nt; t++)
		sh[t] = (struct share){ fn, data, n * t / nt,
					n * (t + 1) / nt };
	for (size_t t = 1; t < nt; t++)
		started[t] = pthread_create(&th[t], NULL, run_share, &sh[t]) ==
			0;
	run_share(&sh[0]);
	for (size_t t = 1; t < nt; t++) {
		if (started[t])
			pthread_join(th[t], NULL);
		else
			run_share(&sh[t]);
	}
}
