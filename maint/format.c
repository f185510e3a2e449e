/*
 * Addresses as get_maintainer.pl reads and prints them: parse_email()
 * splits "Name <address>" (or a bare address) with its three regexes,
 * format_email() joins them again, quoting a name that holds
 * characters other than letters, digits, '_', ' ' and '-'; and one line
 * of its default output, `"Name" <email> (role:SECTION)`.
 */
#include <stdlib.h>
#include <string.h>

#include "maint/maint-int.h"

char *maint_trim_dup(const char *s, size_t n)
{
	while (n && maint_is_space((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && maint_is_space((unsigned char)s[n - 1]))
		n--;
	return xstrndup(s, n);
}

char *maint_lc_dup(const char *s)
{
	char *r = xstrdup(s);
	for (char *p = r; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return r;
}

static bool must_quote(const char *name)
{
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if (!maint_is_alnum(*p) && *p != '_' && *p != ' ' && *p != '-')
			return true;
	return false;
}

/* s[0..n) in double quotes, a quote not already escaped escaped. */
static char *quote_name(const char *s, size_t n)
{
	struct sbuf sb = SBUF_INIT;
	sbuf_addch(&sb, '"');
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"' && !(i > 0 && s[i - 1] == '\\'))
			sbuf_addch(&sb, '\\');
		sbuf_addch(&sb, s[i]);
	}
	sbuf_addch(&sb, '"');
	return sbuf_detach(&sb, NULL);
}

/* s/^\"|\"$//g after trimming, then quoted if it must be. */
static char *name_normalize(const char *raw)
{
	char *t = maint_trim_dup(raw, strlen(raw));
	char *s = t;
	size_t n = strlen(s);
	if (n && s[0] == '"') {
		s++;
		n--;
	}
	if (n && s[n - 1] == '"')
		n--;
	s[n] = '\0';
	char *r = must_quote(s) ? quote_name(s, n) : xstrdup(s);
	free(t);
	return r;
}

char *maint_format_email(const char *name, const char *address)
{
	char *n = name_normalize(name);
	char *a = maint_trim_dup(address, strlen(address));
	char *r = *n ? xasprintf("%s <%s>", n, a) : xstrdup(a);
	free(n);
	free(a);
	return r;
}

int maint_email_res(struct lazy *lz)
{
	static const char *const res[3] = {
		"^([^<]+)<(.+\\@.*)>.*$",
		"^\\s*<(.+\\@\\S*)>.*$",
		"^(.+\\@\\S*).*$",
	};
	for (int i = 0; i < 3; i++) {
		if (lz->re_email[i])
			continue;
		lz->re_email[i] =
			maint_re_compile(lz, res[i], 0, false, NULL, "");
		if (!lz->re_email[i])
			return -1;
	}
	return 0;
}

static bool email_match(const struct lazy *lz, int which, const char *s,
			size_t len)
{
	return pcre2_match(lz->re_email[which], (PCRE2_SPTR)s, len, 0, 0,
			   lz->md4, NULL) > 0;
}

void maint_parse_email(const struct lazy *lz, const char *s, char **name,
		       char **addr)
{
	size_t len = strlen(s);
	const char *n = "", *a = "";
	size_t nl = 0, al = 0;
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(lz->md4);

	if (email_match(lz, 0, s, len)) {
		n = s + ov[2];
		nl = ov[3] - ov[2];
		a = s + ov[4];
		al = ov[5] - ov[4];
	} else if (email_match(lz, 1, s, len) || email_match(lz, 2, s, len)) {
		a = s + ov[2];
		al = ov[3] - ov[2];
	}
	char *tn = xstrndup(n, nl);
	*name = name_normalize(tn);
	free(tn);
	*addr = maint_trim_dup(a, al);
}

char *maint_name_unquote(const char *q)
{
	size_t n = strlen(q);
	if (n < 2 || q[0] != '"' || q[n - 1] != '"')
		return xstrdup(q);
	struct sbuf sb = SBUF_INIT;
	for (size_t i = 1; i + 1 < n; i++) {
		if (q[i] == '\\' && q[i + 1] == '"' && i + 2 < n)
			continue;
		sbuf_addch(&sb, q[i]);
	}
	if (!sb.buf)
		sbuf_adds(&sb, "");
	return sbuf_detach(&sb, NULL);
}

char *maint_entry_format(const struct maint_entry *e)
{
	char *who = maint_format_email(e->name, e->email);
	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, who);
	sbuf_adds(&sb, " (");
	sbuf_adds(&sb, e->role);
	if (*e->section)
		sbuf_addf(&sb, ":%s", e->section);
	if (e->in_file)
		sbuf_adds(&sb, ",in file");
	sbuf_addch(&sb, ')');
	free(who);
	return sbuf_detach(&sb, NULL);
}
