/*
 * Parsing one message (or one decrypted MIME entity) into struct mail_msg.
 *
 * GMime builds the MIME tree; we walk it once, bounded in depth and in the
 * number of parts, collecting decoded headers, the text/plain body, the
 * attachments, and for PGP/MIME the exact bytes crypto/ needs.  A detached
 * signature covers the first part of a multipart/signed: those bytes are
 * that part of GMime's own tree written out in RFC 3156 canonical form
 * (GMime keeps raw headers and content, so a genuine part comes out as it
 * was sent, every line end CRLF), never cut from the input by a boundary
 * scanner of our own: what is verified is what is shown.
 */
#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <string.h>

#include "mail/gmime.h"

#include "mail/mail.h"

#define MAIL_MAX_DEPTH 64
#define MAIL_MAX_PARTS 10000
#define MAIL_MAX_FROM 100

void mail_init(void)
{
	(void)mail_gmime();
}

/* ---- small conversions -------------------------------------------------*/

/* A NUL-terminated xmalloc'd copy of n bytes. */
static unsigned char *dup_bytes(const void *p, size_t n)
{
	unsigned char *d = xmalloc(n + 1);

	if (n)
		memcpy(d, p, n);
	d[n] = '\0';
	return d;
}

/* Valid UTF-8 copy of s (invalid bytes and NULs become U+FFFD). */
static char *utf8_dup_len(const char *s, size_t n, size_t *outlen)
{
	if (!s || !n) {
		if (outlen)
			*outlen = 0;
		return xstrdup("");
	}
	gchar *v = g_utf8_make_valid(s, (gssize)n);
	size_t vl = strlen(v);
	char *r = (char *)dup_bytes(v, vl);

	g_free(v);
	if (outlen)
		*outlen = vl;
	return r;
}

static char *utf8_dup(const char *s)
{
	return s ? utf8_dup_len(s, strlen(s), NULL) : NULL;
}

static char *strip_brackets(const char *s)
{
	size_t n;

	if (!s)
		return NULL;
	while (*s == ' ' || *s == '\t' || *s == '<')
		s++;
	n = strlen(s);
	while (n &&
	       (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '>' ||
		s[n - 1] == '\r' || s[n - 1] == '\n'))
		n--;
	return utf8_dup_len(s, n, NULL);
}

/* Decoded (transfer encoding removed) content of a leaf part. */
static GByteArray *part_bytes(GMimePart *part)
{
	GMimeDataWrapper *w = g_mime_part_get_content(part);
	GMimeStream *mem = g_mime_stream_mem_new();
	GByteArray *ba;

	if (w)
		g_mime_data_wrapper_write_to_stream(w, mem);
	ba = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	g_mime_stream_mem_set_owner(GMIME_STREAM_MEM(mem), FALSE);
	g_object_unref(mem);
	return ba;
}

/*
 * Takes the decoded bytes out of ba, NUL-terminated, without a copy (GLib
 * allocates with the system malloc, so free() releases them).
 */
static unsigned char *take_bytes(GByteArray *ba, size_t *len)
{
	guint8 nul = 0;

	*len = ba->len;
	g_byte_array_append(ba, &nul, 1);
	return g_byte_array_free(ba, FALSE);
}

static void byte_array_wipe_free(GByteArray *ba)
{
	wipe(ba->data, ba->len);
	g_byte_array_free(ba, TRUE);
}

static bool charset_is_utf8(const char *cs)
{
	return !cs || !g_ascii_strcasecmp(cs, "utf-8") ||
		!g_ascii_strcasecmp(cs, "utf8") ||
		!g_ascii_strcasecmp(cs, "us-ascii") ||
		!g_ascii_strcasecmp(cs, "ascii");
}

/*
 * Appends n bytes in charset cs to sb as UTF-8.  Bytes iconv cannot convert
 * become U+FFFD one at a time, so one bad byte never loses the rest; an
 * unknown charset falls back to UTF-8 validation.
 */
