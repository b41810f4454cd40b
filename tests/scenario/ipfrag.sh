#!/usr/bin/env bash
# Scenario tests of the ipfrag model on scenarios/frag_evict.ini (seed 004),
# on short runs: the direction and rough size of each published effect, and
# the mechanisms the spec says produce them (ipfrag.md 11.1).
# Prints "ok NAME" or "not ok NAME" (with the reason indented below).
. "$(dirname "$0")/common.bash"

less() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

DUR=2
# run NAME HIGH LOW EVICTOR [--set ...]: one short run of the seed scenario
run() {
    local name=$1 hi=$2 lo=$3 ev=$4
    shift 4
    "$NETSIM" run scenarios/frag_evict.ini --set sim.duration=${DUR}s --set sim.repeat=1 \
        --set receiver.ipfrag_high_thresh="$hi" --set receiver.ipfrag_low_thresh="$lo" \
        --set receiver.ipfrag.evictor="$ev" "$@" -o "$tmp/$name.db" -q > "$tmp/$name.out" 2>&1
    [ $? -eq 0 ] || notok "run $name" "$(tail -3 "$tmp/$name.out")"
}
c() { sqlite3 "$tmp/$1.db" "select coalesce((select cast(value as integer) from counter where name = '$2'), 0)"; }
# reassembled goodput of both flows, Mbit/s (netperf's second line)
goodput() { awk -v a="$(c "$1" flow.1.datagrams_received)" -v b="$(c "$1" flow.2.datagrams_received)" -v d=$DUR \
    'BEGIN { printf "%.0f", (a + b) * 65507 * 8 / d / 1e6 }'; }
sent() { awk -v a="$(c "$1" flow.$2.datagrams_sent)" -v d=$DUR 'BEGIN { printf "%.0f", a * 65507 * 8 / d / 1e6 }'; }
nicdrop() { awk -v a="$(c "$1" receiver.eth0.rx_missed)" -v b="$(c "$1" receiver.eth1.rx_missed)" \
    -v r="$(c "$1" receiver.ipfrag.ReasmReqds)" 'BEGIN { printf "%.3f", (a + b) / (a + b + r) }'; }

run lru256 256K 192K lru
run atomic256 256K 192K lru --set receiver.ipfrag.race_model=atomic
run lru4 4M 3M lru
run lru40 40M 39M lru
run lru400 400M 399M lru
run warm256 256K 192K lru-warm
run warm4 4M 3M lru-warm
run dn4 4M 3M drop-new
run dn4t1 4M 3M drop-new --set receiver.ipfrag_time=500ms
run again4 4M 3M lru
run seed2 4M 3M lru --seed 2
run noload 4M 3M lru --set 1.rate=1gbit --set 2.rate=1gbit
# the modern cross-check (ipfrag.md 10.3): a 4.17+ kernel whose CPU keeps up,
# senders at 4 Gbit/s, 0.1 % random loss per fragment on each ingress
modern="--set receiver.cpu=modern --set receiver.rx_ring_size=4096 --set 1.rate=4gbit --set 2.rate=4gbit"
run mod4 4M 3M drop-new $modern --set a.loss=0.1% --set b.loss=0.1%
run mod400 400M 399M drop-new $modern --set a.loss=0.1% --set b.loss=0.1%
run mod4clean 4M 3M drop-new $modern

g256=$(goodput lru256) g4=$(goodput lru4) g40=$(goodput lru40) g400=$(goodput lru400)
echo "# lru goodput (Mbit/s): 256K $g256  4M $g4  40M $g40  400M $g400 (post: 473 2157 1622 1285)"

# --- RSS and IRQ layout: each flow on its own RX queue and core
check "flow 1 on eth0 queue 2 (core 0), flow 2 on eth1 queue 0 (core 1)" \
    test "$(c lru4 receiver.eth0.q2.rx_packets)" != 0 -a "$(c lru4 receiver.eth1.q0.rx_packets)" != 0 \
    -a "$(c lru4 receiver.eth0.q0.rx_packets)" = 0 -a "$(c lru4 receiver.eth1.q2.rx_packets)" = 0

# --- senders unaffected by the receiver: 9256.88 Mbit/s +- 3 %
for r in lru256 lru4 lru400; do
    check "$r: sender 1 at 9.26 Gbit/s +-3% ($(sent $r 1))" between "$(sent $r 1)" 8979 9535
    check "$r: sender 2 at 9.26 Gbit/s +-3% ($(sent $r 2))" between "$(sent $r 2)" 8979 9535
