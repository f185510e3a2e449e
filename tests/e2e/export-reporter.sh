#!/bin/sh
# engines: sqlite pg
# End to end: without credit consent no export (md, txt, json, csv, ics,
# cve) holds any name, address, domain, Message-ID or key of the
# reporter: not the name before an address, not the domain alone, not
# the reporter's second address on a reply signed by the same key, not
# the Message-IDs (or the hosts in them) of the reporter's messages.
# Internal notes are in no export unless --with-notes, and then still
# redacted.  With credit consent the reporter is named (so the greps
# below can fail).
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup export-reporter
export SECTEAM_OFFICER=olga
# A CVE record names its CNA (cve.org_id) and its CVE ID.
printf '[cve]\n\torg_id = 6c8b7f1e-2a3d-4c5b-9e8f-0a1b2c3d4e5f\n' >"$T/config"
st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config" "$@"; }
# The first address holds the name (jdoe <jdoe@...>); the reply comes
# from another address with a full name, signed by the same key.
R1="zquixxotl <zquixxotl@acme-secret-9f.io>"
R2="Zebulon Quixxotl <zebulon.q@othermail-4c.example>"
mk --kind encrypted-signed --from "$R1" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
	--subject "UAF in net/sched found by $R1" \
	--body "Hello, the bug is in net/sched/sch_api.c." \
	--message-id "zq-20261201.1@mx.acme-secret-9f.io" >"$T/r1.eml"
mk --kind encrypted-signed --from "$R2" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
	--subject "Re: UAF in net/sched" --body "From my other address." \
	--message-id "r2.x@zebulon-laptop.lan-7d.example" \
	--in-reply-to "zq-20261201.1@mx.acme-secret-9f.io" >"$T/r2.eml"
mk --kind encrypted-signed --from "Mia Maintainer <mia@example.org>" --sign-as "$MAINTAINER_FPR" \
	--to "$OFFICER_FPR" --subject "Re: UAF in net/sched" --body "Looking at it." \
	--message-id "mia-1@maint.example.org" --in-reply-to "r2.x@zebulon-laptop.lan-7d.example" >"$T/r3.eml"
out=$(st import "$T/r1.eml" "$T/r2.eml" "$T/r3.eml"); rc=$?
tap_is "$rc:$(printf '%s\n' "$out" | cut -f 1 | sort -u | tr '\n' ' ')" "0:1 " \
	"a report, a reply from the reporter's other address, a maintainer's reply"
st cve 1 --assign CVE-2026-12345 >/dev/null
st triage 1 --state triaged --note "NOTE-CANARY-71 phoned Zebulon Quixxotl at zquixxotl@acme-secret-9f.io" >/dev/null
st vendor add Acme --contact sec@acme.example >/dev/null
st vendor notify 1 Acme >/dev/null
st vendor status 1 Acme --note "VNOTE-CANARY-72 Acme knows Zebulon" >/dev/null
st date propose 1 "$(date -u -d '+5 days' +%F)" --by reporter \
	--reason "Zebulon (zebulon.q@othermail-4c.example) needs time" >/dev/null
st date set 1 "$(date -u -d '+5 days' +%F)" >/dev/null

# Each string names the reporter; none may be in any export.
set -- "zquixxotl" "Zebulon" "Quixxotl" "acme-secret-9f.io" \
	"zebulon.q@othermail-4c.example" "othermail-4c.example" \
	"zq-20261201.1" "r2.x@" "zebulon-laptop" "lan-7d.example" "$REPORTER_FPR"
export_all() { # SUFFIX [OPTIONS...]
	_s=$1; shift
	for f in md txt json csv ics cve; do
		# A CVE record only after disclosure: read it a year on.
		( [ "$f" != cve ] || export SECTEAM_TEST_NOW=2027-12-01T00:00:00Z
		  st export 1 --format "$f" "$@" -o "$T/e$_s.$f" 2>"$T/err" ) ||
			tap_ok 1 "export --format $f $*" "$(cat "$T/err")"
	done
}
# Disclosed (the CVE record exists only then), so the md and txt exports
# carry their advisory section too.
for s in accepted fixing fix-ready; do
	st triage 1 --state $s >/dev/null || tap_ok 1 "report 1 marked $s"
done
st triage 1 --state disclosed --early --reason "the fix went public" >/dev/null ||
	tap_ok 1 "report 1 marked disclosed (early)"
export_all ""
export_all n --with-notes
for f in md txt json csv ics cve; do
	for s in "" n; do
		leaks=""
		for needle; do
			grep -qiF -- "$needle" "$T/e$s.$f" && leaks="$leaks '$needle'"
		done
		tap_is "$leaks" "" "export --format $f${s:+ --with-notes}: nothing names the reporter"
	done
done
tap_like "$(cat "$T/e.json")" '"message_id": "mia-1@maint.example.org"' \
	"the maintainer's Message-ID stays in the JSON"
tap_like "$(cat "$T/e.md")" 'reply from \\\[reporter\\\]' "the reply from the other address reads [reporter]"

# Notes: only with --with-notes.
for f in md txt json csv; do
	tap_is "$(grep -c -e NOTE-CANARY-71 -e VNOTE-CANARY-72 "$T/e.$f")" 0 \
		"export --format $f leaves the notes out"
	tap_is "$(grep -o -e NOTE-CANARY-71 -e VNOTE-CANARY-72 "$T/en.$f" | sort -u | tr '\n' ' ')" \
		"NOTE-CANARY-71 VNOTE-CANARY-72 " "export --format $f --with-notes has both notes"
done

# Credit consent: now the reporter is named.
st triage 1 --consent credit >/dev/null
st export 1 --format md -o "$T/c.md" 2>/dev/null
tap_like "$(cat "$T/c.md")" 'zquixxotl \\<zquixxotl@acme-secret-9f.io\\>' "with credit consent the reporter is named"
st export 1 --format json -o "$T/c.json" 2>/dev/null
tap_like "$(cat "$T/c.json")" '"message_id": "zq-20261201.1@mx.acme-secret-9f.io"' \
	"and the JSON keeps the reporter's Message-ID"

out=$(st export 1 2>&1); rc=$?
tap_is "$rc" 2 "export without a format: usage error"
tap_like "$out" '^usage: secteam-tui export .*\[--with-notes\]' "the usage line names --with-notes"
tap_done
