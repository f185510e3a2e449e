#!/bin/sh
# engines: sqlite pg
# End to end, the attacker's side of threading: a
# stranger floods a report's thread with unsigned replies, each one
# In-Reply-To the one before.  The reply we send next names the report's
# first message and the newest messages the reporter or the team signed:
# its References stay small (a few Message-IDs, under 2 KB, whatever the
# thread's length) and its In-Reply-To is never the stranger's.  The
# forward follows the same rule.  A message counts as it verifies when
# the mail is made, never as its row says.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup flood
cf() { /usr/bin/python3 "$SECTEAM_TOP/tests/lib/check-forward.py" "$@"; }
N=${FLOOD_N:-400}
printf '[team]\n\taddress = security@example.org\n[officer]\n\tname = Olga Officer\n' > "$T/config"
stc() { st --config "$T/config" "$@"; }
RITA="Rita Reporter <rita@example.net>"

mk --kind signed --from "$RITA" --sign-as "$REPORTER_FPR" \
	--subject "UAF in net/sched" --body "the report" \
	--message-id "report1@example.net" > "$T/r1.eml"
mk --kind signed --from "$RITA" --sign-as "$REPORTER_FPR" \
	--subject "Re: UAF in net/sched" --body "a reproducer follows" \
	--message-id "rita2@example.net" --in-reply-to "report1@example.net" > "$T/r2.eml"
stc import "$T/r1.eml" "$T/r2.eml" >/dev/null

# The stranger's flood: plain mail, each replying to the one before.
/usr/bin/python3 - "$T/flood.mbox" "$N" <<'EOF'
import sys
n = int(sys.argv[2])
with open(sys.argv[1], "w") as f:
    prev = "rita2@example.net"
    for i in range(n):
        mid = "flood%05d.%s@attacker.example" % (i, "x" * 40)
        f.write("From mallory@attacker.example Thu Jan  1 00:00:00 2026\n"
                "From: Mallory <mallory@attacker.example>\n"
                "To: security@example.org\n"
                "Subject: Re: UAF in net/sched\n"
                "Message-ID: <%s>\nIn-Reply-To: <%s>\n"
                "Date: Thu, 1 Jan 2026 00:00:00 +0000\n\n"
                "noise %d\n\n" % (mid, prev, i))
        prev = mid
EOF
stc import "$T/flood.mbox" >/dev/null 2>"$T/err"
tap_is "$(stc show 1 --json | jq -r .messages)" "$((N + 2))" "the stranger's $N replies joined the thread"

outer() { /usr/bin/python3 -c '
import email, sys
m = email.message_from_binary_file(open(sys.argv[2], "rb"))
print(" ".join((m.get(sys.argv[1]) or "").split()))
' "$1" "$2"; }

out=$(stc reply 1 --yes --outbox "$T/o1" 2>&1); rc=$?
tap_is "$rc" 0 "reply to the flooded report" "$out"
msg=$(find "$T/o1/new" -type f)
refs=$(outer References "$msg")
tap_ok "$([ ${#refs} -lt 2048 ] && echo 0 || echo 1)" "References stay under 2 KB (${#refs} bytes)"
tap_is "$(printf '%s' "$refs" | grep -c attacker.example)" 0 "References name none of the stranger's messages"
tap_is "$(printf '%s' "$refs" | cut -c1-60)" "<report1@example.net> <rita2@example.net>" \
	"References: the report's first message and the reporter's signed reply"
tap_is "$(outer In-Reply-To "$msg")" "<rita2@example.net>" "In-Reply-To: the reporter's message, not the stranger's"

# The team's own mail counts: a second reply answers the first.
mid1=$(printf '%s' "$out" | cut -f4)
out=$(stc reply 1 --yes --outbox "$T/o2" 2>&1); rc=$?
tap_is "$rc" 0 "a second reply" "$out"
msg=$(find "$T/o2/new" -type f)
tap_is "$(outer In-Reply-To "$msg")" "$mid1" "In-Reply-To: the team's own reply (signed by the officer)"
refs=$(outer References "$msg")
tap_is "$(printf '%s' "$refs" | cut -c1-200)" "<report1@example.net> <rita2@example.net> $mid1" \
	"References: the first message and the signed ones"

# The forward (the reporter not credited: none of their Message-IDs)
# names the team's own mail only.
stc vendor add Vic --contact vic@vendor.example --key "$VENDOR_FPR" >/dev/null
out=$(stc vendor notify 1 Vic --forward --outbox "$T/o3" 2>&1); rc=$?
tap_is "$rc" 0 "forward the flooded report (vendor notify --forward)" "$out"
msg=$(find "$T/o3/new" -type f)
refs=$(outer References "$msg")
tap_is "$(printf '%s' "$refs" | cut -c1-200)" "$mid1 $(outer Message-ID "$(find "$T/o2/new" -type f)")" \
	"forward: References name the team's two replies, no stranger's"
tap_is "$(outer In-Reply-To "$msg")" "$mid1" "forward: In-Reply-To the first of them"

# A message counts as it verifies now, not as its row says.  With the
# reporter's consent to be credited, a forward names her signed reply;
# once her key is gone from the keyring, that reply (recorded valid at
# import) no longer verifies, and the next forward does not name it.
stc triage 1 --consent credit >/dev/null
fwd() { # VENDOR OUTBOX: forward report 1 to a new vendor; its References
	stc vendor add "$1" --contact "$1@vendor.example" --key "$VENDOR_FPR" >/dev/null &&
		stc vendor notify 1 "$1" --forward --outbox "$2" >/dev/null 2>&1 &&
		outer References "$(find "$2/new" -type f)"
}
tap_like "$(fwd vince "$T/o4")" "rita2@example.net" \
	"control: with consent, a forward names the reporter's signed reply"
gpg --homedir "$H" --batch --yes --delete-keys "$REPORTER_FPR" >/dev/null 2>&1
tap_is "$(stc show 1 --json | jq -r '.messages_detail[1].verdict')" "unknown-key" \
	"with her key gone, her reply verifies as unknown-key (its row still says valid)"
refs=$(fwd vera "$T/o5")
tap_like "$refs" "$mid1" "  the next forward still names the team's own mail"
tap_unlike "$refs" "rita2@example.net" "  but not her reply"
tap_done