done

# --- 4M: the peak region, CPU-bound receive path
check "4M goodput within a factor 2 of the post's 2157 ($g4)" between "$g4" 1078 4314
check "4M NIC drops in the 10-40% band ($(nicdrop lru4))" between "$(nicdrop lru4)" 0.10 0.40
check "4M ReasmFails >> ReasmOKs" less "$((5 * $(c lru4 receiver.ipfrag.ReasmOKs)))" \
    "$(c lru4 receiver.ipfrag.ReasmFails)"
check "4M no warm queue evicted, no zombies" \
    test "$(c lru4 receiver.ipfrag.evict_active)" = 0 -a "$(c lru4 receiver.ipfrag.zombies)" = 0

# --- the evictor runs all the time; mem between low - (high - low) and high
m4=$(c lru4 receiver.ipfrag.mem_avg)
check "4M time-average mem in [2M, 4M] ($m4)" between "$m4" 2097152 4194304
check "4M largest sample at most 4 fragments over high ($(c lru4 receiver.ipfrag.mem_peak))" \
    between "$(c lru4 receiver.ipfrag.mem_peak)" 0 $((4194304 + 4 * 2944))

# --- FRAG inuse grows with the threshold (post: 4, 41, 442, 4665)
i256=$(c lru256 receiver.ipfrag.inuse_avg) i4=$(c lru4 receiver.ipfrag.inuse_avg)
i40=$(c lru40 receiver.ipfrag.inuse_avg) i400=$(c lru400 receiver.ipfrag.inuse_avg)
check "inuse 256K in 2-5 ($i256)" between "$i256" 2 5
check "inuse 4M in 29-55 ($i4)" between "$i4" 29 55
check "inuse 40M in 375-550 ($i40)" between "$i40" 375 550
check "inuse 400M in 3800-5500 ($i400)" between "$i400" 3800 5500

# --- dead queues live ~1 ms at 4M, 10-30 ms at 40M, 100-200 ms at 400M
life() { awk -v s="$(c "$1" receiver.ipfrag.dead_lifetime_us_sum)" -v n="$(c "$1" receiver.ipfrag.dead_evicted)" \
    'BEGIN { printf "%.0f", n ? s / n : 0 }'; }
check "dead-queue lifetime 4M 0.5-3 ms ($(life lru4) us)" between "$(life lru4)" 500 3000
check "dead-queue lifetime 40M 10-30 ms ($(life lru40) us)" between "$(life lru40)" 10000 30000
check "dead-queue lifetime 400M 100-200 ms ($(life lru400) us)" between "$(life lru400)" 100000 200000
# a miss walks about nqueues/64 entries, twice
walk=$(awk -v s="$(c lru400 receiver.ipfrag.walk_miss_steps)" -v n="$(c lru400 receiver.ipfrag.walk_miss)" \
    'BEGIN { printf "%.1f", s / n / 2 }')
check "400M miss walk about inuse/64 ($walk vs $((i400 / 64)))" between "$walk" $((i400 / 64 * 8 / 10)) $((i400 / 64 * 12 / 10))

# --- the curve: falls at 40M and at 400M below the 4M peak
check "40M below 4M ($g40 < $g4)" less "$g40" "$(awk -v g="$g4" 'BEGIN { print 0.9 * g }')"
check "400M below 4M ($g400 < $g4)" less "$g400" "$(awk -v g="$g4" 'BEGIN { print 0.9 * g }')"
check "40M costs more per fragment: NIC drops above 4M's" less "$(nicdrop lru4)" "$(nicdrop lru40)"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b ? a / b : 0 }'; }
check "40M/4M in 0.6-0.9 ($(ratio "$g40" "$g4"), post 0.75)" between "$(ratio "$g40" "$g4")" 0.6 0.9
check "400M/40M in 0.6-0.95 ($(ratio "$g400" "$g40"), post 0.79)" between "$(ratio "$g400" "$g40")" 0.6 0.95
# RX pages (nic.md 3.2): from 40M up every fragment outlives a ring cycle, yet
# half the pages flip: the fresh page a refill maps is free to flip once
pages() { awk -v r="$(($(c "$1" receiver.eth0.pages_recycled) + $(c "$1" receiver.eth1.pages_recycled)))" \
    -v a="$(($(c "$1" receiver.eth0.pages_alloc) + $(c "$1" receiver.eth1.pages_alloc)))" 'BEGIN { printf "%.3f", r / (r + a) }'; }
