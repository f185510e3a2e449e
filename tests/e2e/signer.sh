#!/bin/sh
# engines: sqlite pg
# End to end, who signed and who sent: a
# signature counts for "signer matches From" only through a user ID the
# officer's keyring holds at full or ultimate validity, and only when it
# matches every From mailbox; show lists every From mailbox, address
# first, and flags display names that hold another address or invisible
# spacing.  Mallory's key is
# certified by the officer; user IDs with Rita's address (and a Cyrillic
# look-alike) are added to it afterwards, and nobody certifies those.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup signer

gs() { gpg --homedir "$S" --batch --no-tty --yes "$@" >/dev/null 2>&1; }
go() { gpg --homedir "$H" --batch --no-tty --yes "$@" >/dev/null 2>&1; }
M='Mallory Certified <mallory@example.com>'
LOOK='rita@ex'$(printf '\320\260')'mple.net'   # a Cyrillic "a"
gs --passphrase '' --pinentry-mode loopback --quick-gen-key "$M" \
	future-default default never || { echo "Bail out! key generation failed"; exit 1; }
MAL=$(gpg --homedir "$S" --with-colons --list-keys "=$M" 2>/dev/null |
	awk -F: '$1 == "fpr" { print $10; exit }')
gs --export --output "$T/mal.pub" "$MAL" && go --import "$T/mal.pub" &&
	go --default-key "$OFFICER_FPR" --quick-sign-key "$MAL" &&
	gs --quick-add-uid "$MAL" "Rita Reporter <rita@example.net>" &&
	gs --quick-add-uid "$MAL" "Rita Reporter <$LOOK>" &&
	gs --export --output "$T/mal.pub" "$MAL" && go --import "$T/mal.pub" &&
	go --check-trustdb || { echo "Bail out! keyring set-up failed"; exit 1; }

# imp NAME MK-ARGS...: makes a mail, imports it, prints its report id.
imp() {
	_name=$1; shift
	mk --subject "$_name" --body "text of $_name" --message-id "$_name@signer.test" \
		"$@" >"$T/$_name.eml" || return 1
	st import "$T/$_name.eml" >"$T/$_name.out" 2>"$T/$_name.err"
	cut -f 1 "$T/$_name.out"
}
j() { st show "$1" --json | jq -r "$2"; }

id=$(imp rita --kind signed --from "Rita Reporter <rita@example.net>" --sign-as "$REPORTER_FPR")
tap_is "$(j "$id" '.signature.verdict + " " + (.signature.signer_matches_from | tostring)')" \
	"valid true" "control: Rita's own key matches her From"

id=$(imp mallory --kind signed --from "$M" --sign-as "$MAL")
tap_is "$(j "$id" '.signature.verdict + " " + (.signature.signer_matches_from | tostring)')" \
	"valid true" "control: Mallory's certified user ID matches her From"

id=$(imp as-rita --kind signed --from "Rita Reporter <rita@example.net>" --sign-as "$MAL")
tap_is "$(j "$id" '.signature.verdict + " " + (.signature.signer_matches_from | tostring)')" \
	"valid false" "an uncertified user ID with Rita's address does not match From"
tap_like "$(st show "$id")" "Signer matches From +no" "show says no"
# One trust rule (core's report_trust_class) for every display: valid but
# not From's is a warning in show, show --json and the list (whose mark
# was once a green check for it), never "trusted".
tap_like "$(st show "$id")" "Trust +warning" "show's trust: warning"
tap_is "$(j "$id" '.signature.trust')" "warning" "show --json's trust: warning"
tap_is "$(st list --json | jq -r --argjson i "$id" '.[] | select(.id == $i) | .trust')" \
	"warning" "list --json's trust (the list's mark) for it: warning"
tap_is "$(st list --json | jq -r '[.[] | select(.trust == "trusted") | .subject] | sort | join(" ")')" \
	"mallory rita" "only the reports whose signer is From's are trusted in the list"

id=$(imp as-rita-encrypted --kind encrypted-signed --from "Rita Reporter <rita@example.net>" \
	--sign-as "$MAL" --to "$OFFICER_FPR")
tap_is "$(j "$id" '.signature.verdict + " " + (.signature.signer_matches_from | tostring)')" \
	"valid false" "the same inside an encrypted message"

