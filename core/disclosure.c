/*
 * A report's disclosure: its proposals, the decisions (the latest is the
 * current date, all of them are the history) and what the policy says
 * about them now, loaded together with the report, its vendors and its
 * timeline as a "dossier" for `date show`, show --json and the exports.
 * Also the redaction every export applies: the reporter's identity is
 * withheld unless the reporter consented to credit; and the files the
 * public texts name (dossier_public_files): only the reporter's signed
 * text's, redacted.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "core/core.h"
#include "core/fixcve.h"
#include "core/json.h"
#include "core/reportchain.h"
#include "core/reportlog.h"
#include "store/store.h"
#include "touched/touched.h"

static struct needles *reporter_needles(const struct dossier *d);
static void needles_free(struct needles *nv);

int dossier_load(struct session *sess, int64_t id, struct dossier *d,
		 struct err *err)
{
	struct store *s;
	int r;

	memset(d, 0, sizeof(*d));
	d->now = util_now();
	policy_from_config(sess->cfg, &d->pol);
	if ((r = report_load(sess, id, &d->f, err)) < 0)
		return r;
	s = sess->store;
	if ((r = store_report_vendors_get(s, id, &d->vendors, &d->nvendors,
					  err)) < 0 ||
	    (r = store_proposals_get(s, id, &d->proposals, &d->nproposals,
				     err)) < 0 ||
	    (r = store_decisions_get(s, id, &d->decisions, &d->ndecisions,
				     err)) < 0)
		return r;
	/* report_load named what of them no signed change records. */
	report_log_dates(sess, &d->f, &d->decisions, &d->ndecisions,
			 &d->proposals, &d->nproposals, false);
	policy_check(&d->pol, &d->f.r,
		     d->f.r.disclosure ? d->f.r.disclosure : d->now,
		     d->ndecisions && d->decisions[d->ndecisions - 1].reason,
		     d->ndecisions && d->decisions[d->ndecisions - 1].override,
		     d->now, &d->ans);
	embargo_of_report(&d->pol, &d->f.r, d->now, &d->emb);
	if (d->f.duplicate_of &&
	    (r = triage_original(sess, d->f.duplicate_of, &d->original, err)) <
		    0)
		return r;
	d->redact = reporter_needles(d);
	return 0;
}

void dossier_release(struct dossier *d)
{
	needles_free(d->redact);
	report_full_release(&d->f);
	for (size_t i = 0; i < d->nvendors; i++)
		report_vendor_release(&d->vendors[i]);
	free(d->vendors);
	for (size_t i = 0; i < d->nproposals; i++)
		proposal_release(&d->proposals[i]);
	free(d->proposals);
	for (size_t i = 0; i < d->ndecisions; i++)
		decision_release(&d->decisions[i]);
	free(d->decisions);
	memset(d, 0, sizeof(*d));
}

bool dossier_embargoed(const struct dossier *d)
{
	return embargo_active(&d->emb);
}

time_t dossier_released_at(const struct dossier *d)
{
	time_t disclosed = 0, public = 0;

	for (size_t i = 0; i < d->f.nevents; i++) {
		const struct event *e = &d->f.events[i];
		if (!strcmp(e->kind, "state") && e->detail &&
		    str_ends(e->detail, "-> disclosed"))
			disclosed = e->at;
		else if (!strcmp(e->kind, "public") && !public)
		public = e->at;
	}
	if (disclosed)
		return disclosed;
	return d->f.r.public ? (public ? public : d->f.r.received) : 0;
}

int dossier_refuse_unreleased(const struct dossier *d, const char *what,
			      struct err *err)
{
	const struct report *r = &d->f.r;
	long long id = (long long)r->id;
	long long of = (long long)d->f.duplicate_of,
		  orig = (long long)d->original;
	char when[32];

