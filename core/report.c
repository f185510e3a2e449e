/*
 * Reading a report back: its row, thread, touched files and events, and
 * on demand the decrypted content of one message.  Plaintext exists only
 * in struct opened_message, which is wiped on release.  Also the rule of
 * whose files are the report's: the first message's (the report) and
 * those of the reporter's signed replies (report_files_count), which
 * import and every view of the thread follow.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/pipeline.h"
#include "core/reportchain.h"
#include "core/reportlog.h"
#include "core/seal.h"
#include "core/triage.h"
#include "core/verdicts.h"
#include "store/store.h"

int parse_report_id(const char *s, int64_t *id, struct err *err)
{
	char *end;
	long long v;

	if (*s == '#')
		s++;
	if (!isdigit((unsigned char)*s))
		goto bad;
	v = strtoll(s, &end, 10);
	if (*end || v <= 0)
		goto bad;
	*id = v;
	return 0;
bad:
	return err_setc(err, ERR_INVALID, "'%s' is not a report id", s);
}

int core_write(struct session *sess,
	       int (*fn)(struct session *sess, void *data, struct err *err),
	       void *data, struct err *err)
{
	struct store *s = session_store(sess, err);
	int r;

	if (!s)
		return ERR_IO;
	if ((r = store_begin(s, err)) < 0)
		return r;
	if ((r = fn(sess, data, err)) < 0) {
		store_rollback(s);
		return r;
	}
	return store_commit(s, err);
}

/* The reports of a listing, kept for sorting by embargo deadline or by
 * subject (both unknown to the store: a sealed subject opens here). */
struct by_deadline {
	struct report *v;
	time_t *deadline;
	size_t n;
	struct policy pol;
	time_t now;
	bool by_subject;
	bool sort; /* false: in the store's order */
};

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void report_copy(struct report *dst, const struct report *src)
{
	*dst = *src;
	dst->subject = dup_or_null(src->subject);
	dst->reporter_name = dup_or_null(src->reporter_name);
	dst->reporter_email = dup_or_null(src->reporter_email);
	dst->state = dup_or_null(src->state);
	dst->severity = dup_or_null(src->severity);
	dst->claimed_by = dup_or_null(src->claimed_by);
}

static int keep_report(const struct report *r, void *data)
{
	struct by_deadline *b = data;
	struct report *c;
	struct embargo e;

	b->v = xrealloc(b->v, (b->n + 1) * sizeof(*b->v));
	b->deadline = xrealloc(b->deadline, (b->n + 1) * sizeof(*b->deadline));
	c = &b->v[b->n];
	report_copy(c, r);
	embargo_of_report(&b->pol, c, b->now, &e);
	/* Finished embargoes last; the rest earliest deadline first. */
	b->deadline[b->n++] = report_deadline_key(&e);
	return 0;
}

/* Compares two indexes into b's reports. */
static int cmp_deadline(const void *x, const void *y, void *data)
{
	const struct by_deadline *b = data;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	int c;

	if (b->by_subject &&
	    (c = strcasecmp(b->v[i].subject ? b->v[i].subject : "",
			    b->v[j].subject ? b->v[j].subject : "")))
		return c;
	if (!b->by_subject)
		return report_deadline_cmp(b->deadline[i], b->v[i].id,
					   b->deadline[j], b->v[j].id);
	return b->v[i].id < b->v[j].id ? -1 : b->v[i].id > b->v[j].id;
}

/* Order "deadline" is the embargo deadline (embargo.c), which the store
 * does not know for undated reports: read by id, sort here.  Every
 * listing passes here (sort false: in the store's order), to be given
 * the verdicts now before fn sees a report. */
static int each_by_deadline(struct session *sess, struct store *s,
			    const struct report_filter *f, bool sort,
			    bool by_subject,
			    int (*fn)(const struct report *r, void *data),
			    void *data, struct err *err)
{
	struct report_filter byid = *f;
	struct by_deadline b = { NULL,	     NULL,	 0,   { 0, 0 },
				 util_now(), by_subject, sort };
	size_t *order;
	int r;

	policy_from_config(sess->cfg, &b.pol);
	r = store_report_each(s, &byid, keep_report, &b, err);
	/* The verdicts against the keyring now, not the record's. */
	if (r == 0)
		report_verdicts_now(sess, b.v, b.n);
	order = xcalloc(b.n + 1, sizeof(*order));
	for (size_t i = 0; i < b.n; i++)
		order[i] = i;
	if (b.sort)
		qsort_r(order, b.n, sizeof(*order), cmp_deadline, &b);
	for (size_t i = 0; r == 0 && i < b.n; i++)
		if (fn(&b.v[order[i]], data))
			break;
	for (size_t i = 0; i < b.n; i++)
		report_release(&b.v[i]);
	free(b.v);
	free(b.deadline);
	free(order);
	return r;
}

