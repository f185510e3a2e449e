#!/bin/sh
# engines: sqlite pg
# End to end: `attachment` lists a report's attachments,
# numbered across the thread as `show` numbers them, and saves one where
# the officer says: 0600, never through a symbolic link, never over an
# existing file without --force (which replaces it atomically, and still
# refuses a link), never to a terminal with -o -, never named from the
# mail.  Saving exploit code is an event; saving a write-up is not.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup attachment
at() { SECTEAM_TEST_NOW=$1; export SECTEAM_TEST_NOW; }
at 2026-12-02T12:00:00Z
mkdir "$T/a" "$T/o"
printf 'int main(void) { return 0; } /* REPRO-CANARY */\n' >"$T/a/repro.c"
printf 'a write-up\n' >"$T/a/notes.txt"
printf 'second message exploit\n' >"$T/a/$(printf 'po\033[31mc.py')"
mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
	--to "$OFFICER_FPR" --subject "overflow in net/ipv4" --body "see net/ipv4/tcp.c" \
	--attach "$T/a/notes.txt" --attach "$T/a/repro.c" --message-id "a1@example.net" >"$T/r1.eml"
mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
	--to "$OFFICER_FPR" --subject "Re: overflow" --body "one more" \
	--attach "$T/a/$(printf 'po\033[31mc.py')" --message-id "a2@example.net" \
	--in-reply-to "a1@example.net" >"$T/r2.eml"
out=$(st import "$T/r1.eml" "$T/r2.eml" 2>&1); rc=$?
tap_is "$rc" 0 "the report and its reply import" "$out"

e2e_run 0 "attachment 1 lists" attachment 1
tap_like "$(sed -n 1p "$T/out")" '^1	notes\.txt	text/plain	11 bytes	message 1	signed	-$' \
	"1: the write-up, signed, not exploit code"
tap_like "$(sed -n 2p "$T/out")" '^2	repro\.c	text/x-csrc	[0-9]+ bytes	message 1	signed	EXPLOIT CODE$' \
	"2: repro.c, exploit code"
tap_like "$(sed -n 3p "$T/out")" '^3	po\^\[\[31mc\.py	.*	message 2	signed	EXPLOIT CODE$' \
	"3: the reply's attachment, its name escaped"
tap_unlike "$(cat "$T/out")" "$(printf '\033')" "no raw escape reaches the output"
tap_like "$(st show 1)" '\[attachment 3: po\^\[\[31mc\.py' "show numbers the reply's attachment 3 too"
j=$(st attachment 1 --json | jq -c '[.[] | [.number, .name, .message, .signed, .exploit]]')
tap_is "$j" '[[1,"notes.txt",1,true,false],[2,"repro.c",1,true,true],[3,"po\u001b[31mc.py",2,true,true]]' \
	"--json: numbers, names, messages, signed, exploit"

# Saving: -o is required; a new file is 0600 and holds the bytes.
e2e_run 2 "no -o: refused" attachment 1 2
tap_like "$(cat "$T/err")" "-o FILE" "it asks for -o FILE"
tap_is "$(ls "$T/o")" "" "nothing is written under the mail's name"
umask 000
e2e_run 0 "attachment 1 2 -o FILE" attachment 1 2 -o "$T/o/saved.c"
umask 022
tap_is "$(stat -c %a "$T/o/saved.c")" 600 "the file is 0600 (whatever the umask)"
tap_is "$(cmp "$T/a/repro.c" "$T/o/saved.c" && echo same)" same "it holds the attachment's bytes"
tap_like "$(cat "$T/out")" "attachment 2 saved to .*saved\.c.*exploit code" "it says so"
ev=$(st show 1 --json | jq -r '.events[] | select(.kind == "attachment-saved") | .detail')
tap_is "$ev" "attachment 2 (message 1, $(wc -c <"$T/a/repro.c") bytes) saved to a file: exploit code" \
	"saving exploit code is an event naming the attachment"

# An existing file, a symbolic link: refused, left as they were.
echo keep >"$T/o/exists"
e2e_run 1 "an existing file is refused" attachment 1 1 -o "$T/o/exists"
tap_like "$(cat "$T/err")" "exists" "the error says it exists"
tap_is "$(cat "$T/o/exists")" keep "the existing file is unchanged"
echo target >"$T/o/target"
ln -s "$T/o/target" "$T/o/link"
e2e_run 1 "a symbolic link is refused" attachment 1 1 -o "$T/o/link"
tap_like "$(cat "$T/err")" "symbolic link" "the error names the link"
e2e_run 1 "a symbolic link is refused with --force too" attachment 1 1 -o "$T/o/link" --force
tap_is "$(cat "$T/o/target"):$(test -L "$T/o/link" && echo link)" "target:link" \
	"the link and its target are unchanged"
ln -s "$T/o/nowhere" "$T/o/dangling"
e2e_run 1 "a dangling link is refused" attachment 1 1 -o "$T/o/dangling"
tap_is "$(test -e "$T/o/nowhere" || echo absent)" absent "nothing is created through it"

# --force replaces a file atomically (a new inode), 0600.
chmod 644 "$T/o/exists"
ino=$(stat -c %i "$T/o/exists")
e2e_run 0 "--force replaces an existing file" attachment 1 1 -o "$T/o/exists" --force
tap_is "$(cat "$T/o/exists")" "a write-up" "it holds the attachment"
tap_is "$(stat -c %a "$T/o/exists")" 600 "and is 0600"
tap_unlike "$(stat -c %i "$T/o/exists")" "^$ino\$" "it was renamed into place, not rewritten"
tap_is "$(ls -A "$T/o" | grep -c '^\.')" 0 "no temporary file is left"
tap_is "$(st show 1 --json | jq '[.events[] | select(.kind == "attachment-saved")] | length')" 1 \
	"saving the write-up records nothing"

# Standard output: only into a pipe; a bad number names itself.
tap_is "$(st attachment 1 1 -o - | cat)" "a write-up" "-o - writes into a pipe"
e2e_run 1 "no attachment 9" attachment 1 9 -o "$T/o/nine"
tap_like "$(cat "$T/err")" "no attachment '9' \\(it has 3\\)" "the error names the number"
tap_done
