#!/bin/sh
# engines: sqlite pg
# End to end: reporters who wait unseen.  `due` lists a report
# whose reporter has had no reply 2 working days after sending it (the
# `ack` template or any reply: a reply-sent event), and stops once the
# officer replies; an incoming reply in the thread is no answer from us.
# `due --mail` reminds the officer who claimed it (their address from
# officers.NAME), at most once per report every 2 working days; an
# unclaimed report is listed but reminds nobody.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup due-reporter
st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config" "$@"; }
at() { SECTEAM_TEST_NOW=$1; export SECTEAM_TEST_NOW; }
count() { find "$T/box" -type f 2>/dev/null | wc -l | tr -d ' '; }
cat > "$T/config" <<EOF2
[team]
	address = security@example.org
[officers]
	$E2E_OFFICER = security@example.org
EOF2
mail() { # N SUBJECT DATE [IN-REPLY-TO]
	mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
		--to "$OFFICER_FPR" --subject "$2" --body "a bug in net/ipv4/tcp.c" \
		--message-id "w$1@example.net" --date "$3" ${4:+--in-reply-to "$4"} >"$T/m$1.eml"
	st import "$T/m$1.eml" >/dev/null 2>&1
}

# Thursday: reports 1 (claimed) and 2 (not claimed) arrive.
at 2026-12-03T10:00:00Z
mail 1 "tcp overflow" "Thu, 03 Dec 2026 09:00:00 +0000"
mail 2 "udp leak" "Thu, 03 Dec 2026 09:30:00 +0000"
st triage 1 --claim >/dev/null

# Friday: one working day: nobody waits yet.
at 2026-12-04T12:00:00Z
tap_is "$(st due --json | jq -c '[.items[] | select(.kind == "reporter-waiting")] | length')" 0 \
	"Friday: one working day, nobody is listed yet"
# The reporter writes again: an incoming reply is not our answer.
mail 3 "Re: tcp overflow" "Fri, 04 Dec 2026 11:00:00 +0000" w1@example.net

# Monday: two working days.
at 2026-12-07T09:00:00Z
e2e_run 0 "due" due
tap_like "$(cat "$T/out")" '^#1 reporter waiting: received 2026-12-03T09:00:00Z, no reply for 2 working days \(reply 1\): tcp overflow$' \
	"Monday: report 1's reporter waits (2 working days)"
tap_like "$(cat "$T/out")" '^#2 reporter waiting: ' "and report 2's"
tap_is "$(st due --json | jq -c '[.items[] | select(.kind == "reporter-waiting") | [.report, .date]]')" \
	'[[1,"2026-12-03T09:00:00Z"],[2,"2026-12-03T09:30:00Z"]]' "--json: kind reporter-waiting, since when"
out=$(st due --mail --dry-run 2>&1)
tap_like "$out" "^would send	reporter-waiting	security@example.org	report 1\$" \
	"--mail --dry-run: the officer who claimed report 1"
tap_unlike "$out" "reporter-waiting.*report 2" "report 2 is claimed by nobody: no reminder"
for h in 09 13; do
	at "2026-12-07T$h:30:00Z"
	st due --mail --outbox "$T/box" >>"$T/mon" 2>&1
done
tap_is "$(count)" 1 "two runs on Monday: one reminder" "$(cat "$T/mon")"
f=$(find "$T/box/new" -type f | head -1)
tap_like "$(grep -m1 '^To:' "$f")" '^To: security@example.org$' "to the officer's address"
/usr/bin/python3 "$SECTEAM_TOP/tests/lib/check-forward.py" encrypted "$f" "$T/w.asc" >/dev/null 2>&1
gpg --homedir "$H" --batch --quiet --decrypt "$T/w.asc" >"$T/w.txt" 2>/dev/null
tap_like "$(cat "$T/w.txt")" 'has had no reply for 2 working days' "it says the reporter waits (decrypted with the officer's key)"
tap_is "$(st show 1 --json | jq -r '[.events[] | select(.kind == "reminder") | .detail] | .[0]' | sed 's/ <.*//')" \
	"reporter-waiting reminder to security@example.org (encrypted, signed)" "the reminder is an event"
at 2026-12-08T09:00:00Z
st due --mail --outbox "$T/box" >/dev/null 2>&1
tap_is "$(count)" 1 "Tuesday: one working day later, nothing new"

# The officer replies to report 1: it is no longer listed, report 2 is.
at 2026-12-08T10:00:00Z
out=$(st reply 1 --yes --outbox "$T/replies" 2>&1); rc=$?
tap_is "$rc" 0 "reply 1 (the ack template) is sent" "$out"
e2e_run 0 "due after the reply" due
tap_unlike "$(cat "$T/out")" '^#1 reporter waiting' "after the reply, report 1 is not listed"
tap_like "$(cat "$T/out")" '^#2 reporter waiting: ' "report 2 still is"
at 2026-12-10T09:00:00Z
st due --mail --outbox "$T/box" >"$T/thu" 2>&1
tap_unlike "$(cat "$T/thu")" "reporter-waiting" "two working days on: no reminder about a report that was answered"
tap_is "$(st show 1 --json | jq '[.events[] | select(.kind == "reminder") | select(.detail | startswith("reporter-waiting"))] | length')" 1 \
	"one reporter-waiting reminder in all"
tap_done
