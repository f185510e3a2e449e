/*
 * `maintainers ID [--tree DIR] [--add ADDR... [--key FPR] | --add-all]
 *  [--remove ADDR] [--ack ADDR] [--with-catch-all] [--json]`: bringing area
 * maintainers into a report.
 *
 * Without a change it lists the maintainers, reviewers and lists that
 * MAINTAINERS names for the report (its touched files, and the patch in
 * its decrypted messages, keywords included), "[in]" marking those who
 * are participants already.  Catch-all entries (linux-kernel@vger, F: *
 * sections) and the SECURITY CONTACT are left out, and counted, unless
 * --with-catch-all or config maintainers.include_catch_all = true.
 *
 * --add user@host brings in that suggested entry (hidden catch-all ones
 * included); someone not suggested is added as --add "Name <user@host>"
 * (role "other").  --add-all brings in every person shown, but no
 * mailing list: lists are usually public, so one is only added when
 * named.  Adding someone already in is a note, not an error.  --key FPR
 * (with one --add) records the key the officer confirmed for that person,
 * who may be in already: forward encrypts to that key and to no other
 * (see forward.c); FPR must be the full fingerprint of a usable
 * encryption key in the keyring.  --remove and --ack take an address.  All changes run in one transaction, each
 * with its event (participant-add, participant-remove, participant-ack).
 *
 * The tree: --tree, else config kernel.tree, else the newest
 * /usr/src/linux-* holding MAINTAINERS.
 *
 * The suggestions themselves come from maintainers_suggest(), which the
 * UI's participants panel calls too.
 */
#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/core.h"
#include "core/json.h"
#include "core/maintainers.h"
#include "crypto/crypto.h"

struct mr {
	int64_t id;
	const char *tree_opt;
	const char **add;
	size_t nadd;
	const char **remove;
	size_t nremove;
	const char **ack;
	size_t nack;
	const char *key;                /* --key, uppercase */
	bool add_all, catch_all, json;

	struct report_full rf;
	struct maint_suggestions s;     /* the tree and the suggestions */
	const struct maint_entry **sug; /* into s.res, in order */
	size_t nsug;
	struct participant *pv;         /* active participants */
	size_t np;
	struct sbuf done;               /* what the change did, for output */
	struct sbuf notes;              /* warnings, for errout */
};

static const char usage_line[] =
	"usage: secteam-tui maintainers ID [--tree DIR] [--add ADDR... "
	"[--key FPR] | --add-all] [--remove ADDR] [--ack ADDR] "
	"[--with-catch-all] [--json]\n";

static bool hidden(const struct mr *m, const struct maint_entry *e)
{
	return maintainers_hidden(e, m->catch_all);
}

/* True when only unsigned parts of the report suggest e. */
static bool unsigned_only(const struct mr *m, const struct maint_entry *e)
{
	return e >= m->s.res.v + m->s.nsigned;
}

static bool is_in(const struct mr *m, const char *email)
{
	for (size_t i = 0; i < m->np; i++)
		if (!str_cmp_ci(m->pv[i].email, email))
			return true;
	return false;
}

static const struct maint_entry *find_sug(const struct mr *m, const char *email)
{
	for (size_t i = 0; i < m->nsug; i++)
		if (!str_cmp_ci(m->sug[i]->email, email))
			return m->sug[i];
	return NULL;
}

/* The decrypted messages' text, for the patch lookup (wipe them):
 * *signed_text what the verdicts cover, *unsigned_text the rest, and the
 * files only unsigned parts touch into out.  A message that cannot be
 * opened is skipped with a warning in *warn. */
