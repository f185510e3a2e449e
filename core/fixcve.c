/*
 * Fix tracking and the CVE lifecycle (fixcve.h): recording them as
 * events, and reading a report's state back from its events.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "core/core.h"
#include "core/cvss.h"
#include "core/fixcve.h"
#include "core/reportlog.h"
#include "core/json.h"
#include "core/ktree.h"
#include "core/affected.h"
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
			c->files = xrealloc(
				c->files, (c->nfiles + 2) * sizeof(*c->files));
			c->files[c->nfiles++] = xstrndup(p, len);
			c->files[c->nfiles] = NULL;
		}
		p += len + (p[len] == ':');
	}
	free(v);
}

static struct fix_commit commit_parse(const char *detail)
{
	struct fix_commit c = { field(detail, "commit"),
				field(detail, "tag"),
				field(detail, "branch"),
				field(detail, "upstream"),
				NULL,
				0,
				field(detail, "subject") };

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

static void branches_free(struct fix_branch *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].branch);
		free(v[i].series);
	}
	free(v);
}

static bool flag(const char *detail, const char *key)
{
	char *v = field(detail, key);
	bool r = v && !strcmp(v, "1");

	free(v);
	return r;
}

static void branch_push(struct fix_entry *f, const char *detail)
{
	struct fix_branch b = { field(detail, "branch"),
				field(detail, "series"), flag(detail, "intro"),
				flag(detail, "fix") };

	if (!b.branch) {
		free(b.series);
		return;
	}
	f->branches = xrealloc(f->branches,
			       (f->nbranches + 1) * sizeof(*f->branches));
	f->branches[f->nbranches++] = b;
}

static void entry_release(struct fix_entry *f)
{
	commit_release(&f->fix);
	commits_free(f->introduced, f->nintroduced);
	commits_free(f->backports, f->nbackports);
	branches_free(f->branches, f->nbranches);
	memset(f, 0, sizeof(*f));
}

static void cve_entry_release(struct cve_entry *c)
{
	free(c->id);
	free(c->reject_reason);
	for (size_t i = 0; i < c->nfixes; i++)
		free(c->fixes[i]);
	free(c->fixes);
	memset(c, 0, sizeof(*c));
}

/* Whether SHAs a and b name the same commit: one is the other's prefix
 * (a fix recorded unchecked may be short). */
static bool same_sha(const char *a, const char *b)
{
	size_t la, lb;

	if (!a || !b)
		return false;
	la = strlen(a);
	lb = strlen(b);
	return !strncasecmp(a, b, la < lb ? la : lb);
}

/* The index of the fix whose SHA is sha, or nfixes. */
static size_t fix_index(const struct fixcve *fc, const char *sha)
{
	size_t i;

	for (i = 0; sha && i < fc->nfixes; i++)
		if (same_sha(fc->fixes[i].fix.sha, sha))
			break;
	return i;
}

static void fix_remove(struct fixcve *fc, size_t i)
{
	entry_release(&fc->fixes[i]);
	memmove(&fc->fixes[i], &fc->fixes[i + 1],
		(fc->nfixes - i - 1) * sizeof(*fc->fixes));
	fc->nfixes--;
}

/* fix, fix-add and fix-drop; *cur is the fix that fix-introduced and
 * fix-backport events after it belong to (nfixes: none). */
static void fold_fix(const struct event *e, struct fixcve *fc, size_t *cur)
{
	struct fix_commit c;
	struct fix_entry *f;
	char *tree, *up;
	size_t i;

	if (!strcmp(e->kind, "fix") || !strcmp(e->kind, "fix-add")) {
		c = commit_parse(e->detail);
		if (!c.sha) {
			commit_release(&c);
			*cur = fc->nfixes;
			return;
		}
		if (!strcmp(e->kind, "fix"))
			while (fc->nfixes)
				fix_remove(fc, fc->nfixes - 1);
		i = fix_index(fc, c.sha);
		if (i == fc->nfixes) {
			fc->fixes =
				xrealloc(fc->fixes,
					 (fc->nfixes + 1) * sizeof(*fc->fixes));
			fc->nfixes++;
		} else {
			entry_release(&fc->fixes[i]);
		}
		f = &fc->fixes[i];
		memset(f, 0, sizeof(*f));
		f->fix = c;
		tree = field(e->detail, "tree");
		f->tree_checked = tree && !strcmp(tree, "checked");
		free(tree);
		*cur = i;
	} else if (!strcmp(e->kind, "fix-drop")) {
		c = commit_parse(e->detail);
		i = fix_index(fc, c.sha);
		if (i < fc->nfixes)
			fix_remove(fc, i);
		commit_release(&c);
		*cur = fc->nfixes;
	} else if (!strcmp(e->kind, "fix-introduced") && *cur < fc->nfixes) {
		f = &fc->fixes[*cur];
		push(&f->introduced, &f->nintroduced, e->detail);
	} else if (!strcmp(e->kind, "fix-backport") ||
		   !strcmp(e->kind, "fix-branch")) {
		up = field(e->detail, "upstream");
		i = up ? fix_index(fc, up) : fc->nfixes;
		free(up);
		if (i == fc->nfixes)
			i = *cur;
		if (i < fc->nfixes && !strcmp(e->kind, "fix-branch"))
			branch_push(&fc->fixes[i], e->detail);
		else if (i < fc->nfixes)
			push(&fc->fixes[i].backports, &fc->fixes[i].nbackports,
			     e->detail);
	}
}

