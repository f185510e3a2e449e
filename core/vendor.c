/*
 * Vendors and distributions: the directory's kinds and the lifecycle of
 * a vendor on one report,
 *   not-notified -> notified -> acknowledged -> affected | not-affected |
 *                                               fixed | declined
 * A vendor may skip ahead (answer "affected" without acknowledging
 * first) but never go back, except that an affected vendor may later
 * report it fixed.  Every change is an event (cmd/vendor.c).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/vendor.h"
#include "store/store.h"
#include "core/json.h"

const char *const vendor_kinds[] = { "vendor", "distro", "hardware", NULL };
const char *const vendor_statuses[] = {
	"not-notified", "notified", "acknowledged", "affected",
	"not-affected", "fixed",    "declined",	    NULL,
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
		return err_setc(
			err, ERR_INVALID,
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
		     "vendor '%s' cannot go from %s to %s (allowed: %s)",
		     vendor, from, to,
		     allowed.len ? allowed.buf : "nothing, it is final");
	sbuf_release(&allowed);
	return r;
}

json_t *vendors_json(struct session *sess, int64_t report_id)
{
	struct store *s = session_store(sess, NULL);
	struct report_vendor *rv = NULL;
	struct err err = { 0, "" };
	json_t *a = json_array();
	size_t n = 0;

	if (!s || store_report_vendors_get(s, report_id, &rv, &n, &err) < 0)
		return a;
	for (size_t i = 0; i < n; i++) {
		json_array_append_new(
			a,
			json_pack("{s:o, s:o, s:o, s:o, s:o, s:b, s:o, s:o}",
				  "name", json_text(rv[i].name), "kind",
				  json_text(rv[i].kind), "status",
				  json_text(rv[i].status), "notified_at",
				  json_time(rv[i].notified_at), "updated_at",
				  json_time(rv[i].updated_at), "nda_requested",
				  rv[i].nda_requested, "statement",
				  json_text(rv[i].statement), "note",
				  json_text(rv[i].note)));
		report_vendor_release(&rv[i]);
	}
	free(rv);
	return a;
}

int vendors_get(struct session *sess, const char *name, struct vendor *v,
		struct err *err)
{
	struct store *s = session_store(sess, err);

	memset(v, 0, sizeof(*v));
	if (!s)
		return ERR_IO;
	return store_vendor_get(s, name, v, err);
}

int vendors_list(struct session *sess, struct vendor **out, size_t *n,
		 struct err *err)
{
	struct store *s = session_store(sess, err);

	*out = NULL;
	*n = 0;
	if (!s)
		return ERR_IO;
	return store_vendors_list(s, out, n, err);
}

/* --- the use cases: the directory, and a vendor's status on a report ---*/

struct vendor_req {
	bool notify; /* the notify verb */
	int64_t id; /* report, for notify/status */
	const char *name;
	const char *contact, *key, *kind;
	const char *status, *note, *statement;
	bool nda, correct;
	struct sbuf summary;
};

static void say(struct vendor_req *v, const char *detail)
{
	sbuf_addf(&v->summary, "%s%s", v->summary.len ? "; " : "", detail);
}

/* A team event (the directory: no report), said in the summary. */
static int event(struct session *sess, struct vendor_req *v, const char *kind,
		 char *detail, struct err *err)
{
	int rc = store_event_add(sess->store, 0, sess->officer, kind, detail,
				 err);

	if (rc == 0)
		say(v, detail);
	free(detail);
	return rc;
}

static int apply_add(struct session *sess, void *data, struct err *err)
{
	struct vendor_req *v = data;
	struct vendor nv = { 0, (char *)v->name, (char *)v->contact,
			     (char *)v->key,
			     (char *)(v->kind ? v->kind : "vendor") };
	struct vendor old;
	int rc;

	if (store_vendor_get(sess->store, v->name, &old, NULL) == 0) {
		rc = err_setc(
			err, ERR_DUPLICATE,
			"vendor '%s' is already in the directory (as '%s')",
			v->name, old.name);
		vendor_release(&old);
		return rc;
	}
	if ((rc = store_vendor_add(sess->store, &nv, NULL, err)) < 0)
		return rc;
	return event(sess, v, "vendor-add",
		     xasprintf("vendor %s (%s) added, contact %s%s%s", v->name,
			       nv.kind, v->contact, v->key ? ", key " : "",
			       v->key ? v->key : ""),
		     err);
}

