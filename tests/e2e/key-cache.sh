#!/bin/sh
# team.key-cache (a command's time is mostly its gpg runs and
# gpg-agent round trip): the team key an officer unwrapped is kept in the
# kernel's keyring (crypto/teamkey.c, libkeyutils) and the next commands
# open sealed values without running gpg.  auto (the default): kept, and
# used only while the officer's gpg-agent says it would open the
# officer's key without asking (crypto/agent.c); SECONDS: used for that
# long whatever the agent says; 0: never kept.  Played as the attacker:
# the kept key outlives neither the agent nor the passphrase in its cache
# (a cleared cache, a stopped agent: the command asks the agent again and
# fails as it would have); another local user cannot find or read the
# kept key, even knowing its id; another GnuPG home of the same user does
# not get it (a colleague's keyring without a copy still gets the clear
# error); nothing of it is on disk.  Needs root for the second user
# (tests/lib/users.sh).
. "$SECTEAM_TOP/tests/lib/e2e.sh"
. "$SECTEAM_TOP/tests/lib/users.sh"
e2e_setup keycache
users_setup

# keyctl(2) from Python: "search NAME" prints the id; "read ID" the
# payload's length; "forget NAME".
cat >"$U/kr.py" <<'PY'
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
SYS_add_key, SYS_keyctl = 248, 250
USER_KEYRING, SEARCH, READ, INVALIDATE = -4, 10, 11, 21
op, arg = sys.argv[1], sys.argv[2].encode()
if op == "add":
    r = libc.syscall(SYS_add_key, b"user", arg, b"x", 1, USER_KEYRING)
    if r >= 0:
        libc.syscall(SYS_keyctl, INVALIDATE, ctypes.c_long(r))
elif op == "search":
    r = libc.syscall(SYS_keyctl, SEARCH, USER_KEYRING, b"user", arg, 0)
elif op == "purge":
    # Every secteam-tui: key this user can see, invalidated (a user made
    # for a test may get the uid, and so the keyring, of an earlier one).
    r = 0
    for line in open("/proc/keys"):
        f = line.split()
        if len(f) >= 9 and f[7] == "user" and f[8].startswith(arg.decode()):
            libc.syscall(SYS_keyctl, INVALIDATE, ctypes.c_long(int(f[0], 16)))
            r += 1
elif op == "read":
    buf = ctypes.create_string_buffer(256)
    r = libc.syscall(SYS_keyctl, READ, ctypes.c_long(int(sys.argv[2])), buf, 256)
else:
    r = -1
print(r if r >= 0 else "error " + os.strerror(ctypes.get_errno()))
PY
chmod 644 "$U/kr.py"
# The live ones (not revoked, dead or invalidated: flags R, D, i; not
# expired: timeout "expd"; such keys are listed until collected).
live() {
	as_officer awk '$8 == "user" && $9 ~ /^secteam-tui:/ && $2 !~ /[RDi]/ &&
		$4 != "expd"' /proc/keys
}
mine() { live | wc -l | tr -d ' '; }
as_officer /usr/bin/python3 "$U/kr.py" purge secteam-tui: >/dev/null

mail() { # FILE MSGID SUBJECT
	printf 'From: Rita Reporter <rita@example.net>\nTo: security@example.org\nSubject: %s\nDate: Mon, 30 Nov 2026 10:00:00 +0000\nMessage-ID: <%s>\n\nbody\n' \
		"$3" "$2" >"$1"
	chmod 644 "$1"
}
mail "$U/r1.eml" r1@example.net "Embargoed kvm bug"
as_officer sh -c 'umask 077; printf "[team]\n\tkey-cache = 120\n" >"$HOME/cache.conf"
	printf "[team]\n\tkey-cache = 0\n" >"$HOME/off.conf"'
CONF=$U/off/cache.conf
OFF=$U/off/off.conf
sto --config "$OFF" import "$U/r1.eml" >/dev/null 2>&1 || { echo "Bail out! import failed"; exit 1; }

# With 0, nothing is kept.
before=$(mine)
tap_is "$before" 0 "(the new officer's keyring holds no kept key)"
sto --config "$OFF" list >/dev/null 2>&1
tap_is "$(mine)" "$before" "with team.key-cache = 0 nothing is put in the keyring"

probe=$(as_officer /usr/bin/python3 "$U/kr.py" add secteam-probe)
if [ "${probe#error}" != "$probe" ]; then
	tap_skip "the key kept and used" "this kernel refuses keyrings here (keyrings(7))"
	tap_done
	exit 0
