/*
 * The iCalendar export (RFC 5545, built with libical): per report, a
 * VEVENT at its disclosure date with a VALARM the day before (an already
 * public report without a date: an all-day event today), and, while
 * the embargo policy applies (not already public), the policy's default
 * and maximum limits as all-day events.  UIDs are derived from the report
 * id and the team's domain (config team.domain, default secteam.invalid)
 * so a re-export updates the same events.  Text is redacted and stripped
 * of control characters (dossier_text) before libical escapes and folds
 * it, so "END:VEVENT" or a CRLF in a subject stays inside its property.
 */
#include <stdlib.h>
#include <string.h>

#include <libical/ical.h>

#include "core/core.h"
#include "export/export.h"

static struct icaltimetype utc(time_t t)
{
	return icaltime_from_timet_with_zone(t, 0, icaltimezone_get_utc_timezone());
}

static struct icaltimetype day(time_t t, int plus)
{
	struct icaltimetype d = icaltime_from_timet_with_zone(
		t + (time_t)plus * 86400, 1, icaltimezone_get_utc_timezone());

	d.is_date = 1;
	return d;
}

static icalcomponent *event(const char *uid, time_t stamp, const char *summary,
			    const char *description)
{
	icalcomponent *ev = icalcomponent_new_vevent();

	icalcomponent_add_property(ev, icalproperty_new_uid(uid));
	icalcomponent_add_property(ev, icalproperty_new_dtstamp(utc(stamp)));
	icalcomponent_add_property(ev, icalproperty_new_summary(summary));
	icalcomponent_add_property(ev, icalproperty_new_description(description));
	return ev;
}

static void add_report(icalcomponent *cal, const struct dossier *d,
		       const char *domain)
{
	const struct report *r = &d->f.r;
	long long id = (long long)r->id;
	char *subject = dossier_text(d, r->subject);
	char *uid, *summary, *desc;
	icalcomponent *ev;

	if (r->disclosure) {
		const struct decision *last = &d->decisions[d->ndecisions - 1];
		char *reason = dossier_text(d, last->reason);
		icalcomponent *alarm = icalcomponent_new_valarm();

		uid = xasprintf("report-%lld-disclosure@%s", id, domain);
		summary = xasprintf("Disclosure of report %lld: %s", id, subject);
		desc = xasprintf("Report %lld (%s, severity %s).\nPolicy verdict: %s%s.%s%s",
				 id, r->state, r->severity, last->verdict,
				 last->override ? ", overridden" : "",
				 *reason ? "\nReason: " : "", reason);
		ev = event(uid, d->now, summary, desc);
		icalcomponent_add_property(ev, icalproperty_new_dtstart(utc(r->disclosure)));
		icalcomponent_add_property(ev, icalproperty_new_dtend(utc(r->disclosure + 3600)));
		icalcomponent_add_property(ev, icalproperty_new_categories("disclosure"));
		icalcomponent_add_property(alarm, icalproperty_new_action(ICAL_ACTION_DISPLAY));
		icalcomponent_add_property(alarm, icalproperty_new_trigger(
			icaltriggertype_from_int(-86400)));
		free(desc);
		desc = xasprintf("Report %lld is disclosed tomorrow", id);
		icalcomponent_add_property(alarm, icalproperty_new_description(desc));
		icalcomponent_add_component(ev, alarm);
		icalcomponent_add_component(cal, ev);
		free(uid);
		free(summary);
		free(desc);
		free(reason);
	}
	if (r->public && !r->disclosure) {
		/* Already public: the policy date is now, and a calendar with
		 * no component at all would not be valid RFC 5545. */
		uid = xasprintf("report-%lld-public@%s", id, domain);
		summary = xasprintf("Report %lld is already public: disclose now: %s",
				    id, subject);
		ev = event(uid, d->now, summary,
			   "The report is already public; the policy date is now.");
		icalcomponent_add_property(ev, icalproperty_new_dtstart(day(d->now, 0)));
		icalcomponent_add_property(ev, icalproperty_new_dtend(day(d->now, 1)));
		icalcomponent_add_property(ev, icalproperty_new_categories("disclosure"));
		icalcomponent_add_component(cal, ev);
		free(uid);
		free(summary);
	}
	if (!r->public) {
		static const char *const what[] = { "default", "maximum" };
		for (int i = 0; i < 2; i++) {
			time_t limit = i ? d->ans.max_limit : d->ans.default_limit;
			long days = i ? d->pol.max_days : d->pol.default_days;
			uid = xasprintf("report-%lld-policy-%s@%s", id, what[i], domain);
			summary = xasprintf("Policy %s limit (%ld days) for report %lld: %s",
					    what[i], days, id, subject);
			desc = xstrdup(i ? "Last day a disclosure date may be set with a reason; later needs an override." :
					     "Last day of the policy's default embargo; later dates need a reason.");
			ev = event(uid, d->now, summary, desc);
			icalcomponent_add_property(ev, icalproperty_new_dtstart(day(limit, 0)));
			icalcomponent_add_property(ev, icalproperty_new_dtend(day(limit, 1)));
			icalcomponent_add_property(ev, icalproperty_new_transp(ICAL_TRANSP_TRANSPARENT));
			icalcomponent_add_property(ev, icalproperty_new_categories("embargo-policy"));
			icalcomponent_add_component(cal, ev);
			free(uid);
			free(summary);
			free(desc);
		}
	}
	free(subject);
}

static int export_ics_write(struct session *sess, FILE *out,
			    struct dossier *const *d, size_t n,
			    const struct export_opts *o, struct err *err)
{
	icalcomponent *cal = icalcomponent_new_vcalendar();
	char *domain = safe_str(config_get(sess->cfg, "team.domain", "secteam.invalid"));
	char *s;
	int r = 0;

	(void)o;
	icalcomponent_add_property(cal, icalproperty_new_prodid("-//secteam-tui//embargo calendar//EN"));
	icalcomponent_add_property(cal, icalproperty_new_version("2.0"));
	icalcomponent_add_property(cal, icalproperty_new_calscale("GREGORIAN"));
	for (size_t i = 0; i < n; i++)
		add_report(cal, d[i], domain);
	s = icalcomponent_as_ical_string_r(cal);
	if (!s || fputs(s, out) == EOF)
		r = err_setc(err, ERR_IO, "cannot write the iCalendar export");
	free(s);
	free(domain);
	icalcomponent_free(cal);
	return r;
}

const struct exporter export_ics_entry = {
	"ics", "ics", "disclosure dates and policy limits, for a calendar",
	"a VEVENT per disclosure date with a VALARM the day before, and the "
	"policy limits as all-day events; UIDs from the report id and "
	"`team.domain`.",
	export_ics_write, NULL,
};
