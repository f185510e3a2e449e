/*
 * Importing many inputs (import-run.c, import.h's import_inputs): files,
 * mboxes, Maildirs and standard input, read ahead and committed in
 * batches.  The command (cmd/import.c) gives the options and prints what
 * it is handed; the rules of batching and reading ahead are here.
 *
 * Messages are committed in batches (up to BATCH_MAX messages,
 * BATCH_BYTES or BATCH_SECONDS, whichever comes first) so a mailbox does
 * not pay one fsync per message; a message's line is handed over only
 * once the commit holding it has succeeded, so whatever was reported
 * survives a kill.  A batch's messages are verified and sealed first
 * (import_prepare) and the store's write lock is taken only to write
 * them, in transactions of at most BATCH_HOLD seconds of writing: a
 * colleague's command never waits behind gpg, nor long behind a batch.
 *
 * Reading runs ahead of storing: up to o->jobs messages (at most AHEAD;
 * AHEAD_BYTES in all) are parsed and decrypting in the background
 * (import_start) while the oldest is verified and stored
 * (import_finish), so several gpg processes work at once.  Messages are
 * still finished, and their lines handed over, in the order they were
 * read.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/core.h"
#include "core/search.h"
#include "crypto/crypto.h"
#include "mail/mail.h"

/* What a decryption may produce is one message's worth. */
_Static_assert(CRYPTO_MAX_PLAIN == MAIL_MAX_SIZE,
	       "the decrypted-content limit is the message limit");

#define BATCH_MAX 100
#define BATCH_SECONDS 0.5
#define BATCH_BYTES (16u << 20)
#define BATCH_HOLD 0.02 /* seconds a transaction holds the lock */
#define AHEAD IMPORT_JOBS_MAX
#define AHEAD_BYTES (8u << 20)
#define PROGRESS_EVERY 0.1

_Static_assert(IMPORT_JOBS_MAX == CRYPTO_JOBS_MAX,
	       "no more read ahead than decrypt at once");

/* A line waiting for its batch's commit (strings its own). */
struct waiting {
	struct import_line l;
	char *subject, *input, *error;
};

struct import_run {
	struct session *sess;
	const struct import_opts *o;
	const struct import_hooks *h;
	struct import_totals *t;
	size_t done, total;
	struct waiting *pending; /* lines of the open batch */
	size_t npending;
	size_t batched; /* messages in the open batch */
	bool in_batch;
	char fatal[1024]; /* why the store failed, when it did */
	struct { /* read, not yet finished: a ring */
		char *name;
		struct import_pending *p;
		size_t len;
	} ahead[AHEAD];
	size_t first, nahead, ahead_bytes;
	double start, last_progress;
	bool shown; /* progress was reported (and may be on
				* the screen) */
	struct ready { /* prepared, to be written in one batch */
		char *name;
		struct import_pending *p;
	} * ready;
	size_t nready, ready_bytes;
	double ready_start;
	struct mbox_reader *mbox; /* the mbox being read, for progress */
	double read_frac; /* of the last mbox, once it is all read */
};

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void progress_clear(struct import_run *ir);

static void waiting_add(struct import_run *ir, enum import_status st,
			int64_t id, enum sig_verdict v, const char *subject,
			const char *input, const char *error)
{
	struct waiting *w;

	ir->pending = xrealloc(ir->pending,
			       (ir->npending + 1) * sizeof(*ir->pending));
	w = &ir->pending[ir->npending++];
	memset(w, 0, sizeof(*w));
	w->l.status = st;
	w->l.report_id = id;
	w->l.verdict = v;
	w->l.subject = w->subject = subject ? xstrdup(subject) : NULL;
	w->l.input = w->input = input ? safe_str(input) : NULL;
	w->l.error = w->error = error ? safe_str(error) : NULL;
}

static void waiting_reset(struct import_run *ir)
{
	for (size_t i = 0; i < ir->npending; i++) {
		free(ir->pending[i].subject);
		free(ir->pending[i].input);
		free(ir->pending[i].error);
	}
	ir->npending = 0;
}

/* Hands the waiting lines over, in order. */
static void waiting_hand(struct import_run *ir)
{
	if (ir->npending)
		progress_clear(ir);
	for (size_t i = 0; i < ir->npending; i++)
		ir->h->line(&ir->pending[i].l, ir->h->data);
	waiting_reset(ir);
}

