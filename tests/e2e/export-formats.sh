#!/bin/sh
# engines: sqlite pg
# export-formats.sh: every export format against its golden file in
# tests/golden/, read back by real parsers (python3-icalendar, calcurse -i,
# python3-jsonschema with the CVE 5 schema, Python's csv, jq), and the
# redaction and embargo rules (TAP).  SECTEAM_UPDATE_GOLDEN=1 rewrites the
# golden files instead of comparing.  Time is pinned (SECTEAM_TEST_NOW, TZ);
# key fingerprints, the only random part, are replaced by their names.
set -u
top=${SECTEAM_TOP:?SECTEAM_TOP is not set}
bin=${SECTEAM_BIN:?SECTEAM_BIN is not set}
golden=$top/tests/golden
schema=$top/tests/schemas/CVE_Record_Format_bundled.json
py=/usr/bin/python3
. "$top/tests/lib/e2e.sh"
e2e_setup export
tmp=$T
export XDG_CONFIG_HOME="$tmp/cfg" XDG_DATA_HOME="$tmp/data" TZ=UTC
export SECTEAM_TEST_NOW=2026-12-01T10:00:00Z
cat >"$tmp/config" <<'CFG'
[officer]
	name = olga
[team]
	domain = security.example.org
[cve]
	org_id = 6c8b7f1e-2a3d-4c5b-9e8f-0a1b2c3d4e5f
	reference_url = https://security.example.org/advisories/
CFG

st() { "$bin" --db "$DB" --gnupghome "$H" --config "$tmp/config" "$@"; }
mail() { # mail ID SUBJECT DATE FROM
	$py "$top/tests/lib/mkpgp.py" --gnupghome "$S" \
		--kind encrypted-signed --from "${4:-Rita Reporter <rita@example.net>}" \
		--sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" --subject "$2" \
		--body "A use-after-free in net/sched/sch_api.c, see exploit.c" \
		--message-id "<$1@example.net>" --date "$3" >"$tmp/$1.eml"
}
# The officer in the timeline is the login running the test (the Unix
# user, or the team server's role): OFFICER in the golden files, also
# where Markdown escaped the role's "_" as "\_".
md_officer=$(printf '%s' "$E2E_OFFICER" | sed 's/_/\\\\_/g')
# The CVE record's x_generator names the program's version: VERSION.
version=$(cat "$top/VERSION")
normalise() {
	sed -e "s/$REPORTER_FPR/REPORTER_FPR/g" -e "s/$OFFICER_FPR/OFFICER_FPR/g" \
		-e "s/$VENDOR_FPR/VENDOR_FPR/g" -e "s/\b$E2E_OFFICER\b/OFFICER/g" \
		-e "s/\b$md_officer\b/OFFICER/g" -e "s/\"secteam-tui-$version\"/\"secteam-tui-VERSION\"/" "$1"
}
# golden NAME FILE: compares (or with SECTEAM_UPDATE_GOLDEN=1 writes)
golden() {
	normalise "$2" >"$tmp/norm"
	if [ "${SECTEAM_UPDATE_GOLDEN:-0}" = 1 ]; then
		cp "$tmp/norm" "$golden/$1"
	fi
	diff -u "$golden/$1" "$tmp/norm" >"$tmp/err" 2>&1
	e2e_ok $? "$1 matches its golden file"
}

# --- the data: two reports, vendors, proposals, decisions -------------------
mail r1 "UAF in net/sched" "Tue, 01 Dec 2026 09:00:00 +0000"
mail r2 "Overflow in fs/ext4" "Tue, 01 Dec 2026 09:30:00 +0000"
e2e_run 0 "import report 1" import "$tmp/r1.eml"
e2e_run 0 "import report 2" import "$tmp/r2.eml"
st triage 1 --state triaged --severity high >/dev/null 2>&1
st triage 1 --state accepted >/dev/null 2>&1
st vendor add Acme --contact sec@acme.example --kind distro --key "$VENDOR_FPR" >/dev/null 2>&1
st vendor notify 1 Acme >/dev/null 2>&1
export SECTEAM_TEST_NOW=2026-12-02T08:30:00Z
st vendor status 1 Acme affected --statement "6.1 and later" --nda-requested >/dev/null 2>&1
st date propose 1 2026-12-10 --by vendor:Acme --reason "backports for 6.1" >/dev/null 2>&1
st date set 1 2026-12-10 --reason "vendor backports" >/dev/null 2>&1
st triage 1 --state fixing >/dev/null 2>&1
st triage 2 --consent credit >/dev/null 2>&1
st triage 2 --state triaged >/dev/null 2>&1
e2e_run 0 "date set report 2" date set 2 2026-12-07

