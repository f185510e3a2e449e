#!/bin/sh
# End to end, secrets: plaintext canaries from encrypted reports (PGP/MIME
# body, an attachment, an inline-PGP block) are found nowhere after import,
# list, show and quit: not in the database, -wal or -shm, not in $TMPDIR,
# HOME or the XDG folders (logs, caches), not in new files under /tmp.
# The same for partial messages, whose canaries travel partly in clear
# text: a signed part in an unsigned multipart/mixed, an encrypted part
# next to clear text, inline PGP with text around it, each signed by a
# certified key (valid) and by a key the officer does not have
# (unknown-key): everything a report brings is stored encrypted.
# Process hygiene, checked from outside:
#   umask   the test shell runs with umask 022; what the binary creates
#           (database, its folder, -wal, an export) is still 0600/0700, and
#           /proc/PID/status of a running import shows Umask 0077;
#   cores   started with `ulimit -c unlimited`, a running import's
#           /proc/PID/limits shows a core size limit of 0, soft and hard
#           (PR_SET_DUMPABLE cannot be read from outside by root: every
#           /proc file stays readable, so the hard limit is the check);
#   files   every file the import and show create (seen with strace, when
#           installed) is 0600 or gone, and $TMPDIR is empty at the end;
#   wiping  the binary calls explicit_bzero;
#   network the import opens no AF_INET/AF_INET6 socket (strace), and it
#           works inside `unshare -n` (no network at all), when permitted.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup secrets
holder=""
# shellcheck disable=SC2016 # expanded at exit
e2e_on_exit '[ -n "$holder" ] && kill "$holder" 2>/dev/null'
umask 022
R=$T/run
DB=$R/xdg/data/secteam/secteam.db    # the default location: its folder is made
mkdir -p "$R/work" "$R/tmp" "$R/home" "$R/xdg/data" "$R/xdg/config" \
	"$R/xdg/cache" "$R/xdg/state" "$T/m" "$T/trace"
CANARY1=CANARY-body-$$-b7e1
CANARY2=CANARY-attach-$$-c9d2
CANARY3=CANARY-inline-$$-a4f3
RITA="Rita Reporter <rita@example.net>"
printf 'exploit for %s\n' "$CANARY2" >"$T/m/exploit.c"
mk --kind encrypted-signed --from "$RITA" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
	--subject "Embargoed" --body "secret $CANARY1 in net/ipv4/tcp_input.c" \
	--attach "$T/m/exploit.c" --message-id "s1@example.net" >"$T/m/1.eml"
mk --kind inline-encrypted --from "$RITA" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
	--subject "Inline" --body "inline $CANARY3" --message-id "s2@example.net" >"$T/m/2.eml"
rm -f "$T/m/exploit.c"
# Partial messages: canaries inside (signed or encrypted) and outside.
PARTIAL=""
n=3
for kind in signed encrypted-signed inline-signed inline-encrypted; do
	for signer in "$REPORTER_FPR" "$UNKNOWN_FPR"; do
		n=$((n + 1))
		mk --kind "$kind" --from "$RITA" --sign-as "$signer" --to "$OFFICER_FPR" \
			--subject "Partial $n" --body "inside CANARY-in$n-$$-e5a1" \
			--around "outside CANARY-out$n-$$-f0b2" \
			--message-id "s$n@example.net" >"$T/m/$n.eml" ||
			{ echo "Bail out! mkpgp --around failed"; exit 1; }
		PARTIAL="$PARTIAL CANARY-in$n-$$-e5a1 CANARY-out$n-$$-f0b2"
	done
done
stamp=$T/stamp
: >"$stamp"

# The binary in an empty working directory, with private HOME, XDG and
# TMPDIR folders, so whatever it writes lands where it can be searched.
envrun() {
	(cd "$R/work" && env HOME="$R/home" TMPDIR="$R/tmp" \
		XDG_DATA_HOME="$R/xdg/data" XDG_CONFIG_HOME="$R/xdg/config" \
		XDG_CACHE_HOME="$R/xdg/cache" XDG_STATE_HOME="$R/xdg/state" "$@")
}
st() { envrun "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" "$@"; }
have_strace=0
command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null && have_strace=1
traced() { # NAME command...
	_n=$1; shift
	if [ "$have_strace" = 1 ]; then
		# LeakSanitizer cannot run under ptrace: leaks are for make asan.
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" \
		envrun strace -f -qq -o "$T/trace/$_n" \
			-e trace=socket,connect,openat,open,creat,mkdir,rename "$@"
	else
		envrun "$@"
	fi
}

out=$(traced import "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" import "$T/m/1.eml" "$T/m/2.eml"); rc=$?
tap_is "$rc" 0 "encrypted reports import"
tap_is "$(printf '%s\n' "$out" | cut -f 2 | tr '\n' ' ')" "valid valid " "both verdicts valid"
shown=$(traced show "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" show 1)
tap_like "$shown" "$CANARY1" "show decrypts the PGP/MIME body (canary present on screen only)"
shown2=$(st show 2)
tap_like "$shown2" "$CANARY3" "show decrypts the inline block"
listed=$(st list)
tap_unlike "$listed" "CANARY-" "list shows no plaintext"
jshown=$(st show 1 --json)
tap_ok $? "show --json runs"
if "$SECTEAM_BIN" --help | grep -q '^  export'; then
	st export 1 --format json -o "$R/work/export.json" >/dev/null 2>&1
	if [ -f "$R/work/export.json" ]; then
		tap_is "$(stat -c %a "$R/work/export.json")" 600 "an exported file is 0600 under umask 022"
		rm -f "$R/work/export.json"
	else
		tap_skip "an exported file is 0600" "export -o wrote no file"
	fi
