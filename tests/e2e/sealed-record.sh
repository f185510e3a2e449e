#!/bin/sh
# engines: sqlite pg
# The sealed record: everything that names an embargo is
# sealed under the team key before it reaches the database, and opened by
# the officer's session alone.
#  - canaries in every sealed column (subject, reporter, touched files,
#    note, decision and proposal reasons, vendor note and statement, the
#    CVE description, the import line's address) are nowhere in the
#    SQLite file or a pg_dump of the team server, and the officer reads
#    each of them back;
#  - the officer sees them (list, show, search);
#  - a sealed value moved into another row does not open there, says
#    so, and shows nothing of the other report;
#  - a keyring that holds no wrapped copy of the team key gets a clear
#    error naming what is missing, never clear text.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup sealedrecord
mkdir -p "$T/mail"
SUBJ="CANARY-SUBJECT-q7z"
NAME="Canaryname Reporterperson"
mk --kind encrypted-signed --from "$NAME <rita@example.net>" --sign-as "$REPORTER_FPR" \
	--to "$OFFICER_FPR" --subject "$SUBJ overflow" --body "first report

--- a/drivers/canaryfilexq/frob.c
+++ b/drivers/canaryfilexq/frob.c
@@ -1 +1 @@
-old
+new" \
	--message-id "<s1@example.net>" >"$T/mail/1.eml"
mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
	--to "$OFFICER_FPR" --subject "second report" --body "second report" \
	--message-id "<s2@example.net>" >"$T/mail/2.eml"
e2e_import "$T/mail/1.eml" "$T/mail/2.eml" || { echo "Bail out! import failed"; exit 1; }

# A canary in each free-text column an officer writes.
st triage 1 --note "CANARY-NOTE-k3v internal" >/dev/null || echo "# note failed"
st date propose 1 +9d --by reporter --reason "CANARY-PROPOSAL-w8e" >/dev/null || echo "# propose failed"
st date set 1 +5d --reason "CANARY-DECISION-p2m" >/dev/null || echo "# date set failed"
st vendor add Acme --contact sec@acme.example >/dev/null
st vendor notify 1 Acme >/dev/null || echo "# notify failed"
st vendor status 1 Acme acknowledged --note "CANARY-VNOTE-j5t" \
	--statement "CANARY-STATEMENT-h4b" >/dev/null || echo "# vendor status failed"
st maintainers 1 --add "Canarymaint Personx <canarymaint@example.org>" >/dev/null ||
	echo "# maintainers --add failed"
st maintainers 1 --ack "Canarymaint@Example.org" >/dev/null || echo "# --ack failed"
cat >"$T/editor" <<'ED'
#!/bin/sh
printf 'CANARY-CVEDESC-r9n: a length was not checked.\n' >> "$1"
ED
chmod +x "$T/editor"
EDITOR="$T/editor" VISUAL= st cve 1 --description >/dev/null || echo "# cve --description failed"

tap_like "$(st list)" "$SUBJ overflow" "the officer's list shows the subject"
show=$(st show 1)
json=$(st show 1 --json)
tap_like "$show" "canaryfilexq/frob.c" "show lists the touched file (opened)"
tap_like "$show" "CANARY-NOTE-k3v" "show has the note"
tap_like "$(st date show 1)" "CANARY-PROPOSAL-w8e" "date show has the proposal's reason"
tap_like "$(st date show 1)" "CANARY-DECISION-p2m" "date show has the decision's reason"
tap_like "$json" "CANARY-VNOTE-j5t" "show --json has the vendor note"
tap_like "$json" "CANARY-STATEMENT-h4b" "show --json has the vendor statement"
tap_is "$(printf '%s' "$json" | jq -r .cve.description)" "CANARY-CVEDESC-r9n: a length was not checked." \
	"the CVE description opens"
tap_like "$show" "rita@example.net" "the import line's address opens"
tap_is "$(printf '%s' "$json" | jq -r '.participants[0] | .name + " <" + .email + ">"')" \
	"Canarymaint Personx <canarymaint@example.org>" "the participant's name and address open"
tap_is "$(printf '%s' "$json" | jq -r '.participants[0].acknowledged_at > 0')" true \
	"  found by a differently cased address, through its keyed lookup (acknowledged)"
tap_like "$(st show 1)" "$NAME" "show names the reporter"
tap_like "$(st search "$SUBJ")" "^1 +new" "search finds the subject (opened in the client)"
# Sorted by subject in the client: "CANARY-..." (1) before "second" (2)
# by id too, so a third report whose subject sorts first.
mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
	--to "$OFFICER_FPR" --subject "Aardvark report" --body "third report" \
	--message-id "<s3@example.net>" >"$T/mail/3.eml"
