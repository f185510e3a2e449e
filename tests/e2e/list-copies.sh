#!/bin/sh
# engines: sqlite pg
# One report per list mail, however it was delivered: two
# officers import their own copies of the same ten mails at the same
# time.  Each copy carries its own transport fields (Return-Path,
# Delivered-To, X-Original-To, Received folded over two lines, List-*,
# DKIM-Signature, ARC-Seal, mbox Status).  Each mail is stored once, in
# one report, with no message-id-reused event, and the two imports
# together say so: ten new, ten duplicates.  A different body under one
# of those Message-IDs is still imported and flagged.  A copy of a
# message stored before transport fields were left out of its identity
# (its row carries the hash of every byte) is a duplicate too.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup listcopies
N=10
i=0
while [ "$i" -lt "$N" ]; do
	mk_line "$T/m$i.eml" --kind signed --from "Rita Reporter <rita@example.net>" \
		--sign-as "$REPORTER_FPR" --subject "list mail $i" \
		--message-id "<list$i@example.net>" --body "list report $i"
	i=$((i + 1))
done | mk_batch || { echo "Bail out! cannot make the test mails"; exit 1; }
copy() { # WHO FILE: FILE as WHO's mailbox received it
	printf 'Return-Path: <sec-bounces@lists.example>\nDelivered-To: %s@team.example\nX-Original-To: security@team.example\nReceived: from mx.%s.example (mx [192.0.2.7])\n\tby mail.%s.example with ESMTPS id %s; %s\nDKIM-Signature: v=1; a=rsa-sha256; d=lists.example;\n b=%s\nARC-Seal: i=1; cv=none; b=%s\nList-Id: <sec.lists.example>\nList-Unsubscribe: <mailto:sec-leave@lists.example>\nStatus: RO\n' \
		"$1" "$1" "$1" "$(od -An -N4 -tx4 /dev/urandom | tr -d ' ')" "$(date -R)" "$1" "$1"
	cat "$2"
}
: > "$T/alice.list"; : > "$T/bob.list"
i=0
while [ "$i" -lt "$N" ]; do
	copy alice "$T/m$i.eml" > "$T/a$i.eml"; echo "$T/a$i.eml" >> "$T/alice.list"
	copy bob "$T/m$i.eml" > "$T/b$i.eml"; echo "$T/b$i.eml" >> "$T/bob.list"
	i=$((i + 1))
done
e2e_mbox "$T/alice.mbox" $(cat "$T/alice.list")
e2e_mbox "$T/bob.mbox" $(cat "$T/bob.list")
tap_ok "$(cmp -s "$T/a0.eml" "$T/b0.eml"; [ $? -ne 0 ]; echo $?)" "the two copies differ (transport fields)"

BOB=$E2E_OFFICER
if ! e2e_sqlite; then
	BOB=bob_$$
	e2e_admin team add-officer "$BOB" --key "$OFFICER_FPR" >/dev/null ||
		{ echo "Bail out! cannot add officer $BOB"; exit 1; }
	e2e_on_exit 'PGUSER=$E2E_ADMIN psql -X -q -d postgres -c "DROP ROLE IF EXISTS bob_$$" >/dev/null 2>&1'
fi
st list >/dev/null 2>&1   # the database made (its first creation is not what this tests)
st import --mbox "$T/alice.mbox" > "$T/alice.out" 2>&1 &
pa=$!
PGUSER=$BOB st import --mbox "$T/bob.mbox" > "$T/bob.out" 2>&1 &
pb=$!
wait "$pa"; ra=$?
wait "$pb"; rb=$?
tap_is "$ra$rb" 00 "both imports exit 0" "$(cat "$T/alice.out" "$T/bob.out")"
count() { cat "$T/alice.out" "$T/bob.out" | cut -f1 | grep -c "^$1\$"; }   # new: "ID<tab>verdict..."
tap_is "$(count '[0-9][0-9]*')" "$N" "the two imports together: $N new"
tap_is "$(count duplicate)" "$N" "and $N duplicates"
tap_is "$(st list --json | jq 'length')" "$N" "$N reports, not $((2 * N))"
tap_is "$(db_sql "SELECT count(*) FROM messages")" "$N" "each mail stored once"
tap_is "$(db_sql "SELECT count(*) FROM events WHERE kind = 'message-id-reused'")" 0 "no message-id-reused event"

# Another body under a known Message-ID: imported, and flagged.
mk --kind signed --from "Mallory <mallory@example.org>" --sign-as "$REPORTER_FPR" --subject "list mail 0" \
   --message-id "<list0@example.net>" --body "a squatter's text" > "$T/squat.eml"
copy carol "$T/squat.eml" > "$T/squat2.eml"
st import "$T/squat2.eml" > "$T/squat.out" 2>&1
tap_is "$(db_sql "SELECT count(*) FROM messages")" "$((N + 1))" "another body under a known Message-ID is imported"
[ "$(db_sql "SELECT count(*) FROM events WHERE kind = 'message-id-reused'")" -gt 0 ]
tap_ok $? "and flagged (message-id-reused)"

# A row stored with the hash of every byte (before this change, and
# before keyed lookups: its Message-ID and hash clear): a new copy of it
# is still a duplicate.  The row is made as an old version left it, past
# the record's guards (as only the database's owner could).
mk --kind signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" --subject "old one" \
   --message-id "<old@example.net>" --body "stored long ago" > "$T/old.eml"
st import "$T/old.eml" >/dev/null
raw=$(sed 's/\r$//' "$T/old.eml" | sha256sum | cut -d' ' -f1)
legacy="UPDATE messages SET content_hash = '$raw', message_id = 'old@example.net'"
legacy="$legacy WHERE id = (SELECT max(id) FROM messages)"
if e2e_sqlite; then
	db_sql "DROP TRIGGER messages_keyed; $legacy" >/dev/null
else
	PGUSER=$E2E_ADMIN psql -X -q -d "$DB" -c "SET search_path = secteam" \
		-c "SET session_replication_role = replica" -c "$legacy" >/dev/null
fi
copy dave "$T/old.eml" > "$T/old2.eml"
out=$(st import "$T/old.eml" 2>&1)
tap_like "$out" "^duplicate" "the same bytes as a row hashed the old way: a duplicate"
tap_is "$(db_sql "SELECT count(*) FROM messages WHERE message_id = 'old@example.net'")" 1 "stored once"
tap_done
