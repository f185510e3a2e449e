/*
 * fuzz-mail: one message (or a decrypted MIME entity) through mail_parse(),
 * then what core/ does next with the result: the signed part of a
 * multipart/signed is parsed again as an entity, the body is searched for
 * inline-PGP blocks, and every header is made safe for display.
 *
 * sources: util mail
 * pkgs: gmime-3.0
 * options: -max_len=16384
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mail/mail.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void show(const char *s)
{
	free(safe_str(s));
}

static void walk(const struct mail_msg *m)
{
	struct pgp_block *blocks = NULL;
	bool outside = false;

	show(m->message_id);
	show(m->in_reply_to);
	show(m->from_name);
	show(m->from_email);
	show(m->to);
	show(m->subject);
	for (size_t i = 0; i < m->nreferences; i++)
		show(m->references[i]);
	for (size_t i = 0; i < m->nattachments; i++) {
		show(m->attachments[i].filename);
		show(m->attachments[i].content_type);
	}
	if (m->body_text) {
		free(safe_text(m->body_text, m->body_len,
			       SAFE_KEEP_NEWLINE | SAFE_KEEP_TAB));
		size_t n = pgp_find_blocks(m->body_text, m->body_len, &blocks,
					   &outside);
		for (size_t i = 0; i < n; i++)
			if (blocks[i].start > blocks[i].end ||
			    blocks[i].end > m->body_len)
				abort();
		free(blocks);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mail_msg msg, inner;
	struct err err = { 0, "" };

	memset(&msg, 0, sizeof(msg));
	if (mail_parse((const char *)data, size, &msg, &err) == 0) {
		walk(&msg);
		if (msg.signed_data) {
			memset(&inner, 0, sizeof(inner));
			if (mail_parse((const char *)msg.signed_data,
				       msg.signed_len, &inner, &err) == 0)
				walk(&inner);
			mail_msg_release(&inner);
		}
	}
	mail_msg_release(&msg);
	free(mail_content_hash((const char *)data, size));
	return 0;
}
