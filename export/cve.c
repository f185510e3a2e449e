/*
 * The CVE JSON 5 export: one CVE record (dataVersion 5.1) per CVE ID of
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
 *                 else the report's subject
 *   affected      vendor/product "Linux", the public files
 *                 (dossier_public_files) as programFiles, the repository
 *                 that holds every SHA named (config cve.stable_repo when
 *                 a backport is, else cve.repo).  With a fix recorded
 *                 (`fix`), as the kernel CNA's bippy writes them, for
 *                 each fix (a version is affected when any entry says
 *                 so: it lacks one of the fixes, affected.h): one
 *                 entry of git ranges
 *                 (each of the bug's introducing commits, those any fix
 *                 names, lessThan the fix and each
 *                 backport; "0" when no introducing commit is known,
 *                 defaultStatus unaffected), one of versions from the
 *                 tags (defaultStatus affected: the introducing version
 *                 affected, "0" lessThan it unaffected, each backport
 *                 lessThanOrEqual its series ("1.0.*"), the release the
 *                 fix is first in (1.1 for a fix in 1.1-rc1)
 *                 lessThanOrEqual "*" as original_commit_for_fix).
 *                 Without a fix, defaultStatus "unknown".
 *   cpeApplicability  the kernel's CPE, vulnerable from each range's
 *                 first release to the release that fixes it
 *                 (affected_ranges), with a fix tag
 *   x_generator   {"engine": "secteam-tui-VERSION"}
 *   descriptions  `cve --description` (redacted), else the subject
 *   problemTypes  `cve --cwe`, when given, with its catalogue name
 *                 (cwe_name; an ID the catalogue lacks is refused)
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

/* The bug's introducing commits: those every fix of fc names, each
 * once (*n of them; the array is the caller's, its commits fc's). */
static const struct fix_commit **bug_introduced(const struct fixcve *fc, size_t *n)
{
	size_t max = 1;
	const struct fix_commit **v;

	for (size_t k = 0; k < fc->nfixes; k++)
		max += fc->fixes[k].nintroduced;
	v = xcalloc(max, sizeof(*v));
	*n = 0;
	for (size_t k = 0; k < fc->nfixes; k++)
		for (size_t i = 0; i < fc->fixes[k].nintroduced; i++) {
			const struct fix_commit *c = &fc->fixes[k].introduced[i];
			size_t j = 0;
			while (j < *n && strcmp(v[j]->sha, c->sha))
				j++;
			if (j == *n)
				v[(*n)++] = c;
		}
	return v;
}

/* Fix f's git ranges: from each of the bug's introducing commits to the
 * fix and to each backport. */
static json_t *git_versions(const struct fix_entry *f, const struct fix_commit **intro,
			    size_t nintro)
{
	json_t *a = json_array();
	size_t ni = nintro ? nintro : 1;

	for (size_t i = 0; i < ni; i++) {
		const char *in = nintro ? intro[i]->sha : "0";
		for (size_t b = 0; b < f->nbackports; b++)
			json_array_append_new(a, ver(in, "lessThan", f->backports[b].sha,
						     "affected", "git"));
		json_array_append_new(a, ver(in, "lessThan", f->fix.sha, "affected", "git"));
	}
	return a;
}

/* "1.0.1" gives "1.0.*": the stable series a backport fixes. */
static char *series(const char *v)
{
	const char *dot = strchr(v, '.');
	const char *dot2 = dot ? strchr(dot + 1, '.') : NULL;

	return dot2 ? xasprintf("%.*s.*", (int)(dot2 - v), v) : xasprintf("%s.*", v);
}

/* Fix f's versions from the tags (from the bug's introducing commits),
 * as the kernel CNA writes them; an empty array when no tag is known. */
static json_t *semver_versions(const struct fix_entry *f, const struct fix_commit **intro,
			       size_t nintro)
{
	json_t *a = json_array();

	for (size_t i = 0; i < nintro; i++) {
		const char *v = fix_version(intro[i]->tag);
		if (!v)
			continue;
		json_array_append_new(a, ver(v, NULL, NULL, "affected", NULL));
		json_array_append_new(a, ver("0", "lessThan", v, "unaffected", "semver"));
	}
	for (size_t b = 0; b < f->nbackports; b++) {
		const char *v = fix_version(f->backports[b].tag);
		char *ser;
		if (!v)
			continue;
		ser = series(v);
		json_array_append_new(a, ver(v, "lessThanOrEqual", ser, "unaffected", "semver"));
		free(ser);
	}
	if (f->fix.tag) {
		char *rel = version_release(fix_version(f->fix.tag));
		json_array_append_new(a, ver(rel, "lessThanOrEqual", "*", "unaffected",
					     "original_commit_for_fix"));
		free(rel);
	}
	return a;
}

