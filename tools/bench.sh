#!/usr/bin/env bash
# make bench: event-queue operations per second, and the UDP line-rate
# scenario over 10 simulated seconds: simulated packets per wall second and
# simulated seconds per wall second. Figures are for this build on this
# machine, one core; they are printed, never asserted.
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
