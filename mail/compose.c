/*
 * Composing: the inner entity to encrypt, and the RFC 3156 envelope.
 *
 * The inner entity is a UTF-8 text/plain body in quoted-printable, inside
 * a multipart/mixed with base64 attachments when there are any; it is
 * written in canonical CRLF form, as it is what gets encrypted (or
 * signed).  The outer message is multipart/encrypted with the
 * "Version: 1" control part and the armored data, plus the usual headers;
 * whole messages are written with LF line ends, as local mail tools
 * (sendmail, Maildir) expect.  Header values given to us must not carry
 * line breaks; Message-IDs must be bare (no brackets or blanks).
 *
 * Encrypted mail protects its headers (header protection, as neomutt and
 * Thunderbird write it): the entity encrypted carries From, To, Cc,
 * Subject, Date, Message-ID and the thread headers, its Content-Type
 * marked protected-headers="v1", and the outer Subject is "...", so a
 * report's subject never travels in the clear.  Mail that is only
 * signed keeps its subject.
 */
#include <string.h>

#include "mail/gmime.h"

#include "mail/mail.h"

/* The object serialised, bare LF turned into CRLF when crlf is set. */
static char *serialize(GMimeObject *obj, bool crlf, size_t *len)
{
	GMimeStream *mem = g_mime_stream_mem_new();
	GByteArray *ba;
	struct sbuf sb = SBUF_INIT;

	g_mime_object_write_to_stream(obj, NULL, mem);
	ba = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	sbuf_grow(&sb, ba->len + ba->len / 32 + 1);
	for (guint i = 0; i < ba->len; i++) {
		char c = (char)ba->data[i];

		if (crlf && c == '\n' && (i == 0 || ba->data[i - 1] != '\r'))
			sbuf_addch(&sb, '\r');
		else if (!crlf && c == '\r' && i + 1 < ba->len &&
			 ba->data[i + 1] == '\n')
			continue;
		sbuf_addch(&sb, c);
	}
	wipe(ba->data, ba->len);
	g_object_unref(mem);
	return sbuf_detach(&sb, len);
}

static GMimeDataWrapper *wrap(const void *data, size_t len)
{
	GMimeStream *st = g_mime_stream_mem_new_with_buffer(data, len);
	GMimeDataWrapper *w = g_mime_data_wrapper_new_with_stream(
		st, GMIME_CONTENT_ENCODING_DEFAULT);

	g_object_unref(st);
	return w;
}

static GMimePart *leaf(const char *type, const char *sub, const void *data,
		       size_t len, GMimeContentEncoding enc)
{
	GMimePart *p = g_mime_part_new_with_type(type, sub);
	GMimeDataWrapper *w = wrap(data, len);

	g_mime_part_set_content(p, w);
	g_object_unref(w);
	g_mime_part_set_content_encoding(p, enc);
	return p;
}

/* Returns 0 with *out (caller frees), or ERR_INVALID when the body is not
 * UTF-8 or an attachment's content type is not "type/subtype". */
int mail_build_entity(const char *body, const struct mail_attachment *att,
		      size_t natt, char **out, size_t *len, struct err *err)
{
	GMimeObject *top;
	size_t blen = body ? strlen(body) : 0;

	*out = NULL;
	*len = 0;
	mail_init();
	if (body && !g_utf8_validate(body, (gssize)blen, NULL))
		return err_setc(err, ERR_INVALID,
				"message body is not valid UTF-8");
	GMimePart *text = leaf("text", "plain", body ? body : "", blen,
			       GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE);
	g_mime_object_set_content_type_parameter(GMIME_OBJECT(text), "charset",
						 "utf-8");
	if (!natt) {
		top = GMIME_OBJECT(text);
	} else {
		GMimeMultipart *mp = g_mime_multipart_new_with_subtype("mixed");

		g_mime_multipart_add(mp, GMIME_OBJECT(text));
		g_object_unref(text);
		for (size_t i = 0; i < natt; i++) {
			const char *ct = att[i].content_type;
			const char *slash = ct ? strchr(ct, '/') : NULL;
			char *type = slash ? xstrndup(ct, (size_t)(slash - ct))
					   : xstrdup("application");
			const char *sub = slash ? slash + 1 : "octet-stream";
			GMimePart *p;

			if (!*type || !*sub ||
			    strpbrk(ct ? ct : "", " \t\r\n;\"")) {
				free(type);
				g_object_unref(mp);
				return err_setc(
					err, ERR_INVALID,
					"invalid content type '%s' for attachment %zu",
					ct, i + 1);
			}
			p = leaf(type, sub, att[i].data, att[i].len,
				 GMIME_CONTENT_ENCODING_BASE64);
			free(type);
			g_mime_object_set_disposition(
				GMIME_OBJECT(p), GMIME_DISPOSITION_ATTACHMENT);
			if (att[i].filename && *att[i].filename)
				g_mime_part_set_filename(p, att[i].filename);
			g_mime_multipart_add(mp, GMIME_OBJECT(p));
			g_object_unref(p);
		}
		top = GMIME_OBJECT(mp);
	}
	*out = serialize(top, true, len);
	g_object_unref(top);
	return 0;
}

