#!/bin/sh
# The README's tour works pasted line by line right after `make run`.
# The lines are taken from README.md (the ```sh block after the
# "<!-- tour:" comment) and run in order, in one shell, as written, on a
# fresh demo team made by scripts/demo.sh in its default place under a
# temporary HOME (no UI); the shell's directory holds build/secteam-tui
# (the binary under test), as the top of the repository would.  Every
# line must exit 0, except those marked "fails on purpose", which must
# exit 1.  First, the demo itself: every signature verdict the product
# knows, and the reporter's reproducer withheld from a forward until the
# reporter consents.  TAP output.
. "$SECTEAM_TOP/tests/lib/tap.sh"
W=$(mktemp -d "${TMPDIR:-/tmp}/secteam-tour.XXXXXX") || { echo "Bail out! mktemp failed"; exit 1; }
D=$W/home/.local/share/secteam-demo
_tour_exit() {
	for _h in "$D/keys/home" "$D/keys/senders"; do
		[ -d "$_h" ] && gpgconf --homedir "$_h" --kill all 2>/dev/null
	done
	rm -rf "$W"
}
trap _tour_exit EXIT
trap 'exit 1' INT TERM HUP
mkdir -p "$W/home" "$W/top/build"
ln -s "$SECTEAM_BIN" "$W/top/build/secteam-tui"
# tour_env CMD...: as a new officer's shell would run it: a fresh HOME,
# no XDG or GnuPG settings of the caller's; an editor that adds a line
# to the text (reply opens one, with no terminal here; a draft left
# unchanged sends nothing).
printf '#!/bin/sh\nprintf "Thanks again.\\n" >> "$1"\n' > "$W/edit.sh"
chmod +x "$W/edit.sh"
tour_env() {
	env -u XDG_DATA_HOME -u XDG_CONFIG_HOME -u XDG_CACHE_HOME -u GNUPGHOME \
		-u SECTEAM_DEMO_DIR -u SECTEAM_OFFICER -u VISUAL EDITOR="$W/edit.sh" \
		HOME="$W/home" "$@"
}
tour_env "$SECTEAM_TOP/scripts/demo.sh" "$SECTEAM_BIN" >"$W/demo.out" 2>&1 ||
	{ echo "Bail out! scripts/demo.sh failed"; sed 's/^/# /' "$W/demo.out"; exit 1; }
tap_is "$(tail -n 1 "$W/demo.out")" "$D" "the demo is made in \$XDG_DATA_HOME/secteam-demo (default)"
st() { "$SECTEAM_BIN" --db "$D/secteam.db" --gnupghome "$D/keys/home" --config "$D/config" "$@"; }

# The demo shows every verdict.
tap_is "$(st list --json | jq -r '[.[].verdict] | unique | join(" ")')" \
	"bad expired-key good not-signed partial revoked-key unknown-key valid" \
	"the demo's reports show every signature verdict"
tap_is "$(st list --json | jq -r '.[] | select(.id >= 13) | "\(.id):\(.verdict)"' | tr '\n' ' ')" \
	"13:bad 14:unknown-key 15:revoked-key 16:partial 17:expired-key " \
	"reports 13 to 17 are the ones the README names"
tap_is "$(st show 16 | grep '^[!|] ' | cut -d : -f 1)" '! Unsigned text someone added around the signed part
| Signed and encrypted by Rita' \
	"partial report 16 shows the text beside its encrypted part, marked '! ', before the signed text"
tap_is "$(st show 16 --json | jq -c '[.messages_detail[0].unsigned_text, .messages_detail[0].unsigned_parts, .files_unsigned]')" \
	'[true,1,["fs/ext4/super.c"]]' "show 16 --json: unsigned_text, unsigned_parts, files_unsigned"
tap_like "$(st show 1)" 'attachment 1: sack-repro\.c, text/x-csrc, [0-9]+ bytes, EXPLOIT CODE' \
	"the reply that says 'Reproducer attached' carries sack-repro.c, marked as exploit code"
tap_like "$(st show 1 --json | jq -r '.events[] | select(.kind == "forward") | .detail')" \
	'^to mia@example\.org \(encrypted, signed; 1 attachment withheld\)$' \
	"the demo's forward withheld it"

