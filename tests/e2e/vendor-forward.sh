#!/bin/sh
# engines: sqlite pg
# End to end: vendor notify --forward sends the vendor the encrypted
# forward before recording the notification; a vendor without a usable
# key gets nothing and stays not-notified.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup vfwd
mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" \
	--sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" --subject "UAF in dev.c" \
	--body "The VENDOR-CANARY bug is in net/core/dev.c" --message-id vf1@example.net > "$T/m.eml"
st import "$T/m.eml" >/dev/null
st vendor add Vic --contact vic@vendor.example --key "$VENDOR_FPR" >/dev/null
st vendor add Nokey --contact nokey@nowhere.example >/dev/null

out=$(st vendor notify 1 Vic --forward --outbox "$T/out"); rc=$?
tap_is "$rc" 0 "notify --forward to a vendor with a key"
tap_like "$out" "^encrypted	vic@vendor.example	$T/out/new/" "the forward is delivered to the outbox"
tap_like "$out" "vendor Vic notified .*; an encrypted mail to vic@vendor.example: $T/out/new/" \
	"its result line says the mail was written, and where (the UI shows that line)"
f=$(ls "$T/out/new/" | head -n 1)
gpg --homedir "$T/keys/senders" --batch --quiet --decrypt "$T/out/new/$f" > "$T/plain" 2>/dev/null
tap_ok $? "the vendor's key decrypts it"
grep -q VENDOR-CANARY "$T/plain"
tap_ok $? "it carries the report"
tap_is "$(st show 1 --json | jq -r '.vendors[] | select(.name=="Vic") | .status')" notified "and the vendor is marked notified"
tap_like "$(st show 1 --json | jq -r '[.events[].kind] | join(",")')" "forward.*vendor-notify" "the forward and the notification are events"

out=$(st vendor notify 1 Nokey --forward --outbox "$T/out" 2>&1); rc=$?
tap_is "$rc" 1 "a vendor without a key: refused"
tap_like "$out" "no usable key for 'nokey@nowhere.example'" "the refusal names the vendor's contact"
tap_is "$(ls "$T/out/new" | wc -l | tr -d ' ')" 1 "nothing more was delivered"
tap_is "$(st show 1 --json | jq -r '[.vendors[] | select(.name=="Nokey")] | length')" 0 "and the vendor is not marked notified"
tap_done