static bool has_line_break(const char *s)
{
	return s && strpbrk(s, "\r\n");
}

static bool bad_msgid(const char *s)
{
	if (!s || !*s)
		return true;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == '<' || *s == '>' ||
		    (unsigned char)*s >= 0x7f)
			return true;
	return false;
}

static int add_addresses(InternetAddressList *l, const char *what,
			 const char *const *v, size_t n, struct err *err)
{
	for (size_t i = 0; i < n; i++) {
		InternetAddressList *p;

		if (!v[i] || has_line_break(v[i]) ||
		    !(p = internet_address_list_parse(NULL, v[i])))
			return err_setc(err, ERR_INVALID,
					"invalid %s address '%s'", what,
					v[i] ? v[i] : "");
		if (internet_address_list_length(p) == 0) {
			g_object_unref(p);
			return err_setc(err, ERR_INVALID,
					"invalid %s address '%s'", what, v[i]);
		}
		internet_address_list_append(l, p);
		g_object_unref(p);
	}
	return 0;
}

/* The domain of the first mailbox of l, for a Message-ID. */
static char *first_domain(InternetAddressList *l)
{
	for (int i = 0; l && i < internet_address_list_length(l); i++) {
		InternetAddress *a = internet_address_list_get_address(l, i);
		const char *addr, *at;

		if (!INTERNET_ADDRESS_IS_MAILBOX(a))
			continue;
		addr = internet_address_mailbox_get_addr(
			INTERNET_ADDRESS_MAILBOX(a));
		at = addr ? strrchr(addr, '@') : NULL;
		if (at && at[1] && !bad_msgid(at + 1))
			return xstrdup(at + 1);
	}
	return xstrdup("localhost");
}

char *mail_new_message_id(const char *from)
{
	InternetAddressList *l;
	char *domain, *id, *ret;

	mail_init();
	l = from && !has_line_break(from)
		? internet_address_list_parse(NULL, from)
		: NULL;
	domain = first_domain(l);
	if (l)
		g_object_unref(l);
	id = g_mime_utils_generate_message_id(domain);
	ret = xstrdup(id);
	g_free(id);
	free(domain);
	return ret;
}

/* ERR_INVALID naming the first of hdr's headers that is not safe. */
static int check_headers(const struct mail_compose *hdr, struct err *err)
{
	if (!hdr->from || has_line_break(hdr->from))
		return err_setc(err, ERR_INVALID, "invalid From address '%s'",
				hdr->from ? hdr->from : "");
	if (has_line_break(hdr->subject))
		return err_setc(err, ERR_INVALID,
				"subject contains a line break");
	if (hdr->subject && !g_utf8_validate(hdr->subject, -1, NULL))
		return err_setc(err, ERR_INVALID, "subject is not valid UTF-8");
	if (hdr->message_id && bad_msgid(hdr->message_id))
		return err_setc(err, ERR_INVALID, "invalid Message-ID '%s'",
				hdr->message_id);
	if (hdr->in_reply_to && bad_msgid(hdr->in_reply_to))
		return err_setc(err, ERR_INVALID, "invalid In-Reply-To '%s'",
				hdr->in_reply_to);
	for (size_t i = 0; i < hdr->nreferences; i++)
		if (bad_msgid(hdr->references[i]))
			return err_setc(
				err, ERR_INVALID, "invalid reference '%s'",
				hdr->references[i] ? hdr->references[i] : "");
	return 0;
}

/* In-Reply-To and References of hdr on o. */
static void set_thread(GMimeObject *o, const struct mail_compose *hdr)
{
	if (hdr->in_reply_to) {
		char *v = xasprintf("<%s>", hdr->in_reply_to);

		g_mime_object_set_header(o, "In-Reply-To", v, NULL);
		free(v);
	}
	if (hdr->nreferences) {
		struct sbuf sb = SBUF_INIT;

		for (size_t i = 0; i < hdr->nreferences; i++)
			sbuf_addf(&sb, "%s<%s>", i ? " " : "",
				  hdr->references[i]);
		g_mime_object_set_header(o, "References", sb.buf, NULL);
		sbuf_release(&sb);
	}
}

/* A message without content carrying hdr's headers, its Subject
 * subject; 0 with *out (the caller unrefs it), or ERR_INVALID. */