/* Commits the open batch and hands its lines over; on failure the
 * batch's messages are reported as not imported. */
static int flush_batch(struct import_run *ir)
{
	struct err err = { 0, "" };
	int r = 0;

	if (ir->in_batch) {
		r = import_batch_commit(ir->sess, &err);
		ir->in_batch = false;
		if (r < 0) {
			char *what = xasprintf("(batch of %zu messages)",
					       ir->batched);

			snprintf(ir->fatal, sizeof(ir->fatal), "%s", err.msg);
			waiting_reset(ir);
			waiting_add(ir, IMPORT_ERROR, 0, SIG_NONE, NULL, what,
				    err.msg);
			free(what);
			ir->t->failed += ir->batched;
		}
	}
	waiting_hand(ir);
	ir->batched = 0;
	return r;
}

/* Hands one progress event over (h->progress). */
static void report_progress(struct import_run *ir, enum import_progress ev,
			    double frac)
{
	ir->h->progress(ev, ir->done, frac, mono() - ir->start, ir->h->data);
}

/* The share done when it is known (a Maildir's file count, an mbox's
 * bytes), else negative. */
static double progress_frac(struct import_run *ir)
{
	double frac = ir->read_frac; /* finishing what was read ahead */

	if (ir->total) {
		frac = (double)ir->done / (double)ir->total;
	} else if (ir->mbox) {
		long long pos, size;
		mbox_position(ir->mbox, &pos, &size);
		frac = size > 0 ? (double)pos / (double)size : -1;
	}
	return frac > 1 ? 1 : frac;
}

/* Nothing for an import quicker than ir->delay; then at most every
 * PROGRESS_EVERY. */
static void progress(struct import_run *ir)
{
	double now;

	if (!ir->h->progress)
		return;
	now = mono();
	if (now - ir->start < ir->o->progress_delay ||
	    now - ir->last_progress < PROGRESS_EVERY)
		return;
	ir->last_progress = now;
	ir->shown = true;
	report_progress(ir, IMPORT_PROGRESS_UPDATE, progress_frac(ir));
}

/* Takes the progress off the screen before other output. */
static void progress_clear(struct import_run *ir)
{
	if (ir->shown && ir->h->progress)
		report_progress(ir, IMPORT_PROGRESS_CLEAR, -1);
}

static void file_error(struct import_run *ir, const char *name, const char *msg)
{
	waiting_add(ir, IMPORT_ERROR, 0, SIG_NONE, NULL, name, msg);
	if (!ir->t->first_error[0]) {
		char *n = safe_str(name), *m = safe_str(msg);

		snprintf(ir->t->first_error, sizeof(ir->t->first_error),
			 "%s: %s", n, m);
		free(n);
		free(m);
	}
	ir->t->failed++;
}

/* Stores one prepared message in the open batch: its line waits for
 * the commit.  Negative when the store failed. */
static int store_one(struct import_run *ir, char *name,
		     struct import_pending *p)
{
	struct import_result res;
	struct err err = { 0, "" };
	int r = import_finish(ir->sess, p, &res, &err);

	ir->batched++;
	if (r < 0) {
		/* The store failed: the whole open batch is lost.  Failing
		 * at its first message (the write lock not had in time: a
		 * team server answers the lock with the first read), that
		 * message's own line says why. */
		snprintf(ir->fatal, sizeof(ir->fatal), "%s", err.msg);
		if (ir->batched == 1) {
			import_batch_abort(ir->sess);
			ir->in_batch = false;
			ir->batched = 0;
			file_error(ir, name, err.msg);
		}
		import_result_release(&res);
		free(name);
		return r;
	}
	switch (res.status) {
	case IMPORT_NEW:
	case IMPORT_REPLY:
		waiting_add(ir, res.status, res.report_id, res.verdict,
			    res.subject, NULL, NULL);
		if (res.status == IMPORT_NEW)
			ir->t->nnew++;
		else
			ir->t->nreply++;
		break;
	case IMPORT_DUPLICATE:
		waiting_add(ir, res.status, res.report_id, SIG_NONE,
			    res.subject ? res.subject : "", NULL, NULL);
		ir->t->ndup++;
		break;
	case IMPORT_ERROR:
		file_error(ir, name, res.error);
		break;
	}
	import_result_release(&res);
	free(name);
	return 0;
}

