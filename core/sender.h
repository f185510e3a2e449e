/*
 * A From mailbox for display (sender.c): the address first, a warning
 * for each trick a display name can play.
 */
#ifndef SECTEAM_CORE_SENDER_H
#define SECTEAM_CORE_SENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/session.h"
#include "core/report.h"
#include "store/types.h"
#include "util/util.h"

struct json_t;

enum sender_flag {
	SENDER_NAME_ADDRESS = 1 << 0, /* the display name holds an address
					 * other than the mailbox's, or an
					 * at sign look-alike */
	SENDER_NAME_INVISIBLE = 1 << 1, /* no-break or other invisible
					 * spacing in the display name */
	SENDER_NO_ADDRESS = 1 << 2, /* the mailbox has no address */
};
/* The sender_flag bits that hold for this mailbox (either may be NULL). */
unsigned sender_flags(const char *name, const char *email);
/* One display-safe line (caller frees): the address first, then a
 * "[!] ..." warning per flag, then the name quoted, invisible spacing
 * drawn as "<U+00A0>"; e.g.
 *   eve@corp.example  [!] display name holds another address  "boss@x" */
char *sender_format(const char *name, const char *email);
/* True when a From display name may stand for a user ID's name: it has
 * no word of two letters or more, or shares one with uid_name (ignoring
 * ASCII case).  "The Manager" does not stand for "Evil Eve". */
bool sender_name_fits(const char *display, const char *uid_name);
/* sender_format of each mailbox, joined by "; " (caller frees). */
char *senders_format(const struct sender *from, size_t n);
/* {"name", "email", "warnings": ["name-holds-address", ...]} */
struct json_t *sender_json(const char *name, const char *email);

#endif
