#!/bin/sh
# engines: sqlite pg
# End to end: one report taken through the whole path, from import to
# its published advisory, with every format against its golden file in
# tests/golden/advisory-1.* (SECTEAM_UPDATE_GOLDEN=1 rewrites them).
# Time is pinned (SECTEAM_TEST_NOW) and the git tree's SHAs are fixed
# (tests/lib/gitrepo.sh); fingerprints and the officer are replaced by
# names.  Import; fix with the tree (introduced in v1.0, first in
# v1.1-rc1, backported to linux-1.0.y as v1.0.1); CVE-2026-12345 assigned,
# described in $EDITOR, CWE-416; disclosure date set.  Under embargo the
# CVE record, OSV and CSAF are refused (exit 1, the date named, no file).
# Disclosed: the CVE record is PUBLISHED with the kernel CNA's version
# ranges, validated by python3-jsonschema against the CVE 5 schema (and
# OSV against osv-schema.json, CSAF against the CSAF 2.0 schema with the
# FIRST CVSS schemas resolved offline), read back with jq; credits only
# with consent; writing the record leaves the ID reserved, `cve --publish`
# publishes it.  A second
# report's rejected ID gives a REJECTED record.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
. "$SECTEAM_TOP/tests/lib/gitrepo.sh"
e2e_setup advisory
golden=$SECTEAM_TOP/tests/golden
export TZ=UTC SECTEAM_TEST_NOW=2026-12-01T10:00:00Z
cat > "$T/config" <<'CFG'
[officer]
	name = olga
[team]
	domain = security.example.org
[cve]
	org_id = 6c8b7f1e-2a3d-4c5b-9e8f-0a1b2c3d4e5f
	reference_url = https://security.example.org/advisories/
[csaf]
	base_url = https://security.example.org/.well-known/csaf/white/
CFG
st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config" "$@"; }
validate() { /usr/bin/python3 "$SECTEAM_TOP/tests/lib/validate.py" "$@"; }
# The officer as md escapes it too (officer\_123 on PostgreSQL).
officer_md=$(printf '%s' "$E2E_OFFICER" | sed 's/_/\\\\_/g')
# The CVE record's x_generator names the program's version: VERSION.
version=$(cat "$SECTEAM_TOP/VERSION")
normalise() {
	sed -e "s/$REPORTER_FPR/REPORTER_FPR/g" -e "s/$OFFICER_FPR/OFFICER_FPR/g" \
		-e "s/\b$E2E_OFFICER\b/OFFICER/g" -e "s/\b$officer_md\b/OFFICER/g" \
		-e "s/\"secteam-tui-$version\"/\"secteam-tui-VERSION\"/" "$1"
}
golden() { # NAME FILE
	normalise "$2" > "$T/norm"
	[ "${SECTEAM_UPDATE_GOLDEN:-0}" = 1 ] && cp "$T/norm" "$golden/$1"
	d=$(diff -u "$golden/$1" "$T/norm" 2>&1)
	tap_ok $? "$1 matches its golden file" "$d"
}

G=$T/linux
gitrepo_make "$G" || { echo "Bail out! cannot build the git tree"; exit 1; }
rev() { git -C "$G" rev-parse "$1"; }
INTRO=$(rev v1.0) FIX=$(rev v1.1-rc1) BP=$(rev v1.0.1)

for i in 1 2; do
	mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
	   --to "$OFFICER_FPR" --subject "frobnicator overflow $i" \
	   --body "A heap overflow in net/core/frob.c, reachable by any user." \
	   --message-id "a$i@example.net" --date "Tue, 01 Dec 2026 09:0$i:00 +0000" > "$T/r$i.eml"
	st import "$T/r$i.eml" >/dev/null
done
st triage 1 --state triaged --severity high >/dev/null
st triage 1 --state accepted >/dev/null
st triage 1 --state fixing >/dev/null
st fix 1 --commit "$FIX" --introduced "$INTRO" --tree "$G" --stable linux-1.0.y >/dev/null
tap_is "$(st show 1 --json | jq -r '.fix.tag')" v1.1-rc1 "fix recorded with the tree"
st cve 1 --assign CVE-2026-12345 >/dev/null
cat > "$T/editor" <<'ED'
#!/bin/sh
printf 'In the Linux kernel, the frobnicator did not check a length,\nso a local user could overflow a heap buffer.\n' > "$1"
ED
chmod +x "$T/editor"
EDITOR="$T/editor" VISUAL= st cve 1 --description >/dev/null
st cve 1 --cwe CWE-787 >/dev/null
st date set 1 2026-12-05 >/dev/null
st triage 1 --state fix-ready >/dev/null

