/*
 * `note ID [TEXT]`: an internal note on a report's timeline (a note
 * event, through triage_apply).  Without TEXT the note is written in the
 * officer's editor (cmd_edit: $VISUAL/$EDITOR; the UI's E key runs this
 * command and suspends curses meanwhile); an empty note records nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/core.h"

static int cmd_note_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct triage_change c;
	char *text = NULL, *summary = NULL;
	int r;

	if (cmd_getopt(ctx, argc, argv) != -1)
		return cmd_usage(ctx, "note");
	memset(&c, 0, sizeof(c));
	if ((r = cmd_report(ctx, "note", argc, argv, &c.id)) != 0)
		return r;
	if (argc - optind > 1)
		return cmd_usage(ctx, "note");
	if (optind < argc) {
		text = xstrdup(argv[optind]);
	} else if (cmd_edit(ctx, "note", "", &text) < 0) {
		err_prefix(&ctx->err, "nothing recorded");
		return CMD_FAILED;
	}
	str_trim(text);
	if (!*text) {
		wipe_free(text, strlen(text));
		err_setc(&ctx->err, ERR_INVALID,
			 "report %lld: empty note: nothing recorded",
			 (long long)c.id);
		return CMD_FAILED;
	}
	c.note = text;
	r = triage_apply(ctx->sess, &c, &summary, &ctx->err);
	wipe_free(text, strlen(text));
	if (r < 0)
		return CMD_FAILED;
	free(summary);
	cmd_say(ctx, "note added to report %lld", (long long)c.id);
	return CMD_OK;
}

/* `note` in the command table (cmd/cmd.c). */
static const char *const examples[] = {
	"note 3 'asked the reporter for a reproducer'", NULL
};
const struct cmd_entry cmd_note_entry = {
	.name = "note",
	.usage = "ID [TEXT]",
	.help = "an internal note on the report's timeline (no TEXT: written in $VISUAL/$EDITOR)",
	.exec = cmd_note_exec,
	.target = CMD_TARGET_REPORT,
	.exit1 = "the editor failed, the note was empty, or no such report",
	.examples = examples,
};
