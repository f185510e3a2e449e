#!/bin/bash
# tests/kernel/mutations.sh BUILD_DIR: the kernel check can fail.
#
# Each mutation below is a wrong series, of one of two kinds.
# The guest's: the real one (kernel-docs/patches) plus one patch that
# breaks a fact of kernel-docs/expectations.txt, made with git on the
# pristine files and written out with git format-patch.  `make
# kernel-check` (kernel-docs/validate.sh) runs with every stage that can be
# switched off switched off (series, pin, mail, checkpatch, maintainers,
# sphinx, control), so only the guest can catch it, and must:
#   - exit non-zero, with apply, kernel and boot ok and the guest FAIL;
#   - the checks named for the mutation must be among those that fail,
#     each with the reason given (so that a mutation caught by accident,
#     for another reason, does not count).
# The reviewer's: the committed mails themselves, changed as a reviewer
# finds them wrong (a rule's meaning, its spacing, the upstream sha, the
# author, the date, a tag, the sign-off, the addressing, the sender, a
# patch that does not apply).  make kernel-check runs with the series
# drift check, checkpatch, maintainers, sphinx and control off, and must
# fail at the stage named for the mutation, with the reason given; a
# mutation whose change reaches the documents also boots the guest, which
# must fail it too.  After the mutations, the real series must pass make
# kernel-check again (a failed apply leaves the cached tree as it was).
# Run from the repository root, after `make kernel-check` (the kernel it
# built is reused: a series changes only the initrd); `make
# kernel-mutations`, part of `make check`.  A mutation's
# verdict is cached under the hash of everything it depends on (its
# patches, the expectations, the guest's files, validate.sh, this script,
# secteam-tui and the kernel), so a rerun with nothing changed boots
# nothing.  Prints one line per mutation and a total; exits 1 when a wrong
# series passes.  KERNEL_CHECK_MUTATIONS=NAME,... runs only those.
set -u
umask 022
BUILD=${1:?usage: tests/kernel/mutations.sh BUILD_DIR}
[ -f kernel-docs/validate.sh ] || { echo "mutations: run from the repository root" >&2; exit 2; }
REPO=$(pwd)
BUILD=$(cd "$BUILD" && pwd) || exit 1
KC_TOP=$REPO
. "$REPO/scripts/kernel-lib.sh"
KD=$REPO/kernel-docs
T0=$(now)
KC_DIGITS=1