# Under embargo: no record of any kind.
for f in cve osv csaf; do
	out=$(st export 1 --format $f -o "$T/early.$f" 2>&1); rc=$?
	tap_is "$rc" 1 "export --format $f under embargo exits 1"
	tap_like "$out" "report 1 is under embargo until 2026-12-05T12:00:00Z" "  naming the disclosure date"
	[ ! -e "$T/early.$f" ]; tap_ok $? "  and writes no file"
done
out=$(st cve 1 --publish 2>&1); rc=$?
tap_is "$rc" 1 "cve --publish under embargo exits 1" "$out"
tap_like "$out" "report 1 is under embargo until 2026-12-05T12:00:00Z" "  naming the disclosure date"
tap_is "$(st show 1 --json | jq -r .cve.state)" reserved "the ID stays reserved"
tap_unlike "$(st due --within 0s 2>&1)" "but not published" "due: nothing about the CVE before disclosure"
st triage 1 --note "internal: the reporter is touchy about credit" >/dev/null
st export 1 --format md -o "$T/early.md" 2>/dev/null
tap_unlike "$(cat "$T/early.md")" "## Advisory" "md: no advisory section under embargo"
tap_unlike "$(cat "$T/early.md")" "touchy" "md: no internal note without --with-notes"
st export 1 --format md --with-notes -o "$T/early.md" 2>/dev/null
tap_like "$(cat "$T/early.md")" "touchy" "md: the note with --with-notes"

# Disclosed (the date passed and the state says so).
export SECTEAM_TEST_NOW=2026-12-05T13:00:00Z
st triage 1 --state disclosed >/dev/null
tap_like "$(st due 2>&1)" "^#1 CVE-2026-12345 reserved and the report disclosed, but not published \(export --format cve writes the record, cve 1 --publish records it\): frobnicator overflow 1$" \
	"due: the disclosed report's reserved ID has no record"
tap_is "$(st due --json | jq -r '[.items[] | select(.kind == "cve-unpublished") | .report] | join(",")')" 1 "due --json: kind cve-unpublished"
st export 1 --format cve -o "$T/nocredit.cve.json" 2>/dev/null
tap_is "$(jq 'has("containers") and (.containers.cna | has("credits") | not)' "$T/nocredit.cve.json")" true \
	"no credits without the reporter's consent"
tap_like "$(st export 1 --format md 2>/dev/null)" 'Credit:\*\* withheld \(no consent to credit\)' "md advisory: credit withheld without consent"
tap_is "$(st show 1 --json | jq -r .cve.state)" reserved "writing the record is writing a file: the ID stays reserved"
tap_like "$(st due 2>&1)" "but not published" "due: still, until it is published"
out=$(st cve 1 --publish 2>&1)
tap_like "$out" "^report 1: CVE-2026-12345 published$" "cve --publish says which ID" "$out"
tap_is "$(st show 1 --json | jq -r .cve.state)" published "cve --publish published the ID"
tap_unlike "$(st due 2>&1)" "but not published" "due: no longer once it is published"
st triage 1 --consent credit >/dev/null
for f in md txt json csv ics cve dyad osv csaf; do
	ext=$f; [ $f = cve ] || [ $f = osv ] || [ $f = csaf ] && ext=$f.json
	st export 1 --format $f -o "$T/a.$ext" 2>"$T/err"
	tap_ok $? "export --format $f after disclosure" "$(cat "$T/err")"
	golden "advisory-1.$ext" "$T/a.$ext"
done

tap_like "$(cat "$T/a.md")" '## Advisory' "md: an advisory section once disclosed"
tap_like "$(cat "$T/a.md")" "Affected:\*\* from 1.0 until 1.1-rc1; fixed in 1.0.1 \(linux-1.0.y\)" "md advisory: the affected versions"
tap_unlike "$(cat "$T/a.md")" "touchy" "md: still no internal note"