static void thread_text(struct cmd_ctx *ctx, const struct report_full *rf,
			struct sbuf *warn, char **signed_text,
			char **unsigned_text, struct maint_suggestions *out)
{
	struct sbuf sb = SBUF_INIT, ub = SBUF_INIT;

	for (size_t i = 0; i < rf->nmsgs; i++) {
		struct opened_message om;
		struct err e = { 0, "" };
		struct body_line *bl;
		size_t n;

		if (report_open_message(ctx, rf->msgs[i].id, &om, &e) < 0) {
			char *s = safe_str(e.msg);
			sbuf_addf(warn, "warning: report %lld: message %lld not "
				  "read for the lookup: %s\n", (long long)rf->r.id,
				  (long long)rf->msgs[i].id, s);
			free(s);
			opened_message_release(&om);
			continue;
		}
		n = opened_message_lines(&om, &bl);
		for (size_t k = 0; k < n; k++) {
			struct sbuf *to = bl[k].unsigned_text ? &ub : &sb;
			sbuf_add(to, bl[k].s, bl[k].len);
			sbuf_addch(to, '\n');
		}
		free(bl);
		sbuf_addch(&sb, '\n');
		for (size_t k = 0; k < om.nfiles_unsigned; k++) {
			out->files_unsigned = xrealloc(out->files_unsigned,
						       (out->nfiles_unsigned + 1) *
						       sizeof(char *));
			out->files_unsigned[out->nfiles_unsigned++] =
				xstrdup(om.files_unsigned[k]);
		}
		opened_message_release(&om);
	}
	*signed_text = sbuf_detach(&sb, NULL);
	if (!ub.buf)
		sbuf_grow(&ub, 1);
	*unsigned_text = sbuf_detach(&ub, NULL);
}

bool maintainers_hidden(const struct maint_entry *e, bool catch_all)
{
	return !catch_all && (e->is_catch_all || e->is_security_contact);
}

static bool in_result(const struct maint_result *r, const char *email)
{
	for (size_t i = 0; i < r->n; i++)
		if (!str_cmp_ci(r->v[i].email, email))
			return true;
	return false;
}

/* Moves the entries of from not yet in to (by address) into to. */
static void merge(struct maint_result *to, struct maint_result *from)
{
	to->v = xrealloc(to->v, (to->n + from->n + 1) * sizeof(*to->v));
	for (size_t i = 0; i < from->n; i++) {
		if (in_result(to, from->v[i].email))
			continue;
		to->v[to->n++] = from->v[i];
		memset(&from->v[i], 0, sizeof(from->v[i]));
	}
	for (size_t i = 0; i < from->n; i++) {
		free(from->v[i].name);
		free(from->v[i].email);
		free(from->v[i].role);
		free(from->v[i].section);
	}
	free(from->v);
	from->v = NULL;
	from->n = 0;
}

/* The lookup of the files and keywords of the patch in text, when it
 * holds one (else res stays empty). */
static int patch_lookup(struct maint_db *db, const char *tree, const char *text,
			struct maint_result *res, struct err *err)
{
	char **pf = NULL;
	size_t npf = maint_patch_files(text, &pf);

	for (size_t i = 0; i < npf; i++)
		free(pf[i]);
	free(pf);
	return npf ? maint_lookup(db, tree, NULL, 0, text, res, err) : 0;
}

int maintainers_suggest(struct cmd_ctx *ctx, int64_t id, const char *tree_opt,
			bool with_catch_all, struct maint_suggestions *out,
			struct err *err)
{
	struct report_full rf;
	struct maint_db *db = NULL;
	struct maint_result res[4] = { { NULL, 0 }, { NULL, 0 }, { NULL, 0 },
				       { NULL, 0 } };
	struct sbuf warn = SBUF_INIT;
	char *mpath, *text, *utext;
	int r;

