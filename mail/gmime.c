/*
 * Loading GMime (mail/gmime.h): the one file that sees the table's slots
 * rather than the redefined names.
 */
#include <pthread.h>

#define MAIL_GMIME_LOADER
#include "mail/gmime.h"
#include "util/util.h"

static struct mail_gmime table;

static void load(void)
{
	static void *lib;
#define MAIL_GMIME_NAME(f) #f,
#define MAIL_GMIME_SLOT(f) (void **)&table.f,
	static const char *const names[] = { MAIL_GMIME_FNS(MAIL_GMIME_NAME) };
	void **const slots[] = { MAIL_GMIME_FNS(MAIL_GMIME_SLOT) };
#undef MAIL_GMIME_NAME
#undef MAIL_GMIME_SLOT
	struct err err = { 0, "" };

	if (dl_load(&lib, MAIL_GMIME_SONAME, "reading mail", "GMime 3", names,
		    slots, ARRAY_SIZE(names), &err))
		die("%s", err.msg);
	table.g_mime_init();
}

const struct mail_gmime *mail_gmime(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, load);
	return &table;
}
