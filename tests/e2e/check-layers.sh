#!/bin/sh
# check-layers.sh: scripts/check-layers.sh passes on the tree, and fails,
# naming the file, on each kind of violation planted in a copy of it
# (TAP).  The copy is the script and the files each case needs, in a
# temporary folder: the real tree is never written.  The linker's view
# (nm on build/'s objects) is checked on objects compiled here.
set -u
. "$SECTEAM_TOP/tests/lib/tap.sh"
T=$(mktemp -d "${TMPDIR:-/tmp}/secteam-layers.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

# The tree's objects are beside the binary under test.
out=$(SECTEAM_OBJECTS=$(dirname "${SECTEAM_BIN:-$SECTEAM_TOP/build/secteam-tui}") \
	sh "$SECTEAM_TOP/scripts/check-layers.sh" 2>&1)
tap_ok $? "the tree keeps its layers" "$out"

# Objects for the linker's view, compiled once: obj NAME.o CODE.
mkdir -p "$T/o"
obj() {
	printf '%s\n' "$2" >"$T/o/src.c"
	cc -c -o "$T/o/$1" "$T/o/src.c" || echo "Bail out! cannot compile $1"
}
obj core.o 'int triage_apply(void) { return 1; } int report_get(void) { return 2; } void report_release(void) {}'
obj outgoing.o 'int reply_send(void) { return 3; }'
obj store.o 'int store_report_set(void) { return 4; }'
obj tui-reads.o 'int report_get(void); void report_release(void); int f(void) { report_release(); return report_get(); }'
obj tui-core.o 'int triage_apply(void); int g(void) { return triage_apply(); }'
obj tui-outgoing.o 'int reply_send(void); int h(void) { return reply_send(); }'
obj tui-store.o 'int store_report_set(void); int k(void) { return store_report_set(); }'

# The files the escape rule allows for now (its esc_allowed list).
allowed=$(sed -n "s/^esc_allowed='\(.*\)'$/\1/p" "$SECTEAM_TOP/scripts/check-layers.sh")
# template: a minimal tree where every rule holds, made once in $T/t;
# fresh puts a copy of it back before each case.
template() {
	for d in core outgoing store tui; do
		mkdir -p "$T/t/build/$d"
	done
	cp "$T/o/core.o" "$T/t/build/core/triage.o"
	cp "$T/o/outgoing.o" "$T/t/build/outgoing/reply.o"
	cp "$T/o/store.o" "$T/t/build/store/db.o"
	cp "$T/o/tui-reads.o" "$T/t/build/tui/view.o"
	for d in scripts util maint touched config mail crypto store core export outgoing cmd tui; do
		mkdir -p "$T/t/$d"
	done
	cp "$SECTEAM_TOP/scripts/check-layers.sh" "$T/t/scripts/"
	printf '#include "util/util.h"\n' >"$T/t/util/util.c"
	printf '#include "maint/maint.h"\n#include "util/util.h"\n#include <pcre2.h>\n' >"$T/t/maint/lookup.c"
	printf '#include "touched/touched.h"\n' >"$T/t/touched/touched.c"
	printf '#include "config/config.h"\n' >"$T/t/config/config.c"
	printf '#include "core/core.h"\n#include "maint/maint.h"\n#include "config/config.h"\n' >"$T/t/core/suggest.c"
	printf '#include "core/core.h"\n' >"$T/t/export/export.c"
	printf '#include "core/core.h"\n' >"$T/t/outgoing/reply.c"
	printf '#include "export/export.h"\n#include "outgoing/outgoing.h"\n' >"$T/t/cmd/cmd.c"
	printf '#include "cmd/cmd.h"\n#include "core/core.h"\n' >"$T/t/tui/tui.c"
	printf '#include "tui/tui.h"\n' >"$T/t/main.c"
	# The files the escape rule still allows must draw something.
	for f in $allowed; do
		mkdir -p "$T/t/$(dirname "$f")"
		printf 'static const char clear[] = "\\r\\033[K";\n' >"$T/t/$f"
	done
}
# fails WHAT REGEX: the check fails and its message matches REGEX.
fails() {
	out=$(sh "$T/t/scripts/check-layers.sh" 2>&1)
	rc=$?
	[ "$rc" -ne 0 ] && printf '%s' "$out" | grep -qE -- "$2"
	tap_ok $? "$1" "exit $rc" "$out"
}

template
cp -a "$T/t" "$T/template"
fresh() {
	rm -rf "$T/t"
	cp -a "$T/template" "$T/t"
}
fresh
out=$(sh "$T/t/scripts/check-layers.sh" 2>&1)
tap_ok $? "a minimal tree that keeps the rules passes" "$out"

# --- the libraries beside util/ ---------------------------------------------
fresh
printf '#include "core/core.h"\n' >>"$T/t/maint/lookup.c"
fails "maint/ including core/ is flagged" "maint/ may include only util/: maint/lookup.c"
fresh
printf '#include "maint/maint.h"\n' >>"$T/t/touched/touched.c"
fails "touched/ including maint/ is flagged" "touched/ may include only util/: touched/touched.c"
fresh
printf '# include "store/store.h"\n' >>"$T/t/config/config.c"
fails "config/ including store/ is flagged" "config/ may include only util/: config/config.c"
fresh
printf '#include "config/config.h"\n' >"$T/t/store/store.c"
fails "store/ including config/ is flagged" "store/ must not include config/: store/store.c"
fresh
printf '#include "maint/maint.h"\n' >"$T/t/mail/mail.c"
fails "mail/ including maint/ is flagged" "mail/ must not include maint/: mail/mail.c"
fresh
printf '#include "touched/touched.h"\n' >"$T/t/crypto/keys.c"
fails "crypto/ including touched/ is flagged" "crypto/ must not include touched/: crypto/keys.c"
fresh
printf '#include "touched/touched.h"\n' >"$T/t/util/strutil.c"
fails "util/ including touched/ is flagged" "util/ must not include touched/: util/strutil.c"
fresh
printf '#include <sodium.h>\n' >"$T/t/core/json.c"
fails "libsodium outside crypto/ is flagged" "used outside crypto/: core/json.c"
fresh
printf '#include <pcre2.h>\n' >"$T/t/core/json.c"
fails "PCRE2 outside maint/ is flagged" "used outside maint/: core/json.c"
fresh
printf 'static void f(void) { printf("x"); }\n' >>"$T/t/maint/lookup.c"
fails "a library beside util/ that prints is flagged" "must not print: maint/lookup.c"

# --- the command layer, exports and outgoing mail above the domain ----------
while IFS='	' read -r file inc; do
	fresh
	printf '#include "%s"\n' "$inc" >>"$T/t/$file"
	dir=${file%%/*}
	fails "$dir/ including ${inc%%/*}/ is flagged" "$dir/ must not include ${inc%%/*}/: $file"
done <<'CASES'
core/report.c	cmd/cmd.h
core/report.c	export/export.h
core/report.c	outgoing/outgoing.h
export/csaf.c	outgoing/outgoing.h
export/csaf.c	cmd/cmd.h
outgoing/reply.c	export/export.h
outgoing/reply.c	cmd/cmd.h
cmd/show.c	tui/tui.h
CASES
fresh
printf 'int f(struct cmd_ctx *ctx);\n' >>"$T/t/core/suggest.c"
fails "core/ naming cmd_ctx is flagged" "must not know the command layer \\(cmd_ctx\\): core/suggest.c"
while IFS='	' read -r file code; do
	fresh
	printf '%s\n' "$code" >>"$T/t/$file"
	fails "${file%%/*}/ printing ($code) is flagged" "core/ and outgoing/ must not print: $file"
done <<'CASES'
core/report.c	static void f(void) { printf("x"); }
core/report.c	static void f(FILE *o) { fprintf(o, "x"); }
outgoing/reply.c	static void f(void) { fputs("x", stderr); }
outgoing/reply.c	static FILE *f(void) { return stdout; }
CASES

# --- the linker's view: tui/ reads, a command changes ----------------------
for what in core outgoing store; do
	fresh
	cp "$T/o/tui-$what.o" "$T/t/build/tui/keys.o"
	case $what in
	core) sym=triage_apply ;; outgoing) sym=reply_send ;; store) sym=store_report_set ;;
	esac
	fails "a tui/ object calling $what/'s $sym is flagged" "tui/ calls $sym, which is no reading function.*: tui/keys.o"
done
fresh
rm -f "$T/t/build/tui/"*.o
fails "no tui/ objects to read is an error, not a pass" "no objects in build/tui/: build first"
fresh
out=$(sh "$T/t/scripts/check-layers.sh" 2>&1)
tap_ok $? "a tui/ object calling reading functions (report_get, report_release) passes" "$out"

# --- .editorconfig's blanks ---------------------------------------------------
fresh
printf 'int x; \n' >>"$T/t/core/suggest.c"
fails "a trailing blank is flagged" "against .editorconfig.*core/suggest.c"
fresh
printf '    int x;\n' >>"$T/t/cmd/cmd.c"
fails "spaces indenting a line are flagged" "against .editorconfig.*cmd/cmd.c"
fresh
printf 'int x;' >>"$T/t/export/export.c"
fails "a missing final newline is flagged" "no final newline: export/export.c"
fresh
printf '/*\n * a comment\n */\n' >>"$T/t/core/suggest.c"
out=$(sh "$T/t/scripts/check-layers.sh" 2>&1)
tap_ok $? "a comment's ' *' lines pass" "$out"

# --- terminal escape sequences ----------------------------------------------
# plant FILE CODE: a fresh tree with the C line CODE added to FILE.
plant() {
	fresh
	mkdir -p "$T/t/$(dirname "$1")"
	printf '%s\n' "$2" >>"$T/t/$1"
}
# Descriptions name the forms in words: TAP lines go to a terminal.
while IFS='	' read -r what code; do
	plant core/report.c "$code"
	fails "core/ writing $what is flagged" \
		"terminal escape sequences outside tui/ and main.c: core/report.c"
done <<'CASES'
ESC in octal	fputs("\033[K", f);
ESC in short octal	fputs("\33[2J", f);
ESC in octal, then a digit	fputs("\0337", f);
ESC in hex, a char	char c = '\x1b';
ESC in upper-case hex	fputs("\x1B[0m", f);
ESC as GNU's e escape	fputs("\e[31m", f);
CSI in octal	fputs("\233K", f);
CSI in hex	fputs("\x9b" "K", f);
ESC for JSON text	fputs("{\"bar\": \"\\u001b[K\"}", f);
CASES
plant store/db.c "$(printf 'static const char e[] = "\033[K";')"
fails "a raw ESC byte in store/ is flagged" "escape sequences outside tui/ and main.c: store/db.c"
plant mail/mail.c "$(printf 'static const char e[] = "\302\233K";')"
fails "a raw CSI (U+009B) in mail/ is flagged" "escape sequences outside tui/ and main.c: mail/mail.c"
plant maint/format.c 'fputs("\x1b[K", f);'
fails "maint/ writing ESC is flagged" "escape sequences outside tui/ and main.c: maint/format.c"
while IFS='	' read -r what code; do
	plant export/export.c "$code"
	out=$(sh "$T/t/scripts/check-layers.sh" 2>&1)
	tap_ok $? "export/ writing $what passes" "$out"
done <<'CASES'
roff's backslash	fputs("\\e", out);
a backslash, then 033	fputs("\\033", f);
the number 0x1b	if (c == 0x1b)
another octal char	fputs("\331", f);
CASES
plant tui/screen.c 'fputs("\033[K\x1b[0m", f);'
out=$(sh "$T/t/scripts/check-layers.sh" 2>&1)
tap_ok $? "tui/ may write escape sequences" "$out"
plant main.c 'fputs("\033[K", stderr);'
out=$(sh "$T/t/scripts/check-layers.sh" 2>&1)
tap_ok $? "main.c may write escape sequences" "$out"
for f in $allowed; do
	fresh
	printf '/* drawn by the UI now */\n' >"$T/t/$f"
	fails "$f allowed for now, flagged once it draws nothing" \
		"$f draws no escape sequence any more: take it out of esc_allowed"
done

tap_done
