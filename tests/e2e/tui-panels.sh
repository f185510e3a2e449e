#!/bin/sh
# engines: sqlite pg
# The report's panels in the UI, driven through tmux.  Participants: with
# a synthetic kernel tree (config kernel.tree) the panel lists the
# suggested maintainers with check boxes, Space checks one, `a` asks,
# naming her, and `y` brings her in (show --json from the shell sees it);
# a checked mailing list is asked about a second time and `n` leaves it
# out; `F` and `y` forward the report to the participants into the outbox
# Maildir, and `F` without an outbox shows the command's error.  Vendors:
# a vendor added from the shell is listed as not-notified; `n` is the
# next search match there as everywhere (it notifies nobody); `M` asks,
# naming the vendor and its contact, and `y` records the notification
# (status and date); a vendor named "Acme%iCorp" keeps its name (the UI
# passes it as a value, never through a command string).
# Disclosure: the policy's limits and a proposal made from the shell with
# its verdict.  Without a kernel tree the panel says so.  TAP output.
export SECTEAM_TEST_NOW=2026-12-02T12:00:00Z
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup tuipanels
e2e_tmux_setup
KT=$T/linux
mkdir -p "$KT/net/ipv4"
: >"$KT/net/ipv4/tcp_input.c"
cat >"$KT/MAINTAINERS" <<'EOF'
NETWORKING [GENERAL]
M:	Mia Maintainer <mia@example.org>
R:	Rex Reviewer <rex@example.org>
L:	netdev@vger.kernel.org
S:	Maintained
F:	net/

THE REST
M:	Linus Torvalds <torvalds@linux-foundation.org>
L:	linux-kernel@vger.kernel.org
S:	Buried alive in reporters
F:	*
F:	*/
EOF
write_config() {
	{
		printf '[kernel]\n\ttree = %s\n[team]\n\taddress = security@example.org\n' "$KT"
		[ -n "${1:-}" ] && printf '[forward]\n\toutbox = %s\n' "$1"
	} >"$T/config"
}
write_config
mail_pgp m1 "tcp overflow" "A heap overflow in net/ipv4/tcp_input.c, see tcp_input.c line 42."
e2e_import "$T/mail/m1.eml" || { echo "Bail out! import failed"; exit 1; }

# 1: the participants panel without a kernel tree says so plainly
printf '[kernel]\n\ttree = %s/none\n' "$T" >"$T/config"
tui_start 120 40
wait_for "tcp overflow"
keys Enter
wait_for "SIGNATURE valid"
keys p
tui_check "without a kernel tree the panel says how to set one" \
	wait_for "no kernel tree: set kernel.tree in the config or :maintainers --tree DIR"
tui_stop

# 2-6: suggestions, check, bring in, F without an outbox
write_config
tui_start 120 40
wait_for "tcp overflow"
keys Enter
wait_for "SIGNATURE valid"
keys p
if wait_for "participants of report 1" && wait_re '^  \[ \] "?Mia Maintainer"? <mia@example.org>'; then
	tui_ok 0 "the panel lists the suggested maintainers with check boxes"
else tui_ok 1 "the panel lists the suggested maintainers with check boxes"; fi
keys Space
tui_check "Space checks the suggestion under the cursor" wait_re '^  \[x\] "?Mia Maintainer"? <mia@example.org>'
keys a
tui_check "a asks first, naming who will be brought in" \
	wait_for "bring mia@example.org into report 1? [y/N]"
keys y
if wait_for "added" && wait_gone "[x]" && wait_re '^  "?Mia Maintainer"? <mia@example.org> \(maintainer'; then
	tui_ok 0 "a brings in the checked one: it is a participant"
else tui_ok 1 "a brings in the checked one: it is a participant"; fi
if sectui show 1 --json | grep -q '"email": *"mia@example.org"'; then tui_ok 0 "show --json lists the participant"
else tui_ok 1 "show --json lists the participant"; sectui show 1 --json | sed 's/^/# /' | head -40; fi
# The mailing list: asked about on its own, and n leaves it out.
keys j j
keys Space
wait_re '^  \[x\] netdev@vger.kernel.org'
keys a
wait_for "bring netdev@vger.kernel.org into report 1? [y/N]"
keys y
tui_check "a checked mailing list is asked about a second time" \
	wait_for "is a mailing list that may be public: bring it in anyway? [y/N]"
keys n
wait_for "nobody brought in"
if sectui show 1 --json | grep -q '"email": *"netdev@vger.kernel.org"'; then
	tui_ok 1 "n at the second question brings the list in"