static json_t *product(struct session *sess, const struct fixcve *fc, json_t *files,
		       const char *status, json_t *versions)
{
	json_t *p = json_pack("{s:s, s:s, s:s, s:s}", "vendor", "Linux",
			      "product", "Linux", "repo", advisory_git_repo(sess, fc),
			      "defaultStatus", status);

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
	size_t npf = dossier_public_files(sess, d, &pf), nin;
	const struct fix_commit **in = bug_introduced(fc, &nin);

	for (size_t i = 0; i < npf; i++) {
		json_array_append_new(files, bounded(pf[i], 1024, "-"));
		free(pf[i]);
	}
	free(pf);
	if (!fc->nfixes)
		json_array_append_new(a, product(sess, fc, files, "unknown", NULL));
	/* Each fix its own entries: a version is affected when any says so
	 * (it lacks one of the fixes, affected_ranges). */
	for (size_t k = 0; k < fc->nfixes; k++)
		json_array_append_new(a, product(sess, fc, files, "unaffected",
						 git_versions(&fc->fixes[k], in, nin)));
	for (size_t k = 0; k < fc->nfixes; k++) {
		sv = semver_versions(&fc->fixes[k], in, nin);
		if (json_array_size(sv))
			json_array_append_new(a, product(sess, fc, files, "affected", sv));
		else
			json_decref(sv);
	}
	json_decref(files);
	free(in);
	return a;
}

/* The kernel's CPE, vulnerable over each range of releases: from a
 * range's first release to the release that fixes it (as
 * original_commit_for_fix, an -rc counts as its release); NULL without
 * a fix tag. */
static json_t *cpe_applicability(const struct fixcve *fc)
{
	struct affected_range *r;
	size_t n = affected_ranges(fc, &r);
	json_t *m = json_array();

	for (size_t i = 0; affected_versions_known(fc) && i < n; i++) {
		char *in = version_release(r[i].introduced);
		char *end = version_release(r[i].fixed);
		json_t *e = json_pack("{s:b, s:s}", "vulnerable", 1, "criteria", KERNEL_CPE);
		if (strcmp(in, "0"))
			json_object_set_new(e, "versionStartIncluding", json_string(in));
		json_object_set_new(e, "versionEndExcluding", json_string(end));
		if (strcmp(in, end))
			json_array_append_new(m, e);
		else
			json_decref(e);
		free(in);
		free(end);
	}
	affected_ranges_free(r, n);
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
			const char *sha = b < f->nbackports ? f->backports[b].sha : f->fix.sha;
			char *url = advisory_commit_url(sess, sha);
			json_array_append_new(a, json_pack("{s:s}", "url", url));
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
	json_t *rec = json_pack("{s:s, s:s, s:{s:s, s:s, s:s}, s:{s:{s:{s:s}, s:[{s:s, s:o}]}}}",
		"dataType", "CVE_RECORD", "dataVersion", "5.1",
		"cveMetadata", "cveId", cve_id, "assignerOrgId", org, "state", "REJECTED",
		"containers", "cna", "providerMetadata", "orgId", org,
		"rejectedReasons", "lang", "en", "value", bounded(why, 4096, "rejected"));

	free(why);
	return rec;
}