PRISTINE=$("$REPO/scripts/kernel-tree.sh" --partial 2>/dev/null) || { echo "mutations: no tree" >&2; exit 1; }
W=$(mktemp -d "${TMPDIR:-/tmp}/kernel-mutations.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
mkdir -p "$KC/mutations"

# --- the mutations ---------------------------------------------------------------
# NAME|WHAT|CHECKS: CHECKS are "STEP=REASON" separated by ";", REASON a
# text the failing check's detail must hold.
SD=Documentation/admin-guide/security-bugs.rst
MUTATIONS="\
address-typo|security@kernel.org misspelt as security@kernel.og in SECURITY CONTACT and $SD|section:SECURITY CONTACT=security@kernel.og;file:$SD=does not say;route:$SD=does not reach: security@kernel.org
contact-removed|the SECURITY CONTACT section removed from MAINTAINERS|section:SECURITY CONTACT=no section;route:$SD=does not reach: security@kernel.org
embargo-30-days|$SD: an embargo of up to 30 days from the report, which contradicts the 7 and 14 days from the start of the release process|file:$SD=sets other periods: 30 days
dead-pattern|MAINTAINERS: a new section whose F: pattern matches no file (hw-vulns/ for hw-vuln/)|patterns=Documentation/admin-guide/hw-vulns/
hunk-reverted|the real series with its hunk in $SD reverted|file:$SD=does not say
broken-rst|$SD: a title underline shorter than its title|file:$SD=Title underline too short"

# The reviewer's: NAME|WHAT|STAGE=REASON[;STEP=REASON...]: the stage whose
# line must say FAIL with REASON, then the guest's checks that must fail
# (none: the run stops after the host stages).
P1=0001-Documentation-security-bugs.rst-linux-distros-relaxe.patch
MAILS="\
meaning|a rule changed: linux-distros once a fix is merged, not accepted|pin=$SD after the series is blob;file:$SD=does not say
spacing|one of the two blanks after a sentence's full stop dropped (the patch still applies)|pin=$SD after the series is blob
sha|the line 'commit <sha> upstream.' names another commit|mail=is not the pinned upstream commit 0217f3944aebad1d4beec5894ec80472b94b4139
author|the in-body From: (upstream's author) dropped: git am makes the sender the author|mail=no in-body From:
date|the in-body Date: is the day the series was made, not upstream's|mail=not upstream's author date
tags|upstream's Acked-by: dropped|mail=upstream's tag 'Acked-by: Jiri Kosina <jkosina@suse.cz>' is missing
sign-off|the sender's Signed-off-by: dropped|mail=the last Signed-off-by: is Greg Kroah-Hartman
addressing|security@kernel.org in To: and stable@ in Cc:|mail=To: does not hold stable@vger.kernel.org
sender-reserved|sent and signed off from an address at example.com, not the marked example identity|mail=is at a reserved domain (example.com)
sender-unmarked|the example identity without the mark that it is one|mail=but the mail is not marked
non-applying|a context line of the hunk that the tree does not have|apply=$P1 does not apply: error: patch failed: $SD"

# mutate_mail NAME FILE: the change of reviewer's mutation NAME in the mail
# FILE (a copy of the committed $P1)
mutate_mail() {
	local f=$2
	case $1 in
	meaning) sed -i 's/^+mailing list UNTIL a fix is accepted by the affected code.s maintainers$/+mailing list UNTIL a fix is merged by the affected code'"'"'s maintainers/' "$f" ;;
	spacing) sed -i 's/^+disclosure between operating system vendors\.  Coordination/+disclosure between operating system vendors. Coordination/' "$f" ;;
	sha) sed -i 's/^commit 0217f3944aebad1d4beec5894ec80472b94b4139 upstream\.$/commit 0217f3944aebad1d4beec5894ec80472b94b4138 upstream./' "$f" ;;
	author) sed -i '/^From: Willy Tarreau <w@1wt.eu>$/d' "$f" ;;
	date) # the in-body one: the second Date: line
		awk '/^Date: / && ++n == 2 { print "Date: Sat, 5 Dec 2026 10:26:36 +0000"; next } { print }' "$f" >"$f.new" && mv "$f.new" "$f" ;;
	tags) sed -i '/^Acked-by: Jiri Kosina <jkosina@suse.cz>$/d' "$f" ;;
	sign-off) awk '/^Signed-off-by: / { last = NR } { l[NR] = $0 } END { for (i = 1; i <= NR; i++) if (i != last) print l[i] }' "$f" >"$f.new" && mv "$f.new" "$f" ;;
	addressing) sed -i -e 's/^To: stable@vger.kernel.org$/To: Security Officers <security@kernel.org>/' \
		-e 's/^    Security Officers <security@kernel.org>,$/    stable@vger.kernel.org,/' "$f" ;;
	sender-reserved) sed -i -e "s/$KC_EXAMPLE_NAME/Jane Roe/g" -e "s/$KC_EXAMPLE_EMAIL/jane.roe@example.com/g" -e '/^X-Example-Sender:/d' "$f" ;;
	sender-unmarked) sed -i '/^X-Example-Sender:/d' "$f" ;;
	non-applying) sed -i 's/^ Coordination with other groups$/ Coordination with the other groups/' "$f" ;;
	esac
	! cmp -s "$f" "$KD/patches/$P1" || { echo "the mutation changed nothing" >&2; return 1; }
}

