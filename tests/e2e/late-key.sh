#!/bin/sh
# engines: sqlite pg
# A verdict follows the keyring: an encrypted and signed report, and a
# signed reply, arrive before the reporter's key is in the officer's
# keyring (unknown-key); the key is then imported and certified.  Every
# place that shows or uses the verdict changes with it: the list (text
# and JSON), show (text and --json, one verdict), whose files are the
# report's (show, maintainers) and the public text (the distros
# notice's Affected line), with no re-import.  `verify` says what it
# verified again.
export SECTEAM_TEST_NOW=2026-12-02T12:00:00Z
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup late-key
e2e_tmux_setup
st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config" "$@"; }

KT=$T/linux
mkdir -p "$KT/net/ipv4" "$KT/mm"
: >"$KT/net/ipv4/tcp_input.c"
: >"$KT/mm/slub.c"
cat >"$KT/MAINTAINERS" <<'MEOF'
List of maintainers (synthetic, for secteam-tui's tests)

NETWORKING [GENERAL]
M:	Mia Maintainer <mia@example.org>
S:	Maintained
F:	net/

SLAB ALLOCATOR
M:	Sly Slab <sly@example.org>
S:	Maintained
F:	mm/slub.c
MEOF
printf '[kernel]\n\ttree = %s\n[team]\n\taddress = security@example.org\n' "$KT" >"$T/config"

UMA="Uma Unknown <uma@unknown.example>"
mk --kind encrypted-signed --from "$UMA" --sign-as "$UNKNOWN_FPR" --to "$OFFICER_FPR" \
	--subject "tcp overflow" --body "Overflow in net/ipv4/tcp_input.c" \
	--message-id "late1@unknown.example" --date "Wed, 02 Dec 2026 09:00:00 +0000" >"$T/r1.eml"
mk --kind encrypted-signed --from "$UMA" --sign-as "$UNKNOWN_FPR" --to "$OFFICER_FPR" \
	--subject "Re: tcp overflow" --body "It also corrupts mm/slub.c" \
	--message-id "late2@unknown.example" --in-reply-to "late1@unknown.example" \
	--date "Wed, 02 Dec 2026 10:00:00 +0000" >"$T/r2.eml"
out=$(st import "$T/r1.eml" "$T/r2.eml" 2>&1)
tap_like "$out" "unknown-key" "imported before the key: unknown-key" "$out"
st vendor add linux-distros --contact linux-distros@vs.openwall.org --key "$VENDOR_FPR" \
	--kind distro >/dev/null
st triage 1 --state triaged >/dev/null && st triage 1 --state accepted >/dev/null &&
	st fix 1 --commit 1a2b3c4d5e6f >/dev/null && st date set 1 +5d >/dev/null ||
	echo "# setting up the distros notice failed"

# What the distros notice names as affected (the draft, left unchanged).
cat >"$T/keep-draft" <<EOF2
#!/bin/sh
cp "\$1" "$T/draft.txt"
EOF2
chmod +x "$T/keep-draft"
affected() {
	rm -f "$T/draft.txt"
	VISUAL= EDITOR="$T/keep-draft" st distros 1 --outbox "$T/o" >/dev/null 2>&1
	grep -i '^Affected' "$T/draft.txt" 2>/dev/null
}
places() { # the verdict and files everywhere, one line each
	st list | awk 'NR > 1 && $1 == 1'
	st list --json | jq -c '[.[0].verdict, .[0].trust]'
	st show 1 --json | jq -c '[.verdict, .trust, .signature.verdict, .signature.trust,
		[.messages_detail[].verdict], .files, .files_unsigned]'
	st show 1 | grep -E '^(Verdict|Trust|Files|Unsigned files|Others)'
	st maintainers 1 | grep -F 'sly@example.org'
	affected
	# The UI's list: the row's V mark.
	tui_start 120 30
	wait_for "tcp overflow" >/dev/null
	line_of "tcp overflow" | awk '{ print "ui-mark " $4 }'
	tui_kill
}
places >"$T/before"
tap_like "$(sed -n 1p "$T/before")" "unknown-key" "before: the list says unknown-key"
tap_is "$(sed -n 2p "$T/before")" '["unknown-key","bad"]' "before: list --json"
tap_is "$(sed -n 3p "$T/before")" \
	'["unknown-key","bad","unknown-key","bad",["unknown-key","unknown-key"],["net/ipv4/tcp_input.c"],["mm/slub.c"]]' \
	"before: show --json"
tap_like "$(grep '^Unsigned files' "$T/before")" 'Unsigned files \(message 2\) +mm/slub\.c' \
	"before: show lists the reply's file apart, by message"
tap_like "$(grep -F 'sly@' "$T/before")" '\[!\]' "before: maintainers marks the reply's suggestion"
tap_like "$(grep -i '^Affected' "$T/before")" 'files not named' "before: the distros notice names no file"
tap_is "$(grep '^ui-mark' "$T/before")" "ui-mark ?" "before: the UI's list marks it ? (unknown key)"

# The key arrives and is certified.
gpg --homedir "$S" --batch --export "$UNKNOWN_FPR" >"$T/uma.pub"
gpg --homedir "$H" --batch --yes --import "$T/uma.pub" >/dev/null 2>&1
places >"$T/imported"
tap_like "$(sed -n 1p "$T/imported")" " good " "key imported, not certified: the list says good"
tap_is "$(sed -n 2p "$T/imported")" '["good","warning"]' "key imported: list --json"
gpg --homedir "$H" --batch --yes --default-key "$OFFICER_FPR" \
	--quick-sign-key "$UNKNOWN_FPR" >/dev/null 2>&1
gpg --homedir "$H" --batch --yes --check-trustdb >/dev/null 2>&1
places >"$T/after"
tap_like "$(sed -n 1p "$T/after")" " valid " "key certified: the list says valid"
tap_is "$(sed -n 2p "$T/after")" '["valid","trusted"]' "key certified: list --json"
tap_is "$(sed -n 3p "$T/after")" \
	'["valid","trusted","valid","trusted",["valid","valid"],["net/ipv4/tcp_input.c","mm/slub.c"],[]]' \
	"key certified: show --json, one verdict; the reply's file is the report's"
tap_like "$(grep '^Files' "$T/after")" '^Files +net/ipv4/tcp_input\.c mm/slub\.c$' "show: Files"
tap_is "$(grep -cE '^(Unsigned files|Others)' "$T/after")" 0 "show: nothing listed apart"
tap_like "$(grep -F 'sly@' "$T/after")" 'SLAB ALLOCATOR\)$' "maintainers: no [!] mark"
tap_like "$(grep -i '^Affected' "$T/after")" 'net/ipv4/tcp_input\.c' "the distros notice names the files"
tap_is "$(grep '^ui-mark' "$T/imported")" "ui-mark ~" "key imported: the UI's list marks it ~ (good)"
tap_is "$(grep '^ui-mark' "$T/after")" "ui-mark ✓" "key certified: the UI's list marks it ✓ (valid)"

# Nothing was imported again; `verify` forces it and says what changed.
tap_is "$(db_sql "SELECT verdict FROM messages ORDER BY id" | tr '\n' ' ')" \
	"unknown-key unknown-key " "the record keeps what the import saw"
out=$(st verify 1 2>&1); rc=$?
tap_is "$rc" 0 "verify 1 exits 0" "$out"
tap_like "$out" "report 1, message 1: valid \(recorded at import: unknown-key\)" "verify names each message's verdict" "$out"
out=$(st verify 2>&1); rc=$?
tap_like "$out" "2 messages verified" "verify without an id: every message" "$out"
tap_done
