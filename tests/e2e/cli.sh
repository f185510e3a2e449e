#!/bin/sh
# engines: sqlite pg
# End to end: the command-line contract: global options, exit codes,
# triage rules and events, list/show JSON fields, config errors.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup cli
GNUPGHOME=$H
export GNUPGHOME
st() { "$SECTEAM_BIN" --db "$DB" "$@"; }
mkmsg() { # id subject
	printf 'From: Rita Reporter <rita@example.net>\nTo: security@example.org\nSubject: %s\nDate: Mon, 30 Nov 2026 10:00:00 +0000\nMessage-ID: <%s>\n\nThe bug is in drivers/net/tun.c.\n' "$2" "$1"
}

out=$("$SECTEAM_BIN" --version); rc=$?
tap_like "$rc $out" "^0 secteam-tui [0-9]+\.[0-9]+\.[0-9]+$" "--version"
out=$("$SECTEAM_BIN" --help); rc=$?
tap_like "$rc $out" "^0 usage: secteam-tui" "--help exits 0 with usage"
for verb in import list show triage; do
	printf '%s' "$out" | grep -q "^  $verb "
	tap_ok $? "--help lists $verb"
done
"$SECTEAM_BIN" --db "$DB" frobnicate >/dev/null 2>"$T/err"; rc=$?
tap_is "$rc" 2 "unknown command: exit 2"
tap_like "$(cat "$T/err")" "unknown command 'frobnicate'" "unknown command: named"
"$SECTEAM_BIN" --bogus-option >/dev/null 2>&1; rc=$?
tap_is "$rc" 2 "unknown global option: exit 2"
st show >/dev/null 2>"$T/err"; rc=$?
tap_is "$rc" 2 "show without an id: exit 2"
tap_like "$(cat "$T/err")" "usage: secteam-tui show ID" "show without an id: usage line"
st show abc >/dev/null 2>"$T/err"; rc=$?
tap_is "$rc" 2 "show with a bad id: exit 2"
tap_like "$(cat "$T/err")" "'abc' is not a report id" "show with a bad id: says so"

SECTEAM_TEST_NOW=2026-12-02T12:00:00Z
export SECTEAM_TEST_NOW
mkmsg a1@example.net "First" > "$T/a1.eml"
mkmsg a2@example.net "Second" > "$T/a2.eml"
tap_is "$(st import "$T/a1.eml" "$T/a2.eml" | cut -f1,2 | tr '\t\n' ' ')" "1 not-signed 2 not-signed " "plain messages import (sealed to the officer's key)"
# Without keys a re-import cannot even tell a duplicate: the lookup is
# keyed with the team key, which the keyring unwraps.  It
# says so, and stores nothing.
out=$(GNUPGHOME=$T/nokeys st import "$T/a1.eml" 2>&1)
tap_like "$out" "nokeys" "re-import without keys: the error names the GnuPG home"
tap_is "$(db_sql "SELECT count(*) FROM messages")" 2 "  and nothing more is stored"
mkmsg a3@example.net "Third" > "$T/a3.eml"
out=$(GNUPGHOME=$T/nokeys st import "$T/a3.eml" 2>/dev/null); rc=$?
tap_is "$rc" 1 "without a key to seal to, a plain report is refused"
tap_like "$out" "^error	.*a3.eml	cannot use gnupg home '$T/nokeys'" "the refusal names the GnuPG home"
st show 3 >/dev/null 2>"$T/err"; rc=$?
tap_is "$rc" 1 "show of a missing report: exit 1"
tap_like "$(cat "$T/err")" "no report 3" "show of a missing report: says so"

