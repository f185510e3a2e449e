/*
 * maint-int.h: what the files of maint/ share and nobody else sees.
 *
 * The loaded MAINTAINERS file (struct maint_db) is kept as
 * get_maintainer.pl keeps it: one array of lines ("type-values"), where a
 * section is a run of `X:` lines and its name the line before the run.
 * Beside it: the F:/X: patterns indexed by literal prefix, the N:/K:
 * regexes, the .mailmap, and what lookups compile or learn lazily (the
 * db is const there).  Small containers (a string map, vectors, an
 * arena) serve all of them.
 */
#ifndef SECTEAM_MAINT_INT_H
#define SECTEAM_MAINT_INT_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <stdint.h>

#include "maint/maint.h"

#define MAINT_MAX_CONTENT (64u << 20) /* K: keywords read files up to 64 MB */
#define MAINT_SECTION_MAXLEN 50 /* $output_section_maxlen */

/* ---- small containers (containers.c) ---- */

struct smap_ent {
	char *key;
	size_t klen;
	uint64_t h;
	void *val;
};

/* Open-addressing map from byte strings to pointers. */
struct smap {
	struct smap_ent *v;
	size_t cap, n;
	bool borrowed; /* keys belong to the caller (an arena) */
};

#define FNV_INIT 1469598103934665603ULL
static inline uint64_t fnv_step(uint64_t h, unsigned char c)
{
	return (h ^ c) * 1099511628211ULL;
}

/* The entry of k[0..klen) whose hash (FNV-1a, fnv_step) is h, or NULL. */
struct smap_ent *smap_find(const struct smap *m, const char *k, size_t klen,
			   uint64_t h);
/* The value slot of k[0..klen), added (NULL) when absent. */
void **smap_slot(struct smap *m, const char *k, size_t klen);
/* Room for n keys in an empty map. */
void smap_reserve(struct smap *m, size_t n);
void *smap_get(const struct smap *m, const char *k);
/* Frees the keys (unless borrowed) and, with freeval, the values. */
void smap_release(struct smap *m, void (*freeval)(void *));

struct ivec {
	uint32_t *v;
	size_t n, alloc;
};
void ivec_push(struct ivec *iv, uint32_t x);
void ivec_free(void *iv); /* a struct ivec * from xcalloc, for smap_release */

struct svec {
	char **v;
	size_t n, alloc;
};
void svec_push(struct svec *sv, char *s); /* takes s */
void svec_release(struct svec *sv);
/* Sorts by strcmp and drops repeats (freeing them). */
void svec_sort_uniq(struct svec *sv);

/* Bump allocation for what lives as long as the db (pattern texts). */
struct arena {
	char **chunks;
	size_t n;
	char *cur;
	size_t left;
};
char *arena_alloc(struct arena *a, size_t n);
void arena_release(struct arena *a);

/* ---- the database ---- */

/*
 * A loaded MAINTAINERS is one image (image.c): flat arrays and a string
 * pool addressed by 32-bit offsets, the same bytes whether just parsed
 * (parse.c builds it) or mapped from the compiled copy in the officer's
 * cache (cache.c).  Nothing in it is a pointer, so it is used where it
 * lies; what lookups compile or learn lives beside it (struct lazy, the
 * *_lazy arrays).
 */
#define MIMG_MAGIC "secteam-maint\0\0"
#define MIMG_VERSION 1u
#define MIMG_NONE UINT32_MAX /* no section */

struct mimg_stat { /* what says a file is unchanged without reading it */
	int64_t dev, ino, size, mtime_s, mtime_ns, ctime_s, ctime_ns;
};

struct mimg_hdr {
	char magic[16];
	uint32_t version, byte_order; /* MIMG_VERSION, 0x01020304 */
	uint64_t size; /* of the whole image */
	uint64_t sum; /* maint_img_sum() of what follows the header */
	unsigned char maint_sha[32], mailmap_sha[32]; /* the sources */
	struct mimg_stat maint_st, mailmap_st; /* zeros: hash them */
	uint32_t nlines, nsects, nfpats, nnpats, nkpats, nplist;
	uint32_t prefix_cap, mmn_cap, mma_cap, str_len;
	uint32_t off_lines, off_sects, off_fpats, off_npats, off_kpats;
	uint32_t off_plist, off_prefix, off_mmn, off_mma, off_str;
};

struct mline {
	uint32_t text; /* the value (F:/X: as a regex), or the line */
	uint32_t sect; /* MIMG_NONE outside any section */
	char type; /* 'A'..'Z' for "T: value" lines, 0 for other lines */
	char pad[3];
};

