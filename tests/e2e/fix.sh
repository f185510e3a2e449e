#!/bin/sh
# engines: sqlite pg
# End to end: `fix` records a report's fixing and introducing commits.  A
# small git tree (tests/lib/gitrepo.sh: tags v1.0, v1.1-rc1, v1.1 and a
# stable branch linux-1.0.y whose backport carries "commit <fix>
# upstream." and is tagged v1.0.1) gives every version, checked here by
# hand: the introducing commit's first tag is v1.0, the fix's v1.1-rc1
# (an -rc sorts before its release), the backport's v1.0.1.  Without a
# tree the SHAs are recorded as given, unchecked; a SHA the tree lacks, a
# branch it lacks or a non-hex SHA is refused by name with nothing
# recorded; config kernel.git stands for --tree; `export --format dyad`
# (once the report is public)
# prints the pairs.  Several fixes: `--add` records one more
# (the same SHA again replaces it where it stands), `--drop` takes one
# back; show, show --json, the list's column and dyad give them all; the
# first --add of a report is a "fix" event (the milestone stats reads).
. "$SECTEAM_TOP/tests/lib/e2e.sh"
. "$SECTEAM_TOP/tests/lib/gitrepo.sh"
e2e_setup fix
: > "$T/config"
st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config" "$@"; }
nev() { st show 1 --json | jq '[.events[] | select(.kind | startswith("fix"))] | length'; }

G=$T/linux
gitrepo_make "$G" || { echo "Bail out! cannot build the git tree"; exit 1; }
rev() { git -C "$G" rev-parse "$1"; }
INTRO=$(rev v1.0)
FIX=$(rev v1.1-rc1)
BP=$(rev v1.0.1)

mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
   --to "$OFFICER_FPR" --subject "frobnicator overflow" --body "overflow in net/core/frob.c" \
   --message-id "f1@example.net" > "$T/r1.eml"
st import "$T/r1.eml" >/dev/null
tap_is "$(st show 1 --json | jq -c .fix)" null "no fix before fix is run"

# Without a tree: as given, unchecked.
out=$(st fix 1 --commit "$(printf %.12s "$FIX")" --introduced "$(printf %.12s "$INTRO")" 2>&1); rc=$?
tap_is "$rc" 0 "fix without a tree exits 0"
tap_like "$out" "unchecked" "and says the SHAs are unchecked"
j=$(st show 1 --json)
tap_is "$(printf '%s' "$j" | jq -r '.fix.commit')" "$(printf %.12s "$FIX")" "the fix commit recorded as given"
tap_is "$(printf '%s' "$j" | jq -r '.fix.tree_checked')" false "tree_checked false"
tap_is "$(printf '%s' "$j" | jq -r '[.fix.introduced[].commit] | join(",")')" "$(printf %.12s "$INTRO")" "introduced recorded"
tap_is "$(printf '%s' "$j" | jq -r '.fix.tag')" null "no tag without a tree"

# Bad input: refused by name, nothing recorded.
before=$(nev)
out=$(st fix 1 --commit 'xyz;rm -rf /' 2>&1); rc=$?
tap_is "$rc" 2 "a non-hex SHA is a usage error"
tap_like "$out" "fix --commit 'xyz;rm -rf /': not a commit SHA" "naming it"
out=$(st fix 1 --commit "$FIX" --introduced 0123456789abcdef0123456789abcdef01234567 --tree "$G" 2>&1); rc=$?
tap_is "$rc" 1 "a SHA the tree lacks is refused (exit 1)"
tap_like "$out" "commit 0123456789abcdef0123456789abcdef01234567 is not in the tree" "naming it"
out=$(st fix 1 --commit "$FIX" --tree "$G" --stable linux-9.9.y 2>&1); rc=$?
tap_is "$rc" 1 "a branch the tree lacks is refused"
tap_like "$out" "branch 'linux-9.9.y' is not in the tree" "naming it"
out=$(st fix 1 --commit "$FIX" --tree "$G" --stable=--output=stolen.txt 2>&1); rc=$?
tap_is "$rc" 2 "an option-like branch name is refused"
out=$(st fix 1 --commit "$FIX" --tree "$T" 2>&1); rc=$?
tap_is "$rc" 1 "a folder that is no git tree is refused"
tap_like "$out" "is not a git tree" "saying so"
tap_is "$(nev)" "$before" "nothing recorded by the refused commands"

# With the tree: full SHAs, first tags, the backport.
out=$(st fix 1 --commit "$(printf %.12s "$FIX")" --introduced "$(printf %.10s "$INTRO")" \
	--tree "$G" --stable linux-1.0.y 2>&1); rc=$?