/* Writes prepared messages, oldest first, in one transaction and commits
 * it (their lines printed then).  The transaction ends after BATCH_HOLD
 * seconds of writing, however many are left: the store's write lock is
 * every colleague's, and a command waits behind it at most that long.
 * Negative when the store failed: what was not written is counted lost
 * by the caller (ir->nready). */
static int write_some(struct import_run *ir)
{
	struct err err = { 0, "" };
	double held;
	size_t i;
	int r;

	if ((r = import_batch_begin(ir->sess, &err)) < 0) {
		/* The first message's line says why; the rest are lost. */
		snprintf(ir->fatal, sizeof(ir->fatal), "%s", err.msg);
		file_error(ir, ir->ready[0].name, err.msg);
		import_pending_free(ir->ready[0].p);
		free(ir->ready[0].name);
		memmove(ir->ready, ir->ready + 1,
			(ir->nready - 1) * sizeof(*ir->ready));
		ir->nready--;
		return r;
	}
	ir->in_batch = true;
	/* A team server grants the lock with the first message's first read
	 * (the BEGIN is pipelined, db-pg.c): the time it is held counts from
	 * the end of that message, not from the wait for it. */
	r = store_one(ir, ir->ready[0].name, ir->ready[0].p);
	held = mono();
	for (i = 1; i < ir->nready && r == 0 && mono() - held < BATCH_HOLD; i++)
		r = store_one(ir, ir->ready[i].name, ir->ready[i].p);
	/* What a failure left unwritten is dropped. */
	memmove(ir->ready, ir->ready + i,
		(ir->nready - i) * sizeof(*ir->ready));
	ir->nready -= i;
	return r < 0 ? r : flush_batch(ir);
}

/* Writes every prepared message, in as many transactions as it takes. */
static int store_ready(struct import_run *ir)
{
	int r = 0;

	while (ir->nready && (r = write_some(ir)) == 0)
		;
	ir->ready_bytes = 0;
	return r;
}

/* Finishes the oldest message read: verified and sealed now, with no
 * lock held; written with the others of its batch. */
static int finish_oldest(struct import_run *ir)
{
	char *name = ir->ahead[ir->first].name;
	struct import_pending *p = ir->ahead[ir->first].p;
	size_t len = ir->ahead[ir->first].len;

	ir->ahead_bytes -= len;
	ir->first = (ir->first + 1) % AHEAD;
	ir->nahead--;
	import_prepare(ir->sess, p);
	if (!ir->nready)
		ir->ready_start = mono();
	ir->ready = xrealloc(ir->ready, (ir->nready + 1) * sizeof(*ir->ready));
	ir->ready[ir->nready].name = name;
	ir->ready[ir->nready].p = p;
	ir->nready++;
	ir->ready_bytes += len;
	ir->done++;
	if (ir->nready >= BATCH_MAX || ir->ready_bytes >= BATCH_BYTES ||
	    mono() - ir->ready_start >= BATCH_SECONDS) {
		int r = store_ready(ir);
		if (r < 0)
			return r;
	}
	progress(ir);
	return 0;
}

/* Finishes every message read so far, oldest first, and writes them. */
static int drain(struct import_run *ir)
{
	int r;

	while (ir->nahead)
		if ((r = finish_oldest(ir)) < 0)
			return r;
	return store_ready(ir);
}

/* After a fatal error: what was read or prepared but not written is
 * dropped. */
static void drop_ahead(struct import_run *ir)
{
	while (ir->nahead) {
		import_pending_free(ir->ahead[ir->first].p);
		free(ir->ahead[ir->first].name);
		ir->first = (ir->first + 1) % AHEAD;
		ir->nahead--;
	}
	ir->ahead_bytes = 0;
	for (size_t i = 0; i < ir->nready; i++) {
		import_pending_free(ir->ready[i].p);
		free(ir->ready[i].name);
	}
	ir->nready = 0;
}

/* An input that yields no message: its line comes after those of the
 * messages read before it. */
