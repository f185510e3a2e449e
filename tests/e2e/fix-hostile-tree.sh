#!/bin/sh
# engines: sqlite
# A hostile git tree: `fix --tree` reads a kernel tree that its owner
# configured to run programs.  Every program the tree names is a script
# that leaves a mark; none may run, whatever git would do with it:
#  - a partial clone whose promisor remote's uploadpack is the script,
#    asked for a commit it lacks (git lazy-fetches it, running it);
#  - log.showSignature with gpg.program set, and a signed backport on the
#    stable branch (git log verifies it, running gpg.program);
#  - core.fsmonitor, core.hooksPath hooks, core.sshCommand, a textconv
#    and a pager, and an include.path naming more of the same;
#  - the partial clone owned by another user, read by an officer whose
#    own git config trusts every tree (safe.directory=*).
# The tree still answers: tags and backports are found as in fix.sh.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
. "$SECTEAM_TOP/tests/lib/gitrepo.sh"
e2e_setup fix-hostile-tree
# Under AddressSanitizer: libgit2's own leak on a tree with extensions
# (tests/lib/lsan-libgit2.supp); full stacks so the suppression matches.
if ldd "$SECTEAM_BIN" 2>/dev/null | grep -q libasan; then
	export ASAN_OPTIONS="${ASAN_OPTIONS:-}:fast_unwind_on_malloc=0"
	export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$SECTEAM_TOP/tests/lib/lsan-libgit2.supp"
fi
: > "$T/config"
st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config" "$@"; }
export GIT_CONFIG_NOSYSTEM=1

G=$T/linux
gitrepo_make "$G" || { echo "Bail out! cannot build the git tree"; exit 1; }
gq() { HOME=$G.home git -C "$G" "$@"; }
FIX=$(gq rev-parse v1.1-rc1)

# The scripts: each leaves $T/ran.NAME and fails.
mkdir -p "$T/bin"
for n in uploadpack gpg fsmonitor hook ssh textconv pager included; do
	printf '#!/bin/sh\ntouch "%s/ran.%s"\nexit 1\n' "$T" "$n" > "$T/bin/$n"
	chmod 755 "$T/bin/$n"
done
ran() { ls "$T" | grep '^ran\.' | tr '\n' ' '; }

# A signed backport: a commit object with a gpgsig header, made by hand.
gq checkout -q linux-1.0.y
tree=$(gq rev-parse 'HEAD^{tree}')
parent=$(gq rev-parse HEAD)
SIGNED=$(printf 'tree %s\nparent %s\nauthor Dev <dev@example.org> 1767916800 +0000\ncommitter Dev <dev@example.org> 1767916800 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nnet: frobnicator: second backport\n\ncommit %s upstream.\n' \
	"$tree" "$parent" "$FIX" | gq hash-object -t commit -w --stdin)
gq update-ref refs/heads/linux-1.0.y "$SIGNED"
gq checkout -q master

# Everything that names a program, in the tree's own config.
gq config core.repositoryformatversion 1
gq config extensions.partialClone origin
gq config remote.origin.url "file://$T/upstream.git"
gq config remote.origin.promisor true
gq config remote.origin.partialclonefilter blob:none
gq config remote.origin.uploadpack "$T/bin/uploadpack"
gq config log.showSignature true
gq config gpg.program "$T/bin/gpg"
gq config core.fsmonitor "$T/bin/fsmonitor"
gq config core.sshCommand "$T/bin/ssh"
gq config core.pager "$T/bin/pager"
gq config diff.evil.textconv "$T/bin/textconv"
mkdir -p "$T/hooks"
for h in pre-commit post-checkout reference-transaction pre-auto-gc; do cp "$T/bin/hook" "$T/hooks/$h"; done
gq config core.hooksPath "$T/hooks"
printf '[core]\n\tfsmonitor = %s/bin/included\n' "$T" > "$T/included.cfg"
gq config include.path "$T/included.cfg"
echo '* diff=evil' > "$G/.gitattributes"
git init -q --bare "$T/upstream.git"

# Git itself would run them (so the tree is hostile as described).
gq rev-parse --verify --quiet "0123456789abcdef0123456789abcdef01234567^{commit}" >/dev/null 2>&1
tap_like "$(ran)" "ran.uploadpack" "control: git lazy-fetches through the promisor's uploadpack"
rm -f "$T"/ran.*
gq log --grep "upstream" linux-1.0.y >/dev/null 2>&1
tap_like "$(ran)" "ran.gpg" "control: git log runs gpg.program on the signed backport"
rm -f "$T"/ran.*

mk --kind encrypted-signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR" \
   --to "$OFFICER_FPR" --subject "frobnicator overflow" --body "overflow in net/core/frob.c" \
   --message-id "f1@example.net" > "$T/r1.eml"
st import "$T/r1.eml" >/dev/null

# (a) a commit the tree lacks: refused by name, nothing fetched, nothing run.
out=$(st fix 1 --commit 0123456789abcdef0123456789abcdef01234567 --tree "$G" 2>&1); rc=$?
tap_is "$rc" 1 "a commit the partial clone lacks is refused"
tap_like "$out" "commit 0123456789abcdef0123456789abcdef01234567 is not in the tree" "naming it"
tap_is "$(ran)" "" "(a) no program of the tree ran (promisor uploadpack, fsmonitor, hooks, ...)"

# (b) the stable branch with a signed backport: found, and no gpg.program.
out=$(st fix 1 --commit "$FIX" --tree "$G" --stable linux-1.0.y 2>&1); rc=$?
tap_is "$rc" 0 "fix --stable on the hostile tree exits 0"
tap_is "$(ran)" "" "(b) no program of the tree ran (gpg.program under log.showSignature)"
j=$(st show 1 --json)
tap_is "$(printf '%s' "$j" | jq -r '.fix.tag')" v1.1-rc1 "the fix's first tag is still read"
tap_is "$(printf '%s' "$j" | jq -r '[.fix.backports[].commit] | sort | join(",")')" \
	"$(printf '%s\n%s\n' "$(gq rev-parse v1.0.1)" "$SIGNED" | sort | paste -sd,)" \
	"both backports found, the signed one too"

# (c) the same tree owned by another user, and an officer's git config
# that trusts every tree: still nothing runs, and the tree is read.
if id nobody >/dev/null 2>&1; then
	mkdir -p "$T/home"
	printf '[safe]\n\tdirectory = *\n' > "$T/home/.gitconfig"
	chown -R nobody "$G"
	out=$(HOME=$T/home st fix 1 --commit 0123456789abcdef0123456789abcdef01234567 --tree "$G" 2>&1); rc=$?
	tap_is "$rc" 1 "another user's tree: a missing commit is refused"
	tap_is "$(ran)" "" "(c) another user's tree with safe.directory=*: no program ran"
	out=$(HOME=$T/home st fix 1 --commit "$FIX" --tree "$G" 2>&1); rc=$?
	tap_is "$rc" 0 "another user's tree is read (nothing it names can run)"
	tap_is "$(ran)" "" "(c) and still nothing ran"
	chown -R "$(id -u)" "$G"
else
	tap_ok 1 "no user 'nobody' on this machine for case (c)"
fi
tap_done
