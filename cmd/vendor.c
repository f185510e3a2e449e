/*
 * `vendor add|list|edit|notify|status`: the vendor directory and each
 * vendor's status on a report.  Parses the arguments for the use cases of
 * vendor.c (which check, store and log every change) and prints their
 * answer; notify --forward first sends the report through forward.c,
 * encrypted to the vendor's --key when the directory has one.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "export/export.h"
#include "core/json.h"
#include "core/vendor.h"
#include "store/store.h"

static int do_list(struct cmd_ctx *ctx, bool json)
{
	struct store *s = cmd_store(ctx);
	struct vendor *list = NULL;
	size_t n = 0;
	json_t *a = json ? json_array() : NULL;

	if (!s)
		return CMD_FAILED;
	if (store_vendors_list(s, &list, &n, &ctx->err) < 0)
		return CMD_FAILED;
	if (!a && n)
		fprintf(ctx->out, "%-20s %-9s %-32s %s\n", "NAME", "KIND",
			"CONTACT", "KEY");
	for (size_t i = 0; i < n; i++) {
		if (a) {
			json_array_append_new(
				a,
				json_pack("{s:o, s:o, s:o, s:o}", "name",
					  json_text(list[i].name), "kind",
					  json_text(list[i].kind), "contact",
					  json_text(list[i].contact), "key",
					  json_text(list[i].key_fpr)));
		} else {
			char *nm = safe_str(list[i].name),
			     *c = safe_str(list[i].contact),
			     *k = safe_str(list[i].key_fpr ? list[i].key_fpr
							   : "-");
			fprintf(ctx->out, "%-20s %-9s %-32s %s\n", nm,
				list[i].kind, c, k);
			free(nm);
			free(c);
			free(k);
		}
		vendor_release(&list[i]);
	}
	free(list);
	if (a) {
		json_print(ctx->out, a);
		json_decref(a);
	}
	return CMD_OK;
}

static int send_forward(struct cmd_ctx *ctx, int64_t id, const char *name,
			struct forward_opts *fo, char **said)
{
	struct store *s = cmd_store(ctx);
	struct forward_result res;
	struct vendor vd;
	const char *to[1], *keys[1];
	int r;

	if (!s)
		return ERR_IO;
	if (store_vendor_get(s, name, &vd, &ctx->err) < 0)
		return ERR_NOTFOUND;
	to[0] = vd.contact;
	keys[0] = vd.key_fpr; /* the key the officer gave the directory */
	fo->to = to;
	fo->keys = keys;
	fo->nto = 1;
	fo->force_recipient = true; /* vendors are not participants */
	if (!fo->outbox && !fo->sendmail)
		fo->outbox = config_get(ctx->sess->cfg, "forward.outbox", NULL);
	memset(&res, 0, sizeof(res));
	r = forward_report(ctx->sess, id, fo, &res, &ctx->err);
	cmd_forward_print(ctx, &res);
	/* Every mail written is said, with where it went. */
	if (r == 0 && res.nsent) {
		struct sbuf sb = SBUF_INIT;

		for (size_t i = 0; i < res.nsent; i++)
			sbuf_addf(&sb, "%s%s mail to %s: %s", i ? "; " : "",
				  res.sent[i].plaintext ? "a plain"
							: "an encrypted",
				  res.sent[i].to, res.sent[i].where);
		*said = safe_str(sb.buf);
		sbuf_release(&sb);
	}
	forward_result_release(&res);
	vendor_release(&vd);
	return r;
}

