#!/bin/sh
# engines: sqlite
# Drafts with editable headers, as mutt's edit_headers: the reply (and
# the notices, through the same code) opens in $EDITOR with To, Cc and
# Subject above a blank line; what the officer changes there is what is
# sent (the Subject inside the encryption, no Cc when it was emptied),
# and the headers never end up in the body.  Read back strictly: a
# header the draft may not change (From, Bcc, anything else), one given
# twice or folded, a To that is no address or names two, a Cc beyond the
# team's address, an empty Subject, a To with no key to encrypt to: each
# is an error naming it, exit 1, and nothing is sent or recorded.
# One engine: the store plays no part in the draft.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup draft-headers
st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config" "$@"; }
cf() { /usr/bin/python3 "$SECTEAM_TOP/tests/lib/check-forward.py" "$@"; }
count() { find "$1" -type f 2>/dev/null | wc -l | tr -d ' '; }
nsent() { st show 1 --json | jq '[.events[] | select(.kind == "reply-sent")] | length'; }
printf '[team]\n\taddress = security@example.org\n[officer]\n\tname = Olga Officer\n' > "$T/config"
RITA="Rita Reporter <rita@example.net>"
mk --kind encrypted-signed --from "$RITA" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
   --subject "tcp overflow" --body "heap overflow in tcp_input.c" \
   --message-id "h1@example.net" > "$T/r1.eml"
st import "$T/r1.eml" >/dev/null

# The editor: keeps what it was given in $T/seen, then runs the sed
# script in $ED_SED on the draft.
cat > "$T/ed.sh" <<'EOS'
#!/bin/sh
cp "$1" "$ED_SEEN"
sed -i -e "$ED_SED" "$1"
EOS
chmod +x "$T/ed.sh"
edit() { # OUTBOX SED: reply 1 through the editor
	out=$(VISUAL= EDITOR="$T/ed.sh" ED_SEEN="$T/seen" ED_SED="$2" st reply 1 --outbox "$1" 2>&1); rc=$?
}

edit "$T/o1" 's/^Subject: .*/Subject: [secteam] your tcp report, and a question/; s/^Thank/EDITED Thank/'
tap_is "$rc" 0 "a reply with a changed Subject exits 0" "$out"
tap_is "$(sed -n '1,4p' "$T/seen")" "$(printf 'To: "Rita Reporter" <rita@example.net>\nCc: security@example.org\nSubject: %s\n' \
	"$(sed -n 's/^Subject: //p' "$T/seen")")" "the editor shows To, Cc and Subject, then a blank line"
tap_like "$(sed -n 3p "$T/seen")" "^Subject: .*tcp overflow" "  the Subject the draft would have"
msg=$(find "$T/o1/new" -type f)
hdr=$(cf encrypted "$msg" "$T/a1.asc")
tap_like "$hdr" "^Cc: security@example.org$" "the team's address stays in Cc"
gpg --homedir "$S" --batch --quiet --decrypt "$T/a1.asc" > "$T/p1" 2>/dev/null
out=$(cf protected "$msg" "$T/p1" "[secteam] your tcp report, and a question" 2>&1)
tap_is "$out" "Subject: [secteam] your tcp report, and a question" \
	"the Subject the officer wrote is sent, inside the encryption"
inner=$(cf inner "$T/p1")
tap_unlike "$inner" "^body: (To|Cc|Subject): " "no header line in the body"
tap_like "$inner" "^body: EDITED" "  the body as edited"

n=$(nsent)
edit "$T/o2" 's/^Cc: .*/Cc:/; s/^Thank/EDITED Thank/'
tap_is "$rc" 0 "an emptied Cc exits 0" "$out"
tap_unlike "$(cf encrypted "$(find "$T/o2/new" -type f)" "$T/a2.asc")" "^Cc:" "  and the mail has no Cc"

refused() { # DESC PATTERN SED
	n=$(nsent)
	edit "$T/none" "$3"
	tap_is "$rc" 1 "$1: exit 1"
	tap_like "$out" "$2" "  $(printf '%s' "$out" | head -n 1 | cut -c 1-160)"
	tap_is "$(count "$T/none")/$(nsent)" "0/$n" "  nothing sent, nothing recorded"
}
refused "a Bcc added" "report 1: nothing sent: the draft's headers: 'Bcc' is no header the draft may change \(To, Cc, Subject\)" \
	'/^Cc:/a Bcc: eve@evil.example'
refused "From changed" "'From' is no header the draft may change" \
	'1i From: Boss <boss@example.org>'
refused "a malformed To" "To: 'rita@@example.net' is no address" \
	's/^To: .*/To: rita@@example.net/'
refused "two addresses in To" "To: 'rita@example.net, eve@evil.example' names several addresses" \
	's/^To: .*/To: rita@example.net, eve@evil.example/'
refused "an unclosed address" "To: '\"Rita\" <rita@example.net' is no address" \
	's/^To: .*/To: "Rita" <rita@example.net/'
refused "a stranger in Cc" "Cc 'eve@evil.example': only the team's address \(security@example.org\) may be there" \
	's/^Cc: .*/Cc: eve@evil.example/'
refused "Subject twice" "Subject is given twice" \
	'/^Subject:/p'
refused "a folded header" "a folded line" \
	'/^Subject:/a \ and more'
refused "an empty Subject" "an empty Subject" \
	's/^Subject: .*/Subject:/'
refused "no To" "no To: nothing sent" \
	'/^To:/d'
refused "a To with no key" "To: nobody@example.com: no key to encrypt to" \
	's/^To: .*/To: Nobody <nobody@example.com>/'

# The same address under another name is no new recipient.
edit "$T/o3" 's/^To: .*/To: Rita R. <RITA@example.net>/; s/^Thank/EDITED Thank/'
tap_is "$rc" 0 "To with another name for the same address exits 0" "$out"
tap_like "$(cf encrypted "$(find "$T/o3/new" -type f)" "$T/a3.asc")" '^To: "?Rita R\."? <rita@example.net>$' "  the name the officer wrote"
tap_done