	if (of && orig != of)
		return err_setc(
			err, ERR_REFUSED,
			"report %lld is a duplicate of report %lld, itself a "
			"duplicate of report %lld: it gets no %s of its own; "
			"export report %lld's instead",
			id, of, orig, what, orig);
	if (of)
		return err_setc(
			err, ERR_REFUSED,
			"report %lld is a duplicate of report %lld: it gets no %s "
			"of its own; export report %lld's instead",
			id, of, what, of);
	if (!strcmp(r->state, "rejected"))
		return err_setc(
			err, ERR_REFUSED,
			"report %lld is rejected: a rejected report gets no %s",
			id, what);
	if (!strcmp(r->state, "duplicate"))
		return err_setc(
			err, ERR_REFUSED,
			"report %lld is a duplicate: it gets no %s of its own (its "
			"original's covers it; which report that is is not "
			"recorded: triage %lld --of N records it)",
			id, what, id);
	if (!strcmp(r->state, "closed") && !dossier_released_at(d))
		return err_setc(
			err, ERR_REFUSED,
			"report %lld was closed without being disclosed: it gets no %s",
			id, what);
	if (!dossier_embargoed(d))
		return 0;
	if (r->disclosure)
		return err_setc(
			err, ERR_REFUSED,
			"report %lld is under embargo until %s: no %s before disclosure",
			id, fmt_rfc3339(r->disclosure, when), what);
	return err_setc(
		err, ERR_REFUSED,
		"report %lld is under embargo with no disclosure date set: no %s "
		"before disclosure",
		id, what);
}

json_t *disclosure_json(struct session *sess, const struct report_full *rf)
{
	const struct report *r = &rf->r;
	struct store *s = session_store(sess, NULL);
	struct proposal *p = NULL;
	struct decision *dc = NULL;
	size_t np = 0, nd = 0;
	struct err err = { 0, "" };
	struct policy pol;
	struct policy_answer ans;
	time_t now = util_now();
	json_t *o, *props = json_array(), *hist = json_array();
	const struct decision *last;

	policy_from_config(sess->cfg, &pol);
	if (s) {
		if (store_proposals_get(s, r->id, &p, &np, &err) < 0)
			np = 0;
		if (store_decisions_get(s, r->id, &dc, &nd, &err) < 0)
			nd = 0;
		/* Only what the report's signed changes record. */
		report_log_dates_quiet(sess, rf, dc, &nd, p, &np);
	}
	last = nd ? &dc[nd - 1] : NULL;
	policy_check(&pol, r, r->disclosure ? r->disclosure : now,
		     last && last->reason, last && last->override, now, &ans);
	for (size_t i = 0; i < np; i++) {
		struct policy_answer pa;
		policy_check(&pol, r, p[i].date, p[i].reason != NULL, false,
			     now, &pa);
		json_array_append_new(
			props,
			json_pack("{s:o, s:o, s:o, s:o, s:o, s:s}", "by",
				  json_text(p[i].by), "date",
				  json_time(p[i].date), "reason",
				  json_text(p[i].reason), "at",
				  json_time(p[i].at), "officer",
				  json_text(p[i].officer), "policy_verdict",
				  policy_verdict_name(pa.verdict)));
		proposal_release(&p[i]);
	}
	for (size_t i = 0; i < nd; i++)
		json_array_append_new(
			hist,
			json_pack("{s:o, s:o, s:o, s:b, s:o, s:o}", "date",
				  json_time(dc[i].date), "policy_verdict",
				  json_text(dc[i].verdict), "reason",
				  json_text(dc[i].reason), "override",
				  dc[i].override, "officer",
				  json_text(dc[i].officer), "at",
				  json_time(dc[i].at)));
	o = json_pack(
		"{s:o, s:o, s:o, s:b, s:o, s:o, s:o}", "date",
		json_time(r->disclosure), "policy_verdict",
		json_text(last ? last->verdict : NULL), "reason",
		json_text(last ? last->reason : NULL), "override",
		last && last->override, "policy",
		json_pack(
			"{s:I, s:I, s:o, s:s, s:o, s:o, s:o, s:o, s:b}",
			"default_days", (json_int_t)pol.default_days,
			"max_days", (json_int_t)pol.max_days, "clock_start",
			json_time(ans.clock_start), "clock",
			r->release_started ? "release-started" : "received",
			"default_limit", json_time(ans.default_limit),
			"max_limit", json_time(ans.max_limit), "policy_date",
			json_time(ans.policy_date), "current_verdict",
			r->disclosure
				? json_string(policy_verdict_name(ans.verdict))
				: json_null(),
			"current_allowed", r->disclosure ? ans.allowed : true),
		"proposals", props, "history", hist);
	for (size_t i = 0; i < nd; i++)
		decision_release(&dc[i]);
	free(p);
	free(dc);
	return o;
}

