/*
 * `vendor add|list|edit|notify|status`: the vendor directory and each
 * vendor's status on a report.  Every change is checked (vendor.c),
 * stored and logged as an event in one transaction; an NDA request is
 * recorded together with the policy's answer (policy_nda_answer()).
 * Notifying records the notification; notify --forward first sends the
 * report through forward.c, encrypted to the vendor's --key when the
 * directory has one.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/core.h"
#include "core/json.h"

struct vendor_req {
	const char *sub;
	int64_t id;             /* report, for notify/status */
	const char *name;
	const char *contact, *key, *kind;
	const char *status, *note, *statement;
	bool nda, json;
	struct sbuf summary;
};

static void say(struct vendor_req *v, const char *detail)
{
	sbuf_addf(&v->summary, "%s%s", v->summary.len ? "; " : "", detail);
}

static int event(struct cmd_ctx *ctx, struct vendor_req *v, int64_t report,
		 const char *kind, char *detail, struct err *err)
{
	int rc = store_event_add(ctx->store, report, ctx->officer, kind, detail, err);

	if (rc == 0)
		say(v, detail);
	free(detail);
	return rc;
}

static int apply_add(struct cmd_ctx *ctx, void *data, struct err *err)
{
	struct vendor_req *v = data;
	struct vendor nv = { 0, (char *)v->name, (char *)v->contact,
			     (char *)v->key, (char *)(v->kind ? v->kind : "vendor") };
	struct vendor old;
	int rc;

	if (store_vendor_get(ctx->store, v->name, &old, NULL) == 0) {
		rc = err_setc(err, ERR_DUPLICATE,
			      "vendor '%s' is already in the directory (as '%s')",
			      v->name, old.name);
		vendor_release(&old);
		return rc;
	}
	if ((rc = store_vendor_add(ctx->store, &nv, NULL, err)) < 0)
		return rc;
	return event(ctx, v, 0, "vendor-add",
		     xasprintf("vendor %s (%s) added, contact %s%s%s", v->name,
			       nv.kind, v->contact, v->key ? ", key " : "",
			       v->key ? v->key : ""), err);
}

static int apply_edit(struct cmd_ctx *ctx, void *data, struct err *err)
{
	struct vendor_req *v = data;
	struct vendor old, nv = { 0, NULL, (char *)v->contact, (char *)v->key,
				  (char *)v->kind };
	struct sbuf d = SBUF_INIT;
	int rc;

	if ((rc = store_vendor_get(ctx->store, v->name, &old, err)) < 0)
		return rc;
	if (v->contact && strcmp(v->contact, old.contact))
		sbuf_addf(&d, "%scontact %s -> %s", d.len ? ", " : "", old.contact, v->contact);
	if (v->key && (!old.key_fpr || strcmp(v->key, old.key_fpr)))
		sbuf_addf(&d, "%skey %s -> %s", d.len ? ", " : "",
			  old.key_fpr ? old.key_fpr : "none", v->key);
	if (v->kind && strcmp(v->kind, old.kind))
		sbuf_addf(&d, "%skind %s -> %s", d.len ? ", " : "", old.kind, v->kind);
	rc = 0;
	if (d.len && (rc = store_vendor_update(ctx->store, old.id, &nv, err)) == 0)
		rc = event(ctx, v, 0, "vendor-edit",
			   xasprintf("vendor %s: %s", old.name, d.buf), err);
	sbuf_release(&d);
	vendor_release(&old);
	return rc;
}

/* notify and status: one vendor's row on one report. */
static int apply_status(struct cmd_ctx *ctx, void *data, struct err *err)
{
	struct vendor_req *v = data;
	struct store *s = ctx->store;
	struct vendor ven;
	struct report r;
	struct report_vendor cur;
	struct report_vendor_set u = { NULL, 0, util_now(), -1, NULL, NULL };
	const char *from;
	int rc;

	memset(&cur, 0, sizeof(cur));
	if ((rc = store_report_get(s, v->id, &r, err)) < 0)
		return rc;
	report_release(&r);
	if ((rc = store_vendor_get(s, v->name, &ven, err)) < 0)
		return rc;
	rc = store_report_vendor_get(s, v->id, ven.id, &cur, NULL);
	from = rc == 0 ? cur.status : "not-notified";
	if (v->status && strcmp(v->status, from)) {
		if ((rc = vendor_check_transition(ven.name, from, v->status, err)) < 0)
			goto out;
		u.status = v->status;
		if (!strcmp(v->status, "notified")) {
			u.notified_at = u.updated_at;
			rc = event(ctx, v, v->id, "vendor-notify",
				   xasprintf("vendor %s notified (contact %s)",
					     ven.name, ven.contact), err);
		} else {
			rc = event(ctx, v, v->id, "vendor-status",
				   xasprintf("vendor %s: %s -> %s", ven.name, from,
					     v->status), err);
		}
		if (rc < 0)
			goto out;
	} else if (v->status && !strcmp(v->sub, "notify")) {
		rc = err_setc(err, ERR_REFUSED,
			      "report %lld: vendor %s is already %s", (long long)v->id,
			      ven.name, from);
		goto out;
	}
	if (v->statement) {
		u.statement = v->statement;
		if ((rc = event(ctx, v, v->id, "vendor-statement",
				xasprintf("vendor %s statement: %s", ven.name,
					  v->statement), err)) < 0)
			goto out;
	}
	if (v->note) {
		u.note = v->note;
		if ((rc = event(ctx, v, v->id, "vendor-note",
				xasprintf("vendor %s note: %s", ven.name, v->note),
				err)) < 0)
			goto out;
	}
	if (v->nda) {
		u.nda_requested = 1;
		if ((rc = event(ctx, v, v->id, "nda-request",
				xasprintf("vendor %s requested an NDA; policy: %s",
					  ven.name, policy_nda_answer()), err)) < 0)
			goto out;
	}
	rc = v->summary.len ? store_report_vendor_set(s, v->id, ven.id, &u, err) : 0;
out:
	report_vendor_release(&cur);
	vendor_release(&ven);
	return rc;
}

