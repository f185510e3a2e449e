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

/*
 * libical is loaded when an export first needs it (dlopen), not by every
 * start of the program: it brings ICU and the C++ runtime, and resolving
 * their symbols cost each command a third of its start-up (4 of 12 ms).
 */
#if ICAL_MAJOR_VERSION != 3
#error "libical 3 (libical.so.3) is what this file loads"
#endif
#define ICAL_SONAME "libical.so.3"
#define ICAL_FNS(X)                       \
	X(icaltime_from_timet_with_zone)  \
	X(icaltimezone_get_utc_timezone)  \
	X(icalcomponent_new_vevent)       \
	X(icalcomponent_new_valarm)       \
	X(icalcomponent_new_vcalendar)    \
	X(icalcomponent_add_property)     \
	X(icalcomponent_add_component)    \
	X(icalcomponent_as_ical_string_r) \
	X(icalcomponent_free)             \
	X(icalproperty_new_uid)           \
	X(icalproperty_new_dtstamp)       \
	X(icalproperty_new_summary)       \
	X(icalproperty_new_description)   \
	X(icalproperty_new_dtstart)       \
	X(icalproperty_new_dtend)         \
	X(icalproperty_new_categories)    \
	X(icalproperty_new_action)        \
	X(icalproperty_new_trigger)       \
	X(icaltriggertype_from_int)       \
	X(icalproperty_new_transp)        \
	X(icalproperty_new_prodid)        \
	X(icalproperty_new_version)       \
	X(icalproperty_new_calscale)

static struct {
#define ICAL_FIELD(f) __typeof__(f) *f;
	ICAL_FNS(ICAL_FIELD)
#undef ICAL_FIELD
} ical;

static int ical_load(struct err *err)
{
	static void *lib;
#define ICAL_NAME(f) #f,
#define ICAL_SLOT(f) (void **)&ical.f,
	static const char *const names[] = { ICAL_FNS(ICAL_NAME) };
	void **const slots[] = { ICAL_FNS(ICAL_SLOT) };
#undef ICAL_NAME
#undef ICAL_SLOT

	return dl_load(&lib, ICAL_SONAME, "the iCalendar export", "libical 3",
		       names, slots, ARRAY_SIZE(names), err);
}

static struct icaltimetype utc(time_t t)
{
	return ical.icaltime_from_timet_with_zone(
		t, 0, ical.icaltimezone_get_utc_timezone());
}

static struct icaltimetype day(time_t t, int plus)
{
	struct icaltimetype d = ical.icaltime_from_timet_with_zone(
		t + (time_t)plus * 86400, 1,
		ical.icaltimezone_get_utc_timezone());

	d.is_date = 1;
	return d;
}

