/*
 * Forwarding a report to the people brought in to fix it, as RFC 3156
 * PGP/MIME mail: signed with the officer's key, encrypted to every
 * recipient's key plus the officer's and the team roster's, Cc the team.
 *
 * The rules live here: a recipient must be a participant of the report
 * (unless forced).  A recipient's key is the one the officer confirmed
 * (maintainers ID --add ADDR --key FPR, a vendor's --key), else the one
 * usable key whose user ID for that address the keyring holds at full or
 * ultimate validity (crypto_key_uid_valid): anyone can put an address on
 * a key, so a key found by address alone, uncertified, is refused, naming
 * the address and the key, as are two certified ones.  A recipient
 * without any usable key stops the whole forward unless the officer
 * allows a plain copy for that person.
 *
 * What goes out is the report's text and its patches: any other
 * attachment (exploit code, a crash log, a write-up, a forwarded original
 * message) goes only when the reporter consented both to the release of
 * exploit code and to be credited, or when the officer releases it by
 * name (--release-attachment, an event; exploit code still needs the
 * reporter's consent), and never in a plain copy.  Without consent to be
 * credited the reporter is named nowhere: text, patches, file names,
 * subject and the References to the reporter's messages are redacted as
 * the exports are (dossier_redact).
 *
 * Everything is built before anything is delivered, and what was
 * delivered is logged as events.  Plaintext lives only in memory and is
 * wiped after use.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "core/core.h"
#include "outgoing/send.h"
#include "crypto/crypto.h"
#include "mail/mail.h"
#include "store/store.h"

struct rcpt {
	char *name; /* or NULL */
	char *email;
	char *confirmed; /* the key the officer confirmed, or NULL */
	char *fpr; /* NULL: no usable key */
	char *why; /* why not, when fpr is NULL */
	bool forced; /* not a participant: --force-recipient */
};

/* What goes into the entity, for one kind of copy. */
struct content {
	struct sbuf body;
	struct mail_attachment *att; /* data borrowed or in owned */
	size_t natt;
	size_t withheld;
	char **owned; /* redacted copies (wiped on release) */
	size_t nowned;
};

/* An attachment the officer released, for the event. */
struct released {
	char *name; /* redacted unless credit consent */
	size_t msg; /* 1-based message number in the thread */
	size_t size;
};

struct outmsg {
	bool plaintext;
	char *to; /* for events and output */
	char *why; /* forward-plaintext: why that person has no key */
	char *forced; /* recipients who are not participants, or NULL */
	char *buf;
	size_t len;
};

struct fwd {
	struct session *sess;
	int64_t id;
	struct dossier d;
	struct opened_message *om; /* one per message of the thread */
	size_t nom;
	struct rcpt *r;
	size_t nr;
	struct outmsg *out;
	size_t nout;
	size_t attached, withheld;
	const struct forward_opts *o;
	struct released *rel; /* carried by the encrypted copy */
	size_t nrel;
};

/* --- recipients -------------------------------------------------------*/

/* The reason part of crypto's "no usable encryption key for 'x': why". */
static char *key_reason(const char *msg, const char *email)
{
	char *needle = xasprintf("'%s': ", email);
	const char *p = strstr(msg, needle);
	char *why = xstrdup(p ? p + strlen(needle) : msg);

	free(needle);
	return why;
}

static int add_recipient(struct fwd *f, const char *given, const char *key,
			 bool force, struct err *err)
{
	struct participant p;
	struct err e = { 0, "" };
	char *name, *email, *confirmed = key ? xstrdup(key) : NULL;
	int r;

	if (participant_parse_address(given, &name, &email, err) < 0) {
		free(confirmed);
		return err_prefix(err, "cannot forward report %lld",
				  (long long)f->id);
	}
	for (size_t i = 0; i < f->nr; i++)
		if (!strcmp(f->r[i].email, email)) {
			free(name);
			free(email);
			free(confirmed);
			return 0;
		}
	r = store_participant_get(f->sess->store, f->id, email, &p, &e);
	if (r == 0 && !name && p.name)
		name = xstrdup(p.name);
	/* The key their timeline confirms (never one only their row
	 * holds: refused, below). */
	if (r == 0 && !confirmed)
		r = participant_key(f->sess, f->id, &p, &confirmed, &e);
	participant_release(&p);
	if (r == ERR_NOTFOUND && !force) {
		err_setc(
			err, ERR_REFUSED,
			"cannot forward report %lld: '%s' is not a participant "
			"of the report; bring them in first (maintainers %lld "
			"--add '%s') or use --force-recipient",
			(long long)f->id, email, (long long)f->id, email);
		free(name);
		free(email);
		free(confirmed);
		return ERR_REFUSED;
	}
	if (r < 0 && r != ERR_NOTFOUND) {
		*err = e;
		free(name);
		free(email);
		free(confirmed);
		return r;
	}
	f->r = xrealloc(f->r, (f->nr + 1) * sizeof(*f->r));
	f->r[f->nr].name = name;
	f->r[f->nr].email = email;
	f->r[f->nr].confirmed = confirmed;
	f->r[f->nr].fpr = NULL;
	f->r[f->nr].why = NULL;
	f->r[f->nr].forced = r == ERR_NOTFOUND;
	f->nr++;
	return 0;
}

