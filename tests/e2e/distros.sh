#!/bin/sh
# engines: sqlite pg
# End to end: `distros` (the linux-distros notice) and `announce` (the
# oss-security post).  Each rule of the list refuses the notice
# by name with the outbox left empty (no fix, no date, more than 14 days,
# a public report, which is offered `announce`); the notice is RFC 3156
# (Python email), decrypted and verified with the list's key by gpg and
# sqop, an event with its Message-ID, a copy in the thread, and the list's
# vendor status becomes notified.  The announcement is refused under
# embargo, goes in the clear, and names the reporter only with consent.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup distros
command -v sqop >/dev/null || { echo "Bail out! sqop (Debian package sqop) is not installed"; exit 1; }
st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config" "$@"; }
cf() { /usr/bin/python3 "$SECTEAM_TOP/tests/lib/check-forward.py" "$@"; }
count() { find "$1" -type f 2>/dev/null | wc -l | tr -d ' '; }
events() { st show 1 --json | jq -r ".events[] | select(.kind == \"$1\") | .detail"; }
printf '[team]\n\taddress = security@example.org\n' > "$T/config"
# The list's key, as its members hold it: Vic's, for the test.
gpg --homedir "$S" --batch --export-secret-keys "$VENDOR_FPR" > "$T/list.key"
gpg --homedir "$H" --batch --export "$OFFICER_FPR" > "$T/officer.cert"

RITA="Rita Reporter <rita@example.net>"
printf 'int main(void) { /* EXPLOIT-CANARY-c3d1 */ return 0; }\n' > "$T/poc.c"
mk --kind encrypted-signed --from "$RITA" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
   --subject "tcp overflow" --attach "$T/poc.c" \
   --body "BODY-CANARY-77e2: heap overflow in net/ipv4/tcp_input.c" \
   --message-id "m1@example.net" > "$T/r1.eml"
st import "$T/r1.eml" >/dev/null
st vendor add linux-distros --contact linux-distros@vs.openwall.org --key "$VENDOR_FPR" \
	--kind distro >/dev/null

refused() { # DESCRIPTION PATTERN ARGS...
	_d=$1; _p=$2; shift 2
	out=$(st "$@" --yes --outbox "$T/none" 2>&1); rc=$?
	tap_is "$rc" 1 "$_d: exit 1"
	tap_like "$out" "$_p" "$_d: names the rule"
	tap_is "$(count "$T/none")" 0 "$_d: outbox empty"
}
refused "distros without a fix" "rule 'a fix must exist': the report is new, not fix-ready, and no fix is recorded" distros 1
st triage 1 --state triaged >/dev/null; st triage 1 --state accepted >/dev/null
# A fix recorded with `fix` (no tree: unchecked) satisfies the rule as
# fix-ready does: the next rule speaks.
st fix 1 --commit 1a2b3c4d5e6f >/dev/null
refused "distros with a recorded fix, no date" "rule 'a proposed public date'" distros 1
st triage 1 --state fixing >/dev/null
st triage 1 --state fix-ready >/dev/null
refused "distros without a date" "rule 'a proposed public date': the report has none" distros 1
st date propose 1 +20d --by reporter --reason "conference talk" >/dev/null
refused "distros more than 14 days ahead" "rule 'at most 14 days': the proposed public date .* is more than 14 days away \(in (19|20) days\)" distros 1
st date set 1 +5d >/dev/null
refused "announce under embargo" "cannot announce report 1: report 1 is under embargo until .*: no announcement before disclosure" announce 1

# An editor left without a change (vi's :q) sends nothing.
out=$(VISUAL= EDITOR=true st distros 1 --outbox "$T/o0" 2>&1); rc=$?
tap_is "$rc" 1 "distros: an unchanged draft exits 1" "$out"
tap_like "$out" "nothing sent: the draft was not changed" "saying the draft was not changed"
tap_is "$(count "$T/o0")" 0 "outbox empty"
tap_is "$(events distros-notice)" "" "no distros-notice event"

# The notice.
out=$(st distros 1 --yes --outbox "$T/o1" 2>"$T/err"); rc=$?
tap_is "$rc" 0 "distros exits 0" "$(cat "$T/err")"
msg=$(find "$T/o1/new" -type f)
tap_is "$(count "$T/o1/new")" 1 "one message in the outbox"
mid=$(printf '%s' "$out" | cut -f4 | tr -d '<>')
hdr=$(cf encrypted "$msg" "$T/a1.asc"); rc=$?
tap_is "$rc" 0 "RFC 3156 structure (Python email)"
tap_like "$hdr" '^To: linux-distros@vs.openwall.org$' "To: the list (the directory's contact)"
tap_like "$hdr" '^Subject: \.\.\.$' "outer Subject: '...' (the real one is inside)"
gpg --homedir "$S" --batch --quiet --decrypt "$T/a1.asc" > "$T/p1" 2>/dev/null
out=$(cf protected "$msg" "$T/p1" "[vs] Linux kernel: tcp overflow" 2>&1)
tap_is "$out" "Subject: [vs] Linux kernel: tcp overflow" \
	"header protection: Subject: the list's tag and the report's subject inside (protected-headers=\"v1\"), not outside"
