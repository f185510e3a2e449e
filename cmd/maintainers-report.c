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
 * The suggestions and the changes are the use cases of suggest.c, which
 * the UI's participants panel calls too; this file parses the arguments
 * and prints.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "export/export.h"
#include "core/json.h"
#include "core/suggest.h"

/* A listing: the suggestions, who is in. */
struct mr {
	int64_t id;
	bool catch_all;
	struct report_full rf;
	struct maint_suggestions s; /* the tree and the suggestions */
	const struct maint_entry **sug; /* into s.res, in order */
	size_t nsug;
	struct participant *pv; /* active participants */
	size_t np;
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
		fprintf(ctx->out, "%s %s%s\n",
			is_in(m, e->email) ? "[in]" : "    ", s,
			unsigned_only(m, e) ? "  [!] only from unsigned parts"
					    : "");
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
			m->rf.nfiles ? ""
				     : " (it touches no known file); add "
				       "people with --add 'Name <user@host>'");
	if (left)
		fprintf(ctx->out,
			"%zu catch-all entr%s left out; --with-catch-all "
			"to show %s\n",
			left, left > 1 ? "ies" : "y", left > 1 ? "them" : "it");
	if (m->s.nfiles_unsigned) {
		fputs("files named only outside the reporter's signed text:",
		      ctx->out);
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
		json_array_append_new(
			a,
			json_pack(
				"{s:o, s:o, s:o, s:o, s:b, s:b, s:b, s:b, s:b}",
				"name", jstr(e->name), "email", jstr(e->email),
				"role", jstr(e->role), "section",
				jstr(e->section), "list", e->is_list,
				"catch_all", e->is_catch_all,
				"security_contact", e->is_security_contact,
				"participant", is_in(m, e->email), "unsigned",
				unsigned_only(m, e)));
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
	json_object_set_new(o, "catch_all_left_out",
			    json_integer((json_int_t)left));
	json_object_set_new(o, "participants",
			    participants_json(ctx->sess, m->id));
	json_print(ctx->out, o);
	json_decref(o);
}

/* The listing of `maintainers ID`. */
static int list(struct cmd_ctx *ctx, struct mr *m, const char *tree_opt,
		bool json)
{
	int r = maintainers_suggest(ctx->sess, m->id, tree_opt, m->catch_all,
				    &m->s, &ctx->err);

	if (m->s.warnings)
		fputs(m->s.warnings, ctx->errout);
	if (r < 0)
		return CMD_FAILED;
	m->catch_all = m->s.catch_all;
	m->sug = xcalloc(m->s.res.n + 1, sizeof(*m->sug));
	for (size_t i = 0; i < m->s.res.n; i++)
		m->sug[m->nsug++] = &m->s.res.v[i];
	if (report_load(ctx->sess, m->id, &m->rf, &ctx->err) < 0 ||
	    participants_list(ctx->sess, m->id, false, &m->pv, &m->np,
			      &ctx->err) < 0)
		return CMD_FAILED;
	if (json)
		print_json(ctx, m);
	else
		print_list(ctx, m);
	return CMD_OK;
}

/* The options and operands into pc (add, rem and ack have room for argc
 * addresses) and *json; CMD_USAGE when they do not go together. */
static int parse_change(struct cmd_ctx *ctx, int argc, char **argv, int64_t id,
			struct participants_change *pc, const char **add,
			const char **rem, const char **ack, bool *json)
{
	int c, first;

	pc->add = add;
	pc->remove = rem;
	pc->ack = ack;
	optind = 0;
	while ((c = cmd_getopt(ctx, argc, argv)) != -1) {
		switch (c) {
		case 't':
			pc->tree_opt = optarg;
			break;
		case 'a':
			add[pc->nadd++] = optarg;
			break;
		case 'A':
			pc->add_all = true;
			break;
		case 'r':
			rem[pc->nremove++] = optarg;
			break;
		case 'k':
			ack[pc->nack++] = optarg;
			break;
		case 'c':
			pc->catch_all = true;
			break;
		case 'j':
			*json = true;
			break;
		case 'K':
			pc->key = optarg;
			break;
		default:
			return CMD_USAGE;
		}
	}
	/* The ID is the first operand (when the caller left it in argv);
	 * more operands are more --add addresses. */
	first = optind;
	if (first < argc) {
		int64_t v;
		struct err e = { 0, "" };
		if (!strcmp(argv[first], "%i") ||
		    (parse_report_id(argv[first], &v, &e) == 0 && v == id))
			first++;
	}
	if (first < argc && !pc->nadd)
		return CMD_USAGE;
	for (int i = first; i < argc; i++)
		add[pc->nadd++] = argv[i];
	return pc->add_all && pc->nadd ? CMD_USAGE : 0;
}

int maintainers_report_exec(struct cmd_ctx *ctx, int64_t id, int argc,
			    char **argv)
{
	struct participants_change pc;
	const char **add, **rem, **ack;
	char *done = NULL, *notes = NULL;
	struct mr m;
	bool json = false;
	int r = CMD_FAILED;

	memset(&m, 0, sizeof(m));
	memset(&pc, 0, sizeof(pc));
	m.id = id;
	add = xcalloc((size_t)argc + 1, sizeof(*add));
	rem = xcalloc((size_t)argc + 1, sizeof(*rem));
	ack = xcalloc((size_t)argc + 1, sizeof(*ack));
	if (parse_change(ctx, argc, argv, id, &pc, add, rem, ack, &json) ==
	    CMD_USAGE)
		goto usage;
	if (config_get_bool(ctx->sess->cfg, "maintainers.include_catch_all",
			    false))
		pc.catch_all = true;
	m.catch_all = pc.catch_all;
	if (!pc.nadd && !pc.add_all && !pc.nremove && !pc.nack) {
		r = list(ctx, &m, pc.tree_opt, json);
		goto out;
	}
	if (json || (pc.key && pc.nadd != 1))
		goto usage;
	if (participants_change(ctx->sess, id, &pc, &done, &notes, &ctx->err) <
	    0)
		goto out;
	fputs(done, ctx->out);
	fputs(notes, ctx->errout);
	/* The change, one line, as the use case said it. */
	for (char *p = done; *p; p++)
		if (*p == '\n')
			*p = p[1] ? ';' : '\0';
	cmd_summary(ctx, "report %lld: %s", (long long)id, done);
	r = CMD_OK;
out:
	free(done);
	free(notes);
	free(add);
	free(rem);
	free(ack);
	report_full_release(&m.rf);
	maint_suggestions_release(&m.s);
	free(m.sug);
	participants_free(m.pv, m.np);
	return r;
usage:
	r = CMD_USAGE;
	fputs(usage_line, ctx->errout);
	goto out;
}
