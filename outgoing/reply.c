/*
 * Replying to the reporter: a template from the config folder filled in
 * from the report, the report quoted, signed by the officer and
 * encrypted to the reporter (and to the officer and the team roster, so
 * the stored copy stays readable).  The recipient's key is found as
 * forward finds one (outgoing_key: confirmed, or certified for the
 * address).  Without a usable key the reply is refused with the reason;
 * --allow-plaintext sends it in the clear (still signed: PGP/MIME
 * multipart/signed), without the quoted report, and says so in the
 * timeline, but never for a report that came in
 * encrypted: whoever encrypted their report is answered encrypted.
 *
 * The reply joins the thread (References its first message and the
 * newest ones the reporter or the team signed, outgoing_thread_refs;
 * In-Reply-To the last of them), is logged with its Message-ID, and a copy goes through
 * the import pipeline like incoming mail: decrypted with the officer's
 * key, verified, stored sealed in the report's thread, so the report
 * view shows both directions.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/fixcve.h"
#include "outgoing/send.h"
#include "crypto/crypto.h"
#include "mail/mail.h"
#include "store/store.h"

#define QUOTE_MAX_LINES 400 /* of the report quoted in a reply */

void reply_draft_release(struct reply_draft *d)
{
	free(d->template);
	free(d->to_name);
	free(d->to_email);
	free(d->fpr);
	free(d->why);
	free(d->subject);
	for (size_t i = 0; i < d->nrefs; i++)
		free(d->refs[i]);
	free(d->refs);
	if (d->text)
		wipe_free(d->text, strlen(d->text));
	for (size_t i = 0; i < d->natt; i++) {
		free(d->att[i].filename);
		free(d->att[i].content_type);
		if (d->att[i].data)
			wipe_free(d->att[i].data, d->att[i].len);
	}
	free(d->att);
	free(d->att_note);
	memset(d, 0, sizeof(*d));
}

void reply_sent_release(struct reply_sent *s)
{
	free(s->message_id);
	free(s->where);
	free(s->store_note);
	free(s->vendor_note);
	memset(s, 0, sizeof(*s));
}

int reply_transport_from_config(struct session *sess, struct reply_opts *o,
				struct err *err)
{
	o->outbox = config_get(sess->cfg, "forward.outbox", NULL);
	o->sendmail = o->outbox
		? NULL
		: config_get(sess->cfg, "forward.sendmail", NULL);
	if (!o->outbox && !o->sendmail)
		return err_setc(
			err, ERR_INVALID,
			"say where mail goes: set forward.outbox (a Maildir) "
			"or forward.sendmail in the config");
	return 0;
}

/* True when email wrote to the report's thread or is a participant:
 * the reply quotes the report, so it goes to no one else. */
static bool in_report(struct session *sess, const struct dossier *dos,
		      const char *email, char **name)
{
	struct participant p;
	struct err e = { 0, "" };

	/* A participant's stored name when none was given. */
	if (store_participant_get(sess->store, dos->f.r.id, email, &p, &e) ==
	    0) {
		if (!*name && p.name)
			*name = xstrdup(p.name);
		participant_release(&p);
		return true;
	}
	for (size_t i = 0; i < dos->f.nmsgs; i++)
		if (dos->f.msgs[i].from_email &&
		    !str_cmp_ci(dos->f.msgs[i].from_email, email))
			return true;
	return false;
}

/* The recipient: --to (someone of the report), else the reporter. */
static int recipient(struct session *sess, struct reply_draft *d,
		     const struct dossier *dos, const struct reply_opts *o,
		     struct err *err)
{
	const struct report *r = &dos->f.r;

