#!/bin/sh
# engines: sqlite pg
# End to end: forwarding a report to the maintainers brought in, as RFC 3156
# PGP/MIME.  The mail's structure is checked by Python's email package
# (tests/lib/check-forward.py); a second OpenPGP implementation (Sequoia's
# sqop) decrypts it with the recipient's key and verifies the officer's
# signature; exploit code only goes with the reporter's consent, when the
# officer releases it (tests/e2e/forward-consent.sh has the rest); recipients
# without a usable key (expired, revoked, none) stop the forward and
# receive nothing, unless --allow-plaintext, which is an event.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup forward
command -v sqop >/dev/null || { echo "Bail out! sqop (Debian package sqop) is not installed"; exit 1; }
st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config" "$@"; }
cf() { /usr/bin/python3 "$SECTEAM_TOP/tests/lib/check-forward.py" "$@"; }
count() { find "$1" -type f 2>/dev/null | wc -l | tr -d ' '; }
events() { st show 1 --json | jq -r ".events[] | select(.kind == \"$1\") | .detail"; }

KT=$T/linux
mkdir -p "$KT/net/ipv4"
cat > "$KT/MAINTAINERS" <<'EOF'
NETWORKING [GENERAL]
M:	Mia Maintainer <mia@example.org>
L:	netdev@vger.kernel.org
S:	Maintained
F:	net/

THE REST
M:	Linus Torvalds <torvalds@linux-foundation.org>
L:	linux-kernel@vger.kernel.org
S:	Buried alive in reporters
F:	*
F:	*/
EOF
cat > "$T/config" <<EOF
[kernel]
	tree = $KT
[team]
	address = security@example.org
EOF

# Keys as the recipients hold them, for sqop.
gpg --homedir "$S" --batch --export-secret-keys "$MAINTAINER_FPR" > "$T/mia.key"
gpg --homedir "$S" --batch --export-secret-keys "$UNKNOWN_FPR" > "$T/uma.key"
gpg --homedir "$H" --batch --export "$OFFICER_FPR" > "$T/officer.cert"

# An encrypted report with an exploit attachment, and a reply.
RITA="Rita Reporter <rita@example.net>"
printf 'int main(void) { /* EXPLOIT-CANARY-51c2 */ return 0; }\n' > "$T/poc.c"
POC_SHA=$(sha256sum "$T/poc.c" | cut -d' ' -f1)
mk --kind encrypted-signed --from "$RITA" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
   --subject "tcp overflow" --attach "$T/poc.c" \
   --body "BODY-CANARY-9e1f: heap overflow in net/ipv4/tcp_input.c, poc attached." \
   --message-id "m1@example.net" > "$T/r1.eml"
mk --kind encrypted-signed --from "$RITA" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
   --subject "Re: tcp overflow" --body "REPLY-CANARY-77aa: also on 6.1" \
   --message-id "m2@example.net" --in-reply-to "m1@example.net" > "$T/r2.eml"
st import "$T/r1.eml" "$T/r2.eml" >/dev/null
tap_is "$(st show 1 --json | jq -r '.messages')" 2 "report with two messages imported"

# Only participants receive it.
st forward 1 --to mia@example.org >/dev/null 2>"$T/err"; rc=$?
tap_like "$rc $(cat "$T/err")" "^2 .*say where the mail goes: --outbox MAILDIR or --sendmail" "forward with nowhere to deliver: a usage error that says where to"
st forward 1 --to mia@example.org --outbox "$T/o0" --sendmail >/dev/null 2>&1; rc=$?
tap_is "$rc" 2 "forward with both --outbox and --sendmail: a usage error"
out=$(st forward 1 --to mia@example.org --outbox "$T/o0" 2>&1); rc=$?
tap_is "$rc" 1 "forward to a non-participant fails"
tap_like "$out" "'mia@example.org' is not a participant of the report.*--add" "naming them, with a hint"
tap_is "$(count "$T/o0")" 0 "nothing delivered"
st maintainers 1 --add mia@example.org >/dev/null

