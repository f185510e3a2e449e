/*
 * The two notices about a report beyond its thread's people:
 *
 * distros: the notice to the linux-distros list, under embargo.  The
 * list's rules, each refusing the notice by name: the report is not
 * public (a public issue goes to oss-security: announce), its fix is not
 * in a released tree (`fix --tree` found a tag holding it: announce
 * too), a fix exists (state fix-ready, or `fix --commit` recorded), and
 * the proposed public date is at most 14 days away.  The list is a vendor of the
 * directory (distros.vendor, default "linux-distros"): its contact and
 * key, unless distros.address / distros.key say otherwise.  The notice
 * is encrypted to the list's key (and the officer's and the roster's for
 * the stored copy), its subject tagged (distros.subject_tag, "[vs]"),
 * its body the `distros` template; sending it records the list's vendor
 * status as notified, which starts its clock.
 *
 * announce: the public post for oss-security once the embargo is over:
 * refused while the report is embargoed, never encrypted, the `announce`
 * template; credit only as consented, exploit code never attached.
 *
 * Both are redacted as the exports are: no reporter identity without
 * consent, and no References to the reporter's messages.
 *
 * What those lists expect, as template fields (beside id, subject,
 * officer, team, affected (the files), fix, fix_commit, cve,
 * disclosure_date, credit, exploit):
 *   description  the record's description (`cve --description`),
 *                redacted, else the subject
 *   versions     the versions affected, read from the tree's tags
 *                (affected_text: a version is fixed once it holds every
 *                fix), or why they are not known
 *   fixes        each fix commit, one a line, with the first tag that
 *                holds it (or why none) and its subject, then its stable
 *                backports with theirs
 *   cves         each CVE ID with its state (rejected ones too)
 *   timeline     one line a step, oldest first: reported, each fix
 *                recorded, each CVE ID reserved, the list notified,
 *                disclosed, announced; then the proposed public date
 *                while it is ahead
 * Each always has a value, so the shipped templates compose in every
 * state the rules let through.
 */
#include <stdlib.h>
#include <string.h>

#include "core/affected.h"
#include "core/core.h"
#include "core/fixcve.h"
#include "core/ktree.h"
#include "mail/mail.h"
#include "outgoing/send.h"
#include "core/vendor.h"

#define DISTROS_MAX_DAYS 14

static const char *verb(enum notice_kind k)
{
	return k == NOTICE_DISTROS ? "send report %lld to linux-distros"
				   : "announce report %lld";
}

static char *what(enum notice_kind k, int64_t id)
{
	char *v = xasprintf(verb(k), (long long)id),
	     *w = xasprintf("cannot %s", v);

	free(v);
	return w;
}

/* The proposed public date: the decided one, else the latest proposal. */
static time_t proposed_date(const struct dossier *dos)
{
	if (dos->f.r.disclosure)
		return dos->f.r.disclosure;
	return dos->nproposals ? dos->proposals[dos->nproposals - 1].date : 0;
}

static int distros_rules(struct session *sess, const struct dossier *dos,
			 struct err *err)
{
	const struct report *r = &dos->f.r;
	struct fixcve fc;
	bool has_fix = false, released = false;
	char tag[64] = "";
	long long id = (long long)r->id;
	time_t date = proposed_date(dos);
	char when[32], in[32];

