/*
 * `show ID [--json]`: the report's headers and trust status, then each
 * message of its thread decrypted and sanitized, its touched files and
 * its events.
 *
 * Every line of a message body is printed behind a gutter the program
 * alone writes: "| " for text, "! " for text the signature (or the
 * encryption) the verdict speaks of does not cover.  Our own lines
 * (headers, "--- message ...", "[attachment ...]", events) never start
 * with either, so no body can pass itself off as them.  Senders are
 * shown address first, with what their display names may hide.
 *
 * --json gives the structured form (no body: the JSON is for scripts and
 * status bars, the body stays behind `show`); like `show`, it re-opens
 * the messages to name the signer, every From mailbox and the files that
 * are not the report's: those only unsigned parts touch, and those of a
 * reply that is not the reporter's signed text (report_open_thread).
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "export/export.h"
#include "core/core.h"
#include "core/fixcve.h"
#include "core/json.h"

/* The thread's messages, opened (or why not). */
struct opened {
	struct opened_message *om;
	char **why; /* per message: NULL when opened */
	size_t n;
};

static void open_all(struct cmd_ctx *ctx, const struct report_full *rf,
		     struct opened *o)
{
	o->n = rf->nmsgs;
	o->om = xcalloc(o->n + 1, sizeof(*o->om));
	o->why = xcalloc(o->n + 1, sizeof(*o->why));
	for (size_t i = 0; i < o->n; i++) {
		struct err err = { 0, "" };

		if (report_open_thread(ctx->sess, rf, i, &o->om[i], &err) < 0)
			o->why[i] = xstrdup(err.msg);
	}
}

static void opened_release(struct opened *o)
{
	for (size_t i = 0; i < o->n; i++) {
		opened_message_release(&o->om[i]);
		free(o->why[i]);
	}
	free(o->om);
	free(o->why);
}

static void field(FILE *out, const char *name, const char *value)
{
	char *v = safe_str(value);

	fprintf(out, "%-20s %s\n", name, *v ? v : "-");
	free(v);
}

/* An already display-safe value. */
static void field_safe(FILE *out, const char *name, const char *v)
{
	fprintf(out, "%-20s %s\n", name, v && *v ? v : "-");
}

/* "Fix" and "CVE": each fix's commit and first tag, each CVE ID with
 * its state and, when it names some, the fixes it covers (fixcve.h);
 * one line each. */
static void print_fixcve(FILE *out, const struct report_full *rf)
{
	struct fixcve fc;
	char *s;

	fixcve_fold(rf->events, rf->nevents, &fc);
	for (size_t i = 0; i < fc.nfixes; i++) {
		const struct fix_entry *f = &fc.fixes[i];
		s = xasprintf("%s (%s%s, %zu introducing, %zu backports)",
			      f->fix.sha, f->fix.tag ? "first in " : "",
			      f->fix.tag		? f->fix.tag
				      : f->tree_checked ? "no tag yet"
							: "unchecked",
			      f->nintroduced, f->nbackports);
		field(out, "Fix", s);
		free(s);
	}
	if (!fc.nfixes)
		field(out, "Fix", NULL);
	for (size_t i = 0; i < fc.ncves; i++) {
		const struct cve_entry *c = &fc.cves[i];
		struct sbuf sb = SBUF_INIT;
		const char *sep = "; fixes ";
		sbuf_addf(&sb, "%s (%s", c->id, c->state);
		for (size_t k = 0; c->nfixes && k < fc.nfixes; k++)
			if (fixcve_covers(c, fc.fixes[k].fix.sha)) {
				sbuf_addf(&sb, "%s%.12s", sep,
					  fc.fixes[k].fix.sha);
				sep = ", ";
			}
		sbuf_addch(&sb, ')');
		field(out, "CVE", sb.buf);
		sbuf_release(&sb);
	}
	if (!fc.ncves)
		field(out, "CVE", NULL);
	fixcve_release(&fc);
	s = cvss_events_format(rf->events, rf->nevents);
	if (s)
		field(out, "CVSS", s);
	free(s);
}

/* "Name <addr> (valid)" for a user ID the keyring vouches for; else
 * our words first, the key's own claim quoted after them.  NULL when
 * unsigned or the key is unknown. */
static char *signer_text(const struct opened_message *om)
{
	char *u, *s;

	if (!om->signer)
		return NULL;
	u = safe_str(om->signer);
	if (om->signer_valid)
		s = xasprintf("%s (valid)", u);
	else
		s = xasprintf("no certified user ID (the key says \"%s\")", u);
	free(u);
	return s;
}

