#!/bin/sh
# engines: sqlite pg
# End to end: `reply`, the officer's answer to the reporter.
# The mail is read by Python's email package (tests/lib/check-forward.py:
# RFC 3156 structure, threading headers), decrypted and verified with the
# reporter's own key by gpg and by Sequoia's sqop; the event carries the
# Message-ID and the copy is in the report's thread.  Every refusal (no
# key, a report that came in encrypted answered in the clear, an unknown
# template field, a field without a value) exits 1 naming the rule, with
# the outbox left empty.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup reply
command -v sqop >/dev/null || { echo "Bail out! sqop (Debian package sqop) is not installed"; exit 1; }
st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config" "$@"; }
cf() { /usr/bin/python3 "$SECTEAM_TOP/tests/lib/check-forward.py" "$@"; }
count() { find "$1" -type f 2>/dev/null | wc -l | tr -d ' '; }
events() { st show "$1" --json | jq -r ".events[] | select(.kind == \"$2\") | .detail"; }
printf '[team]\n\taddress = security@example.org\n[officer]\n\tname = Olga Officer\n' > "$T/config"
gpg --homedir "$S" --batch --export-secret-keys "$REPORTER_FPR" > "$T/rita.key"
gpg --homedir "$H" --batch --export "$OFFICER_FPR" > "$T/officer.cert"

RITA="Rita Reporter <rita@example.net>"
mk --kind encrypted-signed --from "$RITA" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
   --subject "tcp overflow" --body "BODY-CANARY-3b1e: heap overflow in tcp_input.c" \
   --message-id "m1@example.net" > "$T/r1.eml"
mk --kind encrypted-signed --from "$RITA" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
   --subject "Re: tcp overflow" --body "also on 6.1" \
   --message-id "m2@example.net" --in-reply-to "m1@example.net" > "$T/r2.eml"
st import "$T/r1.eml" "$T/r2.eml" >/dev/null

# The acknowledgement, as scripts send it.
out=$(st reply 1 --yes --outbox "$T/o1" 2>"$T/err"); rc=$?
tap_is "$rc" 0 "reply --yes exits 0" "$(cat "$T/err")"
tap_is "$(count "$T/o1/new")" 1 "one message in the outbox"
msg=$(find "$T/o1/new" -type f)
mid=$(printf '%s' "$out" | cut -f4 | tr -d '<>')
tap_is "$(printf '%s' "$out" | cut -f1-3)" "$(printf 'encrypted\trita@example.net\t%s' "$msg")" \
	"output: kind, recipient, Maildir file"
hdr=$(cf encrypted "$msg" "$T/a1.asc"); rc=$?
tap_is "$rc" 0 "RFC 3156 structure (Python email: multipart/encrypted, 2 parts, Version: 1)"
tap_like "$hdr" '^From: Olga Officer <security@example.org>$' "From: the officer"
tap_like "$hdr" '^To: Rita Reporter <rita@example.net>$' "To: the reporter"
tap_like "$hdr" '^Subject: \.\.\.$' "outer Subject: '...' (the real one is inside)"
gpg --homedir "$S" --batch --quiet --decrypt "$T/a1.asc" > "$T/p1" 2>/dev/null
out=$(cf protected "$msg" "$T/p1" "Re: tcp overflow" 2>&1)
tap_is "$out" "Subject: Re: tcp overflow" \
	"header protection: Subject: Re: the report's subject inside (protected-headers=\"v1\"), not outside"
tap_like "$hdr" "^Message-ID: <$mid>\$" "the Message-ID printed is the mail's"
tap_like "$hdr" '^In-Reply-To: <m2@example.net>$' "In-Reply-To: the thread's newest message"
tap_like "$hdr" '^References: <m1@example.net> <m2@example.net>$' "References: the whole thread"
tap_unlike "$(cat "$msg")" 'BODY-CANARY|Thank you' "no plaintext in the mail"

