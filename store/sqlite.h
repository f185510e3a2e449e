/*
 * SQLite, loaded when a store or the search terms' cache is first opened
 * on it (dlopen, util/dl.c), not by every start of the program: a
 * command on a team server never needs it.
 *
 * Private to store/: db-sqlite.c and terms-cache.c include this header
 * instead of <sqlite3.h>, and keep SQLite's own names, each redefined
 * below to go through the loaded table (as mail/gmime.h does for GMime).
 * A call not listed is a link error, since the program does not link
 * SQLite.  The first use loads it; a program that cannot dies with a line
 * naming the library, a dependency of the package as a linked one is.
 */
#ifndef SECTEAM_STORE_SQLITE_H
#define SECTEAM_STORE_SQLITE_H

#include <sqlite3.h>

#define STORE_SQLITE_SONAME "libsqlite3.so.0"

/* clang-format off */
#define STORE_SQLITE_FNS(X) \
	X(sqlite3_bind_blob) \
	X(sqlite3_bind_blob64) \
	X(sqlite3_bind_int64) \
	X(sqlite3_bind_null) \
	X(sqlite3_bind_text) \
	X(sqlite3_busy_timeout) \
	X(sqlite3_changes) \
	X(sqlite3_clear_bindings) \
	X(sqlite3_close) \
	X(sqlite3_column_blob) \
	X(sqlite3_column_bytes) \
	X(sqlite3_column_int) \
	X(sqlite3_column_int64) \
	X(sqlite3_column_text) \
	X(sqlite3_column_type) \
	X(sqlite3_db_config) \
	X(sqlite3_errmsg) \
	X(sqlite3_exec) \
	X(sqlite3_extended_errcode) \
	X(sqlite3_extended_result_codes) \
	X(sqlite3_finalize) \
	X(sqlite3_get_autocommit) \
	X(sqlite3_open_v2) \
	X(sqlite3_prepare_v2) \
	X(sqlite3_prepare_v3) \
	X(sqlite3_reset) \
	X(sqlite3_step)
/* clang-format on */

struct store_sqlite {
#define STORE_SQLITE_FIELD(f) __typeof__(f) *f;
	STORE_SQLITE_FNS(STORE_SQLITE_FIELD)
#undef STORE_SQLITE_FIELD
};

/* The table, loaded on the first call. */
const struct store_sqlite *store_sqlite(void);

#ifndef STORE_SQLITE_LOADER
/* clang-format off */
#define sqlite3_bind_blob(...) (*store_sqlite()->sqlite3_bind_blob)(__VA_ARGS__)
#define sqlite3_bind_blob64(...) (*store_sqlite()->sqlite3_bind_blob64)(__VA_ARGS__)
#define sqlite3_bind_int64(...) (*store_sqlite()->sqlite3_bind_int64)(__VA_ARGS__)
#define sqlite3_bind_null(...) (*store_sqlite()->sqlite3_bind_null)(__VA_ARGS__)
#define sqlite3_bind_text(...) (*store_sqlite()->sqlite3_bind_text)(__VA_ARGS__)
#define sqlite3_busy_timeout(...) (*store_sqlite()->sqlite3_busy_timeout)(__VA_ARGS__)
#define sqlite3_changes(...) (*store_sqlite()->sqlite3_changes)(__VA_ARGS__)
#define sqlite3_clear_bindings(...) (*store_sqlite()->sqlite3_clear_bindings)(__VA_ARGS__)
#define sqlite3_close(...) (*store_sqlite()->sqlite3_close)(__VA_ARGS__)
#define sqlite3_column_blob(...) (*store_sqlite()->sqlite3_column_blob)(__VA_ARGS__)
#define sqlite3_column_bytes(...) (*store_sqlite()->sqlite3_column_bytes)(__VA_ARGS__)
#define sqlite3_column_int(...) (*store_sqlite()->sqlite3_column_int)(__VA_ARGS__)
#define sqlite3_column_int64(...) (*store_sqlite()->sqlite3_column_int64)(__VA_ARGS__)
#define sqlite3_column_text(...) (*store_sqlite()->sqlite3_column_text)(__VA_ARGS__)
#define sqlite3_column_type(...) (*store_sqlite()->sqlite3_column_type)(__VA_ARGS__)
#define sqlite3_db_config(...) (*store_sqlite()->sqlite3_db_config)(__VA_ARGS__)
#define sqlite3_errmsg(...) (*store_sqlite()->sqlite3_errmsg)(__VA_ARGS__)
#define sqlite3_exec(...) (*store_sqlite()->sqlite3_exec)(__VA_ARGS__)
#define sqlite3_extended_errcode(...) (*store_sqlite()->sqlite3_extended_errcode)(__VA_ARGS__)
#define sqlite3_extended_result_codes(...) (*store_sqlite()->sqlite3_extended_result_codes)(__VA_ARGS__)
#define sqlite3_finalize(...) (*store_sqlite()->sqlite3_finalize)(__VA_ARGS__)
#define sqlite3_get_autocommit(...) (*store_sqlite()->sqlite3_get_autocommit)(__VA_ARGS__)
#define sqlite3_open_v2(...) (*store_sqlite()->sqlite3_open_v2)(__VA_ARGS__)
#define sqlite3_prepare_v2(...) (*store_sqlite()->sqlite3_prepare_v2)(__VA_ARGS__)
#define sqlite3_prepare_v3(...) (*store_sqlite()->sqlite3_prepare_v3)(__VA_ARGS__)
#define sqlite3_reset(...) (*store_sqlite()->sqlite3_reset)(__VA_ARGS__)
#define sqlite3_step(...) (*store_sqlite()->sqlite3_step)(__VA_ARGS__)
/* clang-format on */
#endif

#endif
