#!/bin/sh
# engines: sqlite pg
# End to end: what a forward carries without the reporter's consent.  The
# report has exploit code whose name says nothing (attack.cpp), a crash
# log (kasan.txt), a PDF write-up naming the reporter, the reporter's
# original mail (message/rfc822) and a patch with a Reported-by line; a
# reply comes from the reporter's other address, signed by the same key.
# The forward, decrypted by Mia's key with Sequoia's sqop and read by
# Python's email package (tests/lib/check-forward.py), must hold the
# report's text and the patch only, and no trace of the reporter.  The
# officer can release one attachment by name (an event); exploit code
# still needs the reporter's consent; with consent to release exploit
# code and to be credited everything goes.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup forward-consent
command -v sqop >/dev/null || { echo "Bail out! sqop (Debian package sqop) is not installed"; exit 1; }
export SECTEAM_OFFICER=alice
cf() { /usr/bin/python3 "$SECTEAM_TOP/tests/lib/check-forward.py" "$@"; }
count() { find "$1" -type f 2>/dev/null | wc -l | tr -d ' '; }
events() { st show 1 --json | jq -r ".events[] | select(.kind == \"$1\") | .detail"; }
gpg --homedir "$S" --batch --export-secret-keys "$MAINTAINER_FPR" >"$T/mia.key"

R1="zquixxotl <zquixxotl@acme-secret-9f.io>"
R2="Zebulon Quixxotl <zebulon.q@othermail-4c.example>"
mkdir "$T/a"
printf '// ATTACK-CANARY by Zebulon Quixxotl\nint main(void) { return 0; }\n' >"$T/a/attack.cpp"
printf 'KASAN-CANARY: use-after-free in dev_queue_xmit\nrun by zquixxotl on jdoe-box\n' >"$T/a/kasan.txt"
printf '%%PDF-1.4\n%% WRITEUP-CANARY a write-up by Zebulon Quixxotl\n%%%%EOF\n' >"$T/a/writeup.pdf"
printf 'From: %s\nTo: someone@acme-secret-9f.io\nSubject: the original\nMessage-ID: <orig@acme-secret-9f.io>\n\nORIGINAL-CANARY\n' \
	"$R1" >"$T/a/original.eml"
cat >"$T/a/0001-net-fix.patch" <<EOF
From: $R2
Subject: [PATCH] net: fix the use-after-free

Reported-by: $R1
---
diff --git a/net/core/dev.c b/net/core/dev.c
--- a/net/core/dev.c
+++ b/net/core/dev.c
@@ -1 +1 @@
-a
+PATCH-CANARY
EOF
KASAN_SHA=$(sha256sum "$T/a/kasan.txt" | cut -d' ' -f1)
mk --kind encrypted-signed --from "$R1" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
	--subject "UAF in net/core found by zquixxotl" \
	--body "Hi, I am Zebulon Quixxotl (zquixxotl@acme-secret-9f.io). BODY-CANARY in net/core/dev.c." \
	--attach "$T/a/attack.cpp" --attach "$T/a/kasan.txt" --attach "$T/a/writeup.pdf" \
	--attach "$T/a/original.eml" --attach "$T/a/0001-net-fix.patch" \
	--message-id "zq-1@mx.acme-secret-9f.io" >"$T/r1.eml"
mk --kind encrypted-signed --from "$R2" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
	--subject "Re: UAF in net/core" --body "REPLY-CANARY from my other address" \
	--message-id "r2@zebulon-laptop.lan-7d.example" --in-reply-to "zq-1@mx.acme-secret-9f.io" >"$T/r2.eml"
out=$(st import "$T/r1.eml" "$T/r2.eml"); rc=$?
tap_is "$rc:$(printf '%s\n' "$out" | cut -f 1 | tr '\n' ' ')" "0:1 1 " "the report and the reply import"
st maintainers 1 --add 'Mia Maintainer <mia@example.org>' >/dev/null

# decrypt N: the forward in $T/oN, decrypted by Mia's key into $T/iN,
# attachments in $T/dN/; prints the outer headers.
decrypt() {
	_m=$(find "$T/o$1/new" -type f)
	cf encrypted "$_m" "$T/a$1.asc" &&
		sqop decrypt "$T/mia.key" <"$T/a$1.asc" >"$T/i$1" 2>"$T/sqerr" &&
		mkdir -p "$T/d$1" && cf inner "$T/i$1" "$T/d$1" >"$T/c$1"
}
LEAKS='zebulon|quixxotl|acme-secret-9f|othermail-4c|lan-7d|jdoe-box|attack-canary|kasan-canary|writeup-canary|original-canary'
lower() { cat "$@" | tr '[:upper:]' '[:lower:]'; }