fi

# auto, the default: the first command unwraps and keeps the key, with a
# timeout, readable by its user alone, with what the agent is asked.
out=$(sto --config /dev/null list 2>&1)
tap_like "$out" "Embargoed kvm bug" "auto: the first command opens the subject (through gpg-agent)"
tap_is "$(mine)" "$((before + 1))" "  and keeps one key in the officer's keyring"
line=$(live)
tap_like "$line" "^[0-9a-f]+ [^ ]+ +[0-9]+ +(10m|[0-9]m|[0-9]+s) +3f0b0000 " \
	"  for ten minutes at most, readable by the officer's processes alone" "$line"
aid=$(printf '%d' "0x$(printf '%s' "$line" | cut -d' ' -f1)")
n=$(as_officer /usr/bin/python3 "$U/kr.py" read "$aid")
tap_ok "$([ "$n" -gt 80 ] && echo 0 || echo 1)" "  with the keygrip and agent socket it asks ($n bytes)"
# The next command runs no gpg: one that cannot start (a bad option in
# gpg.conf) does not stop it.
as_officer sh -c 'cp "$HOME/gnupg/gpg.conf" "$HOME/gpg.conf.good"; echo no-such-option-here >>"$HOME/gnupg/gpg.conf"'
out=$(sto --config /dev/null list 2>&1)
tap_like "$out" "Embargoed kvm bug" "auto: the next command opens it with the kept key, running no gpg" "$out"
as_officer cp "$U/off/gpg.conf.good" "$U/off/gnupg/gpg.conf"

# The attacker who finds the officer's agent without the passphrase: the
# kept key is not used once the agent would ask.  The officer's key gets
# a passphrase; the agent has it (preset), so the first command opens
# and keeps; the agent's cache cleared, the next command fails as it
# would without the kept key, which is dropped.
GRIPS=$(as_officer gpg --homedir "$U/off/gnupg" --with-colons --with-keygrip -K 2>/dev/null |
	awk -F: '$1 == "grp" { print $10 }')
as_officer sh -c 'echo allow-preset-passphrase >>"$HOME/gnupg/gpg-agent.conf"
	gpgconf --homedir "$HOME/gnupg" --kill gpg-agent
	echo s3cret | gpg --homedir "$HOME/gnupg" --batch --pinentry-mode loopback \
		--passphrase-fd 0 --passwd "$1" 2>/dev/null' sh "$OFFICER_FPR"
as_officer /usr/bin/python3 "$U/kr.py" purge secteam-tui: >/dev/null
# The secret keys moved back (an agent started meanwhile made an empty
# folder in their place).
keys_back() {
	rm -rf "$U/off/gnupg/private-keys-v1.d"
	mv "$U/off/pk" "$U/off/gnupg/private-keys-v1.d"
}
preset() {
	for g in $GRIPS; do
		as_officer env GNUPGHOME="$U/off/gnupg" /usr/lib/gnupg/gpg-preset-passphrase \
			--preset -P s3cret "$g"
	done
}
as_officer gpg-connect-agent --homedir "$U/off/gnupg" /bye >/dev/null 2>&1
preset
out=$(sto --config /dev/null list 2>&1)
tap_like "$out" "Embargoed kvm bug" "auto, a passphrase in the agent's cache: the command opens" "$out"
tap_is "$(mine)" 1 "  and keeps the key"
for g in $GRIPS; do
	as_officer gpg-connect-agent --homedir "$U/off/gnupg" \
		"clear_passphrase --mode=normal $g" /bye >/dev/null 2>&1
done
out=$(sto --config /dev/null list 2>&1)
tap_like "$out" "no wrapped copy of the team key .* opens with this keyring" \
	"auto, the agent's cache cleared: the kept key is not used, the clear error" "$out"
tap_unlike "$out" "Embargoed kvm bug" "  and no subject"
tap_is "$(mine)" 0 "  and the kept key is dropped"
preset
out=$(sto --config /dev/null list 2>&1)
tap_like "$out" "Embargoed kvm bug" "(the passphrase given again: it opens)" "$out"
# The agent stopped, its keys gone: nothing vouches for the kept key.
as_officer gpgconf --homedir "$U/off/gnupg" --kill gpg-agent >/dev/null 2>&1
mv "$U/off/gnupg/private-keys-v1.d" "$U/off/pk"
out=$(sto --config /dev/null list 2>&1)
tap_like "$out" "no wrapped copy of the team key .* opens with this keyring" \
	"auto, the agent stopped and the key gone: the clear error" "$out"
