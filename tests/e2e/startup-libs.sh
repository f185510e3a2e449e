#!/bin/sh
# engines: sqlite pg
# End to end: a command loads only the libraries it uses (on a
# busy day, loading GMime, SQLite and ncurses at each command's start was
# a sixth of the machine).
#   - the program does not link GMime/GLib, SQLite, ncurses, libpq,
#     libical or libgit2 (they are loaded when first needed);
#   - `--version` maps none of them;
#   - a triage command maps its store's library (SQLite, or libpq on a
#     team server) and neither GMime nor ncurses nor the other store's;
#   - an import maps GMime and stores the mail; `show` reads it back;
#   - a library that cannot be loaded (here an empty libgmime-3.0.so.0
#     first on LD_LIBRARY_PATH) ends the command with one line naming
#     it, exit 128, nothing stored; in the UI, opening a report ends it
#     the same way with the terminal given back (not left on the UI's
#     alternate screen).
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup startlibs
e2e_tmux_setup
lazy='libgmime|libglib|libgobject|libgio|libsqlite3|libncurses|libtinfo|libpq|libical|libgit2'

needed=$(readelf -d "$SECTEAM_BIN" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
tap_like "$needed" "libc\\.so" "readelf lists the program's libraries"
tap_unlike "$needed" "$lazy" "none of the libraries loaded on demand is linked"

# maps ARGS...: the libraries the command loaded (ld.so's own account,
# a file per process: the program's, not those of the gpg it runs), one
# per line; its output in $T/maps.out, its status in $T/maps.rc.
maps() {
	rm -f "$T"/ld.*
	LD_DEBUG=files LD_DEBUG_OUTPUT="$T/ld" st "$@" >"$T/maps.out" 2>"$T/maps.err"
	echo $? >"$T/maps.rc"
	for _f in $(grep -l "needed by $SECTEAM_BIN " "$T"/ld.*); do
		sed -n 's/.*file=\([^ ]*\) .*/\1/p' "$_f"
	done | sort -u
}

got=$(maps --version)
tap_is "$(cat "$T/maps.rc")" 0 "--version runs"
tap_like "$got" "libsodium" "ld.so's account lists what --version loads"
tap_unlike "$got" "$lazy" "--version maps none of them"

printf 'From: Rita <rita@example.net>\nSubject: lazy libraries\nMessage-ID: <lazy1@example.net>\nDate: %s\n\nA report touching net/core/dev.c.\n' \
	"$(date -R)" >"$T/1.eml"
got=$(maps import "$T/1.eml")
tap_is "$(cat "$T/maps.rc")" 0 "import stores the mail"
tap_like "$got" "libgmime-3\\.0" "import maps GMime"
tap_unlike "$got" "libncurses" "import does not map ncurses"

got=$(maps triage 1 --severity low)
tap_is "$(cat "$T/maps.rc")" 0 "triage runs"
tap_unlike "$got" "libgmime|libglib|libncurses|libtinfo" \
	"triage maps neither GMime nor ncurses"
if e2e_sqlite; then
	tap_like "$got" "libsqlite3" "triage on SQLite maps SQLite"
	tap_unlike "$got" "libpq" "and not libpq"
else
	tap_like "$got" "libpq" "triage on the team server maps libpq"
	tap_unlike "$got" "libsqlite3" "and not SQLite"
fi

got=$(maps show 1)
tap_is "$(cat "$T/maps.rc")" 0 "show runs"
tap_like "$(cat "$T/maps.out")" "Severity +low" "show reads the severity back"
tap_like "$(cat "$T/maps.out")" "lazy libraries" "and the subject"

mkdir "$T/badlib"
: >"$T/badlib/libgmime-3.0.so.0"
printf 'From: Rita <rita@example.net>\nSubject: second\nMessage-ID: <lazy2@example.net>\nDate: %s\n\nbody\n' \
	"$(date -R)" >"$T/2.eml"
LD_LIBRARY_PATH="$T/badlib" st import "$T/2.eml" >"$T/bad.out" 2>"$T/bad.err"
tap_is "$?" 128 "import without a loadable GMime: exit 128"
tap_like "$(cat "$T/bad.err")" \
	"^secteam-tui: fatal: reading mail needs libgmime-3\.0\.so\.0: .*libgmime-3\.0\.so\.0: file too short$" \
	"one line naming the library and why"
st list >"$T/list.out" 2>&1
tap_like "$(cat "$T/list.out")" "lazy libraries" "the list still shows the first report"
tap_unlike "$(cat "$T/list.out")" "second" "and nothing of the second: nothing stored"

tui_start 100 20 LD_LIBRARY_PATH="$T/badlib"
wait_for "lazy libraries" || tap_diag "$(screen)"
tap_is "$(tmx display -p -t t '#{alternate_on}')" 1 "the UI is on its alternate screen"
keys Enter
wait_for "EXITED:128" 10
tui_ok $? "opening a report without a loadable GMime ends the UI: exit 128"
shows() { screen | grep -q "$1"; }
tui_check "with the fatal line on the terminal" \
	shows "fatal: reading mail needs libgmime-3.0.so.0"
tap_is "$(tmx display -p -t t '#{alternate_on}')" 0 \
	"the terminal given back: the alternate screen left"
hides() { ! shows "$1"; }
tui_check "the UI's list gone with it" hides "lazy libraries"
tui_kill
tap_done