# The CVE record, read back.
r=$T/a.cve.json
v=$(validate "$SCHEMAS/CVE_Record_Format_bundled.json" "$r" "$T/nocredit.cve.json" 2>&1)
tap_ok $? "python3-jsonschema validates the CVE records" "$v"
tap_is "$(jq -r '.cveMetadata.cveId + " " + .cveMetadata.state' "$r")" "CVE-2026-12345 PUBLISHED" "PUBLISHED under the assigned ID"
tap_is "$(jq -c '[.containers.cna.affected[0].versions[] | [.version, .lessThan, .versionType]]' "$r")" \
	"[[\"$INTRO\",\"$FIX\",\"git\"],[\"$INTRO\",\"$BP\",\"git\"]]" "git ranges: introduced, lessThan the fix and the backport (a pair per branch)"
tap_is "$(jq -c '[.containers.cna.affected[1].versions[] | [.version, .status, (.lessThan // .lessThanOrEqual // null), (.versionType // null)]]' "$r")" \
	'[["1.0","affected",null,null],["0","unaffected","1.0","semver"],["1.0.1","unaffected","1.0.*","semver"],["1.1","unaffected","*","original_commit_for_fix"]]' \
	"tag versions as the kernel CNA writes them (the release the fix is first in, not its -rc)"
tap_is "$(jq -r '.containers.cna.affected[1].defaultStatus' "$r")" affected "defaultStatus affected for the versions"
tap_is "$(jq -r '[.containers.cna.affected[].repo] | unique | join(" ")' "$r")" \
	"https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git" "the repository that holds the backport: the stable tree"
tap_is "$(jq -r '.containers.cna.title' "$r")" "net: fix the frobnicator overflow" "the title is the fix commit's subject"
tap_is "$(jq -c '.containers.cna.cpeApplicability[0].nodes[0] | [.operator, .negate, [.cpeMatch[] | [.vulnerable, .criteria, .versionStartIncluding, .versionEndExcluding]]]' "$r")" \
	'["OR",false,[[true,"cpe:2.3:o:linux:linux_kernel:*:*:*:*:*:*:*:*","1.0","1.0.1"]]]' "cpeApplicability: the kernel's CPE, from 1.0 until the backport's 1.0.1"
tap_is "$(jq -r '.containers.cna.x_generator.engine' "$r")" "secteam-tui-$version" "x_generator names the program"
tap_is "$(jq -r '[.containers.cna.references[].url] | join(" ")' "$r")" \
	"https://git.kernel.org/stable/c/$BP https://git.kernel.org/stable/c/$FIX https://security.example.org/advisories/CVE-2026-12345" \
	"references: the fix commits, then the advisory"
tap_like "$(jq -r '.containers.cna.descriptions[0].value' "$r")" '^In the Linux kernel, the frobnicator did not check a length,' "the officer's description"
tap_is "$(jq -r '.containers.cna.problemTypes[0].descriptions[0] | .cweId + " " + .description' "$r")" \
	"CWE-787 CWE-787 Out-of-bounds Write" "the CWE, with its catalogue name"
tap_is "$(jq -r '.containers.cna.credits[0].value' "$r")" "Rita Reporter" "credits with consent"
tap_is "$(jq -r '.containers.cna.datePublic' "$r")" 2026-12-05T13:00:00Z "datePublic is when it was disclosed (not the decided date)"

# OSV, read back.
o=$T/a.osv.json
v=$(validate "$SCHEMAS/osv-schema.json" "$o" 2>&1)
tap_ok $? "python3-jsonschema validates the OSV record" "$v"
tap_is "$(jq -r '.id + " " + .published' "$o")" "CVE-2026-12345 2026-12-05T13:00:00Z" "OSV: the CVE ID, published at disclosure"
tap_is "$(jq -c '.affected[0].ranges[] | select(.type == "GIT") | .events' "$o")" \
	"[{\"introduced\":\"$INTRO\"},{\"fixed\":\"$FIX\"},{\"fixed\":\"$BP\"}]" "OSV: GIT range, introduced and both fixes"
tap_is "$(jq -r '.affected[].ranges[] | select(.type == "GIT") | .repo' "$o")" \
	"https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git" "OSV: the GIT range names the stable tree, which holds the backport"
