#!/bin/sh
# engines: sqlite pg
# search: words, "phrases", file:, from:, state: and
# received: ranges, every term to match (AND), any case; a word only one
# report's body holds finds that report, and the bodies are opened only
# for the reports the other terms leave; the output is escaped (a
# subject and a body with terminal escapes); --json; a progress bar on a
# terminal; bad queries are usage errors naming the bad part.  And
# nothing of a body is at rest in clear after searching: not in the
# database (its file, -wal and -shm, or the team server's folder), the
# cache folder, nor the temporary folder.
export SECTEAM_TEST_NOW=2026-12-02T12:00:00Z
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup search
mkdir -p "$T/mail" "$T/cache" "$T/tmp" "$T/o"
export XDG_CACHE_HOME="$T/cache" TMPDIR="$T/tmp"
e2e_tmux_setup
ESC=$(printf '\033')
rita() { # NAME SUBJECT BODY DATE
	mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" \
		--sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" --subject "$2" --body "$3" \
		--message-id "$1@example.net" --date "$4" >"$T/mail/$1.eml"
}
# 1: the only body with the word; 2: a phrase broken over a line;
# 3: another reporter, in November; 4: escapes in subject and body.
rita r1 "kernel report one" "A crash in fs/ext4/inode.c: the zanzibarquux path is hit." \
	"Wed, 02 Dec 2026 09:00:00 +0000"
rita r2 "kernel report two" "$(printf 'sctp: a use after\nfree in net/sctp/sm_statefuns.c')" \
	"Wed, 02 Dec 2026 10:00:00 +0000"
mk --kind encrypted --from "Bob Builder <bob@builder.example>" --to "$OFFICER_FPR" \
	--subject "kernel report three" --body "A leak in net/sctp/socket.c, found by fuzzing." \
	--message-id "r3@builder.example" --date "Mon, 16 Nov 2026 09:00:00 +0000" >"$T/mail/r3.eml"
rita r4 "$(printf 'evil \033]0;pwned\007 \033[31mred subject')" \
	"$(printf 'The escapeword here: \033[2J\033[31mcleared\033[0m and more.')" \
	"Wed, 02 Dec 2026 11:00:00 +0000"
e2e_import "$T/mail/r1.eml" "$T/mail/r2.eml" "$T/mail/r3.eml" "$T/mail/r4.eml" ||
	{ echo "Bail out! import failed"; exit 1; }
st triage 2 --state triaged >/dev/null
ids() { jq -r '[.[].id] | map(tostring) | join(" ")'; }
q() { st search --json "$@" 2>"$T/o/err" | ids; }

# A word only one body holds, any case.
out=$(st search ZanzibarQuux 2>"$T/o/err"); rc=$?
tap_is "$rc" 0 "search exits 0"
tap_like "$out" "^1 +new +2026-12-02 +kernel report one +text: .*the zanzibarquux path is hit" \
	"the report whose body holds the word, with a snippet of the text"
tap_is "$(printf '%s\n' "$out" | grep -cE '^[0-9]+ +(new|triaged) ')" 1 "and no other"
tap_like "$out" "1 report\(s\) match; 1 opened to search their text, 3 passed over" \
	"the index the import made: only the body that may hold it opened" "$out"
tap_is "$(q zanzibarquux)" 1 "--json: the same report"
tap_is "$(st search --json zanzibarquux | jq -r '.[0].match + " " + (.[0].snippet | test("zanzibarquux") | tostring)')" \
	"text true" "--json: match and snippet"
tap_is "$(q nosuchwordanywhere)" "" "a word no report holds: nothing"

# AND, phrases.
tap_is "$(q zanzibarquux sctp)" "" "all terms must match"
tap_is "$(q '"use after free"')" 2 "a phrase, across a line break"
tap_is "$(q '"free after use"')" "" "a phrase is its words in order"
tap_is "$(q kernel report)" "1 2 3" "words in the subjects"