st triage 1 --state accepted >/dev/null 2>"$T/err"; rc=$?
tap_is "$rc" 1 "new -> accepted refused: exit 1"
tap_like "$(cat "$T/err")" "cannot go from new to accepted \(from new: triaged, rejected, duplicate\)" "refusal lists the allowed states"
out=$(st triage 1 --state triaged --severity high --claim --note "looks real")
tap_like "$out" "report 1: new -> triaged; none -> high; claimed by $E2E_OFFICER; looks real" "triage summary"
j=$(st show 1 --json)
tap_is "$(printf '%s' "$j" | jq -r '[.state,.severity,.claimed_by] | join(" ")')" "triaged high $E2E_OFFICER" "triage stored"
tap_is "$(printf '%s' "$j" | jq -r '[.events[].kind] | join(",")')" "import,state,severity,claim,note" "every change is an event, in order"
tap_is "$(printf '%s' "$j" | jq -r '.events[1] | [.officer, .detail, .at] | join("|")')" "$E2E_OFFICER|new -> triaged|2026-12-02T12:00:00Z" "event carries officer, detail, time"
tap_is "$(printf '%s' "$j" | jq -r '.reporter.email')" "rita@example.net" "reporter in JSON"
tap_is "$(printf '%s' "$j" | jq -r '.received')" "2026-11-30T10:00:00Z" "received from the Date header"
tap_is "$(printf '%s' "$j" | jq -r '.files[0]')" "drivers/net/tun.c" "files in JSON"
st triage 1 --severity urgent >/dev/null 2>"$T/err"; rc=$?
tap_is "$rc" 2 "unknown severity: exit 2"
st triage 2 --state rejected --note "not a bug" >/dev/null
tap_is "$(st list --open --json | jq -r '[.[].id] | join(",")')" "1" "list --open leaves rejected out"
tap_is "$(st list --state rejected --json | jq -r '[.[].id] | join(",")')" "2" "list --state"
st list --sort nonsense >/dev/null 2>"$T/err"; rc=$?
tap_is "$rc" 2 "unknown sort: exit 2"
tap_like "$(cat "$T/err")" "^secteam-tui list: unknown value 'nonsense' for --sort \(deadline, received" \
	"unknown sort: named, with the command, the option and the orders"

printf '[team\n' > "$T/badconf"
"$SECTEAM_BIN" --config "$T/badconf" --db "$DB" list >/dev/null 2>"$T/err"; rc=$?
tap_is "$rc" 1 "bad config: exit 1"
tap_like "$(cat "$T/err")" "badconf:1: malformed section header" "bad config: file and line named"
"$SECTEAM_BIN" --config "$T/none" --db "$DB" list >/dev/null 2>"$T/err"; rc=$?
tap_is "$rc" 1 "missing --config file: exit 1"
# Who acted is the login (the Unix user here), never a name the officer
# types: neither officer.name nor SECTEAM_OFFICER nor USER changes it.
printf '[officer]\nname = carol\n' > "$T/conf"
SECTEAM_OFFICER=mallory USER=mallory "$SECTEAM_BIN" --config "$T/conf" --db "$DB" triage 1 --note "from config" >/dev/null
tap_is "$(st show 1 --json | jq -r '.events[-1].officer')" "$E2E_OFFICER" "officer.name, SECTEAM_OFFICER, USER: the event records the login"
# A team sharing one database through a Unix group.
grp=$(id -gn)
printf '[store]\nshared_group = %s\n' "$grp" > "$T/shared.conf"
# The default location (an explicit --db's folder must exist).
SDB=$T/shared/secteam/secteam.db
XDG_DATA_HOME=$T/shared "$SECTEAM_BIN" --config "$T/shared.conf" import "$T/a1.eml" >/dev/null
tap_is "$(stat -c '%a %G' "$SDB")" "660 $grp" "store.shared_group: the database is 0660 and the group's"
tap_is "$(stat -c '%a %G' "$T/shared/secteam")" "2770 $grp" "store.shared_group: its directory is 2770"
# Keep a reader connected so the -wal and -shm files outlive our process.
mkfifo "$T/hold"
sqlite3 "$SDB" < "$T/hold" > /dev/null 2>&1 &
exec 3> "$T/hold"
echo "select count(*) from reports;" >&3
"$SECTEAM_BIN" --config "$T/shared.conf" --db "$SDB" import "$T/a2.eml" >/dev/null
tap_is "$(stat -c '%a' "$SDB-wal" "$SDB-shm" 2>&1 | tr '\n' ' ')" "660 660 " "store.shared_group: -wal and -shm follow"
exec 3>&-
wait
"$SECTEAM_BIN" --db "$SDB" list >/dev/null 2>"$T/err"; rc=$?
tap_is "$rc" 1 "a group-shared database without store.shared_group is refused"
printf '[store]\nshared_group = no-such-group-here\n' > "$T/badgroup.conf"
"$SECTEAM_BIN" --config "$T/badgroup.conf" --db "$T/g2/t.db" list >/dev/null 2>"$T/err"; rc=$?
tap_like "$rc $(cat "$T/err")" "^1 .*store.shared_group 'no-such-group-here' is not a group" "unknown shared group: named"
# maintainers, outside a report: a small tree of our own.
mkdir -p "$T/tree/drivers/net"
printf 'TUN DRIVER\nM:\tTina Tun <tina@example.org>\nL:\tnetdev@vger.example.org\nS:\tMaintained\nF:\tdrivers/net/tun.c\n' >"$T/tree/MAINTAINERS"
: >"$T/tree/drivers/net/tun.c"
out=$(st maintainers --tree "$T/tree" --file drivers/net/tun.c 2>"$T/err"); rc=$?
tap_like "$rc $out" "^0 .*tina@example.org" "maintainers --file: the section's maintainer"
tap_is "$(cat "$T/err")" "" "maintainers --file: a file in the tree, no warning"
out=$(st maintainers --tree "$T/tree" --file drivers/net/gone.c 2>"$T/err"); rc=$?
tap_like "$rc $(cat "$T/err")" "^0 warning: 'drivers/net/gone.c' is not in the tree; matched by its name only$" "maintainers --file: a file not in the tree is named"
printf 'no diff in here\n' >"$T/not.patch"
out=$(st maintainers --tree "$T/tree" --patch "$T/not.patch" 2>"$T/err"); rc=$?
tap_like "$rc $(cat "$T/err")" "^0 warning: '.*not.patch' does not look like a patch: no file names in it$" "maintainers --patch: a file that is not a patch is named"
printf -- '--- a/drivers/net/tun.c\n+++ b/drivers/net/tun.c\n@@ -1 +1 @@\n-a\n+b\n' >"$T/tun.patch"
out=$(st maintainers --tree "$T/tree" --patch "$T/tun.patch" 2>"$T/err"); rc=$?
tap_like "$rc $out" "^0 .*tina@example.org" "maintainers --patch: the patched file's maintainer"
tap_is "$(cat "$T/err")" "" "maintainers --patch: a patch, no warning"
st maintainers --tree "$T/tree" --patch "$T/none.patch" >/dev/null 2>"$T/err"; rc=$?
tap_like "$rc $(cat "$T/err")" "^1 .*cannot read the patch" "maintainers --patch: a missing patch is an error"

