/*
 * Fix tracking and the CVE lifecycle (fixcve.h): recording them as
 * events, and reading a report's state back from its events.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/core.h"
#include "core/fixcve.h"
#include "core/json.h"
#include "core/ktree.h"
#include "store/store.h"
#include "touched/touched.h"

static bool digits(const char *s, size_t min, size_t max)
{
	size_t n = strspn(s, "0123456789");

	return s[n] == '\0' && n >= min && n <= max;
}

bool fix_sha_valid(const char *s)
{
	size_t n = strspn(s, "0123456789abcdefABCDEF");

	return s[n] == '\0' && n >= 7 && n <= 40;
}

bool cve_id_valid(const char *s)
{
	return str_starts(s, "CVE-") && strlen(s) >= 13 && s[8] == '-' &&
	       isdigit((unsigned char)s[4]) && isdigit((unsigned char)s[5]) &&
	       isdigit((unsigned char)s[6]) && isdigit((unsigned char)s[7]) &&
	       digits(s + 9, 4, 19);
}

bool cwe_id_valid(const char *s)
{
	/* The CVE schema's pattern: ^CWE-[1-9][0-9]*$, at most 9 bytes. */
	return str_starts(s, "CWE-") && s[4] >= '1' && s[4] <= '9' &&
	       digits(s + 4, 1, 5);
}

const char *fix_version(const char *tag)
{
	if (!tag)
		return NULL;
	return tag[0] == 'v' && isdigit((unsigned char)tag[1]) ? tag + 1 : tag;
}

/* --- reading the events back -------------------------------------------*/

/* The value of key=VALUE in a "k=v k=v" detail (caller frees), or NULL;
 * "-" counts as none.  A "subject=" field is the last: its text (the
 * rest of the detail) is no field. */
static char *field(const char *detail, const char *key)
{
	size_t kl = strlen(key);

	for (const char *p = detail; p && *p;) {
		size_t len = strcspn(p, " ");
		if (str_starts(p, "subject="))
			return strcmp(key, "subject") ? NULL : xstrdup(p + 8);
		if (len > kl && !strncmp(p, key, kl) && p[kl] == '=') {
			if (len == kl + 2 && p[kl + 1] == '-')
				return NULL;
			return xstrndup(p + kl + 1, len - kl - 1);
		}
		p += len;
		p += strspn(p, " ");
	}
	return NULL;
}

static void commit_release(struct fix_commit *c)
{
	free(c->sha);
	free(c->tag);
	free(c->branch);
	free(c->upstream);
	free(c->subject);
	for (size_t i = 0; i < c->nfiles; i++)
		free(c->files[i]);
	free(c->files);
	memset(c, 0, sizeof(*c));
}

static void commits_free(struct fix_commit *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		commit_release(&v[i]);
	free(v);
}

/* The paths of a "files=A:B" field (none without one). */
static void files_parse(const char *detail, struct fix_commit *c)
{
	char *v = field(detail, "files");

	for (char *p = v; p && *p;) {
		size_t len = strcspn(p, ":");
		if (len) {
			c->files = xrealloc(c->files, (c->nfiles + 2) * sizeof(*c->files));
			c->files[c->nfiles++] = xstrndup(p, len);
			c->files[c->nfiles] = NULL;
		}
		p += len + (p[len] == ':');
	}
	free(v);
}

static struct fix_commit commit_parse(const char *detail)
{
	struct fix_commit c = { field(detail, "commit"), field(detail, "tag"),
				field(detail, "branch"), field(detail, "upstream"),
				NULL, 0, field(detail, "subject") };

	files_parse(detail, &c);
	return c;
}

static void push(struct fix_commit **v, size_t *n, const char *detail)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = commit_parse(detail);
}

static void set_str(char **dst, const char *s)
{
	free(*dst);
	*dst = xstrdup(s);
}

static void fold_fix(const struct event *e, struct fixcve *fc)
{
	char *tree;

	if (!strcmp(e->kind, "fix")) {
		commit_release(&fc->fix);
		commits_free(fc->introduced, fc->nintroduced);
		commits_free(fc->backports, fc->nbackports);
		fc->introduced = fc->backports = NULL;
		fc->nintroduced = fc->nbackports = 0;
		fc->fix = commit_parse(e->detail);
		fc->has_fix = fc->fix.sha != NULL;
		tree = field(e->detail, "tree");
		fc->tree_checked = tree && !strcmp(tree, "checked");
		free(tree);
	} else if (!strcmp(e->kind, "fix-introduced") && fc->has_fix) {
		push(&fc->introduced, &fc->nintroduced, e->detail);
	} else if (!strcmp(e->kind, "fix-backport") && fc->has_fix) {
		push(&fc->backports, &fc->nbackports, e->detail);
	}
}

