#!/usr/bin/env bash
# Multipath routes (route.multipath, net.ipv4.fib_multipath_hash_policy):
# two leaves joined by two spines, four 10 Gbit/s senders on one leaf and
# their receivers on the other, 1 Gbit/s uplinks. Off (the default), a
# leaf routes the other leaf's hosts through its first-declared uplink
# only, and the four flows share its 1 Gbit/s; on, each flow takes one
# uplink by its hash, every packet of it the same one, and flows on both
# uplinks have twice the capacity between them.
. "$(dirname "$0")/common.bash"

fabric() {   # fabric FILE FLOWS: the fabric with flows FLOWS ("{1..4}", or one number)
    cat > "$1" <<EOI
[sim]
duration = 200ms
seed = 3
[host a{1..4}]
[host b{1..4}]
[host leaf{1..2}]
route.multipath = off
[host spine{1..2}]
[link la{1..4}]
ends = a{}:eth0 leaf1:eth{}
rate = 10gbit
[link lb{1..4}]
ends = b{}:eth0 leaf2:eth{}
rate = 10gbit
[link u{1..2}1]
ends = leaf1:up{} spine{}:eth1
rate = 1gbit
[link u{1..2}2]
ends = leaf2:up{} spine{}:eth2
rate = 1gbit
[flow $2]
app = tcp_stream
from = a${2/\{1..4\}/\{\}}
to = b${2/\{1..4\}/\{\}}
length = 1s
EOI
}
fabric "$tmp/f.ini" '{1..4}'

up() {   # up DB N: packets leaf1 sent on its uplink N
    q "$1" "select sum(value) from counter where name glob 'leaf1.up$2.q*.tx_packets'"
}
goodput() {   # goodput DB: the flows' goodput together, Mbit/s
    q "$1" "select cast(sum(value) / 1e6 as int) from counter where name glob 'flow.*.goodput_bps'"
}
run() {   # run NAME [--set ...]: the four flows, or with ONE=i flow i alone
    local name=$1 ini=$tmp/f.ini
    shift
    if [ -n "${ONE:-}" ]; then
        ini=$tmp/one$ONE.ini
        fabric "$ini" "$ONE"
    fi
    "$NETSIM" run "$ini" -q -o "$tmp/$name.db" "$@" > "$tmp/$name.out" 2>&1
    check "$name runs" test $? -eq 0
}

run off
check "off: everything over the first-declared uplink ($(up "$tmp/off.db" 1) packets, the other $(up "$tmp/off.db" 2))" \
    test "$(up "$tmp/off.db" 1)" -gt 0 -a "$(up "$tmp/off.db" 2)" -eq 0
run on --set leaf1.route.multipath=on --set leaf2.route.multipath=on
check "on: both uplinks carry flows ($(up "$tmp/on.db" 1) and $(up "$tmp/on.db" 2) packets)" \
    test "$(up "$tmp/on.db" 1)" -gt 0 -a "$(up "$tmp/on.db" 2)" -gt 0
g_off=$(goodput "$tmp/off.db") g_on=$(goodput "$tmp/on.db")
check "... and twice the capacity: $g_on against $g_off Mbit/s together (1.8 to 2.2 times)" \
    test $((g_on * 10)) -ge $((g_off * 18)) -a $((g_on * 10)) -le $((g_off * 22))
check "the route keys are recorded" \
    test "$(q "$tmp/on.db" "select group_concat(value, ' ') from (select value from param where key in ('leaf1.route.multipath', 'leaf1.net.ipv4.fib_multipath_hash_policy') order by key)")" = "0 on"

# one flow at a time: all its packets on one uplink, none reordered (a
# flow's hash does not change); over the four, both uplinks are chosen
both=0
for i in 1 2 3 4; do
    for pol in 0 1; do
        ONE=$i run "one$i-$pol" --set leaf1.route.multipath=on --set leaf1.net.ipv4.fib_multipath_hash_policy=$pol
        db=$tmp/one$i-$pol.db
        u1=$(up "$db" 1) u2=$(up "$db" 2)
        check "flow $i alone, policy $pol: one uplink only ($u1, $u2)" test $((u1 * u2)) -eq 0 -a $((u1 + u2)) -gt 0
        [ "$pol" = 1 ] && [ "$u2" -gt 0 ] && both=$((both | 2))
        [ "$pol" = 1 ] && [ "$u1" -gt 0 ] && both=$((both | 1))
    done
done
check "over the four flows (policy 1) both uplinks are taken" test "$both" = 3

# a bad policy is an error at its line
sed 's/^route.multipath = off$/route.multipath = off\nnet.ipv4.fib_multipath_hash_policy = 2/' "$tmp/f.ini" > "$tmp/bad.ini"
"$NETSIM" run "$tmp/bad.ini" -o "$tmp/bad.db" > "$tmp/bad.out" 2>&1
check "fib_multipath_hash_policy = 2: an error naming the line (4.15 has 0 and 1)" \
    grep -q "bad.ini:8: .*fib_multipath_hash_policy" "$tmp/bad.out"