fi
unset shown shown2 jshown

# Only part of each is signed or encrypted: stored sealed all the same.
out=$(st import "$T"/m/[4-9].eml "$T"/m/1[01].eml); rc=$?
tap_is "$rc" 0 "partial messages import"
tap_is "$(printf '%s\n' "$out" | cut -f 2 | tr '\n' ' ')" \
	"partial unknown-key partial unknown-key partial unknown-key partial unknown-key " \
	"their verdicts: partial (certified signer), unknown-key (unknown signer)"
rid=$(printf '%s\n' "$out" | awk -F '\t' '$3 == "Partial 7" { print $1 }')
tap_like "$(st show "$rid")" "CANARY-in7-" "show decrypts an encrypted partial message stored sealed"

# Where the canaries must not be: everything the run could write.
for c in "$CANARY1" "$CANARY2" "$CANARY3" $PARTIAL; do
	found=$(grep -rla -- "$c" "$R" "$T/keys" 2>/dev/null)
	tap_is "$found" "" "${c%-*-*} canary in no file (db, -wal, -shm, TMPDIR, HOME, XDG, GnuPG homes)"
done
found=$(find /tmp /var/tmp -xdev -maxdepth 3 -type f -newer "$stamp" -size -20M \
	! -path "$T/*" 2>/dev/null | while read -r f; do
	grep -la -e "$CANARY1" -e "$CANARY2" -e "$CANARY3" \
		$(for c in $PARTIAL; do printf ' -e %s' "$c"; done) "$f" 2>/dev/null; done)
tap_is "$found" "" "no canary in files created meanwhile under /tmp or /var/tmp"
tap_is "$(ls -A "$R/tmp")" "" "TMPDIR empty after the run"
tap_is "$(ls -A "$R/work")" "" "nothing written in the working directory"

tap_is "$(stat -c %a "$DB")" 600 "database 0600 under umask 022"
tap_is "$(stat -c %a "$(dirname "$DB")")" 700 "database folder 0700 under umask 022"
for f in "$DB-wal" "$DB-shm"; do
	[ -e "$f" ] && tap_is "$(stat -c %a "$f")" 600 "$(basename "$f") 0600 under umask 022"
done

if [ "$have_strace" = 1 ]; then
	net=$(grep -hE 'socket\(AF_INET6?,|connect\([0-9]+, \{sa_family=AF_INET6?' "$T/trace/"* | head -n 3)
	tap_is "$net" "" "no internet socket opened by import, show or gpg"
	# Files created (O_CREAT) outside the GnuPG homes, /dev and /proc.
	created=$(grep -h 'O_CREAT' "$T/trace/"* | sed -n 's/.*open[a-z]*([^"]*"\([^"]*\)".*/\1/p' |
		grep -v -e "^$T/keys/" -e '^/dev/' -e '^/proc/' | sort -u)
	badmode=""
	for f in $created; do
		case $f in /*) p=$f ;; *) p=$R/work/$f ;; esac
		[ -f "$p" ] || continue
		m=$(stat -c %a "$p")
		[ "$m" = 600 ] || badmode="$badmode $p:$m"
	done
	tap_is "$badmode" "" "every file created that remains is 0600 ($(echo $created | wc -w) created)"
	left=$(for f in $created; do case $f in "$R/tmp/"*) [ -e "$f" ] && echo "$f" ;; esac; done)
	tap_is "$left" "" "temporary files removed"
else
	tap_skip "no internet socket (strace)" "strace not installed"
	tap_skip "created files 0600 (strace)" "strace not installed"
fi

# A running import, held on its standard input, seen through /proc.
mkfifo "$T/fifo"
sleep 60 >"$T/fifo" &
holder=$!
(ulimit -c unlimited 2>/dev/null; exec "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" import - ) \
	<"$T/fifo" >/dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 300 ]; do
	# Past start-up once it holds the database open (import opens the
	# store before it reads standard input).
	ls -l "/proc/$pid/fd" 2>/dev/null | grep -q "$DB" && break
	sleep 0.1
	i=$((i + 1))
done
um=$(sed -n 's/^Umask:[[:space:]]*//p' "/proc/$pid/status" 2>/dev/null)
core=$(awk '/^Max core file size/ {print $5 " " $6}' "/proc/$pid/limits" 2>/dev/null)
kill "$holder" 2>/dev/null
wait "$pid" 2>/dev/null
holder=""
tap_is "$um" 0077 "a running command has umask 077 (started under umask 022)"
tap_is "$core" "0 0" "core dumps off: core size limit 0, soft and hard (started with ulimit -c unlimited)"

if nm -D "$SECTEAM_BIN" 2>/dev/null | grep -q explicit_bzero ||
	nm "$SECTEAM_BIN" 2>/dev/null | grep -q explicit_bzero; then
	tap_ok 0 "plaintext buffers are wiped with explicit_bzero (symbol linked)"
else
	tap_ok 1 "plaintext buffers are wiped with explicit_bzero (symbol linked)"
fi

mk --kind encrypted-signed --from "$RITA" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
	--subject "Offline" --body "offline" --message-id "s3@example.net" >"$T/m/3.eml"
if unshare -n true 2>/dev/null; then
	out=$(envrun unshare -n "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" import "$T/m/3.eml"); rc=$?
	tap_is "$rc:$(printf '%s' "$out" | cut -f 2)" "0:valid" "import works with no network at all (unshare -n)"
else
	tap_skip "import under unshare -n" "unshare -n not permitted here"
fi
tap_done