sqop decrypt --verifications-out="$T/v1" --verify-with="$T/officer.cert" "$T/rita.key" \
	< "$T/a1.asc" > "$T/i1" 2>"$T/sqerr"; rc=$?
tap_is "$rc" 0 "sqop decrypts it with the reporter's key" "$(cat "$T/sqerr")"
tap_like "$(cat "$T/v1")" "$OFFICER_FPR" "sqop verifies the officer's signature"
gpg --homedir "$S" --batch --status-fd 1 --decrypt "$T/a1.asc" > "$T/gpgout" 2>/dev/null
tap_like "$(cat "$T/gpgout")" "GOODSIG" "gpg (the reporter's keyring) decrypts and verifies it"
inner=$(cf inner "$T/i1")
tap_like "$inner" 'body: We have received it and track it as report 1; Olga Officer of the' \
	"the ack template, filled in from the report"
tap_like "$inner" 'body: disclosed, for at most 7 days by default and 14 in' "the policy, from the config's numbers"
tap_like "$inner" 'body: > BODY-CANARY-3b1e: heap overflow' "the report is quoted"
tap_like "$(events 1 reply-sent)" "^to rita@example.net \(encrypted, signed; template ack\) <$mid>\$" \
	"the event names the recipient, the template and the Message-ID"
thread=$(st show 1 --json)
tap_is "$(printf '%s' "$thread" | jq -r '.messages')" 3 "the copy is the thread's third message"
tap_is "$(printf '%s' "$thread" | jq -r '[.events[] | select(.kind == "reply")] | length')" 1 \
	"one outgoing message, one timeline entry: the copy adds no import 'reply' event"
tap_is "$(printf '%s' "$thread" | jq -r '.messages_detail[2] | [.message_id, .from, .verdict, .encrypted] | @tsv')" \
	"$(printf '%s\tsecurity@example.org\tvalid\ttrue' "$mid")" "stored encrypted, verified, from the officer"
tap_is "$(printf '%s' "$thread" | jq -r '.messages_detail[2].subject')" "Re: tcp overflow" \
	"the stored copy shows the real subject (read from the protected headers), not '...'"
tap_like "$(st show 1)" "track it as report 1; Olga Officer" "the report view shows the reply's text"

# The officer's own template, and the editor before sending.
mkdir -p "$T/templates"
printf 'Report {id}: {{not a field} handled by {officer}, EDIT-ME\n' > "$T/templates/need-info"
tap_like "$(st reply --list-templates)" "need-info	$T/templates/need-info" "--list-templates shows the officer's file"
tap_like "$(st reply --list-templates)" "credit	shipped" "and the shipped defaults"
cat > "$T/ed.sh" <<'EOS'
#!/bin/sh
sed -i 's/EDIT-ME/EDITED-CANARY-91c0/' "$1"
EOS
chmod +x "$T/ed.sh"
out=$(VISUAL= EDITOR="$T/ed.sh" st reply 1 --template need-info --outbox "$T/o2" 2>&1); rc=$?
tap_is "$rc" 0 "reply through \$EDITOR exits 0" "$out"
cf encrypted "$(find "$T/o2/new" -type f)" "$T/a2.asc" >/dev/null
gpg --homedir "$S" --batch --decrypt "$T/a2.asc" > "$T/i2" 2>/dev/null
tap_like "$(cf inner "$T/i2")" 'body: Report 1: \{not a field\} handled by Olga Officer, EDITED-CANARY-91c0' \
	"what the editor saved is sent ({{ writes a brace)"
printf '#!/bin/sh\nprintf "\\n" >> "$1"\n' > "$T/same.sh"; chmod +x "$T/same.sh"
for ed in true "$T/same.sh"; do
	out=$(VISUAL= EDITOR="$ed" st reply 1 --outbox "$T/o5" 2>&1); rc=$?
	tap_is "$rc" 1 "an unchanged reply ($(basename "$ed"): :q, or a blank line added) exits 1" "$out"
	tap_like "$out" "report 1: nothing sent: the draft was not changed" "saying nothing was sent"
	tap_is "$(count "$T/o5")" 0 "outbox empty"
