/*
 * The versions a report's bug is in (affected.h): the lines of
 * development each fix leaves affected, the status of a version, and
 * the version line cut in spans for the records that give ranges.
 */
#include <stdlib.h>
#include <string.h>

#include "core/affected.h"
#include "core/ktree.h"
#include "util/util.h"

char *version_release(const char *version)
{
	const char *rc = strstr(version, "-rc");

	return rc ? xstrndup(version, (size_t)(rc - version))
		  : xstrdup(version);
}

bool version_stable(const char *v)
{
	/* X.Y.Z: three numbers, whatever follows (not an -rc). */
	for (int part = 0; part < 3; part++) {
		size_t n = strspn(v, "0123456789");
		if (!n || (part < 2 && v[n] != '.'))
			return false;
		v += n + (part < 2);
	}
	return !str_starts(v, "-rc");
}

char *version_series(const char *v)
{
	char *r = version_release(v), *dot = strchr(r, '.');

	if (dot && (dot = strchr(dot + 1, '.')))
		*dot = '\0';
	return r;
}

static const char *tag_version(const struct fix_commit *c)
{
	return c ? fix_version(c->tag) : NULL;
}

static int vcmp(const char *a, const char *b)
{
	return ktree_version_cmp(a, b);
}

/* The stable branches fix f was searched on: its fix-branch events, or,
 * for a fix recorded before they were, each backport's branch with the
 * bug in its fork (as was then assumed). */
static size_t branches_of(const struct fix_entry *f, struct fix_branch **out,
			  bool *owned)
{
	size_t n = 0;

	*owned = !f->nbranches;
	if (f->nbranches) {
		*out = f->branches;
		return f->nbranches;
	}
	*out = xcalloc(f->nbackports + 1, sizeof(**out));
	for (size_t b = 0; b < f->nbackports; b++) {
		const struct fix_commit *c = &f->backports[b];
		size_t i = 0;
		if (!c->branch)
			continue;
		while (i < n && strcmp((*out)[i].branch, c->branch))
			i++;
		if (i < n)
			continue;
		(*out)[n].branch = c->branch;
		(*out)[n].series = c->tag ? version_series(fix_version(c->tag))
					  : NULL;
		(*out)[n].intro_in = true;
		n++;
	}
	return n;
}

static void branches_done(struct fix_branch *v, size_t n, bool owned)
{
	if (!owned)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i].series);
	free(v);
}

/* Of commits a (the current pick) and c, the one first in a release:
 * tagged before untagged, then the earlier version. */
static const struct fix_commit *earlier(const struct fix_commit *a,
					const struct fix_commit *c)
{
	if (!a)
		return c;
	if (!c->tag)
		return a;
	if (!a->tag || vcmp(tag_version(c), tag_version(a)) < 0)
		return c;
	return a;
}

/* The bug's mainline introducing commit (of those any fix names, not a
 * stable copy): the first in a release.  *none is set when fc names no
 * introducing commit at all; NULL with *none false: every one is a
 * stable release's (a bug of the stable tree only). */
static const struct fix_commit *mainline_in(const struct fixcve *fc, bool *none)
{
	const struct fix_commit *best = NULL;

	*none = true;
	for (size_t k = 0; k < fc->nfixes; k++)
		for (size_t i = 0; i < fc->fixes[k].nintroduced; i++) {
			const struct fix_commit *c =
				&fc->fixes[k].introduced[i];
			if (c->branch)
				continue;
			*none = false;
			if (!c->tag || !version_stable(tag_version(c)))
				best = earlier(best, c);
		}
	return best;
}

/* Where the bug entered branch b by a copy (or a stable-only
 * introducing commit of its series): the first in a release, or NULL. */
static const struct fix_commit *copy_in(const struct fixcve *fc,
					const struct fix_branch *b)
{
	const struct fix_commit *best = NULL;

	for (size_t k = 0; k < fc->nfixes; k++)
		for (size_t i = 0; i < fc->fixes[k].nintroduced; i++) {
			const struct fix_commit *c =
				&fc->fixes[k].introduced[i];
			bool mine = c->branch ? !strcmp(c->branch, b->branch)
					      : false;
			if (!c->branch && c->tag && b->series &&
			    version_stable(tag_version(c))) {
				char *s = version_series(tag_version(c));
				mine = !strcmp(s, b->series);
				free(s);
			}
			if (mine)
				best = earlier(best, c);
		}
	return best;
}

/* The backport of f on branch, first in a release, or NULL. */
static const struct fix_commit *backport_on(const struct fix_entry *f,
					    const char *branch)
{
	const struct fix_commit *best = NULL;

	for (size_t b = 0; b < f->nbackports; b++)
		if (f->backports[b].branch &&
		    !strcmp(f->backports[b].branch, branch))
			best = earlier(best, &f->backports[b]);
	return best;
}