static void add_text_as_utf8(struct sbuf *sb, const char *s, size_t n,
			     const char *cs)
{
	iconv_t cd = (iconv_t)-1;
	char out[4096];

	if (!charset_is_utf8(cs))
		cd = g_mime_iconv_open("UTF-8", cs);
	if (cd == (iconv_t)-1) {
		size_t vl;
		char *v = utf8_dup_len(s, n, &vl);

		sbuf_add(sb, v, vl);
		wipe_free(v, vl);
		return;
	}
	char *in = (char *)s;
	size_t inleft = n;
	while (inleft > 0) {
		char *o = out;
		size_t oleft = sizeof(out);
		size_t r = iconv(cd, &in, &inleft, &o, &oleft);
		int e = errno;

		sbuf_add(sb, out, (size_t)(o - out));
		if (r != (size_t)-1)
			continue;
		if (e == E2BIG)
			continue;
		/* EILSEQ or EINVAL (truncated): replace one byte, go on. */
		sbuf_adds(sb, "\xef\xbf\xbd");
		in++;
		inleft--;
	}
	char *o = out;
	size_t oleft = sizeof(out);
	iconv(cd, NULL, NULL, &o, &oleft);
	sbuf_add(sb, out, (size_t)(o - out));
	wipe(out, sizeof(out));
	g_mime_iconv_close(cd);
}

/* ---- RFC 3156 signed part extraction -----------------------------------*/

/*
 * The bytes a detached signature over the first part of the multipart/
 * signed mp covers: that part exactly as GMime parsed it (raw headers,
 * content in its transfer encoding), written in RFC 3156 canonical form
 * with every line end CRLF, as GMime's own g_mime_multipart_signed_verify
 * does.  What is verified and what is shown are then one entity of one
 * parse: a delimiter line another parser reads differently cannot make
 * the signature cover one part while another is shown.  Returns 0, or
 * negative with err set.
 */
static int signed_part_bytes(GMimeObject *mp, struct mail_msg *msg,
			     struct err *err)
{
	GMimeObject *content =
		g_mime_multipart_get_part(GMIME_MULTIPART(mp), 0);
	GMimeFormatOptions *fo;
	GMimeStream *mem;
	GByteArray *ba;

	if (!content)
		return err_setc(err, ERR_INVALID,
				"multipart/signed without a signed part");
	fo = g_mime_format_options_new();
	g_mime_format_options_set_newline_format(fo, GMIME_NEWLINE_FORMAT_DOS);
	mem = g_mime_stream_mem_new();
	if (g_mime_object_write_to_stream(content, fo, mem) < 0) {
		g_mime_format_options_free(fo);
		ba = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
		wipe(ba->data, ba->len);
		g_object_unref(mem);
		return err_setc(err, ERR_INVALID,
				"cannot write out the signed part of a "
				"multipart/signed");
	}
	g_mime_format_options_free(fo);
	ba = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	g_mime_stream_mem_set_owner(GMIME_STREAM_MEM(mem), FALSE);
	g_object_unref(mem);
	msg->signed_data = take_bytes(ba, &msg->signed_len);
	return 0;
}

/* ---- the walk ----------------------------------------------------------*/

struct walk {
	struct mail_msg *msg;
	struct err *err;
	size_t nparts;
	struct sbuf body;
	size_t att_alloc;
	GMimeObject *pgp; /* first PGP/MIME multipart found */
	GMimeObject *covered; /* the part of it a signature covers */
	int inside; /* > 0 within covered */
	int inner; /* > 0 inside an embedded message/rfc822 */
	size_t span_alloc;
	/* structural PGP parts, not shown as attachments */
	GMimeObject *skip[2];
};

static bool ct_is(GMimeObject *obj, const char *type, const char *sub)
{
	GMimeContentType *ct = g_mime_object_get_content_type(obj);

	return ct && g_mime_content_type_is_type(ct, type, sub);
}

static bool protocol_is(GMimeObject *obj, const char *want)
{
	GMimeContentType *ct = g_mime_object_get_content_type(obj);
	const char *p = ct ? g_mime_content_type_get_parameter(ct, "protocol")
			   : NULL;

	return p && !g_ascii_strcasecmp(p, want);
}