static struct cve_entry *cve_entry(struct fixcve *fc, const char *id)
{
	for (size_t i = 0; id && i < fc->ncves; i++)
		if (!strcmp(fc->cves[i].id, id))
			return &fc->cves[i];
	return NULL;
}

/* The ID of a "CVE-... rest" detail (caller frees). */
static char *first_word(const char *detail)
{
	return xstrndup(detail, strcspn(detail, " "));
}

static struct cve_entry *cve_push(struct fixcve *fc, const char *id)
{
	struct cve_entry *c;

	fc->cves = xrealloc(fc->cves, (fc->ncves + 1) * sizeof(*fc->cves));
	c = &fc->cves[fc->ncves++];
	memset(c, 0, sizeof(*c));
	c->id = xstrdup(id);
	c->state = "reserved";
	return c;
}

static void cve_reject(struct cve_entry *c, const char *reason)
{
	if (!c)
		return;
	set_str(&c->reject_reason, reason);
	c->state = "rejected";
}

/* cve-add: the ID, again reserved when it was rejected, covering the
 * fixes it names. */
static void fold_cve_add(const char *detail, struct fixcve *fc)
{
	char *id = first_word(detail), *v = field(detail, "fixes");
	struct cve_entry *c = cve_entry(fc, id);

	if (!c) {
		c = cve_push(fc, id);
	} else if (!strcmp(c->state, "rejected")) {
		c->state = "reserved";
		free(c->reject_reason);
		c->reject_reason = NULL;
	}
	for (size_t i = 0; i < c->nfixes; i++)
		free(c->fixes[i]);
	c->nfixes = 0;
	for (char *p = v; p && *p;) {
		size_t len = strcspn(p, ":");
		if (len) {
			c->fixes = xrealloc(
				c->fixes, (c->nfixes + 1) * sizeof(*c->fixes));
			c->fixes[c->nfixes++] = xstrndup(p, len);
		}
		p += len + (p[len] == ':');
	}
	free(v);
	free(id);
}

/* "VECTOR RATIONALE", or "none": a vector that does not parse (a row
 * written by other hands) counts as none, so that no record carries a
 * score our own parser refuses. */
static void fold_cvss(const char *detail, struct fixcve *fc)
{
	size_t n = strcspn(detail, " ");
	char *v = xstrndup(detail, n);
	struct cvss c;
	struct err err = { 0, "" };

	free(fc->cvss);
	free(fc->cvss_rationale);
	fc->cvss = fc->cvss_rationale = NULL;
	if (cvss_parse(v, &c, &err) == 0 && detail[n]) {
		fc->cvss = xstrdup(c.vector);
		fc->cvss_rationale = xstrdup(detail + n + 1);
	}
	free(v);
}

static void fold_cve(const struct event *e, struct fixcve *fc)
{
	struct cve_entry *c;
	char *id;

	if (!strcmp(e->kind, "cve-assign")) {
		while (fc->ncves)
			cve_entry_release(&fc->cves[--fc->ncves]);
		cve_push(fc, e->detail);
	} else if (!strcmp(e->kind, "cve-add")) {
		fold_cve_add(e->detail, fc);
	} else if (!strcmp(e->kind, "cve-drop") &&
		   (c = cve_entry(fc, e->detail))) {
		size_t i = (size_t)(c - fc->cves);
		cve_entry_release(c);
		memmove(&fc->cves[i], &fc->cves[i + 1],
			(fc->ncves - i - 1) * sizeof(*fc->cves));
		fc->ncves--;
	} else if (!strcmp(e->kind, "cve-reject") && fc->ncves) {
		cve_reject(&fc->cves[fc->ncves - 1], e->detail);
	} else if (!strcmp(e->kind, "cve-reject-id")) {
		const char *why = e->detail + strcspn(e->detail, " ");
		id = first_word(e->detail);
		cve_reject(cve_entry(fc, id), why + strspn(why, " "));
		free(id);
	} else if (!strcmp(e->kind, "cve-publish")) {
		c = cve_entry(fc, e->detail);
		if (c && strcmp(c->state, "rejected"))
			c->state = "published";
	} else if (!strcmp(e->kind, "cve-description")) {
		set_str(&fc->description, e->detail);
	} else if (!strcmp(e->kind, "cve-cwe")) {
		set_str(&fc->cwe, e->detail);
	} else if (!strcmp(e->kind, "cve-cvss")) {
		fold_cvss(e->detail, fc);
	}
}

