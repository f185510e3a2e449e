/*
 * The CSAF export: a CSAF 2.0 csaf_security_advisory document per report
 * (several: a JSON array), valid against csaf_json_schema.json and
 * passing every mandatory test of the CSAF validator library, and its
 * recommended tests where the data exist (tests/lib/csaf-validate.mjs).
 * Refused while a report is under embargo (advisory.c).  Keys sorted
 * (test 6.2.13).
 *   document.publisher  config csaf.publisher_category (default
 *                       coordinator); config csaf.publisher (else "Linux
 *                       kernel security team"), csaf.namespace (else
 *                       https://TEAM.DOMAIN, else https://www.kernel.org)
 *   document.distribution  the TLP label, config csaf.tlp (default
 *                       CLEAR, written WHITE: CSAF 2.0 uses TLP 1.0's
 *                       names; GREEN, AMBER, RED)
 *   document.references self: the canonical URL, config csaf.base_url
 *                       and the file name of the tracking id (none
 *                       without it); external: the advisory's page
 *   document.tracking   id: the CVE ID, else secteam-N; the revision
 *                       history from the timeline: the moment it was disclosed is
 *                       revision 1, then each later moment the fix or CVE
 *                       changed (its events' kinds as the summary)
 *   product_tree        vendor Linux > product Linux kernel > a
 *                       product_version_range per span of versions of
 *                       one status (affected_spans: every release of the
 *                       branches searched in one span, each stable series
 *                       searched cut out of the mainline's; a vers:
 *                       range, product_id linux-versions-N, the kernel's
 *                       CPE); "linux" (versions unknown) without a fix
 *                       read in a tree
 *   vulnerabilities     one per CVE ID not rejected (with every one
 *                       rejected, one each; one without an ID), with the
 *                       fixes the ID covers (fixcve.h): a version is
 *                       fixed once it holds all of them (affected.h);
 *                       cve, the title (advisory_title), cwe (its
 *                       catalogue name), the description as a note,
 *                       product_status naming every span known_affected,
 *                       fixed or known_not_affected (none left unknown),
 *                       a vendor_fix remediation per fix commit for the
 *                       affected spans it fixes (a backport: those of
 *                       its series; none_available without a fix), the
 *                       fix commits as references, and the CVSS 3.1
 *                       base score `cve --cvss` recorded as scores
 *                       (cvss_v3, for every product known_affected; none
 *                       recorded: no score, which test 6.2.3 warns of)
 *   document.aggregate_severity  the triage severity, when given
 *   acknowledgments     the reporter, only with credit consent
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "core/core.h"
#include "export/export.h"
#include "export/export.h"
#include "core/fixcve.h"
#include "export/advisory.h"
#include "core/json.h"
#include "core/ktree.h"

#define KERNEL_CPE "cpe:2.3:o:linux:linux_kernel:%s:%s:*:*:*:*:*:*"

static json_t *product(const char *name, const char *id, const char *cpe)
{
	return json_pack("{s:s, s:s, s:{s:s}}", "name", name, "product_id", id,
			 "product_identification_helper", "cpe", cpe);
}

/*
 * The advisory's vulnerabilities are one per CVE ID (one with none
 * without an ID), each with the fixes its ID covers (fixcve_view).  The
 * versions are cut in spans of one status (affected_spans: every
 * release of the branches searched falls in one, each stable series
 * searched cut out of the mainline's), each a product_version_range
 * (a vers range); the spans of every vulnerability share one product
 * tree, a span's product id linux-versions-N, N its place among the
 * distinct ranges.
 */
struct csaf {
	struct fixcve *views;
	size_t nviews;
	bool known; /* every fix was read in a tree: versions known */
	json_t *vers; /* the ranges' vers names, in product id order */
	json_t *branches; /* the product tree's version ranges */
};

/* A span as a vers name (caller frees). */
static char *span_vers(const struct affected_span *r)
{
	bool any = !strcmp(r->from, "0");

	if (r->to)
		return any ? xasprintf("vers:generic/<%s", r->to)
			   : xasprintf("vers:generic/>=%s|<%s", r->from, r->to);
	return any ? xstrdup("vers:generic/*")
		   : xasprintf("vers:generic/>=%s", r->from);
}