tap_like "$hdr" "^Message-ID: <$mid>\$" "its Message-ID is the one printed"
tap_unlike "$hdr" 'example.net' "no References to the reporter's messages (no credit consent)"
tap_unlike "$(cat "$msg")" 'BODY-CANARY|Proposed' "nothing in the clear"
sqop decrypt --verifications-out="$T/v1" --verify-with="$T/officer.cert" "$T/list.key" \
	< "$T/a1.asc" > "$T/i1" 2>"$T/sqerr"; rc=$?
tap_is "$rc" 0 "sqop decrypts it with the list's key" "$(cat "$T/sqerr")"
tap_like "$(cat "$T/v1")" "$OFFICER_FPR" "sqop verifies the officer's signature"
gpg --homedir "$S" --batch --status-fd 1 --decrypt "$T/a1.asc" > "$T/g1" 2>/dev/null
tap_like "$(cat "$T/g1")" "GOODSIG" "gpg decrypts and verifies it too"
inner=$(cf inner "$T/i1")
tap_like "$inner" 'body: Affected: +the Linux kernel: net/ipv4/tcp_input.c' "affected: the report's files"
tap_like "$inner" 'body: Fix: +commit 1a2b3c4d5e6f' "the fix: the recorded commit"
tap_like "$inner" "body: Proposed date: $(date -u -d @$(( $(date +%s) + 5 * 86400 )) +%Y-%m-%d)" "the proposed date"
tap_like "$inner" "body: Proposed date: [0-9-]{10} [0-9]{2}:[0-9]{2} UTC$" "  with its time and time zone"
tap_like "$inner" 'body: Credit: +the reporter, who is not named without their consent' "credit as consented"
tap_unlike "$inner" 'rita|Rita|EXPLOIT-CANARY|^attachment:' "no reporter identity, no exploit code"
tap_like "$(events distros-notice)" "^to linux-distros@vs.openwall.org \(encrypted to the list's key $VENDOR_FPR, signed\) <$mid>\$" \
	"the event names the list, its key and the Message-ID"
tap_is "$(st show 1 --json | jq -r '.vendors[] | select(.name == "linux-distros") | .status')" notified \
	"the list's vendor status is notified"
tap_is "$(st show 1 --json | jq -r --arg m "$mid" '[.messages_detail[] | select(.message_id == $m)] | length')" 1 \
	"the copy is in the thread"

# Public now: no distros notice, the announcement instead.
st triage 1 --public >/dev/null
refused "distros for a public report" "rule 'not public': the report is marked public.*announce 1" distros 1
out=$(VISUAL= EDITOR=true st announce 1 --outbox "$T/o2" 2>&1); rc=$?
tap_is "$rc" 1 "announce: an unchanged draft exits 1" "$out"
tap_like "$out" "nothing sent: the draft was not changed" "saying the draft was not changed"
tap_is "$(count "$T/o2")" 0 "outbox empty"
out=$(st announce 1 --yes --outbox "$T/o2" 2>&1); rc=$?
tap_is "$rc" 0 "announce exits 0 once public" "$out"
pm=$(cf plain "$(find "$T/o2/new" -type f)"); rc=$?
tap_is "$rc" 0 "the announcement is not encrypted (Python email)"
cf signed "$(find "$T/o2/new" -type f)" "$T/a2.data" "$T/a2.sig" >/dev/null 2>&1
tap_like "$(sqop verify "$T/a2.sig" "$T/officer.cert" < "$T/a2.data" 2>&1)" "$OFFICER_FPR" \
	"but PGP/MIME signed by the officer (Python email, sqop verify)"
tap_like "$pm" '^To: oss-security@lists.openwall.com$' "To: oss-security"
tap_like "$pm" 'body: Credit: +the reporter, who is not named without their consent' "no credit without consent"
tap_like "$pm" 'body: Exploit: +withheld' "no exploit code without consent"
tap_unlike "$pm" 'rita|Rita|EXPLOIT-CANARY|^attachment:' "the reporter is named nowhere"
tap_like "$(events announce)" '^public post to oss-security@lists.openwall.com \(not encrypted\) <' "the announcement is an event"
tap_is "$(st show 1 --json | jq -r '[.events[] | select(.kind == "reply")] | length')" 0 \
	"the copies of the notice and the post add no import 'reply' event"
st triage 1 --consent credit >/dev/null
st announce 1 --yes --outbox "$T/o3" >/dev/null 2>&1
tap_like "$(cf plain "$(find "$T/o3/new" -type f)")" 'body: Credit: +Rita Reporter <rita@example.net>' \
	"with consent, the reporter is credited"

# A fix the kernel tree has in a tagged release is public: no distros
# notice, announce instead.
. "$SECTEAM_TOP/tests/lib/gitrepo.sh"
gitrepo_make "$T/linux"
mk --kind encrypted-signed --from "$RITA" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
   --subject "frob overflow" --body "overflow in net/core/frob.c" --message-id "m2@example.net" > "$T/r2.eml"
st import "$T/r2.eml" >/dev/null
st fix 2 --commit "$(git -C "$T/linux" rev-parse v1.1-rc1)" --tree "$T/linux" >/dev/null
st date set 2 +5d >/dev/null
refused "distros for a fix in a released tree" "rule 'fix not public': its fix is in the released tree \(v1.1-rc1\).*announce 2" distros 2
tap_done