static void fold_cve(const struct event *e, struct fixcve *fc)
{
	if (!strcmp(e->kind, "cve-assign")) {
		set_str(&fc->cve_id, e->detail);
		fc->cve_state = "reserved";
		free(fc->reject_reason);
		fc->reject_reason = NULL;
	} else if (!strcmp(e->kind, "cve-reject") && fc->cve_id) {
		set_str(&fc->reject_reason, e->detail);
		fc->cve_state = "rejected";
	} else if (!strcmp(e->kind, "cve-publish") && fc->cve_id &&
		   strcmp(fc->cve_state, "rejected")) {
		fc->cve_state = "published";
	} else if (!strcmp(e->kind, "cve-description")) {
		set_str(&fc->description, e->detail);
	} else if (!strcmp(e->kind, "cve-cwe")) {
		set_str(&fc->cwe, e->detail);
	}
}

void fixcve_fold(const struct event *ev, size_t n, struct fixcve *fc)
{
	memset(fc, 0, sizeof(*fc));
	for (size_t i = 0; i < n; i++) {
		if (!ev[i].kind || !ev[i].detail)
			continue;
		if (str_starts(ev[i].kind, "fix"))
			fold_fix(&ev[i], fc);
		else if (str_starts(ev[i].kind, "cve-"))
			fold_cve(&ev[i], fc);
	}
}

void fixcve_release(struct fixcve *fc)
{
	commit_release(&fc->fix);
	commits_free(fc->introduced, fc->nintroduced);
	commits_free(fc->backports, fc->nbackports);
	free(fc->cve_id);
	free(fc->reject_reason);
	free(fc->description);
	free(fc->cwe);
	memset(fc, 0, sizeof(*fc));
}

static json_t *commit_json(const struct fix_commit *c)
{
	json_t *o = json_pack("{s:o, s:o}", "commit", json_text(c->sha),
			      "tag", json_text(c->tag));

	if (c->branch)
		json_object_set_new(o, "branch", json_text(c->branch));
	return o;
}

void fixcve_add_json(json_t *o, const struct fixcve *fc)
{
	json_t *fix = json_null(), *cve = json_null();

	if (fc->has_fix) {
		json_t *in = json_array(), *bp = json_array();
		for (size_t i = 0; i < fc->nintroduced; i++)
			json_array_append_new(in, commit_json(&fc->introduced[i]));
		for (size_t i = 0; i < fc->nbackports; i++)
			json_array_append_new(bp, commit_json(&fc->backports[i]));
		fix = json_pack("{s:o, s:o, s:o, s:o, s:b}",
				"commit", json_text(fc->fix.sha),
				"tag", json_text(fc->fix.tag), "introduced", in,
				"backports", bp, "tree_checked", fc->tree_checked);
	}
	if (fc->cve_id || fc->description || fc->cwe)
		cve = json_pack("{s:o, s:o, s:o, s:o, s:o}",
				"id", json_text(fc->cve_id),
				"state", json_text(fc->cve_state),
				"reason", json_text(fc->reject_reason),
				"cwe", json_text(fc->cwe),
				"description", json_text(fc->description));
	json_object_set_new(o, "fix", fix);
	json_object_set_new(o, "cve", cve);
}

/* --- recording ----------------------------------------------------------*/

struct fix_job {
	const struct fix_request *rq;
	struct ktree *tree;
	struct fix_commit fix;
	struct fix_commit *intro, *bp;
	size_t nintro, nbp;
};

/* One commit as given, or resolved in the tree with its first tag. */
static int resolve(struct ktree *tree, const char *sha, struct fix_commit *c,
		   struct err *err)
{
	memset(c, 0, sizeof(*c));
	if (!tree) {
		c->sha = str_lower(xstrdup(sha));
		return 0;
	}
	if (ktree_commit(tree, sha, &c->sha, err) < 0)
		return ERR_NOTFOUND;
	c->tag = ktree_first_tag(tree, c->sha);
	return 0;
}

