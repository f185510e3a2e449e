/*
 * The OSV export: one OSV record (schema 1.6) per CVE ID of a report,
 * with the fixes that ID covers (fixcve.h: every fix unless `cve --assign
 * --fix` names some), valid against osv-schema.json; several give a
 * JSON array.  Refused while a
 * report is under embargo (advisory.c), and for a report with no CVE ID
 * (an OSV id is a registered database's: ours is the CVE ID) or no fix
 * to give the affected versions from (an OSV record without ranges says
 * nothing a scanner can use).
 *   id          the CVE ID (`cve --assign`)
 *   modified    now; published: when it was disclosed; withdrawn: now, for
 *               a rejected CVE ID
 *   summary     the record's title (advisory_title: the fix commit's
 *               subject, as the CVE record's); details: the description
 *   affected    as osv.dev writes Linux entries, read by OSV's rules (a
 *               version is affected when any range says so): an entry
 *               without a package holding one GIT range per fix, in the
 *               repository that holds every SHA it names (config
 *               cve.stable_repo when a backport or a stable copy of an
 *               introducing commit is, else cve.repo): introduced each
 *               commit the bug entered a line of development with (the
 *               introducing commit, its stable copies; else 0), fixed
 *               the fix and each backport, full SHAs only (a fix
 *               recorded unchecked with a short SHA gets no GIT range);
 *               then package Linux/Kernel with an ECOSYSTEM range per
 *               affected span of releases (affected_spans: each stable
 *               series searched cut out of the mainline's), versions
 *               as the ecosystem writes them (1.2 as 1.2.0, no -rc)
 *   severity    `cve --cvss`, when given: CVSS_V3 and its vector (top
 *               level: the score is the record's, every entry's)
 *   references  FIX: each fix commit; ADVISORY: cve.reference_url
 *   credits     the reporter, FINDER, only with credit consent
 *   database_specific  {"cwe_ids": [...]} when a CWE is given
 */
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

static bool full_sha(const char *s)
{
	return s && strlen(s) == 40 && fix_sha_valid(s);
}

static void add_event(json_t *ev, const char *key, const char *v)
{
	json_t *e = json_pack("{s:s}", key, v);
	size_t j;
	json_t *x;

	json_array_foreach(ev, j, x) if (json_equal(x, e))
	{
		json_decref(e);
		return;
	}
	json_array_append_new(ev, e);
}

/* Fix f's GIT range, read by OSV's rule (a commit is affected when it
 * descends from an introduced one and from no fixed one): introduced
 * each commit the bug entered a line with (the mainline one, its
 * copies on stable branches; "0" when none is known), fixed the fix and
 * each backport; full SHAs only. */
static json_t *git_range(struct session *sess, const struct fixcve *fc,
			 const struct fix_entry *f, bool *stable)
{
	struct affected_line *l;
	size_t n = affected_lines(fc, f, &l);
	json_t *ev = json_array(), *fixed = json_array();

	for (size_t i = 0; i < n; i++) {
		const char *in = l[i].in ? l[i].in->sha : "0";
		if (full_sha(in) || !strcmp(in, "0"))
			add_event(ev, "introduced", in);
		if (l[i].branch && (l[i].out || !l[i].inherited))
			*stable = true;
	}
	if (!json_array_size(ev))
		add_event(ev, "introduced", "0");
	add_event(fixed, "fixed", f->fix.sha);
	for (size_t b = 0; b < f->nbackports; b++)
		if (full_sha(f->backports[b].sha))
			add_event(fixed, "fixed", f->backports[b].sha);
	json_array_extend(ev, fixed);
	json_decref(fixed);
	free(l);
	(void)sess;
	return json_pack("{s:s, s:o}", "type", "GIT", "events", ev);
}

/* A version as osv.dev writes the Linux ecosystem's: releases only, a
 * mainline one as X.Y.0 (an -rc stands for the release it leads to);
 * "0" stays (caller frees). */
static char *eco_version(const char *v)
{
	char *r = version_release(v), *dot = strchr(r, '.'), *t;

	if (!strcmp(r, "0") || !dot || strchr(dot + 1, '.'))
		return r;
	t = xasprintf("%s.0", r);
	free(r);
	return t;
}

/* The affected spans of the versions (affected_spans: each stable
 * series searched cut out of the mainline's) as ECOSYSTEM ranges, one
 * per span, so that by OSV's rule (a version is affected when any range
 * says so) no fixed release comes out affected.  A span that holds no
 * release (within one release's -rcs) gives none. */