void fixcve_fold(const struct event *ev, size_t n, struct fixcve *fc)
{
	size_t cur = 0;

	memset(fc, 0, sizeof(*fc));
	for (size_t i = 0; i < n; i++) {
		if (!ev[i].kind || !ev[i].detail)
			continue;
		if (str_starts(ev[i].kind, "fix"))
			fold_fix(&ev[i], fc, &cur);
		else if (str_starts(ev[i].kind, "cve-"))
			fold_cve(&ev[i], fc);
	}
}

void fixcve_release(struct fixcve *fc)
{
	for (size_t i = 0; i < fc->nfixes; i++)
		entry_release(&fc->fixes[i]);
	free(fc->fixes);
	for (size_t i = 0; i < fc->ncves; i++)
		cve_entry_release(&fc->cves[i]);
	free(fc->cves);
	free(fc->description);
	free(fc->cwe);
	free(fc->cvss);
	free(fc->cvss_rationale);
	memset(fc, 0, sizeof(*fc));
}

bool fixcve_covers(const struct cve_entry *c, const char *sha)
{
	if (!c || !c->nfixes)
		return true;
	for (size_t i = 0; i < c->nfixes; i++)
		if (same_sha(c->fixes[i], sha))
			return true;
	return false;
}

const struct cve_entry *fixcve_cve(const struct fixcve *fc, const char *id)
{
	return cve_entry((struct fixcve *)fc, id);
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static void commit_copy(struct fix_commit *d, const struct fix_commit *s)
{
	d->sha = dup_or_null(s->sha);
	d->tag = dup_or_null(s->tag);
	d->branch = dup_or_null(s->branch);
	d->upstream = dup_or_null(s->upstream);
	d->subject = dup_or_null(s->subject);
	d->nfiles = s->nfiles;
	d->files = NULL;
	if (s->files) {
		d->files = xcalloc(s->nfiles + 1, sizeof(*d->files));
		for (size_t i = 0; i < s->nfiles; i++)
			d->files[i] = xstrdup(s->files[i]);
	}
}

static struct fix_commit *commits_copy(const struct fix_commit *v, size_t n)
{
	struct fix_commit *r = n ? xcalloc(n, sizeof(*r)) : NULL;

	for (size_t i = 0; i < n; i++)
		commit_copy(&r[i], &v[i]);
	return r;
}

static void cve_copy(struct cve_entry *d, const struct cve_entry *s)
{
	d->id = xstrdup(s->id);
	d->state = s->state;
	d->reject_reason = dup_or_null(s->reject_reason);
	d->nfixes = s->nfixes;
	d->fixes = s->nfixes ? xcalloc(s->nfixes, sizeof(*d->fixes)) : NULL;
	for (size_t i = 0; i < s->nfixes; i++)
		d->fixes[i] = xstrdup(s->fixes[i]);
}

void fixcve_view(const struct fixcve *fc, const struct cve_entry *c,
		 struct fixcve *view)
{
	memset(view, 0, sizeof(*view));
	view->fixes = xcalloc(fc->nfixes + 1, sizeof(*view->fixes));
	for (size_t i = 0; i < fc->nfixes; i++) {
		const struct fix_entry *f = &fc->fixes[i];
		struct fix_entry *t = &view->fixes[view->nfixes];
		if (c && !fixcve_covers(c, f->fix.sha))
			continue;
		commit_copy(&t->fix, &f->fix);
		t->tree_checked = f->tree_checked;
		t->introduced = commits_copy(f->introduced, f->nintroduced);
		t->nintroduced = f->nintroduced;
		t->backports = commits_copy(f->backports, f->nbackports);
		t->nbackports = f->nbackports;
		t->branches = f->nbranches
			? xcalloc(f->nbranches, sizeof(*t->branches))
			: NULL;
		for (size_t b = 0; b < f->nbranches; b++) {
			t->branches[b] = f->branches[b];
			t->branches[b].branch = xstrdup(f->branches[b].branch);
			t->branches[b].series =
				dup_or_null(f->branches[b].series);
		}
		t->nbranches = f->nbranches;
		view->nfixes++;
	}
	view->cves = xcalloc(fc->ncves + 1, sizeof(*view->cves));
	for (size_t i = 0; i < fc->ncves; i++)
		if (!c || &fc->cves[i] == c || !strcmp(fc->cves[i].id, c->id))
			cve_copy(&view->cves[view->ncves++], &fc->cves[i]);
	view->description = dup_or_null(fc->description);
	view->cwe = dup_or_null(fc->cwe);
	view->cvss = dup_or_null(fc->cvss);
	view->cvss_rationale = dup_or_null(fc->cvss_rationale);
}

static json_t *commit_json(const struct fix_commit *c)
{
	json_t *o = json_pack("{s:o, s:o}", "commit", json_text(c->sha), "tag",
			      json_text(c->tag));

	if (c->branch)
		json_object_set_new(o, "branch", json_text(c->branch));
	if (c->branch && c->upstream)
		json_object_set_new(o, "upstream", json_text(c->upstream));
	return o;
}

static json_t *entry_json(const struct fix_entry *f)
{
	json_t *in = json_array(), *bp = json_array();

	for (size_t i = 0; i < f->nintroduced; i++)
		json_array_append_new(in, commit_json(&f->introduced[i]));
	for (size_t i = 0; i < f->nbackports; i++)
		json_array_append_new(bp, commit_json(&f->backports[i]));
	return json_pack("{s:o, s:o, s:o, s:o, s:b}", "commit",
			 json_text(f->fix.sha), "tag", json_text(f->fix.tag),
			 "introduced", in, "backports", bp, "tree_checked",
			 f->tree_checked);
}

void fixcve_add_json(json_t *o, const struct fixcve *fc)
{
	json_t *fix = json_null(), *cve = json_null();
	json_t *fixes = json_array(), *cves = json_array();
	const struct cve_entry *c0 = fc->ncves ? &fc->cves[0] : NULL;

	for (size_t i = 0; i < fc->nfixes; i++)
		json_array_append_new(fixes, entry_json(&fc->fixes[i]));
	for (size_t i = 0; i < fc->ncves; i++) {
		const struct cve_entry *c = &fc->cves[i];
		json_t *cf = json_array();
		for (size_t k = 0; k < fc->nfixes; k++)
			if (fixcve_covers(c, fc->fixes[k].fix.sha))
				json_array_append_new(
					cf, json_text(fc->fixes[k].fix.sha));
		json_array_append_new(cves,
				      json_pack("{s:o, s:o, s:o, s:o}", "id",
						json_text(c->id), "state",
						json_text(c->state), "reason",
						json_text(c->reject_reason),
						"fixes", cf));
	}
	if (fc->nfixes)
		fix = entry_json(&fc->fixes[0]);
	if (c0 || fc->description || fc->cwe)
		cve = json_pack("{s:o, s:o, s:o, s:o, s:o}", "id",
				json_text(c0 ? c0->id : NULL), "state",
				json_text(c0 ? c0->state : NULL), "reason",
				json_text(c0 ? c0->reject_reason : NULL), "cwe",
				json_text(fc->cwe), "description",
				json_text(fc->description));
	json_object_set_new(o, "fix", fix);
	json_object_set_new(o, "cve", cve);
	json_object_set_new(o, "fixes", fixes);
	json_object_set_new(o, "cves", cves);
	json_object_set_new(o, "cvss", fixcve_cvss_json(fc));
}

char *cvss_events_format(const struct event *ev, size_t n)
{
	struct fixcve fc;
	struct cvss c;
	struct err err = { 0, "" };
	char b[8], *s = NULL;

	fixcve_fold(ev, n, &fc);
	if (fc.cvss && cvss_parse(fc.cvss, &c, &err) == 0)
		s = xasprintf("%s (%s) %s: %s", cvss_score_str(c.score, b),
			      c.severity, c.vector, fc.cvss_rationale);
	fixcve_release(&fc);
	return s;
}

json_t *fixcve_cvss_json(const struct fixcve *fc)
{
	struct cvss c;
	struct err err = { 0, "" };
	char b[8];

	if (!fc->cvss || cvss_parse(fc->cvss, &c, &err) < 0)
		return json_null();
	return json_pack("{s:s, s:s, s:s, s:o}", "vector", c.vector, "score",
			 cvss_score_str(c.score, b), "severity", c.severity,
			 "rationale", json_text(fc->cvss_rationale));
}

/* --- recording ----------------------------------------------------------*/

struct fix_job {
	const struct fix_request *rq;
	struct ktree *tree;
	struct fix_commit fix;
	struct fix_commit *intro, *bp, *copies;
	size_t nintro, nbp, ncopies;
	struct fix_branch *branches; /* one per stable branch searched */
	char *dropped; /* FIX_DROP: the SHA of the fix dropped */
	size_t nleft; /* FIX_DROP: the fixes left */
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

/* The copies on branch of commit sha (as ktree_backports finds them),
 * each with its first tag, appended to *v. */
static int find_copies(struct fix_job *j, const char *branch, const char *sha,
		       struct fix_commit **v, size_t *n, struct err *err)
{
	char **shas;
	size_t ns;

	if (ktree_backports(j->tree, branch, sha, &shas, &ns, err) < 0)
		return err->code;
	for (size_t i = 0; i < ns; i++) {
		struct fix_commit c = { shas[i],
					ktree_first_tag(j->tree, shas[i]),
					xstrdup(branch),
					xstrdup(sha),
					NULL,
					0,
					NULL };
		*v = xrealloc(*v, (*n + 1) * sizeof(**v));
		(*v)[(*n)++] = c;
	}
	free(shas);
	return 0;
}

/* Whether tag names a mainline release or -rc ("v6.1", "v6.2-rc3"), not
 * a stable one ("v6.1.4"): a commit first in a stable release exists
 * only on its branch. */
static bool mainline_tag(const char *tag)
{
	const char *v = fix_version(tag);

	return !v || !version_stable(v);
}

/* For each stable branch: the copies of the fix (its backports) and of
 * each introducing commit, and whether the branch's fork already held
 * them (fix-branch). */
static int find_backports(struct fix_job *j, struct err *err)
{
	const struct fix_request *rq = j->rq;

	j->branches = xcalloc(rq->nstable + 1, sizeof(*j->branches));
	for (size_t b = 0; b < rq->nstable; b++) {
		struct fix_branch *fb = &j->branches[b];
		if (find_copies(j, rq->stable[b], j->fix.sha, &j->bp, &j->nbp,
				err) < 0)
			return err->code;
		fb->branch = xstrdup(rq->stable[b]);
		fb->series = ktree_branch_series(j->tree, rq->stable[b]);
		fb->fix_in = mainline_tag(j->fix.tag) &&
			ktree_holds(j->tree, rq->stable[b], j->fix.sha) == 1;
		for (size_t i = 0; i < j->nintro; i++) {
			if (find_copies(j, rq->stable[b], j->intro[i].sha,
					&j->copies, &j->ncopies, err) < 0)
				return err->code;
			if (mainline_tag(j->intro[i].tag) &&
			    ktree_holds(j->tree, rq->stable[b],
					j->intro[i].sha) == 1)
				fb->intro_in = true;
		}
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

/* Report id's fix and CVE events, oldest first: on a team server only
 * those its verified chain accounts for (reportlog.h). */
static int fixcve_events(struct session *sess, int64_t id, struct event **ev,
			 size_t *n, struct err *err)
{
	size_t k = 0;
	int rc;

	if ((rc = report_log_events(sess, id, ev, n, NULL, err)) < 0)
		return rc;
	for (size_t i = 0; i < *n; i++) {
		const char *kind = (*ev)[i].kind;

		if (!strcmp(kind, "fix") || str_starts(kind, "fix-") ||
		    str_starts(kind, "cve-"))
			(*ev)[k++] = (*ev)[i];
		else
			event_release(&(*ev)[i]);
	}
	*n = k;
	return 0;
}

/* The report's state as its events tell it now, inside the write. */
static int fold_now(struct session *sess, int64_t id, struct fixcve *fc,
		    struct err *err)
{
	struct event *ev = NULL;
	size_t n = 0;
	int rc;

	memset(fc, 0, sizeof(*fc));
	if ((rc = fixcve_events(sess, id, &ev, &n, err)) < 0)
		return rc;
	fixcve_fold(ev, n, fc);
	events_free(ev, n);
	return 0;
}

/* The one recorded fix sha names (ERR_NOTFOUND, or ERR_INVALID when
 * several do), for fix --drop and cve --fix. */
static int fix_named(const struct fixcve *fc, int64_t id, const char *what,
		     const char *sha, const struct fix_entry **out,
		     struct err *err)
{
	size_t n = 0;

	*out = NULL;
	for (size_t i = 0; i < fc->nfixes; i++)
		if (same_sha(fc->fixes[i].fix.sha, sha)) {
			*out = &fc->fixes[i];
			n++;
		}
	if (n == 1)
		return 0;
	if (n)
		return err_setc(
			err, ERR_INVALID,
			"%s '%s': names %zu fixes of report %lld; give more digits",
			what, sha, n, (long long)id);
	return err_setc(err, ERR_NOTFOUND,
			"%s '%s': no fix of report %lld has this SHA%s", what,
			sha, (long long)id, fc->nfixes ? "" : " (it has none)");
}

static int fix_drop(struct session *sess, struct fix_job *j, struct err *err)
{
	const struct fix_entry *f;
	struct fixcve fc;
	char *d;
	int rc;

	if ((rc = fold_now(sess, j->rq->id, &fc, err)) < 0)
		return rc;
	rc = fix_named(&fc, j->rq->id, "fix --drop", j->rq->commit, &f, err);
	if (rc == 0) {
		j->dropped = xstrdup(f->fix.sha);
		j->nleft = fc.nfixes - 1;
		d = xasprintf("commit=%s", f->fix.sha);
		rc = store_event_add(sess->store, j->rq->id, sess->officer,
				     "fix-drop", d, err);
		free(d);
	}
	fixcve_release(&fc);
	return rc;
}

/* "fix" for FIX_SET, and for FIX_ADD to a report with no fix yet (the
 * milestone a report's first fix is); else "fix-add". */
static const char *fix_kind(struct session *sess, const struct fix_job *j,
			    struct err *err)
{
	struct fixcve fc;
	const char *k = "fix";

	if (j->rq->how != FIX_ADD)
		return k;
	if (fold_now(sess, j->rq->id, &fc, err) < 0)
		return NULL;
	if (fc.nfixes)
		k = "fix-add";
	fixcve_release(&fc);
	return k;
}

static int fix_store(struct session *sess, void *data, struct err *err)
{
	struct fix_job *j = data;
	const char *tree = j->rq->tree ? "checked" : "unchecked", *kind;
	struct report r;
	struct sbuf sb;
	char *d;
	int rc;

	if ((rc = store_report_get(sess->store, j->rq->id, &r, err)) < 0)
		return rc;
	report_release(&r);
	if (j->rq->how == FIX_DROP)
		return fix_drop(sess, j, err);
	if (!(kind = fix_kind(sess, j, err)))
		return err->code;
	sbuf_init(&sb);
	sbuf_addf(&sb, "commit=%s tag=%s tree=%s", j->fix.sha,
		  j->fix.tag ? j->fix.tag : "-", tree);
	for (size_t i = 0; i < j->fix.nfiles; i++)
		sbuf_addf(&sb, "%s%s", i ? ":" : " files=", j->fix.files[i]);
	if (j->fix.subject)
		sbuf_addf(&sb, " subject=%s", j->fix.subject);
	d = sbuf_detach(&sb, NULL);
	rc = store_event_add(sess->store, j->rq->id, sess->officer, kind, d,
			     err);
	free(d);
	for (size_t i = 0; rc == 0 && i < j->nintro; i++) {
		d = xasprintf("commit=%s tag=%s tree=%s", j->intro[i].sha,
			      j->intro[i].tag ? j->intro[i].tag : "-", tree);
		rc = store_event_add(sess->store, j->rq->id, sess->officer,
				     "fix-introduced", d, err);
		free(d);
	}
	for (size_t i = 0; rc == 0 && i < j->ncopies; i++) {
		d = xasprintf("commit=%s tag=%s tree=%s branch=%s upstream=%s",
			      j->copies[i].sha,
			      j->copies[i].tag ? j->copies[i].tag : "-", tree,
			      j->copies[i].branch, j->copies[i].upstream);
		rc = store_event_add(sess->store, j->rq->id, sess->officer,
				     "fix-introduced", d, err);
		free(d);
	}
	for (size_t i = 0; rc == 0 && i < j->nbp; i++) {
		d = xasprintf("commit=%s tag=%s branch=%s upstream=%s",
			      j->bp[i].sha, j->bp[i].tag ? j->bp[i].tag : "-",
			      j->bp[i].branch, j->fix.sha);
		rc = store_event_add(sess->store, j->rq->id, sess->officer,
				     "fix-backport", d, err);
		free(d);
	}
	for (size_t i = 0; rc == 0 && j->branches && j->branches[i].branch;
	     i++) {
		const struct fix_branch *b = &j->branches[i];
		d = xasprintf("branch=%s series=%s upstream=%s intro=%d fix=%d",
			      b->branch, b->series ? b->series : "-",
			      j->fix.sha, b->intro_in, b->fix_in);
		rc = store_event_add(sess->store, j->rq->id, sess->officer,
				     "fix-branch", d, err);
		free(d);
	}
	return rc;
}

static char *fix_summary(const struct fix_job *j)
{
	struct sbuf sb;

	if (j->rq->how == FIX_DROP)
		return xasprintf("report %lld: fix %.12s dropped (%zu left)",
				 (long long)j->rq->id, j->dropped, j->nleft);
	sbuf_init(&sb);
	sbuf_addf(&sb, "report %lld: %sfix %.12s (%s)", (long long)j->rq->id,
		  j->rq->how == FIX_ADD ? "added " : "", j->fix.sha,
		  j->rq->tree ? (j->fix.tag ? j->fix.tag : "no tag yet")
			      : "unchecked: no tree");
	for (size_t i = 0; i < j->nintro; i++)
		sbuf_addf(&sb, "%s %.12s (%s)", i ? "," : "; introduced by",
			  j->intro[i].sha,
			  j->intro[i].tag ? j->intro[i].tag : "-");
	for (size_t i = 0; i < j->ncopies; i++)
		sbuf_addf(&sb, "%s %.12s on %s (%s)",
			  i ? "," : "; introduced on stable by",
			  j->copies[i].sha, j->copies[i].branch,
			  j->copies[i].tag ? j->copies[i].tag : "-");
	for (size_t i = 0; i < j->nbp; i++)
		sbuf_addf(&sb, "%s %.12s on %s (%s)", i ? "," : "; backports",
			  j->bp[i].sha, j->bp[i].branch,
			  j->bp[i].tag ? j->bp[i].tag : "-");
	return sbuf_detach(&sb, NULL);
}

int fix_record(struct session *sess, const struct fix_request *rq,
	       char **summary, struct err *err)
{
	struct fix_job j = { rq, NULL, { 0 }, NULL, NULL, NULL,
			     0,	 0,    0,     NULL, NULL, 0 };
	const char *opt = rq->how == FIX_DROP ? "--drop" : "--commit";
	int r;

	*summary = NULL;
	if (!fix_sha_valid(rq->commit))
		return err_setc(
			err, ERR_INVALID,
			"fix %s '%s': not a commit SHA (7 to 40 hex digits)",
			opt, rq->commit);
	for (size_t i = 0; i < rq->nintroduced; i++)
		if (!fix_sha_valid(rq->introduced[i]))
			return err_setc(
				err, ERR_INVALID,
				"fix --introduced '%s': not a commit SHA (7 to 40 hex digits)",
				rq->introduced[i]);
	r = rq->how == FIX_DROP ? 0 : fix_prepare(&j, err);
	if (r == 0 && (r = core_write(sess, fix_store, &j, err)) == 0)
		*summary = fix_summary(&j);
	commit_release(&j.fix);
	commits_free(j.intro, j.nintro);
	commits_free(j.bp, j.nbp);
	commits_free(j.copies, j.ncopies);
	if (j.branches)
		branches_free(j.branches, rq->nstable);
	free(j.dropped);
	ktree_free(j.tree);
	return r;
}

/* --- the CVE lifecycle --------------------------------------------------*/

/* The IDs of fc that are not rejected: how many, and the last. */
static size_t live_ids(const struct fixcve *fc, const struct cve_entry **last)
{
	size_t n = 0;

	*last = NULL;
	for (size_t i = 0; i < fc->ncves; i++)
		if (strcmp(fc->cves[i].state, "rejected")) {
			*last = &fc->cves[i];
			n++;
		}
	return n;
}

/* ASSIGN: "cve-assign ID" for a report's first ID covering every fix
 * (the event as it always was), else "cve-add ID [fixes=...]". */
static int cve_assign(const struct cve_request *rq, const struct fixcve *fc,
		      const char **kind, struct sbuf *d, struct err *err)
{
	const struct cve_entry *c = fixcve_cve(fc, rq->value);
	long long id = (long long)rq->id;

	if (c && strcmp(c->state, "rejected") && !rq->nfixes)
		return err_setc(
			err, ERR_REFUSED,
			"report %lld already has %s (%s); cve %lld --drop %s if it was recorded by mistake",
			id, c->id, c->state, id, c->id);
	*kind = !fc->ncves && !rq->nfixes ? "cve-assign" : "cve-add";
	sbuf_adds(d, rq->value);
	for (size_t i = 0; i < rq->nfixes; i++) {
		const struct fix_entry *f;
		if (fix_named(fc, rq->id, "cve --fix", rq->fixes[i], &f, err) <
		    0)
			return err->code;
		sbuf_addf(d, "%s%s", i ? ":" : " fixes=", f->fix.sha);
	}
	return 0;
}

/* REJECT: the ID named, else the report's only live one. */
static int cve_reject_check(const struct cve_request *rq,
			    const struct fixcve *fc, const char **kind,
			    struct sbuf *d, struct err *err)
{
	const struct cve_entry *c, *last;
	long long id = (long long)rq->id;
	size_t n = live_ids(fc, &last);

	if (rq->cve) {
		c = fixcve_cve(fc, rq->cve);
		if (!c || !strcmp(c->state, "rejected"))
			return err_setc(err, ERR_REFUSED,
					"report %lld has no %s to reject%s", id,
					rq->cve,
					c ? " (it is rejected already)" : "");
	} else if (n == 1) {
		c = last;
	} else {
		return err_setc(
			err, ERR_REFUSED,
			n ? "report %lld has %zu CVE IDs: name the one to reject (--id CVE-YYYY-NNNN)"
			  : "report %lld has no CVE ID to reject",
			id, n);
	}
	if (c == &fc->cves[fc->ncves - 1]) {
		*kind = "cve-reject";
		sbuf_adds(d, rq->value);
	} else {
		*kind = "cve-reject-id";
		sbuf_addf(d, "%s %s", c->id, rq->value);
	}
	return 0;
}

/* PUBLISH: the ID named (else the only reserved one), reserved. */
static int cve_publish_check(const struct cve_request *rq,
			     const struct fixcve *fc, struct sbuf *d,
			     struct err *err)
{
	const struct cve_entry *c = NULL;
	size_t n = 0;

	for (size_t i = 0; i < fc->ncves; i++)
		if (!strcmp(fc->cves[i].state, "reserved") &&
		    (!rq->value || !strcmp(rq->value, fc->cves[i].id))) {
			c = &fc->cves[i];
			n++;
		}
	if (n != 1)
		return err_setc(err, ERR_REFUSED,
				"report %lld has no reserved CVE ID%s%s",
				(long long)rq->id, rq->value ? " " : "",
				rq->value ? rq->value : "");
	sbuf_adds(d, c->id);
	return 0;
}

/* The longest rationale: a CVE scenario holds 4096 bytes. */
#define RATIONALE_MAX 4000

/* CVSS: "VECTOR RATIONALE" (the vector in the specification's order), or
 * "none" with no vector. */
static int cvss_check(const struct cve_request *rq, struct sbuf *d,
		      struct err *err)
{
	struct cvss c;
	const unsigned char *p;
	size_t n;

	if (!rq->value) {
		sbuf_adds(d, "none");
		return 0;
	}
	if (cvss_parse(rq->value, &c, err) < 0)
		return err->code;
	if (!rq->rationale || !*rq->rationale)
		return err_setc(
			err, ERR_INVALID,
			"a CVSS vector needs its rationale (--rationale TEXT: why it is scored so, the record's scenario)");
	if (strlen(rq->rationale) > RATIONALE_MAX)
		return err_setc(err, ERR_INVALID,
				"the CVSS rationale is %zu bytes: at most %d",
				strlen(rq->rationale), RATIONALE_MAX);
	/* One line of text, shown as is by a record and a terminal: no
	 * control, bidi or zero-width character, valid UTF-8. */
	for (p = (const unsigned char *)rq->rationale; *p; p += n) {
		uint32_t cp;
		n = utf8_decode(p, strlen((const char *)p), &cp);
		if (!n || safe_is_hostile_cp(cp))
			return err_setc(
				err, ERR_INVALID,
				"the CVSS rationale holds %s at byte %zu: one line of plain text",
				n ? "a control or bidi character"
				  : "a byte that is not UTF-8",
				(size_t)(p -
					 (const unsigned char *)rq->rationale) +
					1);
	}
	sbuf_addf(d, "%s %s", c.vector, rq->rationale);
	return 0;
}

static int cve_check(const struct cve_request *rq, const struct fixcve *fc,
		     const char **kind, struct sbuf *d, struct err *err)
{
	long long id = (long long)rq->id;

	switch (rq->a) {
	case CVE_ASSIGN:
		return cve_assign(rq, fc, kind, d, err);
	case CVE_REJECT:
		return cve_reject_check(rq, fc, kind, d, err);
	case CVE_PUBLISH:
		*kind = "cve-publish";
		return cve_publish_check(rq, fc, d, err);
	case CVE_DROP:
		if (!fixcve_cve(fc, rq->value))
			return err_setc(err, ERR_REFUSED,
					"report %lld has no %s to drop", id,
					rq->value);
		*kind = "cve-drop";
		break;
	case CVE_DESCRIBE:
		*kind = "cve-description";
		break;
	case CVE_CWE:
		*kind = "cve-cwe";
		break;
	case CVE_CVSS:
		*kind = "cve-cvss";
		return cvss_check(rq, d, err);
	}
	sbuf_adds(d, rq->value);
	return 0;
}

static int cve_store(struct session *sess, void *data, struct err *err)
{
	const struct cve_request *rq = data;
	const char *kind = NULL;
	struct fixcve fc;
	struct sbuf d;
	int rc;

	if ((rc = fold_now(sess, rq->id, &fc, err)) < 0)
		return rc;
	sbuf_init(&d);
	rc = cve_check(rq, &fc, &kind, &d, err);
	if (rc == 0)
		rc = store_event_add(sess->store, rq->id, sess->officer, kind,
				     d.buf ? d.buf : "", err);
	sbuf_release(&d);
	fixcve_release(&fc);
	return rc;
}

int cve_request_record(struct session *sess, const struct cve_request *rq,
		       struct err *err)
{
	struct report r;
	int rc;

	if (!session_store(sess, err))
		return ERR_IO;
	if ((rc = store_report_get(sess->store, rq->id, &r, err)) < 0)
		return rc;
	report_release(&r);
	return core_write(sess, cve_store, (void *)rq, err);
}

int cve_record(struct session *sess, int64_t id, enum cve_action a,
	       const char *value, struct err *err)
{
	struct cve_request rq = { id, a, value, NULL, NULL, 0, NULL };

	return cve_request_record(sess, &rq, err);
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
	if ((rc = fixcve_events(sess, report_id, &ev, &n, err)) < 0)
		return rc;
	fixcve_fold(ev, n, fc);
	events_free(ev, n);
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
	struct sbuf sb, sc;

	if (cve)
		*cve = NULL;
	if (fixcve_get(sess, id, &fc, &err) < 0)
		return NULL;
	sbuf_init(&sb);
	sbuf_init(&sc);
	for (size_t i = 0; i < fc.nfixes; i++) {
		const struct fix_commit *f = &fc.fixes[i].fix;
		sbuf_addf(&sb, "%s%s", i ? ", " : "", f->sha);
		if (f->tag)
			sbuf_addf(&sb, " (%s)", f->tag);
	}
	for (size_t i = 0; i < fc.ncves; i++)
		if (strcmp(fc.cves[i].state, "rejected"))
			sbuf_addf(&sc, "%s%s", sc.len ? ", " : "",
				  fc.cves[i].id);
	if (cve && sc.len)
		*cve = sbuf_detach(&sc, NULL);
	sbuf_release(&sc);
	fixcve_release(&fc);
	if (!sb.len) {
		sbuf_release(&sb);
		return NULL;
	}
	return sbuf_detach(&sb, NULL);
}

char *fixcve_label(const struct fixcve *fc)
{
	struct sbuf sb;

	sbuf_init(&sb);
	for (size_t i = 0; fc && i < fc->nfixes; i++) {
		const struct fix_commit *f = &fc->fixes[i].fix;
		if (i)
			sbuf_addch(&sb, ',');
		if (f->tag)
			sbuf_adds(&sb, f->tag);
		else
			sbuf_addf(&sb, "%.12s", f->sha);
	}
	if (!sb.len)
		sbuf_addch(&sb, '-');
	sbuf_addch(&sb, '/');
	for (size_t i = 0; fc && i < fc->ncves; i++)
		sbuf_addf(&sb, "%s%s:%s", i ? "," : "", fc->cves[i].id,
			  fc->cves[i].state);
	if (!fc || !fc->ncves)
		sbuf_addch(&sb, '-');
	return sbuf_detach(&sb, NULL);
}
