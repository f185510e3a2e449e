/*
 * The content entity: what an officer was shown of a message (its text,
 * its attachments, its From mailboxes, and which of that the verdict does
 * not cover), as one MIME message.  Older versions sealed it in place of
 * an encrypted message; this one only reads those back (the store
 * refuses new ones: a message is kept as received, core/seal.h).  It is
 * only read from a body the team key sealed, so its X-Secteam-* headers
 * are facts, not claims: they are never read from incoming mail.
 *
 *   From: the mailboxes (or X-Secteam-From-Text: base64 of a From header
 *         no mailbox could be read from)
 *   X-Secteam-Content: 1
 *   X-Secteam-Unsigned: START-END ...     byte ranges of the text
 *   X-Secteam-Outside: I ...              attachments outside the entity
 *   multipart/mixed: application/x-secteam-text (the text, exact bytes),
 *   then each attachment.
 */
#include <stdlib.h>
#include <string.h>

#include "mail/gmime.h"

#include "mail/mail.h"

#define CONTENT_TEXT "application/x-secteam-text"

static char *header(const char *buf, size_t len, const char *name)
{
	size_t n = strlen(name);
	const char *p = buf, *end = buf + len;

	while (p < end && *p != '\n' && *p != '\r') {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *next = eol ? eol + 1 : end;

		if ((size_t)(end - p) > n + 1 &&
		    !g_ascii_strncasecmp(p, name, n) && p[n] == ':') {
			struct sbuf sb = SBUF_INIT;
			const char *q = p + n + 1;

			for (;;) {
				const char *e = eol ? eol : end;
				while (q < e && (*q == ' ' || *q == '\t'))
					q++;
				sbuf_add(&sb, q, (size_t)(e - q));
				while (sb.len && (sb.buf[sb.len - 1] == '\r'))
					sb.buf[--sb.len] = '\0';
				if (next >= end ||
				    (*next != ' ' && *next != '\t'))
					break;
				sbuf_addch(&sb, ' ');
				q = next;
				eol = memchr(q, '\n', (size_t)(end - q));
				next = eol ? eol + 1 : end;
			}
			if (!sb.buf)
				sbuf_grow(&sb, 1);
			return sbuf_detach(&sb, NULL);
		}
		p = next;
	}
	return NULL;
}

int mail_parse_content(const char *buf, size_t len, struct mail_msg *msg,
		       struct err *err)
{
	char *v;
	int r = mail_parse(buf, len, msg, err);

	if (r < 0)
		return r;
	v = header(buf, len, "X-Secteam-Content");
	if (!v || strcmp(v, "1") || !msg->nattachments ||
	    strcmp(msg->attachments[0].content_type, CONTENT_TEXT)) {
		free(v);
		return err_setc(err, ERR_INVALID,
				"not a stored content entity");
	}
	free(v);
	/* The text: exactly the bytes shown, out of the first part. */
	wipe_free(msg->body_text, msg->body_len);
	msg->body_text = (char *)msg->attachments[0].data;
	msg->body_len = msg->attachments[0].len;
	msg->attachments[0].data = NULL;
	free(msg->attachments[0].filename);
	free(msg->attachments[0].content_type);
	memmove(msg->attachments, msg->attachments + 1,
		(msg->nattachments - 1) * sizeof(*msg->attachments));
	msg->nattachments--;
	if ((v = header(buf, len, "X-Secteam-From-Text"))) {
		gsize n = 0;
		guchar *t = g_base64_decode(v, &n);

		free(msg->from_header);
		msg->from_header = xstrndup((const char *)t, n);
		g_free(t);
		free(v);
	}
	if ((v = header(buf, len, "X-Secteam-Unsigned"))) {
		char *save = NULL;

		for (char *w = strtok_r(v, " ", &save); w;
		     w = strtok_r(NULL, " ", &save)) {
			unsigned long long a, b;
			if (sscanf(w, "%llu-%llu", &a, &b) != 2 || a > b ||
			    b > msg->body_len)
				continue;
			msg->outside = xrealloc(msg->outside,
						(msg->noutside + 1) *
							sizeof(*msg->outside));
			msg->outside[msg->noutside].start = (size_t)a;
			msg->outside[msg->noutside++].end = (size_t)b;
		}
		free(v);
	}
	if ((v = header(buf, len, "X-Secteam-Outside"))) {
		char *save = NULL;

		for (char *w = strtok_r(v, " ", &save); w;
		     w = strtok_r(NULL, " ", &save)) {
			unsigned long i = strtoul(w, NULL, 10);
			if (i < msg->nattachments)
				msg->attachments[i].outside = true;
		}
		free(v);
	}
	return 0;
}
