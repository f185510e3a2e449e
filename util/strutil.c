/* Small string helpers that libc lacks. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "util.h"

bool str_starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool str_ends(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && memcmp(s + a - b, suffix, b) == 0;
}

bool fpr_same_key(const char *a, const char *b)
{
	size_t la, lb;

	if (!a || !b || !*a || !*b)
		return false;
	la = strlen(a);
	lb = strlen(b);
	if (la == lb)
		return !strcasecmp(a, b);
	if (la > lb)
		return lb >= 16 && !strcasecmp(a + la - lb, b);
	return la >= 16 && !strcasecmp(a, b + lb - la);
}

char *str_trim(char *s)
{
	char *e;

	while (*s && isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

char *str_lower(char *s)
{
	for (char *p = s; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return s;
}

int str_cmp_ci(const char *a, const char *b)
{
	for (;; a++, b++) {
		int ca = tolower((unsigned char)*a), cb = tolower((unsigned char)*b);
		if (ca != cb || !ca)
			return ca - cb;
	}
}
