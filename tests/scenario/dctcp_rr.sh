#!/usr/bin/env bash
# DCTCP request/response through a marking switch port (8 servers answer
# 64 KB blocks to one client; step marking at K = 20 packets): with 4.15's
# receiver rule (tcp.dctcp_ack = delayed: the ACK sent on a CE change
# clears the delayed-ACK schedule) a block's last segment can wait for the
# sender's RTO although nothing is dropped; with 6.1's (immediate) no
# round takes an RTO. Each release's rule fails the other's check.
. "$(dirname "$0")/common.bash"

for rule in delayed immediate; do
    cat > "$tmp/$rule.ini" <<EOI
[sim]
duration = 2s
seed = 1
[host c]
tcp.cc = dctcp
tcp.dctcp_ack = $rule
[host s{1..8}]
tcp.cc = dctcp
tcp.dctcp_ack = $rule
[link up]
ends = sw:eth0 c:eth0
rate = 1gbit
propagation = 10us
fwd.qdisc = codel limit 100 ce_threshold 242us
[link l{1..8}]
ends = s{}:eth0 sw:eth{}
rate = 1gbit
propagation = 10us
[flow 1]
app = incast
from = c
to = s1
servers = s{1..8}
block = 64K
rounds = 20
EOI
    "$NETSIM" run "$tmp/$rule.ini" -o "$tmp/$rule.db" -q > /dev/null 2>&1
done
rtos() { q "$1" "select sum(rtos > 0) || ' ' || count(*) from message where kind = 'round'"; }
drops() { q "$1" "select value from counter where name = 'sw.eth0.qdisc.dropped'"; }
check "the switch drops nothing under either rule" test "$(drops "$tmp/delayed.db") $(drops "$tmp/immediate.db")" = "0 0"
check "4.15's rule (delayed): rounds take an RTO without a drop" test "$(rtos "$tmp/delayed.db" | cut -d' ' -f1)" -gt 0
check "6.1's rule (immediate): no round of 20 takes an RTO" test "$(rtos "$tmp/immediate.db")" = "0 20"