/* --- redaction -------------------------------------------------------*/

/*
 * Without credit consent, an export holds nothing that names the
 * reporter.  The reporter's messages are the first one's sender and every
 * message of the thread that shares an address or a signing key with
 * them (a reply from their other address, signed by the same key).  What
 * names the reporter: those messages' addresses, display names and the
 * words of those names (also run together: "ritareporter"), the
 * addresses' local parts (but role mailboxes like security@), their
 * domains, the Message-IDs and the hosts in them, and the signing keys.
 * Each is replaced, whole words only (so "Ann" leaves "annual" alone),
 * case-insensitively, in one pass, longest first: an address goes before
 * the name or domain inside it.  A single word of a name is replaced
 * where it is written as a name, with a capital (so "Rita Reporter"
 * leaves "reporter talk" alone) unless it is also an address's part.
 */
struct needle {
	char *s;
	size_t len;
	const char *with;
	bool proper; /* one word of a name: matched where it is written as
			* a name (capital first letter), so that "Reporter"
			* in "Rita Reporter" leaves "reporter talk" alone */
};

struct needles {
	struct needle *v;
	size_t n;
};

static const char R_WHO[] = "[reporter]";
static const char R_DOMAIN[] = "[reporter's domain]";
static const char R_MSG[] = "[reporter's message]";
static const char R_KEY[] = "[reporter's key]";

