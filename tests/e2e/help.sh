#!/bin/sh
# End to end: the help of the command line.
# - every command and sub-command answers --help on stdout, exit 0,
#   nothing on stderr, no global help after it; `help [COMMAND [SUB]]`
#   says the same;
# - the options a command's --help lists, the ones its usage lines name
#   and the ones the man page's synopsis names for it are the same set;
# - usage errors print the message, the one usage line that applies and
#   a hint to --help on stderr, exit 2, and not the global help.
# Nothing here opens a database: the commands stop before that.
. "$SECTEAM_TOP/tests/lib/e2e.sh"
e2e_setup help
PAGE=$SECTEAM_TOP/secteam-tui.1

# The option words of text ("--state", "-o"), sorted, one per line.
opts_of() {
	tr ' []()|,=' '\n\n\n\n\n\n\n\n' | grep -E '^--?[a-z][a-z-]*$' | sort -u
}
# The usage lines of a --help (those before the command's help line).
usage_lines() {
	sed -n '/^usage:/,/^[^ u]/p' | grep -E '^(usage:| )' | sed 's/^usage://'
}
# The first word of each row under "Options:", but --help.
option_rows() {
	sed -n '/^Options:$/,/^$/p' | sed -n 's/^  \(-[^ ,]*\).*/\1/p' | grep -vx -- '--help' | sort -u
}
# The man page's synopsis lines of command $1 (the .TP/.TQ tags of its
# entries in COMMANDS), as text.
man_synopsis() {
	awk -v cmd="$1" '
		/^\.SH COMMANDS/ { in_cmds = 1; next }
		/^\.S[HS] / { in_cmds = 0 }
		in_cmds && tag && index($0, ".B " cmd " ") == 1 { print }
		{ tag = in_cmds && ($0 == ".TP" || $0 == ".TQ") }' "$PAGE" |
		sed 's/\\-/-/g; s/\\f[BIRP]//g'
}

cmds=$("$SECTEAM_BIN" --help | sed -n '/^Commands:$/,/^$/p' | awk 'NF { print $1 }' | grep -v '^Commands:$' | grep -vx help)
tap_like "$(echo $cmds)" "^import list show triage note maintainers vendor date due export fix cve forward reply distros announce roster team attachment stats search verify$" \
	"the global help lists every command"

for c in $cmds; do
	"$SECTEAM_BIN" --db "$DB" "$c" --help >"$T/out" 2>"$T/err"; rc=$?
	tap_is "$rc" 0 "$c --help exits 0"
	tap_is "$(cat "$T/err")" "" "$c --help writes nothing to stderr"
	tap_like "$(head -1 "$T/out")" "^usage: secteam-tui $c( |\$)" "$c --help starts with its usage"
	tap_unlike "$(cat "$T/out")" "^Commands:|^usage: secteam-tui \[--db" "$c --help has no global help"
	tap_ok "$(grep -c '^Exit status:$' "$T/out" | grep -qx 1; echo $?)" "$c --help gives its exit status"
	tap_like "$(sed -n '/^Examples*:$/{n;p;}' "$T/out")" "^  secteam-tui $c( |\$)" "$c --help gives an example"
	rows=$(option_rows <"$T/out")
	inusage=$(usage_lines <"$T/out" | opts_of)
	inman=$(man_synopsis "$c" | opts_of)
	tap_is "$(echo $inusage)" "$(echo $rows)" "$c: the usage lines and the option rows name the same options"
	tap_is "$(echo $inman)" "$(echo $rows)" "$c: the man page's synopsis and --help name the same options"
	"$SECTEAM_BIN" help "$c" >"$T/out2" 2>&1; rc=$?
	tap_ok "$(cmp -s "$T/out" "$T/out2"; echo $?)" "help $c says what $c --help says (exit $rc)"
done

# Sub-commands: their own usage line, their options only.
for cs in "vendor add" "vendor list" "vendor edit" "vendor notify" "vendor status" \
	  "date propose" "date set" "date start-release" "date show" \
	  "team init" "team add-officer" "team remove-officer" "team list" "roster reseal"; do
	set -- $cs
	"$SECTEAM_BIN" --db "$DB" "$1" "$2" --help >"$T/out" 2>"$T/err"; rc=$?
	tap_is "$rc $(cat "$T/err")" "0 " "$cs --help exits 0, nothing on stderr"
	tap_like "$(head -1 "$T/out")" "^usage: secteam-tui $cs( |\$)" "$cs --help: its usage line"
	tap_is "$(grep -c '^usage:\|^       secteam-tui' "$T/out")" 1 "$cs --help: one usage line"
	tap_like "$(sed -n '/^Example:$/{n;p;}' "$T/out")" "^  secteam-tui $cs( |\$)" "$cs --help: its example"
done
out=$("$SECTEAM_BIN" vendor status --help | option_rows | tr '\n' ' ')
tap_is "$out" "--correct --nda-requested --note --statement " "vendor status --help lists only the options of status"
# An option's argument that reads --help is not a request for help.
out=$("$SECTEAM_BIN" --db "$DB" triage abc --note --help 2>&1); rc=$?
tap_like "$rc $out" "^2 .*'abc' is not a report id" "triage --note --help: --help is the note"