# mutate NAME: the change of mutation NAME, in the current directory (a tree
# with the real series applied)
mutate() {
	case $1 in
	address-typo)
		sed -i 's/^M:\tSecurity Officers <security@kernel.org>$/M:\tSecurity Officers <security@kernel.og>/' MAINTAINERS
		sed -i 's/<security@kernel.org>/<security@kernel.og>/' "$SD" ;;
	contact-removed)
		awk '$0 == "SECURITY CONTACT" { skip = 1 } skip && /^$/ { skip = 0; next } !skip' MAINTAINERS >M.new &&
			mv M.new MAINTAINERS ;;
	embargo-30-days)
		awk '{ print } /^coordination\.$/ && !done { print ""; print "Fixes for bugs reported to the security team are embargoed for up to 30 days"; print "from the report."; done = 1 }' "$SD" >S.new &&
			mv S.new "$SD" ;;
	dead-pattern)
		awk '$0 == "X86 MCE INFRASTRUCTURE" { print "X86 HARDWARE VULNERABILITIES"; print "M:\tThomas Gleixner <tglx@linutronix.de>"; print "S:\tMaintained"; print "F:\tDocumentation/admin-guide/hw-vulns/"; print "" } { print }' MAINTAINERS >M.new &&
			mv M.new MAINTAINERS ;;
	hunk-reverted)
		# the reverse of the real series' hunk in security-bugs.rst
		G diff -R pristine HEAD -- "$SD" | G apply ;;
	broken-rst)
		sed -i 's/^------------------------------------$/--------------/' "$SD" ;;
	esac
}

# --- a scratch repository: the pristine files the mutations touch ----------------
# (a fixed date: the same mutation is the same series, whose verdict is cached)
G() { GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_DATE='2000-01-01T00:00:00Z' \
	GIT_COMMITTER_DATE='2000-01-01T00:00:00Z' git -C "$W/tree" -c user.name=mutation \
	-c user.email=mutation@localhost -c core.abbrev=12 "$@"; }
mkdir -p "$W/tree"
SERIES=$(grep -v '^[[:space:]]*\(#\|$\)' "$KD/patches/series")
for f in MAINTAINERS "$SD" $(kc_series_paths "$KD/patches" "$KD/series"); do
	[ -f "$W/tree/$f" ] && continue
	mkdir -p "$W/tree/$(dirname "$f")" && cp "$PRISTINE/$f" "$W/tree/$f"
done
{
	G init -q && G add -A && G commit -q -m pristine && G tag pristine &&
		for p in $SERIES; do G am -q "$KD/patches/$p" || exit 1; done && G tag real
} >"$W/git.log" 2>&1 || { cat "$W/git.log"; echo "mutations: the real series does not apply" >&2; exit 1; }