/* The product id of span r (caller frees), in the product tree once. */
static char *span_id(struct csaf *c, const struct affected_span *r)
{
	char *vers = span_vers(r), *id, *name, *cpe;
	size_t i;
	json_t *e;

	json_array_foreach(c->vers, i,
			   e) if (!strcmp(json_string_value(e), vers)) break;
	id = xasprintf("linux-versions-%zu", i + 1);
	if (i == json_array_size(c->vers)) {
		json_array_append_new(c->vers, json_string(vers));
		name = xasprintf("Linux kernel %s",
				 vers + strlen("vers:generic/"));
		cpe = xasprintf(KERNEL_CPE, "*", "*");
		json_array_append_new(c->branches,
				      json_pack("{s:s, s:s, s:o}", "category",
						"product_version_range", "name",
						vers, "product",
						product(name, id, cpe)));
		free(name);
		free(cpe);
	}
	free(vers);
	return id;
}

static void add_id(json_t *a, const char *id)
{
	size_t i;
	json_t *e;

	json_array_foreach(a, i,
			   e) if (!strcmp(json_string_value(e), id)) return;
	json_array_append_new(a, json_string(id));
}

/* Each span of view fc by its status: known_affected, fixed (holds
 * every fix: a version that had the bug, or forked after the fix),
 * known_not_affected (never had it); without known versions, "linux"
 * known_affected. */
static json_t *product_status(struct csaf *c, const struct affected_span *r,
			      size_t n)
{
	static const char *const key[] = { "known_not_affected",
					   "known_affected", "fixed" };
	json_t *lists[3] = { json_array(), json_array(), json_array() },
	       *st = json_object();

	for (size_t i = 0; i < n; i++) {
		char *id = span_id(c, &r[i]);
		add_id(lists[r[i].status], id);
		free(id);
	}
	if (!n)
		add_id(lists[VS_AFFECTED], "linux");
	for (int k = 0; k < 3; k++) {
		if (json_array_size(lists[k]))
			json_object_set(st, key[k], lists[k]);
		json_decref(lists[k]);
	}
	return st;
}

static json_t *product_tree(struct csaf *c)
{
	char *cpe = xasprintf(KERNEL_CPE, "*", "*");
	json_t *t;

	if (!json_array_size(c->branches)) {
		t = json_pack("{s:[{s:s, s:s, s:[{s:s, s:s, s:o}]}]}",
			      "branches", "category", "vendor", "name", "Linux",
			      "branches", "category", "product_name", "name",
			      "Linux kernel", "product",
			      product("Linux kernel", "linux", cpe));
	} else {
		t = json_pack("{s:[{s:s, s:s, s:[{s:s, s:s, s:O}]}]}",
			      "branches", "category", "vendor", "name", "Linux",
			      "branches", "category", "product_name", "name",
			      "Linux kernel", "branches", c->branches);
	}
	free(cpe);
	return t;
}

/* Each fix commit of fc in turn as c: each backport, then the fix. */
#define EACH_COMMIT(fc, k, b, c)                                        \
	for (size_t k = 0; k < (fc)->nfixes; k++)                       \
		for (size_t b = 0; b <= (fc)->fixes[k].nbackports; b++) \
			if (((c) = b < (fc)->fixes[k].nbackports        \
				     ? &(fc)->fixes[k].backports[b]     \
				     : &(fc)->fixes[k].fix),            \
			    1)

/* Whether span r lies in the stable series of version v (from its
 * release X.Y to the next series' first -rc). */
static bool span_in_series(const struct affected_span *r, const char *v)
{
	char *s = version_series(v), *next;
	const char *dot = strchr(s, '.');
	bool in;

	next = xasprintf("%.*s.%lu-rc1", (int)(dot ? dot - s : 0), s,
			 dot ? strtoul(dot + 1, NULL, 10) + 1 : 0);
	in = dot && strcmp(r->from, "0") &&
		ktree_version_cmp(r->from, s) >= 0 &&
		ktree_version_cmp(r->from, next) < 0;
	free(s);
	free(next);
	return in;
}