# An empty list: at a terminal it says why nothing shows; to a script it
# stays empty (list's stdout and stderr both).
script -qec "'$SECTEAM_BIN' --db '$T/empty.db' --gnupghome '$H' --config /dev/null list; echo rc=\$?" \
	"$T/empty.tty" </dev/null >/dev/null 2>&1
tty=$(tr -d '\r' <"$T/empty.tty")
tap_like "$tty" "^no reports yet: 'secteam-tui import FILE' brings them in$" "list at a terminal, no reports: it says how to bring them in"
tap_like "$tty" "^rc=0$" "and exits 0"
script -qec "'$SECTEAM_BIN' --db '$T/empty.db' --gnupghome '$H' --config /dev/null list --open" \
	"$T/empty2.tty" </dev/null >/dev/null 2>&1
tap_like "$(tr -d '\r' <"$T/empty2.tty")" "^no report matches$" "list --open at a terminal, none open: no report matches"
out=$("$SECTEAM_BIN" --db "$T/empty.db" --gnupghome "$H" --config /dev/null list 2>&1); rc=$?
tap_like "$rc:$out" "^0:ID +STATE +SEVERITY +VERDICT +DUE +CLAIMED +FIX/CVE +SUBJECT$" \
	"list to a pipe, no reports: the header alone (as with reports), exit 0"
# A refused option is named, before the usage.
"$SECTEAM_BIN" --db "$DB" list --bogus >/dev/null 2>"$T/err"; rc=$?
tap_is "$rc" 2 "list --bogus exits 2"
tap_is "$(head -n 1 "$T/err")" "secteam-tui list: unknown option '--bogus'" "naming the option"
tap_like "$(sed -n 2p "$T/err")" "^usage: secteam-tui list " "then the usage"
"$SECTEAM_BIN" --db "$DB" list --s >/dev/null 2>"$T/err"
tap_is "$(head -n 1 "$T/err")" "secteam-tui list: ambiguous option '--s' (--state, --sort)" \
	"an ambiguous abbreviation is said so, with what it could be"
"$SECTEAM_BIN" --db "$DB" triage 1 --severity urgent >/dev/null 2>"$T/err"
tap_is "$(head -n 1 "$T/err")" "secteam-tui triage: unknown value 'urgent' for --severity (none, low, medium, high, critical)" \
	"a value the option does not take: the command, the option and its values"
