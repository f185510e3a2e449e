/*
 * Participants: the people an officer brings into a report (area
 * maintainers and reviewers from MAINTAINERS, or anyone named by hand).
 * Each addition, removal and acknowledgement is stored and logged as an
 * event ("participant-add", "participant-remove", "participant-ack") in
 * the caller's transaction, so the timeline says who knew, from when, and
 * who decided it.  Addresses are compared and stored lowercase.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "core/core.h"
#include "core/json.h"
#include "core/reportlog.h"
#include "store/store.h"

bool participant_email_valid(const char *email)
{
	const char *at = email ? strchr(email, '@') : NULL;
	size_t n = email ? strlen(email) : 0;

	if (!at || at == email || !at[1] || strchr(at + 1, '@') || n > 254)
		return false;
	for (const char *p = email; *p; p++)
		if ((unsigned char)*p <= ' ' || (unsigned char)*p >= 0x7f ||
		    strchr("<>()[],;:\"\\", *p))
			return false;
	return true;
}

/* A copy of s[0..n) without leading and trailing blanks. */
static char *trim_dup(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return xstrndup(s, n);
}

int participant_parse_address(const char *s, char **name, char **email,
			      struct err *err)
{
	const char *lt = strrchr(s, '<');
	char *n = NULL, *e;

	*name = NULL;
	*email = NULL;
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f)
			return err_setc(
				err, ERR_INVALID,
				"invalid address '%s': control characters", s);
	if (lt) {
		const char *gt = strchr(lt, '>');
		if (!gt || gt[1 + strspn(gt + 1, " \t")])
			return err_setc(
				err, ERR_INVALID,
				"invalid address '%s': expected 'Name <user@host>'",
				s);
		e = trim_dup(lt + 1, (size_t)(gt - lt - 1));
		n = trim_dup(s, (size_t)(lt - s));
		size_t len = strlen(n);
		if (len >= 2 && n[0] == '"' && n[len - 1] == '"') {
			char *q = trim_dup(n + 1, len - 2);
			free(n);
			n = q;
		}
		if (!*n) {
			free(n);
			n = NULL;
		}
	} else {
		e = trim_dup(s, strlen(s));
	}
	str_lower(e);
	if (!participant_email_valid(e)) {
		free(n);
		free(e);
		return err_setc(err, ERR_INVALID,
				"invalid address '%s': expected user@host or "
				"'Name <user@host>'",
				s);
	}
	*name = n;
	*email = e;
	return 0;
}

char *participant_format(const struct participant *p)
{
	struct sbuf sb = SBUF_INIT;

	if (p->name && *p->name)
		sbuf_addf(&sb, "%s <%s>", p->name, p->email);
	else
		sbuf_adds(&sb, p->email);
	if (p->role && *p->role) {
		sbuf_addf(&sb, " (%s", p->role);
		if (p->section && *p->section)
			sbuf_addf(&sb, ":%s", p->section);
		sbuf_addch(&sb, ')');
	}
	return sbuf_detach(&sb, NULL);
}

int participant_add(struct session *sess, int64_t report_id, const char *name,
		    const char *email, const char *role, const char *section,
		    const char *key_fpr, struct err *err)
{
	struct participant p;
	char *detail;
	int64_t row = 0;
	int r;

	assert(sess->store && store_in_tx(sess->store));
	memset(&p, 0, sizeof(p));
	p.report_id = report_id;
	p.name = (char *)name;
	p.email = str_lower(xstrdup(email));
	p.role = (char *)role;
	p.section = (char *)section;
	p.added_by = sess->officer;
	r = store_participant_add(sess->store, &p, &row, err);
	if (r == 0) {
		char *who = participant_format(&p);
		detail = key_fpr
			? xasprintf("%s, key %s confirmed", who, key_fpr)
			: xstrdup(who);
		free(who);
		/* The event names the row and the key: the store applies it. */
		r = store_event_add_ref(sess->store, report_id, sess->officer,
					"participant-add", detail, row, key_fpr,
					err);
		free(detail);
	}
	free(p.email);
	return r;
}

/* --- the key a participant's timeline confirms ------------------------*/

/* "key FPR confirmed" at d: FPR, or NULL. */
static char *key_confirmed(const char *d)
{
	size_t n;

	if (!str_starts(d, "key "))
		return NULL;
	d += 4;
	n = strlen(d);
	if (n <= 10 || strcmp(d + n - 10, " confirmed"))
		return NULL;
	return xstrndup(d, n - 10);
}

/* Whether who (n bytes of a detail, as participant_format wrote it:
 * "Name <email> (role:section)", "email (role)", "email") is email. */
static bool who_is(const char *who, size_t n, const char *email)
{
	size_t el = strlen(email);
	char *w = xstrndup(who, n), *lt;
	bool is = false;

	if (n >= el && !strncasecmp(w, email, el) &&
	    (!w[el] || str_starts(w + el, " (")))
		is = true;
	for (lt = strchr(w, '<'); lt && !is; lt = strchr(lt + 1, '<'))
		is = !strncasecmp(lt + 1, email, el) && lt[1 + el] == '>';
	free(w);
	return is;
}

