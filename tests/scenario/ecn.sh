#!/usr/bin/env bash
# Scenario tests of ECN in the TCP model and of DCTCP (docs/models/tcp.md
# "ECN", docs/models/dctcp.md), with netem's `loss ... ecn` as the CE
# marker: what is marked is not lost, the receiver echoes, the sender
# reduces once per window of marks; without ECN the same netem drops;
# DCTCP holds more goodput than CUBIC at the same marking rate; the
# capture's ECN bits read right in tshark (skipped without it).
# Prints "ok NAME" or "not ok NAME".
. "$(dirname "$0")/common.bash"

# A TCP flow a -> b over one 1 Gbit/s link, 20 ms RTT, netem on a's side;
# $1 a's lines, $2 b's, $3 the link's extra lines, $4 the duration.
world() {
    cat <<INI
[sim]
duration = ${4:-5s}
[host a]
tso = off
gso = off
gro = off
tcp.tsq = off
cpu = ideal
$1
[host b]
tso = off
gso = off
gro = off
tcp.tsq = off
cpu = ideal
$2
[link l]
ends = a:eth0 b:eth0
rate = 1gbit
delay = 10ms
$3
[flow 1]
app = tcp_stream
from = a
to = b
length = ${4:-5s}
trace_interval = 0
INI
}
counter() { q "$1" "select value from counter where run_id = (select max(id) from run) and name = '$2'"; }
gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'; }

# --- CUBIC with tcp_ecn = 1 through 1 % of marks: nothing lost, every
# mark echoed, one reduction per window of marks
world "net.ipv4.tcp_ecn = 1" "" "fwd.loss = 1% ecn" > "$tmp/mark.ini"
"$NETSIM" run "$tmp/mark.ini" -o "$tmp/mark.db" -q > /dev/null 2>&1
check "cubic, tcp_ecn 1, netem loss 1% ecn: runs" test $? -eq 0
db=$tmp/mark.db
marked=$(counter "$db" link.l.fwd.netem_ecn_marked)
ce=$(counter "$db" flow.1.rcv.ecn_ce_in)
cwr=$(counter "$db" flow.1.snd.ecn_cwr_entered)
check "no packet lost, none retransmitted ($marked marked CE instead)" \
    test "$(counter "$db" link.l.fwd.netem_loss)" -eq 0 -a "$(counter "$db" flow.1.snd.retrans)" -eq 0 -a "$marked" -gt 20
check "every mark reaches the receiver as CE (IpExtInCEPkts $(counter "$db" b.IpExtInCEPkts), ecn_ce_in $ce)" \
    test "$(counter "$db" b.IpExtInCEPkts)" -eq "$marked" -a "$ce" -eq "$marked"
check "data goes ECT(0), the ACKs Not-ECT" \
    test "$(counter "$db" b.IpExtInECT0Pkts)" -gt 1000 -a "$(counter "$db" a.IpExtInECT0Pkts)" -eq 0 -a \
    "$(counter "$db" b.IpExtInNoECTPkts)" -eq 2
check "the receiver echoes with ECE ($(counter "$db" flow.1.rcv.ecn_ece_out) ACKs), every one read as FLAG_ECE" \
    test "$(counter "$db" flow.1.rcv.ecn_ece_out)" -ge "$ce" -a \
    "$(counter "$db" flow.1.snd.ecn_ece_in)" -eq "$(counter "$db" flow.1.rcv.ecn_ece_out)"
check "CWR reductions: at most one per mark, marks in one window merged ($cwr for $ce marks)" \
    awk -v c="$cwr" -v m="$ce" 'BEGIN { exit !(c >= 0.5 * m && c <= m) }'
check "one CWR flag sent per reduction, no Recovery" \
    test "$(counter "$db" flow.1.snd.ecn_cwr_out)" -eq "$cwr" -a "$(counter "$db" flow.1.snd.recoveries)" -eq 0
g_mark=$(counter "$db" flow.1.goodput_bps)