int report_each(struct session *sess, const struct report_filter *f,
		int (*fn)(const struct report *r, void *data), void *data,
		struct err *err)
{
	struct store *s = session_store(sess, err);

	struct report_filter rf = { NULL, false, NULL, NULL, NULL };

	if (!s)
		return ERR_IO;
	/* The rules are core's: the store is given them as values. */
	if (f)
		rf = *f;
	rf.finished = report_finished_states;
	rf.rank = NULL;
	if (rf.order && strcmp(rf.order, "id") &&
	    strcmp(rf.order, "received") && strcmp(rf.order, "state") &&
	    strcmp(rf.order, "severity") && strcmp(rf.order, "deadline") &&
	    strcmp(rf.order, "subject"))
		return err_setc(
			err, ERR_INVALID,
			"unknown order '%s' (id, received, state, severity, "
			"deadline, subject)",
			rf.order);
	if (rf.order && !strcmp(rf.order, "state"))
		rf.rank = report_states;
	else if (rf.order && !strcmp(rf.order, "severity"))
		rf.rank = report_severity_order;
	else if (rf.order &&
		 (!strcmp(rf.order, "deadline") ||
		  !strcmp(rf.order, "subject"))) {
		bool subj = !strcmp(rf.order, "subject");

		rf.order = "id";
		return each_by_deadline(sess, s, &rf, true, subj, fn, data,
					err);
	}
	return each_by_deadline(sess, s, &rf, false, false, fn, data, err);
}

int report_load(struct session *sess, int64_t id, struct report_full *rf,
		struct err *err)
{
	struct store *s = session_store(sess, err);
	int r;

	memset(rf, 0, sizeof(*rf));
	if (!s)
		return ERR_IO;
	if ((r = store_report_get(s, id, &rf->r, err)) < 0 ||
	    (r = store_messages_get(s, id, false, &rf->msgs, &rf->nmsgs, err)) <
		    0 ||
	    (r = store_files_get(s, id, &rf->files, &rf->nfiles, err)) < 0 ||
	    (r = store_events_get(s, id, &rf->events, &rf->nevents, err)) < 0 ||
	    (r = report_log_account(sess, rf, err)) < 0 ||
	    (r = triage_duplicates(sess, id, &rf->duplicates, &rf->nduplicates,
				   err)) < 0)
		return r;
	rf->duplicate_of = triage_duplicate_of(rf->events, rf->nevents);
	/* The verdicts against the keyring now, and the files they count. */
	if (verdicts_apply_full(sess, rf, false, err) < 0) {
		for (size_t i = 0; i < rf->nmsgs; i++)
			rf->msgs[i].verdict = SIG_ERROR;
		if (rf->nmsgs)
			rf->r.verdict = SIG_ERROR;
	}
	return 0;
}

void report_verdicts_now(struct session *sess, struct report *r, size_t n)
{
	struct err err = { 0, "" };

	/* Checked by nobody when the keyring cannot be read: an error,
	 * never the verdict the record claims. */
	if (verdicts_apply_reports(sess, r, n, &err) < 0)
		for (size_t i = 0; i < n; i++)
			if (r[i].nmessages)
				r[i].verdict = SIG_ERROR;
}

const char *report_received_source(const struct report_full *rf)
{
	const struct message *m = rf->nmsgs ? &rf->msgs[0] : NULL;

	/* import.c takes the Date header unless it is missing or later than
	 * the import: then the import time. */
	if (m && m->date > 0 && m->date == rf->r.received)
		return "the report's mail, at its Date header's time";
	return "the report's mail, at the import time (no usable Date header)";
}

