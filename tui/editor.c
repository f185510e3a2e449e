/*
 * Long text (notes) in the officer's own editor: $VISUAL, else $EDITOR,
 * else vi, on a file "note" in a private 0700 folder made under $TMPDIR.
 * The text is read back through a descriptor of that folder, never by
 * name: in a $TMPDIR where others may rename entries (world-writable,
 * not sticky), the folder could be swapped for one of theirs.  If the
 * name no longer leads to our folder when the editor returns, nothing is
 * recorded and the officer is told why.  Whatever the editor left in the
 * folder is overwritten and removed.  Curses is suspended while the
 * editor runs and the screen restored afterwards.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tui/tui-int.h"

#define NOTE "note"

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
		f = openat(dfd, de->d_name, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (f >= 0 && fstat(f, &st) == 0 && S_ISREG(st.st_mode)) {
			off_t left = st.st_size;
			while (left > 0) {
				ssize_t w = write(f, zero, left > (off_t)sizeof(zero) ?
							   sizeof(zero) : (size_t)left);
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

	return fstat(dfd, &a) == 0 && lstat(path, &b) == 0 && S_ISDIR(b.st_mode) &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

char *editor_edit(struct tui *t, const char *initial)
{
	const char *ed = getenv("VISUAL");
	char *dir = NULL, *path = NULL, *cmd, *text = NULL;
	struct err err = { 0, "" };
	size_t len;
	int dfd, fd, status = 0;
	pid_t pid;

	if (!ed || !*ed)
		ed = getenv("EDITOR");
	if (!ed || !*ed)
		ed = "vi";
	if ((dfd = tmpdir_private("secteam-note", &dir, &err)) < 0) {
		tui_status(t, true, "%s", err.msg);
		return NULL;
	}
	path = xasprintf("%s/" NOTE, dir);
	fd = openat(dfd, NOTE, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || (*initial && write(fd, initial, strlen(initial)) < 0)) {
		tui_status(t, true, "cannot write '%s': %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		goto out;
	}
	close(fd);
	/* The editor string may carry arguments ("emacs -nw"): the shell
	 * splits it; the file name is passed as $1, never interpolated. */
	cmd = xasprintf("%s \"$1\"", ed);
	tui_suspend();
	pid = fork();
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", cmd, "sh", path, (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	tui_resume();
	free(cmd);
	if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		tui_status(t, true, "the editor '%s' failed: nothing recorded", ed);
		goto out;
	}
	if (!same_folder(dfd, dir)) {
		tui_status(t, true,
			   "nothing recorded: the private folder '%s' was moved or replaced while the editor ran (others can rename what is in $TMPDIR)",
			   dir);
		goto out;
	}
	if ((fd = openat(dfd, NOTE, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) < 0) {
		tui_status(t, true, "cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	if (read_fd(fd, path, 1 << 20, &text, &len, &err) < 0) {
		tui_status(t, true, "%s", err.msg);
		text = NULL;
	}
	close(fd);
out:
	scrub(dfd);
	if (same_folder(dfd, dir))
		rmdir(dir);
	close(dfd);
	free(path);
	free(dir);
	return text;
}
