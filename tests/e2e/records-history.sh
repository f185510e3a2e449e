#!/bin/sh
# engines: sqlite
# The public records true to git history, tag by tag, in the cases where
# a range read from the fix alone goes wrong: every record (CVE git and
# versions, cpeApplicability, OSV GIT and ECOSYSTEM, CSAF product_status)
# read by its own format's rules (tests/lib/records-semantics.py) must
# give every tag of the tree the verdict git ancestry gives (a tag is
# affected when it holds the introducing commit or its stable copy and
# not the fix or its backport), and CSAF names every tag known_affected,
# fixed or known_not_affected.  Their form is the kernel's tools': no -rc
# in dyad, semver or ECOSYSTEM versions, 0:0 for an unfixed side, one
# dyad pair per branch, the stable repository for stable-only commits.
# Tree A, a bug that reached a stable branch by a copy, a branch that
# never had it, a fix in an -rc:
#   master:      v0.9 - v1.0 - v1.1-rc1 (the bug) - v1.1 - v1.2-rc1
#                - v1.2-rc2 - the fix v1.2-rc3 - v1.2
#   linux-0.9.y: from v0.9: v0.9.1, the fix's backport v0.9.2 (never had
#                the bug: no range)
#   linux-1.0.y: from v1.0: v1.0.1, the bug's copy v1.0.2, v1.0.3, the
#                fix's backport v1.0.4
#   linux-1.1.y: from v1.1 (holds the bug): v1.1.1, the backport v1.1.2
# Tree B, a fix in no release yet: master v0.9 - the bug v1.0 - v1.1-rc1
# - v1.1 - the fix (no tag); linux-1.0.y from v1.0: v1.0.1, v1.0.2 (no
# backport).
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup records-history
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
STABLE=https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git

# tree DIR: git with fixed names and dates, no user or system config.
tree_env() {
	export GIT_AUTHOR_NAME=Dev GIT_AUTHOR_EMAIL=dev@example.org \
		GIT_COMMITTER_NAME=Dev GIT_COMMITTER_EMAIL=dev@example.org \
		GIT_CONFIG_NOSYSTEM=1 HOME=$1.home
	mkdir -p "$1" "$1.home"; cd "$1"
	day=0
	git init -q -b master .
}
c() { # MESSAGE [BODY]: a commit a day later than the last
	day=$((day + 1))
	d=$(printf '2026-03-%02dT00:00:00 +0000' $day)
	GIT_AUTHOR_DATE=$d GIT_COMMITTER_DATE=$d git commit -q --allow-empty -m "$1" ${2:+-m "$2"}
}

A=$T/a
(
	set -e
	tree_env "$A"
	c "initial"; git tag v0.9; git branch linux-0.9.y
	c "work"; git tag v1.0; git branch linux-1.0.y
	c "net: add the frobnicator"; intro=$(git rev-parse HEAD); git tag v1.1-rc1
	c "more"; git tag v1.1; git branch linux-1.1.y
	c "next"; git tag v1.2-rc1
	c "next 2"; git tag v1.2-rc2
	git checkout -q linux-0.9.y; c "stable: unrelated 0.9"; git tag v0.9.1
	git checkout -q linux-1.0.y; c "stable: unrelated 1.0"; git tag v1.0.1
	c "net: add the frobnicator" "commit $intro upstream."; git tag v1.0.2
	c "stable: more 1.0"; git tag v1.0.3
	git checkout -q linux-1.1.y; c "stable: unrelated 1.1"; git tag v1.1.1
	git checkout -q master
	c "net: fix the frobnicator overflow"; fix=$(git rev-parse HEAD); git tag v1.2-rc3
	c "release"; git tag v1.2
	git checkout -q linux-0.9.y
	c "net: fix the frobnicator overflow" "commit $fix upstream."; git tag v0.9.2
	git checkout -q linux-1.0.y
	c "net: fix the frobnicator overflow" "(cherry picked from commit $fix)"; git tag v1.0.4
	git checkout -q linux-1.1.y
	c "net: fix the frobnicator overflow" "[ Upstream commit $fix ]"; git tag v1.1.2
	git checkout -q master
) || { echo "Bail out! cannot build tree A"; exit 1; }
B=$T/b
(
	set -e
	tree_env "$B"
	c "initial"; git tag v0.9
	c "net: add the frobnicator"; git tag v1.0; git branch linux-1.0.y
	c "work"; git tag v1.1-rc1
	c "more"; git tag v1.1
	git checkout -q linux-1.0.y; c "stable: unrelated"; git tag v1.0.1
	c "stable: more"; git tag v1.0.2
	git checkout -q master
	c "net: fix the frobnicator overflow"
) || { echo "Bail out! cannot build tree B"; exit 1; }
rev() { git -C "$1" rev-parse "$2^{commit}"; }

