#!/bin/sh
# engines: sqlite
# The public records read by their own formats' rules: a
# test tree with mainline tags, two stable branches, a fix that lands in
# an -rc and its backport to both; for every tag, whether the CVE
# record (git ranges, and the versions with defaultStatus and
# cpeApplicability for releases), the OSV record (GIT and ECOSYSTEM
# ranges, a version affected when any range says so) and the CSAF
# advisory (its known_affected ranges) say "affected" must equal the
# truth from git ancestry: the tag holds the introducing commit and
# neither the fix nor a backport (tests/lib/records-semantics.py).  The
# records are also read back by their schemas and the CSAF validator.
#   master:      v0.9 - "net: add the frobnicator" v1.0 - v1.1-rc1 - v1.1
#                - the fix v1.2-rc1 - v1.2-rc2 - v1.2 - v1.3-rc1
#   linux-1.0.y: from v1.0: v1.0.1 - the backport v1.0.2 - v1.0.3
#   linux-1.1.y: from v1.1: v1.1.1 - the backport v1.1.2 - v1.1.3
# then a follow-up fix (several fixes per report):
#   master:      ... v1.3-rc1 - the follow-up v1.3-rc2 - v1.3
#   linux-1.0.y, linux-1.1.y: its backports v1.0.4, v1.1.4
# Report 1 has the first fix only.  Report 2 has both (`fix --add`) and
# two CVE IDs: CVE-2026-30002 covers both fixes (the default), so by the
# kernel CNA's rule a tag is fixed only once it holds both (v1.0.2 and
# v1.2 stay affected), CVE-2026-30003 (`cve --assign --fix`) the
# follow-up only.  The follow-up is recorded without an introducing
# commit: the bug's are those any fix names (v1.0's), so CVE-2026-30002
# starts at v1.0 for both; CVE-2026-30003 knows none, so every tag
# without the follow-up is affected (the truth's INTRO: the first
# commit).  Each record is checked against git ancestry the same way,
# the truth given the fix groups it covers.
# One engine: the store plays no part in what the records say.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup records-semantics
export TZ=UTC SECTEAM_TEST_NOW=2026-12-01T10:00:00Z
cat > "$T/config" <<'CFG'
[team]
	domain = security.example.org
[cve]
	org_id = 6c8b7f1e-2a3d-4c5b-9e8f-0a1b2c3d4e5f
	reference_url = https://security.example.org/advisories/
[csaf]
	base_url = https://security.example.org/.well-known/csaf/white/
CFG
st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config" "$@"; }

G=$T/linux
(
	set -e
	export GIT_AUTHOR_NAME=Dev GIT_AUTHOR_EMAIL=dev@example.org \
		GIT_COMMITTER_NAME=Dev GIT_COMMITTER_EMAIL=dev@example.org \
		GIT_CONFIG_NOSYSTEM=1 HOME=$G.home
	mkdir -p "$G" "$G.home"; cd "$G"
	day=0
	c() { # MESSAGE [TAG]: a commit a day later than the last
		day=$((day + 1))
		d=$(printf '2026-02-%02dT00:00:00 +0000' $day)
		GIT_AUTHOR_DATE=$d GIT_COMMITTER_DATE=$d git commit -q --allow-empty -m "$1" ${2:+-m "$2"}
	}
	git init -q -b master .
	c "initial"; git tag v0.9
	c "net: add the frobnicator"; git tag v1.0
	git branch linux-1.0.y
	c "mm: unrelated"; git tag v1.1-rc1
	c "more work"; git tag v1.1
	git branch linux-1.1.y
	git checkout -q linux-1.0.y; c "stable: unrelated 1.0"; git tag v1.0.1
	git checkout -q linux-1.1.y; c "stable: unrelated 1.1"; git tag v1.1.1
	git checkout -q master
	c "net: fix the frobnicator overflow"; fix=$(git rev-parse HEAD); git tag v1.2-rc1
	c "rc2 work"; git tag v1.2-rc2
	c "release"; git tag v1.2
	c "next work"; git tag v1.3-rc1
	for b in 1.0 1.1; do
		git checkout -q linux-$b.y
		c "net: fix the frobnicator overflow" "commit $fix upstream."; git tag v$b.2
		c "stable: more $b"; git tag v$b.3
	done
	git checkout -q master
	c "net: frobnicator: check the tail too" "Fixes: $fix"; fix2=$(git rev-parse HEAD); git tag v1.3-rc2
	c "release 1.3"; git tag v1.3
	for b in 1.0 1.1; do
		git checkout -q linux-$b.y
		c "net: frobnicator: check the tail too" "commit $fix2 upstream."; git tag v$b.4
	done
	git checkout -q master
) || { echo "Bail out! cannot build the git tree"; exit 1; }
rev() { git -C "$G" rev-parse "$1^{commit}"; }
INTRO=$(rev v1.0) FIX=$(rev v1.2-rc1) BP10=$(rev v1.0.2) BP11=$(rev v1.1.2)
FIX2=$(rev v1.3-rc2) BP210=$(rev v1.0.4) BP211=$(rev v1.1.4)

mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
   --to "$OFFICER_FPR" --subject "frobnicator overflow" \
   --body "A heap overflow in net/core/frob.c." --message-id "a1@example.net" \
   --date "Tue, 01 Dec 2026 09:00:00 +0000" > "$T/r1.eml"
st import "$T/r1.eml" >/dev/null
for s in triaged accepted fixing; do st triage 1 --state $s >/dev/null; done
out=$(st fix 1 --commit "$FIX" --introduced "$INTRO" --tree "$G" --stable linux-1.0.y --stable linux-1.1.y 2>&1)
tap_ok $? "fix with the tree and both stable branches" "$out"
tap_is "$(st show 1 --json | jq -c '[.fix.tag, [.fix.backports[].tag]]')" '["v1.2-rc1",["v1.0.2","v1.1.2"]]' \
	"the fix lands in v1.2-rc1, its backports in v1.0.2 and v1.1.2"
st cve 1 --assign CVE-2026-30001 >/dev/null
st cve 1 --cwe CWE-787 >/dev/null
st date set 1 2026-12-05 >/dev/null
st triage 1 --state fix-ready >/dev/null
export SECTEAM_TEST_NOW=2026-12-05T13:00:00Z
st triage 1 --state disclosed >/dev/null
for f in cve osv csaf; do
	st export 1 --format $f -o "$T/r.$f.json" 2>"$T/err"
	tap_ok $? "export --format $f" "$(cat "$T/err")"
done

# Each read back by its consumer.
v=$(/usr/bin/python3 "$SECTEAM_TOP/tests/lib/validate.py" "$SCHEMAS/CVE_Record_Format_bundled.json" "$T/r.cve.json" 2>&1)
tap_ok $? "the CVE record validates (CVE 5 schema)" "$v"
v=$(/usr/bin/python3 "$SECTEAM_TOP/tests/lib/validate.py" "$SCHEMAS/osv-schema.json" "$T/r.osv.json" 2>&1)
tap_ok $? "the OSV record validates (OSV schema)" "$v"
v=$(/usr/bin/python3 "$SECTEAM_TOP/tests/lib/validate.py" "$CSAF_SCHEMA" "$T/r.csaf.json" 2>&1)
tap_ok $? "the CSAF advisory validates (CSAF 2.0 schema)" "$v"
v=$(node "$SECTEAM_TOP/tests/lib/csaf-validate.mjs" --allow 6.2.3 "$T/r.csaf.json" 2>&1)
tap_ok $? "csaf-validator-lib: no mandatory error, no recommended warning but 6.2.3 (no score recorded)" "$v"

# Every tag, by every record's rules, against git ancestry.
/usr/bin/python3 "$SECTEAM_TOP/tests/lib/records-semantics.py" "$G" "$INTRO" "$FIX" "$BP10" "$BP11" \
	-- "$T/r.cve.json" "$T/r.osv.json" "$T/r.csaf.json" > "$T/sem" 2>&1
tap_ok $? "every tag affected or not by each record's rules as by git ancestry" "$(grep -v '^ok' "$T/sem")"
tap_like "$(tail -n 1 "$T/sem")" "^[1-9][0-9]* passed, 0 failed$" "  $(tail -n 1 "$T/sem")"
# The tags that matter: the stable releases with the backport are
# not affected by OSV's any-range rule, the mainline ones before the fix are.
for t in v1.0.2 v1.0.3 v1.1.2 v1.1.3 v1.2-rc1 v1.2; do
	tap_like "$(grep " $t *OSV  " "$T/sem")" "not affected \(truth: not affected\)" "OSV: $t not affected"
done
for t in v1.0 v1.0.1 v1.1-rc1 v1.1 v1.1.1; do
	tap_like "$(grep " $t *OSV  " "$T/sem")" "^ok .* affected \(truth: affected\)" "OSV: $t affected"