# --- the same with tcp_ecn = 0: netem drops, and nothing is ECT
world "net.ipv4.tcp_ecn = 0" "" "fwd.loss = 1% ecn" > "$tmp/drop.ini"
"$NETSIM" run "$tmp/drop.ini" -o "$tmp/drop.db" -q > /dev/null 2>&1
db=$tmp/drop.db
lost=$(counter "$db" link.l.fwd.netem_loss)
check "tcp_ecn 0: the same netem drops ($lost lost, $(counter "$db" flow.1.snd.retrans) retransmitted, none marked)" \
    test "$lost" -gt 20 -a "$(counter "$db" flow.1.snd.retrans)" -ge "$lost" -a \
    "$(counter "$db" link.l.fwd.netem_ecn_marked)" -eq 0 -a "$(counter "$db" b.IpExtInECT0Pkts)" -eq 0
check "... and the flow has no ecn_ counters (its client does not ask)" \
    test "$(q "$db" "select count(*) from counter where name like 'flow.1.%ecn_%'")" -eq 0
g_drop=$(counter "$db" flow.1.goodput_bps)
check "a mark costs CUBIC what a loss does: goodput within 25 % ($g_mark vs $g_drop bit/s)" \
    awk -v a="$g_mark" -v b="$g_drop" 'BEGIN { exit !(a > 0.75 * b && a < 1.25 * b) }'

# --- ECN and plain loss: Recovery queues a CWR too, nothing enters CWR
world "net.ipv4.tcp_ecn = 1" "" "fwd.loss = 1%" > "$tmp/loss.ini"
"$NETSIM" run "$tmp/loss.ini" -o "$tmp/loss.db" -q > /dev/null 2>&1
db=$tmp/loss.db
red=$(($(counter "$db" flow.1.snd.recoveries) + $(counter "$db" flow.1.snd.rtos)))
check "loss with ECN: a CWR flag per reduction at most ($(counter "$db" flow.1.snd.ecn_cwr_out) for $red), no CWR state" \
    test "$(counter "$db" flow.1.snd.ecn_cwr_out)" -gt 0 -a "$(counter "$db" flow.1.snd.ecn_cwr_out)" -le "$red" -a \
    "$(counter "$db" flow.1.snd.ecn_cwr_entered)" -eq 0 -a "$(counter "$db" flow.1.snd.ecn_ece_in)" -eq 0

# --- IPv6 carries the field in its traffic class, counted as Ip6
world "net.ipv4.tcp_ecn = 1" "" "fwd.loss = 1% ecn" 1s | sed 's/^trace_interval = 0$/&\nfamily = inet6/' > "$tmp/v6.ini"
"$NETSIM" run "$tmp/v6.ini" -o "$tmp/v6.db" -q > /dev/null 2>&1
db=$tmp/v6.db
check "inet6: Ip6InECT0Pkts and Ip6InCEPkts count, IpExt nothing" \
    test "$(counter "$db" b.Ip6InECT0Pkts)" -gt 100 -a "$(counter "$db" b.Ip6InCEPkts)" -eq \
    "$(counter "$db" link.l.fwd.netem_ecn_marked)" -a "$(counter "$db" b.IpExtInECT0Pkts)" -eq 0 -a \
    "$(counter "$db" flow.1.snd.retrans)" -eq 0

# --- DCTCP at the same marking rate keeps more of the link than CUBIC:
# it cuts by alpha/2 (alpha the marked share, ~1 % here), not by 30 %
world "tcp.cc = dctcp" "tcp.cc = dctcp" "fwd.loss = 1% ecn" > "$tmp/dctcp.ini"
"$NETSIM" run "$tmp/dctcp.ini" -o "$tmp/dctcp.db" -q --set 1.ss_interval=1s --ss "$tmp/dctcp.ss" \
    --set 1.trace_interval=10ms > /dev/null 2>&1
db=$tmp/dctcp.db
g_dctcp=$(counter "$db" flow.1.goodput_bps)
check "dctcp through 1 % marks: more than 4 x CUBIC's goodput ($g_dctcp vs $g_mark bit/s), nothing lost" \
    test "$(awk -v d="$g_dctcp" -v c="$g_mark" 'BEGIN { print (d > 4 * c) }')" -eq 1 -a \
    "$(counter "$db" flow.1.snd.retrans)" -eq 0 -a "$(counter "$db" link.l.fwd.netem_loss)" -eq 0
