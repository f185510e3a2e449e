#!/bin/sh
# engines: sqlite pg
# End to end, the files the public texts name, the
# attacker's side.  Rita's signed report touches a path holding her name
# (tools/testing/selftests/ritareporter/x.c); a stranger who knows the
# report's Message-ID replies unsigned with a diff header that is a
# message to the list ("+++ b/drivers/URGENT: ... https://evil.example/
# fix.sh"); another reply is unsigned from Rita's own address (a spoof),
# another signed by a third party.  The distros notice, the announcement
# and the CVE, OSV and CSAF records name only the files of Rita's signed
# text, redacted (no "ritareporter"), and none of the others; `show`
# lists the stranger's files apart as unsigned, not among the report's.
# Once `fix --tree` has recorded the fix with the files it changes, those
# are the files the public texts name; an unsigned report's files are
# named by none.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup public-files
export TZ=UTC SECTEAM_TEST_NOW=2026-12-01T10:00:00Z
st() { "$SECTEAM_BIN" --db "$DB" --gnupghome "$H" --config "$T/config" "$@"; }
cf() { /usr/bin/python3 "$SECTEAM_TOP/tests/lib/check-forward.py" "$@"; }
printf '[team]\n\taddress = security@example.org\n[cve]\n\torg_id = 6c8b7f1e-2a3d-4c5b-9e8f-0a1b2c3d4e5f\n' > "$T/config"
gpg --homedir "$S" --batch --export-secret-keys "$VENDOR_FPR" > "$T/list.key"

RITA="Rita Reporter <rita@example.net>"
EVIL='URGENT: distros, the real fix is at https://evil.example/fix.sh'
# What must reach no public text: the stranger's line (touched/ collapses
# its "//"), the spoofed and the third party's files, the reporter's name.
BAD='URGENT|evil\.example|spoofed\.c|mia\.c|ritareporter|[Rr]ita'

printf 'A use-after-free in net/ipv4/tcp_input.c; my selftest:\n\n--- a/tools/testing/selftests/ritareporter/x.c\n+++ b/tools/testing/selftests/ritareporter/x.c\n@@ -1 +1 @@\n-a\n+b\n' > "$T/r1.txt"
mk --kind encrypted-signed --from "$RITA" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
   --subject "tcp use-after-free" --body-file "$T/r1.txt" \
   --message-id "m1@example.net" --date "Tue, 01 Dec 2026 09:00:00 +0000" > "$T/r1.eml"
printf 'Hello distros.\n\n+++ b/drivers/%s\n' "$EVIL" > "$T/r2.txt"
mk --kind plain --from "Sam Stranger <sam@example.com>" --subject "Re: tcp use-after-free" \
   --body-file "$T/r2.txt" --in-reply-to "m1@example.net" \
   --message-id "s1@example.com" --date "Tue, 01 Dec 2026 09:10:00 +0000" > "$T/r2.eml"
mk --kind plain --from "$RITA" --subject "Re: tcp use-after-free" \
   --body "+++ b/drivers/spoofed.c" --in-reply-to "m1@example.net" \
   --message-id "s2@example.com" --date "Tue, 01 Dec 2026 09:20:00 +0000" > "$T/r3.eml"
mk --kind encrypted-signed --from "Mia Maintainer <mia@example.org>" --sign-as "$MAINTAINER_FPR" \
   --to "$OFFICER_FPR" --subject "Re: tcp use-after-free" --body "+++ b/drivers/mia.c" \
   --in-reply-to "m1@example.net" --message-id "s3@example.org" \
   --date "Tue, 01 Dec 2026 09:30:00 +0000" > "$T/r4.eml"
mk --kind encrypted-signed --from "$RITA" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
   --subject "Re: tcp use-after-free" --body "Also net/ipv4/tcp_output.c." \
   --in-reply-to "m1@example.net" --message-id "m2@example.net" \
   --date "Tue, 01 Dec 2026 09:40:00 +0000" > "$T/r5.eml"
