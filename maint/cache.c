/*
 * The compiled MAINTAINERS: the image of a parsed MAINTAINERS (image.c)
 * kept in the officer's cache, cache_dir()/maintainers-HASH.idx per
 * tree, so that a new process maps it instead of parsing 20,000 lines.
 *
 * It is keyed by the SHA-256 of the MAINTAINERS and .mailmap it was made
 * from.  Hashing them at every start would cost what the cache saves, so
 * their stat() (device, inode, size, modification and change times,
 * which nobody but root can set back) stands for the hash while it is
 * unchanged, as git's index does; a file changed less than two seconds
 * before it was compiled may still change within the same time stamp,
 * so its stat is not kept and the next start hashes it.  A changed file
 * makes a new image; an unchanged content under a new stat (a checkout
 * back and forth) only a new header.
 *
 * The file is the officer's alone (open_own_file(): this user's, 0600,
 * no link) or it is not used, and every image is checked whole before
 * use (maint_img_attach()): a truncated, corrupt or made-up one is
 * refused and made again, never trusted.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "maint/maint-int.h"

#define MAILMAP_MAX_BYTES (16u << 20)

/* What the sources look like now: their stat, their text once read. */
struct sources {
	const char *path;
	char *mailmap; /* its path */
	struct mimg_stat mst, mmst;
	char *text, *mm_text; /* NULL until read */
	size_t len, mm_len;
	unsigned char sha[32], mm_sha[32];
	bool hashed;
};

static void stat_of(const char *path, struct mimg_stat *s)
{
	struct stat st;

	memset(s, 0xff, sizeof(*s)); /* absent: no file has this stat */
	if (stat(path, &st) < 0)
		return;
	s->dev = (int64_t)st.st_dev;
	s->ino = (int64_t)st.st_ino;
	s->size = (int64_t)st.st_size;
	s->mtime_s = (int64_t)st.st_mtim.tv_sec;
	s->mtime_ns = (int64_t)st.st_mtim.tv_nsec;
	s->ctime_s = (int64_t)st.st_ctim.tv_sec;
	s->ctime_ns = (int64_t)st.st_ctim.tv_nsec;
}

/* Reads and hashes both files (once); -1 with err when MAINTAINERS
 * cannot be read.  The .mailmap, as parse.c reads it: absent is empty. */
static int sources_hash(struct sources *s, struct err *err)
{
	int r;

	if (s->hashed)
		return 0;
	if ((r = maint_read_whole(s->path, &s->text, &s->len, err)) < 0)
		return err_prefix(err, "cannot load MAINTAINERS"), r;
	sha256(s->text, s->len, s->sha);
	if (read_file(s->mailmap, MAILMAP_MAX_BYTES, &s->mm_text, &s->mm_len,
		      NULL) < 0) {
		s->mm_text = NULL;
		s->mm_len = 0;
	}
	sha256(s->mm_text ? s->mm_text : "", s->mm_len, s->mm_sha);
	s->hashed = true;
	return 0;
}

/* A stat too recent to stand for the content (see the top). */
static bool racy(const struct mimg_stat *s, time_t now)
{
	return s->mtime_s >= now - 2 || s->ctime_s >= now - 2;
}

static void header_sources(unsigned char *img, const struct sources *s)
{
	struct mimg_hdr h;
	time_t now = time(NULL);

	memcpy(&h, img, sizeof(h));
	memcpy(h.maint_sha, s->sha, 32);
	memcpy(h.mailmap_sha, s->mm_sha, 32);
	h.maint_st = s->mst;
	h.mailmap_st = s->mmst;
	if (racy(&s->mst, now) || racy(&s->mmst, now)) {
		memset(&h.maint_st, 0, sizeof(h.maint_st));
		memset(&h.mailmap_st, 0, sizeof(h.mailmap_st));
	}
	memcpy(img, &h, sizeof(h));
}

/* Writes img as the cache file, whole or not at all; best effort (a
 * cache that cannot be written is only slower). */