	if (r->public || report_state_class(r->state) == STATE_RELEASED)
		return err_setc(
			err, ERR_REFUSED,
			"cannot send report %lld to linux-distros: rule "
			"'not public': the report is %s, and the list only "
			"takes issues under embargo; post it to oss-security "
			"instead: announce %lld",
			id, r->public ? "marked public" : r->state, id);
	if (report_state_class(r->state) == STATE_DROPPED)
		return err_setc(
			err, ERR_REFUSED,
			"cannot send report %lld to linux-distros: rule 'an "
			"open issue': the report is %s; there is nothing to "
			"coordinate",
			id, r->state);
	if (date && date < dos->now)
		return err_setc(
			err, ERR_REFUSED,
			"cannot send report %lld to linux-distros: rule 'a "
			"date ahead': its public date %s passed %ld day%s ago, "
			"so the embargo is due; disclose it and post it to "
			"oss-security instead: announce %lld",
			id, fmt_rfc3339(date, when),
			days_between(date, dos->now),
			days_between(date, dos->now) == 1 ? "" : "s", id);
	if (fixcve_get(sess, r->id, &fc, err) < 0)
		return -1;
	has_fix = fc.nfixes > 0;
	/* A fix checked in the kernel tree and in a tagged release: public. */
	for (size_t i = 0; i < fc.nfixes && !released; i++)
		if (fc.fixes[i].tree_checked && fc.fixes[i].fix.tag) {
			released = true;
			snprintf(tag, sizeof(tag), "%s", fc.fixes[i].fix.tag);
		}
	fixcve_release(&fc);
	if (released)
		return err_setc(
			err, ERR_REFUSED,
			"cannot send report %lld to linux-distros: rule 'fix "
			"not public': its fix is in the released tree (%s), so "
			"the issue is public; post it to oss-security instead: "
			"announce %lld",
			id, tag, id);
	if (strcmp(r->state, "fix-ready") && !has_fix)
		return err_setc(
			err, ERR_REFUSED,
			"cannot send report %lld to linux-distros: rule 'a fix "
			"must exist': the report is %s, not fix-ready, and no fix "
			"is recorded (fix %lld --commit SHA, or triage %lld "
			"--state fix-ready)",
			id, r->state, id, id);
	if (!date)
		return err_setc(
			err, ERR_REFUSED,
			"cannot send report %lld to linux-distros: rule 'a "
			"proposed public date': the report has none (date "
			"propose %lld DATE ... or date set %lld DATE)",
			id, id, id);
	if (date > dos->now + (time_t)DISTROS_MAX_DAYS * 86400)
		return err_setc(
			err, ERR_REFUSED,
			"cannot send report %lld to linux-distros: rule 'at "
			"most %d days': the proposed public date %s is more "
			"than %d days away (%s)",
			id, DISTROS_MAX_DAYS, fmt_rfc3339(date, when),
			DISTROS_MAX_DAYS,
			fmt_in_days(days_between(dos->now, date), in));
	return 0;
}

/* The list: its address and key (the directory's vendor, the config). */
static int distros_list(struct session *sess, const struct dossier *dos,
			struct reply_draft *d, struct err *err)
{
	struct vendor v;
	struct err e = { 0, "" };
	const char *name =
		config_get(sess->cfg, "distros.vendor", "linux-distros");
	const char *addr = config_get(sess->cfg, "distros.address", NULL);
	const char *key = config_get(sess->cfg, "distros.key", NULL);
	char *why = NULL;
	int r;

	memset(&v, 0, sizeof(v));
	if (vendors_get(sess, name, &v, &e) == 0) {
		addr = addr ? addr : v.contact;
		key = key ? key : v.key_fpr;
	}
	d->to_email = xstrdup(addr ? addr : "linux-distros@vs.openwall.org");
	if (!key) {
		vendor_release(&v);
		return err_setc(
			err, ERR_REFUSED,
			"cannot send report %lld to linux-distros: no key for "
			"the list: set distros.key in the config, or vendor add "
			"%s --contact %s --key FPR --kind distro",
			(long long)dos->f.r.id, name, d->to_email);
	}
	r = outgoing_key(session_crypto(sess, err), "send to linux-distros",
			 dos->f.r.id, d->to_email, key, &d->fpr, &why, err);
	if (r == ERR_NOTFOUND)
		r = err_setc(
			err, ERR_REFUSED,
			"cannot send report %lld to linux-distros: the list's "
			"key is not usable (%s)",
			(long long)dos->f.r.id, why);
	free(why);
	vendor_release(&v);
	return r;
}

/* The Affected line: the report's public files (dossier_public_files). */
static char *files_text(struct session *sess, const struct dossier *dos)
{
	struct sbuf sb = SBUF_INIT;
	char **files;
	size_t n = dossier_public_files(sess, dos, &files);

	for (size_t i = 0; i < n; i++) {
		sbuf_addf(&sb, "%s%s", i ? ", " : "", files[i]);
		free(files[i]);
	}
	free(files);
	if (!sb.len)
		sbuf_adds(&sb,
			  "files not named (neither by a fix recorded with "
			  "its tree nor by the reporter's signed mail)");
	return sbuf_detach(&sb, NULL);
}