/* "A, B and C" of n fingerprints. */
static char *key_list(char *const *fprs, size_t n)
{
	struct sbuf sb = SBUF_INIT;

	for (size_t i = 0; i < n; i++)
		sbuf_addf(&sb, "%s%s",
			  i == 0	       ? ""
				  : i + 1 == n ? " and "
					       : ", ",
			  fprs[i]);
	return sbuf_detach(&sb, NULL);
}

static void free_list(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/*
 * The key of one recipient into *fpr (see the rules above).  0 with a
 * key; ERR_NOTFOUND with *why_out when the person has no usable key at all
 * (a plain copy may then be allowed); ERR_REFUSED with err naming the
 * address and the key(s) when keys carry the address but the keyring
 * vouches for none, or for several; other codes when gpg fails.
 */
int outgoing_key(struct crypto *c, const char *verb, int64_t id,
		 const char *email, const char *confirmed, char **fpr,
		 char **why_out, struct err *err)
{
	struct err e = { 0, "" };
	char **cand = NULL, **valid;
	size_t ncand = 0, nvalid = 0;
	char *list;
	int r;

	if (confirmed) {
		r = crypto_find_encryption_key(c, confirmed, &*fpr, &e);
		if (r == ERR_NOTFOUND) {
			char *why = key_reason(e.msg, confirmed);
			*why_out = xasprintf("confirmed key %s: %s", confirmed,
					     why);
			free(why);
		} else if (r < 0) {
			*err = e;
		}
		return r;
	}
	if ((r = crypto_encryption_keys_for(c, email, &cand, &ncand, &e)) < 0) {
		free_list(cand, ncand);
		*err = e;
		return r;
	}
	if (!ncand) {
		/* Only the reason: no key, key expired, key revoked. */
		free(cand);
		r = crypto_find_encryption_key(c, email, &*fpr, &e);
		if (r == 0) {
			free(*fpr);
			*fpr = NULL;
		} else if (r != ERR_NOTFOUND) {
			*err = e;
			return r;
		}
		*why_out = key_reason(e.msg, email);
		return ERR_NOTFOUND;
	}
	valid = xcalloc(ncand + 1, sizeof(*valid));
	for (size_t i = 0; i < ncand; i++) {
		bool ok = false;
		if ((r = crypto_key_uid_valid(c, cand[i], email, &ok, &e)) <
		    0) {
			free(valid);
			free_list(cand, ncand);
			*err = e;
			return r;
		}
		if (ok)
			valid[nvalid++] = cand[i];
	}
	if (nvalid == 1) {
		*fpr = xstrdup(valid[0]);
		r = 0;
	} else if (nvalid > 1) {
		list = key_list(valid, nvalid);
		r = err_setc(
			err, ERR_REFUSED,
			"cannot %s report %lld: %zu keys carry a certified "
			"user ID for '%s' (%s); confirm the right one: "
			"maintainers %lld --add %s --key FPR",
			verb, (long long)id, nvalid, email, list, (long long)id,
			email);
		free(list);
	} else {
		list = key_list(cand, ncand);
		r = err_setc(
			err, ERR_REFUSED,
			"cannot %s report %lld: %s %s %s '%s' in a user ID "
			"nobody certified, so it may not be theirs; check the "
			"key with them, then certify it or confirm it: "
			"maintainers %lld --add %s --key FPR",
			verb, (long long)id, ncand > 1 ? "keys" : "key", list,
			ncand > 1 ? "carry" : "carries", email, (long long)id,
			email);
		free(list);
	}
	free(valid);
	free_list(cand, ncand);
	return r;
}

static int resolve_one(struct fwd *f, struct crypto *c, struct rcpt *p,
		       struct err *err)
{
	return outgoing_key(c, "forward", f->id, p->email, p->confirmed,
			    &p->fpr, &p->why, err);
}

/* Finds every recipient's key; a missing one stops the forward unless
 * plain copies are allowed, an unvouched one always does. */
static int resolve_keys(struct fwd *f, struct crypto *c, bool allow_plain,
			struct err *err)
{
	struct sbuf sb = SBUF_INIT;
	size_t missing = 0;

	for (size_t i = 0; i < f->nr; i++) {
		int r = resolve_one(f, c, &f->r[i], err);
		if (r == ERR_NOTFOUND) {
			sbuf_addf(&sb, "%s'%s' (%s)", missing ? ", " : "",
				  f->r[i].email, f->r[i].why);
			missing++;
		} else if (r == ERR_REFUSED) {
			sbuf_release(&sb);
			return r;
		} else if (r < 0) {
			sbuf_release(&sb);
			return err_prefix(err, "cannot forward report %lld",
					  (long long)f->id);
		}
	}
	if (missing && !allow_plain) {
		err_setc(
			err, ERR_REFUSED,
			"cannot forward report %lld: no usable key for %s; use "
			"--allow-plaintext to send %s a plain copy",
			(long long)f->id, sb.buf,
			missing > 1 ? "those people" : "that person");
		sbuf_release(&sb);
		return ERR_REFUSED;
	}
	sbuf_release(&sb);
	return 0;
}

/* --- content ------------------------------------------------------------*/

/* One header-safe line: controls become spaces, valid UTF-8. */
char *outgoing_one_line(const char *s)
{
	char *t = utf8_fix(s ? s : "", s ? strlen(s) : 0);

	for (char *p = t; *p; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f)
			*p = ' ';
	return t;
}

/* "Name" <email>, the name quoted for RFC 5322 (or the bare address). */
char *outgoing_mailbox(const char *name, const char *email)
{
	struct sbuf sb = SBUF_INIT;
	char *n;

	if (!name || !*name)
		return xstrdup(email);
	n = outgoing_one_line(name);
	sbuf_addch(&sb, '"');
	for (const char *p = n; *p; p++) {
		if (*p == '"' || *p == '\\')
			sbuf_addch(&sb, '\\');
		sbuf_addch(&sb, *p);
	}
	sbuf_addf(&sb, "\" <%s>", email);
	free(n);
	return sbuf_detach(&sb, NULL);
}

bool outgoing_msgid_ok(const char *s)
{
	if (!s || !*s || strlen(s) > 900)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || (unsigned char)*s >= 0x7f ||
		    *s == '<' || *s == '>')
			return false;
	return true;
}