/* The fix's subject as its event keeps it: one display-safe line, at
 * most 256 bytes (a CVE record's title), cut on a character. */
static char *subject_of(struct ktree *tree, const char *sha)
{
	char *raw = ktree_commit_subject(tree, sha), *s;
	size_t n;

	if (!raw)
		return NULL;
	s = safe_str(raw);
	free(raw);
	n = strlen(s);
	if (n > 256) {
		n = 256;
		while (n && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
		s[n] = '\0';
	}
	if (!*s) {
		free(s);
		return NULL;
	}
	return s;
}

static int find_backports(struct fix_job *j, struct err *err)
{
	const struct fix_request *rq = j->rq;

	for (size_t b = 0; b < rq->nstable; b++) {
		char **shas;
		size_t n;
		if (ktree_backports(j->tree, rq->stable[b], j->fix.sha, &shas, &n, err) < 0)
			return err->code;
		for (size_t i = 0; i < n; i++) {
			struct fix_commit c = { shas[i], ktree_first_tag(j->tree, shas[i]),
						xstrdup(rq->stable[b]), xstrdup(j->fix.sha), NULL, 0,
						NULL };
			j->bp = xrealloc(j->bp, (j->nbp + 1) * sizeof(*j->bp));
			j->bp[j->nbp++] = c;
		}
		free(shas);
	}
	return 0;
}

/* The files the fix changes, as its event records them: plausible
 * paths only, none past FIX_FILES_MAX. */
static int fix_files(struct fix_job *j, struct err *err)
{
	char **v;
	size_t n, keep = 0;

	if (ktree_commit_files(j->tree, j->fix.sha, &v, &n, err) < 0)
		return err->code;
	for (size_t i = 0; i < n; i++) {
		if (touched_path_plausible(v[i]) && n <= FIX_FILES_MAX)
			v[keep++] = v[i];
		else
			free(v[i]);
	}
	v[keep] = NULL;
	j->fix.files = v;
	j->fix.nfiles = keep;
	return 0;
}

/* Everything the tree tells, before anything is written. */
static int fix_prepare(struct fix_job *j, struct err *err)
{
	const struct fix_request *rq = j->rq;

	if (rq->tree && ktree_open(rq->tree, &j->tree, err) < 0)
		return err->code;
	if (resolve(j->tree, rq->commit, &j->fix, err) < 0)
		return ERR_NOTFOUND;
	if (rq->tree && fix_files(j, err) < 0)
		return err->code;
	if (rq->tree)
		j->fix.subject = subject_of(j->tree, j->fix.sha);
	j->intro = xcalloc(rq->nintroduced + 1, sizeof(*j->intro));
	for (size_t i = 0; i < rq->nintroduced; i++, j->nintro++)
		if (resolve(j->tree, rq->introduced[i], &j->intro[i], err) < 0)
			return ERR_NOTFOUND;
	return rq->tree ? find_backports(j, err) : 0;
}

static int fix_store(struct session *sess, void *data, struct err *err)
{
	struct fix_job *j = data;
	const char *tree = j->rq->tree ? "checked" : "unchecked";
	struct report r;
	struct sbuf sb;
	char *d;
	int rc;

	if ((rc = store_report_get(sess->store, j->rq->id, &r, err)) < 0)
		return rc;
	report_release(&r);
	sbuf_init(&sb);
	sbuf_addf(&sb, "commit=%s tag=%s tree=%s", j->fix.sha,
		  j->fix.tag ? j->fix.tag : "-", tree);
	for (size_t i = 0; i < j->fix.nfiles; i++)
		sbuf_addf(&sb, "%s%s", i ? ":" : " files=", j->fix.files[i]);
	if (j->fix.subject)
		sbuf_addf(&sb, " subject=%s", j->fix.subject);
	d = sbuf_detach(&sb, NULL);
	rc = store_event_add(sess->store, j->rq->id, sess->officer, "fix", d, err);
	free(d);
	for (size_t i = 0; rc == 0 && i < j->nintro; i++) {
		d = xasprintf("commit=%s tag=%s tree=%s", j->intro[i].sha,
			      j->intro[i].tag ? j->intro[i].tag : "-", tree);
		rc = store_event_add(sess->store, j->rq->id, sess->officer,
				     "fix-introduced", d, err);
		free(d);
	}
	for (size_t i = 0; rc == 0 && i < j->nbp; i++) {
		d = xasprintf("commit=%s tag=%s branch=%s upstream=%s", j->bp[i].sha,
			      j->bp[i].tag ? j->bp[i].tag : "-", j->bp[i].branch,
			      j->fix.sha);
		rc = store_event_add(sess->store, j->rq->id, sess->officer,
				     "fix-backport", d, err);
		free(d);
	}
	return rc;
}

static char *fix_summary(const struct fix_job *j)
{
	struct sbuf sb;

	sbuf_init(&sb);
	sbuf_addf(&sb, "report %lld: fix %.12s (%s)", (long long)j->rq->id,
		  j->fix.sha, j->rq->tree ? (j->fix.tag ? j->fix.tag : "no tag yet")
		  : "unchecked: no tree");
	for (size_t i = 0; i < j->nintro; i++)
		sbuf_addf(&sb, "%s %.12s (%s)", i ? "," : "; introduced by",
			  j->intro[i].sha, j->intro[i].tag ? j->intro[i].tag : "-");
	for (size_t i = 0; i < j->nbp; i++)
		sbuf_addf(&sb, "%s %.12s on %s (%s)", i ? "," : "; backports",
			  j->bp[i].sha, j->bp[i].branch, j->bp[i].tag ? j->bp[i].tag : "-");
	return sbuf_detach(&sb, NULL);
}

int fix_record(struct session *sess, const struct fix_request *rq,
	       char **summary, struct err *err)
{
	struct fix_job j = { rq, NULL, { 0 }, NULL, NULL, 0, 0 };
	int r;

	*summary = NULL;
	if (!fix_sha_valid(rq->commit))
		return err_setc(err, ERR_INVALID, "fix --commit '%s': not a commit SHA (7 to 40 hex digits)",
				rq->commit);
	for (size_t i = 0; i < rq->nintroduced; i++)
		if (!fix_sha_valid(rq->introduced[i]))
			return err_setc(err, ERR_INVALID,
					"fix --introduced '%s': not a commit SHA (7 to 40 hex digits)",
					rq->introduced[i]);
	r = fix_prepare(&j, err);
	if (r == 0 && (r = core_write(sess, fix_store, &j, err)) == 0)
		*summary = fix_summary(&j);
	commit_release(&j.fix);
	commits_free(j.intro, j.nintro);
	commits_free(j.bp, j.nbp);
	ktree_free(j.tree);
	return r;
}

/* --- the CVE lifecycle --------------------------------------------------*/

struct cve_job {
	int64_t id;
	enum cve_action a;
	const char *value;
};

static const char *const cve_kinds[] = {
	"cve-assign", "cve-reject", "cve-description", "cve-cwe", "cve-publish",
};

static int cve_check(const struct cve_job *j, const struct fixcve *fc,
		     struct err *err)
{
	long long id = (long long)j->id;

	switch (j->a) {
	case CVE_ASSIGN:
		if (fc->cve_id && strcmp(fc->cve_state, "rejected"))
			return err_setc(err, ERR_REFUSED,
					"report %lld already has %s (%s); reject it first",
					id, fc->cve_id, fc->cve_state);
		return 0;
	case CVE_REJECT:
		if (!fc->cve_id || !strcmp(fc->cve_state, "rejected"))
			return err_setc(err, ERR_REFUSED,
					"report %lld has no CVE ID to reject", id);
		return 0;
	case CVE_PUBLISH:
		if (!fc->cve_id || strcmp(fc->cve_state, "reserved"))
			return err_setc(err, ERR_REFUSED,
					"report %lld has no reserved CVE ID", id);
		return 0;
	default:
		return 0;
	}
}

static int cve_store(struct session *sess, void *data, struct err *err)
{
	struct cve_job *j = data;
	struct event *ev = NULL;
	struct fixcve fc;
	size_t n = 0;
	int rc;

	if ((rc = store_events_get(sess->store, j->id, &ev, &n, err)) < 0)
		return rc;
	fixcve_fold(ev, n, &fc);
	for (size_t i = 0; i < n; i++)
		event_release(&ev[i]);
	free(ev);
	rc = cve_check(j, &fc, err);
	if (rc == 0)
		rc = store_event_add(sess->store, j->id, sess->officer, cve_kinds[j->a],
				     j->a == CVE_PUBLISH ? fc.cve_id : j->value, err);
	fixcve_release(&fc);
	return rc;
}

int cve_record(struct session *sess, int64_t id, enum cve_action a,
	       const char *value, struct err *err)
{
	struct cve_job j = { id, a, value };
	struct report r;
	int rc;

	if (!session_store(sess, err))
		return ERR_IO;
	if ((rc = store_report_get(sess->store, id, &r, err)) < 0)
		return rc;
	report_release(&r);
	return core_write(sess, cve_store, &j, err);
}

/* --- every report at once, for the list ---------------------------------*/

int fixcve_all(struct session *sess, struct fixcve_row **out, size_t *n,
	       struct err *err)
{
	struct store *s = session_store(sess, err);
	struct event *ev = NULL;
	size_t nev = 0, i = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (!s)
		return ERR_IO;
	if ((rc = store_events_fixcve(s, 0, &ev, &nev, err)) < 0)
		return rc;
	while (i < nev) {
		size_t j = i;
		while (j < nev && ev[j].report_id == ev[i].report_id)
			j++;
		*out = xrealloc(*out, (*n + 1) * sizeof(**out));
		(*out)[*n].report_id = ev[i].report_id;
		fixcve_fold(ev + i, j - i, &(*out)[*n].fc);
		(*n)++;
		i = j;
	}
	for (i = 0; i < nev; i++)
		event_release(&ev[i]);
	free(ev);
	return 0;
}

int fixcve_get(struct session *sess, int64_t report_id, struct fixcve *fc,
	       struct err *err)
{
	struct store *s = session_store(sess, err);
	struct event *ev = NULL;
	size_t n = 0;
	int rc;

	memset(fc, 0, sizeof(*fc));
	if (!s)
		return ERR_IO;
	if ((rc = store_events_fixcve(s, report_id, &ev, &n, err)) < 0)
		return rc;
	fixcve_fold(ev, n, fc);
	for (size_t i = 0; i < n; i++)
		event_release(&ev[i]);
	free(ev);
	return 0;
}

int fixcve_page(struct session *sess, const int64_t *ids, size_t n,
		struct fixcve *out, struct err *err)
{
	struct store *s = session_store(sess, err);
	struct event *ev = NULL;
	size_t nev = 0, i = 0;
	int rc;

	memset(out, 0, n * sizeof(*out));
	if (!s)
		return ERR_IO;
	if ((rc = store_events_fixcve_page(s, ids, n, &ev, &nev, err)) < 0)
		return rc;
	while (i < nev) {
		size_t j = i;
		while (j < nev && ev[j].report_id == ev[i].report_id)
			j++;
		for (size_t k = 0; k < n; k++)
			if (ids[k] == ev[i].report_id) {
				fixcve_fold(ev + i, j - i, &out[k]);
				break;
			}
		i = j;
	}
	for (i = 0; i < nev; i++)
		event_release(&ev[i]);
	free(ev);
	return 0;
}

const struct fixcve *fixcve_find(const struct fixcve_row *rows, size_t n,
				 int64_t report_id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (rows[mid].report_id == report_id)
			return &rows[mid].fc;
		if (rows[mid].report_id < report_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void fixcve_rows_free(struct fixcve_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fixcve_release(&rows[i].fc);
	free(rows);
}

char *fixcve_fix_text(struct session *sess, int64_t id, char **cve)
{
	struct fixcve fc;
	struct err err = { 0, "" };
	char *r = NULL;

	if (cve)
		*cve = NULL;
	if (fixcve_get(sess, id, &fc, &err) < 0)
		return NULL;
	if (fc.has_fix && fc.fix.sha)
		r = fc.fix.tag ? xasprintf("%s (%s)", fc.fix.sha, fc.fix.tag) :
				 xstrdup(fc.fix.sha);
	if (cve && fc.cve_id && !(fc.cve_state && !strcmp(fc.cve_state, "rejected")))
		*cve = xstrdup(fc.cve_id);
	fixcve_release(&fc);
	return r;
}

char *fixcve_label(const struct fixcve *fc)
{
	const char *fix = "-";
	char sha[13];

	if (fc && fc->has_fix) {
		snprintf(sha, sizeof(sha), "%.12s", fc->fix.sha);
		fix = fc->fix.tag ? fc->fix.tag : sha;
	}
	if (!fc || !fc->cve_id)
		return xasprintf("%s/-", fix);
	return xasprintf("%s/%s:%s", fix, fc->cve_id, fc->cve_state);
}
