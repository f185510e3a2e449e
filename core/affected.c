/*
 * The versions a report's bug is in (affected.h), from the tags of its
 * fix commits as the tree gave them (fixcve.h): ranges for the public
 * records (export/) and for the mail that announces them (outgoing/).
 */
#include <stdlib.h>
#include <string.h>

#include "core/affected.h"
#include "core/ktree.h"
#include "util/util.h"

char *version_release(const char *version)
{
	const char *rc = strstr(version, "-rc");

	return rc ? xstrndup(version, (size_t)(rc - version)) : xstrdup(version);
}

/* "1.0.2" and "1.0-rc1" give "1.0": the series (caller frees). */
static char *series_of(const char *v)
{
	char *r = version_release(v), *dot = strchr(r, '.');

	if (dot && (dot = strchr(dot + 1, '.')))
		*dot = '\0';
	return r;
}

/* The first -rc of the series after s, where f is the fix's series. */
static char *next_series_rc(const char *s, const char *f)
{
	unsigned long a = strtoul(s, NULL, 10), b = 0;
	const char *dot = strchr(s, '.');
	char *major_next = xasprintf("%lu.0", a + 1), *r;

	if (dot)
		b = strtoul(dot + 1, NULL, 10);
	if (!strcmp(f, major_next))
		r = xasprintf("%s-rc1", major_next);
	else
		r = xasprintf("%lu.%lu-rc1", a, b + 1);
	free(major_next);
	return r;
}

static int bp_order(const void *x, const void *y)
{
	const struct fix_commit *a = *(const struct fix_commit *const *)x;
	const struct fix_commit *b = *(const struct fix_commit *const *)y;

	return ktree_version_cmp(fix_version(a->tag), fix_version(b->tag));
}

static void range_add(struct affected_range **v, size_t *n, const char *in,
		      const char *fixed, const struct fix_commit *by)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n].introduced = xstrdup(in);
	(*v)[*n].fixed = fixed ? xstrdup(fixed) : NULL;
	(*v)[*n].by = by;
	(*n)++;
}

static bool range_known(const struct affected_range *v, size_t n, const char *in,
			const char *fixed)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].introduced, in) &&
		    (v[i].fixed && fixed ? !strcmp(v[i].fixed, fixed) : v[i].fixed == fixed))
			return true;
	return false;
}

/* The ranges fix f leaves affected from version in ("0": any). */
static void fix_ranges(const struct fix_entry *f, const char *in,
		       struct affected_range **out, size_t *n)
{
	const char *fix = f->fix.tag ? fix_version(f->fix.tag) : NULL;
	const struct fix_commit **bp;
	char *start = xstrdup(in), *prev = NULL, *fser = fix ? series_of(fix) : xstrdup("");
	size_t nbp = 0;

	/* The backports after the start and before the fix, the first of
	 * each series. */
	bp = xcalloc(f->nbackports + 1, sizeof(*bp));
	for (size_t b = 0; b < f->nbackports; b++) {
		const char *v = fix_version(f->backports[b].tag);
		if (v && ktree_version_cmp(v, start) > 0 &&
		    (!fix || ktree_version_cmp(v, fix) < 0))
			bp[nbp++] = &f->backports[b];
	}
	qsort(bp, nbp, sizeof(*bp), bp_order);
	for (size_t b = 0; b < nbp; b++) {
		const char *v = fix_version(bp[b]->tag);
		char *ser = series_of(v);
		if (prev && !strcmp(ser, prev)) {
			free(ser);
			continue;
		}
		if (ktree_version_cmp(start, v) < 0 && !range_known(*out, *n, start, v))
			range_add(out, n, start, v, bp[b]);
		free(start);
		start = next_series_rc(ser, fser);
		free(prev);
		prev = ser;
	}
	free(prev);
	if ((!fix || ktree_version_cmp(start, fix) < 0) && !range_known(*out, *n, start, fix))
		range_add(out, n, start, fix, &f->fix);
	free(start);
	free(fser);
	free(bp);
}

size_t affected_ranges(const struct fixcve *fc, struct affected_range **out)
{
	const char *in = NULL;
	size_t n = 0;

	*out = NULL;
	/* The bug's first version: the earliest any fix names. */
	for (size_t k = 0; k < fc->nfixes; k++)
		for (size_t i = 0; i < fc->fixes[k].nintroduced; i++) {
			const char *v = fix_version(fc->fixes[k].introduced[i].tag);
			if (v && (!in || ktree_version_cmp(v, in) < 0))
				in = v;
		}
	for (size_t k = 0; k < fc->nfixes; k++)
		fix_ranges(&fc->fixes[k], in ? in : "0", out, &n);
	return n;
}

bool affected_versions_known(const struct fixcve *fc)
{
	for (size_t k = 0; k < fc->nfixes; k++)
		if (!fc->fixes[k].fix.tag)
			return false;
	return fc->nfixes > 0;
}

bool affected_in_ranges(const struct affected_range *r, size_t n, const char *v)
{
	for (size_t i = 0; i < n; i++)
		if ((!strcmp(r[i].introduced, "0") || ktree_version_cmp(r[i].introduced, v) <= 0) &&
		    (!r[i].fixed || ktree_version_cmp(v, r[i].fixed) < 0))
			return true;
	return false;
}

void affected_ranges_free(struct affected_range *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(r[i].introduced);
		free(r[i].fixed);
	}
	free(r);
}

char *affected_text(const struct fixcve *fc)
{
	struct affected_range *r;
	size_t n = affected_ranges(fc, &r);
	struct sbuf sb = SBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		bool any = !strcmp(r[i].introduced, "0");
		sbuf_adds(&sb, i ? ", " : "");
		if (any && r[i].fixed)
			sbuf_addf(&sb, "before %s", r[i].fixed);
		else if (any)
			sbuf_adds(&sb, "every version (no fix released yet)");
		else if (r[i].fixed)
			sbuf_addf(&sb, "%s up to (not including) %s", r[i].introduced, r[i].fixed);
		else
			sbuf_addf(&sb, "%s and later (no fix released yet)", r[i].introduced);
	}
	affected_ranges_free(r, n);
	if (!sb.len) {
		sbuf_release(&sb);
		return NULL;
	}
	return sbuf_detach(&sb, NULL);
}
