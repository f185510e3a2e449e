#!/bin/sh
# engines: sqlite
# The officer's sealed search index answers exactly what a full scan
# answers, and is kept up to date by the imports themselves.  Random
# texts made of a small set of syllables (so that words share trigrams
# often), then random words (held and not), words of two letters,
# phrases and runs across word boundaries, each searched through the
# index and with no cache at all (every text opened: the oracle).  The
# index is made by the import (no search has opened a text yet); a
# message imported later is added to it, not the index made again; an
# index keyed under another team key generation is emptied, by an
# import as by a search, and made again (a rotation); an index another
# user owns is not used.
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
cache=$(ls "$T/cache/secteam-tui/"search-*.db)
tap_is "$(sqlite3 "$cache" "SELECT count(*) FROM indexed")" "$N" \
	"the import indexed every message it stored (no search yet)"
out=$(st search zzzyyyxxx 2>&1) # a word nobody holds
tap_like "$out" "0 report\(s\) match; 0 opened to search their text, $N passed over" \
	"  so the first search passes over every text for a word none holds" "$out"

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

# A message imported after the index was made: added to it by that
# import (the index is not made again: nothing else is opened).
late() { # NAME WORDS...
	n=$1
	shift
	mk --kind encrypted --from "Rita Reporter <rita@example.net>" --to "$OFFICER_FPR" \
		--subject "late report $n" --message-id "<late$n@example.net>" \
		--body "kazumor $* telqi" >"$T/mail/late$n.eml"
	e2e_import "$T/mail/late$n.eml" || { echo "Bail out! import failed"; exit 1; }
}
late 1 latecomerword
tap_is "$(sqlite3 "$cache" "SELECT count(*) FROM indexed")" "$((N + 1))" \
	"a message imported after the index: indexed by its import"
out=$(st search latecomerword 2>&1)
tap_like "$out" "1 report\(s\) match; 1 opened to search their text, $N passed over" \
	"  found, and only it opened (to confirm it)" "$out"
tap_is "$(viaindex latecomerword)" "$((N + 1))" "  (the late report itself)"
tap_is "$(viaindex kazumor)" "$(scan kazumor)" "  and a word others hold too: the same reports"
# A mailbox of several, in one import, between searches.
i=0
while [ "$i" -lt 5 ]; do
	mk_line "$T/mail/b$i.eml" --kind encrypted --from "Rita Reporter <rita@example.net>" \
		--to "$OFFICER_FPR" --subject "batch $i" --message-id "<b$i@example.net>" \
		--body "$(words $((SEED + 500 + i)) 40) batchword$i"
	i=$((i + 1))
done | mk_batch || { echo "Bail out! cannot make the test mails"; exit 1; }
e2e_import "$T/mail/"b*.eml || { echo "Bail out! import failed"; exit 1; }
M=$((N + 6))
out=$(st search zzzyyyxxx 2>&1)
tap_like "$out" "0 opened to search their text, $M passed over" \
	"five more in one import: all indexed, none opened for a word none holds" "$out"
bad=0
for w in batchword3 $(sed -n '1,12p' "$T/q"); do
	[ "$(viaindex "\"$w\"")" = "$(scan "\"$w\"")" ] || { bad=$((bad + 1)); echo "# '$w' differs"; }
done
tap_is "$bad" 0 "  and the index still finds exactly what a full scan finds"

# Keyed under another generation (a rotation since): emptied, made again.
g0=$(sqlite3 "$cache" "SELECT value FROM meta WHERE name = 'generation'")
sqlite3 "$cache" "UPDATE meta SET value = value + 7 WHERE name = 'generation'"
out=$(st search zzzyyyxxx 2>&1)
tap_like "$out" "0 report\(s\) match; $M opened" \
	"an index keyed under another generation is not believed: every text opened" "$out"
tap_is "$(sqlite3 "$cache" "SELECT value FROM meta WHERE name = 'generation'")" \
	"$g0" "  (keyed under the current generation again)"
out=$(st search zzzyyyxxx 2>&1)
tap_like "$out" "$M passed over" "  and made again under the current one" "$out"
# An import finding it keyed under another generation empties it too:
# then it holds that import's message alone, and the next search opens
# (and indexes again) the others.
sqlite3 "$cache" "UPDATE meta SET value = value + 7 WHERE name = 'generation'"
late 2 rotationword
tap_is "$(sqlite3 "$cache" "SELECT count(*) FROM indexed")" 1 \
	"an import after a rotation: the old generation's index emptied, its message indexed"
tap_is "$(sqlite3 "$cache" "SELECT value FROM meta WHERE name = 'generation'")" \
	"$g0" "  (under the current generation)"
out=$(st search rotationword 2>&1)
tap_like "$out" "1 report\\(s\\) match; $((M + 1)) opened" "  a search then opens the others (and the one indexed, to confirm it)" "$out"
tap_is "$(viaindex kazumor)" "$(scan kazumor)" "  and answers what a full scan answers"
out=$(st search zzzyyyxxx 2>&1)
tap_like "$out" "$((M + 1)) passed over" "  and every message is indexed again" "$out"
N=$M

# Another user's index is not used (nor written).
if [ "$(id -u)" = 0 ]; then
	chown 65534 "$cache"
	out=$(st search zzzyyyxxx 2>&1)
	tap_like "$out" "0 report\(s\) match; $((N + 1)) opened" "an index another user owns is not used" "$out"
	chown 0 "$cache"
else
	tap_skip "another user's index" "needs root to give the file away"
fi

# A store made again where the last one was (the cache file is named
# after its path): another team key, whose generations count from 1
# again, and message ids the old store's messages had.  Imported without
# the index, its message is not one the old index holds: the old index
# is emptied, not believed.
mv "$DB" "$T/old.db"
rm -f "$DB-wal" "$DB-shm"
mk --kind encrypted --from "Rita Reporter <rita@example.net>" --to "$OFFICER_FPR" \
	--subject "again" --message-id "<again@example.net>" \
	--body "kazumor againword telqi" >"$T/mail/again.eml"
SECTEAM_CACHE=/dev/null/none e2e_import "$T/mail/again.eml" ||
	{ echo "Bail out! import failed"; exit 1; }
tap_is "$(viaindex againword)" "$(scan againword)" \
	"a store made again at the same path: the old one's index is not believed for it"
tap_is "$(viaindex againword)" 1 "  (its one message found)"
tap_done