done
tap_like "$(st help reply)" "--yes +send the template as filled: no .EDITOR, so no check that the draft was changed" \
	"--yes says what it skips"
printf '#!/bin/sh\n: > "$1"\n' > "$T/empty.sh"; chmod +x "$T/empty.sh"
out=$(VISUAL= EDITOR="$T/empty.sh" st reply 1 --outbox "$T/o3" 2>&1); rc=$?
tap_is "$rc" 1 "an emptied reply exits 1"
tap_like "$out" "the mail is empty: nothing sent" "saying nothing was sent"
tap_is "$(count "$T/o3")" 0 "outbox empty"

# Refusals: each names the rule, exits 1, sends nothing.
printf 'Report {id} {bogus}\n' > "$T/templates/ack"
out=$(st reply 1 --yes --outbox "$T/o4" 2>&1); rc=$?
tap_is "$rc" 1 "an unknown template field exits 1"
tap_like "$out" "template 'ack': unknown field '\{bogus\}'" "naming the template and the field"
tap_is "$(count "$T/o4")" 0 "outbox empty"
rm "$T/templates/ack"
out=$(st reply 1 --template fixed --yes --outbox "$T/o4" 2>&1); rc=$?
tap_is "$rc" 1 "{fix_commit} without a fix exits 1"
tap_like "$out" "template 'fixed' uses \{fix_commit\}, but report 1 has no fix commit recorded" "naming the field"
tap_is "$(count "$T/o4")" 0 "outbox empty"
# With a fix recorded (`fix`), {fix_commit} is filled in.
st fix 1 --commit 1a2b3c4d5e6f >/dev/null
out=$(st reply 1 --template fixed --yes --outbox "$T/o8" 2>&1); rc=$?
tap_is "$rc" 0 "{fix_commit} with a recorded fix: sent" "$out"
cf encrypted "$(find "$T/o8/new" -type f)" "$T/a8.asc" >/dev/null
sqop decrypt "$T/rita.key" <"$T/a8.asc" >"$T/i8" 2>/dev/null
tap_like "$(cf inner "$T/i8")" 'body: .*1a2b3c4d5e6f' "the fixed template names the recorded commit"
out=$(st reply 1 --template nosuch --yes --outbox "$T/o4" 2>&1); rc=$?
tap_like "$rc:$out" "^1:.*no template 'nosuch'" "an unknown template exits 1 naming it"

# --to: someone of the report only (the reply quotes it).
out=$(st reply 1 --to 'Sam <sam@example.com>' --yes --outbox "$T/o4" 2>&1); rc=$?
tap_is "$rc" 1 "--to someone outside the report exits 1"
tap_like "$out" "'sam@example.com' neither wrote to its thread nor is a participant" "naming them"
tap_is "$(count "$T/o4")" 0 "outbox empty"
st maintainers 1 --add 'Mia Maintainer <mia@example.org>' >/dev/null
out=$(st reply 1 --to mia@example.org --template need-info --yes --outbox "$T/o7" 2>&1); rc=$?
tap_is "$rc" 0 "--to a participant" "$out"
tap_like "$(cf encrypted "$(find "$T/o7/new" -type f)" "$T/a7.asc")" '^To: "?Mia Maintainer"? <mia@example.org>$' 	"To: the participant, by the name stored"

# A reporter without a usable key (Uma's key is not in the keyring).
UMA="Uma Unknown <uma@unknown.example>"
mk --kind plain --from "$UMA" --subject "plain report" --body "PLAIN-CANARY-5d2a" \
   --message-id "u1@unknown.example" > "$T/u1.eml"
mk --kind encrypted-signed --from "$UMA" --sign-as "$UNKNOWN_FPR" --to "$OFFICER_FPR" \
   --subject "sealed report" --body "SEALED-CANARY" --message-id "u2@unknown.example" > "$T/u2.eml"