static int input_error(struct import_run *ir, const char *name, const char *msg)
{
	int r = drain(ir);

	if (r == 0)
		file_error(ir, name, msg);
	return r;
}

/* Takes one message: starts it, and finishes the oldest ones while too
 * much is waiting.  A message bigger than AHEAD_BYTES is not copied: it
 * is finished before buf goes back to the caller. */
static int one(struct import_run *ir, const char *name, const char *buf,
	       size_t len)
{
	bool big = len > AHEAD_BYTES;
	size_t slot;
	int r;

	while (ir->nahead &&
	       (ir->nahead >= ir->o->jobs ||
		ir->ahead_bytes + len > AHEAD_BYTES))
		if ((r = finish_oldest(ir)) < 0)
			return r;
	slot = (ir->first + ir->nahead) % AHEAD;
	ir->ahead[slot].name = xstrdup(name);
	ir->ahead[slot].p = import_start(ir->sess, buf, len, !big);
	ir->ahead[slot].len = len;
	ir->ahead_bytes += len;
	ir->nahead++;
	if (big && (r = drain(ir)) < 0)
		drop_ahead(ir); /* before buf goes */
	return big ? r : 0;
}

/* Reads the mbox mr (named path) to its end, closing it.  A message too
 * large to take is an error line naming the mbox and its position, and
 * reading goes on with the next one. */
static int read_mbox(struct import_run *ir, const char *path,
		     struct mbox_reader *mr)
{
	struct err err = { 0, "" };
	char *buf, *name;
	size_t len, k = 0;
	int r;

	ir->mbox = mr;
	while ((r = mbox_next(mr, &buf, &len, &err)) != 0) {
		name = xasprintf("%s:%zu", path, ++k);
		if (r == ERR_INVALID) {
			r = input_error(ir, name, err.msg);
			err_clear(&err);
		} else if (r > 0) {
			r = one(ir, name, buf, len);
			free(buf);
		}
		free(name);
		if (r < 0)
			break;
	}
	if (r < 0 && err.msg[0]) {
		int f = input_error(ir, path, err.msg);
		if (f < 0)
			r = f;
	}
	ir->mbox = NULL;
	ir->read_frac = 1;
	mbox_close(mr);
	return r < 0 && r != ERR_INVALID ? r : 0;
}

static int do_mbox(struct import_run *ir, const char *path)
{
	struct mbox_reader *mr;
	struct err err = { 0, "" };

	if (mbox_open(path, MBOX_AUTO, &mr, &err) < 0)
		return input_error(ir, path, err.msg);
	return read_mbox(ir, path, mr);
}

/* One message file, or an mbox when it starts with a "From " line, open
 * as fd (taken) and named name. */
static int do_fd(struct import_run *ir, int fd, const char *name)
{
	struct err err = { 0, "" };
	struct mbox_reader *mr;
	char head[5], *buf;
	size_t len;
	int r;

	if (pread(fd, head, sizeof(head), 0) == (ssize_t)sizeof(head) &&
	    !memcmp(head, "From ", 5)) {
		if (mbox_open_fd(fd, name, MBOX_AUTO, &mr, &err) < 0)
			return input_error(ir, name, err.msg);
		return read_mbox(ir, name, mr);
	}
	r = read_fd(fd, name, MAIL_MAX_SIZE, &buf, &len, &err);
	close(fd);
	if (r < 0)
		return input_error(ir, name, err.msg);
	r = one(ir, name, buf, len);
	free(buf);
	return r;
}

/* Standard input: one message, without the "From " envelope line a mail
 * client may pipe in with it. */
static int do_stdin(struct import_run *ir)
{
	struct err err = { 0, "" };
	const char *start;
	char *buf;
	size_t len;
	int r;

	if (read_fd(0, "standard input", MAIL_MAX_SIZE, &buf, &len, &err) < 0)
		return input_error(ir, "standard input", err.msg);
	start = buf;
	if (len > 5 && !memcmp(buf, "From ", 5)) {
		const char *nl = memchr(buf, '\n', len);
		if (nl) {
			len -= (size_t)(nl + 1 - buf);
			start = nl + 1;
		}
	}
	r = one(ir, "standard input", start, len);
	free(buf);
	return r;
}

