#!/usr/bin/env bash
# make bench: event-queue operations per second; the UDP line-rate
# scenario over 10 simulated seconds (simulated packets and seconds per wall
# second); events and heap operations per link frame of the w1 and w3
# benchmarks (scenarios/bench/); the flow-scaling table (1 to 10 000 TCP
# flows: ns per link frame, peak RSS); ns-3 side by side when NS3_COMPARE
# is set. Figures are for this build on this machine (pin it to one core:
# taskset -c 1 make bench); they are printed, never asserted.
set -eu
build=${1:-build}
netsim=${2:-./netsim}
"$build"/tests/bench_evq 1000 20000000
"$build"/tests/bench_evq 100000 5000000
db=$(mktemp -d)/bench.db
start=$(date +%s.%N)
"$netsim" run scenarios/udp_line_rate.ini --set sim.duration=10s -q -o "$db" > /dev/null
end=$(date +%s.%N)
pk=$(sqlite3 "$db" "select sum(value) from counter where name like 'link.%.tx_packets'")
ev=$(sqlite3 "$db" "select events from run where id = 1")
awk -v s="$start" -v e="$end" -v p="$pk" -v ev="$ev" 'BEGIN {
    w = e - s
    printf "udp_line_rate, 10 s simulated: %.2f s wall, %.0f packets, %.2f M simulated packets/s, %.1f M events/s, %.2f simulated s per wall s\n",
        w, p, p / w / 1e6, ev / w / 1e6, 10 / w
}'
rm -rf "$(dirname "$db")"

# Events and heap operations per link frame (w1: one TCP flow; w3: 64 KB
# UDP datagrams, fragmented), from NETSIM_QUEUE_STATS.
for w in w1 w3; do
    db=$(mktemp -d)/bench.db
    stats=$(NETSIM_QUEUE_STATS=1 "$netsim" run scenarios/bench/$w.ini -q -o "$db" 2>&1 >/dev/null | grep '^netsim: queue:')
    fr=$(sqlite3 "$db" "select sum(value) from counter where name like 'link.%.tx_packets'")
    echo "$stats" | awk -v w="$w" -v f="$fr" '{ printf "%s: %.0f link frames, %.2f events and %.2f heap operations per frame\n", w, f, $3 / f, $5 / f }'
    rm -rf "$(dirname "$db")"
done

# Flow scaling: N TCP flows sharing the w1 link for 2 s (tools/bench-flows):
# wall time per link frame and peak memory.
printf '%8s %12s %10s %10s\n' flows frames ns/frame "peak RSS"
for n in 1 10 100 1000 10000; do
    d=$(mktemp -d)
    tools/bench-flows "$n" > "$d/f.ini"
    /usr/bin/time -f '%e %M' -o "$d/time" "$netsim" run "$d/f.ini" -q -o "$d/f.db" > /dev/null
    fr=$(sqlite3 "$d/f.db" "select sum(value) from counter where name like 'link.%.tx_packets'")
    read -r w kb < "$d/time"
    awk -v n="$n" -v f="$fr" -v w="$w" -v kb="$kb" 'BEGIN { printf "%8d %12.0f %10.0f %7.1f MB\n", n, f, w / f * 1e9, kb / 1024 }'
    rm -rf "$d"
done

# Side by side with ns-3, when a comparison script is given: NS3_COMPARE
# names a program taking (WORKLOAD PAIRS NETSIM) that runs ns-3 and netsim
# alternately on one core and prints the median ratio on its last line.
if [ -n "${NS3_COMPARE:-}" ]; then
    for w in w1 w3 flows100; do "$NS3_COMPARE" "$w" 3 "$netsim" | tail -1; done
else
    echo "ns-3 comparison: set NS3_COMPARE to a comparison script to run it"
fi