/* The last occurrence of needle in s, or NULL. */
static const char *last_of(const char *s, const char *needle)
{
	const char *at = NULL;

	for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
		at = p;
	return at;
}

/* The key the events ev[0..n) (a report's, oldest first) last confirmed
 * for email, or NULL (caller frees). */
static char *timeline_key_in(const struct event *ev, size_t n,
			     const char *email)
{
	size_t el = strlen(email);
	const char *at;
	char *fpr = NULL, *key;

	for (size_t i = 0; i < n; i++) {
		const char *k = ev[i].kind,
			   *d = ev[i].detail ? ev[i].detail : "";

		if (!strcmp(k, "participant-key") &&
		    !strncasecmp(d, email, el) && str_starts(d + el, ": ") &&
		    (key = key_confirmed(d + el + 2))) {
			free(fpr);
			fpr = key;
		} else if (!strcmp(k, "participant-add") &&
			   (at = last_of(d, ", key ")) &&
			   (key = key_confirmed(at + 2))) {
			/* "WHO, key FPR confirmed" */
			if (who_is(d, (size_t)(at - d), email)) {
				free(fpr);
				fpr = key;
			} else {
				free(key);
			}
		} else if (!strcmp(k, "participant-add") &&
			   who_is(d, strlen(d), email)) {
			free(fpr);
			fpr = NULL;
		} else if (!strcmp(k, "participant-remove") &&
			   str_ends(d, " removed") &&
			   who_is(d, strlen(d) - 8, email)) {
			free(fpr);
			fpr = NULL;
		}
	}
	return fpr;
}

/* Whether the key a participant's row holds is not the timeline's. */
static bool key_differs(const char *row, const char *timeline)
{
	return !row != !timeline || (row && str_cmp_ci(row, timeline));
}

int participant_timeline_key(struct session *sess, int64_t report_id,
			     const char *email, char **fpr, struct err *err)
{
	struct event *ev = NULL;
	size_t n = 0;
	int r;

	*fpr = NULL;
	/* Only the rows a signed change records (on a team server). */
	if ((r = report_log_events(sess, report_id, &ev, &n, NULL, err)) < 0)
		return r;
	*fpr = timeline_key_in(ev, n, email);
	events_free(ev, n);
	return 0;
}

int participant_key(struct session *sess, int64_t report_id,
		    const struct participant *p, char **fpr, struct err *err)
{
	int r = participant_timeline_key(sess, report_id, p->email, fpr, err);

	if (r < 0)
		return r;
	if (key_differs(p->key_fpr, *fpr)) {
		char *who = safe_str(p->email),
		     *have = safe_str(p->key_fpr ? p->key_fpr : "none");

		err_setc(
			err, ERR_REFUSED,
			"report %lld: the key the record holds for %s (%s) is not "
			"the one its timeline confirms (%s): the record was changed "
			"without the program; nothing is sent to them until an "
			"officer confirms their key again (maintainers %lld --key)",
			(long long)report_id, who, have, *fpr ? *fpr : "none",
			(long long)report_id);
		free(who);
		free(have);
		free(*fpr);
		*fpr = NULL;
		return ERR_REFUSED;
	}
	return 0;
}

int participant_set_key(struct session *sess, int64_t report_id,
			const char *email, const char *key_fpr, struct err *err)
{
	struct participant p;
	char *detail;
	int r;

	assert(sess->store && store_in_tx(sess->store));
	if ((r = store_participant_get(sess->store, report_id, email, &p,
				       err)) < 0)
		return r;
	detail = xasprintf("%s: key %s confirmed", email, key_fpr);
	r = store_event_add_ref(sess->store, report_id, sess->officer,
				"participant-key", detail, p.id, key_fpr, err);
	free(detail);
	participant_release(&p);
	return r;
}

/* The participant email of report_id, inside the caller's transaction. */
static int participant_load(struct session *sess, int64_t report_id,
			    const char *email, struct participant *p,
			    struct err *err)
{
	assert(sess->store && store_in_tx(sess->store));
	return store_participant_get(sess->store, report_id, email, p, err);
}

int participant_remove(struct session *sess, int64_t report_id,
		       const char *email, struct err *err)
{
	struct participant p;
	char *detail, *who;
	int r;

	if ((r = participant_load(sess, report_id, email, &p, err)) < 0)
		return r;
	who = participant_format(&p);
	detail = xasprintf("%s removed", who);
	r = store_event_add_ref(sess->store, report_id, sess->officer,
				"participant-remove", detail, p.id, NULL, err);
	free(detail);
	free(who);
	participant_release(&p);
	return r;
}

int participant_ack(struct session *sess, int64_t report_id, const char *email,
		    struct err *err)
{
	struct participant p;
	char *detail;
	int r;

