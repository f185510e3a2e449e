#!/bin/sh
# engines: sqlite pg
# A hostile report in the UI: its subject, sender name, body and
# attachment name carry ESC[2J, an OSC 0 title, an OSC 52 clipboard write,
# a CSI as the C1 control U+009B, U+202E, zero-width characters, "%n" and
# fake signature bars.  Everything must show as visible escapes:
# `capture-pane -e` carries no sequence from the report, the screen is
# neither cleared nor retitled, nothing reaches the clipboard, and the
# body cannot imitate the trusted bar.  Also: NO_COLOR leaves no color.
export SECTEAM_TEST_NOW=2026-12-02T12:00:00Z
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup tuihostile
e2e_tmux_setup
/usr/bin/python3 - "$T/mail/hostile.eml" <<'PYEOF'
import sys
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.mime.application import MIMEApplication
from email.header import Header
evil = ("\x1b[2J\x1b]0;PWNED-TITLE\x07\x1b]52;c;cHduZWQ=\x07"
        "\u009b31mC1CSI \u202eevil\u202c zero\u200bwidth\u200d %n%n%s")
m = MIMEMultipart()
m["From"] = Header("Mallory \x1b[31m\u202eyrollaM", "utf-8").encode() + " <mallory@evil.example>"
m["To"] = "security@example.org"
m["Subject"] = Header("HOSTILE " + evil, "utf-8").encode()
m["Message-ID"] = "<hostile@evil.example>"
m["Date"] = "Wed, 02 Dec 2026 08:00:00 +0000"
body = ("Body starts.\n" + evil + "\n"
        " \u25a0 TRUSTED  signature: valid | key FAKE | signer matches From: yes | encrypted: yes\n"
        " \u2714 SIGNATURE valid | signed by Rita Reporter <rita@example.net> (valid) | From matches | encrypted: yes\n"
        "\x1b[7m fake reverse bar \x1b[0m\n"
        "Body ends.\n")
m.attach(MIMEText(body, "plain", "utf-8"))
a = MIMEApplication(b"int main(void){}\n", "octet-stream")
a.add_header("Content-Disposition", "attachment",
             filename=("utf-8", "", "exploit\u202ec.txt"))
m.attach(a)
open(sys.argv[1], "wb").write(m.as_bytes())
PYEOF
e2e_import "$T/mail/hostile.eml" || { echo "Bail out! import failed"; exit 1; }

# clean_e: the -e capture without our own SGR attributes; anything left
# that a terminal would act on came from the report.
clean_e() { screen_e | sed 's/\x1b\[[0-9;]*m//g'; }
no_sequences() {
	out=$(clean_e)
	if printf '%s' "$out" | grep -q "$(printf '\033')"; then tap_diag "ESC on screen"; return 1; fi
	if printf '%s' "$out" | grep -q "$(printf '\302\233')"; then tap_diag "C1 CSI on screen"; return 1; fi
	if printf '%s' "$out" | grep -q "$(printf '\342\200\256')"; then tap_diag "U+202E on screen"; return 1; fi
	if printf '%s' "$out" | grep -q "$(printf '\342\200\213')"; then tap_diag "U+200B on screen"; return 1; fi
	if printf '%s' "$out" | grep -q "$(printf '\007')"; then tap_diag "BEL on screen"; return 1; fi
	return 0
}
not_retitled() { ! tmx display -p -t t '#{pane_title}' | grep -q PWNED; }
no_clipboard() { [ -z "$(tmx list-buffers 2>/dev/null)" ]; }

tui_start 120 30
if wait_for "HOSTILE" && line_of HOSTILE | grep -qF '^[[2J^[]0;PWNED-TITLE^G' &&
   line_of HOSTILE | grep -qF '<U+009B>31mC1CSI'; then tui_ok 0 "the subject shows visible escapes in the list"
else tui_ok 1 "the subject shows visible escapes in the list"; fi
tui_check "capture-pane -e of the list carries no sequence from the report" no_sequences
if not_retitled && screen | head -n 1 | grep -q "secteam-tui: reports"; then tui_ok 0 "the list is neither retitled nor cleared"
else tui_ok 1 "the list is neither retitled nor cleared"; fi

keys Enter
wait_for "Body ends." 10
if screen | grep -qF '<U+009B>31mC1CSI <U+202E>evil<U+202C> zero<U+200B>width<U+200D> %n%n%s'; then
	tui_ok 0 "the body shows C1, bidi, zero-width and %n as visible text"
else tui_ok 1 "the body shows C1, bidi, zero-width and %n as visible text"; fi
tui_check "capture-pane -e of the report carries no sequence from the report" no_sequences
# One bar, at the left edge, yellow (43: a warning) and saying not-signed;
# the imitations stay behind the body's gutter.
n=$(screen | grep -c "^ [✔▲✘] SIGNATURE")
if [ "$n" = 1 ] && screen | grep -qF " ▲ SIGNATURE not-signed | not signed | encrypted: NO" &&
   screen_e | grep -F "SIGNATURE not-signed" | grep -q '\[43m' &&
   ! screen | grep -q "^ ■ TRUSTED" &&
   screen | grep -qF "│  ■ TRUSTED  signature: valid" &&
   screen | grep -qF "│  ✔ SIGNATURE valid | signed by Rita"; then
	tui_ok 0 "the body cannot imitate the signature bar, which says not-signed in yellow"
else tap_diag "bar rows: $n"; tui_ok 1 "the body cannot imitate the signature bar, which says not-signed in yellow"; fi
if screen | grep -qF "attachment 1: exploit<U+202E>c.txt" && screen | grep -q "EXPLOIT CODE"; then
	tui_ok 0 "the attachment name is escaped and flagged as exploit code"
else tui_ok 1 "the attachment name is escaped and flagged as exploit code"; fi
if not_retitled && screen | head -n 1 | grep -q "report 1"; then tui_ok 0 "the report view is neither retitled nor cleared"
else tui_ok 1 "the report view is neither retitled nor cleared"; fi
tui_check "nothing reached the clipboard (OSC 52)" no_clipboard
tui_stop

tui_start 100 30 NO_COLOR=1
wait_for "HOSTILE"
keys Enter
wait_for "Body ends." 10
if ! screen_e | grep -q "$(printf '\033')\[[0-9;]*3[0-7]m\|$(printf '\033')\[[0-9;]*38;5;"; then tui_ok 0 "NO_COLOR: no color on screen"
else tui_ok 1 "NO_COLOR: no color on screen"; fi
tui_stop
tap_done
