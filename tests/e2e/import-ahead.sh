#!/bin/sh
# engines: sqlite pg
# End to end: import reads ahead (several messages decrypting at once
# while the oldest is stored), yet behaves as if it took them one by one:
# lines in input order, a repeat within one mailbox is a duplicate, a
# reply right behind its report joins it, an error stays in its place,
# and a store that fails with decryptions in flight stores nothing and
# damages nothing.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup ahead
RITA="Rita Reporter <rita@example.net>"
enc() { # FILE MSGID SUBJECT [mkpgp options...]
	_f=$1 _id=$2 _s=$3; shift 3
	mk --kind encrypted-signed --from "$RITA" --sign-as "$REPORTER_FPR" \
		--to "$OFFICER_FPR" --subject "$_s" --body "body of $_s in mm/slub.c" \
		--message-id "$_id" "$@" > "$_f"
}

mkdir -p "$T/m"
i=0
while [ $i -lt 10 ]; do
	i=$((i + 1))
	enc "$T/m/$i.eml" "a$i@example.net" "ahead $i"
done
enc "$T/m/reply.eml" "a2r@example.net" "Re: ahead 2" --in-reply-to "a2@example.net"
mk --kind encrypted-signed --from "$RITA" --sign-as "$REPORTER_FPR" --to "$UNKNOWN_FPR" \
	--subject "not for us" --body "x" --message-id "nfu@example.net" > "$T/m/nfu.eml"

# 1 2 2 reply 3 nfu 4 5 6 7: all within one read-ahead window or two.
e2e_mbox "$T/a.mbox" "$T/m/1.eml" "$T/m/2.eml" "$T/m/2.eml" "$T/m/reply.eml" \
	"$T/m/3.eml" "$T/m/nfu.eml" "$T/m/4.eml" "$T/m/5.eml" "$T/m/6.eml" "$T/m/7.eml"
out=$(st import "$T/a.mbox" "$T/missing.eml" "$T/m/8.eml" 2>"$T/err"); rc=$?
tap_is "$rc" 1 "exit 1: one message and one file could not be imported"
NOTIMPORTED="secteam-tui: 2 input(s) could not be imported (see the error lines)"
tap_is "$(cat "$T/err")" "$NOTIMPORTED" "stderr says two inputs could not be imported"
tap_is "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 12 "one line per message or input (12)"
tap_is "$(printf '%s\n' "$out" | awk -F'\t' '{print $1 ":" $3}' | tr '\n' ' ')" \
	"1:ahead 1 2:ahead 2 duplicate:ahead 2 2:Re: ahead 2 3:ahead 3 error:cannot decrypt message: no secret key for any of its 1 recipients in gnupg home '$H' 4:ahead 4 5:ahead 5 6:ahead 6 7:ahead 7 error:no such file or directory 8:ahead 8 " \
	"lines in input order: repeat is a duplicate, reply joins, errors in place"
tap_like "$(printf '%s\n' "$out" | sed -n 6p)" "^error	$T/a.mbox:6	" "the error line names the mbox and message number"
tap_is "$(printf '%s\n' "$out" | sed -n 3p | cut -f2)" 2 "the repeat names the report it duplicates"
tap_is "$(st list --json | jq length)" 8 "8 reports stored"
tap_is "$(st show 2 --json | jq -r .messages)" 2 "report 2 holds its reply"
tap_is "$(printf '%s\n' "$out" | grep -c '	valid	')" 9 "every stored message verified as valid"

# --jobs 1 (one decryption at a time) and --jobs 8 print the same lines.
for j in 1 8; do
	mkdir "$T/j$j"
	out_j=$("$SECTEAM_BIN" --db "$T/j$j/secteam.db" --gnupghome "$H" import --jobs $j \
		"$T/a.mbox" "$T/missing.eml" "$T/m/8.eml" 2>"$T/err")
	tap_is "$out_j" "$out" "--jobs $j: the same lines as the default"
	tap_is "$(cat "$T/err")" "$NOTIMPORTED" "--jobs $j: the same summary on stderr"
done
for j in 0 9 two ""; do
	msg=$(st import --jobs "$j" "$T/m/9.eml" 2>&1); rc=$?
	tap_is "$rc" 2 "--jobs '$j': usage error (exit 2)"
	tap_like "$msg" "import --jobs '$j': not a number from 1 to 8" "--jobs '$j': says what is wrong"
done

# The store fails while decryptions are in flight: another officer holds
# the write lock past store.busy_timeout.  Nothing is stored, the
# database stays intact, and the same import succeeds afterwards.
printf '[store]\n\tbusy_timeout = 1\n' > "$T/config"
e2e_mbox "$T/b.mbox" "$T/m/9.eml" "$T/m/10.eml" "$T/m/1.eml" "$T/m/2.eml" "$T/m/3.eml" "$T/m/4.eml"
db_write_lock "$DB" 20
before=$(db_sql 'SELECT count(*) FROM messages')
out=$("$SECTEAM_BIN" --config "$T/config" --db "$DB" --gnupghome "$H" import "$T/b.mbox" 2>"$T/err"); rc=$?
db_write_unlock
tap_is "$rc" 1 "locked database: exit 1"
tap_like "$(cat "$T/err")" "import stopped: (database|team server) .* is busy" "locked database: says the import stopped and why"
tap_unlike "$out" "^[0-9]+	" "locked database: no message reported as stored"
tap_like "$(printf '%s\n' "$out" | sed -n 1p)" "^error	$T/b.mbox:1	(database|team server) .* is busy" "locked database: the first message's line says why"
tap_like "$(printf '%s\n' "$out" | tail -n 1)" "^error	\(the last [1-9][0-9]* message\(s\)\)	not stored: (database|team server) .* is busy" "locked database: the messages read ahead are reported as not stored"
tap_is "$(db_sql 'SELECT count(*) FROM messages')" "$before" "locked database: nothing stored"
tap_is "$(db_ok)" ok "locked database: database intact"
out=$(st import "$T/b.mbox"); rc=$?
tap_is "$rc" 0 "after the lock: the same import succeeds"
tap_is "$(printf '%s\n' "$out" | awk -F'\t' '{print $1}' | tr '\n' ' ')" \
	"9 10 duplicate duplicate duplicate duplicate " "after the lock: two new, four duplicates"

out=$("$SECTEAM_BIN" --config "$T/config" --db "$DB" --gnupghome "$H" list 2>&1)
tap_is "$?" 0 "store.busy_timeout = 1 is accepted"
printf '[store]\n\tbusy_timeout = soon\n' > "$T/config"
out=$("$SECTEAM_BIN" --config "$T/config" --db "$DB" --gnupghome "$H" list 2>&1); rc=$?
tap_is "$rc" 1 "store.busy_timeout = soon: exit 1"
tap_like "$out" "store.busy_timeout 'soon': not a number of seconds" "store.busy_timeout = soon: names the key and the value"
tap_done
