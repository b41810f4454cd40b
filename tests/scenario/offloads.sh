#!/usr/bin/env bash
# TSO/GSO, GRO and TCP Small Queues as whole-host behaviour (the unit rules
# are in tests/test_gro.c and tests/test_tso.c):
# - with GRO on, the receiver of a 10 Gbit/s CUBIC flow sends about one
#   ACK per GRO packet (__tcp_ack_snd_check: a GRO packet is more than one
#   full-sized segment, so each one is ACKed at once), against about one
#   per two segments with GRO off;
# - a Reno flow into a 1 Gbit/s link drops nothing in its own host's
#   qdisc with TSQ on (tcp_small_queue_check holds the rest in the
#   socket), and drops there with it off;
# - with tso, gso, gro and tsq off and every host's CPU ideal, the TCP
#   scenarios' rows are exactly those of the release before the offloads
#   were modelled (the hashes below, tools/fingerprint's row dump);
# - with TSO on, a capture shows one record per GSO packet, --pcap-wire
#   one per frame on the wire.
. "$(dirname "$0")/common.bash"

w1=scenarios/bench/w1.ini
both() {    # both KEY=VALUE...: set each key on sender and receiver
    local kv
    for kv in "$@"; do printf -- '--set sender.%s --set receiver.%s ' "$kv" "$kv"; done
}
on=$(both tso=on gso=on gro=on tcp.tsq=on)
off=$(both tso=off gso=off gro=off tcp.tsq=off)
c() { q "$1" "SELECT CAST(value AS INTEGER) FROM counter WHERE name = '$2'"; }