	if (o->to) {
		if (participant_parse_address(o->to, &d->to_name, &d->to_email,
					      err) < 0)
			return err_prefix(err, "cannot reply to report %lld",
					  (long long)d->id);
		if (!in_report(sess, dos, d->to_email, &d->to_name))
			return err_setc(
				err, ERR_REFUSED,
				"cannot reply to report %lld: '%s' neither wrote "
				"to its thread nor is a participant (maintainers "
				"%lld --add '%s' to bring them in)",
				(long long)d->id, d->to_email, (long long)d->id,
				d->to_email);
		return 0;
	}
	if (!r->reporter_email || !participant_email_valid(r->reporter_email))
		return err_setc(
			err, ERR_INVALID,
			"cannot reply to report %lld: its reporter has no "
			"usable address; give one with --to ADDR",
			(long long)d->id);
	d->to_email = xstrdup(r->reporter_email);
	d->to_name = r->reporter_name ? xstrdup(r->reporter_name) : NULL;
	return 0;
}

/* True when a message of the report came in encrypted. */
static bool came_encrypted(const struct dossier *dos)
{
	if (dos->f.r.encrypted)
		return true;
	for (size_t i = 0; i < dos->f.nmsgs; i++)
		if (dos->f.msgs[i].encrypted)
			return true;
	return false;
}

/* The recipient's key into d->fpr, or the rule that refuses the reply. */
static int find_key(struct session *sess, struct reply_draft *d,
		    const struct dossier *dos, bool allow_plain,
		    struct err *err)
{
	struct participant p;
	struct err e = { 0, "" };
	struct crypto *c = session_crypto(sess, err);
	char *confirmed = NULL;
	int r;

	if (!c) {
		return ERR_CRYPTO;
	}
	if (store_participant_get(sess->store, d->id, d->to_email, &p, &e) ==
	    0) {
		r = participant_key(sess, d->id, &p, &confirmed, err);
		participant_release(&p);
		if (r < 0)
			return r;
	}
	r = outgoing_key(c, "reply to", d->id, d->to_email, confirmed, &d->fpr,
			 &d->why, err);
	free(confirmed);
	if (r != ERR_NOTFOUND)
		return r;
	if (came_encrypted(dos))
		return err_setc(
			err, ERR_REFUSED,
			"cannot reply to report %lld: no usable key for '%s' "
			"(%s), and the report came in encrypted, so it is never "
			"answered in the clear; import their key or confirm one "
			"(maintainers %lld --add %s --key FPR)",
			(long long)d->id, d->to_email, d->why, (long long)d->id,
			d->to_email);
	if (!allow_plain)
		return err_setc(
			err, ERR_REFUSED,
			"cannot reply to report %lld: no usable key for '%s' "
			"(%s); use --allow-plaintext to send it in the clear "
			"(recorded, without the quoted report)",
			(long long)d->id, d->to_email, d->why);
	return 0;
}

/* The report's recorded fix as "SHA (TAG)" in b, or NULL for none. */
static const char *fix_text(struct session *sess, int64_t id, char *b)
{
	char *t = fixcve_fix_text(sess, id, NULL);

	if (!t)
		return NULL;
	snprintf(b, 160, "%s", t);
	free(t);
	return b;
}

/* The fields a template may use, and their values (strings in buf). */
static size_t fields(struct session *sess, const struct dossier *dos,
		     struct template_field *f, char (*buf)[160])
{
	const struct report *r = &dos->f.r;
	const char *reason = NULL;
	size_t n = 0;