check "dctcp sends everything ECT(0): data, SYN, ACKs" \
    test "$(counter "$db" b.IpExtInNoECTPkts)" -eq 0 -a "$(counter "$db" a.IpExtInNoECTPkts)" -eq 0 -a \
    "$(counter "$db" a.IpExtInECT0Pkts)" -gt 100
check "ss shows ecn, ecnseen and dctcp:(ce_state,alpha,ab_ecn,ab_tot)" \
    grep -q ' ecn ecnseen dctcp wscale.* dctcp:(ce_state:[01],alpha:[0-9]*,ab_ecn:[0-9]*,ab_tot:[0-9]*)' "$tmp/dctcp.ss"
# alpha from 1024 at connect down to the marked share: 1 mark in a window
# of ~100 segments adds 64/100 (integer: 0 or 1), and an unmarked window
# takes alpha/16, all of it below 16 (min_not_zero)
alpha=$(q "$db" "select avg(value) from series where name = 'flow.1.snd.dctcp_alpha' and t >= 2")
check "the sender's alpha after 2 s is small (mean $alpha of 1024)" between "$alpha" 0 16
first=$(q "$db" "select value from series where name = 'flow.1.snd.dctcp_alpha' order by t limit 1")
check "... from alpha_on_init 1024 at connect (first sample $first)" between "$first" 700 1024
# DCTCP against a CUBIC peer: its ECT SYN is refused ECN, it runs as Reno
world "tcp.cc = dctcp" "" "fwd.loss = 1% ecn" 1s > "$tmp/fb.ini"
"$NETSIM" run "$tmp/fb.ini" -o "$tmp/fb.db" -q --set 1.ss_interval=500ms --ss "$tmp/fb.ss" > /dev/null 2>&1
check "dctcp to a non-DCTCP peer falls back: dctcp-reno, dctcp:fallback_mode, losses not marks" \
    test "$(grep -c ' dctcp-reno .*dctcp:fallback_mode' "$tmp/fb.ss")" -ge 1 -a \
    "$(counter "$tmp/fb.db" link.l.fwd.netem_ecn_marked)" -le 1 -a \
    "$(($(counter "$tmp/fb.db" b.IpExtInECT0Pkts) + $(counter "$tmp/fb.db" b.IpExtInCEPkts)))" -eq 1

# --- tshark reads the bits: SYN ECE+CWR Not-ECT, SYN-ACK ECE, data
# ECT(0) or CE, ACKs Not-ECT with ECE after a mark, CWR on data
if ! command -v tshark > /dev/null; then
    skip "tshark is not installed (make deps installs it)"
    exit 0
fi
for fam in inet inet6; do
    world "net.ipv4.tcp_ecn = 1" "" "fwd.loss = 1% ecn" 0.5s | sed "s/^trace_interval = 0\$/&\nfamily = $fam/" > "$tmp/cap.ini"
    rm -rf "$tmp/cap"
    "$NETSIM" run "$tmp/cap.ini" --no-db -q --pcap "$tmp/cap" > /dev/null 2>&1
    if [ $fam = inet ]; then f='ip.dsfield.ecn'; else f='ipv6.tclass.ecn'; fi
    tshark -n -r "$tmp/cap/b-eth0.pcap" -T fields -E separator=, -e "$f" -e tcp.flags.syn -e tcp.flags.ack \
        -e tcp.flags.ece -e tcp.flags.cwr -e tcp.len 2> /dev/null |
        awk -F, '{ print $1 "," $2 $3 $4 $5 "," ($6 > 0) }' |
        sort | uniq -c > "$tmp/bits.$fam"
    has() { grep -Eq "^ *[0-9]+ $1\$" "$tmp/bits.$fam"; }
    check "$fam: the SYN asks (ECE, CWR), Not-ECT; the SYN-ACK answers (ECE)" \
        eval 'has "0,1011,0" && has "0,1110,0"'
    check "$fam: data ECT(0), some CE, some with CWR; ACKs Not-ECT, some with ECE" \
        eval 'has "2,0100,1" && has "3,0100,1" && { has "2,0101,1" || has "3,0101,1"; } && has "0,0100,0" && has "0,0110,0"'
    check "$fam: nothing else" test "$(grep -Evc ' (0,1011,0|0,1110,0|[23],010[01],1|0,01[01]0,0)$' "$tmp/bits.$fam")" -eq 0
done