static bool is_pgp_encrypted(GMimeObject *o)
{
	return GMIME_IS_MULTIPART(o) && ct_is(o, "multipart", "encrypted") &&
		protocol_is(o, "application/pgp-encrypted") &&
		g_mime_multipart_get_count(GMIME_MULTIPART(o)) >= 2;
}

static bool is_pgp_signed(GMimeObject *o)
{
	return GMIME_IS_MULTIPART(o) && ct_is(o, "multipart", "signed") &&
		protocol_is(o, "application/pgp-signature") &&
		g_mime_multipart_get_count(GMIME_MULTIPART(o)) >= 2;
}

static char *lower_mime_type(GMimeObject *obj)
{
	GMimeContentType *ct = g_mime_object_get_content_type(obj);
	char *t = ct ? g_mime_content_type_get_mime_type(ct) : NULL;
	char *r = utf8_dup(t ? t : "application/octet-stream");

	g_free(t);
	return str_lower(r);
}

static void add_attachment(struct walk *w, GMimeObject *obj)
{
	struct mail_msg *msg = w->msg;
	struct mail_attachment *a;

	if (msg->nattachments == w->att_alloc) {
		w->att_alloc = w->att_alloc ? w->att_alloc * 2 : 4;
		msg->attachments =
			xrealloc(msg->attachments, w->att_alloc * sizeof(*a));
	}
	a = &msg->attachments[msg->nattachments++];
	memset(a, 0, sizeof(*a));
	a->outside = !w->inside;
	a->content_type = lower_mime_type(obj);
	if (GMIME_IS_PART(obj)) {
		GByteArray *ba = part_bytes(GMIME_PART(obj));

		a->filename =
			utf8_dup(g_mime_part_get_filename(GMIME_PART(obj)));
		a->data = take_bytes(ba, &a->len);
	} else {
		/* message/rfc822 and friends: the embedded message as is. */
		GMimeStream *mem = g_mime_stream_mem_new();
		GByteArray *ba;

		g_mime_object_write_to_stream(obj, NULL, mem);
		ba = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
		a->data = dup_bytes(ba->data, ba->len);
		a->len = ba->len;
		wipe(ba->data, ba->len);
		g_object_unref(mem);
	}
}

static void add_text(struct walk *w, GMimePart *part)
{
	GByteArray *ba = part_bytes(part);
	GMimeContentType *ct =
		g_mime_object_get_content_type(GMIME_OBJECT(part));
	const char *cs = ct ? g_mime_content_type_get_parameter(ct, "charset")
			    : NULL;

	struct sbuf t = SBUF_INIT;

	add_text_as_utf8(&t, (const char *)ba->data, ba->len, cs);
	byte_array_wipe_free(ba);
	if (w->body.len)
		sbuf_addch(&w->body, '\n');
	size_t start = w->body.len;
	/* Text is kept with LF line ends. */
	sbuf_grow(&w->body, t.len);
	for (size_t i = 0; i < t.len; i++)
		if (!(t.buf[i] == '\r' && i + 1 < t.len &&
		      t.buf[i + 1] == '\n'))
			w->body.buf[w->body.len++] = t.buf[i];
	w->body.buf[w->body.len] = '\0';
	sbuf_wipe(&t);
	if (!w->inside && w->body.len > start) {
		struct mail_msg *m = w->msg;

		if (m->noutside == w->span_alloc) {
			w->span_alloc = w->span_alloc ? 2 * w->span_alloc : 4;
			m->outside =
				xrealloc(m->outside,
					 w->span_alloc * sizeof(*m->outside));
		}
		m->outside[m->noutside].start = start;
		m->outside[m->noutside++].end = w->body.len;
	}
}

