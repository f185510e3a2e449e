/*
 * Loading SQLite (store/sqlite.h): the one file that sees the table's
 * slots rather than the redefined names.
 */
#include <pthread.h>

#define STORE_SQLITE_LOADER
#include "store/sqlite.h"
#include "util/util.h"

static struct store_sqlite table;

static void load(void)
{
	static void *lib;
#define STORE_SQLITE_NAME(f) #f,
#define STORE_SQLITE_SLOT(f) (void **)&table.f,
	static const char *const names[] = { STORE_SQLITE_FNS(
		STORE_SQLITE_NAME) };
	void **const slots[] = { STORE_SQLITE_FNS(STORE_SQLITE_SLOT) };
#undef STORE_SQLITE_NAME
#undef STORE_SQLITE_SLOT
	struct err err = { 0, "" };

	if (dl_load(&lib, STORE_SQLITE_SONAME, "a SQLite store", "SQLite 3",
		    names, slots, ARRAY_SIZE(names), &err))
		die("%s", err.msg);
}

const struct store_sqlite *store_sqlite(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, load);
	return &table;
}