st import "$T/u1.eml" >/dev/null; st import "$T/u2.eml" >/dev/null
out=$(st reply 2 --yes --outbox "$T/o5" 2>&1); rc=$?
tap_is "$rc" 1 "no usable key: exit 1"
tap_like "$out" "no usable key for 'uma@unknown.example' \(.*\); use --allow-plaintext" "naming the address and the way out"
tap_is "$(count "$T/o5")" 0 "outbox empty"
out=$(st reply 3 --yes --allow-plaintext --outbox "$T/o5" 2>&1); rc=$?
tap_is "$rc" 1 "a report that came in encrypted is never answered in the clear"
tap_like "$out" "came in encrypted, so it is never answered in the clear" "naming the rule"
tap_is "$(count "$T/o5")" 0 "outbox empty"
out=$(st reply 2 --yes --allow-plaintext --outbox "$T/o6" 2>&1); rc=$?
tap_is "$rc" 0 "--allow-plaintext sends a plain reply" "$out"
pm=$(cf signed "$(find "$T/o6/new" -type f)" "$T/p6.data" "$T/p6.sig" 2>&1); rc=$?
tap_is "$rc" 0 "a plain message, PGP/MIME signed: multipart/signed, 2 parts, pgp-signature (Python email)" "$pm"
gpg --homedir "$S" --batch --status-fd 1 --verify "$T/p6.sig" "$T/p6.data" > "$T/gpgv6" 2>/dev/null
tap_like "$(cat "$T/gpgv6")" "VALIDSIG $OFFICER_FPR" "gpg (the reporter's keyring) verifies the officer's signature"
sqop verify "$T/p6.sig" "$T/officer.cert" < "$T/p6.data" > "$T/v6" 2>&1
tap_like "$(cat "$T/v6")" "$OFFICER_FPR" "sqop verifies it with the officer's certificate"
tap_is "$(st show 2 --json | jq -r '.messages_detail[1] | [.verdict, .encrypted] | @tsv')" \
	"$(printf 'valid\tfalse')" "its copy is stored signed (valid), not encrypted"
tap_like "$pm" '^In-Reply-To: <u1@unknown.example>$' "in the thread"
tap_like "$pm" 'body: We have received it and track it as report 2' "with the template"
tap_unlike "$pm" 'PLAIN-CANARY' "without the quoted report"
tap_like "$(events 2 reply-plaintext)" "^to uma@unknown.example in the clear \(no usable key: .*--allow-plaintext; report not quoted; template ack\) <" \
	"the plaintext reply is recorded"
tap_is "$(st show 2 --json | jq -r '.messages')" 2 "and its copy is in the thread"
tap_is "$(st show 2 --json | jq -r '[.events[] | select(.kind == "reply")] | length')" 0 \
	"and only the reply-plaintext event records it"
# A long subject makes no long line (the ack had a line of
# 110 characters): it stands on a line of its own (indented) in every
# template, and no other line is over 76.
LONGSUBJ="Heap overflow in net/ipv4/tcp_input.c SACK handling of reneging"
mk --kind encrypted-signed --from "$RITA" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
   --subject "$LONGSUBJ" --body "long" --message-id "long@example.net" > "$T/long.eml"
lid=$(st import "$T/long.eml" | cut -f1)
for tpl in ack need-info fixed credit; do
	[ "$tpl" = fixed ] && st fix "$lid" --commit 1a2b3c4d5e6f >/dev/null
	out=$(st reply "$lid" --template $tpl --yes --outbox "$T/ol-$tpl" 2>&1)
	tap_is "$?" 0 "template $tpl: sent" "$out"
	cf encrypted "$(find "$T/ol-$tpl/new" -type f)" "$T/l.asc" >/dev/null
	sqop decrypt "$T/rita.key" <"$T/l.asc" >"$T/l.inner" 2>/dev/null
	long=$(cf inner "$T/l.inner" | sed -n 's/^body: //p' | grep -vxF "  $LONGSUBJ" | awk 'length > 76')
	tap_is "$long" "" "template $tpl with a ${#LONGSUBJ}-character subject: no line over 76"
done
tap_done