	snprintf(buf[0], 160, "%lld", (long long)r->id);
	snprintf(buf[4], 160, "%ld", dos->pol.default_days);
	snprintf(buf[5], 160, "%ld", dos->pol.max_days);
	snprintf(buf[1], 160,
		 "report %lld has no fix commit recorded (its "
		 "state is %s)",
		 (long long)r->id, r->state ? r->state : "new");
	snprintf(buf[2], 160,
		 "report %lld has no decided disclosure date "
		 "(date %lld set DATE)",
		 (long long)r->id, (long long)r->id);
	if (r->disclosure)
		strftime(buf[3], 160, "%Y-%m-%d %H:%M UTC",
			 gmtime(&r->disclosure));
	for (size_t i = 0; i < dos->ndecisions; i++)
		if (dos->decisions[i].reason && *dos->decisions[i].reason)
			reason = dos->decisions[i].reason;
	f[n++] = (struct template_field){ "id", buf[0], NULL };
	f[n++] = (struct template_field){ "subject",
					  r->subject ? r->subject : "", NULL };
	f[n++] = (struct template_field){ "officer", sess->officer_name, NULL };
	f[n++] = (struct template_field){ "team",
					  config_get(sess->cfg, "team.address",
						     "security@kernel.org"),
					  NULL };
	f[n++] = (struct template_field){ "reporter",
					  r->reporter_name && *r->reporter_name
						  ? r->reporter_name
						  : r->reporter_email
						  ? r->reporter_email
						  : "",
					  NULL };
	f[n++] = (struct template_field){ "default_days", buf[4], NULL };
	f[n++] = (struct template_field){ "max_days", buf[5], NULL };
	f[n++] = (struct template_field){ "state", r->state ? r->state : "new",
					  NULL };
	f[n++] = (struct template_field){ "severity",
					  r->severity ? r->severity : "none",
					  NULL };
	/* {fix_commit} from `fix ID --commit` (fixcve.h): the commit and,
	 * when a tree was checked, the first tag that holds it. */
	f[n++] = (struct template_field){ "fix_commit",
					  fix_text(sess, r->id, buf[6]),
					  buf[1] };
	f[n++] = (struct template_field){ "disclosure_date",
					  r->disclosure ? buf[3] : NULL,
					  buf[2] };
	f[n++] = (struct template_field){
		"date_reason",
		reason			? reason
			: r->disclosure ? "within the team's default embargo"
					: NULL,
		buf[2]
	};
	return n;
}

/* The report's first message, quoted ("> "), after the filled template. */
static int quote_report(struct session *sess, const struct dossier *dos,
			struct sbuf *sb, struct err *err)
{
	struct opened_message om;
	struct body_line *lines = NULL;
	const struct message *m = &dos->f.msgs[0];
	char when[32];
	size_t n;

	if (!dos->f.nmsgs)
		return 0;
	if (report_open_message(sess, m->id, &om, err) < 0) {
		opened_message_release(&om);
		return err_prefix(err, "cannot reply to report %lld",
				  (long long)dos->f.r.id);
	}
	n = opened_message_lines(&om, &lines);
	sbuf_addf(sb, "\nOn %s, you wrote:\n",
		  m->date ? fmt_rfc3339(m->date, when) : "receipt");
	for (size_t i = 0; i < n && i < QUOTE_MAX_LINES; i++)
		sbuf_addf(sb, ">%s%.*s\n", lines[i].len ? " " : "",
			  (int)lines[i].len, lines[i].s);
	if (n > QUOTE_MAX_LINES)
		sbuf_addf(sb, "> [%zu more lines]\n", n - QUOTE_MAX_LINES);
	free(lines);
	opened_message_release(&om);
	return 0;
}

static void thread_refs(struct session *sess, struct reply_draft *d,
			const struct dossier *dos)
{
	const char *subj = dos->f.r.subject ? dos->f.r.subject : "";
	char *s = outgoing_one_line(subj);

	d->subject = str_starts(s, "Re:") || str_starts(s, "RE:") ||
			str_starts(s, "re:")
		? xstrdup(s)
		: xasprintf("Re: %s", s);
	free(s);
	d->nrefs = outgoing_thread_refs_copy(sess, dos, false, &d->refs);
}

