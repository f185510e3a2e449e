#!/bin/sh
# engines: sqlite pg
# End to end: a report's CVE lifecycle.  `cve ID --assign` reserves an
# ID, a second --assign a second one (a report may have
# several; the same ID again is refused), `--reject --reason` rejects
# one (`--id` naming which when several are live), `--drop` takes one
# recorded by mistake back, `--description` takes the record's description from
# $EDITOR (a script here: it appends to the file it is given, so the
# second run shows it starts from the current text), `--cwe` the CWE.
# Each change is an event; show, show --json, list and list --json carry
# the ID and state; list.fix_cve = false hides the list's column.  Bad
# IDs and moves the lifecycle does not allow are refused, nothing stored.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup cve
: > "$T/config"
st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config" "$@"; }
ncve() { st show 1 --json | jq '[.events[] | select(.kind | startswith("cve-"))] | length'; }

mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
   --to "$OFFICER_FPR" --subject "frobnicator overflow" --body "overflow in net/core/frob.c" \
   --message-id "c1@example.net" > "$T/r1.eml"
st import "$T/r1.eml" >/dev/null
tap_is "$(st show 1 --json | jq -c .cve)" null "no CVE before cve is run"
tap_like "$(st list)" '^1 .* -/- +frobnicator overflow$' "list: FIX/CVE column empty"

out=$(st cve 1 --assign CVE-2026-12 2>&1); rc=$?
tap_is "$rc" 2 "a malformed CVE ID is a usage error"
tap_like "$out" "cve --assign 'CVE-2026-12': not a CVE ID" "naming it"
out=$(st cve 1 --reject --reason "dup" 2>&1); rc=$?
tap_is "$rc" 1 "rejecting without an ID is refused"
tap_like "$out" "report 1 has no CVE ID to reject" "saying so"
out=$(st cve 1 --reject 2>&1); rc=$?
tap_is "$rc" 2 "--reject without --reason is a usage error"
tap_is "$(ncve)" 0 "nothing recorded by the refused commands"

out=$(st cve 1 --assign CVE-2026-12345 2>&1); rc=$?
tap_is "$rc" 0 "cve --assign exits 0"
tap_is "$out" "report 1: CVE-2026-12345 reserved" "and says so"
j=$(st show 1 --json)
tap_is "$(printf '%s' "$j" | jq -r '.cve.id + " " + .cve.state')" "CVE-2026-12345 reserved" "show --json: id and state reserved"
tap_is "$(printf '%s' "$j" | jq -r '.events[-1].kind + " " + .events[-1].detail + " " + .events[-1].officer')" \
	"cve-assign CVE-2026-12345 $E2E_OFFICER" "an event by the officer"
tap_like "$(st show 1)" 'CVE +CVE-2026-12345 \(reserved\)' "show: CVE line"
tap_like "$(st list)" '^1 .* -/CVE-2026-12345:reserved +frobnicator overflow$' "list: the CVE column"
tap_is "$(st list --json | jq -r '.[0].cve.id + " " + .[0].cve.state')" "CVE-2026-12345 reserved" "list --json: id and state"
out=$(st cve 1 --assign CVE-2026-12345 2>&1); rc=$?
tap_is "$rc" 1 "the same ID again is refused"
tap_like "$out" "already has CVE-2026-12345 \(reserved\)" "naming the one it has"
out=$(st cve 1 --assign CVE-2026-99999 2>&1); rc=$?
tap_is "$rc" 0 "a second ID while one is reserved is added"
tap_is "$(st show 1 --json | jq -r '.events[-1].kind + " " + .events[-1].detail')" \
	"cve-add CVE-2026-99999" "  as a cve-add event"
tap_is "$(st show 1 --json | jq -c '[.cves[] | [.id, .state]]')" \
	'[["CVE-2026-12345","reserved"],["CVE-2026-99999","reserved"]]' "show --json: both IDs"
tap_like "$(st show 1)" 'CVE +CVE-2026-99999 \(reserved\)' "show: a CVE line each"
tap_like "$(st list)" '^1 .* -/CVE-2026-12345:reserved,CVE-2026-99999:reserved +frobnicator overflow$' "list: both in the column"
tap_is "$(st list --json | jq -r '[.[0].cves[].id] | join(" ")')" "CVE-2026-12345 CVE-2026-99999" "list --json: both"
out=$(st cve 1 --assign CVE-2026-30000 --fix 0123abcd 2>&1); rc=$?
tap_is "$rc" 1 "an ID for a fix the report does not have is refused"
tap_like "$out" "cve --fix '0123abcd': no fix of report 1 has this SHA \(it has none\)" "  naming it"
out=$(st cve 1 --drop CVE-2026-30000 2>&1); rc=$?
tap_is "$rc" 1 "dropping an ID the report does not have is refused"
tap_like "$out" "report 1 has no CVE-2026-30000 to drop" "  naming it"