/* A commit and its first tag, for {fixes}. */
static void commit_line(struct sbuf *sb, const char *indent, const char *what,
			const struct fix_commit *c, bool checked)
{
	sbuf_addf(sb, "%s%s%s (%s%s", indent, what, c->sha,
		  c->tag ? "first in " : "",
		  c->tag	    ? c->tag
			  : checked ? "in no tagged release yet"
				    : "not checked in a kernel tree");
	if (c->branch)
		sbuf_addf(sb, ", %s", c->branch);
	sbuf_adds(sb, ")");
	if (c->subject)
		sbuf_addf(sb, " %s", c->subject);
	sbuf_addch(sb, '\n');
}

/* {fixes}: each fix commit, then its backports, one a line. */
static char *fixes_text(const struct fixcve *fc)
{
	struct sbuf sb = SBUF_INIT;

	for (size_t i = 0; i < fc->nfixes; i++) {
		const struct fix_entry *f = &fc->fixes[i];
		commit_line(&sb, "  ", "", &f->fix, f->tree_checked);
		for (size_t b = 0; b < f->nbackports; b++)
			commit_line(&sb, "    ", "backport ", &f->backports[b],
				    true);
	}
	if (!sb.len)
		sbuf_adds(&sb, "  none recorded yet\n");
	sb.buf[--sb.len] = '\0';
	return sbuf_detach(&sb, NULL);
}

/* {versions}: from the tree's tags, when a fix was checked in one. */
static char *versions_text(const struct fixcve *fc)
{
	bool checked = false;
	char *t;

	for (size_t i = 0; i < fc->nfixes; i++)
		checked = checked || fc->fixes[i].tree_checked;
	if (!checked)
		return xstrdup(
			fc->nfixes
				? "not known: the fix was not checked in a kernel tree"
				: "not known: no fix is recorded");
	t = affected_text(fc);
	return t ? t : xstrdup("not known");
}

/* {cves}: "CVE-... (state), ..." or "none assigned". */
static char *cves_text(const struct fixcve *fc)
{
	struct sbuf sb = SBUF_INIT;

	for (size_t i = 0; i < fc->ncves; i++)
		sbuf_addf(&sb, "%s%s (%s)", i ? ", " : "", fc->cves[i].id,
			  fc->cves[i].state);
	if (!sb.len)
		sbuf_adds(&sb, "none assigned");
	return sbuf_detach(&sb, NULL);
}

static void step(struct sbuf *sb, time_t at, const char *fmt, const char *arg)
{
	char b[32];

	sbuf_addf(sb, "  %.10s  ", fmt_rfc3339(at, b));
	sbuf_addf(sb, fmt, arg);
	sbuf_addch(sb, '\n');
}

/* {timeline}: the report's steps the lists care about, oldest first;
 * nothing of the reporter's but the date they reported. */
static char *timeline_text(const struct dossier *dos, time_t date)
{
	const struct report *r = &dos->f.r;
	struct sbuf sb = SBUF_INIT, seen = SBUF_INIT;
	bool disclosed = false;

	step(&sb, r->received, "%sreported to the security team", "");
	for (size_t i = 0; i < dos->f.nevents; i++) {
		const struct event *e = &dos->f.events[i];
		char *w;
		if (!e->kind || !e->detail)
			continue;
		if ((!strcmp(e->kind, "fix") || !strcmp(e->kind, "fix-add")) &&
		    str_starts(e->detail, "commit=")) {
			w = xasprintf(" %.12s ", e->detail + 7);
			if (!seen.buf || !strstr(seen.buf, w)) {
				sbuf_adds(&seen, w);
				step(&sb, e->at, "fix %.12s recorded",
				     e->detail + 7);
			}
			free(w);
		} else if (!strcmp(e->kind, "cve-assign") ||
			   !strcmp(e->kind, "cve-add")) {
			w = xstrndup(e->detail, strcspn(e->detail, " "));
			step(&sb, e->at, "%s reserved", w);
			free(w);
		} else if (!strcmp(e->kind, "distros-notice")) {
			step(&sb, e->at, "%sthe linux-distros list notified",
			     "");
		} else if (!strcmp(e->kind, "state") &&
			   str_ends(e->detail, "-> disclosed")) {
			step(&sb, e->at, "%sdisclosed", "");
			disclosed = true;
		} else if (!strcmp(e->kind, "announce")) {
			step(&sb, e->at, "%sannounced on oss-security", "");
		}
	}
	if (!disclosed && date && date > dos->now)
		step(&sb, date, "%sproposed public date", "");
	sbuf_release(&seen);
	sb.buf[--sb.len] = '\0';
	return sbuf_detach(&sb, NULL);
}