static void print_files(FILE *out, const char *name, char *const *files,
			size_t n)
{
	fprintf(out, "%-20s", name);
	for (size_t i = 0; i < n; i++) {
		char *f = safe_str(files[i]);
		fprintf(out, " %s", f);
		free(f);
	}
	fputc('\n', out);
}

/* Attachments are numbered across the thread (`attachment ID N`):
 * *natt is how many earlier messages showed. */
static void print_message(FILE *out, const struct message *m, size_t i,
			  size_t n, const struct opened *o, size_t *natt)
{
	const struct opened_message *om = &o->om[i];
	struct body_line *lines;
	size_t nl;
	char when[32], *from;

	if (o->why[i]) {
		char *f = safe_str(m->from_email), *e = safe_str(o->why[i]);
		/* Checked by nobody: not the verdict its row claims. */
		fprintf(out, "\n--- message %zu of %zu from %s, %s, %s%s ---\n",
			i + 1, n, f,
			m->date ? fmt_rfc3339(m->date, when) : "no date",
			sig_verdict_name(SIG_ERROR),
			m->encrypted ? ", encrypted" : "");
		if (m->message_id_reused)
			fputs("[warning: another message, with other content, carries this message's Message-ID: see the message-id-reused events]\n",
			      out);
		fprintf(out, "[cannot open this message: %s]\n", e);
		free(f);
		free(e);
		return;
	}
	from = senders_format(om->from, om->nfrom);
	/* This opening's verdict, never the row's: the row's is only what
	 * whoever stored it said. */
	fprintf(out, "\n--- message %zu of %zu from %s, %s, %s%s%s%s ---\n",
		i + 1, n, from,
		m->date ? fmt_rfc3339(m->date, when) : "no date",
		sig_verdict_name(om->verdict),
		om->verified_now ? "" : " (as recorded at import)",
		m->encrypted ? ", encrypted" : "",
		om->nunsigned ? "; lines marked ! are not signed" : "");
	free(from);
	if (m->message_id_reused)
		fputs("[warning: another message, with other content, carries this message's Message-ID: see the message-id-reused events]\n",
		      out);
	nl = opened_message_lines(om, &lines);
	for (size_t k = 0; k < nl; k++) {
		char *t = safe_text(lines[k].s, lines[k].len, SAFE_KEEP_TAB);
		fprintf(out, "%s %s\n", lines[k].unsigned_text ? "!" : "|", t);
		wipe_free(t, strlen(t));
	}
	free(lines);
	for (size_t k = 0; k < om->natt; k++) {
		const struct attachment_info *a = &om->att[k];
		char *fn = safe_str(a->filename ? a->filename : "(unnamed)");
		char *ct = safe_str(a->content_type);
		fprintf(out, "[attachment %zu: %s, %s, %zu bytes%s%s]\n",
			++*natt, fn, ct, a->size,
			a->exploit ? ", EXPLOIT CODE" : "",
			a->unsigned_part ? ", NOT SIGNED" : "");
		free(fn);
		free(ct);
	}
}

/* The embargo state in embargo.c's words, as the UI and exports say it. */
static void print_embargo(struct cmd_ctx *ctx, const struct report *r)
{
	struct policy pol;
	struct embargo e;
	char b[160];

	policy_from_config(ctx->sess->cfg, &pol);
	embargo_of_report(&pol, r, util_now(), &e);
	field(ctx->out, "Embargo", embargo_describe(&e, b));
}

/* The events as a table: a long officer name is cut with "…", a long
 * kind (participant-add) widens its column instead of pushing the
 * detail out of line. */
static void print_events(FILE *out, const struct report_full *rf)
{
	static const char *const head[] = { "WHEN", "OFFICER", "KIND",
					    "DETAIL" };
	static const int max[] = { 0, 16, 24, 0 };
	struct text_table tab;
	char buf[32];

	text_table_init(&tab, 4, head, max);
	for (size_t i = 0; i < rf->nevents; i++) {
		char *ofc = safe_str(rf->events[i].officer),
		     *k = safe_str(rf->events[i].kind),
		     *d = safe_str(rf->events[i].detail);
		const char *row[] = { fmt_rfc3339(rf->events[i].at, buf), ofc,
				      k, d };
		text_table_add(&tab, row);
		free(ofc);
		free(k);
		free(d);
	}
	if (tab.nrows)
		text_table_print(&tab, out);
	text_table_release(&tab);
}

/* "Duplicate of N" for a duplicate (one marked before links were
 * recorded says so), "Duplicates 4, 7" for an original. */
