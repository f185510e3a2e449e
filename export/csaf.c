/*
 * The CSAF export: a CSAF 2.0 csaf_security_advisory document per report
 * (several: a JSON array), valid against csaf_json_schema.json.  Refused
 * while a report is under embargo (advisory.c).
 *   document.publisher  coordinator; config csaf.publisher (else "Linux
 *                       kernel security team"), csaf.namespace (else
 *                       https://TEAM.DOMAIN, else https://www.kernel.org)
 *   document.tracking   id: the CVE ID, else secteam-N; the revision
 *                       history from the timeline: the moment it was disclosed is
 *                       revision 1, then each later moment the fix or CVE
 *                       changed (its events' kinds as the summary)
 *   product_tree        vendor Linux > product Linux kernel > a version
 *                       per tag known: the introducing versions, the
 *                       fix's, each backport's (product_id linux-VERSION);
 *                       "linux" (the kernel, versions unknown) without tags
 *   vulnerabilities     cve, cwe, the description as a note, product_status
 *                       known_affected / fixed, a vendor_fix remediation
 *                       per fix commit, the fix commits as references
 *   acknowledgments     the reporter, only with credit consent
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/core.h"
#include "export/export.h"
#include "core/fixcve.h"
#include "core/json.h"

static void add_version(json_t *branches, const char *tag)
{
	const char *v = fix_version(tag);
	char *name = xasprintf("Linux kernel %s", v), *id = xasprintf("linux-%s", v);

	json_array_append_new(branches, json_pack("{s:s, s:s, s:{s:s, s:s}}",
		"category", "product_version", "name", v, "product",
		"name", name, "product_id", id));
	free(name);
	free(id);
}

static json_t *product_tree(const struct fixcve *fc)
{
	json_t *v = json_array();

	for (size_t i = 0; i < fc->nintroduced; i++)
		if (fc->introduced[i].tag)
			add_version(v, fc->introduced[i].tag);
	if (fc->has_fix && fc->fix.tag)
		add_version(v, fc->fix.tag);
	for (size_t b = 0; b < fc->nbackports; b++)
		if (fc->backports[b].tag)
			add_version(v, fc->backports[b].tag);
	if (!json_array_size(v)) {
		json_decref(v);
		return json_pack("{s:[{s:s, s:s, s:[{s:s, s:s, s:{s:s, s:s}}]}]}", "branches",
				 "category", "vendor", "name", "Linux", "branches",
				 "category", "product_name", "name", "Linux kernel",
				 "product", "name", "Linux kernel", "product_id", "linux");
	}
	return json_pack("{s:[{s:s, s:s, s:[{s:s, s:s, s:o}]}]}", "branches",
			 "category", "vendor", "name", "Linux", "branches",
			 "category", "product_name", "name", "Linux kernel", "branches", v);
}

static json_t *pid(const char *tag)
{
	char *id = xasprintf("linux-%s", fix_version(tag));
	json_t *j = json_string(id);

	free(id);
	return j;
}

static json_t *product_status(const struct fixcve *fc)
{
	json_t *aff = json_array(), *fixed = json_array(), *st = json_object();

	for (size_t i = 0; i < fc->nintroduced; i++)
		if (fc->introduced[i].tag)
			json_array_append_new(aff, pid(fc->introduced[i].tag));
	if (fc->has_fix && fc->fix.tag)
		json_array_append_new(fixed, pid(fc->fix.tag));
	for (size_t b = 0; b < fc->nbackports; b++)
		if (fc->backports[b].tag)
			json_array_append_new(fixed, pid(fc->backports[b].tag));
	if (!json_array_size(aff) && !json_array_size(fixed))
		json_array_append_new(aff, json_string("linux"));
	if (json_array_size(aff))
		json_object_set(st, "known_affected", aff);
	if (json_array_size(fixed))
		json_object_set(st, "fixed", fixed);
	json_decref(aff);
	json_decref(fixed);
	return st;
}

static json_t *remediation(struct session *sess, const struct fix_commit *c,
			   const char *what)
{
	char *url = advisory_commit_url(sess, c->sha);
	char *details = xasprintf("%s: commit %s%s%s", what, c->sha,
				  c->tag ? ", first in " : "", c->tag ? c->tag : "");
	json_t *r = json_pack("{s:s, s:s, s:s, s:[o]}", "category", "vendor_fix",
			      "details", details, "url", url, "product_ids",
			      c->tag ? pid(c->tag) : json_string("linux"));

	free(url);
	free(details);
	return r;
}

static json_t *vulnerability(struct session *sess, const struct dossier *d,
			     const struct fixcve *fc)
{
	char *desc = advisory_description(d, fc), *ref = advisory_reference_url(sess, d->f.r.id, fc->cve_id);
	json_t *v = json_object(), *rem = json_array(), *refs = json_array();

	if (fc->cve_id)
		json_object_set_new(v, "cve", json_string(fc->cve_id));
	if (fc->cwe)
		json_object_set_new(v, "cwe", json_pack("{s:s, s:s}", "id", fc->cwe,
							"name", fc->cwe));
	json_object_set_new(v, "notes", json_pack("[{s:s, s:s, s:o}]", "category",
		"description", "title", "Description", "text", json_text(desc)));
	json_object_set_new(v, "product_status", product_status(fc));
	if (fc->has_fix) {
		json_array_append_new(rem, remediation(sess, &fc->fix, "Fixed upstream"));
		for (size_t b = 0; b < fc->nbackports; b++) {
			char *what = xasprintf("Backported to %s", fc->backports[b].branch);
			json_array_append_new(rem, remediation(sess, &fc->backports[b], what));
			free(what);
		}
		for (size_t b = 0; b <= fc->nbackports; b++) {
			const char *sha = b < fc->nbackports ? fc->backports[b].sha : fc->fix.sha;
			char *url = advisory_commit_url(sess, sha), *sum = xasprintf("commit %s", sha);
			json_array_append_new(refs, json_pack("{s:s, s:s, s:s}", "category",
				"external", "summary", sum, "url", url));
			free(url);
			free(sum);
		}
	}
	if (json_array_size(rem))
		json_object_set(v, "remediations", rem);
	json_array_append_new(refs, json_pack("{s:s, s:s, s:s}", "category", "self",
					      "summary", "the advisory", "url", ref));
	json_object_set_new(v, "references", refs);
	json_decref(rem);
	free(desc);
	free(ref);
	return v;
}

/* One revision per moment the advisory changed: the disclosure, then
 * each later time a fix or CVE event (other than cve-publish) was
 * recorded.  Returns how many; *last gets the last one's time. */
