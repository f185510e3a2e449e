# bench/lib.sh: what the benchmarks share (sourced, POSIX sh; $top is the
# source tree, gpg-env.sh's keys are set up).
#
# bench_reports DIR N WHAT: N encrypted, signed reports from the reporter
# to the officer, DIR/1.eml .. DIR/N.eml, each "Report I" touching WHAT,
# made in one mkpgp.py process.
bench_reports() {
	_i=0
	while [ "$_i" -lt "$2" ]; do
		_i=$((_i + 1))
		printf '%s\t' "$1/$_i.eml" --kind encrypted-signed \
			--from "Rita Reporter <rita@example.net>" \
			--sign-as "$REPORTER_FPR" --to "$OFFICER_FPR" \
			--subject "Report $_i: overflow in net/core/skbuff.c" \
			--body "Report number $_i touches $3." \
			--message-id "bench-$_i@example.net"
		echo
	done | /usr/bin/python3 "$top/tests/lib/mkpgp.py" \
		--gnupghome "$GNUPG_SENDERS_HOME" --batch
}

# tmx ARGS...: tmux on the benchmark's own server (named by $sock).
# tmx_stop: ends that server and waits until it is gone, so the next
# session does not reach a server on its way out.
tmx() { tmux -L "$sock" "$@"; }
tmx_stop() {
	tmx kill-server 2>/dev/null
	_i=0
	while [ $_i -lt 100 ] && tmx ls >/dev/null 2>&1; do sleep 0.05; _i=$((_i + 1)); done
}
# tmx_gone: at the end, the server's socket too (tmux 3.3 leaves it).
tmx_gone() {
	tmx kill-server 2>/dev/null
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock"
}