static int apply_edit(struct session *sess, void *data, struct err *err)
{
	struct vendor_req *v = data;
	struct vendor old,
		nv = { 0, NULL, (char *)v->contact, (char *)v->key,
		       (char *)v->kind };
	struct sbuf d = SBUF_INIT;
	int rc;

	if ((rc = store_vendor_get(sess->store, v->name, &old, err)) < 0)
		return rc;
	if (v->contact && strcmp(v->contact, old.contact))
		sbuf_addf(&d, "%scontact %s -> %s", d.len ? ", " : "",
			  old.contact, v->contact);
	if (v->key && (!old.key_fpr || strcmp(v->key, old.key_fpr)))
		sbuf_addf(&d, "%skey %s -> %s", d.len ? ", " : "",
			  old.key_fpr ? old.key_fpr : "none", v->key);
	if (v->kind && strcmp(v->kind, old.kind))
		sbuf_addf(&d, "%skind %s -> %s", d.len ? ", " : "", old.kind,
			  v->kind);
	rc = 0;
	if (d.len &&
	    (rc = store_vendor_update(sess->store, old.id, &nv, err)) == 0)
		rc = event(sess, v, "vendor-edit",
			   xasprintf("vendor %s: %s", old.name, d.buf), err);
	sbuf_release(&d);
	vendor_release(&old);
	return rc;
}

/* An event about vendor ven's row on report v->id, naming the vendor and
 * value (the store applies it to the row, or refuses it). */
static int vendor_event(struct session *sess, struct vendor_req *v,
			const struct vendor *ven, const char *kind,
			const char *value, char *detail, struct err *err)
{
	int rc = store_report_vendor_event(sess->store, v->id, ven->id,
					   sess->officer, kind, detail, value,
					   err);

	if (rc == 0)
		say(v, detail);
	free(detail);
	return rc;
}

/* notify and status: one vendor's row on one report, by its events. */
static int apply_status(struct session *sess, void *data, struct err *err)
{
	struct vendor_req *v = data;
	struct store *s = sess->store;
	struct vendor ven;
	struct report r;
	struct report_vendor cur;
	const char *from;
	int rc;

	memset(&cur, 0, sizeof(cur));
	if ((rc = store_report_brief(s, v->id, &r, err)) < 0)
		return rc;
	report_release(&r);
	if ((rc = store_vendor_get(s, v->name, &ven, err)) < 0)
		return rc;
	rc = store_report_vendor_get(s, v->id, ven.id, &cur, NULL);
	from = rc == 0 ? cur.status : "not-notified";
	rc = 0;
	if (v->status && strcmp(v->status, from) && v->correct) {
		/* A wrong status is put right by a recorded correction, never
		 * by pretending it was not there. */
		rc = vendor_event(sess, v, &ven, "vendor-status-correction",
				  v->status,
				  xasprintf("vendor %s: %s corrected to %s",
					    ven.name, from, v->status),
				  err);
	} else if (v->status && strcmp(v->status, from)) {
		if ((rc = vendor_check_transition(ven.name, from, v->status,
						  err)) < 0)
			goto out;
		if (!strcmp(v->status, "notified"))
			rc = vendor_event(
				sess, v, &ven, "vendor-notify", v->status,
				xasprintf("vendor %s notified (contact %s)",
					  ven.name, ven.contact),
				err);
		else
			rc = vendor_event(sess, v, &ven, "vendor-status",
					  v->status,
					  xasprintf("vendor %s: %s -> %s",
						    ven.name, from, v->status),
					  err);
	} else if (v->status && v->notify) {
		rc = err_setc(err, ERR_REFUSED,
			      "report %lld: vendor %s is already %s",
			      (long long)v->id, ven.name, from);
	}
	if (rc == 0 && v->statement)
		rc = vendor_event(sess, v, &ven, "vendor-statement",
				  v->statement,
				  xasprintf("vendor %s statement: %s", ven.name,
					    v->statement),
				  err);
	if (rc == 0 && v->note)
		rc = vendor_event(sess, v, &ven, "vendor-note", v->note,
				  xasprintf("vendor %s note: %s", ven.name,
					    v->note),
				  err);
	if (rc == 0 && v->nda)
		rc = vendor_event(
			sess, v, &ven, "nda-request", NULL,
			xasprintf("vendor %s requested an NDA; policy: %s",
				  ven.name, policy_nda_answer()),
			err);
out:
	report_vendor_release(&cur);
	vendor_release(&ven);
	return rc;
}

