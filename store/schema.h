/* The numbered migrations of each engine (internal to store/). */
#ifndef SECTEAM_STORE_SCHEMA_H
#define SECTEAM_STORE_SCHEMA_H

#include <stddef.h>

/* schema-sqlite.c: entry i brings PRAGMA user_version from i to i+1. */
extern const char *const schema_sqlite[];
extern const size_t schema_sqlite_count;
/* schema-pg.c: entry i brings secteam.schema_info from i to i+1. */
extern const char *const schema_pg[];
extern const size_t schema_pg_count;

/*
 * What both engines' migrations that apply events to reports (SQLite 12,
 * PostgreSQL 10), participants (13, 11) and vendor statuses (14, 12)
 * name: the lifecycle (core/triage.c's transitions, which
 * test-store compares with it), the severities, consent's two sentences
 * (core/triage.c writes them) and the kinds applied.  Part of those
 * migrations' text: never edit; a change is a new migration.
 */
#define TRANSITIONS                                                      \
	"('new', 'triaged'), ('new', 'rejected'), ('new', 'duplicate')," \
	" ('triaged', 'accepted'), ('triaged', 'rejected'),"             \
	" ('triaged', 'duplicate'), ('accepted', 'fixing'),"             \
	" ('accepted', 'fix-ready'), ('accepted', 'rejected'),"          \
	" ('fixing', 'fix-ready'), ('fix-ready', 'disclosed'),"          \
	" ('fix-ready', 'fixing'), ('disclosed', 'closed'),"             \
	" ('rejected', 'closed'), ('rejected', 'triaged'),"              \
	" ('duplicate', 'closed'), ('duplicate', 'triaged')"
#define SEVERITIES "'none', 'low', 'medium', 'high', 'critical'"
#define SEVERITY_NAMES "none, low, medium, high, critical"
#define CONSENT_CREDIT "'reporter consents to be credited'"
#define CONSENT_EXPLOIT "'reporter consents to the release of exploit code'"
#define PARTICIPANT_KINDS                                           \
	"('participant-add', 'participant-key', 'participant-ack'," \
	" 'participant-remove')"
#define VENDOR_KINDS                                                     \
	"('vendor-notify', 'vendor-status', 'vendor-status-correction'," \
	" 'vendor-statement', 'vendor-note', 'nda-request')"
#define VENDOR_STATUSES                                           \
	"'not-notified', 'notified', 'acknowledged', 'affected'," \
	" 'not-affected', 'fixed', 'declined'"
/* core/vendor.c's order of statuses, of the event's (VENDOR_RANK_NEW)
 * and of the row's (VENDOR_RANK_ROW, row v): a status moves only up it
 * (or from affected to fixed), but by a correction. */
#define VENDOR_RANK_NEW                                                     \
	"(CASE NEW.value WHEN 'not-notified' THEN 0 WHEN 'notified' THEN 1" \
	" WHEN 'acknowledged' THEN 2 ELSE 3 END)"
#define VENDOR_RANK_ROW                                                    \
	"(CASE v.status WHEN 'not-notified' THEN 0 WHEN 'notified' THEN 1" \
	" WHEN 'acknowledged' THEN 2 ELSE 3 END)"
/* What a vendor event sets in the vendor's row of the report (both
 * engines' apply, after its checks): the status, when it was first
 * notified, the note, statement and NDA request; updated_at, its time. */
#define VENDOR_APPLY_SET                                                                        \
	"    status = CASE WHEN NEW.kind IN ('vendor-notify', 'vendor-status',"                 \
	"      'vendor-status-correction') THEN NEW.value ELSE status END,"                     \
	"    notified_at = CASE WHEN NEW.value = 'notified' AND NEW.kind <> 'vendor-note'"      \
	"      AND NEW.kind <> 'vendor-statement' THEN coalesce(notified_at, NEW.at)"           \
	"      ELSE notified_at END,"                                                           \
	"    updated_at = NEW.at,"                                                              \
	"    nda_requested = CASE WHEN NEW.kind = 'nda-request' THEN 1 ELSE nda_requested END," \
	"    note = CASE WHEN NEW.kind = 'vendor-note' THEN NEW.value ELSE note END,"           \
	"    statement = CASE WHEN NEW.kind = 'vendor-statement' THEN NEW.value"                \
	"      ELSE statement END"                                                              \
	"    WHERE report_id = NEW.report_id AND vendor_id = NEW.ref;"
/* When a status event of a vendor (row v of report_vendors) is refused:
 * no status or an unknown one, no change, a notification that is not
 * the first, a step down but by a correction. */
#define VENDOR_REFUSED                                                 \
	"(NEW.value IS NULL OR NEW.value NOT IN (" VENDOR_STATUSES ")" \
	" OR NEW.value = v.status"                                     \
	" OR (NEW.kind = 'vendor-notify' AND (NEW.value <> 'notified'" \
	" OR v.status <> 'not-notified'))"                             \
	" OR (NEW.kind = 'vendor-status' AND NOT (" VENDOR_RANK_NEW    \
	" > " VENDOR_RANK_ROW                                          \
	" OR (v.status = 'affected' AND NEW.value = 'fixed'))))"
#define APPLIED_KINDS \
	"('state', 'severity', 'consent', 'claim', 'public', 'release-start')"

#endif
