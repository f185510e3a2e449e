/*
 * Saving an attachment: a report's attachments numbered across its
 * thread (message 1's first, then message 2's, ...), as `show` and the
 * report view number them, and one written to a file the officer names.
 * The name in the mail is never used for the file.  A new file is made
 * with O_EXCL and O_NOFOLLOW, mode 0600; an existing file is replaced
 * only when forced, through a temporary file in the same folder renamed
 * over it (atomic_file), and a symbolic link is refused either way.
 * Saving exploit code is an event ("attachment-saved").
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "store/store.h"

void report_attachments_free(struct report_attachment *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].info.filename);
		free(v[i].info.content_type);
		wipe_free(v[i].info.data, v[i].info.size);
	}
	free(v);
}

/* Moves om's attachments (their data too) to the end of *v. */
static void take(struct report_attachment **v, size_t *n,
		 struct opened_message *om, size_t msg, bool msg_signed)
{
	for (size_t k = 0; k < om->natt; k++) {
		struct report_attachment *a;

		*v = xrealloc(*v, (*n + 1) * sizeof(**v));
		a = &(*v)[*n];
		a->number = ++*n;
		a->message = msg;
		a->info = om->att[k];
		a->is_signed = msg_signed && !om->att[k].unsigned_part;
		memset(&om->att[k], 0, sizeof(om->att[k]));
	}
}

int report_attachments(struct session *sess, int64_t id,
		       struct report_attachment **out, size_t *n,
		       size_t *unopened, struct err *err)
{
	struct report_full rf;
	int r;

	*out = NULL;
	*n = 0;
	*unopened = 0;
	if ((r = report_load(sess, id, &rf, err)) < 0) {
		report_full_release(&rf);
		return r;
	}
	for (size_t i = 0; i < rf.nmsgs; i++) {
		struct opened_message om;
		struct err e = { 0, "" };

		/* A message that cannot be opened shows no attachment in
		 * `show` either: the numbers stay the same.  Signed is what
		 * this opening verified. */
		if (report_open_thread(sess, &rf, i, &om, &e) == 0)
			take(out, n, &om, i + 1,
			     om.verdict == SIG_VALID || om.verdict == SIG_GOOD);
		else
			(*unopened)++;
		opened_message_release(&om);
	}
	report_full_release(&rf);
	return 0;
}

/* Writes all of data to fd; 0 or errno. */
static int write_all(int fd, const unsigned char *data, size_t len)
{
	while (len) {
		ssize_t w = write(fd, data, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return errno;
		data += w;
		len -= (size_t)w;
	}
	return fsync(fd) < 0 ? errno : 0;
}

/* A new file: O_EXCL, no link followed, 0600. */
static int write_new(const char *path, const unsigned char *data, size_t len,
		     struct err *err)
{
	struct stat st;
	int fd = open(path,
		      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC |
			      O_NOCTTY,
		      0600);
	int e;

	if (fd < 0 && errno == EEXIST && lstat(path, &st) == 0 &&
	    S_ISLNK(st.st_mode))
		return err_setc(err, ERR_REFUSED,
				"refusing to write '%s': it is a symbolic link",
				path);
	if (fd < 0 && errno == EEXIST)
		return err_setc(
			err, ERR_REFUSED,
			"refusing to write '%s': it exists (--force replaces it)",
			path);
	if (fd < 0)
		return err_setc(err, ERR_IO, "cannot create '%s': %s", path,
				strerror(errno));
	e = fchmod(fd, 0600) < 0 ? errno : write_all(fd, data, len);
	if (close(fd) < 0 && !e)
		e = errno;
	if (e) {
		unlink(path);
		return err_setc(err, ERR_IO, "cannot write '%s': %s", path,
				strerror(e));
	}
	return 0;
}

int attachment_write_file(const char *path, const unsigned char *data,
			  size_t len, bool force, struct err *err)
{
	struct atomic_file af;
	int r;

	if (!force)
		return write_new(path, data, len, err);
	if ((r = atomic_file_open(&af, path, 0600, err)) < 0)
		return r;
	if (len && fwrite(data, 1, len, af.f) != len) {
		int e = errno;
		atomic_file_abort(&af);
		return err_setc(err, ERR_IO, "cannot write '%s': %s", path,
				strerror(e));
	}
	return atomic_file_commit(&af, err);
}

struct saved_req {
	int64_t id;
	const struct report_attachment *a;
};

static int saved_event(struct session *sess, void *data, struct err *err)
{
	struct saved_req *q = data;
	char *d =
		xasprintf("attachment %zu (message %zu, %zu bytes) saved to a "
			  "file: exploit code",
			  q->a->number, q->a->message, q->a->info.size);
	int r = store_event_add(sess->store, q->id, sess->officer,
				"attachment-saved", d, err);

	free(d);
	return r;
}

int attachment_saved(struct session *sess, int64_t id,
		     const struct report_attachment *a, struct err *err)
{
	struct saved_req q = { id, a };

	if (!a->info.exploit)
		return 0;
	return core_write(sess, saved_event, &q, err);
}

char *attachment_safe_name(const char *filename, size_t number)
{
	const char *base = filename ? filename : "";
	char *out;
	size_t n = 0;

	/* The last component of either kind of path: a name that climbs
	 * out of the folder or names another never does. */
	for (const char *p = base; *p; p++)
		if (*p == '/' || *p == '\\')
			base = p + 1;
	while (*base == '.' || *base == ' ')
		base++;
	out = xmalloc(81);
	for (const char *p = base; *p && n < 80; p++) {
		unsigned char c = (unsigned char)*p;

		out[n++] = (c < 128 && (isalnum(c) || strchr("._+-", c)))
			? (char)c
			: '_';
	}
	out[n] = '\0';
	if (!n || strspn(out, "_.") == n) {
		free(out);
		return xasprintf("attachment-%zu", number);
	}
	return out;
}

/* s with a leading "~" (alone or before '/') as the home folder. */
static char *home_expand(const char *s)
{
	const char *home = getenv("HOME");

	if (s[0] != '~' || (s[1] && s[1] != '/'))
		return xstrdup(s);
	if (!home || !*home) {
		struct passwd *pw = getpwuid(getuid());

		home = pw && pw->pw_dir ? pw->pw_dir : "/";
	}
	return xasprintf("%s%s", home, s + 1);
}

char *attachment_save_path(const char *dir, const char *typed)
{
	char *d, *t = home_expand(typed), *path;
	size_t n;

	if (t[0] == '/')
		return t;
	d = home_expand(dir && *dir ? dir : "~/");
	n = strlen(d);
	path = xasprintf("%s%s%s", d, n && d[n - 1] == '/' ? "" : "/", t);
	free(d);
	free(t);
	return path;
}
