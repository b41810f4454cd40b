#!/usr/bin/env bash
# make bench: event-queue operations per second; the UDP line-rate
# scenario over 10 simulated seconds (simulated packets and seconds per wall
# second); events and heap operations per link frame and per delivered
# packet of the w1 and w3 benchmarks (scenarios/bench/); the flow-scaling
# table (1 to 10 000 TCP flows: ns per link frame, median of three, the
# set-up and the frame cost without it, peak RSS; the 1000-flow cost
# against the 1-flow one); the
# memory of an idle TCP flow; tcp_drs's peak RSS per run and its sweep's
# wall time; ns-3 side by side when NS3_COMPARE is set. Figures are for
# this build on this machine; they are printed, never asserted. Single
# runs are pinned to one core (the last this process may use, so as not
# to share core 0 with compare.sh's); the sweep gets
# every core of the machine, even under an outer taskset.
set -eu
build=${1:-build}
netsim=${2:-./netsim}
PIN=() ALL=()
if command -v taskset > /dev/null; then
    PIN=(taskset -c "$(taskset -pc $$ | sed 's/.*: //; s/.*[,-]//')")
    ALL=(taskset -c "0-$(( $(nproc --all) - 1 ))")
fi
pin() { "${PIN[@]}" "$@"; }
# What the figures were taken on, as perf report's header says: a ratio or
# a time means little without the machine and how busy it was.
loadavg() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown; }
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
echo "machine: $(nproc --all) cores, ${cpu:-unknown CPU}; $("$netsim" --version 2>/dev/null | head -1); load average $(loadavg)"
pin "$build"/tests/bench_evq 1000 20000000
pin "$build"/tests/bench_evq 100000 5000000
db=$(mktemp -d)/bench.db
start=$(date +%s.%N)
pin "$netsim" run scenarios/udp_line_rate.ini --set sim.duration=10s -q -o "$db" > /dev/null
end=$(date +%s.%N)
pk=$(sqlite3 "$db" "select sum(value) from counter where name like 'link.%.tx_packets'")
ev=$(sqlite3 "$db" "select events from run where id = 1")
awk -v s="$start" -v e="$end" -v p="$pk" -v ev="$ev" 'BEGIN {
    w = e - s
    printf "udp_line_rate, 10 s simulated: %.2f s wall, %.0f packets, %.2f M simulated packets/s, %.1f M events/s, %.2f simulated s per wall s\n",
        w, p, p / w / 1e6, ev / w / 1e6, 10 / w
}'
rm -rf "$(dirname "$db")"