	if ((r = participant_load(sess, report_id, email, &p, err)) < 0)
		return r;
	if (p.acknowledged_at) {
		participant_release(&p);
		return err_setc(err, ERR_DUPLICATE,
				"'%s' already acknowledged report %lld", email,
				(long long)report_id);
	}
	detail = xasprintf("%s%s%s%s acknowledged", p.name ? p.name : "",
			   p.name ? " <" : "", p.email, p.name ? ">" : "");
	r = store_event_add_ref(sess->store, report_id, sess->officer,
				"participant-ack", detail, p.id, NULL, err);
	free(detail);
	participant_release(&p);
	return r;
}

/* Whether detail (a participant-add's) is what participant_add wrote
 * for p: "WHO" or "WHO, key FPR confirmed". */
static bool add_detail_is(const char *detail, const struct participant *p)
{
	char *who = participant_format(p);
	size_t n = strlen(who);
	bool is = detail && !strncmp(detail, who, n) &&
		(!detail[n] || str_starts(detail + n, ", key "));

	free(who);
	return is;
}

/*
 * On a team server, the participants as the report's signed changes
 * have them: a row is one only when a verified participant-add names it
 * (ref) and says who it is (its text is what the row says); its key,
 * acknowledgement and removal are the verified events', whatever the
 * row's columns say.  *n shrinks; removed ones go unless with_removed.
 */
static void participants_signed(struct participant *v, size_t *n,
				const struct event *ev, size_t nev,
				bool with_removed)
{
	size_t k = 0;

	for (size_t i = 0; i < *n; i++) {
		struct participant *p = &v[i];
		bool added = false;

		free(p->key_fpr);
		p->key_fpr = NULL;
		p->acknowledged_at = 0;
		p->removed_at = 0;
		free(p->removed_by);
		p->removed_by = NULL;
		for (size_t j = 0; j < nev; j++) {
			const struct event *e = &ev[j];

			if (e->ref != p->id)
				continue;
			if (!strcmp(e->kind, "participant-add") && !added &&
			    add_detail_is(e->detail, p)) {
				added = true;
				p->key_fpr = e->value && *e->value
					? xstrdup(e->value)
					: NULL;
			} else if (!added) {
				continue;
			} else if (!strcmp(e->kind, "participant-key") &&
				   e->value && *e->value && !p->removed_at) {
				free(p->key_fpr);
				p->key_fpr = xstrdup(e->value);
			} else if (!strcmp(e->kind, "participant-ack") &&
				   !p->acknowledged_at) {
				p->acknowledged_at = e->at;
			} else if (!strcmp(e->kind, "participant-remove") &&
				   !p->removed_at) {
				p->removed_at = e->at;
				p->removed_by = xstrdup(e->officer);
			}
		}
		if (!added || (!with_removed && p->removed_at)) {
			participant_release(p);
			continue;
		}
		v[k++] = *p;
	}
	*n = k;
}

int participants_list(struct session *sess, int64_t report_id,
		      bool with_removed, struct participant **out, size_t *n,
		      struct err *err)
{
	struct store *s = session_store(sess, err);
	struct event *ev = NULL;
	size_t nev = 0;
	bool held = false;
	int r;

	*out = NULL;
	*n = 0;
	if (!s)
		return ERR_IO;
	if (report_id &&
	    (r = report_log_events(sess, report_id, &ev, &nev, &held, err)) < 0)
		return r;
	if (!held) {
		events_free(ev, nev);
		return store_participants_get(s, report_id, with_removed, out,
					      n, err);
	}
	if ((r = store_participants_get(s, report_id, true, out, n, err)) == 0)
		participants_signed(*out, n, ev, nev, with_removed);
	events_free(ev, nev);
	return r;
}

json_t *participants_json(struct session *sess, int64_t report_id)
{
	struct participant *v = NULL;
	struct event *ev = NULL;
	struct err err = { 0, "" };
	json_t *a = json_array();
	size_t n = 0, nev = 0;

	if (participants_list(sess, report_id, true, &v, &n, &err) < 0)
		return a;
	/* The report's events once: the key each one's timeline confirms
	 * (what forward uses), and whether the row's copy says another. */
	if (report_log_events(sess, report_id, &ev, &nev, NULL, &err) < 0)
		nev = 0;
	for (size_t i = 0; i < n; i++) {
		char *tk = v[i].removed_at
			? NULL
			: timeline_key_in(ev, nev, v[i].email);

		json_array_append_new(
			a,
			json_pack(
				"{s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o, s:o, s:o, s:o, s:o, s:b}",
				"name", json_text(v[i].name), "email",
				json_text(v[i].email), "role",
				json_text(v[i].role), "section",
				json_text(v[i].section), "added_by",
				json_text(v[i].added_by), "added_at",
				json_time(v[i].added_at), "active",
				v[i].removed_at == 0, "removed_at",
				json_time(v[i].removed_at), "removed_by",
				json_text(v[i].removed_by), "acknowledged_at",
				json_time(v[i].acknowledged_at), "key",
				json_text(v[i].key_fpr), "key_confirmed",
				json_text(tk), "key_mismatch",
				!v[i].removed_at &&
					key_differs(v[i].key_fpr, tk)));
		free(tk);
	}
	events_free(ev, nev);
	participants_free(v, n);
	return a;
}
