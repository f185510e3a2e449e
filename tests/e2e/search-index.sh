#!/bin/sh
# engines: sqlite
# The officer's sealed search index answers exactly what a full scan
# answers.  Random texts made of a small set of syllables (so that words
# share trigrams often), then random words (held and not), words of
# two letters, phrases and runs across word boundaries, each searched
# through the index and with no cache at all (every text opened: the
# oracle).  Then: a message imported after the index was made is found;
# an index keyed under another team key generation is emptied and made
# again (a rotation); an index another user owns is not used.
export SECTEAM_TEST_NOW=2026-12-02T12:00:00Z
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup searchindex
mkdir -p "$T/mail" "$T/cache" "$T/tmp"
export XDG_CACHE_HOME="$T/cache" TMPDIR="$T/tmp"
N=${SEARCH_INDEX_N:-24}
SEED=${SEARCH_INDEX_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
echo "# seed $SEED (SEARCH_INDEX_SEED=$SEED to run these texts again)"
# words SEED COUNT: COUNT random words of one to three syllables
words() {
	awk -v seed="$1" -v n="$2" 'BEGIN { srand(seed)
		split("ka zu mor tel qi ban ox lu fe rin dag po", s, " ")
		for (i = 0; i < n; i++) { w = ""; k = 1 + int(rand() * 3)
			for (j = 0; j < k; j++) w = w s[1 + int(rand() * 12)]
			printf "%s ", w } }'
}
i=0
while [ "$i" -lt "$N" ]; do
	mk_line "$T/mail/m$i.eml" --kind encrypted --from "Rita Reporter <rita@example.net>" \
		--to "$OFFICER_FPR" --subject "report $i" \
		--message-id "<m$i@example.net>" --body "$(words $((SEED + i)) $((20 + i * 3)))"
	i=$((i + 1))
done | mk_batch || { echo "Bail out! cannot make the test mails"; exit 1; }
e2e_import "$T/mail/"m*.eml || { echo "Bail out! import failed"; exit 1; }

ids() { jq -r '[.[].id] | map(tostring) | join(" ")'; }
# full scan: no cache folder at all, so no index: every text opened
scan() { SECTEAM_CACHE=/dev/null/none st search --json "$@" 2>/dev/null | ids; }
viaindex() { st search --json "$@" 2>/dev/null | ids; }
out=$(st search zzzyyyxxx 2>&1) # a word nobody holds: every text indexed
tap_like "$out" "0 report\(s\) match; $N opened" "the first search opens every text (and makes the index)"
out=$(st search zzzyyyxxx 2>&1)
tap_like "$out" "0 report\(s\) match; 0 opened to search their text, $N passed over" \
	"  then the index passes over every text for a word none holds" "$out"

# The queries: words, two-letter words, two-word phrases, and runs that
# cross a word boundary (taken from a body, so held somewhere).
words $((SEED + 1000)) 30 | tr ' ' '\n' | grep . >"$T/q"
printf 'ka\nox\nzu\nqq\n' >>"$T/q"
words $((SEED + 3)) 60 | tr '\n' ' ' |
	awk '{ for (i = 1; i + 1 <= NF && c < 8; i += 7) { print $i " " $(i + 1); c++ }
	       for (i = 2; i + 1 <= NF && d < 6; i += 9) { print substr($i, 2) " " substr($(i + 1), 1, 2); d++ } }' >>"$T/q"
bad=0 n=0 held=0
while IFS= read -r w; do
	n=$((n + 1))
	a=$(viaindex "\"$w\"")
	b=$(scan "\"$w\"")
	[ -n "$b" ] && held=$((held + 1))
	if [ "$a" != "$b" ]; then
		bad=$((bad + 1))
		echo "# '$w': index [$a], full scan [$b]"
	fi
done <"$T/q"
tap_is "$bad" 0 "$n queries: the index finds exactly what a full scan finds"
tap_ok "$([ "$held" -ge 10 ] && [ "$held" -lt "$n" ] && echo 0 || echo 1)" \
	"  ($held of them held by some text, the others by none)"

# Two words at once, each through its own lists.
w1=$(sed -n 1p "$T/q") w2=$(sed -n 2p "$T/q")
tap_is "$(viaindex "$w1" "$w2")" "$(scan "$w1" "$w2")" "two words (AND): the same reports"

# A message imported after the index was made: not indexed, so opened.
mk --kind encrypted --from "Rita Reporter <rita@example.net>" --to "$OFFICER_FPR" \
	--subject "late report" --message-id "<late@example.net>" \
	--body "kazumor latecomerword telqi" >"$T/mail/late.eml"
e2e_import "$T/mail/late.eml" || { echo "Bail out! import failed"; exit 1; }
tap_is "$(viaindex latecomerword)" "$((N + 1))" "a message imported after the index: found"
tap_is "$(viaindex kazumor)" "$(scan kazumor)" "  and a word others hold too: the same reports"

# Keyed under another generation (a rotation since): emptied, made again.
cache=$(ls "$T/cache/secteam-tui/"search-*.db)
g0=$(sqlite3 "$cache" "SELECT value FROM meta WHERE name = 'generation'")
sqlite3 "$cache" "UPDATE meta SET value = value + 7 WHERE name = 'generation'"
out=$(st search zzzyyyxxx 2>&1)
tap_like "$out" "0 report\(s\) match; $((N + 1)) opened" \
	"an index keyed under another generation is not believed: every text opened" "$out"
tap_is "$(sqlite3 "$cache" "SELECT value FROM meta WHERE name = 'generation'")" \
	"$g0" "  (keyed under the current generation again)"
out=$(st search zzzyyyxxx 2>&1)
tap_like "$out" "$((N + 1)) passed over" "  and made again under the current one" "$out"

# Another user's index is not used (nor written).
if [ "$(id -u)" = 0 ]; then
	chown 65534 "$cache"
	out=$(st search zzzyyyxxx 2>&1)
	tap_like "$out" "0 report\(s\) match; $((N + 1)) opened" "an index another user owns is not used" "$out"
	chown 0 "$cache"
else
	tap_skip "another user's index" "needs root to give the file away"
fi
tap_done
