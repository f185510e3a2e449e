/*
 * The kernel's key retention service (keyrings(7)), called directly (no
 * libkeyutils): a small secret kept in kernel memory, never swapped nor
 * in a core dump, under a name in the user's keyring, with a timeout
 * after which the kernel destroys and wipes it.  It is readable by this
 * user's processes, as the user's gpg-agent answers them, and by nobody
 * else but root.  Where the calls are refused (a kernel without keys, a
 * container's seccomp filter) each function fails with errno set and
 * the caller goes without.
 */
#include <errno.h>
#include <linux/keyctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util.h"

/* keyrings(7)'s permission bits (keyutils.h's names). */
#define POS_ALL 0x3f000000u /* the possessor: everything */
#define USR_VIEW 0x00010000u
#define USR_READ 0x00020000u
#define USR_SEARCH 0x00080000u

static long find(const char *name)
{
	return syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, "user",
		       name, 0);
}

int keyring_put(const char *name, const void *data, size_t len,
		unsigned seconds)
{
	long id = syscall(SYS_add_key, "user", name, data, len,
			  KEY_SPEC_USER_KEYRING);

	if (id < 0)
		return -1;
	/* This user's processes may find and read it, nobody else's. */
	if (syscall(SYS_keyctl, KEYCTL_SETPERM, id,
		    POS_ALL | USR_VIEW | USR_READ | USR_SEARCH) < 0 ||
	    syscall(SYS_keyctl, KEYCTL_SET_TIMEOUT, id, seconds) < 0) {
		int e = errno;
		syscall(SYS_keyctl, KEYCTL_INVALIDATE, id);
		errno = e;
		return -1;
	}
	return 0;
}

long keyring_get(const char *name, void *buf, size_t len)
{
	long id = find(name), n;

	if (id < 0)
		return -1;
	n = syscall(SYS_keyctl, KEYCTL_READ, id, buf, len);
	if (n >= 0 && (size_t)n > len) {
		/* Larger than asked for: not ours. */
		wipe(buf, len);
		errno = EMSGSIZE;
		return -1;
	}
	return n;
}

int keyring_forget(const char *name)
{
	long id = find(name);

	return id < 0 ? -1 : (int)syscall(SYS_keyctl, KEYCTL_INVALIDATE, id);
}
