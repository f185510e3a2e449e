#!/bin/sh
# End to end under valgrind memcheck: import (encrypted and signed,
# encrypted only, signed, inline-signed, plain, an mbox), list, show,
# show --json, triage (a duplicate link too), search, and export when it exists, fix, cve, the advisory
# exports (cve, osv, csaf, dyad, md) and due, each with
# --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite:
# any memory error or definite leak fails.  "Possibly lost" and "still
# reachable" one-time allocations of GLib, GMime and GPGME are not errors.
# tests/e2e/valgrind.supp holds suppressions, each saying why it is not
# ours.  gpg, run by GPGME, is not traced.  Skipped for sanitizer builds
# (ASan and valgrind do not mix) and when valgrind is missing.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
if ! command -v valgrind >/dev/null 2>&1; then
	tap_skip "valgrind memcheck" "valgrind not installed"
	tap_done
	exit 0
fi
if ldd "$SECTEAM_BIN" 2>/dev/null | grep -q 'lib[atu][bs]*san' ||
	nm "$SECTEAM_BIN" 2>/dev/null | grep -q '__asan_init'; then
	tap_skip "valgrind memcheck" "sanitizer build"
	tap_done
	exit 0
fi
e2e_setup vg
RITA="Rita Reporter <rita@example.net>"
mkdir -p "$T/m"
printf 'exploit\n' >"$T/m/x.c"
mk --kind encrypted-signed --from "$RITA" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
	--subject "vg encrypted" --body "see net/ipv4/tcp_input.c" --attach "$T/m/x.c" \
	--message-id "vg1@example.net" >"$T/m/1.eml"
mk --kind encrypted --from "$RITA" --to "$OFFICER_FPR" --subject "vg enc only" \
	--body "x" --message-id "vg2@example.net" >"$T/m/2.eml"
mk --kind signed --from "Sam Stranger <sam@example.com>" --sign-as "$STRANGER_FPR" \
	--subject "vg signed" --body "diff --git a/mm/slub.c b/mm/slub.c" \
	--message-id "vg3@example.net" >"$T/m/3.eml"
mk --kind inline-signed --from "$RITA" --sign-as "$REPORTER_FPR" --subject "vg inline" \
	--body "inline" --message-id "vg4@example.net" --in-reply-to "vg1@example.net" >"$T/m/4.eml"
mk --kind plain --from "$RITA" --subject "vg plain" --body "plain" \
	--message-id "vg5@example.net" >"$T/m/5.eml"
mk --kind badsig --from "$RITA" --sign-as "$REPORTER_FPR" --subject "vg bad" \
	--body "bad" --message-id "vg6@example.net" >"$T/m/6.eml"
/usr/bin/python3 - "$T/m" "$T/box.mbox" <<'PY'
import mailbox, sys, email
box = mailbox.mbox(sys.argv[2])
for i in (5, 6):
    with open("%s/%d.eml" % (sys.argv[1], i), "rb") as f:
        m = email.message_from_binary_file(f)
    m.replace_header("Message-ID", "<vgbox%d@example.net>" % i)
    box.add(m)
box.flush()
PY