"$SECTEAM_BIN" --db "$DB" triage 1 --of x >/dev/null 2>"$T/err"
tap_is "$(head -n 1 "$T/err")" "secteam-tui triage: --of: 'x' is not a report id" \
	"a value its check refuses: the command, the option and why"
"$SECTEAM_BIN" --db "$DB" triage 1 --claim=yes >/dev/null 2>"$T/err"
tap_is "$(head -n 1 "$T/err")" "secteam-tui triage: option '--claim' takes no value" "a flag given a value"
"$SECTEAM_BIN" --db "$DB" vendor status 1 acme --contact a@b >/dev/null 2>"$T/err"
tap_is "$(head -n 1 "$T/err")" "secteam-tui vendor status: option '--contact' is for vendor add, vendor edit" \
	"an option of another sub-command: where it belongs"
# A command that needs a sub-command: the word that is none of them, or
# none at all, is named with the sub-commands the row declares.
"$SECTEAM_BIN" --db "$DB" date frob >/dev/null 2>"$T/err"; rc=$?
tap_is "$rc $(head -n 1 "$T/err")" "2 secteam-tui date: unknown sub-command 'frob' (propose, set, start-release, show)" \
	"a sub-command that does not exist: named, with those that do"
"$SECTEAM_BIN" --db "$DB" team >/dev/null 2>"$T/err"; rc=$?
tap_is "$rc $(head -n 1 "$T/err")" "2 secteam-tui team: which team command? (init, add-officer, remove-officer, list)" \
	"no sub-command: asked which, with those that exist"
"$SECTEAM_BIN" --db "$DB" vendor add acme >/dev/null 2>"$T/err"; rc=$?
tap_is "$rc $(head -n 1 "$T/err")" "2 secteam-tui vendor add: option '--contact' is required" \
	"a required option missing: named"
"$SECTEAM_BIN" --db "$DB" triage 1 --state >/dev/null 2>"$T/err"
tap_is "$(head -n 1 "$T/err")" "secteam-tui triage: option '--state' needs a value" "an option without its value"

# A mistyped --db creates nothing: its folder must exist; only
# the default location is made.
"$SECTEAM_BIN" --db "$T/no/such/dir/x.db" list >"$T/out" 2>"$T/err"; rc=$?
tap_is "$rc" 1 "--db in a folder that does not exist exits 1" "$(cat "$T/err")"
tap_like "$(cat "$T/err")" "cannot open database '$T/no/such/dir/x.db': its folder '$T/no/such/dir' does not exist" \
	"the error names the folder"
tap_ok "$([ ! -e "$T/no" ]; echo $?)" "and nothing was made"
XDG_DATA_HOME=$T/xdg "$SECTEAM_BIN" --gnupghome "$H" list >/dev/null 2>"$T/err"; rc=$?
tap_is "$rc" 0 "the default location is made" "$(cat "$T/err")"
tap_ok "$([ -f "$T/xdg/secteam/secteam.db" ]; echo $?)" "its database is there"
# A team server named by a service that is nowhere: the service and the
# files it was looked up in are named (not "team server 'local/?'").
out=$(env -u PGSERVICEFILE -u PGSERVICE HOME="$T" "$SECTEAM_BIN" --db service=nosuch list 2>&1); rc=$?
tap_is "$rc" 1 "an unknown service: exit 1"
tap_like "$out" "team server of service 'nosuch': definition of service \"nosuch\" not found \(looked up in '$T/.pg_service.conf' and in " \
	"  naming the service and the files it was looked up in"

# Output nobody reads: a pipe whose reader went away (`| head` with its
# lines, here `| true`, gone before the list is written) ends the
# command quietly; a full disk says so.  (The store's gpg use ignores
# SIGPIPE, so the write fails rather than ending the process.)
mkmsg pipe@example.net "Read by nobody" >"$T/pipe.eml"
st import "$T/pipe.eml" >/dev/null 2>&1
i=0
while [ $i -lt 5 ]; do
	i=$((i + 1))
	{ st list 2>"$T/pipe.err"; echo $? >"$T/pipe.rc"; } | true
	[ -s "$T/pipe.err" ] && break
done
tap_is "$(cat "$T/pipe.err")" "" "a pipe's reader gone: nothing said on stderr (5 tries)"
out=$(st list 2>&1 >/dev/full); rc=$?
tap_is "$rc $out" "1 secteam-tui: cannot write the output" "a full disk: exit 1, said"
tap_done
