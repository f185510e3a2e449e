/*
 * The JSON export: an array of the `show --json` objects (json.c), one
 * per report, with three changes.  Without credit consent the reporter's
 * identity is withheld: "reporter" becomes {"name": null, "email": null,
 * "withheld": true}, the Message-ID, From and key fingerprint of the
 * reporter's messages (dossier_from_reporter) are nulled, and every other
 * string is passed through dossier_redact().  Internal notes (events
 * "note" and "vendor-note", the vendors' "note") are left out unless
 * --with-notes.  And "embargoed" says whether the report is still under
 * embargo (with "embargo_state" and "deadline" of show --json, what
 * embargo.c says).  Written ASCII-only (JSON_ENSURE_ASCII).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/core.h"
#include "export/export.h"
#include "core/json.h"

static void redact_tree(const struct dossier *d, json_t *j)
{
	const char *key;
	json_t *v;
	size_t i;

	if (json_is_object(j)) {
		json_object_foreach(j, key, v) redact_tree(d, v);
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v) redact_tree(d, v);
	} else if (json_is_string(j)) {
		char *t = dossier_redact(d, json_string_value(j));
		if (strcmp(t, json_string_value(j)))
			json_string_set(j, t);
		free(t);
	}
}

/* Nulls the identifying fields of the reporter's own messages (the
 * array is in the order of d->f.msgs). */
static void redact_messages(const struct dossier *d, json_t *o)
{
	json_t *msgs = json_object_get(o, "messages_detail"), *m;
	size_t i;

	json_array_foreach(msgs, i, m)
	{
		if (i >= d->f.nmsgs || !dossier_from_reporter(d, &d->f.msgs[i]))
			continue;
		json_object_set_new(m, "message_id", json_null());
		json_object_set_new(m, "from", json_null());
		json_object_set_new(m, "fingerprint", json_null());
	}
	if (d->f.nmsgs && dossier_from_reporter(d, &d->f.msgs[0]))
		json_object_set_new(json_object_get(o, "signature"),
				    "fingerprint", json_null());
}

/* Drops internal notes: note events and the vendors' notes. */
static void drop_notes(json_t *o)
{
	json_t *events = json_object_get(o, "events"), *v;
	size_t i;

	for (i = json_array_size(events); i-- > 0;) {
		const char *k = json_string_value(
			json_object_get(json_array_get(events, i), "kind"));
		if (k && (!strcmp(k, "note") || !strcmp(k, "vendor-note")))
			json_array_remove(events, i);
	}
	json_array_foreach(json_object_get(o, "vendors"), i,
			   v) if (json_object_get(v, "note"))
		json_object_set_new(v, "note", json_null());
}

static json_t *export_json_one(struct session *sess, const struct dossier *d,
			       const struct export_opts *eo)
{
	json_t *o = report_full_json(sess, &d->f);

	if (!eo->with_notes)
		drop_notes(o);
	if (!d->f.r.consent_credit) {
		json_object_set_new(o, "reporter",
				    json_pack("{s:n, s:n, s:b}", "name",
					      "email", "withheld", 1));
		redact_messages(d, o);
		redact_tree(d, o);
	}
	json_object_set_new(o, "embargoed", json_boolean(dossier_embargoed(d)));
	/* A duplicate's record is its original's. */
	json_object_set_new(o, "original",
			    d->original ? json_integer((json_int_t)d->original)
					: json_null());
	return o;
}

static int export_json_write(struct session *sess, FILE *out,
			     struct dossier *const *d, size_t n,
			     const struct export_opts *o, struct err *err)
{
	json_t *a = json_array();
	int r;

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, export_json_one(sess, d[i], o));
	r = json_print(out, a);
	json_decref(a);
	if (r < 0)
		return err_setc(err, ERR_IO, "cannot write the JSON export");
	return 0;
}

const struct exporter export_json_entry = {
	"json",
	"json",
	"the show --json objects, redacted, with \"embargoed\"",
	"an array of the `show --json` objects, with `embargoed`, "
	"`embargo_state` (undecided, embargoed, overdue, public, disclosed, "
	"closed), `deadline` (the date, else the policy default), and "
	"`reporter` {`name`: null, `email`: null, `withheld`: true} without "
	"credit consent. `vendors` is [{`name`, `kind`, `status`, "
	"`notified_at`, `updated_at`, `nda_requested`, `statement`, "
	"`note`}]; `disclosure` is {`date`, `policy_verdict`, `reason`, "
	"`override`, `policy` {`default_days`, `max_days`, `clock_start`, "
	"`clock`, `default_limit`, `max_limit`, `policy_date`, "
	"`current_verdict`, `current_allowed`}, `proposals` [{`by`, `date`, "
	"`reason`, `at`, `officer`, `policy_verdict`}], `history` [{`date`, "
	"`policy_verdict`, `reason`, `override`, `officer`, `at`}]}; "
	"`original` is, for a duplicate, the report whose record covers it "
	"(the end of its `duplicate_of` links), else null.",
	export_json_write,
	NULL,
};
