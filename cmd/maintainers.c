/*
 * `maintainers [--tree DIR] (--file PATH... [--each] | --patch FILE) [--json]`:
 * the people and lists the kernel's MAINTAINERS names for files or a
 * patch, one per line as `scripts/get_maintainer.pl --nogit
 * --nogit-fallback` prints them, or a JSON array.  Paths are relative to
 * the tree; several --file options (or paths after --file) are looked up
 * together, merged as get_maintainer.pl merges them, unless --each: then
 * each file is looked up on its own in the same process, its answer after
 * a line "== PATH" (JSON: an array of {"file", "maintainers"}).
 *
 * The tree: --tree, else config kernel.tree, else the newest
 * /usr/src/linux-* holding MAINTAINERS, else the one scripts/kernel-tree.sh
 * unpacked into the cache (${SECTEAM_CACHE:-$XDG_CACHE_HOME/secteam-tui}).
 */
#include <dirent.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "cmd/cmd.h"
#include "core/core.h"
#include "core/suggest.h"
#include "maint/maint.h"

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static json_t *jstr(const char *s)
{
	char *v = safe_str(s);
	json_t *j = json_string(v);
	free(v);
	return j ? j : json_string("");
}

static json_t *result_json(const struct maint_result *res)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < res->n; i++) {
		const struct maint_entry *e = &res->v[i];
		json_t *o = json_object();
		json_object_set_new(o, "name", jstr(e->name));
		json_object_set_new(o, "email", jstr(e->email));
		json_object_set_new(o, "role", jstr(e->role));
		json_object_set_new(o, "section", jstr(e->section));
		json_object_set_new(o, "list", json_boolean(e->is_list));
		json_object_set_new(o, "catch_all",
				    json_boolean(e->is_catch_all));
		json_object_set_new(o, "security_contact",
				    json_boolean(e->is_security_contact));
		json_object_set_new(o, "in_file", json_boolean(e->in_file));
		json_array_append_new(arr, o);
	}
	return arr;
}

static void print_json(FILE *out, json_t *j)
{
	json_dumpf(j, out,
		   JSON_INDENT(2) | JSON_ENSURE_ASCII | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(j);
}

static void print_text(FILE *out, const struct maint_result *res)
{
	for (size_t i = 0; i < res->n; i++) {
		char *line = maint_entry_format(&res->v[i]);
		char *s = safe_str(line);
		fprintf(out, "%s\n", s);
		free(s);
		free(line);
	}
}

/* --each: one lookup per file, in this one process. */
static int lookup_each(struct cmd_ctx *ctx, const struct maint_db *db,
		       const char *tree, const char **files, size_t nfiles,
		       bool json)
{
	json_t *all = json ? json_array() : NULL;
	for (size_t i = 0; i < nfiles; i++) {
		struct maint_result res;
		if (maint_lookup(db, tree, &files[i], 1, NULL, &res,
				 &ctx->err) < 0) {
			json_decref(all);
			return -1;
		}
		if (json) {
			json_t *o = json_object();
			json_object_set_new(o, "file", jstr(files[i]));
			json_object_set_new(o, "maintainers",
					    result_json(&res));
			json_array_append_new(all, o);
		} else {
			char *f = safe_str(files[i]);
			fprintf(ctx->out, "== %s\n", f);
			free(f);
			print_text(ctx->out, &res);
		}
		maint_result_release(&res);
	}
	if (json)
		print_json(ctx->out, all);
	return 0;
}

/* The patch at path, for maint_lookup (caller frees); NULL with ctx->err
 * set.  Warns when it names no file. */
static char *read_patch(struct cmd_ctx *ctx, const char *path)
{
	char *text, **pf;
	size_t len, npf;

	if (read_file(path, 256u << 20, &text, &len, &ctx->err) < 0) {
		err_prefix(&ctx->err, "cannot read the patch");
		return NULL;
	}
	/* NUL ends a C string, not a Perl line: make it a byte that no
	 * keyword, \s or \w tells apart from NUL */
	for (char *z = memchr(text, '\0', len); z;
	     z = memchr(z, '\0', len - (size_t)(z - text)))
		*z = '\x01';
	npf = maint_patch_files(text, &pf);
	if (!npf) {
		char *sp = safe_str(path);
		fprintf(ctx->errout,
			"warning: '%s' does not look like a patch: no file names in it\n",
			sp);
		free(sp);
	}
	for (size_t i = 0; i < npf; i++)
		free(pf[i]);
	free(pf);
	return text;
}

/* --file names that are not in the tree still match by name: say so. */
static void warn_not_in_tree(struct cmd_ctx *ctx, const char *tree,
			     const char **files, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *p = files[i][0] == '/'
			? xstrdup(files[i])
			: xasprintf("%s/%s", tree, files[i]);
		if (access(p, F_OK) < 0) {
			char *s = safe_str(files[i]);
			fprintf(ctx->errout,
				"warning: '%s' is not in the tree; matched by its name only\n",
				s);
			free(s);
		}
		free(p);
	}
}