# --- every format, against its golden file ------------------------------------
for f in md txt json csv ics; do
	e2e_run 0 "export 1 --format $f" export 1 --format $f -o "$tmp/r1.$f"
	grep -q "warning: report 1 is still under embargo" "$tmp/err"
	e2e_ok $? "export $f warns that report 1 is under embargo"
	golden "export-1.$f" "$tmp/r1.$f"
done
# No CVE record while under embargo: exit 1 naming the date, no file.
e2e_run 1 "export 1 --format cve under embargo is refused" export 1 --format cve --cve-id CVE-2026-12345 -o "$tmp/r1.cve.json"
grep -q "report 1 is under embargo until 2026-12-10T12:00:00Z: no CVE record before disclosure" "$tmp/err"
e2e_ok $? "the refusal names the disclosure date"
[ ! -e "$tmp/r1.cve.json" ]
e2e_ok $? "no file written under embargo"
export SECTEAM_TEST_NOW=2026-12-02T08:30:00Z
e2e_run 0 "export 2 --format md (credit consent)" export 2 --format md -o "$tmp/r2.md"
golden export-2.md "$tmp/r2.md"
e2e_run 0 "export --all --format csv" export --all --format csv -o "$tmp/all.csv"
e2e_run 0 "export --state fixing --format json" export --state fixing --format json
jq -e 'length == 1 and .[0].id == 1' "$tmp/out" >/dev/null 2>&1
e2e_ok $? "--state selects the reports in that state"
e2e_run 2 "export needs a format" export 1
e2e_run 2 "export refuses an unknown format" export 1 --format pdf
e2e_run 2 "export refuses a bad --cve-id" export 1 --format cve --cve-id CVE-26-1
e2e_run 1 "export of a missing report" export 9 --format md
# After both disclosure dates, once the officers have marked them
# disclosed (a passed date alone does not lift an embargo: embargo.c).
export SECTEAM_TEST_NOW=2026-12-11T08:00:00Z
e2e_run 1 "a passed date alone is not a disclosure" export 1 --format cve --cve-id CVE-2026-12345 -o "$tmp/r1.cve.json"
for s in fix-ready disclosed; do
	e2e_run 0 "report 1 marked $s" triage 1 --state $s
done
for s in accepted fixing fix-ready disclosed; do
	e2e_run 0 "report 2 marked $s" triage 2 --state $s
done
e2e_run 0 "export 1 --format cve" export 1 --format cve --cve-id CVE-2026-12345 -o "$tmp/r1.cve.json"
golden export-1.cve.json "$tmp/r1.cve.json"
e2e_run 1 "export 2 --format cve without a CVE ID is refused" export 2 --format cve -o "$tmp/r2.cve.json"
grep -q "report 2 has no CVE ID: no record without one" "$tmp/err" && ! grep -q CVE-0000 "$tmp/err"
e2e_ok $? "  naming the report, no placeholder ID"
[ ! -e "$tmp/r2.cve.json" ]
e2e_ok $? "  and writing no file"
e2e_run 0 "export 2 --format cve --cve-id (credit consent)" export 2 --format cve --cve-id CVE-2026-22222 -o "$tmp/r2.cve.json"
golden export-2.cve.json "$tmp/r2.cve.json"
grep -v org_id "$tmp/config" >"$tmp/config.noorg"
"$bin" --db "$DB" --gnupghome "$H" --config "$tmp/config.noorg" export 1 --format cve \
	--cve-id CVE-2026-12345 -o "$tmp/noorg.cve.json" >"$tmp/out" 2>"$tmp/err"
[ $? = 1 ] && grep -q "config cve.org_id is not set" "$tmp/err" && [ ! -e "$tmp/noorg.cve.json" ] &&
	! grep -q 00000000-0000 "$tmp/err"
e2e_ok $? "export --format cve without cve.org_id is refused, naming the key (no placeholder)"

# --- real parsers -----------------------------------------------------------
$py - "$tmp/r1.ics" >"$tmp/err" 2>&1 <<'PY'
import sys, icalendar
cal = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
ev = cal.walk("VEVENT")
assert len(ev) == 3, len(ev)
d = [e for e in ev if "disclosure" in str(e["UID"])][0]
assert str(d["UID"]) == "report-1-disclosure@security.example.org"
assert d.decoded("DTSTART").isoformat() == "2026-12-10T12:00:00+00:00"
al = d.walk("VALARM")
assert len(al) == 1 and al[0]["TRIGGER"].dt.days == -1, al
lim = sorted(str(e.decoded("DTSTART")) for e in ev if "policy" in str(e["UID"]))
assert lim == ["2026-12-08", "2026-12-15"], lim
PY
e2e_ok $? "python3-icalendar reads the ICS: disclosure, alarm the day before, policy limits"
mkdir -p "$tmp/calcurse"
HOME=$tmp/calcurse calcurse -D "$tmp/calcurse" -i "$tmp/r1.ics" >"$tmp/err" 2>&1 &&
	grep -q "1 app / 2 events" "$tmp/err" && ! grep -q "[1-9][0-9]* skipped" "$tmp/err"
