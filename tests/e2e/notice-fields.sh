#!/bin/sh
# engines: sqlite pg
# End to end: what the linux-distros notice and the oss-security
# announcement give, from the shipped templates: the
# description (`cve --description`, redacted without credit consent),
# the affected versions read from the tree's tags, the fix commits with
# their first tags (and backports), the CVE IDs, the timeline, and the
# reporter's credit only once their consent is recorded.  The distros
# notice, for a fix the tree holds in no tagged release yet: versions
# from the introducing tag on, the fix "in no tagged release yet".  The
# announcement, for a disclosed report whose fix is in v1.1-rc1 with a
# backport in v1.0.1 and two CVE IDs.  The embargo gates stay as they
# were: no announcement under embargo, no distros notice once the fix is
# in a tagged release.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
. "$SECTEAM_TOP/tests/lib/gitrepo.sh"
e2e_setup notice-fields
export TZ=UTC SECTEAM_TEST_NOW=2026-12-01T10:00:00Z
st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config" "$@"; }
cf() { /usr/bin/python3 "$SECTEAM_TOP/tests/lib/check-forward.py" "$@"; }
printf '[team]\n\taddress = security@example.org\n' > "$T/config"
RITA="Rita Reporter <rita@example.net>"

# The tree of tests/lib/gitrepo.sh, and on master after v1.1 a fix no
# tag holds yet.
G=$T/linux
gitrepo_make "$G" || { echo "Bail out! cannot build the git tree"; exit 1; }
git -C "$G" -c user.name=Dev -c user.email=dev@example.org commit -q --allow-empty \
	-m "net: frob: bound the tail copy" || { echo "Bail out! cannot add a commit"; exit 1; }
rev() { git -C "$G" rev-parse "$1^{commit}"; }
INTRO=$(rev v1.0) FIX=$(rev v1.1-rc1) BP=$(rev v1.0.1) NEW=$(rev master)

st vendor add linux-distros --contact linux-distros@vs.openwall.org --key "$VENDOR_FPR" \
	--kind distro >/dev/null
cat > "$T/editor" <<'ED'
#!/bin/sh
printf 'The frob tail copy is not bounded; found by rita@example.net.\nA local user can overflow a heap buffer.\n' > "$1"
ED
chmod +x "$T/editor"

# Report 1: under embargo, the distros notice.
mk --kind encrypted-signed --from "$RITA" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
   --subject "frob tail overflow" --body "heap overflow in net/core/frob.c" \
   --message-id "n1@example.net" --date "Tue, 01 Dec 2026 09:00:00 +0000" > "$T/r1.eml"
st import "$T/r1.eml" >/dev/null
for s in triaged accepted fixing; do st triage 1 --state $s >/dev/null; done
export SECTEAM_TEST_NOW=2026-12-02T10:00:00Z
st fix 1 --commit "$NEW" --introduced "$INTRO" --tree "$G" >/dev/null
st cve 1 --assign CVE-2026-40001 >/dev/null
EDITOR="$T/editor" VISUAL= st cve 1 --description >/dev/null
st date set 1 2026-12-06 >/dev/null
st triage 1 --state fix-ready >/dev/null
export SECTEAM_TEST_NOW=2026-12-03T10:00:00Z
out=$(st announce 1 --yes --outbox "$T/none" 2>&1); rc=$?
tap_is "$rc" 1 "announce under embargo is still refused"
tap_like "$out" "report 1 is under embargo until .*: no announcement before disclosure" "  naming the embargo"

distros_body() { # OUTBOX: the decrypted notice's body lines
	gpg --homedir "$S" --batch --quiet --decrypt "$2" > "$2.in" 2>/dev/null
	cf inner "$2.in"
}
out=$(st distros 1 --yes --outbox "$T/o1" 2>&1); rc=$?
tap_is "$rc" 0 "distros exits 0" "$out"
cf encrypted "$(find "$T/o1/new" -type f)" "$T/a1.asc" >/dev/null
b=$(distros_body "$T/o1" "$T/a1.asc")
tap_like "$b" '^body: Versions: +1\.0 and later \(no fix released yet\)$' "distros: the versions, from the introducing tag on"
tap_like "$b" "^body:   $NEW \\(in no tagged release yet\\) net: frob: bound the tail copy\$" \
	"distros: the fix commit, in no tagged release yet, with its subject"
tap_like "$b" '^body: CVE: +CVE-2026-40001$' "distros: the CVE ID"
tap_like "$b" '^body: The frob tail copy is not bounded; found by \[reporter\]\.$' \
	"distros: the description, the reporter redacted without consent"
tap_like "$b" '^body: A local user can overflow a heap buffer\.$' "  all of it"
tap_like "$b" '^body:   2026-12-01  reported to the security team$' "distros: the timeline: reported"
tap_like "$b" "^body:   2026-12-02  fix $(printf %.12s "$NEW") recorded\$" "  the fix recorded"
tap_like "$b" '^body:   2026-12-02  CVE-2026-40001 reserved$' "  the CVE ID reserved"
tap_like "$b" '^body:   2026-12-06  proposed public date$' "  the proposed public date"
tap_like "$b" '^body: Credit: +the reporter, who is not named without their consent$' "distros: no credit without consent"
tap_unlike "$b" 'rita|Rita' "distros: the reporter named nowhere"

