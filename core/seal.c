/*
 * Sealing bodies to the roster (see seal.h).  The roster's encryption
 * subkey IDs are listed once per session (a key listing costs a gpg run)
 * and compared with the recipients a decryption reports.
 */
#include <stdlib.h>
#include <string.h>

#include "core/seal.h"
#include "mail/mail.h"

int seal_content_entity(const struct pipeline_out *po, char **entity,
			size_t *len, struct err *err)
{
	struct mail_content mc = {
		.from = po->msg.from,
		.nfrom = po->msg.nfrom,
		.from_text = po->msg.from_header,
		.text = po->body.buf ? po->body.buf : "",
		.text_len = po->body.len,
		.unsigned_spans = po->unsigned_spans,
		.nunsigned = po->nunsigned,
		.att = po->att,
		.natt = po->natt,
	};

	*entity = NULL;
	*len = 0;
	return mail_build_content(&mc, entity, len, err);
}

static void roster_subkeys(struct session *sess, struct crypto *c,
			   size_t nroster, const char *const *roster)
{
	if (sess->roster_subkeys)
		return;
	sess->roster_subkeys = xcalloc(nroster, sizeof(char **));
	sess->roster_nsubkeys = xcalloc(nroster, sizeof(size_t));
	for (size_t i = 0; i < nroster; i++)
		crypto_encryption_subkey_ids(c, roster[i],
					     &sess->roster_subkeys[i],
					     &sess->roster_nsubkeys[i], NULL);
}

static bool is_roster_subkey(struct session *sess, size_t nroster,
			     const char *id, size_t *which)
{
	for (size_t i = 0; i < nroster; i++)
		for (size_t j = 0; j < sess->roster_nsubkeys[i]; j++)
			if (!str_cmp_ci(sess->roster_subkeys[i][j], id)) {
				*which = i;
				return true;
			}
	return false;
}

bool seal_covers_roster(struct session *sess, char *const *recipients,
			size_t n, bool exact)
{
	struct crypto *c = session_crypto(sess, NULL);
	size_t nroster;
	const char *const *roster = c ? session_roster(sess, &nroster, NULL) : NULL;
	bool *hit, all = true;

	if (!roster || !n)
		return false;
	roster_subkeys(sess, c, nroster, roster);
	hit = xcalloc(nroster + 1, sizeof(*hit));
	for (size_t k = 0; k < n; k++) {
		size_t which;
		if (is_roster_subkey(sess, nroster, recipients[k], &which))
			hit[which] = true;
		else if (exact)
			all = false;
	}
	for (size_t i = 0; i < nroster; i++)
		if (!hit[i])
			all = false;
	free(hit);
	return all;
}
