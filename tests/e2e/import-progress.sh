#!/bin/sh
# engines: sqlite pg
# End to end: import's progress on a terminal.  Under script(1) standard
# error is a terminal: an import that runs past SECTEAM_PROGRESS_DELAY
# draws a bar (a Maildir by messages, an mbox by bytes) and ends with
# "done"; the result lines on standard output carry no escapes; a quick
# import and an import whose standard error is not a terminal show none.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup progress
mkdir -p "$T/md/new" "$T/md/cur"
for i in 1 2 3 4 5 6; do
	mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" \
		--sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" --subject "progress $i" \
		--body "x" --message-id "pg$i@example.net" > "$T/md/new/$i.eml"
done
e2e_mbox "$T/all.mbox" "$T"/md/new/*.eml
# on_tty NAME DELAY ARGS...: secteam-tui with standard error on a
# terminal (script's typescript $T/NAME.tty), standard output to
# $T/NAME.out.  ARGS hold no spaces (mktemp paths).
on_tty() {
	_n=$1 _d=$2; shift 2
	SECTEAM_PROGRESS_DELAY=$_d script -qec \
		"'$SECTEAM_BIN' --db '$T/$_n.db' --gnupghome '$H' $* > '$T/$_n.out'" \
		"$T/$_n.tty" < /dev/null > /dev/null 2>&1
}
ESC=$(printf '\033')

on_tty maildir 0 import --jobs 1 "$T/md"
tty=$(tr '\r' '\n' < "$T/maildir.tty")
tap_like "$tty" "importing \[#+ *\] +[0-9]+%  [0-9] message\(s\)" "Maildir: a bar by messages"
tap_like "$tty" "importing \[#{30}\] 100%  6 message\(s\), done in [0-9.]+ s" "Maildir: ends at 100% with the count and the time"
tap_is "$(wc -l < "$T/maildir.out" | tr -d ' ')" 6 "Maildir: six result lines on standard output"
tap_unlike "$(cat "$T/maildir.out")" "$ESC" "Maildir: no escape sequence among the result lines"

on_tty mbox 0 import --jobs 1 "$T/all.mbox"
tty=$(tr '\r' '\n' < "$T/mbox.tty")
tap_like "$tty" "importing \[#* *\] +[0-9]+%" "mbox: a bar by bytes"
tap_like "$tty" "100%  6 message\(s\), done in" "mbox: ends at 100% with the count"

on_tty quick 30 import "$T/md/new/1.eml"
tap_unlike "$(cat "$T/quick.tty")" "importing" "an import quicker than the delay shows no progress"
tap_is "$(cut -f2 "$T/quick.out")" valid "the quick import still imports"

"$SECTEAM_BIN" --db "$T/pipe.db" --gnupghome "$H" import "$T/md" > "$T/pipe.out" 2> "$T/pipe.err"
SECTEAM_PROGRESS_DELAY=0 "$SECTEAM_BIN" --db "$T/pipe2.db" --gnupghome "$H" import "$T/md" > /dev/null 2> "$T/pipe2.err"
tap_is "$(cat "$T/pipe.err" "$T/pipe2.err")" "" "standard error not a terminal: no progress"
tap_done