# Keys: from the store, opening only what they leave.
tap_is "$(q file:net/sctp)" "2 3" "file: a touched file contains it"
tap_is "$(q FILE:SM_STATEFUNS)" "2" "file: any case"
tap_is "$(q from:builder.example)" "3" "from: the reporter's address"
tap_is "$(q 'from:"bob builder"')" "3" "from: a quoted name"
tap_is "$(q state:triaged)" "2" "state:"
tap_is "$(q state:new,triaged file:net/sctp)" "2 3" "state: with two states"
tap_is "$(q state:open)" "1 2 3 4" "state:open"
tap_is "$(q received:2026-11-01..2026-11-30)" "3" "received: a range"
tap_is "$(q received:2026-12-02)" "1 2 4" "received: one day"
tap_is "$(q received:..2026-12-01)" "3" "received: open at the start"
tap_is "$(q received:2026-12-01.. sctp)" "2" "received: open at the end, with a word"
# subject: the subject alone, never a body; its snippet is the subject,
# as is a key match's that names no field (the subject read at the end).
tap_is "$(q subject:REPORT)" "1 2 3" "subject: any case"
tap_is "$(q 'subject:"report two"')" "2" "subject: a quoted phrase"
tap_is "$(q subject:zanzibarquux)" "" "subject: a word only a body holds: nothing"
out=$(st search subject:kernel 2>&1)
tap_like "$out" "3 report\\(s\\) match; 0 opened" "subject: opens no message"
tap_like "$out" "^3 +new +2026-11-16 +kernel report three +subject: kernel report three" \
	"subject: the subject as the snippet"
tap_like "$(st search received:2026-11-16 2>&1)" "kernel report three +subject: kernel report three" \
	"a dates-only match: the subject as the snippet"
out=$(st search subject: 2>&1); rc=$?
tap_is "$rc" 2 "subject: with no value is a usage error"
tap_like "$out" "subject: needs a value" "which names the key"
out=$(st search free state:triaged 2>&1)
tap_like "$out" "1 report\(s\) match; 1 opened" "the body of a report the keys leave out is not opened"
out=$(st search state:new 2>&1)
tap_like "$out" "; 0 opened" "keys alone open nothing"
out=$(st search report file:net 2>&1)
tap_like "$out" "2 report\(s\) match; 0 opened" "words the subjects hold open nothing"
# A word the other subjects lack: their texts are searched.  With no
# cache, each is opened; with the officer's sealed index (made by the
# import), they are passed over unopened: it says no message of theirs
# holds the word.
out=$(SECTEAM_CACHE="$T/cache-empty" st search report one 2>&1)
tap_like "$out" "1 report\(s\) match; 3 opened" "a word the other subjects lack: with no cache, their texts are opened"
out=$(st search report one 2>&1)
tap_like "$out" "1 report\(s\) match; 0 opened to search their text, 3 passed over" \
	"  with the index, passed over unopened (no message of theirs holds it)"
tap_is "$(q zanzibarquux)" 1 "  and the word one body holds is still found through the index"
tap_is "$(q '"use after free"')" 2 "  a phrase across a line break too"
tap_is "$(q sctp)" "2 3" "  and one two bodies hold"
cache=$(ls "$T/cache/secteam-tui/"search-*.db)
tap_is "$(stat -c %a "$cache")" 600 "the index is the officer's alone (0600)"
tap_is "$(sqlite3 "$cache" "SELECT count(*) > 100 FROM postings")" 1 "(a posting list per keyed trigram)"
tap_unlike "$(strings "$cache")" "zanzibarquux|sctp|crash|rita|Reporter" "  and holds no word, subject or address in clear"
tap_is "$(grep -c -a -i -e zanzibarquux -e 'kernel report' -e rita@ "$cache")" 0 "  (nor in the raw bytes)"
# Posting lists moved to other terms do not open (each sealed for its
# keyed term): the index then cannot tell, and every message is opened.
sqlite3 "$cache" "CREATE TEMP TABLE x AS SELECT term, list FROM postings;
	UPDATE postings SET list = coalesce((SELECT list FROM x WHERE x.term =
		(SELECT min(term) FROM x WHERE x.term > postings.term)),
		(SELECT list FROM x ORDER BY term LIMIT 1))" 2>&1
out=$(st search zanzibarquux 2>&1)
tap_like "$out" "^1 +new .*zanzibarquux" "lists moved between terms: the word is still found" "$out"
tap_like "$out" "1 report\(s\) match; 4 opened" "  every message opened: no moved list opens" "$out"
# The index that said so is emptied and made again from the texts that
# search opened: the next search passes over the others again.
out=$(st search zanzibarquux 2>&1)
tap_like "$out" "1 report\(s\) match; 1 opened to search their text, 3 passed over" \
	"  the index is made again by that search" "$out"
# An index another user could read is not used: searching still works.
chmod 644 "$cache"
out=$(st search zanzibarquux 2>&1)
tap_like "$out" "1 report\(s\) match; 4 opened" "an index others can read is not used: every text opened" "$out"
chmod 600 "$cache"

