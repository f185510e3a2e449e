#!/bin/sh
# engines: sqlite pg
# End to end, the attacker's side of `export --format dyad`: a
# tag of the kernel tree is text from outside, and git allows
# bidi controls (U+202E, U+2066) and C1 controls (U+0085) in a tag's
# name.  `fix --tree` records the fix's first tag with the fix; once the
# report is disclosed the dyad export writes that tag as every export
# writes text: escaped ("<U+202E>"), never raw.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
. "$SECTEAM_TOP/tests/lib/gitrepo.sh"
e2e_setup dyad-tag
export TZ=UTC SECTEAM_TEST_NOW=2026-12-01T10:00:00Z
: > "$T/config"
st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config" "$@"; }

rlo=$(printf '\342\200\256')   # U+202E RIGHT-TO-LEFT OVERRIDE
lri=$(printf '\342\201\246')   # U+2066 LEFT-TO-RIGHT ISOLATE
nel=$(printf '\302\205')       # U+0085 NEXT LINE (C1)

G=$T/linux
gitrepo_make "$G" || { echo "Bail out! cannot build the git tree"; exit 1; }
FIX=$(git -C "$G" rev-parse v1.1-rc1)
# The only tag holding the fix is the hostile one.
git -C "$G" tag -d v1.1-rc1 v1.1 >/dev/null
TAG="v1.1${rlo}exe.cod${lri}${nel}"
git -C "$G" tag "$TAG" "$FIX" || { echo "Bail out! git refused the tag"; exit 1; }

mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
   --to "$OFFICER_FPR" --subject "frobnicator overflow" --body "overflow in net/core/frob.c" \
   --message-id "d1@example.net" --date "Tue, 01 Dec 2026 09:00:00 +0000" > "$T/r1.eml"
st import "$T/r1.eml" >/dev/null
st fix 1 --commit "$FIX" --introduced "$(git -C "$G" rev-parse v1.0)" --tree "$G" >"$T/out" 2>&1
tap_ok $? "fix --tree with the hostile tag exits 0" "$(cat "$T/out")"
st date set 1 2026-12-05 >/dev/null
export SECTEAM_TEST_NOW=2026-12-05T13:00:00Z
for s in triaged accepted fixing fix-ready disclosed; do st triage 1 --state $s >/dev/null; done
tap_is "$(st show 1 --json | jq -r .state)" disclosed "the report is disclosed"

st export 1 --format dyad -o "$T/a.dyad" 2>"$T/err"
tap_ok $? "export --format dyad exits 0" "$(cat "$T/err")"
raw=0
for c in "$rlo" "$lri" "$nel"; do
	grep -qF "$c" "$T/a.dyad" && raw=1
done
tap_is "$raw" 0 "no raw bidi or C1 control in the dyad" "$(od -c "$T/a.dyad" | head -20)"
tap_is "$(LC_ALL=C grep -c "$(printf '[\001-\010\013-\037\177]')" "$T/a.dyad")" 0 "no raw C0 control either"
tap_like "$(grep -v '^#' "$T/a.dyad")" "^1\.0:[0-9a-f]{40}:1\.1<U\+202E>exe\.cod<U\+2066><U\+0085>:$FIX\$" \
	"the tag escaped as the other exports write it"
tap_done
