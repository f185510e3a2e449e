/*
 * The JSON form of reports, shared by `show --json`, `list --json` and
 * the JSON export.  Field names are a contract with scripts (see the man
 * page).  Text from reports is made valid UTF-8 first; output is written
 * with JSON_ENSURE_ASCII so no control or bidi character reaches a
 * terminal raw.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/core.h"
#include "core/fixcve.h"
#include "core/json.h"

json_t *json_text(const char *s)
{
	json_t *j;
	char *fixed;

	if (!s)
		return json_null();
	fixed = utf8_fix(s, strlen(s));
	j = json_string(fixed);
	free(fixed);
	return j ? j : json_string("");
}

json_t *json_time(time_t t)
{
	char buf[32];

	return t ? json_string(fmt_rfc3339(t, buf)) : json_null();
}

json_t *report_summary_json(const struct report *r)
{
	return json_pack(
		"{s:I, s:o, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:b, s:I}", "id",
		(json_int_t)r->id, "subject", json_text(r->subject), "state",
		r->state, "severity", r->severity, "verdict",
		r->verdict == SIG_NONE
			? json_null()
			: json_string(sig_verdict_name(r->verdict)),
		"trust",
		r->verdict == SIG_NONE
			? json_null()
			: json_string(report_trust_name(report_trust_class(
				  r->verdict, r->signer_matches_from))),
		"received", json_time(r->received), "disclosure_date",
		json_time(r->disclosure), "claimed_by",
		json_text(r->claimed_by), "public", r->public, "messages",
		(json_int_t)r->nmessages);
}

void embargo_json(const struct embargo *e, json_t *o)
{
	json_object_set_new(o, "embargo_state",
			    json_string(embargo_state_name(e->state)));
	json_object_set_new(o, "deadline", json_time(e->deadline));
}

json_t *report_full_json(struct session *sess, const struct report_full *rf)
{
	const struct report *r = &rf->r;
	const struct message *first = rf->nmsgs ? &rf->msgs[0] : NULL;
	json_t *o = report_summary_json(r);
	json_t *files = json_array(), *events = json_array(),
	       *msgs = json_array();
	json_t *dups = json_array();
	struct policy pol;
	struct embargo e;
	struct fixcve fc;

	json_object_set_new(o, "reporter",
			    json_pack("{s:o, s:o}", "name",
				      json_text(r->reporter_name), "email",
				      json_text(r->reporter_email)));
	json_object_set_new(o, "encrypted", json_boolean(r->encrypted));
	json_object_set_new(
		o, "signature",
		json_pack("{s:o, s:o, s:b, s:s}", "verdict",
			  json_string(sig_verdict_name(first ? first->verdict
							     : SIG_NOT_SIGNED)),
			  "fingerprint",
			  json_text(first ? first->fingerprint : NULL),
			  "signer_matches_from",
			  first ? first->signer_matches_from : 0, "trust",
			  report_trust_name(report_trust_class(
				  first ? first->verdict : SIG_NOT_SIGNED,
				  first && first->signer_matches_from))));
	json_object_set_new(o, "consent",
			    json_pack("{s:b, s:b}", "credit", r->consent_credit,
				      "exploit", r->consent_exploit));
	json_object_set_new(o, "release_started",
			    json_time(r->release_started));
	policy_from_config(sess->cfg, &pol);
	embargo_of_report(&pol, r, util_now(), &e);
	embargo_json(&e, o);
	for (size_t i = 0; i < rf->nfiles; i++)
		json_array_append_new(files, json_text(rf->files[i]));
	json_object_set_new(o, "files", files);
	for (size_t i = 0; i < rf->nmsgs; i++) {
		const struct message *m = &rf->msgs[i];
		json_array_append_new(
			msgs,
			json_pack(
				"{s:I, s:o, s:b, s:o, s:o, s:o, s:o, s:b, s:o, s:o, s:b}",
				"id", (json_int_t)m->id, "message_id",
				json_text(m->message_id), "message_id_reused",
				m->message_id_reused, "in_reply_to",
				json_text(m->in_reply_to), "from",
				json_text(m->from_email), "subject",
				json_text(m->subject), "date",
				json_time(m->date), "encrypted", m->encrypted,
				"verdict",
				json_string(sig_verdict_name(m->verdict)),
				"fingerprint", json_text(m->fingerprint),
				"signer_matches_from", m->signer_matches_from));
	}
	json_object_set_new(o, "messages_detail", msgs);
	json_object_set_new(o, "participants", participants_json(sess, r->id));
	json_object_set_new(o, "vendors", vendors_json(sess, r->id));
	json_object_set_new(o, "disclosure", disclosure_json(sess, rf));
	for (size_t i = 0; i < rf->nevents; i++) {
		const struct event *e = &rf->events[i];
		json_array_append_new(events,
				      json_pack("{s:o, s:o, s:o, s:o}", "at",
						json_time(e->at), "officer",
						json_text(e->officer), "kind",
						json_text(e->kind), "detail",
						json_text(e->detail)));
	}
	json_object_set_new(o, "events", events);
	json_object_set_new(o, "duplicate_of",
			    rf->duplicate_of
				    ? json_integer((json_int_t)rf->duplicate_of)
				    : json_null());
	for (size_t i = 0; i < rf->nduplicates; i++)
		json_array_append_new(
			dups, json_integer((json_int_t)rf->duplicates[i]));
	json_object_set_new(o, "duplicates", dups);
	fixcve_fold(rf->events, rf->nevents, &fc);
	fixcve_add_json(o, &fc);
	fixcve_release(&fc);
	(void)sess;
	return o;
}