e2e_import "$T/mail/3.eml" >/dev/null || echo "# import of 3 failed"
tap_is "$(st list --sort subject | awk 'NR > 1 {printf "%s ", $1}')" "3 1 2 " \
	"list --sort subject orders by the opened subjects"
if e2e_sqlite; then
	dump=$(cat "$DB"* | strings)
	where="the SQLite file"
else
	dump=$(PGUSER=$E2E_ADMIN pg_dump -d "$E2E_PGDB" 2>/dev/null)
	where="a pg_dump"
fi
tap_like "$dump" "s1:" "$where holds sealed values (control)"
tap_unlike "$dump" "$SUBJ" "the subject's canary is nowhere in $where"
tap_unlike "$dump" "Canaryname" "the reporter's name is nowhere in $where"
for c in canaryfilexq CANARY-NOTE-k3v CANARY-PROPOSAL-w8e CANARY-DECISION-p2m \
	CANARY-VNOTE-j5t CANARY-STATEMENT-h4b CANARY-CVEDESC-r9n rita@example.net \
	s1@example.net s2@example.net Canarymaint canarymaint; do
	tap_unlike "$dump" "$c" "$c is nowhere in $where"
done
# (On a team server, its generations are events of the signed team
# chain, each with its wrapped copies.)
keys_table=team_keys
e2e_sqlite || keys_table=team_events
tap_ok "$([ "$(db_sql "SELECT count(*) FROM $keys_table")" -ge 1 ]; echo $?)" \
	"the team key is there, wrapped"
tap_is "$(db_sql "SELECT count(*) FROM messages WHERE message_id NOT LIKE 'k1:%'
	OR content_hash NOT LIKE 'k1:%' OR ids_sealed NOT LIKE 's1:%'")" 0 \
	"Message-IDs and content hashes are kept keyed, the clear Message-IDs sealed"
tap_like "$(st show 1 --json | jq -r '.messages_detail[0].message_id')" "^s1@example.net$" \
	"  and the officer reads the Message-ID"
# The same mail again: found by its keyed hash, a duplicate.
tap_like "$(st import "$T/mail/1.eml" 2>&1)" "^duplicate" "a mail imported again is a duplicate (keyed lookup)"

# The latest generation's wrapped copies never go (only an older
# generation's, once the next keeps its key), not even by hand.
if e2e_sqlite; then
	err=$(sqlite3 "$DB" "DELETE FROM team_keys" 2>&1)
else
	err=$(PGUSER=$E2E_OFFICER psql -X -q -d "$E2E_PGDB" -c "DELETE FROM secteam.team_events" 2>&1)
fi
tap_ok "$([ "$(db_sql "SELECT count(*) FROM $keys_table")" -ge 1 ]; echo $?)" \
	"deleting the team key's wrapped copies is refused" "$err"

# A sealed subject moved into another row does not open there.
if e2e_sqlite; then
	sqlite3 "$DB" "UPDATE reports SET subject = (SELECT subject FROM reports WHERE id = 1) WHERE id = 2"
else
	# The server refuses it (the record's guard); a superuser turning the
	# triggers off (a restored backup, say) is what is left.
	PGUSER=$E2E_ADMIN psql -X -q -d "$E2E_PGDB" -c "SET session_replication_role = replica" \
		-c "UPDATE secteam.reports SET subject = (SELECT subject FROM secteam.reports WHERE id = 1) WHERE id = 2" >/dev/null
fi
out=$(st show 2)
tap_like "$out" "does not open here" "a subject moved to report 2 does not open there"
tap_like "$out" "row 2" "  the message names the row"
tap_unlike "$out" "$SUBJ" "  and nothing of report 1's subject shows"
# An event's sealed note copied into another report's timeline (an
# INSERT any officer could make) does not open there either.
db_sql "INSERT INTO events (report_id, at, officer, kind, detail)
	SELECT 2, at, officer, kind, detail FROM events WHERE report_id = 1 AND kind = 'note'" >/dev/null
if e2e_sqlite; then
	out=$(st show 2)
	tap_like "$out" "note +\[sealed value that does not open here" "a note copied to report 2 does not open there"
else
	# On the team server no signed change of report 2 records it: not
	# shown at all, and named.
	out=$(st show 2 2>&1 >/dev/null)
	tap_like "$out" "report 2: event [0-9]* \(note\) has no signed change: not shown" \
		"a note copied to report 2 is not shown there (no signed change)"