/* The record's title: the first fix's subject (as the kernel CNA
 * titles its records), else the report's subject (redacted). */
static char *title_text(const struct dossier *dos, const struct fixcve *fc)
{
	const char *fs = fc->nfixes ? fc->fixes[0].fix.subject : NULL;

	return dossier_redact(dos,
			      fs && *fs			 ? fs
				      : dos->f.r.subject ? dos->f.r.subject
							 : "");
}

/* The first CVE ID not rejected, or NULL. */
static const char *live_cve(const struct fixcve *fc)
{
	for (size_t i = 0; i < fc->ncves; i++)
		if (strcmp(fc->cves[i].state, "rejected"))
			return fc->cves[i].id;
	return NULL;
}

/* {history}: one line per line of development each fix has, as
 * linux-cve-announce writes them: "Issue introduced in 1.0 with commit
 * A and fixed in 1.0.1 with commit B" (releases, an -rc written as the
 * release it leads to; 12-digit commits). */
static char *history_text(const struct fixcve *fc)
{
	struct sbuf sb = SBUF_INIT;

	for (size_t k = 0; k < fc->nfixes; k++) {
		struct affected_line *l;
		size_t n = affected_lines(fc, &fc->fixes[k], &l);
		for (size_t i = 0; i < n; i++) {
			bool in = l[i].in && l[i].in_version &&
				strcmp(l[i].in_version, "0");
			bool out = l[i].out && l[i].out_version;
			char *iv = in ? version_release(l[i].in_version) : NULL;
			char *fv = out ? version_release(l[i].out_version)
				       : NULL;
			if (in && out && !strcmp(iv, fv))
				; /* entered and left within one release's -rcs */
			else if (in && out)
				sbuf_addf(
					&sb,
					"  Issue introduced in %s with commit %.12s and fixed in %s with commit %.12s\n",
					iv, l[i].in->sha, fv, l[i].out->sha);
			else if (out)
				sbuf_addf(&sb,
					  "  Fixed in %s with commit %.12s\n",
					  fv, l[i].out->sha);
			else if (in)
				sbuf_addf(
					&sb,
					"  Issue introduced in %s with commit %.12s%s\n",
					iv, l[i].in->sha,
					l[i].out
						? " (the fix is in no release yet)"
						: "");
			free(iv);
			free(fv);
		}
		free(l);
	}
	if (!sb.len)
		sbuf_adds(&sb, "  not known: no fix read in a kernel tree\n");
	sb.buf[--sb.len] = '\0';
	return sbuf_detach(&sb, NULL);
}

/* {urls}: each fix commit and backport at config cve.commit_url (the
 * kernel's stable tree holds them all), one a line. */
static char *urls_text(struct session *sess, const struct fixcve *fc)
{
	const char *base = config_get(sess->cfg, "cve.commit_url",
				      "https://git.kernel.org/stable/c/");
	struct sbuf sb = SBUF_INIT;

	for (size_t k = 0; k < fc->nfixes; k++) {
		const struct fix_entry *f = &fc->fixes[k];
		for (size_t b = 0; b <= f->nbackports; b++)
			sbuf_addf(&sb, "  %s%s\n", base,
				  b < f->nbackports ? f->backports[b].sha
						    : f->fix.sha);
	}
	if (!sb.len)
		sbuf_adds(&sb, "  none: no fix is recorded\n");
	sb.buf[--sb.len] = '\0';
	return sbuf_detach(&sb, NULL);
}