static int walk(struct walk *w, GMimeObject *obj, int depth)
{
	if (depth > MAIL_MAX_DEPTH)
		return err_setc(w->err, ERR_INVALID,
				"MIME nested too deeply (more than %d levels)",
				MAIL_MAX_DEPTH);
	if (++w->nparts > MAIL_MAX_PARTS)
		return err_setc(w->err, ERR_INVALID,
				"too many MIME parts (more than %d)",
				MAIL_MAX_PARTS);
	if (!w->pgp && !w->inner &&
	    (is_pgp_encrypted(obj) || is_pgp_signed(obj))) {
		GMimeMultipart *mp = GMIME_MULTIPART(obj);

		w->pgp = obj;
		w->msg->pgp_text_at = w->body.len;
		w->msg->pgp_att_at = w->msg->nattachments;
		if (is_pgp_encrypted(obj))
			w->skip[0] = g_mime_multipart_get_part(mp, 0);
		else
			w->covered = g_mime_multipart_get_part(mp, 0);
		w->skip[1] = g_mime_multipart_get_part(mp, 1);
	}
	if (obj == w->covered) {
		int r;

		w->inside++;
		w->covered = NULL;
		r = walk(w, obj, depth);
		w->inside--;
		w->nparts--;
		return r;
	}
	if (GMIME_IS_MULTIPART(obj)) {
		GMimeMultipart *mp = GMIME_MULTIPART(obj);
		int n = g_mime_multipart_get_count(mp);

		for (int i = 0; i < n; i++) {
			int r = walk(w, g_mime_multipart_get_part(mp, i),
				     depth + 1);
			if (r < 0)
				return r;
		}
		return 0;
	}
	if (GMIME_IS_MESSAGE_PART(obj)) {
		GMimeMessage *m = g_mime_message_part_get_message(
			GMIME_MESSAGE_PART(obj));
		GMimeObject *inner = m ? g_mime_message_get_mime_part(m) : NULL;

		/* Counted and bounded, but shown as one attachment. */
		if (inner) {
			w->inner++;
			int r = walk(w, inner, depth + 1);
			w->inner--;
			if (r < 0)
				return r;
		}
		if (!w->inner)
			add_attachment(w, obj);
		return 0;
	}
	if (w->inner || obj == w->skip[0] || obj == w->skip[1])
		return 0;
	if (!GMIME_IS_PART(obj))
		return 0;

	GMimeContentDisposition *cd =
		g_mime_object_get_content_disposition(obj);
	bool attachment = cd && g_mime_content_disposition_is_attachment(cd);

	if (ct_is(obj, "text", "plain") && !attachment)
		add_text(w, GMIME_PART(obj));
	else
		add_attachment(w, obj);
	return 0;
}

/* ---- headers -----------------------------------------------------------*/

/* Appends every mailbox of l (members of groups included) to msg->from. */
static void add_mailboxes(InternetAddressList *l, struct mail_msg *msg,
			  int depth)
{
	int n = l ? internet_address_list_length(l) : 0;

	for (int i = 0; i < n && msg->nfrom < MAIL_MAX_FROM; i++) {
		InternetAddress *a = internet_address_list_get_address(l, i);

		if (INTERNET_ADDRESS_IS_MAILBOX(a)) {
			InternetAddressMailbox *mb =
				INTERNET_ADDRESS_MAILBOX(a);
			const char *name = internet_address_get_name(a);
			const char *addr =
				internet_address_mailbox_get_addr(mb);
			struct mail_mailbox *d;

			msg->from =
				xrealloc(msg->from,
					 (msg->nfrom + 1) * sizeof(*msg->from));
			d = &msg->from[msg->nfrom++];
			d->name = name && *name ? utf8_dup(name) : NULL;
			d->email = addr && *addr ? str_lower(utf8_dup(addr))
						 : NULL;
		} else if (INTERNET_ADDRESS_IS_GROUP(a) && depth < 2) {
			add_mailboxes(internet_address_group_get_members(
					      INTERNET_ADDRESS_GROUP(a)),
				      msg, depth + 1);
		}
	}
}

