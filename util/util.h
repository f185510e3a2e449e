/*
 * util: the small things every other module needs, and nothing else.
 *
 * No library beyond libc lives here.  Files:
 *   xmalloc.c   allocation that never returns NULL (aborts on exhaustion)
 *   err.c       struct err: one complete lowercase message per failure
 *   sbuf.c      growable byte/string buffer, with a wiping release
 *   safetext.c  the one function that makes untrusted text safe to display
 *   timeutil.c  RFC 3339 formatting and the DATE syntax (2026-12-09, +7d, now)
 *   fileutil.c  whole-file reads with a size limit, reads that follow no
 *               symbolic link, private temp folders, files replaced whole,
 *               the officer's own cache files
 *   sha256.c    SHA-256, to key a cache by the content it was made from
 *   trusted.c   files only their user (or root) can have written: the
 *               config, templates
 *   secure.c    wiping memory, no core dumps, umask
 *   dl.c        libraries loaded when a feature first needs them
 *   edit.c      text edited in $VISUAL/$EDITOR on a private temporary file
 *   verdict.c   signature verdicts: names, order, classes (verdict.h)
 */
#ifndef SECTEAM_UTIL_H
#define SECTEAM_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#if defined(__GNUC__)
#define UTIL_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define UTIL_NORETURN __attribute__((noreturn))
#else
#define UTIL_PRINTF(f, a)
#define UTIL_NORETURN
#endif

struct stat;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* xmalloc.c: these never return NULL; they abort with a message instead. */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
void *xmemdup(const void *p, size_t n);
char *xasprintf(const char *fmt, ...) UTIL_PRINTF(1, 2);
char *xvasprintf(const char *fmt, va_list ap);
UTIL_NORETURN void die(const char *fmt, ...) UTIL_PRINTF(1, 2);
/* What die() runs first, once (NULL: nothing): the interface gives the
 * terminal back, so that the line is read and the shell usable. */
void die_hook(void (*fn)(void));

/*
 * err.c: errors.  A failing function fills *err (when err is not NULL) with
 * a complete lowercase sentence naming its subject, e.g.
 * "cannot open database 'x.db': permission denied", and returns a negative
 * code.  err_set() returns -1 so callers can write
 *     return err_set(err, "cannot read '%s': %s", path, strerror(errno));
 */
struct err {
	int code; /* negative; ERR_* below or -1 */
	char msg[1024];
};

enum {
	ERR_GENERIC = -1,
	ERR_NOTFOUND = -2, /* the thing asked for does not exist */
	ERR_INVALID = -3, /* bad input from the user or a file */
	ERR_DUPLICATE = -4, /* already present; not an error for imports */
	ERR_REFUSED = -5, /* policy or permission refuses it */
	ERR_IO = -6, /* storage or system failure */
	ERR_CRYPTO = -7, /* key or OpenPGP failure */
	ERR_BUSY = -8, /* another officer holds the lock too long */
};

int err_setc(struct err *err, int code, const char *fmt, ...) UTIL_PRINTF(3, 4);
/* err_setc with ERR_GENERIC. */
#define err_set(err, ...) err_setc((err), ERR_GENERIC, __VA_ARGS__)
/* Prefixes the current message: "importing 'a.eml': <old message>". */
int err_prefix(struct err *err, const char *fmt, ...) UTIL_PRINTF(2, 3);
void err_clear(struct err *err);

/* sbuf.c: a growable buffer, always NUL-terminated after its len bytes. */
struct sbuf {
	char *buf;
	size_t len;
	size_t alloc;
};
#define SBUF_INIT          \
	{                  \
		NULL, 0, 0 \
	}
void sbuf_init(struct sbuf *sb);
void sbuf_grow(struct sbuf *sb, size_t extra);
void sbuf_add(struct sbuf *sb, const void *data, size_t n);
void sbuf_adds(struct sbuf *sb, const char *s);
void sbuf_addch(struct sbuf *sb, int c);
void sbuf_addf(struct sbuf *sb, const char *fmt, ...) UTIL_PRINTF(2, 3);
void sbuf_vaddf(struct sbuf *sb, const char *fmt, va_list ap);
void sbuf_reset(struct sbuf *sb);
/* Returns the buffer (caller frees) and leaves sb empty. */
char *sbuf_detach(struct sbuf *sb, size_t *len);
void sbuf_release(struct sbuf *sb);
/* Like sbuf_release but overwrites the whole allocation first. */
void sbuf_wipe(struct sbuf *sb);

