#!/bin/sh
# Each library is used in its own folder only, and dependencies point one
# way: main -> tui -> cmd -> {export, outgoing} -> core -> {store, crypto,
# mail} -> util.  core/ is the domain: it neither prints nor knows the
# command layer (no cmd_ctx); export/ writes to the FILE * it is given;
# outgoing/ builds and sends mail.  The libraries
# that depend on util/ alone (maint/, touched/, config/) sit beside util/:
# core/ and above may include them, store/, crypto/ and mail/ may not.
# Only tui/ and main.c draw: lower layers neither print nor write
# terminal escape sequences.  tui/ changes nothing itself: nm on the
# objects (build/, or $SECTEAM_OBJECTS) shows what it calls.
cd "$(dirname "$0")/.." || exit 2
fail=0
bad() { echo "check-layers: $*" >&2; fail=1; }
only_in() { # pattern dir
	hits=$(grep -l -E "$1" main.c */*.c */*.h 2>/dev/null | grep -v -E "^($2|tests|bench)/")
	[ -z "$hits" ] || bad "'$1' used outside $2/: $hits"
}
only_in 'sqlite3_|<sqlite3\.h>' store
only_in '\bPQ[a-zA-Z]+\(|<libpq-fe\.h>' store
only_in 'gpgme_|<gpgme\.h>|assuan_|<assuan\.h>' crypto
# libsodium (the team key, crypto/teamkey.c): its names share crypto_*
# with ours, so it stays in crypto/, where they are told apart.
only_in 'sodium_|<sodium\.h>|randombytes_' crypto
only_in 'g_mime_|<gmime/' mail
only_in 'pcre2_|<pcre2\.h>' maint
# libgit2 reads the kernel tree in one file: nothing else opens a tree.
hits=$(grep -l -E '<git2\.h>|git_(repository|revwalk|commit|oid|reference)_' main.c */*.c */*.h | grep -v -E '^(core/ktree\.c$|tests/|bench/)')
[ -z "$hits" ] || bad "libgit2 used outside core/ktree.c: $hits"
only_in '<n?curses(w)?\.h>|<ncursesw/|\bwrefresh\(|\bmvwprintw\(' tui
no_include() { # dir forbidden-dirs...: one grep and one awk for all
	d=$1; shift
	out=$(grep -H -E "#include \"($(echo "$@" | tr ' ' '|'))/" $d/*.c $d/*.h 2>/dev/null |
		awk -v d="$d" -v dirs="$*" '{
			f = $0; sub(/:.*/, "", f)
			i = $0; sub(/.*#include "/, "", i); sub(/\/.*/, "", i)
			if (!((i, f) in seen)) { seen[i, f] = 1; hits[i] = hits[i] (n[i]++ ? " " : "") f }
		} END {
			m = split(dirs, a, " ")
			for (k = 1; k <= m; k++)
				if (a[k] in hits) print d "/ must not include " a[k] "/: " hits[a[k]]
		}')
	[ -z "$out" ] && return
	while IFS= read -r line; do bad "$line"; done <<NI
$out
NI
}
libs='maint touched config'
no_include util mail crypto store core tui $libs
# The libraries beside util/ include util/ and their own headers only.
for lib in $libs; do
	hits=$(grep -H -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*/' \
		$lib/*.c $lib/*.h 2>/dev/null | grep -v -E "#[[:space:]]*include[[:space:]]*\"(util|$lib)/")
	[ -z "$hits" ] || bad "$lib/ may include only util/: $hits"
done
no_include store mail crypto core tui $libs
no_include crypto mail store core tui $libs
no_include mail crypto store core tui $libs
no_include core tui cmd export outgoing
no_include export tui cmd outgoing
no_include outgoing tui cmd export
no_include cmd tui
# The domain knows no command: no cmd_ctx in core/.
hits=$(grep -l 'cmd_ctx' core/*.c core/*.h 2>/dev/null)
[ -z "$hits" ] || bad "core/ must not know the command layer (cmd_ctx): $hits"
# The UI talks to core only: no store, crypto or mail header, and core's
# public headers give it the store's records (store/types.h), not the
# store's functions (store/store.h).
no_include tui store crypto mail
hits=$(grep -l '#include "store/store.h"' core/core.h core/cmd.h 2>/dev/null)
[ -z "$hits" ] || bad "core's public headers must not re-export store/store.h: $hits"
# Terminal escape sequences belong to tui/ and main.c: below them, code
# reports (errors, progress through a callback) and the UI draws.  Flagged
# in C sources: ESC as \033, \33, \x1b or \e and the 8-bit CSI as \x9b or
# \233, each after an unescaped backslash (roff's "\\e" is text); "\u001b"
# or "\u009b" however many backslashes precede it (JSON text); and a raw
# ESC byte or U+009B.
esc='(^|[^\\])(\\\\)*\\(033|33([^0-7]|$)|233|e|x(1|9)[bB]([^0-9a-fA-F]|$))'
esc="$esc|\\\\u00(1|9)[bB]|$(printf '\033')|$(printf '\302\233')"
# No allowance: core reports progress through a callback (cmd_ctx's
# progress) and the shell (main.c) or the UI draws it.
hits=$(LC_ALL=C grep -l -E "$esc" */*.c */*.h 2>/dev/null | grep -v -E '^(tui|tests|bench)/')
[ -z "$hits" ] || bad "terminal escape sequences outside tui/ and main.c: $hits"
# lower layers never print
hits=$(grep -n -E '\b(printf|puts|fprintf\(stderr|fputs\([^,]*, *stderr)' store/*.c crypto/*.c mail/*.c \
	maint/*.c touched/*.c config/*.c 2>/dev/null)
[ -z "$hits" ] || bad "lower layers must not print: $hits"
# Nor does the domain or outgoing mail: they return results (a file is
# written with fwrite; exporters and commands print).
hits=$(grep -n -E '\b(printf|puts|putchar|fprintf|fputs|fputc|vfprintf)\(|\b(stdout|stderr)\b' \
	core/*.c outgoing/*.c 2>/dev/null)
[ -z "$hits" ] || bad "core/ and outgoing/ must not print: $hits"
# The C sources keep .editorconfig: tabs indent (a comment's " *" aside),
# no trailing blanks, a final newline.  (.clang-format is the style of
# new lines: `make style` shows what it would change in yours.)
hits=$(grep -n -E '[[:space:]]+$|^ +[^ *]' main.c */*.c */*.h 2>/dev/null | grep -v -E '^(tests|bench)/')
[ -z "$hits" ] || bad "blanks against .editorconfig (trailing, or spaces indenting): $hits"
for f in $(perl -e 'for (@ARGV) { next unless -f && -s _; open my $h, "<", $_ or next;
	seek $h, -1, 2; read $h, my $c, 1; print "$_\n" if $c ne "\n" }' main.c */*.c */*.h 2>/dev/null); do
	bad "no final newline: $f"
done
# The linker's view: tui/ changes nothing itself.  Every change goes
# through the command runner (cmd/), which asks and edits through the
# session; so an object of tui/ may call into core/, outgoing/ and store/
# only to read and to format.  What it may call is this list of shell
# patterns; any other symbol of those folders that a tui/ object leaves
# undefined is a write path around the commands, and fails.
ui_reads='
*_release *_free
report_get report_load report_page report_first_ids report_keys
report_keys_of report_key report_subjects report_open_thread
report_*_rank report_deadline_key report_deadline_cmp report_finished report_trust_class
report_received_source opened_message_lines
report_changes report_watch_fd report_store_up report_store_reconnect
embargo_active embargo_describe embargo_due embargo_due_marks embargo_of_*
policy_from_config policy_check policy_verdict_name policy_nda_answer
search_parse search_run search_report search_fields_only search_state_matches
session_where report_attachments attachment_safe_name attachment_save_path
dossier_load participants_list vendors_list vendors_get
maintainers_suggest maintainers_hidden team_stats_compute
fixcve_page fixcve_label
*_format parse_report_id triage_state_valid triage_severity_valid
'
# (live updates: report_changes and report_watch_fd say what colleagues
# changed; report_store_reconnect opens the connection again, no data.)
# The objects are build/'s, or SECTEAM_OBJECTS's (make's B).
objs=${SECTEAM_OBJECTS:-build}
if ! ls "$objs"/tui/*.o >/dev/null 2>&1; then
	bad "no objects in $objs/tui/: build first (make all), the linker's view is checked on them"
else
	# "object symbol" for each symbol a tui/ object leaves undefined that
	# core/, outgoing/ or store/ defines.
	calls=$( { nm -g --defined-only "$objs"/core/*.o "$objs"/outgoing/*.o \
			"$objs"/store/*.o 2>/dev/null | awk 'NF == 3 && $2 ~ /[TDBRVW]/ { print "D", $3 }'
		  nm -A -u "$objs"/tui/*.o | awk '{ f = $1; sub(/:$/, "", f); print "U", $NF, f }'
		} | awk '$1 == "D" { d[$2] = 1; next } ($2 in d) { print $3, $2 }')
	set -f
	while read -r o sym; do
		[ -n "$sym" ] || continue
		ok=0
		for pat in $ui_reads; do
			case $sym in $pat) ok=1; break ;; esac
		done
		[ $ok = 1 ] || bad "tui/ calls $sym, which is no reading function (a change goes through a command): ${o#"$objs"/}"
	done <<EOF
$calls
EOF
	set +f
fi
[ $fail = 0 ] && echo "check-layers: ok"
exit $fail