fi
tap_unlike "$out" "CANARY-NOTE" "  and nothing of report 1's note shows"

# A database from before sealing: report 2's subject and its message's
# Message-ID and content hash clear, as an old version stored them (put
# back past the record's guards, as only the owner could).  roster reseal
# seals and keys them in place, and says so.
legacy_sql() {
	if e2e_sqlite; then
		sqlite3 "$DB" "DROP TRIGGER IF EXISTS messages_keyed;
			DROP TRIGGER IF EXISTS report_vendors_by_events_insert; $1"
	else
		PGUSER=$E2E_ADMIN psql -X -q -d "$E2E_PGDB" -c "SET search_path = secteam" \
			-c "SET session_replication_role = replica" -c "$1" >/dev/null
	fi
}
# Everything else an old version stored clear about report 2 too: a note,
# a proposal, a decision, a touched file, a vendor's note and statement,
# a participant.
legacy_sql "UPDATE reports SET subject = 'LEGACYSUBJ-t6y' WHERE id = 2;
	UPDATE messages SET message_id = 's2@example.net', content_hash = 'c0ffee', ids_sealed = NULL
	WHERE report_id = 2;
	INSERT INTO events (report_id, at, officer, kind, detail)
		VALUES (2, 1700000000, 'oldofficer', 'note', 'LEGACYNOTE-a1b');
	INSERT INTO proposals (report_id, by, date, reason, officer, at)
		VALUES (2, 'reporter', 1800000000, 'LEGACYPROP-c2d', 'oldofficer', 1700000000);
	INSERT INTO decisions (report_id, date, verdict, reason, override, officer, at)
		VALUES (2, 1800000000, 'ok', 'LEGACYDEC-e3f', 0, 'oldofficer', 1700000001);
	INSERT INTO report_files (report_id, path) VALUES (2, 'drivers/legacyfile-g4h/x.c');
	INSERT INTO report_vendors (report_id, vendor_id, status, notified_at, updated_at, note, statement)
		SELECT 2, id, 'acknowledged', 1700000000, 1700000000, 'LEGACYVNOTE-i5j', 'LEGACYSTMT-k6l'
		FROM vendors WHERE name = 'Acme';
	INSERT INTO participants (report_id, name, email, role, section, added_by, added_at)
		VALUES (2, 'Legacyname Personq', 'legacy-m7n@example.org', 'maintainer',
			'LEGACYSECTION-o8p', 'oldofficer', 1700000000)"
tap_like "$(st list)" "LEGACYSUBJ-t6y" "(a clear subject from before sealing still reads)"
if e2e_sqlite; then
	tap_like "$(st show 2)" "LEGACYNOTE-a1b" "(a clear note from before sealing still reads)"
else
	# Planted after the report's changes began to be signed: named.
	tap_like "$(st show 2 2>&1 >/dev/null)" "report 2: event [0-9]* \(note\) has no signed change" \
		"(a clear note planted after the chains began is named, not shown)"
fi
if ! e2e_sqlite; then
	# On the team server, clear to sealed only with the report's reseal
	# event: an officer with psql cannot slip in a value of their own
	# (of the right length, even) outside a reseal.
	fake="s1:$(head -c $((14 + 47)) /dev/urandom | base64 -w0)"
	err=$(PGUSER=$E2E_OFFICER psql -X -q -d "$E2E_PGDB" -c "SELECT secteam.seal_clear('events',
		'detail', (SELECT id FROM secteam.events WHERE report_id = 2 AND detail = 'LEGACYNOTE-a1b'),
		'$fake', 2, 'LEGACYNOTE-a1b')" 2>&1)
	tap_like "$err" "changed without an event \(reseal\)" \
		"a clear note sealed outside a reseal is refused" "$err"
	tap_is "$(db_sql "SELECT count(*) FROM events WHERE report_id = 2 AND detail = 'LEGACYNOTE-a1b'")" 1 \
		"  the note stays as it was"