static int cmd_maintainers_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	const char *tree_opt = NULL, *patch = NULL;
	const char **files = NULL;
	size_t nfiles = 0;
	int64_t rid;
	bool json = false, each = false;
	int c, r = CMD_FAILED;
	char *tree = NULL, *mpath = NULL, *text = NULL;
	struct maint_db *db = NULL;
	struct maint_result res = { NULL, 0 };
	struct err cache_warn = { 0, "" };

	/* maintainers ID ...: suggestions and participants of a report
	 * (the one named, or the caller's: the runner resolved it). */
	if ((rid = ctx->target) > 0)
		return maintainers_report_exec(ctx, rid, argc, argv);

	files = xcalloc((size_t)argc + 1, sizeof(*files));
	while ((c = cmd_getopt(ctx, argc, argv)) != -1) {
		switch (c) {
		case 't':
			tree_opt = optarg;
			break;
		case 'f':
			files[nfiles++] = optarg;
			break;
		case 'p':
			patch = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'e':
			each = true;
			break;
		case '?':
			free(files);
			return cmd_usage(ctx, "maintainers");
		default: /* an option of a report's maintainers */
			free(files);
			err_setc(
				&ctx->err, ERR_INVALID,
				"--%s is for a report: maintainers ID --%s ...",
				ctx->opt->name, ctx->opt->name);
			return CMD_USAGE;
		}
	}
	if (!nfiles && !patch && optind == argc - 1 &&
	    all_digits(argv[optind])) {
		free(files);
		err_setc(&ctx->err, ERR_INVALID,
			 "a report id comes first: maintainers %s [OPTIONS]",
			 argv[optind]);
		return CMD_USAGE;
	}
	if (nfiles) {
		for (int i = optind; i < argc; i++)
			files[nfiles++] = argv[i];
	} else if (optind != argc) {
		free(files);
		return cmd_usage(ctx, "maintainers");
	}
	if ((nfiles && patch) || (!nfiles && !patch) || (each && !nfiles)) {
		free(files);
		return cmd_usage(ctx, "maintainers");
	}

	if (!(tree = maintainers_find_tree(ctx->sess, tree_opt, &ctx->err)))
		goto out;
	mpath = xasprintf("%s/MAINTAINERS", tree);
	if (maint_db_load_cached(mpath, &db, &cache_warn, &ctx->err) < 0)
		goto out;
	if (cache_warn.code) {
		char *w = safe_str(cache_warn.msg);
		fprintf(ctx->errout, "warning: %s\n", w);
		free(w);
	}
	if (patch) {
		if (!(text = read_patch(ctx, patch)))
			goto out;
	} else {
		warn_not_in_tree(ctx, tree, files, nfiles);
	}
	if (each) {
		if (lookup_each(ctx, db, tree, files, nfiles, json) < 0)
			goto out;
		r = CMD_OK;
		goto out;
	}
	if (maint_lookup(db, tree, files, nfiles, text, &res, &ctx->err) < 0)
		goto out;
	if (json)
		print_json(ctx->out, result_json(&res));
	else
		print_text(ctx->out, &res);
	r = CMD_OK;
out:
	maint_result_release(&res);
	maint_db_free(db);
	free(text);
	free(mpath);
	free(tree);
	free(files);
	return r;
}

/* `maintainers` in the command table (cmd/cmd.c); its options, each declared
 * once: parsed by cmd_getopt, shown by --help, the usage, the man page. */
const struct cmd_opt cmd_maintainers_opts[] = {
	{ .name = "tree",
	  .key = 't',
	  .arg = "DIR",
	  .help = "the kernel tree whose MAINTAINERS to read (else kernel.tree, /usr/src/linux-*)" },
	{ .name = "file",
	  .key = 'f',
	  .arg = "PATH",
	  .flags = CMD_OPT_MANY,
	  .help = "the maintainers of PATH (repeatable)" },
	{ .name = "each",
	  .key = 'e',
	  .help = "with --file: answer for each file separately" },
	{ .name = "patch",
	  .key = 'p',
	  .arg = "FILE",
	  .help = "the maintainers of the files a patch touches" },
	{ .name = "add",
	  .key = 'a',
	  .arg = "ADDR",
	  .flags = CMD_OPT_MANY,
	  .help = "bring in a suggested address, or \"Name <addr>\" (repeatable)" },
	{ .name = "key",
	  .key = 'K',
	  .arg = "FPR",
	  .help = "with one --add: the key confirmed for that person" },
	{ .name = "add-all",
	  .key = 'A',
	  .help = "bring in every suggested person (lists only when named)" },
	{ .name = "remove",
	  .key = 'r',
	  .arg = "ADDR",
	  .flags = CMD_OPT_MANY,
	  .help = "record that ADDR is no longer a participant" },
	{ .name = "ack",
	  .key = 'k',
	  .arg = "ADDR",
	  .flags = CMD_OPT_MANY,
	  .help = "record that ADDR acknowledged the report" },
	{ .name = "with-catch-all",
	  .key = 'c',
	  .help = "also suggest catch-all lists and the SECURITY CONTACT" },
	{ .name = "json", .key = 'j', .help = "JSON objects instead of lines" },
	{ NULL },
};
static const char *const examples[] = { "maintainers --file drivers/net/tun.c",
					NULL };
const struct cmd_entry cmd_maintainers_entry = {
	.name = "maintainers",
	/* files (--file), a patch (--patch) or a report (ID) */
	.usage = "[ID]",
	.help = "find the maintainers for files, a patch or a report; bring them in",
	.exec = cmd_maintainers_exec,
	.opts = cmd_maintainers_opts,
	.target = CMD_TARGET_REPORT,
	.exit1 = "no MAINTAINERS file, or a refused change",
	.examples = examples,
};