/* Letters, digits and '_' (ASCII), and every byte of a UTF-8 sequence. */
static bool word_byte(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
		(c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}

static void needle_put(struct needles *nv, const char *s, size_t len,
		       const char *with, bool proper)
{
	if (!s || len < 3)
		return;
	for (size_t i = 0; i < nv->n; i++)
		if (nv->v[i].len == len && !strncasecmp(nv->v[i].s, s, len)) {
			/* Also an address's part: matched however written. */
			nv->v[i].proper = nv->v[i].proper && proper;
			return;
		}
	nv->v = xrealloc(nv->v, (nv->n + 1) * sizeof(*nv->v));
	nv->v[nv->n].s = xstrndup(s, len);
	nv->v[nv->n].len = len;
	nv->v[nv->n].with = with;
	nv->v[nv->n].proper = proper;
	nv->n++;
}

static void needle_add(struct needles *nv, const char *s, size_t len,
		       const char *with)
{
	needle_put(nv, s, len, with, false);
}

static void add_address(struct needles *nv, const char *addr);

/* A name, each word of it, and its words run together as handles and
 * paths write them ("ritareporter", "rita.reporter", "rita_reporter",
 * "rita-reporter"); a "name" that is an address: as one. */
static void add_name(struct needles *nv, const char *name)
{
	static const char *const joins[] = { "", ".", "_", "-" };
	struct sbuf run[ARRAY_SIZE(joins)];
	const char *p = name;
	size_t words = 0;

	if (!name)
		return;
	if (strchr(name, '@') && !strchr(name, ' ')) {
		add_address(nv, name);
		return;
	}
	needle_add(nv, name, strlen(name), R_WHO);
	for (size_t j = 0; j < ARRAY_SIZE(joins); j++)
		sbuf_init(&run[j]);
	while (*p) {
		const char *w;
		while (*p && !word_byte((unsigned char)*p))
			p++;
		for (w = p; *p && word_byte((unsigned char)*p); p++)
			;
		if (p == w)
			continue;
		needle_put(nv, w, (size_t)(p - w), R_WHO, true);
		for (size_t j = 0; j < ARRAY_SIZE(joins); j++) {
			if (words)
				sbuf_adds(&run[j], joins[j]);
			sbuf_add(&run[j], w, (size_t)(p - w));
		}
		words++;
	}
	for (size_t j = 0; j < ARRAY_SIZE(joins); j++) {
		if (words > 1)
			needle_add(nv, run[j].buf, run[j].len, R_WHO);
		sbuf_release(&run[j]);
	}
}

/* Mailboxes that name a function, not a person. */
static bool role_mailbox(const char *local, size_t len)
{
	static const char *const roles[] = {
		"security", "secalert",	  "psirt",	"cert",	 "info",
		"admin",    "root",	  "postmaster", "abuse", "contact",
		"support",  "noreply",	  "no-reply",	"bugs",	 "report",
		"reports",  "disclosure",
	};

	for (size_t i = 0; i < ARRAY_SIZE(roles); i++)
		if (strlen(roles[i]) == len &&
		    !strncasecmp(roles[i], local, len))
			return true;
	return false;
}

/* An address, its local part (unless a role) and its domain. */
static void add_address(struct needles *nv, const char *addr)
{
	const char *at = addr ? strrchr(addr, '@') : NULL;

	if (!addr)
		return;
	needle_add(nv, addr, strlen(addr), R_WHO);
	if (!at)
		return;
	if (!role_mailbox(addr, (size_t)(at - addr)))
		needle_add(nv, addr, (size_t)(at - addr), R_WHO);
	needle_add(nv, at + 1, strlen(at + 1), R_DOMAIN);
}

/* A Message-ID, and the host in it when it looks like one. */
static void add_message_id(struct needles *nv, const char *id)
{
	const char *at = id ? strrchr(id, '@') : NULL;

	if (!id)
		return;
	needle_add(nv, id, strlen(id), R_MSG);
	if (at && strchr(at + 1, '.'))
		needle_add(nv, at + 1, strlen(at + 1), R_DOMAIN);
}

/* A fingerprint, and the long key ID it ends with. */
static void add_key(struct needles *nv, const char *fpr)
{
	size_t n = fpr ? strlen(fpr) : 0;

	if (!n)
		return;
	needle_add(nv, fpr, n, R_KEY);
	if (n > 16)
		needle_add(nv, fpr + n - 16, 16, R_KEY);
}

static bool same_address(const char *a, const char *b)
{
	return a && b && *a && !strcasecmp(a, b);
}

/* Which messages of the thread are the reporter's (see above); caller
 * frees.  Grows until no other message shares an address or key. */
static bool *reporter_messages(const struct dossier *d)
{
	const struct message *m = d->f.msgs;
	size_t n = d->f.nmsgs;
	bool *mine = xcalloc(n + 1, sizeof(*mine));
	bool grew = true;

	while (grew) {
		grew = false;
		for (size_t i = 0; i < n; i++) {
			bool hit = same_address(m[i].from_email,
						d->f.r.reporter_email);
			for (size_t j = 0; j < n && !hit; j++)
				hit = mine[j] &&
					(same_address(m[i].from_email,
						      m[j].from_email) ||
					 fpr_same_key(m[i].fingerprint,
						      m[j].fingerprint));
			if (hit && !mine[i])
				mine[i] = grew = true;
		}
	}
	return mine;
}

static int needle_cmp(const void *a, const void *b)
{
	const struct needle *x = a, *y = b;

	return x->len < y->len ? 1 : x->len > y->len ? -1 : 0;
}

/* Everything that names the reporter of d, longest first (caller frees
 * with needles_free). */
static struct needles *reporter_needles(const struct dossier *d)
{
	bool *mine = reporter_messages(d);
	struct needles *nv = xcalloc(1, sizeof(*nv));

	add_address(nv, d->f.r.reporter_email);
	add_name(nv, d->f.r.reporter_name);
	for (size_t i = 0; i < d->f.nmsgs; i++) {
		const struct message *m = &d->f.msgs[i];
		if (!mine[i])
			continue;
		add_address(nv, m->from_email);
		add_name(nv, m->from_name);
		add_message_id(nv, m->message_id);
		add_key(nv, m->fingerprint);
	}
	free(mine);
	if (nv->n)
		qsort(nv->v, nv->n, sizeof(*nv->v), needle_cmp);
	return nv;
}

static void needles_free(struct needles *nv)
{
	if (!nv)
		return;
	for (size_t i = 0; i < nv->n; i++)
		free(nv->v[i].s);
	free(nv->v);
	free(nv);
}

/* The needle at p (a whole word there), or NULL. */
static const struct needle *needle_at(const struct needles *nv,
				      const char *start, const char *p)
{
	for (size_t i = 0; i < nv->n; i++) {
		const struct needle *w = &nv->v[i];
		if (strncasecmp(p, w->s, w->len))
			continue;
		/* A name's word where it is an ordinary word ("reporter"). */
		if (w->proper && *p >= 'a' && *p <= 'z')
			continue;
		if (word_byte((unsigned char)w->s[0]) && p > start &&
		    word_byte((unsigned char)p[-1]))
			continue;
		if (word_byte((unsigned char)w->s[w->len - 1]) &&
		    word_byte((unsigned char)p[w->len]))
			continue;
		return w;
	}
	return NULL;
}

static char *redact_with(const struct needles *all, const char *text)
{
	struct needles nv = { NULL, 0 };
	struct sbuf sb = SBUF_INIT;
	const char *p = text;

	/* Only the needles this text holds (most hold none). */
	for (size_t i = 0; i < all->n; i++)
		if (strcasestr(text, all->v[i].s)) {
			nv.v = xrealloc(nv.v, (nv.n + 1) * sizeof(*nv.v));
			nv.v[nv.n++] = all->v[i];
		}
	if (!nv.n)
		return xstrdup(text);
	while (*p) {
		const struct needle *w = needle_at(&nv, text, p);
		if (w) {
			sbuf_adds(&sb, w->with);
			p += w->len;
		} else {
			sbuf_addch(&sb, *p++);
		}
	}
	free(nv.v);
	return sbuf_detach(&sb, NULL);
}

char *dossier_redact(const struct dossier *d, const char *text)
{
	struct needles *nv;
	char *t;

	if (d->f.r.consent_credit)
		return xstrdup(text ? text : "");
	nv = d->redact ? d->redact : reporter_needles(d);
	t = redact_with(nv, text ? text : "");
	if (nv != d->redact)
		needles_free(nv);
	return t;
}

bool dossier_from_reporter(const struct dossier *d, const struct message *m)
{
	bool *mine = reporter_messages(d), hit = false;

	for (size_t i = 0; i < d->f.nmsgs; i++)
		if (&d->f.msgs[i] == m || (m->id && d->f.msgs[i].id == m->id))
			hit = hit || mine[i];
	free(mine);
	return hit;
}

char *dossier_reporter(const struct dossier *d)
{
	const struct report *r = &d->f.r;

	if (!r->consent_credit)
		return NULL;
	if (r->reporter_name && *r->reporter_name && r->reporter_email)
		return xasprintf("%s <%s>", r->reporter_name,
				 r->reporter_email);
	if (r->reporter_name && *r->reporter_name)
		return xstrdup(r->reporter_name);
	return r->reporter_email ? xstrdup(r->reporter_email) : NULL;
}

/* Adds path to *v (n of them, NULL-terminated) unless already there;
 * takes path. */
static void file_add(char ***v, size_t *n, char *path)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], path)) {
			free(path);
			return;
		}
	*v = xrealloc(*v, (*n + 2) * sizeof(**v));
	(*v)[(*n)++] = path;
	(*v)[*n] = NULL;
}