static void cache_write(const char *cache, const unsigned char *img, size_t len)
{
	struct atomic_file af;

	if (atomic_file_open(&af, cache, 0600, NULL) < 0)
		return;
	if (fwrite(img, 1, len, af.f) != len) {
		atomic_file_abort(&af);
		return;
	}
	(void)atomic_file_commit(&af, NULL);
}

/*
 * The cache file mapped, when it is the officer's alone and compiled
 * from these sources (NULL otherwise, warn set when it was there but
 * refused).  *rewrite: the content matched under an older stat.
 */
static unsigned char *cache_map(const char *cache, struct sources *s,
				size_t *len, bool *rewrite, struct err *warn)
{
	struct stat st;
	struct mimg_hdr h;
	struct err e = { 0, "" };
	unsigned char *map;
	int fd = open_own_file(cache, O_RDONLY, "the compiled MAINTAINERS", &st,
			       &e);

	*rewrite = false;
	if (fd < 0) {
		if (e.code != ERR_NOTFOUND)
			*warn = e;
		return NULL;
	}
	if (st.st_size < (off_t)sizeof(h) || st.st_size > (off_t)UINT32_MAX) {
		close(fd);
		return NULL; /* made again */
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return NULL;
	*len = (size_t)st.st_size;
	memcpy(&h, map, sizeof(h));
	if (!memcmp(&h.maint_st, &s->mst, sizeof(s->mst)) &&
	    !memcmp(&h.mailmap_st, &s->mmst, sizeof(s->mmst)) &&
	    h.maint_st.size >= 0)
		return map;
	if (sources_hash(s, NULL) == 0 && !memcmp(h.maint_sha, s->sha, 32) &&
	    !memcmp(h.mailmap_sha, s->mm_sha, 32)) {
		*rewrite = true;
		return map;
	}
	munmap(map, *len);
	return NULL;
}

int maint_db_load_cached(const char *path, struct maint_db **out,
			 struct err *warn, struct err *err)
{
	struct sources s = { .path = path };
	struct maint_db *db;
	struct err e = { 0, "" };
	unsigned char *img;
	size_t len;
	bool rewrite;
	char *real = realpath(path, NULL), *cache;
	int r;

	*out = NULL;
	cache = real ? cache_file("maintainers", real, "idx") : NULL;
	free(real);
	if (!cache)
		return maint_db_load(path, out, err);
	if (!(db = maint_db_new(path))) {
		free(cache);
		return err_set(err, "cannot compile the e-mail regexes");
	}
	s.mailmap = xasprintf("%s/.mailmap", db->dir);
	stat_of(path, &s.mst);
	stat_of(s.mailmap, &s.mmst);
	if ((img = cache_map(cache, &s, &len, &rewrite, warn))) {
		if (maint_img_attach(db, img, len, &e) == 0) {
			db->mapped = true;
			if (rewrite) {
				unsigned char *copy = xmemdup(img, len);
				header_sources(copy, &s);
				cache_write(cache, copy, len);
				free(copy);
			}
			goto done;
		}
		munmap(img, len);
		if (warn)
			err_setc(
				warn, ERR_INVALID,
				"the compiled MAINTAINERS '%s' is refused (%s): made again",
				cache, e.msg);
	}
	if ((r = sources_hash(&s, err)) < 0 ||
	    (r = maint_db_parse(db, s.text, s.len, &img, &len, err)) < 0) {
		s.text = NULL; /* maint_db_parse() took it */
		maint_db_free(db);
		db = NULL;
		goto out;
	}
	s.text = NULL;
	header_sources(img, &s);
	if ((r = maint_img_attach(db, img, len, err)) < 0) {
		free(img);
		maint_db_free(db);
		db = NULL;
		goto out;
	}
	cache_write(cache, img, len);
done:
	*out = db;
	r = 0;
out:
	free(s.text);
	free(s.mm_text);
	free(s.mailmap);
	free(cache);
	return r;
}