static void print_duplicates(FILE *out, const struct report_full *rf)
{
	struct sbuf sb = SBUF_INIT;

	if (rf->duplicate_of)
		fprintf(out, "%-20s %lld\n", "Duplicate of",
			(long long)rf->duplicate_of);
	else if (!strcmp(rf->r.state, "duplicate"))
		fprintf(out,
			"%-20s not recorded (triage %lld --of N records it)\n",
			"Duplicate of", (long long)rf->r.id);
	for (size_t i = 0; i < rf->nduplicates; i++)
		sbuf_addf(&sb, "%s%lld", i ? ", " : "",
			  (long long)rf->duplicates[i]);
	if (sb.len)
		fprintf(out, "%-20s %s\n", "Duplicates", sb.buf);
	sbuf_release(&sb);
}

static void print_text(struct cmd_ctx *ctx, const struct report_full *rf,
		       const struct opened *o)
{
	FILE *out = ctx->out;
	const struct message *first = rf->nmsgs ? &rf->msgs[0] : NULL;
	const struct opened_message *fom = first && !o->why[0] ? &o->om[0]
							       : NULL;
	char buf[64], lbuf[64], *s;

	fprintf(out, "%-20s %lld\n", "Report", (long long)rf->r.id);
	field(out, "Subject", rf->r.subject);
	if (fom && fom->nfrom)
		s = senders_format(fom->from, fom->nfrom);
	else
		s = sender_format(rf->r.reporter_name, rf->r.reporter_email);
	field_safe(out, "Reporter", s);
	free(s);
	fprintf(out, "%-20s %s (%s)\n", "Received",
		fmt_rfc3339(rf->r.received, buf),
		fmt_local(rf->r.received, lbuf));
	field(out, "State", rf->r.state);
	print_duplicates(out, rf);
	field(out, "Severity", rf->r.severity);
	field(out, "Claimed by", rf->r.claimed_by);
	field(out, "Already public", rf->r.public ? "yes" : "no");
	/* This opening's verdict (verified again from the stored bytes),
	 * and its trust class: the rule every display follows. */
	/* A first message that does not open (moved, altered, no key) is
	 * checked by nobody: never the verdict its row claims. */
	enum sig_verdict v = fom ? fom->verdict : first ? SIG_ERROR : SIG_NONE;
	bool matches = fom && fom->signer_matches_from;
	field(out, "Verdict", first ? sig_verdict_name(v) : "-");
	s = fom ? signer_text(fom) : NULL;
	field_safe(out, "Signer", s);
	free(s);
	field(out, "Fingerprint", first ? first->fingerprint : NULL);
	field(out, "Signer matches From", first && matches ? "yes" : "no");
	field(out, "Trust",
	      first ? report_trust_name(report_trust_class(v, matches)) : NULL);
	field(out, "Encrypted", rf->r.encrypted ? "yes" : "no");
	if (rf->r.disclosure)
		fprintf(out, "%-20s %s (%s)\n", "Disclosure",
			fmt_rfc3339(rf->r.disclosure, buf),
			fmt_local(rf->r.disclosure, lbuf));
	else
		field(out, "Disclosure", NULL);
	print_embargo(ctx, &rf->r);
	print_fixcve(out, rf);
	print_files(out, "Files", rf->files, rf->nfiles);
	/* Apart: the files of unsigned parts and of unsigned replies; a
	 * reply signed by someone else than the reporter is not unsigned,
	 * and its files are not the report's either. */
	for (size_t i = 0; i < o->n; i++)
		if (o->om[i].nfiles_unsigned) {
			enum sig_verdict v = o->om[i].verdict;
			/* Named by the message they come from, which a bare
			 * number would read as a count. */
			char *name = xasprintf(
				v == SIG_VALID || v == SIG_GOOD
					? "Others' files (message %zu)"
					: "Unsigned files (message %zu)",
				i + 1);
			print_files(out, name, o->om[i].files_unsigned,
				    o->om[i].nfiles_unsigned);
			free(name);
		}
	for (size_t i = 0, natt = 0; i < rf->nmsgs; i++)
		print_message(out, &rf->msgs[i], i, rf->nmsgs, o, &natt);
	fputs("\n--- events ---\n", out);
	print_events(out, rf);
}

static json_t *files_json(char *const *files, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_text(files[i]));
	return a;
}

static json_t *senders_json(const struct opened_message *om)
{
	json_t *a = json_array();

	for (size_t i = 0; i < om->nfrom; i++)
		json_array_append_new(
			a, sender_json(om->from[i].name, om->from[i].email));
	return a;
}

/* Stretches of text and attachments the verdict does not cover. */
static size_t unsigned_parts(const struct opened_message *om)
{
	size_t n = om->nunsigned;

	for (size_t k = 0; k < om->natt; k++)
		n += om->att[k].unsigned_part;
	return n;
}