static json_t *revisions(const struct dossier *d, time_t *last)
{
	json_t *h = json_array();
	char b[32], num[24];
	time_t at = dossier_released_at(d) ? dossier_released_at(d) : d->now;
	int n = 1;

	json_array_append_new(h, json_pack("{s:s, s:s, s:s}", "date", fmt_rfc3339(at, b),
					   "number", "1", "summary", "Initial public release"));
	*last = at;
	for (size_t i = 0; i < d->f.nevents; i++) {
		const struct event *e = &d->f.events[i];
		if (e->at <= *last || !strcmp(e->kind, "cve-publish") ||
		    !(str_starts(e->kind, "fix") || str_starts(e->kind, "cve-")))
			continue;
		snprintf(num, sizeof(num), "%d", ++n);
		json_array_append_new(h, json_pack("{s:s, s:s, s:s+}", "date",
			fmt_rfc3339(e->at, b), "number", num, "summary", "Updated: ", e->kind));
		*last = e->at;
	}
	return h;
}

static json_t *tracking(const struct dossier *d, const struct fixcve *fc)
{
	time_t last;
	json_t *h = revisions(d, &last);
	char b1[32], b2[32], ver[24];
	char *id = fc->cve_id ? xstrdup(fc->cve_id) : xasprintf("secteam-%lld", (long long)d->f.r.id);
	json_t *t;

	snprintf(ver, sizeof(ver), "%zu", json_array_size(h));
	t = json_pack("{s:s, s:s, s:s, s:s, s:o, s:s, s:{s:{s:s}}}", "id", id,
		      "status", "final", "version", ver,
		      "initial_release_date",
		      fmt_rfc3339(dossier_released_at(d) ? dossier_released_at(d) : d->now, b1),
		      "revision_history", h, "current_release_date", fmt_rfc3339(last, b2),
		      "generator", "engine", "name", "secteam-tui");
	free(id);
	return t;
}

static json_t *document(struct session *sess, const struct dossier *d,
			const struct fixcve *fc)
{
	const char *dom = config_get(sess->cfg, "team.domain", NULL);
	char *ns = dom ? xasprintf("https://%s", dom) : xstrdup("https://www.kernel.org");
	char *title = dossier_text(d, d->f.r.subject), *desc = advisory_description(d, fc);
	char *who = advisory_credit(d), *ref = advisory_reference_url(sess, d->f.r.id, fc->cve_id);
	json_t *doc = json_pack("{s:s, s:s, s:s, s:{s:s, s:s, s:s}, s:o, s:[{s:s, s:s, s:o}], s:[{s:s, s:s, s:s}], s:o}",
		"category", "csaf_security_advisory", "csaf_version", "2.0", "lang", "en",
		"publisher", "category", "coordinator",
		"name", config_get(sess->cfg, "csaf.publisher", "Linux kernel security team"),
		"namespace", config_get(sess->cfg, "csaf.namespace", ns),
		"title", json_text(*title ? title : "Linux kernel vulnerability"),
		"notes", "category", "summary", "title", "Summary", "text", json_text(desc),
		"references", "category", "self", "summary", "the advisory", "url", ref,
		"tracking", tracking(d, fc));

	if (who)
		json_object_set_new(doc, "acknowledgments", json_pack("[{s:[s]}]", "names", who));
	free(ns);
	free(title);
	free(desc);
	free(who);
	free(ref);
	return doc;
}

static json_t *csaf_advisory(struct session *sess, const struct dossier *d,
			     const struct fixcve *fc, void *arg)
{
	(void)arg;
	return json_pack("{s:o, s:o, s:[o]}", "document", document(sess, d, fc),
			 "product_tree", product_tree(fc),
			 "vulnerabilities", vulnerability(sess, d, fc));
}

static int export_csaf_write(struct session *sess, FILE *out,
			     struct dossier *const *d, size_t n,
			     const struct export_opts *o, struct err *err)
{
	(void)o;
	if (advisory_refuse_unreleased(d, n, "CSAF advisory", err) < 0)
		return err->code;
	return advisory_write_json(sess, out, d, n, "CSAF advisory",
				   csaf_advisory, NULL, err);
}

const struct exporter export_csaf_entry = {
	"csaf", "json", "a CSAF 2.0 security advisory",
	"a CSAF 2.0 `csaf_security_advisory` (several: an array), refused while "
	"a report is under embargo: the kernel versions from `fix` in the "
	"product tree, known_affected and fixed, a vendor_fix remediation per "
	"fix commit, the revision history from the timeline; `csaf.publisher`, "
	"`csaf.namespace` (else https://`team.domain`).",
	export_csaf_write, NULL,
};