# The forward.
out=$(st forward 1 --to mia@example.org --outbox "$T/o1" 2>"$T/err"); rc=$?
tap_is "$rc" 0 "forward exits 0"
tap_is "$(count "$T/o1/new")" 1 "one message in the outbox"
msg=$(find "$T/o1/new" -type f)
tap_is "$out" "$(printf 'encrypted\tmia@example.org\t%s' "$msg")" "one output line: kind, recipients, Maildir file"
tap_like "$(cat "$T/err")" "1 attachment withheld .*--release-attachment NAME" "the withheld exploit is mentioned"
hdr=$(cf encrypted "$msg" "$T/a1.asc"); rc=$?
tap_is "$rc" 0 "RFC 3156 structure (Python email: multipart/encrypted, 2 parts, Version: 1)"
tap_like "$hdr" '^To: Mia Maintainer <mia@example.org>$' "To: the participant"
tap_like "$hdr" '^Cc: security@example.org$' "Cc: team.address"
tap_like "$hdr" '^Subject: \.\.\.$' "outer Subject: '...' (the real one is inside)"
gpg --homedir "$S" --batch --quiet --decrypt "$T/a1.asc" > "$T/p1" 2>/dev/null
out=$(cf protected "$msg" "$T/p1" "[SECURITY] tcp overflow" 2>&1)
tap_is "$out" "Subject: [SECURITY] tcp overflow" \
	"header protection: Subject: [SECURITY] + the report's subject inside (protected-headers=\"v1\"), not outside"
tap_unlike "$hdr" '^(References|In-Reply-To):' "no References to the reporter's messages (their Message-IDs name the reporter's host)"
tap_unlike "$(cat "$msg")" 'BODY-CANARY|EXPLOIT-CANARY' "no plaintext in the mail"

sqop decrypt --verifications-out="$T/v1" --verify-with="$T/officer.cert" "$T/mia.key" \
	< "$T/a1.asc" > "$T/i1" 2>"$T/sqerr"; rc=$?
tap_is "$rc" 0 "sqop decrypts it with Mia's key" "$(cat "$T/sqerr")"
tap_like "$(cat "$T/v1")" "$OFFICER_FPR" "sqop verifies the officer's signature"
inner=$(cf inner "$T/i1")
tap_like "$inner" 'body: BODY-CANARY-9e1f: heap overflow' "the report's body is in it"
tap_like "$inner" 'body: REPLY-CANARY-77aa' "and the reply's"
tap_like "$inner" "body: \[withheld: exploit code without the reporter's consent: poc.c\]" "the exploit is withheld without consent"
tap_unlike "$inner" '^attachment: |EXPLOIT-CANARY' "and not attached"
tap_like "$inner" 'body: Reporter: +withheld' "the reporter is withheld without consent"
tap_unlike "$inner" 'rita@example.net|Rita Reporter' "the reporter's identity is nowhere in it"
gpg --homedir "$H" --batch --status-fd 1 --decrypt "$T/a1.asc" > "$T/gpgout" 2>/dev/null
tap_like "$(cat "$T/gpgout")" "GOODSIG" "the officer can decrypt it too (gpg, officer's home)"
tap_is "$(events forward)" "to mia@example.org (encrypted, signed; 1 attachment withheld)" "the forward is an event"

# With the reporter's consent the officer can release the exploit.
out=$(st forward 1 --to mia@example.org --release-attachment poc.c --outbox "$T/o2" 2>&1); rc=$?
tap_is "$rc" 1 "releasing exploit code without the reporter's consent is refused"
tap_like "$out" "'poc.c' looks like exploit code .*--consent exploit" "naming the attachment and the consent"
tap_is "$(count "$T/o2")" 0 "and nothing is sent"
st triage 1 --consent exploit >/dev/null
st forward 1 --to mia@example.org --release-attachment poc.c --outbox "$T/o2" >/dev/null 2>&1
cf encrypted "$(find "$T/o2/new" -type f)" "$T/a2.asc" >/dev/null
sqop decrypt --verifications-out="$T/v2" --verify-with="$T/officer.cert" "$T/mia.key" \
	< "$T/a2.asc" > "$T/i2" 2>/dev/null
inner=$(cf inner "$T/i2")
tap_like "$inner" "^attachment: poc.c [a-z/-]+ [0-9]+ $POC_SHA$" "after consent the released exploit is attached, byte for byte" "$inner"
tap_like "$(cat "$T/v2")" "$OFFICER_FPR" "and the mail is signed"
tap_like "$(events forward | tail -n 1)" '^to mia@example.org \(encrypted, signed; 1 attachment\)$' "second forward event"
tap_like "$(events attachment-release)" "^'poc.c' \(message 1, [0-9]+ bytes\) released to mia@example.org" "the release is an event"

# Recipients without a usable key: nothing is delivered.
st maintainers 1 --add 'Eve Expired <eve@expired.example>' --add 'Rob Revoked <rob@revoked.example>' \
	--add 'Uma Unknown <uma@unknown.example>' >/dev/null
