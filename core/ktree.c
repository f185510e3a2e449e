/*
 * The kernel tree through libgit2 (see ktree.h for why not git).
 *
 * The first tag holding a commit is found in one walk: from every tag,
 * parents before children, with the commit's own history hidden; a
 * walked commit descends from it when one of its parents does.  The
 * tags whose commits descend are compared in version order.  Backports
 * are found in a walk of the branch with the fix's history hidden, so a
 * stable branch costs what it adds to the release it forked from.
 */
#include <git2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/ktree.h"

/*
 * libgit2 is loaded when a tree is first opened (dlopen), not by every
 * start of the program: fix --tree is the only command that reads one,
 * and libgit2 brings TLS, SSH and Kerberos libraries whose symbols every
 * command would otherwise resolve at start.
 */
#define GIT2_SONAME "libgit2.so." LIBGIT2_SOVERSION
#define GIT2_FNS(X)                        \
	X(git_commit_free)                 \
	X(git_commit_lookup)               \
	X(git_commit_message)              \
	X(git_commit_parent)               \
	X(git_commit_parent_id)            \
	X(git_commit_parentcount)          \
	X(git_commit_summary)              \
	X(git_commit_time)                 \
	X(git_commit_tree)                 \
	X(git_diff_free)                   \
	X(git_diff_get_delta)              \
	X(git_diff_num_deltas)             \
	X(git_diff_options_init)           \
	X(git_diff_tree_to_tree)           \
	X(git_buf_dispose)                 \
	X(git_email_create_from_commit)    \
	X(git_error_last)                  \
	X(git_graph_descendant_of)         \
	X(git_libgit2_init)                \
	X(git_libgit2_opts)                \
	X(git_object_free)                 \
	X(git_object_id)                   \
	X(git_object_lookup_prefix)        \
	X(git_object_peel)                 \
	X(git_oid_cpy)                     \
	X(git_oid_equal)                   \
	X(git_oid_fromstr)                 \
	X(git_oid_fromstrn)                \
	X(git_oid_tostr)                   \
	X(git_reference_dwim)              \
	X(git_reference_free)              \
	X(git_reference_iterator_free)     \
	X(git_reference_iterator_glob_new) \
	X(git_reference_name)              \
	X(git_reference_next)              \
	X(git_reference_peel)              \
	X(git_repository_free)             \
	X(git_repository_open_ext)         \
	X(git_tree_free)

static struct {
#define GIT2_FIELD(f) __typeof__(f) *f;
	GIT2_FNS(GIT2_FIELD)
#undef GIT2_FIELD
} G;

static int git2_load(struct err *err)
{
	static void *lib;
#define GIT2_NAME(f) #f,
#define GIT2_SLOT(f) (void **)&G.f,
	static const char *const names[] = { GIT2_FNS(GIT2_NAME) };
	void **const slots[] = { GIT2_FNS(GIT2_SLOT) };
#undef GIT2_NAME
#undef GIT2_SLOT

	return dl_load(&lib, GIT2_SONAME, "reading a git tree", "libgit2",
		       names, slots, ARRAY_SIZE(names), err);
}

struct ktree {
	git_repository *repo;
	char *dir;
};

/* --- a set of commit ids --------------------------------------------------*/

struct oidset {
	git_oid *slot;
	unsigned char *used;
	size_t cap, n;
};

static size_t oid_hash(const git_oid *id)
{
	uint64_t h;

	memcpy(&h, id->id, sizeof(h));
	return (size_t)h;
}

static bool oidset_has(const struct oidset *s, const git_oid *id)
{
	if (!s->cap)
		return false;
	for (size_t i = oid_hash(id) & (s->cap - 1);;
	     i = (i + 1) & (s->cap - 1)) {
		if (!s->used[i])
			return false;
		if (G.git_oid_equal(&s->slot[i], id))
			return true;
	}
}

static void oidset_put(struct oidset *s, const git_oid *id);

