#!/bin/sh
# engines: sqlite pg
# What the report view says about trust, in
# tmux: the signature bar's words and color for a spoofed signature
# (bad, red), for a valid key whose user ID for From nobody certified
# (yellow, named by the certified user ID), the "!" gutter on text and
# the mark on attachments an inline signature does not cover, and a From
# row that puts the address before a display name that holds another
# address behind no-break spaces; and the parts beside a
# multipart/encrypted, shown and marked.  Each case has a database of its own.
export SECTEAM_TEST_NOW=2026-12-02T12:00:00Z
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup tuitrust
e2e_tmux_setup
g() { gpg --homedir "$S" --batch --no-tty --yes --trust-model always "$@" 2>/dev/null; }
# case NAME: a fresh database for the next import
case_db() { e2e_new_db "$1" || { echo "Bail out! no database for $1"; exit 1; }; }
open_first() { tui_start 140 30; wait_for "secteam-tui: reports"; keys Enter; wait_re "^ [✔▲✘] SIGNATURE"; }
bar() { screen | grep -E "^ [✔▲✘] SIGNATURE"; }
bar_e() { screen_e | grep -F " SIGNATURE "; }

# 1-2: the signature spoof: a genuine multipart/signed whose first
# delimiter is rewritten "--B" CR "X", with the attacker's part added.
mail_pgp genuine "spoofed report" "GENUINE text by Rita" signed
/usr/bin/python3 - "$T/mail/genuine.eml" "$T/mail/spoof.eml" <<'PYEOF'
import sys
raw = open(sys.argv[1]).read()
b = raw.split('boundary="', 1)[1].split('"', 1)[0]
d = "--" + b + "\n"
i = raw.index(d)
j = raw.index(d, i + 1)
raw = (raw[:i] + "--" + b + "\rX\n" + raw[i + len(d):j] + d +
       "Content-Type: text/plain\n\nATTACKER text: wire the money\n" + raw[j:])
open(sys.argv[2], "w").write(raw)
PYEOF
case_db spoof
e2e_import "$T/mail/spoof.eml" || { echo "Bail out! import failed"; exit 1; }
open_first
if bar | grep -qF " ✘ SIGNATURE bad | does NOT match the text: key of Rita Reporter <rita@example.net> |" &&
   bar_e | grep -q '\[41m'; then tui_ok 0 "a spoofed multipart/signed: the bar says bad, in red"
else tui_ok 1 "a spoofed multipart/signed: the bar says bad, in red"; fi
if screen | grep -qF "│ ATTACKER text" && ! screen | grep -q "GENUINE"; then
	tui_ok 0 "what is shown is what was checked: the attacker's part"
else tui_ok 1 "what is shown is what was checked: the attacker's part"; fi
tui_stop

# 3-4: a valid key (Sam's, now certified) with a user ID for Rita's
# address that nobody certified: valid, but From does not match and the
# bar names Sam by his certified user ID, in yellow.
gpg --homedir "$H" --batch --yes --default-key "$OFFICER_FPR" \
	--quick-sign-key "$STRANGER_FPR" >/dev/null 2>&1
g --quick-add-uid "$STRANGER_FPR" "Rita Reporter <rita@example.net>"
g --export "$STRANGER_FPR" >"$T/sam.pub"
gpg --homedir "$H" --batch --yes --import "$T/sam.pub" >/dev/null 2>&1
gpg --homedir "$H" --batch --yes --check-trustdb >/dev/null 2>&1
/usr/bin/python3 "$SECTEAM_TOP/tests/lib/mkpgp.py" --gnupghome "$S" --kind signed \
	--from "Rita Reporter <rita@example.net>" --sign-as "$STRANGER_FPR" \
	--subject "as rita" --body "signed by Sam as Rita" >"$T/mail/as-rita.eml"
case_db uid
e2e_import "$T/mail/as-rita.eml" || { echo "Bail out! import failed"; exit 1; }
open_first
if bar | grep -qF " ▲ SIGNATURE valid | signed by Sam Stranger <sam@example.com> (valid) | From DOES NOT MATCH" &&
   bar_e | grep -q '\[43m'; then tui_ok 0 "an uncertified user ID for From: yellow, named by the certified one"
else tui_ok 1 "an uncertified user ID for From: yellow, named by the certified one"; fi
if ! bar | grep -q "rita@"; then tui_ok 0 "the uncertified user ID is not on the bar"
else tui_ok 1 "the uncertified user ID is not on the bar"; fi
tui_stop

# 5-7: inline PGP with text after the block and an unsigned patch: partial,
# "!" gutter on the unsigned lines, the attachment marked.
g --local-user "$REPORTER_FPR" --clearsign >"$T/clear.asc" <<'EOF'
SIGNED inline text by Rita
EOF
/usr/bin/python3 - "$T/clear.asc" "$T/mail/inline.eml" <<'PYEOF'
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
m.attach(MIMEText(clear + "UNSIGNED trailer line\n[--- end of unprotected text ---]\n"))
a = MIMEText("--- a/mm/slub.c\n+++ b/mm/slub.c\n@@ -1 +1 @@\n-a\n+b\n", "x-diff")
a.add_header("Content-Disposition", "attachment", filename="fix.patch")
m.attach(a)
open(sys.argv[2], "wb").write(m.as_bytes())
PYEOF
case_db inline
e2e_import "$T/mail/inline.eml" || { echo "Bail out! import failed"; exit 1; }
open_first
if bar | grep -qF " ▲ SIGNATURE partial" && screen | grep -qF "│ SIGNED inline text by Rita" &&
   screen | grep -qF "! UNSIGNED trailer line" &&
   screen | grep -qF "! [--- end of unprotected text ---]"; then
	tui_ok 0 "inline PGP: partial, unsigned lines behind the ! gutter, a forged end marker too"
