/*
 * The CVE JSON 5 export: one CVE record (dataVersion 5.1, state
 * PUBLISHED: the only state of the bundled schema that carries a cna
 * container) per report, valid against CVE_Record_Format_bundled.json.
 *   cveId         --cve-id, else the placeholder CVE-0000-0000 (it matches
 *                 the schema's pattern; a warning says to replace it)
 *   orgId         config cve.org_id (a UUID), else the placeholder
 *                 00000000-0000-4000-8000-000000000000 (with a warning)
 *   affected      vendor/product "Linux", the touched files as
 *                 programFiles, defaultStatus "unknown": versions are
 *                 for the officer to fill in
 *   descriptions  the subject, redacted and sanitized
 *   references    config cve.reference_url (when it ends in '/', the CVE
 *                 ID, or report-N without one, is appended), else the
 *                 kernel's security-bugs page
 *   datePublic    the disclosure date, once the embargo is over
 *   credits       the reporter's name (else address), only with credit
 *                 consent
 * Several reports give a JSON array of records.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/core.h"
#include "core/export.h"
#include "core/json.h"

#define PLACEHOLDER_CVE "CVE-0000-0000"
#define PLACEHOLDER_ORG "00000000-0000-4000-8000-000000000000"
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

static json_t *record(struct cmd_ctx *ctx, const struct dossier *d,
		      const char *cve_id, const char *org)
{
	const struct report *r = &d->f.r;
	const char *base = config_get(ctx->cfg, "cve.reference_url", DEFAULT_REFERENCE);
	char *ref = str_ends(base, "/") ?
		(strcmp(cve_id, PLACEHOLDER_CVE) ? xasprintf("%s%s", base, cve_id) :
		 xasprintf("%sreport-%lld", base, (long long)r->id)) : xstrdup(base);
	char *subject = export_text(d, r->subject);
	char *who = r->consent_credit && r->reporter_name && *r->reporter_name ?
		xstrdup(r->reporter_name) : export_reporter(d);
	json_t *product, *files = json_array(), *cna, *meta;

	for (size_t i = 0; i < d->f.nfiles; i++) {
		char *f = export_text(d, d->f.files[i]);
		if (*f)
			json_array_append_new(files, bounded(f, 1024, "-"));
		free(f);
	}
	product = json_pack("{s:s, s:s, s:s, s:s}", "vendor", "Linux",
			    "product", "Linux", "repo",
			    config_get(ctx->cfg, "cve.repo",
				       "https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git"),
			    "defaultStatus", "unknown");
	if (json_array_size(files))
		json_object_set_new(product, "programFiles", files);
	else
		json_decref(files);
	cna = json_pack("{s:{s:s}, s:o, s:[{s:s, s:o}], s:[o], s:[{s:s}]}",
			"providerMetadata", "orgId", org,
			"title", bounded(subject, 256, "Linux kernel vulnerability"),
			"descriptions", "lang", "en",
			"value", bounded(subject, 4096, "Linux kernel vulnerability"),
			"affected", product,
			"references", "url", ref);
	if (who) {
		char *w = safe_str(who);
		json_object_set_new(cna, "credits", json_pack("[{s:s, s:o, s:s}]",
			"lang", "en", "value", bounded(w, 4096, "reporter"),
			"type", "finder"));
		free(w);
	}
	if (r->disclosure && !dossier_embargoed(d)) {
		char b[32];
		json_object_set_new(cna, "datePublic",
				    json_string(fmt_rfc3339(r->disclosure, b)));
	}
	meta = json_pack("{s:s, s:s, s:s}", "cveId", cve_id, "assignerOrgId", org,
			 "state", "PUBLISHED");
	free(subject);
	free(who);
	free(ref);
	return json_pack("{s:s, s:s, s:o, s:{s:o}}", "dataType", "CVE_RECORD",
			 "dataVersion", "5.1", "cveMetadata", meta,
			 "containers", "cna", cna);
}

static int export_cve_write(struct cmd_ctx *ctx, FILE *out,
			    struct dossier *const *d, size_t n,
			    const struct export_opts *o, struct err *err)
{
	const char *org = config_get(ctx->cfg, "cve.org_id", NULL);
	json_t *all = n == 1 ? NULL : json_array(), *rec = NULL;
	int r;

	if (org && !matches("^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-4[0-9A-Fa-f]{3}-[89ABab][0-9A-Fa-f]{3}-[0-9A-Fa-f]{12}$", org))
		return err_setc(err, ERR_INVALID,
				"config cve.org_id '%s' is not a version 4 UUID", org);
	if (!org) {
		fprintf(ctx->errout, "warning: no cve.org_id in the config; using the placeholder %s\n",
			PLACEHOLDER_ORG);
		org = PLACEHOLDER_ORG;
	}
	for (size_t i = 0; i < n; i++) {
		const char *id = o->cve_id;
		if (!id) {
			fprintf(ctx->errout,
				"warning: report %lld has no CVE ID; using the placeholder %s (give --cve-id)\n",
				(long long)d[i]->f.r.id, PLACEHOLDER_CVE);
			id = PLACEHOLDER_CVE;
		}
		rec = record(ctx, d[i], id, org);
		if (all)
			json_array_append_new(all, rec);
	}
	r = json_print(out, all ? all : rec);
	json_decref(all ? all : rec);
	if (r < 0)
		return err_setc(err, ERR_IO, "cannot write the CVE record");
	return 0;
}

const struct exporter export_cve_entry = {
	"cve", "json", "a CVE JSON 5 record",
	"a CVE JSON 5 record (several: an array); the CVE ID from "
	"`--cve-id` else the placeholder CVE-0000-0000, `cve.org_id`, "
	"`cve.reference_url`, `cve.repo`.",
	export_cve_write,
};