static void oidset_grow(struct oidset *s)
{
	struct oidset big = { 0 };

	big.cap = s->cap ? s->cap * 2 : 1024;
	big.slot = xcalloc(big.cap, sizeof(*big.slot));
	big.used = xcalloc(big.cap, 1);
	for (size_t i = 0; i < s->cap; i++)
		if (s->used[i])
			oidset_put(&big, &s->slot[i]);
	free(s->slot);
	free(s->used);
	*s = big;
}

static void oidset_put(struct oidset *s, const git_oid *id)
{
	size_t i;

	if (2 * (s->n + 1) > s->cap)
		oidset_grow(s);
	for (i = oid_hash(id) & (s->cap - 1); s->used[i];
	     i = (i + 1) & (s->cap - 1))
		if (G.git_oid_equal(&s->slot[i], id))
			return;
	G.git_oid_cpy(&s->slot[i], id);
	s->used[i] = 1;
	s->n++;
}

static void oidset_release(struct oidset *s)
{
	free(s->slot);
	free(s->used);
}

/* --- opening --------------------------------------------------------------*/

/* Once per process: no system, XDG or global config (the tree reads the
 * same for everyone), no owner check (nothing the tree names runs), and
 * partial clones open (a missing object is only missing). */
static int ktree_lib_init(struct err *err)
{
	static bool done;
	static const char *ext[] = { "partialclone", "preciousobjects" };
	int r;

	if (done)
		return 0;
	if ((r = git2_load(err)) < 0)
		return r;
	done = true;
	G.git_libgit2_init();
	G.git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_SYSTEM,
			   "");
	G.git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_XDG, "");
	G.git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_GLOBAL,
			   "");
	G.git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH,
			   GIT_CONFIG_LEVEL_PROGRAMDATA, "");
	G.git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, 0);
	G.git_libgit2_opts(GIT_OPT_SET_EXTENSIONS, ext,
			   sizeof(ext) / sizeof(*ext));
	return 0;
}

static const char *git_message(void)
{
	const git_error *e = G.git_error_last();

	return e && e->message ? e->message : "unknown error";
}

int ktree_open(const char *dir, struct ktree **out, struct err *err)
{
	git_repository *repo;
	int rc;

	*out = NULL;
	if ((rc = ktree_lib_init(err)) < 0)
		return rc;
	if (G.git_repository_open_ext(&repo, dir, GIT_REPOSITORY_OPEN_NO_SEARCH,
				      NULL) < 0) {
		char *why = safe_str(git_message());
		rc = err_setc(err, ERR_NOTFOUND, "'%s' is not a git tree (%s)",
			      dir, why);
		free(why);
		return rc;
	}
	*out = xcalloc(1, sizeof(**out));
	(*out)->repo = repo;
	(*out)->dir = xstrdup(dir);
	return 0;
}

void ktree_free(struct ktree *t)
{
	if (!t)
		return;
	G.git_repository_free(t->repo);
	free(t->dir);
	free(t);
}

/* --- commits --------------------------------------------------------------*/

static char *oid_hex(const git_oid *id)
{
	char hex[GIT_OID_HEXSZ + 1];

	G.git_oid_tostr(hex, sizeof(hex), id);
	return xstrdup(hex);
}

int ktree_commit(struct ktree *t, const char *rev, char **full, struct err *err)
{
	git_oid id;
	git_object *obj = NULL, *commit = NULL;
	size_t len = strlen(rev);

	*full = NULL;
	if (len >= 4 && len <= GIT_OID_HEXSZ &&
	    G.git_oid_fromstrn(&id, rev, len) == 0 &&
	    G.git_object_lookup_prefix(&obj, t->repo, &id, len,
				       GIT_OBJECT_ANY) == 0 &&
	    G.git_object_peel(&commit, obj, GIT_OBJECT_COMMIT) == 0)
		*full = oid_hex(G.git_object_id(commit));
	G.git_object_free(commit);
	G.git_object_free(obj);
	if (!*full)
		return err_setc(err, ERR_NOTFOUND,
				"commit %s is not in the tree '%s'", rev,
				t->dir);
	return 0;
}