# Events and heap operations per link frame and per delivered packet (w1:
# one TCP flow, a data segment; w3: a 64 KB UDP datagram, 45 fragments),
# from NETSIM_QUEUE_STATS; and w1 with TSO, GSO, GRO and TSQ on at both
# ends, per frame and per GSO packet the sender built (the same wire
# frames, the stack's work once per GSO packet instead of per segment).
offloads=$(for h in sender receiver; do for k in tso gso gro tcp.tsq; do printf -- '--set %s.%s=on ' $h $k; done; done)
for w in w1 w1+offloads w3; do
    db=$(mktemp -d)/bench.db
    extra=""
    [ "$w" != w1+offloads ] || extra=$offloads
    # shellcheck disable=SC2086
    stats=$(NETSIM_QUEUE_STATS=1 "$netsim" run scenarios/bench/${w%+*}.ini $extra -q -o "$db" 2>&1 >/dev/null | grep '^netsim: queue:')
    fr=$(sqlite3 "$db" "select sum(value) from counter where name like 'link.%.tx_packets'")
    # delivered: UDP datagrams received; TCP data segments sent less the
    # retransmitted ones, which counts the last window still in flight at
    # the end too (about 0.1 % of w1's 813 000: its receiver read 812 458)
    dp=$(sqlite3 "$db" "select sum(case when name like '%.retrans' then -value else value end) from counter
                         where name like 'flow.%.datagrams_received' or name like 'flow.%.snd.data_segs_out' or name like 'flow.%.snd.retrans'")
    echo "$stats" | awk -v w="$w" -v f="$fr" -v p="$dp" '{ printf "%s: %.0f link frames, %.2f events, %.2f heap and %.2f same-instant FIFO operations per frame; per delivered packet (%.0f): %.2f events, %.2f heap operations\n", w, f, $3 / f, $5 / f, $8 / f, p, $3 / p, $5 / p }'
    gso=$(sqlite3 "$db" "select coalesce(sum(value), 0) from counter where name like 'flow.%.snd.gso_pkts_out'")
    [ "$gso" = 0 ] || echo "$stats" | awk -v w="$w" -v g="$gso" '{ printf "%s: per GSO packet (%.0f): %.2f events, %.2f heap operations\n", w, g, $3 / g, $5 / g }'
    rm -rf "$(dirname "$db")"
done

# Flow scaling: N TCP flows sharing the w1 link for 2 s (tools/bench-flows):
# wall time per link frame (the median of three runs, taken in turn with
# the other sizes so that they see the same machine) and peak memory. The
# set-up is the wall time of the same flows run for 1 ms (building them,
# their database rows); "after set-up" is the frame cost without it.
d=$(mktemp -d)
sizes="1 10 100 1000 10000"
for n in $sizes; do
    tools/bench-flows "$n" > "$d/f$n.ini"
    tools/bench-flows "$n" 1ms > "$d/s$n.ini"
done
for r in 1 2 3; do
    for n in $sizes; do
        # both timed alike, to the microsecond (time's %e counts in 10 ms)
        t0=$(date +%s.%N)
        "${PIN[@]}" "$netsim" run "$d/s$n.ini" -q -o "$d/s.db" > /dev/null
        t1=$(date +%s.%N)
        rm -f "$d/s.db"
        t2=$(date +%s.%N)
        /usr/bin/time -f '%M' -o "$d/time" "${PIN[@]}" "$netsim" run "$d/f$n.ini" -q -o "$d/f.db" > /dev/null
        t3=$(date +%s.%N)
        fr=$(sqlite3 "$d/f.db" "select sum(value) from counter where name like 'link.%.tx_packets'")
        rm -f "$d/f.db"
        echo "$n $fr $(awk -v a="$t2" -v b="$t3" 'BEGIN { printf "%.6f", b - a }') $(cat "$d/time") $t0 $t1" >> "$d/runs"
    done
done
printf '%8s %12s %10s %10s %16s %10s\n' flows frames ns/frame set-up "after set-up" "peak RSS"
for n in $sizes; do
    awk -v n="$n" '
        function med(a,   i, j, t) { for (i = 1; i <= 3; i++) for (j = i + 1; j <= 3; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } return a[2] }
        $1 == n { k++; x[k] = $3 / $2 * 1e9; su[k] = $6 - $5; y[k] = ($3 - su[k]) / $2 * 1e9; f = $2; if ($4 > kb) kb = $4 }
        END { printf "%8d %12.0f %10.0f %7.0f ms %16.0f %7.1f MB\n", n, f, med(x), med(su) * 1000, med(y), kb / 1024 }' "$d/runs"
done | tee "$d/table"
awk '$1 == 1 { a = $3; c = $6 } $1 == 1000 { b = $3; e = $6 }
     END { printf "cost per frame at 1000 flows: %.2f x the 1-flow cost (%.2f x after set-up)\n", b / a, e / c }' "$d/table"
rm -rf "$d"

# An idle TCP flow: connected, sent for 1 ms, then quiet for the rest of
# the 2 s; the memory each costs is the RSS slope from 1 to 10 000 of them.
d=$(mktemp -d)
for n in 1 10000; do
    tools/bench-flows "$n" | sed 's/^time = .*/time = 1ms/' > "$d/i$n.ini"
    /usr/bin/time -f '%M' -o "$d/m$n" "$netsim" run "$d/i$n.ini" -q --no-db > /dev/null
done
awk -v a="$(cat "$d/m1")" -v b="$(cat "$d/m10000")" 'BEGIN { printf "idle TCP flow: %.1f KB each (peak RSS %.1f MB at 1, %.1f MB at 10 000)\n", (b - a) / 9999, a / 1024, b / 1024 }'
rm -rf "$d"

# tcp_drs: peak RSS of one run of each variant (500 MB rcvbuf, 10 Gbit/s,
# 100 ms RTT), writing its database and without one, and the wall time of
# its whole sweep at -j 2 (200 runs; BENCH_QUICK=1 skips the sweep).
d=$(mktemp -d)
for v in trimodal continuous; do
    /usr/bin/time -f '%e %M' -o "$d/t" "${PIN[@]}" "$netsim" run scenarios/tcp_drs.ini --set receiver.tcp.drs=$v -q -o "$d/r.db" > /dev/null
    rm -f "$d/r.db"
    read -r w kb < "$d/t"
    /usr/bin/time -f '%M' -o "$d/t" "$netsim" run scenarios/tcp_drs.ini --set receiver.tcp.drs=$v -q --no-db > /dev/null
    awk -v v="$v" -v w="$w" -v kb="$kb" -v nodb="$(cat "$d/t")" 'BEGIN { printf "tcp_drs one run, %s: %.2f s wall, peak RSS %.1f MB (%.1f MB with --no-db)\n", v, w, kb / 1024, nodb / 1024 }'
done
if [ -z "${BENCH_QUICK:-}" ]; then
    start=$(date +%s.%N)
    "${ALL[@]}" "$netsim" sweep scenarios/tcp_drs.ini -j 2 -q -o "$d/s.db" > /dev/null
    end=$(date +%s.%N)
    awk -v s="$start" -v e="$end" 'BEGIN { printf "tcp_drs sweep, 200 runs at -j 2: %.1f s wall\n", e - s }'
fi
rm -rf "$d"

# Side by side with ns-3, when a comparison script is given: NS3_COMPARE
# names a program taking (WORKLOAD PAIRS NETSIM) that runs ns-3 and netsim
# alternately on one core and prints the median ratio on its last line.
if [ -n "${NS3_COMPARE:-}" ]; then
    for w in w1 w3 flows100; do
        l=$(loadavg)
        echo "ns-3 against netsim, $w (load average $l before): $("$NS3_COMPARE" "$w" 3 "$netsim" | tail -1)"
    done
else
    echo "ns-3 comparison: set NS3_COMPARE to a comparison script to run it"
fi