tap_is "$(jq -c '[.affected[] | select(.package) | .ranges[] | select(.type == "ECOSYSTEM") | .events]' "$o")" \
	'[[{"introduced":"1.0.0"},{"fixed":"1.0.1"}]]' "OSV: one ECOSYSTEM range, 1.0 written 1.0.0, ending at the backport (1.0.2 and 1.1 not affected)"
tap_is "$(jq -c '[.affected[] | has("package")]' "$o")" '[false,true]' "OSV: the GIT range without a package, as osv.dev writes Linux entries"
tap_is "$(jq -r '[.references[] | .type] | join(",")' "$o")" "FIX,FIX,ADVISORY" "OSV: the fix commits as FIX references"
tap_is "$(jq -r '.credits[0].name + " " + .credits[0].type' "$o")" "Rita Reporter FINDER" "OSV: credits with consent"

# CSAF, read back.
c=$T/a.csaf.json
v=$(validate "$CSAF_SCHEMA" "$c" 2>&1)
tap_ok $? "python3-jsonschema validates the CSAF advisory (FIRST schemas offline)" "$v"
tap_is "$(jq -r '.document.category + " " + .document.tracking.id' "$c")" "csaf_security_advisory CVE-2026-12345" "CSAF: a security advisory for the CVE"
tap_is "$(jq -c '.vulnerabilities[0].product_status' "$c")" \
	'{"fixed":["linux-versions-3"],"known_affected":["linux-versions-2"],"known_not_affected":["linux-versions-1"]}' "CSAF: every version named: known_not_affected, known_affected, fixed"
tap_is "$(jq -r '[.product_tree.branches[0].branches[0].branches[].name] | join(",")' "$c")" \
	"vers:generic/<1.0,vers:generic/>=1.0|<1.0.1,vers:generic/>=1.0.1" "CSAF: the version ranges in the product tree"
tap_is "$(jq -r '.vulnerabilities[0].cwe | .id + " " + .name' "$c")" "CWE-787 Out-of-bounds Write" "CSAF: the CWE's catalogue name"
tap_is "$(jq -r '.document.distribution.tlp.label' "$c")" WHITE "CSAF: TLP CLEAR by default (CSAF 2.0 calls it WHITE)"
tap_is "$(jq -r '.document.aggregate_severity.text' "$c")" high "CSAF: aggregate_severity from the triage severity"
tap_is "$(jq -r '.document.publisher.category' "$c")" coordinator "CSAF: publisher category coordinator by default"
tap_is "$(jq -r '.vulnerabilities[0].title' "$c")" "net: fix the frobnicator overflow" "CSAF: the vulnerability's title, the CVE record's"
printf '[csaf]\n\tpublisher_category = vendor\n' > "$T/config.cat"
cat "$T/config" "$T/config.cat" > "$T/config.vendor"
tap_is "$("$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config.vendor" export 1 --format csaf 2>/dev/null | jq -r '.document.publisher.category')" \
	vendor "CSAF: publisher category from config csaf.publisher_category"
printf '[csaf]\n\tpublisher_category = boss\n' > "$T/config.cat"
cat "$T/config" "$T/config.cat" > "$T/config.bad"
out=$("$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config.bad" export 1 --format csaf 2>&1); rc=$?
tap_is "$rc" 1 "CSAF: an unknown publisher category is refused"
tap_like "$out" "csaf.publisher_category 'boss' is no CSAF 2.0 publisher category" "  naming the key and the value"
tap_is "$(jq -r '.document.references[] | select(.category == "self") | .url' "$c")" \
	"https://security.example.org/.well-known/csaf/white/cve-2026-12345.json" "CSAF: the canonical URL from csaf.base_url"
v=$(node "$SECTEAM_TOP/tests/lib/csaf-validate.mjs" --allow 6.2.3 "$c" 2>&1)
tap_ok $? "csaf-validator-lib: every mandatory test passes, and every recommended one but 6.2.3 (no CVSS score is recorded)" "$v"
tap_like "$v" "0 mandatory errors, 1 recommended warnings \(1 allowed\)" "  the one warning is 6.2.3's"
# The golden records read by the semantic checker too: every tag of the
# tree as git ancestry gives it, by each record's own rules.
sem=$(/usr/bin/python3 "$SECTEAM_TOP/tests/lib/records-semantics.py" "$G" "$INTRO" "$FIX" "$BP" \
	-- "$golden/advisory-1.cve.json" "$golden/advisory-1.osv.json" "$golden/advisory-1.csaf.json" 2>&1)