void report_full_release(struct report_full *rf)
{
	report_release(&rf->r);
	for (size_t i = 0; i < rf->nmsgs; i++)
		message_release(&rf->msgs[i]);
	free(rf->msgs);
	for (size_t i = 0; i < rf->nfiles; i++)
		free(rf->files[i]);
	free(rf->files);
	for (size_t i = 0; i < rf->nevents; i++)
		event_release(&rf->events[i]);
	free(rf->events);
	free(rf->duplicates);
	for (size_t i = 0; i < rf->nhidden; i++)
		free(rf->hidden[i]);
	free(rf->hidden);
	if (rf->chain) {
		report_chain_release(rf->chain);
		free(rf->chain);
	}
	memset(rf, 0, sizeof(*rf));
}

bool attachment_is_exploit(const char *filename, const char *content_type)
{
	static const char *const words[] = { "exploit", "poc",	   "reproducer",
					     "repro",	"trigger", "crash" };
	static const char *const exts[] = { ".c",   ".py",  ".sh",     ".pl",
					    ".rb",  ".go",  ".rs",     ".js",
					    ".asm", ".s",   ".bin",    ".elf",
					    ".tar", ".tgz", ".tar.gz", ".zip",
					    ".gz",  ".xz" };
	char *f = str_lower(xstrdup(filename ? filename : ""));
	bool hit = false;

	for (size_t i = 0; !hit && i < ARRAY_SIZE(words); i++)
		hit = strstr(f, words[i]) != NULL;
	for (size_t i = 0; !hit && i < ARRAY_SIZE(exts); i++)
		hit = str_ends(f, exts[i]);
	if (!hit && content_type)
		hit = !strcmp(content_type, "text/x-csrc") ||
			!strcmp(content_type, "text/x-c") ||
			!strcmp(content_type, "text/x-python") ||
			!strcmp(content_type, "application/x-executable") ||
			!strcmp(content_type, "application/x-sh") ||
			!strcmp(content_type, "application/x-shellscript");
	free(f);
	return hit;
}

/* True when some line of data[0..len) starts with prefix. */
static bool has_line(const unsigned char *data, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	for (size_t i = 0; i + n <= len; i++)
		if ((i == 0 || data[i - 1] == '\n') &&
		    !memcmp(data + i, prefix, n))
			return true;
	return false;
}

bool attachment_is_patch(const char *filename, const char *content_type,
			 const unsigned char *data, size_t len)
{
	const char *t = content_type ? content_type : "";
	const char *f = filename ? filename : "";

	if (strcmp(t, "text/x-patch") && strcmp(t, "text/x-diff") &&
	    !str_ends(f, ".patch") && !str_ends(f, ".diff"))
		return false;
	if (!data || memchr(data, '\0', len))
		return false;
	return has_line(data, len, "+++ ") ||
		has_line(data, len, "diff --git ");
}

/* What the pipeline read of a message, copied into om: its signer, the
 * spans and files outside the signature, the From mailboxes, the body
 * and the attachments (marked exploit, patch, unsigned). */
static void opened_from(struct opened_message *om, struct pipeline_out *po)
{
	const struct crypto_uid *u = pipeline_signer(po);

	pipeline_files(po, &om->files, &om->nfiles, &om->files_unsigned,
		       &om->nfiles_unsigned);
	if (u) {
		om->signer = xstrdup(u->uid);
		om->signer_valid = u->valid;
	}
	om->fingerprint = po->fingerprint ? xstrdup(po->fingerprint) : NULL;
	om->nunsigned = po->nunsigned;
	om->unsigned_spans =
		xcalloc(po->nunsigned + 1, sizeof(*om->unsigned_spans));
	for (size_t i = 0; i < po->nunsigned; i++) {
		om->unsigned_spans[i].start = po->unsigned_spans[i].start;
		om->unsigned_spans[i].end = po->unsigned_spans[i].end;
	}
	om->nfrom = po->msg.nfrom;
	om->from = xcalloc(po->msg.nfrom + 1, sizeof(*om->from));
	for (size_t i = 0; i < po->msg.nfrom; i++) {
		const struct mail_mailbox *f = &po->msg.from[i];
		om->from[i].name = f->name ? xstrdup(f->name) : NULL;
		om->from[i].email = f->email ? xstrdup(f->email) : NULL;
	}
	/* A From no mailbox could be read from is still shown, as a name
	 * without an address (and flagged like one). */
	if (!po->msg.nfrom && po->msg.from_header && *po->msg.from_header) {
		om->from[0].name = xstrdup(po->msg.from_header);
		om->nfrom = 1;
	}
	om->body = sbuf_detach(&po->body, &om->body_len);
	om->natt = po->natt;
	om->att = xcalloc(po->natt + 1, sizeof(*om->att));
	for (size_t i = 0; i < po->natt; i++) {
		struct attachment_info *a = &om->att[i];
		a->filename = po->att[i].filename ? xstrdup(po->att[i].filename)
						  : NULL;
		a->content_type = xstrdup(po->att[i].content_type
						  ? po->att[i].content_type
						  : "application/octet-stream");
		a->size = po->att[i].len;
		a->data = xmemdup(po->att[i].data ? po->att[i].data
						  : (const unsigned char *)"",
				  po->att[i].len);
		a->exploit =
			attachment_is_exploit(a->filename, a->content_type);
		a->unsigned_part = po->att[i].outside;
		a->patch = attachment_is_patch(a->filename, a->content_type,
					       a->data, a->size);
	}
}

