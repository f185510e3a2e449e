/*
 * failwrite.c: an LD_PRELOAD shim that makes writes fail, to test what
 * the program does when the disk fills up or fails.
 *
 * Only descriptors whose path (from /proc/self/fd) contains FAILWRITE_MATCH
 * (e.g. "secteam.db", which also matches its -wal and -journal) are
 * touched.  Once FAILWRITE_BYTES bytes (default 0) have been written to
 * them, write(), pwrite(), pwrite64(), writev() and pwritev() fail with
 * FAILWRITE_ERRNO ("ENOSPC", default, or "EIO"); with FAILWRITE_FSYNC=1,
 * fsync() and fdatasync() on them fail with EIO too.  Everything else
 * passes through.  Build: cc -shared -fPIC -o failwrite.so failwrite.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static long long written;

/*
 * Only the process under test fails its writes: gpg, gpgconf and the
 * other helpers it starts must not inherit the shim (nor, in an ASan run,
 * libasan, which deadlocks in their start-up).
 */
__attribute__((constructor)) static void failwrite_init(void)
{
	unsetenv("LD_PRELOAD");
}

static int matches(int fd)
{
	const char *m = getenv("FAILWRITE_MATCH");
	char link[64], path[4096];
	ssize_t n;

	if (!m || !*m)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return 0;
	path[n] = '\0';
	return strstr(path, m) != NULL;
}

static int error_no(void)
{
	const char *e = getenv("FAILWRITE_ERRNO");

	return e && !strcmp(e, "EIO") ? EIO : ENOSPC;
}

/* Returns -1 with errno set when this write must fail. */
static int budget(int fd, size_t n)
{
	const char *b = getenv("FAILWRITE_BYTES");
	long long limit = b ? atoll(b) : 0;

	if (!matches(fd))
		return 0;
	if (written + (long long)n > limit) {
		errno = error_no();
		return -1;
	}
	written += (long long)n;
	return 0;
}

#define REAL(name, ret, ...)             \
	static ret (*real)(__VA_ARGS__); \
	if (!real)                       \
	*(void **)&real = dlsym(RTLD_NEXT, name)

ssize_t write(int fd, const void *buf, size_t n)
{
	REAL("write", ssize_t, int, const void *, size_t);
	if (budget(fd, n) < 0)
		return -1;
	return real(fd, buf, n);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	REAL("pwrite", ssize_t, int, const void *, size_t, off_t);
	if (budget(fd, n) < 0)
		return -1;
	return real(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off)
{
	REAL("pwrite64", ssize_t, int, const void *, size_t, off_t);
	if (budget(fd, n) < 0)
		return -1;
	return real(fd, buf, n, off);
}

ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
	size_t n = 0;
	REAL("writev", ssize_t, int, const struct iovec *, int);
	for (int i = 0; i < cnt; i++)
		n += iov[i].iov_len;
	if (budget(fd, n) < 0)
		return -1;
	return real(fd, iov, cnt);
}

ssize_t pwritev(int fd, const struct iovec *iov, int cnt, off_t off)
{
	size_t n = 0;
	REAL("pwritev", ssize_t, int, const struct iovec *, int, off_t);
	for (int i = 0; i < cnt; i++)
		n += iov[i].iov_len;
	if (budget(fd, n) < 0)
		return -1;
	return real(fd, iov, cnt, off);
}

static int sync_fails(int fd)
{
	const char *f = getenv("FAILWRITE_FSYNC");

	if (f && *f == '1' && matches(fd)) {
		errno = EIO;
		return 1;
	}
	return 0;
}

int fsync(int fd)
{
	REAL("fsync", int, int);
	return sync_fails(fd) ? -1 : real(fd);
}

int fdatasync(int fd)
{
	REAL("fdatasync", int, int);
	return sync_fails(fd) ? -1 : real(fd);
}