static bool valid_text(const char *s, size_t max)
{
	char *safe;
	bool ok;

	if (!s || !*s || strlen(s) > max)
		return false;
	safe = safe_str(s);
	ok = !strcmp(safe, s);
	free(safe);
	return ok;
}

static int check_fields(struct vendor_req *v, struct err *err)
{
	if (v->name && !valid_text(v->name, 64))
		return err_setc(
			err, ERR_INVALID,
			"invalid vendor name (1 to 64 printable characters)");
	if (v->contact &&
	    (!valid_text(v->contact, 254) || !strchr(v->contact, '@') ||
	     strchr(v->contact, ' ')))
		return err_setc(err, ERR_INVALID,
				"vendor %s: '%s' is not a mail address",
				v->name, v->contact);
	if (v->key) {
		size_t len = strlen(v->key);
		if (len < 16 || len > 64 ||
		    strspn(v->key, "0123456789abcdefABCDEF") != len)
			return err_setc(
				err, ERR_INVALID,
				"vendor %s: '%s' is not a key fingerprint (hex digits)",
				v->name, v->key);
	}
	if (v->kind && !vendor_kind_valid(v->kind))
		return err_setc(
			err, ERR_INVALID,
			"vendor %s: unknown kind '%s' (vendor, distro, hardware)",
			v->name, v->kind);
	if (v->status && !vendor_status_valid(v->status))
		return vendor_check_transition(v->name, "not-notified",
					       v->status, err);
	if ((v->note && !*v->note) || (v->statement && !*v->statement))
		return err_setc(err, ERR_INVALID, "empty note or statement");
	return 0;
}

/* Checks, then runs fn in one transaction; *summary as the header says. */
static int vendor_run(struct session *sess, struct vendor_req *v,
		      int (*fn)(struct session *, void *, struct err *),
		      char **summary, struct err *err)
{
	int r;

	*summary = NULL;
	if ((r = check_fields(v, err)) < 0)
		return r;
	sbuf_init(&v->summary);
	r = core_write(sess, fn, v, err);
	if (r == 0) {
		char *s = safe_str(v->summary.len ? v->summary.buf
						  : "nothing changed");
		*summary = v->id
			? xasprintf("report %lld: %s", (long long)v->id, s)
			: xstrdup(s);
		free(s);
	}
	sbuf_release(&v->summary);
	return r;
}

int vendor_directory_add(struct session *sess, const char *name,
			 const char *contact, const char *key, const char *kind,
			 char **summary, struct err *err)
{
	struct vendor_req v = {
		.name = name, .contact = contact, .key = key, .kind = kind
	};

	if (!contact) {
		*summary = NULL;
		return err_setc(err, ERR_INVALID,
				"vendor %s: a contact is required", name);
	}
	return vendor_run(sess, &v, apply_add, summary, err);
}

int vendor_directory_edit(struct session *sess, const char *name,
			  const char *contact, const char *key,
			  const char *kind, char **summary, struct err *err)
{
	struct vendor_req v = {
		.name = name, .contact = contact, .key = key, .kind = kind
	};

	return vendor_run(sess, &v, apply_edit, summary, err);
}

int vendor_change(struct session *sess, const struct vendor_change *c,
		  char **summary, struct err *err)
{
	struct vendor_req v = { .notify = c->notify,
				.id = c->report,
				.name = c->vendor,
				.status = c->notify ? "notified" : c->status,
				.note = c->note,
				.statement = c->statement,
				.nda = c->nda,
				.correct = c->correct };

	if (!v.status && !v.note && !v.statement && !v.nda) {
		*summary = NULL;
		return err_setc(err, ERR_INVALID,
				"report %lld: vendor %s: nothing to change",
				(long long)c->report, c->vendor);
	}
	if (c->correct && (c->notify || !c->status)) {
		*summary = NULL;
		return err_setc(
			err, ERR_INVALID,
			"report %lld: vendor %s: --correct needs the right status",
			(long long)c->report, c->vendor);
	}
	return vendor_run(sess, &v, apply_status, summary, err);
}
