/*
 * core: the domain.
 *
 * Reports, triage, the import pipeline, the embargo policy, maintainers,
 * vendors, the team and the timeline, over a session (session.h: the
 * config, the store, the keyring, the roster, opened once).  Use cases
 * take a session and values and return results: core never prints, and
 * every failure goes into the struct err its caller passes.  It talks to
 * store/, crypto/ and mail/ and uses the libraries that depend on util/
 * alone: maint/ (MAINTAINERS lookups), touched/ (the files a report
 * names) and config/ (the config file).  Above it: export/ (the formats),
 * outgoing/ (every mail sent), cmd/ (the commands), tui/.  As neomutt's
 * lib.h files do, this header holds the folder's map and includes each
 * module's header; a file may include the one it needs instead.  Files:
 *   session.c, .h       the session
 *   triage.c, .h        states, transitions, severities; triage_apply
 *   import.c, .h        importing messages, mboxes, Maildirs
 *   pipeline.c, .h      one message: parse, decrypt, verify, classify
 *   seal.c, .h          bodies at rest, encrypted to the roster
 *   report.c, .h        a report with its thread, events and files;
 *                       opening a stored message; core_write
 *   attachment.c, .h    a report's attachments: list, save
 *   sender.c, .h        a From mailbox shown address first, with warnings
 *   view-data.c, .h     what the UI pages through, colleagues' changes
 *   policy.c, .h        the embargo policy, one rule for every date change
 *   embargo.c, .h       a report's embargo state and deadline
 *   dates.c, .h         disclosure dates: propose, set, start the release
 *   disclosure.c, .h    a report's dossier; the gate of public texts;
 *                       redaction
 *   participants.c, .h  people brought into a report
 *   vendor.c, .h        vendor kinds and statuses; the directory
 *   suggest.c, .h       what MAINTAINERS suggests for a report
 *   team.c, .h          a team server's officers; roster.c: the roster
 *                       and roster reseal (team.h)
 *   fixcve.c, .h        fix tracking and the CVE lifecycle, as events;
 *                       ktree.c, .h: the kernel tree read with libgit2;
 *                       affected.c, .h: the versions the bug is in
 *   due.c, .h           what is due: one rule for due and its reminders
 *   stats.c, .h         the team's numbers
 *   search.c, .h        searching reports: fields, then bodies in memory
 *   json.c, .h          the JSON form of a report (show --json, list)
 */
#ifndef SECTEAM_CORE_H
#define SECTEAM_CORE_H

#include "config/config.h"
#include "core/session.h"
#include "maint/maint.h"
#include "store/types.h"
#include "util/util.h"

#include "core/triage.h"
#include "core/import.h"
#include "core/report.h"
#include "core/attachment.h"
#include "core/sender.h"
#include "core/view-data.h"
#include "core/policy.h"
#include "core/embargo.h"
#include "core/disclosure.h"
#include "core/participants.h"
#include "core/vendor.h"
#include "core/due.h"

#endif
