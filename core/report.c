/*
 * Reading a report back: its row, thread, touched files and events, and
 * on demand the decrypted content of one message.  Plaintext exists only
 * in struct opened_message, which is wiped on release.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/pipeline.h"

int parse_report_id(const char *s, int64_t *id, struct err *err)
{
	char *end;
	long long v;

	if (*s == '#')
		s++;
	if (!isdigit((unsigned char)*s))
		goto bad;
	v = strtoll(s, &end, 10);
	if (*end || v <= 0)
		goto bad;
	*id = v;
	return 0;
bad:
	return err_setc(err, ERR_INVALID, "'%s' is not a report id", s);
}

int core_write(struct cmd_ctx *ctx,
	       int (*fn)(struct cmd_ctx *ctx, void *data, struct err *err),
	       void *data, struct err *err)
{
	struct store *s = cmd_ctx_store(ctx);
	int r;

	if (!s) {
		*err = ctx->err;
		return ERR_IO;
	}
	if ((r = store_begin(s, err)) < 0)
		return r;
	if ((r = fn(ctx, data, err)) < 0) {
		store_rollback(s);
		return r;
	}
	return store_commit(s, err);
}

int report_each(struct cmd_ctx *ctx, const struct report_filter *f,
		int (*fn)(const struct report *r, void *data), void *data,
		struct err *err)
{
	struct store *s = cmd_ctx_store(ctx);

	if (!s) {
		*err = ctx->err;
		return ERR_IO;
	}
	return store_report_each(s, f, fn, data, err);
}

int report_load(struct cmd_ctx *ctx, int64_t id, struct report_full *rf,
		struct err *err)
{
	struct store *s = cmd_ctx_store(ctx);
	int r;

	memset(rf, 0, sizeof(*rf));
	if (!s) {
		*err = ctx->err;
		return ERR_IO;
	}
	if ((r = store_report_get(s, id, &rf->r, err)) < 0 ||
	    (r = store_messages_get(s, id, false, &rf->msgs, &rf->nmsgs, err)) < 0 ||
	    (r = store_files_get(s, id, &rf->files, &rf->nfiles, err)) < 0 ||
	    (r = store_events_get(s, id, &rf->events, &rf->nevents, err)) < 0)
		return r;
	return 0;
}

void report_full_release(struct report_full *rf)
{
	report_release(&rf->r);
	for (size_t i = 0; i < rf->nmsgs; i++)
		message_release(&rf->msgs[i]);
	free(rf->msgs);
	for (size_t i = 0; i < rf->nfiles; i++)
		free(rf->files[i]);
	free(rf->files);
	for (size_t i = 0; i < rf->nevents; i++)
		event_release(&rf->events[i]);
	free(rf->events);
	memset(rf, 0, sizeof(*rf));
}

bool attachment_is_exploit(const char *filename, const char *content_type)
{
	static const char *const words[] = { "exploit", "poc", "reproducer",
					     "repro", "trigger", "crash" };
	static const char *const exts[] = { ".c", ".py", ".sh", ".pl", ".rb",
					    ".go", ".rs", ".js", ".asm", ".s",
					    ".bin", ".elf", ".tar", ".tgz",
					    ".tar.gz", ".zip", ".gz", ".xz" };
	char *f = str_lower(xstrdup(filename ? filename : ""));
	bool hit = false;

	for (size_t i = 0; !hit && i < ARRAY_SIZE(words); i++)
		hit = strstr(f, words[i]) != NULL;
	for (size_t i = 0; !hit && i < ARRAY_SIZE(exts); i++)
		hit = str_ends(f, exts[i]);
	if (!hit && content_type)
		hit = !strcmp(content_type, "text/x-csrc") ||
		      !strcmp(content_type, "text/x-c") ||
		      !strcmp(content_type, "text/x-python") ||
		      !strcmp(content_type, "application/x-executable") ||
		      !strcmp(content_type, "application/x-sh") ||
		      !strcmp(content_type, "application/x-shellscript");
	free(f);
	return hit;
}

/* Copies n attachments into om, classifying exploit code. */
static void take_attachments(struct opened_message *om,
			     const struct mail_attachment *att, size_t n)
{
	om->natt = n;
	om->att = xcalloc(n + 1, sizeof(*om->att));
	for (size_t i = 0; i < n; i++) {
		struct attachment_info *a = &om->att[i];
		a->filename = att[i].filename ? xstrdup(att[i].filename) : NULL;
		a->content_type = xstrdup(att[i].content_type ?
					  att[i].content_type : "application/octet-stream");
		a->size = att[i].len;
		a->data = xmemdup(att[i].data ? att[i].data : (const unsigned char *)"",
				  att[i].len);
		a->exploit = attachment_is_exploit(a->filename, a->content_type);
	}
}

/* A stored content entity (mail_build_entity's text/plain body and
 * attachments) into om. */
static int open_content(const char *buf, size_t len, struct opened_message *om,
			struct err *err)
{
	struct mail_msg mm;
	int r = mail_parse(buf, len, &mm, err);

	if (r == 0) {
		om->body = mm.body_text ? xmemdup(mm.body_text, mm.body_len + 1) :
					  xstrdup("");
		om->body_len = mm.body_text ? mm.body_len : 0;
		take_attachments(om, mm.attachments, mm.nattachments);
	} else {
		err_prefix(err, "stored content");
	}
	mail_msg_release(&mm);
	return r;
}

int report_open_message(struct cmd_ctx *ctx, int64_t message_row,
			struct opened_message *om, struct err *err)
{
	struct store *s = cmd_ctx_store(ctx);
	struct crypto *c;
	struct message m;
	struct crypto_result res;
	struct pipeline_out po;
	int r;

	memset(om, 0, sizeof(*om));
	memset(&res, 0, sizeof(res));
	memset(&m, 0, sizeof(m));
	if (!s || !(c = cmd_ctx_crypto(ctx))) {
		*err = ctx->err;
		return ERR_IO;
	}
	if ((r = store_message_get(s, message_row, &m, err)) < 0)
		goto out;
	const char *raw = (const char *)m.blob;
	size_t len = m.blob_len;
	if (!strcmp(m.blob_kind, "sealed")) {
		if ((r = crypto_decrypt_verify(c, m.blob, m.blob_len, &res, err)) < 0) {
			err_prefix(err, "cannot open the sealed copy of message %lld",
				   (long long)message_row);
			goto out;
		}
		raw = (const char *)res.plain;
		len = res.plain_len;
	}
	if (m.blob_content) {
		/* The content as shown at import, its verdict recorded:
		 * nothing to decrypt or verify again. */
		r = open_content(raw, len, om, err);
		goto out;
	}
	if ((r = pipeline_run(ctx, raw, len, &po, err)) < 0) {
		pipeline_out_release(&po);
		goto out;
	}
	om->body = sbuf_detach(&po.body, &om->body_len);
	take_attachments(om, po.att, po.natt);
	pipeline_out_release(&po);
out:
	crypto_result_release(&res);
	message_release(&m);
	return r;
}

void opened_message_release(struct opened_message *om)
{
	wipe_free(om->body, om->body_len);
	for (size_t i = 0; i < om->natt; i++) {
		free(om->att[i].filename);
		free(om->att[i].content_type);
		wipe_free(om->att[i].data, om->att[i].size);
	}
	free(om->att);
	memset(om, 0, sizeof(*om));
}
