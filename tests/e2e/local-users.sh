#!/bin/sh
# End to end, other local users (TESTING.md): the officer runs secteam-tui
# as an unprivileged user, against files an attacker user planted in
# folders both can write.  Needs root (useradd); the users are removed at
# exit.
#   export -o   never follows a planted link, never writes into a file the
#               attacker made, and leaves a file only the officer reads;
#   the database  refused in a folder others can write into, or next to
#               -wal/-shm/-journal files that are not the officer's 0600;
#   import      follows no symbolic link inside a Maildir or a folder of
#               .eml files, and names what it skipped;
#   the UI's note editor  reads the note back from a private folder, not
#               from a name in a $TMPDIR the attacker can write;
#   the config  refused when another user owns it or can write it (it
#               names commands secteam-tui runs, keys it encrypts to).
. "$SECTEAM_TOP/tests/lib/e2e.sh"
. "$SECTEAM_TOP/tests/lib/users.sh"
e2e_setup users
users_setup

# A folder both users can write and neither owns alone (0777, not
# sticky): a project folder, a group's share.
SH=$U/shared
mkdir "$SH" && chmod 0777 "$SH"
mail() { # FILE MSGID SUBJECT BODY: a plain report, readable by the users
	printf 'From: Rita Reporter <rita@example.net>\nTo: security@example.org\nSubject: %s\nDate: Mon, 30 Nov 2026 10:00:00 +0000\nMessage-ID: <%s>\n\n%s\n' \
		"$3" "$2" "$4" >"$1"
	chmod 644 "$1"
}
mail "$U/r1.eml" r1@example.net "Embargoed tun bug" "The bug is in drivers/net/tun.c."
out=$(sto import "$U/r1.eml" 2>&1)
tap_like "$out" "^1	not-signed	Embargoed tun bug" "the officer imports a report"

# --- export -o ----------------------------------------------------------------
printf 'precious\n' >"$U/off/precious"
chown "$OFFICER_USER:" "$U/off/precious"
chmod 600 "$U/off/precious"
as_attacker ln -s "$U/off/precious" "$SH/embargoes.ics"
# The officer's stderr without the embargo warning exports give.
errs() { grep -v -E '^warning: reports? [0-9, ]* (is|are) still under embargo' "$T/err"; }
out=$(sto export --all --format ics -o "$SH/embargoes.ics" 2>"$T/err"); rc=$?
tap_is "$rc" 1 "export -o onto a planted symbolic link: exit 1"
tap_is "$(errs)" "secteam-tui: refusing to write '$SH/embargoes.ics': it is a symbolic link" \
	"export -o onto a planted symbolic link: refused, naming the file"
tap_is "$(cat "$U/off/precious")" "precious" "the file the link points at is untouched"

as_attacker sh -c 'umask 0; : >"$1"' sh "$SH/calendar.ics"
out=$(sto export --all --format ics -o "$SH/calendar.ics" 2>"$T/err"); rc=$?
tap_is "$rc" 1 "export -o into a 0666 file the attacker made: exit 1"
tap_is "$(errs)" "secteam-tui: refusing to write '$SH/calendar.ics': it belongs to another user (uid $ATTACKER_UID)" \
	"export -o into the attacker's file: refused, naming the file and its owner"
tap_is "$(as_attacker cat "$SH/calendar.ics")" "" "the attacker's file received nothing"

out=$(sto export --all --format ics -o "$SH/mine.ics" 2>"$T/err"); rc=$?
tap_is "$rc:$out:$(errs)" "0::" "export -o a new file in the shared folder"
tap_is "$(stat -c '%a %U' "$SH/mine.ics")" "600 $OFFICER_USER" "the export is 0600 and the officer's"
tap_like "$(cat "$SH/mine.ics")" "BEGIN:VCALENDAR" "the export holds the calendar"
as_attacker cat "$SH/mine.ics" >/dev/null 2>&1
tap_ok $((! $?)) "the attacker cannot read the export"
tap_is "$(ls -A "$SH" | grep -c '^\.')" 0 "no temporary file left behind"

# Replacing it: still 0600 even if the officer had opened it up; --mode asks.
chmod 644 "$SH/mine.ics"
out=$(sto export --all --format ics -o "$SH/mine.ics" 2>&1); rc=$?
tap_is "$rc:$(stat -c %a "$SH/mine.ics")" "0:600" "replacing an export: 0600 again"
out=$(sto export --all --format ics -o "$SH/mine.ics" --mode 0644 2>&1); rc=$?
tap_is "$rc:$(stat -c %a "$SH/mine.ics")" "0:644" "--mode 0644: a calendar others may read"
tap_like "$(as_attacker cat "$SH/mine.ics")" "BEGIN:VCALENDAR" "--mode 0644: the attacker may read it, as asked"
out=$(sto export --all --format ics -o "$SH/mine.ics" --mode 999 2>&1); rc=$?
tap_is "$rc" 2 "--mode 999: usage error"
tap_like "$out" "export --mode '999': not a file mode from 0000 to 0777" "--mode 999: says what is wrong"

