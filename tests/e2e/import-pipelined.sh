#!/bin/sh
# engines: pg
# On a team server, an import sends the writes whose results it does not
# read (signatures, touched files, the timeline) without waiting for
# each.  One the server refuses is found out by a later statement (the
# next read, or the release of the message's savepoint when nothing is
# read after it), yet it is named as itself, with the server's reason;
# like any failure of the store it stops the import, nothing of the
# batch stored; granted again, a re-run stores everything.  Here the
# server refuses touched files (their INSERT revoked): a1 names a file
# and has a Message-ID (looked up after the writes), a2 names one and
# has none (nothing read after its writes).
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup importpipe
mkdir -p "$T/mail"
mail_pgp a1 "files, with an id" "the bug is in net/ipv4/tcp_input.c"
mail_pgp a2 "files, no id" "the bug is in fs/ext4/inode.c"
sed '/^Message-ID:/d' "$T/mail/a2.eml" >"$T/mail/a2.tmp" && mv "$T/mail/a2.tmp" "$T/mail/a2.eml"
mail_pgp a3 "no file at all" "nothing touched here"
tap_is "$(grep -c '^Message-ID:' "$T/mail/a2.eml")" 0 "control: a2 has no Message-ID"

db_sql "REVOKE INSERT ON secteam.report_files FROM secteam_officers" >/dev/null
for m in a2 a1; do
	out=$(st import "$T/mail/$m.eml" "$T/mail/a3.eml" 2>&1); rc=$?
	tap_ok "$([ $rc -ne 0 ]; echo $?)" "$m: the server refuses its files: the import stops" "$out"
	tap_like "$out" "import stopped: cannot store touched files in team server .*permission denied for table report_files" \
		"  naming the write refused, not the statement that found out" "$out"
	tap_is "$(db_sql "SELECT count(*) FROM reports") $(db_sql "SELECT count(*) FROM messages")" "0 0" \
		"  nothing of the batch is stored" "$out"
done

db_sql "GRANT INSERT ON secteam.report_files TO secteam_officers" >/dev/null
out=$(st import "$T/mail/a1.eml" "$T/mail/a2.eml" "$T/mail/a3.eml" 2>&1); rc=$?
tap_is "$rc" 0 "granted again, the re-run exits 0" "$out"
tap_is "$(db_sql "SELECT count(*) FROM reports")" 3 "  all three are stored"
tap_is "$(db_sql "SELECT count(*) FROM report_files")" 2 "  with the two files"
tap_is "$(db_sql "SELECT count(*) FROM signatures")" 3 "  and a signature each"
tap_is "$(db_sql "SELECT count(*) FROM events WHERE kind = 'import'")" 3 \
	"  and an import each in the timeline"
tap_done
