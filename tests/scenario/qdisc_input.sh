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

# --- tc's words as tc reads them: 5MS, 1e3ms, 1.3k, htb's default in hex
pair "fwd.qdisc = codel target 5MS interval 1e3ms" > "$tmp/w1.ini"
run "$tmp/w1.ini" --no-db -q --tc-stats
check "codel target 5MS interval 1e3ms: taken as tc takes them" \
    grep -q "qdisc codel 8001: dev eth0 root refcnt 2 limit 1000p target 5.0ms interval 1000.0ms" "$tmp/out"
pair "fwd.qdisc = bfifo limit 1.3k" > "$tmp/w2.ini"
run "$tmp/w2.ini" --no-db -q --tc-stats
check "bfifo limit 1.3k is 1331 bytes, as get_size truncates" grep -q "qdisc bfifo 8001: dev eth0 root refcnt 2 limit 1331b" "$tmp/out"
pair "fwd.qdisc = htb default a
fwd.class.a = parent 1: rate 100mbit" > "$tmp/w3.ini"
run "$tmp/w3.ini" -o "$tmp/w3.db" -q
check "htb default a: class 1:a takes the traffic" test "$(counter "$tmp/w3.db" a.eth0.qdisc.1:a.sent_packets)" -gt 100

# --- classes and filters: one class, one key; none is no class; a filter's
# mask before flowid, and mask 0 matching any protocol
pair "fwd.qdisc = htb default 1
fwd.class.1 = parent 1: rate 100mbit
fwd.class.01 = parent 1: rate 200mbit" > "$tmp/c1.ini"
run "$tmp/c1.ini" --no-db
check "class.1 and class.01 (both 1:1): refused, naming both" \
    grep -q "c1.ini:10: \[link l\] fwd.class.01: class 1:1 is given twice: by fwd.class.1 (line 9) and fwd.class.01" "$tmp/err"
pair "fwd.qdisc = htb default 1
fwd.class.1 = parent 1: rate 100mbit
fwd.class.2 = none
fwd.filter.1 = none" > "$tmp/c2.ini"
run "$tmp/c2.ini" -o "$tmp/c2.db" -q
check "class.2 = none and filter.1 = none (the default netsim keys shows) are no class and no filter" \
    test $? -eq 0 -a "$(q "$tmp/c2.db" "select count(*) from counter where name like 'a.eth0.qdisc.1:2.%'")" -eq 0
cat > "$tmp/c3.ini" <<'INI'
[sim]
duration = 0.2s
interval = 100ms
[link l]
ends = a b
fwd.qdisc = htb default 20
fwd.class.10 = parent 1: rate 100mbit
fwd.class.20 = parent 1: rate 200mbit
fwd.filter.1 = match ip protocol 6 0 flowid 1:10
[flow 1]
app = udp_stream
from = a
to = b
rate = 50mbit
INI
run "$tmp/c3.ini" -o "$tmp/c3.db" -q
check "match ip protocol 6 0 (mask 0) matches UDP too: 1:10 gets it" \
    test "$(counter "$tmp/c3.db" a.eth0.qdisc.1:10.sent_packets)" -gt 100 -a "$(counter "$tmp/c3.db" a.eth0.qdisc.1:20.sent_packets)" -eq 0
sed -i 's/^fwd.filter.1 = .*/fwd.filter.1 = match ip dport 5001 flowid 1:10/; s/^app = udp_stream/app = udp_stream\nport = 5001/' "$tmp/c3.ini"
run "$tmp/c3.ini" -o "$tmp/c3b.db" -q
check "match ip dport 5001 with no mask before flowid: taken, and matches" \
    test "$(counter "$tmp/c3b.db" a.eth0.qdisc.1:10.sent_packets)" -gt 100

# --- keys that would do nothing: said so, at their line
pair "fwd.class.10 = parent 1: rate 100mbit" > "$tmp/k1.ini"
run "$tmp/k1.ini" --no-db
check "a class with no qdisc: not 'unknown key', but what it needs" \
    grep -q "k1.ini:8: \[link l\] fwd.class.10: the fwd direction has no qdisc: classes and filters belong to a classful one (htb)" "$tmp/err"
pair "fwd.qdisc = tbf rate 100mbit burst 32kb latency 50ms
fwd.netem_at = leaf" > "$tmp/k2.ini"
run "$tmp/k2.ini" --no-db
check "netem_at = leaf without netem: refused, not ignored" \
    grep -q "k2.ini:9: \[link l\] fwd.netem_at: leaf puts the direction's netem under its qdisc, and it has no netem key" "$tmp/err"
pair "" "net.core.default_qdisc = tbf" > "$tmp/k3.ini"
run "$tmp/k3.ini" --no-db
check "a default_qdisc its init refuses: at the host's key, not the link's header" \
    grep -q "k3.ini:5: \[host a\] net.core.default_qdisc: tbf: the \"rate\" parameter is mandatory" "$tmp/err"
check "... once" test "$(grep -c 'default_qdisc' "$tmp/err")" -eq 1

# --- --tc-stats: netem at the root over a qdisc is shown (only the qdisc
# was), and --json carries the text (it was left out)
pair "fwd.qdisc = tbf rate 100mbit burst 32kb latency 50ms
fwd.delay = 20ms" > "$tmp/ts.ini"
run "$tmp/ts.ini" --no-db -q --tc-stats
check "--tc-stats: netem at the root, with its delay" \
    grep -q "^qdisc netem 8001: dev eth0 root refcnt 2 limit 1000 delay 20.0ms$" "$tmp/out"
check "... and tbf as its child, parent 8001:1" grep -q "^qdisc tbf 8002: dev eth0 parent 8001:1 rate 100Mbit burst 32Kb" "$tmp/out"
run "$tmp/ts.ini" --no-db --json --tc-stats
check "--tc-stats --json: each port's text in netsim.tc_stats" python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["netsim"]["tc_stats"]
assert [(x["host"], x["port"]) for x in t] == [("a", "eth0"), ("b", "eth0")], t
assert "qdisc tbf 8002: dev eth0 parent 8001:1" in t[0]["text"] and " Sent " in t[0]["text"], t[0]
assert "qdisc mq 0: dev eth0 root" in t[1]["text"], t[1]
assert "qdisc pfifo_fast 0: dev eth0 parent :1 bands 3 priomap" in t[1]["text"], t[1]' "$tmp/out"