tap_is "$rc" 0 "fix with a tree exits 0"
tap_like "$out" "v1.1-rc1.*introduced by $(printf %.12s "$INTRO") \(v1.0\).*backports $(printf %.12s "$BP") on linux-1.0.y \(v1.0.1\)" "the summary names the tags"
j=$(st show 1 --json)
tap_is "$(printf '%s' "$j" | jq -r '.fix.commit')" "$FIX" "the fix's full SHA"
tap_is "$(printf '%s' "$j" | jq -r '.fix.tag')" v1.1-rc1 "the fix is first in v1.1-rc1 (not v1.1)"
tap_is "$(printf '%s' "$j" | jq -r '.fix.tree_checked')" true "tree_checked true"
tap_is "$(printf '%s' "$j" | jq -r '.fix.introduced | map(.commit + " " + .tag) | join(",")')" "$INTRO v1.0" "introduced in v1.0"
tap_is "$(printf '%s' "$j" | jq -r '.fix.backports | map(.commit + " " + .tag + " " + .branch) | join(",")')" \
	"$BP v1.0.1 linux-1.0.y" "the stable backport found, first in v1.0.1"

# The dyad pairs: public, like every record, so not under embargo.
out=$(st export 1 --format dyad 2>&1); rc=$?
tap_is "$rc" 1 "export --format dyad under embargo exits 1"
tap_like "$out" "report 1 is under embargo .*: no dyad before disclosure" "saying why"
st triage 1 --public >/dev/null
out=$(st export 1 --format dyad 2>/dev/null); rc=$?
tap_is "$rc" 0 "export --format dyad exits 0"
tap_is "$(printf '%s\n' "$out" | grep -v '^#')" "$(printf '1.0:%s:1.1:%s\n1.0:%s:1.0.1:%s' "$INTRO" "$FIX" "$INTRO" "$BP")" "dyad: mainline and stable pairs, the -rc written as its release"

# kernel.git stands for --tree; a newer fix replaces the older one, but
# not without a word: it would forget the introducing commit and the
# backport the tree gave, so it asks for --replace, naming them.
printf '[kernel]\n\tgit = %s\n' "$G" > "$T/config"
before=$(nev)
out=$(st fix 1 --commit "$(rev v1.1)" 2>&1); rc=$?
tap_is "$rc" 1 "replacing a tree-checked fix without --replace is refused" "$out"
tap_like "$out" "would replace the recorded fix $(printf %.12s "$FIX") \(checked in a tree, first in v1.1-rc1; 1 introducing commit; 1 backport\).*--add keeps it.*--replace replaces it" \
	"  naming the fix and what would be forgotten" "$out"
tap_is "$(nev)" "$before" "  nothing recorded"
out=$(st fix 1 --commit "$(rev v1.1)" --replace 2>&1); rc=$?
tap_is "$rc" 0 "fix with kernel.git and --replace exits 0"
tap_like "$out" "\(replacing $(printf %.12s "$FIX")\)$" "  and says what it replaced" "$out"
# The same fix again without a tree forgets what the tree said of it.
: > "$T/config"
out=$(st fix 1 --commit "$(rev v1.1)" 2>&1); rc=$?
tap_is "$rc" 1 "the same fix again without a tree is refused too" "$out"
tap_like "$out" "\(checked in a tree, first in v1\.1\)" "  naming what the tree told" "$out"
printf '[kernel]\n\tgit = %s\n' "$G" > "$T/config"
j=$(st show 1 --json)
tap_is "$(printf '%s' "$j" | jq -r '.fix.tag + " " + (.fix.tree_checked|tostring) + " " + (.fix.introduced|length|tostring)')" "v1.1 true 0" "checked in kernel.git's tree; the new fix starts afresh"
tap_is "$(st export 1 --format dyad 2>/dev/null | grep -v '^#')" "0:0:1.1:$(rev v1.1)" "dyad without an introducing commit: 0:0"

# Several fixes: --add, --drop.
out=$(st fix 1 --commit "$FIX" --add --introduced "$INTRO" --stable linux-1.0.y 2>&1); rc=$?
tap_is "$rc" 0 "fix --add exits 0"
tap_like "$out" "^report 1: added fix $(printf %.12s "$FIX") \(v1.1-rc1\)" "  and says so"
j=$(st show 1 --json)
tap_is "$(printf '%s' "$j" | jq -r '.events[-4].kind')" fix-add "  a fix-add event (then its introduced, backport and the branch searched)"
tap_is "$(printf '%s' "$j" | jq -c '[.fixes[] | [.tag, (.introduced | length), (.backports | length)]]')" \
	'[["v1.1",0,0],["v1.1-rc1",1,1]]' "show --json: both fixes, each with its own commits"