char *ktree_commit_subject(struct ktree *t, const char *sha)
{
	git_oid id;
	git_commit *c = NULL;
	const char *sum;
	char *r = NULL;

	if (G.git_oid_fromstr(&id, sha) == 0 &&
	    G.git_commit_lookup(&c, t->repo, &id) == 0 &&
	    (sum = G.git_commit_summary(c)) != NULL)
		r = xstrdup(sum);
	G.git_commit_free(c);
	return r;
}

int ktree_format_patch(struct ktree *t, const char *sha, char **patch,
		       size_t *len, struct err *err)
{
	git_oid id;
	git_commit *c = NULL;
	git_buf buf = { 0 };
	/* libgit2's initializer leaves the last fields to the compiler's
	 * zero; they are set below. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
	git_email_create_options o = GIT_EMAIL_CREATE_OPTIONS_INIT;
#pragma GCC diagnostic pop
	int r = 0;

	*patch = NULL;
	*len = 0;
	if (G.git_oid_fromstr(&id, sha) < 0 ||
	    G.git_commit_lookup(&c, t->repo, &id) < 0)
		return err_setc(err, ERR_NOTFOUND,
				"commit %s is not in the tree '%s'", sha,
				t->dir);
	/* One patch, as `git format-patch -1` writes it: "[PATCH]". */
	o.flags |= GIT_EMAIL_CREATE_OMIT_NUMBERS;
	o.subject_prefix = "PATCH";
	o.start_number = 1;
	if (G.git_email_create_from_commit(&buf, c, &o) < 0) {
		char *why = safe_str(git_message());
		r = err_setc(err, ERR_IO,
			     "cannot write commit %s of '%s' as a patch: %s",
			     sha, t->dir, why);
		free(why);
	} else {
		*patch = xmalloc(buf.size + 1);
		memcpy(*patch, buf.ptr, buf.size);
		(*patch)[buf.size] = '\0';
		*len = buf.size;
	}
	G.git_buf_dispose(&buf);
	G.git_commit_free(c);
	return r;
}

/* Adds path to *v (n of them, NULL-terminated) unless already there. */
static void path_add(char ***v, size_t *n, const char *path)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], path))
			return;
	*v = xrealloc(*v, (*n + 2) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(path);
	(*v)[*n] = NULL;
}

int ktree_commit_files(struct ktree *t, const char *sha, char ***files,
		       size_t *n, struct err *err)
{
	git_oid id;
	git_commit *c = NULL, *parent = NULL;
	git_tree *new_tree = NULL, *old_tree = NULL;
	git_diff *diff = NULL;
	git_diff_options opts;
	int r = 0;

	G.git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	*files = xcalloc(1, sizeof(**files));
	*n = 0;
	if (G.git_oid_fromstr(&id, sha) < 0 ||
	    G.git_commit_lookup(&c, t->repo, &id) < 0)
		return err_setc(err, ERR_NOTFOUND,
				"commit %s is not in the tree '%s'", sha,
				t->dir);
	/* A merge changes nothing of its own. */
	if (G.git_commit_parentcount(c) > 1)
		goto out;
	if (G.git_commit_tree(&new_tree, c) < 0 ||
	    (G.git_commit_parentcount(c) == 1 &&
	     (G.git_commit_parent(&parent, c, 0) < 0 ||
	      G.git_commit_tree(&old_tree, parent) < 0)) ||
	    G.git_diff_tree_to_tree(&diff, t->repo, old_tree, new_tree, &opts) <
		    0) {
		r = err_setc(err, ERR_IO,
			     "cannot read the files of commit %s in '%s': %s",
			     sha, t->dir, git_message());
		goto out;
	}
	for (size_t i = 0; i < G.git_diff_num_deltas(diff); i++) {
		const git_diff_delta *d = G.git_diff_get_delta(diff, i);
		const char *path = d->status == GIT_DELTA_DELETED
			? d->old_file.path
			: d->new_file.path;
		if (path)
			path_add(files, n, path);
	}
out:
	G.git_diff_free(diff);
	G.git_tree_free(old_tree);
	G.git_tree_free(new_tree);
	G.git_commit_free(parent);
	G.git_commit_free(c);
	return r;
}

