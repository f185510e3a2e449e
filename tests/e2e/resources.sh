#!/bin/sh
# End to end, resources: decrypted content is limited like a mail message
# (64 MiB) on every path, with bounded memory.  Decompression bombs (zeros
# compressed by gpg -z 9) are refused with a clear error and nothing
# stored: by import (PGP/MIME through the background decryptions, an
# inline block) run under a 512 MiB address-space limit and with its
# peak RSS measured, and by show re-opening a stored body that inflates
# (a database written by an older version).  A message over the limit in
# an mbox is an error line naming the mbox and its position; the
# messages after it are imported, and the exit status is 1.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup resources
TOO_LARGE="decrypted content too large (over 64 MiB)"

# An ASan build maps terabytes of shadow memory: no address-space limit
# there, and room for its quarantine in the RSS bound.
as="prlimit --as=536870912 --"
rss_max=150000
if ldd "$SECTEAM_BIN" 2>/dev/null | grep -q 'lib[at]san'; then
	as=""
	rss_max=1200000
fi
# stm ARGS...: st under the limits, peak RSS (KiB) in $T/rss.
stm() {
	timeout -k 5 120 $as /usr/bin/time -f %M -o "$T/rss" \
		"$SECTEAM_BIN" --db "$DB" --gnupghome "$H" "$@"
}
rss() { tail -n 1 "$T/rss"; }
g() { gpg --homedir "$S" --batch --no-tty --trust-model always "$@" 2>/dev/null; }
hdr() { # MSGID SUBJECT
	printf 'From: Rita Reporter <rita@example.net>\nTo: security@example.org\nSubject: %s\nDate: Mon, 30 Nov 2026 10:00:00 +0000\nMessage-ID: <%s>\nMIME-Version: 1.0\n' "$2" "$1"
}

# 96 MiB of zeros, encrypted to the officer: about 170 KB.
{ printf 'Content-Type: text/plain\n\n'; head -c 96M /dev/zero; } |
	g -z 9 -r "$OFFICER_FPR" -a -e >"$T/bomb.asc" || { echo "Bail out! gpg failed"; exit 1; }
{ hdr pgpmime@example.net "PGP/MIME bomb"
  printf 'Content-Type: multipart/encrypted; boundary="e"; protocol="application/pgp-encrypted"\n\n'
  printf -- '--e\nContent-Type: application/pgp-encrypted\n\nVersion: 1\n\n--e\nContent-Type: application/octet-stream\n\n'
  cat "$T/bomb.asc"; printf -- '\n--e--\n'; } >"$T/pgpmime.eml"
{ hdr inline@example.net "inline bomb"; printf 'Content-Type: text/plain\n\n'; cat "$T/bomb.asc"; } >"$T/inline.eml"
{ hdr plain@example.net "plain report"; printf 'Content-Type: text/plain\n\nin mm/slub.c\n'; } >"$T/plain.eml"

st import "$T/plain.eml" >/dev/null
before=$(sqlite3 "$DB" 'SELECT count(*) FROM messages')
for m in pgpmime inline; do
	out=$(stm import "$T/$m.eml" 2>"$T/err"); rc=$?
	tap_is "$rc" 1 "$m bomb: exit 1 (no crash under the memory limit)"
	tap_is "$out" "error	$T/$m.eml	$TOO_LARGE" "$m bomb: refused, saying why"
	tap_ok $([ "$(rss)" -lt $rss_max ]; echo $?) "$m bomb: peak RSS $(rss) KiB, under $((rss_max / 1000)) MB"
done
tap_is "$(sqlite3 "$DB" 'SELECT count(*) FROM messages')" "$before" "nothing of the bombs stored"

# show, on a stored body that inflates: the sealed copy of the plain
# report replaced by a 96 MiB bomb.
{ hdr plain@example.net "plain report"; printf 'Content-Type: text/plain\n\n'; head -c 96M /dev/zero; } |
	g -z 9 -r "$OFFICER_FPR" -e >"$T/sealed.gpg"
sqlite3 "$DB" "UPDATE messages SET blob = readfile('$T/sealed.gpg'), blob_kind = 'sealed' WHERE id = 1"
out=$(stm show 1 2>"$T/err"); rc=$?
tap_is "$rc" 0 "show of an inflating body: exit 0 (no crash under the memory limit)"
printf '%s\n' "$out" | grep -qxF "[cannot open this message: cannot open the sealed copy of message 1: $TOO_LARGE]"
tap_ok $? "show of an inflating body: says why instead of printing it" "got: $(printf '%s' "$out" | head -c 600)"
tap_ok $([ "$(printf '%s' "$out" | wc -c)" -lt 10000 ]; echo $?) "show prints $(printf '%s' "$out" | wc -c) bytes, not 96 MiB"
tap_ok $([ "$(rss)" -lt $rss_max ]; echo $?) "show: peak RSS $(rss) KiB, under $((rss_max / 1000)) MB"

# An mbox: a message, one of 65 MiB, another; as a file and with --mbox.
/usr/bin/python3 - "$T/big.mbox" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    for i, size in ((1, 10), (2, 65 << 20), (3, 10)):
        f.write("From rita@example.net Mon Nov 30 10:00:00 2026\n"
                "From: Rita <rita@example.net>\nSubject: mbox %d\n"
                "Message-ID: <mbox%d@example.net>\n\n" % (i, i))
        line = "A" * 75 + "\n"
        f.write(line * (size // 76 + 1) + "\n")
PY
out=$(stm import "$T/big.mbox" 2>"$T/err"); rc=$?
tap_is "$rc" 1 "an mbox with an oversized message: exit 1"
tap_is "$(printf '%s\n' "$out" | cut -f 1,2 | sed 's/^[0-9][0-9]*	/N	/' | tr '\n' '|')" \
	"N	not-signed|error	$T/big.mbox:2|N	not-signed|" \
	"the oversized message is skipped with an error line, the next one imported"
tap_is "$(printf '%s\n' "$out" | sed -n 2p | cut -f 3)" \
	"message 2 in '$T/big.mbox' too large (more than 67108864 bytes)" "the error line says why"
tap_like "$(printf '%s\n' "$out" | sed -n 3p)" "	mbox 3$" "the message after it is there"
tap_ok $([ "$(rss)" -lt $rss_max ]; echo $?) "oversized mbox message: peak RSS $(rss) KiB"
out=$(stm import --mbox "$T/big.mbox" 2>"$T/err"); rc=$?
tap_is "$rc:$(printf '%s\n' "$out" | cut -f 1 | sed 's/^[0-9][0-9]*$/N/' | tr '\n' ' ')" \
	"1:duplicate error duplicate " "--mbox: the same, the others now duplicates"
tap_done