size_t dossier_public_files(struct session *sess, const struct dossier *d,
			    char ***files)
{
	const struct report_full *rf = &d->f;
	struct fixcve fc;
	size_t n = 0;

	*files = xcalloc(1, sizeof(**files));
	fixcve_fold(rf->events, rf->nevents, &fc);
	for (size_t i = 0; i < fc.nfixes; i++)
		for (size_t k = 0; k < fc.fixes[i].fix.nfiles; k++)
			if (touched_path_plausible(fc.fixes[i].fix.files[k]))
				file_add(files, &n,
					 dossier_text(
						 d, fc.fixes[i].fix.files[k]));
	fixcve_release(&fc);
	if (n)
		return n;
	for (size_t i = 0; i < rf->nmsgs; i++) {
		struct opened_message om;
		struct err e = { 0, "" };

		if (!report_reporter_signed(&rf->r, &rf->msgs[i]))
			continue;
		if (report_open_message(sess, rf->msgs[i].id, &om, &e) == 0)
			for (size_t k = 0; k < om.nfiles; k++)
				if (touched_path_plausible(om.files[k]))
					file_add(files, &n,
						 dossier_text(d, om.files[k]));
		opened_message_release(&om);
	}
	return n;
}

char *dossier_text(const struct dossier *d, const char *text)
{
	char *r = dossier_redact(d, text), *s = safe_str(r);

	free(r);
	return s;
}