static int do_list(struct cmd_ctx *ctx, struct vendor_req *v)
{
	struct store *s = cmd_ctx_store(ctx);
	struct vendor *list = NULL;
	size_t n = 0;
	json_t *a = v->json ? json_array() : NULL;

	if (!s)
		return CMD_FAILED;
	if (store_vendors_list(s, &list, &n, &ctx->err) < 0)
		return CMD_FAILED;
	if (!a && n)
		fprintf(ctx->out, "%-20s %-9s %-32s %s\n", "NAME", "KIND", "CONTACT", "KEY");
	for (size_t i = 0; i < n; i++) {
		if (a) {
			json_array_append_new(a, json_pack("{s:o, s:o, s:o, s:o}",
				"name", json_text(list[i].name),
				"kind", json_text(list[i].kind),
				"contact", json_text(list[i].contact),
				"key", json_text(list[i].key_fpr)));
		} else {
			char *nm = safe_str(list[i].name), *c = safe_str(list[i].contact),
			     *k = safe_str(list[i].key_fpr ? list[i].key_fpr : "-");
			fprintf(ctx->out, "%-20s %-9s %-32s %s\n", nm, list[i].kind, c, k);
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

static bool valid_text(const char *s, size_t max)
{
	char *safe;
	bool ok;

	if (!s || !*s || strlen(s) > max)
		return false;
	safe = safe_str(s);
	ok = !strcmp(safe, s);
	free(safe);
	return ok;
}

static int check_fields(struct cmd_ctx *ctx, struct vendor_req *v)
{
	if (v->name && !valid_text(v->name, 64))
		return err_setc(&ctx->err, ERR_INVALID,
				"invalid vendor name (1 to 64 printable characters)");
	if (v->contact && (!valid_text(v->contact, 254) || !strchr(v->contact, '@') ||
			   strchr(v->contact, ' ')))
		return err_setc(&ctx->err, ERR_INVALID,
				"vendor %s: '%s' is not a mail address", v->name,
				v->contact);
	if (v->key) {
		size_t len = strlen(v->key);
		if (len < 16 || len > 64 || strspn(v->key, "0123456789abcdefABCDEF") != len)
			return err_setc(&ctx->err, ERR_INVALID,
					"vendor %s: '%s' is not a key fingerprint (hex digits)",
					v->name, v->key);
	}
	if (v->kind && !vendor_kind_valid(v->kind))
		return err_setc(&ctx->err, ERR_INVALID,
				"vendor %s: unknown kind '%s' (vendor, distro, hardware)",
				v->name, v->kind);
	if (v->status && !vendor_status_valid(v->status))
		return vendor_check_transition(v->name, "not-notified", v->status,
					       &ctx->err);
	if ((v->note && !*v->note) || (v->statement && !*v->statement))
		return err_setc(&ctx->err, ERR_INVALID, "empty note or statement");
	return 0;
}

static int send_forward(struct cmd_ctx *ctx, const struct vendor_req *v,
			struct forward_opts *fo)
{
	struct store *s = cmd_ctx_store(ctx);
	struct forward_result res;
	struct vendor vd;
	const char *to[1], *keys[1];
	int r;

	if (!s)
		return ERR_IO;
	if (store_vendor_get(s, v->name, &vd, &ctx->err) < 0)
		return ERR_NOTFOUND;
	to[0] = vd.contact;
	keys[0] = vd.key_fpr;   /* the key the officer gave the directory */
	fo->to = to;
	fo->keys = keys;
	fo->nto = 1;
	fo->force_recipient = true;  /* vendors are not participants */
	if (!fo->outbox && !fo->sendmail)
		fo->outbox = config_get(ctx->cfg, "forward.outbox", NULL);
	memset(&res, 0, sizeof(res));
	r = forward_report(ctx, v->id, fo, &res, &ctx->err);
	for (size_t i = 0; i < res.nsent; i++) {
		char *t = safe_str(res.sent[i].to), *w = safe_str(res.sent[i].where);
		fprintf(ctx->out, "%s\t%s\t%s\n",
			res.sent[i].plaintext ? "plaintext" : "encrypted", t, w);
		free(t);
		free(w);
	}
	forward_result_release(&res);
	vendor_release(&vd);
	return r;
}

int cmd_vendor_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "contact", required_argument, NULL, 'c' },
		{ "key", required_argument, NULL, 'k' },
		{ "kind", required_argument, NULL, 't' },
		{ "note", required_argument, NULL, 'n' },
		{ "statement", required_argument, NULL, 's' },
		{ "nda-requested", no_argument, NULL, 'N' },
		{ "json", no_argument, NULL, 'j' },
		{ "forward", no_argument, NULL, 'F' },
		{ "outbox", required_argument, NULL, 'o' },
		{ "sendmail", no_argument, NULL, 'S' },
		{ "allow-plaintext", no_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 },
	};
	int (*fn)(struct cmd_ctx *, void *, struct err *) = NULL;
	struct forward_opts fo;
	bool forward = false;
	struct vendor_req v;
	char **pos;
	int c, npos, r;

	memset(&v, 0, sizeof(v));
	memset(&fo, 0, sizeof(fo));
	if (argc < 2)
		return cmd_usage(ctx, "vendor");
	v.sub = argv[1];
	while ((c = getopt_long(argc - 1, argv + 1, "", opts, NULL)) != -1) {
		switch (c) {
		case 'c': v.contact = optarg; break;
		case 'k': v.key = optarg; break;
		case 't': v.kind = optarg; break;
		case 'n': v.note = optarg; break;
		case 's': v.statement = optarg; break;
		case 'N': v.nda = true; break;
		case 'j': v.json = true; break;
		case 'F': forward = true; break;
		case 'o': fo.outbox = optarg; break;
		case 'S': fo.sendmail = config_get(ctx->cfg, "forward.sendmail",
						   "sendmail -t -oi");
			  break;
		case 'P': fo.allow_plaintext = true; break;
		default: return cmd_usage(ctx, "vendor");
		}
	}
	pos = argv + 1 + optind;
	npos = argc - 1 - optind;
	if (!strcmp(v.sub, "list")) {
		if (npos)
			return cmd_usage(ctx, "vendor");
		return do_list(ctx, &v);
	}
	if (v.json)
		return cmd_usage(ctx, "vendor");
	if (!strcmp(v.sub, "add") || !strcmp(v.sub, "edit")) {
		if (npos != 1 || v.note || v.statement || v.nda)
			return cmd_usage(ctx, "vendor");
		v.name = pos[0];
		if (!strcmp(v.sub, "add") && !v.contact) {
			err_setc(&ctx->err, ERR_INVALID, "vendor %s: --contact is required",
				 v.name);
			return CMD_USAGE;
		}
		fn = !strcmp(v.sub, "add") ? apply_add : apply_edit;
	} else if (!strcmp(v.sub, "notify") || !strcmp(v.sub, "status")) {
		bool notify = !strcmp(v.sub, "notify");
		if (v.contact || v.key || v.kind)
			return cmd_usage(ctx, "vendor");
		if (notify ? npos != 2 : (npos != 3 && npos != 2))
			return cmd_usage(ctx, "vendor");
		if (parse_report_id(pos[0], &v.id, &ctx->err) < 0)
			return CMD_USAGE;
		v.name = pos[1];
		v.status = notify ? "notified" : npos == 3 ? pos[2] : NULL;
		if (!v.status && !v.note && !v.statement && !v.nda)
			return cmd_usage(ctx, "vendor");
		fn = apply_status;
	} else {
		err_setc(&ctx->err, ERR_INVALID,
			 "unknown vendor command '%s' (add, list, edit, notify, status)",
			 v.sub);
		return CMD_USAGE;
	}
	if (check_fields(ctx, &v) < 0)
		return CMD_USAGE;
	if ((forward || fo.outbox || fo.sendmail || fo.allow_plaintext) &&
	    strcmp(v.sub, "notify"))
		return cmd_usage(ctx, "vendor");
	/* notify --forward: the vendor gets the same encrypted forward as a
	 * maintainer, sent before the notification is recorded. */
	if (forward && send_forward(ctx, &v, &fo) < 0)
		return CMD_FAILED;
	sbuf_init(&v.summary);
	r = core_write(ctx, fn, &v, &ctx->err);
	if (r == 0) {
		char *s = safe_str(v.summary.len ? v.summary.buf : "nothing changed");
		if (v.id)
			fprintf(ctx->out, "report %lld: %s\n", (long long)v.id, s);
		else
			fprintf(ctx->out, "%s\n", s);
		free(s);
		if (v.nda)
			fprintf(ctx->out, "policy: %s\n", policy_nda_answer());
	}
	sbuf_release(&v.summary);
	return r < 0 ? CMD_FAILED : CMD_OK;
}