static int compose(struct session *sess, struct reply_draft *d,
		   const struct dossier *dos, struct err *err)
{
	struct template_field f[16];
	char buf[7][160], *text = NULL, *src = NULL, *filled = NULL;
	struct sbuf sb = SBUF_INIT;
	size_t nf = fields(sess, dos, f, buf);
	int r;

	if ((r = template_load(sess, d->template, &text, &src, err)) < 0 ||
	    (r = template_fill(d->template, text, f, nf, &filled, err)) < 0) {
		free(text);
		free(src);
		return err_prefix(err, "cannot reply to report %lld",
				  (long long)d->id);
	}
	free(text);
	free(src);
	sbuf_adds(&sb, filled);
	wipe_free(filled, strlen(filled));
	/* A plain reply carries nothing of the report. */
	if (d->fpr && (r = quote_report(sess, dos, &sb, err)) < 0) {
		sbuf_wipe(&sb);
		return r;
	}
	d->text = sbuf_detach(&sb, NULL);
	return 0;
}

int reply_prepare(struct session *sess, int64_t id, const struct reply_opts *o,
		  struct reply_draft *d, struct err *err)
{
	struct dossier dos;
	int r;

	memset(d, 0, sizeof(*d));
	d->id = id;
	d->template = xstrdup(o->template ? o->template : "ack");
	d->outbox = o->outbox;
	d->sendmail = o->sendmail;
	if (!o->outbox && !o->sendmail)
		return err_setc(err, ERR_INVALID,
				"cannot reply to report %lld: no outbox and no "
				"sendmail command",
				(long long)id);
	if ((r = dossier_load(sess, id, &dos, err)) < 0)
		goto out;
	if ((r = recipient(sess, d, &dos, o, err)) < 0 ||
	    (r = find_key(sess, d, &dos, o->allow_plaintext, err)) < 0 ||
	    (r = compose(sess, d, &dos, err)) < 0)
		goto out;
	thread_refs(sess, d, &dos);
out:
	dossier_release(&dos);
	return r;
}

/* --- sending ------------------------------------------------------------*/

struct outgoing {
	char *from; /* "Officer" <addr> */
	char *officer_fpr; /* the key that signs */
	const char *team;
	char *buf; /* the message */
	size_t len;
	char *message_id;
};

static int sender(struct session *sess, struct crypto *c, int64_t id,
		  struct outgoing *m, struct err *err)
{
	const char *from_addr,
		*sign_key = config_get(sess->cfg, "officer.key", NULL);

	m->team = config_get(sess->cfg, "team.address", "security@kernel.org");
	from_addr = config_get(sess->cfg, "officer.email", m->team);
	if (!participant_email_valid(m->team) ||
	    !participant_email_valid(from_addr))
		return err_setc(
			err, ERR_INVALID,
			"cannot reply to report %lld: invalid team.address "
			"or officer.email '%s' in the config",
			(long long)id,
			participant_email_valid(m->team) ? from_addr : m->team);
	if (sign_key)
		m->officer_fpr = xstrdup(sign_key);
	else if (crypto_default_secret_key(c, &m->officer_fpr, err) < 0)
		return err_prefix(err,
				  "cannot reply to report %lld: no key to sign "
				  "with",
				  (long long)id);
	m->from = outgoing_mailbox(sess->officer_name, from_addr);
	return 0;
}

/* The entity, encrypted to the recipient, the officer and the roster. */
static int encrypt_entity(struct session *sess, struct crypto *c,
			  const struct outgoing_mail *om, struct outgoing *m,
			  const char *ent, size_t elen, unsigned char **cipher,
			  size_t *clen, struct err *err)
{
	const char *const *roster;
	const char **keys;
	size_t nroster = 0, nkeys = 0;
	int r;

	if (!(roster = session_roster(sess, &nroster, err))) {
		return ERR_CRYPTO;
	}
	keys = xcalloc(nroster + 3, sizeof(*keys));
	keys[nkeys++] = om->fpr;
	for (size_t i = 0; i <= nroster; i++) {
		const char *k = i < nroster ? roster[i] : m->officer_fpr;
		bool dup = false;
		for (size_t j = 0; j < nkeys && !dup; j++)
			dup = !str_cmp_ci(keys[j], k);
		if (!dup)
			keys[nkeys++] = k;
	}
	r = crypto_encrypt(c, keys, nkeys, m->officer_fpr, true, ent, elen,
			   cipher, clen, err);
	free(keys);
	return r;
}

