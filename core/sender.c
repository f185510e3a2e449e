/*
 * A From mailbox as an officer is shown it: the address first, then what
 * its display name may hide, then the name.
 *
 * A display name is the sender's free text.  "manager@corp.example"
 * <eve@corp.example> shows an address that is not the sender's (as
 * Thunderbird warns), and a name padded with no-break or other invisible
 * spacing can push the real address off a header row.  So the address
 * comes first, a name holding an address other than the mailbox's (or an
 * at sign look-alike) is flagged, and invisible spacing in a name is
 * flagged and drawn as visible escapes.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/core.h"
#include "core/json.h"

/* Spacing that shows as blank (or nothing) but is not an ASCII space. */
static bool invisible_space(uint32_t cp)
{
	switch (cp) {
	case 0x00a0:
	case 0x00ad:
	case 0x034f:
	case 0x115f:
	case 0x1160:
	case 0x1680:
	case 0x180e:
	case 0x202f:
	case 0x205f:
	case 0x2800:
	case 0x3000:
	case 0x3164:
	case 0xfeff:
	case 0xffa0:
		return true;
	}
	return (cp >= 0x2000 && cp <= 0x200d) || (cp >= 0x2060 && cp <= 0x2064);
}

static bool at_sign(uint32_t cp)
{
	return cp == '@' || cp == 0xff20 /* fullwidth */ ||
		cp == 0xfe6b /* small commercial at */;
}

static bool local_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		(c >= '0' && c <= '9') || strchr(".!#$%&'*+/=?^_`{|}~-", c);
}

static bool domain_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		(c >= '0' && c <= '9') || c == '.' || c == '-' || c == '[' ||
		c == ']' || c == ':';
}

/* True when name holds an address, or an at sign look-alike, other than
 * email. */
static bool holds_other_address(const char *name, const char *email)
{
	const unsigned char *s = (const unsigned char *)name;
	size_t n = strlen(name), i = 0;

	while (i < n) {
		uint32_t cp;
		size_t k = utf8_decode(s + i, n - i, &cp);

		if (!k) {
			i++;
			continue;
		}
		if (at_sign(cp)) {
			size_t a = i, b = i + k;

			if (cp != '@')
				return true;
			while (a > 0 && local_char(name[a - 1]))
				a--;
			while (b < n && domain_char(name[b]))
				b++;
			if (a < i && b > i + 1) {
				size_t len = b - a;

				if (!email || strlen(email) != len ||
				    strncasecmp(name + a, email, len))
					return true;
			}
		}
		i += k;
	}
	return false;
}

unsigned sender_flags(const char *name, const char *email)
{
	const unsigned char *s = (const unsigned char *)name;
	unsigned f = 0;
	size_t n, i = 0;

	if (!email || !*email)
		f |= SENDER_NO_ADDRESS;
	if (!name)
		return f;
	n = strlen(name);
	if (holds_other_address(name, email))
		f |= SENDER_NAME_ADDRESS;
	while (i < n) {
		uint32_t cp;
		size_t k = utf8_decode(s + i, n - i, &cp);

		if (k && invisible_space(cp))
			f |= SENDER_NAME_INVISIBLE;
		i += k ? k : 1;
	}
	return f;
}

/* The name with invisible spacing drawn as "<U+00A0>" (then safe). */
static char *visible_name(const char *name)
{
	const unsigned char *s = (const unsigned char *)name;
	struct sbuf sb = SBUF_INIT;
	size_t n = strlen(name), i = 0;
	char *r;

	while (i < n) {
		uint32_t cp;
		size_t k = utf8_decode(s + i, n - i, &cp);

		if (k && invisible_space(cp))
			sbuf_addf(&sb, "<U+%04X>", (unsigned)cp);
		else
			sbuf_add(&sb, name + i, k ? k : 1);
		i += k ? k : 1;
	}
	r = safe_str(sb.buf ? sb.buf : "");
	sbuf_release(&sb);
	return r;
}

char *sender_format(const char *name, const char *email)
{
	unsigned f = sender_flags(name, email);
	struct sbuf sb = SBUF_INIT;
	char *e = safe_str(email && *email ? email : "(no address)");

	sbuf_adds(&sb, e);
	free(e);
	if (f & SENDER_NAME_ADDRESS)
		sbuf_adds(&sb, "  [!] display name holds another address");
	if (f & SENDER_NAME_INVISIBLE)
		sbuf_adds(&sb, "  [!] invisible spacing in display name");
	if (name && *name) {
		char *v = visible_name(name);

		sbuf_addf(&sb, "  \"%s\"", v);
		free(v);
	}
	return sbuf_detach(&sb, NULL);
}

char *senders_format(const struct sender *from, size_t n)
{
	struct sbuf sb = SBUF_INIT;

	if (!n)
		return xstrdup("(no address)");
	for (size_t i = 0; i < n; i++) {
		char *s = sender_format(from[i].name, from[i].email);

		sbuf_addf(&sb, "%s%s", i ? "; " : "", s);
		free(s);
	}
	return sbuf_detach(&sb, NULL);
}

/* The next word of s at *i (letters and digits, ASCII lowered, other
 * UTF-8 kept as is) into w; false at the end. */
static bool next_word(const char *s, size_t *i, char *w, size_t wsize)
{
	size_t n = 0;

	while (s[*i] && !(isalnum((unsigned char)s[*i]) || (s[*i] & 0x80)))
		(*i)++;
	if (!s[*i])
		return false;
	while (s[*i] && (isalnum((unsigned char)s[*i]) || (s[*i] & 0x80))) {
		if (n + 1 < wsize)
			w[n++] = (char)tolower((unsigned char)s[*i]);
		(*i)++;
	}
	w[n] = '\0';
	return true;
}

bool sender_name_fits(const char *display, const char *uid_name)
{
	char a[128], b[128];
	size_t i = 0;
	bool any = false;

	if (!display)
		return true;
	while (next_word(display, &i, a, sizeof(a))) {
		size_t j = 0;

		if (strlen(a) < 2)
			continue;
		any = true;
		while (uid_name && next_word(uid_name, &j, b, sizeof(b)))
			if (!strcmp(a, b))
				return true;
	}
	return !any;
}

json_t *sender_json(const char *name, const char *email)
{
	unsigned f = sender_flags(name, email);
	json_t *w = json_array();

	if (f & SENDER_NAME_ADDRESS)
		json_array_append_new(w, json_string("name-holds-address"));
	if (f & SENDER_NAME_INVISIBLE)
		json_array_append_new(w, json_string("name-invisible-spacing"));
	if (f & SENDER_NO_ADDRESS)
		json_array_append_new(w, json_string("no-address"));
	return json_pack("{s:o, s:o, s:o}", "name", json_text(name), "email",
			 json_text(email), "warnings", w);
}
