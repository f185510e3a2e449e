#!/bin/sh
# engines: sqlite pg
# The CVSS 3.1 score the public records carry: `cve ID --cvss VECTOR
# --rationale TEXT`.  The base score is our own code's (core/cvss.c),
# compared with the tests' own oracle (tests/lib/cvss31.py, written
# apart from it from the specification), which is itself first checked
# against the scores the specification's examples document publishes;
# then the examples' vectors and a sample of others, their metrics in a
# shuffled order, each recorded and its score compared with the
# oracle's.  A hostile or mistaken vector (another version, a bad value,
# a metric twice or missing, a temporal one, terminal escapes, one too
# long) is refused naming the vector and the metric, and nothing is
# recorded; so is a rationale that is missing or not one line of text.
# show, show --json and the UI's report view give the score; the CVE
# record (metrics: cvssV3_1 and the rationale as its scenario), OSV
# (severity CVSS_V3) and CSAF (scores for the affected products) carry
# it, each valid by its schema, CSAF with no recommended warning left
# (6.2.3 warns of a missing score), and records-semantics.py checks the
# three say the vector given with the oracle's score.
#   master: v0.9 - "net: add the frobnicator" v1.0 - the fix v1.1-rc1 - v1.1
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup cvss
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
oracle() { /usr/bin/python3 "$SECTEAM_TOP/tests/lib/cvss31.py" "$@"; }
ncvss() { st show 1 --json | jq '[.events[] | select(.kind == "cve-cvss")] | length'; }

G=$T/linux
(
	set -e
	export GIT_AUTHOR_NAME=Dev GIT_AUTHOR_EMAIL=dev@example.org \
		GIT_COMMITTER_NAME=Dev GIT_COMMITTER_EMAIL=dev@example.org \
		GIT_CONFIG_NOSYSTEM=1 HOME=$G.home
	mkdir -p "$G" "$G.home"; cd "$G"
	day=0
	c() {
		day=$((day + 1))
		d=$(printf '2026-02-%02dT00:00:00 +0000' $day)
		GIT_AUTHOR_DATE=$d GIT_COMMITTER_DATE=$d git commit -q --allow-empty -m "$1"
	}
	git init -q -b master .
	c "initial"; git tag v0.9
	c "net: add the frobnicator"; git tag v1.0
	c "net: fix the frobnicator overflow"; git tag v1.1-rc1
	c "release"; git tag v1.1
) || { echo "Bail out! cannot build the git tree"; exit 1; }
rev() { git -C "$G" rev-parse "$1^{commit}"; }
INTRO=$(rev v1.0) FIX=$(rev v1.1-rc1)

mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
   --to "$OFFICER_FPR" --subject "frobnicator overflow" \
   --body "A heap overflow in net/core/frob.c." --message-id "v1@example.net" \
   --date "Tue, 01 Dec 2026 09:00:00 +0000" > "$T/r1.eml"
st import "$T/r1.eml" >/dev/null
for s in triaged accepted fixing; do st triage 1 --state $s >/dev/null; done
st fix 1 --commit "$FIX" --introduced "$INTRO" --tree "$G" >/dev/null
st cve 1 --assign CVE-2026-40001 >/dev/null

# The oracle first, against the specification's published scores.
out=$(oracle --examples 2>&1)
tap_ok $? "the oracle gives the scores the CVSS 3.1 examples publish" "$(printf '%s\n' "$out" | grep -v '^ok')"

# Every example's vector and 30 drawn ones, the metrics shuffled: our
# score is the oracle's, the vector recorded in the specification's order.
{
	printf '%s\n' "$out" | sed -n 's/^ok [^ ]* \([^:]*:[^ ]*\): .*/CVSS:3.1\/\1/p'
	oracle --sample 30 50
} > "$T/vectors"
tap_is "$(wc -l < "$T/vectors")" 51 "51 vectors to score"
bad=""
# The oracle's scores in one run each (a Python start a vector would
# cost more than the rest of the loop): first for the vectors given,
# then for the vectors recorded, each of which must score as the one
# it records.
tab=$(printf '\t')
oracle --each <"$T/vectors" >"$T/wants"
paste "$T/vectors" "$T/wants" >"$T/vw"
: >"$T/canons"
while IFS=$tab read -r v want; do
	got=$(st cve 1 --cvss "$v" --rationale "scored for the test" 2>&1 |
		sed -n 's/^report 1: CVSS 3.1 base score \([0-9.]*\) (\([A-Z]*\)) recorded, .*/\1 \2/p')
	[ "$got" = "$want" ] || bad="$bad
