/*
 * What the advisory exports (CVE record, OSV, CSAF, md's advisory
 * section) share: the embargo refusal and the fix commits' addresses.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "export/export.h"
#include "core/fixcve.h"
#include "export/advisory.h"
#include "core/json.h"
#include "core/ktree.h"

#define DEFAULT_COMMIT_URL "https://git.kernel.org/stable/c/"
#define DEFAULT_REFERENCE \
	"https://www.kernel.org/doc/html/latest/process/security-bugs.html"

int advisory_refuse_unreleased(struct dossier *const *d, size_t n,
			      const char *what, struct err *err)
{
	for (size_t i = 0; i < n; i++)
		if (dossier_refuse_unreleased(d[i], what, err) < 0)
			return err->code;
	return 0;
}

char *advisory_commit_url(struct session *sess, const char *sha)
{
	return xasprintf("%s%s", config_get(sess->cfg, "cve.commit_url",
					    DEFAULT_COMMIT_URL), sha);
}

const char *advisory_repo(struct session *sess)
{
	return config_get(sess->cfg, "cve.repo",
			  "https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git");
}

const char *advisory_stable_repo(struct session *sess)
{
	return config_get(sess->cfg, "cve.stable_repo",
			  "https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git");
}

const char *advisory_git_repo(struct session *sess, const struct fixcve *fc)
{
	return fc->nbackports ? advisory_stable_repo(sess) : advisory_repo(sess);
}

char *advisory_release(const char *version)
{
	const char *rc = strstr(version, "-rc");

	return rc ? xstrndup(version, (size_t)(rc - version)) : xstrdup(version);
}

/* "1.0.2" and "1.0-rc1" give "1.0": the series (caller frees). */
static char *series_of(const char *v)
{
	char *r = advisory_release(v), *dot = strchr(r, '.');

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

static void range_add(struct advisory_range **v, size_t *n, const char *in,
		      const char *fixed, const struct fix_commit *by)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n].introduced = xstrdup(in);
	(*v)[*n].fixed = fixed ? xstrdup(fixed) : NULL;
	(*v)[*n].by = by;
	(*n)++;
}

size_t advisory_ranges(const struct fixcve *fc, struct advisory_range **out)
{
	const char *in = NULL, *fix = fc->fix.tag ? fix_version(fc->fix.tag) : NULL;
	const struct fix_commit **bp;
	char *start, *prev = NULL, *fser = fix ? series_of(fix) : xstrdup("");
	size_t n = 0, nbp = 0;

	*out = NULL;
	if (!fc->has_fix) {
		free(fser);
		return 0;
	}
	for (size_t i = 0; i < fc->nintroduced; i++) {
		const char *v = fix_version(fc->introduced[i].tag);
		if (v && (!in || ktree_version_cmp(v, in) < 0))
			in = v;
	}
	start = xstrdup(in ? in : "0");
	/* The backports after the start and before the fix, the first of
	 * each series. */
	bp = xcalloc(fc->nbackports + 1, sizeof(*bp));
	for (size_t b = 0; b < fc->nbackports; b++) {
		const char *v = fix_version(fc->backports[b].tag);
		if (v && ktree_version_cmp(v, start) > 0 &&
		    (!fix || ktree_version_cmp(v, fix) < 0))
			bp[nbp++] = &fc->backports[b];
	}
	qsort(bp, nbp, sizeof(*bp), bp_order);
	for (size_t b = 0; b < nbp; b++) {
		const char *v = fix_version(bp[b]->tag);
		char *ser = series_of(v);
		if (prev && !strcmp(ser, prev)) {
			free(ser);
			continue;
		}
		if (ktree_version_cmp(start, v) < 0)
			range_add(out, &n, start, v, bp[b]);
		free(start);
		start = next_series_rc(ser, fser);
		free(prev);
		prev = ser;
	}
	free(prev);
	if (!fix || ktree_version_cmp(start, fix) < 0)
		range_add(out, &n, start, fix, &fc->fix);
	free(start);
	free(fser);
	free(bp);
	return n;
}

void advisory_ranges_free(struct advisory_range *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(r[i].introduced);
		free(r[i].fixed);
	}
	free(r);
}

char *advisory_reference_url(struct session *sess, int64_t report_id,
			     const char *cve_id)
{
	const char *base = config_get(sess->cfg, "cve.reference_url", DEFAULT_REFERENCE);

	if (!str_ends(base, "/"))
		return xstrdup(base);
	if (cve_id)
		return xasprintf("%s%s", base, cve_id);
	return xasprintf("%sreport-%lld", base, (long long)report_id);
}

char *advisory_credit(const struct dossier *d)
{
	const struct report *r = &d->f.r;
	char *who, *safe;

	if (!r->consent_credit)
		return NULL;
	who = r->reporter_name && *r->reporter_name ? xstrdup(r->reporter_name)
						    : dossier_reporter(d);
	if (!who)
		return NULL;
	safe = safe_str(who);
	free(who);
	if (!*safe) {
		free(safe);
		return NULL;
	}
	return safe;
}

char *advisory_description(const struct dossier *d, const struct fixcve *fc)
{
	if (fc->description)
		return dossier_redact(d, fc->description);
	return dossier_text(d, d->f.r.subject);
}

int advisory_write_json(struct session *sess, FILE *out,
			struct dossier *const *d, size_t n, const char *what,
			advisory_record_fn rec, void *arg, struct err *err)
{
	json_t *all = n == 1 ? NULL : json_array(), *one = NULL;
	int r;

	for (size_t i = 0; i < n; i++) {
		struct fixcve fc;
		fixcve_fold(d[i]->f.events, d[i]->f.nevents, &fc);
		one = rec(sess, d[i], &fc, arg);
		fixcve_release(&fc);
		if (all)
			json_array_append_new(all, one);
	}
	r = json_print(out, all ? all : one);
	json_decref(all ? all : one);
	if (r < 0)
		return err_setc(err, ERR_IO, "cannot write the %s", what);
	return 0;
}