/* {cve_link}: the record of each live CVE ID at cve.org. */
static char *cve_link_text(const struct fixcve *fc)
{
	struct sbuf sb = SBUF_INIT;

	for (size_t i = 0; i < fc->ncves; i++)
		if (strcmp(fc->cves[i].state, "rejected"))
			sbuf_addf(&sb, "%shttps://www.cve.org/CVERecord/?id=%s",
				  sb.len ? "\n" : "", fc->cves[i].id);
	if (!sb.len)
		sbuf_adds(&sb, "none: no CVE ID is recorded");
	return sbuf_detach(&sb, NULL);
}

/* The template's fields; strings kept in keep[] (freed by the caller). */
static size_t fields(struct session *sess, const struct dossier *dos,
		     struct template_field *f, char **keep)
{
	const struct report *r = &dos->f.r;
	/* Once public (the announcement), when it was disclosed; before (the
	 * distros notice), the date proposed. */
	time_t date = dossier_released_at(dos) ? dossier_released_at(dos)
					       : proposed_date(dos);
	char *who = dossier_reporter(dos);
	struct fixcve fc;
	size_t n = 0;

	fixcve_fold(dos->f.events, dos->f.nevents, &fc);
	keep[0] = xasprintf("%lld", (long long)r->id);
	keep[1] = dossier_redact(dos, r->subject ? r->subject : "");
	keep[2] = files_text(sess, dos);
	keep[8] = fixcve_fix_text(sess, r->id, &keep[9]);
	keep[3] = keep[8] ? xasprintf("commit %s", keep[8])
		: !strcmp(r->state, "fix-ready")
		? xstrdup("a fix is ready (its commit "
			  "is not recorded: fix ID --commit SHA)")
		: xasprintf("report state %s", r->state);
	/* The date with its time and time zone (UTC, as every date the
	 * team writes): "2026-12-05 13:00 UTC", so no reader's zone moves
	 * the embargo's end by a day. */
	if (date) {
		char b[32];
		const char *t = fmt_rfc3339(date, b);
		keep[4] = xasprintf("%.10s %.5s UTC", t, t + 11);
	}
	keep[5] = who ? who
		      : xstrdup("the reporter, who is not named without "
				"their consent");
	keep[6] = xstrdup(r->consent_exploit
				  ? "the reporter consented to its "
				    "publication; it is not attached here"
				  : "withheld (no consent from the reporter)");
	keep[7] = xasprintf("report %lld has no decided or proposed date",
			    (long long)r->id);
	keep[10] =
		dossier_redact(dos, fc.description ? fc.description : keep[1]);
	keep[11] = versions_text(&fc);
	keep[12] = fixes_text(&fc);
	keep[13] = cves_text(&fc);
	keep[14] = timeline_text(dos, date);
	keep[15] = title_text(dos, &fc);
	keep[16] = history_text(&fc);
	keep[17] = urls_text(sess, &fc);
	keep[18] = cve_link_text(&fc);
	keep[19] = live_cve(&fc) ? xstrdup(live_cve(&fc)) : NULL;
	fixcve_release(&fc);
	f[n++] = (struct template_field){ "id", keep[0], NULL };
	f[n++] = (struct template_field){ "subject", keep[1], NULL };
	f[n++] = (struct template_field){ "officer", sess->officer_name, NULL };
	f[n++] = (struct template_field){ "team",
					  config_get(sess->cfg, "team.address",
						     "security@kernel.org"),
					  NULL };
	f[n++] = (struct template_field){ "affected", keep[2], NULL };
	f[n++] = (struct template_field){ "fix", keep[3], NULL };
	f[n++] = (struct template_field){
		"fix_commit", keep[8],
		"no fix commit is recorded for the report (fix ID --commit SHA)"
	};
	f[n++] = (struct template_field){ "cve",
					  keep[9] ? keep[9] : "none recorded",
					  NULL };
	f[n++] = (struct template_field){ "disclosure_date", keep[4], keep[7] };
	f[n++] = (struct template_field){ "credit", keep[5], NULL };
	f[n++] = (struct template_field){ "exploit", keep[6], NULL };
	f[n++] = (struct template_field){ "description", keep[10], NULL };
	f[n++] = (struct template_field){ "versions", keep[11], NULL };
	f[n++] = (struct template_field){ "fixes", keep[12], NULL };
	f[n++] = (struct template_field){ "cves", keep[13], NULL };
	f[n++] = (struct template_field){ "timeline", keep[14], NULL };
	f[n++] = (struct template_field){ "title", keep[15], NULL };
	f[n++] = (struct template_field){ "history", keep[16], NULL };
	f[n++] = (struct template_field){ "urls", keep[17], NULL };
	f[n++] = (struct template_field){ "cve_link", keep[18], NULL };
	f[n++] = (struct template_field){
		"mitigation",
		"update to the latest stable kernel release of your series, which "
		"holds the fix; where that is not possible, apply the fix commits "
		"below, each to its own branch.",
		NULL
	};
	return n;
}