/*
 * safetext.c: the only way untrusted text reaches a terminal.
 * safe_text() returns a new string of valid UTF-8 in which every C0 control
 * (but those kept by flags), DEL, every C1 control, ESC, and every bidi or
 * zero-width control is replaced by a visible escape: "^[" for ESC, "^?" for
 * DEL, "<U+202E>" for code points, "\xNN" for bytes that are not UTF-8.
 * The result is a fixed point: safe_text(safe_text(s)) == safe_text(s).
 */
enum {
	SAFE_KEEP_NEWLINE = 1 << 0, /* keep '\n' (pagers) */
	SAFE_KEEP_TAB = 1 << 1, /* keep '\t' */
};
char *safe_text(const char *s, size_t len, unsigned flags);
char *safe_str(const char *s); /* one line: nothing kept; NULL gives "" */
/* safe_str of the formatted text (messages that quote a file or a report). */
char *safe_vformat(const char *fmt, va_list ap);
/* A copy of s (len bytes) that is valid UTF-8: each invalid byte becomes
 * U+FFFD; nothing else changes.  For JSON and other structured output. */
char *utf8_fix(const char *s, size_t len);
/* True when code point cp would be escaped by safe_text. */
bool safe_is_hostile_cp(uint32_t cp);
/* Decodes the strict UTF-8 sequence at s (n bytes available) into *cp;
 * returns its length, or 0 when s does not start with one. */
size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/*
 * columns.c: text in table columns.  str_cols() is the number of terminal
 * columns safe UTF-8 text takes (wide characters two); str_fit() returns
 * s in exactly width columns: padded with spaces, or cut and ended with
 * "…" (U+2026) when wider (caller frees).
 */
int str_cols(const char *s);
char *str_fit(const char *s, int width);
/*
 * A table of safe text: columns as wide as their widest cell or title,
 * at most max[c] (0: no limit), cut with "…" beyond; two spaces between
 * columns; the last column is neither padded nor cut.  The header row
 * and the cells are laid out with the same widths.
 */
struct text_table {
	size_t ncols, nrows;
	const char *const *head; /* ncols titles */
	const int *max; /* ncols limits, or NULL */
	char **cells; /* nrows * ncols copies */
};
#define TEXT_TABLE_HEAD ((size_t)-1)
void text_table_init(struct text_table *t, size_t ncols,
		     const char *const *head, const int *max);
/* Adds a row: ncols strings (NULL: empty), copied. */
void text_table_add(struct text_table *t, const char *const *cells);
/* Each column's width (w: ncols ints). */
void text_table_widths(const struct text_table *t, int *w);
/* Row row (TEXT_TABLE_HEAD: the titles) laid out in widths w (caller
 * frees). */
char *text_table_line(const struct text_table *t, const int *w, size_t row);
/* The header and every row, a line each. */
void text_table_print(const struct text_table *t, FILE *out);
void text_table_release(struct text_table *t);

/*
 * timeutil.c: time.  All stored times are UTC seconds (time_t).
 * fmt_rfc3339() writes "2026-12-09T12:00:00Z" into buf (>= 21 bytes).
 * parse_date() accepts "2026-12-09" (12:00 UTC), "2026-12-09T12:00Z",
 * "2026-12-09T12:00:00Z", "2026-12-09 12:00", "+7d", "+36h", "-2d", "now";
 * relative forms count from now; 0 on success, negative with err otherwise.
 */
char *fmt_rfc3339(time_t t, char buf[static 32]);
char *fmt_local(time_t t, char buf[static 64]);
int parse_date(const char *s, time_t now, time_t *out, struct err *err);
/* The forms parse_date() takes, each an example and what it means
 * (NULL-terminated): the help of the commands that take a date. */
