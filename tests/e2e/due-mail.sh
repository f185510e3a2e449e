#!/bin/sh
# engines: sqlite pg
# End to end: `due --mail`, the reminders behind `due`, with
# time pinned by SECTEAM_TEST_NOW.  A vendor silent for 5 working days, a
# participant who has not acknowledged after 2, and the officer's digest
# of their claimed reports due within 2 days: run three times in one day
# (as cron would), exactly one message per recipient; the next working
# day nothing; two working days later one more each.  The reminders are
# decrypted and verified with the recipient's key (gpg and sqop), their
# structure read by Python's email package, are
# events with their Message-IDs; --dry-run sends and records nothing, and
# warns of the same skips (no usable key) as the real run.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup due-mail
st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config" "$@"; }
cf() { /usr/bin/python3 "$SECTEAM_TOP/tests/lib/check-forward.py" "$@"; }
count() { find "$T/out" -type f 2>/dev/null | wc -l | tr -d ' '; }
to_of() { for f in $(find "$T/out/new" -type f 2>/dev/null); do grep -m1 '^To:' "$f"; done | sort | uniq -c | sed 's/^ *//'; }
at() { SECTEAM_TEST_NOW=$1; export SECTEAM_TEST_NOW; }
cat > "$T/config" <<EOF
[team]
	address = security@example.org
[officers]
	$E2E_OFFICER = security@example.org
EOF

at 2026-11-30T10:00:00Z
mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
   --to "$OFFICER_FPR" --subject "tcp overflow" --body "a heap overflow" \
   --message-id "m1@example.net" --date "Mon, 30 Nov 2026 09:00:00 +0000" > "$T/r1.eml"
st import "$T/r1.eml" >/dev/null
# The reporter is answered at once: no reporter-waiting reminder here
# (tests/e2e/due-reporter.sh has those).
st reply 1 --yes --outbox "$T/replies" >/dev/null
st vendor add vic --contact vic@vendor.example --key "$VENDOR_FPR" >/dev/null
st vendor notify 1 vic >/dev/null
st triage 1 --claim >/dev/null
st date set 1 2026-12-08T12:00:00Z --reason "the fix lands in rc1" --override >/dev/null
at 2026-12-03T10:00:00Z
st maintainers 1 --add "Mia Maintainer <mia@example.org>" >/dev/null

# Nothing is due yet on Friday: the vendor silent for 4 working days, the
# participant brought in 1 working day ago, the date 4 days away.
at 2026-12-04T09:00:00Z
out=$(st due --mail --outbox "$T/out" 2>&1); rc=$?
tap_is "$rc:$(count)" "0:0" "Friday: no reminder is due yet" "$out"
# `due` and `due --mail` follow one rule (core/due.c): what is not worth
# a reminder yet is not listed either.
tap_is "$(st due --json | jq -c '[.items[] | .kind] | sort')" '[]' \
	"Friday: due lists nothing either (participant 1 working day, vendor 4)"

# Monday: 5 working days of silence, 2 without acknowledgement, the date
# within 2 days; a dry run first.
at 2026-12-07T09:00:00Z
out=$(st due --mail --dry-run 2>&1); rc=$?
tap_is "$rc" 0 "--dry-run exits 0"
tap_like "$out" "^would send	vendor	vic@vendor.example	report 1\$" "dry run: the silent vendor"
tap_like "$out" "^would send	participant	mia@example.org	report 1\$" "dry run: the participant"
tap_like "$out" "^would send	digest	security@example.org	report 1\$" "dry run: the officer's digest"
tap_is "$(st due --json | jq -c '[.items[] | [.kind, .who]] | sort')" \
	'[["due",null],["participant-unacknowledged","mia@example.org"],["vendor-silent","vic"]]' \
	"Monday: due lists exactly what the reminders are for"
tap_is "$(count):$(st show 1 --json | jq '[.events[] | select(.kind == "reminder")] | length')" "0:0" \
	"the dry run sends and records nothing"