/* --- tags -----------------------------------------------------------------*/

struct tag {
	char *name;
	git_oid commit;
};

struct tags {
	struct tag *v;
	size_t n;
};

/* Every tag that peels to a commit, named without refs/tags/. */
static void tags_read(git_repository *repo, struct tags *out)
{
	git_reference_iterator *it;
	git_reference *ref;

	memset(out, 0, sizeof(*out));
	if (G.git_reference_iterator_glob_new(&it, repo, "refs/tags/*") < 0)
		return;
	while (G.git_reference_next(&ref, it) == 0) {
		git_object *c = NULL;
		if (G.git_reference_peel(&c, ref, GIT_OBJECT_COMMIT) == 0) {
			out->v = xrealloc(out->v,
					  (out->n + 1) * sizeof(*out->v));
			out->v[out->n].name =
				xstrdup(G.git_reference_name(ref) +
					strlen("refs/tags/"));
			G.git_oid_cpy(&out->v[out->n].commit,
				      G.git_object_id(c));
			out->n++;
		}
		G.git_object_free(c);
		G.git_reference_free(ref);
	}
	G.git_reference_iterator_free(it);
}

static void tags_release(struct tags *tags)
{
	for (size_t i = 0; i < tags->n; i++)
		free(tags->v[i].name);
	free(tags->v);
}

/* Splits a tag at its "-rc": the release before, the rest after. */
static size_t rc_at(const char *s)
{
	const char *p = strstr(s, "-rc");

	return p ? (size_t)(p - s) : strlen(s);
}

int ktree_version_cmp(const char *a, const char *b)
{
	size_t na = rc_at(a), nb = rc_at(b);
	char *ba = xstrndup(a, na), *bb = xstrndup(b, nb);
	int c = strverscmp(ba, bb);

	free(ba);
	free(bb);
	if (c)
		return c;
	if (a[na] && b[nb])
		c = strverscmp(a + na, b + nb);
	else if (a[na] || b[nb])
		return a[na] ? -1 : 1;
	return c ? c : strcmp(a, b);
}

/* A walk down from a tip, parents after children, that goes no further
 * back than `cutoff` (commit time): a commit older than what it looks
 * for cannot hold it.  `seen` is shared between walks; visit() returns
 * true to stop. */
struct walk {
	git_repository *repo;
	int64_t cutoff;
	struct oidset *seen;
	bool (*visit)(struct walk *w, const git_oid *id, git_commit *c);
	const git_oid *target;
	const char *sha;
	char ***out;
	size_t *n;
};

static bool walk_from(struct walk *w, const git_oid *tip)
{
	git_oid *stack = NULL;
	size_t n = 0, cap = 0;
	bool stop = false;

	if (oidset_has(w->seen, tip))
		return false;
	oidset_put(w->seen, tip);
	stack = xrealloc(stack, (cap = 64) * sizeof(*stack));
	G.git_oid_cpy(&stack[n++], tip);
	while (n && !stop) {
		git_oid id = stack[--n];
		git_commit *c;
		if (G.git_commit_lookup(&c, w->repo, &id) < 0)
			continue;
		stop = w->visit(w, &id, c);
		for (unsigned p = 0; !stop && p < G.git_commit_parentcount(c);
		     p++) {
			const git_oid *pid = G.git_commit_parent_id(c, p);
			if (oidset_has(w->seen, pid) ||
			    G.git_commit_time(c) < w->cutoff)
				continue;
			oidset_put(w->seen, pid);
			if (n == cap)
				stack = xrealloc(stack,
						 (cap *= 2) * sizeof(*stack));
			G.git_oid_cpy(&stack[n++], pid);
		}
		G.git_commit_free(c);
	}
	free(stack);
	return stop;
}