# Without consent: the text and the patch only.
out=$(st forward 1 --to mia@example.org --outbox "$T/o1" 2>&1); rc=$?
tap_is "$rc" 0 "forward without consent exits 0" "$out"
tap_like "$out" "4 attachments withheld" "four attachments are withheld, and it says so"
hdr=$(decrypt 1); rc=$?
tap_is "$rc" 0 "Mia's key decrypts it (sqop); Python's email reads it" "$(cat "$T/sqerr")"
inner=$(cat "$T/c1")
tap_like "$inner" 'body: .*BODY-CANARY' "the report's text is in it"
tap_like "$inner" 'body: REPLY-CANARY' "and the reply's"
tap_is "$(grep -c '^attachment: ' "$T/c1")" 1 "one attachment only"
tap_like "$inner" '^attachment: 0001-net-fix.patch text/x-diff ' "the patch"
tap_like "$(cat "$T/d1/1")" 'PATCH-CANARY' "the patch's change is intact"
tap_like "$(cat "$T/d1/1")" '^Reported-by: \[reporter\] <\[reporter\]>$' "its Reported-by line is redacted"
# The forwarded original mail has no file name (GMime gives none to a
# message/rfc822 part).
for a in attack.cpp kasan.txt writeup.pdf '(unnamed)'; do
	tap_is "$(grep -cF "body: [withheld: $a (not a patch); ask the security team for it]" "$T/c1")" 1 \
		"$a is withheld, in so many words"
done
tap_unlike "$(lower "$T/c1" "$T/d1/"*)" "$LEAKS" "nothing names the reporter or leaks a withheld file"
found=$(grep -liE "$LEAKS" "$T/i1" "$T/c1" "$T/d1/"* 2>/dev/null)
tap_is "$found" "" "no reporter string anywhere in the decrypted mail (case-insensitive)"
tap_like "$inner" 'body: --- message 2 of 2, .*, from the reporter ---' "the reply from the other address is 'from the reporter'"
tap_like "$hdr" '^Subject: \.\.\.$' "the outer Subject is '...'"
out=$(cf protected "$(find "$T/o1/new" -type f)" "$T/i1" "[SECURITY] UAF in net/core found by [reporter]" 2>&1)
tap_is "$out" "Subject: [SECURITY] UAF in net/core found by [reporter]" \
	"the Subject inside (protected headers) is redacted"
tap_unlike "$hdr" '^(References|In-Reply-To):' "no References to the reporter's Message-IDs"
tap_unlike "$(lower "$(find "$T/o1/new" -type f)")" "$LEAKS|body-canary" "the mail on disk holds nothing in clear"

# The officer releases the crash log: it goes, and that is an event.
out=$(st forward 1 --to mia@example.org --release-attachment kasan.txt --outbox "$T/o2" 2>&1); rc=$?
tap_is "$rc" 0 "forward --release-attachment kasan.txt exits 0" "$out"
tap_like "$out" "3 attachments withheld" "three are still withheld"
decrypt 2 >/dev/null
tap_like "$(cat "$T/c2")" "^attachment: kasan.txt text/plain [0-9]+ $KASAN_SHA$" "kasan.txt is attached, byte for byte"
tap_is "$(grep -c '^attachment: ' "$T/c2")" 2 "with the patch, nothing else"
tap_like "$(events attachment-release)" "^'kasan.txt' \\(message 1, [0-9]+ bytes\\) released to mia@example.org \\(--release-attachment\\)$" \
	"the release is recorded as an event"

# A name that is no attachment, and exploit code without consent: refused.
out=$(st forward 1 --to mia@example.org --release-attachment nosuch.txt --outbox "$T/o3" 2>&1); rc=$?
tap_is "$rc" 1 "releasing a name that is no attachment fails"
tap_like "$out" "no attachment named 'nosuch.txt' \\(attachments: 'attack.cpp', 'kasan.txt', 'writeup.pdf', '0001-net-fix.patch'\\)" \
	"naming it and the attachments there are"
printf '/* POC-CANARY */\n' >"$T/a/poc.c"
mk --kind encrypted-signed --from "$R1" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
	--subject "Re: UAF in net/core" --body "and a reproducer" --attach "$T/a/poc.c" \
	--message-id "zq-3@mx.acme-secret-9f.io" --in-reply-to "zq-1@mx.acme-secret-9f.io" >"$T/r3.eml"
st import "$T/r3.eml" >/dev/null
out=$(st forward 1 --to mia@example.org --release-attachment poc.c --outbox "$T/o3" 2>&1); rc=$?
tap_is "$rc" 1 "releasing exploit code without the reporter's consent is refused"
tap_like "$out" "'poc.c' looks like exploit code and the reporter has not consented to its release \\(triage 1 --consent exploit\\)" \
	"naming it and the consent it needs"
tap_is "$(count "$T/o3")" 0 "nothing was sent"

# Consent to release exploit code and to be credited: everything goes.
st triage 1 --consent exploit >/dev/null
st triage 1 --consent credit >/dev/null
st forward 1 --to mia@example.org --outbox "$T/o4" >/dev/null 2>&1
hdr=$(decrypt 4)
tap_is "$(grep -c '^attachment: ' "$T/c4")" 6 "with both consents every attachment goes (five and poc.c)"
tap_like "$(cat "$T/c4")" '^attachment: \(unnamed\) message/rfc822 ' "the original mail too"
tap_like "$(cat "$T/c4")" 'Reporter: +zquixxotl <zquixxotl@acme-secret-9f.io>' "and the reporter is named"
tap_like "$hdr" '^References: <zq-1@mx.acme-secret-9f.io>' "and the thread is referenced"
tap_done
