/*
 * What the advisory exports (CVE record, OSV, CSAF, md's advisory
 * section) share: the embargo refusal and the fix commits' addresses.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/fixcve.h"

#define DEFAULT_COMMIT_URL "https://git.kernel.org/stable/c/"

int advisory_refuse_embargoed(struct dossier *const *d, size_t n,
			      const char *what, struct err *err)
{
	char when[32];

	for (size_t i = 0; i < n; i++) {
		const struct report *r = &d[i]->f.r;
		if (!dossier_embargoed(d[i]))
			continue;
		if (r->disclosure)
			return err_setc(err, ERR_REFUSED,
					"report %lld is under embargo until %s: no %s before disclosure",
					(long long)r->id, fmt_rfc3339(r->disclosure, when), what);
		return err_setc(err, ERR_REFUSED,
				"report %lld is under embargo with no disclosure date set: no %s before disclosure",
				(long long)r->id, what);
	}
	return 0;
}

char *advisory_commit_url(struct cmd_ctx *ctx, const char *sha)
{
	return xasprintf("%s%s", config_get(ctx->cfg, "cve.commit_url",
					    DEFAULT_COMMIT_URL), sha);
}