static int do_file(struct import_run *ir, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0) {
		char *m = xasprintf("cannot open '%s': %s", path,
				    strerror(errno));
		int r = input_error(ir, path, m);
		free(m);
		return r;
	}
	return do_fd(ir, fd, path);
}

/*
 * A Maildir (new/ and cur/), or else a directory of message files.  No
 * symbolic link inside is followed, when listing or when opening: each
 * one, and each special file, gets an error line naming it, and the
 * import goes on.
 */
static int do_maildir(struct import_run *ir, const char *dir, bool must_maildir)
{
	struct err err = { 0, "" };
	struct mail_folder f;
	int r = 0;

	if (maildir_list(dir, &f, &err) < 0 &&
	    (must_maildir || mail_folder_list(dir, &f, &err) < 0))
		return input_error(ir, dir, err.msg);
	ir->total += f.n;
	for (size_t i = 0; i < f.nskipped && !r; i++) {
		char *name = xasprintf("%s/%s", dir, f.skipped[i].name);
		r = input_error(ir, name, f.skipped[i].why);
		free(name);
	}
	for (size_t i = 0; i < f.n && !r; i++) {
		char *name = xasprintf("%s/%s", dir, f.names[i]);
		int fd = open_beneath(dir, f.names[i], &err);

		if (fd < 0) /* e.g. swapped for a link since it was listed */
			r = input_error(ir, name, err.msg);
		else
			r = do_fd(ir, fd, name);
		free(name);
	}
	mail_folder_release(&f);
	return r;
}

/* Each input path in turn: a file, a Maildir, an mbox or "-" (standard
 * input), as mode ('d', 'm' or 0: by what it is) says.  0, or negative
 * once the store failed (an input that fails alone is an error line). */
static int run_inputs(struct import_run *ir, int mode, char *const *paths,
		      int n)
{
	int r = 0;

	for (int i = 0; i < n && r >= 0; i++) {
		const char *p = paths[i];
		struct stat st;

		if (strcmp(p, "-") && stat(p, &st) < 0) {
			r = input_error(ir, p, "no such file or directory");
			continue;
		}
		if (mode == 'd' ||
		    (mode == 0 && strcmp(p, "-") && S_ISDIR(st.st_mode)))
			r = do_maildir(ir, p, mode == 'd');
		else if (mode == 'm')
			r = do_mbox(ir, p);
		else if (!strcmp(p, "-"))
			r = do_stdin(ir);
		else
			r = do_file(ir, p);
	}
	return r;
}

/* The store failed (r): nothing of the open batch was stored, nor the
 * messages read ahead (lost); outside a batch the waiting lines are
 * errors, and are handed over. */
static int stopped(struct import_run *ir, int r, size_t lost, struct err *err)
{
	const char *cause = ir->fatal[0] ? ir->fatal : "the database failed";

	progress_clear(ir);
	if (ir->in_batch) {
		import_batch_abort(ir->sess);
		lost += ir->batched;
		waiting_reset(ir);
	}
	waiting_hand(ir);
	ir->t->lost = lost;
	return err_setc(err, r, "import stopped: %s", cause);
}

int import_inputs(struct session *sess, const struct import_opts *o,
		  char *const *paths, int n, const struct import_hooks *h,
		  struct import_totals *t, struct err *err)
{
	struct import_run ir;
	size_t lost;
	int r;

	memset(t, 0, sizeof(*t));
	memset(&ir, 0, sizeof(ir));
	ir.sess = sess;
	ir.o = o;
	ir.h = h;
	ir.t = t;
	ir.start = mono();
	ir.read_frac = -1;
	r = run_inputs(&ir, o->mode, paths, n);
	if (r == 0)
		r = drain(&ir);
	lost = ir.nahead + ir.nready;
	drop_ahead(&ir);
	free(ir.ready);
	if (r < 0)
		r = stopped(&ir, r, lost, err);
	else if (flush_batch(&ir) < 0)
		r = err_setc(err, ERR_IO, "import stopped: %s", ir.fatal);
	else if (ir.shown && h->progress)
		report_progress(&ir, IMPORT_PROGRESS_DONE, 1);
	waiting_reset(&ir);
	free(ir.pending);
	/* What was stored is committed (or undone): the messages indexed
	 * as they were stored are written to the officer's index once. */
	search_index_done(sess);
	return r;
}
