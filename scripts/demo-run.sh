#!/bin/sh
# make run: set up the demo team if needed, then open the UI on it.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
BIN=$top/${B:-build}/secteam-tui
D=$("$top/scripts/demo.sh" ${DEMO_RESET:+--reset} "$BIN")
exec "$BIN" --db "$D/secteam.db" --gnupghome "$D/keys/home" --config "$D/config"
