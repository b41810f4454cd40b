#!/usr/bin/env bash
# tools/figures.sh [NETSIM] - regenerates the figures in docs/figures/
# (`make figures`): runs the bundled scenarios each figure comes from into
# a scratch directory and renders them with tools/plot, so a figure always
# shows what the command beside it in docs/ prints. JOBS (default 2) is
# the sweeps' -j. Takes about 5 minutes on 2 cores, most of it the
# fragmentation sweep (36 runs of 20 s).
set -eu
cd "$(dirname "$0")/.."
netsim=${1:-./netsim}
jobs=${JOBS:-2}
out=docs/figures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# docs/cases/tcp-drs.md: seed 1 of each variant, every offload off, 10 ms traces
off=""
for h in sender receiver; do
    for k in tso gso gro tcp.tsq; do off="$off --set $h.$k=off"; done
done
for v in trimodal continuous; do
    # shellcheck disable=SC2086
    "$netsim" run scenarios/tcp_drs.ini -o "$tmp/tcp_drs_pair.db" -q --set sim.repeat=1 $off \
        --set receiver.tcp.drs=$v --set 1.trace_interval=10ms > /dev/null
done
tools/plot "$tmp/tcp_drs_pair.db" --kind throughput --title "seed 1: goodput per 100 ms" \
    -o "$out/tcp_drs_pair_goodput.png"
tools/plot "$tmp/tcp_drs_pair.db" --kind series --series flow.1.rcv.rcv_wnd \
    --title "seed 1: advertised receive window (bytes)" -o "$out/tcp_drs_pair_rwnd.png"

# docs/cases/sctp-rwnd.md: old against new, IPv4 and IPv6, 60 s
"$netsim" sweep scenarios/sctp_rwnd.ini -j "$jobs" -q -o "$tmp/sctp_rwnd.db" > /dev/null
tools/plot "$tmp/sctp_rwnd.db" --kind throughput -o "$out/sctp_rwnd_throughput.png"

# docs/cases/ipfrag.md: goodput against ipfrag_high_thresh, 3 evictors
"$netsim" sweep scenarios/frag_evict.ini -j "$jobs" -q -o "$tmp/frag_evict.db" > /dev/null
tools/plot "$tmp/frag_evict.db" --kind sweep --axis high -o "$out/frag_evict_sweep.png"

# docs/cases/bottleneck.md: the router's qdisc against flow 1's congestion control
"$netsim" sweep scenarios/bottleneck.ini -j "$jobs" -q -o "$tmp/bottleneck.db" > /dev/null
"$netsim" plot "$tmp/bottleneck.db" --metric goodput --by flow --axis qdisc --variant-axis cc \
    -o "$out/bottleneck_goodput.png" > /dev/null
"$netsim" plot "$tmp/bottleneck.db" --metric jain --axis qdisc --variant-axis cc -o "$out/bottleneck_jain.png" > /dev/null
tools/plot "$tmp/bottleneck.db" --kind series --series r.eth2.qdisc.sojourn_ms \
    --title "time in the router's qdisc, mean per 100 ms (ms)" -o "$out/bottleneck_sojourn.png"