static void fill_headers(GMimeMessage *m, struct mail_msg *msg)
{
	GMimeObject *o = GMIME_OBJECT(m);
	const char *v;
	GDateTime *dt;

	if ((v = g_mime_message_get_message_id(m)) && *v)
		msg->message_id = strip_brackets(v);
	if ((v = g_mime_object_get_header(o, "In-Reply-To"))) {
		GMimeReferences *r = g_mime_references_parse(NULL, v);

		if (r && g_mime_references_length(r) > 0)
			msg->in_reply_to = strip_brackets(
				g_mime_references_get_message_id(r, 0));
		else if (*v)
			msg->in_reply_to = strip_brackets(v);
		if (r)
			g_mime_references_free(r);
	}
	if ((v = g_mime_object_get_header(o, "References"))) {
		GMimeReferences *r = g_mime_references_parse(NULL, v);
		int n = r ? g_mime_references_length(r) : 0;

		if (n > 0) {
			msg->references =
				xcalloc((size_t)n + 1, sizeof(char *));
			for (int i = 0; i < n; i++)
				msg->references[msg->nreferences++] =
					strip_brackets(
						g_mime_references_get_message_id(
							r, i));
		}
		if (r)
			g_mime_references_free(r);
	}
	add_mailboxes(g_mime_message_get_from(m), msg, 0);
	if ((v = g_mime_object_get_header(o, "From")))
		msg->from_header = utf8_dup(v);
	if (msg->nfrom) {
		if (msg->from[0].name)
			msg->from_name = xstrdup(msg->from[0].name);
		if (msg->from[0].email)
			msg->from_email = xstrdup(msg->from[0].email);
	}
	InternetAddressList *to = g_mime_message_get_to(m);
	if (to && internet_address_list_length(to) > 0) {
		char *s = internet_address_list_to_string(to, NULL, FALSE);

		msg->to = utf8_dup(s ? s : "");
		g_free(s);
	}
	if ((v = g_mime_message_get_subject(m)))
		msg->subject = utf8_dup(v);
	if ((dt = g_mime_message_get_date(m)))
		msg->date = (time_t)g_date_time_to_unix(dt);
}

/* True when part is marked as carrying protected headers, version 1. */
static bool protected_v1(GMimeObject *part)
{
	GMimeContentType *ct = g_mime_object_get_content_type(part);
	const char *v = ct
		? g_mime_content_type_get_parameter(ct, "protected-headers")
		: NULL;

	return v && !g_ascii_strcasecmp(v, "v1");
}

/* ---- the entry points --------------------------------------------------*/

/* Occurrences of needle (ASCII, lowercase) in buf, case-insensitively. */
static size_t count_ci(const char *buf, size_t len, const char *needle)
{
	size_t n = strlen(needle), c = 0;

	for (size_t i = 0; i + n <= len; i++)
		if (tolower((unsigned char)buf[i]) == needle[0] &&
		    !g_ascii_strncasecmp(buf + i, needle, n))
			c++;
	return c;
}

/* What kind of mail the walk found (PGP/MIME encrypted or signed, inline
 * PGP, plain), with the PGP/MIME entity's parts taken out: the
 * ciphertext, or the signature and the bytes it covers.  0, or negative
 * with w->err set. */
static int classify(struct walk *w, GMimeObject *top)
{
	struct mail_msg *msg = w->msg;
	struct err *err = w->err;
	int ret = 0;

	msg->kind = MAIL_PLAIN;
	if (w->pgp && GMIME_IS_MULTIPART(w->pgp)) {
		GMimeMultipart *mp = GMIME_MULTIPART(w->pgp);
		GMimeObject *second = g_mime_multipart_get_part(mp, 1);
		GByteArray *ba;

		/* Below the top, or with parts beyond the two RFC 3156 allows:
		 * something shown is not covered by the signature. */
		msg->partial = w->pgp != top ||
			g_mime_multipart_get_count(mp) != 2;
		if (is_pgp_encrypted(w->pgp)) {
			msg->kind = MAIL_PGP_ENCRYPTED;
			if (!GMIME_IS_PART(second))
				return err_setc(
					err, ERR_INVALID,
					"multipart/encrypted without an encrypted part");
			ba = part_bytes(GMIME_PART(second));
			msg->ciphertext = take_bytes(ba, &msg->ciphertext_len);
		} else {
			msg->kind = MAIL_PGP_SIGNED;
			if (!GMIME_IS_PART(second))
				return err_setc(
					err, ERR_INVALID,
					"multipart/signed without a signature part");
			ba = part_bytes(GMIME_PART(second));
			msg->signature = take_bytes(ba, &msg->signature_len);
			if ((ret = signed_part_bytes(w->pgp, msg, err)) < 0)
				return ret;
		}
	} else if (w->body.len) {
		struct pgp_block *blocks = NULL;
		bool outside = false;
		size_t nb = pgp_find_blocks(w->body.buf, w->body.len, &blocks,
					    &outside);

		if (nb) {
			msg->kind = MAIL_INLINE_PGP;
			msg->partial = outside;
		}
		free(blocks);
	}
	if (msg->kind != MAIL_PGP_SIGNED && msg->kind != MAIL_PGP_ENCRYPTED) {
		/* "outside" means outside a PGP/MIME entity; there is none. */
		free(msg->outside);
		msg->outside = NULL;
		msg->noutside = 0;
		msg->pgp_text_at = msg->pgp_att_at = 0;
		for (size_t i = 0; i < msg->nattachments; i++)
			msg->attachments[i].outside = false;
	}
	return 0;
}