tap_unlike "$out" "Embargoed kvm bug" "  and no subject"
keys_back
as_officer /usr/bin/python3 "$U/kr.py" purge secteam-tui: >/dev/null

# SECONDS: the first command unwraps and keeps the key, with a timeout
# and readable by its user alone.
as_officer gpg-connect-agent --homedir "$U/off/gnupg" /bye >/dev/null 2>&1
preset
out=$(sto --config "$CONF" list 2>&1)
tap_like "$out" "Embargoed kvm bug" "key-cache: the first command opens the subject (through gpg-agent)"
tap_is "$(mine)" 1 "  and keeps one key in the officer's keyring"
line=$(live)
tap_like "$line" "^[0-9a-f]+ [^ ]+ +[0-9]+ +[0-9]+[ms] +3f0b0000 " \
	"  with a timeout, readable by the officer's processes alone (3f0b0000)" "$line"
id=$(printf '%d' "0x$(printf '%s' "$line" | cut -d' ' -f1)")
name=$(printf '%s' "$line" | sed 's/.*\(secteam-tui:[0-9a-f]*\).*/\1/')

# The next commands need neither the agent nor the secret key: the
# officer's choice.
as_officer gpgconf --homedir "$U/off/gnupg" --kill gpg-agent >/dev/null 2>&1
mv "$U/off/gnupg/private-keys-v1.d" "$U/off/pk"
out=$(sto --config "$CONF" list 2>&1)
tap_like "$out" "Embargoed kvm bug" "key-cache: the next command opens it without agent or secret key"
out=$(sto --config "$OFF" list 2>&1)
tap_like "$out" "no wrapped copy of the team key .* opens with this keyring" \
	"  the same with 0: the clear error" "$out"
tap_unlike "$out" "Embargoed kvm bug" "  and no subject"

# Another GnuPG home of the same user (a colleague's keyring, here one
# with no copy): the kept key is not its.
as_officer mkdir -m 700 "$U/off/other"
as_officer cp "$U/off/gnupg/pubring.kbx" "$U/off/other/"
out=$(as_officer "$U/bin/secteam-tui" --db "$ODB" --gnupghome "$U/off/other" --config "$CONF" list 2>&1)
tap_like "$out" "no wrapped copy of the team key" "another GnuPG home does not get the kept key" "$out"
keys_back

# The attacker: another local user.
tap_like "$(as_attacker /usr/bin/python3 "$U/kr.py" search "$name")" "^error" \
	"another user does not find it by name"
tap_like "$(as_attacker /usr/bin/python3 "$U/kr.py" read "$id")" "^error (Permission denied|Required key not available)" \
	"another user cannot read it by its id"
tap_is "$(as_attacker grep -c secteam-tui: /proc/keys)" 0 "another user does not see it in /proc/keys"
tap_is "$(as_officer /usr/bin/python3 "$U/kr.py" read "$id")" 40 "(the officer can: 40 bytes)"

# Nothing of it on disk: the database, the officer's folders, the
# temporary folder hold no copy of the kept bytes.
keyhex=$(as_officer /usr/bin/python3 -c '
import ctypes, sys
libc = ctypes.CDLL(None)
buf = ctypes.create_string_buffer(64)
n = libc.syscall(250, 11, ctypes.c_long(int(sys.argv[1])), buf, 64)
print(buf.raw[8:n].hex())' "$id")
tap_is "${#keyhex}" 64 "(the kept key read back: 32 bytes)"
findkey() {
	/usr/bin/python3 - "$keyhex" "$U" "$T" <<'PY'
import os, sys
key = bytes.fromhex(sys.argv[1])
for top in sys.argv[2:]:
    for d, _, files in os.walk(top):
        for f in files:
            p = os.path.join(d, f)
            try:
                if key in open(p, "rb").read():
                    print(p)
            except OSError:
                pass
PY
}
printf '%s' "$keyhex" | /usr/bin/python3 -c 'import sys; sys.stdout.buffer.write(b"x" + bytes.fromhex(sys.stdin.read()))' >"$T/planted"
tap_like "$(findkey)" "planted" "(a planted copy of the key is found)"
rm -f "$T/planted"
tap_is "$(findkey)" "" "the key is in no file (database, home, cache, temporary folder)"
tap_done