fi
out=$(st roster reseal --batch 0 2>&1); rc=$?
tap_is "$rc" 2 "roster reseal --batch 0: a usage error"
tap_like "$out" "roster reseal: --batch: '0' is not a number of reports from 1 to 100000" "  naming the command, the option and the value"
out=$(st roster reseal 2>&1); rc=$?
tap_is "$rc" 0 "roster reseal on it: exit 0" "$out"
tap_like "$out" "sealed under the latest team key .*: 1 report" "  and it says what it did"
if e2e_sqlite; then dump=$(cat "$DB"* | strings); else dump=$(PGUSER=$E2E_ADMIN pg_dump -d "$E2E_PGDB" 2>/dev/null); fi
tap_unlike "$dump" "LEGACYSUBJ-t6y" "the clear subject is sealed in place"
tap_unlike "$dump" "s2@example.net" "the clear Message-ID is keyed in place"
for c in LEGACYNOTE-a1b LEGACYPROP-c2d LEGACYDEC-e3f legacyfile-g4h LEGACYVNOTE-i5j \
	LEGACYSTMT-k6l Legacyname legacy-m7n LEGACYSECTION-o8p; do
	tap_unlike "$dump" "$c" "  $c, stored clear, is sealed in place"
done
tap_is "$(db_sql "SELECT count(*) FROM proposals WHERE by NOT LIKE 's1:%'")" 0 \
	"  who proposed is sealed too"
out=$(st show 2)
json=$(st show 2 --json)
dates=$(st date show 2)
if e2e_sqlite; then
	tap_like "$out" "LEGACYNOTE-a1b" "the officer reads the note, sealed in place"
	tap_like "$dates" "LEGACYPROP-c2d" "  the proposal's reason"
	tap_like "$dates" "LEGACYDEC-e3f" "  the decision's reason"
else
	# Planted after the chains began: sealed in place like the rest,
	# and still named, not shown (no signed change records them).
	tap_like "$(st show 2 2>&1 >/dev/null)" "event [0-9]* \(note\) has no signed change" \
		"the note, sealed in place, is still named (no signed change)"
	dates=$(st date show 2 2>&1 >/dev/null)
	tap_like "$dates" "report 2: proposal [0-9]* has no signed change: not shown" "  the proposal"
	tap_like "$dates" "report 2: decision [0-9]* has no signed change: not shown" "  the decision"
fi
if e2e_sqlite; then
	tap_like "$out" "drivers/legacyfile-g4h/x.c" "  the touched file"
else
	# Planted here after the reports' chains began, no signed import
	# accounts for it: named (opened), not shown.
	tap_like "$(st show 2 2>&1 >/dev/null)" "file drivers/legacyfile-g4h/x.c has no signed import" \
		"  the touched file (named: no signed import accounts for it)"
fi
tap_like "$json" "LEGACYVNOTE-i5j" "  the vendor's note"
tap_like "$json" "LEGACYSTMT-k6l" "  and statement"
if e2e_sqlite; then
	tap_is "$(printf '%s' "$json" | jq -r '[.participants[] | select(.email == "legacy-m7n@example.org")
		| .name + "|" + .section] | join(",")')" "Legacyname Personq|LEGACYSECTION-o8p" \
		"  the participant's name, address and section"
	tap_like "$(st maintainers 2 --ack LEGACY-M7N@example.org 2>&1)" "." \
		"  found by its address, now keyed (ack)"
	tap_is "$(st show 2 --json | jq -r '.participants[] | select(.email == "legacy-m7n@example.org")
		| .acknowledged_at > 0')" true "  and acknowledged"
else
	# Planted after the chains began: sealed in place, and no
	# participant (no signed change adds it).
	tap_is "$(printf '%s' "$json" | jq -r '[.participants[] | select(.email == "legacy-m7n@example.org")] | length')" 0 \
		"  the participant planted after the chains began is no participant"
