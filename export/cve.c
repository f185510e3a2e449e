/*
 * The CVE JSON 5 export: one CVE record (dataVersion 5.1, 5.1.1 with
 * cpeApplicability) per CVE ID of
 * a report (a report may have several: `cve --assign` each), valid
 * against CVE_Record_Format_bundled.json.  Each record gives the fixes
 * its ID covers (`cve --assign ID --fix SHA`; every fix of the report
 * when it names none).  None while a report is
 * under embargo: the export is refused (advisory.c), naming the date.
 *   cveId         the ID `cve --assign` reserved; --cve-id: only that
 *                 ID's record when the report has it, else one record
 *                 under that ID of every fix; a report with neither is
 *                 refused (no placeholder ID)
 *   state         REJECTED with its reason when `cve --reject` rejected
 *                 the ID; else PUBLISHED.  Writing a file changes
 *                 nothing in the record: `cve ID --publish` is the act
 *                 that moves a reserved ID to published (cmd/cve.c)
 *   orgId         config cve.org_id (a version 4 UUID); refused, naming
 *                 the key, when unset
 *   title         the first fix commit's subject (as `fix --tree` read it),
 *                 else the report's subject (advisory_title: the OSV
 *                 summary and the CSAF vulnerability's title too)
 *   affected      vendor/product "Linux", the public files
 *                 (dossier_public_files) as programFiles, the repository
 *                 that holds every SHA named (config cve.stable_repo when
 *                 a backport or a stable copy of an introducing commit
 *                 is, else cve.repo).  With a fix recorded (`fix`), as
 *                 the kernel CNA's bippy writes them, for each fix (a
 *                 version is affected when any entry says so: it lacks
 *                 one of the fixes), from its lines of development
 *                 (affected.h: mainline and each stable branch searched
 *                 that had the bug): one entry of git ranges,
 *                 defaultStatus unaffected (each line's introducing
 *                 commit, or its stable copy, lessThan the fix on that
 *                 line), and one of release numbers, read by CVE 5's
 *                 first match: a bug copied to a stable branch first as
 *                 its affected range, then (defaultStatus affected when
 *                 a mainline release has the bug) the introducing
 *                 release affected, "0" lessThan it unaffected, each
 *                 stable series from its backport lessThanOrEqual
 *                 "X.Y.*" unaffected, the release the fix is first in
 *                 (1.1 for a fix in 1.1-rc1) lessThanOrEqual "*" as
 *                 original_commit_for_fix.  No -rc in a version: the
 *                 kernel's tools take none.  Without a fix,
 *                 defaultStatus "unknown".
 *   cpeApplicability  the kernel's CPE, vulnerable over each affected
 *                 span of versions (affected_spans), an -rc before the
 *                 fix's as its own CPE (version X.Y, update rcN); with
 *                 it, dataVersion 5.1.1, the schema that defines it
 *   x_generator   {"engine": "secteam-tui-VERSION"}
 *   descriptions  `cve --description` (redacted), else the subject
 *   problemTypes  `cve --cwe`, when given, with its catalogue name
 *                 (cwe_name; an ID the catalogue lacks is refused)
 *   metrics       `cve --cvss`, when given: format CVSS, its rationale
 *                 as the scenario (as the kernel CNA writes it), and
 *                 cvssV3_1 with the base score our own code computes
 *                 (cvss.h)
 *   references    each fix commit and backport (config cve.commit_url, default
 *                 git.kernel.org/stable/c/), then config cve.reference_url
 *                 (when it ends in '/', the CVE ID, or report-N without
 *                 one, is appended), else the kernel's security-bugs page
 *   datePublic    when the report was disclosed (dossier_released_at)
 *   credits       the reporter's name (else address), only with credit
 *                 consent
 * Several reports give a JSON array of records.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/core.h"
#include "export/export.h"
#include "export/export.h"
#include "core/fixcve.h"
#include "export/advisory.h"
#include "core/json.h"
#include "core/ktree.h"

#define KERNEL_CPE "cpe:2.3:o:linux:linux_kernel:*:*:*:*:*:*:*:*"
#define DEFAULT_REFERENCE \
	"https://www.kernel.org/doc/html/latest/process/security-bugs.html"

static bool matches(const char *pattern, const char *s)
{
	regex_t re;
	bool ok;

	if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB))
		return false;
	ok = regexec(&re, s, 0, NULL, 0) == 0;
	regfree(&re);
	return ok;
}

/* At most max bytes of s, cut on a UTF-8 character boundary. */
static json_t *bounded(const char *s, size_t max, const char *fallback)
{
	size_t n = strlen(s);
	char *t;
	json_t *j;

	if (!n)
		return json_string(fallback);
	if (n > max) {
		n = max;
		while (n && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
	}
	t = xstrndup(s, n);
	j = json_text(t);
	free(t);
	return j;
}

/* A version entry; less_op NULL for a single version. */
static json_t *ver(const char *version, const char *less_op, const char *less,
		   const char *status, const char *type)
{
	json_t *v = json_pack("{s:s}", "version", version);

	if (less_op)
		json_object_set_new(v, less_op, json_string(less));
	json_object_set_new(v, "status", json_string(status));
	if (type)
		json_object_set_new(v, "versionType", json_string(type));
	return v;
}

/* Whether the array a holds an entry equal to e. */
static bool has_entry(json_t *a, json_t *e)
{
	size_t i;
	json_t *x;

	json_array_foreach(a, i, x) if (json_equal(x, e)) return true;
	return false;
}

static void add_entry(json_t *a, json_t *e)
{
	if (has_entry(a, e))
		json_decref(e);
	else
		json_array_append_new(a, e);
}

/* Fix f's git ranges, read by CVE 5's rule (the first entry holding a
 * commit gives its status, else defaultStatus "unaffected"), one per
 * line of development (affected.h), as the kernel CNA's bippy writes
 * them: from the commit the bug entered the line with ("0": not known)
 * lessThan the fix on that line.  When a line has no fix yet (a stable
 * branch without its backport, a fix in no release), no pair can name
 * it: then every commit from a fix on is unaffected, and every other
 * one descending from an introducing commit affected, after the
 * pairs. */
static json_t *git_versions(const struct affected_line *l, size_t n)
{
	json_t *a = json_array();
	bool open = false;

	for (size_t i = 0; i < n; i++) {
		const char *in = l[i].in ? l[i].in->sha : "0";
		if (l[i].out)
			add_entry(a,
				  ver(in, "lessThan", l[i].out->sha, "affected",
				      "git"));
		else
			open = true;
	}
	for (size_t i = 0; open && i < n; i++)
		if (l[i].out)
			add_entry(a,
				  ver(l[i].out->sha, "lessThanOrEqual", "*",
				      "unaffected", "git"));
	for (size_t i = 0; open && i < n; i++)
		add_entry(a,
			  ver(l[i].in ? l[i].in->sha : "0", "lessThanOrEqual",
			      "*", "affected", "git"));
	return a;
}

/* "1.0.1" gives "1.0.*": the stable series of a version. */
static char *series_glob(const char *v)
{
	char *s = version_series(v), *r = xasprintf("%s.*", s);

	free(s);
	return r;
}

/* The line's series ("1.0"), from the branch searched or its versions
 * (caller frees); NULL when none tells. */
static char *line_series(const struct affected_line *l)
{
	if (l->series)
		return xstrdup(l->series);
	if (l->out_version)
		return version_series(l->out_version);
	if (!l->inherited && l->in_version)
		return version_series(l->in_version);
	return NULL;
}

/* Fix f's versions from the tags, as the kernel CNA's bippy writes
 * them, read by CVE 5's rule (the first entry holding a version gives
 * its status, else defaultStatus), release numbers only (an -rc is no
 * version the kernel's tools give: the release it leads to stands for
 * it).  *status is the defaultStatus: "affected" when a mainline
 * release has the bug, then the introducing release affected, what is
 * before it unaffected, each stable series from its backport on
 * unaffected and the release the fix is first in lessThanOrEqual "*"
 * as original_commit_for_fix.  A bug that entered a stable branch by a
 * copy of its introducing commit is an affected range of that series,
 * written first so that no unaffected entry before it shadows it. */
static json_t *semver_versions(const struct fix_entry *f,
			       const struct affected_line *l, size_t n,
			       const char **status)
{
	json_t *a = json_array();
	const struct affected_line *m = NULL;
	char *in = NULL, *out = NULL;

	for (size_t i = 0; i < n; i++)
		if (!l[i].branch)
			m = &l[i];
	if (m && m->in_version)
		in = version_release(m->in_version);
	if (m && m->out_version)
		out = version_release(m->out_version);
	*status = in &&
			(!strcmp(in, "0") || !out ||
			 ktree_version_cmp(in, out) < 0)
		? "affected"
		: "unaffected";
	for (size_t i = 0; i < n; i++) {
		char *glob;
		if (!l[i].branch || l[i].inherited || !l[i].in_version)
			continue;
		if (l[i].out_version) {
			add_entry(a,
				  ver(l[i].in_version, "lessThan",
				      l[i].out_version, "affected", "semver"));
			continue;
		}
		glob = series_glob(l[i].in_version);
		add_entry(a,
			  ver(l[i].in_version, "lessThanOrEqual", glob,
			      "affected", "semver"));
		free(glob);
	}
	if (!strcmp(*status, "affected")) {
		if (strcmp(in, "0")) {
			add_entry(a, ver(in, NULL, NULL, "affected", NULL));
			add_entry(a,
				  ver("0", "lessThan", in, "unaffected",
				      "semver"));
		}
		for (size_t i = 0; i < n; i++) {
			char *glob;
			if (!l[i].branch || !l[i].inherited ||
			    !l[i].out_version)
				continue;
			glob = series_glob(l[i].out_version);
			add_entry(a,
				  ver(l[i].out_version, "lessThanOrEqual", glob,
				      "unaffected", "semver"));
			free(glob);
		}
		/* A series searched that never had the bug though its
		 * release did (a revert before the fork): its stable
		 * releases unaffected. */
		for (size_t b = 0; b < f->nbranches; b++) {
			const struct fix_branch *br = &f->branches[b];
			bool line = false;
			char *first, *glob;
			for (size_t i = 0; i < n; i++) {
				char *s = line_series(&l[i]);
				line = line ||
					(l[i].branch && s && br->series &&
					 !strcmp(s, br->series));
				free(s);
			}
			if (line || br->fix_in || !br->series ||
			    (strcmp(in, "0") &&
			     ktree_version_cmp(br->series, in) < 0) ||
			    (out && ktree_version_cmp(br->series, out) >= 0))
				continue;
			first = xasprintf("%s.1", br->series);
			glob = xasprintf("%s.*", br->series);
			add_entry(a,
				  ver(first, "lessThanOrEqual", glob,
				      "unaffected", "semver"));
			free(first);
			free(glob);
		}
		if (out)
			add_entry(a,
				  ver(out, "lessThanOrEqual", "*", "unaffected",
				      "original_commit_for_fix"));
	}
	free(in);
	free(out);
	return a;
}

/* Whether fix f names a commit that exists only in the stable tree: a
 * backport, or a copy of an introducing commit. */
static bool names_stable(const struct fixcve *fc, const struct fix_entry *f)
{
	if (f->nbackports)
		return true;
	for (size_t k = 0; k < fc->nfixes; k++)
		for (size_t i = 0; i < fc->fixes[k].nintroduced; i++)
			if (fc->fixes[k].introduced[i].branch ||
			    (fc->fixes[k].introduced[i].tag &&
			     version_stable(fix_version(
				     fc->fixes[k].introduced[i].tag))))
				return true;
	return f->fix.tag && version_stable(fix_version(f->fix.tag));
}

static json_t *product(struct session *sess, const char *repo, json_t *files,
		       const char *status, json_t *versions)
{
	json_t *p = json_pack("{s:s, s:s, s:s, s:s}", "vendor", "Linux",
			      "product", "Linux", "repo", repo, "defaultStatus",
			      status);

	(void)sess;
	if (json_array_size(files))
		json_object_set(p, "programFiles", files);
	if (versions && json_array_size(versions))
		json_object_set(p, "versions", versions);
	json_decref(versions);
	return p;
}

static json_t *affected(struct session *sess, const struct dossier *d,
			const struct fixcve *fc)
{
	json_t *files = json_array(), *a = json_array(), *sv;
	char **pf;
	size_t npf = dossier_public_files(sess, d, &pf);

	for (size_t i = 0; i < npf; i++) {
		json_array_append_new(files, bounded(pf[i], 1024, "-"));
		free(pf[i]);
	}
	free(pf);
	if (!fc->nfixes)
		json_array_append_new(a,
				      product(sess, advisory_repo(sess), files,
					      "unknown", NULL));
	/* Each fix its own entries: a version is affected when any says so
	 * (it lacks one of the fixes).  The git ranges first, in the
	 * repository that holds every commit they name. */
	for (size_t k = 0; k < fc->nfixes; k++) {
		struct affected_line *l;
		size_t n = affected_lines(fc, &fc->fixes[k], &l);
		const char *repo = names_stable(fc, &fc->fixes[k])
			? advisory_stable_repo(sess)
			: advisory_repo(sess);
		json_array_append_new(a,
				      product(sess, repo, files, "unaffected",
					      git_versions(l, n)));
		free(l);
	}
	for (size_t k = 0; k < fc->nfixes && affected_versions_known(fc); k++) {
		struct affected_line *l;
		size_t n = affected_lines(fc, &fc->fixes[k], &l);
		const char *status;
		const char *repo = names_stable(fc, &fc->fixes[k])
			? advisory_stable_repo(sess)
			: advisory_repo(sess);
		sv = semver_versions(&fc->fixes[k], l, n, &status);
		if (json_array_size(sv) || !strcmp(status, "affected"))
			json_array_append_new(
				a, product(sess, repo, files, status, sv));
		else
			json_decref(sv);
		free(l);
	}
	json_decref(files);
	return a;
}

/* A CPE of the kernel: version v ("*": any), update u ("*": any). */
static char *kernel_cpe(const char *v, const char *u)
{
	return xasprintf("cpe:2.3:o:linux:linux_kernel:%s:%s:*:*:*:*:*:*", v,
			 u);
}

/* The cpeMatch entries of one affected span [from, to): the kernel's
 * CPE over the releases (an -rc is its release's version with the
 * update "rcN": a range on versions holds a release's -rcs too), and,
 * when the span ends at an -rc of a release (the fix in 1.2-rc3), each
 * -rc of that release before it, which the range, ending before the
 * release, leaves out: so the pair does not collapse when the bug
 * entered and left within one release's -rcs. */
static void span_cpe(json_t *m, const struct affected_span *s)
{
	char *lo = strcmp(s->from, "0") ? version_release(s->from) : NULL;
	char *hi = s->to ? version_release(s->to) : NULL;
	const char *rc = s->to ? strstr(s->to, "-rc") : NULL;
	char *any = kernel_cpe("*", "*");

	if (!lo || !hi || ktree_version_cmp(lo, hi) < 0) {
		json_t *e = json_pack("{s:b, s:s}", "vulnerable", 1, "criteria",
				      any);
		if (lo)
			json_object_set_new(e, "versionStartIncluding",
					    json_string(lo));
		if (hi)
			json_object_set_new(e, "versionEndExcluding",
					    json_string(hi));
		add_entry(m, e);
	}
	for (unsigned long k = 1; rc && k < strtoul(rc + 3, NULL, 10); k++) {
		char *v = xasprintf("%s-rc%lu", hi, k),
		     *u = xasprintf("rc%lu", k), *c;
		if (!strcmp(s->from, "0") ||
		    ktree_version_cmp(s->from, v) <= 0) {
			c = kernel_cpe(hi, u);
			add_entry(m,
				  json_pack("{s:b, s:s}", "vulnerable", 1,
					    "criteria", c));
			free(c);
		}
		free(v);
		free(u);
	}
	free(any);
	free(lo);
	free(hi);
}

/* The kernel's CPE, vulnerable over each affected span of versions
 * (affected_spans: the stable series searched carved out of the
 * mainline's); NULL when the versions are not known. */
static json_t *cpe_applicability(const struct fixcve *fc)
{
	struct affected_span *s;
	size_t n = affected_spans(fc, &s);
	json_t *m = json_array();

	for (size_t i = 0; i < n; i++)
		if (s[i].status == VS_AFFECTED)
			span_cpe(m, &s[i]);
	affected_spans_free(s, n);
	if (!json_array_size(m)) {
		json_decref(m);
		return NULL;
	}
	return json_pack("[{s:[{s:s, s:b, s:o}]}]", "nodes", "operator", "OR",
			 "negate", 0, "cpeMatch", m);
}

static json_t *references(struct session *sess, const struct fixcve *fc,
			  const char *ref)
{
	json_t *a = json_array();

	for (size_t k = 0; k < fc->nfixes; k++) {
		const struct fix_entry *f = &fc->fixes[k];
		for (size_t b = 0; b <= f->nbackports; b++) {
			const char *sha = b < f->nbackports
				? f->backports[b].sha
				: f->fix.sha;
			char *url = advisory_commit_url(sess, sha);
			json_array_append_new(a,
					      json_pack("{s:s}", "url", url));
			free(url);
		}
	}
	json_array_append_new(a, json_pack("{s:s}", "url", ref));
	return a;
}

static json_t *description(const struct dossier *d, const struct fixcve *fc,
			   const char *subject)
{
	char *t;
	json_t *j;

	if (!fc->description)
		return bounded(subject, 4096, "Linux kernel vulnerability");
	t = dossier_redact(d, fc->description);
	j = bounded(t, 4096, "Linux kernel vulnerability");
	free(t);
	return j;
}

static json_t *rejected(const struct dossier *d, const struct cve_entry *c,
			const char *org)
{
	const char *cve_id = c->id;
	char *why = dossier_redact(d, c->reject_reason);
	json_t *rec = json_pack(
		"{s:s, s:s, s:{s:s, s:s, s:s}, s:{s:{s:{s:s}, s:[{s:s, s:o}]}}}",
		"dataType", "CVE_RECORD", "dataVersion", "5.1", "cveMetadata",
		"cveId", cve_id, "assignerOrgId", org, "state", "REJECTED",
		"containers", "cna", "providerMetadata", "orgId", org,
		"rejectedReasons", "lang", "en", "value",
		bounded(why, 4096, "rejected"));

	free(why);
	return rec;
}

static json_t *record(struct session *sess, const struct dossier *d,
		      const struct fixcve *fc, const char *cve_id,
		      const char *org)
{
	const struct report *r = &d->f.r;
	const char *base =
		config_get(sess->cfg, "cve.reference_url", DEFAULT_REFERENCE);
	char *ref = str_ends(base, "/") ? xasprintf("%s%s", base, cve_id)
					: xstrdup(base);
	char *subject = dossier_text(d, r->subject);
	char *who = r->consent_credit && r->reporter_name && *r->reporter_name
		? xstrdup(r->reporter_name)
		: dossier_reporter(d);
	json_t *cna, *meta, *cvss, *cpe = cpe_applicability(fc);
	char *title = advisory_title(d, fc);

	cna = json_pack("{s:{s:s}, s:o, s:[{s:s, s:o}], s:o, s:o}",
			"providerMetadata", "orgId", org, "title",
			json_text(title), "descriptions", "lang", "en", "value",
			description(d, fc, subject), "affected",
			affected(sess, d, fc), "references",
			references(sess, fc, ref));
	if (cpe)
		json_object_set_new(cna, "cpeApplicability", cpe);
	if (fc->cwe && cwe_name(fc->cwe))
		json_object_set_new(cna, "problemTypes",
				    json_pack("[{s:[{s:s, s:s, s:s++, s:s}]}]",
					      "descriptions", "lang", "en",
					      "cweId", fc->cwe, "description",
					      fc->cwe, " ", cwe_name(fc->cwe),
					      "type", "CWE"));
	if ((cvss = advisory_cvss(fc))) {
		char *why = advisory_cvss_rationale(d, fc);
		json_object_set_new(cna, "metrics",
				    json_pack("[{s:s, s:[{s:s, s:o}], s:o}]",
					      "format", "CVSS", "scenarios",
					      "lang", "en", "value",
					      bounded(why, 4096, "GENERAL"),
					      "cvssV3_1", cvss));
		free(why);
	}
	if (who) {
		char *w = safe_str(who);
		json_object_set_new(cna, "credits",
				    json_pack("[{s:s, s:o, s:s}]", "lang", "en",
					      "value",
					      bounded(w, 4096, "reporter"),
					      "type", "finder"));
		free(w);
	}
	if (dossier_released_at(d)) {
		char b[32];
		json_object_set_new(
			cna, "datePublic",
			json_string(fmt_rfc3339(dossier_released_at(d), b)));
	}
	json_object_set_new(cna, "x_generator",
			    json_pack("{s:s}", "engine",
				      "secteam-tui-" SECTEAM_VERSION));
	meta = json_pack("{s:s, s:s, s:s}", "cveId", cve_id, "assignerOrgId",
			 org, "state", "PUBLISHED");
	free(subject);
	free(title);
	free(who);
	free(ref);
	/* cpeApplicability is a property of CVE schema 5.1.1: a record
	 * that carries it says 5.1.1, the schema it is valid against (the
	 * tests check it against 5.1.0 with 5.1.1's cpeApplicability added,
	 * the only 5.1.1 property written); without it, 5.1. */
	return json_pack("{s:s, s:s, s:o, s:{s:o}}", "dataType", "CVE_RECORD",
			 "dataVersion", cpe ? "5.1.1" : "5.1", "cveMetadata",
			 meta, "containers", "cna", cna);
}

/* ERR_REFUSED naming the report when it has no CVE ID (and --cve-id
 * names none), ERR_INVALID naming a recorded CWE the catalogue lacks. */
static int cve_refuse_incomplete(const struct dossier *d,
				 const struct export_opts *o, struct err *err)
{
	struct fixcve fc;
	long long id = (long long)d->f.r.id;
	int r = 0;

	fixcve_fold(d->f.events, d->f.nevents, &fc);
	if (!o->cve_id && !fc.ncves)
		r = err_setc(
			err, ERR_REFUSED,
			"report %lld has no CVE ID: no record without one (cve %lld --assign CVE-YYYY-NNNN, or --cve-id)",
			id, id);
	else if (fc.cwe && !cwe_name(fc.cwe))
		r = err_setc(
			err, ERR_INVALID,
			"report %lld: its CWE %s names no weakness of the CWE catalogue (data/cwe-names.tsv); record another with cve %lld --cwe CWE-N",
			id, fc.cwe, id);
	fixcve_release(&fc);
	return r;
}

struct cve_args {
	const struct export_opts *o;
	const char *org;
};

/* The record of CVE c (its fixes only): REJECTED for a rejected ID. */
static json_t *one_record(struct session *sess, const struct dossier *d,
			  const struct fixcve *fc, const struct cve_entry *c,
			  const char *org)
{
	struct fixcve view;
	json_t *rec;

	if (!strcmp(c->state, "rejected"))
		return rejected(d, c, org);
	fixcve_view(fc, c, &view);
	rec = record(sess, d, &view, c->id, org);
	fixcve_release(&view);
	return rec;
}

/* One record per CVE ID of the report, each with the fixes it covers
 * (an array for several); --cve-id: the record of that ID when the
 * report has it, else one PUBLISHED record under that ID of every fix. */
static json_t *cve_record_of(struct session *sess, const struct dossier *d,
			     const struct fixcve *fc, void *arg)
{
	const struct cve_args *a = arg;
	const struct cve_entry *c = a->o->cve_id ? fixcve_cve(fc, a->o->cve_id)
						 : NULL;
	json_t *all;

	if (c)
		return one_record(sess, d, fc, c, a->org);
	if (a->o->cve_id)
		return record(sess, d, fc, a->o->cve_id, a->org);
	if (fc->ncves == 1)
		return one_record(sess, d, fc, &fc->cves[0], a->org);
	all = json_array();
	for (size_t i = 0; i < fc->ncves; i++)
		json_array_append_new(
			all, one_record(sess, d, fc, &fc->cves[i], a->org));
	return all;
}

static int export_cve_write(struct session *sess, FILE *out,
			    struct dossier *const *d, size_t n,
			    const struct export_opts *o, struct err *err)
{
	struct cve_args a = { o, config_get(sess->cfg, "cve.org_id", NULL) };

	if (advisory_refuse_unreleased(d, n, "CVE record", err) < 0)
		return err->code;

	if (!a.org)
		return err_setc(
			err, ERR_INVALID,
			"config cve.org_id is not set: a CVE record names its CNA by that UUID (the CNA's, from the CVE Program)");
	if (!matches(
		    "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-4[0-9A-Fa-f]{3}-[89ABab][0-9A-Fa-f]{3}-[0-9A-Fa-f]{12}$",
		    a.org))
		return err_setc(
			err, ERR_INVALID,
			"config cve.org_id '%s' is not a version 4 UUID",
			a.org);
	for (size_t i = 0; i < n; i++)
		if (cve_refuse_incomplete(d[i], o, err) < 0)
			return err->code;
	return advisory_write_json(sess, out, d, n, "CVE record", cve_record_of,
				   &a, err);
}

const struct exporter export_cve_entry = {
	"cve",
	"json",
	"a CVE JSON 5 record",
	"a CVE JSON 5 record per CVE ID (several: an array), refused while a "
	"report is under embargo, without a CVE ID and without `cve.org_id`; "
	"each ID's record gives the fixes it covers (`cve --assign ID --fix "
	"SHA`, default every fix); `--cve-id` picks one of the report's IDs, "
	"or names the record of a report without one; REJECTED for a rejected ID, else "
	"PUBLISHED (writing it changes nothing: `cve ID --publish` records "
	"that it was published), as the kernel CNA's "
	"bippy writes it: the fix commit's subject as the title, the affected "
	"ranges of each fix from `fix` (git commits and tag versions, the release the fix "
	"is first in as original_commit_for_fix), cpeApplicability, "
	"x_generator, the fix commits as references, the `cve --description`, "
	"`--cwe` with its catalogue name and `--cvss` with its base score and "
	"rationale (metrics); `cve.org_id`, "
	"`cve.reference_url`, `cve.repo`, `cve.stable_repo` (the repository "
	"named when a backport is), `cve.commit_url`.",
	export_cve_write,
	NULL,
};
