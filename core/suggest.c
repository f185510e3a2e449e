/*
 * Bringing area maintainers into a report, the use cases (suggest.h):
 * finding the kernel tree, what MAINTAINERS suggests for a report, and
 * changing who is in (adding, removing, acknowledging) in one
 * transaction with an event each.  The `maintainers ID` command and the
 * UI's participants panel both call these, with values.
 *
 * The suggestions come from the patch in the report's decrypted messages
 * (keywords included) and the files it touches, in get_maintainer.pl's
 * order; what only unsigned parts suggest comes after the rest, marked.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/suggest.h"
#include "crypto/crypto.h"
#include "store/store.h"

static bool has_maintainers(const char *dir)
{
	char *p = xasprintf("%s/MAINTAINERS", dir);
	struct stat st;
	bool ok = stat(p, &st) == 0 && S_ISREG(st.st_mode);
	free(p);
	return ok;
}

/*
 * The best linux-* directory under parent holding MAINTAINERS: by version
 * order of the names (by_version), else the most recently completed one
 * (kernel-tree.sh's "DIR.complete" marker).  NULL when none.
 */
static char *pick_tree(const char *parent, bool by_version)
{
	DIR *d = opendir(parent);
	struct dirent *de;
	char *best = NULL;
	time_t best_t = 0;

	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "linux-", 6) ||
		    str_ends(de->d_name, ".tmp") ||
		    str_ends(de->d_name, ".complete"))
			continue;
		char *path = xasprintf("%s/%s", parent, de->d_name);
		struct stat st;
		if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode) ||
		    !has_maintainers(path)) {
			free(path);
			continue;
		}
		bool better;
		if (by_version) {
			better = !best ||
				strverscmp(strrchr(best, '/') + 1, de->d_name) <
					0;
		} else {
			char *mark = xasprintf("%s.complete", path);
			struct stat ms;
			time_t t = stat(mark, &ms) == 0 ? ms.st_mtime : 0;
			free(mark);
			better = !best || t > best_t;
			if (better)
				best_t = t;
		}
		if (better) {
			free(best);
			best = path;
		} else {
			free(path);
		}
	}
	closedir(d);
	return best;
}

char *maintainers_find_tree(struct session *sess, const char *opt,
			    struct err *err)
{
	const char *cfg = sess->cfg ? config_get(sess->cfg, "kernel.tree", NULL)
				    : NULL;
	const char *given = opt ? opt : cfg;
	char *t;

	if (given) {
		if (!has_maintainers(given)) {
			err_setc(err, ERR_NOTFOUND,
				 "no MAINTAINERS file in kernel tree '%s'%s",
				 given, opt ? "" : " (config kernel.tree)");
			return NULL;
		}
		return xstrdup(given);
	}
	if ((t = pick_tree("/usr/src", true)))
		return t;
	char *cache = cache_dir();

	t = cache ? pick_tree(cache, false) : NULL;
	free(cache);
	if (!t)
		err_setc(
			err, ERR_NOTFOUND,
			"no kernel tree: pass --tree DIR, set kernel.tree in "
			"the config, or unpack one with scripts/kernel-tree.sh");
	return t;
}

/* The decrypted messages' text, for the patch lookup (wipe them):
 * *signed_text what the verdicts cover, *unsigned_text the rest, and the
 * files only unsigned parts touch into out.  A message that cannot be
 * opened is skipped with a warning in *warn. */