/*
 * Returns 0 with *msg filled (every string NUL-terminated, binary fields
 * too, one byte past their length), or negative with err set and *msg
 * holding whatever was filled so far; release it in both cases.  buf need
 * not be NUL-terminated and is never written to.
 */
int mail_parse(const char *buf, size_t len, struct mail_msg *msg,
	       struct err *err)
{
	int ret = 0;

	memset(msg, 0, sizeof(*msg));
	if (len > MAIL_MAX_SIZE)
		return err_setc(err, ERR_INVALID,
				"message too large (%zu bytes, limit %zu)", len,
				MAIL_MAX_SIZE);
	/*
	 * GMime's parser recurses once per nesting level; refuse before
	 * parsing anything that could declare more containers than we would
	 * accept parts, so a hostile message cannot exhaust the stack.
	 */
	if (count_ci(buf, len, "multipart/") + count_ci(buf, len, "message/") >
	    MAIL_MAX_PARTS)
		return err_setc(err, ERR_INVALID,
				"too many MIME parts (more than %d)",
				MAIL_MAX_PARTS);
	mail_init();

	/*
	 * The stream reads the caller's buffer in place (no copy of a message
	 * that may be 64 MiB): it does not own the array, nothing writes to
	 * it, and the array header is freed only after the message, whose
	 * parts refer to the stream, is gone.
	 */
	GByteArray *input = g_byte_array_new_take((guint8 *)buf, len);
	GMimeStream *st = g_mime_stream_mem_new_with_byte_array(input);
	g_mime_stream_mem_set_owner(GMIME_STREAM_MEM(st), FALSE);
	GMimeParser *parser = g_mime_parser_new_with_stream(st);
	g_mime_parser_set_format(parser, GMIME_FORMAT_MESSAGE);
	GMimeMessage *m = g_mime_parser_construct_message(parser, NULL);
	g_object_unref(parser);
	g_object_unref(st);
	if (!m) {
		g_byte_array_free(input, FALSE);
		return err_setc(err, ERR_INVALID, "not a mail message");
	}

	struct walk w = { .msg = msg, .err = err, .body = SBUF_INIT };
	GMimeObject *top = g_mime_message_get_mime_part(m);
	if (!top) {
		ret = err_setc(err, ERR_INVALID,
			       "not a mail message (no MIME content)");
		goto out;
	}
	fill_headers(m, msg);
	msg->protected_headers = protected_v1(top);

	ret = walk(&w, top, 1);
	if (ret < 0)
		goto out;

	ret = classify(&w, top);
	if (ret < 0)
		goto out;
	if (!w.body.buf)
		sbuf_grow(&w.body, 1);
	msg->body_text = sbuf_detach(&w.body, &msg->body_len);
out:
	sbuf_wipe(&w.body);
	g_object_unref(m);
	g_byte_array_free(input, FALSE);
	return ret;
}

/* Frees everything in *msg, wiping what may be plaintext; leaves it zeroed.
 * NULL and an already released msg are fine. */