fi
# The one change the record allows these rows: clear to sealed.  A
# sealed note is never rewritten, even with the team key at hand.
note_sealed=$(db_sql "SELECT detail FROM events WHERE report_id = 1 AND kind = 'note' ORDER BY id LIMIT 1")
if e2e_sqlite; then
	err=$(sqlite3 "$DB" "UPDATE events SET detail = 'rewritten' WHERE report_id = 2 AND kind = 'note'" 2>&1)
	err2=$(sqlite3 "$DB" "UPDATE events SET detail = '$note_sealed' WHERE report_id = 2 AND kind = 'note'
		AND detail LIKE 's1:%' AND id = (SELECT max(id) FROM events WHERE report_id = 2 AND kind = 'note')" 2>&1)
else
	err=$(PGUSER=$E2E_OFFICER psql -X -q -d "$E2E_PGDB" -c "UPDATE secteam.events SET detail = 'rewritten'
		WHERE report_id = 2 AND kind = 'note'" 2>&1)
	err2=$(PGUSER=$E2E_OFFICER psql -X -q -d "$E2E_PGDB" -c "BEGIN" -c "INSERT INTO secteam.events
		(report_id, at, officer, kind, detail) VALUES (2, 0, 'x', 'reseal', 'x')" -c "UPDATE secteam.events
		SET detail = '$note_sealed' WHERE id = (SELECT max(id) FROM secteam.events WHERE report_id = 2
		AND kind = 'note')" -c "COMMIT" 2>&1)
fi
tap_like "$err" "append-only|permission denied" "a note can not be rewritten in clear" "$err"
tap_like "$err2" "append-only|permission denied" "  nor a sealed one replaced, a reseal event or not" "$err2"
if e2e_sqlite; then
	tap_like "$(st show 2)" "LEGACYNOTE-a1b" "  the note reads as it was"
else
	tap_unlike "$(st show 2 2>&1 >/dev/null)" "is not as its signed" "  no signed row was changed"
fi
tap_is "$(db_sql "SELECT count(*) FROM messages WHERE message_id NOT LIKE 'k1:%' OR content_hash NOT LIKE 'k1:%'")" 0 \
	"  every lookup value keyed"
tap_like "$(st list)" "LEGACYSUBJ-t6y" "the officer still reads the subject"
tap_is "$(st show 2 --json | jq -r '.messages_detail[0].message_id')" "s2@example.net" \
	"  and the Message-ID"

# The team key never touches the disk in clear.  Its bytes are taken
# from this officer's wrapped copy (gpg opens it), then looked for, raw,
# in hex and in base64, in the database (its file, or a dump and the
# server's data directory), and in the home, cache and temporary folders
# the program ran with.  A planted copy shows the search finds it.
mkdir -p "$T/home" "$T/cache" "$T/tmp"
sth() { HOME=$T/home XDG_CACHE_HOME=$T/cache TMPDIR=$T/tmp st "$@"; }
sth list >/dev/null; sth show 1 >/dev/null; sth search CANARY >/dev/null
sth triage 1 --note "another note" >/dev/null
sth import "$T/mail/2.eml" >/dev/null 2>&1
if e2e_sqlite; then
	wrapped=$(db_sql "SELECT hex(wrapped) FROM team_keys WHERE fingerprint = '$OFFICER_FPR' ORDER BY generation DESC LIMIT 1")
else
	wrapped=$("$SECTEAM_TOP/tests/lib/teamchain.py" copy-of "$OFFICER_FPR" \
		$(db_sql "SELECT encode(body, 'hex') FROM team_events ORDER BY seq"))
fi
keyhex=$(printf '%s' "$wrapped" | perl -ne 'print pack("H*", $_)' |
	gpg --homedir "$H" --batch --quiet --decrypt 2>/dev/null |
	perl -e 'local $/; my $b = <STDIN>; print unpack("H*", substr($b, 8, 32)) if length($b) == 40')
tap_is "${#keyhex}" 64 "(the test reads the team key from its wrapped copy)"
# findkey DIR...: the files holding the key, raw, in hex or in base64
findkey() {
	find "$@" -type f 2>/dev/null | KEY=$keyhex perl -MMIME::Base64 -ne '
		BEGIN { $k = pack("H*", $ENV{KEY}); @n = ($k, $ENV{KEY}, uc $ENV{KEY},
			substr(encode_base64($k, ""), 0, 40)); }
		chomp; open(my $f, "<", $_) or next; binmode $f; local $/; my $d = <$f>;
		for my $n (@n) { if (index($d, $n) >= 0) { print "$_\n"; last } }'
}
where="$T/home $T/cache $T/tmp"
if e2e_sqlite; then
	where="$where $(dirname "$DB")"
else
	PGUSER=$E2E_ADMIN pg_dump -d "$E2E_PGDB" >"$T/tmp/dump.sql" 2>/dev/null
	PGUSER=$E2E_ADMIN psql -X -q -d "$E2E_PGDB" -c CHECKPOINT >/dev/null 2>&1
	where="$where $PGHOST/data"
fi
printf '%s' "$keyhex" | perl -ne 'print pack("H*", $_)' >"$T/cache/planted"
tap_like "$(findkey $where)" "planted" "(a planted copy of the key is found)"
rm -f "$T/cache/planted"
tap_is "$(findkey $where)" "" "the team key is nowhere on disk in clear (database, home, cache, temporary files)"

# A keyring with no wrapped copy of the team key.
G=$T/nokey
mkdir -m 700 "$G"
out=$("$SECTEAM_BIN" --db "$DB" --gnupghome "$G" list 2>&1)
tap_unlike "$out" "$SUBJ" "another keyring sees no subject"
tap_like "$out" "no wrapped copy of the team key|cannot verify the team chain" "  and is told what is missing"
tap_done