# An officer's digest without their address is a skip too (the
# dry run warned and exited 0): exit 1, the others still listed.
printf '[team]\n\taddress = security@example.org\n' >"$T/noaddr.conf"
out=$("$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/noaddr.conf" due --mail --dry-run 2>&1); rc=$?
tap_is "$rc" 1 "--dry-run without the officer's address exits 1" "$out"
tap_like "$out" "warning: no digest for officer $E2E_OFFICER: set officers.$E2E_OFFICER" "saying why"
tap_like "$out" "^would send	vendor	vic@vendor.example	report 1\$" "and what it would send"
for h in 09 13 17; do
	at "2026-12-07T$h:00:00Z"
	st due --mail --outbox "$T/out" >"$T/run$h" 2>&1 || echo "rc=$?" >>"$T/run$h"
done
tap_is "$(count)" 3 "three runs on Monday: three messages" "$(cat "$T/run09" "$T/run13" "$T/run17")"
tap_is "$(to_of)" "$(printf '1 To: mia@example.org\n1 To: security@example.org\n1 To: vic@vendor.example')" \
	"exactly one per recipient"
tap_is "$(cat "$T/run13" "$T/run17")" "" "the later runs send nothing and say nothing"
tap_is "$(st show 1 --json | jq '[.events[] | select(.kind == "reminder")] | length')" 3 "three reminder events"

vic=$(grep -l '^To: vic@vendor.example' $(find "$T/out/new" -type f))
cf encrypted "$vic" "$T/v.asc" > "$T/vh"; rc=$?
tap_is "$rc" 0 "the vendor's reminder is RFC 3156 (Python email)"
tap_like "$(cat "$T/vh")" '^Subject: \.\.\.$' "outer Subject: '...' (the real one is inside)"
gpg --homedir "$S" --batch --status-fd 1 --decrypt "$T/v.asc" > "$T/vg" 2>/dev/null
gpg --homedir "$S" --batch --quiet --decrypt "$T/v.asc" > "$T/vp" 2>/dev/null
subj=$(/usr/bin/python3 -c 'import email,sys; print(email.message_from_binary_file(open(sys.argv[1],"rb")).get("Subject"))' "$T/vp")
tap_like "$subj" '^\[SECURITY\] Reminder: report 1: ' "its subject names the report (inside)"
out=$(cf protected "$vic" "$T/vp" "$subj" 2>&1)
tap_is "$out" "Subject: $subj" \
	"header protection: the subject inside (protected-headers=\"v1\"), not outside"
tap_like "$(cat "$T/vg")" "GOODSIG" "Vic's key decrypts it, the officer's signature verifies"
tap_like "$(cat "$T/vh")" '^To: vic@vendor.example$' "To: the vendor's contact"
gpg --homedir "$S" --batch --export-secret-keys "$VENDOR_FPR" > "$T/vic.key"
gpg --homedir "$H" --batch --export "$OFFICER_FPR" > "$T/officer.cert"
sqop decrypt --verifications-out="$T/vv" --verify-with="$T/officer.cert" "$T/vic.key" \
	< "$T/v.asc" > "$T/vi" 2>"$T/sqerr"; rc=$?
tap_is "$rc" 0 "sqop decrypts it with Vic's key" "$(cat "$T/sqerr")"
tap_like "$(cat "$T/vv")" "$OFFICER_FPR" "sqop verifies the officer's signature"
vin=$(cf inner "$T/vi" 2>&1)
tap_like "$vin" '^body: .*report 1' "the decrypted entity is text/plain naming the report (Python email)"
tap_unlike "$vin" '^attachment:' "with nothing attached"
mia=$(grep -l '^To: mia@example.org' $(find "$T/out/new" -type f))
cf encrypted "$mia" "$T/m.asc" >/dev/null
gpg --homedir "$S" --batch --status-fd 1 --decrypt "$T/m.asc" > "$T/mg" 2>/dev/null
tap_like "$(grep "GOODSIG\|VALIDSIG" "$T/mg" | tr '\n' ' ')" "GOODSIG.*VALIDSIG $OFFICER_FPR|VALIDSIG $OFFICER_FPR.*GOODSIG" \
	"Mia's key decrypts the participant's reminder, the officer's signature verifies"
mid=$(grep -i -m1 '^Message-ID:' "$vic" | sed 's/^[^<]*<//; s/>.*//')
tap_like "$(st show 1 --json | jq -r '.events[] | select(.kind == "reminder") | .detail')" \
	"^vendor reminder to vic@vendor.example \(encrypted, signed\) <$mid>\$" "the event names the recipient and the Message-ID"