static int compose(struct session *sess, enum notice_kind k,
		   const struct dossier *dos, struct reply_draft *d,
		   struct err *err)
{
	struct template_field f[32];
	char *keep[24] = { 0 }, *text = NULL, *src = NULL;
	size_t nf = fields(sess, dos, f, keep);
	const char *tag = k == NOTICE_DISTROS
		? config_get(sess->cfg, "distros.subject_tag", "[vs]")
		: config_get(sess->cfg, "announce.subject_tag", "");
	char *subj = outgoing_one_line(keep[1]);
	int r;

	/* The announcement as linux-cve-announce titles it: the CVE ID and
	 * the record's title. */
	if (k == NOTICE_ANNOUNCE && keep[19]) {
		free(subj);
		subj = outgoing_one_line(keep[15]);
		d->subject = xasprintf("%s%s%s: %s", tag, *tag ? " " : "",
				       keep[19], subj);
	} else {
		d->subject = xasprintf("%s%sLinux kernel: %s", tag,
				       *tag ? " " : "", subj);
	}
	free(subj);
	if ((r = template_load(sess, d->template, &text, &src, err)) == 0)
		r = template_fill(d->template, text, f, nf, &d->text, err);
	free(text);
	free(src);
	for (size_t i = 0; i < ARRAY_SIZE(keep); i++)
		free(keep[i]);
	if (r < 0) {
		char *w = what(k, d->id);
		err_prefix(err, "%s", w);
		free(w);
	}
	return r;
}

/* "0001-net-fix-the-overflow.patch", as git format-patch names it:
 * the subject's letters and digits, each run of others one '-', at most
 * 52 of them. */
static char *patch_name(size_t n, const char *subject)
{
	char slug[53];
	size_t k = 0;

	for (const char *p = subject ? subject : ""; *p && k < 52; p++) {
		unsigned char ch = (unsigned char)*p;
		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		    (ch >= '0' && ch <= '9') || ch == '.' || ch == '_')
			slug[k++] = (char)ch;
		else if (k && slug[k - 1] != '-')
			slug[k++] = '-';
	}
	while (k && (slug[k - 1] == '-' || slug[k - 1] == '.'))
		k--;
	slug[k] = '\0';
	return xasprintf("%04zu-%s.patch", n, k ? slug : "fix");
}

/*
 * The distros notice: the fix is public nowhere yet (the list's rules
 * refuse a fix in a released tree), so each recorded fix goes with it
 * as a patch, read from tree, in the encrypted mail.  Without a tree
 * none, and d->att_note says so.
 */
static int attach_patches(const struct dossier *dos, const char *tree,
			  struct reply_draft *d, struct err *err)
{
	struct fixcve fc;
	struct ktree *t = NULL;
	struct sbuf note = SBUF_INIT;
	int r = 0;

