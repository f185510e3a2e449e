#!/bin/sh
# Builds and runs one unit test against util/ and the named modules only,
# so a module can be worked on while others are in pieces.
#   scripts/unit-one.sh tests/unit/test-mail.c mail [touched ...]
set -eu
t=$1; shift
srcs=""
for m in "$@"; do
	case "$m" in *.c) srcs="$srcs $m" ;; *) srcs="$srcs $(ls $m/*.c)" ;; esac
done
out=build/one/$(basename "$t" .c)
mkdir -p build/one
cc -std=c11 -D_GNU_SOURCE -O1 -g -Wall -Wextra -Wpedantic -Wvla -Wwrite-strings \
   -Wno-overlength-strings -Werror -I. \
   $(pkg-config --cflags gmime-3.0 gpgme jansson libical libpcre2-8 sqlite3) \
   ${UNIT_SAN:-} -o "$out" "$t" util/*.c $srcs \
   $(pkg-config --libs gmime-3.0 gpgme jansson libical libpcre2-8 sqlite3) -lcmocka -lm
exec "$out"