/* A vendor_fix for commit fx: the affected versions it is the fix for
 * (a backport's: those of its stable series; the mainline fix's: every
 * one); NULL when it names none. */
static json_t *remediation(struct session *sess, struct csaf *c,
			   const struct affected_span *r, size_t n,
			   const struct fix_commit *fx, const char *what)
{
	char *url, *details;
	json_t *ids = json_array(), *rem;

	for (size_t i = 0; i < n; i++) {
		char *id;
		if (r[i].status != VS_AFFECTED ||
		    (fx->branch &&
		     (!fx->tag ||
		      !span_in_series(&r[i], fix_version(fx->tag)))))
			continue;
		id = span_id(c, &r[i]);
		add_id(ids, id);
		free(id);
	}
	if (!n && !c->known)
		add_id(ids, "linux");
	if (!json_array_size(ids)) {
		json_decref(ids);
		return NULL;
	}
	url = advisory_commit_url(sess, fx->sha);
	details = xasprintf("%s: commit %s%s%s", what, fx->sha,
			    fx->tag ? ", first in " : "",
			    fx->tag ? fx->tag : "");
	rem = json_pack("{s:s, s:s, s:s, s:o}", "category", "vendor_fix",
			"details", details, "url", url, "product_ids", ids);
	free(url);
	free(details);
	return rem;
}

/* The CVSS score for every product v names known_affected (the only
 * ones a score is about); none without a score or such a product. */
static void scores(json_t *v, const struct fixcve *fc)
{
	json_t *ids = json_object_get(json_object_get(v, "product_status"),
				      "known_affected"),
	       *cvss;

	if (!json_array_size(ids) || !(cvss = advisory_cvss(fc)))
		return;
	json_object_set_new(v, "scores",
			    json_pack("[{s:O, s:o}]", "products", ids,
				      "cvss_v3", cvss));
}

static json_t *vulnerability(struct session *sess, const struct dossier *d,
			     struct csaf *c, const struct fixcve *fc)
{
	const char *cve = fc->ncves ? fc->cves[0].id : NULL;
	char *desc = advisory_description(d, fc),
	     *ref = advisory_reference_url(sess, d->f.r.id, cve);
	char *title = advisory_title(d, fc);
	json_t *v = json_object(), *rem = json_array(), *refs = json_array(),
	       *one;
	const struct fix_commit *fx;
	struct affected_span *r;
	size_t n = c->known ? affected_spans(fc, &r) : 0;

	if (cve)
		json_object_set_new(v, "cve", json_string(cve));
	json_object_set_new(v, "title", json_text(title));
	if (fc->cwe && cwe_name(fc->cwe))
		json_object_set_new(v, "cwe",
				    json_pack("{s:s, s:s}", "id", fc->cwe,
					      "name", cwe_name(fc->cwe)));
	json_object_set_new(v, "notes",
			    json_pack("[{s:s, s:s, s:o}]", "category",
				      "description", "title", "Description",
				      "text", json_text(desc)));
	json_object_set_new(v, "product_status", product_status(c, r, n));
	scores(v, fc);
	for (size_t k = 0; k < fc->nfixes; k++) {
		const struct fix_entry *f = &fc->fixes[k];
		if ((one = remediation(sess, c, r, n, &f->fix,
				       "Fixed upstream")))
			json_array_append_new(rem, one);
		for (size_t b = 0; b < f->nbackports; b++) {
			char *what = xasprintf("Backported to %s",
					       f->backports[b].branch);
			if ((one = remediation(sess, c, r, n, &f->backports[b],
					       what)))
				json_array_append_new(rem, one);
			free(what);
		}
	}
	if (n)
		affected_spans_free(r, n);
	EACH_COMMIT(fc, k, b, fx)
	{
		char *url = advisory_commit_url(sess, fx->sha),
		     *sum = xasprintf("commit %s", fx->sha);
		json_array_append_new(refs,
				      json_pack("{s:s, s:s, s:s}", "category",
						"external", "summary", sum,
						"url", url));
		free(url);
		free(sum);
	}
	if (!fc->nfixes)
		json_array_append_new(rem,
				      json_pack("{s:s, s:s, s:[s]}", "category",
						"none_available", "details",
						"No fix is available yet.",
						"product_ids", "linux"));
	if (json_array_size(rem))
		json_object_set(v, "remediations", rem);
	json_array_append_new(refs,
			      json_pack("{s:s, s:s, s:s}", "category",
					"external", "summary", "the advisory",
					"url", ref));
	json_object_set_new(v, "references", refs);
	json_decref(rem);
	free(desc);
	free(ref);
	free(title);
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

