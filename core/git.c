/*
 * The kernel tree, read through `git` as a subprocess: an argv, never a
 * shell, with revisions validated as hex by the callers and every other
 * name (a branch) checked before it is used.  The tree's own config may
 * not run programs (core.fsmonitor off); git's stderr is dropped, its
 * stdout read up to 1 MiB.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/fixcve.h"

#define GIT_OUT_MAX (1 << 20)

/* Runs git -C dir ARGS...; its stdout into *out (caller frees).  Returns
 * git's exit status, or -1 when it could not run. */
static int git_run(const char *dir, const char *const *args, char **out)
{
	const char *argv[16] = { "git", "-c", "core.fsmonitor=false", "-C", dir };
	size_t n = 5, len;
	int fd[2], status = 0, null;
	pid_t pid;
	struct err err = { 0, "" };

	for (size_t i = 0; args[i] && n < 15; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	*out = NULL;
	if (pipe(fd) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		null = open("/dev/null", O_RDWR);
		dup2(fd[1], 1);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 2);
		}
		close(fd[0]);
		execvp("git", (char *const *)argv);
		_exit(127);
	}
	close(fd[1]);
	if (pid < 0) {
		close(fd[0]);
		return -1;
	}
	if (read_fd(fd[0], "git", GIT_OUT_MAX, out, &len, &err) < 0)
		*out = NULL;
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!*out)
		*out = xstrdup("");
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The first line of s, trimmed, or NULL when empty (caller frees). */
static char *first_line(const char *s)
{
	size_t n = strcspn(s, "\n");
	char *t = xstrndup(s, n);

	if (!*str_trim(t)) {
		free(t);
		return NULL;
	}
	return t;
}

int git_check_tree(const char *dir, struct err *err)
{
	const char *args[] = { "rev-parse", "--git-dir", NULL };
	char *out;
	int r = git_run(dir, args, &out);

	free(out);
	if (r == 127 || r < 0)
		return err_setc(err, ERR_IO, "cannot run git to read the tree '%s'", dir);
	if (r)
		return err_setc(err, ERR_NOTFOUND, "'%s' is not a git tree", dir);
	return 0;
}

int git_commit(const char *dir, const char *rev, char **full, struct err *err)
{
	char *spec = xasprintf("%s^{commit}", rev), *out;
	const char *args[] = { "rev-parse", "--verify", "--quiet", spec, NULL };
	int r = git_run(dir, args, &out);

	free(spec);
	*full = r == 0 ? first_line(out) : NULL;
	free(out);
	if (!*full || !fix_sha_valid(*full))
		return err_setc(err, ERR_NOTFOUND, "commit %s is not in the tree '%s'",
				rev, dir);
	return 0;
}

char *git_first_tag(const char *dir, const char *sha)
{
	/* Version order, a -rc before its release: v1.1-rc1 < v1.1 < v1.1.1. */
	const char *args[] = { "-c", "versionsort.suffix=-rc", "tag", "--contains",
			       sha, "--sort=version:refname", NULL };
	char *out, *tag;
	int r = git_run(dir, args, &out);

	tag = r == 0 ? first_line(out) : NULL;
	free(out);
	return tag;
}

int git_check_branch(const char *dir, const char *branch, struct err *err)
{
	char *spec, *out;
	int r;

	if (!*branch || branch[0] == '-' || strpbrk(branch, " \t\n:^~?*[\\"))
		return err_setc(err, ERR_INVALID, "'%s' is not a branch name", branch);
	spec = xasprintf("%s^{commit}", branch);
	{
		const char *args[] = { "rev-parse", "--verify", "--quiet", spec, NULL };
		r = git_run(dir, args, &out);
	}
	free(spec);
	free(out);
	if (r)
		return err_setc(err, ERR_NOTFOUND, "branch '%s' is not in the tree '%s'",
				branch, dir);
	return 0;
}

int git_backports(const char *dir, const char *branch, const char *sha,
		  char ***out, size_t *n, struct err *err)
{
	char *up = xasprintf("--grep=commit %s upstream", sha);
	char *fx = xasprintf("--grep=Fixes: %.12s", sha);
	const char *args[] = { "log", "-F", up, fx, "--format=%H", branch, "--", NULL };
	char *text, *p;
	int r = git_run(dir, args, &text);

	free(up);
	free(fx);
	*out = NULL;
	*n = 0;
	if (r) {
		free(text);
		return err_setc(err, ERR_IO, "git log on branch '%s' of '%s' failed",
				branch, dir);
	}
	for (p = text; *p;) {
		size_t len = strcspn(p, "\n");
		char *h = xstrndup(p, len);
		if (fix_sha_valid(h) && strcmp(h, sha)) {
			*out = xrealloc(*out, (*n + 1) * sizeof(**out));
			(*out)[(*n)++] = h;
		} else {
			free(h);
		}
		p += len + (p[len] == '\n');
	}
	free(text);
	return 0;
}

int git_commit_files(const char *dir, const char *sha, char ***files,
		     size_t *n, struct err *err)
{
	const char *args[] = { "diff-tree", "--no-commit-id", "--name-only", "-r",
			       "--root", "--no-ext-diff", "--no-textconv", sha,
			       NULL };
	char *text, *p;
	int r = git_run(dir, args, &text);

	*files = xcalloc(1, sizeof(**files));
	*n = 0;
	if (r) {
		free(text);
		return err_setc(err, ERR_IO, "git diff-tree of %s in '%s' failed",
				sha, dir);
	}
	for (p = text; *p;) {
		size_t len = strcspn(p, "\n");
		if (len) {
			*files = xrealloc(*files, (*n + 2) * sizeof(**files));
			(*files)[(*n)++] = xstrndup(p, len);
			(*files)[*n] = NULL;
		}
		p += len + (p[len] == '\n');
	}
	free(text);
	return 0;
}
