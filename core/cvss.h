/*
 * CVSS 3.1 base metrics: a vector string parsed strictly and its base
 * score computed by the specification's formula (FIRST, CVSS v3.1
 * Specification Document, sections 6 and 7).  The public records carry
 * the vector, the score and its severity (CVE metrics, OSV severity,
 * CSAF scores); the score is never stored, always computed from the
 * vector.
 */
#ifndef SECTEAM_CVSS_H
#define SECTEAM_CVSS_H

#include "util/util.h"

/* The eight base metrics, in the specification's order. */
enum cvss_metric {
	CVSS_AV,
	CVSS_AC,
	CVSS_PR,
	CVSS_UI,
	CVSS_S,
	CVSS_C,
	CVSS_I,
	CVSS_A,
	CVSS_NMETRICS,
};

struct cvss {
	char value[CVSS_NMETRICS]; /* each metric's letter: 'N', 'L', ... */
	char vector[64]; /* "CVSS:3.1/AV:N/AC:L/..." in the
			  * specification's order */
	int score; /* the base score in tenths: 98 is 9.8 */
	const char *severity; /* "NONE", "LOW", "MEDIUM", "HIGH",
			       * "CRITICAL" (the qualitative rating) */
};

/*
 * Parses a CVSS 3.1 vector string of the base metrics, each exactly
 * once, in any order ("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H"),
 * and computes its base score.  0, or ERR_INVALID naming the vector and
 * the metric at fault: another version, an unknown metric or value, one
 * given twice or missing, a temporal or environmental metric (only the
 * base score is recorded).
 */
int cvss_parse(const char *vector, struct cvss *out, struct err *err);

/* The metric's name in the CVSS JSON schema ("attackVector") and the
 * schema's word for its value ("NETWORK"). */
const char *cvss_json_name(enum cvss_metric m);
const char *cvss_json_value(const struct cvss *c, enum cvss_metric m);

/* "9.8" for 98: buf holds at least 8 bytes; returns buf. */
char *cvss_score_str(int score, char *buf);

#endif