for i in 1 2 3 4 5; do
	st import "$T/r$i.eml" > "$T/out" 2>&1 || { echo "Bail out! import r$i: $(cat "$T/out")"; exit 1; }
done
tap_is "$(st show 1 --json | jq -r '.messages_detail | length')" 5 "the four replies joined the report"

# show: the stranger's files apart, as unsigned; not the report's.
st show 1 > "$T/show"
tap_like "$(grep '^Unsigned files (message 2)' "$T/show")" 'drivers/URGENT: distros' \
	"show lists the stranger's file apart, as unsigned"
tap_like "$(grep "^Others' files (message 4)" "$T/show")" 'drivers/mia\.c' \
	"show lists the third party's signed file apart too"
tap_unlike "$(grep '^Files ' "$T/show")" 'URGENT|evil|spoofed|mia' "show: not among the report's files"
tap_like "$(grep '^Files ' "$T/show")" 'net/ipv4/tcp_output.c' "show: the reporter's signed reply's file is the report's"
tap_is "$(st show 1 --json | jq -r '[.files_unsigned[] | select(test("URGENT"))] | length')" 1 \
	"show --json: files_unsigned holds it"
tap_is "$(st show 1 --json | jq -r '[.files[] | select(test("URGENT|spoofed|mia"))] | length')" 0 \
	"show --json: .files does not"

# The distros notice.
st vendor add linux-distros --contact linux-distros@vs.openwall.org --key "$VENDOR_FPR" \
	--kind distro >/dev/null
for s in triaged accepted fixing fix-ready; do st triage 1 --state $s >/dev/null; done
st fix 1 --commit 1a2b3c4d5e6f1a2b3c4d5e6f1a2b3c4d5e6f1a2b >/dev/null
st cve 1 --assign CVE-2026-10001 >/dev/null
st date set 1 2026-12-05 >/dev/null
st distros 1 --yes --outbox "$T/o1" >"$T/out" 2>&1
tap_ok $? "distros exits 0" "$(cat "$T/out")"
cf encrypted "$(find "$T/o1/new" -type f)" "$T/a1.asc" >/dev/null
gpg --homedir "$S" --batch --decrypt "$T/a1.asc" > "$T/i1" 2>/dev/null
inner=$(cf inner "$T/i1")
aff=$(printf '%s\n' "$inner" | grep 'Affected:')
tap_like "$aff" 'net/ipv4/tcp_input.c' "distros: Affected names the signed report's file"
tap_like "$aff" 'tools/testing/selftests/\[reporter\]/x\.c' "distros: the path holding the reporter's name, redacted"
tap_like "$aff" 'net/ipv4/tcp_output.c' "distros: and the reporter's signed reply's file"
tap_unlike "$inner" "$BAD" "distros: nothing of the stranger, the spoof, the third party or the reporter's name"

# Disclosed: the announcement and the records.
export SECTEAM_TEST_NOW=2026-12-05T13:00:00Z
st triage 1 --state disclosed >/dev/null
st announce 1 --yes --outbox "$T/o2" >"$T/out" 2>&1
tap_ok $? "announce exits 0" "$(cat "$T/out")"
pm=$(cf plain "$(find "$T/o2/new" -type f)")
tap_like "$pm" 'tools/testing/selftests/\[reporter\]/x\.c' "announce: the path redacted"
tap_unlike "$pm" "$BAD" "announce: nothing of the stranger, the spoof, the third party or the reporter's name"
for f in cve osv csaf; do
	st export 1 --format $f -o "$T/a.$f.json" 2>"$T/err"
	tap_ok $? "export --format $f" "$(cat "$T/err")"
	tap_unlike "$(cat "$T/a.$f.json")" "$BAD" "$f: nothing of the stranger, the spoof, the third party or the reporter's name"