/* One line, with the reporter redacted unless credited. */
static char *redacted_line(const struct fwd *f, const char *s)
{
	char *t = dossier_redact(&f->d, s), *l = outgoing_one_line(t);

	free(t);
	return l;
}

static void add_header(struct fwd *f, struct sbuf *sb, bool plaintext,
		       const char *why)
{
	const struct report *r = &f->d.f.r;
	char *subj = redacted_line(f, r->subject),
	     *who = dossier_reporter(&f->d);
	char when[32];

	sbuf_addf(sb, "Report %lld of the security team, forwarded by %s.\n",
		  (long long)r->id, f->sess->officer_name);
	sbuf_adds(sb,
		  "This report is under embargo: keep it to the people on "
		  "this mail\nand the security team until it is disclosed.\n");
	if (plaintext)
		sbuf_addf(sb,
			  "\nThis copy is NOT encrypted: you have no usable "
			  "OpenPGP key (%s).\nExploit code is never sent "
			  "unencrypted; ask the security team for it.\n",
			  why ? why : "no key");
	sbuf_addf(sb, "\nSubject:    %s\n", subj);
	if (who) {
		char *w = outgoing_one_line(who);
		sbuf_addf(sb, "Reporter:   %s\n", w);
		free(w);
	} else {
		sbuf_adds(sb,
			  "Reporter:   withheld (no consent to be named)\n");
	}
	sbuf_addf(sb, "Received:   %s\n", fmt_rfc3339(r->received, when));
	sbuf_addf(sb, "State:      %s, severity %s\n", r->state, r->severity);
	if (r->disclosure)
		sbuf_addf(sb, "Disclosure: %s\n",
			  fmt_rfc3339(r->disclosure, when));
	else
		sbuf_adds(sb, "Disclosure: not set yet\n");
	if (f->d.f.nfiles) {
		sbuf_adds(sb, "Files:      ");
		for (size_t i = 0; i < f->d.f.nfiles; i++) {
			char *p = redacted_line(f, f->d.f.files[i]);
			sbuf_addf(sb, "%s%s", i ? ", " : "", p);
			free(p);
		}
		sbuf_addch(sb, '\n');
	}
	free(subj);
	free(who);
}

static bool released(const struct forward_opts *o, const char *name)
{
	for (size_t i = 0; name && i < o->nrelease; i++)
		if (!strcmp(o->release[i], name))
			return true;
	return false;
}