static void thread_text(struct session *sess, const struct report_full *rf,
			struct sbuf *warn, char **signed_text,
			char **unsigned_text, struct maint_suggestions *out)
{
	struct sbuf sb = SBUF_INIT, ub = SBUF_INIT;

	for (size_t i = 0; i < rf->nmsgs; i++) {
		struct opened_message om;
		struct err e = { 0, "" };
		struct body_line *bl;
		size_t n;

		if (report_open_thread(sess, rf, i, &om, &e) < 0) {
			char *s = safe_str(e.msg);
			sbuf_addf(warn,
				  "warning: report %lld: message %lld not "
				  "read for the lookup: %s\n",
				  (long long)rf->r.id,
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
		/* Each file once, and none the report's own (signed) files
		 * name too: those are not "only" unsigned. */
		for (size_t k = 0; k < om.nfiles_unsigned; k++) {
			const char *f = om.files_unsigned[k];
			bool have = false;

			for (size_t j = 0; j < out->nfiles_unsigned && !have;
			     j++)
				have = !strcmp(out->files_unsigned[j], f);
			for (size_t j = 0; j < rf->nfiles && !have; j++)
				have = !strcmp(rf->files[j], f);
			if (have)
				continue;
			out->files_unsigned = xrealloc(
				out->files_unsigned,
				(out->nfiles_unsigned + 1) * sizeof(char *));
			out->files_unsigned[out->nfiles_unsigned++] =
				xstrdup(f);
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

int maintainers_suggest(struct session *sess, int64_t id, const char *tree_opt,
			bool with_catch_all, struct maint_suggestions *out,
			struct err *err)
{
	struct report_full rf;
	struct maint_db *db = NULL;
	struct maint_result res[4] = {
		{ NULL, 0 }, { NULL, 0 }, { NULL, 0 }, { NULL, 0 }
	};
	struct sbuf warn = SBUF_INIT;
	struct err cache_warn = { 0, "" };
	char *mpath, *text, *utext;
	int r;

	memset(out, 0, sizeof(*out));
	out->catch_all = with_catch_all ||
		config_get_bool(sess->cfg, "maintainers.include_catch_all",
				false);
	if ((r = report_load(sess, id, &rf, err)) < 0) {
		report_full_release(&rf);
		return r;
	}
	if (!(out->tree = maintainers_find_tree(sess, tree_opt, err))) {
		report_full_release(&rf);
		return err->code ? err->code : ERR_NOTFOUND;
	}
	mpath = xasprintf("%s/MAINTAINERS", out->tree);
	r = maint_db_load_cached(mpath, &db, &cache_warn, err);
	free(mpath);
	if (cache_warn.code)
		sbuf_addf(&warn, "warning: %s\n", cache_warn.msg);
	if (r < 0) {
		sbuf_release(&warn);
		report_full_release(&rf);
		return r;
	}
	thread_text(sess, &rf, &warn, &text, &utext, out);
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

/* --- changing who is in ---------------------------------------------------*/

struct mr {
	int64_t id;
	const struct participants_change *c;
	const char *key; /* the confirmed key, uppercase */
	bool catch_all;
	struct maint_suggestions s; /* the tree and the suggestions */
	const struct maint_entry **sug; /* into s.res, in order */
	size_t nsug;
	struct sbuf done; /* what the change did */
	struct sbuf notes; /* warnings */
};

static bool hidden(const struct mr *m, const struct maint_entry *e)
{
	return maintainers_hidden(e, m->catch_all);
}

/* True when only unsigned parts of the report suggest e. */
static bool unsigned_only(const struct mr *m, const struct maint_entry *e)
{
	return e >= m->s.res.v + m->s.nsigned;
}

static const struct maint_entry *find_sug(const struct mr *m, const char *email)
{
	for (size_t i = 0; i < m->nsug; i++)
		if (!str_cmp_ci(m->sug[i]->email, email))
			return m->sug[i];
	return NULL;
}

static int add_one(struct session *sess, struct mr *m, const char *name,
		   const char *email, const char *role, const char *section,
		   struct err *err)
{
	struct participant p = { 0 };
	char *line;
	int r = participant_add(sess, m->id, name, email, role, section, m->key,
				err);

	p.name = (char *)name;
	p.email = (char *)email;
	p.role = (char *)role;
	p.section = (char *)section;
	line = participant_format(&p);
	if (r == ERR_DUPLICATE && m->key) {
		err_clear(err);
		if ((r = participant_set_key(sess, m->id, email, m->key,
					     err)) == 0)
			sbuf_addf(&m->done,
				  "report %lld: key %s confirmed for %s\n",
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

static int add_named(struct session *sess, struct mr *m, const char *arg,
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
			sbuf_addf(
				&m->notes,
				"warning: %s is a mailing list; "
				"forwarding to it may make the report public\n",
				e->email);
		r = add_one(sess, m, name ? name : (*e->name ? e->name : NULL),
			    email, e->role, e->section, err);
	} else {
		r = add_one(sess, m, name, email, "other", NULL, err);
	}
	free(name);
	free(email);
	return r;
}

static int apply(struct session *sess, void *data, struct err *err)
{
	struct mr *m = data;
	size_t lists = 0, unsig = 0;
	int r;

	for (size_t i = 0; i < m->c->nremove; i++) {
		char *n = NULL, *e = NULL;
		struct participant p;
		if ((r = participant_parse_address(m->c->remove[i], &n, &e,
						   err)) < 0)
			return r;
		r = store_participant_get(sess->store, m->id, e, &p, err);
		if (r == 0) {
			char *line = participant_format(&p);
			r = participant_remove(sess, m->id, e, err);
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
	for (size_t i = 0; i < m->c->nack; i++) {
		char *n = NULL, *e = NULL;
		if ((r = participant_parse_address(m->c->ack[i], &n, &e,
						   err)) == 0 &&
		    (r = participant_ack(sess, m->id, e, err)) == 0)
			sbuf_addf(&m->done, "report %lld: %s acknowledged\n",
				  (long long)m->id, e);
		free(n);
		free(e);
		if (r < 0)
			return r;
	}
	for (size_t i = 0; m->c->add_all && i < m->nsug; i++) {
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
		if ((r = add_one(sess, m, *e->name ? e->name : NULL, e->email,
				 e->role, e->section, err)) < 0)
			return r;
	}
	if (lists)
		sbuf_addf(
			&m->notes,
			"report %lld: %zu mailing list%s not added "
			"(lists are usually public; add one by name with --add)\n",
			(long long)m->id, lists, lists > 1 ? "s" : "");
	if (unsig)
		sbuf_addf(
			&m->notes,
			"report %lld: %zu suggestion%s only from "
			"unsigned parts not added (add by address with --add)\n",
			(long long)m->id, unsig, unsig > 1 ? "s" : "");
	for (size_t i = 0; i < m->c->nadd; i++)
		if ((r = add_named(sess, m, m->c->add[i], err)) < 0)
			return r;
	return 0;
}

/* --key: a full fingerprint (kept uppercase in m->key, which owns it)
 * of a usable encryption key in the officer's keyring. */
static int check_key(struct session *sess, struct mr *m, const char *given,
		     struct err *err)
{
	size_t n = strspn(given, "0123456789abcdefABCDEF");
	struct crypto *c;
	char *fpr = NULL;
	int r;

	if ((n != 40 && n != 64) || given[n])
		return err_setc(
			err, ERR_INVALID,
			"cannot add to report %lld: --key '%s' is not a "
			"full key fingerprint (40 or 64 hex digits)",
			(long long)m->id, given);
	if (!(c = session_crypto(sess, err))) {
		return ERR_CRYPTO;
	}
	if ((r = crypto_find_encryption_key(c, given, &fpr, err)) < 0)
		return err_prefix(err, "cannot add to report %lld with --key",
				  (long long)m->id);
	if (str_cmp_ci(fpr, given)) {
		r = err_setc(
			err, ERR_INVALID,
			"cannot add to report %lld: --key %s is a subkey of "
			"%s; give the primary key's fingerprint",
			(long long)m->id, given, fpr);
		free(fpr);
		return r;
	}
	m->key = fpr; /* gpg gives it uppercase */
	return 0;
}

static int fill_sug(struct session *sess, struct mr *m, struct err *err)
{
	int r = maintainers_suggest(sess, m->id, m->c->tree_opt, m->catch_all,
				    &m->s, err);

	if (m->s.warnings)
		sbuf_adds(&m->notes, m->s.warnings);
	if (r < 0)
		return r;
	m->catch_all = m->s.catch_all;
	m->sug = xcalloc(m->s.res.n + 1, sizeof(*m->sug));
	for (size_t i = 0; i < m->s.res.n; i++)
		m->sug[m->nsug++] = &m->s.res.v[i];
	return 0;
}

int participants_change(struct session *sess, int64_t id,
			const struct participants_change *c, char **done,
			char **notes, struct err *err)
{
	struct mr m;
	bool need_tree = c->add_all;
	int r = 0;

	*done = NULL;
	*notes = NULL;
	memset(&m, 0, sizeof(m));
	m.id = id;
	m.c = c;
	m.catch_all = c->catch_all ||
		config_get_bool(sess->cfg, "maintainers.include_catch_all",
				false);
	sbuf_init(&m.done);
	sbuf_init(&m.notes);
	for (size_t i = 0; i < c->nadd; i++)
		if (!strchr(c->add[i], '<'))
			need_tree = true;
	if (c->key && c->nadd != 1) {
		r = err_setc(
			err, ERR_INVALID,
			"report %lld: a confirmed key goes with one address",
			(long long)id);
		goto out;
	}
	if (c->key && (r = check_key(sess, &m, c->key, err)) < 0)
		goto out;
	if (need_tree || c->nadd) {
		/* Adding "Name <addr>" needs no tree: without one it is
		 * added with role "other". */
		struct err e = { 0, "" };
		if ((r = fill_sug(sess, &m, need_tree ? err : &e)) < 0 &&
		    need_tree)
			goto out;
		r = 0;
	}
	r = core_write(sess, apply, &m, err);
	if (r == 0) {
		*done = safe_text(m.done.buf ? m.done.buf : "", m.done.len,
				  SAFE_KEEP_NEWLINE);
		*notes = safe_text(m.notes.buf ? m.notes.buf : "", m.notes.len,
				   SAFE_KEEP_NEWLINE);
	}
out:
	maint_suggestions_release(&m.s);
	free(m.sug);
	free((char *)m.key);
	sbuf_release(&m.done);
	sbuf_release(&m.notes);
	return r;
}