# --- what a verdict depends on -----------------------------------------------------
IMG=$(ls "$KC"/bzImage-* 2>/dev/null | head -n 1)
BASEKEY=$( { cat "$KD/expectations.txt" "$KD/qemu"/* "$KD/validate.sh" "$KD/mailcheck.py" "$KD/series"/* "$0" \
	"$REPO/scripts/kernel-lib.sh"; sha256sum "$BUILD/secteam-tui" /bin/busybox; basename "$PRISTINE"; echo "$IMG"; } | kc_hash)

total=0
failed=0
only=${KERNEL_CHECK_MUTATIONS:-}
while IFS='|' read -r name what checks; do
	[ -n "$name" ] || continue
	case ",${only:-$name}," in *",$name,"*) ;; *) continue ;; esac
	total=$((total + 1))
	t=$(now)
	# the wrong series
	out=$W/series-$name
	mkdir -p "$out"
	(
		cd "$W/tree" && G checkout -q -f -B "m-$name" real && mutate "$name" &&
			G commit -q -a -m "mutation: $name" -m "$what" &&
			G format-patch -q --zero-commit -o "$out" pristine.. &&
			(cd "$out" && ls 0*.patch >series)
	) >"$W/m.log" 2>&1 || { cat "$W/m.log"; echo "mutations: $name: the mutation failed"; failed=$((failed + 1)); continue; }
	key=$( { echo "$BASEKEY $name $checks"; cat "$out"/*.patch; } | kc_hash)
	M=$KC/mutations/$name
	if [ -f "$M.$key" ]; then
		echo "mutations: $name ok (cached) $(cat "$M.$key")"
		continue
	fi
	rm -f "$M".*
	rm -rf "$M" && mkdir -p "$M"
	KERNEL_CHECK_PATCHES=$out KERNEL_CHECK_RUN=$M/run KERNEL_CHECK_SERIES=0 KERNEL_CHECK_CHECKPATCH=0 \
		KERNEL_CHECK_PIN=0 KERNEL_CHECK_MAIL=0 \
		KERNEL_CHECK_MAINTAINERS=0 KERNEL_CHECK_SPHINX=0 KERNEL_CHECK_CONTROL=0 \
		make -s --no-print-directory kernel-check B="$BUILD" >"$M/out" 2>&1
	rc=$?
	why=
	[ "$rc" != 0 ] || why="$why; make kernel-check passed"
	for s in apply kernel boot; do
		grep -q "^kernel-check: $s ok" "$M/out" || why="$why; stage $s not ok"
	done
	grep -q '^kernel-check: guest FAIL' "$M/out" || why="$why; the guest did not fail"
	caught=
	IFS=';' read -ra cs <<<"$checks"
	for c in "${cs[@]}"; do
		step=${c%%=*}
		reason=${c#*=}
		line=$(grep -F "$step " "$M/run/verdicts-patched" 2>/dev/null | grep -F -- " FAIL " | head -n 1)
		if [ -z "$line" ]; then
			why="$why; $step does not fail"
		elif ! printf '%s\n' "$line" | grep -qF -- "$reason"; then
			why="$why; $step fails, but not with \"$reason\": $(printf '%s' "$line" | cut -c1-200)"
		else
			caught="$caught $step"
		fi
	done
	if [ -n "$why" ]; then
		failed=$((failed + 1))
		sed 's/^/    /' "$M/out" | tail -n 25
		echo "mutations: $name FAIL ($(since "$t")) $what:${why#;}"
	else
		echo "the wrong series fails the guest:$caught" >"$M.$key"
		echo "mutations: $name ok ($(since "$t")) $what: the wrong series fails the guest:$caught"
	fi
done <<<"$MUTATIONS"

# --- the reviewer's mutations: the mails themselves ------------------------------
ran=
while IFS='|' read -r name what checks; do
	[ -n "$name" ] || continue
	case ",${only:-$name}," in *",$name,"*) ;; *) continue ;; esac
	total=$((total + 1))
	t=$(now)
	out=$W/series-$name
	mkdir -p "$out"
	cp "$KD/patches/series" "$KD/patches"/*.patch "$out/"
	mutate_mail "$name" "$out/$P1" 2>"$W/m.log" ||
		{ cat "$W/m.log"; echo "mutations: $name: the mutation failed"; failed=$((failed + 1)); continue; }
	key=$( { echo "$BASEKEY $name $checks"; cat "$out"/*.patch; } | kc_hash)
	M=$KC/mutations/$name
	if [ -f "$M.$key" ]; then
		echo "mutations: $name ok (cached) $(cat "$M.$key")"
		continue
	fi
	ran=1
	rm -f "$M".*
	rm -rf "$M" && mkdir -p "$M"
	stage=${checks%%;*}
	guest=
	[ "$stage" = "$checks" ] || guest=${checks#*;}
	# git's state of the cached tree before: the apply stage must leave it so
	tracked=$(ls -d "$KC"/repo-*/.git 2>/dev/null | head -n 1)
	before=
	[ -z "$tracked" ] || before=$(GIT_CONFIG_GLOBAL=/dev/null git --git-dir="$tracked" rev-parse -q --verify refs/heads/checked)
	KERNEL_CHECK_PATCHES=$out KERNEL_CHECK_RUN=$M/run KERNEL_CHECK_SERIES=0 KERNEL_CHECK_CHECKPATCH=0 \
		KERNEL_CHECK_MAINTAINERS=0 KERNEL_CHECK_SPHINX=0 KERNEL_CHECK_CONTROL=0 \
		KERNEL_CHECK_HOST_ONLY=$([ -n "$guest" ] && echo 0 || echo 1) \
		make -s --no-print-directory kernel-check B="$BUILD" >"$M/out" 2>&1
	rc=$?
	why=
	[ "$rc" != 0 ] || why="$why; make kernel-check passed"
	st=${stage%%=*}
	reason=${stage#*=}
	line=$(grep "^kernel-check: $st " "$M/out" | head -n 1)
	case $line in
	"kernel-check: $st FAIL"*) printf '%s\n' "$line" | grep -qF -- "$reason" ||
		why="$why; $st fails, but not with \"$reason\": $(printf '%s' "$line" | cut -c1-300)" ;;
	'') why="$why; no $st line" ;;
	*) why="$why; $st does not fail: $(printf '%s' "$line" | cut -c1-200)" ;;
	esac
	if [ "$st" = apply ] && [ -n "$tracked" ]; then
		R=${tracked%/.git}
		[ ! -d "$tracked/rebase-apply" ] || why="$why; git am left in progress in the cached tree"
		[ -z "$(GIT_CONFIG_GLOBAL=/dev/null git -C "$R" status --porcelain --untracked-files=no)" ] ||
			why="$why; the cached tree's tracked files changed"
		[ "$(GIT_CONFIG_GLOBAL=/dev/null git --git-dir="$tracked" rev-parse -q --verify refs/heads/checked)" = "$before" ] ||
			why="$why; the branch checked moved"
	fi
	caught="$st"
	if [ -n "$guest" ]; then
		IFS=';' read -ra cs <<<"$guest"
		for c in "${cs[@]}"; do
			step=${c%%=*}
			reason=${c#*=}
			line=$(grep -F "$step " "$M/run/verdicts-patched" 2>/dev/null | grep -F -- " FAIL " | head -n 1)
			if [ -z "$line" ]; then
				why="$why; $step does not fail in the guest"
			elif ! printf '%s\n' "$line" | grep -qF -- "$reason"; then
				why="$why; $step fails, but not with \"$reason\": $(printf '%s' "$line" | cut -c1-200)"
			else
				caught="$caught $step"
			fi
		done
	fi
	if [ -n "$why" ]; then
		failed=$((failed + 1))
		sed 's/^/    /' "$M/out" | tail -n 25
		echo "mutations: $name FAIL ($(since "$t")) $what:${why#;}"
	else
		echo "caught by: $caught" >"$M.$key"
		echo "mutations: $name ok ($(since "$t")) $what: caught by: $caught"
	fi
done <<<"$MAILS"

# --- the real series, again ----------------------------------------------------------
# After the wrong series (one of which did not apply), the real one passes:
# every stage but Sphinx (cached by make kernel-check) and the maintainers'.
if [ -n "$ran" ] || [ -z "$only" ]; then
	key=$( { echo "$BASEKEY real"; cat "$KD/patches"/*; } | kc_hash)
	M=$KC/mutations/real
	if [ -z "$ran" ] && [ -f "$M.$key" ]; then
		echo "mutations: real ok (cached) $(cat "$M.$key")"
	else
		t=$(now)
		rm -f "$M".*
		rm -rf "$M" && mkdir -p "$M"
		total=$((total + 1))
		# a run killed in the middle of git am leaves the am behind in
		# the cached tree: the next run must abort it, not fail on it
		stuck=
		tracked=$(ls -d "$KC"/repo-*/.git 2>/dev/null | head -n 1)
		if [ -n "$tracked" ] && [ -f "$W/series-non-applying/$P1" ]; then
			GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 git -C "${tracked%/.git}" -c user.name=mutation \
				-c user.email=mutation@localhost am -q "$W/series-non-applying/$P1" >/dev/null 2>&1
			[ -d "$tracked/rebase-apply" ] && stuck=", with a git am left in progress in the cached tree before it"
		fi
		if KERNEL_CHECK_RUN=$M/run KERNEL_CHECK_SPHINX=0 KERNEL_CHECK_MAINTAINERS=0 \
			make -s --no-print-directory kernel-check B="$BUILD" >"$M/out" 2>&1; then
			echo "the real series passes make kernel-check again$stuck" >"$M.$key"
			echo "mutations: real ok ($(since "$t")) the real series passes make kernel-check again$stuck"
		else
			failed=$((failed + 1))
			sed 's/^/    /' "$M/out" | tail -n 25
			echo "mutations: real FAIL ($(since "$t")) the real series does not pass make kernel-check after the mutations"
		fi
	fi
fi

if [ "$failed" = 0 ] && [ "$total" -gt 0 ]; then
	echo "mutations: total ok ($(since "$T0")) $total runs: every wrong series caught where it must be, the real series passes"
	exit 0
fi
echo "mutations: total FAIL ($(since "$T0")) $failed of $total not caught as they must be"
exit 1
