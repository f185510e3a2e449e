#!/bin/sh
# mkgnupg.sh DIR: the OpenPGP keys for the kernel-check guest, made fresh on
# the host (ed25519 signing key + cv25519 encryption subkey, no passphrase).
#   DIR/officer   the guest's GNUPGHOME: the officer's secret key (ultimately
#                 trusted) and the reporter's public key, certified by the
#                 officer so that the reporter's signature is "valid"
#   DIR/reporter  the reporter's secret key and the officer's public key,
#                 used on the host to write the report (tests/kernel/mkreport.py)
#   DIR/env       OFFICER_FPR=... and REPORTER_FPR=... lines
# Offline: no keyserver, no dirmngr; the agents are stopped at the end.
set -eu
d=${1:?usage: mkgnupg.sh DIR}
OFFICER="Security Officers <security@kernel.org>"
REPORTER="Rita Reporter <rita@example.net>"
rm -rf "$d"
mkdir -p "$d/officer" "$d/reporter"
chmod 700 "$d" "$d/officer" "$d/reporter"
for h in "$d/officer" "$d/reporter"; do
	printf 'no-auto-key-retrieve\nauto-key-locate local\nno-greeting\n' >"$h/gpg.conf"
	printf 'disable-scdaemon\nallow-loopback-pinentry\n' >"$h/gpg-agent.conf"
done
g() { h=$1; shift; gpg --homedir "$h" --batch --no-tty --yes "$@"; }
fpr() {
	gpg --homedir "$1" --batch --with-colons --list-keys "=$2" |
		awk -F: '$1 == "fpr" { print $10; exit }'
}
trap 'gpgconf --homedir "$d/officer" --kill all 2>/dev/null || :
      gpgconf --homedir "$d/reporter" --kill all 2>/dev/null || :' EXIT
g "$d/officer" --passphrase '' --pinentry-mode loopback \
	--quick-gen-key "$OFFICER" ed25519 sign never 2>/dev/null
OFFICER_FPR=$(fpr "$d/officer" "$OFFICER")
g "$d/officer" --passphrase '' --pinentry-mode loopback \
	--quick-add-key "$OFFICER_FPR" cv25519 encr never 2>/dev/null
g "$d/reporter" --passphrase '' --pinentry-mode loopback \
	--quick-gen-key "$REPORTER" ed25519 sign never 2>/dev/null
REPORTER_FPR=$(fpr "$d/reporter" "$REPORTER")
g "$d/reporter" --passphrase '' --pinentry-mode loopback \
	--quick-add-key "$REPORTER_FPR" cv25519 encr never 2>/dev/null
g "$d/officer" --export "$OFFICER_FPR" >"$d/officer.pub"
g "$d/reporter" --export "$REPORTER_FPR" >"$d/reporter.pub"
g "$d/reporter" --import "$d/officer.pub" 2>/dev/null
g "$d/officer" --import "$d/reporter.pub" 2>/dev/null
printf '%s:6:\n' "$OFFICER_FPR" | g "$d/officer" --import-ownertrust 2>/dev/null
g "$d/officer" --default-key "$OFFICER_FPR" --quick-sign-key "$REPORTER_FPR" >/dev/null 2>&1
g "$d/officer" --check-trustdb 2>/dev/null
printf 'OFFICER_FPR=%s\nREPORTER_FPR=%s\n' "$OFFICER_FPR" "$REPORTER_FPR" >"$d/env"
