#!/bin/sh
# make stress: crashes, concurrency and a full disk, against BUILD/secteam-tui.
#
#   tests/stress/run.sh [BUILD]        (TAP; exit status 0 when all pass)
#
# 1. kill -9: a mailbox of 500 messages (plain, signed, encrypted; made once
#    and cached in $TMPDIR/secteam-stress-cache-v1) is imported again and
#    again, each import killed with SIGKILL after a random delay, 100 kills
#    in all, spread over the import: rounds of up to 10 kills, each round
#    on a fresh database, delays drawn from the first 20% of a full
#    import's duration (duplicates are skipped fast, so each round moves
#    through the whole mailbox; an import that ends before its kill closes
#    the round early and is not counted as a kill).  After each kill:
#    PRAGMA integrity_check is ok, every message the killed import
#    reported as stored ("<id>\t<verdict>\t<subject>") is there exactly
#    once, no report lacks its message and no message lacks its import
#    event.  After each round a complete re-import stores the rest: 500
#    messages, each once.
# 2. tests/e2e/concurrency.sh with 500 changes per process.
# 3. tests/e2e/diskfull.sh: write failures (a full tmpfs, or ENOSPC from
#    an LD_PRELOAD shim) give a clear error and leave the database intact.
# STRESS_KILLS (100), STRESS_ROUNDS (10) and STRESS_CONCURRENCY_N (500) make
# it shorter or longer.
set -u
B=${1:-build}
SECTEAM_TOP=$(cd "$(dirname "$0")/../.." && pwd)
case $B in /*) ;; *) B=$SECTEAM_TOP/$B ;; esac
SECTEAM_BIN=$B/secteam-tui
export SECTEAM_TOP SECTEAM_BIN
. "$SECTEAM_TOP/tests/lib/tap.sh"
. "$SECTEAM_TOP/tests/lib/gpg-env.sh"
[ -x "$SECTEAM_BIN" ] || { echo "Bail out! no $SECTEAM_BIN (make all first)"; exit 1; }
KILLS=${STRESS_KILLS:-100}
ROUNDS=${STRESS_ROUNDS:-10}
PER=$(( (KILLS + ROUNDS - 1) / ROUNDS ))
T=$(mktemp -d "${TMPDIR:-/tmp}/secteam-stress.XXXXXX")
pid=""
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$T"' EXIT
trap 'exit 130' INT TERM

# --- the cached keys and mailbox ---------------------------------------------
C=${TMPDIR:-/tmp}/secteam-stress-cache-v1
if [ ! -s "$C/stress.mbox" ] || [ ! -f "$C/keys/env" ]; then
	rm -rf "$C"
	mkdir -p "$C" && chmod 700 "$C"
	echo "# making the 500-message mailbox once, cached in $C"
	gpg_env_setup "$C/keys" >/dev/null || { echo "Bail out! gpg_env_setup failed"; exit 1; }
	/usr/bin/python3 "$SECTEAM_TOP/tests/stress/mkmbox.py" --gnupghome "$C/keys/senders" \
		--env "$C/keys/env" --count 500 "$C/stress.mbox.tmp" &&
		mv "$C/stress.mbox.tmp" "$C/stress.mbox" ||
		{ echo "Bail out! mkmbox.py failed"; exit 1; }
fi
H=$C/keys/home
MBOX=$C/stress.mbox

# Every message the import output reports as stored, each once, and the
# store consistent: reports with their message, messages with their event.
check_db() { # DB REPORTED-LINES-FILE
	_db=$1
	_ic=$(sqlite3 "$_db" 'PRAGMA integrity_check' 2>&1)
	[ "$_ic" = ok ] || { echo "integrity_check: $_ic"; return 1; }
	sed -n 's/^[0-9][0-9]*\t[a-z-]*\t\(stress [0-9]*\)$/\1/p' "$2" | sort -u >"$T/want"
	# Killed while the first run was creating the schema: an empty
	# database is fine as long as nothing was reported stored.
	if [ "$(sqlite3 "$_db" "SELECT count(*) FROM sqlite_master WHERE name = 'messages'")" = 0 ]; then
		[ -s "$T/want" ] && { echo "no schema, yet $(wc -l <"$T/want") messages reported"; return 1; }
		return 0
	fi
	sqlite3 "$_db" "SELECT subject FROM messages" | sort >"$T/have"
	_missing=$(comm -23 "$T/want" "$T/have" | head -n 3)
	[ -z "$_missing" ] || { echo "reported but missing: $_missing"; return 1; }
	_dups=$(uniq -d "$T/have" | head -n 3)
	[ -z "$_dups" ] || { echo "stored twice: $_dups"; return 1; }
	_orph=$(sqlite3 "$_db" "SELECT count(*) FROM reports WHERE id NOT IN (SELECT report_id FROM messages)")
	[ "$_orph" = 0 ] || { echo "$_orph reports without a message"; return 1; }
	_noev=$(sqlite3 "$_db" "SELECT count(*) FROM reports r WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.report_id = r.id AND e.kind = 'import')")
	[ "$_noev" = 0 ] || { echo "$_noev reports without their import event"; return 1; }
	return 0
}

# --- a full import, for its duration ----------------------------------------
mkdir -p "$T/ref"
s=$(date +%s%N)
"$SECTEAM_BIN" --db "$T/ref/s.db" --gnupghome "$H" import "$MBOX" >"$T/ref/out" 2>"$T/ref/err"
rc=$?
full_ms=$(( ($(date +%s%N) - s) / 1000000 ))
tap_is "$rc" 0 "a full import of the 500 messages exits 0 (${full_ms} ms)"
tap_is "$(sqlite3 "$T/ref/s.db" 'SELECT count(DISTINCT message_id) FROM messages')" 500 "500 messages stored"
tap_is "$(sqlite3 "$T/ref/s.db" "SELECT count(*) FROM messages WHERE verdict = 'valid'")" 60 \
	"60 signed or encrypted ones verified valid"
max_ms=$(( full_ms / 5 ))
[ "$max_ms" -lt 50 ] && max_ms=50

# --- kill -9 at random moments ------------------------------------------------
seed=${STRESS_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "# kills: $KILLS in $ROUNDS rounds, delays 0..${max_ms} ms, seed $seed"
# Three times as many delays as kills: an import that ends before its kill
# is not a kill; it closes its round early instead.
delays=$(awk -v n="$((KILLS * 3))" -v m="$max_ms" -v s="$seed" \
	'BEGIN { srand(s); for (i = 0; i < n; i++) printf "%d\n", 5 + rand() * m }')
set -- $delays
k=0
round=0
inround=$PER
killfail=0
completed=0

# Closes round $round: a full re-import stores the rest, each message once.
finish_round() {
	"$SECTEAM_BIN" --db "$R/s.db" --gnupghome "$H" import "$MBOX" >"$R/final" 2>"$R/final.err"
	_rc=$?
	_stored=$(sqlite3 "$R/s.db" 'SELECT count(*) || " " || count(DISTINCT message_id) FROM messages')
	_new=$(grep -c '^[0-9]' "$R/final")
	tap_ok $([ "$_rc" = 0 ] && [ "$_stored" = "500 500" ] && check_db "$R/s.db" "$R/reported" >/dev/null; echo $?) \
		"round $round: $inround kills, then a re-import completes the rest ($_new new), 500 messages each once" \
		"exit $_rc, stored '$_stored', $(head -c 300 "$R/final.err")"
	rm -f "$R/s.db" "$R/s.db-wal" "$R/s.db-shm"
	inround=$PER
}

while [ "$k" -lt "$KILLS" ] && [ $# -gt 0 ]; do
	d=$1
	shift
	if [ "$inround" -ge "$PER" ]; then
		round=$((round + 1))
		inround=0
		R=$T/r$round
		mkdir -p "$R"
		: >"$R/reported"
	fi
	"$SECTEAM_BIN" --db "$R/s.db" --gnupghome "$H" import "$MBOX" >"$R/out" 2>"$R/err" &
	pid=$!
	sleep "$(awk -v d="$d" 'BEGIN { printf "%.3f", d / 1000 }')"
	killed=0
	kill -9 "$pid" 2>/dev/null && killed=1
	wait "$pid" 2>/dev/null
	pid=""
	# The last line may be cut short by the kill: complete lines only.
	awk 'NR > 1 { print prev } { prev = $0 }' "$R/out" >>"$R/reported"
	[ -s "$R/out" ] && [ -z "$(tail -c 1 "$R/out")" ] && tail -n 1 "$R/out" >>"$R/reported"
	if [ "$killed" = 1 ]; then
		k=$((k + 1))
		inround=$((inround + 1))
	else
		completed=$((completed + 1))
	fi
	if [ -e "$R/s.db" ]; then
		why=$(check_db "$R/s.db" "$R/reported")
		if [ -n "$why" ]; then
			killfail=$((killfail + 1))
			echo "# kill $k (round $round, after $d ms): $why"
			cp "$R/s.db" "${TMPDIR:-/tmp}/secteam-stress-failed-$k.db" 2>/dev/null
		fi
	fi
	if [ "$killed" = 0 ] || [ "$inround" -ge "$PER" ] || [ "$k" -ge "$KILLS" ]; then
		finish_round
	fi
done
tap_is "$k" "$KILLS" "$KILLS imports killed mid-way ($completed more ended before their kill and closed their round)"
tap_is "$killfail" 0 "after each of $KILLS kill -9s: integrity ok, every reported message stored exactly once, no half-stored report"

# --- concurrency at full size, and a full disk ------------------------------
echo "# tests/e2e/concurrency.sh with ${STRESS_CONCURRENCY_N:-500} changes per process"
if CONCURRENCY_N=${STRESS_CONCURRENCY_N:-500} sh "$SECTEAM_TOP/tests/e2e/concurrency.sh" >"$T/conc" 2>&1; then
	tap_ok 0 "concurrency: 4 processes x ${STRESS_CONCURRENCY_N:-500} changes ($(grep -c '^ok' "$T/conc") checks)"
else
	tap_ok 1 "concurrency: 4 processes x ${STRESS_CONCURRENCY_N:-500} changes" "$(grep -A3 '^not ok' "$T/conc" | head -n 20)"
fi
if sh "$SECTEAM_TOP/tests/e2e/diskfull.sh" >"$T/disk" 2>&1; then
	tap_ok 0 "disk full and write errors ($(grep -c '^ok' "$T/disk") checks)"
else
	tap_ok 1 "disk full and write errors" "$(grep -A3 '^not ok' "$T/disk" | head -n 20)"
fi
sed 's/^/#   /' "$T/disk" | grep -E '^#   (ok|not ok)' | head -n 20
tap_done