tap_is "$(printf '%s' "$j" | jq -r '.fix.tag')" v1.1 "  .fix is still the first"
tap_is "$(st show 1 | grep -c '^Fix ')" 2 "show: a Fix line each"
tap_like "$(st list)" '^1 .* v1.1,v1.1-rc1/- +frobnicator overflow$' "list: both in the FIX/CVE column"
tap_is "$(st list --json | jq -r '[.[0].fixes[].tag] | join(" ")')" "v1.1 v1.1-rc1" "list --json: both"
tap_is "$(st export 1 --format dyad 2>/dev/null | grep -v '^#')" \
	"$(printf '1.0:%s:1.1:%s\n1.0:%s:1.1:%s\n1.0:%s:1.0.1:%s' "$INTRO" "$(rev v1.1)" "$INTRO" "$FIX" "$INTRO" "$BP")" \
	"dyad: the pairs of each fix (the bug's introducing commit is the one any fix names)"
st fix 1 --commit "$FIX" --add --introduced "$INTRO" >/dev/null 2>&1
tap_is "$(st show 1 --json | jq -c '[.fixes[] | [.tag, (.backports | length)]]')" '[["v1.1",0],["v1.1-rc1",0]]' \
	"the same SHA again with --add replaces it where it stands"
before=$(nev)
out=$(st fix 1 --drop 0123abcd 2>&1); rc=$?
tap_is "$rc" 1 "dropping a fix the report lacks is refused"
tap_like "$out" "fix --drop '0123abcd': no fix of report 1 has this SHA" "  naming it"
out=$(st fix 1 --drop "$FIX" --add 2>&1); rc=$?
tap_is "$rc" 2 "--drop with --add is a usage error"
out=$(st fix 1 --drop "$FIX" --commit "$FIX" 2>&1); rc=$?
tap_is "$rc" 2 "--drop with --commit is a usage error"
tap_is "$(nev)" "$before" "  nothing recorded"
out=$(st fix 1 --drop "$(rev v1.1 | cut -c1-10)" 2>&1); rc=$?
tap_is "$rc:$out" "0:report 1: fix $(rev v1.1 | cut -c1-12) dropped (1 left)" "fix --drop by a prefix"
j=$(st show 1 --json)
tap_is "$(printf '%s' "$j" | jq -r '.events[-1].kind + " " + .events[-1].detail')" "fix-drop commit=$(rev v1.1)" "  a fix-drop event"
tap_is "$(printf '%s' "$j" | jq -r '[.fixes[].commit] | join(" ")')" "$FIX" "  the other fix stays"

# A report's first --add is a "fix" event.
mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
   --to "$OFFICER_FPR" --subject "another overflow" --body "overflow in net/core/frob.c" \
   --message-id "f2@example.net" > "$T/r2.eml"
st import "$T/r2.eml" >/dev/null
st fix 2 --commit "$FIX" --add >/dev/null 2>&1
tap_is "$(st show 2 --json | jq -r '[.events[] | select(.kind | startswith("fix")) | .kind] | join(" ")')" fix \
	"fix --add on a report without a fix writes a fix event"

# libgit2 is loaded when a tree is read (core/ktree.c), not at start: the
# program runs without it, and a libgit2.so.1.5 that is not libgit2 is
# refused, named, with nothing recorded.
tap_unlike "$(ldd "$SECTEAM_BIN")" "libgit2" "the program is not linked to libgit2"
mkdir -p "$T/fakelib"
echo 'int not_libgit2(void) { return 0; }' >"$T/fakelib/f.c"
cc -shared -fPIC -o "$T/fakelib/libgit2.so.1.5" "$T/fakelib/f.c"
before=$(st show 2 --json | jq '.events | length')
out=$(LD_LIBRARY_PATH=$T/fakelib st fix 2 --commit "$FIX" --tree "$G" 2>&1); rc=$?
tap_is "$rc" 1 "a libgit2.so.1.5 that is not libgit2: exit 1" "$out"
tap_like "$out" "libgit2.so.1.5 has no git_[a-z_]*: not the libgit2 this program was built for" \
	"  naming the library and what it lacks"
tap_is "$(st show 2 --json | jq '.events | length')" "$before" "  and recording nothing"
tap_done
