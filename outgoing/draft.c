/*
 * A draft's headers in the editor, as mutt's edit_headers shows them:
 * To, Cc and Subject above a blank line, then the text.  The officer
 * may change them; they are read back strictly, and anything wrong
 * (a header that is not one of those three, one given twice or folded,
 * an address that is no address, a To that names several or none, a
 * Cc other than the team's address, a Subject that is empty or holds a
 * control character) is an error naming it, and nothing is sent.
 *
 * A Cc beyond the team's address is refused rather than taken: the
 * mail is encrypted to its recipient, the officer and the roster, and
 * a stranger in Cc would receive what their key cannot open (forward
 * is the command that sends to someone else).  A new To is encrypted
 * to the key the keyring vouches for its address (outgoing_key), as
 * the draft's own recipient was.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/participants.h"
#include "outgoing/send.h"

#define SUBJECT_MAX 900 /* RFC 5322's line, with room for "Subject: " */

static const char *team_address(struct session *sess)
{
	return config_get(sess->cfg, "team.address", "security@kernel.org");
}

char *reply_draft_edit_text(struct session *sess, const struct reply_draft *d)
{
	char *to = outgoing_mailbox(d->to_name, d->to_email);
	char *subj = outgoing_one_line(d->subject ? d->subject : "");
	char *s = xasprintf("To: %s\nCc: %s\nSubject: %s\n\n%s", to,
			    d->no_cc ? "" : team_address(sess), subj,
			    d->text ? d->text : "");

	free(to);
	free(subj);
	return s;
}

/* Whether s (len bytes) holds a byte below 0x20 or DEL. */
static bool has_control(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return true;
	return false;
}

/* One mailbox: "addr", "Name <addr>" or "\"Name\" <addr>", into *name
 * (NULL when none) and *email (lowercase); both the caller's. */