tap_is "$(st show 1 --json | jq -r --arg m "$mid" '[.messages_detail[] | select(.message_id == $m)] | length')" 1 \
	"its copy is in the thread"
dg=$(grep -l '^To: security@example.org' $(find "$T/out/new" -type f))
cf encrypted "$dg" "$T/d.asc" >/dev/null
gpg --homedir "$H" --batch --decrypt "$T/d.asc" > "$T/di" 2>/dev/null
tap_like "$(cf inner "$T/di")" 'body:   #1 ' "the digest lists the claimed report"
tap_like "$(cf inner "$T/di")" 'body:       due 2026-12-08T12:00:00Z' "with its date"

# Tuesday: one working day later, nothing new.
at 2026-12-08T09:00:00Z
st due --mail --outbox "$T/out" >"$T/tue" 2>&1
tap_is "$(count):$(cat "$T/tue")" "3:" "Tuesday: nothing new"

# Wednesday: two working days later, one more each.
at 2026-12-09T09:00:00Z
st due --mail --outbox "$T/out" >"$T/wed" 2>&1
st due --mail --outbox "$T/out" >>"$T/wed" 2>&1
tap_is "$(count)" 6 "Wednesday: three more (one per recipient), however often it runs" "$(cat "$T/wed")"
tap_is "$(to_of)" "$(printf '2 To: mia@example.org\n2 To: security@example.org\n2 To: vic@vendor.example')" \
	"two per recipient in all"
bad=0
for f in $(find "$T/out/new" -type f); do cf encrypted "$f" "$T/any.asc" >/dev/null 2>&1 || bad=$((bad + 1)); done
tap_is "$bad" 0 "all six are RFC 3156 multipart/encrypted (Python email)"
tap_is "$(grep -h -i -m1 '^Message-ID:' $(find "$T/out/new" -type f) | sort -u | wc -l | tr -d ' ')" 6 \
	"six distinct Message-IDs: Wednesday's are new messages"

# An acknowledgement stops the participant's reminders; no key, no reminder.
st maintainers 1 --ack mia@example.org >/dev/null
st vendor add uma --contact uma@unknown.example >/dev/null
st vendor notify 1 uma >/dev/null
at 2026-12-16T09:00:00Z
before=$(count)
dry=$(st due --mail --dry-run 2>&1); rc=$?
tap_is "$rc" 1 "--dry-run: exit 1 too when a reminder would be skipped" "$dry"
tap_like "$dry" "no vendor reminder to uma@unknown.example: .*never sent in the clear" \
	"the dry run names the skip and why, as the real run does"
tap_unlike "$dry" "would send	vendor	uma@unknown.example" "and does not claim it would send it"
tap_like "$dry" "^would send	vendor	vic@vendor.example	report 1\$" "the others it would send"
tap_is "$(count)" "$before" "the dry run sends nothing"
out=$(st due --mail --outbox "$T/out" 2>&1); rc=$?
tap_is "$rc" 1 "a reminder that cannot be sent: exit 1"
tap_like "$out" "no vendor reminder to uma@unknown.example: .*never sent in the clear" "naming the recipient and why"
tap_unlike "$out" "participant	mia@example.org" "an acknowledged participant is not reminded"
tap_like "$out" "^sent	vendor	vic@vendor.example" "the others still are"
# Unattended (cron) with an agent that cannot unwrap the team key: one
# line saying what is missing, exit 1, nothing sent, never clear text in
# place of what is sealed.
mkdir -m 700 "$T/nokey"
before=$(count)
out=$(at 2026-12-09T09:00:00Z; "$SECTEAM_BIN" --db "$DB" --gnupghome "$T/nokey" --config "$T/config" \
	due --mail --outbox "$T/out" 2>&1 </dev/null); rc=$?
tap_is "$rc" 1 "due --mail with no key to unwrap the team key: exit 1" "$out"
tap_is "$(printf '%s\n' "$out" | wc -l | tr -d ' ')" 1 "  in one line" "$out"
tap_like "$out" "team key" "  naming what is missing"
tap_unlike "$out" "tcp overflow|Mia|mia@example.org" "  and nothing sealed shows"
tap_is "$(count)" "$before" "  and nothing is sent"
tap_done
