/* The numbered migrations of each engine (internal to store/). */
#ifndef SECTEAM_STORE_SCHEMA_H
#define SECTEAM_STORE_SCHEMA_H

#include <stddef.h>

/* schema-sqlite.c: entry i brings PRAGMA user_version from i to i+1. */
extern const char *const schema_sqlite[];
extern const size_t schema_sqlite_count;
/* schema-pg.c: entry i brings secteam.schema_info from i to i+1. */
extern const char *const schema_pg[];
extern const size_t schema_pg_count;

#endif
