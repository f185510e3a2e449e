#!/bin/sh
# Builds the demo team used by `make run`: its own GnuPG home (officer,
# reporters, a maintainer, a vendor, the area maintainers of its
# MAINTAINERS excerpt), its own config, database and kernel tree (that
# excerpt, scripts/demo/MAINTAINERS), and seventeen encrypted and signed
# reports in every state (report 8 disclosed, with a fix and a CVE ID;
# report 15 a duplicate of 10) and with every signature verdict, dated relative
# to today; one reply carries a reproducer withheld until the reporter
# consents.  Keys are made here, never shipped.  It lives apart from real
# data, in $SECTEAM_DEMO_DIR (default $XDG_DATA_HOME/secteam-demo); a
# second run reuses it unless --reset.
#   scripts/demo.sh [--reset] BIN     prints the demo directory
set -eu
# Nobody else may write what the demo makes: secteam-tui refuses a config
# others can write, or one in a folder they can write, whatever the umask
# of the one who runs make run.
umask 022
top=$(cd "$(dirname "$0")/.." && pwd)
reset=0
[ "${1:-}" = "--reset" ] && { reset=1; shift; }
BIN=${1:-$top/build/secteam-tui}
D=${SECTEAM_DEMO_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/secteam-demo}
if [ -f "$D/ready" ] && [ $reset = 0 ]; then
	# A demo made before the umask above may have a group-writable config
	# (its folder is made 0700 below).
	chmod go-w "$D" "$D/config" 2>/dev/null || true
	echo "$D"
	exit 0
fi
stop_agents() { # the agents gpg started for the set-up, in both homes
	for h in "$D/keys/home" "$D/keys/senders"; do
		[ -d "$h" ] && GNUPGHOME="$h" gpgconf --kill all 2>/dev/null
	done
	return 0
}
stop_agents
rm -rf "$D"
trap stop_agents EXIT
trap 'exit 1' HUP INT TERM
mkdir -p "$D/mail"
chmod 700 "$D"
echo "demo: making keys and reports in $D" >&2
. "$top/tests/lib/gpg-env.sh"
gpg_env_setup "$D/keys" >/dev/null
mkdir -p "$D/linux"
cp "$top/scripts/demo/MAINTAINERS" "$D/linux/MAINTAINERS"
# The officer's digest (due --mail) goes to the officer's address: the
# officer is the Unix user (a name the config can hold as a key).
demo_officer_line() {
	case $(id -un) in
	*[!A-Za-z0-9_-]*) ;;
	*) printf '[officers]\n\t%s = security@example.org\n' "$(id -un)" ;;
	esac
}
cat > "$D/config" <<CFG
# The demo team's configuration (see secteam-tui(1), CONFIGURATION).
[officer]
	name = demo-officer
[team]
	roster = $OFFICER_FPR
	address = security@example.org
[policy]
	default_days = 7
	max_days = 14
[forward]
	outbox = $D/outbox
$(demo_officer_line)
[kernel]
	tree = $D/linux
[cve]
	org_id = 6c8b7f1e-2a3d-4c5b-9e8f-0a1b2c3d4e5f