/* Keeps s (plaintext) until the copy is released. */
static char *own(struct content *c, char *s)
{
	c->owned = xrealloc(c->owned, (c->nowned + 1) * sizeof(*c->owned));
	c->owned[c->nowned++] = s;
	return s;
}

static void attach(struct content *c, const struct attachment_info *a,
		   char *name, const unsigned char *data, size_t len)
{
	c->att = xrealloc(c->att, (c->natt + 1) * sizeof(*c->att));
	c->att[c->natt].filename = a->filename ? name : NULL;
	c->att[c->natt].content_type = a->content_type;
	c->att[c->natt].data = (unsigned char *)data;
	c->att[c->natt].len = len;
	c->natt++;
}

/* One attachment of message i into the copy, or the line saying why not. */
static void add_attachment(struct fwd *f, struct content *c, size_t i,
			   const struct attachment_info *a, bool plaintext)
{
	const struct report *r = &f->d.f.r;
	char *name = own(
		c, redacted_line(f, a->filename ? a->filename : "(unnamed)"));
	bool rel = !plaintext && released(f->o, a->filename);

	if (a->patch) {
		/* The patch goes, without the reporter's name in it. */
		const unsigned char *data = a->data;
		size_t len = a->size;
		if (!r->consent_credit) {
			/* A patch holds no NUL (attachment_is_patch). */
			char *t = xstrndup((const char *)a->data, a->size);
			char *red = own(c, dossier_redact(&f->d, t));
			wipe_free(t, a->size);
			data = (const unsigned char *)red;
			len = strlen(red);
		}
		sbuf_addf(&c->body, "[attached: %s, %zu bytes]\n", name, len);
		attach(c, a, name, data, len);
		return;
	}
	if (plaintext) {
		sbuf_addf(&c->body,
			  "[withheld from this unencrypted copy: %s]\n", name);
	} else if (a->exploit && !r->consent_exploit) {
		sbuf_addf(&c->body,
			  "[withheld: exploit code without the "
			  "reporter's consent: %s]\n",
			  name);
	} else if (rel || (r->consent_exploit && r->consent_credit)) {
		sbuf_addf(&c->body, "[attached: %s, %zu bytes]\n", name,
			  a->size);
		attach(c, a, name, a->data, a->size);
		if (rel) {
			f->rel = xrealloc(f->rel,
					  (f->nrel + 1) * sizeof(*f->rel));
			f->rel[f->nrel].name = xstrdup(name);
			f->rel[f->nrel].msg = i + 1;
			f->rel[f->nrel].size = a->size;
			f->nrel++;
		}
		return;
	} else {
		sbuf_addf(&c->body,
			  "[withheld: %s (not a patch); ask the "
			  "security team for it]\n",
			  name);
	}
	c->withheld++;
}

/* The body and attachments of one copy: every message of the thread in
 * order, with the reporter redacted unless credited, the patches, and
 * other attachments only as the rules above say. */
static void build_content(struct fwd *f, struct content *c, bool plaintext,
			  const char *why)
{
	const struct report *r = &f->d.f.r;

	memset(c, 0, sizeof(*c));
	add_header(f, &c->body, plaintext, why);
	for (size_t i = 0; i < f->nom; i++) {
		const struct message *m = &f->d.f.msgs[i];
		const struct opened_message *om = &f->om[i];
		char when[32], *from, *text;

		if (dossier_from_reporter(&f->d, m))
			from = r->consent_credit
				? outgoing_one_line(m->from_email)
				: xstrdup("the reporter");
		else
			from = outgoing_one_line(m->from_email ? m->from_email
							       : "unknown");
		sbuf_addf(&c->body,
			  "\n--- message %zu of %zu, %s, from %s ---\n\n",
			  i + 1, f->nom,
			  m->date ? fmt_rfc3339(m->date, when) : "no date",
			  from);
		free(from);
		text = dossier_redact(&f->d, om->body ? om->body : "");
		sbuf_adds(&c->body, text);
		if (*text && text[strlen(text) - 1] != '\n')
			sbuf_addch(&c->body, '\n');
		wipe_free(text, strlen(text));
		for (size_t j = 0; j < om->natt; j++)
			add_attachment(f, c, i, &om->att[j], plaintext);
	}
}

static void content_release(struct content *c)
{
	sbuf_wipe(&c->body);
	free(c->att);
	for (size_t i = 0; i < c->nowned; i++)
		wipe_free(c->owned[i], strlen(c->owned[i]));
	free(c->owned);
	memset(c, 0, sizeof(*c));
}

/* Each --release-attachment names an attachment of the report that may
 * be released: ERR_NOTFOUND naming it (and what there is) otherwise, and
 * ERR_REFUSED for exploit code without the reporter's consent. */
