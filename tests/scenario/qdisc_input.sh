#!/usr/bin/env bash
# Scenario tests of what a scenario can ask of the qdisc family: values the
# kernel refuses are refused with file:line and what is accepted; trees and
# values that once crashed, hung or silently misbehaved (issue 43) run as
# the kernel would, in bounded time. Prints "ok NAME" or "not ok NAME".
. "$(dirname "$0")/common.bash"

# netsim run under a timeout: a hang or a crash fails the check, not the suite
run() { timeout -k 5 60 "$NETSIM" run "$@" > "$tmp/out" 2> "$tmp/err"; }
counter() { q "$1" "select value from counter where run_id = (select max(id) from run) and name = '$2'"; }

# a TCP flow from a to b over one link; $1: the link's lines, $2: host a's
pair() {
    cat <<INI
[sim]
duration = ${3:-0.3s}
interval = 100ms
[host a]
${2:-}
[link l]
ends = a b
$1
[flow 1]
app = tcp_stream
from = a
to = b
INI
}

# --- fq_codel quantum beyond 2^20: refused (a signed 32-bit deficit that
# never comes back positive looped for ever, deaf to SIGINT)
pair "fwd.qdisc = fq_codel quantum 4294967295" > "$tmp/fqq.ini"
run "$tmp/fqq.ini" --no-db
check "fq_codel quantum 4294967295: exit 2, not a hang" test $? -eq 2
check "... at its file:line, with the range" \
    grep -q "fqq.ini:8: \[link l\] fwd.qdisc: fq_codel: quantum 4294967295: expected 256 to 1048576" "$tmp/err"
pair "fwd.qdisc = fq_codel quantum 1048576" > "$tmp/fqq2.ini"
run "$tmp/fqq2.ini" --no-db
check "fq_codel quantum 1048576 runs" test $? -eq 0