/* Whether f was recorded with an introducing commit of its own. */
static bool own_mainline_in(const struct fix_entry *f)
{
	for (size_t i = 0; i < f->nintroduced; i++)
		if (!f->introduced[i].branch)
			return true;
	return false;
}

size_t affected_lines(const struct fixcve *fc, const struct fix_entry *f,
		      struct affected_line **out)
{
	struct fix_branch *br;
	bool owned, none;
	size_t nb = branches_of(f, &br, &owned), n = 0;
	const struct fix_commit *min = mainline_in(fc, &none);
	bool fix_mainline = !f->fix.tag ||
		!version_stable(tag_version(&f->fix));

	*out = xcalloc(nb + 2, sizeof(**out));
	if (none || min) {
		struct affected_line *l = &(*out)[n++];
		l->in = min;
		l->in_version = none ? "0" : tag_version(min);
		l->out = fix_mainline ? &f->fix : NULL;
		l->out_version = fix_mainline ? tag_version(&f->fix) : NULL;
	}
	for (size_t b = 0; b < nb; b++) {
		const struct fix_commit *cp = copy_in(fc, &br[b]);
		struct affected_line *l;
		bool in = br[b].intro_in;
		/* The tree was asked about the introducing commits the fix
		 * was recorded with; a fix recorded without (a follow-up)
		 * shares the bug's: its fork holds them when it forked at or
		 * after the release they are first in, and every fork holds
		 * a bug whose introducing commit is not known. */
		if (none)
			in = true;
		else if (!own_mainline_in(f))
			in = min && min->tag && br[b].series &&
				vcmp(br[b].series, tag_version(min)) >= 0;
		if (br[b].fix_in || (!in && !cp))
			continue;
		l = &(*out)[n++];
		/* The series of a list made from the backports does not
		 * outlive it: the backport's version tells it again. */
		l->branch = br[b].branch;
		l->series = owned ? NULL : br[b].series;
		l->inherited = in;
		l->in = l->inherited ? min : cp;
		l->in_version = l->inherited ? (none ? "0" : tag_version(min))
					     : tag_version(cp);
		l->out = backport_on(f, br[b].branch);
		l->out_version = tag_version(l->out);
	}
	branches_done(br, nb, owned);
	return n;
}

/* --- the status of a version ----------------------------------------------*/

/* The line of series s among the n lines l, or NULL. */
static const struct affected_line *series_line(const struct affected_line *l,
					       size_t n, const char *s,
					       const struct fix_entry *f)
{
	for (size_t i = 0; i < n; i++) {
		char *ls;
		bool hit;
		if (!l[i].branch)
			continue;
		if (l[i].series)
			ls = xstrdup(l[i].series);
		else if (l[i].out_version)
			ls = version_series(l[i].out_version);
		else
			continue;
		hit = !strcmp(ls, s);
		free(ls);
		if (hit)
			return &l[i];
	}
	(void)f;
	return NULL;
}

/* Whether fix f's search covered series s; *fixed_in when its fork held
 * the fix already. */
static bool searched(const struct fix_entry *f, const char *s, bool *fixed_in)
{
	struct fix_branch *br;
	bool owned, hit = false;
	size_t nb = branches_of(f, &br, &owned);

	*fixed_in = false;
	for (size_t b = 0; b < nb && !hit; b++)
		if (br[b].series && !strcmp(br[b].series, s)) {
			hit = true;
			*fixed_in = br[b].fix_in;
		}
	branches_done(br, nb, owned);
	return hit;
}

/* v's status on line l: from its entry to its exit. */
static enum vstatus line_status(const struct affected_line *l, const char *v)
{
	if (!l->inherited || !l->branch) {
		if (!l->in_version)
			return VS_NOT_AFFECTED;
		if (strcmp(l->in_version, "0") && vcmp(v, l->in_version) < 0)
			return VS_NOT_AFFECTED;
	}
	if (l->out_version && vcmp(v, l->out_version) >= 0)
		return VS_FIXED;
	return VS_AFFECTED;
}

static enum vstatus fix_status(const struct fixcve *fc,
			       const struct fix_entry *f, const char *v)
{
	struct affected_line *l;
	size_t n = affected_lines(fc, f, &l);
	enum vstatus st = VS_NOT_AFFECTED;
	char *mainline = NULL;

	if (version_stable(v)) {
		char *s = version_series(v);
		bool fixed_in;
		if (searched(f, s, &fixed_in)) {
			const struct affected_line *sl =
				series_line(l, n, s, f);
			st = fixed_in ? VS_FIXED
				: sl  ? line_status(sl, v)
				      : VS_NOT_AFFECTED;
			free(s);
			free(l);
			return st;
		}
		mainline = s; /* a series not searched: as its release */
	}
	for (size_t i = 0; i < n; i++)
		if (!l[i].branch)
			st = line_status(&l[i], mainline ? mainline : v);
	free(mainline);
	free(l);
	return st;
}