static int mailbox_parse(const char *hdr, const char *v, char **name,
			 char **email, struct err *err)
{
	const char *lt = strchr(v, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	char *n = NULL, *e;

	*name = *email = NULL;
	if (strchr(v, ',') && !strchr(v, '"'))
		return err_setc(
			err, ERR_INVALID,
			"%s: '%.200s' names several addresses: one only", hdr,
			v);
	if (lt) {
		size_t nl = (size_t)(lt - v);
		if (!gt || gt[1] || strchr(lt + 1, '<'))
			return err_setc(
				err, ERR_INVALID,
				"%s: '%.200s' is no address (Name <user@example.org>)",
				hdr, v);
		while (nl && v[nl - 1] == ' ')
			nl--;
		if (nl >= 2 && v[0] == '"' && v[nl - 1] == '"') {
			v++;
			nl -= 2;
		}
		if (memchr(v, '"', nl) || memchr(v, '<', nl) ||
		    memchr(v, '>', nl))
			return err_setc(err, ERR_INVALID,
					"%s: the name in '%.200s' is not plain",
					hdr, v);
		n = nl ? xstrndup(v, nl) : NULL;
		e = xstrndup(lt + 1, (size_t)(gt - lt - 1));
	} else {
		e = xstrdup(v);
	}
	for (char *p = e; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	if (!participant_email_valid(e)) {
		err_setc(err, ERR_INVALID, "%s: '%.200s' is no address", hdr,
			 e);
		free(n);
		free(e);
		return ERR_INVALID;
	}
	*name = n;
	*email = e;
	return 0;
}

struct edited {
	char *to, *cc, *subject; /* the values, or NULL when absent */
};

/* The header lines before the blank line into h; *body after it. */
static int headers_parse(const char *s, struct edited *h, const char **body,
			 struct err *err)
{
	static const char *const names[] = { "To", "Cc", "Subject" };

	memset(h, 0, sizeof(*h));
	for (;;) {
		const char *nl = strchr(s, '\n'), *colon;
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		char **slot = NULL;
		const char *v;
		size_t vl;
		int shown;

		if (!len || (len == 1 && s[0] == '\r')) {
			*body = nl ? nl + 1 : s + len;
			return 0;
		}
		if (s[0] == ' ' || s[0] == '\t')
			return err_setc(
				err, ERR_INVALID,
				"the draft's headers: a folded line ('%.60s'): each header on one line",
				s);
		colon = memchr(s, ':', len);
		for (size_t i = 0; colon && i < 3; i++)
			if ((size_t)(colon - s) == strlen(names[i]) &&
			    !strncasecmp(s, names[i], strlen(names[i])))
				slot = i == 0	 ? &h->to
					: i == 1 ? &h->cc
						 : &h->subject;
		shown = colon ? (int)(colon - s) : (int)len;
		if (shown > 60)
			shown = 60;
		if (!slot)
			return err_setc(
				err, ERR_INVALID,
				"the draft's headers: '%.*s' is no header the draft may change (To, Cc, Subject); a blank line ends the headers",
				shown, s);
		if (*slot)
			return err_setc(
				err, ERR_INVALID,
				"the draft's headers: %.*s is given twice",
				(int)(colon - s), s);
		v = colon + 1;
		vl = len - (size_t)(v - s);
		while (vl && (*v == ' ' || *v == '\t')) {
			v++;
			vl--;
		}
		while (vl &&
		       (v[vl - 1] == ' ' || v[vl - 1] == '\t' ||
			v[vl - 1] == '\r'))
			vl--;
		if (has_control(v, vl))
			return err_setc(
				err, ERR_INVALID,
				"the draft's headers: %.*s holds a control character",
				(int)(colon - s), s);
		*slot = xstrndup(v, vl);
		if (!nl)
			return err_setc(
				err, ERR_INVALID,
				"the draft has no blank line after its headers: nothing to send");
		s = nl + 1;
	}
}

int reply_draft_take_edit(struct session *sess, struct reply_draft *d,
			  const char *edited, char **text, struct err *err)
{
	struct edited h;
	const char *body = NULL;
	char *name = NULL, *email = NULL;
	int r;

	*text = NULL;
	if ((r = headers_parse(edited, &h, &body, err)) < 0)
		goto out;
	if (!h.to || !*h.to) {
		r = err_setc(err, ERR_INVALID,
			     "the draft's headers: no To: nothing sent");
		goto out;
	}
	if (!h.subject || !*h.subject) {
		r = err_setc(err, ERR_INVALID,
			     "the draft's headers: an empty Subject");
		goto out;
	}
	if (strlen(h.subject) > SUBJECT_MAX) {
		r = err_setc(
			err, ERR_INVALID,
			"the draft's headers: the Subject is %zu bytes, at most %d",
			strlen(h.subject), SUBJECT_MAX);
		goto out;
	}
	if (h.cc && *h.cc && strcasecmp(h.cc, team_address(sess))) {
		r = err_setc(
			err, ERR_INVALID,
			"the draft's headers: Cc '%.200s': only the team's address (%s) may be there, or none; a reply goes to those who can open it (send to others with forward)",
			h.cc, team_address(sess));
		goto out;
	}
	if ((r = mailbox_parse("To", h.to, &name, &email, err)) < 0)
		goto out;
	if (strcmp(email, d->to_email) && d->fpr) {
		/* Another recipient: the key its address has, by the rules
		 * the draft's own recipient's was found by. */
		struct crypto *c = session_crypto(sess, err);
		char *fpr = NULL, *why = NULL;
		if (!c) {
			r = ERR_CRYPTO;
			goto out;
		}
		r = outgoing_key(c, "send to a new To", d->id, email, NULL,
				 &fpr, &why, err);
		if (r == ERR_NOTFOUND)
			err_setc(
				err, ERR_REFUSED,
				"To: %s: no key to encrypt to (%s): nothing sent",
				email, why ? why : "none in the keyring");
		free(why);
		if (r < 0) {
			free(fpr);
			goto out;
		}
		free(d->fpr);
		d->fpr = fpr;
	}
	free(d->to_name);
	free(d->to_email);
	d->to_name = name;
	d->to_email = email;
	name = email = NULL;
	free(d->subject);
	d->subject = outgoing_one_line(h.subject);
	d->no_cc = !h.cc || !*h.cc;
	*text = xstrdup(body);
	r = 0;
out:
	free(name);
	free(email);
	free(h.to);
	free(h.cc);
	free(h.subject);
	return r;
}