for who in "eve@expired.example:key expired" "rob@revoked.example:key revoked" "uma@unknown.example:no key"; do
	addr=${who%%:*}; why=${who#*:}
	out=$(st forward 1 --to mia@example.org --to "$addr" --outbox "$T/o3" 2>&1); rc=$?
	tap_is "$rc" 1 "forward with $addr fails"
	tap_like "$out" "no usable key for '$addr' \($why\); use --allow-plaintext" "the message names $addr ($why)"
done
tap_is "$(count "$T/o3")" 0 "nobody receives anything (the outbox stays empty)"
n=$(events forward | wc -l | tr -d ' ')
tap_is "$n" 2 "no event for a refused forward"

# --allow-plaintext: Uma gets a plain copy (without the exploit), logged.
out=$(st forward 1 --to mia@example.org --to uma@unknown.example --allow-plaintext --outbox "$T/o4" 2>&1); rc=$?
tap_is "$rc" 0 "--allow-plaintext forward exits 0"
tap_is "$(count "$T/o4/new")" 2 "two messages: encrypted and plain"
tap_like "$out" "$(printf '^encrypted\tmia@example.org\t')" "encrypted to Mia"
tap_like "$out" "$(printf '^plaintext\tuma@unknown.example\t')" "plain copy to Uma"
enc=$(printf '%s\n' "$out" | awk -F'\t' '$1 == "encrypted" {print $3}')
pl=$(printf '%s\n' "$out" | awk -F'\t' '$1 == "plaintext" {print $3}')
hdr=$(cf encrypted "$enc" "$T/a4.asc")
tap_like "$hdr" '^To: Mia Maintainer <mia@example.org>$' "the encrypted copy is To: Mia only"
sqop decrypt "$T/uma.key" < "$T/a4.asc" >/dev/null 2>&1; rc=$?
tap_ok $((rc == 0)) "Uma's key cannot decrypt the encrypted copy"
plain=$(cf plain "$pl"); rc=$?
tap_is "$rc" 0 "the plain copy is a plain MIME message"
tap_like "$plain" '^To: Uma Unknown <uma@unknown.example>$' "To: Uma"
tap_unlike "$plain" '^Cc:' "the plain copy is not Cc'd to the team"
tap_like "$plain" 'body: BODY-CANARY-9e1f' "with the report"
tap_like "$plain" 'body: This copy is NOT encrypted' "saying it is not encrypted"
tap_unlike "$plain" 'attachment: poc.c|EXPLOIT-CANARY' "exploit code never goes in clear, even with consent"
tap_like "$(events forward-plaintext)" '^plain copy to uma@unknown.example \(no usable key: no key; --allow-plaintext\)$' "forward-plaintext event in show --json"

# A non-participant only with --force-recipient; sendmail delivery.
printf '#!/bin/sh\ncat > "%s/sent.eml"\n' "$T" > "$T/fake-sendmail"
chmod +x "$T/fake-sendmail"
printf '[forward]\n\tsendmail = %s/fake-sendmail\n' "$T" >> "$T/config"
out=$(st forward 1 --to 'Vic Vendor <vic@vendor.example>' --force-recipient --sendmail 2>"$T/err"); rc=$?
tap_is "$rc" 0 "--force-recipient --sendmail exits 0"
tap_like "$(cat "$T/err")" "1 attachment withheld" "poc.c was not released this time: withheld"
tap_like "$out" "$(printf '^encrypted\tvic@vendor.example\tsent via sendmail$')" "sent via the configured sendmail"
tap_like "$(cf encrypted "$T/sent.eml" "$T/a5.asc")" '^To: Vic Vendor <vic@vendor.example>$' "sendmail got the PGP/MIME mail"
tap_like "$(events forward | tail -n 1)" 'not participants, --force-recipient: vic@vendor.example\)$' "the event says Vic was not a participant"
printf '#!/bin/sh\ncat >/dev/null\nexit 3\n' > "$T/fake-sendmail"
out=$(st forward 1 --to mia@example.org --sendmail 2>&1); rc=$?
tap_is "$rc" 1 "a failing sendmail fails the forward"
tap_like "$out" "exit status 3" "saying how"

# Usage.
out=$(st forward 1 --to mia@example.org 2>&1); rc=$?
tap_is "$rc" 2 "no outbox and no --sendmail: usage error"
tap_like "$out" "--outbox MAILDIR or --sendmail" "saying what to choose"
out=$(st forward 99 --to mia@example.org --outbox "$T/o9" 2>&1); rc=$?
tap_is "$rc" 1 "unknown report fails"
tap_like "$out" "no report 99" "naming it"
tap_done
