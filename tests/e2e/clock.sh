#!/bin/sh
# engines: sqlite pg
# The clock is the real one.  The environment cannot move it: with
# SECTEAM_NOW (the old test hook) or SECTEAM_TEST_NOW set, and without
# the tests' preloaded clock (tests/lib/clock-shim.c), a consent event
# is timed now, not in 2020, and a date 40 days on is still 40 days on.
# The binary holds neither name.  With the preloaded clock (how every
# other test pins time) the pinned time is used, so that hook is real.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup clock
mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
   --to "$OFFICER_FPR" --subject "clock" --body "overflow in net/core/frob.c" \
   --message-id "c1@example.net" > "$T/r1.eml"
st import "$T/r1.eml" >/dev/null
real() { env -u LD_PRELOAD SECTEAM_NOW=2020-01-01T10:00:00Z SECTEAM_TEST_NOW=2020-01-01T10:00:00Z "$@"; }
last_at() { st show 1 --json | jq -r '.events[-1].at'; }

t0=$(date -u +%s)
real "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" triage 1 --consent exploit >/dev/null 2>&1
at=$(last_at)
t1=$(date -u +%s)
ts=$(date -u -d "$at" +%s 2>/dev/null || echo 0)
tap_ok "$([ "$ts" -ge $((t0 - 2)) ] && [ "$ts" -le $((t1 + 2)) ]; echo $?)" \
	"the consent event is timed by the real clock ($at), not by SECTEAM_NOW"
out=$(real "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" date set 1 +40d --reason x 2>&1); rc=$?
tap_is "$rc" 1 "a date 40 days on is refused by the real clock's policy, whatever the environment says"
tap_is "$(strings "$SECTEAM_BIN" | grep -c -E 'SECTEAM_(TEST_)?NOW')" 0 "the program names no clock variable"

export SECTEAM_TEST_NOW=2026-12-02T12:00:00Z
st triage 1 --note "pinned" >/dev/null 2>&1
tap_like "$(last_at)" "^2026-12-02T12:00" "the tests' preloaded clock pins the time"
tap_done