static void eco_ranges(const struct fixcve *fc, json_t *ranges)
{
	struct affected_span *s;
	size_t n = affected_spans(fc, &s);

	for (size_t i = 0; i < n; i++) {
		char *in, *out;
		json_t *ev;
		if (s[i].status != VS_AFFECTED)
			continue;
		in = eco_version(s[i].from);
		out = s[i].to ? eco_version(s[i].to) : NULL;
		if (out && strcmp(in, "0") && ktree_version_cmp(in, out) >= 0) {
			free(in);
			free(out);
			continue;
		}
		ev = json_pack("[{s:s}]", "introduced", in);
		if (out)
			json_array_append_new(ev,
					      json_pack("{s:s}", "fixed", out));
		json_array_append_new(ranges,
				      json_pack("{s:s, s:o}", "type",
						"ECOSYSTEM", "events", ev));
		free(in);
		free(out);
	}
	affected_spans_free(s, n);
}

/* As osv.dev writes a Linux entry: the GIT ranges alone (no package:
 * a repository is no ecosystem's package), then the package
 * Linux/Kernel with its ECOSYSTEM ranges. */
static json_t *affected(struct session *sess, const struct fixcve *fc)
{
	json_t *git = json_array(), *eco = json_array(), *a = json_array();
	bool stable = false;

	for (size_t k = 0; k < fc->nfixes; k++)
		if (full_sha(fc->fixes[k].fix.sha))
			json_array_append_new(git,
					      git_range(sess, fc, &fc->fixes[k],
							&stable));
	for (size_t i = 0; i < json_array_size(git); i++)
		json_object_set_new(
			json_array_get(git, i), "repo",
			json_string(stable ? advisory_stable_repo(sess)
					   : advisory_repo(sess)));
	if (json_array_size(git))
		json_array_append_new(a, json_pack("{s:o}", "ranges", git));
	else
		json_decref(git);
	if (affected_versions_known(fc))
		eco_ranges(fc, eco);
	if (json_array_size(eco))
		json_array_append_new(
			a,
			json_pack("{s:{s:s, s:s}, s:o}", "package", "ecosystem",
				  "Linux", "name", "Kernel", "ranges", eco));
	else
		json_decref(eco);
	return a;
}

static json_t *references(struct session *sess, const struct dossier *d,
			  const struct fixcve *fc)
{
	json_t *a = json_array();
	char *url;

	for (size_t k = 0; k < fc->nfixes; k++) {
		const struct fix_entry *f = &fc->fixes[k];
		for (size_t b = 0; b <= f->nbackports; b++) {
			url = advisory_commit_url(sess,
						  b < f->nbackports
							  ? f->backports[b].sha
							  : f->fix.sha);
			json_array_append_new(a,
					      json_pack("{s:s, s:s}", "type",
							"FIX", "url", url));
			free(url);
		}
	}
	url = advisory_reference_url(sess, d->f.r.id, fc->cves[0].id);
	json_array_append_new(
		a, json_pack("{s:s, s:s}", "type", "ADVISORY", "url", url));
	free(url);
	return a;
}

/* The record of fc, a view of one CVE ID (fixcve_view). */
static json_t *osv_record(struct session *sess, const struct dossier *d,
			  const struct fixcve *fc)
{
	char *id = xstrdup(fc->cves[0].id);
	char *summary = advisory_title(d, fc),
	     *details = advisory_description(d, fc);
	char *who = advisory_credit(d), b[32];
	json_t *cvss,
		*o = json_pack("{s:s, s:s, s:s}", "schema_version", "1.6.0",
			       "id", id, "modified", fmt_rfc3339(d->now, b));

	if (dossier_released_at(d))
		json_object_set_new(
			o, "published",
			json_string(fmt_rfc3339(dossier_released_at(d), b)));
	if (!strcmp(fc->cves[0].state, "rejected"))
		json_object_set_new(o, "withdrawn",
				    json_string(fmt_rfc3339(d->now, b)));
	json_object_set_new(o, "summary", json_text(summary));
	json_object_set_new(o, "details", json_text(details));
	if (fc->cvss && (cvss = advisory_cvss(fc))) {
		json_object_set_new(
			o, "severity",
			json_pack("[{s:s, s:O}]", "type", "CVSS_V3", "score",
				  json_object_get(cvss, "vectorString")));
		json_decref(cvss);
	}
	json_object_set_new(o, "affected", affected(sess, fc));
	json_object_set_new(o, "references", references(sess, d, fc));
	if (who)
		json_object_set_new(o, "credits",
				    json_pack("[{s:s, s:s}]", "name", who,
					      "type", "FINDER"));
	if (fc->cwe)
		json_object_set_new(o, "database_specific",
				    json_pack("{s:[s]}", "cwe_ids", fc->cwe));
	free(id);
	free(summary);
	free(details);
	free(who);
	return o;
}