done
tap_is "$(jq -r '.affected[0].ranges[] | select(.type == "GIT") | .repo' "$T/r.osv.json")" \
	"https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git" "OSV: the GIT range names the stable tree, which holds the backports"
tap_is "$(jq -c '.containers.cna.affected[1].versions[] | select(.versionType == "original_commit_for_fix") | .version' "$T/r.cve.json")" \
	'"1.2"' "CVE: original_commit_for_fix is the release 1.2, not 1.2-rc1"

# Report 2: the fix and its follow-up, two CVE IDs.
export SECTEAM_TEST_NOW=2026-12-01T10:00:00Z
mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
   --to "$OFFICER_FPR" --subject "frobnicator overflow, the tail" \
   --body "The tail of the frobnicator's buffer overflows too." --message-id "a2@example.net" \
   --date "Tue, 01 Dec 2026 09:30:00 +0000" > "$T/r2.eml"
st import "$T/r2.eml" >/dev/null
for s in triaged accepted fixing; do st triage 2 --state $s >/dev/null; done
st fix 2 --commit "$FIX" --introduced "$INTRO" --tree "$G" --stable linux-1.0.y --stable linux-1.1.y >/dev/null
out=$(st fix 2 --commit "$FIX2" --add --tree "$G" --stable linux-1.0.y --stable linux-1.1.y 2>&1)
tap_ok $? "fix --add: the follow-up fix, with its backports" "$out"
tap_is "$(st show 2 --json | jq -c '[.fixes[] | [.tag, [.backports[].tag]]]')" \
	'[["v1.2-rc1",["v1.0.2","v1.1.2"]],["v1.3-rc2",["v1.0.4","v1.1.4"]]]' "show --json: both fixes, each with its backports"
st cve 2 --assign CVE-2026-30002 >/dev/null
out=$(st cve 2 --assign CVE-2026-30003 --fix "$(printf %.12s "$FIX2")" 2>&1)
tap_ok $? "cve --assign --fix: a second ID for the follow-up only" "$out"
tap_is "$(st show 2 --json | jq -c '[.cves[] | [.id, (.fixes | length)]]')" \
	'[["CVE-2026-30002",2],["CVE-2026-30003",1]]' "show --json: the fixes each ID covers"
st cve 2 --cwe CWE-787 >/dev/null
st date set 2 2026-12-05 >/dev/null
st triage 2 --state fix-ready >/dev/null
export SECTEAM_TEST_NOW=2026-12-05T13:00:00Z
st triage 2 --state disclosed >/dev/null
for f in cve osv csaf; do
	st export 2 --format $f -o "$T/r2.$f.json" 2>"$T/err"
	tap_ok $? "report 2: export --format $f" "$(cat "$T/err")"
done
tap_is "$(jq -c '[.[].cveMetadata.cveId]' "$T/r2.cve.json")" '["CVE-2026-30002","CVE-2026-30003"]' "CVE: one record per ID"
tap_is "$(jq -c '[.[].id]' "$T/r2.osv.json")" '["CVE-2026-30002","CVE-2026-30003"]' "OSV: one record per ID"
tap_is "$(jq -c '[.vulnerabilities[].cve]' "$T/r2.csaf.json")" '["CVE-2026-30002","CVE-2026-30003"]' "CSAF: one vulnerability per ID"
for i in 0 1; do
	jq ".[$i]" "$T/r2.cve.json" > "$T/r2.$i.cve.json"
	jq ".[$i]" "$T/r2.osv.json" > "$T/r2.$i.osv.json"
	v=$(/usr/bin/python3 "$SECTEAM_TOP/tests/lib/validate.py" "$SCHEMAS/CVE_Record_Format_bundled.json" "$T/r2.$i.cve.json" 2>&1)
	tap_ok $? "report 2: CVE record $i validates" "$v"
	v=$(/usr/bin/python3 "$SECTEAM_TOP/tests/lib/validate.py" "$SCHEMAS/osv-schema.json" "$T/r2.$i.osv.json" 2>&1)
	tap_ok $? "report 2: OSV record $i validates" "$v"