int report_open_message(struct session *sess, int64_t message_row,
			struct opened_message *om, struct err *err)
{
	struct store *s = session_store(sess, err);
	struct crypto *c;
	struct message m;
	struct crypto_result res;
	struct pipeline_out po;
	unsigned char *team_plain = NULL;
	size_t team_len = 0, nkeys = 0;
	char **keys = NULL;
	bool tampered = false;
	int r;

	memset(om, 0, sizeof(*om));
	memset(&res, 0, sizeof(res));
	memset(&m, 0, sizeof(m));
	if (!s || !(c = session_crypto(sess, err)))
		return ERR_IO;
	if ((r = store_message_get(s, message_row, &m, err)) < 0)
		goto out;
	const char *raw = (const char *)m.blob;
	size_t len = m.blob_len;
	if (!strcmp(m.blob_kind, "sealed") &&
	    session_is_team_sealed(m.blob, m.blob_len)) {
		/* Sealed by the store under the team key, for this row. */
		if ((r = session_open_sealed(sess, "messages", "blob", m.id,
					     m.blob, m.blob_len, &team_plain,
					     &team_len, err)) < 0) {
			err_prefix(
				err,
				"cannot open the sealed copy of message %lld",
				(long long)message_row);
			goto out;
		}
		raw = (const char *)team_plain;
		len = team_len;
	} else if (!strcmp(m.blob_kind, "sealed")) {
		if ((r = crypto_decrypt_verify(c, m.blob, m.blob_len, &res,
					       err)) < 0) {
			err_prefix(
				err,
				"cannot open the sealed copy of message %lld",
				(long long)message_row);
			goto out;
		}
		raw = (const char *)res.plain;
		len = res.plain_len;
	}
	/* Kept after its session keys: the message is what follows them. */
	if (m.blob_form == BLOB_KEYED &&
	    (r = seal_keyed_open(raw, len, &keys, &nkeys, &raw, &len, err)) <
		    0) {
		err_prefix(err, "stored message %lld", (long long)message_row);
		goto out;
	}
	/* The bytes the import verified, or others put in their place?
	 * (NULL: a message stored before the digest was kept.) */
	if (m.plain_sha256) {
		char *h = mail_raw_hash(raw, len);
		tampered = strcmp(h, m.plain_sha256) != 0;
		free(h);
	}
	/* Verified again from its bytes, decrypted with its session keys;
	 * only a body an older version kept as its content (what was shown
	 * at import) has nothing to verify, and shows the recorded verdict. */
	if ((r = m.blob_form == BLOB_CONTENT
		     ? pipeline_load_content(sess, raw, len, &m, &po, err)
		     : pipeline_run_keys(sess, raw, len, keys, nkeys, &po,
					 err)) < 0) {
		pipeline_out_release(&po);
		goto out;
	}
	opened_from(om, &po);
	om->verdict = po.verdict;
	om->signer_matches_from = po.signer_matches_from;
	om->verified_now = m.blob_form != BLOB_CONTENT;
	if (tampered) {
		/* Never the reporter's signed text: no signer, every line and
		 * attachment outside what a signature covers, no files. */
		om->verdict = SIG_TAMPERED;
		om->signer_matches_from = false;
		om->tampered = true;
		free(om->signer);
		om->signer = NULL;
		om->signer_valid = false;
		free(om->fingerprint);
		om->fingerprint = NULL;
		free(om->unsigned_spans);
		om->unsigned_spans = xcalloc(1, sizeof(*om->unsigned_spans));
		om->unsigned_spans[0].start = 0;
		om->unsigned_spans[0].end = om->body_len;
		om->nunsigned = 1;
		for (size_t i = 0; i < om->natt; i++)
			om->att[i].unsigned_part = true;
		for (size_t i = 0; i < om->nfiles; i++)
			free(om->files[i]);
		om->nfiles = 0;
	}
	pipeline_out_release(&po);
out:
	seal_keys_free(keys, nkeys);
	crypto_result_release(&res);
	if (team_plain)
		wipe_free(team_plain, team_len);
	message_release(&m);
	return r;
}