/* Commit times may run a little backwards (clocks, rebases): a day of
 * slack, as git's name-rev allows. */
#define DATE_SLOP 86400

static int64_t commit_time_of(git_repository *repo, const git_oid *id)
{
	git_commit *c;
	int64_t t;

	if (G.git_commit_lookup(&c, repo, id) < 0)
		return INT64_MIN;
	t = G.git_commit_time(c);
	G.git_commit_free(c);
	return t;
}

static bool is_target(struct walk *w, const git_oid *id, git_commit *c)
{
	(void)c;
	return G.git_oid_equal(id, w->target);
}

static int tag_order(const void *a, const void *b)
{
	return ktree_version_cmp(((const struct tag *)a)->name,
				 ((const struct tag *)b)->name);
}

char *ktree_first_tag(struct ktree *t, const char *sha)
{
	struct tags tags;
	struct oidset seen = { 0 };
	struct walk w = { t->repo, 0, &seen, is_target, NULL, NULL, NULL, NULL };
	char *out = NULL;
	git_oid from;
	int64_t when;

	if (G.git_oid_fromstr(&from, sha) < 0 ||
	    (when = commit_time_of(t->repo, &from)) == INT64_MIN)
		return NULL;
	w.target = &from;
	w.cutoff = when - DATE_SLOP;
	tags_read(t->repo, &tags);
	if (tags.n) /* a tree without tags has no array to sort */
		qsort(tags.v, tags.n, sizeof(*tags.v), tag_order);
	/* In version order, the first tag whose walk meets sha: what a
	 * failed walk saw cannot lead to sha, and stays seen. */
	for (size_t i = 0; i < tags.n && !out; i++)
		if (walk_from(&w, &tags.v[i].commit))
			out = xstrdup(tags.v[i].name);
	oidset_release(&seen);
	tags_release(&tags);
	return out;
}

/* --- branches and backports -----------------------------------------------*/

static bool ref_name_plain(const char *s)
{
	return *s && s[0] != '-' && !strpbrk(s, " \t\n:^~?*[\\") &&
		!strstr(s, "..") && !strstr(s, "@{");
}

static int branch_commit(struct ktree *t, const char *branch, git_oid *out,
			 struct err *err)
{
	git_reference *ref = NULL;
	git_object *c = NULL;
	int rc = -1;

	if (!ref_name_plain(branch))
		return err_setc(err, ERR_INVALID, "'%s' is not a branch name",
				branch);
	if (G.git_reference_dwim(&ref, t->repo, branch) == 0 &&
	    G.git_reference_peel(&c, ref, GIT_OBJECT_COMMIT) == 0) {
		G.git_oid_cpy(out, G.git_object_id(c));
		rc = 0;
	}
	G.git_object_free(c);
	G.git_reference_free(ref);
	if (rc)
		return err_setc(err, ERR_NOTFOUND,
				"branch '%s' is not in the tree '%s'", branch,
				t->dir);
	return 0;
}

int ktree_check_branch(struct ktree *t, const char *branch, struct err *err)
{
	git_oid id;

	return branch_commit(t, branch, &id, err);
}

/* Whether a commit message names sha as a copy of it, by the lines
 * stable and cherry-picked commits carry: "commit SHA upstream.",
 * "[ Upstream commit SHA ]" and "(cherry picked from commit SHA)".  A
 * "Fixes: SHA" line names the commit a change repairs, not one it
 * copies: it is no copy. */
static bool names_upstream(const char *msg, const char *sha)
{
	char *a = xasprintf("commit %s upstream", sha);
	char *b = xasprintf("Upstream commit %s", sha);
	char *c = xasprintf("cherry picked from commit %s", sha);
	bool hit = strstr(msg, a) || strstr(msg, b) || strstr(msg, c);

	free(a);
	free(b);
	free(c);
	return hit;
}