static int check_releases(struct fwd *f, struct err *err)
{
	const struct report *r = &f->d.f.r;

	for (size_t k = 0; k < f->o->nrelease; k++) {
		const char *want = f->o->release[k];
		struct sbuf names = SBUF_INIT;
		bool found = false;

		for (size_t i = 0; i < f->nom; i++)
			for (size_t j = 0; j < f->om[i].natt; j++) {
				const struct attachment_info *a =
					&f->om[i].att[j];
				if (a->filename && !strcmp(a->filename, want)) {
					found = true;
					if (a->exploit && !r->consent_exploit) {
						sbuf_release(&names);
						return err_setc(
							err, ERR_REFUSED,
							"cannot forward report %lld: '%s' looks "
							"like exploit code and the reporter has not "
							"consented to its release (triage %lld "
							"--consent exploit)",
							(long long)f->id, want,
							(long long)f->id);
					}
				}
				if (a->filename)
					sbuf_addf(&names, "%s'%s'",
						  names.len ? ", " : "",
						  a->filename);
			}
		if (!found) {
			err_setc(
				err, ERR_NOTFOUND,
				"cannot forward report %lld: it has no attachment "
				"named '%s' (%s%s)",
				(long long)f->id, want,
				names.len ? "attachments: " : "it has none",
				names.len ? names.buf : "");
			sbuf_release(&names);
			return ERR_NOTFOUND;
		}
		sbuf_release(&names);
	}
	return 0;
}

/* The entity of one copy, valid UTF-8, as canonical MIME (wipe it). */
static int make_entity(struct fwd *f, const struct content *c, char **ent,
		       size_t *len, struct err *err)
{
	char *body = utf8_fix(c->body.buf ? c->body.buf : "", c->body.len);
	int r = mail_build_entity(body, c->att, c->natt, ent, len, err);

	wipe_free(body, strlen(body));
	if (r < 0)
		err_prefix(err, "cannot forward report %lld", (long long)f->id);
	return r;
}

/* --- messages -----------------------------------------------------------*/

static void set_headers(struct mail_compose *h, const char *from,
			const char *subject, const char **refs, size_t nrefs)
{
	memset(h, 0, sizeof(*h));
	h->from = from;
	h->subject = subject;
	h->references = refs;
	h->nreferences = nrefs;
	h->in_reply_to = nrefs ? refs[0] : NULL;
}

/* The forced recipients (of those with a key, or the one i), or NULL. */
static char *forced_list(const struct fwd *f, bool keyed, size_t only)
{
	struct sbuf sb = SBUF_INIT;

	for (size_t i = 0; i < f->nr; i++)
		if (f->r[i].forced && (keyed ? f->r[i].fpr != NULL : i == only))
			sbuf_addf(&sb, "%s%s", sb.len ? ", " : "",
				  f->r[i].email);
	return sb.len ? sbuf_detach(&sb, NULL) : NULL;
}

static void add_out(struct fwd *f, bool plaintext, char *to, char *why,
		    char *forced, char *buf, size_t len)
{
	f->out = xrealloc(f->out, (f->nout + 1) * sizeof(*f->out));
	f->out[f->nout].plaintext = plaintext;
	f->out[f->nout].to = to;
	f->out[f->nout].why = why;
	f->out[f->nout].forced = forced;
	f->out[f->nout].buf = buf;
	f->out[f->nout].len = len;
	f->nout++;
}

/* What every copy of a forward shares: its sender, subject, thread and
 * the key it is signed with. */
struct fwd_head {
	const char *team;
	char *from, *subject, *officer_fpr;
	const char **refs;
	size_t nrefs;
	const char *const *roster;
	size_t nroster;
};

static void fwd_head_release(struct fwd_head *hd)
{
	free(hd->refs);
	free(hd->subject);
	free(hd->from);
	free(hd->officer_fpr);
	memset(hd, 0, sizeof(*hd));
}

static int fwd_head_init(struct fwd *f, struct crypto *c, struct fwd_head *hd,
			 struct err *err)
{
	struct session *sess = f->sess;
	const char *from_addr, *sign_key;
	char *sub1;
	int r;