	fixcve_fold(dos->f.events, dos->f.nevents, &fc);
	if (!fc.nfixes) {
		d->att_note = xstrdup(
			"no patch attached: no fix commit is recorded (fix ID --commit SHA)");
		goto out;
	}
	if (!tree) {
		d->att_note = xstrdup(
			"no patch attached: no tree to read the fix from (--tree GITDIR, or kernel.git in the config)");
		goto out;
	}
	if ((r = ktree_open(tree, &t, err)) < 0)
		goto out;
	d->att = xcalloc(fc.nfixes, sizeof(*d->att));
	for (size_t i = 0; i < fc.nfixes && r == 0; i++) {
		struct mail_attachment *a = &d->att[d->natt];
		char *full = NULL, *subject, *patch = NULL, *name;
		size_t len = 0;

		if ((r = ktree_commit(t, fc.fixes[i].fix.sha, &full, err)) <
			    0 ||
		    (r = ktree_format_patch(t, full, &patch, &len, err)) < 0) {
			free(full);
			break;
		}
		subject = ktree_commit_subject(t, full);
		name = patch_name(d->natt + 1, subject);
		a->filename = name;
		a->content_type = xstrdup("text/x-patch");
		a->data = (unsigned char *)patch;
		a->len = len;
		d->natt++;
		sbuf_addf(&note, "%s%s (%zu bytes)",
			  note.len ? ", " : "attached: ", name, len);
		free(subject);
		free(full);
	}
	if (r == 0)
		d->att_note = safe_str(note.buf);
out:
	sbuf_release(&note);
	ktree_free(t);
	fixcve_release(&fc);
	return r;
}

int notice_prepare(struct session *sess, int64_t id, enum notice_kind k,
		   const char *outbox, const char *sendmail, const char *tree,
		   struct reply_draft *d, struct err *err)
{
	struct dossier dos;
	int r;

	memset(d, 0, sizeof(*d));
	d->id = id;
	d->template = xstrdup(k == NOTICE_DISTROS ? "distros" : "announce");
	d->outbox = outbox;
	d->sendmail = sendmail;
	if ((r = dossier_load(sess, id, &dos, err)) < 0)
		goto out;
	if (k == NOTICE_DISTROS) {
		if ((r = distros_rules(sess, &dos, err)) < 0 ||
		    (r = distros_list(sess, &dos, d, err)) < 0)
			goto out;
	} else {
		if ((r = dossier_refuse_unreleased(&dos, "announcement", err)) <
		    0) {
			err_prefix(err, "cannot announce report %lld",
				   (long long)id);
			goto out;
		}
		d->to_email =
			xstrdup(config_get(sess->cfg, "announce.address",
					   "oss-security@lists.openwall.com"));
	}
	if ((r = compose(sess, k, &dos, d, err)) < 0)
		goto out;
	/* The References as forward chooses them for the private list: none
	 * of the reporter's without consent to credit.  A public post
	 * starts its own thread: it names no private message at all. */
	if (k == NOTICE_DISTROS)
		d->nrefs =
			outgoing_thread_refs_copy(sess, &dos, true, &d->refs);
	if (k == NOTICE_DISTROS && (r = attach_patches(&dos, tree, d, err)) < 0)
		err_prefix(err, "cannot send report %lld to linux-distros",
			   (long long)id);
out:
	dossier_release(&dos);
	return r;
}

/* The list's vendor status: notified (its clock starts). */
static void mark_notified(struct session *sess, int64_t id,
			  struct reply_sent *res)
{
	struct vendor_change c;
	struct err e = { 0, "" };
	char *summary = NULL;

	memset(&c, 0, sizeof(c));
	c.report = id;
	c.vendor = config_get(sess->cfg, "distros.vendor", "linux-distros");
	c.notify = true;
	if (vendor_change(sess, &c, &summary, &e) < 0)
		res->vendor_note = xstrdup(e.msg);
	free(summary);
}

int notice_send(struct session *sess, enum notice_kind k,
		const struct reply_draft *d, const char *text,
		struct reply_sent *res, struct err *err)
{
	struct outgoing_mail om;
	char *w = what(k, d->id), *detail;
	int r;

	outgoing_from_draft(&om, d, w, text);
	/* A notice goes to a list by address; only distros is encrypted. */
	om.to_name = NULL;
	om.fpr = k == NOTICE_DISTROS ? d->fpr : NULL;
	om.event_kind = k == NOTICE_DISTROS ? "distros-notice" : "announce";
	detail = k == NOTICE_DISTROS
		? xasprintf("to %s (encrypted to the list's key %s, signed)",
			    d->to_email, d->fpr)
		: xasprintf("public post to %s (not encrypted)", d->to_email);
	om.event_detail = detail;
	r = outgoing_send(sess, &om, res, err);
	if (r == 0 && k == NOTICE_DISTROS)
		mark_notified(sess, d->id, res);
	free(w);
	free(detail);
	return r;
}