CFG
S=$D/keys/senders
H=$D/keys/home
# demo_keys: a key for every M: and R: person of the MAINTAINERS excerpt,
# certified by the officer (forward --participants finds them by address),
# and one for Max, which the officer has but did not certify: the tour
# confirms it with `maintainers --add ... --key`, its fingerprint in
# $D/keys/max.fpr.
demo_keys() {
	sed -n 's/^[MR]:[[:space:]]*//p' "$D/linux/MAINTAINERS" | sort -u >"$D/keys/people"
	echo "Max Maintainer <max@example.org>" >>"$D/keys/people"
	while IFS= read -r who; do
		_gpg_env_genkey "$S" "$who" never &&
			_gpg_env_move_pub "$S" "$H" "$(_gpg_env_fpr "$S" "$who")" || return 1
	done <"$D/keys/people"
	while IFS= read -r who; do
		fpr=$(_gpg_env_fpr "$S" "$who")
		case $who in
		Max*) echo "$fpr" >"$D/keys/max.fpr" ;;
		*) _gpg_env_gpg "$H" --default-key "$OFFICER_FPR" --quick-sign-key "$fpr" || return 1 ;;
		esac
	done <"$D/keys/people"
	_gpg_env_gpg "$H" --check-trustdb
}
demo_keys || { echo "demo: cannot make the maintainers' keys" >&2; exit 1; }
st() { "$BIN" --db "$D/secteam.db" --gnupghome "$D/keys/home" --config "$D/config" "$@"; }
mk() { /usr/bin/python3 "$top/tests/lib/mkpgp.py" --gnupghome "$S" "$@"; }
ago() { date -R -d "-$1 days"; }
RITA="Rita Reporter <rita@example.net>"
SAM="Sam Stranger <sam@example.com>"

n=0
report() { # days-ago kind from sign-as subject body [mkpgp options...]
	n=$((n + 1))
	sign=""
	[ -n "$4" ] && sign="--sign-as $4"
	_d=$1 _k=$2 _f=$3 _s=$5 _b=$6
	shift 6
	# shellcheck disable=SC2086
	mk --kind "$_k" --from "$_f" $sign --to "$OFFICER_FPR" --subject "$_s" \
		--body "$_b" --message-id "demo-$n@example.net" --date "$(ago "$_d")" "$@" \
		> "$D/mail/$(printf %02d $n).eml"
}
report 12 encrypted-signed "$RITA" "$REPORTER_FPR" "Heap overflow in net/ipv4/tcp_input.c SACK handling" \
"Hello security team,

a crafted SACK block overflows the scoreboard in net/ipv4/tcp_input.c
(tcp_sacktag_walk). A reproducer is available on request.

diff --git a/net/ipv4/tcp_input.c b/net/ipv4/tcp_input.c
--- a/net/ipv4/tcp_input.c
+++ b/net/ipv4/tcp_input.c
@@ -1,3 +1,4 @@
+	if (unlikely(len > skb->len)) return -EINVAL;

Rita"
report 10 encrypted-signed "$SAM" "$STRANGER_FPR" "Use-after-free in io_uring/io_uring.c on ring teardown" \
"The request is freed in io_uring/io_uring.c while a task_work still references it.
Affects include/linux/io_uring_types.h users too."
report 9 encrypted-signed "$RITA" "$REPORTER_FPR" "KVM: x86: guest can read host MSR via arch/x86/kvm/x86.c" \
"arch/x86/kvm/x86.c lets a guest read MSR_IA32_TSX_CTRL of the host."
report 8 signed "$RITA" "$REPORTER_FPR" "ext4: out-of-bounds read in fs/ext4/namei.c" \
"A corrupted directory block makes fs/ext4/namei.c read past the buffer."
report 6 encrypted-signed "$RITA" "$REPORTER_FPR" "nf_tables: double free in net/netfilter/nf_tables_api.c" \
"Double free when a set element expires during a transaction (net/netfilter/nf_tables_api.c)."
report 5 encrypted "$SAM" "" "Bluetooth: L2CAP info leak in net/bluetooth/l2cap_core.c" \
"Uninitialised stack bytes leak to the peer from net/bluetooth/l2cap_core.c."
report 4 encrypted-signed "$RITA" "$REPORTER_FPR" "USB: race in drivers/usb/core/hub.c on disconnect" \
"A race between hub_event and disconnect in drivers/usb/core/hub.c."
report 3 encrypted-signed "$SAM" "$STRANGER_FPR" "mm: page refcount overflow in mm/gup.c" \
"Pinning the same page 2^31 times overflows its refcount (mm/gup.c)."
report 2 plain "Anonymous <anon@example.org>" "" "Possible DoS in fs/fuse/dev.c (unencrypted report)" \
"Sent in the clear: a FUSE daemon can stall fs/fuse/dev.c forever."
report 2 encrypted-signed "$RITA" "$REPORTER_FPR" "sctp: null dereference in net/sctp/sm_statefuns.c" \
"An INIT chunk without parameters dereferences NULL in net/sctp/sm_statefuns.c."
report 1 inline-signed "$RITA" "$REPORTER_FPR" "Documentation: security-bugs.rst misstates the embargo" \
"Documentation/admin-guide/security-bugs.rst says 14 days; policy says 7."
report 0 encrypted-signed "$SAM" "$STRANGER_FPR" "perf: kernel pointer leak in kernel/events/core.c" \
"perf_event_open leaks a kernel pointer through kernel/events/core.c."
# A reply that joins the first report's thread, with the reproducer: exploit
# code, which a forward withholds until the reporter consents
# (triage 1 --consent exploit).
cat >"$D/keys/sack-repro.c" <<'POC'
/* sack-repro.c: sends a SACK block past the scoreboard (demo, not real). */
#include <stdio.h>
int main(void) { puts("would send the crafted SACK here"); return 0; }
POC
n=$((n + 1))
mk --kind encrypted-signed --from "$RITA" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
	--subject "Re: Heap overflow in net/ipv4/tcp_input.c SACK handling" \
	--body "Reproducer attached as agreed; please do not publish it." \
	--attach "$D/keys/sack-repro.c" \
	--message-id "demo-$n@example.net" --in-reply-to "demo-1@example.net" --date "$(ago 11)" \
	> "$D/mail/$(printf %02d $n).eml"
