/*
 * The content entity: what an officer was shown of a message (its text,
 * its attachments, its From mailboxes, and which of that the verdict does
 * not cover), written as one MIME message so core/ can seal it to the
 * roster and show it again later without the keys the message was
 * encrypted to.  Only this program writes it, and it is only read back
 * from a body this program sealed, so its X-Secteam-* headers are facts,
 * not claims: they are never read from incoming mail.
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

#include <gmime/gmime.h>

#include "mail/mail.h"

#define CONTENT_TEXT "application/x-secteam-text"

static GMimePart *part(const char *ct, const void *data, size_t len)
{
	GMimeContentType *t = g_mime_content_type_parse(NULL, ct);
	GMimePart *p = g_mime_part_new_with_type(
		g_mime_content_type_get_media_type(t),
		g_mime_content_type_get_media_subtype(t));
	GMimeStream *s = g_mime_stream_mem_new_with_buffer(data, len);
	GMimeDataWrapper *w = g_mime_data_wrapper_new_with_stream(
		s, GMIME_CONTENT_ENCODING_DEFAULT);

	g_object_unref(t);
	g_mime_part_set_content(p, w);
	g_object_unref(w);
	g_object_unref(s);
	g_mime_part_set_content_encoding(p, GMIME_CONTENT_ENCODING_BASE64);
	return p;
}

int mail_build_content(const struct mail_content *c, char **out, size_t *len,
		       struct err *err)
{
	GMimeMessage *m;
	GMimeMultipart *mp;
	GMimeStream *mem;
	GByteArray *ba;
	struct sbuf sb = SBUF_INIT;
	GMimePart *text;

	*out = NULL;
	*len = 0;
	mail_init();
	for (size_t i = 0; i < c->natt; i++) {
		const char *ct = c->att[i].content_type;
		if (!ct || !strchr(ct, '/') || strpbrk(ct, " \t\r\n;\""))
			return err_setc(err, ERR_INVALID,
					"invalid content type '%s' for attachment %zu",
					ct ? ct : "", i + 1);
	}
	m = g_mime_message_new(TRUE);
	for (size_t i = 0; i < c->nfrom; i++)
		internet_address_list_add(g_mime_message_get_from(m),
			internet_address_mailbox_new(c->from[i].name ? c->from[i].name : "",
						     c->from[i].email ? c->from[i].email : ""));
	if (!c->nfrom && c->from_text && *c->from_text) {
		gchar *b = g_base64_encode((const guchar *)c->from_text,
					   strlen(c->from_text));
		g_mime_object_set_header(GMIME_OBJECT(m), "X-Secteam-From-Text", b, NULL);
		g_free(b);
	}
	g_mime_object_set_header(GMIME_OBJECT(m), "X-Secteam-Content", "1", NULL);
	for (size_t i = 0; i < c->nunsigned; i++)
		sbuf_addf(&sb, "%s%zu-%zu", i ? " " : "", c->unsigned_spans[i].start,
			  c->unsigned_spans[i].end);
	if (sb.len)
		g_mime_object_set_header(GMIME_OBJECT(m), "X-Secteam-Unsigned", sb.buf, NULL);
	sbuf_reset(&sb);
	for (size_t i = 0; i < c->natt; i++)
		if (c->att[i].outside)
			sbuf_addf(&sb, "%s%zu", sb.len ? " " : "", i);
	if (sb.len)
		g_mime_object_set_header(GMIME_OBJECT(m), "X-Secteam-Outside", sb.buf, NULL);
	sbuf_release(&sb);

	mp = g_mime_multipart_new_with_subtype("mixed");
	text = part(CONTENT_TEXT, c->text ? c->text : "", c->text_len);
	g_mime_multipart_add(mp, GMIME_OBJECT(text));
	g_object_unref(text);
	for (size_t i = 0; i < c->natt; i++) {
		GMimePart *p = part(c->att[i].content_type, c->att[i].data,
				    c->att[i].len);

		g_mime_object_set_disposition(GMIME_OBJECT(p),
					      GMIME_DISPOSITION_ATTACHMENT);
		if (c->att[i].filename && *c->att[i].filename)
			g_mime_part_set_filename(p, c->att[i].filename);
		g_mime_multipart_add(mp, GMIME_OBJECT(p));
		g_object_unref(p);
	}
	g_mime_message_set_mime_part(m, GMIME_OBJECT(mp));
	g_object_unref(mp);

	mem = g_mime_stream_mem_new();
	g_mime_object_write_to_stream(GMIME_OBJECT(m), NULL, mem);
	g_object_unref(m);
	ba = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	*out = xmalloc(ba->len + 1);
	memcpy(*out, ba->data, ba->len);
	(*out)[ba->len] = '\0';
	*len = ba->len;
	wipe(ba->data, ba->len);
	g_object_unref(mem);
	return 0;
}

/* The value of header name in the header block of buf (unfolded; caller
 * frees), or NULL. */
static char *header(const char *buf, size_t len, const char *name)
{
	size_t n = strlen(name);
	const char *p = buf, *end = buf + len;

	while (p < end && *p != '\n' && *p != '\r') {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *next = eol ? eol + 1 : end;

		if ((size_t)(end - p) > n + 1 && !g_ascii_strncasecmp(p, name, n) &&
		    p[n] == ':') {
			struct sbuf sb = SBUF_INIT;
			const char *q = p + n + 1;

			for (;;) {
				const char *e = eol ? eol : end;
				while (q < e && (*q == ' ' || *q == '\t'))
					q++;
				sbuf_add(&sb, q, (size_t)(e - q));
				while (sb.len && (sb.buf[sb.len - 1] == '\r'))
					sb.buf[--sb.len] = '\0';
				if (next >= end || (*next != ' ' && *next != '\t'))
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
		return err_setc(err, ERR_INVALID, "not a stored content entity");
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

		for (char *w = strtok_r(v, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
			unsigned long long a, b;
			if (sscanf(w, "%llu-%llu", &a, &b) != 2 || a > b ||
			    b > msg->body_len)
				continue;
			msg->outside = xrealloc(msg->outside, (msg->noutside + 1) *
						sizeof(*msg->outside));
			msg->outside[msg->noutside].start = (size_t)a;
			msg->outside[msg->noutside++].end = (size_t)b;
		}
		free(v);
	}
	if ((v = header(buf, len, "X-Secteam-Outside"))) {
		char *save = NULL;

		for (char *w = strtok_r(v, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
			unsigned long i = strtoul(w, NULL, 10);
			if (i < msg->nattachments)
				msg->attachments[i].outside = true;
		}
		free(v);
	}
	return 0;
}
