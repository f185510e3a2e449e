/*
 * Long text (notes) in the officer's own editor: $VISUAL, else $EDITOR,
 * else vi, on a private temporary file (0600, in $TMPDIR) that is
 * overwritten and removed as soon as the text is read back.  Curses is
 * suspended while the editor runs and the screen restored afterwards.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tui/tui-int.h"

/* Overwrites the file now at path (an editor may have replaced the one
 * we created) and removes it. */
static void scrub(const char *path)
{
	struct stat st;
	char zero[4096];
	int fd = open(path, O_WRONLY);

	memset(zero, 0, sizeof(zero));
	if (fd >= 0 && fstat(fd, &st) == 0) {
		off_t left = st.st_size;
		lseek(fd, 0, SEEK_SET);
		while (left > 0) {
			ssize_t w = write(fd, zero, left > (off_t)sizeof(zero) ? sizeof(zero) : (size_t)left);
			if (w <= 0)
				break;
			left -= w;
		}
		fsync(fd);
	}
	if (fd >= 0)
		close(fd);
	unlink(path);
}

char *editor_edit(struct tui *t, const char *initial)
{
	const char *ed = getenv("VISUAL");
	char *path = NULL, *cmd, *text = NULL;
	struct err err = { 0, "" };
	size_t len;
	int fd, status = 0;
	pid_t pid;

	if (!ed || !*ed)
		ed = getenv("EDITOR");
	if (!ed || !*ed)
		ed = "vi";
	if ((fd = tmpfile_private("secteam-note", &path, &err)) < 0) {
		tui_status(t, true, "%s", err.msg);
		return NULL;
	}
	if (*initial && write(fd, initial, strlen(initial)) < 0) {
		tui_status(t, true, "cannot write '%s': %s", path, strerror(errno));
		goto out;
	}
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
	if (read_file(path, 1 << 20, &text, &len, &err) < 0) {
		tui_status(t, true, "%s", err.msg);
		text = NULL;
	}
out:
	close(fd);
	scrub(path);
	free(path);
	return text;
}
