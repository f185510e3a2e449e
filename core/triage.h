/*
 * Triage (triage.c): the report states and their order, severities,
 * the lifecycle, and triage_apply, which changes a report's triage
 * fields as events.
 */
#ifndef SECTEAM_CORE_TRIAGE_H
#define SECTEAM_CORE_TRIAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/session.h"
#include "store/types.h"
#include "util/util.h"

struct embargo;

/*
 * The one place for each rule about states and their order; every
 * listing, view, export and the store (as bound values) use these.
 */
extern const char *const report_states[]; /* NULL-terminated, in order */
extern const char *const report_severities[]; /* none .. critical */
/* The severities highest first, as listings order them. */
extern const char *const report_severity_order[];
/* The finished states (report_finished), NULL-terminated. */
extern const char *const report_finished_states[];
enum state_class {
	STATE_OPEN, /* under work: the embargo holds */
	STATE_RELEASED, /* disclosed, or closed after it */
	STATE_DROPPED, /* rejected or a duplicate: no embargo to keep */
};
enum state_class report_state_class(const char *state);
/* Finished: released or dropped, the embargo over or moot. */
bool report_finished(const char *state);
/* A state's place in report_states, a severity's in
 * report_severity_order (unknown values last). */
unsigned report_state_rank(const char *state);
unsigned report_severity_rank(const char *severity);
/* The deadline order, one rule for the list, `list --sort deadline` and
 * the first screen: reports under embargo first, earliest deadline
 * first (the decided date, else the policy's default), then the others;
 * ties by id.  report_deadline_key is a report's key (the largest time
 * once its embargo is over), report_deadline_cmp compares two reports by
 * key and id (negative, 0, positive as strcmp). */
time_t report_deadline_key(const struct embargo *e);
int report_deadline_cmp(time_t key_a, int64_t id_a, time_t key_b, int64_t id_b);
bool triage_state_valid(const char *state);
/* The states, in order, sep between them (caller frees). */
char *triage_state_names(const char *sep);
bool triage_severity_valid(const char *severity);
/* The moves the lifecycle allows, one line per state: "new -> triaged,
 * rejected, duplicate" (caller frees); for the help. */
char *triage_moves_text(void);
/* 0 when PRODUCT.md's lifecycle allows from -> to; else ERR_REFUSED with
 * a message listing what is allowed from `from`. */
int triage_check_transition(const char *from, const char *to, struct err *err);
/* A change of a report's triage fields; NULL/false fields stay. */
struct triage_change {
	int64_t id;
	const char *state;
	const char *severity;
	bool claim, unclaim, public, consent_credit, consent_exploit;
	const char *note;
	/* With claim: take the report over from the officer who holds it
	 * (without it, that is refused naming them). */
	bool take;
	/* A move to disclosed before the decided date: refused unless early,
	 * with the reason (an event of its own). */
	bool early;
	const char *reason;
	/* The report this one duplicates: required with state "duplicate";
	 * alone, it records or changes the link of a report already a
	 * duplicate (one marked before links were recorded). */
	int64_t of;
	/* With state: the state the caller read and checked the move from
	 * (triage_check_transition) before asking the officer.  Under the
	 * write lock the report must still be in it (else ERR_REFUSED: a
	 * colleague moved it meanwhile), and the move is not checked again.
	 * NULL: the move is checked here. */
	const char *checked_from;
};
/*
 * Applies c: each change checked (the lifecycle, known severities, a
 * non-empty note), stored and logged as an event, in one transaction.
 * Returns 0 with *summary (caller frees; display-safe) "report N: what
 * changed", or negative with err naming the report and the problem
 * (ERR_INVALID for bad values, ERR_REFUSED for a move the lifecycle does
 * not allow, a disclosure before the decided date without early and a
 * reason, or a claim on another officer's report without take, a
 * duplicate of itself, of a report that is itself a duplicate, or
 * `of` without the duplicate state; ERR_NOTFOUND for no such report or
 * no report `of`); nothing is written then.
 */
int triage_apply(struct session *sess, const struct triage_change *c,
		 char **summary, struct err *err);

/*
 * Duplicates, derived from the events alone: triage_apply records a
 * link as a "duplicate-of" event "duplicate of report N", and its end
 * (the report moved back to triaged) as "no longer a duplicate of
 * report N"; the latest one holds.  Closing a duplicate keeps its link.
 */
/* The report events ev (one report's, oldest first) link to, or 0. */
int64_t triage_duplicate_of(const struct event *ev, size_t n);
/* The reports linked as duplicates of id now, ascending, into *ids (the
 * caller's, allocated even when none).  0, or negative with err set. */
int triage_duplicates(struct session *sess, int64_t id, int64_t **ids,
		      size_t *n, struct err *err);
/* The original whose record covers a duplicate of `of`: `of` itself,
 * or the report at the end of its own links when it became a duplicate
 * later (at most 16 links followed).  0, or negative with err set. */
int triage_original(struct session *sess, int64_t of, int64_t *original,
		    struct err *err);

#endif