id=$(imp look-alike --kind signed --from "Rita Reporter <$LOOK>" --sign-as "$MAL")
tap_is "$(j "$id" '.signature.verdict + " " + (.signature.signer_matches_from | tostring)')" \
	"valid false" "an uncertified user ID with a Cyrillic look-alike address does not match From"

# Two From mailboxes: the signer must match both (Johnny I3), and show
# lists both, address first.
id=$(imp two-from --kind signed --from "Rita Reporter <rita@example.net>, Mallory <mallory@example.com>" \
	--sign-as "$REPORTER_FPR")
tap_is "$(j "$id" '.signature.verdict + " " + (.signature.signer_matches_from | tostring)')" \
	"valid false" "two From mailboxes, the signer is only one of them: no match"
tap_is "$(j "$id" '[.senders[].email] | join(" ")')" "rita@example.net mallory@example.com" \
	"show --json lists every From mailbox"
tap_like "$(st show "$id" | grep '^Reporter')" \
	'^Reporter +rita@example\.net  "Rita Reporter"; mallory@example\.com  "Mallory"$' \
	"show lists every From mailbox, address first"
tap_like "$(st show "$id" | grep '^Signer ')" '^Signer +Rita Reporter <rita@example\.net> \(valid\)$' \
	"show names the signer by the user ID the keyring vouches for"

# The display name must be one the signer's certified user ID may stand
# for (Johnny I2 "The Manager" <eve@...> signed by Eve).
id=$(imp other-name --kind signed --from "The Manager <rita@example.net>" --sign-as "$REPORTER_FPR")
tap_is "$(j "$id" '.signature.verdict + " " + (.signature.signer_matches_from | tostring)')" \
	"valid false" "Rita's key and address under another name: no match"
id=$(imp short-name --kind signed --from "rita <rita@example.net>" --sign-as "$REPORTER_FPR")
tap_is "$(j "$id" '.signature.signer_matches_from')" true "a shorter form of her name still matches"

# Display names that would hide the address.
id=$(imp name-address --kind plain --from '"manager@corp.example" <eve@evil.example>')
tap_like "$(st show "$id" | grep '^Reporter')" \
	'^Reporter +eve@evil\.example  \[!\] display name holds another address  "manager@corp\.example"$' \
	"a display name holding another address is flagged, the address first"
tap_is "$(j "$id" '.reporter.warnings | join(",")')" "name-holds-address" "show --json: the warning"
id=$(imp name-address-signed --kind signed --from '"manager@corp.example" <rita@example.net>' \
	--sign-as "$REPORTER_FPR")
tap_is "$(j "$id" '.signature.verdict + " " + (.signature.signer_matches_from | tostring)')" \
	"valid false" "Rita's key, but a display name claiming another address: no match"
# A From no mailbox can be read from (Johnny I2 "from is sender . <signer>"):
# shown as it is, flagged, never a match.
id=$(imp from-unreadable --kind signed --sign-as "$REPORTER_FPR" \
	--from 'manager@corp.example                 . <rita@example.net>')
tap_like "$(st show "$id" | grep '^Reporter')" \
	'^Reporter +\(no address\)  \[!\] display name holds another address  "manager@corp\.example +\. <rita@example\.net>"$' \
	"an unreadable From is shown as it is, flagged"
tap_is "$(j "$id" '.signature.signer_matches_from')" false "an unreadable From never matches the signer"
id=$(imp name-same --kind plain --from '"rita@example.net" <rita@example.net>')
tap_is "$(j "$id" '.reporter.warnings | length')" 0 "a display name holding the same address is not flagged"
id=$(imp name-nbsp --kind plain --from "=?utf-8?q?Rita_Reporter=C2=A0=C2=A0=C2=A0=C2=A0?= <eve@evil.example>")
tap_like "$(st show "$id" | grep '^Reporter')" \
	'^Reporter +eve@evil\.example  \[!\] invisible spacing in display name  "Rita Reporter<U\+00A0><U\+00A0><U\+00A0><U\+00A0>"$' \
	"no-break spaces in a display name are flagged and made visible"
tap_is "$(j "$id" '.reporter.warnings | join(",")')" "name-invisible-spacing" "show --json: that warning"
id=$(imp name-fullwidth --kind plain --from "=?utf-8?b?$(printf 'boss\357\274\240corp.example' | base64)?= <eve@evil.example>")
tap_is "$(j "$id" '.reporter.warnings | join(",")')" "name-holds-address" \
	"a fullwidth at sign in a display name is flagged"

tap_done
