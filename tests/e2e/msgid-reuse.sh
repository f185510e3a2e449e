#!/bin/sh
# engines: sqlite pg
# End to end, Message-ID squatting: a mail carrying a genuine report's
# Message-ID, sent first, must not turn the genuine signed report into a
# "duplicate".  A duplicate is the same content; other content under a
# known Message-ID is imported as its own report, and both are marked
# (message-id-reused events, a warning in show, message_id_reused in
# show --json).  A reply to such a Message-ID joins neither report.  The
# same mail imported twice at once is still one report and a duplicate.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup msgid
RITA="Rita Reporter <rita@example.net>"

# The attacker's mail, then the genuine signed report, one Message-ID.
mk --kind plain --from "$RITA" --subject "ignore the next mail" \
	--body "squatting" --message-id "report1@example.net" >"$T/squat.eml"
mk --kind signed --from "$RITA" --sign-as "$REPORTER_FPR" \
	--subject "UAF in net/sched" --body "the real report, in net/sched/sch_api.c" \
	--message-id "report1@example.net" >"$T/genuine.eml"
out=$(st import "$T/squat.eml"); rc=$?
tap_is "$rc:$out" "0:1	not-signed	ignore the next mail" "the squatter's mail comes first"
out=$(st import "$T/genuine.eml"); rc=$?
tap_is "$rc:$out" "0:2	valid	UAF in net/sched" \
	"the genuine signed report is imported, as its own report, not a duplicate"
tap_is "$(st show 2 --json | jq -r '.signature.verdict, .reporter.email, .subject' | tr '\n' '|')" \
	"valid|rita@example.net|UAF in net/sched|" "its report is the genuine one"
tap_is "$(st show 2 --json | jq -r '.messages_detail[0].message_id_reused')" true \
	"show --json marks the genuine message"
tap_is "$(st show 1 --json | jq -r '.messages_detail[0].message_id_reused')" true \
	"show --json marks the squatter's message"
tap_is "$(st show 2 --json | jq -r '.events[] | select(.kind == "message-id-reused") | .detail')" \
	"Message-ID <report1@example.net> of message 2 is already on message 1 of report #1, with other content" \
	"the genuine report's timeline names the other message"
tap_is "$(st show 1 --json | jq -r '.events[] | select(.kind == "message-id-reused") | .detail')" \
	"Message-ID <report1@example.net> of message 1 is used again by message 2 of report #2, with other content" \
	"the squatter's report's timeline names the genuine one"
tap_like "$(st show 2)" "^\[warning: another message, with other content, carries this message's Message-ID: see the message-id-reused events\]$" \
	"show prints a warning with the message"

# The same content again is a duplicate, whatever came before.
out=$(st import "$T/genuine.eml" "$T/squat.eml"); rc=$?
tap_is "$rc:$(printf '%s' "$out" | tr '\n' '|')" \
	"0:duplicate	2	UAF in net/sched|duplicate	1	ignore the next mail" \
	"re-importing either is a duplicate of its own report"

# A reply to the squatted Message-ID: which report it belongs to cannot
# be told, so it joins neither and says so.
mk --kind signed --from "$RITA" --sign-as "$REPORTER_FPR" --subject "Re: UAF in net/sched" \
	--body "more details" --message-id "reply1@example.net" \
	--in-reply-to "report1@example.net" >"$T/reply.eml"
out=$(st import "$T/reply.eml"); rc=$?
tap_is "$rc:$out" "0:3	valid	Re: UAF in net/sched" "a reply to the reused Message-ID is a report of its own"
tap_is "$(st show 3 --json | jq -r '.events[] | select(.kind == "message-id-reused") | .detail')" \
	"replies to <report1@example.net>, which messages of reports #1 #2 all carry (a reused Message-ID): joined to none" \
	"... and its timeline says why"
tap_is "$(st show 2 --json | jq -r .messages)" 1 "the genuine report was not joined"
tap_is "$(st show 1 --json | jq -r .messages)" 1 "nor the squatter's"
# An ordinary reply still joins its report.
mk --kind plain --from "$RITA" --subject "Re: more" --body "ok" \
	--message-id "reply2@example.net" --in-reply-to "reply1@example.net" >"$T/reply2.eml"
out=$(st import "$T/reply2.eml"); rc=$?
tap_is "$rc:$out" "0:3	not-signed	Re: more" "a reply to an unambiguous Message-ID joins its report"
tap_is "$(st show 3 --json | jq -r '[.messages_detail[].message_id_reused] | join(",")')" \
	"false,false" "messages with their own Message-IDs are not marked"

# Two imports of one new mail at the same moment: one report, one
# duplicate.  Another writer holds the lock while both start, so both
# get past the early duplicate check before either stores.
mk --kind signed --from "$RITA" --sign-as "$REPORTER_FPR" --subject "raced" \
	--body "twice at once" --message-id "race@example.net" >"$T/race.eml"
db_write_lock "$DB" 20 || { echo "Bail out! cannot lock the database"; exit 1; }
st import "$T/race.eml" >"$T/race1" 2>&1 &
p1=$!
st import "$T/race.eml" >"$T/race2" 2>&1 &
p2=$!
sleep 2
db_write_unlock
wait "$p1"; r1=$?
wait "$p2"; r2=$?
tap_is "$r1:$r2" "0:0" "two imports of one mail at once: both exit 0"
tap_is "$(cat "$T/race1" "$T/race2" | cut -f 1,2 | sort | tr '\n' '|')" "4	valid|duplicate	4|" \
	"two imports of one mail at once: one report, one duplicate"
tap_is "$(db_sql "SELECT count(*) FROM messages WHERE report_id = 4")" 1 \
	"the mail is stored once"
tap_is "$(st show 4 --json | jq '[.events[] | select(.kind == "message-id-reused")] | length')" 0 \
	"and not marked as reused"
tap_done