# Reports 13 to 17: the verdicts the others do not show.
UMA="Uma Unknown <uma@unknown.example>"
EVE="Eve Expired <eve@expired.example>"
ROB="Rob Revoked <rob@revoked.example>"
report 3 badsig "$RITA" "$REPORTER_FPR" "x86/bugs: mitigation bypass in arch/x86/kernel/cpu/bugs.c" \
"Changed in transit after Rita signed it: arch/x86/kernel/cpu/bugs.c skips the
retpoline check on one family of CPUs."
report 2 signed "$UMA" "$UNKNOWN_FPR" "bpf: verifier accepts out-of-bounds access in kernel/bpf/verifier.c" \
"Signed by a key the team has never seen: kernel/bpf/verifier.c misses a bound."
report 1 signed "$ROB" "$REVOKED_FPR" "sctp: stale association reuse in net/sctp/sm_statefuns.c" \
"Signed by a key its owner has revoked since: net/sctp/sm_statefuns.c reuses a freed association."
report 1 encrypted-signed "$RITA" "$REPORTER_FPR" "ext4: inode checksum bypass in fs/ext4/inode.c" \
"Signed and encrypted by Rita: fs/ext4/inode.c trusts the checksum seed." \
	--around "Unsigned text someone added around the signed part: see also fs/ext4/super.c."
# Eve's key expired two days ago; gpg signs with it only at a time when it
# was still valid (its first hour), so the signature is made then.
n=$((n + 1))
eve_made=$(gpg --homedir "$S" --batch --with-colons --list-keys "$EXPIRED_FPR" |
	awk -F: '$1 == "pub" { print $6; exit }')
printf '%s\n' "Signed while Eve's key was valid: net/ipv6/route.c leaks a route's" \
	"refcount when a nexthop is replaced." >"$D/keys/expired-body.txt"
_gpg_env_gpg "$S" --faked-system-time "$((eve_made + 3600))" --local-user "$EXPIRED_FPR" \
	--output "$D/keys/expired-body.asc" --clearsign "$D/keys/expired-body.txt"
mk --kind plain --from "$EVE" --subject "ipv6: route refcount leak in net/ipv6/route.c" \
	--body-file "$D/keys/expired-body.asc" --message-id "demo-$n@example.net" \
	--date "$(ago 2)" >"$D/mail/$(printf %02d $n).eml"