	memset(out, 0, sizeof(*out));
	out->catch_all = with_catch_all ||
		config_get_bool(ctx->cfg, "maintainers.include_catch_all", false);
	if ((r = report_load(ctx, id, &rf, err)) < 0) {
		report_full_release(&rf);
		return r;
	}
	if (!(out->tree = maintainers_find_tree(ctx, tree_opt, err))) {
		report_full_release(&rf);
		return err->code ? err->code : ERR_NOTFOUND;
	}
	mpath = xasprintf("%s/MAINTAINERS", out->tree);
	r = maint_db_load(mpath, &db, err);
	free(mpath);
	if (r < 0) {
		report_full_release(&rf);
		return r;
	}
	thread_text(ctx, &rf, &warn, &text, &utext, out);
	r = patch_lookup(db, out->tree, text, &res[0], err);
	if (r == 0 && rf.nfiles)
		r = maint_lookup(db, out->tree, (const char *const *)rf.files,
				 rf.nfiles, NULL, &res[1], err);
	/* Then what only unsigned parts bring, kept after the rest. */
	if (r == 0)
		r = patch_lookup(db, out->tree, utext, &res[2], err);
	if (r == 0 && out->nfiles_unsigned)
		r = maint_lookup(db, out->tree,
				 (const char *const *)out->files_unsigned,
				 out->nfiles_unsigned, NULL, &res[3], err);
	wipe_free(text, strlen(text));
	wipe_free(utext, strlen(utext));
	maint_db_free(db);
	report_full_release(&rf);
	if (r == 0) {
		merge(&out->res, &res[0]);
		merge(&out->res, &res[1]);
		out->nsigned = out->res.n;
		merge(&out->res, &res[2]);
		merge(&out->res, &res[3]);
		for (size_t i = 0; i < out->res.n; i++)
			if (maintainers_hidden(&out->res.v[i], out->catch_all))
				out->hidden++;
	}
	for (size_t i = 0; i < ARRAY_SIZE(res); i++)
		maint_result_release(&res[i]);
	out->warnings = warn.len ? sbuf_detach(&warn, NULL) : NULL;
	sbuf_release(&warn);
	return r;
}

void maint_suggestions_release(struct maint_suggestions *s)
{
	free(s->tree);
	maint_result_release(&s->res);
	free(s->warnings);
	for (size_t i = 0; i < s->nfiles_unsigned; i++)
		free(s->files_unsigned[i]);
	free(s->files_unsigned);
	memset(s, 0, sizeof(*s));
}

/* Fills m->sug from maintainers_suggest(). */
static int suggest(struct cmd_ctx *ctx, struct mr *m, struct err *err)
{
	int r = maintainers_suggest(ctx, m->id, m->tree_opt, m->catch_all,
				    &m->s, err);

	if (m->s.warnings)
		fputs(m->s.warnings, ctx->errout);
	if (r < 0)
		return r;
	m->catch_all = m->s.catch_all;
	m->sug = xcalloc(m->s.res.n + 1, sizeof(*m->sug));
	for (size_t i = 0; i < m->s.res.n; i++)
		m->sug[m->nsug++] = &m->s.res.v[i];
	return 0;
}

static void print_list(struct cmd_ctx *ctx, struct mr *m)
{
	size_t left = 0, shown = 0;

	for (size_t i = 0; i < m->nsug; i++) {
		const struct maint_entry *e = m->sug[i];
		char *line, *s;

		if (hidden(m, e)) {
			left++;
			continue;
		}
		line = maint_entry_format(e);
		s = safe_str(line);
		fprintf(ctx->out, "%s %s%s\n", is_in(m, e->email) ? "[in]" : "    ", s,
			unsigned_only(m, e) ? "  [!] only from unsigned parts" : "");
		free(s);
		free(line);
		shown++;
	}
	for (size_t i = 0; i < m->np; i++) {
		const struct maint_entry *e = find_sug(m, m->pv[i].email);
		char *line, *s;

		if (e && !hidden(m, e))
			continue;
		line = participant_format(&m->pv[i]);
		s = safe_str(line);
		fprintf(ctx->out, "[in] %s\n", s);
		free(s);
		free(line);
	}
	if (!shown && !m->np)
		fprintf(ctx->out, "no maintainers found for report %lld%s\n",
			(long long)m->id,
			m->rf.nfiles ? "" : " (it touches no known file); add "
			"people with --add 'Name <user@host>'");
	if (left)
		fprintf(ctx->out, "%zu catch-all entr%s left out; --with-catch-all "
			"to show %s\n", left, left > 1 ? "ies" : "y",
			left > 1 ? "them" : "it");
	if (m->s.nfiles_unsigned) {
		fputs("files only unsigned parts touch:", ctx->out);
		for (size_t i = 0; i < m->s.nfiles_unsigned; i++) {
			char *f = safe_str(m->s.files_unsigned[i]);
			fprintf(ctx->out, " %s", f);
			free(f);
		}
		fputc('\n', ctx->out);
	}
}