static bool collect_backport(struct walk *w, const git_oid *id, git_commit *c)
{
	if (!G.git_oid_equal(id, w->target) &&
	    names_upstream(G.git_commit_message(c), w->sha)) {
		*w->out = xrealloc(*w->out, (*w->n + 1) * sizeof(**w->out));
		(*w->out)[(*w->n)++] = oid_hex(id);
	}
	return false;
}

int ktree_backports(struct ktree *t, const char *branch, const char *sha,
		    char ***out, size_t *n, struct err *err)
{
	struct oidset seen = { 0 };
	struct walk w = {
		t->repo, 0, &seen, collect_backport, NULL, sha, out, n
	};
	git_oid tip, fix;
	int64_t when;

	*out = NULL;
	*n = 0;
	if (branch_commit(t, branch, &tip, err) < 0)
		return err->code;
	if (G.git_oid_fromstr(&fix, sha) < 0 ||
	    (when = commit_time_of(t->repo, &fix)) == INT64_MIN)
		return err_setc(err, ERR_NOTFOUND,
				"commit %s is not in the tree '%s'", sha,
				t->dir);
	/* A backport is made after its fix: the branch is read back to the
	 * fix's time, not to its start. */
	w.target = &fix;
	w.cutoff = when - DATE_SLOP;
	walk_from(&w, &tip);
	oidset_release(&seen);
	return 0;
}

int ktree_holds(struct ktree *t, const char *branch, const char *sha)
{
	struct err err = { 0, "" };
	git_oid tip, id;

	if (branch_commit(t, branch, &tip, &err) < 0 ||
	    G.git_oid_fromstr(&id, sha) < 0)
		return -1;
	if (G.git_oid_equal(&tip, &id))
		return 1;
	return G.git_graph_descendant_of(t->repo, &tip, &id) == 1;
}

/* "linux-6.1.y", "stable/linux-6.1.y", "6.1": the X.Y a name gives, or
 * NULL (caller frees). */
static char *series_of_name(const char *name)
{
	const char *p = strrchr(name, '/');
	unsigned long a, b;
	char *end;

	p = p ? p + 1 : name;
	if (str_starts(p, "linux-"))
		p += strlen("linux-");
	if (*p < '0' || *p > '9')
		return NULL;
	a = strtoul(p, &end, 10);
	if (*end != '.' || end[1] < '0' || end[1] > '9')
		return NULL;
	b = strtoul(end + 1, &end, 10);
	if (*end && strcmp(end, ".y"))
		return NULL;
	return xasprintf("%lu.%lu", a, b);
}

char *ktree_branch_series(struct ktree *t, const char *branch)
{
	struct tags tags;
	git_oid tip;
	struct err err = { 0, "" };
	char *best = NULL, *r;

	if ((r = series_of_name(branch)))
		return r;
	if (branch_commit(t, branch, &tip, &err) < 0)
		return NULL;
	/* Else the newest release the branch holds: a stable branch holds
	 * its series' release and its own stable releases only. */
	tags_read(t->repo, &tags);
	for (size_t i = 0; i < tags.n; i++) {
		const char *v = tags.v[i].name + (tags.v[i].name[0] == 'v');
		if ((best && ktree_version_cmp(v, best) <= 0) || *v < '0' ||
		    *v > '9')
			continue;
		if (G.git_oid_equal(&tip, &tags.v[i].commit) ||
		    G.git_graph_descendant_of(t->repo, &tip,
					      &tags.v[i].commit) == 1)
			best = (char *)v;
	}
	if (best) {
		char *rc = strstr(best, "-rc"), *dot = strchr(best, '.');
		size_t n = rc ? (size_t)(rc - best) : strlen(best);
		if (dot &&
		    (dot = memchr(dot + 1, '.', n - (size_t)(dot + 1 - best))))
			n = (size_t)(dot - best);
		r = xstrndup(best, n);
	}
	tags_release(&tags);
	return r;
}
