/* JSON building blocks for core/ (jansson); see json.c. */
#ifndef SECTEAM_JSON_H
#define SECTEAM_JSON_H

#include <jansson.h>
#include <stdio.h>

#include "core/core.h"

/* A JSON string from untrusted text (fixed to valid UTF-8), null for NULL. */
json_t *json_text(const char *s);
/* RFC 3339 UTC, or null for 0. */
json_t *json_time(time_t t);
json_t *report_summary_json(const struct report *r);
json_t *report_full_json(struct session *sess, const struct report_full *rf);
/* Adds "embargo_state" and "deadline" (embargo.c) to o: show --json,
 * list --json and the json export carry them. */
void embargo_json(const struct embargo *e, json_t *o);

/* advisory.c: the loop the JSON advisory exports (csaf, osv, cve) share.
 * One record of dossier d, whose events are folded into fc. */
struct fixcve;
typedef json_t *(*advisory_record_fn)(struct session *sess,
				      const struct dossier *d,
				      const struct fixcve *fc, void *arg);
/* Writes to out the records of each of the n dossiers (rec may give an
 * array: several records; one record in all: the object, several: an
 * array); ERR_IO "cannot write the WHAT" when out fails. */
int advisory_write_json(struct session *sess, FILE *out,
			struct dossier *const *d, size_t n, const char *what,
			advisory_record_fn rec, void *arg, struct err *err);

#endif