# The description through $EDITOR.
cat > "$T/editor" <<'ED'
#!/bin/sh
printf 'In the frobnicator, a length was not checked.\n' >> "$1"
ED
chmod +x "$T/editor"
out=$(EDITOR="$T/editor" VISUAL= st cve 1 --description 2>&1); rc=$?
tap_is "$rc" 0 "cve --description exits 0"
tap_is "$(st show 1 --json | jq -r .cve.description)" "In the frobnicator, a length was not checked." "the editor's text is the description"
EDITOR="$T/editor" VISUAL= st cve 1 --description >/dev/null 2>&1
tap_is "$(st show 1 --json | jq -r .cve.description | wc -l)" 2 "the editor starts from the current description"
out=$(EDITOR=false VISUAL= st cve 1 --description 2>&1); rc=$?
tap_is "$rc" 1 "a failing editor records nothing (exit 1)"
tap_like "$out" "the editor 'false' failed" "saying so"
out=$(EDITOR=true VISUAL= st cve 2 --description 2>&1); rc=$?
tap_is "$rc" 1 "a report that does not exist is refused"
st cve 1 --cwe CWE-787 >/dev/null
tap_is "$(st show 1 --json | jq -r .cve.cwe)" CWE-787 "cve --cwe recorded"
out=$(st cve 1 --cwe 787 2>&1); rc=$?
tap_is "$rc" 2 "a malformed CWE is a usage error"
for w in CWE-99999 CWE-399; do
	out=$(st cve 1 --cwe $w 2>&1); rc=$?
	tap_is "$rc" 2 "cve --cwe $w (no weakness of the CWE catalogue) is refused"
	tap_like "$out" "cve --cwe '$w': no weakness with this ID in the CWE catalogue" "  naming the ID"
done
tap_is "$(st show 1 --json | jq -r .cve.cwe)" CWE-787 "  and the recorded CWE stays"

# Rejection (which one, with two live), a drop, then a new ID.
out=$(st cve 1 --reject --reason "duplicate of CVE-2026-11111" 2>&1); rc=$?
tap_is "$rc" 1 "--reject with two live IDs and no --id is refused"
tap_like "$out" "report 1 has 2 CVE IDs: name the one to reject \(--id CVE-YYYY-NNNN\)" "  saying so"
out=$(st cve 1 --reject --id CVE-2026-12345 --reason "duplicate of CVE-2026-11111" 2>&1); rc=$?
tap_is "$rc" 0 "cve --reject --id exits 0"
j=$(st show 1 --json)
tap_is "$(printf '%s' "$j" | jq -r '.cve.state + ": " + .cve.reason')" "rejected: duplicate of CVE-2026-11111" "state rejected, with the reason"
tap_is "$(printf '%s' "$j" | jq -r '.cves[1].state')" reserved "  the other one still reserved"
tap_like "$(st list)" 'CVE-2026-12345:rejected' "list: rejected"
out=$(st cve 1 --drop CVE-2026-99999 2>&1); rc=$?
tap_is "$rc:$out" "0:report 1: CVE-2026-99999 dropped" "cve --drop takes an ID back"
tap_like "$(st list)" '^1 .* -/CVE-2026-12345:rejected +frobnicator overflow$' "  gone from the list"
st cve 1 --assign CVE-2026-20000 >/dev/null
tap_is "$(st show 1 --json | jq -r '.cves[-1].id + " " + .cves[-1].state')" "CVE-2026-20000 reserved" "a new ID after a rejection"
tap_is "$(st show 1 --json | jq -r '.cves[0].id + " " + .cves[0].state')" "CVE-2026-12345 rejected" "  the rejected one stays, rejected"
out=$(st cve 1 --reject --reason "not a bug" 2>&1); rc=$?
tap_is "$rc" 0 "with one live ID --reject needs no --id"
tap_is "$(st show 1 --json | jq -r '[.cves[].state] | join(" ")')" "rejected rejected" "  and rejects that one"
tap_is "$(st show 1 --json | jq -r '[.events[] | select(.kind | startswith("cve-")) | .kind] | join(" ")')" \
	"cve-assign cve-add cve-description cve-description cve-cwe cve-reject-id cve-drop cve-add cve-reject" \
	"each change one event"

printf '[list]\n\tfix_cve = false\n' > "$T/config"
tap_like "$(st list)" '^1 .* - +frobnicator overflow$' "list.fix_cve = false hides the column"
tap_unlike "$(st list)" 'CVE-2026' "no CVE ID in the hidden column"
tap_done