static int cmd_vendor_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct forward_opts fo;
	struct vendor_change vc;
	const char *sub, *contact = NULL, *key = NULL, *kind = NULL;
	bool forward = false, json = false;
	char **pos, *summary = NULL, *mails = NULL;
	int c, npos, r;

	memset(&vc, 0, sizeof(vc));
	memset(&fo, 0, sizeof(fo));
	if (argc < 2)
		return cmd_usage(ctx, "vendor");
	sub = argv[1];
	while ((c = cmd_getopt(ctx, argc - 1, argv + 1)) != -1) {
		switch (c) {
		case 'c':
			contact = optarg;
			break;
		case 'k':
			key = optarg;
			break;
		case 't':
			kind = optarg;
			break;
		case 'n':
			vc.note = optarg;
			break;
		case 's':
			vc.statement = optarg;
			break;
		case 'N':
			vc.nda = true;
			break;
		case 'C':
			vc.correct = true;
			break;
		case 'j':
			json = true;
			break;
		case 'F':
			forward = true;
			break;
		case 'o':
			fo.outbox = optarg;
			break;
		case 'S':
			fo.sendmail = config_get(ctx->sess->cfg,
						 "forward.sendmail",
						 "sendmail -t -oi");
			break;
		case 'P':
			fo.allow_plaintext = true;
			break;
		default:
			return cmd_usage(ctx, "vendor");
		}
	}
	pos = argv + 1 + optind;
	npos = argc - 1 - optind;
	if (!strcmp(sub, "list")) {
		if (npos)
			return cmd_usage(ctx, "vendor");
		return do_list(ctx, json);
	}
	if (json)
		return cmd_usage(ctx, "vendor");
	if ((forward || fo.outbox || fo.sendmail || fo.allow_plaintext) &&
	    strcmp(sub, "notify"))
		return cmd_usage(ctx, "vendor");
	if (!strcmp(sub, "add") || !strcmp(sub, "edit")) {
		if (npos != 1 || vc.note || vc.statement || vc.nda ||
		    vc.correct)
			return cmd_usage(ctx, "vendor");
		r = !strcmp(sub, "add")
			? vendor_directory_add(ctx->sess, pos[0], contact, key,
					       kind, &summary, &ctx->err)
			: vendor_directory_edit(ctx->sess, pos[0], contact, key,
						kind, &summary, &ctx->err);
	} else if (!strcmp(sub, "notify") || !strcmp(sub, "status")) {
		vc.notify = !strcmp(sub, "notify");
		if (contact || key || kind)
			return cmd_usage(ctx, "vendor");
		if ((c = cmd_report(ctx, "vendor", argc - 1, argv + 1,
				    &vc.report)) != 0)
			return c;
		pos = argv + 1 + optind;
		npos = argc - 1 - optind;
		if (vc.notify ? npos != 1 || vc.correct
			      : (npos != 2 && npos != 1))
			return cmd_usage(ctx, "vendor");
		vc.vendor = pos[0];
		vc.status = !vc.notify && npos == 2 ? pos[1] : NULL;
		/* notify --forward: the vendor gets the same encrypted forward
		 * as a maintainer, sent before the notification is recorded. */
		if (forward &&
		    send_forward(ctx, vc.report, vc.vendor, &fo, &mails) < 0)
			return CMD_FAILED;
		r = vendor_change(ctx->sess, &vc, &summary, &ctx->err);
	} else {
		return CMD_USAGE; /* cmd_run_at names a wrong sub-command */
	}
	if (r < 0) {
		if (mails)
			fprintf(ctx->errout,
				"vendor %s: written before the refusal: %s\n",
				vc.vendor ? vc.vendor : "", mails);
		free(mails);
		return ctx->err.code == ERR_INVALID ? CMD_USAGE : CMD_FAILED;
	}
	cmd_say(ctx, "%s%s%s", summary, mails ? "; " : "", mails ? mails : "");
	free(mails);
	free(summary);
	if (vc.nda)
		fprintf(ctx->out, "policy: %s\n", policy_nda_answer());
	return CMD_OK;
}

/* `vendor` in the command table (cmd/cmd.c); its options, each declared
 * once: parsed by cmd_getopt, shown by --help, the usage, the man page. */
static const struct cmd_opt opts[] = {
	{ .name = "contact",
	  .key = 'c',
	  .arg = "EMAIL",
	  .subs = "add",
	  .flags = CMD_OPT_REQUIRED,
	  .help = "the address notifications go to" },
	{ .name = "contact",
	  .key = 'c',
	  .arg = "EMAIL",
	  .subs = "edit",
	  .help = "the address notifications go to" },
	{ .name = "key",
	  .key = 'k',
	  .arg = "FPR",
	  .subs = "add edit",
	  .help = "the vendor's OpenPGP key (full fingerprint)" },
	{ .name = "kind",
	  .key = 't',
	  .arg = "K",
	  .subs = "add edit",
	  .words = vendor_kinds,
	  .flags = CMD_OPT_CLOSED,
	  .help = "vendor, distro or hardware" },
	{ .name = "forward",
	  .key = 'F',
	  .subs = "notify",
	  .help = "with notify: also forward the report to the vendor" },
	{ .name = "outbox",
	  .key = 'o',
	  .arg = "MAILDIR",
	  .subs = "notify",
	  .help = "deliver the forward into MAILDIR" },
	{ .name = "sendmail",
	  .key = 'S',
	  .subs = "notify",
	  .help = "deliver the forward with forward.sendmail" },
	{ .name = "allow-plaintext",
	  .key = 'P',
	  .subs = "notify",
	  .help = "send a plain copy to a vendor without a usable key" },
	{ .name = "correct",
	  .key = 'C',
	  .subs = "status",
	  .help = "put a wrong status right (recorded as a correction)" },
	{ .name = "note",
	  .key = 'n',
	  .arg = "TEXT",
	  .subs = "status",
	  .help = "an internal note with the status" },
	{ .name = "statement",
	  .key = 's',
	  .arg = "TEXT",
	  .subs = "status",
	  .help = "the vendor's statement, for the advisory" },
	{ .name = "nda-requested",
	  .key = 'N',
	  .subs = "status",
	  .help = "record that the vendor asked for an NDA (the team cannot enter one)" },
	{ .name = "json",
	  .key = 'j',
	  .subs = "list",
	  .help = "with list: a JSON array" },
	{ NULL },
};
static char *statuses(void)
{
	return cmd_words(vendor_statuses);
}
static const struct cmd_values values[] = {
	{ "STATUS", statuses, vendor_statuses },
	{ NULL, NULL, NULL },
};
static const char *const examples[] = {
	"vendor add acme --contact security@acme.example --kind distro",
	"vendor list",
	"vendor edit acme --key 0123456789ABCDEF0123456789ABCDEF01234567",
	"vendor notify 3 acme --forward --outbox ~/outbox",
	"vendor status 3 acme acknowledged",
	NULL
};
const struct cmd_entry cmd_vendor_entry = {
	.name = "vendor",
	.usage =
		"add NAME | list | edit NAME | notify ID NAME | status ID NAME [STATUS]",
	.help = "the vendor directory and each vendor's status on a report",
	.exec = cmd_vendor_exec,
	.opts = opts,
	.target = CMD_TARGET_REPORT,
	.target_subs = "notify status",
	.subs = "add list edit notify status",
	.exit1 =
		"a refused status change, an unknown vendor, or the forward failed",
	.examples = examples,
	.values = values,
};
