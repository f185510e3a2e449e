#!/bin/sh
# End to end, other local users (TESTING.md) and the config folder: the
# officer runs secteam-tui as an unprivileged user; another user plants
# or swaps files in the officer's config folder.  The config names the
# command reply --sendmail runs, a template is signed and sent as the
# officer's mail, so each is read only when the file, its folder, the
# folders above and every link followed are the officer's or root's and
# writable by nobody else.  Needs root (useradd); the users are removed
# at exit.
#   a config folder anyone can write, the config swapped for a link to a
#       file the officer owns but the attacker wrote (a tarball's): refused
#   a template planted in a templates/ folder anyone can write: refused
#   a template, or the templates/ folder, that is another user's link:
#       refused
#   a group-writable config whose group is another user's primary group
#       (a member getgrgid does not list): refused
#   a config folder another user owns: refused
#   the controls: a 0700 folder with 0600 files, and the officer's own
#       links to their own good files, work.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
. "$SECTEAM_TOP/tests/lib/users.sh"
e2e_setup config-trust
users_setup

# Others may enter the officer's home (0711), as on many systems; a
# folder both users can write (0777).
chmod 711 "$U/off"
SH=$U/shared
mkdir "$SH" && chmod 0777 "$SH"
printf 'From: Rita Reporter <rita@example.net>\nTo: security@example.org\nSubject: Embargoed tun bug\nDate: Mon, 30 Nov 2026 10:00:00 +0000\nMessage-ID: <r1@example.net>\n\nThe bug is in drivers/net/tun.c.\n' >"$U/r1.eml"
chmod 644 "$U/r1.eml"
out=$(sto import "$U/r1.eml" 2>&1)
tap_like "$out" "^1	not-signed	Embargoed tun bug" "the officer imports a report"

OC=$U/off/.config/secteam  # the default config folder (HOME=$U/off)
SENT=$U/off/sent           # what the officer's sendmail received
PWNED=$SH/pwned            # made by the attacker's command, if it runs
# The officer's own config, in a 0700 folder: sendmail appends the mail
# to SENT.  Others may enter ~/.config (0711), not list it.
good_config() {
	as_officer sh -c 'umask 077; mkdir -p "$1" && chmod 711 "${1%/*}" &&
		printf "[officer]\n\tname = Olga Officer\n[team]\n\taddress = security@example.org\n[forward]\n\tsendmail = sh -c \"cat >>%s\"\n" "$2" >"$1/config"' \
		sh "$OC" "$SENT"
}
# The attacker's lines: their command instead of sendmail.
printf '[forward]\n\tsendmail = sh -c "touch %s; cat >/dev/null"\n' "$PWNED" >"$SH/evil.conf"
chown "$ATTACKER_USER:" "$SH/evil.conf"
# The officer unpacked the attacker's tarball: a file the officer owns,
# with the attacker's text.
as_officer sh -c 'umask 022; mkdir -p "$1/src/theirs" && cp "$2" "$1/src/theirs/x.conf"' \
	sh "$U/off" "$SH/evil.conf"
reply() { sto reply 1 --yes --sendmail --allow-plaintext "$@"; }
# What SENT holds, decrypted by the reporter.
sent_text() {
	[ -e "$SENT" ] || return 0
	sed -n '/BEGIN PGP MESSAGE/,/END PGP MESSAGE/p' "$SENT" |
		gpg --homedir "$S" --batch --quiet --decrypt 2>/dev/null
}
replies() { sto show 1 --json | jq '[.events[] | select(.kind | startswith("reply"))] | length'; }
clean() { rm -rf "$U/off/.config" "$SENT" "$PWNED"; }

# --- the controls: a private folder, 0600 files; the officer's own links ------
good_config
as_officer sh -c 'umask 077; mkdir "$1/templates" &&
	printf "Report {id}: OFFICER-TEMPLATE handled by {officer}\n" >"$1/templates/ack"' sh "$OC"
out=$(reply 2>&1); rc=$?
tap_is "$rc" 0 "a 0700 config folder with a 0600 config and template: reply exits 0" "$out"
tap_like "$(sent_text)" "OFFICER-TEMPLATE handled by Olga Officer" \
	"... and sends the officer's template with the officer's sendmail"