# Help does not need a config that parses (nor a database).
printf '[broken\n' >"$T/bad.conf"
out=$("$SECTEAM_BIN" --config "$T/bad.conf" --db "$DB" list --help 2>&1); rc=$?
tap_like "$rc $out" "^0 usage: secteam-tui list " "list --help works with a broken config"
out=$("$SECTEAM_BIN" --config "$T/bad.conf" help date 2>&1); rc=$?
tap_like "$rc $out" "^0 usage: secteam-tui date propose " "help date works with a broken config"

# help itself.
"$SECTEAM_BIN" help >"$T/out" 2>"$T/err"; rc=$?
"$SECTEAM_BIN" --help >"$T/out2"
tap_ok "$([ $rc = 0 ] && [ ! -s "$T/err" ] && cmp -s "$T/out" "$T/out2"; echo $?)" "help alone is the global help, exit 0"
"$SECTEAM_BIN" help date set >"$T/out" 2>"$T/err"; rc=$?
tap_like "$rc $(head -1 "$T/out")" "^0 usage: secteam-tui date set ID DATE" "help date set: the sub-command's help"
"$SECTEAM_BIN" help frobnicate >"$T/out" 2>"$T/err"; rc=$?
tap_is "$rc" 2 "help of an unknown command: exit 2"
tap_like "$(cat "$T/err")" "unknown command 'frobnicate'" "help of an unknown command names it"
tap_is "$(cat "$T/out")" "" "help of an unknown command: nothing on stdout"

# Usage errors: the message, one usage line, the hint; no global help.
usage_error() { # want-usage-regex want-message-regex ARGS...
	want=$1 msg=$2; shift 2
	"$SECTEAM_BIN" --db "$DB" "$@" >"$T/out" 2>"$T/err"; rc=$?
	tap_is "$rc" 2 "$*: exit 2"
	tap_is "$(grep -c '^usage:' "$T/err")" 1 "$*: one usage line"
	tap_like "$(grep '^usage:' "$T/err")" "$want" "$*: the usage line that applies"
	tap_like "$(cat "$T/err")" "see 'secteam-tui $1 --help'" "$*: a hint to $1 --help"
	tap_unlike "$(cat "$T/err")" "^Commands:" "$*: no global help"
	[ -n "$msg" ] && tap_like "$(cat "$T/err")" "$msg" "$*: names the problem"
	tap_is "$(cat "$T/out")" "" "$*: nothing on stdout"
}
usage_error '^usage: secteam-tui date set ID DATE \[--reason TEXT\] \[--override\]$' \
	"^secteam-tui: invalid date '-3d' \(expected .*2026-12-09.*\+7d or now" date set 3 -3d
usage_error '^usage: secteam-tui date propose ID DATE' "invalid date 'soon'" \
	date propose 3 soon --by reporter --reason x
usage_error '^usage: secteam-tui list \[QUERY\] \[--state S\]' \
	"^secteam-tui list: unknown value 'weird' for --state \(new, triaged, accepted, rejected, duplicate, fixing, fix-ready, disclosed, closed\)" \
	list --state weird
usage_error '^usage: secteam-tui vendor status ID NAME \[STATUS\]' "" vendor status
usage_error '^usage: secteam-tui show ID' "" show
usage_error '^usage: secteam-tui import ' "" import --bogus x
usage_error '^usage: secteam-tui team remove-officer ROLE$' "" team remove-officer
# --help lists the values an option or operand takes, from the code's
# tables: the same states the command's own error lists, the statuses,
# the date forms; a sub-command that takes none lists none.
states=$("$SECTEAM_BIN" --db "$DB" list --state weird 2>&1 | sed -n "s/.*for --state (\(.*\))\$/\1/p")
out=$("$SECTEAM_BIN" triage --help)
tap_like "$out" "^  --state S +$states\$" "triage --help: the states, as the command's error lists them" "$states"
tap_like "$out" "^ +triaged -> accepted, rejected, duplicate\$" "triage --help: the moves allowed from each state"
tap_like "$out" "^  --severity S +none, low, medium, high, critical\$" "triage --help: the severities"
out=$("$SECTEAM_BIN" vendor status --help)
tap_like "$out" "^  STATUS +not-notified, notified, acknowledged, affected, not-affected, fixed, declined\$" \
	"vendor status --help: the statuses"
tap_unlike "$("$SECTEAM_BIN" vendor add --help)" "^Values:" "vendor add --help: no statuses (it takes none)"
out=$("$SECTEAM_BIN" date set --help)
tap_like "$out" "^  DATE +2026-12-09 \(noon UTC\)\$" "date set --help: the date forms"
tap_like "$out" "^ +\+7d, \+36h, -2d \(from now\)\$" "  relative ones too"
tap_unlike "$("$SECTEAM_BIN" date show --help)" "DATE" "date show --help: no date forms"
tap_like "$(cat "$SECTEAM_TOP/secteam-tui.1")" "notified, acknowledged, affected, not.*affected, fixed, declined\$" \
	"the man page lists them too"
"$SECTEAM_BIN" --db "$DB" frobnicate >/dev/null 2>"$T/err"; rc=$?
tap_like "$rc $(cat "$T/err")" "^2 secteam-tui: unknown command 'frobnicate' \(see secteam-tui --help\)$" \
	"an unknown command: named, with the hint, no global help"
tap_done
