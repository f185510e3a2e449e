#!/bin/sh
# A full disk and failing writes: the command fails with a clear error,
# the database passes integrity_check, nothing stored before is lost, and
# the same import succeeds once the disk is fine again.
#   1. a real full disk: the database on a small tmpfs, mounted in a
#      private mount namespace (unshare -m; root only), then a 4 MB report;
#   2. an LD_PRELOAD shim (tests/stress/failwrite.c) failing writes to the
#      database files with ENOSPC, with EIO, and fsync with EIO, for import
#      and for triage.
# TAP; part of make check (tests/e2e) and of make stress.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup disk
mkdir -p "$T/m" "$T/db"
# A hung command fails the test instead of hanging make check.
st() { timeout 120 "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" "$@"; }
for i in 1 2 3; do
	printf 'From: Rita <rita@example.net>\nSubject: before %s\nMessage-ID: <before%s@example.net>\n\nreport %s\n' \
		"$i" "$i" "$i" >"$T/m/b$i.eml"
done
printf 'From: Rita <rita@example.net>\nSubject: after\nMessage-ID: <after@example.net>\n\nsmall report\n' >"$T/m/small.eml"
/usr/bin/python3 - "$T/m/big.eml" <<'PY'
import base64, os, sys
with open(sys.argv[1], "w") as f:
    f.write("From: Rita <rita@example.net>\nSubject: big\nMessage-ID: <big@example.net>\n\n")
    b = base64.encodebytes(os.urandom(3 << 20)).decode()
    f.write(b)
PY
st import "$T/m/b1.eml" "$T/m/b2.eml" "$T/m/b3.eml" >/dev/null
tap_is "$?" 0 "three reports stored first"
# The cause must be named (SQLite's "database or disk is full", "disk I/O
# error", ENOSPC...), not only that something failed.
clear='disk|space|full|I/O'

intact() { # DB WHAT
	tap_is "$(sqlite3 "$1" 'PRAGMA integrity_check' 2>&1)" ok "$2: database passes integrity_check"
	tap_is "$(sqlite3 "$1" "SELECT count(*) FROM messages WHERE report_id <= 3")" 3 \
		"$2: the three earlier reports are still there"
}

# --- 1. a real full disk ------------------------------------------------------
if [ "$(id -u)" = 0 ] && unshare -m --propagation private true 2>/dev/null; then
	cp "$DB" "$T/seed.db"
	size=$(( $(stat -c %s "$T/seed.db") / 1024 + 512 ))
	unshare -m --propagation private sh -c '
		mkdir -p "$1/full" && mount -t tmpfs -o size="$2"k,mode=0700 tmpfs "$1/full" || exit 99
		cp "$1/seed.db" "$1/full/secteam.db" && chmod 600 "$1/full/secteam.db"
		"$3" --db "$1/full/secteam.db" --gnupghome "$4" import "$1/m/big.eml" >"$1/full.out" 2>"$1/full.err"
		echo $? >"$1/full.rc"
		cat /dev/zero >"$1/full/filler" 2>/dev/null
		"$3" --db "$1/full/secteam.db" --gnupghome "$4" triage 1 --note "$(head -c 100000 /dev/zero | tr "\0" x)" \
			>"$1/full2.out" 2>"$1/full2.err"
		echo $? >"$1/full2.rc"
		df -k "$1/full" | tail -n 1 >"$1/full.df"
		cp "$1/full/secteam.db" "$1/after.db"
		for f in "$1/full/secteam.db-wal" "$1/full/secteam.db-shm"; do
			[ -e "$f" ] && cp "$f" "$1/after.db${f##*secteam.db}"
		done
		umount "$1/full"' sh "$T" "$size" "$SECTEAM_BIN" "$H"
	r=$?
	if [ "$r" = 99 ]; then
		tap_skip "full tmpfs" "cannot mount a tmpfs here"
	else
		tap_is "$(cat "$T/full.rc")" 1 "a 4 MB report on a full disk (${size} KiB tmpfs): exit 1"
		tap_like "$(cat "$T/full.out" "$T/full.err")" "$clear" "a full disk: a clear error" \
			"$(cat "$T/full.out" "$T/full.err")"
		tap_unlike "$(cat "$T/full.out" "$T/full.err")" "$(printf '\033')" "the error holds no escape"
		tap_is "$(cat "$T/full2.rc")" 1 "a 100 KB note on a disk with no space left: exit 1"
		tap_like "$(cat "$T/full2.out" "$T/full2.err")" "$clear" "a full disk (triage): a clear error"
		intact "$T/after.db" "after the full disk"
		echo "# tmpfs error: $(head -c 200 "$T/full.out" "$T/full.err" | tr '\n' ' ')"
	fi
else
	tap_skip "full tmpfs" "needs root and unshare -m"
fi

# --- 2. failing writes from an LD_PRELOAD shim -----------------------------
if cc -std=c11 -shared -fPIC -o "$T/failwrite.so" "$SECTEAM_TOP/tests/stress/failwrite.c" -ldl 2>"$T/cc.err"; then
	if ldd "$SECTEAM_BIN" 2>/dev/null | grep -q 'libasan'; then
		pre="$(ldd "$SECTEAM_BIN" | awk '/libasan/ {print $3}'):$T/failwrite.so"
	else
		pre=$T/failwrite.so
	fi
	n=0
	for mode in "ENOSPC 0 0" "ENOSPC 20000 0" "EIO 0 0" "ENOSPC 100000000 1"; do
		set -- $mode
		n=$((n + 1))
		what="$1 after $2 bytes$([ "$3" = 1 ] && echo ', fsync EIO')"
		out=$(timeout 120 env LD_PRELOAD="$pre" FAILWRITE_MATCH=secteam.db FAILWRITE_ERRNO="$1" \
			FAILWRITE_BYTES="$2" FAILWRITE_FSYNC="$3" \
			"$SECTEAM_BIN" --db "$DB" --gnupghome "$H" import "$T/m/big.eml" 2>&1)
		rc=$?
		tap_is "$rc" 1 "import, writes failing ($what): exit 1"
		tap_like "$out" "$clear" "import, writes failing ($what): a clear error" "$out"
		echo "# $what: $(printf '%s' "$out" | head -c 200 | tr '\n' ' ')"
		intact "$DB" "$what"
		out=$(timeout 120 env LD_PRELOAD="$pre" FAILWRITE_MATCH=secteam.db FAILWRITE_ERRNO="$1" \
			FAILWRITE_BYTES=0 FAILWRITE_FSYNC="$3" \
			"$SECTEAM_BIN" --db "$DB" --gnupghome "$H" triage 1 --note "lost [$n]" 2>&1)
		rc=$?
		tap_is "$rc" 1 "triage, writes failing ($what): exit 1"
		tap_is "$(st show 1 --json | jq -r '.events[].detail' | grep -cF "lost [$n]")" 0 \
			"triage, writes failing ($what): the failed note is not half stored"
	done
	out=$(st import "$T/m/big.eml" "$T/m/small.eml"); rc=$?
	tap_is "$rc" 0 "once the disk is fine, the same import succeeds"
	tap_is "$(sqlite3 "$DB" "SELECT count(*) FROM messages")" 5 "each message stored once"
	intact "$DB" "at the end"
else
	tap_ok 1 "build the LD_PRELOAD shim" "$(cat "$T/cc.err")"
fi
tap_done