$v: ours '$got', the oracle's '$want'"
	canon=$(st show 1 --json | jq -r .cvss.vector)
	printf '%s\t%s\t%s\n' "$v" "$canon" "$want" >>"$T/canons"
done < "$T/vw"
cut -f 2 "$T/canons" | oracle --each >"$T/cscores"
bad="$bad$(paste "$T/canons" "$T/cscores" | awk -F '\t' '
	$4 != $3 || $2 !~ /^CVSS:3\.1\/AV:.\/AC:.\/PR:.\/UI:.\/S:.\/C:.\/I:.\/A:.$/ {
		printf "\n%s: recorded as '\''%s'\''", $1, $2 }')"
tap_is "$bad" "" "every score and severity is the oracle's; each vector recorded in the specification's order"

# The record: show, show --json.
V='CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H'
WHY='a local user can overwrite kernel memory through the frobnicator ioctl'
out=$(st cve 1 --cvss "$V" --rationale "$WHY" 2>&1)
tap_ok $? "cve --cvss --rationale exits 0" "$out"
tap_is "$out" "report 1: CVSS 3.1 base score $(oracle "$V" | sed 's/ \(.*\)/ (\1)/') recorded, $V" "and says the score"
n=$(ncvss)
tap_is "$(st show 1 --json | jq -c .cvss)" \
	"{\"vector\":\"$V\",\"score\":\"7.8\",\"severity\":\"HIGH\",\"rationale\":\"$WHY\"}" \
	"show --json: vector, score, severity, rationale"
tap_like "$(st show 1)" "^CVSS +7\.8 \(HIGH\) $V: $WHY\$" "show: the CVSS line"

# Refused, naming the vector and the metric; nothing recorded.
refused() { # DESC PATTERN ARGS...
	d=$1 p=$2; shift 2
	o=$(st cve 1 "$@" 2>&1); rc=$?
	tap_is "$rc" 2 "$d: a usage error"
	tap_like "$o" "$p" "  $(printf '%s' "$o" | head -n 1 | cut -c 1-150)"
}
refused "CVSS 3.0" "the CVSS vector 'CVSS:3\.0/AV:N.*not CVSS 3\.1" \
	--cvss CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H --rationale x
refused "no prefix" "'AV:N/AC:L.*no 'CVSS:3\.1/' at its start" \
	--cvss AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H --rationale x
refused "a bad value" "'AV:X' is no value: Attack Vector takes N, A, L, P" \
	--cvss CVSS:3.1/AV:X/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H --rationale x
refused "a lower-case value" "'AC:l' is no value: Attack Complexity takes L, H" \
	--cvss CVSS:3.1/AV:N/AC:l/PR:N/UI:N/S:U/C:H/I:H/A:H --rationale x
refused "a metric twice" "AV \(Attack Vector\) is given twice" \
	--cvss CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/AV:L --rationale x
refused "a metric missing" "the base metric A \(Availability\) is missing" \
	--cvss CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H --rationale x
refused "a temporal metric" "'E:F' is a temporal or environmental metric" \
	--cvss CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/E:F --rationale x
refused "an unknown metric" "'ZZ:1' is no CVSS 3.1 metric" \
	--cvss CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/ZZ:1 --rationale x
refused "an empty metric" "an empty metric" \
	--cvss CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/ --rationale x
ESC=$(printf '\033')
o=$(st cve 1 --cvss "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H$ESC]0;pwned$ESC\\" --rationale x 2>&1); rc=$?
tap_is "$rc" 2 "a vector with terminal escapes: a usage error"
case $o in *"$ESC"*) r=1 ;; *) r=0 ;; esac
tap_ok $r "  its message writes no escape to the terminal" "$(printf '%s' "$o" | od -c | head -3)"
tap_like "$o" "A:H\^\[\]0;pwned" "  and names what it got, made visible"
refused "a vector too long" "is too long" \
	--cvss "CVSS:3.1/$(printf 'AV:N/%.0s' $(seq 1 80))" --rationale x
