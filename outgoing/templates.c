/*
 * Mail templates: plain text files in the config folder's templates/
 * (beside the config file), else the defaults shipped here, in which
 * the subject stands on a line of its own so that a long one makes no
 * long line of the others.  A file there is read only when nobody but
 * the officer and root can have written it, folders and links included
 * (open_trusted), as the config.  A template names report fields as
 * {field}; "{{" stands for a literal "{".  Every field is checked
 * before anything is composed: an unknown field, or one the report has
 * no value for (no fix recorded, no date decided), is an error naming
 * the template and the field, so nothing is ever sent with a hole in it.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "outgoing/outgoing.h"

static const struct {
	const char *name;
	const char *text;
} shipped[] = {
	{ "ack",
	  "Hello,\n\n"
	  "Thank you for your report:\n\n"
	  "  {subject}\n\n"
	  "We have received it and track it as report {id}; {officer} of the\n"
	  "security team handles it.\n\n"
	  "The security team keeps reports private until a fix is available and\n"
	  "disclosed, for at most {default_days} days by default and {max_days} in\n"
	  "exceptional cases, and works with the maintainers concerned to fix\n"
	  "the bug as fast as possible. We will keep you informed of the fix\n"
	  "and the disclosure date; please keep the issue private until then.\n\n"
	  "Regards,\n{officer}\n{team}\n" },
	{ "need-info",
	  "Hello,\n\n"
	  "Thank you for report {id}:\n\n"
	  "  {subject}\n\n"
	  "To reproduce and fix it we need more information:\n\n"
	  "  - the kernel version and configuration where it happens\n"
	  "  - the exact steps, or a reproducer\n"
	  "  - what you expected and what happened instead\n\n"
	  "Regards,\n{officer}\n{team}\n" },
	{ "fixed",
	  "Hello,\n\n"
	  "Report {id} is fixed by commit {fix_commit}:\n\n"
	  "  {subject}\n\n"
	  "Thank you for reporting it.\n\n"
	  "Regards,\n{officer}\n{team}\n" },
	{ "credit",
	  "Hello,\n\n"
	  "As we prepare the fix for report {id},\n\n"
	  "  {subject}\n\n"
	  "two questions:\n\n"
	  "  1. How would you like to be credited (name and address, a name\n"
	  "     only, an organisation, or not at all)?\n"
	  "  2. May the exploit code you sent be published after disclosure?\n\n"
	  "Without your answer you will not be named and nothing you sent\n"
	  "beyond the patch will be published.\n\n"
	  "Regards,\n{officer}\n{team}\n" },
	{ "date",
	  "Hello,\n\n"
	  "The disclosure date of report {id},\n\n"
	  "  {subject}\n\n"
	  "is {disclosure_date}.\n"
	  "Why: {date_reason}\n\n"
	  "Please keep the issue private until then.\n\n"
	  "Regards,\n{officer}\n{team}\n" },
	{ "distros",
	  "A security issue in the Linux kernel, under embargo until the\n"
	  "proposed public date below; please keep it within the list.\n\n"
	  "Summary:       {subject}\n"
	  "Affected:      the Linux kernel: {affected}\n"
	  "Versions:      {versions}\n"
	  "Fix:           {fix}\n"
	  "CVE:           {cve}\n"
	  "Proposed date: {disclosure_date}\n"
	  "Credit:        {credit}\n\n"
	  "Description:\n\n{description}\n\n"
	  "Fix commits:\n{fixes}\n\n"
	  "Timeline:\n{timeline}\n\n"
	  "{officer}, for the security team ({team}), report {id}\n" },
	{ "announce",
	  "{title}\n\n"
	  "Summary:   {title}\n"
	  "CVE:       {cve}\n"
	  "Disclosed: {disclosure_date}\n"
	  "Credit:    {credit}\n"
	  "Exploit:   {exploit}\n\n"
	  "Description:\n\n{description}\n\n"
	  "Affected and fixed versions:\n\n{history}\n\n"
	  "Versions:  {versions}\n\n"
	  "Affected files:\n\n  {affected}\n\n"
	  "Mitigation:\n\nThe security team advises to {mitigation}\n\n"
	  "Fix commits:\n{fixes}\n\n"
	  "The fixes:\n{urls}\n\n"
	  "The CVE record:\n{cve_link}\n\n"
	  "Timeline:\n{timeline}\n\n"
	  "{officer}, for the security team ({team})\n" },
};

static bool name_ok(const char *name)
{
	if (!*name || strlen(name) > 64)
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		      *p == '-' || *p == '_'))
			return false;
	return true;
}

char *template_dir(const struct session *sess)
{
	char *cfg = sess->config_path ? xstrdup(sess->config_path)
				      : config_default_path();
	char *slash = strrchr(cfg, '/'), *dir;

	if (slash)
		*slash = '\0';
	dir = xasprintf("%s/templates", slash ? (*cfg ? cfg : "/") : ".");
	free(cfg);
	return dir;
}

static const char *shipped_text(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(shipped); i++)
		if (!strcmp(shipped[i].name, name))
			return shipped[i].text;
	return NULL;
}

int template_load(const struct session *sess, const char *name, char **text,
		  char **source, struct err *err)
{
	char *dir, *path;
	size_t len;
	int fd, r;

	*text = NULL;
	*source = NULL;
	if (!name_ok(name))
		return err_setc(
			err, ERR_INVALID,
			"invalid template name '%s': use letters, digits "
			"and '-' (see reply --list-templates)",
			name);
	dir = template_dir(sess);
	path = xasprintf("%s/%s", dir, name);
	free(dir);
	/* The officer's own file, checked as the config is: its text is
	 * signed and sent in the officer's name. */
	if ((fd = open_trusted(path, err)) >= 0) {
		r = read_fd(fd, path, 1 << 16, text, &len, err);
		close(fd);
		if (r == 0)
			*source = path;
		else
			free(path);
		return r;
	}
	if (fd == ERR_REFUSED)
		err_prefix(err, "refusing the template '%s'", path);
	if (fd != ERR_NOTFOUND || !shipped_text(name)) {
		if (fd == ERR_NOTFOUND)
			err_setc(
				err, ERR_NOTFOUND,
				"no template '%s' (no file '%s' and no shipped "
				"default; see reply --list-templates)",
				name, path);
		free(path);
		return fd;
	}
	free(path);
	*text = xstrdup(shipped_text(name));
	*source = xstrdup("shipped");
	return 0;
}