struct msect {
	uint32_t key, start, end; /* get_maintainer.pl's $tvi, $start, $end */
	uint32_t disp; /* name cut to 50 bytes */
	uint32_t rword; /* "maintainer", from the last S: */
	uint8_t catch_all, security, pad[2];
};

struct mfpat { /* F: or X: */
	uint32_t line, sect;
	char type;
	uint8_t simple; /* the glob matcher handles it */
	char pad[2];
};

struct mrpat { /* N: or K: */
	uint32_t line, sect, re;
	uint8_t literal; /* plain text: a substring search answers it */
	char pad[3];
};

/* A hash slot: key (klen bytes of the pool) -> val, n (n == 0: empty).
 * The prefix index maps a literal prefix to plist[val .. val + n); the
 * .mailmap tables map a key to the string at val. */
struct mslot {
	uint64_t h; /* FNV-1a of the key */
	uint32_t key, klen, val, n;
};

struct fpat_lazy {
	int8_t dir; /* -1 not yet known, else whether -d (add a '/') */
	char *eff; /* the pattern as matched (with the '/'), once known */
	pcre2_code *code; /* for !simple, compiled on first use */
};

struct rpat_lazy {
	pcre2_code *code; /* m/$re/x */
	pcre2_code *pcode; /* m/^[+-].*$re/x, K: in a patch's body */
};

/* What is compiled or learned during lookups (the db is const there). */
struct lazy {
	pcre2_match_data *md1;
	pcre2_match_data *md4;
	pcre2_compile_context *cctx;
	pcre2_match_context *mctx; /* bounds the work of one match */
	bool npats_ready;
	pcre2_code *re_email[3]; /* parse_email() */
	pcre2_code *re_fileaddr; /* maintainers_in_file() */
	pcre2_code *re_cleanaddr; /* clean_file_emails() */
};

struct maint_db {
	const unsigned char *img; /* the image */
	size_t img_len;
	bool mapped; /* mmap()ed from the cache, else malloc()ed */
	const char *str; /* its string pool */
	const struct mline *lines;
	const struct msect *sects;
	const struct mfpat *fpats;
	const struct mrpat *npats, *kpats;
	const uint32_t *plist;
	const struct mslot *prefix, *mmn, *mma;
	size_t nlines, nsects, nfpats, nnpats, nkpats;
	uint32_t prefix_cap, mmn_cap, mma_cap;
	struct fpat_lazy *fl; /* nfpats */
	struct rpat_lazy *nl, *kl; /* nnpats, nkpats */
	char *dir; /* the tree holding MAINTAINERS */
	int dirfd;
	struct lazy *lz;
};

static inline const char *mstr(const struct maint_db *db, uint32_t off)
{
	return db->str + off;
}

/* The slot of key[0..klen) (hash h, FNV-1a) in table t, or NULL. */
const struct mslot *maint_img_find(const struct maint_db *db,
				   const struct mslot *t, uint32_t cap,
				   const char *key, size_t klen, uint64_t h);
/* The string a .mailmap table maps key to, or NULL. */
const char *maint_img_get(const struct maint_db *db, const struct mslot *t,
			  uint32_t cap, const char *key);

/* What parse.c and mailmap.c gather before the image is made. */
struct mbuild_line {
	char type;
	const char *text;
	uint32_t sect;
};

struct mbuild_sect {
	uint32_t key, start, end;
	char *disp, *rword;
	bool catch_all, security;
};

struct mbuild {
	struct arena arena; /* F:/X: regexes, literal prefixes */
	struct mbuild_line *lines;
	size_t nlines;
	struct mbuild_sect *sects;
	size_t nsects;
	struct smap mm_names, mm_addrs; /* .mailmap: key -> char * */
	const char *dir;
	struct lazy *lz;
};

/* The image of what b holds (image.c): a new buffer of *len bytes, its
 * header's source fields left zero. */
unsigned char *maint_img_build(const struct mbuild *b, size_t *len);
/* Checks an image from anywhere (the cache): sizes, offsets, indexes and
 * sum, so that no lookup reads outside it; points db's arrays into it.
 * Returns 0, or -1 with err saying what is wrong. */
int maint_img_attach(struct maint_db *db, const unsigned char *img, size_t len,
		     struct err *err);
/* The checksum of an image's body (what follows the header). */
uint64_t maint_img_sum(const unsigned char *img, size_t len);

/* A db with no image yet for the MAINTAINERS at path (its tree), its
 * PCRE2 set-up made; NULL when the e-mail regexes do not compile. */