/* What only opening the messages tells, added to report_full_json's. */
static void add_opened_json(json_t *o, const struct report_full *rf,
			    const struct opened *op)
{
	json_t *reporter = json_object_get(o, "reporter");
	json_t *sig = json_object_get(o, "signature");
	json_t *msgs = json_object_get(o, "messages_detail");
	json_t *unsigned_files = json_array();

	json_t *sj = sender_json(rf->r.reporter_name, rf->r.reporter_email);

	json_object_set(reporter, "warnings", json_object_get(sj, "warnings"));
	json_decref(sj);
	for (size_t i = 0; i < op->n; i++) {
		const struct opened_message *om = &op->om[i];
		json_t *m = json_array_get(msgs, i);

		if (op->why[i]) {
			/* Checked by nobody: not the verdict its row claims. */
			json_object_set_new(m, "open_error",
					    json_text(op->why[i]));
			json_object_set_new(m, "verdict", json_string("error"));
			json_object_set_new(m, "verified", json_false());
			if (i == 0) {
				/* Checked by nobody: not the row's verdict. */
				json_object_set_new(sig, "verdict",
						    json_string("error"));
				json_object_set_new(sig, "signer_matches_from",
						    json_false());
				json_object_set_new(sig, "trust",
						    json_string("bad"));
			}
			continue;
		}
		/* The verdict of this opening (verified again, or tampered),
		 * over the stored one. */
		json_object_set_new(m, "verdict",
				    json_string(sig_verdict_name(om->verdict)));
		json_object_set_new(m, "verified",
				    json_boolean(om->verified_now));
		json_object_set_new(m, "senders", senders_json(om));
		json_object_set_new(m, "signer", json_text(om->signer));
		json_object_set_new(m, "signer_valid",
				    json_boolean(om->signer_valid));
		json_object_set_new(m, "unsigned_text",
				    json_boolean(om->nunsigned > 0));
		json_object_set_new(
			m, "unsigned_parts",
			json_integer((json_int_t)unsigned_parts(om)));
		json_object_set_new(m, "files_unsigned",
				    files_json(om->files_unsigned,
					       om->nfiles_unsigned));
		for (size_t k = 0; k < om->nfiles_unsigned; k++)
			json_array_append_new(unsigned_files,
					      json_text(om->files_unsigned[k]));
		if (i == 0) {
			json_object_set_new(
				sig, "verdict",
				json_string(sig_verdict_name(om->verdict)));
			json_object_set_new(
				sig, "signer_matches_from",
				json_boolean(om->signer_matches_from));
			json_object_set_new(
				sig, "trust",
				json_string(report_trust_name(report_trust_class(
					om->verdict, om->signer_matches_from))));
			json_object_set_new(o, "senders", senders_json(om));
			json_object_set_new(sig, "signer",
					    json_text(om->signer));
			json_object_set_new(sig, "signer_valid",
					    json_boolean(om->signer_valid));
		}
	}
	json_object_set_new(o, "files_unsigned", unsigned_files);
}

static int cmd_show_exec(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct report_full rf;
	struct opened o;
	bool json = false;
	int64_t id;
	int c;

	while ((c = cmd_getopt(ctx, argc, argv)) != -1) {
		if (c == 'j')
			json = true;
		else
			return cmd_usage(ctx, "show");
	}
	if ((c = cmd_report(ctx, "show", argc, argv, &id)) != 0)
		return c;
	if (optind != argc)
		return cmd_usage(ctx, "show");
	if (report_load(ctx->sess, id, &rf, &ctx->err) < 0) {
		report_full_release(&rf);
		return CMD_FAILED;
	}
	cmd_say_hidden(ctx, &rf);
	open_all(ctx, &rf, &o);
	if (json) {
		json_t *j = report_full_json(ctx->sess, &rf);
		add_opened_json(j, &rf, &o);
		json_print(ctx->out, j);
		json_decref(j);
	} else {
		print_text(ctx, &rf, &o);
	}
	opened_release(&o);
	report_full_release(&rf);
	return CMD_OK;
}

/* `show` in the command table (cmd/cmd.c); its options, each declared
 * once: parsed by cmd_getopt, shown by --help, the usage, the man page. */
static const struct cmd_opt opts[] = {
	{ .name = "json",
	  .key = 'j',
	  .help = "a JSON object (without the body) instead of the text" },
	{ NULL },
};
static const char *const examples[] = { "show 3", NULL };
const struct cmd_entry cmd_show_entry = {
	.name = "show",
	.usage = "ID",
	.help = "show a report: headers, verdict, decrypted body, files, events",
	.exec = cmd_show_exec,
	.opts = opts,
	.target = CMD_TARGET_REPORT,
	.exit1 = "no such report, or it cannot be read",
	.examples = examples,
};