int template_list(const struct session *sess, struct template_info **out,
		  size_t *n, struct err *err)
{
	struct template_info *v = NULL;
	size_t k = 0;

	for (size_t i = 0; i < ARRAY_SIZE(shipped); i++) {
		char *text, *src;
		if (template_load(sess, shipped[i].name, &text, &src, err) <
		    0) {
			template_list_free(v, k);
			return err->code;
		}
		v = xrealloc(v, (k + 1) * sizeof(*v));
		v[k].name = xstrdup(shipped[i].name);
		v[k].source = src;
		v[k].text = text;
		k++;
	}
	*out = v;
	*n = k;
	return 0;
}

void template_list_free(struct template_info *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].source);
		free(v[i].text);
	}
	free(v);
}

static const char *field_value(const struct template_field *f, size_t nf,
			       const char *name, size_t len, bool *known)
{
	*known = false;
	for (size_t i = 0; i < nf; i++)
		if (strlen(f[i].name) == len &&
		    !strncmp(f[i].name, name, len)) {
			*known = true;
			return f[i].value;
		}
	return NULL;
}

/* "id, subject, ..." of the fields. */
static char *field_names(const struct template_field *f, size_t nf)
{
	struct sbuf sb = SBUF_INIT;

	for (size_t i = 0; i < nf; i++)
		sbuf_addf(&sb, "%s{%s}", i ? " " : "", f[i].name);
	return sbuf_detach(&sb, NULL);
}

int template_fill(const char *name, const char *text,
		  const struct template_field *f, size_t nf, char **out,
		  struct err *err)
{
	struct sbuf sb = SBUF_INIT;
	const char *p = text;

	*out = NULL;
	while (*p) {
		const char *end, *v;
		bool known;

		if (p[0] == '{' && p[1] == '{') {
			sbuf_addch(&sb, '{');
			p += 2;
			continue;
		}
		if (*p != '{') {
			sbuf_addch(&sb, *p++);
			continue;
		}
		end = strchr(p + 1, '}');
		v = end ? field_value(f, nf, p + 1, (size_t)(end - p - 1),
				      &known)
			: NULL;
		if (!end || !known) {
			char *names = field_names(f, nf);
			int len = end ? (int)(end - p + 1) : 1;
			err_setc(
				err, ERR_INVALID,
				"template '%s': unknown field '%.*s' (a field is "
				"one of %s; '{{' writes a '{')",
				name, len > 40 ? 40 : len, p, names);
			free(names);
			sbuf_release(&sb);
			return ERR_INVALID;
		}
		if (!v) {
			const char *why = "";
			for (size_t i = 0; i < nf; i++)
				if (strlen(f[i].name) ==
					    (size_t)(end - p - 1) &&
				    !strncmp(f[i].name, p + 1,
					     (size_t)(end - p - 1)))
					why = f[i].missing;
			err_setc(err, ERR_REFUSED,
				 "template '%s' uses {%.*s}, but %s", name,
				 (int)(end - p - 1), p + 1, why);
			sbuf_release(&sb);
			return ERR_REFUSED;
		}
		sbuf_adds(&sb, v);
		p = end + 1;
	}
	*out = sbuf_detach(&sb, NULL);
	return 0;
}
