#!/usr/bin/env bash
# Scenario tests of the TCP model (docs/models/tcp.md, docs/cases/tcp-drs.md), on short runs:
# the direction of the DRS effect under 1 % loss on paired seeds, no
# difference without loss, Mathis-order Reno, the 6.x autotuning's
# signature, bad keys rejected, TCP's CPU cost on xeon-2012 hosts.
# Prints "ok NAME" or "not ok NAME" (with the reason indented below).
. "$(dirname "$0")/common.bash"

gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'; }

sc=scenarios/tcp_drs.ini
# These rules are per segment: the truesize of one segment, netem's draw
# per segment. The scenario has TSO, GSO, GRO and TSQ on (netem then
# draws per GSO packet, the receiver measures GRO packets); the runs
# below turn them off, as the case page's per-segment table has them.
off=$(for h in sender receiver; do for k in tso gso gro tcp.tsq; do printf -- '--set %s.%s=off ' $h $k; done; done)
offab=${off//sender./a.}
offab=${offab//receiver./b.}
run() {   # db drs loss seed
    # shellcheck disable=SC2086
    "$NETSIM" run "$sc" -q -o "$1" $off --set sim.repeat=1 --set receiver.tcp.drs="$2" --set path.fwd.loss="$3" \
        --seed "$4" --set 1.trace_interval=0 > /dev/null 2>&1
}
mean() { q "$1" "select avg(c.value) from counter c join param p on p.run_id = c.run_id and p.key = 'receiver.tcp.drs'
               where c.name = 'flow.1.goodput_bps' and p.value = '$2'"; }

# --- seed 003 under 1 % loss: continuous above trimodal on 3 paired seeds
db=$tmp/loss.db
for s in 1 2 3; do run "$db" trimodal 1% "$s"; run "$db" continuous 1% "$s"; done
check "six 5 s BBR runs complete" test "$(q "$db" "select count(*) from run where status = 'complete'")" -eq 6
tri=$(mean "$db" trimodal)
con=$(mean "$db" continuous)
check "1% loss: continuous mean > 1.5 x trimodal ($con vs $tri bit/s)" gt "$con" "$(awk -v t="$tri" 'BEGIN { print 1.5 * t }')"
check "1% loss: trimodal above 300 Mbit/s ($tri)" gt "$tri" 3e8
wins=$(q "$db" "select count(*) from counter a join counter b on a.name = b.name and b.run_id = a.run_id + 1
                where a.name = 'flow.1.goodput_bps' and a.run_id % 2 = 1 and b.value > a.value")
check "1% loss: continuous wins every pair ($wins of 3)" test "$wins" -eq 3
check "no prunes or collapses at tau < 2 (V9)" test "$(q "$db" "select count(*) from counter where name like 'flow.1.rcv.prune_%' and value > 0")" -eq 0
lost=$(q "$db" "select sum(value) from counter where name = 'link.path.fwd.netem_loss'")
sent=$(q "$db" "select sum(value) from counter where name = 'link.path.fwd.tx_packets'")
check "the data path lost about 1 % ($lost of $sent)" between "$(awk -v l="$lost" -v s="$sent" 'BEGIN { print l / (l + s) }')" 0.009 0.011

# --- no loss: the variants agree within 15 %
db=$tmp/clean.db
run "$db" trimodal 0% 1; run "$db" continuous 0% 1
tri=$(mean "$db" trimodal)
con=$(mean "$db" continuous)
check "no loss: variants within 15% ($tri, $con)" between "$(awk -v a="$tri" -v b="$con" 'BEGIN { print b / a }')" 0.85 1.15
check "no loss: above 4 Gbit/s averaged over 5 s with the ramp ($con)" gt "$con" 4e9

# --- no loss, a window that allows it: every CC fills 10 Gbit/s (1448/1538 of the wire = 9.41)
for cc in reno bbr; do
    db=$tmp/fill_$cc.db
    "$NETSIM" run "$sc" -q -o "$db" --set sim.repeat=1 --set sender.tcp.cc=$cc --set receiver.tcp.drs=continuous \
        --set path.fwd.loss=0% --set path.limit=1000000 --set sim.duration=3s --set 1.length=3s --set 1.trace_interval=0 \
        --set sim.interval=500ms > /dev/null 2>&1
    r=$(q "$db" "select bits_per_s from interval where t_start >= 2.49 and t_start < 2.51")
    check "$cc, no loss: 10 Gbit/s filled in the last 0.5 s ($r)" between "$r" 9.0e9 9.42e9
done

# --- Reno at 100 ms / 1 %: Mathis 1.4 Mbit/s
db=$tmp/reno.db
"$NETSIM" run "$sc" -q -o "$db" --set sim.repeat=1 --set sender.tcp.cc=reno --set receiver.tcp.drs=continuous \
    --set sim.duration=30s --set 1.length=30s --set 1.trace_interval=0 --set sim.interval=1s > /dev/null 2>&1
r=$(q "$db" "select value from counter where name = 'flow.1.goodput_bps'")
check "reno 1% loss 100 ms: 0.7 to 2.8 Mbit/s (Mathis 1.4; got $r)" between "$r" 7e5 2.8e6

# --- Linux 6.x autotuning (tcp.drs = rcvbuf_grow, tcp.win_from_space =
# scaling_ratio) on seed 1: the receiver measures 1448 bytes in 2048 + 576
# of truesize, 141/256, and every window clamp it sets is its buffer at
# that ratio; out-of-order segments raise the buffer between periods,
# which 4.15 never does.
db=$tmp/six.db
# shellcheck disable=SC2086
"$NETSIM" run "$sc" -q -o "$db" $off --set sim.repeat=1 --set receiver.tcp.drs=rcvbuf_grow \
    --set receiver.tcp.win_from_space=scaling_ratio --set 1.trace_interval=10ms --set 1.drs_log="$tmp/six.log" > /dev/null 2>&1
check "6.x: the run completes" test "$(q "$db" "select count(*) from run where status = 'complete'")" -eq 1
c=$(q "$db" "select value from series where name = 'flow.1.rcv.window_clamp' order by t limit 1")
check "6.x: the first clamp is 376960 x 141 / 256 = 207622 ($c; adv_win_scale gives 187020)" test "${c%.0}" = 207622
pairs=$(q "$db" "select b.value, c.value from series b join series c on c.run_id = b.run_id and c.t = b.t
                 and c.name = 'flow.1.rcv.window_clamp' where b.name = 'flow.1.rcv.rcvbuf'" | sort -u)
n=$(wc -l <<< "$pairs")
bad=$(awk -F'|' '$2 != int($1 * 141 / 256)' <<< "$pairs" | wc -l)
check "6.x: at each of the $n buffers it grew to, window_clamp = rcvbuf x 141 / 256 ($bad not)" test "$bad" -eq 0 -a "$n" -gt 10
between_ofo() { awk '!/^#/ { if (n++ && $6 > last) k++; last = $7 } END { print k + 0 }' "$1"; }
k=$(between_ofo "$tmp/six.log")
check "6.x: out-of-order segments raised the buffer between periods ($k times)" test "$k" -gt 3
# shellcheck disable=SC2086
"$NETSIM" run "$sc" -q --no-db $off --set sim.repeat=1 --set receiver.tcp.drs=trimodal --set 1.drs_log="$tmp/four.log" \
    > /dev/null 2>&1
k=$(between_ofo "$tmp/four.log")
check "... which 4.15 (trimodal) never does ($k)" test "$k" -eq 0
out=$("$NETSIM" run "$sc" --no-db -q --set sim.repeat=1 --set sim.duration=0.2s --set 1.length=0.1s \
      --set receiver.tcp.drs=rcvbuf_grow --set receiver.tcp.win_from_space=scaling_ratio --set receiver.net.ipv4.tcp_adv_win_scale=2 2>&1)
check "tcp_adv_win_scale under scaling_ratio: a warning, it changes nothing" \
    grep -q "tcp_adv_win_scale: warning: changes nothing: the sysctl is obsolete since Linux 6.6; this host.s tcp.win_from_space is scaling_ratio" <<< "$out"

# --- bad input
out=$("$NETSIM" run "$sc" --no-db --set sim.repeat=1 --set receiver.tcp.drs=trimodal --set receiver.tcp.cc=nosuch 2>&1)
rc=$?
check "unknown tcp.cc is exit 2" test "$rc" -eq 2
check "unknown tcp.cc names the registered variants, the default first" grep -q "expected one of: cubic, bbr, dctcp, highspeed, reno, vegas, westwood" <<< "$out"
out=$("$NETSIM" run "$sc" --no-db --set sim.repeat=1 --set receiver.tcp.drs=trimodal \
      --set "receiver.net.ipv4.tcp_rmem=4096 87380" 2>&1)
check "tcp_rmem needs three sizes" grep -q "three sizes" <<< "$out"

# --- Vegas holds alpha to beta packets in the bottleneck's queue. A ping
# beside the flow sees the queue ahead of it: its RTT above the empty
# path's (its first echo), in 1514-byte frames at 100 Mbit/s (121.12 us
# each, netem's rate counting the Ethernet header as tc's does)
cat > "$tmp/vegas.ini" <<'INI'
[sim]
duration = 30s
interval = 1s
[host s]
tso = off
gso = off
gro = off
tcp.tsq = off
tcp.cc = vegas
[host r]
tso = off
gso = off
gro = off
tcp.tsq = off
[host d]
tso = off
gso = off
gro = off
tcp.tsq = off
[link up]
ends = s:eth0 r:eth0
[link wan]
ends = r:eth1 d:eth0
fwd.netem_rate = 100mbit
fwd.limit = 1000
delay = 1ms
[flow 1]
app = tcp_stream
from = s
to = d
length = 30s
trace_interval = 0
[flow 2]
app = ping
from = s
to = d
interval = 10ms
INI
queued() {   # packets a ping found queued ahead of it after 10 s, on average
    q "$1" "select (select avg(value) from series where name = 'flow.2.rtt_us' and t > 10)
                   - (select value from series where name = 'flow.2.rtt_us' order by t limit 1)" |
        awk '{ printf "%.2f", $1 / 121.12 }'
}
"$NETSIM" run "$tmp/vegas.ini" -q -o "$tmp/vegas.db" > /dev/null 2>&1
n=$(queued "$tmp/vegas.db")
check "vegas: the queue holds alpha 2 to beta 4 packets ($n)" between "$n" 2 4
"$NETSIM" run "$tmp/vegas.ini" -q -o "$tmp/vegas68.db" --set s.tcp.cc.vegas.alpha=6 --set s.tcp.cc.vegas.beta=8 \
    > /dev/null 2>&1
n=$(queued "$tmp/vegas68.db")
check "vegas with tcp.cc.vegas.alpha = 6, beta = 8: 6 to 8 packets ($n)" between "$n" 6 8
r=$(q "$tmp/vegas.db" "select value from counter where name = 'flow.1.goodput_bps'")
check "... and the link stays full: 94 to 96 Mbit/s of goodput ($r)" between "$r" 94e6 96e6
"$NETSIM" run "$tmp/vegas.ini" -q -o "$tmp/cubic.db" --set s.tcp.cc=cubic > /dev/null 2>&1
n=$(queued "$tmp/cubic.db")
check "cubic on the same path fills the 1000-packet buffer instead (over 800: $n)" between "$n" 800 1000

# --- TCP over IPv6: the same flow with a 40-byte header. The MSS drops by
# 20 (1500 - 40 - 20 - 12 of timestamps = 1428 against 1448), and so the
# goodput by 1428/1448 on a path the sender fills (1538 wire bytes a frame either way).
cat > "$tmp/v6.ini" <<'INI'
[sim]
duration = 2s
[host a]
[host b]
[link l]
ends = a b
rate = 1gbit
delay = 1ms
[flow 1]
app = tcp_stream
from = a
to = b
family = inet6
length = 2s
ss_interval = 1s
INI
"$NETSIM" run "$tmp/v6.ini" -q -o "$tmp/v6.db" --ss "$tmp/v6.ss" > /dev/null 2>&1
"$NETSIM" run "$tmp/v6.ini" -q -o "$tmp/v4.db" --set 1.family=inet > /dev/null 2>&1
g6=$(q "$tmp/v6.db" "select value from counter where name = 'flow.1.goodput_bps'")
g4=$(q "$tmp/v4.db" "select value from counter where name = 'flow.1.goodput_bps'")
check "inet6: goodput is inet's times 1428/1448 within 0.3 % ($g6 against $g4)" \
    between "$(awk -v a="$g6" -v b="$g4" 'BEGIN { print a / b / (1428 / 1448) }')" 0.997 1.003
check "inet6: ss shows IPv6 addresses, mss 1428 and advmss 1440" \
    grep -q 'ESTAB.*\[fd00::1\]:32768 *\[fd00::2\]:12866' "$tmp/v6.ss"
check "... with mss:1428 and advmss:1440" grep -q 'mss:1428 pmtu:1500 .*advmss:1440' "$tmp/v6.ss"
out=$("$NETSIM" run "$tmp/v6.ini" --no-db --set l.mtu=1200 2>&1)
check "inet6 over a 1200-byte link is refused with the RFC's 1280" grep -q 'family.*inet6 needs every link on the route to carry 1280 bytes' <<< "$out"

# --- HighSpeed TCP (RFC 3649): a loss at window W leaves W - W x b(W),
# b from the table's row for W (at 663 < W <= 851: 86/256, one third,
# where Reno halves). A 100 Mbit/s path of 20 ms whose netem holds 400
# packets: slow start ends at about 3 s, congestion avoidance then loses
# near 720 packets. Byte queue limits are off on a (the default is on):
# its TX ring's 256 packets are part of the buffer that puts the loss in
# the 663-851 row (with BQL on the ring holds a few and the loss comes at
# about 490 packets, another row of the table).
cat > "$tmp/hs.ini" <<'INI'
[sim]
duration = 12s
[host a]
tso = off
gso = off
gro = off
tcp.tsq = off
tcp.cc = highspeed
bql = off
[host b]
tso = off
gso = off
gro = off
tcp.tsq = off
[link l]
ends = a b
rate = 100mbit
delay = 10ms
fwd.limit = 400
[flow 1]
app = tcp_stream
from = a
to = b
length = 12s
ss_interval = 10ms
INI
"$NETSIM" run "$tmp/hs.ini" -q -o "$tmp/hs.db" --ss "$tmp/hs.ss" > /dev/null 2>&1
hs=$(python3 - "$tmp/hs.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
ss = db.execute("select t, value from series where name = 'flow.1.snd.ss.ssthresh' and t > 3.5 order by t").fetchall()
t, s = next((t, s) for (t0, s0), (t, s) in zip(ss, ss[1:]) if s != s0)
w = db.execute("select max(value) from series where name = 'flow.1.snd.cwnd' and t > ? and t <= ?", (t - 0.3, t)).fetchone()[0]
print(int(w), int(s), int(w) - (int(w) * 86 >> 8))
PY
)
read -r w s want <<< "$hs"
check "highspeed: a loss at cwnd $w (663 < W <= 851) leaves ssthresh $s = W - (W x 86 >> 8) = $want (+-2)" \
    between "$s" $((want - 2)) $((want + 2))
check "... a cut of a third, not Reno's half (ssthresh/W between 0.65 and 0.68)" \
    between "$(awk -v s="$s" -v w="$w" 'BEGIN { print s / w }')" 0.65 0.68

# --- Westwood+: after a loss, cwnd = ssthresh = its bandwidth estimate x
# RTTmin, so random (non-congestive) loss costs it far less than Reno's
# halving. 1 Gbit/s, 2 ms, 0.5 % random loss: more than twice Reno's goodput.
ww() {   # ww CC: goodput, bit/s
    "$NETSIM" run "$tmp/v6.ini" -q -o "$tmp/ww_$1.db" $offab --set 1.family=inet --set a.tcp.cc="$1" \
        --set l.fwd.loss=0.5% --set 1.ss_interval=0 > /dev/null 2>&1
    q "$tmp/ww_$1.db" "select value from counter where name = 'flow.1.goodput_bps'"
}
gw=$(ww westwood)
gr=$(ww reno)
check "westwood: under 0.5 % random loss more than twice Reno's goodput ($gw against $gr bit/s)" \
    gt "$gw" "$(awk -v r="$gr" 'BEGIN { print 2 * r }')"
bwe=$(q "$tmp/ww_westwood.db" "select avg(value) from series where name = 'flow.1.snd.westwood_bwe_bps' and t >= 0.5")
check "westwood: its bandwidth estimate follows what it delivers (0.7 to 1.4 x goodput: $bwe)" \
    between "$(awk -v b="$bwe" -v g="$gw" 'BEGIN { print b / g }')" 0.7 1.4

# --- the cc's get_info in ss -i, and the send buffer of the handshake
"$NETSIM" run "$tmp/v6.ini" -q --no-db --ss "$tmp/bbr.ss" --set a.tcp.cc=bbr > /dev/null 2>&1
check "ss: BBR's get_info as iproute2 prints it (bbr:(bw:...,mrtt:...,pacing_gain:...,cwnd_gain:...))" \
    grep -qE ' data_segs_out:[0-9]+ bbr:\(bw:[0-9.]+[kMG]bps,mrtt:[0-9.]+,pacing_gain:[0-9.]+,cwnd_gain:[0-9.]+\) send ' "$tmp/bbr.ss"
check "ss: tb87040, tcp_sndbuf_expand at the handshake (2 x 10 x 4352)" grep -q 'skmem:(r[0-9]*,rb[0-9]*,t0,tb87040,' "$tmp/v6.ss"

# --- TCP over IPv6 at 10 Gbit/s, the physics exact: with timestamps a
# full frame carries 1428 bytes of data in 1538 on the wire (1500 + 14 +
# 4 FCS + 8 preamble + 12 gap) against IPv4's 1448: 9.2848 against 9.4148
# Gbit/s, within 0.1 % once the window is open (1 s to 2 s)
sed -e 's/^rate = 1gbit/rate = 10gbit/' -e 's/^delay = 1ms/delay = 100us/' -e 's/^\[host \([ab]\)\]/[host \1]\ncpu = ideal/' \
    -e 's/^ss_interval = 1s/ss_interval = 0/' "$tmp/v6.ini" > "$tmp/v6_10g.ini"
for fam in inet6 inet; do
    "$NETSIM" run "$tmp/v6_10g.ini" -q -o "$tmp/v6_10g_$fam.db" --set 1.family=$fam --set sim.interval=500ms > /dev/null 2>&1
done
r6=$(q "$tmp/v6_10g_inet6.db" "select avg(bits_per_s) from interval where t_start >= 1")
r4=$(q "$tmp/v6_10g_inet.db" "select avg(bits_per_s) from interval where t_start >= 1")
check "inet6 at 10 Gbit/s: 10e9 x 1428 / 1538 = 9.2848 Gbit/s within 0.1 % ($r6)" \
    between "$(awk -v r="$r6" 'BEGIN { print r / (1e10 * 1428 / 1538) }')" 0.999 1.001
check "inet at 10 Gbit/s: 10e9 x 1448 / 1538 = 9.4148 Gbit/s within 0.1 % ($r4)" \
    between "$(awk -v r="$r4" 'BEGIN { print r / (1e10 * 1448 / 1538) }')" 0.999 1.001

# --- [host] kernel: one key for a release's modelled choices, each key
# still its own
"$NETSIM" run "$tmp/v6.ini" -q -o "$tmp/k618.db" --set b.kernel=6.18 --set 1.ss_interval=0 > /dev/null 2>&1
check "kernel = 6.18 chooses tcp.drs = rcvbuf_grow_rate and tcp.win_from_space = scaling_ratio (recorded)" \
    test "$(q "$tmp/k618.db" "select group_concat(value, ',') from (select value from param where key in ('b.tcp.drs', 'b.tcp.win_from_space') order by key)")" = "rcvbuf_grow_rate,scaling_ratio"
"$NETSIM" run "$tmp/v6.ini" -q -o "$tmp/k618c.db" --set b.kernel=6.18 --set b.tcp.drs=continuous --set 1.ss_interval=0 > /dev/null 2>&1
check "... and a key set beside it wins (tcp.drs = continuous)" \
    test "$(q "$tmp/k618c.db" "select value from param where key = 'b.tcp.drs'")" = continuous
"$NETSIM" run "$tmp/v6.ini" -q -o "$tmp/k415.db" --set 1.ss_interval=0 > /dev/null 2>&1
check "no kernel key: 4.15's (trimodal, adv_win_scale)" \
    test "$(q "$tmp/k415.db" "select group_concat(value, ',') from (select value from param where key in ('b.kernel', 'b.tcp.drs', 'b.tcp.win_from_space') order by key)")" = "4.15,trimodal,adv_win_scale"
out=$("$NETSIM" run "$tmp/v6.ini" --no-db --set b.kernel=5.4 2>&1)
check "a release netsim has no profile for is refused, naming those it has" grep -q "kernel: got '5.4', expected one of: 4.15, 4.16, 6.1, 6.6, 6.16, 6.18" <<< "$out"

# --- TCP's CPU cost (docs/models/tcp.md, "CPU cost"): w1's 10 Gbit/s flow
# between two xeon-2012 hosts books tcp_transmit_skb once per segment each
# side sent, and the receiver's softirq core cannot keep up (5.97 Gbit/s
# measured); under cpu = ideal the same flow fills the link and costs 0 ns
db=$tmp/w1cost.db
"$NETSIM" run scenarios/bench/w1.ini -q -o "$db" --set sender.cpu=xeon-2012 --set receiver.cpu=xeon-2012 > /dev/null 2>&1
prof() { q "$db" "select calls from profile where run_id = $1 and host = '$2' and cpu is null and symbol = '$3'"; }
counter_of() { q "$db" "select value from counter where run_id = $1 and name = '$2'"; }
check "xeon-2012: tcp_transmit_skb once per segment the sender sent" \
    test "$(prof 1 sender tcp_transmit_skb)" = "$(counter_of 1 flow.1.snd.segs_out)"
check "... and once per segment (ACK) the receiver sent" \
    test "$(prof 1 receiver tcp_transmit_skb)" = "$(counter_of 1 flow.1.rcv.segs_out)"
g=$(counter_of 1 flow.1.goodput_bps)
check "xeon-2012: w1 is CPU-bound, 5.5 to 6.5 Gbit/s ($g)" between "$g" 5.5e9 6.5e9
"$NETSIM" run scenarios/bench/w1.ini -q -o "$db" > /dev/null 2>&1
g=$(counter_of 2 flow.1.goodput_bps)
check "ideal: the same flow fills the link, 9.3 to 9.42 Gbit/s ($g)" between "$g" 9.3e9 9.42e9
check "ideal: TCP's rows booked (calls), at 0 ns" \
    test "$(q "$db" "select count(*) > 0 and sum(cpu_ns) = 0 from profile where run_id = 2 and symbol like 'tcp_%'")" = 1

# --- an MTU whose MSS is larger than the peer's first window: 45000 bytes,
# MSS 44948, and a receiver at the default tcp_rmem offers 87380 / 2 = 43690
# bytes; tcp_sync_mss bounds the MSS to half the largest window the peer
# offered (tcp_bound_to_half_wnd), 21845 bytes, and the flow fills the link
# (it sent nothing, and the run was recorded complete)
cat > "$tmp/bigmtu.ini" <<'INI'
[sim]
duration = 0.2s
interval = 100ms
[link l]
ends = a:eth0 b:eth0
mtu = 45000
[flow 1]
app = tcp_stream
from = a
to = b
ss_interval = 100ms
INI
"$NETSIM" run "$tmp/bigmtu.ini" -q -o "$tmp/bigmtu.db" --ss "$tmp/bigmtu.ss" > /dev/null 2>&1
g=$(q "$tmp/bigmtu.db" "select sum(bytes) * 8 / 0.2 from interval")
check "mtu 45000 with the default tcp_rmem moves data: 9.9 to 10 Gbit/s ($g)" between "$g" 9.9e9 10e9
check "... in segments of half the receiver's 43690-byte window" \
    test "$(grep -A2 'host=a flow=1' "$tmp/bigmtu.ss" | grep -o ' mss:[0-9]*' | sort -u)" = " mss:21845"
