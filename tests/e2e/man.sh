#!/bin/sh
# The man page's generated parts (the KEYS table, the export formats) are
# the tables as built.
exec sh "$SECTEAM_TOP/scripts/man-page.sh" --check "$SECTEAM_BIN"
