/*
 * `attachment ID [--json]`: a report's attachments, numbered across its
 * thread as `show` numbers them: number, name (escaped), type, size, the
 * message it came in, whether a signature covers it, whether it looks
 * like exploit code.  `attachment ID N -o FILE [--force]` saves one to
 * FILE (attachment.c: 0600, no link followed, an existing file replaced
 * only with --force); `-o -` writes it to standard output when that is
 * not a terminal.  The name in the mail is never a file name here.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "export/export.h"
#include "core/core.h"
#include "core/json.h"

static void print_list(struct cmd_ctx *ctx, const struct report_attachment *v,
		       size_t n, bool json)
{
	json_t *arr = json ? json_array() : NULL;

	for (size_t i = 0; i < n; i++) {
		const struct report_attachment *a = &v[i];
		char *fn, *ct;

		if (arr) {
			json_array_append_new(
				arr,
				json_pack("{s:I, s:o, s:o, s:I, s:I, s:b, s:b}",
					  "number", (json_int_t)a->number,
					  "name", json_text(a->info.filename),
					  "type",
					  json_text(a->info.content_type),
					  "size", (json_int_t)a->info.size,
					  "message", (json_int_t)a->message,
					  "signed", a->is_signed, "exploit",
					  a->info.exploit));
			continue;
		}
		fn = safe_str(a->info.filename ? a->info.filename
					       : "(unnamed)");
		ct = safe_str(a->info.content_type);
		fprintf(ctx->out,
			"%zu\t%s\t%s\t%zu bytes\tmessage %zu\t%s\t%s\n",
			a->number, fn, ct, a->info.size, a->message,
			a->is_signed ? "signed" : "NOT SIGNED",
			a->info.exploit ? "EXPLOIT CODE" : "-");
		free(fn);
		free(ct);
	}
	if (arr) {
		json_print(ctx->out, arr);
		json_decref(arr);
	}
}

/* Writes a to standard output (ctx->out), which must not be a terminal
 * nor the UI's. */
static int to_stdout(struct cmd_ctx *ctx, const struct report_attachment *a)
{
	if (ctx->interactive || isatty(fileno(ctx->out))) {
		err_setc(
			&ctx->err, ERR_REFUSED,
			"refusing to write attachment %zu to a terminal: -o FILE, "
			"or -o - into a pipe",
			a->number);
		return CMD_FAILED;
	}
	if (fwrite(a->info.data, 1, a->info.size, ctx->out) != a->info.size ||
	    fflush(ctx->out) != 0) {
		err_setc(&ctx->err, ERR_IO,
			 "cannot write attachment %zu to standard output",
			 a->number);
		return CMD_FAILED;
	}
	return CMD_OK;
}

static int save(struct cmd_ctx *ctx, int64_t id, struct report_attachment *v,
		size_t n, const char *which, const char *path, bool force)
{
	const struct report_attachment *a;
	char *end;
	unsigned long k = strtoul(which, &end, 10);
	int rc;

	if (!*which || *end || k < 1 || k > n) {
		char *w = safe_str(which);
		err_setc(&ctx->err, ERR_INVALID,
			 "report %lld has no attachment '%s' (it has %zu)",
			 (long long)id, w, n);
		free(w);
		return CMD_FAILED;
	}
	a = &v[k - 1];
	if (!strcmp(path, "-"))
		rc = to_stdout(ctx, a);
	else
		rc = attachment_write_file(path, a->info.data, a->info.size,
					   force, &ctx->err) < 0
			? CMD_FAILED
			: CMD_OK;
	if (rc == CMD_OK && attachment_saved(ctx->sess, id, a, &ctx->err) < 0)
		return CMD_FAILED;
	if (rc == CMD_OK && strcmp(path, "-")) {
		char *o = safe_str(path);
		cmd_say(ctx,
			"report %lld: attachment %zu saved to %s (%zu bytes%s)",
			(long long)id, a->number, o, a->info.size,
			a->info.exploit ? ", exploit code: recorded" : "");
		free(o);
	}
	return rc;
}

static int cmd_attachment_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct report_attachment *v;
	const char *out = NULL;
	bool json = false, force = false;
	size_t n, unopened;
	int64_t id;
	int c, rc;

	while ((c = cmd_getopt(ctx, argc, argv)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'f':
			force = true;
			break;
		case 'j':
			json = true;
			break;
		default:
			return cmd_usage(ctx, "attachment");
		}
	}
	if ((c = cmd_report(ctx, "attachment", argc, argv, &id)) != 0)
		return c;
	if (argc - optind == 1 && !out) {
		err_setc(
			&ctx->err, ERR_INVALID,
			"attachment: say where it goes: -o FILE (a name of your "
			"choosing; -o - for standard output)");
		return CMD_USAGE;
	}
	if ((argc - optind != 0 && argc - optind != 1) ||
	    (argc - optind == 0 && (out || force)) || (out && json))
		return cmd_usage(ctx, "attachment");
	if (report_attachments(ctx->sess, id, &v, &n, &unopened, &ctx->err) < 0)
		return CMD_FAILED;
	if (unopened)
		fprintf(ctx->errout,
			"warning: report %lld: %zu message%s cannot be "
			"opened (see show %lld); %s attachments are not here\n",
			(long long)id, unopened, unopened == 1 ? "" : "s",
			(long long)id, unopened == 1 ? "its" : "their");
	rc = CMD_OK;
	if (out)
		rc = save(ctx, id, v, n, argv[optind], out, force);
	else
		print_list(ctx, v, n, json);
	report_attachments_free(v, n);
	return rc;
}

/* `attachment` in the command table (cmd/cmd.c); its options, each declared
 * once: parsed by cmd_getopt, shown by --help, the usage, the man page. */
static const struct cmd_opt opts[] = {
	{ .name = "output",
	  .key = 'o',
	  .letter = 'o',
	  .arg = "FILE",
	  .help = "save attachment N to FILE (0600; - for standard output, not a terminal)" },
	{ .name = "force",
	  .key = 'f',
	  .help = "replace an existing FILE (atomically; a symbolic link is still refused)" },
	{ .name = "json", .key = 'j', .help = "the list as a JSON array" },
	{ NULL },
};
static const char *const examples[] = { "attachment 3 2 -o repro-3.c", NULL };
const struct cmd_entry cmd_attachment_entry = {
	.name = "attachment",
	.usage = "ID [N]",
	.help = "list a report's attachments, or save one to a file",
	.exec = cmd_attachment_exec,
	.opts = opts,
	.target = CMD_TARGET_REPORT,
	.exit1 =
		"no such report or attachment, the file exists or is a link, or it cannot be written",
	.examples = examples,
};