	memset(hd, 0, sizeof(*hd));
	hd->team = config_get(sess->cfg, "team.address", "security@kernel.org");
	from_addr = config_get(sess->cfg, "officer.email", hd->team);
	sign_key = config_get(sess->cfg, "officer.key", NULL);
	if (!participant_email_valid(hd->team) ||
	    !participant_email_valid(from_addr))
		return err_setc(
			err, ERR_INVALID,
			"cannot forward report %lld: invalid team.address "
			"or officer.email '%s' in the config",
			(long long)f->id,
			participant_email_valid(hd->team) ? from_addr
							  : hd->team);
	if (sign_key) {
		hd->officer_fpr = xstrdup(sign_key);
	} else if ((r = crypto_default_secret_key(c, &hd->officer_fpr, err)) <
		   0) {
		return err_prefix(err,
				  "cannot forward report %lld: no key to "
				  "sign with",
				  (long long)f->id);
	}
	if (!(hd->roster = session_roster(sess, &hd->nroster, err))) {
		fwd_head_release(hd);
		return err_prefix(err, "cannot forward report %lld",
				  (long long)f->id);
	}
	hd->from = outgoing_mailbox(sess->officer_name, from_addr);
	sub1 = redacted_line(f, f->d.f.r.subject);
	hd->subject = xasprintf("[SECURITY] %s", sub1);
	free(sub1);
	/* The reporter's Message-IDs carry their host: only with consent. */
	hd->nrefs = outgoing_thread_refs(sess, &f->d, true, &hd->refs);
	return 0;
}

/* The signed, encrypted message to every recipient with a key (also
 * encrypted to the roster and this officer), as canonical MIME in
 * *msg; *cipher and the entity are gone when it returns. */
static int encrypted_message(struct fwd *f, struct crypto *c,
			     const struct fwd_head *hd, const char **keys,
			     size_t nkeys, const char **to, size_t nto,
			     char **msg, size_t *mlen, struct err *err)
{
	struct mail_compose h;
	struct content ct;
	const char *cc[1] = { hd->team };
	char *ent = NULL, *prot = NULL, *mid;
	unsigned char *cipher = NULL;
	size_t elen = 0, clen = 0, plen = 0;
	int r;

	build_content(f, &ct, false, NULL);
	f->withheld = ct.withheld;
	f->attached = ct.natt;
	r = make_entity(f, &ct, &ent, &elen, err);
	content_release(&ct);
	if (r < 0)
		return r; /* make_entity named the report */
	/* The headers go inside too (header protection): fixed first. */
	set_headers(&h, hd->from, hd->subject, hd->refs, hd->nrefs);
	h.to = to;
	h.nto = nto;
	h.cc = cc;
	h.ncc = 1;
	h.date = util_now();
	h.message_id = mid = mail_new_message_id(hd->from);
	r = mail_protect_entity(&h, ent, elen, &prot, &plen, err);
	wipe_free(ent, elen);
	if (r == 0)
		r = crypto_encrypt(c, keys, nkeys, hd->officer_fpr, true, prot,
				   plen, &cipher, &clen, err);
	if (prot)
		wipe_free(prot, plen);
	if (r == 0)
		r = mail_build_encrypted(&h, (const char *)cipher, clen, msg,
					 mlen, err);
	free(cipher);
	free(mid);
	if (r < 0)
		err_prefix(err, "cannot forward report %lld", (long long)f->id);
	return r;
}

/* The encrypted copy, when any recipient has a key: *nto gets how many. */
static int encrypted_copy(struct fwd *f, struct crypto *c,
			  const struct fwd_head *hd, size_t *nto,
			  struct err *err)
{
	const char **keys = xcalloc(f->nr + hd->nroster + 2, sizeof(*keys));
	const char **to = xcalloc(f->nr + 1, sizeof(*to));
	struct sbuf names = SBUF_INIT;
	size_t nkeys = 0;
	char *msg = NULL;
	size_t mlen = 0;
	int r = 0;

	*nto = 0;
	for (size_t i = 0; i < f->nr; i++)
		if (f->r[i].fpr) {
			keys[nkeys++] = f->r[i].fpr;
			to[(*nto)++] =
				outgoing_mailbox(f->r[i].name, f->r[i].email);
			sbuf_addf(&names, "%s%s", names.len ? ", " : "",
				  f->r[i].email);
		}
	if (*nto) {
		for (size_t i = 0; i <= hd->nroster; i++) {
			const char *k = i < hd->nroster ? hd->roster[i]
							: hd->officer_fpr;
			bool dup = false;
			for (size_t j = 0; j < nkeys && !dup; j++)
				dup = !str_cmp_ci(keys[j], k);
			if (!dup)
				keys[nkeys++] = k;
		}
		r = encrypted_message(f, c, hd, keys, nkeys, to, *nto, &msg,
				      &mlen, err);
		if (r == 0)
			add_out(f, false, sbuf_detach(&names, NULL), NULL,
				forced_list(f, true, 0), msg, mlen);
	}
	for (size_t i = 0; i < *nto; i++)
		free((char *)to[i]);
	free(to);
	free(keys);
	sbuf_release(&names);
	return r;
}

/* The plain copy to recipient i, who has no key (allowed by now); the
 * first such copy, without an encrypted one, says what was withheld. */
