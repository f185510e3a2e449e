/*
 * Bringing area maintainers into a report, the use cases (suggest.c), for
 * the `maintainers` command and the UI's participants panel: which kernel
 * tree to read MAINTAINERS from, what it suggests for a report, and who is
 * brought in, removed or has acknowledged.
 */
#ifndef SECTEAM_SUGGEST_H
#define SECTEAM_SUGGEST_H

#include "core/core.h"
#include "maint/maint.h"

/* The kernel tree for MAINTAINERS lookups: opt (from
 * --tree), else config kernel.tree, else the newest /usr/src/linux-*
 * holding MAINTAINERS, else the newest tree unpacked into the cache by
 * scripts/kernel-tree.sh.  Caller frees; NULL with err set when none. */
char *maintainers_find_tree(struct session *sess, const char *opt,
			    struct err *err);

/* What MAINTAINERS suggests for a report, from
 * the patch in its decrypted messages and the files it touches, for the
 * `maintainers ID` command and the UI's participants panel. */
struct maint_suggestions {
	char *tree; /* the kernel tree looked up, or NULL */
	struct maint_result res; /* every entry once (by address), in
				  * get_maintainer.pl's order, catch-all
				  * ones included */
	bool catch_all; /* catch-all entries are shown (asked, or
				  * config maintainers.include_catch_all) */
	size_t hidden; /* entries a listing leaves out */
	char *warnings; /* safe "warning: ..." lines, or NULL */
	/* res.v[0 .. nsigned) come from what the messages' verdicts cover;
	 * the entries after them only from text and patches no signature
	 * covers (files_unsigned): listings mark those, --add-all skips
	 * them. */
	size_t nsigned;
	char **files_unsigned;
	size_t nfiles_unsigned;
};
/* Fills *out (release it in any case) and returns 0; negative with err
 * set when the report, the tree (out->tree NULL: "no kernel tree ...")
 * or its MAINTAINERS cannot be read.  tree_opt as maintainers_find_tree. */
int maintainers_suggest(struct session *sess, int64_t id, const char *tree_opt,
			bool with_catch_all, struct maint_suggestions *out,
			struct err *err);
void maint_suggestions_release(struct maint_suggestions *s);
/* True when a listing leaves e out (catch-all or security contact). */
bool maintainers_hidden(const struct maint_entry *e, bool catch_all);

/* A change of who is in a report. */
struct participants_change {
	const char *const *add; /* suggested addresses, or "Name <addr>"
				     * for someone not suggested */
	size_t nadd;
	bool add_all; /* every suggested person shown: no
				     * mailing list (lists are usually
				     * public: named ones only), nothing only
				     * unsigned parts suggest */
	const char *const *remove; /* addresses */
	size_t nremove;
	const char *const *ack; /* addresses that acknowledged */
	size_t nack;
	const char *key; /* with one add: the key the officer
				     * confirmed for that person (a full
				     * fingerprint of a usable encryption
				     * key in the keyring) */
	const char *tree_opt; /* as maintainers_find_tree */
	bool catch_all; /* catch-all entries count as suggested */
};
/*
 * Applies c to report id in one transaction, an event each.  Adding
 * someone already in is a note, not an error.  Returns 0 with *done (what
 * changed, one display-safe line each) and *notes (warnings: a list
 * named, suggestions left out), both the caller's; negative with err
 * naming the report and the person, nothing written.
 */
int participants_change(struct session *sess, int64_t id,
			const struct participants_change *c, char **done,
			char **notes, struct err *err);

#endif
