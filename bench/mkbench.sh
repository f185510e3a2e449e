#!/bin/sh
# mkbench.sh SECTEAM_BIN DB [REPORTS] [EVENTS]: a benchmark database of
# REPORTS reports (default 100,000), one message each, a decided date on
# one report in 40, and EVENTS events (default 1,000,000): the state,
# severity and claim events that make the reports' rows, then notes.  The schema is
# made by secteam-tui itself; the rows go in directly with the sqlite3 CLI
# in one transaction (a fixture for timing, not a way to import mail: the
# message blobs are placeholders that cannot be opened).
set -eu
bin=$1 db=$2 n=${3:-100000} ne=${4:-1000000}
rm -f "$db" "$db-wal" "$db-shm"
"$bin" --db "$db" list >/dev/null
sqlite3 "$db" <<SQL
PRAGMA synchronous = OFF;
BEGIN;
CREATE TEMP TABLE words(k INTEGER PRIMARY KEY, w TEXT);
INSERT INTO words VALUES (0, 'use-after-free in net/ipv4/tcp_input.c'),
 (1, 'heap overflow in fs/ext4/xattr.c'), (2, 'race in net/packet/af_packet.c'),
 (3, 'info leak in drivers/usb/core/devio.c'), (4, 'double free in kernel/bpf/verifier.c'),
 (5, 'integer overflow in mm/mremap.c'), (6, 'NULL deref in sound/core/pcm.c');
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < $n)
INSERT INTO reports (id, subject, reporter_name, reporter_email, received)
SELECT i, 'bench report ' || i || ': ' || (SELECT w FROM words WHERE k = i % 7),
       'Reporter ' || (i % 997), 'reporter' || (i % 997) || '@example.net',
       CAST(strftime('%s', 'now') AS INTEGER) - ($n - i) * 300
FROM s;
-- States, severities and claims are what the events say (the store
-- applies each as it goes in): state i % 9 of new, triaged, accepted,
-- fixing, fix-ready, disclosed, closed, rejected, new, each reached by
-- the lifecycle's steps; severity i % 5; claimed by alice or bob.
CREATE TEMP TABLE line(k INTEGER PRIMARY KEY, s TEXT);
INSERT INTO line VALUES (0, 'new'), (1, 'triaged'), (2, 'accepted'), (3, 'fixing'),
 (4, 'fix-ready'), (5, 'disclosed'), (6, 'closed');
INSERT INTO events (report_id, at, officer, kind, detail)
SELECT r.id, r.received, 'alice', 'state', a.s || ' -> ' || b.s
FROM reports r JOIN line b ON b.k BETWEEN 1 AND r.id % 9 JOIN line a ON a.k = b.k - 1
WHERE r.id % 9 <= 6 ORDER BY r.id, b.k;
INSERT INTO events (report_id, at, officer, kind, detail)
SELECT id, received, 'alice', 'state', 'new -> rejected' FROM reports WHERE id % 9 = 7;
INSERT INTO events (report_id, at, officer, kind, detail)
SELECT id, received, 'alice', 'severity', 'none -> ' || CASE id % 5 WHEN 1 THEN 'low'
         WHEN 2 THEN 'medium' WHEN 3 THEN 'high' ELSE 'critical' END
FROM reports WHERE id % 5 <> 0;
INSERT INTO events (report_id, at, officer, kind, detail)
SELECT id, received, CASE id % 3 WHEN 0 THEN 'alice' ELSE 'bob' END, 'claim',
       'claimed by ' || CASE id % 3 WHEN 0 THEN 'alice' ELSE 'bob' END
FROM reports WHERE id % 3 <> 2;
INSERT INTO messages (report_id, message_id, content_hash, from_name, from_email,
                      subject, date, imported, encrypted, verdict, fingerprint,
                      signer_matches_from, blob_kind, blob)
SELECT id, 'bench' || id || '@example.net', 'hash' || id, reporter_name, reporter_email,
       subject, received, received, 1,
       CASE id % 4 WHEN 0 THEN 'valid' WHEN 1 THEN 'good' WHEN 2 THEN 'not-signed' ELSE 'valid' END,
       '0123456789ABCDEF0123456789ABCDEF01234567', 1, 'sealed', x'00'
FROM reports;
INSERT INTO decisions (report_id, date, verdict, officer, at)
SELECT id, CAST(strftime('%s', 'now') AS INTEGER) + ((id / 40) % 30 - 5) * 86400,
       'ok', 'alice', received
FROM reports WHERE id % 40 = 0;
-- Notes, up to EVENTS events in all.
CREATE TEMP TABLE notes AS SELECT $ne - count(*) AS n FROM events;
WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s
                        WHERE i < (SELECT n FROM notes))
INSERT INTO events (report_id, at, officer, kind, detail)
SELECT (i % $n) + 1, CAST(strftime('%s', 'now') AS INTEGER) - ($ne - i) * 30,
       CASE i % 2 WHEN 0 THEN 'alice' ELSE 'bob' END, 'note', 'bench event ' || i
FROM s;
COMMIT;
SQL