static int header_message(const struct mail_compose *hdr, const char *subject,
			  GMimeMessage **out, struct err *err)
{
	GMimeMessage *m;
	const char *from[] = { hdr->from };
	char *id;
	int ret;

	*out = NULL;
	if ((ret = check_headers(hdr, err)) < 0)
		return ret;
	m = g_mime_message_new(TRUE);
	if ((ret = add_addresses(g_mime_message_get_from(m), "From", from, 1,
				 err)) < 0 ||
	    (ret = add_addresses(g_mime_message_get_to(m), "To", hdr->to,
				 hdr->nto, err)) < 0 ||
	    (ret = add_addresses(g_mime_message_get_cc(m), "Cc", hdr->cc,
				 hdr->ncc, err)) < 0) {
		g_object_unref(m);
		return ret;
	}
	g_mime_message_set_subject(m, subject ? subject : "", "utf-8");
	GDateTime *dt = g_date_time_new_from_unix_utc(
		(gint64)(hdr->date ? hdr->date : util_now()));
	g_mime_message_set_date(m, dt);
	g_date_time_unref(dt);
	id = hdr->message_id ? xstrdup(hdr->message_id)
			     : mail_new_message_id(hdr->from);
	g_mime_message_set_message_id(m, id);
	free(id);
	set_thread(GMIME_OBJECT(m), hdr);
	*out = m;
	return 0;
}

/* A message with hdr's headers (its Subject subject) and top as its
 * MIME part, serialised. */
static int build_message(const struct mail_compose *hdr, const char *subject,
			 GMimeObject *top, char **out, size_t *len,
			 struct err *err)
{
	GMimeMessage *m;
	int ret;

	if ((ret = header_message(hdr, subject, &m, err)) < 0)
		return ret;
	g_mime_object_set_header(GMIME_OBJECT(m), "MIME-Version", "1.0", NULL);
	g_mime_message_set_mime_part(m, top);
	*out = serialize(GMIME_OBJECT(m), false, len);
	g_object_unref(m);
	return 0;
}

/* ERR_INVALID naming what when data is not ASCII armor (no 8-bit, no NUL). */
static int armored_only(const char *data, size_t len, const char *what,
			struct err *err)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)data[i] >= 0x80 || data[i] == '\0')
			return err_setc(err, ERR_INVALID,
					"%s is not ASCII armored", what);
	return 0;
}

/* The MIME part in entity (the caller unrefs it), or NULL. */
static GMimeObject *parse_entity(const char *entity, size_t entity_len)
{
	GMimeStream *st = g_mime_stream_mem_new_with_buffer(entity, entity_len);
	GMimeParser *parser = g_mime_parser_new_with_stream(st);
	GMimeObject *top = g_mime_parser_construct_part(parser, NULL);

	g_object_unref(parser);
	g_object_unref(st);
	return top;
}

/* The headers an encrypted message carries inside (header protection,
 * as neomutt writes them); outside, its Subject is neutral. */
static const char *const protected_names[] = {
	"From", "To",	      "Cc",	     "Subject",
	"Date", "Message-ID", "In-Reply-To", "References",
};

/* Returns 0 with *out (caller frees), or ERR_INVALID when entity is not a
 * MIME part or a header is refused as for mail_build_encrypted. */
int mail_protect_entity(const struct mail_compose *hdr, const char *entity,
			size_t entity_len, char **out, size_t *len,
			struct err *err)
{
	GMimeMessage *m;
	GMimeHeaderList *hl;
	GMimeObject *top;
	int ret;

	*out = NULL;
	*len = 0;
	mail_init();
	if ((ret = header_message(hdr, hdr->subject, &m, err)) < 0)
		return ret;
	if (!(top = parse_entity(entity, entity_len))) {
		g_object_unref(m);
		return err_setc(err, ERR_INVALID,
				"message entity is not a MIME part");
	}
	hl = g_mime_object_get_header_list(GMIME_OBJECT(m));
	for (size_t i = 0; i < ARRAY_SIZE(protected_names); i++) {
		GMimeHeader *h =
			g_mime_header_list_get_header(hl, protected_names[i]);
		const char *v = h ? g_mime_header_get_value(h) : NULL;

		if (v && *v)
			g_mime_object_append_header(top, protected_names[i], v,
						    "utf-8");
	}
	g_mime_object_set_content_type_parameter(top, "protected-headers",
						 "v1");
	*out = serialize(top, true, len);
	g_object_unref(top);
	g_object_unref(m);
	return 0;
}

/* Returns 0 with *out (caller frees), or ERR_INVALID for data that is not
 * ASCII, or a header that would not be safe (line breaks, bad addresses,
 * Message-IDs with brackets or blanks). */
