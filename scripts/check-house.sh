#!/bin/sh
# check-house.sh [BUILD_DIR]: the house rules a reviewer would otherwise
# check by hand, as git's and tmux's trees keep them:
#   - every C file is as .clang-format writes it (clang-format --dry-run
#     -Werror; `make style` shows the change for your lines);
#   - the user's CFLAGS are theirs: `make CFLAGS=-O0` builds, and V=1
#     shows that the flags given reach the compiler;
#   - warnings are errors only for developers (DEVELOPER=1, which make
#     check and CI set), never for someone building a release.
# Prints one line per rule and exits 1 when any fails.  SECTEAM_JOBS:
# the build's make -j (scripts/check.sh sets it).
set -u
cd "$(dirname "$0")/.." || exit 2
B=${1:-build-o0}
fail=0
say() { echo "check-house: $*"; }

if ! command -v clang-format >/dev/null 2>&1; then
	say "FAIL style: no clang-format ('make deps' installs it)"; fail=1
elif out=$(git ls-files '*.c' '*.h' | xargs clang-format --style=file --dry-run -Werror 2>&1); then
	say "ok style: every C file is as .clang-format writes it"
else
	say "FAIL style: $(printf '%s\n' "$out" | grep -c 'error:') places differ from .clang-format, e.g.:"
	printf '%s\n' "$out" | head -n 6 | sed 's/^/  /'
	fail=1
fi

if make -s -j"${SECTEAM_JOBS:-1}" B="$B" CFLAGS=-O0 all >"$B.log" 2>&1 &&
	make -B B="$B" CFLAGS=-O0 V=1 "$B/util/sbuf.o" 2>&1 | grep -q -- ' -O0 '; then
	say "ok cflags: make CFLAGS=-O0 builds, and V=1 shows -O0 reaching the compiler"
else
	say "FAIL cflags: make CFLAGS=-O0 V=1 (see $B.log)"; tail -n 5 "$B.log" 2>/dev/null
	fail=1
fi
rm -f "$B.log"

if make -pn 2>/dev/null | grep -q '^WERROR = -Werror' ||
	! make -pn DEVELOPER=1 2>/dev/null | grep -q '^WERROR = -Werror'; then
	say "FAIL developer: -Werror must come with DEVELOPER=1 only"; fail=1
else
	say "ok developer: -Werror with DEVELOPER=1 only"
fi
exit $fail