extern const char *const date_forms[];
int parse_duration(const char *s, long *seconds, struct err *err);
/* The current time: the real clock, never the environment. */
time_t util_now(void);
/* Whole days from a to b, rounded toward negative infinity. */
long days_between(time_t a, time_t b);
/* The one wording of a date ahead, days its days_between(now, date):
 * "in 9 days", "in 1 day", "within a day" (less than one whole day
 * left), as the list's DUE column counts them (+9d).  Returns buf. */
const char *fmt_in_days(long days, char buf[static 32]);

/* fileutil.c */
/* Reads all of path (or stdin for "-") up to max bytes; NUL-terminates. */
int read_file(const char *path, size_t max, char **out, size_t *len,
	      struct err *err);
int read_fd(int fd, const char *name, size_t max, char **out, size_t *len,
	    struct err *err);
/* A descriptor of path for reading, or negative with err naming it
 * (ERR_NOTFOUND when it does not exist). */
int open_read(const char *path, struct err *err);
/*
 * Opens rel (relative, no "..") inside the folder dir for reading, with
 * no symbolic link followed anywhere in rel (dir itself may be one): for
 * files listed in a folder that someone else may write to.  Returns the
 * descriptor of a regular file, or negative with err naming dir/rel ("a
 * symbolic link: not followed", "not a regular file", ...).
 */
int open_beneath(const char *dir, const char *rel, struct err *err);
/*
 * trusted.c: opens path (a config, a template: what decides the commands
 * run and the mail sent) for reading when nobody but the user and root
 * can have written it.  The file, every folder from the root down to it
 * and every symbolic link followed must be the user's or root's and
 * writable by nobody else (a group only when nobody else is in it: no
 * other user has it as primary group or is listed in it); a sticky
 * folder others can write (/tmp) may be passed through, but may hold
 * neither the file nor a link.  Returns the descriptor, checked with
 * fstat; ERR_NOTFOUND when a name is missing (after the folders before
 * it passed); ERR_REFUSED with err naming the file, folder or link and
 * what is wrong, e.g. "folder '/x' is writable by others (mode 0777;
 * run: chmod go-w '/x')"; ERR_IO or ERR_INVALID otherwise.
 */
int open_trusted(const char *path, struct err *err);
/* sha256.c: the SHA-256 of data[0..len) into out. */
void sha256(const void *data, size_t len, unsigned char out[32]);
/* mkdir -p with mode for each created component. */
int mkdir_p(const char *path, int mode, struct err *err);
/* The program's cache folder (a new string): $SECTEAM_CACHE, else
 * $XDG_CACHE_HOME/secteam-tui, else $HOME/.cache/secteam-tui; NULL with
 * none of them set.  Not created. */
char *cache_dir(void);
/* The cache file of one database: cache_dir()/KIND-HASH.SUFFIX, HASH of
 * where (the database's path or connection), the folder made (0700) if
 * missing; NULL without a cache folder. */
char *cache_file(const char *kind, const char *where, const char *suffix);
/*
 * Opens a file of the officer's cache (flags | O_NOFOLLOW | O_CLOEXEC;
 * with O_CREAT it is made 0600) when it is a regular file of this user's
 * that nobody else may read or write: what another user planted or can
 * change is never used.  what names it in errors ("the search cache").
 * Returns the descriptor (*st filled when st is not NULL); ERR_NOTFOUND
 * when it does not exist, ERR_REFUSED when it is not this user's alone,
 * ERR_IO otherwise, err naming the file.
 */
int open_own_file(const char *path, int flags, const char *what,
		  struct stat *st, struct err *err);
/* Syncs the folder dir, so that a file just renamed into it stays there
 * after a crash; best effort (a folder that cannot be opened is left). */
void fsync_dir(const char *dir);
/* Creates a new 0700 folder under $TMPDIR (mkdtemp) and returns a
 * descriptor of it (to reach what is inside even if the name is moved
 * away: $TMPDIR may let others rename entries), its path in *path; or
 * negative with err naming $TMPDIR. */
int tmpdir_private(const char *prefix, char **path, struct err *err);

