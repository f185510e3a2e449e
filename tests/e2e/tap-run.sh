#!/bin/sh
# The tests' own harness: `--run N` (tests/lib/tap.sh) reports the checks
# selected, marks the others skipped, ends after the last one selected,
# and refuses a list that is not one.  A made-up script of four checks,
# the third failing, is run with each kind of list.
. "$SECTEAM_TOP/tests/lib/tap.sh"
t=$(mktemp -d "${TMPDIR:-/tmp}/secteam-taprun.XXXXXX")
trap 'rm -rf "$t"' EXIT
cat >"$t/story.sh" <<'STORY'
. "$SECTEAM_TOP/tests/lib/tap.sh"
tap_ok 0 "one"
tap_ok 0 "two"
tap_ok 1 "three fails"
echo "after three" >&2
tap_ok 0 "four"
tap_done
STORY
out=$(SECTEAM_RUN= sh "$t/story.sh" --run 2 2>"$t/err"); rc=$?
tap_is "$rc" 0 "--run 2: a passing check alone passes"
tap_like "$out" "^ok 1 - one # SKIP not selected" "--run 2: check 1 is reported skipped"
tap_like "$out" "ok 2 - two$" "--run 2: check 2 is reported as itself"
tap_unlike "$out" "three|four" "--run 2: the script ends after check 2"
tap_like "$out" "1\.\.2$" "--run 2: the plan counts the checks reached"
out=$(SECTEAM_RUN= sh "$t/story.sh" --run 2-3 2>"$t/err"); rc=$?
tap_is "$rc" 1 "--run 2-3: a failing check in the range fails the run"
tap_like "$out" "not ok 3 - three fails" "--run 2-3: check 3 is reported failing"
out=$(SECTEAM_RUN= sh "$t/story.sh" --run 1,4 2>"$t/err"); rc=$?
tap_is "$rc" 0 "--run 1,4: a failure outside the list is not reported"
tap_like "$out" "ok 3 - three fails # SKIP not selected" "--run 1,4: check 3 is skipped"
tap_like "$(cat "$t/err")" "after three" "--run 1,4: the steps between checks still run"
out=$(SECTEAM_RUN= sh "$t/story.sh" --run 2-x 2>&1); rc=$?
tap_ok $((rc == 0)) "--run 2-x: a list that is not one is refused (exit $rc)"
tap_like "$out" "Bail out! --run '2-x'" "--run 2-x: the refusal names the list"
out=$(SECTEAM_RUN= sh "$t/story.sh" 2>&1); rc=$?
tap_is "$rc" 1 "without --run every check runs, and the failing one fails the script"
tap_done