else tui_ok 1 "inline PGP: partial, unsigned lines behind the ! gutter, a forged end marker too"; fi
if screen | grep -qF "attachment 1: fix.patch" && line_of "attachment 1: fix.patch" | grep -qF "[!] NOT SIGNED"; then
	tui_ok 0 "the attachment an inline signature does not cover is marked NOT SIGNED"
else tui_ok 1 "the attachment an inline signature does not cover is marked NOT SIGNED"; fi
if wait_re "^Files +-   \[!\] unsigned: mm/slub.c"; then tui_ok 0 "its file is listed apart, marked unsigned"
else tui_ok 1 "its file is listed apart, marked unsigned"; fi
tui_stop

# 8-10: the demo's report 16, a multipart/encrypted,
# signed inside, in a multipart/mixed between unsigned text before it and
# an unsigned patch after it.  The unsigned text is shown, behind the !
# gutter, before the signed text; the patch is marked NOT SIGNED and its
# file listed apart.
mail_pgp around "encrypted between unsigned parts" "SIGNED and encrypted by Rita: fs/ext4/inode.c"
/usr/bin/python3 - "$T/mail/around.eml" <<'PYEOF'
import sys
raw = open(sys.argv[1]).read()
mark = "\nMIME-Version: 1.0\n"
i = raw.index(mark) + len(mark)
head, entity = raw[:i], raw[i:]
open(sys.argv[1], "w").write(
    head + 'Content-Type: multipart/mixed; boundary="mix"\n\n'
    "--mix\nContent-Type: text/plain; charset=utf-8\n\n"
    "UNSIGNED text added around it: see fs/ext4/super.c\n"
    "--mix\n" + entity + "\n--mix\n"
    'Content-Type: text/x-diff; name="evil.patch"\n'
    'Content-Disposition: attachment; filename="evil.patch"\n\n'
    "--- a/mm/slub.c\n+++ b/mm/slub.c\n@@ -1 +1 @@\n-a\n+b\n--mix--\n")
PYEOF
case_db around
e2e_import "$T/mail/around.eml" || { echo "Bail out! import failed"; exit 1; }
open_first
u=$(screen | grep -nF "! UNSIGNED text added around it" | cut -d: -f 1)
c=$(screen | grep -nF "│ SIGNED and encrypted by Rita" | cut -d: -f 1)
if bar | grep -qF " ▲ SIGNATURE partial" && [ -n "$u" ] && [ -n "$c" ] && [ "$u" -lt "$c" ]; then
	tui_ok 0 "encrypted beside unsigned text: partial, the unsigned text shown first behind the ! gutter"
else tui_ok 1 "encrypted beside unsigned text: partial, the unsigned text shown first behind the ! gutter"; fi
if line_of "attachment 1: evil.patch" | grep -qF "[!] NOT SIGNED"; then
	tui_ok 0 "the patch beside the encrypted part is marked NOT SIGNED"
else tui_ok 1 "the patch beside the encrypted part is marked NOT SIGNED"; fi
if wait_re "^Files +fs/ext4/inode.c   \[!\] unsigned: (fs/ext4/super.c mm/slub.c|mm/slub.c fs/ext4/super.c)"; then
	tui_ok 0 "the files only the unsigned parts touch are listed apart"
else tui_ok 1 "the files only the unsigned parts touch are listed apart"; fi
tui_stop

# 11-12: a display name holding another address, padded with no-break
# spaces so that a header row would cut the real address off.
/usr/bin/python3 - "$T/mail/name.eml" <<'PYEOF'
import sys
from email.mime.text import MIMEText
from email.header import Header
m = MIMEText("hello\n")
m["From"] = Header("manager@corp.example" + "\u00a0" * 150, "utf-8").encode() + \
    " <eve@evil.example>"
m["To"] = "security@example.org"
m["Subject"] = "from the manager"
m["Message-ID"] = "<name@example.net>"
m["Date"] = "Wed, 02 Dec 2026 08:00:00 +0000"
open(sys.argv[1], "wb").write(m.as_bytes())
PYEOF
case_db name
e2e_import "$T/mail/name.eml" || { echo "Bail out! import failed"; exit 1; }
open_first
if wait_re '^From +eve@evil\.example  \[!\] display name holds another address  \[!\] invisible spacing in display name  "manager@corp\.example<U\+00A0>'; then
	tui_ok 0 "the From row shows the address first and flags the name"
else tui_ok 1 "the From row shows the address first and flags the name"; fi
if screen | grep -qF "message 1 of 1, from eve@evil.example  [!] display name holds another address"; then
	tui_ok 0 "the message separator shows the address first too"
else tui_ok 1 "the message separator shows the address first too"; fi
tui_stop
tap_done