# ... and every state, a disclosed report with a reserved CVE ID among
# them (the tour writes its record and publishes it) and a duplicate.
tap_is "$(st list --json | jq -r '[.[].state] | unique | join(" ")')" \
	"accepted closed disclosed duplicate fix-ready fixing new rejected triaged" \
	"the demo's reports are in every state"
tap_is "$(st show 8 --json | jq -r '[.state, .cve.state] | join(" ")')" "disclosed reserved" \
	"report 8: disclosed, its CVE ID reserved"
tap_is "$(st show 15 --json | jq -r '[.state, .duplicate_of] | join(" ")')" "duplicate 10" \
	"report 15: a duplicate of 10"

# The tour's lines, as README.md has them.
awk '/^<!-- tour:/ { t = 1; next }
	t == 1 && /^```sh$/ { t = 2; next }
	t == 2 && /^```$/ { exit }
	t == 2 && !/^[ \t]*(#|$)/ { print }' "$SECTEAM_TOP/README.md" >"$W/lines"
n=$(wc -l <"$W/lines" | tr -d ' ')
tap_ok "$([ "$n" -ge 15 ]; echo $?)" "README.md has a marked tour block ($n lines)"
# One script: each line, then its exit status on fd 3 ("alias" needs the
# lines run by the same shell, as a paste does).
: >"$W/tour.sh"
i=0
while IFS= read -r line; do
	i=$((i + 1))
	printf '%s\necho "%d $?" >&3\n' "$line" "$i" >>"$W/tour.sh"
done <"$W/lines"
(cd "$W/top" && tour_env sh "$W/tour.sh" >"$W/tour.out" 2>&1 3>"$W/rcs")
# Before the checks below (their commands start an agent again).
agents=$(pgrep -f -- "gpg-agent --homedir $D/keys/home" | wc -l | tr -d ' ')
i=0
while IFS= read -r line; do
	i=$((i + 1))
	rc=$(awk -v i=$i '$1 == i { print $2 }' "$W/rcs")
	case $line in
	*"fails on purpose"*) want=1 ;;
	*) want=0 ;;
	esac
	tap_is "${rc:-did not run}" "$want" "tour line $i exits $want: $line"
done <"$W/lines"
[ "$_tap_fail" = 0 ] || sed 's/^/# | /' "$W/tour.out"

# What the tour did, seen from outside.
tap_like "$(cat "$W/tour.out")" "^18	valid	ipv4: integer overflow in net/ipv4/ip_fragment\.c reassembly$" \
	"st import \$D/mail/report.eml imported the demo's new report"
tap_like "$(cat "$W/tour.out")" "'sack-repro.c' looks like exploit code and the reporter has not consented" \
	"the refusal says why: the reporter has not consented"
tap_is "$(st show 1 --json | jq -r '[.events[] | select(.kind == "attachment-release")] | length')" 1 \
	"after consent the reproducer is released once (an event)"
tap_like "$(st show 3 --json | jq -r '.events[] | select(.kind == "forward") | .detail')" \
	'kira@kvm\.example\.org.*max@example\.org' "report 3 went to the maintainers from the excerpt and Max"
tap_like "$(cat "$W/tour.out")" "^would send	digest	security@example.org	report " \
	"due --mail --dry-run lists the officer's digest (the demo names the officer's address)"
tap_ok "$([ -s "$D/embargoes.ics" ]; echo $?)" "embargoes.ics was written, in the demo's folder"
tap_is "$(jq -r .cveMetadata.cveId "$D/CVE-2026-11111.json" 2>/dev/null)" CVE-2026-11111 \
	"report 8's CVE record was written, in the demo's folder"
tap_is "$(st show 8 --json | jq -r .cve.state)" published "cve 8 --publish published its ID"
tap_like "$(cat "$W/tour.out")" "^Duplicate of +10$" "show 15 names the report it duplicates"
tap_is "$(ls -A "$W/top")" build "the tour writes nothing into the repository"
tap_is "$agents" 0 "the tour's last line leaves no gpg-agent of the demo's running"
tap_done
