/*
 * Vendors and distributions: the directory's kinds and the lifecycle of
 * a vendor on one report,
 *   not-notified -> notified -> acknowledged -> affected | not-affected |
 *                                               fixed | declined
 * A vendor may skip ahead (answer "affected" without acknowledging
 * first) but never go back, except that an affected vendor may later
 * report it fixed.  Every change is an event (cmd-vendor.c).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/core.h"
#include "core/json.h"

const char *const vendor_kinds[] = { "vendor", "distro", "hardware", NULL };
const char *const vendor_statuses[] = {
	"not-notified", "notified", "acknowledged", "affected",
	"not-affected", "fixed", "declined", NULL,
};

static bool in_list(const char *const *list, const char *s)
{
	for (size_t i = 0; s && list[i]; i++)
		if (!strcmp(list[i], s))
			return true;
	return false;
}

bool vendor_kind_valid(const char *kind)
{
	return in_list(vendor_kinds, kind);
}

bool vendor_status_valid(const char *status)
{
	return in_list(vendor_statuses, status);
}

static int rank(const char *status)
{
	if (!strcmp(status, "not-notified"))
		return 0;
	if (!strcmp(status, "notified"))
		return 1;
	if (!strcmp(status, "acknowledged"))
		return 2;
	return 3;
}

int vendor_check_transition(const char *vendor, const char *from,
			    const char *to, struct err *err)
{
	struct sbuf allowed = SBUF_INIT;
	int r;

	if (!vendor_status_valid(to))
		return err_setc(err, ERR_INVALID,
				"unknown vendor status '%s' (not-notified, notified, acknowledged, affected, not-affected, fixed, declined)",
				to);
	if (rank(to) > rank(from) ||
	    (!strcmp(from, "affected") && !strcmp(to, "fixed")))
		return 0;
	for (size_t i = 0; vendor_statuses[i]; i++) {
		const char *s = vendor_statuses[i];
		if (rank(s) > rank(from) ||
		    (!strcmp(from, "affected") && !strcmp(s, "fixed")))
			sbuf_addf(&allowed, "%s%s", allowed.len ? ", " : "", s);
	}
	r = err_setc(err, ERR_REFUSED,
		     "vendor '%s' cannot go from %s to %s (allowed: %s)", vendor,
		     from, to, allowed.len ? allowed.buf : "nothing, it is final");
	sbuf_release(&allowed);
	return r;
}

json_t *vendors_json(struct cmd_ctx *ctx, int64_t report_id)
{
	struct store *s = cmd_ctx_store(ctx);
	struct report_vendor *rv = NULL;
	struct err err = { 0, "" };
	json_t *a = json_array();
	size_t n = 0;

	if (!s || store_report_vendors_get(s, report_id, &rv, &n, &err) < 0)
		return a;
	for (size_t i = 0; i < n; i++) {
		json_array_append_new(a, json_pack(
			"{s:o, s:o, s:o, s:o, s:o, s:b, s:o, s:o}",
			"name", json_text(rv[i].name),
			"kind", json_text(rv[i].kind),
			"status", json_text(rv[i].status),
			"notified_at", json_time(rv[i].notified_at),
			"updated_at", json_time(rv[i].updated_at),
			"nda_requested", rv[i].nda_requested,
			"statement", json_text(rv[i].statement),
			"note", json_text(rv[i].note)));
		report_vendor_release(&rv[i]);
	}
	free(rv);
	return a;
}

int vendors_list(struct cmd_ctx *ctx, struct vendor **out, size_t *n,
		 struct err *err)
{
	struct store *s = cmd_ctx_store(ctx);

	*out = NULL;
	*n = 0;
	if (!s) {
		*err = ctx->err;
		return ERR_IO;
	}
	return store_vendors_list(s, out, n, err);
}