/* Mail in the clear is still signed by the officer (PGP/MIME
 * multipart/signed, RFC 3156), so the reader can tell it is ours. */
static int build_signed(struct crypto *c, struct outgoing *m,
			const struct mail_compose *h, const char *ent,
			size_t elen, struct err *err)
{
	unsigned char *sig = NULL;
	size_t slen = 0;
	char *micalg = NULL;
	int r = crypto_pgp_sign_detached(c, m->officer_fpr, ent, elen, &sig,
					 &slen, &micalg, err);

	if (r == 0)
		r = mail_build_signed(h, ent, elen, (const char *)sig, slen,
				      micalg, &m->buf, &m->len, err);
	free(sig);
	free(micalg);
	return r;
}

/* The entity with the headers inside (header protection: the subject
 * is not sent in the clear), encrypted as encrypt_entity does. */
static int protect_encrypt(struct session *sess, struct crypto *c,
			   const struct outgoing_mail *om, struct outgoing *m,
			   const struct mail_compose *h, const char *ent,
			   size_t elen, unsigned char **cipher, size_t *clen,
			   struct err *err)
{
	char *prot = NULL;
	size_t plen = 0;
	int r = mail_protect_entity(h, ent, elen, &prot, &plen, err);

	if (r == 0)
		r = encrypt_entity(sess, c, om, m, prot, plen, cipher, clen,
				   err);
	if (prot)
		wipe_free(prot, plen);
	return r;
}

/* The headers of om from m (to, the one recipient), fixed before the
 * entity is built: the encrypted part carries them too. */
static void headers(struct mail_compose *h, const struct outgoing_mail *om,
		    struct outgoing *m, const char **to)
{
	memset(h, 0, sizeof(*h));
	h->from = m->from;
	h->to = to;
	h->nto = 1;
	h->cc = &m->team;
	h->ncc = om->no_cc ? 0 : 1;
	h->subject = om->subject;
	h->references = (const char **)om->refs;
	h->nreferences = om->nrefs;
	h->in_reply_to = om->nrefs ? om->refs[om->nrefs - 1] : NULL;
	h->date = util_now();
	h->message_id = m->message_id;
}

/* The whole message into m->buf, its Message-ID into m->message_id. */
static int build(struct session *sess, struct crypto *c,
		 const struct outgoing_mail *om, struct outgoing *m,
		 struct err *err)
{
	struct mail_compose h;
	char *body = utf8_fix(om->text, strlen(om->text)), *ent = NULL;
	char *to = outgoing_mailbox(om->to_name, om->to_email);
	const char *one_to[1] = { to };
	unsigned char *cipher = NULL;
	size_t elen = 0, clen = 0;
	int r;

	m->message_id = mail_new_message_id(m->from);
	headers(&h, om, m, one_to);
	r = mail_build_entity(body, om->att, om->natt, &ent, &elen, err);
	wipe_free(body, strlen(body));
	if (r == 0 && om->fpr)
		r = protect_encrypt(sess, c, om, m, &h, ent, elen, &cipher,
				    &clen, err);
	if (r == 0)
		r = om->fpr ? mail_build_encrypted(&h, (const char *)cipher,
						   clen, &m->buf, &m->len, err)
			    : build_signed(c, m, &h, ent, elen, err);
	free(to);
	free(cipher);
	if (ent)
		wipe_free(ent, elen);
	if (r < 0)
		return err_prefix(err, "%s", om->what);
	return 0;
}

struct log_req {
	const struct outgoing_mail *om;
	const char *message_id;
};

static int log_event(struct session *sess, void *data, struct err *err)
{
	struct log_req *l = data;
	char *detail = xasprintf("%s <%s>", l->om->event_detail, l->message_id);
	int r = store_event_add(sess->store, l->om->id, sess->officer,
				l->om->event_kind, detail, err);

	for (size_t i = 0; i < l->om->nalso && r == 0; i++)
		r = store_event_add(sess->store, l->om->also[i], sess->officer,
				    l->om->event_kind, detail, err);
	free(detail);
	return r;
}