void opened_message_release(struct opened_message *om)
{
	wipe_free(om->body, om->body_len);
	free(om->unsigned_spans);
	for (size_t i = 0; i < om->natt; i++) {
		free(om->att[i].filename);
		free(om->att[i].content_type);
		wipe_free(om->att[i].data, om->att[i].size);
	}
	free(om->att);
	for (size_t i = 0; i < om->nfrom; i++) {
		free(om->from[i].name);
		free(om->from[i].email);
	}
	free(om->from);
	free(om->signer);
	free(om->fingerprint);
	for (size_t i = 0; i < om->nfiles; i++)
		free(om->files[i]);
	free(om->files);
	for (size_t i = 0; i < om->nfiles_unsigned; i++)
		free(om->files_unsigned[i]);
	free(om->files_unsigned);
	memset(om, 0, sizeof(*om));
}

enum verdict_class report_trust_class(enum sig_verdict v,
				      bool signer_matches_from)
{
	enum verdict_class c = sig_verdict_class(v);

	return c == VERDICT_TRUSTED && !signer_matches_from ? VERDICT_WARNING
							    : c;
}

const char *report_trust_name(enum verdict_class c)
{
	switch (c) {
	case VERDICT_TRUSTED:
		return "trusted";
	case VERDICT_WARNING:
		return "warning";
	case VERDICT_BAD:
		return "bad";
	}
	return "bad";
}

bool report_reporter_signed(const struct report *r, const struct message *m)
{
	return (m->verdict == SIG_VALID || m->verdict == SIG_GOOD) &&
		m->signer_matches_from && m->from_email && r->reporter_email &&
		*m->from_email && !strcasecmp(m->from_email, r->reporter_email);
}

bool report_files_count(const struct report *r, const struct message *m,
			bool first)
{
	return first || report_reporter_signed(r, m);
}

int report_open_thread(struct session *sess, const struct report_full *rf,
		       size_t i, struct opened_message *om, struct err *err)
{
	int r = report_open_message(sess, rf->msgs[i].id, om, err);

	if (r < 0 || report_files_count(&rf->r, &rf->msgs[i], i == 0))
		return r;
	for (size_t k = 0; k < om->nfiles; k++) {
		om->files_unsigned =
			xrealloc(om->files_unsigned,
				 (om->nfiles_unsigned + 2) *
					 sizeof(*om->files_unsigned));
		om->files_unsigned[om->nfiles_unsigned++] = om->files[k];
		om->files_unsigned[om->nfiles_unsigned] = NULL;
	}
	om->files[0] = NULL;
	om->nfiles = 0;
	return 0;
}

size_t opened_message_lines(const struct opened_message *om,
			    struct body_line **lines)
{
	const char *b = om->body ? om->body : "", *end = b + om->body_len;
	struct body_line *v = NULL;
	size_t n = 0, alloc = 0, span = 0;

	for (const char *p = b; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t off = (size_t)(p - b);

		while (span < om->nunsigned &&
		       om->unsigned_spans[span].end <= off)
			span++;
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 64;
			v = xrealloc(v, alloc * sizeof(*v));
		}
		v[n].s = p;
		v[n].len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		v[n].unsigned_text = span < om->nunsigned &&
			om->unsigned_spans[span].start <= off;
		n++;
		p = nl ? nl + 1 : end;
	}
	*lines = v ? v : xcalloc(1, sizeof(*v));
	return n;
}