refused "no rationale" "cve --cvss needs --rationale TEXT" --cvss "$V"
refused "a rationale alone" "usage" --rationale "$WHY"
refused "a rationale of two lines" "the CVSS rationale holds a control or bidi character at byte 5" \
	--cvss "$V" --rationale "line
two"
refused "a rationale with a bidi override" "the CVSS rationale holds a control or bidi character" \
	--cvss "$V" --rationale "$(printf 'safe \342\200\256 reversed')"
tap_is "$(ncvss)" "$n" "nothing recorded by the refused commands"
tap_is "$(st show 1 --json | jq -r .cvss.vector)" "$V" "the score recorded before stands"

# The public records.
st date set 1 2026-12-05 >/dev/null
st triage 1 --state fix-ready >/dev/null
export SECTEAM_TEST_NOW=2026-12-05T13:00:00Z
st triage 1 --state disclosed >/dev/null
for f in cve osv csaf; do
	st export 1 --format $f -o "$T/r.$f.json" 2>"$T/err"
	tap_ok $? "export --format $f" "$(cat "$T/err")"
done
tap_is "$(jq -c '.containers.cna.metrics[0] | [.format, .scenarios[0].value, .cvssV3_1.vectorString, .cvssV3_1.baseScore, .cvssV3_1.baseSeverity, .cvssV3_1.attackVector]' "$T/r.cve.json")" \
	"[\"CVSS\",\"$WHY\",\"$V\",7.8,\"HIGH\",\"LOCAL\"]" "CVE: metrics, the rationale as the scenario"
tap_is "$(jq -c .severity "$T/r.osv.json")" "[{\"type\":\"CVSS_V3\",\"score\":\"$V\"}]" "OSV: severity"
tap_is "$(jq -c '.vulnerabilities[0] | [.scores[0].cvss_v3.vectorString, .scores[0].cvss_v3.baseScore, (.scores[0].products == .product_status.known_affected)]' "$T/r.csaf.json")" \
	"[\"$V\",7.8,true]" "CSAF: scores for the known_affected products"
v=$(/usr/bin/python3 "$SECTEAM_TOP/tests/lib/validate.py" "$SCHEMAS/CVE_Record_Format_bundled.json" "$T/r.cve.json" 2>&1)
tap_ok $? "the CVE record validates (CVE 5 schema, its cvssV3_1)" "$v"
v=$(/usr/bin/python3 "$SECTEAM_TOP/tests/lib/validate.py" "$SCHEMAS/osv-schema.json" "$T/r.osv.json" 2>&1)
tap_ok $? "the OSV record validates" "$v"
v=$(/usr/bin/python3 "$SECTEAM_TOP/tests/lib/validate.py" "$CSAF_SCHEMA" "$T/r.csaf.json" 2>&1)
tap_ok $? "the CSAF advisory validates (CSAF 2.0 schema, FIRST's CVSS 3.1 schema)" "$v"
v=$(node "$SECTEAM_TOP/tests/lib/csaf-validate.mjs" "$T/r.csaf.json" 2>&1)
tap_ok $? "csaf-validator-lib: no mandatory error and no recommended warning, 6.2.3 included" "$v"
/usr/bin/python3 "$SECTEAM_TOP/tests/lib/records-semantics.py" --cvss "$V" "$G" "$INTRO" "$FIX" \
	-- "$T/r.cve.json" "$T/r.osv.json" "$T/r.csaf.json" > "$T/sem" 2>&1
tap_ok $? "records-semantics: the three carry the vector with the oracle's score, every tag right" "$(grep -v '^ok' "$T/sem")"
tap_like "$(grep CVSS "$T/sem")" "^ok +CVSS $V" "  the CVSS check ran"

# Taken back: no score in any record.
out=$(st cve 1 --cvss none 2>&1)
tap_ok $? "cve --cvss none exits 0" "$out"
tap_is "$out" "report 1: CVSS score taken back" "  and says so"
tap_is "$(st show 1 --json | jq -c .cvss)" null "show --json: no score"
tap_is "$(st export 1 --format cve 2>/dev/null | jq -c '.containers.cna | has("metrics")')" false "CVE: no metrics"
tap_is "$(st export 1 --format osv 2>/dev/null | jq -c 'has("severity")')" false "OSV: no severity"
tap_done