# --- the database's folder and its -wal/-shm/-journal files -------------------
# The attacker plants 0666 -wal and -shm files (and keeps hard links to
# them) where the officer's database goes, in the shared folder.
as_attacker sh -c 'umask 0; for f in "$1-wal" "$1-shm"; do : >"$f"; ln "$f" "$f.kept"; done' \
	sh "$SH/team.db"
out=$(as_officer "$U/bin/secteam-tui" --db "$SH/team.db" --gnupghome "$U/off/gnupg" \
	import "$U/r1.eml" 2>"$T/err"); rc=$?
tap_is "$rc" 1 "a database in a folder others can write: exit 1"
tap_is "$(cat "$T/err")" "secteam-tui: refusing database '$SH/team.db': other users can create files in its folder '$SH' (mode 0777); use a private folder" \
	"a database in a folder others can write: refused, naming the folder"
tap_is "$(as_attacker cat "$SH/team.db-wal.kept" "$SH/team.db-shm.kept" | strings | grep -c 'Embargoed\|rita')" 0 \
	"nothing of the report reached the planted -wal/-shm"
tap_ok $([ ! -e "$SH/team.db" ]; echo $?) "no database created there"

# A sticky folder of the officer's (a private /tmp): others can still
# create files there, so what they planted is refused.
P=$U/sticky
mkdir "$P" && chown "$OFFICER_USER:" "$P" && chmod 1777 "$P"
as_attacker sh -c 'umask 0; : >"$1-wal"; ln "$1-wal" "$1.kept"' sh "$P/team.db"
out=$(as_officer "$U/bin/secteam-tui" --db "$P/team.db" --gnupghome "$U/off/gnupg" \
	import "$U/r1.eml" 2>"$T/err"); rc=$?
tap_is "$rc:$(cat "$T/err")" "1:secteam-tui: refusing database file '$P/team.db-wal': it belongs to another user (uid $ATTACKER_UID)" \
	"the attacker's -wal in the officer's sticky folder: refused, naming file and owner"
tap_is "$(as_attacker cat "$P/team.db.kept" | wc -c | tr -d ' ')" 0 "the planted -wal received nothing"
as_attacker rm -f "$P/team.db-wal" "$P/team.db.kept"
as_officer sh -c 'umask 022; : >"$1-shm"' sh "$P/team.db"
out=$(as_officer "$U/bin/secteam-tui" --db "$P/team.db" --gnupghome "$U/off/gnupg" \
	import "$U/r1.eml" 2>"$T/err"); rc=$?
tap_is "$rc:$(cat "$T/err")" "1:secteam-tui: refusing database file '$P/team.db-shm': its mode 0644 lets others read it (run: chmod 600 '$P/team.db-shm')" \
	"the officer's own 0644 -shm: refused, with the fix"
as_officer chmod 600 "$P/team.db-shm"
out=$(as_officer "$U/bin/secteam-tui" --db "$P/team.db" --gnupghome "$U/off/gnupg" \
	import "$U/r1.eml" 2>"$T/err"); rc=$?
tap_is "$rc:$(cat "$T/err")" "0:" "once it is 0600, the database opens there"
tap_is "$(stat -c '%a %U' "$P/team.db")" "600 $OFFICER_USER" "the database is the officer's, 0600"

# --- symbolic links inside a Maildir or a folder of .eml files ----------------
# The attacker's Maildir: new/ is a link to the officer's private folder,
# cur/ holds a link to a file of the officer's GnuPG home; the attacker's
# folder of .eml files holds a link to the officer's private mail.
mkdir -m 700 "$U/off/private"
mail "$U/off/private/secret.eml" secret@example.org "PRIVATE canary" "the officer's own mail"
chown -R "$OFFICER_USER:" "$U/off/private"
key=$(ls "$U/off/gnupg/private-keys-v1.d" | head -n 1)
as_attacker sh -c 'umask 022; mkdir -p "$1/inbox/cur" "$1/emls" &&
	ln -s "$2/private" "$1/inbox/new" &&
	ln -s "$2/gnupg/private-keys-v1.d/$3" "$1/inbox/cur/1.host:2,S" &&
	ln -s "$2/private/secret.eml" "$1/emls/b.eml"' sh "$SH" "$U/off" "$key"