supp=""
[ -f "$SECTEAM_TOP/tests/e2e/valgrind.supp" ] && supp="--suppressions=$SECTEAM_TOP/tests/e2e/valgrind.supp"
vg() { # NAME ARGS...: one command under memcheck, one TAP line
	_n=$1; shift
	# shellcheck disable=SC2086
	G_SLICE=always-malloc G_DEBUG=gc-friendly timeout 300 valgrind -q \
		--error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		--show-leak-kinds=definite --num-callers=30 $supp \
		--log-file="$T/vg.$_n.log" \
		"$SECTEAM_BIN" --db "$DB" --gnupghome "$H" "$@" >"$T/out.$_n" 2>"$T/err.$_n"
	_rc=$?
	_errs=$(grep -c '^==[0-9]*== [A-Z][a-z]* \|definitely lost' "$T/vg.$_n.log")
	tap_ok $([ "$_rc" != 99 ] && [ "$_rc" != 124 ] && [ "$_errs" = 0 ]; echo $?) \
		"memcheck: $_n (exit $_rc)" "$(head -n 60 "$T/vg.$_n.log")"
}
vg import-encrypted import "$T/m/1.eml" "$T/m/2.eml"
vg import-signed-plain import "$T/m/3.eml" "$T/m/4.eml" "$T/m/5.eml" "$T/m/6.eml"
vg import-mbox import "$T/box.mbox"
vg import-duplicates import "$T/m/1.eml" "$T/m/5.eml"
# The store stops an import while decryptions are in flight (another
# writer holds the lock past store.busy_timeout): what was read ahead is
# dropped, its gpg runs waited for, without a leak.
printf '[store]\n\tbusy_timeout = 1\n' > "$T/config"
for i in 1 2 3 4 5 6; do
	mk --kind encrypted --from "$RITA" --to "$OFFICER_FPR" --subject "vg lock $i" \
		--body "x" --message-id "vglock$i@example.net" >"$T/lock$i.eml"
done
db_write_lock "$DB" 60
vg import-locked --config "$T/config" import "$T"/lock?.eml
db_write_unlock
tap_like "$(tail -n 1 "$T/out.import-locked")" "not stored: database .* is busy" "the locked import under valgrind stopped with decryptions in flight"
vg list list
vg list-json list --json
vg show-encrypted show 1
vg show-json show 1 --json
vg show-signed show 3
vg triage triage 1 --state triaged --severity high --note "vg note"
# Search: the fields, then bodies opened in memory; duplicates.
vg search search tcp_input '"see net"' state:triaged
vg search-json search --json plain received:2026-01-01..
vg duplicate triage 3 --state duplicate --of 2
vg duplicate-refused triage 2 --state duplicate --of 3
vg show-duplicates show 2 --json
if "$SECTEAM_BIN" --help | grep -q '^  date'; then
	vg date-propose date propose 1 +5d --by reporter --reason "vg"
fi
if "$SECTEAM_BIN" --help | grep -q '^  export'; then
	vg export-json export 1 --format json -o "$T/e.json"
	vg export-md export --all --format md -o "$T/e.md"
fi
# Outgoing mail: a reply (encrypt, deliver, event, the copy
# through import), a refused one, and the reminders.
vg reply reply 1 --yes --outbox "$T/ob"
vg reply-refused reply 1 --template nosuch --yes --outbox "$T/ob"
vg due-mail due --mail --outbox "$T/ob"
# Fix tracking (git run as a subprocess), the CVE lifecycle and the
# advisory exports of a disclosed report.
if "$SECTEAM_BIN" --help | grep -q '^  fix'; then
	. "$SECTEAM_TOP/tests/lib/gitrepo.sh"
	gitrepo_make "$T/linux"
	vg fix fix 1 --commit "$(git -C "$T/linux" rev-parse v1.1-rc1)" \
		--introduced "$(git -C "$T/linux" rev-parse v1.0)" --tree "$T/linux" --stable linux-1.0.y
	vg cve-assign cve 1 --assign CVE-2026-12345
	"$SECTEAM_BIN" --db "$DB" --gnupghome "$H" triage 1 --public >/dev/null
	vg list-fixcve list
	printf '[cve]\n\torg_id = 6c8b7f1e-2a3d-4c5b-9e8f-0a1b2c3d4e5f\n' > "$T/cve.config"
	for f in cve osv csaf dyad md; do
		vg export-$f --config "$T/cve.config" export 1 --format $f -o "$T/adv.$f"
	done
	vg due due
fi
tap_is "$(cut -f 2 "$T/out.import-encrypted" | tr '\n' ' ')" "valid not-signed " "imports under valgrind give the usual verdicts"
tap_done
