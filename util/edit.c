/*
 * Long text in the officer's own editor: $VISUAL, else $EDITOR, else vi,
 * on a file NAME in a private 0700 folder made under $TMPDIR.  The text
 * is read back through a descriptor of that folder, never by name: in a
 * $TMPDIR where others may rename entries (world-writable, not sticky),
 * the folder could be swapped for one of theirs.  If the name no longer
 * leads to our folder when the editor returns, nothing is read back and
 * the error says why.  Whatever the editor left in the folder is
 * overwritten and removed.  The UI suspends curses around this
 * (tui/editor.c); the command line runs it as it is.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/util.h"

/* Overwrites and removes every file in the folder dfd (the note, and an
 * editor's backup or swap files). */
static void scrub(int dfd)
{
	int fd = dup(dfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	char zero[4096];

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	memset(zero, 0, sizeof(zero));
	while ((de = readdir(d))) {
		struct stat st;
		int f;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		f = openat(dfd, de->d_name,
			   O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (f >= 0 && fstat(f, &st) == 0 && S_ISREG(st.st_mode)) {
			off_t left = st.st_size;
			while (left > 0) {
				ssize_t w = write(f, zero,
						  left > (off_t)sizeof(zero)
							  ? sizeof(zero)
							  : (size_t)left);
				if (w <= 0)
					break;
				left -= w;
			}
			fsync(f);
		}
		if (f >= 0)
			close(f);
		unlinkat(dfd, de->d_name, 0);
	}
	closedir(d);
}

/* True when path still names the folder open as dfd. */
static bool same_folder(int dfd, const char *path)
{
	struct stat a, b;

	return fstat(dfd, &a) == 0 && lstat(path, &b) == 0 &&
		S_ISDIR(b.st_mode) && a.st_dev == b.st_dev &&
		a.st_ino == b.st_ino;
}

/* Writes initial into the folder dfd as name, runs the editor on path. */
static int run_editor(int dfd, const char *name, const char *path,
		      const char *initial, const char *ed, struct err *err)
{
	char *cmd;
	int fd, status = 0;
	pid_t pid;

	fd = openat(dfd, name,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || (*initial && write(fd, initial, strlen(initial)) < 0)) {
		err_setc(err, ERR_IO, "cannot write '%s': %s", path,
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return ERR_IO;
	}
	close(fd);
	/* The editor string may carry arguments ("emacs -nw"): the shell
	 * splits it; the file name is passed as $1, never interpolated. */
	cmd = xasprintf("%s \"$1\"", ed);
	pid = fork();
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", cmd, "sh", path, (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	free(cmd);
	if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return err_setc(err, ERR_IO, "the editor '%s' failed", ed);
	return 0;
}

int edit_text(const char *name, const char *initial,
	      void (*around)(bool before), char **text, struct err *err)
{
	const char *ed = getenv("VISUAL");
	char *dir = NULL, *path = NULL, *prefix = xasprintf("secteam-%s", name);
	size_t len;
	int dfd, fd, r;

	*text = NULL;
	if (!ed || !*ed)
		ed = getenv("EDITOR");
	if (!ed || !*ed)
		ed = "vi";
	dfd = tmpdir_private(prefix, &dir, err);
	free(prefix);
	if (dfd < 0)
		return dfd;
	path = xasprintf("%s/%s", dir, name);
	if (around)
		around(true);
	r = run_editor(dfd, name, path, initial, ed, err);
	if (around)
		around(false);
	if (r < 0)
		goto out;
	if (!same_folder(dfd, dir)) {
		r = err_setc(
			err, ERR_REFUSED,
			"the private folder '%s' was moved or replaced while "
			"the editor ran (others can rename what is in $TMPDIR)",
			dir);
		goto out;
	}
	if ((fd = openat(dfd, name,
			 O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) < 0) {
		r = err_setc(err, ERR_IO, "cannot read '%s': %s", path,
			     strerror(errno));
		goto out;
	}
	r = read_fd(fd, path, 1 << 20, text, &len, err);
	if (r < 0)
		*text = NULL;
	close(fd);
out:
	scrub(dfd);
	if (same_folder(dfd, dir))
		rmdir(dir);
	close(dfd);
	free(path);
	free(dir);
	return r;
}
