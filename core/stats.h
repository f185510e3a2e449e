/*
 * The team's numbers (stats.c): reports per month and by state, by
 * subsystem (the top folder of the files they touch: net/ipv4/tcp.c
 * counts for "net"), days from receipt to triage, to a fix and to
 * disclosure (median and 90th percentile), decided embargoes longer than
 * 7 and 14 days, and what is overdue now (embargo.c's rule).  Read from
 * the compact keys, one query of milestones and one of touched files,
 * never every report's rows, so 100,000 reports answer in well under a
 * second.
 */
#ifndef SECTEAM_STATS_H
#define SECTEAM_STATS_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "util/util.h"

struct session;

struct stats_count {
	char *name; /* "2026-11", "triaged", "net": untrusted for
			      * subsystems (from a report's text) */
	size_t n;
};

/* Days from receipt to a milestone, over the reports that reached it. */
struct stats_days {
	size_t n;
	double median; /* the middle value (the mean of the two middle
			      * ones for an even n), in days */
	double p90; /* nearest rank: the value at rank ceil(0.9 n) */
};

struct team_stats {
	time_t now;
	size_t reports;
	struct stats_count *months; /* by month received, oldest first */
	size_t nmonths;
	struct stats_count *states; /* every state, in lifecycle order */
	size_t nstates;
	struct stats_count *subsystems; /* most reports first, then by name */
	size_t nsubsystems;
	struct stats_days triage, fix, disclose;
	size_t decided; /* reports with a decided date */
	size_t over7, over14; /* of those, embargoes (decided date
					  * minus the clock start) longer than
					  * 7 and 14 days */
	int64_t *overdue; /* overdue now (embargo.c), by id */
	size_t noverdue;
};

/* Computes the numbers at util_now().  0 with *st filled (release it),
 * or negative with err set (the store failed); *st is empty then. */
int team_stats_compute(struct session *sess, struct team_stats *st,
		       struct err *err);
void team_stats_release(struct team_stats *st);

#endif