clean
as_officer sh -c 'umask 077; mkdir -p "$1/dotfiles" "$2" &&
	printf "[officer]\n\tname = Olga Officer\n[forward]\n\tsendmail = sh -c \"cat >>%s\"\n" "$3" >"$1/dotfiles/secteam.conf" &&
	printf "Report {id}: LINKED-TEMPLATE\n" >"$1/dotfiles/ack" &&
	mkdir "$2/templates" &&
	ln -s "$1/dotfiles/secteam.conf" "$2/config" && ln -s ../../../dotfiles/ack "$2/templates/ack"' \
	sh "$U/off" "$OC" "$SENT"
out=$(reply 2>&1); rc=$?
tap_is "$rc" 0 "the officer's own links to their own config and template: reply exits 0" "$out"
tap_like "$(sent_text)" "LINKED-TEMPLATE" "... and sends the linked template"
clean

# --- the attack: a config folder anyone can write, the config swapped ---------
good_config
as_officer chmod 777 "$OC"
as_attacker sh -c 'rm -f "$1/config" && ln -s "$2" "$1/config"' sh "$OC" "$U/off/src/theirs/x.conf"
tap_is "$(stat -c %U "$OC/config")" "$ATTACKER_USER" "(the attacker swapped the config for their link)"
out=$(reply 2>&1); rc=$?
tap_is "$rc" 1 "a config folder anyone can write, the config a planted link: exit 1"
tap_is "$out" "secteam-tui: refusing the config '$OC/config': folder '$OC' is writable by others (mode 0777; run: chmod go-w '$OC')" \
	"... refused, naming the folder and the fix"
tap_ok $([ ! -e "$PWNED" ]; echo $?) "... the attacker's command never ran"
tap_ok $([ ! -e "$SENT" ]; echo $?) "... nothing was sent"
# Even with the folder closed again, the link is the attacker's.
as_officer chmod 700 "$OC"
out=$(reply 2>&1); rc=$?
tap_is "$rc:$out" "1:secteam-tui: refusing the config '$OC/config': symbolic link '$OC/config' belongs to another user (uid $ATTACKER_UID)" \
	"the attacker's link in the officer's closed folder: refused, naming the link and its owner"
tap_ok $([ ! -e "$PWNED" ]; echo $?) "... the attacker's command never ran"
clean

# --- a config folder another user owns --------------------------------------
good_config
chown "$ATTACKER_USER:" "$OC"
chmod 755 "$OC"
as_attacker sh -c 'mv "$1/config" "$1/config.old" && ln -s "$2" "$1/config"' sh "$OC" "$U/off/src/theirs/x.conf"
out=$(reply 2>&1); rc=$?
tap_is "$rc:$out" "1:secteam-tui: refusing the config '$OC/config': folder '$OC' belongs to another user (uid $ATTACKER_UID)" \
	"a config folder the attacker owns: refused, naming the folder and its owner"
tap_ok $([ ! -e "$PWNED" ]; echo $?) "... the attacker's command never ran"
clean

# --- group-writable, the group being another user's primary group -------------
# The officer's group, with no member listed (getgrgid's gr_mem is
# empty), is the primary group of a colleague: they can write the config.
og=$(id -gn "$OFFICER_USER")
MATE_USER=stmate$$
if useradd -M -N -g "$og" -s /usr/sbin/nologin "$MATE_USER"; then
	_users_made="$MATE_USER ${_users_made:-}"  # removed first, before the group's owner
	good_config
	chmod 710 "$OC"
	chgrp "$og" "$OC" "$OC/config"
	as_officer chmod 660 "$OC/config"
	tap_is "$(getent group "$og" | cut -d: -f4)" "" "(the group lists no member)"
	setpriv --reuid="$MATE_USER" --regid="$og" --clear-groups -- \
		sh -c 'cat "$1" >>"$2"' sh "$SH/evil.conf" "$OC/config"
	tap_like "$(cat "$OC/config")" "touch $PWNED" "(the colleague, by primary group, wrote the config)"
	out=$(reply 2>&1); rc=$?
	tap_is "$rc:$out" "1:secteam-tui: refusing the config '$OC/config': it is writable by group '$og' (mode 0660; run: chmod go-w '$OC/config')" \
		"a config writable by a group another user has as primary group: refused"
	tap_ok $([ ! -e "$PWNED" ]; echo $?) "... the colleague's command never ran"
	userdel -f "$MATE_USER" 2>/dev/null
	out=$(sto list 2>&1 >/dev/null); rc=$?
	tap_is "$rc:$out" "0:" "the same mode, once nobody else has the group: accepted (the control)"