n=0
# report TREE INTRO FIX STABLE...: a disclosed report with that fix.
report() {
	g=$1 intro=$2 fix=$3; shift 3
	n=$((n + 1))
	export SECTEAM_TEST_NOW=2026-12-01T10:00:00Z
	mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
	   --to "$OFFICER_FPR" --subject "frobnicator overflow $n" \
	   --body "A heap overflow in net/core/frob.c." --message-id "h$n@example.net" \
	   --date "Tue, 01 Dec 2026 09:00:00 +0000" > "$T/r$n.eml"
	st import "$T/r$n.eml" >/dev/null
	for s in triaged accepted fixing; do st triage $n --state $s >/dev/null; done
	set --
	for b in $STABLE_BRANCHES; do set -- "$@" --stable "$b"; done
	out=$(st fix $n --commit "$fix" --introduced "$intro" --tree "$g" "$@" 2>&1)
	tap_ok $? "report $n: fix with the tree and its stable branches" "$out"
	st cve $n --assign "CVE-2026-5000$n" >/dev/null
	st date set $n 2026-12-05 >/dev/null
	st triage $n --state fix-ready >/dev/null
	export SECTEAM_TEST_NOW=2026-12-05T13:00:00Z
	st triage $n --state disclosed >/dev/null
	for f in cve osv csaf dyad; do
		st export $n --format $f -o "$T/r$n.$f" 2>"$T/err"
		tap_ok $? "report $n: export --format $f" "$(cat "$T/err")"
	done
	v=$(/usr/bin/python3 "$SECTEAM_TOP/tests/lib/validate.py" "$SCHEMAS/CVE_Record_Format_bundled.json" "$T/r$n.cve" 2>&1)
	tap_ok $? "report $n: the CVE record validates" "$v"
	v=$(/usr/bin/python3 "$SECTEAM_TOP/tests/lib/validate.py" "$SCHEMAS/osv-schema.json" "$T/r$n.osv" 2>&1)
	tap_ok $? "report $n: the OSV record validates" "$v"
	v=$(/usr/bin/python3 "$SECTEAM_TOP/tests/lib/validate.py" "$CSAF_SCHEMA" "$T/r$n.csaf" 2>&1)
	tap_ok $? "report $n: the CSAF advisory validates" "$v"
	v=$(node "$SECTEAM_TOP/tests/lib/csaf-validate.mjs" --allow 6.2.3 "$T/r$n.csaf" 2>&1)
	tap_ok $? "report $n: csaf-validator-lib: no mandatory error, no warning but 6.2.3" "$v"
	tap_unlike "$(cat "$T/r$n.dyad")" '^[^#].*-rc' "report $n: no -rc in the dyad pairs"
}
# semantics NAME INTRO[,COPY] FIX BACKPORT...: every tag by every record.
semantics() {
	/usr/bin/python3 "$SECTEAM_TOP/tests/lib/records-semantics.py" "$G" "$@" \
		-- "$T/r$n.cve" "$T/r$n.osv" "$T/r$n.csaf" > "$T/sem$n" 2>&1
	tap_ok $? "report $n: every tag as by git ancestry, by each record's rules" "$(grep -v '^ok' "$T/sem$n")"
	tap_like "$(tail -n 1 "$T/sem$n")" "^[1-9][0-9]* passed, 0 failed$" "  $(tail -n 1 "$T/sem$n")"
}
verdict() { # TAG RECORD: the checker's verdict line
	grep "^[a-zA-Z]* *$1 *$2 " "$T/sem$n"
}