static json_t *record(struct session *sess, const struct dossier *d,
		      const struct fixcve *fc, const char *cve_id, const char *org)
{
	const struct report *r = &d->f.r;
	const char *base = config_get(sess->cfg, "cve.reference_url", DEFAULT_REFERENCE);
	char *ref = str_ends(base, "/") ? xasprintf("%s%s", base, cve_id) : xstrdup(base);
	char *subject = dossier_text(d, r->subject);
	char *who = r->consent_credit && r->reporter_name && *r->reporter_name ?
		xstrdup(r->reporter_name) : dossier_reporter(d);
	json_t *cna, *meta, *cpe = cpe_applicability(fc);

	cna = json_pack("{s:{s:s}, s:o, s:[{s:s, s:o}], s:o, s:o}",
			"providerMetadata", "orgId", org,
			"title", bounded(fc->nfixes && fc->fixes[0].fix.subject ?
					 fc->fixes[0].fix.subject : subject, 256,
					 "Linux kernel vulnerability"),
			"descriptions", "lang", "en", "value", description(d, fc, subject),
			"affected", affected(sess, d, fc),
			"references", references(sess, fc, ref));
	if (cpe)
		json_object_set_new(cna, "cpeApplicability", cpe);
	if (fc->cwe && cwe_name(fc->cwe))
		json_object_set_new(cna, "problemTypes", json_pack(
			"[{s:[{s:s, s:s, s:s++, s:s}]}]", "descriptions", "lang", "en",
			"cweId", fc->cwe, "description", fc->cwe, " ", cwe_name(fc->cwe),
			"type", "CWE"));
	if (who) {
		char *w = safe_str(who);
		json_object_set_new(cna, "credits", json_pack("[{s:s, s:o, s:s}]",
			"lang", "en", "value", bounded(w, 4096, "reporter"),
			"type", "finder"));
		free(w);
	}
	if (dossier_released_at(d)) {
		char b[32];
		json_object_set_new(cna, "datePublic",
				    json_string(fmt_rfc3339(dossier_released_at(d), b)));
	}
	json_object_set_new(cna, "x_generator",
			    json_pack("{s:s}", "engine", "secteam-tui-" SECTEAM_VERSION));
	meta = json_pack("{s:s, s:s, s:s}", "cveId", cve_id, "assignerOrgId", org,
			 "state", "PUBLISHED");
	free(subject);
	free(who);
	free(ref);
	return json_pack("{s:s, s:s, s:o, s:{s:o}}", "dataType", "CVE_RECORD",
			 "dataVersion", "5.1", "cveMetadata", meta,
			 "containers", "cna", cna);
}

/* ERR_REFUSED naming the report when it has no CVE ID (and --cve-id
 * names none), ERR_INVALID naming a recorded CWE the catalogue lacks. */
static int cve_refuse_incomplete(const struct dossier *d, const struct export_opts *o,
				 struct err *err)
{
	struct fixcve fc;
	long long id = (long long)d->f.r.id;
	int r = 0;

	fixcve_fold(d->f.events, d->f.nevents, &fc);
	if (!o->cve_id && !fc.ncves)
		r = err_setc(err, ERR_REFUSED,
			     "report %lld has no CVE ID: no record without one (cve %lld --assign CVE-YYYY-NNNN, or --cve-id)",
			     id, id);
	else if (fc.cwe && !cwe_name(fc.cwe))
		r = err_setc(err, ERR_INVALID,
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
	const struct cve_entry *c = a->o->cve_id ? fixcve_cve(fc, a->o->cve_id) : NULL;
	json_t *all;

	if (c)
		return one_record(sess, d, fc, c, a->org);
	if (a->o->cve_id)
		return record(sess, d, fc, a->o->cve_id, a->org);
	if (fc->ncves == 1)
		return one_record(sess, d, fc, &fc->cves[0], a->org);
	all = json_array();
	for (size_t i = 0; i < fc->ncves; i++)
		json_array_append_new(all, one_record(sess, d, fc, &fc->cves[i], a->org));
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
		return err_setc(err, ERR_INVALID,
				"config cve.org_id is not set: a CVE record names its CNA by that UUID (the CNA's, from the CVE Program)");
	if (!matches("^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-4[0-9A-Fa-f]{3}-[89ABab][0-9A-Fa-f]{3}-[0-9A-Fa-f]{12}$", a.org))
		return err_setc(err, ERR_INVALID,
				"config cve.org_id '%s' is not a version 4 UUID", a.org);
	for (size_t i = 0; i < n; i++)
		if (cve_refuse_incomplete(d[i], o, err) < 0)
			return err->code;
	return advisory_write_json(sess, out, d, n, "CVE record",
				   cve_record_of, &a, err);
}

const struct exporter export_cve_entry = {
	"cve", "json", "a CVE JSON 5 record",
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
	"x_generator, the fix commits as references, the `cve --description` "
	"and `--cwe` with its catalogue name; `cve.org_id`, "
	"`cve.reference_url`, `cve.repo`, `cve.stable_repo` (the repository "
	"named when a backport is), `cve.commit_url`.",
	export_cve_write, NULL,
};
