#!/bin/sh
# engines: sqlite
# The linux-distros notice carries the fix as a patch: the fix is
# public nowhere yet (the list's rules refuse a fix in a released
# tree), so each recorded fix goes with the notice, inside its
# encryption, as `git format-patch` would write it, read from
# `distros --tree GITDIR` (else config kernel.git).  git itself reads
# the attachment back: `git am` of it on the fix's parent gives the
# fix's own tree.  The patch is never in the clear; a tree without the
# fix refuses the notice naming the commit, nothing sent; without a
# tree the notice says no patch is attached, and why.
# One engine: the store plays no part in the patch.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup distros-patch
export TZ=UTC SECTEAM_TEST_NOW=2026-12-01T10:00:00Z
st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config" "$@"; }
cf() { /usr/bin/python3 "$SECTEAM_TOP/tests/lib/check-forward.py" "$@"; }
count() { find "$1" -type f 2>/dev/null | wc -l | tr -d ' '; }
printf '[team]\n\taddress = security@example.org\n' > "$T/config"
export GIT_AUTHOR_NAME=Dev GIT_AUTHOR_EMAIL=dev@example.org \
	GIT_COMMITTER_NAME=Dev GIT_COMMITTER_EMAIL=dev@example.org \
	GIT_CONFIG_NOSYSTEM=1 HOME=$T/home
mkdir -p "$HOME"

G=$T/linux
(
	set -e
	mkdir -p "$G/net/core"; cd "$G"
	git init -q -b master .
	printf 'int frob(char *b, int n)\n{\n\treturn n;\n}\n' > net/core/frob.c
	git add . && git commit -q -m "initial" && git tag v1.0
	printf 'int frob(char *b, int n)\n{\n\tif (n > 64)\n\t\treturn -1;\n\treturn n;\n}\n' > net/core/frob.c
	git commit -q -am "net: frob: bound the tail copy" -m "The tail copy ran past the buffer."
) || { echo "Bail out! cannot build the git tree"; exit 1; }
FIX=$(git -C "$G" rev-parse HEAD)
git init -q -b master "$T/other" && git -C "$T/other" commit -q --allow-empty -m "unrelated"

st vendor add linux-distros --contact linux-distros@vs.openwall.org --key "$VENDOR_FPR" \
	--kind distro >/dev/null
mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
   --to "$OFFICER_FPR" --subject "frob tail overflow" --body "heap overflow in net/core/frob.c" \
   --message-id "p1@example.net" --date "Tue, 01 Dec 2026 09:00:00 +0000" > "$T/r1.eml"
st import "$T/r1.eml" >/dev/null
for s in triaged accepted fixing; do st triage 1 --state $s >/dev/null; done
st fix 1 --commit "$FIX" --introduced "$(git -C "$G" rev-parse v1.0)" --tree "$G" >/dev/null
st date set 1 2026-12-06 >/dev/null
st triage 1 --state fix-ready >/dev/null

out=$(st distros 1 --yes --outbox "$T/o1" --tree "$G" 2>&1); rc=$?
tap_is "$rc" 0 "distros --tree exits 0" "$out"
tap_like "$out" "^attached: 0001-net-frob-bound-the-tail-copy\.patch \([0-9]+ bytes\)$" "  and says what it attaches"
m=$(find "$T/o1/new" -type f)
cf encrypted "$m" "$T/a1.asc" >/dev/null
tap_ok $? "the notice is encrypted (RFC 3156)"
grep -q "bound the tail copy\|if (n > 64)" "$m"
tap_ok $((! $?)) "neither the patch nor its subject is in the clear"
gpg --homedir "$S" --batch --quiet --decrypt "$T/a1.asc" > "$T/a1.in" 2>/dev/null
mkdir "$T/att"
inner=$(cf inner "$T/a1.in" "$T/att")
tap_like "$inner" "^attachment: 0001-net-frob-bound-the-tail-copy\.patch text/x-patch " \
	"the decrypted notice carries the patch, text/x-patch, named as git format-patch names it"
tap_like "$(cat "$T/att/1")" "^Subject: \[PATCH\] net: frob: bound the tail copy$" "  its Subject"

# git reads it: applied on the fix's parent, it gives the fix's tree.
git clone -q "$G" "$T/apply" && git -C "$T/apply" checkout -q "$FIX^"
out=$(git -C "$T/apply" am -q "$T/att/1" 2>&1)
tap_ok $? "git am takes the attached patch" "$out"
tap_is "$(git -C "$T/apply" rev-parse HEAD^{tree})" "$(git -C "$G" rev-parse "$FIX^{tree}")" \
	"  and gives the fix's own tree"

# A tree without the fix: refused, naming it, nothing sent.
out=$(st distros 1 --yes --outbox "$T/o2" --tree "$T/other" 2>&1); rc=$?
tap_is "$rc" 1 "a tree without the fix: exit 1"
tap_like "$out" "cannot send report 1 to linux-distros: commit $FIX is not in the tree" "  naming the commit"
tap_is "$(count "$T/o2")" 0 "  nothing sent"

# No tree: the notice goes, saying no patch is attached and why.
out=$(st distros 1 --yes --outbox "$T/o3" 2>&1); rc=$?
tap_is "$rc" 0 "no tree: distros exits 0" "$out"
tap_like "$out" "^no patch attached: no tree to read the fix from \(--tree GITDIR, or kernel\.git in the config\)$" "  saying why no patch is attached"
cf encrypted "$(find "$T/o3/new" -type f)" "$T/a3.asc" >/dev/null
gpg --homedir "$S" --batch --quiet --decrypt "$T/a3.asc" > "$T/a3.in" 2>/dev/null
tap_unlike "$(cf inner "$T/a3.in")" "^attachment:" "  and the notice carries none"

# kernel.git in the config stands for --tree.
printf '[kernel]\n\tgit = %s\n' "$G" >> "$T/config"
out=$(st distros 1 --yes --outbox "$T/o4" 2>&1); rc=$?
tap_like "$out" "^attached: 0001-net-frob-bound-the-tail-copy\.patch" "kernel.git: the patch attached without --tree"
out=$(st announce 1 --tree "$G" --yes --outbox "$T/o5" 2>&1); rc=$?
tap_is "$rc" 2 "announce takes no --tree (a usage error)"
tap_done
