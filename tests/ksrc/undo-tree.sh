#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A third tree for the differential tests of BBR and CUBIC
# (tests/scenario/ksrc.sh, docs/kernel-source.md): a copy of what the
# module build reads of the 6.1 tree TREE (its Makefile and net/ipv4/) into
# DIR, with the changes made to tcp_bbr.c and tcp_cubic.c between 4.15 and
# 6.1 that the tests' runs reach undone, each on one line of the source.
# tcp_bbr.c:
#   1. and 2. the pacing rate on the payload (mss_cache) and 1 % below
#      the bandwidth (bbr_pacing_margin_percent), where 4.15 paced at the
#      bandwidth on the whole packet (tcp_mss_to_mtu: + 52 bytes for IPv4
#      with timestamps): cadefe5f584a "tcp_bbr: fix bbr pacing rate for
#      internal pacing" (2018; internal pacing is netsim's case), which
#      4.20's earliest-departure-time model extended to every pacing layer;
#   3. and 4. the packets "in the network at EDT" in place of those in
#      flight, where a gain-cycle phase ends and where DRAIN ends:
#      a87c83d5ee25 "tcp_bbr: adjust TCP BBR for departure time pacing"
#      (4.20);
#   5. the ACK-aggregation extra on the target window (bbr_extra_acked_gain
#      to 0): 78dc70ebaa38 "tcp_bbr: adapt cwnd based on ack aggregation
#      estimation" (5.1);
#   6. two segments more on the target window in the first gain-cycle
#      phase: 383d470 "tcp_bbr: fix bw probing to raise in-flight data for
#      very small BDPs" (2018), as its September 2019 fix "tcp_bbr: fix
#      quantization code to not raise cwnd if not probing bandwidth"
#      left it.
# tcp_cubic.c (with HyStart off; 5.6's HyStart changes are not undone):
#   7. the minimum delay added to the cubic function's time in us rounded
#      up to jiffies (usecs_to_jiffies: 21 ms for 20.3), where 4.15 added
#      it in whole ms rounded down (20): cff04e2da308 "tcp_cubic: switch
#      bictcp_clock() to usec resolution" (5.6).
# Checks that the copy differs from TREE in those seven lines and nowhere
# else, and prints DIR.
#   tests/ksrc/undo-tree.sh TREE DIR
set -euo pipefail
tree=$1 dir=$2
# each: the file | the line as 6.1 has it | the line as the copy has it
edits=(
    'tcp_bbr.c|unsigned int mss = tcp_sk(sk)->mss_cache;|unsigned int mss = tcp_sk(sk)->mss_cache + 52;'
    'tcp_bbr.c|static const int bbr_pacing_margin_percent = 1;|static const int bbr_pacing_margin_percent = 0;'
    'tcp_bbr.c|inflight = bbr_packets_in_net_at_edt(sk, rs->prior_in_flight);|inflight = rs->prior_in_flight;'
    'tcp_bbr.c|bbr_packets_in_net_at_edt(sk, tcp_packets_in_flight(tcp_sk(sk))) <=|tcp_packets_in_flight(tcp_sk(sk)) <='
    'tcp_bbr.c|static const int bbr_extra_acked_gain = BBR_UNIT;|static const int bbr_extra_acked_gain = 0;'
    'tcp_bbr.c|if (bbr->mode == BBR_PROBE_BW && bbr->cycle_idx == 0)|if (0 && bbr->mode == BBR_PROBE_BW && bbr->cycle_idx == 0)'
    'tcp_cubic.c|t += usecs_to_jiffies(ca->delay_min);|t += msecs_to_jiffies(ca->delay_min / USEC_PER_MSEC);'
)
rm -rf "$dir"
mkdir -p "$dir/net"
cp -p "$tree/Makefile" "$dir/"
cp -rp "$tree/net/ipv4" "$dir/net/"
for e in "${edits[@]}"; do
    IFS='|' read -r file from to <<<"$e"
    f=net/ipv4/$file
    [ "$(grep -cF -- "$from" "$tree/$f")" -eq 1 ] || { echo "undo-tree: '$from' is not once in $tree/$f" >&2; exit 1; }
    FROM=$from TO=$to perl -i -pe 's/\Q$ENV{FROM}\E/$ENV{TO}/' "$dir/$f"
done
# exactly those lines changed
d=$(diff -r "$tree/net/ipv4" "$dir/net/ipv4" || true)
if [ "$(printf '%s\n' "$d" | grep -c '^>')" -ne ${#edits[@]} ] || [ "$(printf '%s\n' "$d" | grep -c '^<')" -ne ${#edits[@]} ]; then
    echo "undo-tree: the copy differs from $tree by more or less than the ${#edits[@]} lines:" >&2
    printf '%s\n' "$d" >&2
    exit 1
fi
echo "undo-tree: $dir is $tree with ${#edits[@]} changes to tcp_bbr.c and tcp_cubic.c since 4.15 undone" >&2
echo "$dir"