static json_t *jstr(const char *s)
{
	char *v = safe_str(s);
	json_t *j = json_string(v);

	free(v);
	return j ? j : json_string("");
}

static void print_json(struct cmd_ctx *ctx, struct mr *m)
{
	json_t *o = json_object(), *a = json_array(), *files = json_array();
	size_t left = 0;

	for (size_t i = 0; i < m->nsug; i++) {
		const struct maint_entry *e = m->sug[i];
		if (hidden(m, e)) {
			left++;
			continue;
		}
		json_array_append_new(a, json_pack(
			"{s:o, s:o, s:o, s:o, s:b, s:b, s:b, s:b, s:b}",
			"name", jstr(e->name), "email", jstr(e->email),
			"role", jstr(e->role), "section", jstr(e->section),
			"list", e->is_list, "catch_all", e->is_catch_all,
			"security_contact", e->is_security_contact,
			"participant", is_in(m, e->email),
			"unsigned", unsigned_only(m, e)));
	}
	for (size_t i = 0; i < m->rf.nfiles; i++)
		json_array_append_new(files, json_text(m->rf.files[i]));
	json_t *uf = json_array();
	for (size_t i = 0; i < m->s.nfiles_unsigned; i++)
		json_array_append_new(uf, json_text(m->s.files_unsigned[i]));
	json_object_set_new(o, "files_unsigned", uf);
	json_object_set_new(o, "report", json_integer((json_int_t)m->id));
	json_object_set_new(o, "tree", json_text(m->s.tree));
	json_object_set_new(o, "files", files);
	json_object_set_new(o, "suggestions", a);
	json_object_set_new(o, "catch_all_left_out", json_integer((json_int_t)left));
	json_object_set_new(o, "participants", participants_json(ctx, m->id));
	json_print(ctx->out, o);
	json_decref(o);
}

/* --- changes, in one transaction ----------------------------------------*/

static int add_one(struct cmd_ctx *ctx, struct mr *m, const char *name,
		   const char *email, const char *role, const char *section,
		   struct err *err)
{
	struct participant p = { 0 };
	char *line;
	int r = participant_add(ctx, m->id, name, email, role, section, m->key,
				err);

	p.name = (char *)name;
	p.email = (char *)email;
	p.role = (char *)role;
	p.section = (char *)section;
	line = participant_format(&p);
	if (r == ERR_DUPLICATE && m->key) {
		err_clear(err);
		if ((r = participant_set_key(ctx, m->id, email, m->key, err)) == 0)
			sbuf_addf(&m->done, "report %lld: key %s confirmed for %s\n",
				  (long long)m->id, m->key, email);
	} else if (r == ERR_DUPLICATE) {
		sbuf_addf(&m->notes, "report %lld: already in: %s\n",
			  (long long)m->id, line);
		r = 0;
	} else if (r == 0) {
		sbuf_addf(&m->done, "report %lld: added %s%s%s%s\n",
			  (long long)m->id, line, m->key ? ", key " : "",
			  m->key ? m->key : "", m->key ? " confirmed" : "");
	}
	free(line);
	return r;
}

static int add_named(struct cmd_ctx *ctx, struct mr *m, const char *arg,
		     struct err *err)
{
	const struct maint_entry *e;
	char *name = NULL, *email = NULL;
	int r;

	if ((r = participant_parse_address(arg, &name, &email, err)) < 0)
		return err_prefix(err, "cannot add to report %lld",
				  (long long)m->id);
	e = find_sug(m, email);
	if (!e && !name) {
		r = err_setc(err, ERR_NOTFOUND,
			     "cannot add '%s' to report %lld: not among the "
			     "maintainers suggested for it; give it as "
			     "'Name <%s>' to bring in someone else",
			     email, (long long)m->id, email);
	} else if (e) {
		if (e->is_list)
			sbuf_addf(&m->notes, "warning: %s is a mailing list; "
				  "forwarding to it may make the report public\n",
				  e->email);
		r = add_one(ctx, m, name ? name : (*e->name ? e->name : NULL),
			    email, e->role, e->section, err);
	} else {
		r = add_one(ctx, m, name, email, "other", NULL, err);
	}
	free(name);
	free(email);
	return r;
}

