#!/usr/bin/env bash
# Route metrics in Linux's words (docs/models/tcp.md): route.rto_min
# (RTAX_RTO_MIN: tcp_rto_min() floors the RTO: srtt + max(4 mdev,
# rto_min)), route.quickack (RTAX_QUICKACK: tcp_in_quickack_mode, every
# data segment ACKed at once) and route.initrwnd (RTAX_INITRWND: the
# window tcp_select_initial_window offers in the SYN-ACK).
. "$(dirname "$0")/common.bash"

pair() {   # pair FILE A-KEYS B-KEYS FLOW-KEYS...: a to b, 10 us each way, no costs
    local f=$1 ka=$2 kb=$3
    shift 3
    {
        printf '[sim]\nduration = 50ms\nseed = 1\n'
        printf '[host a]\ncpu = ideal\nitr = 0\n%s\n[host b]\ncpu = ideal\nitr = 0\n%s\n' "$ka" "$kb"
        printf '[link l]\nends = a:eth0 b:eth0\nrate = %s\npropagation = 10us\n' "${RATE:-10gbit}"
        printf '[flow 1]\nfrom = a\nto = b\napp = tcp_iperf3\n'
        printf '%s\n' "$@"
    } > "$f"
}

# --- rto_min: the sender's every sample has rto = srtt + 5 ms (4 mdev is
# far below it on an empty 22 us path); the receiver keeps 200 ms
pair "$tmp/r.ini" "route.rto_min = 5ms" "" "time = 40ms" "ss_interval = 10ms"
"$NETSIM" run "$tmp/r.ini" -o "$tmp/r.db" -q --ss "$tmp/r.ss" > /dev/null 2>&1
# ss lines: "... rto:X ... backoff:N ... rtt:SRTT/MDEV", sender then receiver
awk '/rto:/ { rto = ""; srtt = ""; bo = 0
        for (i = 1; i <= NF; i++) {
            if ($i ~ /^rto:/) rto = substr($i, 5)
            if ($i ~ /^backoff:/) bo = substr($i, 9)
            if ($i ~ /^rtt:[0-9.]*\//) { split(substr($i, 5), p, "/"); srtt = p[1] } }
        if (bo == 0) printf "%.3f\n", rto - srtt }' "$tmp/r.ss" | sort | uniq -c | awk '{ print $2 ":" $1 }' > "$tmp/r.diff"
check "rto_min 5ms: rto - srtt = 5 ms on the sender's samples, 200 ms on the receiver's" test \
    "$(tr '\n' ' ' < "$tmp/r.diff")" = "$(awk '$1 == "200.000" || $1 == "5.000"' FS=: "$tmp/r.diff" | tr '\n' ' ')"
check "rto_min 5ms: both rules seen" test "$(cut -d: -f1 "$tmp/r.diff" | tr '\n' ' ')" = "200.000 5.000 "
pair "$tmp/rb.ini" "route.rto_min = 5500us" "" "time = 10ms"
check "rto_min: not whole milliseconds is an error at the key" \
    sh -c "'$NETSIM' run '$tmp/rb.ini' -o '$tmp/rb.db' 2>&1 | grep -q 'rb.ini:[0-9]*: .*route.rto_min.*whole milliseconds'"

# --- quickack: 1000 segments at 1 Gbit/s, each ACKed (and the SYN-ACK)
RATE=1gbit pair "$tmp/q0.ini" "" "gro = off" "bytes = 1448000"
RATE=1gbit pair "$tmp/q1.ini" "" "gro = off
route.quickack = 1" "bytes = 1448000"
for i in 0 1; do "$NETSIM" run "$tmp/q$i.ini" -o "$tmp/q$i.db" -q > /dev/null 2>&1; done
acks() {   # the receiver's ACKs, the sender's data segments
    q "$1" "select group_concat(value, ' ') from (select value from counter
            where name in ('flow.1.snd.data_segs_out', 'flow.1.rcv.acks_out') order by name)"
}
check "quickack 1: an ACK per data segment, and the SYN-ACK" test "$(acks "$tmp/q1.db")" = "1001 1000"
check "quickack 0: delayed ACKs, fewer" sh -c "set -- $(acks "$tmp/q0.db"); test \$1 -lt 1000 -a \$2 = 1000"

# --- initrwnd: the SYN-ACK offers 4 segments of 1448, and the first flight is 4
pair "$tmp/w0.ini" "" "" "bytes = 144800"
pair "$tmp/w4.ini" "" "route.initrwnd = 4" "bytes = 144800"
if command -v tshark > /dev/null; then
    for i in 0 4; do "$NETSIM" run "$tmp/w$i.ini" -o "$tmp/w$i.db" -q --pcap "$tmp/wpc$i" > /dev/null 2>&1; done
    synack() { tshark -n -r "$1/a-eth0.pcap" -Y "tcp.flags.syn == 1 && tcp.flags.ack == 1" -T fields -e tcp.window_size_value 2> /dev/null; }
    # the first flight reaches b from 23.4 us, one frame per 1.23 us; the
    # next comes after an RTT (44 us on)
    flight() { tshark -n -r "$1/b-eth0.pcap" -Y "ip.src == 10.0.0.1 && tcp.len > 0 && frame.time_relative < 0.00004" -T fields -e tcp.len 2> /dev/null | wc -l; }
    check "initrwnd 4: SYN-ACK window 5792 (default 20 segments: 28960)" test "$(synack "$tmp/wpc4") $(synack "$tmp/wpc0")" = "5792 28960"
    check "initrwnd 4: a first flight of 4 segments (default IW10)" test "$(flight "$tmp/wpc4") $(flight "$tmp/wpc0")" = "4 10"
else
    skip "tshark is not installed" "initrwnd"
fi