# --- tree A -----------------------------------------------------------------
G=$A
INTRO=$(rev $A v1.1-rc1) COPY=$(rev $A v1.0.2) FIX=$(rev $A v1.2-rc3)
STABLE_BRANCHES="linux-0.9.y linux-1.0.y linux-1.1.y"
report "$A" "$INTRO" "$FIX"
tap_like "$(st show 1 --json | jq -c '.fixes[0].introduced')" "\"commit\":\"$COPY\",\"tag\":\"v1.0.2\",\"branch\":\"linux-1.0.y\",\"upstream\":\"$INTRO\"" \
	"the copy of the introducing commit on linux-1.0.y is found (\"commit X upstream.\")"
tap_is "$(st show 1 --json | jq -c '[.fixes[0].backports[] | .tag] | sort')" '["v0.9.2","v1.0.4","v1.1.2"]' \
	"the backports are found by \"commit X upstream.\", cherry-pick and [ Upstream commit X ] lines"
semantics "$INTRO,$COPY" "$FIX" "$(rev $A v0.9.2)" "$(rev $A v1.0.4)" "$(rev $A v1.1.2)"
for t in v1.0.2 v1.0.3; do
	for r in "CVE git" "CVE versions" "CVE cpeApplicability" "OSV ECOSYSTEM" "CSAF"; do
		tap_like "$(verdict $t "$r")" "^ok .* affected \(truth: affected\)" "$t, carrying the copy, is affected by $r"
	done
done
for t in v0.9.1 v0.9.2 v1.0.1; do
	tap_like "$(verdict $t "CSAF status")" "^ok .* known_not_affected" "$t never had the bug: known_not_affected"
done
tap_like "$(verdict v1.2-rc2 "CVE cpeApplicability")" "^ok .* affected \(truth: affected\)" \
	"the -rc before the fix's stays vulnerable in CPE (the mainline pair does not collapse)"
tap_is "$(grep -v '^#' "$T/r1.dyad")" "1.1:$INTRO:1.2:$FIX
1.0.2:$COPY:1.0.4:$(rev $A v1.0.4)
1.1:$INTRO:1.1.2:$(rev $A v1.1.2)" "dyad: a pair per branch that had the bug, none for linux-0.9.y, no -rc"
tap_is "$(jq -r '.containers.cna.affected[0].repo' "$T/r1.cve")" "$STABLE" "CVE: the stable repository names the stable-only commits"
tap_is "$(jq -c '.containers.cna.affected[1].versions[0]' "$T/r1.cve")" \
	'{"version":"1.0.2","lessThan":"1.0.4","status":"affected","versionType":"semver"}' \
	"CVE: the stable-introduced range first, so no unaffected entry shadows it"
tap_is "$(jq -r '.dataVersion' "$T/r1.cve")" 5.1.1 "CVE: dataVersion 5.1.1 beside cpeApplicability"
tap_is "$(jq -c '[.affected[] | has("package")]' "$T/r1.osv")" '[false,true]' \
	"OSV: the GIT ranges without a package, the ECOSYSTEM ones in Linux/Kernel"
tap_is "$(jq -r '.affected[0].ranges[0].repo' "$T/r1.osv")" "$STABLE" "OSV: the GIT range in the stable repository"
tap_is "$(jq -r '.summary' "$T/r1.osv")" "net: fix the frobnicator overflow" "OSV: the summary is the fix's subject"
tap_is "$(jq -r '.containers.cna.title' "$T/r1.cve")" "net: fix the frobnicator overflow" "CVE: the same title"

# --- tree B -----------------------------------------------------------------
G=$B
INTRO=$(rev $B v1.0) FIX=$(rev $B master)
STABLE_BRANCHES="linux-1.0.y"
report "$B" "$INTRO" "$FIX"
semantics "$INTRO" "$FIX"
tap_is "$(grep -v '^#' "$T/r2.dyad")" "1.0:$INTRO:0:0
1.0:$INTRO:0:0" "dyad: the fix in no release: 0:0 on each branch"
tap_is "$(jq -c '[.affected[1].ranges[].events]' "$T/r2.osv")" '[[{"introduced":"1.0.0"}]]' \
	"OSV: ECOSYSTEM from 1.0.0, no release fixed"
tap_like "$(verdict v1.0.2 "CVE git")" "^ok .* affected \(truth: affected\)" "CVE git: the stable branch without a backport is affected"
tap_done
