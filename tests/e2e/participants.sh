#!/bin/sh
# engines: sqlite pg
# End to end: bringing area maintainers into a report.  A synthetic kernel
# tree (MAINTAINERS naming Mia for net/, the SECURITY CONTACT and THE REST
# with linux-kernel@vger) so no real tree is needed: suggestions from the
# touched files and the patch in the decrypted body, catch-all entries
# left out unless asked, --add/--add-all/--remove/--ack with their events,
# nobody added twice, and show --json's participants.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup participants
st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config" "$@"; }
ev() { st show "$1" --json | jq -r '.events[] | select(.kind | startswith("participant")) | .kind + " " + .detail'; }

KT=$T/linux
mkdir -p "$KT/net/ipv4" "$KT/fs"
: > "$KT/net/ipv4/tcp_input.c"
cat > "$KT/MAINTAINERS" <<'EOF'
List of maintainers (synthetic, for secteam-tui's tests)

Maintainers List
----------------

NETWORKING [GENERAL]
M:	Mia Maintainer <mia@example.org>
R:	Rex Reviewer <rex@example.org>
L:	netdev@vger.kernel.org
S:	Maintained
F:	net/

SECURITY CONTACT
M:	Security Officers <security@kernel.org>
S:	Supported
F:	Documentation/admin-guide/security-bugs.rst

TCP KEYWORD
M:	Kay Keyword <kay@example.org>
S:	Maintained
K:	tcp_magic_fn

THE REST
M:	Linus Torvalds <torvalds@linux-foundation.org>
L:	linux-kernel@vger.kernel.org
S:	Buried alive in reporters
F:	*
F:	*/
EOF
printf '[kernel]\n\ttree = %s\n' "$KT" > "$T/config"

RITA="Rita Reporter <rita@example.net>"
BODY=$(printf 'Overflow in net/ipv4/tcp_input.c (as Documentation/admin-guide/security-bugs.rst says), fix below.\n\ndiff --git a/net/ipv4/tcp_input.c b/net/ipv4/tcp_input.c\n--- a/net/ipv4/tcp_input.c\n+++ b/net/ipv4/tcp_input.c\n@@ -1,1 +1,1 @@\n-\ttcp_magic_fn(x);\n+\ttcp_magic_fn(y);\n')
mk --kind encrypted-signed --from "$RITA" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
   --subject "tcp overflow" --body "$BODY" --message-id "m1@example.net" > "$T/r1.eml"
st import "$T/r1.eml" >/dev/null
tap_is "$(st list --json | jq length)" 1 "report imported"

# Suggestions, catch-all left out by default.
out=$(st maintainers 1); rc=$?
tap_is "$rc" 0 "maintainers ID exits 0"
tap_like "$out" '^     Mia Maintainer <mia@example.org> \(maintainer:NETWORKING \[GENERAL\]\)' "Mia suggested from the touched file"
tap_like "$out" 'Rex Reviewer <rex@example.org> \(reviewer:' "reviewer suggested"
tap_like "$out" 'netdev@vger.kernel.org \(open list:' "the area's list suggested"
tap_like "$out" 'Kay Keyword <kay@example.org>' "K: keyword matched in the decrypted patch"
tap_unlike "$out" 'linux-kernel@vger|security@kernel.org' "catch-all entries and the security contact left out by default"
tap_like "$out" '^2 catch-all entries left out; --with-catch-all to show them$' "and counted"
out=$(st maintainers 1 --with-catch-all)
tap_like "$out" 'linux-kernel@vger.kernel.org \(open list\)' "--with-catch-all shows linux-kernel@vger"
tap_unlike "$out" 'left out' "nothing left out with --with-catch-all"
printf '[kernel]\n\ttree = %s\n[maintainers]\n\tinclude_catch_all = true\n' "$KT" > "$T/config"
tap_like "$(st maintainers 1)" 'Security Officers <security@kernel.org> \(supporter:SECURITY CONTACT\)' "config maintainers.include_catch_all shows them"
printf '[kernel]\n\ttree = %s\n' "$KT" > "$T/config"
j=$(st maintainers 1 --json)
tap_is "$(printf '%s' "$j" | jq -r '.catch_all_left_out')" 2 "--json counts the entries left out"
tap_is "$(printf '%s' "$j" | jq -r '[.suggestions[].email] | index("mia@example.org") != null')" true "--json lists Mia"

# --add one, with its event; never twice.
out=$(st maintainers 1 --add mia@example.org); rc=$?
tap_is "$rc" 0 "--add EMAIL exits 0"
tap_like "$out" '^report 1: added Mia Maintainer <mia@example.org> \(maintainer:NETWORKING' "--add says who was added"
tap_like "$(st maintainers 1)" '^\[in\] Mia Maintainer <mia@example.org>' "Mia is marked [in]"
err=$(st maintainers 1 --add MIA@example.org 2>&1 >/dev/null); rc=$?
tap_is "$rc" 0 "adding her again is not an error"
tap_like "$err" 'already in: Mia Maintainer' "but a note"
tap_is "$(ev 1 | grep -c '^participant-add')" 1 "one participant-add event"
tap_like "$(ev 1)" '^participant-add Mia Maintainer <mia@example.org> \(maintainer:NETWORKING \[GENERAL\]\)$' "event detail names her, role and section"
j=$(st show 1 --json)
tap_is "$(printf '%s' "$j" | jq -r '.participants | length')" 1 "show --json has one participant"
tap_is "$(printf '%s' "$j" | jq -r '.participants[0] | [.name, .email, .role, .added_by, .active] | join("|")')" \
	"Mia Maintainer|mia@example.org|maintainer|$E2E_OFFICER|true" "participant fields: name, email, role, added_by"
tap_like "$(printf '%s' "$j" | jq -r '.participants[0].added_at')" '^[0-9]{4}-[0-9]{2}-[0-9]{2}T' "added_at recorded"

# Someone not suggested: refused bare, accepted as "Name <addr>".
err=$(st maintainers 1 --add zed@example.com 2>&1); rc=$?
tap_is "$rc" 1 "unsuggested bare address refused"
tap_like "$err" "not among the maintainers suggested.*'Name <zed@example.com>'" "with a hint"
out=$(st maintainers 1 --add 'Zed Outsider <zed@example.com>')
tap_like "$out" 'added Zed Outsider <zed@example.com> \(other\)' "\"Name <addr>\" adds someone by hand"
err=$(st maintainers 1 --add 'bad address' 2>&1); rc=$?
tap_is "$rc" 1 "invalid address refused"

# --add-all: every person shown, no list, no catch-all, nobody twice.
out=$(st maintainers 1 --add-all 2>"$T/err"); rc=$?
tap_is "$rc" 0 "--add-all exits 0"
tap_like "$out" 'added Rex Reviewer' "--add-all adds the reviewer"
tap_like "$out" 'added Kay Keyword' "and the keyword maintainer"
tap_unlike "$out" 'Mia' "but not Mia again"
tap_like "$(cat "$T/err")" '1 mailing list not added' "lists are not added by --add-all"
emails=$(st show 1 --json | jq -r '[.participants[] | select(.active) | .email] | sort | join(",")')
tap_is "$emails" "kay@example.org,mia@example.org,rex@example.org,zed@example.com" "participants after --add-all"

# --remove and re-add; --ack.
out=$(st maintainers 1 --remove rex@example.org); rc=$?
tap_is "$rc" 0 "--remove exits 0"
tap_like "$out" 'removed Rex Reviewer <rex@example.org>' "--remove says who"
tap_like "$(ev 1)" 'participant-remove Rex Reviewer <rex@example.org> .*removed' "removal is an event"
err=$(st maintainers 1 --remove rex@example.org 2>&1); rc=$?
tap_is "$rc" 1 "removing someone not in fails"
tap_like "$err" "'rex@example.org' is not a participant of report 1" "naming them"
st maintainers 1 --add rex@example.org >/dev/null
j=$(st show 1 --json)
tap_is "$(printf '%s' "$j" | jq -r '[.participants[] | select(.email == "rex@example.org")] | map(.active) | map(tostring) | join(",")')" "false,true" "re-added: the removed row stays, a new one is active"
out=$(st maintainers 1 --ack mia@example.org)
tap_like "$out" 'mia@example.org acknowledged' "--ack records the acknowledgement"
tap_like "$(st show 1 --json | jq -r '.participants[] | select(.email == "mia@example.org") | .acknowledged_at')" '^[0-9]{4}-' "acknowledged_at set"
tap_like "$(ev 1)" 'participant-ack Mia Maintainer <mia@example.org> acknowledged' "acknowledgement is an event"

# A failing change changes nothing (one transaction).
n0=$(st show 1 --json | jq '.events | length')
st maintainers 1 --add 'New Person <new@example.com>' --remove nobody@example.com >/dev/null 2>&1
tap_is "$(st show 1 --json | jq '.events | length')" "$n0" "a failing change leaves no event"
tap_is "$(st show 1 --json | jq '[.participants[] | select(.email == "new@example.com")] | length')" 0 "and no participant"

# Errors and hostile text.
err=$(st maintainers 99 2>&1); rc=$?
tap_is "$rc" 1 "unknown report fails"
tap_like "$err" 'no report 99' "naming it"
err=$(st maintainers 1 --tree "$T/nowhere" 2>&1); rc=$?
tap_like "$err" "no MAINTAINERS file in kernel tree '$T/nowhere'" "a tree without MAINTAINERS is named"
out=$(st maintainers 1 --add "$(printf 'Evil\033[2J <evil@example.com>')" 2>&1)
tap_unlike "$out" "$(printf '\033')" "no ESC reaches the terminal from a name"
tap_done