mail "$U/a.eml" a@example.net "Legit in the folder" "x"
cp "$U/a.eml" "$SH/emls/a.eml" && chown "$ATTACKER_USER:" "$SH/emls/a.eml"
before=$(sto list --json | jq length)
out=$(sto import "$SH/inbox" 2>/dev/null); rc=$?
tap_is "$rc" 1 "a Maildir with links: exit 1"
tap_is "$out" "error	$SH/inbox/new	a symbolic link: not followed
error	$SH/inbox/cur/1.host:2,S	a symbolic link: not followed" \
	"a Maildir with links: each one named, none followed"
out=$(sto import "$SH/emls" 2>/dev/null); rc=$?
tap_is "$rc" 1 "a folder of .eml files with a link: exit 1"
tap_like "$out" "^error	$SH/emls/b.eml	a symbolic link: not followed" "the link is named and skipped"
tap_like "$out" "	not-signed	Legit in the folder" "the real message next to it is imported"
tap_is "$(sto list --json | jq length)" $((before + 1)) "one report more: nothing from the officer's private files"
tap_unlike "$(sto list)" "PRIVATE" "the officer's private mail did not become a report"

# --- the UI's note editor, in a $TMPDIR others can write ----------------------
# TMPDIR is world-writable and not sticky, so others may rename what is
# in it.  The editor writes the officer's note; while it is still open,
# the attacker swaps whatever secteam-tui made there for their own.
TD=$U/tmpdir F=$U/flags
mkdir "$TD" "$F" && chmod 0777 "$TD" "$F"
cat >"$U/bin/ed.sh" <<'EOS'
#!/bin/sh
# The officer's editor: writes the note, then (when an attack is on)
# stays open until the attacker has had a go.
printf 'genuine note\n' >"$1"
: >"$FLAGS/edited"
if [ -e "$FLAGS/attack" ]; then
	i=0
	while [ ! -e "$FLAGS/swapped" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
fi
EOS
cat >"$U/bin/swap.sh" <<'EOS'
#!/bin/sh
# The attacker: once the note is written, replaces each entry secteam-tui
# made in TMPDIR (a file, or a folder holding "note") with their own.
i=0
while [ ! -e "$FLAGS/edited" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
for e in "$TD"/secteam-note-*; do
	[ -e "$e" ] || continue
	mv "$e" "$e.gone" 2>/dev/null || continue
	if [ -d "$e.gone" ]; then
		mkdir -m 755 "$e" && printf 'evil note\n' >"$e/note" && chmod 644 "$e/note"
	else
		printf 'evil note\n' >"$e" && chmod 644 "$e"
	fi
done
: >"$FLAGS/swapped"
EOS
chmod 755 "$U/bin/ed.sh" "$U/bin/swap.sh"
SOCK=stusers$$
tmx() { tmux -L "$SOCK" "$@"; }
e2e_on_exit 'tmux_gone "$SOCK"'
notes() { # the notes of every report, read back by the officer (they are sealed)
	as_officer env HOME="$U/off" "$U/bin/secteam-tui" --db "$ODB" --gnupghome "$U/off/gnupg" \
		list --json 2>/dev/null | jq -r '.[].id' | while read -r _id; do
		as_officer env HOME="$U/off" "$U/bin/secteam-tui" --db "$ODB" --gnupghome "$U/off/gnupg" \
			show "$_id" --json 2>/dev/null | jq -r '.events[] | select(.kind == "note") | .detail'
	done | tr '\n' '|'
}
wait_screen() { # TEXT: until the pane shows it (10 s at most)
	_i=0
	while [ $_i -lt 200 ]; do
		tmx capture-pane -p -t t 2>/dev/null | grep -qF -- "$1" && return 0
		sleep 0.05
		_i=$((_i + 1))
	done
	return 1
}
tmx -f /dev/null new-session -d -s t -x 120 -y 30 \
	"setpriv --reuid=$OFFICER_USER --regid=$OFFICER_USER --init-groups -- env HOME=$U/off USER=$OFFICER_USER LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=screen-256color TMPDIR=$TD FLAGS=$F EDITOR=$U/bin/ed.sh VISUAL= $U/bin/secteam-tui --db $ODB --gnupghome $U/off/gnupg; sleep 30"
wait_screen "Embargoed tun bug"
tap_ok $? "the UI runs as the officer"

: >"$F/attack"
FLAGS=$F TD=$TD as_attacker "$U/bin/swap.sh" &
swapper=$!
tmx send-keys -t t E
wait "$swapper"
wait_screen "nothing recorded"
tap_ok $? "the swap is noticed: the UI says nothing was recorded"
tap_like "$(tmx capture-pane -p -t t)" "error: nothing recorded: the private folder '$TD/secteam-note-[A-Za-z0-9]*' was moved" \
	"... and names the folder"
tap_unlike "$(notes)" "evil" "the attacker's note is not recorded"
tap_is "$(ls -A "$TD"/*.gone 2>&1)" "" "the officer's moved folder was emptied"
# The error is longer than the status line: it opened whole in a pager.
tmx capture-pane -p -t t | grep -q "the whole error" && tmx send-keys -t t q

# Without an attacker, the same editor records the note.
rm -f "$F/attack" "$F/edited" "$F/swapped"
tmx send-keys -t t E
wait_screen "note added"
tap_ok $? "without the attacker: the note is added"
tap_is "$(notes)" "genuine note|" "the officer's note, read back from the private folder"
tap_is "$(ls "$TD" | grep -v '^secteam-note-[A-Za-z0-9]*\(\.gone\)\?$')" "" \
	"nothing else left in TMPDIR"
tap_is "$(ls -d "$TD"/secteam-note-* | wc -l | tr -d ' ')" 2 "only the attacker's folder and the moved one remain"
tmx kill-server 2>/dev/null

# --- the config ---------------------------------------------------------------
# Whoever writes the config chooses the command forward --sendmail runs,
# the keys reports are encrypted to and the server they go to.
printf '[forward]\n\tsendmail = sh -c "touch %s/pwned"\n' "$SH" >"$SH/team.conf"
chown "$ATTACKER_USER:" "$SH/team.conf"
chmod 644 "$SH/team.conf"
fwd() { sto "$@" forward 1 --to dev@example.org --force-recipient --sendmail --allow-plaintext; }
out=$(fwd --config "$SH/team.conf" 2>&1); rc=$?
tap_is "$rc" 1 "a config the attacker owns, in a folder anyone can write: exit 1"
tap_is "$out" "secteam-tui: refusing the config '$SH/team.conf': folder '$SH' is writable by others (mode 0777; run: chmod go-w '$SH')" \
	"a config in a folder anyone can write: refused, naming the folder"
OC=$U/off/.config/secteam
as_officer mkdir -p "$OC"
printf '[officer]\n\tname = Officer\n' | as_officer sh -c 'cat >"$1"' sh "$OC/config"
as_officer chmod 666 "$OC/config"
out=$(sto list 2>&1); rc=$?
tap_is "$rc" 1 "the officer's own config, writable by anyone: exit 1"
tap_is "$out" "secteam-tui: refusing the config '$OC/config': it is writable by others (mode 0666; run: chmod go-w '$OC/config')" \
	"writable by anyone: refused, saying how to fix it"
chgrp "$(id -gn "$ATTACKER_USER")" "$OC/config"
as_officer chmod 664 "$OC/config"
out=$(sto list 2>&1); rc=$?
tap_is "$rc" 1 "the officer's config, writable by the attacker's group: exit 1"
tap_like "$out" "refusing the config '$OC/config': it is writable by group '$(id -gn "$ATTACKER_USER")' \(mode 0664;" \
	"writable by a group: refused, naming the group"
# Debian's user private groups (umask 002): the officer's own group, with
# no other member, may write it.
og=$(id -gn "$OFFICER_USER")
if [ "$og" = "$OFFICER_USER" ] && [ -z "$(getent group "$og" | cut -d: -f4)" ]; then
	chgrp "$og" "$OC/config"
	out=$(sto list 2>&1 >/dev/null); rc=$?
	tap_is "$rc:$out" "0:" "group-writable by the officer's private group: accepted"
else
	tap_skip "group-writable by the officer's private group: accepted" "useradd made no private group"
fi
as_officer chmod 644 "$OC/config"
out=$(sto list 2>&1 >/dev/null); rc=$?
tap_is "$rc:$out" "0:" "the officer's 0644 config: accepted (the control)"
[ ! -e "$SH/pwned" ]
tap_ok $? "the planted config's command never ran"
# The control: the same lines in a config the officer owns do run it.
as_officer sh -c 'cat "$1" >>"$2"' sh "$SH/team.conf" "$OC/config"
fwd >"$T/fwd.out" 2>&1 || sed "s/^/# /" "$T/fwd.out"
[ -e "$SH/pwned" ]
tap_ok $? "the same sendmail line in the officer's own config runs (the check above can fail)"

tap_done
