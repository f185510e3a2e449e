/*
 * Process hygiene for a program that holds embargoed plaintext: no core
 * dumps (so a crash does not leave a report on disk), a private umask, and
 * wiping that the compiler may not optimise away.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "util.h"

void wipe(void *p, size_t n)
{
	if (p && n)
		explicit_bzero(p, n);
}

void wipe_free(void *p, size_t n)
{
	wipe(p, n);
	free(p);
}

void secure_process_init(void)
{
	struct rlimit rl = { 0, 0 };

	umask(077);
	setrlimit(RLIMIT_CORE, &rl);
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}
