#!/bin/sh
# The man page's KEYS section is the key table as built.
exec sh "$SECTEAM_TOP/scripts/man-keys.sh" --check "$SECTEAM_BIN"
