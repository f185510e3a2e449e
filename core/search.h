/*
 * Searching reports (search.c): "have we seen this before?".  A query
 * holds words, "phrases" and keys: file:PATH (a touched file contains
 * it), from:TEXT (the reporter's name or address contains it),
 * subject:TEXT (the subject contains it: no message is opened for it),
 * state:S[,S...] (one of those states, or "open": not finished),
 * severity:S[,S...] (one of those severities; "state=S" and "severity=S"
 * are the same terms in the list filter's older form) and
 * received:A..B (received from day A through day B, UTC; either end may
 * be left out, one day alone is that day).  Every term must match (AND),
 * ignoring ASCII case; a word or phrase matches the subject, the
 * reporter, a touched file or the text of a message of the thread (its
 * body and its patches), a phrase's spaces any run of white space.
 *
 * The subject, reporter, state, files and dates come from the store;
 * only the reports that still match those are opened, each message
 * decrypted in memory (report_open_message), searched and wiped, but
 * for those the officer's sealed index (sindex.h), kept in their cache
 * keyed and sealed under the team key, says hold a word in none of
 * their messages.
 * No copy of any text, and nothing in clear, is written anywhere.
 */
#ifndef SECTEAM_CORE_SEARCH_H
#define SECTEAM_CORE_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/session.h"
#include "store/types.h"
#include "util/util.h"

struct search_query {
	char **words; /* words and phrases, lowercase, spaces single */
	size_t nwords;
	char **files, **from, **subjects; /* file:, from:, subject: values,
					    lowercase */
	size_t nfiles, nfrom, nsubjects;
	char ***states; /* each state: term's states (NULL-ended) */
	size_t nstates;
	char ***severities; /* each severity: term's severities */
	size_t nseverities;
	time_t after, before; /* received in [after, before); 0: open */
};
/* Parses q.  0, or ERR_INVALID with err naming the query's bad part
 * (an unclosed quote, an unknown state, a bad date, an empty value or
 * query).  Release *out in any case. */
int search_parse(const char *q, struct search_query *out, struct err *err);
void search_query_release(struct search_query *q);
/* True when q holds state: and severity: terms alone: a report's row
 * answers it, no text is needed (the list and its filter). */
bool search_fields_only(const struct search_query *q);
/* Whether a report in state with severity meets q's state: and
 * severity: terms (the others are not looked at). */
bool search_state_matches(const struct search_query *q, const char *state,
			  const char *severity);

struct search_hit {
	struct report r;
	/* Where the first word matched ("subject", "from", "file", "text"),
	 * or the key that selected the report; and one display-safe line
	 * around it (text from a body: wiped on release). */
	const char *where;
	char *snippet;
};
struct search_result {
	struct search_hit *hits; /* by report id */
	size_t n;
	size_t opened; /* reports whose messages were decrypted */
	size_t passed; /* reports passed over unopened: their messages'
			* the sealed index (sindex.h) says a word
			* is in none of their messages */
	size_t unreadable; /* messages that could not be opened (not
				 * searched; no key of ours, say) */
};
/* Called as reports are opened: done of total so far. */
typedef void search_progress_fn(size_t done, size_t total, void *data);
/*
 * Runs q over every report.  0 with *res (release it in any case), or
 * negative with err set (the store unreachable); a message that cannot
 * be opened is counted in res->unreadable, not an error.
 */
int search_run(struct session *sess, const struct search_query *q,
	       search_progress_fn *progress, void *data,
	       struct search_result *res, struct err *err);
void search_result_release(struct search_result *res);
/* Whether report id matches q (its messages opened only when its fields
 * leave a word unmatched), for finding the next match in a list without
 * opening every report: 0 with *match, or negative with err set
 * (ERR_NOTFOUND for no such report). */
int search_report(struct session *sess, const struct search_query *q,
		  int64_t id, bool *match, struct err *err);

/*
 * An import's messages into the officer's search index (sindex.h), as
 * they are stored: message_id of report_id, from the text its import
 * read (the body and the attachments, the patches among them taken as
 * a search opening it takes them).  Kept in the session's index until
 * search_index_done writes it, which must come after the commit that
 * holds the messages (a message not stored then is not recorded).
 * Best effort, like the index: without a team key or a usable cache,
 * nothing.
 */
struct mail_attachment;
void search_index_import(struct session *sess, int64_t report_id,
			 int64_t message_id, const char *body, size_t body_len,
			 const struct mail_attachment *att, size_t natt);
void search_index_done(struct session *sess);

#endif