enum vstatus affected_status(const struct fixcve *fc, const char *v)
{
	enum vstatus st = VS_NOT_AFFECTED;

	for (size_t k = 0; k < fc->nfixes; k++) {
		enum vstatus s = fix_status(fc, &fc->fixes[k], v);
		if (s == VS_AFFECTED)
			return s;
		if (s == VS_FIXED)
			st = s;
	}
	return st;
}

bool affected_versions_known(const struct fixcve *fc)
{
	for (size_t k = 0; k < fc->nfixes; k++)
		if (!fc->fixes[k].fix.tag && !fc->fixes[k].tree_checked)
			return false;
	return fc->nfixes > 0;
}

/* --- spans ----------------------------------------------------------------*/

static void bp_add(char ***v, size_t *n, const char *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
}

static int bp_order(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;

	if (!strcmp(x, "0") || !strcmp(y, "0"))
		return strcmp(x, "0") ? 1 : strcmp(y, "0") ? -1 : 0;
	return vcmp(x, y);
}

/* The points where a status may change: every line's entry and exit,
 * and the bounds of each searched series: its release X.Y, its first
 * stable release X.Y.1 and the next series' first -rc, X.(Y+1)-rc1
 * (whether or not that one exists, it sorts after every X.Y.z). */
static void fix_points(const struct fixcve *fc, const struct fix_entry *f,
		       char ***v, size_t *n)
{
	struct affected_line *l;
	size_t nl = affected_lines(fc, f, &l);
	struct fix_branch *br;
	bool owned;
	size_t nb = branches_of(f, &br, &owned);

	for (size_t i = 0; i < nl; i++) {
		if (!l[i].inherited || !l[i].branch)
			bp_add(v, n, l[i].in_version);
		bp_add(v, n, l[i].out_version);
	}
	for (size_t b = 0; b < nb; b++) {
		const char *s = br[b].series;
		const char *dot = s ? strchr(s, '.') : NULL;
		char *t;
		if (!dot)
			continue;
		bp_add(v, n, s);
		t = xasprintf("%s.1", s);
		bp_add(v, n, t);
		free(t);
		t = xasprintf("%.*s.%lu-rc1", (int)(dot - s), s,
			      strtoul(dot + 1, NULL, 10) + 1);
		bp_add(v, n, t);
		free(t);
	}
	branches_done(br, nb, owned);
	free(l);
}

size_t affected_spans(const struct fixcve *fc, struct affected_span **out)
{
	char **pts = NULL;
	size_t np = 0, n = 0;

	*out = NULL;
	if (!affected_versions_known(fc))
		return 0;
	bp_add(&pts, &np, "0");
	for (size_t k = 0; k < fc->nfixes; k++)
		fix_points(fc, &fc->fixes[k], &pts, &np);
	qsort(pts, np, sizeof(*pts), bp_order);
	*out = xcalloc(np, sizeof(**out));
	for (size_t i = 0; i < np; i++) {
		enum vstatus st = affected_status(fc, pts[i]);
		if (n && (*out)[n - 1].status == st) {
			free(pts[i]);
			continue;
		}
		if (n)
			(*out)[n - 1].to = xstrdup(pts[i]);
		(*out)[n].from = pts[i];
		(*out)[n].status = st;
		n++;
	}
	free(pts);
	return n;
}

void affected_spans_free(struct affected_span *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(s[i].from);
		free(s[i].to);
	}
	free(s);
}

char *affected_text(const struct fixcve *fc)
{
	struct affected_span *s;
	size_t n = affected_spans(fc, &s);
	struct sbuf sb = SBUF_INIT;
	bool known = n > 0;

	for (size_t i = 0; i < n; i++) {
		bool any = !strcmp(s[i].from, "0");
		if (s[i].status != VS_AFFECTED)
			continue;
		sbuf_adds(&sb, sb.len ? ", " : "");
		if (any && s[i].to)
			sbuf_addf(&sb, "before %s", s[i].to);
		else if (any)
			sbuf_adds(&sb, "every version (no fix released yet)");
		else if (s[i].to)
			sbuf_addf(&sb, "%s up to (not including) %s", s[i].from,
				  s[i].to);
		else
			sbuf_addf(&sb, "%s and later (no fix released yet)",
				  s[i].from);
	}
	affected_spans_free(s, n);
	if (!sb.len) {
		sbuf_release(&sb);
		return known ? xstrdup("none (every release holds the fix)")
			     : NULL;
	}
	return sbuf_detach(&sb, NULL);
}
