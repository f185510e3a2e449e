/*
 * `show ID [--json]`: the report's headers and trust status, then each
 * message of its thread decrypted and sanitized, its touched files and
 * its events.  --json gives the structured form (no body: the JSON is
 * for scripts and status bars, the body stays behind `show`).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/json.h"

static void field(FILE *out, const char *name, const char *value)
{
	char *v = safe_str(value);

	fprintf(out, "%-20s %s\n", name, *v ? v : "-");
	free(v);
}

static void print_message(struct cmd_ctx *ctx, const struct message *m)
{
	FILE *out = ctx->out;
	struct opened_message om;
	struct err err = { 0, "" };
	char when[32];

	fprintf(out, "\n--- message %lld ", (long long)m->id);
	{
		char *from = safe_str(m->from_email);
		fprintf(out, "from %s, %s, %s%s ---\n", from,
			m->date ? fmt_rfc3339(m->date, when) : "no date", m->verdict,
			m->encrypted ? ", encrypted" : "");
		free(from);
	}
	if (m->message_id_reused)
		fputs("[warning: another message, with other content, carries this message's Message-ID: see the message-id-reused events]\n",
		      out);
	if (report_open_message(ctx, m->id, &om, &err) < 0) {
		char *e = safe_str(err.msg);
		fprintf(out, "[cannot open this message: %s]\n", e);
		free(e);
		return;
	}
	char *body = safe_text(om.body ? om.body : "", om.body_len,
			       SAFE_KEEP_NEWLINE | SAFE_KEEP_TAB);
	fputs(body, out);
	if (om.body_len && om.body[om.body_len - 1] != '\n')
		fputc('\n', out);
	wipe_free(body, strlen(body));
	for (size_t i = 0; i < om.natt; i++) {
		char *fn = safe_str(om.att[i].filename ? om.att[i].filename : "(unnamed)");
		char *ct = safe_str(om.att[i].content_type);
		fprintf(out, "[attachment %zu: %s, %s, %zu bytes%s]\n", i + 1, fn,
			ct, om.att[i].size, om.att[i].exploit ? ", EXPLOIT CODE" : "");
		free(fn);
		free(ct);
	}
	opened_message_release(&om);
}

int cmd_show_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	struct report_full rf;
	bool json = false;
	int64_t id;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'j')
			json = true;
		else
			return cmd_usage(ctx, "show");
	}
	if (optind != argc - 1)
		return cmd_usage(ctx, "show");
	if (parse_report_id(argv[optind], &id, &ctx->err) < 0)
		return CMD_USAGE;
	if (report_load(ctx, id, &rf, &ctx->err) < 0) {
		report_full_release(&rf);
		return CMD_FAILED;
	}
	if (json) {
		json_t *j = report_full_json(ctx, &rf);
		json_print(ctx->out, j);
		json_decref(j);
		report_full_release(&rf);
		return CMD_OK;
	}
	FILE *out = ctx->out;
	const struct message *first = rf.nmsgs ? &rf.msgs[0] : NULL;
	char buf[64], lbuf[64];
	fprintf(out, "%-20s %lld\n", "Report", (long long)rf.r.id);
	field(out, "Subject", rf.r.subject);
	{
		char *who = xasprintf("%s <%s>", rf.r.reporter_name ? rf.r.reporter_name : "",
				      rf.r.reporter_email ? rf.r.reporter_email : "");
		field(out, "Reporter", who);
		free(who);
	}
	fprintf(out, "%-20s %s (%s)\n", "Received", fmt_rfc3339(rf.r.received, buf),
		fmt_local(rf.r.received, lbuf));
	field(out, "State", rf.r.state);
	field(out, "Severity", rf.r.severity);
	field(out, "Claimed by", rf.r.claimed_by);
	field(out, "Already public", rf.r.public ? "yes" : "no");
	field(out, "Verdict", first ? first->verdict : "-");
	field(out, "Fingerprint", first ? first->fingerprint : NULL);
	field(out, "Signer matches From", first && first->signer_matches_from ? "yes" : "no");
	field(out, "Encrypted", rf.r.encrypted ? "yes" : "no");
	if (rf.r.disclosure)
		fprintf(out, "%-20s %s (%s)\n", "Disclosure", fmt_rfc3339(rf.r.disclosure, buf),
			fmt_local(rf.r.disclosure, lbuf));
	else
		field(out, "Disclosure", NULL);
	fprintf(out, "%-20s", "Files");
	for (size_t i = 0; i < rf.nfiles; i++) {
		char *f = safe_str(rf.files[i]);
		fprintf(out, " %s", f);
		free(f);
	}
	fputc('\n', out);
	for (size_t i = 0; i < rf.nmsgs; i++)
		print_message(ctx, &rf.msgs[i]);
	fputs("\n--- events ---\n", out);
	for (size_t i = 0; i < rf.nevents; i++) {
		char *o = safe_str(rf.events[i].officer), *k = safe_str(rf.events[i].kind),
		     *d = safe_str(rf.events[i].detail);
		fprintf(out, "%s  %-10s %-12s %s\n", fmt_rfc3339(rf.events[i].at, buf), o, k, d);
		free(o);
		free(k);
		free(d);
	}
	report_full_release(&rf);
	return CMD_OK;
}