tap_ok $? "the golden CVE, OSV and CSAF records give every tag its verdict by git ancestry" "$(printf '%s\n' "$sem" | grep -v '^ok')"
tap_is "$(jq -r '.vulnerabilities[0].remediations[0] | .category + " " + .url' "$c")" \
	"vendor_fix https://git.kernel.org/stable/c/$FIX" "CSAF: the remediation points at the fix commit"
tap_is "$(jq -r '.document.tracking.revision_history[0] | .number + " " + .date' "$c")" "1 2026-12-05T13:00:00Z" "CSAF: revision 1 at disclosure"
tap_is "$(jq -r '.document.acknowledgments[0].names[0]' "$c")" "Rita Reporter" "CSAF: acknowledgments with consent"

# A later change to the fix is a new revision of the CSAF advisory.
export SECTEAM_TEST_NOW=2026-12-06T09:00:00Z
st fix 1 --commit "$FIX" --introduced "$INTRO" --tree "$G" --stable linux-1.0.y >/dev/null
tap_is "$(st export 1 --format csaf | jq -r '.document.tracking | .version + " " + .current_release_date + " " + .revision_history[1].summary')" \
	"2 2026-12-06T09:00:00Z Updated: fix" "CSAF: the timeline's later change is revision 2"

# A public report without fix or CVE ID: no OSV record (its id would be
# no registered database's, its ranges empty); a CSAF advisory with the
# kernel known affected and no fix available.
st triage 2 --public >/dev/null
out=$(st export 2 --format osv -o "$T/b.osv.json" 2>&1); rc=$?
tap_is "$rc" 1 "OSV of a report without a CVE ID is refused"
tap_like "$out" "report 2 has no CVE ID: an OSV record's id is its CVE ID" "  saying why"
[ ! -e "$T/b.osv.json" ]; tap_ok $? "  and writes no file"
out=$(st export 2 --format cve -o "$T/b.cve.json" 2>&1); rc=$?
tap_is "$rc" 1 "a CVE record of a report without a CVE ID is refused (no CVE-0000-0000)"
tap_like "$out" "report 2 has no CVE ID: no record without one" "  saying why"
[ ! -e "$T/b.cve.json" ]; tap_ok $? "  and writes no file"
st export 2 --format csaf -o "$T/b.csaf.json" 2>/dev/null
tap_ok $? "CSAF of a report without fix or CVE ID"
tap_is "$(jq -c '.vulnerabilities[0].product_status' "$T/b.csaf.json")" '{"known_affected":["linux"]}' "CSAF: the kernel, versions unknown, known affected"
tap_is "$(jq -r '.vulnerabilities[0].remediations[0].category' "$T/b.csaf.json")" none_available "CSAF: no fix available, said as a remediation"
v=$(validate "$CSAF_SCHEMA" "$T/b.csaf.json" 2>&1 &&
	node "$SECTEAM_TOP/tests/lib/csaf-validate.mjs" --allow 6.2.3 "$T/b.csaf.json" 2>&1)
tap_ok $? "it validates (schema, csaf-validator-lib)" "$v"
st cve 2 --assign CVE-2026-22222 >/dev/null
out=$(st export 2 --format osv -o "$T/b.osv.json" 2>&1); rc=$?
tap_is "$rc" 1 "OSV of a report with a CVE ID but no fix is refused"
tap_like "$out" "report 2 has no fix recorded: an OSV record needs the affected versions" "  saying why"
# A rejected ID gives a REJECTED record.
st cve 2 --reject --reason "duplicate of CVE-2026-12345" >/dev/null
st export 2 --format cve -o "$T/rej.cve.json" 2>"$T/err"
tap_ok $? "export of a rejected ID" "$(cat "$T/err")"
tap_is "$(jq -r '.cveMetadata.state + " " + .containers.cna.rejectedReasons[0].value' "$T/rej.cve.json")" \
	"REJECTED duplicate of CVE-2026-12345" "REJECTED with its reason"
v=$(validate "$SCHEMAS/CVE_Record_Format_bundled.json" "$T/rej.cve.json" 2>&1)
tap_ok $? "the REJECTED record validates" "$v"
tap_done