check "40M: about half the RX pages flip ($(pages lru40))" between "$(pages lru40)" 0.45 0.60

# --- 256K: the LRU kills warm queues, made worse by the two-CPU race
check "256K evicts warm queues and builds zombies" \
    test "$(c lru256 receiver.ipfrag.evict_active)" -gt 1000 -a "$(c lru256 receiver.ipfrag.zombies)" -gt 1000
check "256K near zero: 5-35% of 4M ($(ratio "$g256" "$g4"), post 0.22)" between "$(ratio "$g256" "$g4")" 0.05 0.35
ga=$(goodput atomic256)
check "256K: progressive frees halve goodput against atomic ($g256 vs $ga)" less "$((2 * g256))" "$ga"

# --- lru-warm: worse at 256K (the tail is always a live queue), no change at 4M
gw256=$(goodput warm256) gw4=$(goodput warm4)
check "lru-warm 256K below lru ($gw256 < $g256)" less "$gw256" "$g256"
check "lru-warm 4M within 15% of lru ($gw4 vs $g4)" between "$gw4" "$((g4 * 85 / 100))" "$((g4 * 115 / 100))"

# --- drop-new: dead queues fill mem, every fragment is dropped until they time out
gd=$(goodput dn4) gdt=$(goodput dn4t1)
late=$(sqlite3 "$tmp/dn4.db" "select printf('%.0f', coalesce(sum(bits_per_s), 0) / 1e6) from interval where t_start >= 1")
check "drop-new 4M stalls once mem is full: second 2 under 1% of lru's 4M ($late Mbit/s)" less "$((100 * late))" "$g4"
check "drop-new evicts nothing, drops by policy" \
    test "$(c dn4 receiver.ipfrag.evicted)" = 0 -a "$(c dn4 receiver.ipfrag.policy_drops)" -gt 100000
check "drop-new mem pinned at high ($(c dn4 receiver.ipfrag.mem_avg))" \
    between "$(c dn4 receiver.ipfrag.mem_avg)" $((4194304 - 3 * 2944)) $((4194304 + 2944))
check "drop-new with ipfrag_time 500ms: queues time out, goodput resumes ($gdt > $gd)" \
    test "$(c dn4t1 receiver.ipfrag.ReasmTimeout)" -gt 10 -a "$gdt" -gt "$gd"

# --- modern kernel, 0.1 % loss: mem pins at high and goodput stops at 4M;
# at 400M mem keeps growing and goodput stays normal; no loss: all delivered
lm=$(sqlite3 "$tmp/mod4.db" "select printf('%.0f', coalesce(sum(bits_per_s), 0) / 1e6) from interval where t_start >= 1")
check "modern drop-new 4M, 0.1% loss: mem pinned at high, second 2 under 1% of 8 Gbit/s ($lm Mbit/s)" \
    test "$((100 * lm))" -lt 8000 -a "$(c mod4 receiver.ipfrag.mem_peak)" -le $((4194304 + 2944))
g=$(goodput mod400)
check "modern drop-new 400M, 0.1% loss: goodput near the 8 Gbit/s offered ($g), mem growing" \
    test "$g" -gt 7400 -a "$(c mod400 receiver.ipfrag.mem_peak)" -gt $((100 * 1048576))
check "modern drop-new 4M, no loss: every datagram read, inuse at most 2" \
    test "$(c mod4clean receiver.ipfrag.ReasmFails)" = 0 -a "$(goodput mod4clean)" -gt 7900 -a "$(c mod4clean receiver.ipfrag.inuse_avg)" -le 2

# --- no loss and a receiver that keeps up: every datagram reassembled
s1=$(c noload flow.1.datagrams_sent) r1=$(c noload flow.1.datagrams_received)
check "1 Gbit/s each at 4M: no ReasmFails, every datagram read ($r1 of $s1)" \
    test "$(c noload receiver.ipfrag.ReasmFails)" = 0 -a "$(awk -v s="$s1" -v r="$r1" 'BEGIN { print (s - r <= 1) }')" = 1

# --- deterministic: same seed, same rows; another seed, other rows
q() { sqlite3 "$tmp/$1.db" "select name || '=' || value from counter order by name"; }
check "same seed, identical counters" test "$(q lru4)" = "$(q again4)"
check "another seed, other counters" test "$(q lru4)" != "$(q seed2)"