	json_array_append_new(h,
			      json_pack("{s:s, s:s, s:s}", "date",
					fmt_rfc3339(at, b), "number", "1",
					"summary", "Initial public release"));
	*last = at;
	for (size_t i = 0; i < d->f.nevents; i++) {
		const struct event *e = &d->f.events[i];
		if (e->at <= *last || !strcmp(e->kind, "cve-publish") ||
		    !(str_starts(e->kind, "fix") ||
		      str_starts(e->kind, "cve-")))
			continue;
		snprintf(num, sizeof(num), "%d", ++n);
		json_array_append_new(h,
				      json_pack("{s:s, s:s, s:s+}", "date",
						fmt_rfc3339(e->at, b), "number",
						num, "summary",
						"Updated: ", e->kind));
		*last = e->at;
	}
	return h;
}

static json_t *tracking(const struct dossier *d, const struct fixcve *fc)
{
	time_t last;
	json_t *h = revisions(d, &last);
	char b1[32], b2[32], ver[24];
	char *id = fc->ncves ? xstrdup(fc->cves[0].id)
			     : xasprintf("secteam-%lld", (long long)d->f.r.id);
	json_t *t;

	snprintf(ver, sizeof(ver), "%zu", json_array_size(h));
	t = json_pack("{s:s, s:s, s:s, s:s, s:o, s:s, s:{s:{s:s}}}", "id", id,
		      "status", "final", "version", ver, "initial_release_date",
		      fmt_rfc3339(dossier_released_at(d)
					  ? dossier_released_at(d)
					  : d->now,
				  b1),
		      "revision_history", h, "current_release_date",
		      fmt_rfc3339(last, b2), "generator", "engine", "name",
		      "secteam-tui");
	free(id);
	return t;
}

/* CSAF 2.0's TLP label for config csaf.tlp (default CLEAR): TLP 2.0's
 * CLEAR is TLP 1.0's WHITE, which CSAF 2.0 names; NULL for another
 * value (export_csaf_write refuses it). */
static const char *tlp_label(struct session *sess)
{
	static const char *const names[][2] = {
		{ "CLEAR", "WHITE" }, { "WHITE", "WHITE" },
		{ "GREEN", "GREEN" }, { "AMBER", "AMBER" },
		{ "RED", "RED" },
	};
	const char *v = config_get(sess->cfg, "csaf.tlp", "CLEAR");

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcasecmp(v, names[i][0]))
			return names[i][1];
	return NULL;
}

/* The canonical URL: config csaf.base_url, '/', the file name CSAF
 * gives the tracking id (lowercase, each character but [+-a-z0-9] an
 * '_', ".json"); NULL without csaf.base_url (caller frees). */
static char *canonical_url(struct session *sess, const char *tracking_id)
{
	const char *base = config_get(sess->cfg, "csaf.base_url", NULL);
	char *name = xstrdup(tracking_id), *url;

	if (!base)
		goto none;
	for (char *p = name; *p; p++) {
		*p = (char)tolower((unsigned char)*p);
		if (!strchr("+-abcdefghijklmnopqrstuvwxyz0123456789", *p))
			*p = '_';
	}
	url = xasprintf("%s%s%s.json", base, str_ends(base, "/") ? "" : "/",
			name);
	free(name);
	return url;
none:
	free(name);
	return NULL;
}