# --- ACKs per GRO packet -----------------------------------------------------
# shellcheck disable=SC2086
"$NETSIM" run $w1 $on --set sim.duration=0.2s --set sim.interval=100ms --set 1.time=0.2s -q -o "$tmp/on.db" > /dev/null
# shellcheck disable=SC2086
"$NETSIM" run $w1 $off --set sim.duration=0.2s --set sim.interval=100ms --set 1.time=0.2s -q -o "$tmp/off.db" > /dev/null
data=$(c "$tmp/on.db" link.path.fwd.tx_packets)
acks=$(c "$tmp/on.db" link.path.rev.tx_packets)
gro=$(q "$tmp/on.db" "SELECT CAST(sum(value) AS INTEGER) FROM counter
                        WHERE name LIKE 'receiver.eth0.q%.gro_flushed'")
merged=$(q "$tmp/on.db" "SELECT CAST(sum(value) AS INTEGER) FROM counter
                           WHERE name LIKE 'receiver.eth0.q%.gro_merged'")
echo "# GRO on: $data data frames, $acks ACK frames, $gro GRO packets ($merged segments merged)"
check "GRO on: ACK frames / data frames under 0.05 (one per GRO packet of up to 45 segments)" \
    between "$(awk -v a="$acks" -v d="$data" 'BEGIN { print a / d }')" 0.005 0.05
check "GRO on: about one ACK per GRO packet (0.9 to 1.1)" \
    between "$(awk -v a="$acks" -v g="$gro" 'BEGIN { print a / g }')" 0.9 1.1
check "GRO on: every data frame reached the stack in a GRO packet (flushed + merged = frames)" \
    test "$((gro + merged))" -ge "$((data * 99 / 100))"
data=$(c "$tmp/off.db" link.path.fwd.tx_packets)
acks=$(c "$tmp/off.db" link.path.rev.tx_packets)
echo "# GRO off: $data data frames, $acks ACK frames"
check "GRO off: about one ACK per two segments (0.45 to 0.55)" \
    between "$(awk -v a="$acks" -v d="$data" 'BEGIN { print a / d }')" 0.45 0.55
check "GRO off: no GRO counters" test "$(q "$tmp/off.db" "SELECT count(*) FROM counter WHERE name LIKE '%gro_%'")" -eq 0
check "same wire: the link's rate fills either way (9.3 to 9.5 Gbit/s of goodput)" \
    between "$(q "$tmp/on.db" "SELECT value / 1e9 FROM counter WHERE name = 'flow.1.goodput_bps'")" 9.3 9.5
gso=$(c "$tmp/on.db" flow.1.snd.gso_pkts_out)
segs=$(c "$tmp/on.db" flow.1.snd.segs_out)
check "TSO on: the sender hands the port GSO packets of many segments ($gso for $segs)" \
    test "$((segs / gso))" -ge 10

# --- TCP Small Queues: a Reno flow into 1 Gbit/s ---------------------------
cat > "$tmp/reno.ini" <<'EOF'
[sim]
duration = 3s
[host a]
cpu = ideal
tcp.cc = reno
net.ipv4.tcp_wmem = 4096 16384 16777216
[host b]
cpu = ideal
net.ipv4.tcp_rmem = 4096 87380 67108864
[link l]
ends = a:eth0 b:eth0
rate = 1gbit
propagation = 10ms
[flow 1]
app = tcp_iperf3
from = a
to = b
time = 3s
EOF
reno() {    # reno DB TSQ
    "$NETSIM" run "$tmp/reno.ini" --set a.tcp.tsq="$2" --set 1.ss_interval=10ms -q -o "$1" > /dev/null
}
reno "$tmp/tsq.db" on
reno "$tmp/notsq.db" off
drops() { q "$1" "SELECT CAST(coalesce(sum(value), 0) AS INTEGER) FROM counter WHERE name LIKE 'a.eth0.%qdisc_drops'"; }
echo "# Reno 1 Gbit/s: qdisc drops $(drops "$tmp/tsq.db") with TSQ, $(drops "$tmp/notsq.db") without;" \
     "throttled $(c "$tmp/tsq.db" flow.1.snd.tsq_throttled) times"
check "Reno, TSQ on: nothing dropped in its own host's qdisc" test "$(drops "$tmp/tsq.db")" -eq 0
check "Reno, TSQ on: nothing retransmitted" test "$(c "$tmp/tsq.db" flow.1.snd.retrans)" -eq 0
check "Reno, TSQ on: the socket was throttled" test "$(c "$tmp/tsq.db" flow.1.snd.tsq_throttled)" -gt 0
# TSQ's rule: at most tcp_limit_output_bytes (262144) of the socket's
# truesize below it, plus the skb that crossed it; without, the qdisc
# takes whatever cwnd allows (megabytes here)
wmem() { q "$1" "SELECT CAST(max(value) AS INTEGER) FROM series WHERE name = 'flow.1.snd.ss.skmem_t'"; }
check "Reno, TSQ on: sk_wmem_alloc at most 262144 and a GSO packet ($(wmem "$tmp/tsq.db"))" \
    test "$(wmem "$tmp/tsq.db")" -le $((262144 + 65536 + 1024))
check "Reno, TSQ off: megabytes below the socket ($(wmem "$tmp/notsq.db"))" test "$(wmem "$tmp/notsq.db")" -gt 4000000

# --- offloads off, CPU ideal: the rows of the release before them ----------
# Hashes of tools/fingerprint's row dump, measured with the release before
# TSO/GSO/GRO/TSQ were modelled (bec113c) under the same settings; the
# BBR runs (tcp_drs's two, bottleneck's 4 to 6) as since BBR paces on the
# whole packet (868d4db), and bottleneck's fq_codel runs (2, 5, 8: flow 2
# is CUBIC in each) as since CUBIC's K is the kernel's cubic_root (387347c).
hashes() {  # hashes DB: "ID HASH" per run
    local db=$1 id
    for id in $(q "$db" "SELECT id FROM run ORDER BY id"); do
        {
            q "$db" "SELECT 'i', flow, t_start, t_end, bytes, bits_per_s FROM interval WHERE run_id = $id
                     ORDER BY flow, t_start"
            q "$db" "SELECT 'c', name, printf('%.17g', value) FROM counter WHERE run_id = $id ORDER BY name"
            q "$db" "SELECT 's', name, t, value FROM series WHERE run_id = $id ORDER BY name, t, value"
        } | sha256sum | awk -v id="$id" '{ print id, $1 }'
    done
}
alloff() {  # alloff HOST...
    local h
    for h in "$@"; do
        printf -- '--set %s.cpu=ideal --set %s.tso=off --set %s.gso=off --set %s.gro=off --set %s.tcp.tsq=off ' \
            "$h" "$h" "$h" "$h" "$h"
    done
}
# shellcheck disable=SC2046
"$NETSIM" sweep scenarios/tcp_drs.ini $(alloff sender receiver) --set sim.duration=2.1s --set 1.length=2s \
    --set sim.repeat=1 -j 2 -q -o "$tmp/drs.db" > /dev/null
hashes "$tmp/drs.db" > "$tmp/drs.got"
cat > "$tmp/drs.want" <<'EOF'
1 8205eba0b0e18d02d7bd5f5ffa1469eabc9f494825420bc6a242b3b2ad33b4e7
2 717b07ff28bda8efb37935069f9be96dd7d42a3226fd9241270c2a6485a68e40
EOF
check "tcp_drs (trimodal, continuous), offloads off: rows exactly as before" diff "$tmp/drs.want" "$tmp/drs.got"
# shellcheck disable=SC2046
"$NETSIM" sweep scenarios/bottleneck.ini $(alloff s1 s2 r d) --set sim.duration=1s --set sim.interval=500ms \
    --set sim.repeat=1 -j 2 -q -o "$tmp/bn.db" > /dev/null
hashes "$tmp/bn.db" > "$tmp/bn.got"
cat > "$tmp/bn.want" <<'EOF'
1 52418aa5503d9f117ce9e6d8b974912cab9f50128a1936de200995dde675f6b3
2 32e1b04b277fc49fd292c5b491985873002de880e56b47b67252cc931f498095
3 21e784cd4f0331be8ade14a56639368257f90a9791d21aaeeb93e632929e3719
4 0312456c88be62812a1a31d815081101f7ef9fb0a8aee15dd052791daab692d6
5 c7d605d71e220a30fc79bfa7a77a156edd5753cdbfc3801bae0f2302886ec8bf
6 339fdf8d20724f53970870ae1b0fbcc2aca35a0a05ea382bad10564a198a6bb0
7 6ff3b49cbe455da060617a44eaecc864ca5371c0182dd82fefdcfdbdfffddd8e
8 964525e8584a4f5103cafbf4b2210b9bd7e01ad7469f725c4a21bcfa964431b2
9 8430954eeeb926733f1597b2645bfd0711f728e66d3cfcd91888c6b0ec54fc83
EOF
check "bottleneck (9 runs), offloads off: rows exactly as before" diff "$tmp/bn.want" "$tmp/bn.got"

# --- captures: GSO packets on the host, frames on the wire -----------------
# shellcheck disable=SC2086
"$NETSIM" run $w1 $on --set sim.duration=20ms --set sim.interval=10ms --set 1.time=20ms -q -o "$tmp/cap.db" \
    --pcap "$tmp/host" > /dev/null
# shellcheck disable=SC2086
"$NETSIM" run $w1 $on --set sim.duration=20ms --set sim.interval=10ms --set 1.time=20ms -q -o "$tmp/capw.db" \
    --pcap "$tmp/wire" --pcap-wire > /dev/null
records() { python3 - "$1" <<'EOF'
import struct, sys
d = open(sys.argv[1], 'rb').read()
n, o = 0, 24
while o + 16 <= len(d):
    o += 16 + struct.unpack_from('<I', d, o + 8)[0]
    n += 1
print(n)
EOF
}
hrec=$(($(records "$tmp/host/sender-eth0.pcap") + $(records "$tmp/host/receiver-eth0.pcap")))
ws=$(records "$tmp/wire/sender-eth0.pcap")
wr=$(records "$tmp/wire/receiver-eth0.pcap")
wframes=$(($(c "$tmp/capw.db" link.path.fwd.tx_packets) + $(c "$tmp/capw.db" link.path.rev.tx_packets)))
echo "# 20 ms of w1 with offloads: $hrec host records, $ws + $wr wire records, $wframes frames on the wire"
# each end saw every frame on the wire but those still in flight at the end
check "--pcap-wire: the sender's file has one record per frame on the wire" \
    between "$ws" "$((wframes * 98 / 100))" "$wframes"
check "--pcap-wire: the receiver's file has one record per frame on the wire" \
    between "$wr" "$((wframes * 98 / 100))" "$wframes"
check "--pcap: GSO and GRO packets, far fewer records than on the wire" test "$((hrec * 5))" -lt "$((ws + wr))"
