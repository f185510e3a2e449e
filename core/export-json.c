/*
 * The JSON export: an array of the `show --json` objects (json.c), one
 * per report, with two changes.  Without credit consent the reporter's
 * identity is withheld: "reporter" becomes {"name": null, "email": null,
 * "withheld": true}, the From and key fingerprint of the reporter's
 * messages are nulled, and every other string is passed through
 * export_redact().  And "embargoed" says whether the report is still
 * under embargo.  Written ASCII-only (JSON_ENSURE_ASCII).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "core/core.h"
#include "core/json.h"

static void redact_tree(const struct dossier *d, json_t *j)
{
	const char *key;
	json_t *v;
	size_t i;

	if (json_is_object(j)) {
		json_object_foreach(j, key, v)
			redact_tree(d, v);
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v)
			redact_tree(d, v);
	} else if (json_is_string(j)) {
		char *t = export_redact(d, json_string_value(j));
		if (strcmp(t, json_string_value(j)))
			json_string_set(j, t);
		free(t);
	}
}

/* Nulls the identifying fields of the reporter's own messages. */
static void redact_messages(const struct dossier *d, json_t *o)
{
	json_t *msgs = json_object_get(o, "messages_detail"), *m;
	const char *email = d->f.r.reporter_email;
	size_t i;

	json_array_foreach(msgs, i, m) {
		const char *from = json_string_value(json_object_get(m, "from"));
		if (from && email && !strcasecmp(from, email)) {
			json_object_set_new(m, "from", json_null());
			json_object_set_new(m, "fingerprint", json_null());
		}
	}
	if (d->f.nmsgs && d->f.msgs[0].from_email && email &&
	    !strcasecmp(d->f.msgs[0].from_email, email))
		json_object_set_new(json_object_get(o, "signature"), "fingerprint",
				    json_null());
}

static json_t *export_json_one(struct cmd_ctx *ctx, const struct dossier *d)
{
	json_t *o = report_full_json(ctx, &d->f);

	if (!d->f.r.consent_credit) {
		json_object_set_new(o, "reporter",
				    json_pack("{s:n, s:n, s:b}", "name", "email",
					      "withheld", 1));
		redact_messages(d, o);
		redact_tree(d, o);
	}
	json_object_set_new(o, "embargoed", json_boolean(dossier_embargoed(d)));
	return o;
}

int export_json(struct cmd_ctx *ctx, FILE *out, struct dossier *const *d,
		size_t n, const struct export_opts *o, struct err *err)
{
	json_t *a = json_array();
	int r;

	(void)o;
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, export_json_one(ctx, d[i]));
	r = json_print(out, a);
	json_decref(a);
	if (r < 0)
		return err_setc(err, ERR_IO, "cannot write the JSON export");
	return 0;
}