st triage 1 --consent credit >/dev/null
out=$(st distros 1 --yes --outbox "$T/o2" 2>&1); rc=$?
tap_is "$rc" 0 "distros again, with credit consent" "$out"
cf encrypted "$(find "$T/o2/new" -type f)" "$T/a2.asc" >/dev/null
b=$(distros_body "$T/o2" "$T/a2.asc")
tap_like "$b" '^body: Credit: +Rita Reporter <rita@example.net>$' "distros: with consent, the reporter is credited"
tap_like "$b" '^body: The frob tail copy is not bounded; found by rita@example.net\.$' "  and named in the description"
tap_like "$b" '^body:   2026-12-03  the linux-distros list notified$' "  the timeline has the first notice"

# Report 2: disclosed, the fix in a tagged release: the announcement.
export SECTEAM_TEST_NOW=2026-12-01T10:00:00Z
mk --kind encrypted-signed --from "$RITA" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
   --subject "frobnicator overflow" --body "heap overflow in net/core/frob.c" \
   --message-id "n2@example.net" --date "Tue, 01 Dec 2026 09:00:00 +0000" > "$T/r2.eml"
st import "$T/r2.eml" >/dev/null
for s in triaged accepted fixing; do st triage 2 --state $s >/dev/null; done
st fix 2 --commit "$FIX" --introduced "$INTRO" --tree "$G" --stable linux-1.0.y >/dev/null
st cve 2 --assign CVE-2026-40002 >/dev/null
st cve 2 --assign CVE-2026-40003 >/dev/null
st date set 2 2026-12-05 >/dev/null
out=$(st distros 2 --yes --outbox "$T/none" 2>&1); rc=$?
tap_is "$rc" 1 "distros for a fix in a tagged release is still refused"
tap_like "$out" "rule 'fix not public': its fix is in the released tree \\(v1.1-rc1\\)" "  naming the rule"
st triage 2 --state fix-ready >/dev/null
export SECTEAM_TEST_NOW=2026-12-05T13:00:00Z
st triage 2 --state disclosed >/dev/null
out=$(st announce 2 --yes --outbox "$T/o3" 2>&1); rc=$?
tap_is "$rc" 0 "announce exits 0 once disclosed" "$out"
b=$(cf plain "$(find "$T/o3/new" -type f)")
tap_like "$b" '^body: Versions: +1\.0 up to \(not including\) 1\.0\.1$' \
	"announce: the versions read from the tree (the backport ends 1.0.y, the fix is in 1.1-rc1)"
tap_like "$b" '^Subject: CVE-2026-40002: net: fix the frobnicator overflow$' \
	"announce: the Subject is the CVE ID and the record's title, as linux-cve-announce writes it"
tap_like "$b" "^body:   Issue introduced in 1\\.0 with commit $(printf %.12s "$INTRO") and fixed in 1\\.1 with commit $(printf %.12s "$FIX")\$" \
	"announce: the mainline line, introduced and fixed"
tap_like "$b" "^body:   Issue introduced in 1\\.0 with commit $(printf %.12s "$INTRO") and fixed in 1\\.0\\.1 with commit $(printf %.12s "$BP")\$" \
	"announce: the stable branch's line, with its backport"
tap_like "$b" "^body:   https://git.kernel.org/stable/c/$BP\$" "announce: the commit URLs"
tap_like "$b" '^body: https://www\.cve\.org/CVERecord/\?id=CVE-2026-40002$' "announce: the cve.org link"
tap_like "$b" '^body:   net/core/frob\.c$|Affected files' "announce: the affected files"
tap_like "$b" '^body: The security team advises to update to the latest stable kernel' "announce: the mitigation"
tap_unlike "$b" '^(In-Reply-To|References):' "announce: a public post replies to no private message"
tap_like "$b" "^body:   $FIX \\(first in v1.1-rc1\\) net: fix the frobnicator overflow\$" \
	"announce: the fix commit with its first tag"
tap_like "$b" "^body:     backport $BP \\(first in v1.0.1, linux-1.0.y\\)\$" "  its backport with its first tag"
tap_like "$b" '^body: CVE: +CVE-2026-40002, CVE-2026-40003$' "announce: both CVE IDs"
tap_like "$b" '^body: frobnicator overflow$' "announce: the description (without one, the subject)"
tap_like "$b" '^body:   2026-12-05  disclosed$' "announce: the timeline: disclosed"
tap_like "$b" '^body:   2026-12-01  CVE-2026-40003 reserved$' "  each CVE ID reserved"
tap_like "$b" '^body: Credit: +the reporter, who is not named without their consent$' "announce: no credit without consent"
tap_unlike "$b" 'rita|Rita' "announce: the reporter named nowhere"
st triage 2 --consent credit >/dev/null
st announce 2 --yes --outbox "$T/o4" >/dev/null 2>&1
tap_like "$(cf plain "$(find "$T/o4/new" -type f)")" '^body: Credit: +Rita Reporter <rita@example.net>$' \
	"announce: with consent, the reporter is credited"
tap_unlike "$(cf plain "$(find "$T/o4/new" -type f)")" '^(In-Reply-To|References):|n2@example\.net' \
	"announce: even with consent to credit, the public post names no private Message-ID"
tap_done
