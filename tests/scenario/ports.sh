#!/usr/bin/env bash
# Hosts with many ports: a switch of 12 (more than the 8 a host had)
# forwards between its first and last port (the 691 segments of a
# million bytes), the pcap key names its 11th; a switch of 70 (an incast
# ToR: 64 servers and more) does too, its key naming a port past the
# first 64; 129 ports are an error at the link's line that says where the
# limit is.
. "$(dirname "$0")/common.bash"

star() {   # star FILE N: hosts h1..hN each on port ethK-1 of sw, a flow h1 -> hN
    local f=$1 n=$2 i
    {
        printf '[sim]\nduration = 20ms\nseed = 1\n[host sw]\npcap = eth%d\n' $((n - 2))
        for i in $(seq 1 "$n"); do printf '[link l%d]\nends = h%d:eth0 sw:eth%d\nrate = 10gbit\n' "$i" "$i" $((i - 1)); done
        printf '[flow 1]\nfrom = h1\nto = h%d\napp = tcp_iperf3\nbytes = 1000000\n' "$n"
    } > "$f"
}
star "$tmp/s.ini" 12
"$NETSIM" run "$tmp/s.ini" -o "$tmp/s.db" -q --pcap "$tmp/pc" > "$tmp/s.out" 2>&1
check "12 ports: the flow crosses the switch, 1M delivered" test \
    "$(q "$tmp/s.db" "select sum(bytes) from interval where flow = 1")" = 1000000
check "12 ports: the last port sends it on" test \
    "$(q "$tmp/s.db" "select sum(value) >= 691 from counter where name glob 'sw.eth11.q*.tx_packets'")" = 1
check "12 ports: the pcap key names eth10: its file alone" test "$(ls "$tmp/pc" | tr '\n' ' ')" = "sw-eth10.pcap "
star "$tmp/w.ini" 70
"$NETSIM" run "$tmp/w.ini" -o "$tmp/w.db" -q --pcap "$tmp/pw" > "$tmp/w.out" 2>&1
check "70 ports: the flow crosses the switch to its 70th port, 1M delivered" test \
    "$(q "$tmp/w.db" "select sum(bytes) from interval where flow = 1")" = 1000000
check "70 ports: the pcap key names eth68: its file alone" test "$(ls "$tmp/pw" | tr '\n' ' ')" = "sw-eth68.pcap "
star "$tmp/b.ini" 129
check "129 ports: an error at the link's line, naming the limit" \
    sh -c "'$NETSIM' run '$tmp/b.ini' -o '$tmp/b.db' 2>&1 | grep -q 'b.ini:[0-9]*: .*more than 128 ports (HOST_MAX_NICS'"