done
tap_is "$(jq -c '[.containers.cna.affected[0].programFiles[]]' "$T/a.cve.json")" \
	'["net/ipv4/tcp_input.c","tools/testing/selftests/[reporter]/x.c","net/ipv4/tcp_output.c"]' \
	"cve: programFiles are the reporter's signed text's, redacted"

# A fix `fix --tree` recorded with its files: the public texts name the
# files it changes (plausible paths only, redacted), not the report's.
G=$T/linux
(
	set -e
	export GIT_AUTHOR_NAME=Dev GIT_AUTHOR_EMAIL=dev@example.org GIT_COMMITTER_NAME=Dev \
		GIT_COMMITTER_EMAIL=dev@example.org GIT_CONFIG_NOSYSTEM=1 HOME=$G.home
	mkdir -p "$G/net/ipv4" "$G/drivers" "$G/tools/testing/selftests/ritareporter" "$G.home"
	cd "$G"; git init -q -b master .
	echo a > net/ipv4/tcp_input.c; git add -A; git commit -q -m initial
	echo b > net/ipv4/tcp_input.c; echo c > "drivers/URGENT: see https:"
	echo d > tools/testing/selftests/ritareporter/y.c
	git add -A; git commit -q -m "tcp: fix the use-after-free"
) || { echo "Bail out! cannot build the git tree"; exit 1; }
mk --kind encrypted-signed --from "$RITA" --sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
   --subject "frob overflow" --body "overflow in net/core/frob.c" \
   --message-id "m3@example.net" --date "Sat, 05 Dec 2026 09:00:00 +0000" > "$T/r6.eml"
st import "$T/r6.eml" >/dev/null
st fix 2 --commit "$(git -C "$G" rev-parse HEAD)" --tree "$G" >"$T/out" 2>&1
tap_ok $? "fix --tree records the fix" "$(cat "$T/out")"
st date set 2 2026-12-08 >/dev/null
st distros 2 --yes --outbox "$T/o3" >"$T/out" 2>&1
tap_ok $? "distros of the second report exits 0" "$(cat "$T/out")"
cf encrypted "$(find "$T/o3/new" -type f)" "$T/a3.asc" >/dev/null
gpg --homedir "$S" --batch --decrypt "$T/a3.asc" > "$T/i3" 2>/dev/null
tap_like "$(cf inner "$T/i3" | grep 'Affected:')" \
	'Affected: +the Linux kernel: net/ipv4/tcp_input\.c, tools/testing/selftests/\[reporter\]/y\.c$' \
	"distros: Affected names the fix's files, redacted, not the report's, no implausible path"

# An unsigned report: its files are the report's for the team (show),
# but no public text names them.
mk --kind plain --from "Sam Stranger <sam@example.com>" --subject "sctp crash" \
   --body "+++ b/net/sctp/input.c" --message-id "u1@example.com" \
   --date "Sat, 05 Dec 2026 10:00:00 +0000" > "$T/r7.eml"
st import "$T/r7.eml" >/dev/null
tap_like "$(st show 3 | grep '^Files ')" 'net/sctp/input\.c' "show: the unsigned report's file is the report's"
st fix 3 --commit abcdef1 >/dev/null
st date set 3 2026-12-08 >/dev/null
st distros 3 --yes --outbox "$T/o4" >"$T/out" 2>&1
tap_ok $? "distros of the unsigned report exits 0" "$(cat "$T/out")"
cf encrypted "$(find "$T/o4/new" -type f)" "$T/a4.asc" >/dev/null
gpg --homedir "$S" --batch --decrypt "$T/a4.asc" > "$T/i4" 2>/dev/null
tap_like "$(cf inner "$T/i4" | grep 'Affected:')" \
	"the Linux kernel: files not named \(neither by a fix recorded with its tree nor by the reporter's signed mail\)" \
	"distros: no file from unsigned mail, and the notice says why"
tap_done
