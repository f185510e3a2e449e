/*
 * Vendors and distributions, the use cases (vendor.c), for the `vendor`
 * command and the UI's vendors panel: the directory (add, edit) and each
 * vendor's status on a report (notify, status, statements, notes, an NDA
 * request, a correction).  Every change is checked (the status
 * lifecycle), stored and logged as an event in one transaction; an NDA
 * request is recorded with the policy's answer (policy_nda_answer()).
 */
#ifndef SECTEAM_VENDOR_H
#define SECTEAM_VENDOR_H

#include "core/core.h"

struct json_t;

/* Vendor kinds and the per-report status lifecycle. */
extern const char *const vendor_kinds[]; /* NULL-terminated */
extern const char *const vendor_statuses[]; /* NULL-terminated, in order */
bool vendor_kind_valid(const char *kind);
bool vendor_status_valid(const char *status);
/* 0 when a vendor may go from -> to; ERR_REFUSED naming the vendor and
 * what is allowed otherwise. */
int vendor_check_transition(const char *vendor, const char *from,
			    const char *to, struct err *err);
/* The "vendors" array of show --json for report id (empty on error). */
struct json_t *vendors_json(struct session *sess, int64_t report_id);

/* vendor.c: the vendor directory, by name (caller frees each with
 * vendor_release and the array); negative with err when the store fails. */
int vendors_list(struct session *sess, struct vendor **out, size_t *n,
		 struct err *err);

/* Adds a vendor to the directory.  Returns 0 with *summary (caller frees;
 * display-safe), or ERR_INVALID (a bad name, address, key or kind),
 * ERR_DUPLICATE (the name is taken, in any case). */
int vendor_directory_add(struct session *sess, const char *name,
			 const char *contact, const char *key, const char *kind,
			 char **summary, struct err *err);
/* Changes a vendor's contact, key or kind (NULL: unchanged). */
int vendor_directory_edit(struct session *sess, const char *name,
			  const char *contact, const char *key,
			  const char *kind, char **summary, struct err *err);

/* The directory's entry for name (any case) into *v (release it);
 * ERR_NOTFOUND naming it. */
int vendors_get(struct session *sess, const char *name, struct vendor *v,
		struct err *err);

/* What changes for one vendor on one report. */
struct vendor_change {
	int64_t report;
	const char *vendor; /* its name in the directory, any case */
	bool notify; /* tell it now: refused when already told */
	const char *status; /* the new status, or NULL */
	bool correct; /* the status was recorded wrongly: set it
				 * whatever the lifecycle says, recorded as a
				 * correction */
	const char *note, *statement;
	bool nda; /* it asked for an NDA */
};
/* Applies c.  Returns 0 with *summary ("report N: ..."), or negative with
 * err naming the report and the vendor: ERR_REFUSED for a move the
 * lifecycle does not allow, ERR_NOTFOUND for no such report or vendor,
 * ERR_INVALID for nothing to change or a bad value. */
int vendor_change(struct session *sess, const struct vendor_change *c,
		  char **summary, struct err *err);

#endif