static int apply(struct cmd_ctx *ctx, void *data, struct err *err)
{
	struct mr *m = data;
	size_t lists = 0, unsig = 0;
	int r;

	for (size_t i = 0; i < m->nremove; i++) {
		char *n = NULL, *e = NULL;
		struct participant p;
		if ((r = participant_parse_address(m->remove[i], &n, &e, err)) < 0)
			return r;
		r = store_participant_get(ctx->store, m->id, e, &p, err);
		if (r == 0) {
			char *line = participant_format(&p);
			r = participant_remove(ctx, m->id, e, err);
			sbuf_addf(&m->done, "report %lld: removed %s\n",
				  (long long)m->id, line);
			free(line);
			participant_release(&p);
		}
		free(n);
		free(e);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; i < m->nack; i++) {
		char *n = NULL, *e = NULL;
		if ((r = participant_parse_address(m->ack[i], &n, &e, err)) == 0 &&
		    (r = participant_ack(ctx, m->id, e, err)) == 0)
			sbuf_addf(&m->done, "report %lld: %s acknowledged\n",
				  (long long)m->id, e);
		free(n);
		free(e);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; m->add_all && i < m->nsug; i++) {
		const struct maint_entry *e = m->sug[i];
		if (hidden(m, e))
			continue;
		if (e->is_list) {
			lists++;
			continue;
		}
		if (unsigned_only(m, e)) {
			unsig++;
			continue;
		}
		if ((r = add_one(ctx, m, *e->name ? e->name : NULL, e->email,
				 e->role, e->section, err)) < 0)
			return r;
	}
	if (lists)
		sbuf_addf(&m->notes, "report %lld: %zu mailing list%s not added "
			  "(lists are usually public; add one by name with --add)\n",
			  (long long)m->id, lists, lists > 1 ? "s" : "");
	if (unsig)
		sbuf_addf(&m->notes, "report %lld: %zu suggestion%s only from "
			  "unsigned parts not added (add by address with --add)\n",
			  (long long)m->id, unsig, unsig > 1 ? "s" : "");
	for (size_t i = 0; i < m->nadd; i++)
		if ((r = add_named(ctx, m, m->add[i], err)) < 0)
			return r;
	return 0;
}

/* --key: a full fingerprint (kept uppercase in m->key, which owns it)
 * of a usable encryption key in the officer's keyring. */
static int check_key(struct cmd_ctx *ctx, struct mr *m, const char *given,
		     struct err *err)
{
	size_t n = strspn(given, "0123456789abcdefABCDEF");
	struct crypto *c;
	char *fpr = NULL;
	int r;

	if ((n != 40 && n != 64) || given[n])
		return err_setc(err, ERR_INVALID,
				"cannot add to report %lld: --key '%s' is not a "
				"full key fingerprint (40 or 64 hex digits)",
				(long long)m->id, given);
	if (!(c = cmd_ctx_crypto(ctx))) {
		*err = ctx->err;
		return ERR_CRYPTO;
	}
	if ((r = crypto_find_encryption_key(c, given, &fpr, err)) < 0)
		return err_prefix(err, "cannot add to report %lld with --key",
				  (long long)m->id);
	if (str_cmp_ci(fpr, given)) {
		r = err_setc(err, ERR_INVALID,
			     "cannot add to report %lld: --key %s is a subkey of "
			     "%s; give the primary key's fingerprint",
			     (long long)m->id, given, fpr);
		free(fpr);
		return r;
	}
	m->key = fpr;   /* gpg gives it uppercase */
	return 0;
}

static void mr_release(struct mr *m)
{
	report_full_release(&m->rf);
	maint_suggestions_release(&m->s);
	free(m->sug);
	participants_free(m->pv, m->np);
	free(m->add);
	free(m->remove);
	free(m->ack);
	free((char *)m->key);
	sbuf_release(&m->done);
	sbuf_release(&m->notes);
}

