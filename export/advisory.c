/*
 * What the advisory exports (CVE record, OSV, CSAF, md's advisory
 * section) share: the embargo refusal and the fix commits' addresses.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/cvss.h"
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
	return xasprintf("%s%s",
			 config_get(sess->cfg, "cve.commit_url",
				    DEFAULT_COMMIT_URL),
			 sha);
}

const char *advisory_repo(struct session *sess)
{
	return config_get(
		sess->cfg, "cve.repo",
		"https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git");
}

const char *advisory_stable_repo(struct session *sess)
{
	return config_get(
		sess->cfg, "cve.stable_repo",
		"https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git");
}

const char *advisory_git_repo(struct session *sess, const struct fixcve *fc)
{
	for (size_t i = 0; i < fc->nfixes; i++) {
		if (fc->fixes[i].nbackports)
			return advisory_stable_repo(sess);
		for (size_t k = 0; k < fc->fixes[i].nintroduced; k++)
			if (fc->fixes[i].introduced[k].branch)
				return advisory_stable_repo(sess);
	}
	return advisory_repo(sess);
}

char *advisory_reference_url(struct session *sess, int64_t report_id,
			     const char *cve_id)
{
	const char *base =
		config_get(sess->cfg, "cve.reference_url", DEFAULT_REFERENCE);

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

char *advisory_title(const struct dossier *d, const struct fixcve *fc)
{
	const char *fs = fc->nfixes ? fc->fixes[0].fix.subject : NULL;
	char *t = fs && *fs ? dossier_text(d, fs)
			    : dossier_text(d, d->f.r.subject);
	size_t n = strlen(t);

	if (n > 256) {
		n = 256;
		while (n && ((unsigned char)t[n] & 0xC0) == 0x80)
			n--;
		t[n] = '\0';
	}
	if (!*t) {
		free(t);
		t = xstrdup("Linux kernel vulnerability");
	}
	return t;
}

char *advisory_description(const struct dossier *d, const struct fixcve *fc)
{
	if (fc->description)
		return dossier_redact(d, fc->description);
	return dossier_text(d, d->f.r.subject);
}

json_t *advisory_cvss(const struct fixcve *fc)
{
	struct cvss c;
	struct err err = { 0, "" };
	json_t *o;

	if (!fc->cvss || cvss_parse(fc->cvss, &c, &err) < 0)
		return NULL;
	o = json_pack("{s:s, s:s}", "version", "3.1", "vectorString", c.vector);
	for (int m = 0; m < CVSS_NMETRICS; m++)
		json_object_set_new(o, cvss_json_name(m),
				    json_string(cvss_json_value(&c, m)));
	/* Tenths as a number: 9.8, not 9.8000000000000007 (json_print
	 * writes reals with 15 significant digits). */
	json_object_set_new(o, "baseScore", json_real(c.score / 10.0));
	json_object_set_new(o, "baseSeverity", json_string(c.severity));
	return o;
}

char *advisory_cvss_rationale(const struct dossier *d, const struct fixcve *fc)
{
	return fc->cvss ? dossier_text(d, fc->cvss_rationale) : NULL;
}

int advisory_write_json(struct session *sess, FILE *out,
			struct dossier *const *d, size_t n, const char *what,
			advisory_record_fn rec, void *arg, struct err *err)
{
	json_t *all = json_array(), *one;
	int r;

	for (size_t i = 0; i < n; i++) {
		struct fixcve fc;
		fixcve_fold(d[i]->f.events, d[i]->f.nevents, &fc);
		one = rec(sess, d[i], &fc, arg);
		fixcve_release(&fc);
		if (json_is_array(one))
			json_array_extend(all, one);
		else
			json_array_append(all, one);
		json_decref(one);
	}
	one = json_array_size(all) == 1 ? json_array_get(all, 0) : all;
	r = json_print(out, one);
	json_decref(all);
	if (r < 0)
		return err_setc(err, ERR_IO, "cannot write the %s", what);
	return 0;
}
