#!/bin/sh
# secteam-gpg (libexec/secteam-gpg.c: gpg with --quiet, which GPGME cannot
# ask for) is what GPGME runs when it is installed beside the program, or
# in ../lib/secteam-tui/, and only its user or root can have written it.
# Played as the attacker: a secteam-gpg that other users can write, in a
# folder they can write, or that belongs to another user, is never run
# (gpg itself does the work, with the same results).  Each stand-in here
# is a script that leaves a mark, then does what secteam-gpg does.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup quietgpg
RITA="Rita Reporter <rita@example.net>"
n=0
enc() { # a new encrypted, signed mail in $T/m.N.eml
	n=$((n + 1))
	mk --kind encrypted-signed --from "$RITA" --sign-as "$REPORTER_FPR" \
		--to "$OFFICER_FPR" --subject "quiet $n" --body "body $n in mm/slub.c" \
		--message-id "q$n@example.net" > "$T/m.$n.eml"
}
# INSTALL: a folder holding bin/secteam-tui (a copy) and, where asked,
# the stand-in, as `make install` lays them out.
stand_in() { # PATH
	mkdir -p "$(dirname "$1")"
	cat > "$1" <<SH
#!/bin/sh
echo "\$*" >> "$T/ran"
exec /usr/bin/gpg --quiet "\$@"
SH
	chmod 755 "$1"
}
I=$T/inst
mkdir -p "$I/bin"
chmod 755 "$T" "$I" "$I/bin"
cp "$SECTEAM_BIN" "$I/bin/secteam-tui"
run() { "$I/bin/secteam-tui" --db "$DB" --gnupghome "$H" "$@"; }
imports() { # DESCRIPTION: a new mail imports as valid
	enc
	out=$(run import "$T/m.$n.eml" 2>&1)
	tap_like "$out" "	valid	quiet $n" "$1: the mail imports, verified"
}

stand_in "$I/lib/secteam-tui/secteam-gpg"
rm -f "$T/ran"
imports "secteam-gpg in ../lib/secteam-tui"
tap_ok "$(grep -q -- "--decrypt" "$T/ran" 2>/dev/null; echo $?)" "... and GPGME ran it to decrypt"

stand_in "$I/bin/secteam-gpg"
rm -f "$T/ran"
chmod o+w "$I/bin/secteam-gpg"
chmod o+w "$I/lib/secteam-tui/secteam-gpg"
imports "secteam-gpg writable by others, in both places"
tap_ok "$([ ! -e "$T/ran" ]; echo $?)" "... and it was not run"

chmod o-w "$I/bin/secteam-gpg"
imports "secteam-gpg beside the program"
tap_ok "$([ -s "$T/ran" ]; echo $?)" "... and it was run"

rm -f "$T/ran"
chmod o+w "$I/bin"
imports "its folder writable by others"
tap_ok "$([ ! -e "$T/ran" ]; echo $?)" "... and it was not run"
chmod o-w "$I/bin"

if [ "$(id -u)" = 0 ]; then
	chown nobody "$I/bin/secteam-gpg"
	imports "secteam-gpg owned by another user"
	tap_ok "$([ ! -e "$T/ran" ]; echo $?)" "... and it was not run"
	chown 0 "$I/bin/secteam-gpg"
else
	tap_skip "secteam-gpg owned by another user" "needs root (chown)"
	tap_skip "... and it was not run" "needs root (chown)"
fi

# A mail to somebody else's key: gpg --quiet does not say there is no
# secret key for it (gpg 2.2 writes NO_SECKEY only with the lines
# --quiet leaves out), so the failure is decrypted again by gpg itself,
# and the error names the missing key, not damage.
mk --kind encrypted-signed --from "$RITA" --sign-as "$REPORTER_FPR" \
	--to "$UNKNOWN_FPR" --subject "not for us" --body "x" \
	--message-id "nfu@example.net" > "$T/nfu.eml"
rm -f "$T/ran"
out=$(run import "$T/nfu.eml" 2>/dev/null)
tap_like "$out" "^error	.*no secret key for any of its 1 recipients" \
	"a mail to another key: 'no secret key', through secteam-gpg too"
tap_ok "$(grep -q -- "--decrypt" "$T/ran" 2>/dev/null; echo $?)" "... which tried it first"

# One that does not run gpg at all (its version check fails): gpg itself.
printf '#!/bin/sh\necho "$*" >> "%s/ran"\nexit 1\n' "$T" > "$I/bin/secteam-gpg"
rm -f "$T/ran"
imports "a secteam-gpg that fails its version check"
tap_is "$(cat "$T/ran")" "--version" "... which was asked its version, and nothing more"

# SECTEAM_GPG_QUIET=0: gpg itself, even with a good secteam-gpg.
stand_in "$I/bin/secteam-gpg"
rm -f "$T/ran"
enc
out=$(SECTEAM_GPG_QUIET=0 run import "$T/m.$n.eml" 2>&1)
tap_like "$out" "	valid	quiet $n" "SECTEAM_GPG_QUIET=0: the mail imports, verified"
tap_ok "$([ ! -e "$T/ran" ]; echo $?)" "... and secteam-gpg was not run"

# The one `make` built: it runs gpg with --quiet and the arguments given.
tap_like "$("$(dirname "$SECTEAM_BIN")/secteam-gpg" --version | head -n 1)" \
	"^gpg \(GnuPG\) " "the built secteam-gpg runs gpg"
tap_done