/*
 * A file written whole or not at all, safe in a folder other users can
 * write: the bytes go to a new temporary file beside the target (created
 * with O_EXCL, so nobody else's file is ever written through), which
 * atomic_file_commit renames over the target.  Opening refuses a target
 * that is a symbolic link, not a regular file, or owned by another user,
 * with err naming it.  The result has exactly the given mode, whatever
 * the umask and whatever mode a file of that name had before.
 */
struct atomic_file {
	char *path; /* the target */
	char *tmp; /* the temporary file beside it, until commit */
	FILE *f; /* write the content here */
};
/* Returns 0 with af->f open for writing, or negative with err set. */
int atomic_file_open(struct atomic_file *af, const char *path, int mode,
		     struct err *err);
/* Flushes and syncs the content and renames it into place.  Returns 0,
 * or negative with err naming the file; the target is then unchanged
 * and the temporary file removed.  af is released either way. */
int atomic_file_commit(struct atomic_file *af, struct err *err);
/* Drops the content: the temporary file is removed, the target left as
 * it was.  Safe on a released af. */
void atomic_file_abort(struct atomic_file *af);

/* edit.c: initial text edited in $VISUAL, else $EDITOR, else vi, as a
 * file `name` in a private temporary folder (removed, its files wiped).
 * around (may be NULL) is called with true before the editor runs and
 * false after (the UI suspends curses).  Returns 0 with *text (caller
 * wipes and frees), or negative with err saying why (the editor failed,
 * the folder was replaced). */
int edit_text(const char *name, const char *initial,
	      void (*around)(bool before), char **text, struct err *err);

/* secure.c */
void wipe(void *p, size_t n);
void wipe_free(void *p, size_t n);

/* dl.c: soname loaded once (*lib, then kept) and each of names[0..n)
 * into *slots[i] (a function pointer's address); 0, or ERR_IO: "WHAT
 * needs SONAME: why", or "SONAME has no NAME: not the WHICH this program
 * was built for". */
int dl_load(void **lib, const char *soname, const char *what, const char *which,
	    const char *const *names, void **const *slots, size_t n,
	    struct err *err);
/* The same, the library's own dependencies searched before the
 * program's for its symbols (RTLD_DEEPBIND): for a C library that brings
 * many of its own (libpq: OpenSSL, Kerberos, LDAP), whose thousands of
 * symbols would otherwise each be looked for through every library the
 * program links first.  Not under AddressSanitizer, which refuses it. */
int dl_load_deep(void **lib, const char *soname, const char *what,
		 const char *which, const char *const *names,
		 void **const *slots, size_t n, struct err *err);

/* fn over [0, n) in shares, one thread each (as many as there are
 * processors, at most 4; one below min items), the first share on the
 * calling thread; returns when every share is done.  fn must touch
 * nothing another share does. */
void util_parallel(size_t n, size_t min,
		   void (*fn)(size_t from, size_t to, void *data), void *data);
/* No core dumps, umask 077: called first thing by main(). */
void secure_process_init(void);

/* strutil.c */
/* RFC 4648 base64 of len bytes (a new string, no line breaks); and back:
 * 0 with *out (caller frees) and *outlen, or -1 for text that is not
 * base64 (bad character, bad length or padding). */
char *base64_encode(const void *data, size_t len);
int base64_decode(const char *s, unsigned char **out, size_t *outlen);
/* As base64_decode, into buf (cap bytes): 0, -1 when s is no base64, or
 * 1 when it needs more than cap bytes (nothing decoded). */
int base64_decode_buf(const char *s, unsigned char *buf, size_t cap,
		      size_t *outlen);
bool str_starts(const char *s, const char *prefix);
bool str_ends(const char *s, const char *suffix);
/* Two OpenPGP fingerprints, or a fingerprint and the long key ID (its
 * last 16 hex digits) a signature gave instead, naming the same key
 * (case-insensitive); false when either is empty. */
bool fpr_same_key(const char *a, const char *b);
char *str_trim(char *s);
char *str_lower(char *s);
int str_cmp_ci(const char *a, const char *b);

#endif