static int plain_copy(struct fwd *f, const struct fwd_head *hd, size_t i,
		      bool says_withheld, struct err *err)
{
	struct mail_compose h;
	struct content ct;
	char *ent = NULL, *msg = NULL, *one;
	size_t elen = 0, mlen = 0;
	const char *one_to[1];
	int r;

	build_content(f, &ct, true, f->r[i].why);
	r = make_entity(f, &ct, &ent, &elen, err);
	if (says_withheld) {
		f->withheld = ct.withheld;
		f->attached = ct.natt;
	}
	content_release(&ct);
	if (r < 0)
		return r;
	one = outgoing_mailbox(f->r[i].name, f->r[i].email);
	one_to[0] = one;
	set_headers(&h, hd->from, hd->subject, hd->refs, hd->nrefs);
	h.to = one_to;
	h.nto = 1;
	r = mail_build_plain(&h, ent, elen, &msg, &mlen, err);
	wipe_free(ent, elen);
	free(one);
	if (r < 0)
		return err_prefix(err, "cannot forward report %lld",
				  (long long)f->id);
	add_out(f, true, xstrdup(f->r[i].email), xstrdup(f->r[i].why),
		forced_list(f, false, i), msg, mlen);
	return 0;
}

/* Every copy of the forward: one encrypted to all with a key, and a
 * plain one to each without. */
static int build_messages(struct fwd *f, struct crypto *c, struct err *err)
{
	struct fwd_head hd;
	size_t nto = 0;
	int r;

	if ((r = fwd_head_init(f, c, &hd, err)) < 0)
		return r;
	r = encrypted_copy(f, c, &hd, &nto, err);
	for (size_t i = 0; r == 0 && i < f->nr; i++)
		if (!f->r[i].fpr)
			r = plain_copy(f, &hd, i, !nto, err);
	fwd_head_release(&hd);
	return r;
}

/* --- delivery -----------------------------------------------------------*/

int outgoing_deliver(const char *outbox, const char *sendmail, const char *buf,
		     size_t len, const char *what, char **where,
		     struct err *err)
{
	FILE *p;
	int st;

	*where = NULL;
	if (outbox) {
		if (maildir_deliver(outbox, buf, len, where, err) < 0)
			return err_prefix(err, "%s", what);
		return 0;
	}
	/* A sendmail that exits early must fail this call, not kill us. */
	struct sigaction ign, old;
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &old);
	if (!(p = popen(sendmail, "w"))) {
		sigaction(SIGPIPE, &old, NULL);
		return err_setc(err, ERR_IO, "%s: cannot run '%s'", what,
				sendmail);
	}
	size_t w = fwrite(buf, 1, len, p);
	st = pclose(p);
	sigaction(SIGPIPE, &old, NULL);
	if (w != len || st == -1 || !WIFEXITED(st) || WEXITSTATUS(st))
		return err_setc(err, ERR_IO, "%s: '%s' failed (exit status %d)",
				what, sendmail,
				st != -1 && WIFEXITED(st) ? WEXITSTATUS(st)
							  : -1);
	*where = xstrdup("sent via sendmail");
	return 0;
}

static int deliver(struct fwd *f, const struct forward_opts *o,
		   const struct outmsg *m, char **where, struct err *err)
{
	char *what = xasprintf("cannot forward report %lld to %s",
			       (long long)f->id, m->to);
	int r = outgoing_deliver(o->outbox, o->sendmail, m->buf, m->len, what,
				 where, err);

	free(what);
	return r;
}

struct log_req {
	struct fwd *f;
	size_t n; /* the first n messages of f->out were delivered */
};

static int log_events(struct session *sess, void *data, struct err *err)
{
	struct log_req *l = data;
	struct fwd *f = l->f;
	int r = 0;

	for (size_t i = 0; i < l->n && r == 0; i++) {
		const struct outmsg *m = &f->out[i];
		char *detail;

		if (m->plaintext) {
			detail = xasprintf(
				"plain copy to %s (no usable key: %s; "
				"--allow-plaintext%s)",
				m->to, m->why,
				m->forced ? "; not a participant: "
					    "--force-recipient"
					  : "");
			r = store_event_add(sess->store, f->id, sess->officer,
					    "forward-plaintext", detail, err);
		} else {
			struct sbuf sb = SBUF_INIT;
			sbuf_addf(&sb, "to %s (encrypted, signed", m->to);
			if (f->attached)
				sbuf_addf(&sb, "; %zu attachment%s",
					  f->attached,
					  f->attached > 1 ? "s" : "");
			if (f->withheld)
				sbuf_addf(&sb, "; %zu attachment%s withheld",
					  f->withheld,
					  f->withheld > 1 ? "s" : "");
			if (m->forced)
				sbuf_addf(
					&sb,
					"; not participants, --force-recipient: %s",
					m->forced);
			sbuf_addch(&sb, ')');
			detail = sbuf_detach(&sb, NULL);
			r = store_event_add(sess->store, f->id, sess->officer,
					    "forward", detail, err);
			for (size_t k = 0; k < f->nrel && r == 0; k++) {
				char *d = xasprintf(
					"'%s' (message %zu, %zu bytes) "
					"released to %s (--release-attachment)",
					f->rel[k].name, f->rel[k].msg,
					f->rel[k].size, m->to);
				r = store_event_add(sess->store, f->id,
						    sess->officer,
						    "attachment-release", d,
						    err);
				free(d);
			}
		}
		free(detail);
	}
	return r;
}