int maintainers_report_exec(struct cmd_ctx *ctx, int64_t id, int argc,
			    char **argv)
{
	static const struct option opts[] = {
		{ "tree", required_argument, NULL, 't' },
		{ "add", required_argument, NULL, 'a' },
		{ "add-all", no_argument, NULL, 'A' },
		{ "remove", required_argument, NULL, 'r' },
		{ "ack", required_argument, NULL, 'k' },
		{ "with-catch-all", no_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "key", required_argument, NULL, 'K' },
		{ NULL, 0, NULL, 0 },
	};
	const char *key = NULL;
	struct mr m;
	bool listing, need_tree;
	int c, r = CMD_FAILED, first;

	memset(&m, 0, sizeof(m));
	m.id = id;
	m.add = xcalloc((size_t)argc + 1, sizeof(*m.add));
	m.remove = xcalloc((size_t)argc + 1, sizeof(*m.remove));
	m.ack = xcalloc((size_t)argc + 1, sizeof(*m.ack));
	sbuf_init(&m.done);
	sbuf_init(&m.notes);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 't': m.tree_opt = optarg; break;
		case 'a': m.add[m.nadd++] = optarg; break;
		case 'A': m.add_all = true; break;
		case 'r': m.remove[m.nremove++] = optarg; break;
		case 'k': m.ack[m.nack++] = optarg; break;
		case 'c': m.catch_all = true; break;
		case 'j': m.json = true; break;
		case 'K': key = optarg; break;
		default: goto usage;
		}
	}
	/* The ID is the first operand (when the caller left it in argv);
	 * more operands are more --add addresses. */
	first = optind;
	if (first < argc) {
		int64_t v;
		struct err e = { 0, "" };
		if (parse_report_id(argv[first], &v, &e) == 0 && v == id)
			first++;
	}
	if (first < argc && !m.nadd)
		goto usage;
	for (int i = first; i < argc; i++)
		m.add[m.nadd++] = argv[i];
	if (m.add_all && m.nadd)
		goto usage;
	if (config_get_bool(ctx->cfg, "maintainers.include_catch_all", false))
		m.catch_all = true;
	listing = !m.nadd && !m.add_all && !m.nremove && !m.nack;
	need_tree = listing || m.add_all;
	for (size_t i = 0; i < m.nadd; i++)
		if (!strchr(m.add[i], '<'))
			need_tree = true;
	if (m.json && !listing)
		goto usage;
	if (key && m.nadd != 1)
		goto usage;
	if (key && check_key(ctx, &m, key, &ctx->err) < 0)
		goto out;

	if (report_load(ctx, id, &m.rf, &ctx->err) < 0)
		goto out;
	if (need_tree || m.nadd) {
		/* Adding "Name <addr>" needs no tree: without one it is
		 * added with role "other". */
		struct err e = { 0, "" };
		if (suggest(ctx, &m, need_tree ? &ctx->err : &e) < 0 && need_tree)
			goto out;
	}
	if (participants_list(ctx, id, false, &m.pv, &m.np, &ctx->err) < 0)
		goto out;
	if (listing) {
		if (m.json)
			print_json(ctx, &m);
		else
			print_list(ctx, &m);
		r = CMD_OK;
		goto out;
	}
	if (core_write(ctx, apply, &m, &ctx->err) < 0)
		goto out;
	{
		char *s = safe_text(m.done.buf ? m.done.buf : "", m.done.len,
				    SAFE_KEEP_NEWLINE);
		fputs(s, ctx->out);
		free(s);
		s = safe_text(m.notes.buf ? m.notes.buf : "", m.notes.len,
			      SAFE_KEEP_NEWLINE);
		fputs(s, ctx->errout);
		free(s);
	}
	r = CMD_OK;
out:
	mr_release(&m);
	return r;
usage:
	mr_release(&m);
	fputs(usage_line, ctx->errout);
	return CMD_USAGE;
}