void mail_msg_release(struct mail_msg *msg)
{
	if (!msg)
		return;
	free(msg->message_id);
	free(msg->in_reply_to);
	for (size_t i = 0; i < msg->nreferences; i++)
		free(msg->references[i]);
	free(msg->references);
	free(msg->from_name);
	free(msg->from_email);
	for (size_t i = 0; i < msg->nfrom; i++) {
		free(msg->from[i].name);
		free(msg->from[i].email);
	}
	free(msg->from);
	free(msg->from_header);
	free(msg->outside);
	free(msg->to);
	free(msg->subject);
	wipe_free(msg->ciphertext, msg->ciphertext_len);
	wipe_free(msg->signed_data, msg->signed_len);
	wipe_free(msg->signature, msg->signature_len);
	wipe_free(msg->body_text, msg->body_len);
	for (size_t i = 0; i < msg->nattachments; i++) {
		struct mail_attachment *a = &msg->attachments[i];

		free(a->filename);
		free(a->content_type);
		wipe_free(a->data, a->len);
	}
	free(msg->attachments);
	memset(msg, 0, sizeof(*msg));
}

/* Adds buf[0..len) to ck with CRLF normalized to LF. */
static void hash_lf(GChecksum *ck, const char *buf, size_t len)
{
	size_t from = 0;

	for (size_t i = 0; i < len; i++) {
		if (buf[i] == '\r' && i + 1 < len && buf[i + 1] == '\n') {
			g_checksum_update(ck, (const guchar *)buf + from,
					  (gssize)(i - from));
			from = i + 1;
		}
	}
	g_checksum_update(ck, (const guchar *)buf + from, (gssize)(len - from));
}

static char *hash_done(GChecksum *ck)
{
	char *r = xstrdup(g_checksum_get_string(ck));

	g_checksum_free(ck);
	return r;
}

/* Returns 64 lowercase hex digits (caller frees); cannot fail. */
char *mail_raw_hash(const char *buf, size_t len)
{
	GChecksum *ck = g_checksum_new(G_CHECKSUM_SHA256);

	hash_lf(ck, buf, len);
	return hash_done(ck);
}

/* Header fields a message gathers on its way, one per relay, mailbox or
 * list: none is the sender's. */
static bool transport_field(const char *name, size_t n)
{
	static const char *const exact[] = {
		"delivered-to",
		"received",
		"x-received",
		"return-path",
		"x-original-to",
		"envelope-to",
		"dkim-signature",
		"authentication-results",
		"received-spf",
		"status",
		"x-status",
		"x-keywords",
		"x-uid",
		"lines",
		"content-length",
		"precedence",
		"mailing-list",
		"x-mailing-list",
		"x-beenthere",
		"x-loop",
		"x-original-sender",
		"errors-to",
		"sender",
		NULL,
	};
	static const char *const prefix[] = { "list-", "arc-", "x-spam-",
					      "x-google-", NULL };

	for (size_t i = 0; exact[i]; i++)
		if (strlen(exact[i]) == n &&
		    !g_ascii_strncasecmp(name, exact[i], n))
			return true;
	for (size_t i = 0; prefix[i]; i++)
		if (n > strlen(prefix[i]) &&
		    !g_ascii_strncasecmp(name, prefix[i], strlen(prefix[i])))
			return true;
	return false;
}

/* The length of the header field at p (its continuation lines too). */
static size_t field_len(const char *p, const char *end)
{
	const char *q = p;

	do {
		const char *nl = memchr(q, '\n', (size_t)(end - q));
		q = nl ? nl + 1 : end;
	} while (q < end && (*q == ' ' || *q == '\t'));
	return (size_t)(q - p);
}

char *mail_content_hash(const char *buf, size_t len)
{
	GChecksum *ck = g_checksum_new(G_CHECKSUM_SHA256);
	const char *p = buf, *end = buf + len;

	/* The header block, up to its empty line, without what transport
	 * added; then the rest as it is. */
	while (p < end && *p != '\n' &&
	       !(*p == '\r' && p + 1 < end && p[1] == '\n')) {
		size_t n = field_len(p, end), name = 0;

		/* The name: up to ':' or the line's end, within the buffer
		 * (which need not end in a NUL). */
		while (name < n && p[name] != ':' && p[name] != '\n' &&
		       p[name] != '\0')
			name++;
		if (!(name < n && p[name] == ':' && transport_field(p, name)))
			hash_lf(ck, p, n);
		p += n;
	}
	hash_lf(ck, p, (size_t)(end - p));
	return hash_done(ck);
}