done
v=$(/usr/bin/python3 "$SECTEAM_TOP/tests/lib/validate.py" "$CSAF_SCHEMA" "$T/r2.csaf.json" 2>&1)
tap_ok $? "report 2: the CSAF advisory validates" "$v"
v=$(node "$SECTEAM_TOP/tests/lib/csaf-validate.mjs" --allow 6.2.3 "$T/r2.csaf.json" 2>&1)
tap_ok $? "report 2: csaf-validator-lib: no mandatory error, no recommended warning but 6.2.3" "$v"
/usr/bin/python3 "$SECTEAM_TOP/tests/lib/records-semantics.py" "$G" "$INTRO" "$FIX" "$BP10" "$BP11" \
	+ "$FIX2" "$BP210" "$BP211" -- "$T/r2.0.cve.json" "$T/r2.0.osv.json" "$T/r2.csaf.json" > "$T/sem2" 2>&1
tap_ok $? "CVE-2026-30002 (both fixes): every tag as by git ancestry" "$(grep -v '^ok' "$T/sem2")"
tap_like "$(tail -n 1 "$T/sem2")" "^[1-9][0-9]* passed, 0 failed$" "  $(tail -n 1 "$T/sem2")"
for t in v1.0.2 v1.0.3 v1.1.2 v1.1.3 v1.2 v1.3-rc1; do
	tap_like "$(grep " $t *OSV  " "$T/sem2")" "^ok .* affected \(truth: affected\)" "  $t holds the first fix, not the follow-up: affected"
done
for t in v1.0.4 v1.1.4 v1.3-rc2 v1.3; do
	tap_like "$(grep " $t *OSV  " "$T/sem2")" "not affected \(truth: not affected\)" "  $t holds both: not affected"
done
/usr/bin/python3 "$SECTEAM_TOP/tests/lib/records-semantics.py" "$G" "$(rev v0.9)" "$FIX2" "$BP210" "$BP211" \
	-- "$T/r2.1.cve.json" "$T/r2.1.osv.json" "$T/r2.csaf.json" > "$T/sem3" 2>&1
tap_ok $? "CVE-2026-30003 (the follow-up only): every tag as by git ancestry" "$(grep -v '^ok' "$T/sem3")"
tap_like "$(tail -n 1 "$T/sem3")" "^[1-9][0-9]* passed, 0 failed$" "  $(tail -n 1 "$T/sem3")"
tap_is "$(jq -r '[.containers.cna.references[].url | select(contains("/c/"))] | length' "$T/r2.1.cve.json")" 3 \
	"CVE-2026-30003 names the follow-up and its backports only"
tap_is "$(st show 2 --json | jq -c '[.cves[].state]')" '["reserved","reserved"]' \
	"writing the records changes no ID's state"
st cve 2 --publish --id CVE-2026-30002 >/dev/null && st cve 2 --publish --id CVE-2026-30003 >/dev/null
tap_is "$(st show 2 --json | jq -c '[.cves[].state]')" '["published","published"]' \
	"cve --publish --id published both IDs"
tap_is "$(st export 2 --format cve --cve-id CVE-2026-30003 2>/dev/null | jq -r '.cveMetadata.cveId')" CVE-2026-30003 \
	"export --cve-id picks one of the report's IDs: one record"
md=$(st export 2 --format md 2>/dev/null)
tap_like "$md" "CVE-2026-30002 \(published\), CVE-2026-30003 \(published\)" "md: both CVE IDs"
tap_like "$md" "Fix.*$FIX .*$FIX2 " "md: both fixes"
tap_like "$md" "Affected.*until 1\.2-rc1.*and until 1\.3-rc2" "md: until every fix is in"
st cve 2 --reject --id CVE-2026-30003 --reason "a duplicate of CVE-2026-30002" >/dev/null
tap_is "$(st export 2 --format cve 2>/dev/null | jq -c '[.[] | .cveMetadata.state]')" '["PUBLISHED","REJECTED"]' \
	"CVE: a rejected ID among several gets its REJECTED record"
tap_is "$(st export 2 --format osv 2>/dev/null | jq -c '[.[] | has("withdrawn")]')" '[false,true]' \
	"OSV: and is withdrawn"
tap_is "$(st export 2 --format csaf 2>/dev/null | jq -c '[.vulnerabilities[].cve]')" '["CVE-2026-30002"]' \
	"CSAF: and is no vulnerability of the advisory"
tap_like "$(st show 2)" 'CVE +CVE-2026-30003 \(rejected; fixes [0-9a-f]{12}\)' "show: an ID's line names the fixes it covers"
st fix 2 --drop "$FIX2" >/dev/null
out=$(st export 2 --format osv 2>&1); rc=$?
tap_is "$rc" 1 "OSV: an ID whose fixes were all dropped is refused"
tap_like "$out" "report 2: CVE-2026-30003 covers none of its fixes" "  naming the ID"
tap_done