# Escaped: a subject and a body with terminal escapes.
out=$(st search escapeword 2>&1)
tap_like "$out" "^4 " "the report with escapes is found"
tap_unlike "$out" "$ESC" "no escape byte reaches the output"
tap_like "$out" "evil \\^\\[\\]0;pwned\\^G \\^\\[\\[31mred" "the subject's escapes shown escaped"
tap_like "$out" "text: .*escapeword here: \\^\\[\\[2J" "the snippet's escapes shown escaped"
tap_unlike "$(st search --json escapeword)" "$ESC" "--json: no escape byte"

# Bad queries: usage errors naming the bad part.
e2e_run 2 "an unknown state" search state:bogus
tap_like "$(cat "$T/err")" "unknown state 'bogus' in state:bogus" "names it"
e2e_run 2 "a bad date range" search received:2026-13-01..
tap_like "$(cat "$T/err")" "received:2026-13-01.. is not a date range" "names it"
e2e_run 2 "an unclosed quote" search '"use after'
tap_like "$(cat "$T/err")" "unclosed quote" "says so"
e2e_run 2 "no query" search

# Progress on a terminal, past SECTEAM_PROGRESS_DELAY.
SECTEAM_PROGRESS_DELAY=0 script -qec \
	"'$SECTEAM_BIN' --db '$DB' --gnupghome '$H' search zanzibarquux > '$T/o/tty.out'" \
	"$T/o/tty" </dev/null >/dev/null 2>&1
tty=$(tr '\r' '\n' <"$T/o/tty")
tap_like "$tty" "searching \[#+ *\] +[0-9]+%  [0-9] report\(s\) searched" "a progress bar while bodies are searched"
tap_like "$tty" "100%  4 report\(s\) searched, done in" "ending with the count"
tap_unlike "$(cat "$T/o/tty.out")" "$ESC" "the results carry no escape"

# The UI: :search filters the list, / reaches the bodies.
tui_start 140 30
wait_for "secteam-tui: reports"
keys :; type_text "search zanzibarquux"; keys Enter
tui_check ":search: the title says it" wait_for "search: zanzibarquux"
tui_check ":search: the status line counts the matches" wait_for "1 of 4 reports match zanzibarquux"
rows=$(screen | grep -cE '^ +[0-9]+ (new|triaged) ')
tui_ok "$([ "$rows" = 1 ] && screen | grep -qE '^ +1 new .*kernel report one'; echo $?)" \
	":search: the list holds only the report whose body has the word"
keys :; type_text "filter"; keys Enter
tui_check ":filter clears the search" wait_for "4 of 4 reports shown (filter cleared)"
keys / ; type_text "escapeword"; keys Enter
tui_check "/ finds a word only a body holds" wait_for "/escapeword: report 4"
keys / ; type_text '"use after free"'; keys Enter
tui_check "/ finds a phrase in a body" wait_for '/"use after free": report 2'
keys :; type_text "search state:bogus"; keys Enter
tui_check ":search with a bad query says why" wait_for "unknown state 'bogus'"
keys :; type_text "sea"; keys Tab
tui_check "Tab offers search once (a command and a UI verb)" \
	sh -c "tmux -L '$E2E_TMUX' capture-pane -p -t t | grep -qx ' *search search-next search-prev *'"
keys BSpace BSpace BSpace BSpace BSpace BSpace Enter
wait_for "secteam-tui: reports"
tui_stop

# Nothing of a body in clear at rest after all these searches.
leak() { grep -rla -e zanzibarquux -e escapeword -e "use after" "$@" 2>/dev/null; }
if e2e_sqlite; then where=$T/db; else where=$PGHOST; fi
# The same grep sees what is stored in clear (the vendor directory;
# subjects and Message-IDs are sealed or keyed under the team key): it
# can read there.
st vendor add Qorvendorzz --contact sec@qorvendorzz.example >/dev/null
e2e_sqlite || PGUSER=$E2E_ADMIN psql -X -q -d "$E2E_PGDB" -c CHECKPOINT >/dev/null 2>&1
[ -n "$(grep -rla "Qorvendorzz" "$where" 2>/dev/null)" ]
tap_ok $? "the check reads the database's files (a vendor's name, kept clear, is found there)"
tap_is "$(grep -rla "r3@builder.example" "$where" 2>/dev/null)" "" "a Message-ID is not there in clear (keyed)"
tap_ok "$([ -z "$(grep -rla "kernel report two" "$where" 2>/dev/null)" ]; echo $?)" \
	"a subject is not there in clear (sealed)"
tap_is "$(leak "$where")" "" "the database's files hold no body word in clear"
tap_is "$(leak "$T/cache")" "" "the cache folder holds none"
tap_is "$(ls -A "$T/tmp" | grep -v '^secteam-pg' ; leak "$T/tmp")" "" "the temporary folder holds nothing"

tap_done
