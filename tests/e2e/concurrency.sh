#!/bin/sh
# engines: sqlite pg
# End to end, several officers at once: 4 processes, each making N triage
# changes (a note, which always writes an event, and every other time a
# severity change) and N date proposals (when `date` exists) on the same
# two reports, all at the same time.  Nothing may be lost: every note and
# every proposal is stored exactly once, the severity events chain (each
# starts from the value the previous one left, and the last one is the
# report's severity), no command fails and no "database is locked" or
# "busy" reaches the user.  N is CONCURRENCY_N (50 here; `make stress`
# runs it with 500).  On the team server the four are four officers, each
# logged in with their own role, with N = 80 rounds (160 changes each:
# a note and a proposal a round, a severity change every other round),
# and every change is recorded under the role that made it.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
W=4
e2e_setup conc
if e2e_sqlite; then
	N=${CONCURRENCY_N:-50}
else
	# 80 rounds: 4 officers' 800 writes to the same two reports, each
	# a signed change appended to its report's chain (and each command
	# opening its officer's signing key through gpg: about 3 times a
	# write's cost before the changes were signed).
	N=${CONCURRENCY_N:-80}
	# Under AddressSanitizer each command costs several times more.
	ldd "$SECTEAM_BIN" 2>/dev/null | grep -q libasan && N=${CONCURRENCY_N:-60}
	w=1
	while [ "$w" -le "$W" ]; do
		e2e_admin team add-officer "w${w}_$$" --key "$OFFICER_FPR" >/dev/null ||
			{ echo "Bail out! cannot add officer w$w"; exit 1; }
		w=$((w + 1))
	done
	e2e_on_exit 'for w in 1 2 3 4; do PGUSER=$E2E_ADMIN psql -X -q -d postgres -c "DROP ROLE IF EXISTS w${w}_$$" >/dev/null 2>&1; done'
fi
for r in 1 2; do
	printf 'From: Rita <rita@example.net>\nSubject: concurrent %s\nMessage-ID: <conc%s@example.net>\nDate: %s\n\nreport %s\n' \
		"$r" "$r" "$(date -R)" "$r" >"$T/$r.eml"
done
out=$(st import "$T/1.eml" "$T/2.eml"); rc=$?
tap_is "$rc" 0 "two reports imported"
have_date=0
"$SECTEAM_BIN" --help | grep -q '^  date' && have_date=1

worker() { # W: N rounds of note (+ severity) and date proposal
	_w=$1
	_i=1
	_fail=0
	e2e_sqlite || PGUSER=w${_w}_$$
	while [ "$_i" -le "$N" ]; do
		_r=$(( (_i + _w) % 2 + 1 ))
		if [ $((_i % 2)) -eq 0 ]; then
			case $(( (_i / 2 + _w) % 3 )) in
			0) _s=low ;; 1) _s=high ;; *) _s=critical ;;
			esac
			st triage "$_r" --note "note [w$_w.$_i]" --severity "$_s" >/dev/null 2>>"$T/err.$_w" ||
				_fail=$((_fail + 1))
		else
			st triage "$_r" --note "note [w$_w.$_i]" >/dev/null 2>>"$T/err.$_w" ||
				_fail=$((_fail + 1))
		fi
		if [ "$have_date" = 1 ]; then
			st date propose "$_r" "+$(( _i % 20 + 1 ))d" --by reporter \
				--reason "proposal [p$_w.$_i]" >/dev/null 2>>"$T/err.$_w" ||
				_fail=$((_fail + 1))
		fi
		_i=$((_i + 1))
	done
	echo "$_fail" >"$T/fail.$_w"
}

start=$(date +%s)
w=1
pids=""
while [ "$w" -le "$W" ]; do
	worker "$w" &
	pids="$pids $!"
	w=$((w + 1))
done
for p in $pids; do wait "$p"; done
el=$(( $(date +%s) - start ))

fails=$(cat "$T"/fail.* | awk '{s += $1} END {print s + 0}')
tap_is "$fails" 0 "$W processes x $N changes in ${el}s: no command failed"
locked=$(cat "$T"/err.* | grep -iE 'locked|busy' | head -n 3)
tap_is "$locked" "" "no 'database is locked' or 'busy' reached the user"
tap_is "$(cat "$T"/err.* | head -n 3)" "" "nothing on stderr"

# Notes and reasons are sealed: read back through the program.
for r in 1 2; do st show "$r" --json | jq -r '.events[] | select(.kind == "note") | .detail'; done |
	grep -o '\[w[0-9]*\.[0-9]*\]' | sort >"$T/notes"
tap_is "$(wc -l <"$T/notes" | tr -d ' ')" $((W * N)) "every note stored: $((W * N)) note events"
tap_is "$(uniq -d "$T/notes" | head -n 3)" "" "no note stored twice"
if [ "$have_date" = 1 ]; then
	for r in 1 2; do st date show "$r"; done | grep -o '\[p[0-9]*\.[0-9]*\]' | sort >"$T/props"
	tap_is "$(wc -l <"$T/props" | tr -d ' ')" $((W * N)) "every date proposal stored: $((W * N))"
	tap_is "$(uniq -d "$T/props" | head -n 3)" "" "no proposal stored twice"
	tap_is "$(db_sql "SELECT count(*) FROM events WHERE kind = 'date-propose'")" $((W * N)) \
		"one date-propose event per proposal"
else
	tap_skip "date proposals" "no date command"
fi
# Severity events "a -> b" chain per report, in event order, from none.
for r in 1 2; do
	chain=$(db_sql "SELECT detail FROM events WHERE kind = 'severity' AND report_id = $r ORDER BY id" |
		awk -v want=none '{ if ($1 != want) { print "event " NR " starts from " $1 ", previous left " want; exit } want = $3 }
			END { print "last " want }')
	final=$(db_sql "SELECT severity FROM reports WHERE id = $r")
	tap_is "$chain" "last $final" "report $r: severity events chain without a lost update, ending at the stored '$final'"
done
if ! e2e_sqlite; then
	# Who did it: each officer's notes and proposals under their role.
	w=1
	while [ "$w" -le "$W" ]; do
		tap_is "$(for r in 1 2; do st show "$r" --json; done | jq -r --arg o "w${w}_$$" \
			'.events[] | select(.kind == "note" and .officer == $o) | .detail' | grep -c "\[w$w\.")" "$N" \
			"officer w$w: exactly its $N notes, recorded as its role"
		tap_is "$(db_sql "SELECT count(*) FROM proposals WHERE officer = 'w${w}_$$'")" "$N" \
			"officer w$w: exactly its $N proposals"
		w=$((w + 1))
	done
fi
tap_is "$(db_ok)" ok "database intact"
tap_done
