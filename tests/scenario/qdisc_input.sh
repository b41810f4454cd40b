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

# --- htb: a chain of 9 classes is one too deep (TC_HTB_MAXDEPTH 8)
chain() {
    echo "fwd.qdisc = htb default $1"
    echo "fwd.class.1 = parent 1: rate 1gbit"
    for ((i = 2; i <= $1; i++)); do echo "fwd.class.$i = parent 1:$((i - 1)) rate 100mbit ceil 1gbit"; done
}
pair "$(chain 9)" > "$tmp/deep.ini"
run "$tmp/deep.ini" --no-db
check "htb 9 classes deep: exit 2" test $? -eq 2
check "... the tree is too deep, naming the class" grep -q "deep.ini:8: .*htb: class 1:9: the tree is too deep" "$tmp/err"
pair "$(chain 8)" > "$tmp/deep8.ini"
run "$tmp/deep8.ini" -o "$tmp/deep8.db" -q
check "htb 8 classes deep runs" test $? -eq 0

# --- htb with netem at its leaves, a leaf class becoming inner (its netem
# leaf was freed and its counters read: a use-after-free); run and sweep
leaves="fwd.qdisc = htb default 20
fwd.class.1 = parent 1: rate 500mbit
fwd.class.10 = parent 1:1 rate 300mbit ceil 500mbit
fwd.class.20 = parent 1:1 rate 200mbit ceil 500mbit
fwd.delay = 5ms
fwd.netem_at = leaf"
pair "$leaves" > "$tmp/leaf.ini"
run "$tmp/leaf.ini" -o "$tmp/leaf.db" -q
check "htb with netem at its leaves, under an inner class: runs" test $? -eq 0
check "... its two leaves counted, 1:1's none" test "$(q "$tmp/leaf.db" "select count(*) from counter where name like 'a.eth0.qdisc.1:%.netem_loss'")" -eq 2
pair "$leaves
rate = \${5gbit, 10gbit}" > "$tmp/leafs.ini"
timeout -k 5 120 "$NETSIM" sweep "$tmp/leafs.ini" -o "$tmp/leafs.db" -q -j 2 > "$tmp/out" 2> "$tmp/err"
check "... and as a sweep of two" test $? -eq 0 -a "$(q "$tmp/leafs.db" "select count(*) from run where status = 'complete'")" -eq 2

# --- net.core.default_qdisc = htb: no class, no filter, all sent direct
pair "" "net.core.default_qdisc = htb" > "$tmp/dq.ini"
run "$tmp/dq.ini" -o "$tmp/dq.db" -q
check "net.core.default_qdisc = htb runs" test $? -eq 0
check "... its packets sent direct, unshaped" \
    test "$(q "$tmp/dq.db" "select sum(value) from counter where name like 'a.eth0.qdisc.q%.direct_packets'")" -gt 1000

# --- pfifo_head_drop limit 1 on a router's port: a packet requeued for a
# stopped TX queue fills the limit while the list is empty (a NULL
# dereference); 4.15 drops nothing, counts a drop and queues the packet
cat > "$tmp/hd.ini" <<'INI'
[sim]
duration = 0.2s
interval = 100ms
[link a]
ends = s:eth0 r:eth0
[link b]
ends = r:eth1 d:eth0
rate = 1gbit
fwd.qdisc = pfifo_head_drop limit 1
[flow 1]
app = tcp_stream
from = s
to = d
INI
run "$tmp/hd.ini" -o "$tmp/hd.db" -q
check "pfifo_head_drop limit 1 on a router runs" test $? -eq 0
check "... and drops" test "$(counter "$tmp/hd.db" r.eth1.qdisc.dropped)" -gt 0

# --- FIFOs that cannot hold a full frame are not bypassed: none passes
# (they passed 900 Mbit/s); a bfifo of 1000 bytes still takes a SYN
for tc in "pfifo limit 0" "bfifo limit 1000" "pfifo_head_drop limit 0"; do
    pair "fwd.qdisc = $tc" > "$tmp/z.ini"
    run "$tmp/z.ini" -o "$tmp/z.db" -q
    check "$tc: runs, sends no full frame, drops what comes" \
        test "$(counter "$tmp/z.db" a.eth0.qdisc.sent_bytes)" -lt 1514 -a "$(counter "$tmp/z.db" a.eth0.qdisc.dropped)" -gt 0 \
        -a "$(counter "$tmp/z.db" flow.1.goodput_bps)" = 0
done
pair "fwd.qdisc = bfifo limit 1514" > "$tmp/z.ini"
run "$tmp/z.ini" -o "$tmp/z.db" -q
check "bfifo limit 1514 (one frame) passes traffic" test "$(counter "$tmp/z.db" a.eth0.qdisc.sent_bytes)" -gt 1000000

# --- rates of 1 to 7 bit/s are 0 bytes/s: refused, not run unshaped
pair "fwd.qdisc = htb default 10
fwd.class.10 = parent 1: rate 7bit" > "$tmp/r7.ini"
run "$tmp/r7.ini" --no-db
check "htb rate 7bit: exit 2" test $? -eq 2
check "... at least 8bit, at the class's line" grep -q "r7.ini:9: \[link l\] fwd.class.10: htb class: rate '7bit': expected a rate of at least 8bit" "$tmp/err"