e2e_ok $? "calcurse -i imports the disclosure and both policy limits"
$py - "$schema" "$tmp/r1.cve.json" "$tmp/r2.cve.json" >"$tmp/err" 2>&1 <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
cls = jsonschema.validators.validator_for(schema)
for f in sys.argv[2:]:
    cls(schema, format_checker=cls.FORMAT_CHECKER).validate(json.load(open(f)))
PY
e2e_ok $? "python3-jsonschema validates both CVE records against the schema"
$py - "$tmp/all.csv" >"$tmp/err" 2>&1 <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows[0] == ["report", "at", "officer", "kind", "detail"], rows[0]
assert len(rows) > 10 and all(len(r) == 5 for r in rows), rows
assert {r[0] for r in rows[1:]} == {"1", "2"}
PY
e2e_ok $? "Python's csv reads the CSV: a header and five fields a row"
jq -e '.[0] | .id == 1 and .reporter.withheld == true and .vendors[0].status == "affected" and .disclosure.date == "2026-12-10T12:00:00Z" and .embargoed == true' "$tmp/r1.json" >/dev/null 2>&1
e2e_ok $? "jq reads the JSON export"

# --- redaction ----------------------------------------------------------------
for f in md txt json csv ics cve.json; do
	! grep -qi -e rita -e "$REPORTER_FPR" "$tmp/r1.$f"
	e2e_ok $? "export $f of report 1 withholds the reporter (no consent)"
	! grep -qi "exploit\.c" "$tmp/r1.$f"
	e2e_ok $? "export $f of report 1 carries no exploit code or names"
done
grep -q '"value": "Rita Reporter"' "$tmp/r2.cve.json"
e2e_ok $? "the CVE record credits the reporter who consented"
grep -q "Rita Reporter" "$tmp/r2.md"
e2e_ok $? "the timeline names the reporter who consented"
! grep -q credits "$tmp/r1.cve.json"
e2e_ok $? "no credits without consent"

# --- the embargo warning ----------------------------------------------------
export SECTEAM_TEST_NOW=2026-12-11T10:00:00Z
st triage 1 --state fix-ready >/dev/null 2>&1
st triage 1 --state disclosed >/dev/null 2>&1
e2e_run 0 "export a disclosed report" export 1 --format txt
! grep -q "embargo" "$tmp/err"
e2e_ok $? "no embargo warning for a disclosed report"

# --- an already public report without a date: still a valid calendar ------
mail r3 "Public bug in mm" "Tue, 01 Dec 2026 10:00:00 +0000"
e2e_run 0 "import report 3" import "$tmp/r3.eml"
st triage 3 --state triaged --public >/dev/null 2>&1
st export 3 --format ics -o "$tmp/r3.ics" 2>/dev/null
/usr/bin/python3 - "$tmp/r3.ics" <<'PY'
import sys, icalendar
cal = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
ev = [c for c in cal.walk("VEVENT")]
assert len(ev) == 1, ev
assert "already public" in str(ev[0]["SUMMARY"]), ev[0]["SUMMARY"]
PY
e2e_ok $? "a public report with no date exports one event (the policy date: now)"

# --- libical is loaded when an export needs it, not at start --------------
# (export/ics.c): the program starts without it, and a libical.so.3 that
# is not libical is refused, named, with nothing written.
tap_unlike "$(ldd "$SECTEAM_BIN")" "libical" "the program is not linked to libical"
mkdir -p "$tmp/fakelib"
echo 'int not_libical(void) { return 0; }' >"$tmp/fakelib/f.c"
cc -shared -fPIC -o "$tmp/fakelib/libical.so.3" "$tmp/fakelib/f.c"
out=$(LD_LIBRARY_PATH=$tmp/fakelib st export 3 --format ics -o "$tmp/fake.ics" 2>&1); rc=$?
tap_is "$rc" 1 "a libical.so.3 that is not libical: exit 1" "$out"
tap_like "$out" "libical.so.3 has no icaltime_from_timet_with_zone: not the libical 3" "  naming the library and what it lacks"
tap_ok "$(test ! -e "$tmp/fake.ics"; echo $?)" "  and writing nothing"
out=$(LD_LIBRARY_PATH=$tmp/fakelib st export 3 --format md 2>&1); rc=$?
tap_is "$rc" 0 "the other formats do not need it" "$out"

tap_done