# One report the demo leaves for the officer to import: the README's tour
# starts with `st import $D/mail/report.eml`.
mk --kind encrypted-signed --from "$RITA" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
	--subject "ipv4: integer overflow in net/ipv4/ip_fragment.c reassembly" \
	--body "Overlapping fragments wrap the queue length in net/ipv4/ip_fragment.c.

Rita" --message-id "demo-tour@example.net" --date "$(ago 0)" >"$D/mail/report.eml"

st import "$D"/mail/[0-9]*.eml >/dev/null
has() { "$BIN" --help | grep -q "^  $1 "; }
SECTEAM_OFFICER=alice
export SECTEAM_OFFICER
tri() { st triage "$@" >/dev/null; }
tri 1 --state triaged --severity high --claim
tri 1 --state accepted
tri 1 --state fixing --note "maintainer has a patch under review"
tri 2 --state triaged --severity critical --claim
tri 2 --state accepted
tri 3 --state triaged --severity medium
tri 4 --state triaged --severity low --claim
tri 4 --state accepted
tri 4 --state fix-ready
tri 5 --state triaged --severity high --claim
tri 5 --state accepted
tri 5 --state fix-ready
tri 5 --state disclosed
tri 6 --state triaged --severity medium
tri 6 --state accepted
tri 7 --state rejected --note "not reachable from userspace"
tri 8 --state triaged --severity high --claim
tri 9 --state triaged --severity low --public
tri 10 --state triaged --severity medium
tri 10 --state accepted
tri 10 --state fixing
tri 5 --state closed
# Report 8 went public early with its fix: the tour writes its records.
tri 8 --state accepted
st fix 8 --commit 3c4d5e6f7a8b9c0d --introduced 9a8b7c6d5e4f3a2b >/dev/null
st cve 8 --assign CVE-2026-11111 >/dev/null
tri 8 --state fixing
tri 8 --state fix-ready
tri 8 --state disclosed --early --reason "the fix went out in a stable release"
tri 15 --state duplicate --of 10
if has date; then
	st date propose 1 "+3d" --by reporter --reason "reporter asks for a short embargo" >/dev/null 2>&1 || true
	st date set 1 "$(date -u -d '-12 days +7 days' +%Y-%m-%d)" --override >/dev/null 2>&1 || true
	st date set 2 "$(date -u -d '+4 days' +%Y-%m-%d)" >/dev/null 2>&1 || true
	st date set 4 "$(date -u -d '+1 days' +%Y-%m-%d)" --reason "distros need one more day" >/dev/null 2>&1 || true
	st date set 6 "$(date -u -d '+2 days' +%Y-%m-%d)" >/dev/null 2>&1 || true
	st date set 10 "$(date -u -d '+5 days' +%Y-%m-%d)" >/dev/null 2>&1 || true
fi
if has vendor; then
	st vendor add Debian --contact security@debian.example --kind distro >/dev/null 2>&1 || true
	st vendor add "Vic Vendor Inc" --contact vic@vendor.example --key "$VENDOR_FPR" --kind vendor >/dev/null 2>&1 || true
	st vendor notify 1 Debian >/dev/null 2>&1 || true
	st vendor status 1 Debian acknowledged --note "tracking" >/dev/null 2>&1 || true
	st vendor notify 2 "Vic Vendor Inc" >/dev/null 2>&1 || true
fi
# Bring in area maintainers when a kernel tree is at hand (kernel.tree,
# /usr/src, or the cache that scripts/kernel-tree.sh fills).
st maintainers 1 --add-all >/dev/null 2>&1 || true
st maintainers 2 --add-all >/dev/null 2>&1 || true
st maintainers 1 --add "Mia Maintainer <mia@example.org>" >/dev/null 2>&1 || true
st forward 1 --to mia@example.org >/dev/null 2>&1 || true
touch "$D/ready"
echo "$D"