struct maint_db *maint_db_new(const char *path);
/* Parses text[0..len) (taken) and the tree's .mailmap into a new image
 * (*img, *len).  -1 with err when the .mailmap's regexes do not compile. */
int maint_db_parse(struct maint_db *db, char *text, size_t len,
		   unsigned char **img, size_t *img_len, struct err *err);

/* Perl's \s, and [A-Za-z0-9], on bytes. */
static inline bool maint_is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
		c == '\v';
}

static inline bool maint_is_alnum(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		(c >= '0' && c <= '9');
}

/* read_file() for a regular file, in one allocation of its size. */
int maint_read_whole(const char *path, char **out, size_t *len,
		     struct err *err);

/* ---- patterns (match.c) ---- */

/* The regex get_maintainer.pl builds from the glob of a F:/X: line. */
char *maint_glob_to_re(struct arena *a, const char *v);
/* True when the glob matcher handles re (else PCRE2 does). */
bool maint_simple_pattern(const char *re);
/* The literal text every match of re starts with, into out (as long as
 * re); "" when unsure.  Returns its length. */
size_t maint_literal_prefix(const char *re, bool simple, char *out);
/* pcre2_compile with the db's context, JIT-compiled when jit; NULL with
 * err naming what (may be NULL) when re does not compile. */
pcre2_code *maint_re_compile(struct lazy *lz, const char *re, uint32_t opts,
			     bool jit, struct err *err, const char *what);
/* Whether c matches s[0..len), within the match limits. */
bool maint_re_match(const struct lazy *lz, const pcre2_code *c, const char *s,
		    size_t len);
/* Compiles K: pattern k (and its patch-body form when patch) unless it is
 * plain text; -1 with err when it does not compile. */
int maint_kpat_ready(const struct maint_db *db, size_t k, bool patch,
		     struct err *err);
/* Whether K: keyword k matches s[0..len) (its patch-body form when
 * body); ready first. */
bool maint_kpat_match(const struct maint_db *db, size_t k, bool body,
		      const char *s, size_t len);
/*
 * The sections a file (relative to the tree) belongs to, deepest pattern
 * first, as get_maintainer.pl adds them.  Returns the count (sections in
 * *out, caller frees) or -1 with err when a pattern does not compile.
 */
long maint_file_sections(const struct maint_db *db, const char *file,
			 uint32_t **out, struct err *err);
/* The K: lines whose keyword the content of tree/file matches, into kw;
 * -1 with err when a keyword does not compile. */
int maint_file_keywords(const struct maint_db *db, const char *tree,
			const char *file, struct ivec *kw, struct err *err);

/* ---- addresses (format.c) ---- */

/* Compiles the regexes of parse_email(); -1 when one does not compile. */
int maint_email_res(struct lazy *lz);
/* parse_email(): *name (quoted when it must be) and *addr, both new. */
void maint_parse_email(const struct lazy *lz, const char *s, char **name,
		       char **addr);
/* format_email(): "Name <addr>", or addr alone without a name (new). */
char *maint_format_email(const char *name, const char *address);
/* The name without the quotes maint_format_email() adds (new). */
char *maint_name_unquote(const char *q);
/* s without Perl's leading and trailing \s, as a new string. */
char *maint_trim_dup(const char *s, size_t n);
/* s lowercased in ASCII, as a new string. */
char *maint_lc_dup(const char *s);

/* ---- .mailmap (mailmap.c) ---- */

/* read_mailmap() of the tree's .mailmap (none: nothing mapped) into b's
 * maps; -1 when its regexes do not compile. */
int maint_mailmap_load(struct mbuild *b);
/* mailmap_email(): line mapped through the .mailmap, formatted (new). */
char *maint_mailmap_email(const struct maint_db *db, const char *line);

/* ---- patches (patch.c) ---- */

/*
 * The patch loop of get_maintainer.pl: files into *files and, when kw is
 * not NULL, the K: lines whose keyword a line matches into *kw (db may
 * be NULL without kw).  -1 with err when a keyword does not compile.
 */
int maint_scan_patch(const struct maint_db *db, const char *text,
		     struct svec *files, struct ivec *kw, struct err *err);

/* ---- "in file" addresses (infile.c) ---- */

/* The addresses of tree/file when it is a .yaml file, into *emails as
 * get_maintainer.pl's clean_file_emails() leaves them. */
void maint_file_emails(const struct maint_db *db, const char *tree,
		       const char *file, struct svec *emails);

#endif