/* The sent message into the store like incoming mail: sealed, verified,
 * in the report's thread (by id: a notice may reference none of it). */
static void store_copy(struct session *sess, int64_t id,
		       const struct outgoing *m, struct reply_sent *res)
{
	struct import_result ir;
	struct err e = { 0, "" };
	struct import_pending *p = import_start_into(sess, m->buf, m->len, id);

	if (import_finish(sess, p, &ir, &e) < 0)
		res->store_note = xstrdup(e.msg);
	else if (ir.status == IMPORT_ERROR)
		res->store_note =
			xstrdup(ir.error ? ir.error : "import failed");
	else if (ir.report_id != id)
		res->store_note = xasprintf("it joined report %lld instead",
					    (long long)ir.report_id);
	else
		res->stored = true;
	import_result_release(&ir);
}

int outgoing_send(struct session *sess, const struct outgoing_mail *om,
		  struct reply_sent *res, struct err *err)
{
	struct outgoing m;
	struct crypto *c = session_crypto(sess, err);
	struct log_req l;
	char *what;
	int r;

	memset(res, 0, sizeof(*res));
	memset(&m, 0, sizeof(m));
	if (!c) {
		return ERR_CRYPTO;
	}
	if ((r = sender(sess, c, om->id, &m, err)) < 0 ||
	    (r = build(sess, c, om, &m, err)) < 0)
		goto out;
	what = xasprintf("%s to %s", om->what, om->to_email);
	r = outgoing_deliver(om->outbox, om->sendmail, m.buf, m.len, what,
			     &res->where, err);
	free(what);
	if (r < 0)
		goto out;
	res->plaintext = !om->fpr;
	res->message_id = xstrdup(m.message_id);
	l.om = om;
	l.message_id = m.message_id;
	if ((r = core_write(sess, log_event, &l, err)) < 0) {
		err_prefix(err,
			   "report %lld: the mail was sent but the event "
			   "could not be recorded",
			   (long long)om->id);
		goto out;
	}
	if (!om->no_copy)
		store_copy(sess, om->id, &m, res);
	else
		res->stored = true; /* nothing to store: not a failure */
out:
	free(m.from);
	free(m.officer_fpr);
	if (m.buf)
		wipe_free(m.buf, m.len);
	free(m.message_id);
	return r;
}

void outgoing_from_draft(struct outgoing_mail *om, const struct reply_draft *d,
			 const char *what, const char *text)
{
	*om = (struct outgoing_mail){
		.id = d->id,
		.what = what,
		.text = text,
		.to_name = d->to_name,
		.to_email = d->to_email,
		.fpr = d->fpr,
		.subject = d->subject,
		.refs = (const char *const *)d->refs,
		.nrefs = d->nrefs,
		.outbox = d->outbox,
		.sendmail = d->sendmail,
		.att = d->att,
		.natt = d->natt,
		.no_cc = d->no_cc,
	};
}

int reply_send(struct session *sess, const struct reply_draft *d,
	       const char *text, struct reply_sent *res, struct err *err)
{
	struct outgoing_mail om;
	char *what = xasprintf("cannot reply to report %lld", (long long)d->id);
	char *detail;
	int r;

	outgoing_from_draft(&om, d, what, text);
	om.event_kind = d->fpr ? "reply-sent" : "reply-plaintext";
	if (d->fpr)
		detail = xasprintf("to %s (encrypted, signed; template %s)",
				   d->to_email, d->template);
	else
		detail = xasprintf("to %s in the clear (no usable key: %s; "
				   "--allow-plaintext; report not quoted; "
				   "template %s)",
				   d->to_email, d->why, d->template);
	om.event_detail = detail;
	r = outgoing_send(sess, &om, res, err);
	free(what);
	free(detail);
	return r;
}