/* One record per CVE ID, each with the fixes it covers (an array for
 * several), with a warning for a fix that cannot make a GIT range. */
static json_t *osv_checked(struct session *sess, const struct dossier *d,
			   const struct fixcve *fc, void *arg)
{
	const struct export_opts *o = arg;
	json_t *all = json_array(), *one;

	for (size_t k = 0; k < fc->nfixes; k++)
		if (!full_sha(fc->fixes[k].fix.sha))
			fprintf(o->warn,
				"warning: report %lld: the fix %s is not a full SHA (recorded without a tree): no GIT range\n",
				(long long)d->f.r.id, fc->fixes[k].fix.sha);
	for (size_t i = 0; i < fc->ncves; i++) {
		struct fixcve view;
		fixcve_view(fc, &fc->cves[i], &view);
		json_array_append_new(all, osv_record(sess, d, &view));
		fixcve_release(&view);
	}
	if (json_array_size(all) != 1)
		return all;
	one = json_incref(json_array_get(all, 0));
	json_decref(all);
	return one;
}

/* ERR_REFUSED naming the report when it has no CVE ID or no version
 * range to give (no fix, or one recorded without a tree and with a short
 * SHA); 0 when its record can be written. */
static int osv_refuse_incomplete(const struct dossier *d, struct err *err)
{
	struct fixcve fc;
	long long id = (long long)d->f.r.id;
	int r = 0;

	fixcve_fold(d->f.events, d->f.nevents, &fc);
	if (!fc.ncves)
		r = err_setc(
			err, ERR_REFUSED,
			"report %lld has no CVE ID: an OSV record's id is its CVE ID (cve %lld --assign CVE-YYYY-NNNN)",
			id, id);
	else if (!fc.nfixes)
		r = err_setc(
			err, ERR_REFUSED,
			"report %lld has no fix recorded: an OSV record needs the affected versions (fix %lld --commit SHA --tree GITDIR)",
			id, id);
	for (size_t i = 0; r == 0 && fc.nfixes && i < fc.ncves; i++) {
		const struct cve_entry *c = &fc.cves[i];
		size_t n = 0;
		for (size_t k = 0; k < fc.nfixes; k++)
			n += fixcve_covers(c, fc.fixes[k].fix.sha);
		if (!n)
			r = err_setc(
				err, ERR_REFUSED,
				"report %lld: %s covers none of its fixes (those it named were dropped): an OSV record needs the affected versions (cve %lld --assign %s --fix SHA)",
				id, c->id, id, c->id);
	}
	for (size_t k = 0; r == 0 && k < fc.nfixes; k++) {
		const struct fix_commit *f = &fc.fixes[k].fix;
		if (!full_sha(f->sha) && !f->tag)
			r = err_setc(
				err, ERR_REFUSED,
				"report %lld: the fix %s was recorded without a tree (a short SHA, no tag): an OSV record needs the affected versions (fix %lld --commit SHA --tree GITDIR)",
				id, f->sha, id);
	}
	fixcve_release(&fc);
	return r;
}

static int export_osv_write(struct session *sess, FILE *out,
			    struct dossier *const *d, size_t n,
			    const struct export_opts *o, struct err *err)
{
	(void)o;
	if (advisory_refuse_unreleased(d, n, "OSV record", err) < 0)
		return err->code;
	for (size_t i = 0; i < n; i++)
		if (osv_refuse_incomplete(d[i], err) < 0)
			return err->code;
	return advisory_write_json(sess, out, d, n, "OSV record", osv_checked,
				   (void *)o, err);
}

const struct exporter export_osv_entry = {
	"osv",
	"json",
	"an OSV record",
	"an OSV record per CVE ID (several: an array), refused while a report is "
	"under embargo and for a report without a CVE ID or a fix: the CVE ID as "
	"its id, the fix's subject as its summary; as osv.dev writes Linux "
	"entries, for each fix the ID covers a GIT range from `fix` without a "
	"package, in the repository that holds its commits (`cve.stable_repo` "
	"when a stable-only commit is named, else `cve.repo`), and Linux/Kernel "
	"ECOSYSTEM ranges of releases (X.Y written X.Y.0), each stable series "
	"searched on its own, so that by OSV's rules no fixed release is "
	"affected; the `cve --cvss` vector as its severity (CVSS_V3), the fix "
	"commits as FIX references, credits only with consent.",
	export_osv_write,
	NULL,
};