static icalcomponent *event(const char *uid, time_t stamp, const char *summary,
			    const char *description)
{
	icalcomponent *ev = ical.icalcomponent_new_vevent();

	ical.icalcomponent_add_property(ev, ical.icalproperty_new_uid(uid));
	ical.icalcomponent_add_property(
		ev, ical.icalproperty_new_dtstamp(utc(stamp)));
	ical.icalcomponent_add_property(ev,
					ical.icalproperty_new_summary(summary));
	ical.icalcomponent_add_property(
		ev, ical.icalproperty_new_description(description));
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
		icalcomponent *alarm = ical.icalcomponent_new_valarm();

		uid = xasprintf("report-%lld-disclosure@%s", id, domain);
		summary =
			xasprintf("Disclosure of report %lld: %s", id, subject);
		desc = xasprintf(
			"Report %lld (%s, severity %s).\nPolicy verdict: %s%s.%s%s",
			id, r->state, r->severity, last->verdict,
			last->override ? ", overridden" : "",
			*reason ? "\nReason: " : "", reason);
		ev = event(uid, d->now, summary, desc);
		ical.icalcomponent_add_property(
			ev, ical.icalproperty_new_dtstart(utc(r->disclosure)));
		ical.icalcomponent_add_property(
			ev,
			ical.icalproperty_new_dtend(utc(r->disclosure + 3600)));
		ical.icalcomponent_add_property(
			ev, ical.icalproperty_new_categories("disclosure"));
		ical.icalcomponent_add_property(
			alarm,
			ical.icalproperty_new_action(ICAL_ACTION_DISPLAY));
		ical.icalcomponent_add_property(
			alarm,
			ical.icalproperty_new_trigger(
				ical.icaltriggertype_from_int(-86400)));
		free(desc);
		desc = xasprintf("Report %lld is disclosed tomorrow", id);
		ical.icalcomponent_add_property(
			alarm, ical.icalproperty_new_description(desc));
		ical.icalcomponent_add_component(ev, alarm);
		ical.icalcomponent_add_component(cal, ev);
		free(uid);
		free(summary);
		free(desc);
		free(reason);
	}
	if (r->public && !r->disclosure) {
		/* Already public: the policy date is now, and a calendar with
		 * no component at all would not be valid RFC 5545. */
		uid = xasprintf("report-%lld-public@%s", id, domain);
		summary = xasprintf(
			"Report %lld is already public: disclose now: %s", id,
			subject);
		ev = event(
			uid, d->now, summary,
			"The report is already public; the policy date is now.");
		ical.icalcomponent_add_property(
			ev, ical.icalproperty_new_dtstart(day(d->now, 0)));
		ical.icalcomponent_add_property(
			ev, ical.icalproperty_new_dtend(day(d->now, 1)));
		ical.icalcomponent_add_property(
			ev, ical.icalproperty_new_categories("disclosure"));
		ical.icalcomponent_add_component(cal, ev);
		free(uid);
		free(summary);
	}
	if (!r->public) {
		static const char *const what[] = { "default", "maximum" };
		for (int i = 0; i < 2; i++) {
			time_t limit = i ? d->ans.max_limit
					 : d->ans.default_limit;
			long days = i ? d->pol.max_days : d->pol.default_days;
			uid = xasprintf("report-%lld-policy-%s@%s", id, what[i],
					domain);
			summary = xasprintf(
				"Policy %s limit (%ld days) for report %lld: %s",
				what[i], days, id, subject);
			desc = xstrdup(
				i ? "Last day a disclosure date may be set with a reason; later needs an override."
				  : "Last day of the policy's default embargo; later dates need a reason.");
			ev = event(uid, d->now, summary, desc);
			ical.icalcomponent_add_property(
				ev,
				ical.icalproperty_new_dtstart(day(limit, 0)));
			ical.icalcomponent_add_property(
				ev, ical.icalproperty_new_dtend(day(limit, 1)));
			ical.icalcomponent_add_property(
				ev,
				ical.icalproperty_new_transp(
					ICAL_TRANSP_TRANSPARENT));
			ical.icalcomponent_add_property(
				ev,
				ical.icalproperty_new_categories(
					"embargo-policy"));
			ical.icalcomponent_add_component(cal, ev);
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
	icalcomponent *cal;
	char *domain, *s;
	int r = 0;

	(void)o;
	if ((r = ical_load(err)) < 0)
		return r;
	cal = ical.icalcomponent_new_vcalendar();
	domain = safe_str(
		config_get(sess->cfg, "team.domain", "secteam.invalid"));
	ical.icalcomponent_add_property(
		cal,
		ical.icalproperty_new_prodid(
			"-//secteam-tui//embargo calendar//EN"));
	ical.icalcomponent_add_property(cal,
					ical.icalproperty_new_version("2.0"));
	ical.icalcomponent_add_property(
		cal, ical.icalproperty_new_calscale("GREGORIAN"));
	for (size_t i = 0; i < n; i++)
		add_report(cal, d[i], domain);
	s = ical.icalcomponent_as_ical_string_r(cal);
	if (!s || fputs(s, out) == EOF)
		r = err_setc(err, ERR_IO, "cannot write the iCalendar export");
	free(s);
	free(domain);
	ical.icalcomponent_free(cal);
	return r;
}

const struct exporter export_ics_entry = {
	"ics",
	"ics",
	"disclosure dates and policy limits, for a calendar",
	"a VEVENT per disclosure date with a VALARM the day before, and the "
	"policy limits as all-day events; UIDs from the report id and "
	"`team.domain`.",
	export_ics_write,
	NULL,
};
