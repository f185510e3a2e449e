#!/bin/sh
# engines: sqlite pg
# End to end, what the command line shows of a report's trust: every body line of `show` sits behind a gutter the text
# cannot write ("| ", or "! " for text no signature covers), so a body
# cannot imitate the program's separators or the old inline markers;
# an inline-signed mail with an unsigned attachment or trailer is
# partial, the files only unsigned parts touch are kept apart (show,
# show --json, maintainers), and `maintainers` marks what only they
# suggest and --add-all leaves it out.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup show-marks
st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config" "$@"; }
g() { gpg --homedir "$S" --batch --no-tty --yes --trust-model always "$@" 2>/dev/null; }

KT=$T/linux
mkdir -p "$KT/net/ipv4" "$KT/mm"
: >"$KT/net/ipv4/tcp_input.c"
: >"$KT/mm/slub.c"
cat >"$KT/MAINTAINERS" <<'EOF'
List of maintainers (synthetic, for secteam-tui's tests)

NETWORKING [GENERAL]
M:	Mia Maintainer <mia@example.org>
S:	Maintained
F:	net/

SLAB ALLOCATOR
M:	Sly Slab <sly@example.org>
S:	Maintained
F:	mm/slub.c
EOF
printf '[kernel]\n\ttree = %s\n' "$KT" >"$T/config"

# 1: a plain report whose body imitates the program's own lines.
printf 'Hello.\n--- message 2 of 2 from rita@example.net, 2026-12-02T10:00:00Z, valid ---\nI am Rita, trust me.\n--- events ---\n[attachment 1: poc.c, text/x-csrc, 10 bytes]\n' >"$T/fake.txt"
mk --kind plain --from "Mallory <mallory@example.com>" --subject "imitation" \
	--body-file "$T/fake.txt" --message-id "fake@example.com" >"$T/fake.eml"
id=$(st import "$T/fake.eml" | cut -f 1)
st show "$id" >"$T/fake.out"
tap_is "$(grep -c '^--- message' "$T/fake.out")" 1 "show: one separator line, the program's own"
tap_is "$(grep -c '^--- events ---' "$T/fake.out")" 1 "show: one events line, the program's own"
tap_is "$(grep -c '^\[attachment' "$T/fake.out")" 0 "show: the fake attachment line is not at the left edge"
tap_is "$(grep -cF '| --- message 2 of 2 from rita@example.net' "$T/fake.out")" 1 \
	"show: the imitation is behind the body gutter"
tap_is "$(sed -n '/^--- message/,/^--- events/p' "$T/fake.out" | sed '1d;$d' | grep -v '^$' | grep -cv '^[|!] ')" 0 \
	"show: every body line starts with the gutter"

# 2: inline-signed text, unsigned trailer (forging the old end marker)
# and an unsigned patch attachment touching another file.
printf 'Overflow in net/ipv4/tcp_input.c, signed by Rita.\n' |
	g --local-user "$REPORTER_FPR" --clearsign >"$T/clear.asc"
/usr/bin/python3 - "$T/clear.asc" "$T/inline.eml" <<'PYEOF'
import sys
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
clear = open(sys.argv[1]).read()
m = MIMEMultipart()
m["From"] = "Rita Reporter <rita@example.net>"
m["To"] = "security@example.org"
m["Subject"] = "inline with an unsigned patch"
m["Message-ID"] = "<inline-att@example.net>"
m["Date"] = "Wed, 02 Dec 2026 08:00:00 +0000"
m.attach(MIMEText(clear + "\n[--- end of unprotected text ---]\nUNSIGNED: the real fix is below\n"))
a = MIMEText("--- a/mm/slub.c\n+++ b/mm/slub.c\n@@ -1 +1 @@\n-a\n+b\n", "x-diff")
a.add_header("Content-Disposition", "attachment", filename="fix.patch")
m.attach(a)
open(sys.argv[2], "wb").write(m.as_bytes())
PYEOF
out=$(st import "$T/inline.eml")
id=$(printf '%s' "$out" | cut -f 1)
tap_is "$(printf '%s' "$out" | cut -f 2)" partial "inline signature plus unsigned parts: partial"
st show "$id" >"$T/inline.out"
tap_is "$(grep -c '^| Overflow in net/ipv4/tcp_input.c, signed by Rita.$' "$T/inline.out")" 1 \
	"show: the signed text behind '| '"
tap_is "$(grep -c '^! \[--- end of unprotected text ---\]$' "$T/inline.out")" 1 \
	"show: a forged end marker is marked unsigned like the rest"
tap_is "$(grep -c '^! UNSIGNED: the real fix is below$' "$T/inline.out")" 1 "show: the trailer is marked unsigned"
tap_like "$(grep '^\[attachment 1' "$T/inline.out")" 'fix\.patch, text/x-diff, [0-9]+ bytes, NOT SIGNED\]$' \
	"show: the attachment is marked NOT SIGNED"
tap_like "$(grep '^Files ' "$T/inline.out")" '^Files +net/ipv4/tcp_input\.c$' \
	"show: the report's files are the signed text's, not the unsigned patch's"
tap_like "$(grep '^Unsigned files' "$T/inline.out")" '^Unsigned files \(message 1\) +mm/slub\.c$' \
	"show: the unsigned patch's file is listed apart"
tap_is "$(st show "$id" --json | jq -c '[.files, .files_unsigned, .messages_detail[0].unsigned_text]')" \
	'[["net/ipv4/tcp_input.c"],["mm/slub.c"],true]' \
	"show --json: files, files_unsigned, unsigned_text"

# 3: maintainers marks the unsigned-only suggestion; --add-all skips it.
mout=$(st maintainers "$id")
tap_like "$mout" 'Mia Maintainer <mia@example.org> \(maintainer:NETWORKING \[GENERAL\]\)$' \
	"maintainers: the signed text's maintainer, unmarked"
tap_like "$mout" 'Sly Slab <sly@example.org> \(maintainer:SLAB ALLOCATOR\)  \[!\] only from unsigned parts$' \
	"maintainers: the unsigned patch's maintainer, marked"
tap_is "$(st maintainers "$id" --json | jq -c '[.suggestions[] | [.email, .unsigned]], .files_unsigned')" \
	'[["mia@example.org",false],["sly@example.org",true]]
["mm/slub.c"]' "maintainers --json: unsigned per suggestion, files_unsigned"
st maintainers "$id" --add-all >"$T/add.out" 2>"$T/add.err"
tap_is "$(st show "$id" --json | jq -r '[.participants[].email] | join(" ")')" "mia@example.org" \
	"--add-all brings in only what the signed text suggests"
tap_like "$(cat "$T/add.err")" '1 suggestion only from unsigned parts not added' "--add-all says what it left out"

# 4: an inline-signed mail whose only extra is an attachment.
printf 'Signed, with a file attached.\n' | g --local-user "$REPORTER_FPR" --clearsign >"$T/clear2.asc"
/usr/bin/python3 - "$T/clear2.asc" "$T/inline2.eml" <<'PYEOF'
import sys
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.mime.application import MIMEApplication
m = MIMEMultipart()
m["From"] = "Rita Reporter <rita@example.net>"
m["To"] = "security@example.org"
m["Subject"] = "inline with an attachment"
m["Message-ID"] = "<inline-att2@example.net>"
m["Date"] = "Wed, 02 Dec 2026 08:00:00 +0000"
m.attach(MIMEText(open(sys.argv[1]).read()))
a = MIMEApplication(b"\x7fELF not signed", "octet-stream")
a.add_header("Content-Disposition", "attachment", filename="poc.bin")
m.attach(a)
open(sys.argv[2], "wb").write(m.as_bytes())
PYEOF
tap_is "$(st import "$T/inline2.eml" | cut -f 2)" partial "an inline-signed mail with an unsigned attachment is partial"

tap_done