/* A copy of j with every object's keys in order (CSAF's test 6.2.13). */
static int key_order(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static json_t *sorted(json_t *j)
{
	json_t *r, *v;
	const char *k, **keys;
	size_t i = 0, n;

	if (json_is_array(j)) {
		r = json_array();
		json_array_foreach(j, i, v) json_array_append_new(r, sorted(v));
		return r;
	}
	if (!json_is_object(j))
		return json_incref(j);
	n = json_object_size(j);
	keys = xcalloc(n + 1, sizeof(*keys));
	json_object_foreach(j, k, v) keys[i++] = k;
	qsort(keys, n, sizeof(*keys), key_order);
	r = json_object();
	for (i = 0; i < n; i++)
		json_object_set_new(r, keys[i],
				    sorted(json_object_get(j, keys[i])));
	free(keys);
	return r;
}

/* The publisher's category: config csaf.publisher_category (CSAF 2.0's
 * coordinator, discoverer, other, translator, user or vendor), else
 * coordinator; NULL for another value (export_csaf_write refuses it). */
static const char *publisher_category(struct session *sess)
{
	static const char *const cats[] = { "coordinator", "discoverer",
					    "other",	   "translator",
					    "user",	   "vendor" };
	const char *v =
		config_get(sess->cfg, "csaf.publisher_category", "coordinator");

	for (size_t i = 0; i < sizeof(cats) / sizeof(cats[0]); i++)
		if (!strcmp(v, cats[i]))
			return cats[i];
	return NULL;
}

/* The document's aggregate severity: the triage severity, when one
 * other than none was given (low, medium, high, critical), in the
 * team's own words: CSAF's text is free, namespace the publisher's. */
static json_t *aggregate_severity(struct session *sess, const struct dossier *d)
{
	const char *sev = d->f.r.severity;
	const char *dom = config_get(sess->cfg, "team.domain", NULL);
	char *ns;
	json_t *j;

	if (!sev || !*sev || !strcmp(sev, "none"))
		return NULL;
	ns = dom ? xasprintf("https://%s", dom)
		 : xstrdup("https://www.kernel.org");
	j = json_pack("{s:s, s:s}", "namespace",
		      config_get(sess->cfg, "csaf.namespace", ns), "text", sev);
	free(ns);
	return j;
}

static json_t *document(struct session *sess, const struct dossier *d,
			const struct fixcve *fc)
{
	const char *dom = config_get(sess->cfg, "team.domain", NULL);
	char *ns = dom ? xasprintf("https://%s", dom)
		       : xstrdup("https://www.kernel.org");
	char *title = dossier_text(d, d->f.r.subject),
	     *desc = advisory_description(d, fc);
	char *who = advisory_credit(d);
	char *ref = advisory_reference_url(sess, d->f.r.id,
					   fc->ncves ? fc->cves[0].id : NULL);
	json_t *doc = json_pack(
		"{s:s, s:s, s:s, s:{s:s, s:s, s:s}, s:o, s:[{s:s, s:s, s:o}], s:[{s:s, s:s, s:s}], s:o}",
		"category", "csaf_security_advisory", "csaf_version", "2.0",
		"lang", "en", "publisher", "category", publisher_category(sess),
		"name",
		config_get(sess->cfg, "csaf.publisher",
			   "Linux kernel security team"),
		"namespace", config_get(sess->cfg, "csaf.namespace", ns),
		"title",
		json_text(*title ? title : "Linux kernel vulnerability"),
		"notes", "category", "summary", "title", "Summary", "text",
		json_text(desc), "references", "category", "external",
		"summary", "the advisory", "url", ref, "tracking",
		tracking(d, fc));
	const char *tid = json_string_value(
		json_object_get(json_object_get(doc, "tracking"), "id"));
	json_t *sev;
	char *canon = canonical_url(sess, tid);

	if (canon)
		json_array_insert_new(
			json_object_get(doc, "references"), 0,
			json_pack("{s:s, s:s, s:s}", "category", "self",
				  "summary",
				  "the canonical URL of this advisory", "url",
				  canon));
	free(canon);
	if ((sev = aggregate_severity(sess, d)))
		json_object_set_new(doc, "aggregate_severity", sev);
	json_object_set_new(doc, "distribution",
			    json_pack("{s:{s:s, s:s}}", "tlp", "label",
				      tlp_label(sess), "url",
				      "https://www.first.org/tlp/"));

	if (who)
		json_object_set_new(doc, "acknowledgments",
				    json_pack("[{s:[s]}]", "names", who));
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
	struct csaf c = { NULL, 0, affected_versions_known(fc), json_array(),
			  json_array() };
	json_t *doc, *vulns = json_array(), *r;

	(void)arg;
	/* A vulnerability per live ID; with none live, per ID (as REJECTED
	 * once was), else one without an ID. */
	c.views = xcalloc(fc->ncves + 1, sizeof(*c.views));
	for (size_t i = 0; i < fc->ncves; i++)
		if (strcmp(fc->cves[i].state, "rejected"))
			fixcve_view(fc, &fc->cves[i], &c.views[c.nviews++]);
	for (size_t i = 0; !c.nviews && i < fc->ncves; i++)
		fixcve_view(fc, &fc->cves[i], &c.views[c.nviews++]);
	if (!c.nviews)
		fixcve_view(fc, NULL, &c.views[c.nviews++]);
	for (size_t i = 0; i < c.nviews; i++)
		json_array_append_new(vulns,
				      vulnerability(sess, d, &c, &c.views[i]));
	doc = json_pack("{s:o, s:o, s:o}", "document", document(sess, d, fc),
			"product_tree", product_tree(&c), "vulnerabilities",
			vulns);
	r = sorted(doc);
	json_decref(doc);
	for (size_t i = 0; i < c.nviews; i++)
		fixcve_release(&c.views[i]);
	free(c.views);
	json_decref(c.vers);
	json_decref(c.branches);
	return r;
}

static int export_csaf_write(struct session *sess, FILE *out,
			     struct dossier *const *d, size_t n,
			     const struct export_opts *o, struct err *err)
{
	(void)o;
	if (advisory_refuse_unreleased(d, n, "CSAF advisory", err) < 0)
		return err->code;
	if (!publisher_category(sess))
		return err_setc(
			err, ERR_INVALID,
			"config csaf.publisher_category '%s' is no CSAF 2.0 publisher category (coordinator, discoverer, other, translator, user or vendor)",
			config_get(sess->cfg, "csaf.publisher_category", ""));
	if (!tlp_label(sess))
		return err_setc(
			err, ERR_INVALID,
			"config csaf.tlp '%s' is no TLP label CSAF 2.0 knows (CLEAR, WHITE, GREEN, AMBER or RED)",
			config_get(sess->cfg, "csaf.tlp", ""));
	for (size_t i = 0; i < n; i++) {
		struct fixcve fc;
		int bad;
		fixcve_fold(d[i]->f.events, d[i]->f.nevents, &fc);
		bad = fc.cwe && !cwe_name(fc.cwe);
		if (bad)
			err_setc(
				err, ERR_INVALID,
				"report %lld: its CWE %s names no weakness of the CWE catalogue (data/cwe-names.tsv); record another with cve %lld --cwe CWE-N",
				(long long)d[i]->f.r.id, fc.cwe,
				(long long)d[i]->f.r.id);
		fixcve_release(&fc);
		if (bad)
			return err->code;
	}
	return advisory_write_json(sess, out, d, n, "CSAF advisory",
				   csaf_advisory, NULL, err);
}

const struct exporter export_csaf_entry = {
	"csaf",
	"json",
	"a CSAF 2.0 security advisory",
	"a CSAF 2.0 `csaf_security_advisory` (several: an array), refused while "
	"a report is under embargo: the kernel's versions from `fix` as ranges "
	"in the product tree (with CPEs), one vulnerability per CVE ID naming "
	"each range known_affected, fixed or known_not_affected, with a "
	"vendor_fix remediation per fix commit it covers, the fix's subject as "
	"its title, the CWE's catalogue name, the `cve --cvss` score for the "
	"affected ranges, the triage severity as "
	"aggregate_severity, the revision history from the timeline; "
	"`csaf.publisher`, `csaf.publisher_category` (coordinator, the default, "
	"discoverer, other, translator, user or vendor), "
	"`csaf.namespace` (else https://`team.domain`), "
	"`csaf.tlp` (CLEAR, the default, WHITE, GREEN, AMBER or RED), "
	"`csaf.base_url` (the canonical URL's folder).",
	export_csaf_write,
	NULL,
};