else tui_ok 0 "n at the second question leaves the list out"; fi
# A records the acknowledgement of the participant under the cursor.
keys g
keys A
tui_check "A asks first, naming the participant" wait_re "record that .*mia@example.org.* acknowledged report 1\? \[y/N\]"
keys y
tui_check "y records it, saying so" wait_re "report 1: .*acknowledged"
tap_is "$(sectui show 1 --json | jq -r '.participants[] | select(.email == "mia@example.org") | .acknowledged_at | type')" \
	string "show --json has the acknowledgement"
keys F
wait_for "[y/N]"
keys y
tui_check "F then y without forward.outbox shows the command's error" wait_for "forward.outbox"
tui_stop

# 7-8: F then y forwards to the participants into the outbox
write_config "$T/outbox"
tui_start 120 40
wait_for "tcp overflow"
keys Enter
wait_for "SIGNATURE valid"
keys p
wait_for "participants of report 1"
keys F
tui_check "F asks before forwarding" wait_for "forward report 1, encrypted, to all its participants? [y/N]"
keys y
n=0
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	n=$(find "$T/outbox/new" -type f 2>/dev/null | wc -l | tr -d ' ')
	[ "$n" -ge 1 ] && break
	sleep 0.25
done
if [ "$n" -ge 1 ] && grep -q "mia@example.org" "$T/outbox/new/"*; then
	tui_ok 0 "F then y delivers the forward into the outbox Maildir"
else tui_ok 1 "F then y delivers the forward into the outbox Maildir"; fi

# 9-10: vendors
keys q
sectui vendor add Acme --contact psirt@acme.example >/dev/null 2>&1
keys v
if wait_for "vendors of report 1" && wait_re '^Acme +vendor +not-notified'; then
	tui_ok 0 "a vendor of the directory is listed as not-notified"
else tui_ok 1 "a vendor of the directory is listed as not-notified"; fi
keys n
sleep 0.3
if screen | grep -qE '^Acme +vendor +not-notified'; then tui_ok 0 "n (next match) notifies nobody"
else tui_ok 1 "n (next match) notifies nobody"; fi
keys M
tui_check "M asks first, naming the vendor and its contact" \
	wait_for "record that Acme (psirt@acme.example) is notified of report 1?"
keys y
if wait_re '^Acme +vendor +notified +2026-12-02'; then tui_ok 0 "M then y records the notification: status and date"
else tui_ok 1 "M then y records the notification: status and date"; fi
# A name with "%i" in it is the vendor's name, nothing else.
sectui vendor add 'Acme%iCorp' --contact sec@acmei.example >/dev/null 2>&1
keys C-l
wait_re '^Acme%iCorp +vendor +not-notified'
keys j
keys M
wait_for "record that Acme%iCorp (sec@acmei.example) is notified"
keys y
if wait_re '^Acme%iCorp +vendor +notified' &&
	sectui show 1 --json | grep -q '"name": *"Acme%iCorp"'; then
	tui_ok 0 "a vendor named Acme%iCorp is notified under its own name"
else tui_ok 1 "a vendor named Acme%iCorp is notified under its own name"; fi

# 11-12: disclosure
keys q
sectui date propose 1 2026-12-12 --by reporter --reason "needs a distro release" >/dev/null 2>&1
keys d
if wait_for "disclosure of report 1" && wait_re "7-day limit +2026-12-" && wait_re "14-day limit +2026-12-"; then
	tui_ok 0 "the disclosure panel shows the 7-day and 14-day limits"
else tui_ok 1 "the disclosure panel shows the 7-day and 14-day limits"; fi
# The three dates of the policy limits in one column.
c1=$(line_of "Clock start" | awk '{ print index($0, "2026-") }')
c2=$(line_of "7-day limit" | awk '{ print index($0, "2026-") }')
c3=$(line_of "14-day limit" | awk '{ print index($0, "2026-") }')
tui_check "Clock start's date is under the limits' ($c1 $c2 $c3)" test "$c1" = "$c2" -a "$c2" = "$c3"
if wait_re "2026-12-12 +by reporter +policy: [a-z-]+ +needs a distro release"; then
	tui_ok 0 "the proposal from the shell is listed with its policy verdict"
else tui_ok 1 "the proposal from the shell is listed with its policy verdict"; fi
# x removes the participant under the cursor, after a question.
keys q
keys p
wait_for "participants of report 1"
keys g
keys x
tui_check "x asks first, naming the participant" wait_re "remove .*mia@example.org.* from report 1\? \[y/N\]"
keys y
tui_check "y removes them, saying so" wait_re "report 1: .*removed"
tap_is "$(sectui show 1 --json | jq -r '.participants[] | select(.email == "mia@example.org") | .removed_at | type')" \
	string "show --json has the removal"
tui_stop
tap_done