int mail_build_encrypted(const struct mail_compose *hdr, const char *armored,
			 size_t armored_len, char **out, size_t *len,
			 struct err *err)
{
	static const char version[] = "Version: 1\n";
	int ret;

	*out = NULL;
	*len = 0;
	mail_init();
	if (armored_only(armored, armored_len, "encrypted data", err) < 0)
		return ERR_INVALID;

	GMimeMultipart *mp = GMIME_MULTIPART(g_mime_multipart_encrypted_new());
	g_mime_object_set_content_type_parameter(GMIME_OBJECT(mp), "protocol",
						 "application/pgp-encrypted");
	g_mime_multipart_set_boundary(mp, NULL);
	GMimePart *ctl = leaf("application", "pgp-encrypted", version,
			      sizeof(version) - 1, GMIME_CONTENT_ENCODING_7BIT);
	g_mime_object_set_header(GMIME_OBJECT(ctl), "Content-Description",
				 "PGP/MIME version identification", NULL);
	GMimePart *data = leaf("application", "octet-stream", armored,
			       armored_len, GMIME_CONTENT_ENCODING_7BIT);
	g_mime_object_set_disposition(GMIME_OBJECT(data),
				      GMIME_DISPOSITION_INLINE);
	g_mime_part_set_filename(data, "encrypted.asc");
	g_mime_object_set_header(GMIME_OBJECT(data), "Content-Description",
				 "OpenPGP encrypted message", NULL);
	g_mime_multipart_add(mp, GMIME_OBJECT(ctl));
	g_mime_multipart_add(mp, GMIME_OBJECT(data));
	g_object_unref(ctl);
	g_object_unref(data);
	ret = build_message(hdr, MAIL_PROTECTED_SUBJECT, GMIME_OBJECT(mp), out,
			    len, err);
	g_object_unref(mp);
	return ret;
}

/* Returns 0 with *out (caller frees), or ERR_INVALID when entity is not a
 * MIME part or a header is refused as for mail_build_encrypted. */
int mail_build_plain(const struct mail_compose *hdr, const char *entity,
		     size_t entity_len, char **out, size_t *len,
		     struct err *err)
{
	GMimeObject *top;
	int ret;

	*out = NULL;
	*len = 0;
	mail_init();
	top = parse_entity(entity, entity_len);
	if (!top)
		return err_setc(err, ERR_INVALID,
				"message entity is not a MIME part");
	ret = build_message(hdr, hdr->subject, top, out, len, err);
	g_object_unref(top);
	return ret;
}

/* Returns 0 with *out (caller frees), ERR_INVALID as mail_build_plain,
 * or ERR_GENERIC when entity would not be written back byte for byte
 * (the signature would not verify). */
int mail_build_signed(const struct mail_compose *hdr, const char *entity,
		      size_t entity_len, const char *sig, size_t sig_len,
		      const char *micalg, char **out, size_t *len,
		      struct err *err)
{
	GMimeObject *top;
	char *again;
	size_t again_len;
	int ret;

	*out = NULL;
	*len = 0;
	mail_init();
	if (armored_only(sig, sig_len, "signature", err) < 0)
		return ERR_INVALID;
	top = parse_entity(entity, entity_len);
	if (!top)
		return err_setc(err, ERR_INVALID,
				"message entity is not a MIME part");
	/* The signature covers the entity's canonical bytes: the part must
	 * be written back exactly as signed. */
	again = serialize(top, true, &again_len);
	ret = again_len != entity_len || memcmp(again, entity, entity_len);
	wipe_free(again, again_len);
	if (ret) {
		g_object_unref(top);
		return err_setc(err, ERR_GENERIC,
				"the signed part would not "
				"be sent as signed");
	}

	GMimeMultipart *mp = GMIME_MULTIPART(g_mime_multipart_signed_new());
	g_mime_object_set_content_type_parameter(GMIME_OBJECT(mp), "protocol",
						 "application/pgp-signature");
	g_mime_object_set_content_type_parameter(GMIME_OBJECT(mp), "micalg",
						 micalg);
	g_mime_multipart_set_boundary(mp, NULL);
	GMimePart *sp = leaf("application", "pgp-signature", sig, sig_len,
			     GMIME_CONTENT_ENCODING_7BIT);
	g_mime_part_set_filename(sp, "signature.asc");
	g_mime_object_set_header(GMIME_OBJECT(sp), "Content-Description",
				 "OpenPGP digital signature", NULL);
	g_mime_multipart_add(mp, top);
	g_mime_multipart_add(mp, GMIME_OBJECT(sp));
	g_object_unref(top);
	g_object_unref(sp);
	ret = build_message(hdr, hdr->subject, GMIME_OBJECT(mp), out, len, err);
	g_object_unref(mp);
	return ret;
}
