/*
 * The report lifecycle, in one place:
 *
 *   new -> triaged -> accepted | rejected | duplicate
 *   accepted -> fixing -> fix-ready -> disclosed -> closed
 *
 * plus the moves an officer needs in practice: rejecting or marking a
 * duplicate straight from new, a fix that turns out not ready
 * (fix-ready -> fixing), a fix that arrives with the report
 * (accepted -> fix-ready), and closing rejected or duplicate reports.
 * Nothing moves backwards past acceptance or out of closed.
 */
#include <string.h>

#include "core/core.h"

const char *const report_states[] = {
	"new", "triaged", "accepted", "rejected", "duplicate", "fixing",
	"fix-ready", "disclosed", "closed", NULL,
};

const char *const report_severities[] = {
	"none", "low", "medium", "high", "critical", NULL,
};

static const struct {
	const char *from;
	const char *to[4];
} transitions[] = {
	{ "new", { "triaged", "rejected", "duplicate", NULL } },
	{ "triaged", { "accepted", "rejected", "duplicate", NULL } },
	{ "accepted", { "fixing", "fix-ready", "rejected", NULL } },
	{ "fixing", { "fix-ready", NULL } },
	{ "fix-ready", { "disclosed", "fixing", NULL } },
	{ "disclosed", { "closed", NULL } },
	{ "rejected", { "closed", "triaged", NULL } },
	{ "duplicate", { "closed", "triaged", NULL } },
	{ "closed", { NULL } },
};

static bool in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

bool triage_state_valid(const char *state)
{
	return state && in_list(report_states, state);
}

bool triage_severity_valid(const char *severity)
{
	return severity && in_list(report_severities, severity);
}

bool triage_state_closed(const char *state)
{
	return !strcmp(state, "disclosed") || !strcmp(state, "closed") ||
	       !strcmp(state, "rejected") || !strcmp(state, "duplicate");
}

int triage_check_transition(const char *from, const char *to,
			    struct err *err)
{
	if (!triage_state_valid(to))
		return err_setc(err, ERR_INVALID,
				"unknown state '%s' (new, triaged, accepted, rejected, duplicate, fixing, fix-ready, disclosed, closed)",
				to);
	if (!strcmp(from, to))
		return err_setc(err, ERR_REFUSED, "the report is already %s", to);
	for (size_t i = 0; i < ARRAY_SIZE(transitions); i++) {
		struct sbuf sb = SBUF_INIT;
		if (strcmp(transitions[i].from, from))
			continue;
		for (size_t j = 0; transitions[i].to[j]; j++) {
			if (!strcmp(transitions[i].to[j], to)) {
				sbuf_release(&sb);
				return 0;
			}
			sbuf_addf(&sb, "%s%s", j ? ", " : "", transitions[i].to[j]);
		}
		err_setc(err, ERR_REFUSED, "cannot go from %s to %s (from %s: %s)",
			 from, to, from, sb.len ? sb.buf : "no further state");
		sbuf_release(&sb);
		return ERR_REFUSED;
	}
	return err_setc(err, ERR_INVALID, "unknown current state '%s'", from);
}