else
	tap_skip "a config writable by a group another user has as primary group: refused" "useradd failed"
fi
clean

# --- templates ----------------------------------------------------------------
# The officer's config is good; what is sent comes from templates/.
good_config
as_officer mkdir -m 700 "$OC/templates"
as_officer chmod 711 "$OC"
before=$(replies)
# A templates/ folder anyone can write (shared with the team, say), and
# the attacker's ack in it.
as_officer chmod 777 "$OC/templates"
as_attacker sh -c 'printf "Report {id}: PLANTED: send your exploit to evil@example.net\n" >"$1/ack"' \
	sh "$OC/templates"
out=$(reply --template ack 2>&1); rc=$?
tap_is "$rc" 1 "a template planted in a templates/ folder anyone can write: exit 1"
tap_is "$out" "secteam-tui: cannot reply to report 1: refusing the template '$OC/templates/ack': folder '$OC/templates' is writable by others (mode 0777; run: chmod go-w '$OC/templates')" \
	"... refused, naming the template and the folder"
tap_ok $([ ! -e "$SENT" ]; echo $?) "... nothing was sent"
tap_is "$(replies)" "$before" "... no reply recorded"
# The same file (the attacker's) once the folder is closed: refused too.
as_officer chmod 700 "$OC/templates"
out=$(reply --template ack 2>&1); rc=$?
tap_is "$rc:$out" "1:secteam-tui: cannot reply to report 1: refusing the template '$OC/templates/ack': it belongs to another user (uid $ATTACKER_UID)" \
	"the attacker's template in the officer's folder: refused, naming its owner"
rm -f "$OC/templates/ack"
# A template that is another user's link, to the attacker's text.
printf 'Report {id}: PLANTED\n' >"$SH/ack"
chown "$ATTACKER_USER:" "$SH/ack"
ln -s "$SH/ack" "$OC/templates/ack"
chown -h "$ATTACKER_USER:" "$OC/templates/ack"
out=$(reply --template ack 2>&1); rc=$?
tap_is "$rc:$out" "1:secteam-tui: cannot reply to report 1: refusing the template '$OC/templates/ack': symbolic link '$OC/templates/ack' belongs to another user (uid $ATTACKER_UID)" \
	"a template that is another user's link: refused, naming the link and its owner"
# The templates/ folder itself another user's link, to their folder.
rm -rf "$OC/templates"
as_attacker sh -c 'umask 022; mkdir "$1/tpl" && printf "Report {id}: PLANTED\n" >"$1/tpl/ack"' sh "$SH"
ln -s "$SH/tpl" "$OC/templates"
chown -h "$ATTACKER_USER:" "$OC/templates"
out=$(reply --template ack 2>&1); rc=$?
tap_is "$rc:$out" "1:secteam-tui: cannot reply to report 1: refusing the template '$OC/templates/ack': symbolic link '$OC/templates' belongs to another user (uid $ATTACKER_UID)" \
	"a templates/ folder that is another user's link: refused"
out=$(sto reply --list-templates 2>&1); rc=$?
tap_is "$rc" 1 "reply --list-templates: refused as well"
tap_ok $([ ! -e "$SENT" ]; echo $?) "none of the planted templates was sent"
tap_is "$(replies)" "$before" "no reply recorded"
# The control: with no templates/ at all, the shipped ack is sent.
rm -f "$OC/templates" "$SENT"
out=$(reply --template ack 2>&1); rc=$?
tap_is "$rc" 0 "no templates/ folder: the shipped ack is sent" "$out"
tap_like "$(sent_text)" "Thank you for your report" "... its text"
tap_unlike "$(sent_text)" "PLANTED" "... with none of the attacker's"

tap_done
