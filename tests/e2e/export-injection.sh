#!/bin/sh
# engines: sqlite pg
# export-injection.sh: hostile text (CRLF, END:VEVENT, quotes, commas,
# control characters, U+202E, formula prefixes) in every field an outsider
# or an officer can fill still exports valid ICS, CSV, JSON and CVE
# records, and never reaches a text export raw (TAP).
set -u
top=${SECTEAM_TOP:?SECTEAM_TOP is not set}
bin=${SECTEAM_BIN:?SECTEAM_BIN is not set}
schema=$top/tests/schemas/CVE_Record_Format_bundled.json
py=/usr/bin/python3
. "$top/tests/lib/e2e.sh"
e2e_setup inject
tmp=$T
export XDG_CONFIG_HOME="$tmp/cfg" XDG_DATA_HOME="$tmp/data" TZ=UTC
export SECTEAM_TEST_NOW=2026-12-01T10:00:00Z
printf '[officer]\n\tname = olga\n[cve]\n\torg_id = 6c8b7f1e-2a3d-4c5b-9e8f-0a1b2c3d4e5f\n' >"$tmp/config"
st() { "$bin" --db "$DB" --gnupghome "$H" --config "$tmp/config" "$@"; }

esc=$(printf '\033')
rlo=$(printf '\342\200\256')
crlf=$(printf '\r\nX')
crlf=${crlf%X}
evil="a,\"b\";c${crlf}END:VEVENT${crlf}BEGIN:VEVENT${crlf}SUMMARY:pwned ${esc}[31m ${rlo}gpj.exe \\ ' \`"
$py "$top/tests/lib/mkpgp.py" --gnupghome "$S" --kind encrypted-signed \
	--from "Rita ${rlo}Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
	--to "$OFFICER_FPR" --subject "=cmd|' /C calc'!A0, \"q\" END:VEVENT ${rlo}gpj.exe ${esc}[2J" \
	--body "see net/sched/sch_api.c" --message-id "<evil@example.net>" \
	--date "Tue, 01 Dec 2026 09:00:00 +0000" >"$tmp/evil.eml"
e2e_run 0 "import the hostile report" import "$tmp/evil.eml"
e2e_run 0 "vendor add" vendor add "Acme, \"Inc\"" --contact sec@acme.example
e2e_run 2 "a vendor name with control characters is refused" vendor add "Bad${esc}[31m" --contact a@b.example
e2e_run 2 "a vendor name with U+202E is refused" vendor add "Bad${rlo}" --contact a@b.example
e2e_run 0 "vendor notify" vendor notify 1 "Acme, \"Inc\""
e2e_run 0 "hostile vendor statement and note" vendor status 1 "Acme, \"Inc\"" affected --statement "$evil" --note "+SUM(A1)$evil"
e2e_run 0 "hostile note" triage 1 --note "=HYPERLINK(\"http://x\")$evil"
e2e_run 0 "hostile proposal" date propose 1 +5d --by "maintainer:m${esc}@x${rlo}" --reason "@evil$evil"
e2e_run 0 "hostile decision reason" date set 1 +9d --reason "-2+3$evil"

# --with-notes: the hostile notes are exported too.
for f in md txt json csv ics; do
	e2e_run 0 "export --format $f --with-notes" export 1 --format $f --with-notes -o "$tmp/x.$f"
done
e2e_run 1 "export --format cve is refused under embargo" export 1 --format cve -o "$tmp/x.cve.json"
export SECTEAM_TEST_NOW=2026-12-31T10:00:00Z
# A passed date alone lifts no embargo (embargo.c): the officers mark it.
for s in triaged accepted fixing fix-ready disclosed; do
	e2e_run 0 "report 1 marked $s" triage 1 --state $s
done
e2e_run 0 "export --format cve after disclosure" export 1 --format cve --cve-id CVE-2026-12345 -o "$tmp/x.cve.json"
export SECTEAM_TEST_NOW=2026-12-01T10:00:00Z

$py - "$tmp/x.ics" >"$tmp/err" 2>&1 <<'PY'
import sys, icalendar
raw = open(sys.argv[1], "rb").read()
for line in raw.split(b"\r\n"):
    assert not any(b < 0x20 or b == 0x7f for b in line), line
    assert b"\xe2\x80\xae" not in line, line
cal = icalendar.Calendar.from_ical(raw)
ev = cal.walk("VEVENT")
assert len(ev) == 3, [str(e.get("SUMMARY")) for e in ev]
assert len(cal.walk("VALARM")) == 1
d = [e for e in ev if "disclosure" in str(e["UID"])][0]
assert "END:VEVENT" in str(d["SUMMARY"]) and "<U+202E>" in str(d["SUMMARY"]), d["SUMMARY"]
assert "END:VEVENT" in str(d["DESCRIPTION"]) and "^M^J" in str(d["DESCRIPTION"])
PY
e2e_ok $? "the ICS parses to exactly three events; the hostile text stays inside its property"
mkdir -p "$tmp/calcurse"
HOME=$tmp/calcurse calcurse -D "$tmp/calcurse" -i "$tmp/x.ics" >"$tmp/err" 2>&1 &&
	grep -q "1 app / 2 events" "$tmp/err" && grep -q " 0 skipped" "$tmp/err"
e2e_ok $? "calcurse -i imports the hostile ICS whole"
$py - "$tmp/x.csv" >"$tmp/err" 2>&1 <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8")))
assert all(len(r) == 5 for r in rows), rows
for r in rows:
    for c in r:
        assert not any(ord(ch) < 0x20 or ord(ch) == 0x7f or ch == "\u202e" for ch in c), c
        assert c[:1] not in ("=", "+", "-", "@"), c
kinds = {r[3]: r[4] for r in rows[1:]}
assert kinds["note"].startswith("'=HYPERLINK"), kinds["note"]
assert kinds["date-set"].startswith("disclosure date"), kinds
assert any('"b"' in r[4] and "END:VEVENT" in r[4] for r in rows[1:])
PY
e2e_ok $? "Python's csv reads five clean fields a row; formulas are neutralised"
jq -e '.[0].events | length > 5' "$tmp/x.json" >/dev/null 2>"$tmp/err"
e2e_ok $? "jq parses the JSON export"
! LC_ALL=C grep -q '[^[:print:][:space:]]' "$tmp/x.json"
e2e_ok $? "the JSON export is plain ASCII"
jq -e '[.. | strings] | any(test("END:VEVENT\r\n"))' "$tmp/x.json" >/dev/null 2>"$tmp/err"
e2e_ok $? "the JSON keeps the text exactly, escaped"
$py - "$schema" "$tmp/x.cve.json" >"$tmp/err" 2>&1 <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
cls = jsonschema.validators.validator_for(schema)
cls(schema, format_checker=cls.FORMAT_CHECKER).validate(json.load(open(sys.argv[2])))
PY
e2e_ok $? "the CVE record of the hostile report validates"
for f in md txt; do
	! LC_ALL=C grep -q "$(printf '[\001-\011\013-\037\177]')" "$tmp/x.$f" &&
		! grep -q "$rlo" "$tmp/x.$f"
	e2e_ok $? "the $f export has no control or bidi characters"
done
grep -q '\\\[reporter\\\]\|\[reporter\]' "$tmp/x.md" && ! grep -qi "rita" "$tmp/x.md"
e2e_ok $? "the hostile reporter name is still withheld"

tap_done