static void fwd_release(struct fwd *f)
{
	for (size_t i = 0; i < f->nom; i++)
		opened_message_release(&f->om[i]);
	free(f->om);
	for (size_t i = 0; i < f->nr; i++) {
		free(f->r[i].name);
		free(f->r[i].email);
		free(f->r[i].confirmed);
		free(f->r[i].fpr);
		free(f->r[i].why);
	}
	free(f->r);
	for (size_t i = 0; i < f->nout; i++) {
		free(f->out[i].to);
		free(f->out[i].why);
		free(f->out[i].forced);
		if (f->out[i].plaintext)
			wipe_free(f->out[i].buf, f->out[i].len);
		else
			free(f->out[i].buf);
	}
	free(f->out);
	for (size_t i = 0; i < f->nrel; i++)
		free(f->rel[i].name);
	free(f->rel);
	dossier_release(&f->d);
}

void forward_result_release(struct forward_result *res)
{
	for (size_t i = 0; i < res->nsent; i++) {
		free(res->sent[i].to);
		free(res->sent[i].where);
	}
	free(res->sent);
	memset(res, 0, sizeof(*res));
}

int forward_report(struct session *sess, int64_t id,
		   const struct forward_opts *o, struct forward_result *res,
		   struct err *err)
{
	struct fwd f;
	struct crypto *c;
	struct log_req l;
	int r;

	memset(res, 0, sizeof(*res));
	memset(&f, 0, sizeof(f));
	f.sess = sess;
	f.id = id;
	f.o = o;
	if (!o->nto)
		return err_setc(err, ERR_INVALID,
				"cannot forward report %lld: no recipients",
				(long long)id);
	if (!o->outbox && !o->sendmail)
		return err_setc(err, ERR_INVALID,
				"cannot forward report %lld: no outbox and no "
				"sendmail command",
				(long long)id);
	if ((r = dossier_load(sess, id, &f.d, err)) < 0)
		goto out;
	if (!(c = session_crypto(sess, err))) {
		r = ERR_CRYPTO;
		goto out;
	}
	for (size_t i = 0; i < o->nto; i++)
		if ((r = add_recipient(&f, o->to[i],
				       o->keys ? o->keys[i] : NULL,
				       o->force_recipient, err)) < 0)
			goto out;
	if ((r = resolve_keys(&f, c, o->allow_plaintext, err)) < 0)
		goto out;
	f.om = xcalloc(f.d.f.nmsgs + 1, sizeof(*f.om));
	for (size_t i = 0; i < f.d.f.nmsgs; i++, f.nom++)
		if ((r = report_open_message(sess, f.d.f.msgs[i].id, &f.om[i],
					     err)) < 0) {
			err_prefix(err, "cannot forward report %lld",
				   (long long)id);
			goto out;
		}
	if ((r = check_releases(&f, err)) < 0 ||
	    (r = build_messages(&f, c, err)) < 0)
		goto out;

	res->attached = f.attached;
	res->withheld = f.withheld;
	res->sent = xcalloc(f.nout + 1, sizeof(*res->sent));
	for (l.n = 0; l.n < f.nout; l.n++) {
		char *where;
		if ((r = deliver(&f, o, &f.out[l.n], &where, err)) < 0)
			break;
		res->sent[res->nsent].plaintext = f.out[l.n].plaintext;
		res->sent[res->nsent].to = xstrdup(f.out[l.n].to);
		res->sent[res->nsent].where = where;
		res->nsent++;
	}
	l.f = &f;
	if (l.n) {
		struct err e2 = { 0, "" };
		int r2 = core_write(sess, log_events, &l, &e2);
		if (r2 < 0 && r == 0) {
			*err = e2;
			err_prefix(err,
				   "report %lld was forwarded but the event "
				   "could not be recorded",
				   (long long)id);
			r = r2;
		}
	}
out:
	fwd_release(&f);
	return r;
}
